/* SPDX-License-Identifier: Apache-2.0 */
/* fakedev.c - see fakedev.h. */
#include <stdlib.h>
#include <string.h>

#include "fakedev.h"
#include "ptpu_link.h"
#include "ref/ptpu_ref.h"

#define MAXPAY 4096

struct fake {
    struct ptpu_ref *r;
    struct ptpu_ref_cfg cfg;
    char name[17];
    struct fake_faults f;
    struct ptpu_link_dec dec;
    uint8_t *q;               /* bytes to the host */
    size_t qn, qcap, qpos;
    int nframes, nresp;
    struct ptpu_run_result res;
    int state;
    uint8_t prev_seq;         /* the previous request the firmware saw (not MEM_*, PING) */
    int prev_run;             /* ... was a RUN */
    uint32_t run_status;      /* the last RUN's answer: PTPU_STATUS_OK or an error */
    uint8_t payload[MAXPAY + 64];
};

static void out(struct fake *d, const uint8_t *b, size_t n)
{
    if (d->qn + n > d->qcap) {
        d->qcap = (d->qn + n) * 2;
        d->q = realloc(d->q, d->qcap);
        if (!d->q)
            abort();
    }
    memcpy(d->q + d->qn, b, n);
    d->qn += n;
}

static void respond(struct fake *d, uint8_t type, uint8_t seq, uint8_t flags, const void *p,
                    size_t n)
{
    uint8_t fr[MAXPAY + 64];
    if (d->f.silent)
        return;
    if (d->f.drop_every && ++d->nresp % d->f.drop_every == 0)
        return;
    if (d->f.noise_every)
        for (int i = 0; i < d->f.noise_every; i++) {
            uint8_t j = (uint8_t)(0x11 * i + 3);
            out(d, &j, 1);
        }
    if (d->f.garble)
        type ^= 0x40;
    out(d, fr, ptpu_link_encode(fr, type, flags, seq, p, n));
}

static void err(struct fake *d, uint8_t type, uint8_t seq, uint32_t st)
{
    uint8_t p[8];
    ptpu_put32(p, st);
    ptpu_put32(p + 4, 0);
    respond(d, type | 0x80, seq, PTPU_FLAG_ERR, p, 8);
}

static void run_answer(struct fake *d, uint8_t seq, uint32_t status)
{
    d->run_status = status;
    if (status)
        err(d, PTPU_PKT_RUN, seq, status);
    else
        respond(d, PTPU_PKT_RUN | 0x80, seq, 0, NULL, 0);
}

static void serve(struct fake *d, const struct ptpu_link_frame *f)
{
    uint8_t rt = f->type | 0x80, *p = d->payload;
    const uint8_t *in = f->payload;
    /* As the firmware (fw/src/cp/cp_serve.c): a RUN with the SEQ of the previous request
     * it saw, when that was a RUN, was resent and gets the same answer without a second
     * start. MEM_WRITE, MEM_READ and PING are answered by the link engine and never
     * reach the firmware. */
    if (f->type != PTPU_PKT_MEM_WRITE && f->type != PTPU_PKT_MEM_READ &&
        f->type != PTPU_PKT_PING) {
        int resend = f->type == PTPU_PKT_RUN && d->prev_run && d->prev_seq == f->seq;
        d->prev_run = f->type == PTPU_PKT_RUN;
        d->prev_seq = f->seq;
        if (resend) {
            run_answer(d, f->seq, d->run_status);
            return;
        }
    }
    switch (f->type) {
    case PTPU_PKT_INFO: {
        struct ptpu_link_info i = {PTPU_ID_MAGIC, PTPU_PROTOCOL_VERSION, PTPU_RTL_VERSION, 1,
                                   (uint32_t)d->cfg.n, (uint32_t)d->cfg.bf16,
                                   (uint32_t)d->cfg.ub_rows, (uint32_t)d->cfg.wb_rows,
                                   (uint32_t)d->cfg.acc_rows, (uint32_t)d->cfg.vp_rows,
                                   d->cfg.mem_kb, MAXPAY, 4, ""};
        memcpy(i.config_name, d->name, sizeof(i.config_name));
        respond(d, rt, f->seq, 0, p, ptpu_link_put_info(p, &i));
        break;
    }
    case PTPU_PKT_MEM_WRITE:
        if (f->len < 4 || ptpu_ref_mem_write(d->r, ptpu_get32(in), in + 4, f->len - 4u))
            err(d, f->type, f->seq, PTPU_STATUS_BAD_ADDRESS);
        else
            respond(d, rt, f->seq, 0, NULL, 0);
        break;
    case PTPU_PKT_MEM_READ: {
        uint32_t len = f->len == 8 ? ptpu_get32(in + 4) : 0;
        if (len < 1 || len > MAXPAY || ptpu_ref_mem_read(d->r, ptpu_get32(in), p, len))
            err(d, f->type, f->seq, PTPU_STATUS_BAD_ADDRESS);
        else
            respond(d, rt, f->seq, 0, p, len);
        break;
    }
    case PTPU_PKT_RUN: {
        if (d->f.reject_run) {
            run_answer(d, f->seq, PTPU_STATUS_BAD_PROGRAM);
            break;
        }
        uint32_t nw = f->len >= 16 ? ptpu_get32(in + 12) : 0;
        if (f->len != 16 + 12 * nw || nw < 1 || nw > 4) {
            run_answer(d, f->seq, PTPU_STATUS_BAD_LENGTH);
            break;
        }
        struct ptpu_window w[4];
        for (uint32_t i = 0; i < nw; i++)
            w[i] = (struct ptpu_window){ptpu_get32(in + 16 + 12 * i), ptpu_get32(in + 20 + 12 * i),
                                        ptpu_get32(in + 24 + 12 * i)};
        if (ptpu_ref_run(d->r, ptpu_get32(in), ptpu_get32(in + 4), w, (int)nw, &d->res)) {
            run_answer(d, f->seq, PTPU_STATUS_BAD_PROGRAM);
            break;
        }
        d->state = d->res.state;
        run_answer(d, f->seq, PTPU_STATUS_OK);
        break;
    }
    case PTPU_PKT_WAIT:
    case PTPU_PKT_STATUS: {
        struct ptpu_link_status s = {(uint32_t)d->state, (uint32_t)d->res.fault,
                                     d->res.fault_pc, d->res.fault_addr,
                                     d->res.counters[PTPU_CNT_CYCLES]};
        respond(d, rt, f->seq, 0, p, ptpu_link_put_status(p, &s));
        break;
    }
    case PTPU_PKT_COUNTERS: {
        struct ptpu_link_counters c;
        memset(&c, 0, sizeof(c));
        memcpy(c.counter, d->res.counters, sizeof(c.counter));
        respond(d, rt, f->seq, 0, p, ptpu_link_put_counters(p, &c));
        break;
    }
    default:
        err(d, f->type, f->seq, PTPU_STATUS_BAD_TYPE);
    }
}

static int fake_send(void *ctx, const uint8_t *buf, size_t len)
{
    struct fake *d = ctx;
    uint8_t *cp = malloc(len);
    memcpy(cp, buf, len);
    if (d->f.corrupt_every && ++d->nframes % d->f.corrupt_every == 0)
        cp[len / 2] ^= 0x10;
    /* The host only sends after a response or a time-out: a frame still in progress
     * was cut short, and the device's byte time-out has dropped it. */
    ptpu_link_dec_reset(&d->dec);
    size_t off = 0;
    while (off < len) {
        struct ptpu_link_frame f;
        size_t used;
        int ev = ptpu_link_dec_feed(&d->dec, cp + off, len - off, &used, &f);
        off += used;
        if (ev == PTPU_LINK_DEC_FRAME)
            serve(d, &f);
        else if (ev == PTPU_LINK_DEC_BAD_CRC) {
            uint8_t fr[16];
            if (!d->f.silent)
                out(d, fr, ptpu_link_resp_nak(fr, f.seq, PTPU_NAK_CRC));
        }
    }
    free(cp);
    return 0;
}

static long fake_recv(void *ctx, uint8_t *buf, size_t max, uint64_t budget)
{
    struct fake *d = ctx;
    (void)budget;
    size_t n = d->qn - d->qpos < max ? d->qn - d->qpos : max;
    if (n)
        memcpy(buf, d->q + d->qpos, n);
    d->qpos += n;
    if (d->qpos == d->qn)
        d->qpos = d->qn = 0;
    return (long)n;
}

static void fake_close(void *ctx)
{
    struct fake *d = ctx;
    ptpu_ref_destroy(d->r);
    ptpu_link_dec_free(&d->dec);
    free(d->q);
    free(d);
}

int fake_xport(const char *cfg, const struct fake_faults *f, struct ptpu_xport *x)
{
    struct fake *d = calloc(1, sizeof(*d));
    if (!d || ptpu_ref_cfg_named(cfg, &d->cfg) || ptpu_ref_create(&d->cfg, &d->r) ||
        ptpu_link_dec_init(&d->dec, MAXPAY + 16))
        return -1;
    snprintf(d->name, sizeof(d->name), "%.16s", cfg);
    if (f)
        d->f = *f;
    d->state = PTPU_STATE_IDLE;
    memset(x, 0, sizeof(*x));
    x->ctx = d;
    x->send = fake_send;
    x->recv = fake_recv;
    x->close = fake_close;
    x->timeout = 1000;
    x->run_budget = 1000;
    return 0;
}

int fake_mem_write(void *ctx, uint32_t addr, const void *data, size_t len)
{
    struct fake *d = ctx;
    return ptpu_ref_mem_write(d->r, addr, data, len);
}

int fake_mem_read(void *ctx, uint32_t addr, void *data, size_t len)
{
    struct fake *d = ctx;
    return ptpu_ref_mem_read(d->r, addr, data, len);
}

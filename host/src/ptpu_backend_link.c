/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_backend_link.c - a device behind the link protocol (docs/isa.md "Link
 * protocol"), over any byte transport: the sim backend's simulated link port,
 * the usb backend's UART, or a test device.  Requests are resent after a NAK,
 * a bad CRC or a time-out (RUN with the same SEQ, which the firmware answers
 * without starting the program again).
 */
#include <stdlib.h>
#include <string.h>

#include "ptpu_link.h"
#include "ptpu_runtime.h"

#define RETRIES 5

struct linkbe {
    struct ptpu_xport x;
    struct ptpu_link_dec dec;
    uint8_t seq;
    uint8_t *tx;
    size_t max_payload;
    uint32_t mem_kb;
    uint64_t naks, resends;
};

/* One request, its response in *f (payload valid until the next request). */
static int request(struct ptpu_device *dev, uint8_t type, const uint8_t *frame, size_t flen,
                   uint64_t budget, struct ptpu_link_frame *f)
{
    struct linkbe *b = dev->be;
    uint8_t buf[512];
    for (int attempt = 0; attempt <= RETRIES; attempt++) {
        if (attempt)
            b->resends++;
        int rc = b->x.send(b->x.ctx, frame, flen);
        if (rc)
            return ptpu_dev_fail(dev, PTPU_ERR_IO, "link: send failed (%d)", rc);
        uint64_t waited = 0;
        int resend = 0;
        while (!resend) {
            uint64_t slice = budget ? budget - waited : b->x.timeout;
            if (budget && waited >= budget)
                break;
            long n = b->x.recv(b->x.ctx, buf, sizeof(buf), slice);
            if (n < 0)
                return ptpu_dev_fail(dev, (int)n, "link: receive failed");
            if (n == 0) {
                waited += slice;
                if (!budget || waited >= budget) {
                    ptpu_link_dec_reset(&b->dec);
                    break;              /* time-out: resend */
                }
                continue;
            }
            size_t off = 0;
            while (off < (size_t)n) {
                size_t used;
                int ev = ptpu_link_dec_feed(&b->dec, buf + off, (size_t)n - off, &used, f);
                off += used;
                if (ev == PTPU_LINK_DEC_BAD_CRC || ev == PTPU_LINK_DEC_BAD_LENGTH) {
                    resend = 1;          /* our response was damaged: ask again */
                    break;
                }
                if (ev != PTPU_LINK_DEC_FRAME)
                    continue;
                uint32_t st = 0, det = 0;
                switch (ptpu_link_check_response(f, type, b->seq, &st, &det)) {
                case PTPU_LINK_RESP_OK:
                    return 0;
                case PTPU_LINK_RESP_ERR:
                    return ptpu_dev_fail(dev, st == PTPU_STATUS_BUSY ? PTPU_ERR_BUSY
                                                                    : PTPU_ERR_DEVICE,
                                         "link: request 0x%02x rejected: status %u, detail 0x%x",
                                         type, st, det);
                case PTPU_LINK_RESP_NAK:
                    b->naks++;
                    resend = 1;
                    break;
                default:
                    if (f->seq == b->seq && f->type != PTPU_PKT_NAK)
                        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL,
                                             "link: unexpected response type 0x%02x (flags 0x%x, "
                                             "%u bytes) to request 0x%02x",
                                             f->type, f->flags, f->len, type);
                    break;              /* a stale response: ignore */
                }
                if (resend)
                    break;
            }
        }
    }
    return ptpu_dev_fail(dev, PTPU_ERR_TIMEOUT,
                         "link: no good response to request 0x%02x after %d attempts", type,
                         RETRIES + 1);
}

static int simple(struct ptpu_device *dev, uint8_t type, size_t flen, uint64_t budget,
                  struct ptpu_link_frame *f)
{
    struct linkbe *b = dev->be;
    return request(dev, type, b->tx, flen, budget, f);
}

int ptpu_link_open(struct ptpu_device *dev, const struct ptpu_xport *x)
{
    struct linkbe *b = calloc(1, sizeof(*b));
    if (!b) {
        if (x->close)
            x->close(x->ctx);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    }
    b->x = *x;
    b->tx = malloc(PTPU_LINK_MAX_LEN + PTPU_LINK_OVERHEAD + 8);
    if (!b->tx || ptpu_link_dec_init(&b->dec, PTPU_LINK_MAX_LEN)) {
        if (x->close)
            x->close(x->ctx);
        free(b->tx);
        free(b);
        return ptpu_dev_fail(dev, PTPU_ERR_NO_MEM, "out of memory");
    }
    dev->be = b;
    struct ptpu_link_frame f;
    struct ptpu_link_info in;
    int rc = simple(dev, PTPU_PKT_INFO, ptpu_link_req_info(b->tx, ++b->seq), 0, &f);
    if (!rc && ptpu_link_parse_info(&f, &in))
        rc = ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: INFO response of %u bytes", f.len);
    if (!rc && (in.magic != PTPU_ID_MAGIC || in.protocol_version != PTPU_PROTOCOL_VERSION))
        rc = ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL,
                           "link: device magic 0x%08x protocol %u (expected 0x%08x, %u)",
                           in.magic, in.protocol_version, PTPU_ID_MAGIC, PTPU_PROTOCOL_VERSION);
    if (!rc && (in.max_payload < 64 || in.n < 1 || in.mem_kb < 1))
        rc = ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: implausible INFO (N %u, payload %u)",
                           in.n, in.max_payload);
    if (rc) {
        ptpu_backend_link.close(dev);
        return rc;
    }
    b->max_payload = in.max_payload;
    struct ptpu_device_info *i = &dev->info;
    snprintf(i->config, sizeof(i->config), "%.16s", in.config_name);
    i->n = (int)in.n;
    i->bf16 = in.flags & 1;
    i->ub_rows = (int)in.ub_rows;
    i->wb_rows = (int)in.wb_rows;
    i->acc_rows = (int)in.acc_rows;
    i->vp_rows = (int)in.vp_rows;
    i->mem_kb = in.mem_kb;
    return 0;
}

static int link_open(struct ptpu_device *dev, const char *opts)
{
    (void)opts;
    return ptpu_dev_fail(dev, PTPU_ERR_NO_DEVICE, "link: open through a transport");
}

static void link_close(struct ptpu_device *dev)
{
    struct linkbe *b = dev->be;
    if (!b)
        return;
    if (b->x.close)
        b->x.close(b->x.ctx);
    ptpu_link_dec_free(&b->dec);
    free(b->tx);
    free(b);
    dev->be = NULL;
}

static int link_write(struct ptpu_device *dev, uint32_t addr, const void *data, size_t len)
{
    struct linkbe *b = dev->be;
    if (b->x.poke)
        return b->x.poke(b->x.ctx, addr, data, len) ? ptpu_dev_fail(dev, PTPU_ERR_RANGE,
                                                                    "backdoor write failed")
                                                    : 0;
    size_t chunk = b->max_payload - 4;
    for (size_t off = 0; off < len; off += chunk) {
        size_t l = len - off < chunk ? len - off : chunk;
        struct ptpu_link_frame f;
        size_t fl = ptpu_link_req_mem_write(b->tx, ++b->seq, addr + (uint32_t)off,
                                            (const uint8_t *)data + off, l);
        int rc = simple(dev, PTPU_PKT_MEM_WRITE, fl, 0, &f);
        if (rc)
            return rc;
    }
    return 0;
}

static int link_read(struct ptpu_device *dev, uint32_t addr, void *data, size_t len)
{
    struct linkbe *b = dev->be;
    if (b->x.peek)
        return b->x.peek(b->x.ctx, addr, data, len) ? ptpu_dev_fail(dev, PTPU_ERR_RANGE,
                                                                    "backdoor read failed")
                                                    : 0;
    size_t chunk = b->max_payload;
    for (size_t off = 0; off < len; off += chunk) {
        size_t l = len - off < chunk ? len - off : chunk;
        struct ptpu_link_frame f;
        int rc = simple(dev, PTPU_PKT_MEM_READ,
                        ptpu_link_req_mem_read(b->tx, ++b->seq, addr + (uint32_t)off, (uint32_t)l),
                        0, &f);
        if (rc)
            return rc;
        if (f.len != l)
            return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: MEM_READ of %zu returned %u",
                                 l, f.len);
        memcpy((uint8_t *)data + off, f.payload, l);
    }
    return 0;
}

static int link_start(struct ptpu_device *dev, uint32_t prog_addr, uint32_t ninsns)
{
    struct linkbe *b = dev->be;
    uint64_t mem = (uint64_t)dev->info.mem_kb * 1024;
    struct ptpu_link_window w = {0, mem >= (1ull << 32) ? 0xffffffe0u : (uint32_t)mem, 3};
    struct ptpu_link_frame f;
    if (b->x.hint)
        b->x.hint(b->x.ctx, dev->run_estimate);
    return simple(dev, PTPU_PKT_RUN,
                  ptpu_link_req_run(b->tx, ++b->seq, prog_addr, ninsns, 0, &w, 1), 0, &f);
}

static int link_wait(struct ptpu_device *dev, struct ptpu_run_status *st)
{
    struct linkbe *b = dev->be;
    struct ptpu_link_frame f;
    struct ptpu_link_status s;
    int rc = simple(dev, PTPU_PKT_WAIT, ptpu_link_req_wait(b->tx, ++b->seq, 0),
                    b->x.run_budget ? b->x.run_budget : UINT64_MAX, &f);
    if (rc)
        return rc;
    if (ptpu_link_parse_status(&f, &s))
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: WAIT response of %u bytes", f.len);
    if (s.state == PTPU_STATE_RUNNING)
        return ptpu_dev_fail(dev, PTPU_ERR_TIMEOUT, "link: the program still runs");
    st->state = (int)s.state;
    st->fault = (int)s.fault;
    st->fault_pc = s.fault_pc;
    st->fault_addr = s.fault_addr;
    struct ptpu_link_counters c;
    rc = simple(dev, PTPU_PKT_COUNTERS, ptpu_link_req_counters(b->tx, ++b->seq), 0, &f);
    if (rc)
        return rc;
    if (ptpu_link_parse_counters(&f, &c))
        return ptpu_dev_fail(dev, PTPU_ERR_PROTOCOL, "link: COUNTERS response of %u bytes",
                             f.len);
    memcpy(st->counters, c.counter, sizeof(st->counters));
    return 0;
}

const struct ptpu_backend_ops ptpu_backend_link = {"link", link_open, link_close, link_write,
                                                   link_read, link_start, link_wait};

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_link.c - testbench of tpu_link: a host (ptpu_link codec) talks to the link engine
 * through error-injecting byte channels, an AXI memory model in C serves MEM_WRITE and
 * MEM_READ, and a fake firmware in C answers mailbox requests over the register bus.
 *
 *   tb_link_X Name=Value... [--seed N] [--requests N] [--bench]
 *
 * The Name=Value list is the model's parameter set (MaxPayload, MemKb, BufBytes, MaxBurst,
 * BackPressure, ByteTimeout).  Tests: directed (every error class, exact counters), random
 * traffic of every packet type with bit errors, dropped, duplicated and garbage bytes in
 * both directions (every request must complete correctly after retries; a response that
 * differs from the C model is a failure), and with --bench the throughput of MEM_WRITE and
 * MEM_READ at the largest payload.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "link_model.h"
#include "tb.h"

static struct link_cfg g_cfg = {4096, 1024, 32, 16, 1, 2000, 0};
static tb_t *g_tb;
static int g_verbose;   /* LINK_VERBOSE=1: print every failed check */

#define CHK(cond, ...)                                                          \
    do {                                                                        \
        if (!(cond)) {                                                          \
            if (g_verbose) {                                                    \
                fprintf(stderr, "cycle %llu: ", (unsigned long long)g_tb->cycle); \
                fprintf(stderr, __VA_ARGS__);                                   \
                fputc('\n', stderr);                                            \
            }                                                                   \
            tb_fail_msg(g_tb, __FILE__, __LINE__, __VA_ARGS__);                 \
        }                                                                       \
    } while (0)

/* ---------------------------------------------------------------------------------------
 * DUT ports */
static struct {
    tb_sig_t *s_valid, *s_ready, *s_data, *m_valid, *m_ready, *m_data;
    tb_sig_t *arvalid, *arready, *arid, *araddr, *arlen;
    tb_sig_t *rvalid, *rready, *rid, *rdata, *rresp, *rlast;
    tb_sig_t *awvalid, *awready, *awid, *awaddr, *awlen;
    tb_sig_t *wvalid, *wready, *wdata, *wstrb, *wlast;
    tb_sig_t *bvalid, *bready, *bid, *bresp;
    tb_sig_t *reg_req, *reg_we, *reg_addr, *reg_wdata, *reg_rdata, *irq;
} P;

static void ports_open(tb_t *tb)
{
#define S(f, n) P.f = tb_sig(tb, n)
    S(s_valid, "s_byte_valid_i"); S(s_ready, "s_byte_ready_o"); S(s_data, "s_byte_data_i");
    S(m_valid, "m_byte_valid_o"); S(m_ready, "m_byte_ready_i"); S(m_data, "m_byte_data_o");
    S(arvalid, "m_axi_arvalid_o"); S(arready, "m_axi_arready_i"); S(arid, "m_axi_arid_o");
    S(araddr, "m_axi_araddr_o"); S(arlen, "m_axi_arlen_o");
    S(rvalid, "m_axi_rvalid_i"); S(rready, "m_axi_rready_o"); S(rid, "m_axi_rid_i");
    S(rdata, "m_axi_rdata_i"); S(rresp, "m_axi_rresp_i"); S(rlast, "m_axi_rlast_i");
    S(awvalid, "m_axi_awvalid_o"); S(awready, "m_axi_awready_i"); S(awid, "m_axi_awid_o");
    S(awaddr, "m_axi_awaddr_o"); S(awlen, "m_axi_awlen_o");
    S(wvalid, "m_axi_wvalid_o"); S(wready, "m_axi_wready_i"); S(wdata, "m_axi_wdata_o");
    S(wstrb, "m_axi_wstrb_o"); S(wlast, "m_axi_wlast_o");
    S(bvalid, "m_axi_bvalid_i"); S(bready, "m_axi_bready_o"); S(bid, "m_axi_bid_i");
    S(bresp, "m_axi_bresp_i");
    S(reg_req, "reg_req_i"); S(reg_we, "reg_we_i"); S(reg_addr, "reg_addr_i");
    S(reg_wdata, "reg_wdata_i"); S(reg_rdata, "reg_rdata_o"); S(irq, "irq_o");
#undef S
}

/* ---------------------------------------------------------------------------------------
 * AXI memory model: in-order, random latency and ready, SLVERR on poisoned beats. */
#define AXQ 1024
struct axb { uint32_t addr; int len; uint64_t at; int resp; };
static struct {
    struct link_mem m;
    struct axb ar[AXQ]; int ar_h, ar_n, r_beat;
    struct axb aw[AXQ]; int aw_h, aw_n, w_beat, w_err;
    struct axb b[AXQ]; int b_h, b_n;
    unsigned p_ar, p_r, p_aw, p_w, p_b;   /* percent per cycle */
    int lat_min, lat_max;
    /* outputs this cycle */
    int arready, rvalid, awready, wready, bvalid;
    uint64_t rbeats, wbeats, bursts;
    int errors;
} A;

static void axi_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void axi_error(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    A.errors++;
    CHK(0, "axi: %s (cycle %llu)", msg, (unsigned long long)g_tb->cycle);
}

static int lat(void) { return (int)tb_rand_range(g_tb, A.lat_min, A.lat_max); }

static void axi_drive(void)
{
    tb_t *tb = g_tb;
    A.arready = A.ar_n < AXQ && tb_chance(tb, A.p_ar, 100);
    A.awready = A.aw_n < AXQ && tb_chance(tb, A.p_aw, 100);
    A.rvalid = A.ar_n > 0 && A.ar[A.ar_h].at <= tb->cycle && tb_chance(tb, A.p_r, 100);
    A.wready = A.aw_n > 0 && tb_chance(tb, A.p_w, 100);
    A.bvalid = A.b_n > 0 && A.b[A.b_h].at <= tb->cycle && tb_chance(tb, A.p_b, 100);
    tb_set(P.arready, A.arready);
    tb_set(P.awready, A.awready);
    tb_set(P.wready, A.wready);
    tb_set(P.rvalid, A.rvalid);
    tb_set(P.bvalid, A.bvalid);
    tb_set(P.rid, 0);
    tb_set(P.bid, 0);
    if (A.rvalid) {
        struct axb *r = &A.ar[A.ar_h];
        uint32_t a = r->addr + 32u * (uint32_t)A.r_beat;
        int bad = a >= A.m.size || A.m.poison[a / 32];
        uint32_t *w = tb_words(P.rdata);
        for (int i = 0; i < 8; i++)
            w[i] = bad ? 0 : ptpu_get32(A.m.data + a + 4 * i);
        tb_set(P.rresp, bad ? 2 : 0);
        tb_set(P.rlast, A.r_beat == r->len);
    }
    if (A.bvalid)
        tb_set(P.bresp, A.b[A.b_h].resp);
}

/* Handshakes of this cycle (outputs sampled after tb_fall). */
static void axi_update(void)
{
    tb_t *tb = g_tb;
    if (tb_get(P.arvalid) && A.arready) {
        uint32_t a = (uint32_t)tb_get(P.araddr);
        int len = (int)tb_get(P.arlen);
        if (a % 32 || len + 1 > (int)g_cfg.max_burst || (a & 4095) + 32u * (len + 1) > 4096)
            axi_error("bad AR addr %08x len %d", a, len);
        if ((uint64_t)a + 32u * (len + 1) > A.m.size)
            axi_error("AR beyond memory: %08x len %d", a, len);
        if (tb_get(P.arid) != 0)
            axi_error("AR id");
        A.ar[(A.ar_h + A.ar_n++) % AXQ] = (struct axb){a, len, tb->cycle + (uint64_t)lat(), 0};
        A.bursts++;
    }
    if (A.rvalid && tb_get(P.rready)) {
        A.rbeats++;
        if (A.r_beat++ == A.ar[A.ar_h].len) {
            A.r_beat = 0;
            A.ar_h = (A.ar_h + 1) % AXQ;
            A.ar_n--;
        }
    }
    if (tb_get(P.awvalid) && A.awready) {
        uint32_t a = (uint32_t)tb_get(P.awaddr);
        int len = (int)tb_get(P.awlen);
        if (a % 32 || len + 1 > (int)g_cfg.max_burst || (a & 4095) + 32u * (len + 1) > 4096)
            axi_error("bad AW addr %08x len %d", a, len);
        if ((uint64_t)a + 32u * (len + 1) > A.m.size)
            axi_error("AW beyond memory: %08x len %d", a, len);
        if (tb_get(P.awid) != 0)
            axi_error("AW id");
        A.aw[(A.aw_h + A.aw_n++) % AXQ] = (struct axb){a, len, 0, 0};
        A.bursts++;
    }
    if (tb_get(P.wvalid) && A.wready) {
        struct axb *w = &A.aw[A.aw_h];
        uint32_t a = w->addr + 32u * (uint32_t)A.w_beat;
        const uint32_t *d = tb_words(P.wdata);
        uint32_t strb = (uint32_t)tb_get(P.wstrb);
        int last = (int)tb_get(P.wlast);
        if (last != (A.w_beat == w->len))
            axi_error("wlast %d on beat %d of %d", last, A.w_beat, w->len + 1);
        if (strb == 0)
            axi_error("W beat without strobes at %08x", a);
        if (a >= A.m.size || A.m.poison[a / 32]) {
            A.w_err = 1;
        } else {
            for (int i = 0; i < 32; i++)
                if (strb >> i & 1)
                    A.m.data[a + i] = (uint8_t)(d[i / 4] >> (8 * (i % 4)));
        }
        A.wbeats++;
        if (A.w_beat++ == w->len) {
            A.b[(A.b_h + A.b_n++) % AXQ] =
                (struct axb){w->addr, w->len, tb->cycle + (uint64_t)lat(), A.w_err ? 2 : 0};
            A.w_beat = 0;
            A.w_err = 0;
            A.aw_h = (A.aw_h + 1) % AXQ;
            A.aw_n--;
        }
    }
    if (A.bvalid && tb_get(P.bready)) {
        A.b_h = (A.b_h + 1) % AXQ;
        A.b_n--;
    }
}

/* ---------------------------------------------------------------------------------------
 * Fake firmware on the register bus: polls RX_STATUS, reads the request, answers it
 * with fw_model_respond(), frees the RX buffer (before or after TX_SEND, at random). */
enum { FW_POLL, FW_HDR, FW_LEN, FW_RXBUF, FW_THINK, FW_TXBUF, FW_TXHDR, FW_TXLEN, FW_TXSTAT,
       FW_SEND, FW_DONE, FW_WAIT_TX };
static struct {
    int st, rd_pending, rd_kind, delay, idx, done_first, did_done, did_send;
    uint32_t hdr, len;
    uint8_t rx[PTPU_MAILBOX_BYTES + 4], tx[PTPU_MAILBOX_BYTES + 4];
    uint8_t rtype, rflags;
    int rlen;
    int max_delay;
    uint64_t served;
    /* this cycle's bus request */
    int req, we;
    uint32_t addr, wdata;
} F;

static void fw_bus(int we, uint32_t addr, uint32_t wdata)
{
    F.req = 1;
    F.we = we;
    F.addr = addr;
    F.wdata = wdata;
    F.rd_pending = !we;
}

/* Called once per cycle before the edge: process last cycle's read data, then pick this
 * cycle's request. */
static void fw_step(void)
{
    uint32_t rd = F.rd_pending ? (uint32_t)tb_get(P.reg_rdata) : 0;
    int had_rd = F.rd_pending;
    F.req = 0;
    F.rd_pending = 0;
    if (F.delay > 0) {
        F.delay--;
        return;
    }
    switch (F.st) {
    case FW_POLL:
        if (had_rd && (rd & 1)) {
            F.st = FW_HDR;
            fw_bus(0, PTPU_LINK_RX_HDR & 0xfff, 0);
        } else {
            if (had_rd)
                F.delay = (int)tb_rand_range(g_tb, 0, 3);
            else
                fw_bus(0, PTPU_LINK_RX_STATUS & 0xfff, 0);
        }
        break;
    case FW_HDR:
        F.hdr = rd;
        F.st = FW_LEN;
        fw_bus(0, PTPU_LINK_RX_LEN & 0xfff, 0);
        break;
    case FW_LEN:
        F.len = rd;
        CHK(tb_get(P.irq) == 1, "fw: irq_o low while a request waits");
        if (F.len > PTPU_MAILBOX_BYTES) {
            CHK(0, "fw: RX_LEN %u above the mailbox", F.len);
            F.len = PTPU_MAILBOX_BYTES;
        }
        F.idx = 0;
        F.st = FW_RXBUF;
        if (F.len > 0)
            fw_bus(0, (PTPU_LINK_RX_BUF & 0xfff), 0);
        break;
    case FW_RXBUF:
        if (had_rd) {
            ptpu_put32(F.rx + 4 * F.idx, rd);
            F.idx++;
        }
        if (4u * (uint32_t)F.idx < F.len) {
            fw_bus(0, (PTPU_LINK_RX_BUF & 0xfff) + 4u * (uint32_t)F.idx, 0);
        } else {
            F.rlen = fw_model_respond(&g_cfg, (uint8_t)F.hdr, F.rx, (uint16_t)F.len, &F.rtype,
                                      &F.rflags, F.tx);
            F.st = FW_THINK;
            F.delay = (int)tb_rand_range(g_tb, 0, F.max_delay);
            F.done_first = tb_chance(g_tb, 1, 3);
            F.did_done = F.did_send = 0;
            F.idx = 0;
        }
        break;
    case FW_THINK:
        if (F.done_first && !F.did_done) {
            F.did_done = 1;
            fw_bus(1, PTPU_LINK_RX_DONE & 0xfff, 0);
            break;
        }
        F.st = FW_TXSTAT;
        fw_bus(0, PTPU_LINK_TX_STATUS & 0xfff, 0);
        break;
    case FW_TXSTAT: /* the TX buffer must be free before it is written */
        if (rd & 1) {
            fw_bus(0, PTPU_LINK_TX_STATUS & 0xfff, 0);
            break;
        }
        F.st = FW_TXBUF;
        /* fall through */
    case FW_TXBUF:
        if (4 * F.idx < F.rlen) {
            fw_bus(1, (PTPU_LINK_TX_BUF & 0xfff) + 4u * (uint32_t)F.idx,
                   ptpu_get32(F.tx + 4 * F.idx));
            F.idx++;
        } else {
            F.st = FW_TXHDR;
            fw_bus(1, PTPU_LINK_TX_HDR & 0xfff,
                   F.rtype | (uint32_t)F.rflags << 8 | (F.hdr & 0xff0000u));
        }
        break;
    case FW_TXHDR:
        F.st = FW_TXLEN;
        fw_bus(1, PTPU_LINK_TX_LEN & 0xfff, (uint32_t)F.rlen);
        break;
    case FW_TXLEN:
        F.st = FW_SEND;
        fw_bus(1, PTPU_LINK_TX_SEND & 0xfff, 1);
        break;
    case FW_SEND:
        F.served++;
        if (!F.did_done) {
            F.did_done = 1;
            F.delay = (int)tb_rand_range(g_tb, 0, 4);
            F.st = FW_DONE;
        } else {
            F.st = FW_POLL;
        }
        break;
    case FW_DONE:
        fw_bus(1, PTPU_LINK_RX_DONE & 0xfff, 0);
        F.st = FW_POLL;
        break;
    default:
        F.st = FW_POLL;
        break;
    }
}

/* ---------------------------------------------------------------------------------------
 * Byte channels with error injection. */
#define CHQ (1 << 18)
struct chan {
    uint8_t q[CHQ];
    int h, n;
    /* per-byte error probabilities in parts per million */
    unsigned flip, drop, dup;
    uint64_t flips, drops, dups;
};
static struct chan H2D, D2H;
static struct ptpu_link_dec g_dec;

static void chan_push_raw(struct chan *c, uint8_t b)
{
    if (c->n >= CHQ) {
        CHK(0, "channel overflow");
        return;
    }
    c->q[(c->h + c->n++) % CHQ] = b;
}

static void chan_push(struct chan *c, uint8_t b)
{
    tb_t *tb = g_tb;
    if (c->drop && tb_chance(tb, c->drop, 1000000)) {
        c->drops++;
        return;
    }
    if (c->flip && tb_chance(tb, c->flip, 1000000)) {
        b ^= (uint8_t)(1u << tb_rand_range(tb, 0, 7));
        c->flips++;
    }
    chan_push_raw(c, b);
    if (c->dup && tb_chance(tb, c->dup, 1000000)) {
        chan_push_raw(c, b);
        c->dups++;
    }
}

static void chan_push_buf(struct chan *c, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        chan_push(c, p[i]);
}

/* ---------------------------------------------------------------------------------------
 * One clock cycle of everything. */
static unsigned g_gap = 0;      /* percent of cycles without a byte offered */
static unsigned g_mready = 100; /* percent of cycles with m_byte_ready high */
static int g_s_valid;
static uint64_t g_last_d2h;   /* cycle of the last byte from the device */
static struct ptpu_link_host *g_host;   /* random traffic: the host helper gets the bytes */
static uint64_t g_rx_events[3];
static struct ptpu_link_frame g_frames[64];
static uint8_t g_frame_data[64][65536 + 16];
static int g_nframes;

static void cycle(void)
{
    tb_t *tb = g_tb;
    /* inputs */
    g_s_valid = H2D.n > 0 && !tb_chance(tb, g_gap, 100);
    tb_set(P.s_valid, g_s_valid);
    tb_set(P.s_data, g_s_valid ? H2D.q[H2D.h] : 0);
    int mready = tb_chance(tb, g_mready, 100);
    tb_set(P.m_ready, mready);
    axi_drive();
    fw_step();
    tb_set(P.reg_req, F.req);
    tb_set(P.reg_we, F.we);
    tb_set(P.reg_addr, F.addr);
    tb_set(P.reg_wdata, F.wdata);
    tb_fall(tb);
    /* handshakes */
    if (g_s_valid && tb_get(P.s_ready)) {
        H2D.h = (H2D.h + 1) % CHQ;
        H2D.n--;
    }
    if (mready && tb_get(P.m_valid)) {
        chan_push(&D2H, (uint8_t)tb_get(P.m_data));
        g_last_d2h = tb->cycle;
    }
    axi_update();
    tb_rise(tb);
    /* the host's decoder: the response channel has no latency */
    while (D2H.n > 0) {
        uint8_t b = D2H.q[D2H.h];
        D2H.h = (D2H.h + 1) % CHQ;
        D2H.n--;
        if (g_host) {
            ptpu_link_host_rx(g_host, &b, 1, tb->cycle);
            continue;
        }
        struct ptpu_link_frame f;
        int ev = ptpu_link_dec_feed(&g_dec, &b, 1, NULL, &f);
        if (ev == PTPU_LINK_DEC_FRAME && g_nframes < 64) {
            memcpy(g_frame_data[g_nframes], f.payload, f.len);
            f.payload = g_frame_data[g_nframes];
            g_frames[g_nframes++] = f;
        } else if (ev < 0) {
            g_rx_events[-ev]++;
        }
    }
}

static uint32_t reg_read(uint32_t addr)
{
    /* only while the fake firmware is idle between polls: borrow the bus for two cycles */
    CHK(F.st == FW_POLL, "reg_read while the firmware is busy");
    F.rd_pending = 0;
    tb_set(P.reg_req, 1);
    tb_set(P.reg_we, 0);
    tb_set(P.reg_addr, addr & 0xfff);
    tb_tick(g_tb);
    tb_set(P.reg_req, 0);
    tb_fall(g_tb);
    uint32_t v = (uint32_t)tb_get(P.reg_rdata);
    tb_rise(g_tb);
    return v;
}

struct link_counts { uint32_t rx, crc, drop, tx; };
static struct link_counts read_counts(void)
{
    struct link_counts c;
    c.rx = reg_read(PTPU_LINK_RX_FRAMES);
    c.crc = reg_read(PTPU_LINK_RX_CRC_ERRORS);
    c.drop = reg_read(PTPU_LINK_RX_DROPPED);
    c.tx = reg_read(PTPU_LINK_TX_FRAMES);
    return c;
}

/* Runs until n frames were decoded or the cycle limit passes; returns frames decoded. */
static int run_until_frames(int n, uint64_t max_cycles)
{
    uint64_t end = g_tb->cycle + max_cycles;
    while (g_nframes < n && g_tb->cycle < end)
        cycle();
    return g_nframes;
}

static void run_idle(uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++)
        cycle();
}

static void set_clean(void)
{
    H2D.flip = H2D.drop = H2D.dup = 0;
    D2H.flip = D2H.drop = D2H.dup = 0;
}

/* ---------------------------------------------------------------------------------------
 * Directed tests */
static uint8_t g_frame[70000];

static int expect_frame(const char *what, const struct link_expect *e, uint8_t seq)
{
    g_nframes = 0;
    run_until_frames(1, 200000 + 20u * g_cfg.max_payload);
    if (g_nframes != 1) {
        CHK(0, "%s: no response", what);
        return 0;
    }
    struct ptpu_link_frame *f = &g_frames[0];
    int ok = f->type == e->type && f->flags == e->flags && f->seq == seq && f->len == e->len &&
             memcmp(f->payload, e->payload, e->len) == 0;
    CHK(ok, "%s: response type %02x flags %x seq %u len %u, expected %02x %x %u %u",
             what, f->type, f->flags, f->seq, f->len, e->type, e->flags, seq, e->len);
    return ok;
}

static struct link_expect g_exp;
static int frames_ok, frames_crc, frames_drop, frames_tx;   /* expected counter increments */

/* Sends a request frame and checks the response against the model: a frame longer than
 * MaxPayload gets NAK LENGTH, any other the model's response. */
static int transact(const char *what, uint8_t type, uint8_t seq, const uint8_t *p, uint16_t len)
{
    size_t n = ptpu_link_encode(g_frame, type, 0, seq, p, len);
    chan_push_buf(&H2D, g_frame, n);
    frames_tx++;
    if (len > g_cfg.max_payload) {
        struct link_expect nak = {PTPU_PKT_NAK, 0, 1, {PTPU_NAK_LENGTH}};
        frames_drop++;
        g_exp.flags = PTPU_FLAG_ERR;
        return expect_frame(what, &nak, seq) && 0;
    }
    frames_ok++;
    link_model_request(&g_cfg, &A.m, type, p, len, 0, &g_exp);
    return expect_frame(what, &g_exp, seq);
}

static uint8_t *g_shadow, *g_known;

static void shadow_write(uint32_t addr, const uint8_t *d, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!A.m.poison[(addr + i) / 32]) {
            g_shadow[addr + i] = d[i];
            g_known[addr + i] = 1;
        }
}

static void check_shadow(const char *what)
{
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 0; i < A.m.size; i++)
        if (g_known[i] && g_shadow[i] != A.m.data[i]) {
            if (!bad)
                first = i;
            bad++;
        }
    CHK(bad == 0, "%s: %u memory bytes differ from the model, first at %08x", what,
             bad, first);
}

static void test_directed(void)
{
    tb_t *tb = g_tb;
    uint8_t p[70000];
    uint8_t seq = 1;
    char what[96];
    tb_begin(tb);
    set_clean();
    g_gap = 0;
    g_mready = 100;
    struct link_counts c0 = read_counts();
    frames_ok = frames_crc = frames_drop = frames_tx = 0;

    /* PING of every size class */
    int sizes[] = {0, 1, 3, 4, 31, 32, 33, 200, 256, 257};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        /* no SYNC in the payload nor in the CRC: a frame above MaxPayload is hunted
         * through, and a SYNC there would start a fake frame (host rule 6) */
        for (;;) {
            for (int k = 0; k < sizes[i]; k++) {
                p[k] = (uint8_t)tb_rand32(tb);
                if (p[k] == PTPU_LINK_SYNC)
                    p[k] = 0x5a;
            }
            size_t fl = ptpu_link_encode(g_frame, PTPU_PKT_PING, 0, seq, p, (uint16_t)sizes[i]);
            if (!memchr(g_frame + fl - PTPU_LINK_CRC_BYTES, PTPU_LINK_SYNC, PTPU_LINK_CRC_BYTES))
                break;
        }
        snprintf(what, sizeof what, "PING %d", sizes[i]);
        transact(what, PTPU_PKT_PING, seq++, p, (uint16_t)sizes[i]);
    }
    /* MEM_WRITE then MEM_READ at every offset in a beat, lengths around beat edges */
    uint32_t mp = g_cfg.max_payload;
    uint32_t lens[] = {1, 2, 31, 32, 33, 63, 64, 65, 100, mp - 4 - 31, mp - 4};
    for (unsigned li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        for (uint32_t off = 0; off < 32; off += (li < 4 ? 1 : 7)) {
            uint32_t n = lens[li];
            uint32_t addr = 4096u * (uint32_t)tb_rand_range(tb, 1, 8) + off;
            ptpu_put32(p, addr);
            for (uint32_t k = 0; k < n; k++)
                p[4 + k] = (uint8_t)tb_rand32(tb);
            snprintf(what, sizeof what, "MEM_WRITE %u at +%u", n, off);
            if (transact(what, PTPU_PKT_MEM_WRITE, seq++, p, (uint16_t)(n + 4)))
                shadow_write(addr, p + 4, n);
            uint32_t rl = n + (uint32_t)tb_rand_range(tb, 0, 40);
            if (rl > mp)
                rl = mp;
            uint32_t ra = addr - (uint32_t)tb_rand_range(tb, 0, 5);
            ptpu_put32(p, ra);
            ptpu_put32(p + 4, rl);
            snprintf(what, sizeof what, "MEM_READ %u at %08x", rl, ra);
            transact(what, PTPU_PKT_MEM_READ, seq++, p, 8);
        }
    }
    check_shadow("directed writes");
    /* Range checks: the last bytes of memory, one byte beyond, address wrap */
    uint32_t top = g_cfg.mem_bytes;
    struct { uint32_t addr, n; } rng[] = {{top - 1, 1}, {top - 40, 40}, {top, 1}, {top - 3, 4},
                                         {0xfffffff0u, 0x20}, {0, 1}};
    for (unsigned i = 0; i < sizeof rng / sizeof rng[0]; i++) {
        ptpu_put32(p, rng[i].addr);
        for (uint32_t k = 0; k < rng[i].n; k++)
            p[4 + k] = (uint8_t)k;
        snprintf(what, sizeof what, "MEM_WRITE range %08x+%u", rng[i].addr, rng[i].n);
        if (transact(what, PTPU_PKT_MEM_WRITE, seq++, p, (uint16_t)(4 + rng[i].n)) &&
            !(g_exp.flags & PTPU_FLAG_ERR))
            shadow_write(rng[i].addr, p + 4, rng[i].n);
        ptpu_put32(p, rng[i].addr);
        ptpu_put32(p + 4, rng[i].n);
        snprintf(what, sizeof what, "MEM_READ range %08x+%u", rng[i].addr, rng[i].n);
        transact(what, PTPU_PKT_MEM_READ, seq++, p, 8);
    }
    /* Bad lengths */
    ptpu_put32(p, 64);
    ptpu_put32(p + 4, 0);
    transact("MEM_WRITE LEN 4", PTPU_PKT_MEM_WRITE, seq++, p, 4);
    transact("MEM_WRITE LEN 2", PTPU_PKT_MEM_WRITE, seq++, p, 2);
    transact("MEM_READ length 0", PTPU_PKT_MEM_READ, seq++, p, 8);
    ptpu_put32(p + 4, mp + 1);
    transact("MEM_READ length MaxPayload+1", PTPU_PKT_MEM_READ, seq++, p, 8);
    transact("MEM_READ LEN 7", PTPU_PKT_MEM_READ, seq++, p, 7);
    transact("MEM_READ LEN 9", PTPU_PKT_MEM_READ, seq++, p, 9);
    memset(p, 0, 300);
    transact("INFO LEN 257", PTPU_PKT_INFO, seq++, p, 257);
    /* Bad types (link) and unknown types (firmware) */
    uint8_t types[] = {0x00, 0x7f, 0x80, 0x83, 0xff, 0x0a, 0x42, 0x7e};
    for (unsigned i = 0; i < sizeof types; i++) {
        snprintf(what, sizeof what, "type %02x", types[i]);
        transact(what, types[i], seq++, p, (uint16_t)(i * 9));
    }
    /* Mailbox: every firmware packet type */
    struct ptpu_link_window win[2] = {{0, 4096, 1}, {8192, 16384, 3}};
    size_t n = ptpu_link_req_info(g_frame, seq);
    chan_push_buf(&H2D, g_frame, n);
    link_model_request(&g_cfg, &A.m, PTPU_PKT_INFO, NULL, 0, 0, &g_exp);
    if (expect_frame("INFO", &g_exp, seq++)) {
        struct ptpu_link_info info;
        CHK(ptpu_link_parse_info(&g_frames[0], &info) == 0 && info.magic == 0x50545055u &&
                 info.max_payload == mp && strcmp(info.config_name, "linktest") == 0,
                 "INFO: parse");
    }
    n = ptpu_link_req_run(g_frame, seq, 0x1000, 10, 0, win, 2);
    chan_push_buf(&H2D, g_frame, n);
    link_model_request(&g_cfg, &A.m, PTPU_PKT_RUN, g_frame + 6, (uint16_t)(n - 10), 0, &g_exp);
    expect_frame("RUN", &g_exp, seq++);
    n = ptpu_link_req_wait(g_frame, seq, 777);
    chan_push_buf(&H2D, g_frame, n);
    link_model_request(&g_cfg, &A.m, PTPU_PKT_WAIT, g_frame + 6, 4, 0, &g_exp);
    if (expect_frame("WAIT", &g_exp, seq++)) {
        struct ptpu_link_status st;
        CHK(ptpu_link_parse_status(&g_frames[0], &st) == 0 && st.cycles == 777,
                 "WAIT: parse");
    }
    n = ptpu_link_req_counters(g_frame, seq);
    chan_push_buf(&H2D, g_frame, n);
    link_model_request(&g_cfg, &A.m, PTPU_PKT_COUNTERS, NULL, 0, 0, &g_exp);
    if (expect_frame("COUNTERS", &g_exp, seq++)) {
        struct ptpu_link_counters cn;
        CHK(ptpu_link_parse_counters(&g_frames[0], &cn) == 0 && cn.channels == 8 &&
                 cn.wr_bytes[7] == 14002, "COUNTERS: parse");
    }
    n = ptpu_link_req_status(g_frame, seq);
    chan_push_buf(&H2D, g_frame, n);
    link_model_request(&g_cfg, &A.m, PTPU_PKT_STATUS, NULL, 0, 0, &g_exp);
    expect_frame("STATUS", &g_exp, seq++);
    n = ptpu_link_req_reset(g_frame, seq);
    chan_push_buf(&H2D, g_frame, n);
    link_model_request(&g_cfg, &A.m, PTPU_PKT_RESET, NULL, 0, 0, &g_exp);
    expect_frame("RESET", &g_exp, seq++);
    frames_ok += 6, frames_tx += 6;

    /* Bad CRC: NAK CRC with the frame's SEQ */
    n = ptpu_link_req_mem_read(g_frame, seq, 0, 16);
    g_frame[n - 1] ^= 0x10;
    chan_push_buf(&H2D, g_frame, n);
    struct link_expect nak = {PTPU_PKT_NAK, 0, 1, {PTPU_NAK_CRC}};
    expect_frame("bad CRC", &nak, seq++);
    frames_crc++, frames_tx++;
    /* LEN above MaxPayload: NAK LENGTH at once, the rest of the frame is hunted through */
    /* a SYNC inside the payload starts a frame of 250 bytes that never completes */
    for (uint32_t k = 0; k < 300; k++)
        p[k] = (uint8_t)k;
    p[100] = PTPU_LINK_SYNC, p[101] = PTPU_PKT_PING, p[102] = 0, p[103] = 0, p[104] = 250,
    p[105] = 0;
    n = ptpu_link_encode(g_frame, PTPU_PKT_MEM_WRITE, 0, seq, p, 300);
    g_frame[4] = (uint8_t)(mp + 1);
    g_frame[5] = (uint8_t)((mp + 1) >> 8);
    chan_push_buf(&H2D, g_frame, n);
    nak.payload[0] = PTPU_NAK_LENGTH;
    expect_frame("LEN > MaxPayload", &nak, seq++);
    frames_drop++, frames_tx++;
    run_idle(2u * g_cfg.byte_timeout + 400);   /* the SYNC inside the payload times out */
    frames_drop++;
    for (int k = 0; k < 5; k++)
        p[k] = (uint8_t)(0x50 + k);
    transact("PING after LEN", PTPU_PKT_PING, seq++, p, 5);
    /* Time-out inside a frame: half a frame, silence, then a good frame */
    n = ptpu_link_req_ping(g_frame, seq, p, 40);
    chan_push_buf(&H2D, g_frame, 20);
    run_idle(g_cfg.byte_timeout + 50);
    frames_drop++;
    transact("PING after time-out", PTPU_PKT_PING, seq++, p, 5);
    /* Garbage between frames (no SYNC), then a frame right behind it */
    for (int k = 0; k < 100; k++) {
        uint8_t b = (uint8_t)((k * 7) | 1);
        chan_push_raw(&H2D, b == PTPU_LINK_SYNC ? 0x11 : b);
    }
    transact("PING after garbage", PTPU_PKT_PING, seq++, p, 5);
    /* Bus errors: a poisoned beat inside a write and a read */
    uint32_t pb = 20480;   /* beat address 640 */
    A.m.poison[pb / 32] = 1;
    ptpu_put32(p, pb - 40);
    for (int k = 0; k < 100; k++)
        p[4 + k] = (uint8_t)(0xa0 + k);
    if (transact("MEM_WRITE bus error", PTPU_PKT_MEM_WRITE, seq++, p, 104))
        shadow_write(pb - 40, p + 4, 100);
    ptpu_put32(p, pb - 8);
    ptpu_put32(p + 4, 16);
    transact("MEM_READ bus error", PTPU_PKT_MEM_READ, seq++, p, 8);
    A.m.poison[pb / 32] = 0;
    check_shadow("bus-error write");
    /* Two requests back to back: with back-pressure both are served in order; without,
     * the second arrives while the engine is busy and is dropped (RX_DROPPED) */
    ptpu_put32(p, 8192);
    ptpu_put32(p + 4, 64);
    n = ptpu_link_encode(g_frame, PTPU_PKT_MEM_READ, 0, seq, p, 8);
    chan_push_buf(&H2D, g_frame, n);
    for (int k = 0; k < 6; k++)
        p[k] = (uint8_t)k;
    n = ptpu_link_encode(g_frame, PTPU_PKT_PING, 0, (uint8_t)(seq + 1), p, 6);
    chan_push_buf(&H2D, g_frame, n);
    g_nframes = 0;
    run_until_frames(2, 20000);
    if (g_cfg.back_pressure) {
        CHK(g_nframes == 2 && g_frames[0].seq == seq && g_frames[1].seq == seq + 1 &&
                 g_frames[1].len == 6, "back-to-back: %d responses", g_nframes);
        frames_ok += 2, frames_tx += 2;
    } else {
        CHK(g_nframes == 1 && g_frames[0].seq == seq, "back-to-back: %d responses",
                 g_nframes);
        frames_ok++, frames_tx++, frames_drop++;
    }
    seq += 2;

    struct link_counts c1 = read_counts();
    CHK(c1.rx - c0.rx == (uint32_t)frames_ok, "RX_FRAMES +%u, expected +%d",
             c1.rx - c0.rx, frames_ok);
    CHK(c1.crc - c0.crc == (uint32_t)frames_crc, "RX_CRC_ERRORS +%u, expected +%d",
             c1.crc - c0.crc, frames_crc);
    CHK(c1.drop - c0.drop == (uint32_t)frames_drop, "RX_DROPPED +%u, expected +%d",
             c1.drop - c0.drop, frames_drop);
    CHK(c1.tx - c0.tx == (uint32_t)frames_tx, "TX_FRAMES +%u, expected +%d",
             c1.tx - c0.tx, frames_tx);
    CHK(A.errors == 0, "AXI protocol errors: %d", A.errors);
    tb_end(tb, "link_directed", "requests=%d rx=%u crc=%u dropped=%u tx=%u", frames_ok,
           c1.rx - c0.rx, c1.crc - c0.crc, c1.drop - c0.drop, c1.tx - c0.tx);
}

/* ---------------------------------------------------------------------------------------
 * Random traffic with errors */
struct req { uint8_t type; uint16_t len; uint8_t p[70000]; };
static struct req g_req;

static void random_request(struct req *r)
{
    tb_t *tb = g_tb;
    uint32_t mp = g_cfg.max_payload, hot = g_cfg.mem_bytes < 65536 ? g_cfg.mem_bytes : 65536;
    int k = (int)tb_rand_range(tb, 0, 99);
    uint32_t addr;
    if (tb_chance(tb, 1, 10))
        addr = g_cfg.mem_bytes - (uint32_t)tb_rand_range(tb, 0, mp + 64);  /* near the top */
    else
        addr = (uint32_t)tb_rand_range(tb, 0, hot - 1);
    if (k < 12) {
        r->type = PTPU_PKT_PING;
        r->len = (uint16_t)tb_rand_range(tb, 0, tb_chance(tb, 1, 20) ? mp : 256);
        for (int i = 0; i < r->len; i++)
            r->p[i] = (uint8_t)tb_rand32(tb);
    } else if (k < 45) {
        r->type = PTPU_PKT_MEM_WRITE;
        uint32_t n = tb_chance(tb, 1, 4) ? mp - 4 - (uint32_t)tb_rand_range(tb, 0, 40)
                                         : (uint32_t)tb_rand_range(tb, 1, 300);
        if (tb_chance(tb, 1, 50))
            n = 0;
        r->len = (uint16_t)(n + 4);
        ptpu_put32(r->p, addr);
        for (uint32_t i = 0; i < n; i++)
            r->p[4 + i] = (uint8_t)tb_rand32(tb);
    } else if (k < 80) {
        r->type = PTPU_PKT_MEM_READ;
        uint32_t n = tb_chance(tb, 1, 4) ? mp - (uint32_t)tb_rand_range(tb, 0, 40)
                                         : (uint32_t)tb_rand_range(tb, 1, 300);
        if (tb_chance(tb, 1, 50))
            n = tb_chance(tb, 1, 2) ? 0 : mp + 1;
        r->len = tb_chance(tb, 1, 50) ? (uint16_t)tb_rand_range(tb, 0, 12) : 8;
        ptpu_put32(r->p, addr);
        ptpu_put32(r->p + 4, n);
        for (int i = 8; i < r->len; i++)
            r->p[i] = (uint8_t)tb_rand32(tb);
    } else if (k < 96) {
        static const uint8_t fwt[] = {PTPU_PKT_INFO, PTPU_PKT_RUN, PTPU_PKT_STATUS,
                                      PTPU_PKT_WAIT, PTPU_PKT_COUNTERS, PTPU_PKT_RESET, 0x0b,
                                      0x33, 0x7e};
        r->type = fwt[tb_rand_range(tb, 0, sizeof fwt - 1)];
        int w = (int)tb_rand_range(tb, 1, 4);
        switch (r->type) {
        case PTPU_PKT_RUN: r->len = (uint16_t)(16 + 12 * w); break;
        case PTPU_PKT_WAIT: r->len = 4; break;
        case 0x0b: case 0x33: case 0x7e: r->len = (uint16_t)tb_rand_range(tb, 0, 256); break;
        default: r->len = 0; break;
        }
        if (tb_chance(tb, 1, 10))
            r->len = (uint16_t)tb_rand_range(tb, 0, mp);
        for (int i = 0; i < r->len; i++)
            r->p[i] = (uint8_t)tb_rand32(tb);
        if (r->type == PTPU_PKT_RUN && r->len >= 16 && tb_chance(tb, 3, 4))
            ptpu_put32(r->p + 12, (uint32_t)w);
    } else {
        static const uint8_t bad[] = {0x00, 0x7f, 0x81, 0x84, 0xc0, 0xff};
        r->type = bad[tb_rand_range(tb, 0, sizeof bad - 1)];
        r->len = (uint16_t)tb_rand_range(tb, 0, 64);
        for (int i = 0; i < r->len; i++)
            r->p[i] = (uint8_t)tb_rand32(tb);
    }
}

static void push_garbage(int n)
{
    for (int i = 0; i < n; i++) {
        uint8_t b = (uint8_t)tb_rand32(g_tb);
        if (tb_chance(g_tb, 1, 64))
            b = PTPU_LINK_SYNC;
        chan_push_raw(&H2D, b);
    }
}

static void test_random(int nreq, int noisy)
{
    tb_t *tb = g_tb;
    tb_begin(tb);
    g_gap = noisy ? 10 : 0;
    g_mready = noisy ? 90 : 100;
    if (noisy) {
        /* per byte, in parts per million: each kind of error hits about 4 % of the
         * max-payload frames, so that most get through and every kind happens */
        unsigned ppm = 40000u / g_cfg.max_payload;
        H2D.flip = H2D.drop = H2D.dup = ppm;
        D2H.flip = D2H.drop = D2H.dup = ppm;
    } else {
        set_clean();
    }
    struct link_counts c0 = read_counts();
    uint64_t gaveup = 0, done = 0, wrong = 0;
    uint64_t by_type[256] = {0}, errs = 0, nak_len = 0;
    uint64_t start = tb->cycle, payload_bytes = 0;
    uint8_t seq = (uint8_t)tb_rand32(tb);
    /* host time-out: longer than the device's byte time-out plus the longest service */
    uint64_t tmo = g_cfg.byte_timeout + 2u * g_cfg.max_payload + 2000;
    struct ptpu_link_host H;
    /* quiet after a NAK: the device's byte time-out and a little (host rule 2) */
    if (ptpu_link_host_init(&H, 65535, tmo, g_cfg.byte_timeout + 64, 40) != 0)
        exit(2);
    H.device_max_payload = g_cfg.max_payload;
    g_host = &H;
    for (int r = 0; r < nreq; r++) {
        random_request(&g_req);
        seq++;
        link_model_request(&g_cfg, &A.m, g_req.type, g_req.p, g_req.len, 0, &g_exp);
        size_t n = ptpu_link_encode(g_frame, g_req.type, 0, seq, g_req.p, g_req.len);
        int st = ptpu_link_host_request(&H, g_frame, n), sending = 0;
        while (st != PTPU_LINK_HOST_DONE && st != PTPU_LINK_HOST_FAILED) {
            if (st == PTPU_LINK_HOST_SEND && !sending) {
                if (noisy && tb_chance(tb, 1, 8))
                    push_garbage((int)tb_rand_range(tb, 1, 40));
                if (g_verbose > 1 && H.attempts > 1)
                    fprintf(stderr, "req %d type %02x seq %u len %u: attempt %d cycle %llu "
                            "(NAKs %llu, time-outs %llu so far; last status %u)\n", r,
                            g_req.type, seq, g_req.len, H.attempts,
                            (unsigned long long)tb->cycle, (unsigned long long)H.naks,
                            (unsigned long long)H.timeouts, (unsigned)H.status);
                chan_push_buf(&H2D, H.frame, H.frame_len);
                sending = 1;
            }
            cycle();
            if (sending && H2D.n == 0) {
                ptpu_link_host_sent(&H, tb->cycle);
                sending = 0;
            }
            if (noisy && tb_chance(tb, 1, 20000))
                push_garbage((int)tb_rand_range(tb, 1, 8));
            st = ptpu_link_host_poll(&H, tb->cycle);
        }
        if (st == PTPU_LINK_HOST_FAILED) {
            gaveup++;
            if (g_req.type == PTPU_PKT_MEM_WRITE && g_req.len > 4) {
                uint32_t a = ptpu_get32(g_req.p);
                if ((uint64_t)a + g_req.len - 4 <= g_cfg.mem_bytes)
                    memset(g_known + a, 0, g_req.len - 4u);
            }
            continue;
        }
        done++;
        by_type[g_req.type]++;
        const struct ptpu_link_frame *f = &H.resp;
        if (H.resp_kind == PTPU_LINK_RESP_NAK) {
            /* the final answer to a frame longer than the device takes: let the rest of
             * it pass and the device's parser give up any fake frame begun there before
             * the next request (host rule 6) */
            CHK(g_req.len > g_cfg.max_payload, "request %d: final NAK for LEN %u", r, g_req.len);
            nak_len++;
            while (H2D.n > 0 || tb->cycle - g_last_d2h < 64)
                cycle();
            run_idle(g_cfg.byte_timeout + 8);
            continue;
        }
        int same = f->type == g_exp.type && f->flags == g_exp.flags && f->len == g_exp.len &&
                   g_req.len <= g_cfg.max_payload;
        if (same && g_req.type == PTPU_PKT_MEM_READ && !(f->flags & 1)) {
            uint32_t a = ptpu_get32(g_req.p);
            for (uint32_t k = 0; k < f->len; k++)
                if (g_known[a + k] && f->payload[k] != g_shadow[a + k])
                    same = 0;
        } else if (same) {
            same = memcmp(f->payload, g_exp.payload, f->len) == 0;
        }
        if (!same) {
            wrong++;
            CHK(0, "request %d (type %02x len %u seq %u): response type %02x flags %x len %u "
                "differs from the model (%02x %x %u)", r, g_req.type, g_req.len, seq, f->type,
                f->flags, f->len, g_exp.type, g_exp.flags, g_exp.len);
        }
        if (f->flags & 1)
            errs++;
        if (g_req.type == PTPU_PKT_MEM_WRITE && g_req.len > 4 && !(g_exp.flags & 1 &&
            ptpu_get32(g_exp.payload) != PTPU_STATUS_BUS_ERROR))
            shadow_write(ptpu_get32(g_req.p), g_req.p + 4, g_req.len - 4u);
        if (g_req.type == PTPU_PKT_MEM_WRITE || g_req.type == PTPU_PKT_MEM_READ)
            payload_bytes += g_req.type == PTPU_PKT_MEM_WRITE ? g_req.len : g_exp.len;
    }
    g_host = NULL;
    uint64_t tries = H.tries, naks = H.naks, timeouts = H.timeouts;
    uint64_t other = H.stale + H.foreign_naks;
    /* quiet down, then compare all of memory */
    set_clean();
    run_idle(tmo);
    check_shadow("random traffic");
    struct link_counts c1 = read_counts();
    CHK(wrong == 0, "%llu responses silently wrong", (unsigned long long)wrong);
    CHK(gaveup == 0, "%llu requests gave up after 40 tries", (unsigned long long)gaveup);
    /* a clean line needs no resend when the host keeps the rules */
    CHK(noisy || tries == (uint64_t)nreq, "clean line: %llu tries for %d requests",
        (unsigned long long)tries, nreq);
    CHK(A.errors == 0, "AXI protocol errors: %d", A.errors);
    printf("  %s: %d requests (ping %llu, write %llu, read %llu, mailbox %llu, bad type %llu),"
           " %llu error responses\n", noisy ? "noisy" : "clean", nreq,
           (unsigned long long)by_type[PTPU_PKT_PING],
           (unsigned long long)by_type[PTPU_PKT_MEM_WRITE],
           (unsigned long long)by_type[PTPU_PKT_MEM_READ],
           (unsigned long long)(done - by_type[PTPU_PKT_PING] - by_type[PTPU_PKT_MEM_WRITE] -
                                by_type[PTPU_PKT_MEM_READ] - by_type[0] - by_type[0x7f] -
                                by_type[0x81] - by_type[0x84] - by_type[0xc0] - by_type[0xff]),
           (unsigned long long)(by_type[0] + by_type[0x7f] + by_type[0x81] + by_type[0x84] +
                                by_type[0xc0] + by_type[0xff]),
           (unsigned long long)errs);
    printf("  %s: %llu requests longer than MaxPayload answered by NAK LENGTH\n",
           noisy ? "noisy" : "clean", (unsigned long long)nak_len);
    printf("  %s: tries %llu, NAKs %llu, host time-outs %llu, stale/other frames %llu, "
           "host decoder bad CRC %llu / bad LEN %llu; injected h2d flip %llu drop %llu dup %llu,"
           " d2h flip %llu drop %llu dup %llu; device rx %u crc %u dropped %u tx %u; "
           "silently wrong %llu, gave up %llu; %.3f payload bytes/cycle\n",
           noisy ? "noisy" : "clean", (unsigned long long)tries, (unsigned long long)naks,
           (unsigned long long)timeouts, (unsigned long long)other,
           (unsigned long long)H.dec.bad_crc,
           (unsigned long long)H.dec.bad_length, (unsigned long long)H2D.flips,
           (unsigned long long)H2D.drops, (unsigned long long)H2D.dups,
           (unsigned long long)D2H.flips, (unsigned long long)D2H.drops,
           (unsigned long long)D2H.dups, c1.rx - c0.rx, c1.crc - c0.crc, c1.drop - c0.drop,
           c1.tx - c0.tx, (unsigned long long)wrong, (unsigned long long)gaveup,
           (double)payload_bytes / (double)(tb->cycle - start));
    ptpu_link_host_free(&H);
    tb_end(tb, noisy ? "link_random_noisy" : "link_random_clean",
           "requests=%d tries=%llu wrong=%llu", nreq, (unsigned long long)tries,
           (unsigned long long)wrong);
}

/* ---------------------------------------------------------------------------------------
 * Throughput: back-to-back requests at the largest payload, ideal memory and channels. */
static void bench(void)
{
    tb_t *tb = g_tb;
    tb_begin(tb);
    set_clean();
    g_gap = 0;
    g_mready = 100;
    A.p_ar = A.p_r = A.p_aw = A.p_w = A.p_b = 100;
    A.lat_min = A.lat_max = 20;
    uint32_t mp = g_cfg.max_payload;
    uint64_t all_bytes = 0, all_cycles = 0;
    for (int kind = 0; kind < 2; kind++) {
        int reps = 16;
        uint64_t t0 = tb->cycle, bytes = 0;
        for (int r = 0; r < reps; r++) {
            size_t n;
            uint32_t addr = (uint32_t)r * mp;
            if (kind == 0) {
                for (uint32_t k = 0; k < mp - 4; k++)
                    g_req.p[k] = (uint8_t)k;
                n = ptpu_link_req_mem_write(g_frame, (uint8_t)r, addr, g_req.p, mp - 4);
                bytes += mp - 4;
            } else {
                n = ptpu_link_req_mem_read(g_frame, (uint8_t)r, addr, mp);
                bytes += mp;
            }
            chan_push_buf(&H2D, g_frame, n);
            g_nframes = 0;
            run_until_frames(1, 100000);
            CHK(g_nframes == 1 && !(g_frames[0].flags & 1), "bench: no response");
        }
        uint64_t cyc = tb->cycle - t0;
        all_bytes += bytes;
        all_cycles += cyc;
        printf("BENCH link.%s_efficiency %.4f bytes/cycle MaxPayload=%u,BufBytes=%u,"
               "MaxBurst=%u,latency=20\n", kind ? "mem_read" : "mem_write",
               (double)bytes / (double)cyc, mp, g_cfg.buf_bytes, g_cfg.max_burst);
        printf("  %s: %d requests of %u data bytes in %llu cycles (%.1f cycles each)\n",
               kind ? "MEM_READ" : "MEM_WRITE", reps, kind ? mp : mp - 4,
               (unsigned long long)cyc, (double)cyc / reps);
    }
    printf("BENCH link.efficiency %.4f bytes/cycle MaxPayload=%u,BufBytes=%u,MaxBurst=%u,"
           "latency=20,write+read\n", (double)all_bytes / (double)all_cycles, mp,
           g_cfg.buf_bytes, g_cfg.max_burst);
    tb_end(tb, "link_bench", NULL);
}

/* ---------------------------------------------------------------------------------------*/
static void parse_cfg(int argc, char **argv, int *nreq, int *do_bench)
{
    for (int i = 1; i < argc; i++) {
        unsigned v;
        if (sscanf(argv[i], "MaxPayload=%u", &v) == 1) g_cfg.max_payload = v;
        else if (sscanf(argv[i], "MemKb=%u", &v) == 1) g_cfg.mem_kb = v;
        else if (sscanf(argv[i], "BufBytes=%u", &v) == 1) g_cfg.buf_bytes = v;
        else if (sscanf(argv[i], "MaxBurst=%u", &v) == 1) g_cfg.max_burst = v;
        else if (sscanf(argv[i], "BackPressure=%u", &v) == 1) g_cfg.back_pressure = v;
        else if (sscanf(argv[i], "ByteTimeout=%u", &v) == 1) g_cfg.byte_timeout = v;
        else if (strcmp(argv[i], "--requests") == 0 && i + 1 < argc) *nreq = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bench") == 0) *do_bench = 1;
    }
    g_cfg.mem_bytes = g_cfg.mem_kb * 1024u;
}

int main(int argc, char **argv)
{
    int nreq = 400, do_bench = 0;
    g_verbose = getenv("LINK_VERBOSE") ? atoi(getenv("LINK_VERBOSE")) : 0;
    parse_cfg(argc, argv, &nreq, &do_bench);
    const char *base = strrchr(argv[0], '/');
    tb_t *tb = g_tb = tb_open(base ? base + 1 : argv[0], argc, argv);
    printf("tb_link: MaxPayload=%u MemKb=%u BufBytes=%u MaxBurst=%u BackPressure=%u "
           "ByteTimeout=%u seed=%llu\n", g_cfg.max_payload, g_cfg.mem_kb, g_cfg.buf_bytes,
           g_cfg.max_burst, g_cfg.back_pressure, g_cfg.byte_timeout,
           (unsigned long long)tb->seed);
    ports_open(tb);
    A.m.size = g_cfg.mem_bytes;
    A.m.data = malloc(A.m.size);
    A.m.poison = calloc(A.m.size / 32 + 1, 1);
    g_shadow = malloc(A.m.size);
    g_known = calloc(A.m.size, 1);
    for (uint32_t i = 0; i < A.m.size; i++)
        A.m.data[i] = g_shadow[i] = (uint8_t)tb_rand32(tb);
    memset(g_known, 1, A.m.size);
    A.p_ar = 70, A.p_r = 80, A.p_aw = 70, A.p_w = 80, A.p_b = 80;
    A.lat_min = 2, A.lat_max = 40;
    F.max_delay = 200;
    if (ptpu_link_dec_init(&g_dec, 65535) != 0)
        return 2;
    tb_set(P.reg_req, 0);
    tb_reset(tb, 5);

    if (do_bench) {
        bench();
    } else {
        test_directed();
        /* a few poisoned beats in the hot region for the random traffic */
        for (int i = 0; i < 3; i++)
            A.m.poison[tb_rand_range(tb, 0, (A.m.size < 65536 ? A.m.size : 65536) / 32 - 1)] = 1;
        test_random(nreq / 4, 0);
        test_random(nreq, 1);
    }
    ptpu_link_dec_free(&g_dec);
    return tb_close(tb);
}

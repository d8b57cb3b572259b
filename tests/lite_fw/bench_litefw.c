/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_litefw.c - what the picotpu-lite firmware costs on the RTL: the Verilated
 * tpu_lite_soc of tests/boardsoc (boardsoc_lite: the board's clock and line rate, the image
 * build/fw/ptpu_lite_rom.hex in its ROM), driven through its UART pins.
 *
 *   link   MEM_WRITE and MEM_READ of 32 KB in MAX_PAYLOAD chunks, one request at a time:
 *          payload bytes per line byte time (the line carries one byte per 10 bit times);
 *   insns  device cycles (STATUS cycles: mtime from RUN to HALT) per MATMUL row, ACTIVATE
 *          output (1x1 and 2x2 max pool), LOAD row and STORE row, each from the difference
 *          of two programs that differ only in the number of those instructions.
 *
 * Prints "BENCH name value unit config" lines and PASS when every program ended DONE and
 * the data read back equals the data written.
 *
 * With --test, instead the link's error paths on the RTL, where the byte time-out runs on
 * the real mtime and the bytes on the real UART: bad CRC (NAK, nothing written), LEN too
 * large (NAK, the rest hunted through), a frame truncated for more than the byte time-out
 * (dropped), a gap a little shorter inside a frame (served), STATUS/RESET while a
 * program runs.  Usage: bench_litefw [--seed N] [--test]
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkcli.h"
#include "picotpu_isa.h"
#include "ptpu_link.h"
#include "tb.h"

/* The clock and line rate of the boardsoc_lite model (tests/boardsoc/test.mk passes them). */
#ifndef LITE_CLK_HZ
#error "LITE_CLK_HZ (the boardsoc_lite model's ClkHz) must be defined"
#endif
#ifndef LITE_BAUD
#error "LITE_BAUD (the boardsoc_lite model's Baud) must be defined"
#endif
#define CLK_HZ ((uint32_t)LITE_CLK_HZ)
#define BAUD ((uint32_t)LITE_BAUD)
#define DIV (CLK_HZ / BAUD)         /* cycles per bit */
#define RSP_CYCLES 4000000u
#define STR_(x) #x
#define STR(x) STR_(x)
#define CONFIG "lite ClkHz=" STR(LITE_CLK_HZ) " Baud=" STR(LITE_BAUD)

struct line {
    tb_t *tb;
    tb_sig_t *rx, *tx, *fault;
    uint8_t *out; size_t out_head, out_n, out_cap;   /* host -> device */
    uint8_t in[1 << 16]; size_t in_n;                 /* device -> host, not yet decoded */
    int s_bit, s_cnt, r_bit, r_cnt;
    uint8_t r_byte;
    bool faulted;
    struct ptpu_link_dec dec;
};

/* One clock: the host's transmitter on uart_rx_i (8N1, the next byte after the stop bit),
 * its receiver on uart_tx_o (start edge, then each bit sampled in its middle). */
static void cycle(struct line *l)
{
    int level = 1;
    if (l->s_bit < 0 && l->out_head < l->out_n) {
        l->s_bit = 0;
        l->s_cnt = DIV;
    }
    if (l->s_bit >= 0) {
        uint8_t b = l->out[l->out_head];
        level = l->s_bit == 0 ? 0 : l->s_bit <= 8 ? (b >> (l->s_bit - 1)) & 1 : 1;
        if (--l->s_cnt == 0) {
            l->s_cnt = DIV;
            if (++l->s_bit == 10) {
                l->s_bit = -1;
                l->out_head++;
            }
        }
    }
    tb_set(l->rx, (uint64_t)level);
    tb_fall(l->tb);
    int v = (int)tb_get(l->tx);
    if (l->r_bit < 0) {
        if (!v) {
            l->r_bit = 0;
            l->r_cnt = DIV / 2;
        }
    } else if (--l->r_cnt == 0) {
        l->r_cnt = DIV;
        if (l->r_bit >= 1 && l->r_bit <= 8)
            l->r_byte = (uint8_t)(l->r_byte >> 1 | (v ? 0x80 : 0));
        if (l->r_bit == 9) {
            if (l->in_n < sizeof l->in)
                l->in[l->in_n++] = l->r_byte;
            l->r_bit = -1;
        } else {
            l->r_bit++;
        }
    }
    if (tb_get(l->fault))
        l->faulted = true;
    tb_rise(l->tb);
}

static void lsend(void *ctx, const uint8_t *p, size_t n)
{
    struct line *l = ctx;
    if (l->out_head == l->out_n)
        l->out_head = l->out_n = 0;
    if (l->out_n + n > l->out_cap) {
        l->out_cap = 2 * (l->out_n + n);
        l->out = realloc(l->out, l->out_cap);
        if (!l->out)
            exit(2);
    }
    memcpy(l->out + l->out_n, p, n);
    l->out_n += n;
}

static int lrecv(void *ctx, struct ptpu_link_frame *f, uint64_t cycles)
{
    struct line *l = ctx;
    uint64_t end = l->tb->cycle + cycles;
    size_t done = 0;
    for (;;) {
        while (done < l->in_n) {
            size_t used = 0;
            int ev = ptpu_link_dec_feed(&l->dec, l->in + done, l->in_n - done, &used, f);
            done += used;
            if (ev != PTPU_LINK_DEC_NONE) {
                memmove(l->in, l->in + done, l->in_n - done);
                l->in_n -= done;
                return ev;
            }
        }
        l->in_n = done = 0;
        if (l->tb->cycle >= end || l->faulted)
            return 0;
        cycle(l);
    }
}

static void lfail(void *ctx, const char *msg)
{
    struct line *l = ctx;
    tb_check(l->tb, 0, "%s", msg);
}

/* ------------------------------------------------------------------ programs */

static uint8_t prog[32 * 512];
static uint32_t npc;

#define SET(in, f, v) ptpu_field_set(in, PTPU_F_##f, v)

static void emit(const uint32_t *in)
{
    for (int w = 0; w < 8; w++)
        ptpu_put32(prog + 32 * npc + 4 * w, in[w]);
    npc++;
}

/* LOAD or STORE of `rows` rows of `len` bytes, contiguous, buffer rows from `row`. */
static void dma(int op, int buf, uint32_t row, uint32_t rows, uint32_t len, uint32_t addr)
{
    uint32_t in[8] = { 0 };
    SET(in, COMMON_OP, op);
    SET(in, DMA_BUF, buf);
    SET(in, DMA_ROW, row);
    SET(in, DMA_LEN0, len);
    SET(in, DMA_OUT0, len);
    SET(in, DMA_COUNT1, rows);
    SET(in, DMA_COUNT2, 1);
    SET(in, DMA_STEP1, 1);
    SET(in, DMA_BOUND1, 4095);
    SET(in, DMA_BOUND2, 1);
    SET(in, DMA_STRIDE1, len);
    SET(in, DMA_ADDR, addr);
    emit(in);
}

static void matmul(int new_w, int acc, uint32_t rows)
{
    uint32_t in[8] = { 0 };
    SET(in, COMMON_OP, PTPU_OP_MATMUL);
    SET(in, MATMUL_NEW_W, new_w);
    SET(in, MATMUL_ACC, acc);
    SET(in, MATMUL_ZP, 3);
    SET(in, MATMUL_ROWS, rows);
    emit(in);
}

/* ACTIVATE of c1 outputs with a w x w max pool (w = 1: none), VP rows 0..2. */
static void activate(uint32_t c1, uint32_t w)
{
    uint32_t in[8] = { 0 };
    SET(in, COMMON_OP, PTPU_OP_ACTIVATE);
    SET(in, ACTIVATE_POOL, w > 1 ? PTPU_POOL_MAX : PTPU_POOL_NONE);
    SET(in, ACTIVATE_CLAMP_LO, -128);
    SET(in, ACTIVATE_CLAMP_HI, 127);
    SET(in, ACTIVATE_COUNT1, c1);
    SET(in, ACTIVATE_COUNT2, 1);
    SET(in, ACTIVATE_WIN1, w);
    SET(in, ACTIVATE_WIN2, w);
    SET(in, ACTIVATE_STEP1, w);
    SET(in, ACTIVATE_WSTEP1, 1);
    SET(in, ACTIVATE_WSTEP2, w * c1);
    emit(in);
}

static void halt(void)
{
    uint32_t in[8] = { 0 };
    SET(in, COMMON_OP, PTPU_OP_HALT);
    emit(in);
}

enum { K_MM, K_ACT, K_POOL, K_LOAD, K_STORE };

/* The setup (data in UB, a tile, VP rows, ACC rows 0..127), then k of kind's instruction. */
static void build(int kind, int k)
{
    npc = 0;
    dma(PTPU_OP_LOAD, PTPU_BUF_UB, 0, 256, 4, 0x8000);
    dma(PTPU_OP_LOAD, PTPU_BUF_WB, 0, 4, 4, 0x8400);
    dma(PTPU_OP_LOAD, PTPU_BUF_VP, 0, 3, 16, 0x8410);
    matmul(1, 0, 128);
    for (int i = 0; i < k; i++) {
        switch (kind) {
        case K_MM: matmul(0, 1, 128); break;
        case K_ACT: activate(128, 1); break;
        case K_POOL: activate(32, 2); break;
        case K_LOAD: dma(PTPU_OP_LOAD, PTPU_BUF_UB, 0, 256, 4, 0x8000); break;
        default: dma(PTPU_OP_STORE, PTPU_BUF_UB, 0, 256, 4, 0xc000); break;
        }
    }
    halt();
}

static uint64_t run_cycles(struct linkcli *c, int kind, int k)
{
    build(kind, k);
    if (!lc_mem_write(c, 0x1000, prog, 32 * npc))
        return 0;
    struct ptpu_link_window w = { 0, 124u * 1024u, 3 };
    struct ptpu_link_frame f;
    size_t n = ptpu_link_req_run(c->frame, ++c->seq, 0x1000, npc, 0, &w, 1);
    if (!lc_req_ok(c, n, PTPU_PKT_RUN, &f, RSP_CYCLES))
        return 0;
    struct ptpu_link_status s;
    if (!lc_wait(c, 0, &s, 400000000u) || s.state != PTPU_STATE_DONE) {
        c->fail(c->ctx, "benchmark program did not end DONE");
        return 0;
    }
    return s.cycles;
}

/* ------------------------------------------------------------------ link checks (--test) */

static void idle(struct line *l, uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++)
        cycle(l);
}

/* The next frame must be a NAK with this reason and SEQ. */
static void expect_nak(struct line *l, uint8_t seq, uint8_t reason, const char *what)
{
    struct ptpu_link_frame f;
    int ev = lrecv(l, &f, RSP_CYCLES);
    tb_check(l->tb, ev == PTPU_LINK_DEC_FRAME && f.type == PTPU_PKT_NAK && f.seq == seq && f.len == 1 &&
             f.payload[0] == reason, "%s: event %d type 0x%02x seq %u, expected NAK %u seq %u", what, ev,
             ev == PTPU_LINK_DEC_FRAME ? f.type : 0, ev == PTPU_LINK_DEC_FRAME ? f.seq : 0, reason, seq);
}

static void ping_ok(struct linkcli *c, const char *what)
{
    struct ptpu_link_frame f;
    uint8_t p[16] = "picotpu-lite";
    size_t n = ptpu_link_req_ping(c->frame, ++c->seq, p, sizeof p);
    if (lc_req_ok(c, n, PTPU_PKT_PING, &f, RSP_CYCLES))
        tb_check(((struct line *)c->ctx)->tb, f.len == sizeof p && !memcmp(f.payload, p, sizeof p),
                 "%s: PING answered with other data", what);
}

static void test_link(struct linkcli *c, struct line *l)
{
    tb_t *tb = l->tb;
    uint8_t data[256], back[256], raw[1100];
    for (int i = 0; i < 256; i++)
        data[i] = (uint8_t)i;
    struct ptpu_link_frame f;
    size_t n = ptpu_link_req_ping(c->frame, ++c->seq, data, 256);
    if (lc_req_ok(c, n, PTPU_PKT_PING, &f, RSP_CYCLES))
        tb_check(tb, f.len == 256 && !memcmp(f.payload, data, 256), "PING of every byte value");

    /* bad CRC: NAK with the SEQ, nothing written */
    memset(back, 0x5a, 64);
    lc_mem_write(c, 0x2000, back, 64);
    n = ptpu_link_req_mem_write(raw, ++c->seq, 0x2000, data, 64);
    raw[20] ^= 0x08;
    lsend(l, raw, n);
    expect_nak(l, c->seq, PTPU_NAK_CRC, "bad CRC");
    if (lc_mem_read(c, 0x2000, back + 64, 64))
        tb_check(tb, !memcmp(back, back + 64, 64), "a MEM_WRITE with a bad CRC wrote memory");

    /* LEN too large: NAK LENGTH, then the rest of the frame (no SYNC in it) is hunted through */
    n = ptpu_link_encode(raw, PTPU_PKT_MEM_WRITE, 0, ++c->seq, NULL, 0);
    raw[4] = (uint8_t)1100;
    raw[5] = (uint8_t)(1100 >> 8);
    lsend(l, raw, 6);
    expect_nak(l, c->seq, PTPU_NAK_LENGTH, "LEN too large");
    for (int i = 0; i < 1100; i++)
        raw[i] = (uint8_t)(tb_rand32(tb) % 0xa0);
    lsend(l, raw, 1100);
    ping_ok(c, "after NAK LENGTH");

    /* a frame cut for more than the byte time-out is dropped without an answer */
    n = ptpu_link_req_mem_write(raw, ++c->seq, 0x2000, data, 64);
    lsend(l, raw, 20);
    uint64_t gap = PTPU_BYTE_TIMEOUT_CYCLES + 20 * 10 * DIV + 5000;
    int ev = lrecv(l, &f, gap);
    tb_check(tb, ev == 0, "truncated frame: event %d", ev);
    ping_ok(c, "after a truncated frame");
    if (lc_mem_read(c, 0x2000, back + 64, 64))
        tb_check(tb, !memcmp(back, back + 64, 64), "a truncated MEM_WRITE wrote memory");

    /* a gap a little shorter than the time-out inside a frame: served */
    n = ptpu_link_req_ping(raw, ++c->seq, data, 100);
    lsend(l, raw, 30);
    idle(l, 30 * 10 * DIV + PTPU_BYTE_TIMEOUT_CYCLES - 8000);
    lsend(l, raw + 30, n - 30);
    ev = lrecv(l, &f, RSP_CYCLES);
    tb_check(tb, ev == PTPU_LINK_DEC_FRAME && ptpu_link_check_response(&f, PTPU_PKT_PING, c->seq, NULL, NULL) ==
             PTPU_LINK_RESP_OK && f.len == 100, "a frame with a gap below the time-out was not served (event %d)", ev);

    /* STATUS while a program runs, RESET stops it */
    build(K_MM, 60);
    struct ptpu_link_status st;
    if (lc_mem_write(c, 0x1000, prog, 32 * npc)) {
        struct ptpu_link_window w = { 0, 124u * 1024u, 3 };
        n = ptpu_link_req_run(c->frame, ++c->seq, 0x1000, npc, 0, &w, 1);
        if (lc_req_ok(c, n, PTPU_PKT_RUN, &f, RSP_CYCLES) && lc_status(c, &st))
            tb_check(tb, st.state == PTPU_STATE_RUNNING, "STATUS while running: state %u", st.state);
        n = ptpu_link_req_reset(c->frame, ++c->seq);
        lc_req_ok(c, n, PTPU_PKT_RESET, &f, RSP_CYCLES);
        if (lc_status(c, &st))
            tb_check(tb, st.state == PTPU_STATE_IDLE, "STATUS after RESET: state %u", st.state);
        ping_ok(c, "after RESET");
    }
}

int main(int argc, char **argv)
{
    struct line *l = calloc(1, sizeof *l);
    if (!l)
        return 2;
    bool test = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--test"))
            test = true;
    l->tb = tb_open(test ? "litefw-rtl" : "litefw-bench", argc, argv);
    tb_t *tb = l->tb;
    l->rx = tb_sig(tb, "uart_rx_i");
    l->tx = tb_sig(tb, "uart_tx_o");
    l->fault = tb_sig(tb, "fault_o");
    l->s_bit = l->r_bit = -1;
    ptpu_link_dec_init(&l->dec, 65535);
    struct linkcli *c = calloc(1, sizeof *c);
    if (!c)
        return 2;
    *c = (struct linkcli){ .ctx = l, .send = lsend, .recv = lrecv, .fail = lfail, .rsp_cycles = RSP_CYCLES,
                           .stop_on_silence = true, .seq = 1 };
    tb_set(l->rx, 1);
    tb_set(tb->rst_n, 0);
    tb_ticks(tb, 4);
    tb_set(tb->rst_n, 1);

    tb_begin(tb);
    struct ptpu_link_info info;
    if (test) {
        if (lc_info(c, &info)) {
            c->info = info;
            test_link(c, l);
        }
        tb_end(tb, "litefw-rtl/link", "%" PRIu64 " cycles simulated", tb->cycle);
    } else if (lc_info(c, &info)) {
        c->info = info;   /* MEM_WRITE/MEM_READ chunks */
        /* link throughput, one request at a time */
        const uint32_t bytes = 32768;
        uint8_t *data = malloc(bytes), *back = malloc(bytes);
        for (uint32_t i = 0; i < bytes; i++)
            data[i] = (uint8_t)tb_rand32(tb);
        uint64_t t0 = tb->cycle;
        bool ok = lc_mem_write(c, 0x8000, data, bytes);
        uint64_t t1 = tb->cycle;
        ok = ok && lc_mem_read(c, 0x8000, back, bytes);
        uint64_t t2 = tb->cycle;
        tb_check(tb, ok && memcmp(data, back, bytes) == 0, "MEM_READ differs from MEM_WRITE");
        double line = 10.0 * DIV;   /* cycles per byte on the line */
        printf("BENCH litefw.mem_write_efficiency %.3f fraction %s\n", bytes * line / (double)(t1 - t0), CONFIG);
        printf("BENCH litefw.mem_read_efficiency %.3f fraction %s\n", bytes * line / (double)(t2 - t1), CONFIG);
        free(data);
        free(back);

        static const struct { const char *name; int kind, k0, k1, per; const char *unit; } b[] = {
            { "litefw.matmul_row_cycles", K_MM, 1, 5, 128, "cycles/row" },
            { "litefw.activate_output_cycles", K_ACT, 1, 3, 128, "cycles/output" },
            { "litefw.maxpool2x2_output_cycles", K_POOL, 1, 3, 32, "cycles/output" },
            { "litefw.load_row_cycles", K_LOAD, 1, 3, 256, "cycles/row" },
            { "litefw.store_row_cycles", K_STORE, 1, 3, 256, "cycles/row" },
        };
        for (size_t i = 0; i < sizeof b / sizeof b[0] && !c->dead; i++) {
            uint64_t a = run_cycles(c, b[i].kind, b[i].k0), z = run_cycles(c, b[i].kind, b[i].k1);
            if (a && z > a)
                printf("BENCH %s %.1f %s %s\n", b[i].name,
                       (double)(z - a) / (double)((b[i].k1 - b[i].k0) * b[i].per), b[i].unit, CONFIG);
            else
                tb_check(tb, 0, "%s: cycles %" PRIu64 " then %" PRIu64, b[i].name, a, z);
        }
    }
    if (!test)
        tb_end(tb, "litefw-bench", "%" PRIu64 " cycles simulated", tb->cycle);
    ptpu_link_dec_free(&l->dec);
    free(l->out);
    free(l);
    free(c);
    return tb_close(tb);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_litefw.c - the picotpu-lite firmware (fw/lite/) built for the host: its link and
 * command layer and its ISA interpreter run on C models of the UART byte streams and
 * of the XPU (the lite_hal.h functions below), driven only by link frames from the
 * host's own encoder (host/src/ptpu_link.c):
 *
 *   progs  random programs from tests/soc/progen on the icebreaker configuration with
 *          mem_kb 124, loaded by MEM_WRITE, started by RUN, waited for by WAIT, against
 *          the ref model (host/src/ref): state, fault code/pc/addr, the whole device
 *          memory image and the exact counters, some regions also read back by MEM_READ;
 *   link   PING, INFO, bad CRC, LEN too large, truncated frames with the byte time-out,
 *          junk between frames, unknown types, wrong lengths, out-of-range addresses,
 *          MEM_WRITE only after the CRC, RUN checks and dedup by SEQ, STATUS/WAIT/RESET
 *          while a program runs, the RUN time-out, COUNTERS: the responses of docs/isa.md.
 *
 *   decode short programs of random instructions with fields at the edges of the static
 *          rules (and valid ones that run): state, fault code, pc and address as ref.
 *
 * Usage: tb_litefw [--seed N] [--progs N] [--decode N]
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lite_fw.h"
#include "progen.h"
#include "ptpu_arith.h"
#include "ptpu_link.h"
#include "ptpu_ref.h"

#define BYTE_CYCLES 80u            /* 3 Mbaud at 24 MHz */
#define RSP_CYCLES 4000000u        /* a response must come within this */
#define MEM_BYTES LITE_DEV_MEM_BYTES
#define LONG_MM 250u               /* MATMULs of the long program */

/* ------------------------------------------------------------------ the models (lite_hal.h) */

uint8_t *lite_dev_mem;
static uint64_t t_now;

static struct { uint8_t *b; uint64_t *t; size_t head, n, cap; } rxq;   /* bytes to the device */
static uint8_t *txq; static size_t ntx, tx_cap, tx_seen;               /* bytes from the device */

static struct {
    int8_t w[4][4];
    int zp;
    uint32_t row, mode, count;
    uint32_t acc[LITE_XPU_ACC_ROWS][4];
} xpu;

static int g_errors;
static uint64_t g_seed;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tb_litefw: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (seed %" PRIu64 ")\n", g_seed);
    va_end(ap);
    g_errors++;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "tb_litefw: out of memory\n");
        exit(2);
    }
    return p;
}

uint32_t hal_time_lo(void) { return (uint32_t)(t_now += 2); }
uint64_t hal_time(void) { return t_now += 4; }

int hal_uart_rx(void)
{
    t_now += 3;
    if (rxq.head < rxq.n && rxq.t[rxq.head] <= t_now)
        return rxq.b[rxq.head++];
    return -1;
}

void hal_uart_tx(uint8_t b)
{
    t_now += 2;
    if (ntx == tx_cap) {
        tx_cap = tx_cap ? 2 * tx_cap : 65536;
        txq = xrealloc(txq, tx_cap);
    }
    txq[ntx++] = b;
}

void hal_xpu_w(uint32_t k, uint32_t row)
{
    if (k >= 4) {
        fail("XPU: weight row %u", k);
        return;
    }
    for (int n = 0; n < 4; n++)
        xpu.w[k][n] = (int8_t)(row >> (8 * n));
}

void hal_xpu_zp(uint32_t zp) { xpu.zp = (int8_t)(zp & 0xffu); }
void hal_xpu_row(uint32_t row) { xpu.row = row; }
void hal_xpu_mode(uint32_t mode) { xpu.mode = mode & 1u; }
uint32_t hal_xpu_count(void) { return xpu.count; }

/* r[n] = sum_k (x[k] - zp) * W[k][n]: ptpu_mxu_dot_int8, as docs/isa.md MATMUL. */
void hal_xpu_x(uint32_t x)
{
    t_now += 20;   /* about what the rv32 core needs per row */
    if (xpu.row >= LITE_XPU_ACC_ROWS) {
        fail("XPU: X written with ROW = %u", xpu.row);
        return;
    }
    uint16_t xs[4], ws[16];
    for (int k = 0; k < 4; k++) {
        xs[k] = (uint8_t)(x >> (8 * k));
        for (int n = 0; n < 4; n++)
            ws[4 * k + n] = (uint8_t)xpu.w[k][n];
    }
    for (int n = 0; n < 4; n++) {
        uint32_t r = ptpu_mxu_dot_int8(xs, ws + n, 4, 4, xpu.zp);
        xpu.acc[xpu.row][n] = xpu.mode ? xpu.acc[xpu.row][n] + r : r;
    }
    xpu.row++;
    xpu.count++;
}

uint32_t hal_xpu_acc(uint32_t row, uint32_t lane)
{
    t_now += 10;
    if (row >= LITE_XPU_ACC_ROWS || lane >= 4) {
        fail("XPU: ACC read row %u lane %u", row, lane);
        return 0;
    }
    return xpu.acc[row][lane];
}

/* ------------------------------------------------------------------ host side */

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static struct ptpu_link_dec dec;
static uint8_t frame[LITE_MAX_PAYLOAD + 4096];
static uint8_t seq;

/* Bytes to the device, back to back at the line rate, the first after `gap` cycles. */
static void put_bytes(const uint8_t *p, size_t n, uint64_t gap)
{
    if (rxq.n + n > rxq.cap) {
        while (rxq.n + n > rxq.cap)
            rxq.cap = rxq.cap ? 2 * rxq.cap : 65536;
        rxq.b = xrealloc(rxq.b, rxq.cap);
        rxq.t = xrealloc(rxq.t, rxq.cap * sizeof *rxq.t);
    }
    uint64_t t = (rxq.n ? rxq.t[rxq.n - 1] : 0);
    if (t < t_now)
        t = t_now;
    t += gap;
    for (size_t i = 0; i < n; i++, t += BYTE_CYCLES) {
        rxq.b[rxq.n] = p[i];
        rxq.t[rxq.n++] = t;
    }
}

/* Runs the firmware until a frame comes back (1), or max_cycles pass (0). */
static int get_frame(struct ptpu_link_frame *f, int *event, uint64_t max_cycles)
{
    uint64_t end = t_now + max_cycles;
    for (;;) {
        while (tx_seen < ntx) {
            size_t used = 0;
            int ev = ptpu_link_dec_feed(&dec, txq + tx_seen, ntx - tx_seen, &used, f);
            tx_seen += used;
            if (ev != PTPU_LINK_DEC_NONE) {
                *event = ev;
                return 1;
            }
        }
        if (t_now >= end)
            return 0;
        lite_poll();
    }
}

/* Sends a request frame and returns its response class (PTPU_LINK_RESP_*), -1 without one. */
static int transact(size_t n, uint8_t type, struct ptpu_link_frame *f, uint32_t *st, uint32_t *det)
{
    int ev;
    put_bytes(frame, n, BYTE_CYCLES);
    if (!get_frame(f, &ev, RSP_CYCLES)) {
        fail("no response to type 0x%02x seq %u", type, frame[3]);
        return -1;
    }
    if (ev != PTPU_LINK_DEC_FRAME) {
        fail("bad frame from the device (event %d) for type 0x%02x", ev, type);
        return -1;
    }
    return ptpu_link_check_response(f, type, frame[3], st, det);
}

/* Expects an ERR response with status/detail. */
static void expect_err(size_t n, uint8_t type, uint32_t status, uint32_t detail, const char *what)
{
    struct ptpu_link_frame f;
    uint32_t st = 0, det = 0;
    int c = transact(n, type, &f, &st, &det);
    if (c != PTPU_LINK_RESP_ERR || st != status || det != detail)
        fail("%s: class %d status %u detail 0x%x, expected ERR %u 0x%x", what, c, st, det, status, detail);
}

static bool req_ok(size_t n, uint8_t type, struct ptpu_link_frame *f, const char *what)
{
    uint32_t st = 0, det = 0;
    int c = transact(n, type, f, &st, &det);
    if (c != PTPU_LINK_RESP_OK) {
        fail("%s: class %d status %u detail 0x%x", what, c, st, det);
        return false;
    }
    return true;
}

static void expect_nak(size_t n, uint8_t nseq, uint8_t reason, const char *what)
{
    struct ptpu_link_frame f;
    int ev;
    put_bytes(frame, n, BYTE_CYCLES);
    if (!get_frame(&f, &ev, RSP_CYCLES) || ev != PTPU_LINK_DEC_FRAME || f.type != PTPU_PKT_NAK || f.seq != nseq ||
        f.len != 1 || f.payload[0] != reason)
        fail("%s: expected NAK %u with seq %u", what, reason, nseq);
}

/* Nothing comes back within `cycles`. */
static void expect_silence(uint64_t cycles, const char *what)
{
    struct ptpu_link_frame f;
    int ev;
    if (get_frame(&f, &ev, cycles))
        fail("%s: unexpected frame type 0x%02x (event %d)", what, f.type, ev);
}

static bool mem_write(uint32_t addr, const uint8_t *p, uint32_t len)
{
    struct ptpu_link_frame f;
    while (len) {
        uint32_t k = len < LITE_MAX_PAYLOAD - 4 ? len : LITE_MAX_PAYLOAD - 4;
        if (!req_ok(ptpu_link_req_mem_write(frame, ++seq, addr, p, k), PTPU_PKT_MEM_WRITE, &f, "MEM_WRITE"))
            return false;
        addr += k;
        p += k;
        len -= k;
    }
    return true;
}

static bool mem_read(uint32_t addr, uint8_t *p, uint32_t len)
{
    struct ptpu_link_frame f;
    while (len) {
        uint32_t k = len < LITE_MAX_PAYLOAD ? len : LITE_MAX_PAYLOAD;
        if (!req_ok(ptpu_link_req_mem_read(frame, ++seq, addr, k), PTPU_PKT_MEM_READ, &f, "MEM_READ"))
            return false;
        if (f.len != k) {
            fail("MEM_READ 0x%x+%u: %u bytes", addr, k, f.len);
            return false;
        }
        memcpy(p, f.payload, k);
        addr += k;
        p += k;
        len -= k;
    }
    return true;
}

static bool get_status(uint8_t type, uint32_t timeout, struct ptpu_link_status *s)
{
    struct ptpu_link_frame f;
    size_t n = type == PTPU_PKT_WAIT ? ptpu_link_req_wait(frame, ++seq, timeout) : ptpu_link_req_status(frame, ++seq);
    if (!req_ok(n, type, &f, type == PTPU_PKT_WAIT ? "WAIT" : "STATUS"))
        return false;
    if (ptpu_link_parse_status(&f, s)) {
        fail("status payload of %u bytes", f.len);
        return false;
    }
    return true;
}

static bool get_counters(struct ptpu_link_counters *c)
{
    struct ptpu_link_frame f;
    if (!req_ok(ptpu_link_req_counters(frame, ++seq), PTPU_PKT_COUNTERS, &f, "COUNTERS"))
        return false;
    if (ptpu_link_parse_counters(&f, c)) {
        fail("COUNTERS payload of %u bytes", f.len);
        return false;
    }
    return true;
}

static const struct ptpu_link_window all_rw = { 0, MEM_BYTES, 3 };

static int run(uint32_t addr, uint32_t n, uint32_t timeout, const struct ptpu_link_window *w, int nw,
               uint32_t *st, uint32_t *det)
{
    struct ptpu_link_frame f;
    return transact(ptpu_link_req_run(frame, ++seq, addr, n, timeout, w, nw), PTPU_PKT_RUN, &f, st, det);
}

static void device_reset(void)
{
    t_now = 0;
    rxq.head = rxq.n = 0;
    ntx = tx_seen = 0;
    memset(&xpu, 0, sizeof xpu);
    memset(lite_dev_mem, 0, MEM_BYTES);
    ptpu_link_dec_reset(&dec);
    lite_init();
}

/* ------------------------------------------------------------------ random programs */

static const int k_faults[] = { PTPU_FAULT_BAD_OPCODE, PTPU_FAULT_BAD_FIELD, PTPU_FAULT_BUF_RANGE,
                                PTPU_FAULT_PROT_READ, PTPU_FAULT_PROT_WRITE, PTPU_FAULT_PROG_END,
                                PTPU_FAULT_NO_WEIGHTS, PTPU_FAULT_TOKEN };

static void test_progs(int nprogs)
{
    const struct ptpu_ref_cfg cfg = { 4, 0, 256, 64, 128, 16, LITE_MEM_KB };
    uint8_t *img = xrealloc(NULL, MEM_BYTES), *rd = xrealloc(NULL, MEM_BYTES);
    int done = 0, faulted = 0, skipped = 0;
    uint64_t rows = 0;
    for (int i = 0; i < nprogs; i++) {
        int errors_before = g_errors;
        struct progen_opts o = { 4, 0, 256, 64, 128, 16, LITE_MEM_KB, 8 + (int)(rnd() % 33), 0 };
        if (i % 3 == 2)
            o.fault_kind = k_faults[rnd() % (sizeof k_faults / sizeof k_faults[0])];
        uint64_t ps = g_seed * 1000003u + (uint64_t)i;
        struct progen p;
        if (progen_make(ps, &o, &p)) {
            skipped++;
            continue;
        }
        struct ptpu_ref *ref;
        if (ptpu_ref_create(&cfg, &ref)) {
            fail("ptpu_ref_create");
            break;
        }
        device_reset();
        /* Every 4th program is loaded through MEM_WRITE frames, the others directly. */
        bool by_link = i % 4 == 0;
        for (int r = 0; r < p.ninit; r++) {
            ptpu_ref_mem_write(ref, p.init[r].addr, p.init_data[r], p.init[r].len);
            if (by_link)
                mem_write(p.init[r].addr, p.init_data[r], p.init[r].len);
            else
                memcpy(lite_dev_mem + p.init[r].addr, p.init_data[r], p.init[r].len);
        }
        ptpu_ref_mem_write(ref, p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        if (by_link)
            mem_write(p.prog_addr, p.prog, p.prog_len * 32);
        else
            memcpy(lite_dev_mem + p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        struct ptpu_run_result res;
        ptpu_ref_run(ref, p.prog_addr, p.prog_len, p.win, p.nwin, &res);

        struct ptpu_link_window lw[4];
        for (int w = 0; w < p.nwin; w++)
            lw[w] = (struct ptpu_link_window){ p.win[w].base, p.win[w].limit, p.win[w].perm };
        uint32_t st = 0, det = 0;
        int c = run(p.prog_addr, p.prog_len, 0, lw, p.nwin, &st, &det);
        struct ptpu_link_status s;
        if (c != PTPU_LINK_RESP_OK) {
            fail("prog %d (seed %" PRIu64 "): RUN rejected: class %d status %u detail 0x%x", i, ps, c, st, det);
        } else if (get_status(PTPU_PKT_WAIT, 0, &s)) {
            if ((int)s.state != res.state || (int)s.fault != res.fault ||
                (res.state == PTPU_STATE_FAULT && (s.fault_pc != res.fault_pc || s.fault_addr != res.fault_addr)))
                fail("prog %d (seed %" PRIu64 ", fault kind %d): state %u fault %u pc %u addr 0x%x, "
                     "ref state %d fault %d pc %u addr 0x%x", i, ps, o.fault_kind, s.state, s.fault, s.fault_pc,
                     s.fault_addr, res.state, res.fault, res.fault_pc, res.fault_addr);
            if (res.state == PTPU_STATE_DONE)
                done++;
            else
                faulted++;
            /* The whole memory image: both execute in program order, also after a fault. */
            ptpu_ref_mem_read(ref, 0, img, MEM_BYTES);
            for (uint32_t a = 0; a < MEM_BYTES; a++)
                if (img[a] != lite_dev_mem[a]) {
                    fail("prog %d (seed %" PRIu64 "): memory 0x%05x = 0x%02x, ref 0x%02x", i, ps, a,
                         lite_dev_mem[a], img[a]);
                    break;
                }
            if (by_link)
                for (int r = 0; r < p.nout; r++)
                    if (mem_read(p.out[r].addr, rd, p.out[r].len) &&
                        memcmp(rd, img + p.out[r].addr, p.out[r].len))
                        fail("prog %d (seed %" PRIu64 "): MEM_READ of region %d differs from ref", i, ps, r);
            struct ptpu_link_counters cn;
            if (get_counters(&cn)) {
                static const int exact[] = { PTPU_CNT_MXU_ROWS, PTPU_CNT_LOAD_INSNS, PTPU_CNT_COMPUTE_INSNS,
                                             PTPU_CNT_STORE_INSNS, PTPU_CNT_BYTES_READ, PTPU_CNT_BYTES_WRITTEN };
                for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++)
                    if (cn.counter[exact[k]] != res.counters[exact[k]])
                        fail("prog %d (seed %" PRIu64 "): counter %d = %" PRIu64 ", ref %" PRIu64, i, ps, exact[k],
                             cn.counter[exact[k]], res.counters[exact[k]]);
                if (cn.channels != 1 || cn.counter[PTPU_CNT_CYCLES] != s.cycles)
                    fail("prog %d: COUNTERS channels %u cycles %" PRIu64 ", WAIT cycles %" PRIu64, i, cn.channels,
                         cn.counter[PTPU_CNT_CYCLES], s.cycles);
                rows += cn.counter[PTPU_CNT_MXU_ROWS];
            }
        }
        if (g_errors != errors_before)
            fprintf(stderr, "tb_litefw: prog %d: rerun with --seed %" PRIu64 "\n", i, g_seed);
        ptpu_ref_destroy(ref);
        progen_free(&p);
        if (g_errors > 10)
            break;
    }
    printf("tb_litefw: progs: %d done, %d faulted as ref, %d skipped, %" PRIu64 " MXU rows\n", done, faulted,
           skipped, rows);
    if (done == 0 || faulted == 0)
        fail("progs: no %s program", done == 0 ? "completed" : "faulting");
    free(img);
    free(rd);
}

static void put_insn(uint32_t addr, const uint32_t *in);

/* ------------------------------------------------------------------ decode fuzz */

/* Mostly a valid value, sometimes (1 in 12) one at or past the limit of a static rule. */
static int64_t edge(int64_t good, const int64_t *v, size_t n) { return rnd() % 12 ? good : v[rnd() % n]; }
#define EDGE(good, ...) edge(good, (const int64_t[]){ __VA_ARGS__ }, \
                             sizeof((const int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t))
#define FSET(in, f, v) ptpu_field_set(in, PTPU_F_##f, v)

/* One random instruction, its fields mostly valid, sometimes at the edges of the rules. */
static void fuzz_insn(uint32_t *in, int op)
{
    for (int w = 0; w < 8; w++)
        in[w] = rnd() << 1 ^ rnd();
    FSET(in, COMMON_OP, op);
    in[0] &= ~0xf0u;
    if (op == PTPU_OP_LOAD)
        in[0] |= (rnd() % 3 == 0) << 5 | (rnd() % 3 == 0) << 7 | (rnd() % 16 == 0) << 4 | (rnd() % 16 == 0) << 6;
    else if (op == PTPU_OP_STORE)
        in[0] |= (rnd() % 3 == 0) << 4 | (rnd() % 3 == 0) << 6 | (rnd() % 16 == 0) << 5 | (rnd() % 16 == 0) << 7;
    else
        in[0] |= (rnd() % 4 == 0) << 4 | (rnd() % 4 == 0) << 5 | (rnd() % 3 == 0) << 6 | (rnd() % 3 == 0) << 7;
    if (op == PTPU_OP_LOAD || op == PTPU_OP_STORE) {
        int64_t buf = op == PTPU_OP_STORE ? EDGE(0, 1, 2, 3) : EDGE(rnd() % 3, 3);
        int64_t rb = buf == PTPU_BUF_VP ? 16 : 4, rows = buf == 0 ? 256 : buf == 1 ? 64 : 16;
        FSET(in, DMA_BUF, buf);
        FSET(in, DMA_PAD, op == PTPU_OP_STORE ? EDGE(0, 1, 255) : rnd() % 256);
        int64_t len0 = EDGE(1 + rnd() % (op == PTPU_OP_STORE ? 4 : rb), 0, rb, rb + 1, 4095);
        FSET(in, DMA_LEN0, len0);
        int64_t out0 = op == PTPU_OP_STORE ? len0 : len0 + rnd() % (rb - len0 + 1 > 0 ? rb - len0 + 1 : 1);
        FSET(in, DMA_OUT0, EDGE(out0, 0, len0 - 1 < 0 ? 0 : len0 - 1, rb, rb + 1, 4095));
        int64_t c1 = 1 + rnd() % 8, c2 = 1 + rnd() % 3;
        FSET(in, DMA_COUNT1, EDGE(c1, 0, rows, rows + 1, 4095));
        FSET(in, DMA_COUNT2, EDGE(c2, 0, 2, 4095));
        int64_t top = rows - c1 * c2;
        FSET(in, DMA_ROW, EDGE(top > 0 ? rnd() % (top + 1) : 0, top + 1, top, rows, 65535));
        FSET(in, DMA_ADDR, rnd() % 16 ? rnd() % MEM_BYTES : rnd() << 1);
        FSET(in, DMA_STRIDE1, (int32_t)(rnd() % 64) - 16);
        FSET(in, DMA_STRIDE2, (int32_t)(rnd() % 512) - 128);
        FSET(in, DMA_STEP1, (int32_t)(rnd() % 5) - 1);
        FSET(in, DMA_STEP2, (int32_t)(rnd() % 5) - 1);
        FSET(in, DMA_START1, (int32_t)(rnd() % 8) - 2);
        FSET(in, DMA_START2, (int32_t)(rnd() % 8) - 2);
        FSET(in, DMA_BOUND1, EDGE(1 + rnd() % 100, 0, 4095));
        FSET(in, DMA_BOUND2, EDGE(1 + rnd() % 100, 0, 4095));
    } else if (op == PTPU_OP_MATMUL) {
        FSET(in, MATMUL_BF16, EDGE(0, 1));
        FSET(in, MATMUL_NEW_W, rnd() % 2);
        int64_t rows = EDGE(1 + rnd() % 64, 0, 128, 129, 256, 65535);
        FSET(in, MATMUL_ROWS, rows);
        FSET(in, MATMUL_UROW, EDGE(rows < 256 ? rnd() % (257 - rows) : 0, 256 - rows + 1, 256));
        FSET(in, MATMUL_AROW, EDGE(rows < 128 ? rnd() % (129 - rows) : 0, 128 - rows + 1, 128));
        FSET(in, MATMUL_WROW, EDGE(rnd() % 61, 60, 61, 64, 65535));
    } else if (op == PTPU_OP_ACTIVATE) {
        FSET(in, ACTIVATE_OUT, EDGE(0, 1, 2, 3));
        int64_t pool = EDGE(rnd() % 3, 3);
        FSET(in, ACTIVATE_POOL, pool);
        FSET(in, ACTIVATE_RELU, EDGE(0, 1));
        FSET(in, ACTIVATE_RELU6, EDGE(0, 1));
        int64_t c1 = EDGE(1 + rnd() % 4, 0), c2 = EDGE(1 + rnd() % 3, 0);
        int64_t w1 = pool ? EDGE(1 + rnd() % 3, 0) : EDGE(1, 0, 2), w2 = pool ? EDGE(1 + rnd() % 2, 0) : EDGE(1, 0, 2);
        FSET(in, ACTIVATE_COUNT1, c1);
        FSET(in, ACTIVATE_COUNT2, c2);
        FSET(in, ACTIVATE_WIN1, w1);
        FSET(in, ACTIVATE_WIN2, w2);
        int64_t st1 = rnd() % 3, st2 = EDGE(rnd() % 12, 40, 65535), ws1 = rnd() % 3, ws2 = EDGE(rnd() % 6, 65535);
        FSET(in, ACTIVATE_STEP1, st1);
        FSET(in, ACTIVATE_STEP2, st2);
        FSET(in, ACTIVATE_WSTEP1, ws1);
        FSET(in, ACTIVATE_WSTEP2, ws2);
        /* the highest ACC row is arow + span: right at the limit now and then */
        int64_t span = (c2 ? c2 - 1 : 0) * st2 + (c1 ? c1 - 1 : 0) * st1 + (w2 ? w2 - 1 : 0) * ws2 +
                       (w1 ? w1 - 1 : 0) * ws1;
        int64_t arow = span < 128 ? (int64_t)(rnd() % (uint32_t)(128 - span)) : 0;
        if (rnd() % 6 == 0)
            arow = 127 - span + (int64_t)(rnd() % 2);
        FSET(in, ACTIVATE_AROW, arow < 0 ? 65535 : arow);
        int64_t outs = c1 * c2;
        int64_t urow = outs <= 256 ? (int64_t)(rnd() % (uint32_t)(257 - outs)) : 0;
        if (rnd() % 8 == 0)
            urow = 256 - outs + (int64_t)(rnd() % 2);
        FSET(in, ACTIVATE_UROW, urow < 0 ? 65535 : urow);
        FSET(in, ACTIVATE_VROW, EDGE(rnd() % 14, 13, 14, 15, 16));
        int lo = (int)(rnd() % 256) - 128, hi = (int)(rnd() % 256) - 128;
        if (lo > hi && rnd() % 8) {
            int t = lo;
            lo = hi;
            hi = t;
        }
        FSET(in, ACTIVATE_CLAMP_LO, lo);
        FSET(in, ACTIVATE_CLAMP_HI, hi);
    }
}

/* Short programs of edge-case instructions: the same state, fault code, pc and address as
 * ref (buffers hold leftovers of earlier programs on the device, so memory is not compared). */
static void test_decode(int iters)
{
    const struct ptpu_ref_cfg cfg = { 4, 0, 256, 64, 128, 16, LITE_MEM_KB };
    static const int ops[] = { 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 6, 7, 9, 15 };
    int faults[16] = { 0 }, done = 0;
    device_reset();
    for (int i = 0; i < iters && g_errors < 10; i++) {
        struct ptpu_ref *ref;
        if (ptpu_ref_create(&cfg, &ref)) {
            fail("ptpu_ref_create");
            return;
        }
        uint32_t pa = 32 * (rnd() % (MEM_BYTES / 32 - 8)), n = 1 + rnd() % 8, in[8];
        for (uint32_t k = 0; k < n; k++) {
            if (k == n - 1 && rnd() % 4) {
                memset(in, 0, sizeof in);
                ptpu_field_set(in, PTPU_F_COMMON_OP, PTPU_OP_HALT);
            } else {
                fuzz_insn(in, ops[rnd() % (sizeof ops / sizeof ops[0])]);
            }
            put_insn(pa + 32 * k, in);
        }
        ptpu_ref_mem_write(ref, pa, lite_dev_mem + pa, 32 * n);
        struct ptpu_window win[4];
        struct ptpu_link_window lw[4];
        int nw = 1 + (int)(rnd() % 4);
        for (int w = 0; w < nw; w++) {
            uint32_t b = rnd() % MEM_BYTES, l = b + 1 + rnd() % (MEM_BYTES - b);
            win[w] = (struct ptpu_window){ b, l, 1 + rnd() % 3 };
        }
        win[0] = (struct ptpu_window){ pa, pa + 32 * n + rnd() % 64, 1 };
        if (win[0].limit > MEM_BYTES)
            win[0].limit = MEM_BYTES;
        /* No STORE may reach the program: it would write UB rows that this program did not
         * write (leftovers on the device, zeros in a new ref) into its own instructions. */
        for (int w = 1; w < nw; w++)
            if (win[w].base < pa + 32 * n && win[w].limit > pa)
                win[w].perm &= ~2u;
        for (int w = 0; w < nw; w++)
            lw[w] = (struct ptpu_link_window){ win[w].base, win[w].limit, win[w].perm };
        struct ptpu_run_result res;
        ptpu_ref_run(ref, pa, n, win, nw, &res);
        uint32_t st = 0, det = 0;
        struct ptpu_link_status s;
        if (run(pa, n, 0, lw, nw, &st, &det) != PTPU_LINK_RESP_OK)
            fail("decode %d: RUN rejected: %u 0x%x", i, st, det);
        else if (get_status(PTPU_PKT_WAIT, 0, &s) &&
                 ((int)s.state != res.state || (int)s.fault != res.fault ||
                  (res.state == PTPU_STATE_FAULT && (s.fault_pc != res.fault_pc || s.fault_addr != res.fault_addr))))
        {
            uint32_t k = res.fault_pc < n ? res.fault_pc : n - 1;
            fail("decode %d: state %u fault %u pc %u addr 0x%x, ref state %d fault %d pc %u addr 0x%x; "
                 "insn %u: %08x %08x %08x %08x %08x %08x %08x %08x", i, s.state, s.fault, s.fault_pc, s.fault_addr,
                 res.state, res.fault, res.fault_pc, res.fault_addr, k, ptpu_get32(lite_dev_mem + pa + 32 * k),
                 ptpu_get32(lite_dev_mem + pa + 32 * k + 4), ptpu_get32(lite_dev_mem + pa + 32 * k + 8),
                 ptpu_get32(lite_dev_mem + pa + 32 * k + 12), ptpu_get32(lite_dev_mem + pa + 32 * k + 16),
                 ptpu_get32(lite_dev_mem + pa + 32 * k + 20), ptpu_get32(lite_dev_mem + pa + 32 * k + 24),
                 ptpu_get32(lite_dev_mem + pa + 32 * k + 28));
        }
        if (res.state == PTPU_STATE_DONE)
            done++;
        else
            faults[res.fault & 15]++;
        ptpu_ref_destroy(ref);
    }
    printf("tb_litefw: decode: %d programs, %d done; faults:", iters, done);
    for (int k = 1; k < 12; k++)
        printf(" %d", faults[k]);
    printf("\n");
    static const int need[] = { PTPU_FAULT_BAD_OPCODE, PTPU_FAULT_BAD_FIELD, PTPU_FAULT_BUF_RANGE,
                                PTPU_FAULT_PROT_READ, PTPU_FAULT_PROT_WRITE, PTPU_FAULT_PROG_END,
                                PTPU_FAULT_NO_WEIGHTS, PTPU_FAULT_TOKEN };
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
        if (iters >= 500 && !faults[need[k]])
            fail("decode: no program faulted with code %d", need[k]);
}

/* ------------------------------------------------------------------ link protocol */

static void set(uint32_t *in, int word, int lsb, int width, int is_signed, int64_t v)
{
    if (ptpu_field_set(in, word, lsb, width, is_signed, v))
        fail("field value %" PRId64 " does not fit", v);
}
#define SET(in, f, v) set(in, PTPU_F_##f, v)

static void put_insn(uint32_t addr, const uint32_t *in)
{
    for (int w = 0; w < 8; w++)
        ptpu_put32(lite_dev_mem + addr + 4 * w, in[w]);
}

/* A long program at addr: LOAD 256 UB rows and a tile, then `mm` MATMULs of 128 rows, HALT.
 * Returns its length. */
static uint32_t long_prog(uint32_t addr, uint32_t mm)
{
    uint32_t in[8] = { 0 }, pc = 0;
    SET(in, COMMON_OP, PTPU_OP_LOAD);
    SET(in, DMA_BUF, PTPU_BUF_UB);
    SET(in, DMA_LEN0, 4);
    SET(in, DMA_OUT0, 4);
    SET(in, DMA_COUNT1, 256);
    SET(in, DMA_COUNT2, 1);
    SET(in, DMA_STEP1, 1);
    SET(in, DMA_BOUND1, 4095);
    SET(in, DMA_BOUND2, 1);
    SET(in, DMA_STRIDE1, 4);
    SET(in, DMA_ADDR, 0x8000);
    put_insn(addr + 32 * pc++, in);
    SET(in, DMA_BUF, PTPU_BUF_WB);
    SET(in, DMA_COUNT1, 4);
    put_insn(addr + 32 * pc++, in);
    for (uint32_t i = 0; i < mm; i++) {
        memset(in, 0, sizeof in);
        SET(in, COMMON_OP, PTPU_OP_MATMUL);
        SET(in, MATMUL_NEW_W, i == 0);
        SET(in, MATMUL_ACC, i != 0);
        SET(in, MATMUL_UROW, (i % 2) * 128);
        SET(in, MATMUL_ROWS, 128);
        put_insn(addr + 32 * pc++, in);
    }
    memset(in, 0, sizeof in);
    SET(in, COMMON_OP, PTPU_OP_HALT);
    put_insn(addr + 32 * pc++, in);
    return pc;
}

static void test_link(void)
{
    struct ptpu_link_frame f;
    uint32_t st, det;
    uint8_t data[LITE_MAX_PAYLOAD], back[LITE_MAX_PAYLOAD];
    device_reset();

    /* PING: any payload up to 256 bytes, echoed; longer: BAD_LENGTH */
    for (int k = 0; k < 8; k++) {
        uint32_t n = k == 0 ? 0 : k == 1 ? 256 : rnd() % 257;
        for (uint32_t i = 0; i < n; i++)
            data[i] = (uint8_t)rnd();
        if (req_ok(ptpu_link_req_ping(frame, ++seq, data, n), PTPU_PKT_PING, &f, "PING") &&
            (f.len != n || memcmp(f.payload, data, n)))
            fail("PING of %u bytes: %u bytes back or different", n, f.len);
    }
    expect_err(ptpu_link_req_ping(frame, ++seq, data, 257), PTPU_PKT_PING, PTPU_STATUS_BAD_LENGTH, 257, "PING 257");

    /* INFO */
    struct ptpu_link_info info;
    if (req_ok(ptpu_link_req_info(frame, ++seq), PTPU_PKT_INFO, &f, "INFO")) {
        if (ptpu_link_parse_info(&f, &info))
            fail("INFO payload of %u bytes", f.len);
        else if (info.magic != PTPU_ID_MAGIC || info.protocol_version != PTPU_PROTOCOL_VERSION || info.n != 4 ||
                 info.flags != 0 || info.ub_rows != 256 || info.wb_rows != 64 || info.acc_rows != 128 ||
                 info.vp_rows != 16 || info.mem_kb != 124 || info.max_payload != LITE_MAX_PAYLOAD ||
                 info.num_windows != 4 || strcmp(info.config_name, "icebreaker"))
            fail("INFO: n %u mem_kb %u max_payload %u windows %u name '%s'", info.n, info.mem_kb, info.max_payload,
                 info.num_windows, info.config_name);
    }

    /* MEM_WRITE / MEM_READ round trips at random places and lengths, the last byte included */
    for (int k = 0; k < 20; k++) {
        uint32_t n = 1 + rnd() % (LITE_MAX_PAYLOAD - 4);
        uint32_t a = k == 0 ? MEM_BYTES - n : rnd() % (MEM_BYTES - n + 1);
        for (uint32_t i = 0; i < n; i++)
            data[i] = (uint8_t)rnd();
        if (mem_write(a, data, n) && mem_read(a, back, n) && memcmp(data, back, n))
            fail("MEM_WRITE/MEM_READ at 0x%x+%u differ", a, n);
    }
    uint32_t full = LITE_MAX_PAYLOAD;
    if (mem_read(0, back, full) && memcmp(back, lite_dev_mem, full))
        fail("MEM_READ of MAX_PAYLOAD bytes");

    /* Bad CRC: NAK with the frame's SEQ, memory unchanged */
    memset(data, 0x11, 16);
    size_t n = ptpu_link_req_mem_write(frame, ++seq, 0x100, data, 16);
    uint8_t before[16];
    memcpy(before, lite_dev_mem + 0x100, 16);
    frame[12] ^= 0x40;
    expect_nak(n, seq, PTPU_NAK_CRC, "bad CRC");
    if (memcmp(before, lite_dev_mem + 0x100, 16))
        fail("a MEM_WRITE with a bad CRC wrote memory");
    n = ptpu_link_req_info(frame, ++seq);
    frame[n - 1] ^= 1;
    expect_nak(n, seq, PTPU_NAK_CRC, "bad CRC in the CRC bytes");

    /* LEN above MAX_PAYLOAD: NAK LENGTH as soon as LEN is in, then the rest is hunted through */
    for (uint32_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(rnd() % 0xa0);   /* no SYNC inside */
    n = ptpu_link_encode(frame, PTPU_PKT_PING, 0, ++seq, NULL, 0);
    frame[4] = (uint8_t)(LITE_MAX_PAYLOAD + 1);
    frame[5] = (uint8_t)((LITE_MAX_PAYLOAD + 1) >> 8);
    expect_nak(6, seq, PTPU_NAK_LENGTH, "LEN too large");
    memcpy(frame, data, 200);
    put_bytes(frame, 200, BYTE_CYCLES);
    expect_silence(400 * BYTE_CYCLES, "payload of an oversized frame");
    if (!req_ok(ptpu_link_req_ping(frame, ++seq, data, 8), PTPU_PKT_PING, &f, "PING after NAK LENGTH"))
        fail("the device did not recover from NAK LENGTH");

    /* Truncated frames: the byte time-out drops them silently; a frame that starts a little
     * more than the time-out after the last byte is served */
    for (int cut = 1; cut < 14; cut += 3) {
        n = ptpu_link_req_mem_write(frame, ++seq, 0x200, data, 4);
        memcpy(before, lite_dev_mem + 0x200, 4);
        put_bytes(frame, (size_t)cut, BYTE_CYCLES);
        n = ptpu_link_req_ping(frame, ++seq, data, 3);
        put_bytes(frame, n, PTPU_BYTE_TIMEOUT_CYCLES + 2000);
        int ev;
        if (!get_frame(&f, &ev, 2 * RSP_CYCLES) || ev != PTPU_LINK_DEC_FRAME ||
            ptpu_link_check_response(&f, PTPU_PKT_PING, seq, NULL, NULL) != PTPU_LINK_RESP_OK)
            fail("not served after a frame truncated after %d bytes", cut);
        expect_silence(100000, "after a truncated frame");
        if (memcmp(before, lite_dev_mem + 0x200, 4))
            fail("a truncated MEM_WRITE wrote memory");
    }
    /* A gap a little shorter than the time-out inside a frame is fine */
    n = ptpu_link_req_ping(frame, ++seq, data, 20);
    put_bytes(frame, 9, BYTE_CYCLES);
    put_bytes(frame + 9, n - 9, PTPU_BYTE_TIMEOUT_CYCLES - 2000);
    {
        int ev;
        if (!get_frame(&f, &ev, RSP_CYCLES) || ev != PTPU_LINK_DEC_FRAME ||
            ptpu_link_check_response(&f, PTPU_PKT_PING, seq, NULL, NULL) != PTPU_LINK_RESP_OK)
            fail("a frame with a gap of half the time-out was not served");
    }

    /* Junk between frames (no SYNC) is skipped */
    for (int k = 0; k < 50; k++)
        data[k] = (uint8_t)(rnd() % 0xa0);
    put_bytes(data, 50, 0);
    if (!req_ok(ptpu_link_req_ping(frame, ++seq, data, 5), PTPU_PKT_PING, &f, "PING after junk"))
        fail("not served after junk");

    /* Types */
    static const uint8_t bad_types[] = { 0x00, 0x7f, 0x80, 0x85, 0xff, 0x0a, 0x20, 0x7e };
    for (size_t k = 0; k < sizeof bad_types; k++)
        expect_err(ptpu_link_encode(frame, bad_types[k], 0, ++seq, data, 3), bad_types[k], PTPU_STATUS_BAD_TYPE,
                   bad_types[k], "unknown type");

    /* Wrong lengths */
    expect_err(ptpu_link_encode(frame, PTPU_PKT_INFO, 0, ++seq, data, 1), PTPU_PKT_INFO, PTPU_STATUS_BAD_LENGTH, 1,
               "INFO len 1");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_STATUS, 0, ++seq, data, 3), PTPU_PKT_STATUS,
               PTPU_STATUS_BAD_LENGTH, 3, "STATUS len 3");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_WAIT, 0, ++seq, data, 0), PTPU_PKT_WAIT, PTPU_STATUS_BAD_LENGTH, 0,
               "WAIT len 0");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_COUNTERS, 0, ++seq, data, 8), PTPU_PKT_COUNTERS,
               PTPU_STATUS_BAD_LENGTH, 8, "COUNTERS len 8");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_RESET, 0, ++seq, data, 2), PTPU_PKT_RESET, PTPU_STATUS_BAD_LENGTH,
               2, "RESET len 2");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_RUN, 0, ++seq, data, 17), PTPU_PKT_RUN, PTPU_STATUS_BAD_LENGTH, 17,
               "RUN len 17");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_RUN, 0, ++seq, data, 300), PTPU_PKT_RUN, PTPU_STATUS_BAD_LENGTH,
               300, "RUN len 300");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_MEM_WRITE, 0, ++seq, data, 4), PTPU_PKT_MEM_WRITE,
               PTPU_STATUS_BAD_LENGTH, 4, "MEM_WRITE len 4");
    expect_err(ptpu_link_encode(frame, PTPU_PKT_MEM_READ, 0, ++seq, data, 7), PTPU_PKT_MEM_READ,
               PTPU_STATUS_BAD_LENGTH, 7, "MEM_READ len 7");
    expect_err(ptpu_link_req_mem_read(frame, ++seq, 0, 0), PTPU_PKT_MEM_READ, PTPU_STATUS_BAD_LENGTH, 0,
               "MEM_READ length 0");
    expect_err(ptpu_link_req_mem_read(frame, ++seq, 0, LITE_MAX_PAYLOAD + 1), PTPU_PKT_MEM_READ,
               PTPU_STATUS_BAD_LENGTH, LITE_MAX_PAYLOAD + 1, "MEM_READ too long");

    /* Addresses outside device memory (no wrap past 2^32) */
    expect_err(ptpu_link_req_mem_write(frame, ++seq, MEM_BYTES - 3, data, 4), PTPU_PKT_MEM_WRITE,
               PTPU_STATUS_BAD_ADDRESS, MEM_BYTES - 3, "MEM_WRITE past the end");
    expect_err(ptpu_link_req_mem_write(frame, ++seq, 0xfffffffeu, data, 4), PTPU_PKT_MEM_WRITE,
               PTPU_STATUS_BAD_ADDRESS, 0xfffffffeu, "MEM_WRITE wrapping");
    expect_err(ptpu_link_req_mem_read(frame, ++seq, MEM_BYTES, 1), PTPU_PKT_MEM_READ, PTPU_STATUS_BAD_ADDRESS,
               MEM_BYTES, "MEM_READ past the end");
    expect_err(ptpu_link_req_mem_read(frame, ++seq, 0xfffffff0u, 32), PTPU_PKT_MEM_READ, PTPU_STATUS_BAD_ADDRESS,
               0xfffffff0u, "MEM_READ wrapping");

    /* STATUS after power-on: IDLE, cycles 0 */
    struct ptpu_link_status s;
    if (get_status(PTPU_PKT_STATUS, 0, &s) && (s.state != PTPU_STATE_IDLE || s.cycles != 0))
        fail("STATUS after power-on: state %u cycles %" PRIu64, s.state, s.cycles);

    /* RUN checks, in the order of fw/src/cp/cmdproc.c */
    uint32_t pa = 0x1000;
    uint32_t plen = long_prog(pa, LONG_MM);
    struct ptpu_link_window w5[5] = { all_rw, all_rw, all_rw, all_rw, all_rw };
    struct { uint32_t addr, n; int nw; struct ptpu_link_window w0; uint32_t detail; const char *what; } rc[] = {
        { pa, plen, 0, all_rw, 6, "no windows" },
        { pa, plen, 5, all_rw, 6, "5 windows" },
        { pa + 16, plen, 1, all_rw, 1, "misaligned" },
        { pa, 0, 1, all_rw, 2, "empty" },
        { MEM_BYTES - 64, 3, 1, all_rw, 3, "outside memory" },
        { pa, plen, 1, { 0, MEM_BYTES + 1, 1 }, 4, "window past memory" },
        { pa, plen, 1, { 64, 64, 1 }, 4, "empty window" },
        { pa, plen, 1, { 0, MEM_BYTES, 5 }, 4, "bad permission" },
        { pa, plen, 2, all_rw, 4 | (1 << 8), "second window bad" },
        { pa, plen, 1, { 0, MEM_BYTES, 2 }, 5, "not readable" },
        { pa, plen, 1, { 0, pa + 32, 1 }, 5, "program not inside the window" },
    };
    for (size_t k = 0; k < sizeof rc / sizeof rc[0]; k++) {
        struct ptpu_link_window w[5];
        memcpy(w, w5, sizeof w);
        w[0] = rc[k].w0;
        if (k == 8)
            w[1].limit = 0;
        st = det = 0;
        int c = run(rc[k].addr, rc[k].n, 0, w, rc[k].nw, &st, &det);
        if (c != PTPU_LINK_RESP_ERR || st != PTPU_STATUS_BAD_PROGRAM || det != rc[k].detail)
            fail("RUN %s: class %d status %u detail 0x%x, expected BAD_PROGRAM 0x%x", rc[k].what, c, st, det,
                 rc[k].detail);
    }

    /* A long program: STATUS says RUNNING, RUN is BUSY, WAIT with a time-out answers RUNNING,
     * a WAIT without one answers at the end; RUN dedup by SEQ. */
    if (run(pa, plen, 0, &all_rw, 1, &st, &det) != PTPU_LINK_RESP_OK)
        fail("RUN of the long program rejected: %u 0x%x", st, det);
    uint8_t run_seq = seq;
    size_t run_n = ptpu_link_req_run(frame, run_seq, pa, plen, 0, &all_rw, 1);
    if (transact(run_n, PTPU_PKT_RUN, &f, &st, &det) != PTPU_LINK_RESP_OK)
        fail("a resent RUN (same SEQ) did not get the previous response");
    if (get_status(PTPU_PKT_STATUS, 0, &s) && s.state != PTPU_STATE_RUNNING)
        fail("STATUS while running: state %u", s.state);
    if (run(pa, plen, 0, &all_rw, 1, &st, &det) != PTPU_LINK_RESP_ERR || st != PTPU_STATUS_BUSY)
        fail("RUN while running: not BUSY (%u)", st);
    /* MEM_WRITE, MEM_READ, PING and INFO are served while the program runs */
    for (uint32_t i = 0; i < 600; i++)
        data[i] = (uint8_t)rnd();
    if (mem_write(0x10000, data, 600) && mem_read(0x10000, back, 600) && memcmp(data, back, 600))
        fail("MEM_WRITE/MEM_READ while running differ");
    if (!req_ok(ptpu_link_req_ping(frame, ++seq, data, 40), PTPU_PKT_PING, &f, "PING while running") ||
        !req_ok(ptpu_link_req_info(frame, ++seq), PTPU_PKT_INFO, &f, "INFO while running"))
        fail("requests while running");
    if (get_status(PTPU_PKT_STATUS, 0, &s) && s.state != PTPU_STATE_RUNNING)
        fail("STATUS after requests while running: state %u", s.state);
    /* Kept to be sent again later, after other requests: then it is a new RUN. */
    run_seq = seq;
    uint8_t run_copy[64];
    run_n = ptpu_link_req_run(run_copy, run_seq, pa, plen, 0, &all_rw, 1);
    if (get_status(PTPU_PKT_WAIT, 20000, &s) && s.state != PTPU_STATE_RUNNING)
        fail("WAIT with a short time-out: state %u", s.state);
    if (get_status(PTPU_PKT_WAIT, 0, &s) && (s.state != PTPU_STATE_DONE || s.cycles == 0))
        fail("WAIT: state %u fault %u pc %u", s.state, s.fault, s.fault_pc);
    struct ptpu_link_counters cn;
    if (get_counters(&cn) && (cn.counter[PTPU_CNT_MXU_ROWS] != LONG_MM * 128u || cn.counter[PTPU_CNT_LOAD_INSNS] != 2 ||
                              cn.counter[PTPU_CNT_COMPUTE_INSNS] != LONG_MM || cn.counter[PTPU_CNT_CYCLES] != s.cycles ||
                              cn.counter[PTPU_CNT_BYTES_READ] != 260u * 4u || cn.channels != 1))
        fail("COUNTERS of the long program: rows %" PRIu64 " loads %" PRIu64, cn.counter[PTPU_CNT_MXU_ROWS],
             cn.counter[PTPU_CNT_LOAD_INSNS]);
    /* A RUN after another request with the same SEQ is a new RUN. */
    if (run(pa, plen, 0, &all_rw, 1, &st, &det) != PTPU_LINK_RESP_OK)
        fail("RUN after the long program rejected: %u 0x%x", st, det);
    if (get_status(PTPU_PKT_STATUS, 0, &s) && s.state != PTPU_STATE_RUNNING)
        fail("STATUS of the second run: state %u", s.state);
    /* RESET while running: the pending WAIT answers FAULT ABORTED, then RESET; STATUS IDLE. */
    put_bytes(frame, ptpu_link_req_wait(frame, ++seq, 0), BYTE_CYCLES);
    uint8_t wait_seq = seq;
    expect_silence(20000, "WAIT while running");
    put_bytes(frame, ptpu_link_req_reset(frame, ++seq), BYTE_CYCLES);
    {
        int ev;
        struct ptpu_link_status ws;
        if (!get_frame(&f, &ev, RSP_CYCLES) || ev != PTPU_LINK_DEC_FRAME ||
            ptpu_link_check_response(&f, PTPU_PKT_WAIT, wait_seq, NULL, NULL) != PTPU_LINK_RESP_OK ||
            ptpu_link_parse_status(&f, &ws) || ws.state != PTPU_STATE_FAULT || ws.fault != PTPU_FAULT_ABORTED)
            fail("RESET while running: the pending WAIT was not answered with FAULT ABORTED");
        if (!get_frame(&f, &ev, RSP_CYCLES) || ev != PTPU_LINK_DEC_FRAME ||
            ptpu_link_check_response(&f, PTPU_PKT_RESET, seq, NULL, NULL) != PTPU_LINK_RESP_OK || f.len != 0)
            fail("RESET: no response");
    }
    if (get_status(PTPU_PKT_STATUS, 0, &s) && (s.state != PTPU_STATE_IDLE || s.fault || s.cycles))
        fail("STATUS after RESET: state %u fault %u", s.state, s.fault);
    /* The resent RUN of before (its SEQ was followed by other requests): a new RUN. */
    memcpy(frame, run_copy, run_n);
    if (transact(run_n, PTPU_PKT_RUN, &f, &st, &det) != PTPU_LINK_RESP_OK)
        fail("an old RUN sent again after other requests was not started: %u 0x%x", st, det);
    if (transact(run_n, PTPU_PKT_RUN, &f, &st, &det) != PTPU_LINK_RESP_OK)
        fail("the resend of a started RUN did not get its OK again");
    if (get_status(PTPU_PKT_WAIT, 0, &s) && s.state != PTPU_STATE_DONE)
        fail("WAIT after the restarted program: state %u", s.state);

    /* The RUN time-out stops a program with FAULT TIMEOUT. */
    if (run(pa, plen, 50000, &all_rw, 1, &st, &det) != PTPU_LINK_RESP_OK)
        fail("RUN with a time-out rejected");
    if (get_status(PTPU_PKT_WAIT, 0, &s) &&
        (s.state != PTPU_STATE_FAULT || s.fault != PTPU_FAULT_TIMEOUT || s.fault_pc >= plen || s.cycles < 50000))
        fail("RUN time-out: state %u fault %u pc %u cycles %" PRIu64, s.state, s.fault, s.fault_pc, s.cycles);

    /* Requests with every byte value in the payload survive the parser (SYNC in payloads). */
    for (uint32_t i = 0; i < 256; i++)
        data[i] = (uint8_t)i;
    if (req_ok(ptpu_link_req_ping(frame, ++seq, data, 256), PTPU_PKT_PING, &f, "PING 0..255") &&
        (f.len != 256 || memcmp(f.payload, data, 256)))
        fail("PING with every byte value");
    printf("tb_litefw: link: %" PRIu64 " cycles of device time\n", t_now);
}

int main(int argc, char **argv)
{
    int nprogs = 300, ndecode = 3000;
    g_seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            g_seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--progs") && i + 1 < argc)
            nprogs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--decode") && i + 1 < argc)
            ndecode = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: tb_litefw [--seed N] [--progs N] [--decode N]\n");
            return 2;
        }
    }
    printf("tb_litefw: seed %" PRIu64 "\n", g_seed);
    rng_state = g_seed * 0x9e3779b97f4a7c15ull + 1;
    lite_dev_mem = xrealloc(NULL, MEM_BYTES);
    if (ptpu_link_dec_init(&dec, 65536)) {
        fprintf(stderr, "tb_litefw: out of memory\n");
        return 2;
    }
    test_link();
    test_progs(nprogs);
    test_decode(ndecode);
    ptpu_link_dec_free(&dec);
    free(lite_dev_mem);
    free(rxq.b);
    free(rxq.t);
    free(txq);
    printf("%s tb_litefw (seed %" PRIu64 ")\n", g_errors ? "FAIL" : "PASS", g_seed);
    return g_errors ? 1 : 0;
}

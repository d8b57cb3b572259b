/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_vpu.c - randomized and directed testbench for tpu_vpu against the C
 * model of the vector unit (host/src/ptpu_vpu.c).
 *
 * N is read from the port widths of the linked model; whether fp outputs
 * exist is given by --bf16 (the ports are the same), so one source serves
 * every -G set.
 *
 *   tb_vpu [--seed S] [--bf16 0|1] [--scale K]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu_isa.h"
#include "ptpu_arith.h"
#include "ptpu_vpu.h"
#include "tb.h"

#define MAX_N 128
#define MAX_WIN 15

typedef struct {
    tb_t *tb;
    int n, bf16;
    tb_sig_t *cfg_out, *cfg_pool, *cfg_relu, *cfg_relu6, *cfg_zp, *cfg_lo, *cfg_hi;
    tb_sig_t *bias, *m0, *shift;
    tb_sig_t *s_valid, *s_ready, *s_data, *s_first, *s_last;
    tb_sig_t *m_valid, *m_ready, *m_data, *busy;
    /* stall probabilities in percent for the current test */
    int in_gap_pct, out_stall_pct;
    uint64_t rows_in, results, busy_cycles;
    long latency;          /* cycles from the last row of window 0 in to its result out */
} vpu_t;

/* One ACTIVATE as the vector unit sees it. */
typedef struct {
    struct ptpu_vpu_op op;
    uint32_t bias[MAX_N], m0[MAX_N], shift[MAX_N];
    int nout;                 /* windows */
    int *nwin;                /* rows per window */
    uint32_t **rows;          /* window o: rows[o][j*n + c] */
} insn_t;

/* ------------------------------------------------------------------- ports */

static void put_row(vpu_t *u, tb_sig_t *s, const uint32_t *row)
{
    uint32_t *w = tb_words(s);
    memcpy(w, row, (size_t)u->n * 4);
}

static void apply_cfg(vpu_t *u, const insn_t *in)
{
    tb_set(u->cfg_out, (uint64_t)in->op.out);
    tb_set(u->cfg_pool, (uint64_t)in->op.pool);
    tb_set(u->cfg_relu, (uint64_t)in->op.relu);
    tb_set(u->cfg_relu6, (uint64_t)in->op.relu6);
    tb_set(u->cfg_zp, (uint64_t)(in->op.zp_out & 0xff));
    tb_set(u->cfg_lo, (uint64_t)(in->op.clamp_lo & 0xff));
    tb_set(u->cfg_hi, (uint64_t)(in->op.clamp_hi & 0xff));
    put_row(u, u->bias, in->bias);
    put_row(u, u->m0, in->m0);
    put_row(u, u->shift, in->shift);
}

/* Garbage on the configuration while idle: the unit must not care. */
static void scramble_cfg(vpu_t *u)
{
    tb_t *tb = u->tb;
    tb_set(u->cfg_out, (uint64_t)tb_rand_range(tb, 0, 3));
    tb_set(u->cfg_pool, (uint64_t)tb_rand_range(tb, 0, 3));
    tb_set(u->cfg_relu, (uint64_t)tb_rand_range(tb, 0, 1));
    tb_set(u->cfg_relu6, (uint64_t)tb_rand_range(tb, 0, 1));
    tb_set(u->cfg_zp, tb_rand32(tb) & 0xff);
    uint32_t *b = tb_words(u->bias), *m = tb_words(u->m0), *s = tb_words(u->shift);
    for (int c = 0; c < u->n; c++) {
        b[c] = tb_rand32(tb);
        m[c] = tb_rand32(tb);
        s[c] = tb_rand32(tb);
    }
}

/* --------------------------------------------------------------- the driver */

/* Expected output bytes of window o, in the m_data_o layout. */
static void expect(const vpu_t *u, const insn_t *in, int o, uint8_t *out)
{
    const uint32_t *rows[MAX_WIN];
    for (int j = 0; j < in->nwin[o]; j++)
        rows[j] = &in->rows[o][(size_t)j * u->n];
    memset(out, 0, (size_t)u->n * 4);
    ptpu_vpu_row(&in->op, rows, in->nwin[o], in->bias, in->m0, in->shift, out);
}

static void compare(vpu_t *u, const insn_t *in, int o, const char *what)
{
    uint8_t want[MAX_N * 4], got[MAX_N * 4];
    expect(u, in, o, want);
    memcpy(got, tb_words(u->m_data), (size_t)u->n * 4);
    if (memcmp(want, got, (size_t)u->n * 4) == 0)
        return;
    int bytes = in->op.out == PTPU_OUT_INT8 ? 1 : in->op.out == PTPU_OUT_BF16 ? 2 : 4;
    for (int i = 0; i < u->n * 4; i++) {
        if (want[i] == got[i])
            continue;
        int c = i / bytes;
        if (c >= u->n) {
            tb_check(u->tb, 0, "%s: window %d: byte %d above the result is %02x, not 0",
                     what, o, i, got[i]);
            return;
        }
        uint32_t w = 0, g = 0;
        memcpy(&w, &want[c * bytes], (size_t)bytes);
        memcpy(&g, &got[c * bytes], (size_t)bytes);
        char rows[256];
        int len = 0;
        for (int j = 0; j < in->nwin[o] && len < 200; j++)
            len += snprintf(rows + len, sizeof rows - (size_t)len, " %08x",
                            in->rows[o][(size_t)j * u->n + c]);
        tb_check(u->tb, 0,
                 "%s: window %d lane %d: got %0*x want %0*x (out %d pool %d relu %d relu6 %d "
                 "zp %d clamp %d..%d; bias %08x m0 %08x shift %08x; rows%s)",
                 what, o, c, 2 * bytes, g, 2 * bytes, w, in->op.out, in->op.pool, in->op.relu,
                 in->op.relu6, in->op.zp_out, in->op.clamp_lo, in->op.clamp_hi, in->bias[c],
                 in->m0[c], in->shift[c], rows);
        return;
    }
}

/* Runs one instruction: streams its windows in with random gaps, takes the
 * results with random stalls, compares each, then waits for busy_o to fall. */
static void run_insn(vpu_t *u, const insn_t *in, const char *what)
{
    tb_t *tb = u->tb;
    apply_cfg(u, in);
    int o_in = 0, j_in = 0, o_out = 0;
    int offering = 0;
    long idle = 0;
    uint64_t w0_done = 0;
    while (o_out < in->nout) {
        /* Input: once offered, a row stays until taken. */
        if (!offering && o_in < in->nout && !tb_chance(tb, (unsigned)u->in_gap_pct, 100)) {
            offering = 1;
            put_row(u, u->s_data, &in->rows[o_in][(size_t)j_in * u->n]);
            tb_set(u->s_first, j_in == 0);
            tb_set(u->s_last, j_in == in->nwin[o_in] - 1);
        }
        tb_set(u->s_valid, (uint64_t)offering);
        if (!offering) {
            /* idle input data is garbage */
            uint32_t *d = tb_words(u->s_data);
            d[0] = tb_rand32(tb);
        }
        int ready = !tb_chance(tb, (unsigned)u->out_stall_pct, 100);
        tb_set(u->m_ready, (uint64_t)ready);
        tb_fall(tb);
        int in_fire = offering && tb_get(u->s_ready);
        int out_fire = ready && tb_get(u->m_valid);
        if (out_fire) {
            if (o_out == 0)
                u->latency = (long)(tb->cycle - w0_done);
            compare(u, in, o_out++, what);
        }
        tb_check(tb, tb_get(u->busy) || !offering || in_fire,
                 "%s: busy_o low with a row offered and not taken", what);
        if (o_in > o_out || j_in > 0)
            tb_check(tb, tb_get(u->busy), "%s: busy_o low with %d results due, %d rows of "
                     "an open window in", what, o_in - o_out, j_in);
        tb_rise(tb);
        u->busy_cycles++;
        if (in_fire) {
            u->rows_in++;
            offering = 0;
            if (++j_in == in->nwin[o_in]) {
                if (o_in == 0)
                    w0_done = tb->cycle;
                j_in = 0;
                o_in++;
            }
        }
        idle = (in_fire || out_fire) ? 0 : idle + 1;
        if (idle > 1000) {
            tb_check(tb, 0, "%s: stuck: %d of %d windows in, %d results out", what, o_in,
                     in->nout, o_out);
            break;
        }
        if (tb->errors > 0)
            break;
    }
    u->results += (uint64_t)o_out;
    tb_set(u->s_valid, 0);
    if (tb->errors) {
        /* Flush what is left of the failed instruction; the next tests still run. */
        tb_reset(tb, 2);
        return;
    }
    /* Drain: no extra result, busy falls. */
    for (int i = 0; i < 40; i++) {
        tb_set(u->m_ready, (uint64_t)tb_chance(tb, 1, 2));
        tb_fall(tb);
        if (tb_get(u->m_valid)) {
            tb_check(tb, 0, "%s: a result beyond the %d windows", what, in->nout);
            break;
        }
        int busy = (int)tb_get(u->busy);
        tb_rise(tb);
        if (!busy)
            break;
        tb_check(tb, i < 39, "%s: busy_o stays high after the last result", what);
    }
    /* Between instructions the configuration may be anything. */
    int gap = (int)tb_rand_range(tb, 0, 3);
    for (int i = 0; i < gap; i++) {
        scramble_cfg(u);
        tb_tick(tb);
    }
}

/* ---------------------------------------------------------------- stimulus */

static void insn_alloc(vpu_t *u, insn_t *in, int nout, int maxwin)
{
    memset(&in->op, 0, sizeof in->op);
    in->op.n = u->n;
    in->nout = nout;
    in->nwin = calloc((size_t)nout, sizeof *in->nwin);
    in->rows = calloc((size_t)nout, sizeof *in->rows);
    if (!in->nwin || !in->rows) {
        perror("tb_vpu");
        exit(2);
    }
    for (int o = 0; o < nout; o++) {
        in->rows[o] = calloc((size_t)maxwin * (size_t)u->n, 4);
        if (!in->rows[o]) {
            perror("tb_vpu");
            exit(2);
        }
        in->nwin[o] = 1;
    }
}

static void insn_free(insn_t *in)
{
    for (int o = 0; o < in->nout; o++)
        free(in->rows[o]);
    free(in->rows);
    free(in->nwin);
}

static uint32_t rand_int32(tb_t *tb)
{
    static const uint32_t ex[] = {0x80000000u, 0x7fffffffu, 0, 0xffffffffu, 1, 0x80000001u,
                                  0x40000000u, 0xc0000000u};
    switch (tb_rand_range(tb, 0, 5)) {
    case 0: return ex[tb_rand_range(tb, 0, 7)];
    case 1: return tb_rand32(tb);
    case 2: return (uint32_t)(int32_t)tb_rand_range(tb, -300, 300);
    default: return (uint32_t)(int32_t)tb_rand_range(tb, -(1 << 20), 1 << 20);
    }
}

static uint32_t rand_m0(tb_t *tb)
{
    static const uint32_t ex[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x40000000u,
                                  0x40000001u, 0xc0000000u};
    if (tb_chance(tb, 1, 5))
        return ex[tb_rand_range(tb, 0, 7)];
    if (tb_chance(tb, 1, 5))
        return tb_rand32(tb);
    return (uint32_t)tb_rand_range(tb, 1 << 30, 0x7fffffff);
}

static uint32_t rand_shift(tb_t *tb)
{
    if (tb_chance(tb, 1, 4))
        return tb_rand32(tb);     /* only the low 6 bits count */
    if (tb_chance(tb, 1, 10))
        return (uint32_t)(int32_t)(tb_chance(tb, 1, 2) ? -32 : 31);
    return (uint32_t)(int32_t)tb_rand_range(tb, -31, 31);
}

static uint32_t rand_fp32(tb_t *tb)
{
    static const uint32_t sp[] = {
        0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
        0x7f800001u, 0xff912345u, 0x7fbfffffu,                /* zeros, infs, nans */
        0x00000001u, 0x807fffffu, 0x00400000u, 0x80000010u,    /* subnormals */
        0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu,    /* extremes */
        0x3f800000u, 0xbf800000u, 0x40c00000u, 0xc0c00000u,    /* +-1, +-6 */
        0x40c00001u, 0x40bfffffu, 0x3f808000u, 0x3f818000u,    /* 6 +- ulp, bf16 ties */
        0x3f80ffffu, 0x7f7f8000u, 0x7f7f7fffu,                 /* rounding to Inf */
    };
    if (tb_chance(tb, 1, 5))
        return sp[tb_rand_range(tb, 0, sizeof sp / sizeof sp[0] - 1)];
    uint32_t sign = (uint32_t)tb_rand_range(tb, 0, 1) << 31;
    int e = tb_chance(tb, 1, 10) ? (int)tb_rand_range(tb, 0, 255)
                                  : 127 + (int)tb_rand_range(tb, -8, 8);
    uint32_t mant = tb_rand32(tb) & 0x7fffffu;
    if (tb_chance(tb, 1, 4))
        mant &= 0x7f0000u | (tb_chance(tb, 1, 2) ? 0x8000u : 0);   /* ties for bf16 */
    return sign | ((uint32_t)e << 23) | mant;
}

static void rand_cfg(vpu_t *u, insn_t *in, int out)
{
    tb_t *tb = u->tb;
    in->op.out = out;
    in->op.pool = (int)tb_rand_range(tb, 0, 2);
    in->op.relu = in->op.relu6 = 0;
    if (out != PTPU_OUT_INT8) {
        in->op.relu = (int)tb_rand_range(tb, 0, 1);
        in->op.relu6 = (int)tb_rand_range(tb, 0, 1);
    }
    in->op.zp_out = (int)tb_rand_range(tb, -128, 127);
    int a = (int)tb_rand_range(tb, -128, 127), b = (int)tb_rand_range(tb, -128, 127);
    if (tb_chance(tb, 1, 3)) {
        a = -128;
        b = 127;
    }
    in->op.clamp_lo = a < b ? a : b;
    in->op.clamp_hi = a < b ? b : a;
    for (int c = 0; c < u->n; c++) {
        int fp = out != PTPU_OUT_INT8;
        in->bias[c] = fp ? rand_fp32(tb) : rand_int32(tb);
        if (fp && tb_chance(tb, 1, 3))
            in->bias[c] = 0;
        in->m0[c] = fp ? tb_rand32(tb) : rand_m0(tb);
        in->shift[c] = fp ? tb_rand32(tb) : rand_shift(tb);
    }
}

static void rand_windows(vpu_t *u, insn_t *in, int maxwin)
{
    tb_t *tb = u->tb;
    int fp = in->op.out != PTPU_OUT_INT8;
    for (int o = 0; o < in->nout; o++) {
        in->nwin[o] = in->op.pool == PTPU_POOL_NONE ? 1 : (int)tb_rand_range(tb, 1, maxwin);
        for (int j = 0; j < in->nwin[o] * u->n; j++)
            in->rows[o][j] = fp ? rand_fp32(tb) : rand_int32(tb);
    }
}

/* ------------------------------------------------------------------- tests */

static int n_outs(vpu_t *u) { return u->bf16 ? 3 : 1; }

/* Every out/pool/relu combination, random data, windows 1..15. */
static void test_combos(vpu_t *u, int scale)
{
    tb_t *tb = u->tb;
    tb_begin(tb);
    u->in_gap_pct = 20;
    u->out_stall_pct = 20;
    int insns = 0;
    for (int rep = 0; rep < scale; rep++)
        for (int out = 0; out < n_outs(u); out++)
            for (int pool = 0; pool < 3; pool++)
                for (int r = 0; r < (out ? 4 : 1); r++) {
                    insn_t in;
                    insn_alloc(u, &in, (int)tb_rand_range(tb, 1, 12), MAX_WIN);
                    rand_cfg(u, &in, out);
                    in.op.pool = pool;
                    in.op.relu = r & 1;
                    in.op.relu6 = r >> 1;
                    rand_windows(u, &in, MAX_WIN);
                    run_insn(u, &in, "combos");
                    insn_free(&in);
                    insns++;
                }
    tb_end(tb, "combos", "%d instructions", insns);
}

/* int8 requantization at the edges: every lane gets a combination of an
 * extreme ACC value, bias, multiplier and shift. */
static void test_int8_extremes(vpu_t *u)
{
    tb_t *tb = u->tb;
    static const uint32_t acc[] = {0x80000000u, 0x7fffffffu, 0, 0xffffffffu, 1, 0x40000000u,
                                   0xc0000000u, 0x00012345u};
    static const uint32_t m0[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x40000000u,
                                  0x40000001u, 0x5a5a5a5au};
    static const int shift[] = {-32, -31, -30, -17, -1, 0, 1, 15, 30, 31};
    static const int zp[][3] = {{0, -128, 127}, {-128, -128, 127}, {127, -128, 127},
                                {5, 5, 5}, {-3, -10, 100}};
    tb_begin(tb);
    u->in_gap_pct = 10;
    u->out_stall_pct = 10;
    int total = 8 * 8 * 10 * 2, done = 0, insns = 0;
    for (int z = 0; z < 5; z++) {
        done = 0;
        while (done < total) {
            insn_t in;
            insn_alloc(u, &in, 1, 1);
            in.op.out = PTPU_OUT_INT8;
            in.op.pool = PTPU_POOL_NONE;
            in.op.zp_out = zp[z][0];
            in.op.clamp_lo = zp[z][1];
            in.op.clamp_hi = zp[z][2];
            for (int c = 0; c < u->n; c++, done++) {
                int i = done % total;
                in.rows[0][c] = acc[i % 8];
                in.m0[c] = m0[(i / 8) % 8];
                in.shift[c] = (uint32_t)shift[(i / 64) % 10] | ((i / 640) ? 0xabcdef00u : 0);
                in.bias[c] = (i / 640) ? 0x80000000u : 0;  /* wraps INT32_MIN + INT32_MIN */
            }
            run_insn(u, &in, "int8_extremes");
            insn_free(&in);
            insns++;
        }
    }
    /* Sums and maxima that wrap and compare at the int32 limits. */
    for (int rep = 0; rep < 20; rep++) {
        insn_t in;
        insn_alloc(u, &in, 4, MAX_WIN);
        rand_cfg(u, &in, PTPU_OUT_INT8);
        in.op.pool = rep & 1 ? PTPU_POOL_MAX : PTPU_POOL_SUM;
        for (int o = 0; o < 4; o++) {
            in.nwin[o] = (int)tb_rand_range(tb, 2, MAX_WIN);
            for (int j = 0; j < in.nwin[o] * u->n; j++)
                in.rows[o][j] = acc[tb_rand_range(tb, 0, 4)];
        }
        run_insn(u, &in, "int8_extremes");
        insn_free(&in);
        insns++;
    }
    tb_end(tb, "int8_extremes", "%d instructions", insns);
}

/* fp specials in pairs through max and sum windows with every activation. */
static void test_fp_specials(vpu_t *u)
{
    tb_t *tb = u->tb;
    static const uint32_t sp[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
        0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffbfffffu,
        0x3f800000u, 0xbf800000u, 0x40c00000u, 0x40c00001u, 0x7f7fffffu, 0xff7fffffu,
        0x00800000u, 0x80800000u,
    };
    enum { NS = sizeof sp / sizeof sp[0] };
    tb_begin(tb);
    u->in_gap_pct = 10;
    u->out_stall_pct = 10;
    int insns = 0;
    for (int out = 1; out <= 2; out++)
        for (int pool = 0; pool < 3; pool++)
            for (int r = 0; r < 4; r++) {
                /* lane c of window o: pair (a, b) with index o*n + c over NS x NS, bias
                 * cycling through the specials too */
                int pairs = NS * NS, nout = (pairs + u->n - 1) / u->n;
                insn_t in;
                insn_alloc(u, &in, nout, 2);
                in.op.out = out;
                in.op.pool = pool;
                in.op.relu = r & 1;
                in.op.relu6 = r >> 1;
                for (int c = 0; c < u->n; c++) {
                    in.bias[c] = (c % 3 == 0) ? 0 : (c % 3 == 1) ? 0x80000000u : sp[c % NS];
                    in.m0[c] = tb_rand32(tb);
                    in.shift[c] = tb_rand32(tb);
                }
                for (int o = 0; o < nout; o++) {
                    in.nwin[o] = pool == PTPU_POOL_NONE ? 1 : 2;
                    for (int c = 0; c < u->n; c++) {
                        int p = (o * u->n + c) % pairs;
                        in.rows[o][c] = sp[p / NS];
                        in.rows[o][u->n + c] = sp[p % NS];
                    }
                }
                run_insn(u, &in, "fp_specials");
                insn_free(&in);
                insns++;
            }
    tb_end(tb, "fp_specials", "%d instructions", insns);
}

/* Handshake corner cases: one row at a time, long output stalls, full rate. */
static void test_handshake(vpu_t *u)
{
    tb_t *tb = u->tb;
    tb_begin(tb);
    int insns = 0;
    static const int gaps[][2] = {{95, 0}, {0, 95}, {0, 0}, {50, 50}, {0, 99}};
    for (int g = 0; g < 5; g++) {
        u->in_gap_pct = gaps[g][0];
        u->out_stall_pct = gaps[g][1];
        for (int out = 0; out < n_outs(u); out++) {
            insn_t in;
            insn_alloc(u, &in, g == 2 ? 64 : 8, 4);
            rand_cfg(u, &in, out);
            rand_windows(u, &in, 4);
            run_insn(u, &in, "handshake");
            insn_free(&in);
            insns++;
        }
    }
    /* Throughput at full rate with 1x1 windows: rows per cycle (not asserted,
     * reported). */
    u->in_gap_pct = 0;
    u->out_stall_pct = 0;
    insn_t in;
    insn_alloc(u, &in, 256, 1);
    rand_cfg(u, &in, PTPU_OUT_INT8);
    in.op.pool = PTPU_POOL_NONE;
    rand_windows(u, &in, 1);
    uint64_t c0 = tb->cycle;
    run_insn(u, &in, "handshake");
    uint64_t cycles = tb->cycle - c0;
    insn_free(&in);
    tb_end(tb, "handshake", "%d instructions; 256 rows at full rate in %llu cycles, latency %ld",
           insns + 1, (unsigned long long)cycles, u->latency);
}

/* Long random run: random configuration per instruction, random stalls. */
static void test_random(vpu_t *u, int scale)
{
    tb_t *tb = u->tb;
    tb_begin(tb);
    uint64_t r0 = u->rows_in, o0 = u->results;
    int insns = 0;
    for (int i = 0; i < 40 * scale; i++) {
        u->in_gap_pct = (int)tb_rand_range(tb, 0, 60);
        u->out_stall_pct = (int)tb_rand_range(tb, 0, 60);
        insn_t in;
        int maxwin = (int)tb_rand_range(tb, 1, MAX_WIN);
        insn_alloc(u, &in, (int)tb_rand_range(tb, 1, 24), maxwin);
        rand_cfg(u, &in, (int)tb_rand_range(tb, 0, n_outs(u) - 1));
        rand_windows(u, &in, maxwin);
        run_insn(u, &in, "random");
        insn_free(&in);
        insns++;
        if (tb->errors)
            break;
    }
    tb_end(tb, "random", "%d instructions, %llu rows, %llu results", insns,
           (unsigned long long)(u->rows_in - r0), (unsigned long long)(u->results - o0));
}

int main(int argc, char **argv)
{
    vpu_t u;
    memset(&u, 0, sizeof u);
    int scale = 8;
    u.bf16 = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bf16") && i + 1 < argc)
            u.bf16 = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = atoi(argv[++i]);
    }
    tb_t *tb = tb_open("vpu", argc, argv);
    u.tb = tb;
    u.cfg_out = tb_sig(tb, "cfg_out_i");
    u.cfg_pool = tb_sig(tb, "cfg_pool_i");
    u.cfg_relu = tb_sig(tb, "cfg_relu_i");
    u.cfg_relu6 = tb_sig(tb, "cfg_relu6_i");
    u.cfg_zp = tb_sig(tb, "cfg_zp_out_i");
    u.cfg_lo = tb_sig(tb, "cfg_clamp_lo_i");
    u.cfg_hi = tb_sig(tb, "cfg_clamp_hi_i");
    u.bias = tb_sig(tb, "bias_i");
    u.m0 = tb_sig(tb, "m0_i");
    u.shift = tb_sig(tb, "shift_i");
    u.s_valid = tb_sig(tb, "s_valid_i");
    u.s_ready = tb_sig(tb, "s_ready_o");
    u.s_data = tb_sig(tb, "s_data_i");
    u.s_first = tb_sig(tb, "s_first_i");
    u.s_last = tb_sig(tb, "s_last_i");
    u.m_valid = tb_sig(tb, "m_valid_o");
    u.m_ready = tb_sig(tb, "m_ready_i");
    u.m_data = tb_sig(tb, "m_data_o");
    u.busy = tb_sig(tb, "busy_o");
    u.n = u.s_data->bits / 32;
    if (u.n > MAX_N || u.s_data->store != 0) {
        fprintf(stderr, "tb_vpu: N = %d not supported (4..%d)\n", u.n, MAX_N);
        return 2;
    }
    printf("tb_vpu: N = %d, bf16 = %d\n", u.n, u.bf16);
    tb_set(u.s_valid, 0);
    tb_set(u.m_ready, 0);
    tb_reset(tb, 3);

    test_handshake(&u);
    test_int8_extremes(&u);
    if (u.bf16)
        test_fp_specials(&u);
    test_combos(&u, scale);
    test_random(&u, scale);
    return tb_close(tb);
}

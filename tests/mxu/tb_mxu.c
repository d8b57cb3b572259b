/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_mxu.c - randomized and directed testbench for tpu_mxu against the C
 * model of picotpu's arithmetic (host/src/ptpu_arith.c).
 *
 * The configuration (N, bf16 support, ACC size) is read from the port widths
 * of the model this binary was linked with, so one source serves every -G set.
 *
 *   tb_mxu [--seed S] [--scale K]      run the tests (K phases of random blocks x 6;
 *                                      the default scales with the array size)
 *   tb_mxu --bench-util                print "BENCH mxu.utilization <fraction>"
 *   tb_mxu --bench-speed [--cycles C]  print "BENCH mxu.sim_cycles_per_s.int8 ..."
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptpu_arith.h"
#include "tb.h"

typedef struct {
    tb_t *tb;
    int n, ew, bf16, acc_rows;
    tb_sig_t *w_valid, *w_ready, *w_data;
    tb_sig_t *a_valid, *a_ready, *a_data, *a_first, *a_acc, *a_bf16, *a_zp, *a_addr;
    tb_sig_t *r_valid, *r_ready, *r_addr, *r_data_valid, *r_data;
    tb_sig_t *busy, *row_fire;
    uint32_t *acc_model;   /* acc_rows x n */
    uint8_t *acc_known;    /* row has a defined value in the model */
} mxu_t;

typedef struct {
    int bf16, zp, m;
    uint16_t *w;           /* n x n, w[k*n + j] = W[k][j] */
    uint16_t *x;           /* m x n */
    int *addr, *acc;
} block_t;

/* ---------------------------------------------------------------- stimulus */

static uint16_t rand_bf16(tb_t *tb, int special_pct, int exp_spread)
{
    static const uint16_t specials[] = {
        0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xff95, /* zeros, infs, nans */
        0x0001, 0x807f, 0x0040,                                         /* subnormals */
        0x0080, 0x8080, 0x7f7f, 0xff7f, 0x3f80, 0xbf80,                 /* extremes, +-1 */
    };
    if ((int)tb_rand_range(tb, 0, 99) < special_pct)
        return specials[tb_rand_range(tb, 0, sizeof specials / sizeof specials[0] - 1)];
    unsigned sign = (unsigned)tb_rand_range(tb, 0, 1);
    int e;
    if (tb_chance(tb, 1, 20))
        e = (int)tb_rand_range(tb, 1, 254);
    else
        e = 127 + (int)tb_rand_range(tb, -exp_spread, exp_spread);
    unsigned mant = (unsigned)tb_rand_range(tb, 0, 127);
    return (uint16_t)((sign << 15) | ((unsigned)e << 7) | mant);
}

static uint16_t rand_int8(tb_t *tb, int extreme_pct)
{
    if ((int)tb_rand_range(tb, 0, 99) < extreme_pct) {
        static const int8_t ex[] = {-128, 127, 0, -1, 1, -127};
        return (uint16_t)(uint8_t)ex[tb_rand_range(tb, 0, 5)];
    }
    return (uint16_t)(uint8_t)tb_rand_range(tb, -128, 127);
}

static void block_alloc(mxu_t *u, block_t *b, int m)
{
    b->m = m;
    b->w = calloc((size_t)u->n * u->n, sizeof *b->w);
    b->x = calloc((size_t)m * u->n, sizeof *b->x);
    b->addr = calloc((size_t)m, sizeof *b->addr);
    b->acc = calloc((size_t)m, sizeof *b->acc);
    if (!b->w || !b->x || !b->addr || !b->acc) {
        perror("tb_mxu");
        exit(2);
    }
}

static void block_free(block_t *b)
{
    free(b->w);
    free(b->x);
    free(b->addr);
    free(b->acc);
}

typedef struct {
    int bf16_pct;       /* share of bf16 blocks */
    int special_pct;    /* bf16 specials / int8 extremes per element */
    int exp_spread;
    int m_min, m_max;   /* rows per block */
    int acc_pct;        /* rows that accumulate */
    int addr_span;      /* ACC rows used (small = many read-modify-write hazards) */
    int seq_addr;       /* consecutive addresses within a block */
} gen_t;

static void gen_block(mxu_t *u, block_t *b, const gen_t *g)
{
    tb_t *tb = u->tb;
    int m = (int)tb_rand_range(tb, g->m_min, g->m_max);
    block_alloc(u, b, m);
    b->bf16 = u->bf16 && (int)tb_rand_range(tb, 0, 99) < g->bf16_pct;
    b->zp = tb_chance(tb, 1, 4) ? (tb_chance(tb, 1, 2) ? -128 : 127)
                                : (int)tb_rand_range(tb, -128, 127);
    for (int i = 0; i < u->n * u->n; i++)
        b->w[i] = b->bf16 ? rand_bf16(tb, g->special_pct, g->exp_spread)
                          : rand_int8(tb, g->special_pct);
    int base = (int)tb_rand_range(tb, 0, g->addr_span - 1);
    for (int r = 0; r < m; r++) {
        for (int k = 0; k < u->n; k++)
            b->x[r * u->n + k] = b->bf16 ? rand_bf16(tb, g->special_pct, g->exp_spread)
                                         : rand_int8(tb, g->special_pct);
        b->addr[r] = g->seq_addr ? (base + r) % g->addr_span
                                 : (int)tb_rand_range(tb, 0, g->addr_span - 1);
        b->acc[r] = (int)tb_rand_range(tb, 0, 99) < g->acc_pct;
    }
}

/* -------------------------------------------------------------------- model */

static void model_block(mxu_t *u, const block_t *b)
{
    int n = u->n;
    for (int r = 0; r < b->m; r++) {
        uint32_t *row = &u->acc_model[(size_t)b->addr[r] * n];
        const uint16_t *x = &b->x[r * n];
        for (int j = 0; j < n; j++) {
            uint32_t d = b->bf16 ? ptpu_mxu_dot_bf16(x, &b->w[j], n, n)
                                 : ptpu_mxu_dot_int8(x, &b->w[j], n, n, b->zp);
            if (b->acc[r])
                row[j] = b->bf16 ? ptpu_fp32_add(row[j], d) : row[j] + d;
            else
                row[j] = d;
        }
        /* Accumulating into a row the model has never defined compares
         * garbage with garbage: mark it unknown until overwritten. */
        u->acc_known[b->addr[r]] = b->acc[r] ? u->acc_known[b->addr[r]] : 1;
    }
}

/* ------------------------------------------------------------------ driving */

static void set_row(tb_sig_t *s, const uint16_t *v, int n, int ew)
{
    for (int k = 0; k < n; k++)
        tb_set_bits(s, k * ew, ew, v[k]);
}

/* Streams the blocks through the MXU: weights on one stream, rows on the
 * other, each stalled at random with the given per-cycle probabilities (in
 * percent).  Returns the cycles spent; *rows_cycles gets the cycles between
 * the first and the last accepted row. */
static uint64_t run_blocks(mxu_t *u, block_t *bl, int nb, int w_stall, int a_stall,
                           uint64_t *rows_cycles)
{
    tb_t *tb = u->tb;
    int n = u->n;
    int wb = 0, wk = 0;      /* next weight row: block, row */
    int ab = 0, ar = 0;      /* next activation row: block, row */
    uint64_t start = tb->cycle, first_row = 0, last_row = 0;
    uint64_t limit = 1000 + (uint64_t)nb * (uint64_t)(4 * n + 64) * 20;
    for (int i = 0; i < nb; i++)
        limit += (uint64_t)bl[i].m * 20;
    while (ab < nb) {
        int wv = wb < nb && !tb_chance(tb, (unsigned)w_stall, 100);
        int av = ab < nb && !tb_chance(tb, (unsigned)a_stall, 100);
        tb_set(u->w_valid, wv);
        if (wv)
            set_row(u->w_data, &bl[wb].w[wk * n], n, u->ew);
        tb_set(u->a_valid, av);
        if (av) {
            const block_t *b = &bl[ab];
            set_row(u->a_data, &b->x[ar * n], n, u->ew);
            tb_set(u->a_first, ar == 0);
            tb_set(u->a_acc, (uint64_t)b->acc[ar]);
            tb_set(u->a_bf16, (uint64_t)b->bf16);
            tb_set(u->a_zp, (uint64_t)(uint8_t)b->zp);
            tb_set(u->a_addr, (uint64_t)b->addr[ar]);
        }
        tb_fall(tb);
        int wf = wv && tb_get(u->w_ready);
        int af = av && tb_get(u->a_ready);
        /* The first row of block j may only enter once its tile is loaded. */
        if (af && ar == 0)
            tb_check(tb, wb > ab, "row of block %d accepted before its tile was loaded (tiles %d)",
                     ab, wb);
        tb_check(tb, (int)tb_get(u->row_fire) == af, "row_fire_o %d, accepted %d",
                 (int)tb_get(u->row_fire), af);
        tb_rise(tb);
        if (wf && ++wk == n) {
            wk = 0;
            wb++;
        }
        if (af) {
            if (!first_row)
                first_row = tb->cycle;
            last_row = tb->cycle;
            if (++ar == bl[ab].m) {
                ar = 0;
                ab++;
            }
        }
        if (tb->cycle - start > limit) {
            tb_check(tb, 0, "MXU stopped accepting rows (block %d row %d, tiles loaded %d)",
                     ab, ar, wb);
            break;
        }
    }
    tb_set(u->w_valid, 0);
    tb_set(u->a_valid, 0);
    /* Drain. */
    for (int i = 0; i < 8 * n + 64 && tb_get(u->busy); i++)
        tb_tick(tb);
    tb_check(tb, !tb_get(u->busy), "MXU still busy after draining");
    if (rows_cycles)
        *rows_cycles = last_row - first_row + 1;
    return tb->cycle - start;
}

/* Reads one ACC row through the read port. */
static void read_acc(mxu_t *u, int addr, uint32_t *out)
{
    tb_t *tb = u->tb;
    tb_set(u->r_valid, 1);
    tb_set(u->r_addr, (uint64_t)addr);
    tb_fall(tb);
    tb_check(tb, tb_get(u->r_ready), "ACC read port not ready while idle");
    tb_rise(tb);
    tb_set(u->r_valid, 0);
    tb_check(tb, tb_get(u->r_data_valid), "ACC read data not valid one cycle after the read");
    for (int j = 0; j < u->n; j++)
        out[j] = (uint32_t)tb_get_bits(u->r_data, j * 32, 32);
}

static int compare_acc(mxu_t *u, const char *what)
{
    uint32_t *row = calloc((size_t)u->n, sizeof *row);
    int bad = 0;
    for (int a = 0; a < u->acc_rows; a++) {
        if (!u->acc_known[a])
            continue;
        read_acc(u, a, row);
        for (int j = 0; j < u->n; j++) {
            uint32_t exp = u->acc_model[(size_t)a * u->n + j];
            if (row[j] != exp) {
                if (bad++ < 1)
                    tb_check(u->tb, 0, "%s: ACC[%d][%d] = 0x%08x, model 0x%08x", what, a, j,
                             row[j], exp);
            }
        }
    }
    free(row);
    return bad;
}

static void run_phase(mxu_t *u, const gen_t *g, int nb, int w_stall, int a_stall,
                      const char *what)
{
    block_t *bl = calloc((size_t)nb, sizeof *bl);
    for (int i = 0; i < nb; i++) {
        gen_block(u, &bl[i], g);
        model_block(u, &bl[i]);
    }
    run_blocks(u, bl, nb, w_stall, a_stall, NULL);
    compare_acc(u, what);
    for (int i = 0; i < nb; i++)
        block_free(&bl[i]);
    free(bl);
}

/* -------------------------------------------------------------------- tests */

static void test_random(mxu_t *u, const char *cfg, int scale, int bf16_pct, const char *name)
{
    tb_t *tb = u->tb;
    tb_begin(tb);
    int n = u->n;
    int blocks = 0, rows_before = 0;
    for (int phase = 0; phase < 6 * scale; phase++) {
        gen_t g = {
            .bf16_pct = bf16_pct,
            .special_pct = phase % 3 == 0 ? 10 : 2,
            .exp_spread = phase % 2 ? 4 : 20,
            .m_min = 1,
            .m_max = phase % 2 ? 3 * n : n / 2 + 1,
            .acc_pct = phase % 3 == 2 ? 90 : 40,
            .addr_span = phase % 2 ? u->acc_rows : 4,
            .seq_addr = phase % 4 == 1,
        };
        static const int stalls[][2] = {{0, 0}, {30, 0}, {0, 30}, {50, 50}, {5, 5}, {90, 10}};
        int nb = 4 + (int)tb_rand_range(tb, 0, 8);
        run_phase(u, &g, nb, stalls[phase % 6][0], stalls[phase % 6][1], name);
        blocks += nb;
        rows_before++;
    }
    char full[128];
    snprintf(full, sizeof full, "mxu.%s.%s", cfg, name);
    tb_end(tb, full, "(%d blocks, %d phases)", blocks, rows_before);
}

/* Extremes on every lane: the largest int8 sums, both zero-point limits,
 * INT8_MIN on both operands, and accumulation chains on one ACC row. */
static void test_int8_directed(mxu_t *u, const char *cfg)
{
    tb_t *tb = u->tb;
    int n = u->n;
    tb_begin(tb);
    static const int zps[] = {-128, 127, 0};
    static const int8_t wv[] = {-128, 127, -127};
    static const int8_t xv[] = {-128, 127, 0};
    block_t bl[27];
    int nb = 0;
    for (int zi = 0; zi < 3; zi++)
        for (int wi = 0; wi < 3; wi++)
            for (int xi = 0; xi < 3; xi++) {
                block_t *b = &bl[nb];
                block_alloc(u, b, n + 1);
                b->bf16 = 0;
                b->zp = zps[zi];
                for (int i = 0; i < n * n; i++)
                    b->w[i] = (uint16_t)(uint8_t)(i % 2 ? wv[wi] : wv[(wi + 1) % 3]);
                for (int r = 0; r < b->m; r++) {
                    for (int k = 0; k < n; k++)
                        b->x[r * n + k] = (uint16_t)(uint8_t)xv[(xi + r + k) % 3];
                    b->addr[r] = nb % 3;          /* back-to-back hits on one row */
                    b->acc[r] = !(nb < 3 && r == 0);
                }
                model_block(u, b);
                nb++;
            }
    run_blocks(u, bl, nb, 0, 0, NULL);
    compare_acc(u, "int8 extremes");
    for (int i = 0; i < nb; i++)
        block_free(&bl[i]);
    char full[128];
    snprintf(full, sizeof full, "mxu.%s.int8_directed", cfg);
    tb_end(tb, full, NULL);
}

/* bf16 specials: NaN payloads and signs, Inf - Inf, 0 x Inf, signed zeros,
 * subnormal operands, products that overflow or underflow, rounding ties. */
static void test_bf16_directed(mxu_t *u, const char *cfg)
{
    tb_t *tb = u->tb;
    int n = u->n;
    tb_begin(tb);
    struct { uint16_t x0, w0, x1, w1; } cases[] = {
        {0x7f80, 0x3f80, 0xff80, 0x3f80},   /* Inf + -Inf = NaN */
        {0x7f80, 0x0000, 0x3f80, 0x3f80},   /* Inf x 0 = NaN */
        {0x8000, 0x3f80, 0x8000, 0x3f80},   /* -0 + -0 = -0 */
        {0x3f80, 0x3f80, 0xbf80, 0x3f80},   /* 1 - 1 = +0 */
        {0x0001, 0x7f7f, 0x3f80, 0x3f80},   /* subnormal operand is 0 */
        {0x7f7f, 0x7f7f, 0x3f80, 0x3f80},   /* product overflows to Inf */
        {0x0080, 0x0080, 0x3f80, 0x0000},   /* product underflows to 0 */
        {0x0100, 0x3f00, 0x0000, 0x0000},   /* 2^-125 x 0.5 = 2^-126, min normal */
        {0x00ff, 0x3f00, 0x0000, 0x0000},   /* just below min normal after x 0.5: 0 */
        {0x4b80, 0x3f80, 0x3f80, 0x3f80},   /* 2^24 + 1: tie, to even */
        {0x4b80, 0x3f80, 0x3fc0, 0x3f80},   /* 2^24 + 1.5: rounds up */
        {0x4b80, 0x3fc0, 0x3f80, 0x3f80},   /* 1.5*2^24 + 1: tie, even */
        {0x7fc1, 0x3f80, 0x3f80, 0x3f80},   /* NaN payload -> canonical */
        {0xff81, 0x3f80, 0x7f80, 0x3f80},   /* signalling NaN + Inf */
        {0x7f7f, 0x3f80, 0x7f7f, 0x3f80},   /* max + max overflows */
        {0x0080, 0x3f80, 0x8080, 0x3f80},   /* min - min = +0 */
        {0x00e0, 0x3f80, 0x8080, 0x3f80},   /* 1.75min - min is subnormal: flushed */
    };
    int nc = (int)(sizeof cases / sizeof cases[0]);
    block_t *bl = calloc((size_t)nc * 2, sizeof *bl);
    int nb = 0;
    for (int c = 0; c < nc; c++) {
        /* Put the pair at the top of every column and again at the bottom,
         * with the other rows zero, so both the PE adds and the top row meet it. */
        for (int place = 0; place < 2; place++) {
            block_t *b = &bl[nb];
            block_alloc(u, b, 2);
            b->bf16 = 1;
            int k0 = place ? n - 2 : 0;
            for (int j = 0; j < n; j++) {
                b->w[k0 * n + j] = cases[c].w0;
                b->w[(k0 + 1) * n + j] = cases[c].w1;
            }
            for (int r = 0; r < 2; r++) {
                b->x[r * n + k0] = cases[c].x0;
                b->x[r * n + k0 + 1] = cases[c].x1;
                b->addr[r] = nb % 8;
                b->acc[r] = r;       /* the second row accumulates onto the first */
            }
            model_block(u, b);
            nb++;
        }
    }
    run_blocks(u, bl, nb, 0, 0, NULL);
    compare_acc(u, "bf16 specials");
    for (int i = 0; i < nb; i++)
        block_free(&bl[i]);
    free(bl);
    char full[128];
    snprintf(full, sizeof full, "mxu.%s.bf16_directed", cfg);
    tb_end(tb, full, NULL);
}

/* The stream contract: the first row of a block waits for its tile, the
 * weight stream waits while both banks are full, and reads of ACC lose to
 * result rows without losing data. */
static void test_handshake(mxu_t *u, const char *cfg)
{
    tb_t *tb = u->tb;
    int n = u->n;
    tb_begin(tb);
    /* 1. A block's first row with no tile loaded is refused. */
    tb_set(u->a_valid, 1);
    tb_set(u->a_first, 1);
    tb_set(u->a_bf16, 0);
    for (int i = 0; i < 3 * n; i++) {
        tb_fall(tb);
        tb_check(tb, !tb_get(u->a_ready), "first row accepted with no tile loaded");
        tb_rise(tb);
    }
    tb_set(u->a_valid, 0);
    /* 2. Two tiles load back to back, then the weight stream stalls. */
    tb_set(u->w_valid, 1);
    int accepted = 0;
    for (int i = 0; i < 6 * n; i++) {
        tb_fall(tb);
        accepted += (int)tb_get(u->w_ready);
        tb_rise(tb);
    }
    tb_set(u->w_valid, 0);
    tb_check(tb, accepted == n, "weight rows accepted with no block running: %d, want %d (one tile fills the shadow weights)", accepted, n);
    /* 3. Reads while result rows stream: r_ready drops, data still right. */
    gen_t g = {.bf16_pct = 0, .special_pct = 2, .exp_spread = 4, .m_min = 2 * n,
               .m_max = 2 * n, .acc_pct = 0, .addr_span = u->acc_rows / 2, .seq_addr = 1};
    /* Known values in the upper half of ACC first. */
    block_t pre;
    gen_block(u, &pre, &g);
    for (int r = 0; r < pre.m; r++)
        pre.addr[r] = u->acc_rows / 2 + r % (u->acc_rows / 2);
    model_block(u, &pre);
    /* The tile loaded in step 2 is all zero data: replace by feeding pre's
     * block after flushing that tile with a throwaway block. */
    block_t flush;
    block_alloc(u, &flush, 1);
    flush.addr[0] = 0;
    flush.acc[0] = 0;
    /* The loaded tile is what w_data held (zeros from reset): model it. */
    memset(flush.w, 0, sizeof(uint16_t) * (size_t)n * n);
    {
        /* Feed only the activation for the flush block (tile already in). */
        tb_set(u->a_valid, 1);
        set_row(u->a_data, flush.x, n, u->ew);
        tb_set(u->a_first, 1);
        tb_set(u->a_acc, 0);
        tb_set(u->a_zp, 0);
        tb_set(u->a_addr, 0);
        int ok = 0;
        for (int i = 0; i < 4 && !ok; i++) {
            tb_fall(tb);
            ok = (int)tb_get(u->a_ready);
            tb_rise(tb);
        }
        tb_check(tb, ok, "first row refused although its tile was loaded");
        tb_set(u->a_valid, 0);
        model_block(u, &flush);
    }
    run_blocks(u, &pre, 1, 0, 0, NULL);
    block_t blk;
    gen_block(u, &blk, &g);
    for (int r = 0; r < blk.m; r++)
        blk.addr[r] = r % (u->acc_rows / 2);
    /* Drive blk while reading the upper half through the read port. */
    int wk = 0, ar = 0, rd = 0, refused = 0;
    for (int guard = 0; guard < 200 * n && (ar < blk.m || rd < pre.m); guard++) {
        tb_set(u->w_valid, wk < n);
        if (wk < n)
            set_row(u->w_data, &blk.w[wk * n], n, u->ew);
        tb_set(u->a_valid, ar < blk.m);
        if (ar < blk.m) {
            set_row(u->a_data, &blk.x[ar * n], n, u->ew);
            tb_set(u->a_first, ar == 0);
            tb_set(u->a_acc, 0);
            tb_set(u->a_zp, (uint64_t)(uint8_t)blk.zp);
            tb_set(u->a_addr, (uint64_t)blk.addr[ar]);
        }
        /* Reads start when the block's result rows begin to arrive. */
        int reading = ar == blk.m && rd < pre.m;
        int raddr = u->acc_rows / 2 + rd % (u->acc_rows / 2);
        tb_set(u->r_valid, (uint64_t)reading);
        tb_set(u->r_addr, (uint64_t)raddr);
        tb_fall(tb);
        int wf = wk < n && tb_get(u->w_ready);
        int af = ar < blk.m && tb_get(u->a_ready);
        int rf = reading && tb_get(u->r_ready);
        refused += reading && !rf;
        tb_rise(tb);
        if (rf) {
            tb_check(tb, tb_get(u->r_data_valid), "read data missing");
            for (int j = 0; j < n; j++) {
                uint32_t got = (uint32_t)tb_get_bits(u->r_data, j * 32, 32);
                uint32_t exp = u->acc_model[(size_t)raddr * n + j];
                tb_check(tb, got == exp, "ACC read during MXU traffic: row %d lane %d 0x%08x, want 0x%08x",
                         raddr, j, got, exp);
            }
            rd++;
        } else {
            tb_check(tb, !tb_get(u->r_data_valid), "read data valid without a read");
        }
        wk += wf;
        ar += af;
    }
    tb_set(u->w_valid, 0);
    tb_set(u->a_valid, 0);
    tb_set(u->r_valid, 0);
    model_block(u, &blk);
    for (int i = 0; i < 8 * n + 64 && tb_get(u->busy); i++)
        tb_tick(tb);
    compare_acc(u, "after concurrent reads");
    tb_check(tb, refused > 0, "the read port never lost to result rows (test did not overlap)");
    block_free(&pre);
    block_free(&flush);
    block_free(&blk);
    char full[128];
    snprintf(full, sizeof full, "mxu.%s.handshake", cfg);
    tb_end(tb, full, "(%d reads deferred)", refused);
}

/* --------------------------------------------------------------- benchmarks */

static void bench_util(mxu_t *u, int m)
{
    int nb = 64;
    block_t *bl = calloc((size_t)nb, sizeof *bl);
    gen_t g = {.bf16_pct = 0, .special_pct = 0, .exp_spread = 4, .m_min = m, .m_max = m,
               .acc_pct = 50, .addr_span = u->acc_rows, .seq_addr = 1};
    for (int i = 0; i < nb; i++)
        gen_block(u, &bl[i], &g);
    uint64_t rows_cycles = 0;
    run_blocks(u, bl, nb, 0, 0, &rows_cycles);
    double util = (double)nb * m / (double)rows_cycles;
    printf("BENCH mxu.utilization %.6f M=%d (%d tiles of %d rows, %llu cycles)\n", util, m, nb,
           m, (unsigned long long)rows_cycles);
    for (int i = 0; i < nb; i++)
        block_free(&bl[i]);
    free(bl);
}

static void bench_speed(mxu_t *u, uint64_t cycles, int bf16)
{
    tb_t *tb = u->tb;
    int n = u->n;
    /* A steady stream: rows every cycle, a new tile every 16N rows (a GEMM
     * block of 16N output rows per weight tile, as the compiler tiles). */
    uint16_t *row = calloc((size_t)n, sizeof *row);
    for (int k = 0; k < n; k++)
        row[k] = bf16 ? rand_bf16(tb, 0, 4) : rand_int8(tb, 0);
    set_row(u->a_data, row, n, u->ew);
    set_row(u->w_data, row, n, u->ew);
    tb_set(u->a_bf16, (uint64_t)bf16);
    tb_set(u->w_valid, 1);
    tb_set(u->a_acc, 1);
    /* Let the first tile load. */
    for (int i = 0; i < 2 * n; i++)
        tb_tick(tb);
    tb_set(u->a_valid, 1);
    uint64_t rows = 0;
    int r = 0;
    double t0 = tb_now();
    for (uint64_t c = 0; c < cycles; c++) {
        tb_set(u->a_first, r == 0);
        tb_set(u->a_addr, (uint64_t)(r & (u->acc_rows - 1)));
        tb_fall(tb);
        int af = (int)tb_get(u->a_ready);
        tb_rise(tb);
        if (af) {
            rows++;
            if (++r == 16 * n)
                r = 0;
        }
    }
    double dt = tb_now() - t0;
    printf("BENCH mxu.sim_cycles_per_s.%s %.0f cycles/s (%llu cycles in %.2f s, %llu rows)\n",
           bf16 ? "bf16" : "int8", (double)cycles / dt, (unsigned long long)cycles, dt,
           (unsigned long long)rows);
    free(row);
}

/* ---------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    int scale = 0, do_util = 0, do_speed = 0;
    uint64_t cycles = 200000, bf16_cycles = 50000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bench-util"))
            do_util = 1;
        else if (!strcmp(argv[i], "--bench-speed"))
            do_speed = 1;
        else if (!strcmp(argv[i], "--cycles") && i + 1 < argc)
            cycles = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--bf16-cycles") && i + 1 < argc)
            bf16_cycles = strtoull(argv[++i], NULL, 0);
    }
    mxu_t u = {0};
    u.tb = tb_open("mxu", argc, argv);
    tb_t *tb = u.tb;
    u.w_valid = tb_sig(tb, "w_valid_i");
    u.w_ready = tb_sig(tb, "w_ready_o");
    u.w_data = tb_sig(tb, "w_data_i");
    u.a_valid = tb_sig(tb, "a_valid_i");
    u.a_ready = tb_sig(tb, "a_ready_o");
    u.a_data = tb_sig(tb, "a_data_i");
    u.a_first = tb_sig(tb, "a_first_i");
    u.a_acc = tb_sig(tb, "a_acc_i");
    u.a_bf16 = tb_sig(tb, "a_bf16_i");
    u.a_zp = tb_sig(tb, "a_zp_i");
    u.a_addr = tb_sig(tb, "a_addr_i");
    u.r_valid = tb_sig(tb, "r_valid_i");
    u.r_ready = tb_sig(tb, "r_ready_o");
    u.r_addr = tb_sig(tb, "r_addr_i");
    u.r_data_valid = tb_sig(tb, "r_data_valid_o");
    u.r_data = tb_sig(tb, "r_data_o");
    u.busy = tb_sig(tb, "busy_o");
    u.row_fire = tb_sig(tb, "row_fire_o");
    u.n = u.r_data->bits / 32;
    u.ew = u.a_data->bits / u.n;
    u.bf16 = u.ew == 16;
    u.acc_rows = 1 << u.a_addr->bits;
    u.acc_model = calloc((size_t)u.acc_rows * u.n, sizeof *u.acc_model);
    u.acc_known = calloc((size_t)u.acc_rows, 1);
    char cfg[64];
    snprintf(cfg, sizeof cfg, "n%d%s", u.n, u.bf16 ? "" : "_int8only");
    printf("# mxu: N=%d, %s, %d ACC rows\n", u.n, u.bf16 ? "int8+bf16" : "int8 only",
           u.acc_rows);
    tb_reset(tb, 4);
    /* By default about the same simulated work for every size: many more
     * (shorter) blocks on the small arrays. */
    if (scale <= 0) {
        scale = 1024 / (u.n * u.n);
        scale = scale < 3 ? 3 : scale > 60 ? 60 : scale;
    }

    if (do_util || do_speed) {
        if (do_util) {
            /* The headline figure (blocks of 4N rows), then the shortest
             * block that hides a tile load (2N) and one that cannot (N). */
            bench_util(&u, 4 * u.n);
            bench_util(&u, 2 * u.n);
            bench_util(&u, u.n);
        }
        if (do_speed) {
            if (cycles)
                bench_speed(&u, cycles, 0);
            if (u.bf16 && bf16_cycles)
                bench_speed(&u, bf16_cycles, 1);
        }
    } else {
        test_handshake(&u, cfg);
        test_int8_directed(&u, cfg);
        test_random(&u, cfg, scale, 0, "int8_random");
        if (u.bf16) {
            test_bf16_directed(&u, cfg);
            test_random(&u, cfg, scale, 100, "bf16_random");
            test_random(&u, cfg, scale, 50, "mixed_random");
        }
    }
    free(u.acc_model);
    free(u.acc_known);
    return tb_close(tb);
}

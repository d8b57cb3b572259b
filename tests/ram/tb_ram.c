/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_ram.c - tpu_core_ram, tpu_core_fifo and tpu_dma_fifo (every configuration the SoCs
 * use, tests/ram/tpu_ram_tb.sv) against C models of the asynchronous-read originals.
 *
 * The RAM model is a row array read combinationally: the testbench gives each read port
 * the row of the next cycle, and after the clock edge the port must show that row with
 * the writes of that edge (write port 1 winning a same-row race).  Each read port is given
 * two candidate rows and a random pick between them (rnext*, rnextb*, rpick*).  The FIFO
 * models are the pointer-and-array FIFOs the block-RAM bodies replace: data_o must equal the array
 * at the read pointer in EVERY cycle, empty or not (with RegOut, whenever not empty: the head
 * register loads the pushed word while empty), and full/empty must match.  Rows
 * and pushes are drawn from a few hot rows half of the time, so same-cycle write/read
 * collisions (the forwarding) and double writes (the live-value table) are frequent.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

#define NR 12
#define NC 12
#define ND 9
#define RW 512
#define FW 520
#define WORDS(bits) (((bits) + 63) / 64)

/* The tables of tests/ram/tpu_ram_tb.sv. */
/* {Rows, Width, NumWrite, NumRead, LvtBram} */
static const int ram_cfg[NR][5] = {
    {256, 32, 2, 2, 0},   {64, 32, 1, 1, 0},    {16, 128, 1, 1, 0},  {1024, 128, 2, 2, 0},
    {256, 128, 1, 1, 0},  {64, 512, 1, 1, 0},   {4096, 256, 2, 2, 0}, {1024, 256, 1, 1, 0},
    {256, 512, 1, 1, 0},  {16, 64, 2, 2, 0},    {1024, 128, 2, 2, 1}, {16, 64, 2, 2, 1},
};
/* {Width, Depth, RegOut} */
static const int cf_cfg[NC][3] = {
    {288, 8, 0}, {257, 8, 0}, {288, 4, 0}, {65, 4, 0},  {514, 4, 0},   {130, 4, 0},
    {40, 16, 0}, {40, 2, 0},  {288, 32, 0}, {288, 8, 1}, {288, 16, 1}, {40, 2, 1},
};
static const int df_cfg[ND][2] = {
    {65, 128}, {257, 128}, {73, 64}, {289, 64}, {69, 128}, {37, 2}, {37, 4}, {20, 8}, {63, 128},
};

typedef struct {
    tb_sig_t *we0, *we1, *waddr0, *waddr1, *wdata0, *wdata1, *rnext0, *rnext1, *rdata0, *rdata1;
    tb_sig_t *cf_flush, *cf_push, *cf_pop, *cf_data_i, *cf_full, *cf_empty, *cf_data_o;
    tb_sig_t *df_push, *df_pop, *df_data_i, *df_full, *df_empty, *df_data_o;
    tb_sig_t *rnextb0, *rnextb1, *rpick0, *rpick1;
} ports_t;

typedef struct {
    int rows, width, nw, nr;
    uint64_t *mem;  /* rows x WORDS(width) */
    int hot[4];
} ram_t;

typedef struct {
    int width, depth, flush;
    int regout;  /* data_o from a head register: undefined while empty */
    uint64_t *mem;  /* depth x WORDS(width) */
    unsigned wptr, rptr;  /* with the wrap bit */
    int fill_bias;  /* 0: drain, 1: balanced, 2: fill */
} fifo_t;

static void rand_words(tb_t *tb, uint64_t *w, int bits) {
    for (int i = 0; i < WORDS(bits); i++) w[i] = tb_rand64(tb);
    if (bits % 64) w[WORDS(bits) - 1] &= (1ull << (bits % 64)) - 1;
}

static void set_wide(tb_sig_t *s, int lsb, const uint64_t *w, int bits) {
    for (int i = 0; i < WORDS(bits); i++) {
        int n = bits - i * 64 < 64 ? bits - i * 64 : 64;
        tb_set_bits(s, lsb + i * 64, n, w[i]);
    }
}

/* Compares `bits` of s at lsb with w, and that the padding up to `span` is zero. */
static int same_wide(tb_sig_t *s, int lsb, const uint64_t *w, int bits, int span) {
    for (int i = 0; i < WORDS(bits); i++) {
        int n = bits - i * 64 < 64 ? bits - i * 64 : 64;
        if (tb_get_bits(s, lsb + i * 64, n) != w[i]) return 0;
    }
    for (int b = bits; b < span; b += 64) {
        int n = span - b < 64 ? span - b : 64;
        if (tb_get_bits(s, lsb + b, n) != 0) return 0;
    }
    return 1;
}

static unsigned pick_row(tb_t *tb, const ram_t *r) {
    if (tb_chance(tb, 1, 2)) return (unsigned)r->hot[tb_rand_range(tb, 0, 3)];
    return (unsigned)tb_rand_range(tb, 0, r->rows - 1);
}

static bool fifo_full(const fifo_t *f) {
    return (f->wptr ^ f->rptr) == (unsigned)f->depth;
}

int main(int argc, char **argv) {
    tb_t *tb = tb_open("ram", argc, argv);
    long cycles = 200000;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--cycles") && i + 1 < argc) cycles = atol(argv[++i]);
    printf("# ram: %ld cycles\n", cycles);

    ports_t p = {
        tb_sig(tb, "ram_we0_i"),    tb_sig(tb, "ram_we1_i"),    tb_sig(tb, "ram_waddr0_i"),
        tb_sig(tb, "ram_waddr1_i"), tb_sig(tb, "ram_wdata0_i"), tb_sig(tb, "ram_wdata1_i"),
        tb_sig(tb, "ram_rnext0_i"), tb_sig(tb, "ram_rnext1_i"), tb_sig(tb, "ram_rdata0_o"),
        tb_sig(tb, "ram_rdata1_o"), tb_sig(tb, "cf_flush_i"),   tb_sig(tb, "cf_push_i"),
        tb_sig(tb, "cf_pop_i"),     tb_sig(tb, "cf_data_i"),    tb_sig(tb, "cf_full_o"),
        tb_sig(tb, "cf_empty_o"),   tb_sig(tb, "cf_data_o"),    tb_sig(tb, "df_push_i"),
        tb_sig(tb, "df_pop_i"),     tb_sig(tb, "df_data_i"),    tb_sig(tb, "df_full_o"),
        tb_sig(tb, "df_empty_o"),   tb_sig(tb, "df_data_o"),    tb_sig(tb, "ram_rnextb0_i"),
        tb_sig(tb, "ram_rnextb1_i"), tb_sig(tb, "ram_rpick0_i"), tb_sig(tb, "ram_rpick1_i"),
    };

    ram_t ram[NR];
    for (int i = 0; i < NR; i++) {
        ram_t *r = &ram[i];
        r->rows = ram_cfg[i][0];
        r->width = ram_cfg[i][1];
        r->nw = ram_cfg[i][2];
        r->nr = ram_cfg[i][3];
        /* Verilator's --x-initial fast starts every array at zero, as does the model. */
        r->mem = calloc((size_t)r->rows * WORDS(r->width), 8);
        for (int h = 0; h < 4; h++) r->hot[h] = (int)tb_rand_range(tb, 0, r->rows - 1);
    }
    fifo_t fifo[NC + ND];
    for (int i = 0; i < NC + ND; i++) {
        fifo_t *f = &fifo[i];
        f->width = i < NC ? cf_cfg[i][0] : df_cfg[i - NC][0];
        f->depth = i < NC ? cf_cfg[i][1] : df_cfg[i - NC][1];
        f->flush = i < NC;
        f->regout = i < NC && cf_cfg[i][2];
        f->mem = calloc((size_t)f->depth * WORDS(f->width), 8);
        f->wptr = f->rptr = 0;
        f->fill_bias = 1;
    }

    tb_set(p.we0, 0);
    tb_set(p.we1, 0);
    tb_set(p.cf_push, 0);
    tb_set(p.cf_pop, 0);
    tb_set(p.cf_flush, 0);
    tb_set(p.df_push, 0);
    tb_set(p.df_pop, 0);
    tb_reset(tb, 4);

    uint64_t wd0[WORDS(RW)], wd1[WORDS(RW)], cfd[WORDS(FW)], dfd[WORDS(FW)];
    unsigned rnext[NR][2];  /* the row each read port reads next: its picked candidate */
    long ram_checks = 0, fwd_hits = 0, races = 0, fifo_checks = 0, flushes = 0, fulls = 0;
    int ram_bad = 0, fifo_bad = 0;

    tb_begin(tb);
    for (long c = 0; c < cycles; c++) {
        /* ---- stimulus */
        rand_words(tb, wd0, RW);
        rand_words(tb, wd1, RW);
        set_wide(p.wdata0, 0, wd0, RW);
        set_wide(p.wdata1, 0, wd1, RW);
        unsigned we0 = 0, we1 = 0, wa[NR][2], pick[2] = {0, 0};
        for (int i = 0; i < NR; i++) {
            ram_t *r = &ram[i];
            wa[i][0] = pick_row(tb, r);
            wa[i][1] = pick_row(tb, r);
            if (tb_chance(tb, 1, 2)) we0 |= 1u << i;
            if (r->nw > 1 && tb_chance(tb, 1, 2)) we1 |= 1u << i;
            /* Each read port gets two candidate rows (rnext, rnextb) and picks one of them. */
            unsigned cand[2][2];
            for (int k = 0; k < 2; k++) {
                for (int b = 0; b < 2; b++) {
                    cand[k][b] = pick_row(tb, r);
                    /* Rows above Rows wrap, as the 16-bit port is cut to the row bits. */
                    if (tb_chance(tb, 1, 32)) cand[k][b] += (unsigned)r->rows * (unsigned)tb_rand_range(tb, 1, 3);
                    cand[k][b] &= 0xffff;
                }
                if (r->nr < 2 && k == 1) cand[k][0] = cand[k][1] = 0;
                bool pk = !(r->nr < 2 && k == 1) && tb_chance(tb, 1, 2);
                if (pk) pick[k] |= 1u << i;
                rnext[i][k] = cand[k][pk];
            }
            tb_set_bits(p.waddr0, i * 16, 16, wa[i][0]);
            tb_set_bits(p.waddr1, i * 16, 16, wa[i][1]);
            tb_set_bits(p.rnext0, i * 16, 16, cand[0][0]);
            tb_set_bits(p.rnext1, i * 16, 16, cand[1][0]);
            tb_set_bits(p.rnextb0, i * 16, 16, cand[0][1]);
            tb_set_bits(p.rnextb1, i * 16, 16, cand[1][1]);
        }
        tb_set(p.we0, we0);
        tb_set(p.we1, we1);
        tb_set(p.rpick0, pick[0]);
        tb_set(p.rpick1, pick[1]);

        rand_words(tb, cfd, FW);
        rand_words(tb, dfd, FW);
        set_wide(p.cf_data_i, 0, cfd, FW);
        set_wide(p.df_data_i, 0, dfd, FW);
        unsigned push[2] = {0, 0}, pop[2] = {0, 0}, flush = 0;
        for (int i = 0; i < NC + ND; i++) {
            fifo_t *f = &fifo[i];
            int side = i >= NC, bit = side ? i - NC : i;
            if (tb_chance(tb, 1, 64)) f->fill_bias = (int)tb_rand_range(tb, 0, 2);
            bool empty = f->wptr == f->rptr, full = fifo_full(f);
            bool po = !empty && tb_chance(tb, f->fill_bias == 2 ? 1 : 3, 4);
            bool pu = (!full || po) && tb_chance(tb, f->fill_bias == 0 ? 1 : 3, 4);
            bool fl = f->flush && tb_chance(tb, 1, 500);
            if (po) pop[side] |= 1u << bit;
            if (pu) push[side] |= 1u << bit;
            if (fl) flush |= 1u << bit;
        }
        tb_set(p.cf_push, push[0]);
        tb_set(p.cf_pop, pop[0]);
        tb_set(p.cf_flush, flush);
        tb_set(p.df_push, push[1]);
        tb_set(p.df_pop, pop[1]);

        tb_tick(tb);

        /* ---- models: the edge */
        for (int i = 0; i < NR; i++) {
            ram_t *r = &ram[i];
            int nwd = WORDS(r->width);
            for (int k = 0; k < 2; k++) {
                if (!((k ? we1 : we0) >> i & 1)) continue;
                uint64_t *row = &r->mem[(size_t)wa[i][k] * nwd];
                memcpy(row, k ? wd1 : wd0, (size_t)nwd * 8);
                if (r->width % 64) row[nwd - 1] &= (1ull << (r->width % 64)) - 1;
            }
            if ((we0 >> i & 1) && (we1 >> i & 1) && wa[i][0] == wa[i][1]) races++;
        }
        for (int i = 0; i < NC + ND; i++) {
            fifo_t *f = &fifo[i];
            int side = i >= NC, bit = side ? i - NC : i;
            unsigned mask = 2u * (unsigned)f->depth - 1;
            int nwd = WORDS(f->width);
            if (push[side] >> bit & 1) {
                uint64_t *e = &f->mem[(size_t)(f->wptr & (unsigned)(f->depth - 1)) * nwd];
                memcpy(e, side ? dfd : cfd, (size_t)nwd * 8);
                if (f->width % 64) e[nwd - 1] &= (1ull << (f->width % 64)) - 1;
            }
            if (!side && (flush >> bit & 1)) {
                f->wptr = f->rptr = 0;
                flushes++;
            } else {
                f->wptr = (f->wptr + (push[side] >> bit & 1)) & mask;
                f->rptr = (f->rptr + (pop[side] >> bit & 1)) & mask;
            }
            if (fifo_full(f)) fulls++;
        }

        /* ---- compare */
        for (int i = 0; i < NR; i++) {
            ram_t *r = &ram[i];
            int nwd = WORDS(r->width);
            for (int k = 0; k < r->nr; k++) {
                unsigned row = rnext[i][k] & (unsigned)(r->rows - 1);
                if ((we0 >> i & 1 && wa[i][0] == row) || (we1 >> i & 1 && wa[i][1] == row)) fwd_hits++;
                ram_checks++;
                if (!same_wide(k ? p.rdata1 : p.rdata0, i * RW, &r->mem[(size_t)row * nwd], r->width, RW)) {
                    if (!ram_bad++)
                        tb_check(tb, 0, "cycle %" PRIu64 ": RAM %d (%d x %d, %dW%dR%s) port %d row %u differs "
                                 "from the model", tb->cycle, i, r->rows, r->width, r->nw, r->nr,
                                 ram_cfg[i][4] ? ", LVT in block RAM" : "", k, row);
                }
            }
        }
        for (int i = 0; i < NC + ND; i++) {
            fifo_t *f = &fifo[i];
            int side = i >= NC, bit = side ? i - NC : i;
            int nwd = WORDS(f->width);
            bool empty = f->wptr == f->rptr;
            bool hw_empty = tb_get_bits(side ? p.df_empty : p.cf_empty, bit, 1);
            bool hw_full = tb_get_bits(side ? p.df_full : p.cf_full, bit, 1);
            fifo_checks++;
            const uint64_t *head = &f->mem[(size_t)(f->rptr & (unsigned)(f->depth - 1)) * nwd];
            /* A head register's data_o is undefined while the FIFO is empty. */
            bool check_head = !f->regout || !empty;
            if (hw_empty != empty || hw_full != fifo_full(f) ||
                (check_head && !same_wide(side ? p.df_data_o : p.cf_data_o, bit * FW, head,
                                          f->width, FW))) {
                if (!fifo_bad++)
                    tb_check(tb, 0, "cycle %" PRIu64 ": %s %d (%d x %d%s) empty %d/%d full %d/%d or head "
                             "differs from the model", tb->cycle, side ? "tpu_dma_fifo" : "tpu_core_fifo",
                             bit, f->width, f->depth, f->regout ? ", RegOut" : "", hw_empty, empty,
                             hw_full, fifo_full(f));
            }
        }
    }
    tb_end(tb, "ram", "%ld cycles, %d RAMs: %ld reads (%ld forwarded, %ld write races), %d FIFOs: %ld "
           "compares (%ld full, %ld flushes), %d + %d mismatches", cycles, NR, ram_checks, fwd_hits,
           races, NC + ND, fifo_checks, fulls, flushes, ram_bad, fifo_bad);

    for (int i = 0; i < NR; i++) free(ram[i].mem);
    for (int i = 0; i < NC + ND; i++) free(fifo[i].mem);
    return tb_close(tb);
}

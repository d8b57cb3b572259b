/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_lite_xpu.c - testbench of tpu_lite_xpu (rtl/lite) against a C model: random
 * sequences of W/ZP/ROW/MODE writes, X rows (bursts back to back, as the firmware's MATMUL
 * loop issues them, and with random gaps), ACC window reads and writes, register reads;
 * the whole ACC read back through the window at the end.  Requests are driven like the
 * CPU's data port: held while ready_o is low, read data in the cycle after.
 * Usage: tb_lite_xpu [--seed N] [--ops N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

#define N 4
#define ACC_ROWS 128
#define REG_W0 0x00
#define REG_ZP 0x10
#define REG_ROW 0x14
#define REG_MODE 0x18
#define REG_X 0x1c
#define REG_STATUS 0x20
#define REG_COUNT 0x24
#define REG_INFO 0x28
#define ACC_WIN 0x1000

typedef struct model {
    int8_t w[N][N];
    int8_t zp;
    unsigned row, mode;
    uint32_t count;
    uint32_t acc[ACC_ROWS][N];
} model_t;

static tb_t *tb;
static tb_sig_t *s_req, *s_we, *s_addr, *s_wdata, *s_ready, *s_rdata, *s_busy;
static uint64_t stalls;

/* One request: held until taken; returns the read data of the cycle after. */
static uint32_t bus(int we, uint32_t addr, uint32_t wdata)
{
    tb_set(s_req, 1);
    tb_set(s_we, (uint64_t)we);
    tb_set(s_addr, addr);
    tb_set(s_wdata, wdata);
    for (;;) {
        tb_fall(tb);
        int ready = (int)tb_get(s_ready);
        tb_rise(tb);
        if (ready)
            break;
        stalls++;
        if (stalls > 100000000u) {
            tb_check(tb, 0, "request 0x%x never taken", addr);
            break;
        }
    }
    tb_set(s_req, 0);
    tb_fall(tb);
    return (uint32_t)tb_get(s_rdata);
}

/* The response cycle is also the next request's cycle when gap is 0. */
static void gap(int n)
{
    for (int i = 0; i < n; i++) {
        tb_rise(tb);
        tb_fall(tb);
    }
}

static void model_x(model_t *m, uint32_t x)
{
    for (int n = 0; n < N; n++) {
        int32_t r = 0;
        for (int k = 0; k < N; k++)
            r += ((int32_t)(int8_t)(x >> (8 * k)) - m->zp) * m->w[k][n];
        m->acc[m->row][n] = m->mode ? m->acc[m->row][n] + (uint32_t)r : (uint32_t)r;
    }
    m->row = (m->row + 1) % ACC_ROWS;
    m->count++;
}

/* Operands biased to the int8 extremes. */
static uint8_t rbyte(void)
{
    static const uint8_t edge[] = { 0x80, 0x7f, 0x00, 0xff, 0x81, 0x01 };
    if (tb_chance(tb, 1, 4))
        return edge[tb_rand32(tb) % sizeof edge];
    return (uint8_t)tb_rand32(tb);
}

static uint32_t rword(void)
{
    return (uint32_t)rbyte() | (uint32_t)rbyte() << 8 | (uint32_t)rbyte() << 16 | (uint32_t)rbyte() << 24;
}

static void write_w(model_t *m, int k, uint32_t v)
{
    bus(1, REG_W0 + 4u * (unsigned)k, v);
    for (int n = 0; n < N; n++)
        m->w[k][n] = (int8_t)(v >> (8 * n));
}

static void check_acc(model_t *m, unsigned r, unsigned n, const char *what)
{
    uint32_t v = bus(0, ACC_WIN + 16u * r + 4u * n, 0);
    tb_check(tb, v == m->acc[r][n], "%s: ACC[%u][%u] = 0x%08x, model 0x%08x", what, r, n, v, m->acc[r][n]);
}

int main(int argc, char **argv)
{
    long ops = 20000;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            ops = atol(argv[++i]);
    tb = tb_open("lite_xpu", argc, argv);
    s_req = tb_sig(tb, "req_i");
    s_we = tb_sig(tb, "we_i");
    s_addr = tb_sig(tb, "addr_i");
    s_wdata = tb_sig(tb, "wdata_i");
    s_ready = tb_sig(tb, "ready_o");
    s_rdata = tb_sig(tb, "rdata_o");
    s_busy = tb_sig(tb, "busy_o");
    tb_set(s_req, 0);
    tb_reset(tb, 4);

    model_t *m = calloc(1, sizeof *m);

    /* After reset: registers, INFO; then every ACC row zeroed through the window. */
    tb_begin(tb);
    tb_fall(tb);
    uint32_t info = bus(0, REG_INFO, 0);
    tb_check(tb, (info & 0xff) == N && ((info >> 8) & 0xff) * 4 == ACC_ROWS && (info >> 24) == 1,
             "INFO 0x%08x", info);
    tb_check(tb, bus(0, REG_ROW, 0) == 0 && bus(0, REG_COUNT, 0) == 0 && bus(0, REG_STATUS, 0) == 0,
             "ROW/COUNT/STATUS not 0 after reset");
    for (unsigned r = 0; r < ACC_ROWS; r++)
        for (unsigned n = 0; n < N; n++)
            bus(1, ACC_WIN + 16 * r + 4 * n, 0);
    for (unsigned r = 0; r < ACC_ROWS; r++)
        for (unsigned n = 0; n < N; n++)
            check_acc(m, r, n, "zeroed");
    tb_end(tb, "lite_xpu.regs", "INFO 0x%08x", info);

    /* Random traffic. */
    tb_begin(tb);
    long xs = 0, accrd = 0, bursts = 0;
    uint64_t c0 = tb->cycle;
    for (long i = 0; i < ops && tb->errors == 0; i++) {
        int kind = (int)tb_rand_range(tb, 0, 99);
        if (kind < 10) {
            write_w(m, (int)tb_rand_range(tb, 0, N - 1), rword());
        } else if (kind < 14) {
            uint8_t z = rbyte();
            bus(1, REG_ZP, (uint32_t)z | (tb_rand32(tb) & 0xffffff00u));
            m->zp = (int8_t)z;
        } else if (kind < 18) {
            unsigned r = (unsigned)tb_rand_range(tb, 0, ACC_ROWS - 1);
            bus(1, REG_ROW, r);
            m->row = r;
        } else if (kind < 22) {
            unsigned md = tb_rand32(tb) & 1;
            bus(1, REG_MODE, md);
            m->mode = md;
        } else if (kind < 50) {
            /* A MATMUL tile: weights, zero point, row, mode, then X rows back to back
             * (the next request in each response cycle), W changed right after some. */
            bursts++;
            int len = (int)tb_rand_range(tb, 1, 20);
            for (int j = 0; j < len; j++) {
                uint32_t x = rword();
                bus(1, REG_X, x);
                model_x(m, x);
                xs++;
                if (tb_chance(tb, 1, 6))
                    write_w(m, (int)tb_rand_range(tb, 0, N - 1), rword());
                if (tb_chance(tb, 1, 4))
                    gap((int)tb_rand_range(tb, 1, 4));
            }
        } else if (kind < 80) {
            unsigned r = tb_chance(tb, 1, 2) ? (m->row + ACC_ROWS - 1) % ACC_ROWS
                                             : (unsigned)tb_rand_range(tb, 0, ACC_ROWS - 1);
            check_acc(m, r, (unsigned)tb_rand_range(tb, 0, N - 1), "random read");
            accrd++;
        } else if (kind < 85) {
            unsigned r = (unsigned)tb_rand_range(tb, 0, ACC_ROWS - 1), n = (unsigned)tb_rand_range(tb, 0, N - 1);
            uint32_t v = tb_rand32(tb);
            bus(1, ACC_WIN + 16 * r + 4 * n, v);
            m->acc[r][n] = v;
        } else if (kind < 90) {
            uint32_t v = bus(0, REG_ROW, 0);
            tb_check(tb, v == m->row, "ROW %u, model %u", v, m->row);
        } else if (kind < 95) {
            uint32_t v = bus(0, REG_COUNT, 0);
            tb_check(tb, v == m->count, "COUNT %u, model %u", v, m->count);
        } else {
            uint32_t v = bus(0, REG_STATUS, 0);
            tb_check(tb, (v & ~1u) == 0, "STATUS 0x%x", v);
        }
        if (tb_chance(tb, 1, 3))
            gap((int)tb_rand_range(tb, 1, 3));
    }
    for (unsigned r = 0; r < ACC_ROWS && tb->errors == 0; r++)
        for (unsigned n = 0; n < N; n++)
            check_acc(m, r, n, "final");
    gap(6);
    tb_check(tb, tb_get(s_busy) == 0 && (bus(0, REG_STATUS, 0) & 1) == 0, "busy when idle");
    tb_end(tb, "lite_xpu.random", "%ld ops: %ld X rows in %ld bursts, %ld ACC reads, %" PRIu64
           " stall cycles, %" PRIu64 " cycles", ops, xs, bursts, accrd, stalls, tb->cycle - c0);
    free(m);
    return tb_close(tb);
}

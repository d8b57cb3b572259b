/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ref_prog.h - a small program builder for tests: encoders for single picotpu
 * instructions (docs/isa.md) into a growing array of 32-byte instructions.
 * Header-only, so that tests/soc/progen.c can use it without another object.
 * A field value that does not fit aborts the test (a builder bug, not a case).
 */
#ifndef REF_PROG_H
#define REF_PROG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu_isa.h"

struct pb {
    uint32_t *w;       /* 8 words per instruction */
    uint32_t n, cap;   /* instructions */
};

static inline uint32_t *pb_new(struct pb *p, int op)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->w = realloc(p->w, (size_t)p->cap * PTPU_INSTR_WORDS * sizeof *p->w);
        if (!p->w) {
            fprintf(stderr, "pb: out of memory\n");
            abort();
        }
    }
    uint32_t *in = p->w + (size_t)p->n++ * PTPU_INSTR_WORDS;
    memset(in, 0, PTPU_INSTR_WORDS * sizeof *in);
    ptpu_field_set(in, PTPU_F_COMMON_OP, op);
    return in;
}

static inline void pb_set_(uint32_t *in, int word, int lsb, int width, int sgn, int64_t v,
                           const char *name)
{
    if (ptpu_field_set(in, word, lsb, width, sgn, v)) {
        fprintf(stderr, "pb: field %s does not hold %lld\n", name, (long long)v);
        abort();
    }
}
#define PB_SET(in, f, v) pb_set_((in), PTPU_F_##f, (int64_t)(v), #f)

static inline void pb_free(struct pb *p)
{
    free(p->w);
    p->w = NULL;
    p->n = p->cap = 0;
}

/* Token bits of word 0. */
#define PB_POP_PREV 0x10u
#define PB_POP_NEXT 0x20u
#define PB_PUSH_PREV 0x40u
#define PB_PUSH_NEXT 0x80u

/* A LOAD or STORE descriptor. */
struct pb_dma {
    int buf;
    uint32_t row, addr, len0, out0, pad;
    uint32_t count1, bound1, count2, bound2;
    int32_t start1, step1, start2, step2, stride1, stride2;
};

/* A 2-D transfer: count rows of len0 bytes, stride bytes apart, all inside. */
static inline struct pb_dma pb_dma_rows(int buf, uint32_t row, uint32_t addr, uint32_t len0,
                                        uint32_t out0, uint32_t count, int32_t stride)
{
    struct pb_dma d = { .buf = buf, .row = row, .addr = addr, .len0 = len0, .out0 = out0,
                        .count1 = count, .bound1 = count, .count2 = 1, .bound2 = 1,
                        .step1 = 1, .stride1 = stride };
    return d;
}

static inline uint32_t *pb_dma_insn(struct pb *p, int op, const struct pb_dma *d, uint32_t tok)
{
    uint32_t *in = pb_new(p, op);
    in[0] |= tok;
    PB_SET(in, DMA_BUF, d->buf);
    PB_SET(in, DMA_PAD, d->pad);
    PB_SET(in, DMA_BOUND2, d->bound2);
    PB_SET(in, DMA_ROW, d->row);
    PB_SET(in, DMA_LEN0, d->len0);
    PB_SET(in, DMA_ADDR, d->addr);
    PB_SET(in, DMA_STRIDE1, d->stride1);
    PB_SET(in, DMA_STRIDE2, d->stride2);
    PB_SET(in, DMA_OUT0, d->out0);
    PB_SET(in, DMA_COUNT1, d->count1);
    PB_SET(in, DMA_STEP1, d->step1);
    PB_SET(in, DMA_START1, d->start1);
    PB_SET(in, DMA_BOUND1, d->bound1);
    PB_SET(in, DMA_STEP2, d->step2);
    PB_SET(in, DMA_COUNT2, d->count2);
    PB_SET(in, DMA_START2, d->start2);
    return in;
}

static inline uint32_t *pb_load(struct pb *p, const struct pb_dma *d, uint32_t tok)
{
    return pb_dma_insn(p, PTPU_OP_LOAD, d, tok);
}

static inline uint32_t *pb_store(struct pb *p, const struct pb_dma *d, uint32_t tok)
{
    return pb_dma_insn(p, PTPU_OP_STORE, d, tok);
}

static inline uint32_t *pb_matmul(struct pb *p, int bf16, int acc, int new_w, int zp,
                                  uint32_t urow, uint32_t rows, uint32_t arow, uint32_t wrow,
                                  uint32_t tok)
{
    uint32_t *in = pb_new(p, PTPU_OP_MATMUL);
    in[0] |= tok;
    PB_SET(in, MATMUL_BF16, bf16);
    PB_SET(in, MATMUL_ACC, acc);
    PB_SET(in, MATMUL_NEW_W, new_w);
    PB_SET(in, MATMUL_ZP, zp);
    PB_SET(in, MATMUL_UROW, urow);
    PB_SET(in, MATMUL_ROWS, rows);
    PB_SET(in, MATMUL_AROW, arow);
    PB_SET(in, MATMUL_WROW, wrow);
    return in;
}

struct pb_act {
    int out, pool, relu, relu6, zp_out, clamp_lo, clamp_hi;
    uint32_t arow, urow, vrow, count1, count2, win1, win2, step1, step2, wstep1, wstep2;
};

static inline uint32_t *pb_activate(struct pb *p, const struct pb_act *a, uint32_t tok)
{
    uint32_t *in = pb_new(p, PTPU_OP_ACTIVATE);
    in[0] |= tok;
    PB_SET(in, ACTIVATE_OUT, a->out);
    PB_SET(in, ACTIVATE_POOL, a->pool);
    PB_SET(in, ACTIVATE_RELU, a->relu);
    PB_SET(in, ACTIVATE_RELU6, a->relu6);
    PB_SET(in, ACTIVATE_ZP_OUT, a->zp_out);
    PB_SET(in, ACTIVATE_AROW, a->arow);
    PB_SET(in, ACTIVATE_UROW, a->urow);
    PB_SET(in, ACTIVATE_VROW, a->vrow);
    PB_SET(in, ACTIVATE_CLAMP_LO, a->clamp_lo);
    PB_SET(in, ACTIVATE_CLAMP_HI, a->clamp_hi);
    PB_SET(in, ACTIVATE_COUNT1, a->count1);
    PB_SET(in, ACTIVATE_COUNT2, a->count2);
    PB_SET(in, ACTIVATE_WIN1, a->win1);
    PB_SET(in, ACTIVATE_WIN2, a->win2);
    PB_SET(in, ACTIVATE_STEP1, a->step1);
    PB_SET(in, ACTIVATE_STEP2, a->step2);
    PB_SET(in, ACTIVATE_WSTEP1, a->wstep1);
    PB_SET(in, ACTIVATE_WSTEP2, a->wstep2);
    return in;
}

static inline uint32_t *pb_sync(struct pb *p) { return pb_new(p, PTPU_OP_SYNC); }
static inline uint32_t *pb_halt(struct pb *p) { return pb_new(p, PTPU_OP_HALT); }

/* The program as little-endian bytes (n*32), in a fresh buffer. */
static inline uint8_t *pb_bytes(const struct pb *p)
{
    uint8_t *b = malloc((size_t)p->n * PTPU_INSTR_BYTES + 1);
    if (!b)
        abort();
    for (size_t i = 0; i < (size_t)p->n * PTPU_INSTR_WORDS; i++) {
        uint32_t v = p->w[i];
        b[4 * i] = (uint8_t)v;
        b[4 * i + 1] = (uint8_t)(v >> 8);
        b[4 * i + 2] = (uint8_t)(v >> 16);
        b[4 * i + 3] = (uint8_t)(v >> 24);
    }
    return b;
}

#endif

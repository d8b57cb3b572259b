/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_compile.h - the compiler of libpicotpu: single-instruction encoders,
 * tiled operations (GEMM, conv2d, depthwise, pools, FC, add) and whole models,
 * into programs of the picotpu ISA (docs/isa.md, docs/runtime.md "Compiler").
 */
#ifndef PTPU_COMPILE_H
#define PTPU_COMPILE_H

#include <stddef.h>
#include <stdint.h>

#include "picotpu.h"
#include "ptpu_model.h"

struct ptpu_hw { int n, bf16, ub_rows, wb_rows, acc_rows, vp_rows; };

/* A growing instruction stream. */
struct ptpu_prog {
    uint32_t *w;        /* 8 words per instruction */
    size_t n, cap;
    int err;            /* first error (a field did not fit, no memory) */
};

/* One DMA descriptor (docs/dma.md). */
struct ptpu_dma {
    int buf, row;
    uint32_t addr;
    int len0, out0, pad;
    int count1, start1, step1, bound1;
    int count2, start2, step2, bound2;
    int32_t stride1, stride2;
};

struct ptpu_act_f {
    int out, pool, relu, relu6, zp_out, clamp_lo, clamp_hi;
    int arow, urow, vrow, count1, count2, win1, win2, step1, step2, wstep1, wstep2;
};

/* Token bits of word 0. */
#define PTPU_TOK_POP_PREV 0x10u
#define PTPU_TOK_POP_NEXT 0x20u
#define PTPU_TOK_PUSH_PREV 0x40u
#define PTPU_TOK_PUSH_NEXT 0x80u

/* Single instructions.  Each returns 0 or sets p->err (PTPU_ERR_RANGE when a value does
 * not fit its field). */
int ptpu_enc_load(struct ptpu_prog *p, unsigned tok, const struct ptpu_dma *d);
int ptpu_enc_store(struct ptpu_prog *p, unsigned tok, const struct ptpu_dma *d);
int ptpu_enc_matmul(struct ptpu_prog *p, unsigned tok, int bf16, int acc, int new_w, int zp,
                    int urow, int rows, int arow, int wrow);
int ptpu_enc_activate(struct ptpu_prog *p, unsigned tok, const struct ptpu_act_f *a);
int ptpu_enc_sync(struct ptpu_prog *p);
int ptpu_enc_halt(struct ptpu_prog *p);
void ptpu_prog_free(struct ptpu_prog *p);

/* Constant data placed in device memory next to the program (weight tiles, VP rows). */
struct ptpu_cblob {
    uint8_t *d;
    size_t n, cap;
    uint32_t base;      /* device address of d[0] */
    int err;
};
void ptpu_cblob_free(struct ptpu_cblob *c);

/* A compiled unit: instructions appended to prog, constants to cb.  Addresses of
 * tensors are absolute device addresses. */
struct ptpu_cc {
    struct ptpu_hw hw;
    struct ptpu_prog *prog;
    struct ptpu_cblob *cb;
    char err[256];
};

/* GEMMs: A is M rows at device address a, row r at a + r * lda; C is M rows at c, row r
 * at c + r * ldc.  lda and ldc are in bytes: lda >= K (int8) or 2K (bf16), ldc >= N times
 * the output element (1 int8, 2 bf16, 4 fp32); ptpu_gemm_lda() picks the runtime's. */
int ptpu_cc_gemm_i8(struct ptpu_cc *cc, int M, int N, int K, uint32_t a, int lda, int zp_a,
                    const int8_t *B, const struct ptpu_quant *q, uint32_t c, int ldc);
int ptpu_cc_gemm_bf16(struct ptpu_cc *cc, int M, int N, int K, uint32_t a, int lda,
                      const uint16_t *B, const uint32_t *bias, int relu, int out_bf16,
                      uint32_t c, int ldc);
/* The row pitch (bytes) for a matrix (A or C) of rowbytes bytes per row in device memory:
 * rowbytes rounded up to 32 bytes, plus 256 when that is a multiple of 512 above 1 KB.  The
 * memory interleaves 256-byte granules over the pseudo-channels (docs/memory.md), so such a
 * pitch puts the rows of a K-slice (or of an output tile) into 4, 2 or 1 channels, with a
 * DRAM row miss for nearly every row; an odd number of granules spreads them over all
 * channels.  Pitches of 512 B and 1 KB keep 4 rows per DRAM row of a channel and are left
 * as they are (padding 1 KB to 1.25 KB measured 91.8 % instead of 95.0 % on the RTL,
 * docs/performance.md). */
int ptpu_gemm_lda(int rowbytes);
/* One model op; addr[] holds the device address of every tensor. */
int ptpu_cc_op(struct ptpu_cc *cc, const struct ptpu_model *m, const struct ptpu_mop *op,
               const uint32_t *addr);

#endif

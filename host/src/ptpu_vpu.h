/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_vpu.h - bit-exact model of the vector unit: one output row of ACTIVATE
 * (docs/isa.md, ACTIVATE; docs/vpu.md).  The RTL (rtl/vpu/tpu_vpu.sv) is
 * tested against it and the `ref` model executes ACTIVATE with it.
 */
#ifndef PTPU_VPU_H
#define PTPU_VPU_H

#include <stdint.h>

struct ptpu_vpu_op {           /* the ACTIVATE fields that the vector unit uses */
    int n;                     /* lanes (N) */
    int out;                   /* PTPU_OUT_INT8, PTPU_OUT_BF16, PTPU_OUT_FP32 */
    int pool;                  /* PTPU_POOL_NONE, PTPU_POOL_MAX, PTPU_POOL_SUM */
    int relu, relu6;           /* fp outputs */
    int zp_out, clamp_lo, clamp_hi;  /* int8 output (signed values; the low 8 bits are used) */
};

/* One output of ACTIVATE: reduce the nwin ACC rows rows[0..nwin-1] (each n 32-bit lanes,
 * window order), add the bias, requantize or round, apply the activation.
 * bias, m0, shift: the n-lane VP rows (m0/shift unused for fp outputs).
 * out: INT8 n bytes, BF16 2n bytes (LE halfwords), FP32 4n bytes (LE words, lane order);
 * the caller splits FP32 into two UB rows.
 * POOL_NONE uses rows[0] only (ACTIVATE requires a 1x1 window with it). */
void ptpu_vpu_row(const struct ptpu_vpu_op *op, const uint32_t *const *rows, int nwin,
                  const uint32_t *bias, const uint32_t *m0, const uint32_t *shift,
                  uint8_t *out);

/* The pieces, one lane at a time (also used by the testbenches). */
/* The shift the unit applies: low 6 bits of the VP word, signed, clamped to [-31, 31]. */
int ptpu_vpu_shift(uint32_t shift_word);
/* fp32 max of the window reduction: NaN in either gives the canonical NaN; subnormals
 * count as zero with their sign; on equality (+0 = -0 included) the first, a, is kept. */
uint32_t ptpu_vpu_fmax(uint32_t a, uint32_t b);
/* int8 output of one lane from the reduced value v. */
int8_t ptpu_vpu_int8(uint32_t v, uint32_t bias, uint32_t m0, uint32_t shift, int zp_out,
                     int clamp_lo, int clamp_hi);
/* fp32 result of one lane (before the bf16 rounding) from the reduced value v. */
uint32_t ptpu_vpu_fp(uint32_t v, uint32_t bias, int relu, int relu6);

#endif

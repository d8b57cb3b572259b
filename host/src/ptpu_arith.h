/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_arith.h - the arithmetic of picotpu, bit for bit: what the MXU, the
 * accumulators and the vector unit compute.  The RTL is tested against these
 * functions and the `ref` backend executes programs with them.
 *
 * bf16/fp32: round to nearest even, subnormal inputs and results flushed to
 * zero with their sign, every NaN produced is the canonical quiet NaN
 * 0x7fc00000 (fp32) or keeps its sign as 0x7fc0/0xffc0 (bf16 conversion).
 * int8: TFLite quantization (see ptpu_mbqm()).
 */
#ifndef PTPU_ARITH_H
#define PTPU_ARITH_H

#include <stdint.h>

#define PTPU_FP32_QNAN 0x7fc00000u

/* fp32 + fp32 with the rules above. */
uint32_t ptpu_fp32_add(uint32_t a, uint32_t b);
/* bf16 x bf16 -> fp32, exact inside the normal range. */
uint32_t ptpu_bf16_mul(uint16_t a, uint16_t b);
/* fp32 -> bf16. */
uint16_t ptpu_fp32_to_bf16(uint32_t a);
/* float <-> bits helpers. */
float ptpu_f32(uint32_t bits);
uint32_t ptpu_bits(float f);

/* One MXU column, in the order the array adds: top row first.
 *   int8: sum_k (x[k] - zp) * w[k]  (int32, wrapping)
 *   bf16: ((p0 + p1) + p2) + ...   with p_k = bf16_mul(x[k], w[k])
 * x and w hold n elements; for int8 only the low 8 bits are used (signed). */
uint32_t ptpu_mxu_dot_int8(const uint16_t *x, const uint16_t *w, int n, int stride_w,
                           int zp);
uint32_t ptpu_mxu_dot_bf16(const uint16_t *x, const uint16_t *w, int n, int stride_w);

/* TFLite requantization primitives (blueprint section 5). */
int32_t ptpu_srdhm(int32_t a, int32_t b);
int32_t ptpu_rdbpot(int32_t x, int e);
int32_t ptpu_mbqm(int32_t acc, int32_t m0, int shift);
/* M0 and shift from a real multiplier. */
void ptpu_quantize_multiplier(double m, int32_t *m0, int *shift);

#endif

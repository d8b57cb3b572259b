/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_kernels.h - naive C kernels: the definition, bit for bit, of every
 * operation that libpicotpu compiles (docs/model-format.md, "Arithmetic").
 * int32 sums wrap (two's complement), as the MXU's accumulators do.
 */
#ifndef PTPU_KERNELS_H
#define PTPU_KERNELS_H

#include <stdint.h>

#include "picotpu.h"
#include "ptpu_model.h"

/* C[m][n] = clamp(mbqm(sum_k (A[m][k] - zp_a) * B[k][n] + bias[n], m0[n], shift[n])
 *           + zp_out, lo, hi); A [M][K], B [K][N], C [M][N] row major. */
void ptpu_k_gemm_i8(int M, int N, int K, const int8_t *A, int zp_a, const int8_t *B,
                    const struct ptpu_quant *q, int8_t *C);
/* bf16 GEMM on an array of n rows: K is cut into chunks of n (the last one padded
 * with zeros); each chunk's dot product is ptpu_mxu_dot_bf16 (k ascending), the
 * chunks are added in order with ptpu_fp32_add (the first one starts the sum), then
 * ptpu_vpu_fp(sum, bias or +0, relu, 0) and, for bf16 output, ptpu_fp32_to_bf16. */
void ptpu_k_gemm_bf16(int n, int M, int N, int K, const uint16_t *A, const uint16_t *B,
                      const uint32_t *bias, int relu, int out_bf16, void *C);
/* One model op: in0 (and in1 for ADD) NHWC int8 tensors, out the op's output. */
void ptpu_k_op(const struct ptpu_model *m, const struct ptpu_mop *op, const int8_t *in0,
               const int8_t *in1, int8_t *out);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_kernels.c - naive kernels, the meaning of every operation (see
 * ptpu_kernels.h and docs/model-format.md).  Written for clarity, not speed.
 */
#include <stdlib.h>
#include <string.h>

#include "ptpu_arith.h"
#include "ptpu_kernels.h"
#include "ptpu_vpu.h"

static int8_t requant(uint32_t acc, int32_t m0, int shift, int zp, int lo, int hi)
{
    int64_t y = (int64_t)ptpu_mbqm((int32_t)acc, m0, shift) + zp;
    if (y < lo)
        y = lo;
    if (y > hi)
        y = hi;
    return (int8_t)y;
}

void ptpu_k_gemm_i8(int M, int N, int K, const int8_t *A, int zp_a, const int8_t *B,
                    const struct ptpu_quant *q, int8_t *C)
{
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            uint32_t acc = q->bias ? (uint32_t)q->bias[n] : 0;
            for (int k = 0; k < K; k++)
                acc += (uint32_t)(((int32_t)A[(size_t)m * K + k] - zp_a) *
                                  (int32_t)B[(size_t)k * N + n]);
            C[(size_t)m * N + n] =
                requant(acc, q->m0[n], q->shift[n], q->zp_out, q->clamp_lo, q->clamp_hi);
        }
}

void ptpu_k_gemm_bf16(int n, int M, int N, int K, const uint16_t *A, const uint16_t *B,
                      const uint32_t *bias, int relu, int out_bf16, void *C)
{
    uint16_t *x = calloc((size_t)n, 2), *w = calloc((size_t)n, 2);
    if (!x || !w)
        abort();
    for (int m = 0; m < M; m++)
        for (int j = 0; j < N; j++) {
            uint32_t sum = 0;
            for (int k0 = 0; k0 < K; k0 += n) {
                for (int k = 0; k < n; k++) {
                    int in = k0 + k < K;
                    x[k] = in ? A[(size_t)m * K + k0 + k] : 0;
                    w[k] = in ? B[(size_t)(k0 + k) * N + j] : 0;
                }
                uint32_t r = ptpu_mxu_dot_bf16(x, w, n, 1);
                sum = k0 ? ptpu_fp32_add(sum, r) : r;
            }
            uint32_t t = ptpu_vpu_fp(sum, bias ? bias[j] : 0, relu, 0);
            if (out_bf16)
                ((uint16_t *)C)[(size_t)m * N + j] = ptpu_fp32_to_bf16(t);
            else
                ((uint32_t *)C)[(size_t)m * N + j] = t;
        }
    free(x);
    free(w);
}

static void conv(const struct ptpu_model *m, const struct ptpu_mop *op, const int8_t *x,
                 int8_t *y)
{
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    int dw = op->type == PTPU_MOP_DEPTHWISE, C = ti->c;
    for (int oy = 0; oy < to->h; oy++)
        for (int ox = 0; ox < to->w; ox++)
            for (int co = 0; co < to->c; co++) {
                uint32_t acc = (uint32_t)op->bias[co];
                for (int ky = 0; ky < op->kh; ky++) {
                    int iy = oy * op->sh + ky * op->dh - op->pt;
                    if (iy < 0 || iy >= ti->h)
                        continue;
                    for (int kx = 0; kx < op->kw; kx++) {
                        int ix = ox * op->sw + kx * op->dw - op->pl;
                        if (ix < 0 || ix >= ti->w)
                            continue;
                        const int8_t *px = x + ((size_t)iy * ti->w + ix) * C;
                        if (dw) {
                            int wv = op->w[((size_t)ky * op->kw + kx) * C + co];
                            acc += (uint32_t)(((int32_t)px[co] - ti->zp) * wv);
                        } else {
                            const int8_t *wp =
                                op->w + (((size_t)co * op->kh + ky) * op->kw + kx) * C;
                            for (int ci = 0; ci < C; ci++)
                                acc += (uint32_t)(((int32_t)px[ci] - ti->zp) * wp[ci]);
                        }
                    }
                }
                y[((size_t)oy * to->w + ox) * to->c + co] =
                    requant(acc, op->m0[co], op->shift[co], to->zp, op->clamp_lo, op->clamp_hi);
            }
}

static void pool(const struct ptpu_model *m, const struct ptpu_mop *op, const int8_t *x,
                 int8_t *y)
{
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    int C = ti->c;
    for (int oy = 0; oy < to->h; oy++)
        for (int ox = 0; ox < to->w; ox++)
            for (int c = 0; c < C; c++) {
                int mx = -128, cnt = 0;
                uint32_t sum = 0;
                for (int ky = 0; ky < op->kh; ky++) {
                    int iy = oy * op->sh + ky - op->pt;
                    if (iy < 0 || iy >= ti->h)
                        continue;
                    for (int kx = 0; kx < op->kw; kx++) {
                        int ix = ox * op->sw + kx - op->pl;
                        if (ix < 0 || ix >= ti->w)
                            continue;
                        int v = x[((size_t)iy * ti->w + ix) * C + c];
                        mx = v > mx ? v : mx;
                        sum += (uint32_t)(v - ti->zp);
                        cnt++;
                    }
                }
                int8_t *o = &y[((size_t)oy * to->w + ox) * C + c];
                if (op->type == PTPU_MOP_MAXPOOL)
                    *o = (int8_t)mx;
                else
                    *o = requant(sum, op->m0[cnt], op->shift[cnt], to->zp, -128, 127);
            }
}

void ptpu_k_op(const struct ptpu_model *m, const struct ptpu_mop *op, const int8_t *in0,
               const int8_t *in1, int8_t *out)
{
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    switch (op->type) {
    case PTPU_MOP_CONV2D:
    case PTPU_MOP_DEPTHWISE:
        conv(m, op, in0, out);
        break;
    case PTPU_MOP_FC: {
        struct ptpu_quant q = {op->bias, op->m0, op->shift, to->zp, op->clamp_lo,
                               op->clamp_hi};
        /* weights are [cout][cin]: B[k][n] = w[n][k] */
        int K = op->cin, N = op->cout;
        for (int n = 0; n < N; n++) {
            uint32_t acc = (uint32_t)q.bias[n];
            for (int k = 0; k < K; k++)
                acc += (uint32_t)(((int32_t)in0[k] - ti->zp) * op->w[(size_t)n * K + k]);
            out[n] = requant(acc, q.m0[n], q.shift[n], q.zp_out, q.clamp_lo, q.clamp_hi);
        }
        break;
    }
    case PTPU_MOP_MAXPOOL:
    case PTPU_MOP_AVGPOOL:
        pool(m, op, in0, out);
        break;
    case PTPU_MOP_ADD: {
        const struct ptpu_tensor *tb = &m->t[op->in[1]];
        size_t n = (size_t)to->h * to->w * to->c;
        for (size_t i = 0; i < n; i++) {
            uint32_t acc = (uint32_t)(((int32_t)in0[i] - ti->zp) * op->ka) +
                           (uint32_t)(((int32_t)in1[i] - tb->zp) * op->kb);
            out[i] = requant(acc, op->m0[0], op->shift[0], to->zp, op->clamp_lo, op->clamp_hi);
        }
        break;
    }
    default:
        abort();
    }
}

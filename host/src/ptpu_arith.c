/* SPDX-License-Identifier: Apache-2.0 */
/* ptpu_arith.c - reference arithmetic.  Written from the semantics (native
 * IEEE binary32 with explicit flushing), not from the RTL's structure, so that
 * comparing the two checks the hardware algorithm. */
#include "ptpu_arith.h"

#include <math.h>
#include <string.h>

float ptpu_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint32_t ptpu_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint32_t ftz(uint32_t a)
{
    return ((a >> 23) & 0xff) == 0 ? (a & 0x80000000u) : a;
}

static int is_nan32(uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }

uint32_t ptpu_fp32_add(uint32_t a, uint32_t b)
{
    a = ftz(a);
    b = ftz(b);
    if (is_nan32(a) || is_nan32(b))
        return PTPU_FP32_QNAN;
    /* Binary32 addition on this host is IEEE round-to-nearest-even; a sum of
     * two normal numbers that lands below 2^-126 is exact, so flushing the
     * result afterwards equals flushing it before rounding. */
    uint32_t r = ptpu_bits(ptpu_f32(a) + ptpu_f32(b));
    if (is_nan32(r))
        return PTPU_FP32_QNAN;
    return ftz(r);
}

uint32_t ptpu_bf16_mul(uint16_t a, uint16_t b)
{
    uint32_t fa = ftz((uint32_t)a << 16), fb = ftz((uint32_t)b << 16);
    if (is_nan32(fa) || is_nan32(fb))
        return PTPU_FP32_QNAN;
    double p = (double)ptpu_f32(fa) * (double)ptpu_f32(fb); /* exact: 16 bits */
    if (isnan(p))
        return PTPU_FP32_QNAN;
    uint32_t sign = ((fa ^ fb) & 0x80000000u);
    if (p != 0 && fabs(p) < 0x1p-126)
        return sign;
    uint32_t r = ptpu_bits((float)p); /* overflow rounds to +-Inf */
    return r;
}

uint16_t ptpu_fp32_to_bf16(uint32_t a)
{
    if (is_nan32(a))
        return (uint16_t)(((a >> 16) & 0x8000u) | 0x7fc0u);
    a = ftz(a);
    uint32_t lsb = (a >> 16) & 1;
    return (uint16_t)((a + 0x7fffu + lsb) >> 16);
}

uint32_t ptpu_mxu_dot_int8(const uint16_t *x, const uint16_t *w, int n, int stride_w,
                           int zp)
{
    uint32_t acc = 0;
    for (int k = 0; k < n; k++)
        acc += (uint32_t)((int32_t)((int8_t)(x[k] & 0xff) - zp) *
                          (int32_t)(int8_t)(w[k * stride_w] & 0xff));
    return acc;
}

uint32_t ptpu_mxu_dot_bf16(const uint16_t *x, const uint16_t *w, int n, int stride_w)
{
    uint32_t acc = ptpu_bf16_mul(x[0], w[0]);
    for (int k = 1; k < n; k++)
        acc = ptpu_fp32_add(acc, ptpu_bf16_mul(x[k], w[k * stride_w]));
    return acc;
}

int32_t ptpu_srdhm(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    int64_t p = (int64_t)a * (int64_t)b;
    int64_t nudge = p >= 0 ? (1ll << 30) : (1 - (1ll << 30));
    return (int32_t)((p + nudge) / (1ll << 31));
}

int32_t ptpu_rdbpot(int32_t x, int e)
{
    int32_t mask = (int32_t)((1ll << e) - 1);
    int32_t rem = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> e) + (rem > threshold ? 1 : 0);
}

int32_t ptpu_mbqm(int32_t acc, int32_t m0, int shift)
{
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    return ptpu_rdbpot(ptpu_srdhm((int32_t)((uint32_t)acc << left), m0), right);
}

void ptpu_quantize_multiplier(double m, int32_t *m0, int *shift)
{
    if (m == 0.0) {
        *m0 = 0;
        *shift = 0;
        return;
    }
    double q = frexp(m, shift);
    int64_t qf = llround(q * (double)(1ll << 31));
    if (qf == (1ll << 31)) {
        qf /= 2;
        ++*shift;
    }
    if (*shift < -31) {
        *shift = 0;
        qf = 0;
    }
    *m0 = (int32_t)qf;
}

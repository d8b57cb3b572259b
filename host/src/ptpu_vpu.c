/* SPDX-License-Identifier: Apache-2.0 */
/* ptpu_vpu.c - the vector unit, written from docs/isa.md (ACTIVATE). */
#include "ptpu_vpu.h"

#include "picotpu_isa.h"
#include "ptpu_arith.h"

#define FP32_SIX 0x40c00000u

int ptpu_vpu_shift(uint32_t shift_word)
{
    int s = (int)(shift_word & 0x3f);
    if (s >= 32)
        s -= 64;
    return s < -31 ? -31 : s;
}

static int is_nan32(uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }

/* Sign-magnitude to an ordered integer, subnormals and zeros as 0. */
static int64_t fkey(uint32_t a)
{
    int64_t mag = ((a >> 23) & 0xff) == 0 ? 0 : (int64_t)(a & 0x7fffffffu);
    return (a >> 31) ? -mag : mag;
}

uint32_t ptpu_vpu_fmax(uint32_t a, uint32_t b)
{
    if (is_nan32(a) || is_nan32(b))
        return PTPU_FP32_QNAN;
    return fkey(b) > fkey(a) ? b : a;
}

int8_t ptpu_vpu_int8(uint32_t v, uint32_t bias, uint32_t m0, uint32_t shift, int zp_out,
                     int clamp_lo, int clamp_hi)
{
    int32_t t = (int32_t)(v + bias);
    int64_t y = (int64_t)ptpu_mbqm(t, (int32_t)m0, ptpu_vpu_shift(shift)) +
                (int8_t)(zp_out & 0xff);
    int lo = (int8_t)(clamp_lo & 0xff), hi = (int8_t)(clamp_hi & 0xff);
    if (y < lo)
        y = lo;
    else if (y > hi)
        y = hi;
    return (int8_t)y;
}

uint32_t ptpu_vpu_fp(uint32_t v, uint32_t bias, int relu, int relu6)
{
    uint32_t t = ptpu_fp32_add(v, bias);
    if (is_nan32(t))
        return t;
    if (relu && (t >> 31))
        t = 0;
    /* Positive fp32 values order like their bit patterns; +Inf > 6 too. */
    if (relu6 && !(t >> 31) && t > FP32_SIX)
        t = FP32_SIX;
    return t;
}

void ptpu_vpu_row(const struct ptpu_vpu_op *op, const uint32_t *const *rows, int nwin,
                  const uint32_t *bias, const uint32_t *m0, const uint32_t *shift,
                  uint8_t *out)
{
    int fp = op->out != PTPU_OUT_INT8;
    if (op->pool == PTPU_POOL_NONE || nwin < 1)
        nwin = 1;
    for (int c = 0; c < op->n; c++) {
        uint32_t v = rows[0][c];
        for (int j = 1; j < nwin; j++) {
            uint32_t x = rows[j][c];
            if (op->pool == PTPU_POOL_SUM)
                v = fp ? ptpu_fp32_add(v, x) : v + x;
            else if (fp)
                v = ptpu_vpu_fmax(v, x);
            else
                v = (int32_t)x > (int32_t)v ? x : v;
        }
        if (!fp) {
            out[c] = (uint8_t)ptpu_vpu_int8(v, bias[c], m0[c], shift[c], op->zp_out,
                                            op->clamp_lo, op->clamp_hi);
            continue;
        }
        uint32_t t = ptpu_vpu_fp(v, bias[c], op->relu, op->relu6);
        if (op->out == PTPU_OUT_BF16) {
            uint16_t h = ptpu_fp32_to_bf16(t);
            out[2 * c] = (uint8_t)h;
            out[2 * c + 1] = (uint8_t)(h >> 8);
        } else {
            for (int b = 0; b < 4; b++)
                out[4 * c + b] = (uint8_t)(t >> (8 * b));
        }
    }
}

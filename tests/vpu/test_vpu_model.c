/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_vpu_model.c - checks the C model of the vector unit (host/src/ptpu_vpu.c)
 * against docs/isa.md by other means than the RTL: hand-computed cases, the
 * real-valued meaning of requantization, and native float arithmetic on
 * normal values.
 *
 *   test_vpu_model [--seed S] [--iters K]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "picotpu_isa.h"
#include "ptpu_arith.h"
#include "ptpu_vpu.h"

static int fails;
static uint64_t rng;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond)) {                                     \
            if (fails++ < 10) {                            \
                printf("  %s:%d: ", __FILE__, __LINE__);   \
                printf(__VA_ARGS__);                       \
                printf("\n");                              \
            }                                              \
        }                                                  \
    } while (0)

static uint32_t fb(float f) { return ptpu_bits(f); }

static void directed(void)
{
    /* shift: low 6 bits, signed, -32 -> -31 */
    CHECK(ptpu_vpu_shift(0) == 0 && ptpu_vpu_shift(31) == 31 && ptpu_vpu_shift(0x20) == -31 &&
              ptpu_vpu_shift(0x21) == -31 && ptpu_vpu_shift(0x3f) == -1 &&
              ptpu_vpu_shift(0xffffffe1u) == -31 && ptpu_vpu_shift(0x41) == 1 &&
              ptpu_vpu_shift((uint32_t)-5) == -5,
          "shift decoding");
    /* M = 0.5 (M0 = 2^30, shift 0): 90 + 10 = 100 -> 50, + zp 3 = 53 */
    CHECK(ptpu_vpu_int8(90, 10, 1u << 30, 0, 3, -128, 127) == 53, "int8 0.5");
    /* rounding of halves: 3 * 0.5 = 1.5 -> 2; -3 * 0.5 = -1.5 -> -1 (SRDHM rounds
     * half up after the doubling high mul, RDBPOT half away from zero) */
    CHECK(ptpu_vpu_int8(3, 0, 1u << 30, 0, 0, -128, 127) == 2, "1.5");
    CHECK(ptpu_vpu_int8((uint32_t)-3, 0, 1u << 30, 0, 0, -128, 127) == -1, "-1.5 srdhm");
    /* M = 0.25 as M0 = 2^30, shift -1: RDBPOT rounds -1.5 (from -6 * 0.25) away: -2 */
    CHECK(ptpu_vpu_int8((uint32_t)-6, 0, 1u << 30, (uint32_t)-1, 0, -128, 127) == -2,
          "-1.5 rdbpot");
    CHECK(ptpu_vpu_int8(6, 0, 1u << 30, (uint32_t)-1, 0, -128, 127) == 2, "1.5 rdbpot");
    /* M = 2: shift 2 with M0 = 2^30 (0.5 * 4) */
    CHECK(ptpu_vpu_int8(7, 0, 1u << 30, 2, 0, -128, 127) == 14, "x2");
    /* clamps and zp without overflow: 127 + 127 stays 127 after the clamp */
    CHECK(ptpu_vpu_int8(1000, 0, 0x7fffffff, 0, 127, -128, 127) == 127, "clamp hi");
    CHECK(ptpu_vpu_int8((uint32_t)-1000, 0, 0x7fffffff, 0, -128, -128, 127) == -128, "clamp lo");
    CHECK(ptpu_vpu_int8(1000, 0, 0x7fffffff, 0, -5, -5, 20) == 20, "relu6 range");
    CHECK(ptpu_vpu_int8((uint32_t)-1000, 0, 0x7fffffff, 0, -5, -5, 20) == -5, "relu range");
    /* INT32_MIN x INT32_MIN saturates to INT32_MAX: with shift -31 that is 1 */
    CHECK(ptpu_vpu_int8(0x80000000u, 0, 0x80000000u, (uint32_t)-31, 0, -128, 127) == 1,
          "min x min");
    /* wrapping bias: INT32_MAX + 1 = INT32_MIN, times -1 (M0 = -2^31) saturates */
    CHECK(ptpu_vpu_int8(0x7fffffffu, 1, 0x80000000u, (uint32_t)-31, 0, -128, 127) == 1,
          "wrap");

    /* fp max: NaN wins, +-0 keep the first, subnormals are zeros */
    CHECK(ptpu_vpu_fmax(0x80000000u, 0) == 0x80000000u, "-0 vs +0");
    CHECK(ptpu_vpu_fmax(0, 0x80000000u) == 0, "+0 vs -0");
    CHECK(ptpu_vpu_fmax(0x80000000u, 0x00000001u) == 0x80000000u, "-0 vs +sub");
    CHECK(ptpu_vpu_fmax(0x80400000u, 0x00800000u) == 0x00800000u, "-sub vs +min");
    CHECK(ptpu_vpu_fmax(fb(1), fb(2)) == fb(2) && ptpu_vpu_fmax(fb(-1), fb(-2)) == fb(-1),
          "max order");
    CHECK(ptpu_vpu_fmax(0xff800000u, 0x7f800001u) == PTPU_FP32_QNAN, "nan");
    CHECK(ptpu_vpu_fmax(0xffc00001u, fb(1)) == PTPU_FP32_QNAN, "nan first");
    CHECK(ptpu_vpu_fmax(0xff800000u, 0xff7fffffu) == 0xff7fffffu, "-inf");

    /* fp activation */
    CHECK(ptpu_vpu_fp(fb(-3), fb(1), 1, 0) == 0, "relu");
    CHECK(ptpu_vpu_fp(0x80000000u, 0x80000000u, 1, 0) == 0, "relu -0");
    CHECK(ptpu_vpu_fp(0x80000000u, 0x80000000u, 0, 0) == 0x80000000u, "-0 + -0");
    CHECK(ptpu_vpu_fp(fb(30), fb(1), 1, 1) == fb(6), "relu6");
    CHECK(ptpu_vpu_fp(0x7f800000u, 0, 0, 1) == fb(6), "relu6 inf");
    CHECK(ptpu_vpu_fp(0xff800000u, 0, 0, 1) == 0xff800000u, "relu6 -inf");
    CHECK(ptpu_vpu_fp(0xff800000u, 0, 1, 1) == 0, "relu -inf");
    CHECK(ptpu_vpu_fp(0x7f800000u, 0xff800000u, 1, 1) == PTPU_FP32_QNAN, "inf - inf");
    CHECK(ptpu_vpu_fp(fb(3), fb(1), 1, 1) == fb(4), "pass");

    /* whole rows: FP32 sum of two windows rows, BF16 rounding, int8 max */
    uint32_t r0[4] = {1, fb(1.5f), 0xfffffffbu, fb(1.0f)};
    uint32_t r1[4] = {5, fb(2.5f), 0xfffffff0u, 0x00018000u};
    const uint32_t *rows[2] = {r0, r1};
    uint32_t zero[4] = {0, 0, 0, 0}, m0[4], sh[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        m0[i] = 0x7fffffffu;
    uint8_t o[16];
    struct ptpu_vpu_op op = {4, PTPU_OUT_FP32, PTPU_POOL_SUM, 0, 0, 0, -128, 127};
    ptpu_vpu_row(&op, rows, 2, zero, m0, sh, o);
    uint32_t w1;
    memcpy(&w1, o + 4, 4);
    CHECK(w1 == fb(4.0f), "fp32 sum");
    op.out = PTPU_OUT_BF16;
    uint32_t bias[4] = {0, 0, 0, 0x3b800000u};   /* 1 + 2^-8: a tie in bf16 -> even (1.0) */
    const uint32_t *one[1] = {r0};
    ptpu_vpu_row(&op, one, 1, bias, m0, sh, o);
    CHECK(o[6] == 0x80 && o[7] == 0x3f, "bf16 tie to even: %02x%02x", o[7], o[6]);
    op.out = PTPU_OUT_INT8;
    op.pool = PTPU_POOL_MAX;
    ptpu_vpu_row(&op, rows, 2, zero, m0, sh, o);
    CHECK(o[0] == 5 && (int8_t)o[2] == -5, "int8 max: %d %d", o[0], (int8_t)o[2]);
    op.pool = PTPU_POOL_NONE;  /* the first row only */
    ptpu_vpu_row(&op, rows, 2, zero, m0, sh, o);
    CHECK(o[0] == 1, "pool none");
}

/* Requantization means y = round(t * M0 * 2^shift / 2^31) + zp: within one of it
 * (two roundings), and exact unless the real value lies within the first
 * rounding's error (half a unit of 2^shift) of a half. */
static void requant_meaning(int iters)
{
    for (int i = 0; i < iters; i++) {
        int32_t t = (int32_t)(rnd() % 2000001) - 1000000;
        int32_t m0 = (int32_t)((1u << 30) + (rnd() & 0x3fffffff));
        int sh = -(int)(rnd() % 25) - 1;
        int zp = (int)(rnd() % 256) - 128;
        double real = (double)t * ldexp((double)m0, sh - 31);
        long want = lround(real) + zp;
        if (want < -128)
            want = -128;
        if (want > 127)
            want = 127;
        int got = ptpu_vpu_int8((uint32_t)t, 0, (uint32_t)m0, (uint32_t)sh, zp, -128, 127);
        CHECK(labs(got - want) <= 1, "requant t %d m0 %d shift %d: got %d want %ld", t, m0,
              sh, got, want);
        double frac = fabs(real - floor(real) - 0.5);
        if (frac > ldexp(0.5, sh) + 1e-9)
            CHECK(got == want, "requant exact t %d m0 %d shift %d: got %d want %ld", t, m0, sh,
                  got, want);
    }
}

/* Normal-range floats: the model equals native float arithmetic. */
static void fp_meaning(int iters)
{
    for (int i = 0; i < iters; i++) {
        float a = ((float)(int)(rnd() % 20001) - 10000.0f) / 997.0f;
        float b = ((float)(int)(rnd() % 20001) - 10000.0f) / 991.0f;
        float bias = ((float)(int)(rnd() % 2001) - 1000.0f) / 331.0f;
        float s = a + b + bias;    /* left to right, as the unit adds */
        float m = (a > b ? a : b) + bias;
        const uint32_t r0[1] = {fb(a)}, r1[1] = {fb(b)};
        const uint32_t *rows[2] = {r0, r1};
        uint32_t bb[1] = {fb(bias)}, z[1] = {0};
        uint8_t o[4];
        for (int relu = 0; relu < 2; relu++)
            for (int relu6 = 0; relu6 < 2; relu6++) {
                struct ptpu_vpu_op op = {1, PTPU_OUT_FP32, PTPU_POOL_SUM, relu, relu6, 0, 0, 0};
                for (int p = 0; p < 2; p++) {
                    op.pool = p ? PTPU_POOL_MAX : PTPU_POOL_SUM;
                    float w = p ? m : s;
                    if (relu && w < 0)
                        w = 0;
                    if (relu6 && w > 6)
                        w = 6;
                    ptpu_vpu_row(&op, rows, 2, bb, z, z, o);
                    uint32_t got;
                    memcpy(&got, o, 4);
                    CHECK(got == fb(w) || (w == 0 && (got & 0x7fffffffu) == 0),
                          "fp %g %g bias %g pool %d relu %d%d: got %08x want %08x", a, b, bias,
                          p, relu, relu6, got, fb(w));
                }
            }
    }
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    int iters = 200000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
    }
    printf("# vpu_model: seed=%llu (re-run with --seed %llu)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    rng = seed * 0x9e3779b97f4a7c15ull + 1;
    directed();
    requant_meaning(iters);
    fp_meaning(iters / 10);
    if (fails)
        printf("FAIL vpu_model %d check(s) failed (seed=%llu)\n", fails,
               (unsigned long long)seed);
    else
        printf("PASS vpu_model directed, %d requantizations, %d fp windows x 8\n", iters,
               iters / 10);
    return fails ? 1 : 0;
}

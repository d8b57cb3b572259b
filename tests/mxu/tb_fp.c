/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_fp.c - the floating-point functions of tpu_fp_pkg (fp32 add, bf16 x bf16
 * product, fp32 -> bf16) against the C reference on millions of operands:
 * random bit patterns, operands close in magnitude (cancellation, every
 * alignment distance), results near the flush and overflow limits, ties.
 *
 *   tb_fp [--seed S] [--count N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptpu_arith.h"
#include "tb.h"

static uint32_t rand_fp32(tb_t *tb, int kind, uint32_t other)
{
    uint32_t r = tb_rand32(tb);
    switch (kind) {
    case 0: /* any bit pattern */
        return r;
    case 1: { /* near `other`: same exponent +- a few, cancellation */
        int e = (int)((other >> 23) & 0xff) + (int)tb_rand_range(tb, -3, 3);
        if (e < 0) e = 0;
        if (e > 255) e = 255;
        uint32_t m = tb_chance(tb, 1, 2) ? (other & 0x7fffff) ^ (r & 0x3f) : (r & 0x7fffff);
        return (r & 0x80000000u) | ((uint32_t)e << 23) | m;
    }
    case 2: { /* every alignment distance 0..40 */
        int e = (int)((other >> 23) & 0xff) - (int)tb_rand_range(tb, 0, 40);
        if (e < 0) e = 0;
        return (r & 0x80000000u) | ((uint32_t)e << 23) | (r & 0x7fffff);
    }
    case 3: /* tiny: around the flush limit */
        return (r & 0x80000000u) | ((uint32_t)tb_rand_range(tb, 0, 3) << 23) | (r & 0x7fffff);
    case 4: /* huge: around overflow */
        return (r & 0x80000000u) | ((uint32_t)tb_rand_range(tb, 252, 255) << 23) |
               (tb_chance(tb, 1, 4) ? 0 : (r & 0x7fffff));
    default: { /* short mantissas: exact halves, ties */
        int e = (int)((other >> 23) & 0xff) - (int)tb_rand_range(tb, 20, 26);
        if (e < 1) e = 1;
        return (r & 0x80000000u) | ((uint32_t)e << 23) | (r & 0x7f0000);
    }
    }
}

int main(int argc, char **argv)
{
    long count = 8000000;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atol(argv[++i]);
    tb_t *tb = tb_open("fp", argc, argv);
    tb_sig_t *a = tb_sig(tb, "a_i"), *b = tb_sig(tb, "b_i");
    tb_sig_t *add = tb_sig(tb, "add_o"), *mul = tb_sig(tb, "mul_o"), *cvt = tb_sig(tb, "cvt_o");
    long bad_add = 0, bad_mul = 0, bad_cvt = 0;
    tb_begin(tb);
    for (long i = 0; i < count; i++) {
        uint32_t x = rand_fp32(tb, (int)(i % 7 == 6 ? 0 : i % 6 == 0 ? 3 : i % 5 == 0 ? 4 : 0), 0);
        uint32_t y = rand_fp32(tb, (int)(i % 6), x);
        if (tb_chance(tb, 1, 2)) {
            uint32_t t = x;
            x = y;
            y = t;
        }
        tb_set(a, x);
        tb_set(b, y);
        tb_tick(tb);
        uint32_t ga = (uint32_t)tb_get(add), ea = ptpu_fp32_add(x, y);
        uint32_t gm = (uint32_t)tb_get(mul), em = ptpu_bf16_mul((uint16_t)x, (uint16_t)y);
        uint16_t gc = (uint16_t)tb_get(cvt), ec = ptpu_fp32_to_bf16(x);
        if (ga != ea && bad_add++ == 0)
            tb_check(tb, 0, "fp32_add(%08x, %08x) = %08x, want %08x", x, y, ga, ea);
        if (gm != em && bad_mul++ == 0)
            tb_check(tb, 0, "bf16_mul(%04x, %04x) = %08x, want %08x", x & 0xffff, y & 0xffff,
                     gm, em);
        if (gc != ec && bad_cvt++ == 0)
            tb_check(tb, 0, "fp32_to_bf16(%08x) = %04x, want %04x", x, gc, ec);
    }
    tb_end(tb, "fp.add_mul_cvt", "(%ld operand pairs; mismatches add %ld mul %ld cvt %ld)",
           count, bad_add, bad_mul, bad_cvt);
    return tb_close(tb);
}

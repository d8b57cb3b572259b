/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_mul.c - every operand pair (512 activations x 256 weights) through the array's logic
 * product (tpu_mxu_mul_logic, via tests/mxu/tpu_mul_check.sv), against the C product and
 * the RTL's `*`.  Exhaustive, so no seed.
 */
#include <stdio.h>

#include "tb.h"

int main(int argc, char **argv)
{
    tb_t *tb = tb_open("mul", argc, argv);
    tb_sig_t *a = tb_sig(tb, "a_i"), *w = tb_sig(tb, "w_i");
    tb_sig_t *p = tb_sig(tb, "p_o"), *ref = tb_sig(tb, "ref_o");
    long pairs = 0, bad = 0;
    tb_begin(tb);
    for (int x = -256; x < 256; x++) {
        for (int y = -128; y < 128; y++) {
            tb_set(a, (uint64_t)(x & 0x1ff));
            tb_set(w, (uint64_t)(y & 0xff));
            tb_tick(tb);
            uint32_t want = (uint32_t)(x * y) & 0x1ffff;
            uint32_t got = (uint32_t)tb_get(p), star = (uint32_t)tb_get(ref);
            pairs++;
            if ((got != want || star != want) && bad++ == 0)
                tb_check(tb, 0, "%d x %d: logic %05x, `*` %05x, want %05x", x, y, got, star, want);
        }
    }
    tb_end(tb, "mul.logic_product", "(%ld operand pairs, %ld wrong)", pairs, bad);
    return tb_close(tb);
}

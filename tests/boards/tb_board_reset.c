/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_board_reset.c - testbench of tpu_board_reset (rtl/boards): the reset is asserted at
 * once while the PLL is unlocked or the button is held, and released Stages clock edges
 * after both are good; random lock glitches and button bounces restart the count.
 */
#include <stdio.h>

#include "tb.h"

#define STAGES 4

int main(int argc, char **argv)
{
    tb_t *tb = tb_open("board_reset", argc, argv);
    tb_sig_t *locked = tb_sig(tb, "locked_i"), *btn = tb_sig(tb, "btn_ni");
    tb_sig_t *rst = tb_sig(tb, "rst_no");

    tb_begin(tb);
    tb_set(locked, 0);
    tb_set(btn, 1);
    tb_ticks(tb, 10);
    tb_check(tb, tb_get(rst) == 0, "reset released while the PLL is unlocked");
    tb_set(locked, 1);
    tb_ticks(tb, STAGES - 1);
    tb_check(tb, tb_get(rst) == 0, "reset released before %d edges", STAGES);
    tb_ticks(tb, 1);
    tb_check(tb, tb_get(rst) == 1, "reset not released %d edges after lock", STAGES);
    tb_end(tb, "board_reset.release", "(%d stages)", STAGES);

    /* Random glitches: a drop of either input asserts the reset without a clock edge; the
     * release comes exactly STAGES rising edges after the last drop ends. */
    tb_begin(tb);
    int since_good = STAGES; /* rising edges since both inputs were last good */
    long drops = 0;
    for (int i = 0; i < 20000; i++) {
        if (tb_chance(tb, 1, 16)) {
            tb_sig_t *s = tb_chance(tb, 1, 2) ? locked : btn;
            tb_set(s, 0);
            tb_eval(tb);
            tb_check(tb, tb_get(rst) == 0, "a drop of %s does not assert the reset at once",
                     s == locked ? "locked_i" : "btn_ni");
            tb_ticks(tb, (int)tb_rand_range(tb, 0, 3));
            tb_set(s, 1);
            tb_eval(tb);
            since_good = 0;
            drops++;
        }
        tb_tick(tb);
        if (since_good < STAGES)
            since_good++;
        tb_check(tb, (int)tb_get(rst) == (since_good >= STAGES),
                 "reset %d after %d good edges", (int)tb_get(rst), since_good);
    }
    tb_end(tb, "board_reset.glitches", "(%ld drops)", drops);
    return tb_close(tb);
}

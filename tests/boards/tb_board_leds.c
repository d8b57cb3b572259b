/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_board_leds.c - testbench of tpu_board_leds (rtl/boards) at ClkHz = 1 MHz (HbBits 20,
 * a tick every 2^13 cycles): the heartbeat toggles every 2^19 cycles; an activity pulse
 * lights its LED for 2..3 ticks and no longer, the others stay dark; the fault light
 * latches a one-cycle pulse until reset.
 */
#include <stdio.h>

#include "tb.h"

#define HB_HALF (1L << 19)
#define TICK (1L << 13)
#define NUM_ACT 2

int main(int argc, char **argv)
{
    tb_t *tb = tb_open("board_leds", argc, argv);
    tb_sig_t *act = tb_sig(tb, "act_i"), *fault = tb_sig(tb, "fault_i");
    tb_sig_t *hb = tb_sig(tb, "heartbeat_o"), *led = tb_sig(tb, "act_o");
    tb_sig_t *led_fault = tb_sig(tb, "fault_o");

    tb_set(act, 0);
    tb_set(fault, 0);
    tb_reset(tb, 4);

    tb_begin(tb);
    long rises = 0, last = -1, bad = 0;
    int prev = (int)tb_get(hb);
    for (long i = 1; i <= 4 * HB_HALF + 8; i++) {
        tb_tick(tb);
        int h = (int)tb_get(hb);
        if (h != prev) {
            if (last >= 0 && i - last != HB_HALF)
                bad++;
            if (last < 0)
                tb_check(tb, i == HB_HALF, "first heartbeat edge after %ld cycles", i);
            last = i;
            rises += h;
        }
        prev = h;
    }
    tb_check(tb, bad == 0 && rises == 2, "heartbeat: %ld rising edges, %ld irregular", rises, bad);
    tb_end(tb, "board_leds.heartbeat", "(half period %ld cycles)", HB_HALF);

    /* Random activity pulses on one input at a time: that LED stays lit 2..3 ticks after
     * the last pulse, the other never lights. */
    tb_begin(tb);
    for (int k = 0; k < 6; k++) {
        int which = (int)tb_rand_range(tb, 0, NUM_ACT - 1);
        int pulses = (int)tb_rand_range(tb, 1, 3);
        for (int p = 0; p < pulses; p++) {
            tb_set(act, 1u << which);
            tb_tick(tb);
            tb_set(act, 0);
            tb_ticks(tb, (int)tb_rand_range(tb, 0, 200));
        }
        long lit = 0;
        for (long i = 0; i < 5 * TICK; i++) {
            uint64_t l = tb_get(led);
            lit += (l >> which) & 1;
            tb_check(tb, ((l >> (1 - which)) & 1) == 0, "idle activity light %d lit", 1 - which);
            tb_tick(tb);
        }
        tb_check(tb, lit >= 2 * TICK - 201 && lit <= 3 * TICK + 2, "activity %d lit for %ld cycles",
                 which, lit);
    }
    tb_end(tb, "board_leds.activity", "(stretch 2..3 ticks of %ld cycles)", TICK);

    tb_begin(tb);
    tb_check(tb, tb_get(led_fault) == 0, "fault light on before any fault");
    tb_set(fault, 1);
    tb_tick(tb);
    tb_set(fault, 0);
    tb_ticks(tb, 1000);
    tb_check(tb, tb_get(led_fault) == 1, "fault light not latched");
    tb_reset(tb, 2);
    tb_tick(tb);
    tb_check(tb, tb_get(led_fault) == 0, "fault light survives reset");
    tb_end(tb, "board_leds.fault", NULL);
    return tb_close(tb);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_uart.c - test of tpu_uart_tx and tpu_uart_rx (test top tests/link/tpu_uart_loop.sv).
 *
 * Pairs 0..3: each transmitter's line loops to its receiver; random bytes with random gaps
 * must arrive in order.  Some stop bits are forced low: the receiver must flag a framing
 * error, drop that byte and receive the following ones.  Single-cycle glitches on the idle
 * line must be ignored.  Pairs 4 and 5 face a far end at the exact line rate, as the FTDI
 * chip is: the receiver gets its line from a software transmitter at exactly 3 Mbaud, and
 * the transmitter's line is decoded at exactly 3 Mbaud, with the divisor rounded from the
 * clock (pair 4: 25 MHz, 8.33 cycles per bit, divisor 8; pair 5: 33.33 MHz, a clock the
 * ULX3S's PLL makes (25 x 4 / 3), 11.11 cycles per bit, divisor 11).  Every other
 * transmitter's line is decoded by an ideal software receiver at its divisor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

#define NP 6
static const int tx_div[NP] = {4, 16, 217, 49, 8, 11};
static const int rx_div[NP] = {4, 16, 217, 50, 8, 11};
/* cycles per bit of the far end at the exact line rate; 0: the pair loops back */
static const double exact[NP] = {0, 0, 0, 0, 25.0 / 3.0, 100.0 / 9.0};
#define NLOOP 4   /* pairs 0 .. NLOOP-1 loop back */
#define NBYTES 400

struct pair {
    uint8_t sent[NBYTES];
    int nsent, nrecv, nerr_expect, nerr_seen, ok_bytes;
    int expect[NBYTES], nexpect;      /* bytes the receiver must deliver, in order */
    int gap;                          /* idle cycles before the next byte is offered */
    int force_stop;                   /* the byte being sent gets its stop bit forced low */
    int force_list[NBYTES];
    /* transmitter timing, tracked from the start bit */
    int tx_bit_cycle;                 /* cycles since the start bit began, -1 idle */
    int cur_force;
    /* ideal software receiver on tx_o */
    int sw_state, sw_cnt, sw_bits, sw_byte, sw_n;
    uint64_t last_glitch;
    /* software transmitter at the exact rate (pairs NLOOP ..) */
    double soft_t;
    int soft_active, soft_byte;
};
static struct pair P[NP];

int main(int argc, char **argv)
{
    tb_t *tb = tb_open("tb_uart", argc, argv);
    tb_sig_t *s_valid = tb_sig(tb, "s_valid_i"), *s_ready = tb_sig(tb, "s_ready_o");
    tb_sig_t *s_data = tb_sig(tb, "s_data_i"), *tx = tb_sig(tb, "tx_o"), *rx = tb_sig(tb, "rx_i");
    tb_sig_t *m_valid = tb_sig(tb, "m_valid_o"), *m_data = tb_sig(tb, "m_data_o");
    tb_sig_t *ferr = tb_sig(tb, "frame_err_o");
    tb_set(rx, 0x1f);
    tb_set(s_valid, 0);
    tb_reset(tb, 4);
    tb_begin(tb);
    int glitches = 0;
    for (int k = 0; k < NP; k++)
        P[k].tx_bit_cycle = -1;
    for (int k = 0; k < NP; k++)
        for (int i = 0; i < NBYTES; i++)
            P[k].sent[i] = (uint8_t)tb_rand32(tb);
    uint64_t limit = (uint64_t)NBYTES * 217 * 14 + 100000;
    uint32_t rx_line = 0x1f;
    for (uint64_t cyc = 0; cyc < limit; cyc++) {
        uint32_t valid = 0;
        uint64_t data = 0;
        for (int k = 0; k < NP; k++) {
            struct pair *p = &P[k];
            if (p->nsent < NBYTES && p->gap == 0 && p->tx_bit_cycle < 0 &&
                (k < NLOOP || !p->soft_active)) {
                valid |= 1u << k;
                data |= (uint64_t)p->sent[p->nsent] << (8 * k);
            }
        }
        tb_set(s_valid, valid);
        tb_set(s_data, data);
        tb_set(rx, rx_line);
        tb_fall(tb);
        uint32_t ready = (uint32_t)tb_get(s_ready);
        tb_rise(tb);
        uint32_t txl = (uint32_t)tb_get(tx);
        uint32_t mv = (uint32_t)tb_get(m_valid), fe = (uint32_t)tb_get(ferr);
        uint64_t md = tb_get(m_data);
        rx_line = 0;
        for (int k = 0; k < NP; k++) {
            struct pair *p = &P[k];
            int line = txl >> k & 1;
            if (valid >> k & 1 && ready >> k & 1) {
                /* a byte was taken: its start bit begins now */
                int force = k < NLOOP && tb_chance(tb, 1, 12);
                if (force) {
                    p->nerr_expect++;
                } else {
                    p->expect[p->nexpect++] = p->sent[p->nsent];
                }
                p->cur_force = force;
                if (getenv("UART_DEBUG") && k == atoi(getenv("UART_DEBUG")))
                    fprintf(stderr, "pair %d cycle %llu: byte %d = %02x%s\n", k,
                            (unsigned long long)cyc, p->nsent, p->sent[p->nsent],
                            force ? " (stop forced low)" : "");
                p->tx_bit_cycle = 0;
                if (k >= NLOOP) {
                    p->soft_active = 1;
                    p->soft_byte = p->sent[p->nsent];
                    p->soft_t = 0;
                }
                p->nsent++;
            } else if (p->tx_bit_cycle >= 0) {
                p->tx_bit_cycle++;
                if (p->tx_bit_cycle >= 10 * tx_div[k]) {
                    p->tx_bit_cycle = -1;
                    /* after a forced stop bit the line must idle for the receiver to recover */
                    p->gap = p->cur_force ? 2 * rx_div[k] : (tb_chance(tb, 1, 2) ? 0 :
                             (int)tb_rand_range(tb, 0, 3 * tx_div[k]));
                }
            } else if (p->gap > 0) {
                p->gap--;
            }
            /* the line the receiver sees */
            int rline = line;
            if (k < NLOOP && p->tx_bit_cycle >= 9 * tx_div[k] && p->cur_force)
                rline = 0;
            /* glitches: isolated (two within a majority window would make a start bit) and
             * ended before the next start bit is due */
            if (k < NLOOP && p->tx_bit_cycle < 0 && p->gap > rx_div[k] + 4 &&
                cyc > p->last_glitch + (uint64_t)rx_div[k] + 4 && tb_chance(tb, 1, 50)) {
                p->last_glitch = cyc;
                rline = 0;   /* a one-cycle glitch on the idle line */
                glitches++;
                if (getenv("UART_DEBUG") && k == atoi(getenv("UART_DEBUG")))
                    fprintf(stderr, "pair %d cycle %llu: glitch (gap %d, byte %d)\n", k,
                            (unsigned long long)cyc, p->gap, p->nsent);
            }
            if (k >= NLOOP) {
                /* software transmitter at the exact rate */
                rline = 1;
                if (p->soft_active) {
                    int bit = (int)(p->soft_t / exact[k]);
                    if (bit == 0)
                        rline = 0;
                    else if (bit <= 8)
                        rline = p->soft_byte >> (bit - 1) & 1;
                    else
                        rline = 1;
                    p->soft_t += 1.0;
                    if (bit >= 10)
                        p->soft_active = 0;
                }
            }
            rx_line |= (uint32_t)rline << k;
            /* ideal software receiver on the transmitter's line: bit b sampled at
             * floor(per / 2 + b * per) cycles after the start bit's falling edge */
            if (p->sw_state == 0) {
                if (!line) {
                    p->sw_state = 1;
                    p->sw_cnt = 0;
                    p->sw_bits = 0;
                    p->sw_byte = 0;
                }
            } else {
                p->sw_cnt++;
                double per = exact[k] > 0 ? exact[k] : tx_div[k];
                if (p->sw_cnt == (int)(per / 2 + p->sw_bits * per)) {
                    int bit = p->sw_bits++;   /* 0 start, 1..8 data, 9 stop */
                    if (bit == 0 && line)
                        tb_check(tb, 0, "pair %d: start bit high at its centre", k);
                    if (bit >= 1 && bit <= 8)
                        p->sw_byte |= line << (bit - 1);
                    if (bit == 9) {
                        tb_check(tb, line, "pair %d: stop bit low", k);
                        tb_check(tb, p->sw_n < NBYTES && p->sw_byte == p->sent[p->sw_n],
                                 "pair %d: transmitted byte %d is %02x, sent %02x", k, p->sw_n,
                                 p->sw_byte, p->sent[p->sw_n]);
                        p->sw_n++;
                        p->sw_state = 0;
                    }
                }
            }
            /* receiver outputs */
            if (mv >> k & 1) {
                int b = (int)(md >> (8 * k) & 0xff);
                tb_check(tb, p->nrecv < p->nexpect && b == p->expect[p->nrecv],
                         "pair %d: received byte %d is %02x, expected %02x", k, p->nrecv, b,
                         p->nrecv < p->nexpect ? p->expect[p->nrecv] : -1);
                p->nrecv++;
            }
            if (fe >> k & 1)
                p->nerr_seen++;
            if (getenv("UART_DEBUG") && k == atoi(getenv("UART_DEBUG")) && ((mv | fe) >> k & 1))
                fprintf(stderr, "pair %d cycle %llu: rx %s %02x\n", k, (unsigned long long)cyc,
                        (fe >> k & 1) ? "framing error" : "byte", (int)(md >> (8 * k) & 0xff));
        }
        int done = 1;
        for (int k = 0; k < NP; k++)
            if (P[k].nsent < NBYTES || P[k].tx_bit_cycle >= 0 || P[k].nrecv < P[k].nexpect)
                done = 0;
        if (done)
            break;
    }
    for (int k = 0; k < NP; k++) {
        struct pair *p = &P[k];
        tb_check(tb, p->nrecv == p->nexpect, "pair %d: %d bytes received of %d", k, p->nrecv,
                 p->nexpect);
        tb_check(tb, p->nerr_seen == p->nerr_expect, "pair %d: %d framing errors flagged of %d",
                 k, p->nerr_seen, p->nerr_expect);
        tb_check(tb, p->sw_n == NBYTES, "pair %d: %d bytes on the line of %d", k, p->sw_n,
                 NBYTES);
        char far[64] = "";
        if (k >= NLOOP)
            snprintf(far, sizeof far, " (far end at %.2f cycles per bit)", exact[k]);
        printf("  pair %d: tx Div %d, rx Div %d%s: %d bytes sent, %d received, %d framing "
               "errors injected and flagged %d\n", k, tx_div[k], rx_div[k], far, p->nsent, p->nrecv,
               p->nerr_expect, p->nerr_seen);
    }
    tb_end(tb, "uart_loopback", "pairs=%d bytes=%d glitches=%d", NP, NP * NBYTES, glitches);
    return tb_close(tb);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_lite_uart.c - testbench of tpu_lite_uart (rtl/lite): the register interface against
 * a C model of the serial line at the model's bit time (UART_DIV cycles, -D from
 * tests/lite/test.mk; small FIFOs, RX_DEPTH and TX_DEPTH entries):
 *   loopback  TX wired to RX: random bytes written (the write stalls while the TX FIFO is
 *             full) and read back in order, random pauses of the reader;
 *   line      bytes the C side sends arrive in RXDATA; bytes written to TXDATA leave on
 *             the line as 8N1 frames with the right bit time (a C receiver samples them);
 *   overrun   the reader stops: RX_DEPTH + 1 bytes are kept, the rest dropped, STATUS bit 3
 *             sticks until written with 1; a low stop bit sets bit 4 and drops the byte;
 *   status    RX not empty, TX full, TX idle as the traffic goes.
 * Usage: tb_lite_uart [--seed N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

#ifndef UART_DIV
#define UART_DIV 8
#endif
#ifndef RX_DEPTH
#define RX_DEPTH 16
#endif
#ifndef TX_DEPTH
#define TX_DEPTH 4
#endif
#define STR2(x) #x
#define STR(x) STR2(x)
#define REG_RX 0x0
#define REG_TX 0x4
#define REG_STATUS 0x8
#define ST_RX 1u
#define ST_TXFULL 2u
#define ST_TXIDLE 4u
#define ST_OVERRUN 8u
#define ST_FERR 16u

static tb_t *tb;
static tb_sig_t *s_req, *s_we, *s_addr, *s_wdata, *s_ready, *s_rdata, *s_rx, *s_tx;

/* The C side of the line: a sender driving rx_i (unless looped back) and a receiver
 * sampling tx_o in the middle of each bit. */
static int loopback;
static uint8_t snd_q[4096];
static size_t snd_head, snd_tail;
static int snd_bit = -1, snd_cnt, snd_bad_stop;  /* bit -1: idle, 0 start, 1..8 data, 9 stop */
static uint8_t rcv_buf[65536];
static size_t rcv_n;
static int rcv_bit = -1, rcv_cnt, rcv_errors;
static uint8_t rcv_byte;

static void line_cycle(void)
{
    /* sender */
    int level = 1;
    if (snd_bit < 0 && snd_head < snd_tail) {
        snd_bit = 0;
        snd_cnt = UART_DIV;
    }
    if (snd_bit >= 0) {
        uint8_t b = snd_q[snd_head];
        level = snd_bit == 0 ? 0 : snd_bit <= 8 ? (b >> (snd_bit - 1)) & 1 : !snd_bad_stop;
        if (--snd_cnt == 0) {
            snd_cnt = UART_DIV;
            if (++snd_bit == 10) {
                snd_bit = -1;
                snd_head++;
            }
        }
    }
    int tx = (int)tb_get(s_tx);
    tb_set(s_rx, loopback ? (uint64_t)tx : (uint64_t)level);
    /* receiver */
    if (rcv_bit < 0) {
        if (!tx) {
            rcv_bit = 0;
            rcv_cnt = UART_DIV / 2;
        }
    } else if (--rcv_cnt == 0) {
        rcv_cnt = UART_DIV;
        if (rcv_bit == 0) {
            if (tx)
                rcv_errors++;
        } else if (rcv_bit <= 8) {
            rcv_byte = (uint8_t)(rcv_byte >> 1 | (tx ? 0x80 : 0));
        } else {
            if (!tx)
                rcv_errors++;
            if (rcv_n < sizeof rcv_buf)
                rcv_buf[rcv_n++] = rcv_byte;
            rcv_bit = -2;  /* back to idle after this sample */
        }
        rcv_bit++;
    }
}

static void cycle(void)
{
    tb_rise(tb);
    tb_fall(tb);
    line_cycle();
    tb_eval(tb);
}

/* One register request, held while ready_o is low; the read data of the cycle after. */
static uint32_t bus(int we, uint32_t addr, uint32_t wdata)
{
    tb_set(s_req, 1);
    tb_set(s_we, (uint64_t)we);
    tb_set(s_addr, addr);
    tb_set(s_wdata, wdata);
    tb_eval(tb);
    long waited = 0;
    while (!tb_get(s_ready)) {
        cycle();
        if (++waited > 100000) {
            tb_check(tb, 0, "request 0x%x never taken", addr);
            break;
        }
    }
    cycle();
    tb_set(s_req, 0);
    return (uint32_t)tb_get(s_rdata);
}

static void idle(long n)
{
    for (long i = 0; i < n; i++)
        cycle();
}

static void send(const uint8_t *p, size_t n)
{
    if (snd_head == snd_tail)
        snd_head = snd_tail = 0;
    memcpy(snd_q + snd_tail, p, n);
    snd_tail += n;
}

/* Reads RXDATA until `want` bytes arrived or the line stays quiet for 30 byte times. */
static size_t drain(uint8_t *out, size_t want)
{
    size_t got = 0;
    long quiet = 0;
    while (got < want && quiet < 30L * 10 * UART_DIV) {
        uint32_t v = bus(0, REG_RX, 0);
        if (v & 0x100) {
            out[got++] = (uint8_t)v;
            quiet = 0;
        } else {
            quiet += 2;
        }
    }
    return got;
}

int main(int argc, char **argv)
{
    tb = tb_open("lite_uart_div" STR(UART_DIV), argc, argv);
    s_req = tb_sig(tb, "req_i");
    s_we = tb_sig(tb, "we_i");
    s_addr = tb_sig(tb, "addr_i");
    s_wdata = tb_sig(tb, "wdata_i");
    s_ready = tb_sig(tb, "ready_o");
    s_rdata = tb_sig(tb, "rdata_o");
    s_rx = tb_sig(tb, "rx_i");
    s_tx = tb_sig(tb, "tx_o");
    tb_set(s_req, 0);
    tb_set(s_rx, 1);
    tb_reset(tb, 4);
    tb_fall(tb);

    /* Loopback with random pauses on both sides. */
    tb_begin(tb);
    loopback = 1;
    uint32_t st = bus(0, REG_STATUS, 0);
    tb_check(tb, st == ST_TXIDLE, "STATUS after reset 0x%x", st);
    enum { LB = 600 };
    static uint8_t sent[LB], got[LB];
    size_t ns = 0, ng = 0;
    int saw_full = 0;
    while (ns < LB && tb->errors == 0) {
        /* never more unread bytes than the RX side holds */
        int room = RX_DEPTH + 1 - (int)(ns - ng);
        if (room > 0 && tb_chance(tb, 2, 3)) {
            int burst = (int)tb_rand_range(tb, 1, room);
            for (int i = 0; i < burst && ns < LB; i++) {
                sent[ns] = (uint8_t)tb_rand32(tb);
                bus(1, REG_TX, sent[ns] | (tb_rand32(tb) & 0xffffff00u));
                ns++;
                saw_full |= (bus(0, REG_STATUS, 0) & ST_TXFULL) != 0;
            }
        }
        if (tb_chance(tb, 1, 3))
            idle(tb_rand_range(tb, 0, 12L * 10 * UART_DIV));
        ng += drain(got + ng, (size_t)tb_rand_range(tb, 0, (int64_t)(ns - ng)));
    }
    ng += drain(got + ng, LB - ng);
    tb_check(tb, ng == LB && memcmp(sent, got, LB) == 0, "loopback: %zu of %d bytes back%s", ng, LB,
             ng == LB ? ", contents differ" : "");
    for (size_t i = 0; i < ng && i < LB; i++)
        if (sent[i] != got[i]) {
            tb_check(tb, 0, "loopback byte %zu: 0x%02x, sent 0x%02x", i, got[i], sent[i]);
            break;
        }
    tb_check(tb, saw_full, "TX FIFO never reported full");
    idle(12L * UART_DIV);
    st = bus(0, REG_STATUS, 0);
    tb_check(tb, st == ST_TXIDLE, "STATUS after the loopback 0x%x", st);
    tb_end(tb, "lite_uart_div" STR(UART_DIV) ".loopback", "%d bytes, bit time %d, FIFOs RX %d TX %d", LB, UART_DIV,
           RX_DEPTH, TX_DEPTH);

    /* The line: C sender to RXDATA, TXDATA to the C receiver, bit timing checked by it. */
    tb_begin(tb);
    loopback = 0;
    rcv_n = 0;
    rcv_errors = 0;
    uint8_t msg[200], in[200];
    for (int i = 0; i < 200; i++)
        msg[i] = (uint8_t)tb_rand32(tb);
    send(msg, 200);
    size_t n = drain(in, 200);
    tb_check(tb, n == 200 && memcmp(in, msg, 200) == 0, "line RX: %zu bytes, %s", n,
             n == 200 ? "contents differ" : "short");
    for (int i = 0; i < 200; i++) {
        bus(1, REG_TX, msg[i]);
        if (i == 0) {
            st = bus(0, REG_STATUS, 0);
            tb_check(tb, !(st & ST_TXIDLE), "TX idle right after a write (0x%x)", st);
        }
    }
    long waited = 0;
    while (!(bus(0, REG_STATUS, 0) & ST_TXIDLE) && waited++ < 100000)
        ;
    idle(2L * UART_DIV);
    tb_check(tb, rcv_n == 200 && memcmp(rcv_buf, msg, 200) == 0 && rcv_errors == 0,
             "line TX: %zu bytes, %d framing errors", rcv_n, rcv_errors);
    tb_end(tb, "lite_uart_div" STR(UART_DIV) ".line", "200 bytes each way");

    /* Overrun and framing errors. */
    tb_begin(tb);
    int extra = (int)tb_rand_range(tb, 1, 6);
    int total = RX_DEPTH + 1 + extra;
    for (int i = 0; i < total; i++)
        msg[i] = (uint8_t)tb_rand32(tb);
    send(msg, (size_t)total);
    idle((long)(total + 2) * 10 * UART_DIV);
    st = bus(0, REG_STATUS, 0);
    tb_check(tb, (st & (ST_RX | ST_OVERRUN)) == (ST_RX | ST_OVERRUN) && !(st & ST_FERR), "STATUS after overrun 0x%x", st);
    n = drain(in, (size_t)total);
    tb_check(tb, n == RX_DEPTH + 1u && memcmp(in, msg, n) == 0, "overrun: %zu bytes kept, expected the first %d",
             n, RX_DEPTH + 1);
    st = bus(0, REG_STATUS, 0);
    tb_check(tb, (st & ST_OVERRUN) && !(st & ST_RX), "overrun not sticky (0x%x)", st);
    bus(1, REG_STATUS, ST_OVERRUN);
    st = bus(0, REG_STATUS, 0);
    tb_check(tb, !(st & ST_OVERRUN), "overrun not cleared (0x%x)", st);
    snd_bad_stop = 1;
    send(msg, 1);
    idle(12L * UART_DIV);
    snd_bad_stop = 0;
    idle(2L * UART_DIV);
    st = bus(0, REG_STATUS, 0);
    tb_check(tb, (st & ST_FERR) && !(st & ST_RX), "framing error: STATUS 0x%x", st);
    send(msg + 1, 1);
    n = drain(in, 1);
    tb_check(tb, n == 1 && in[0] == msg[1], "byte after a framing error lost");
    bus(1, REG_STATUS, ST_FERR);
    st = bus(0, REG_STATUS, 0);
    tb_check(tb, !(st & (ST_FERR | ST_OVERRUN)), "framing error not cleared (0x%x)", st);
    tb_end(tb, "lite_uart_div" STR(UART_DIV) ".errors", "%d bytes into a %d-entry FIFO", total, RX_DEPTH + 1);
    return tb_close(tb);
}

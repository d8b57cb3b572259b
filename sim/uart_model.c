/* SPDX-License-Identifier: Apache-2.0 */
/*
 * uart_model.c - a bit-level UART (uart_model.h): transmitter with a holding register
 * (back-to-back frames leave no gap, the fractional bit time carries over), receiver
 * that starts on a falling edge and samples each bit once at its centre.
 */
#include "uart_model.h"

#define ONE ((uint64_t)1 << 16)

static unsigned data_bits(unsigned fmt)
{
    unsigned n = fmt & 15u;
    return n < 5 ? 8 : n > 8 ? 8 : n;
}

static unsigned parity(unsigned fmt) { return (fmt >> 8) & 7u; }

/* The parity bit for `d` of `n` bits (parity != 0). */
static unsigned parity_bit(unsigned p, uint32_t d, unsigned n)
{
    unsigned ones = (unsigned)__builtin_popcount(d & ((1u << n) - 1));
    switch (p) {
    case 1: return (ones & 1) ^ 1;  /* odd */
    case 2: return ones & 1;        /* even */
    case 3: return 1;               /* mark */
    default: return 0;              /* space */
    }
}

void uart_model_set(uart_model_t *u, uint64_t bit_q16, unsigned fmt)
{
    u->bit_q16 = bit_q16 < ONE ? ONE : bit_q16;
    u->fmt = fmt;
}

void uart_model_init(uart_model_t *u, uint64_t bit_q16, unsigned fmt)
{
    *u = (uart_model_t){0};
    uart_model_set(u, bit_q16, fmt);
}

bool uart_model_tx_ready(const uart_model_t *u) { return !u->tx_hold_valid; }

void uart_model_tx_byte(uart_model_t *u, uint8_t b)
{
    u->tx_hold = b;
    u->tx_hold_valid = true;
}

static void tx_start(uart_model_t *u, uint64_t carry)
{
    unsigned n = data_bits(u->fmt), p = parity(u->fmt), stop = (u->fmt >> 11) & 3u;
    uint32_t d = u->tx_hold & ((1u << n) - 1);
    /* start bit 0, data LSB first, parity, then stop bits (1 beyond the last bit) */
    u->tx_bits = d << 1;
    unsigned nb = 1 + n;
    if (p && p <= 4)
        u->tx_bits |= parity_bit(p, d, n) << nb++;
    u->tx_last = nb;
    u->tx_len = nb * u->bit_q16 + (stop == 1 ? 3 : stop == 2 ? 4 : 2) * u->bit_q16 / 2;
    u->tx_t = carry;
    u->tx_busy = true;
    u->tx_hold_valid = false;
}

int uart_model_cycle(uart_model_t *u, int line_in, int *got)
{
    int out = 1;
    *got = -1;
    /* transmitter */
    if (!u->tx_busy && u->tx_hold_valid)
        tx_start(u, u->tx_carry);
    u->tx_carry = 0;
    if (u->tx_busy) {
        uint64_t i = u->tx_t / u->bit_q16;
        out = i < u->tx_last ? (int)((u->tx_bits >> i) & 1) : 1;
        u->tx_t += ONE;
        if (u->tx_t >= u->tx_len) {
            u->tx_busy = false;
            u->tx_carry = u->tx_t - u->tx_len;
        }
    }
    if (u->fmt & (1u << 14))
        out = 0;    /* break */

    /* receiver */
    line_in = line_in ? 1 : 0;
    switch (u->rx_state) {
    case 0:         /* after a bad stop bit: wait for the idle level */
        if (line_in)
            u->rx_state = 1;
        break;
    case 1:         /* idle: a falling edge starts a frame */
        if (!line_in) {
            u->rx_state = 2;
            u->rx_t = ONE / 2;  /* the edge fell somewhere in this cycle */
            u->rx_bit = 0;
            u->rx_bits = 0;
        }
        break;
    default: {
        u->rx_t += ONE;
        unsigned n = data_bits(u->fmt), p = parity(u->fmt) && parity(u->fmt) <= 4;
        uint64_t centre = (uint64_t)u->rx_bit * u->bit_q16 + u->bit_q16 / 2;
        if (u->rx_t < centre)
            break;
        u->rx_bits |= (uint32_t)line_in << u->rx_bit;
        if (u->rx_bit == 0 && line_in) {    /* a glitch, not a start bit */
            u->rx_state = 1;
            break;
        }
        if ((unsigned)u->rx_bit < 1 + n + p) {
            u->rx_bit++;
            break;
        }
        /* the (first) stop bit */
        uint32_t d = (u->rx_bits >> 1) & ((1u << n) - 1);
        if (p && ((u->rx_bits >> (1 + n)) & 1) != parity_bit(parity(u->fmt), d, n))
            u->errors |= UART_ERR_PARITY;
        if (!line_in) {
            u->errors |= UART_ERR_FRAMING;
            if (u->rx_bits == 0)
                u->errors |= UART_ERR_BREAK;
            u->rx_state = 0;
        } else {
            u->rx_state = 1;
        }
        *got = (int)d;
        break;
    }
    }
    return out;
}

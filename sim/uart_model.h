/* SPDX-License-Identifier: Apache-2.0 */
/*
 * uart_model.h - a bit-level UART for the simulation library: serialises bytes onto a
 * line at any (fractional) bit time and deserialises the other line, one call per clock
 * cycle.  It stands for the far end of a board's UART (the FTDI chip), so its bit time
 * is the chip's, not the SoC's: a mismatch garbles bytes as on real wires.
 */
#ifndef UART_MODEL_H
#define UART_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* Line format, bits as the FTDI SET_DATA request: 0-3 data bits (5..8), 8-10 parity
 * (0 none, 1 odd, 2 even, 3 mark, 4 space), 11-12 stop bits (0: 1, 1: 1.5, 2: 2),
 * 14 break (the transmitter holds the line low). */
#define UART_FMT_8N1 8u

/* Receiver error flags (uart_model_t.errors, sticky until read). */
#define UART_ERR_FRAMING 1u
#define UART_ERR_PARITY 2u
#define UART_ERR_BREAK 4u

typedef struct uart_model {
    uint64_t bit_q16;       /* cycles per bit, 16.16 fixed point */
    unsigned fmt;
    /* transmitter: frame bits LSB first (start, data, parity, stop) */
    bool tx_busy, tx_hold_valid;
    uint8_t tx_hold;        /* the next byte (holding register) */
    uint32_t tx_bits;
    unsigned tx_last;       /* bits before the stop bits */
    uint64_t tx_t, tx_len;  /* time into the frame and its length, cycles << 16 */
    uint64_t tx_carry;      /* time past the end of the last frame */
    /* receiver */
    int rx_state;           /* 0 idle (wait for high), 1 wait for start edge, 2 in frame */
    uint64_t rx_t;
    int rx_bit;             /* next bit to sample */
    uint32_t rx_bits;
    unsigned errors;
} uart_model_t;

void uart_model_init(uart_model_t *u, uint64_t bit_q16, unsigned fmt);
/* New bit time / format; a frame on the line keeps its timing. */
void uart_model_set(uart_model_t *u, uint64_t bit_q16, unsigned fmt);
/* true when the transmitter can take a byte this cycle (idle, or in its last cycle) */
bool uart_model_tx_ready(const uart_model_t *u);
void uart_model_tx_byte(uart_model_t *u, uint8_t b);
/* One clock cycle: `line_in` is the level of the line the model receives.  Returns the
 * level the model drives this cycle; *got is set to a received byte (0..255) or -1. */
int uart_model_cycle(uart_model_t *u, int line_in, int *got);

#endif

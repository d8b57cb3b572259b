/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lite_link.c - the picotpu-lite link protocol and the lite's port of the command layer:
 * what tpu_link and fw/src/cp/cmdproc.c do in the full SoC, as far as a host can observe
 * (docs/isa.md "Link protocol" and "Link packets", docs/link.md), over the plain UART of
 * lite_hal.h.  The requests the full SoC leaves to its firmware (INFO, RUN, STATUS, WAIT,
 * COUNTERS, RESET) go to the command layer both firmwares share (fw/include/ptpu_cp.h,
 * fw/src/cp/cp_serve.c); the cp_port_* functions below are its lite side.
 *
 * Frames are received whole: once a SYNC is in, the header, the payload (into rx_buf)
 * and the CRC are read with a byte time-out of PTPU_BYTE_TIMEOUT_CYCLES, so the UART's
 * FIFO never overflows while a frame streams in; the CRC is computed as the bytes come.
 * Responses are sent with the CRC computed on the fly, MEM_READ data straight from
 * device memory.
 */
#include <string.h>

#include "lite_fw.h"

struct lite_prog lite_prog;

static uint32_t tx_crc;

static uint32_t rx_buf[LITE_MAX_PAYLOAD / 4];
static uint8_t rx_hdr[5];   /* TYPE FLAGS SEQ LENL LENH */

/* ------------------------------------------------------------------ CRC-32 (zlib) */

static const uint32_t crc_nib[16] = {
    0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
    0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu, 0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
};

#ifndef LITE_INLINE
#define LITE_INLINE static inline
#endif

/* One byte into a running CRC register (initial value ~0, final complement). */
LITE_INLINE uint32_t crc_byte(uint32_t c, uint8_t b)
{
    c ^= b;
    c = (c >> 4) ^ crc_nib[c & 15u];
    return (c >> 4) ^ crc_nib[c & 15u];
}

static uint32_t crc_bytes(uint32_t c, const uint8_t *p, uint32_t n)
{
    while (n--)
        c = crc_byte(c, *p++);
    return c;
}

/* ------------------------------------------------------------------ transmit */

LITE_INLINE void tx_put(uint8_t b)
{
    tx_crc = crc_byte(tx_crc, b);
    hal_uart_tx(b);
}

/* Out of line for the headers and words (ROM space); payload loops use tx_put. */
static __attribute__((noinline)) void tx_byte(uint8_t b)
{
    tx_put(b);
}

static void tx_word(uint32_t v)
{
    for (int i = 0; i < 4; i++, v >>= 8)
        tx_byte((uint8_t)v);
}

static void tx_begin(uint8_t type, uint8_t flags, uint8_t seq, uint32_t len)
{
    hal_uart_tx(PTPU_LINK_SYNC);
    tx_crc = ~0u;
    tx_byte(type);
    tx_byte(flags);
    tx_byte(seq);
    tx_byte((uint8_t)len);
    tx_byte((uint8_t)(len >> 8));
}

static void tx_end(void)
{
    uint32_t c = ~tx_crc;
    for (int i = 0; i < 4; i++, c >>= 8)
        hal_uart_tx((uint8_t)c);
}

/* A response (TYPE | 0x80) with a payload of words (len a multiple of 4). */
void cp_port_send(uint8_t type, uint8_t flags, uint8_t seq, const uint32_t *p, uint32_t len)
{
    tx_begin(type | PTPU_LINK_RESPONSE_BIT, flags, seq, len);
    for (uint32_t i = 0; i < len / 4; i++)
        tx_word(p[i]);
    tx_end();
}

static void send_nak(uint8_t seq, uint8_t reason)
{
    tx_begin(PTPU_PKT_NAK, 0, seq, 1);
    tx_byte(reason);
    tx_end();
}

/* Payload bytes from memory (PING: the RX buffer; MEM_READ: device memory). */
static void send_bytes(uint8_t type, uint8_t seq, const uint8_t *p, uint32_t n)
{
    tx_begin(type | PTPU_LINK_RESPONSE_BIT, 0, seq, n);
    while (n--)
        tx_put(*p++);
    tx_end();
}

/* ------------------------------------------------------------------ memory */

void lite_copy(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
        typedef uint32_t __attribute__((may_alias)) word_t;   /* byte buffers, as memcpy */
        word_t *dw = dst;
        const word_t *sw = src, *end = sw + (n >> 2);
        while (sw < end)
            *dw++ = *sw++;
        d = (uint8_t *)dw;
        s = (const uint8_t *)sw;
        n &= 3u;
    }
    while (n--)
        *d++ = *s++;
}

/* ------------------------------------------------------------------ the program */

uint64_t cp_port_time(void)
{
    return hal_time();
}

/* The interpreter keeps cp_prog up to date as it runs (lite_prog_end). */
void cp_port_poll(void)
{
}

uint64_t cp_port_cycles(void)
{
    return (cp_prog.running ? hal_time() : lite_prog.end) - lite_prog.start;
}

void lite_prog_end(uint32_t state, uint32_t fault, uint32_t pc, uint32_t addr)
{
    struct lite_prog *p = &lite_prog;
    p->end = hal_time();
    cp_prog.running = false;
    p->cnt[PTPU_CNT_CYCLES] = p->end - p->start;
    p->cnt[PTPU_CNT_MXU_ROWS] = hal_xpu_count() - p->xpu_count0;
    cp_prog.state = state;
    cp_prog.fault = fault;
    cp_prog.fault_pc = pc;
    cp_prog.fault_addr = addr;
}

void cp_port_start(uint32_t addr, uint32_t n, uint32_t timeout, uint32_t nw, const uint32_t *win)
{
    struct lite_prog *p = &lite_prog;
    memcpy(p->win, win, 12 * nw);
    p->nwin = nw;
    p->addr = addr;
    p->len = n;
    p->pc = 0;
    p->timeout = timeout;
    memset(p->cnt, 0, sizeof p->cnt);
    p->ch_rd = p->ch_wr = 0;
    p->xpu_count0 = hal_xpu_count();
    p->start = hal_time();
    lite_isa_start();
}

/* RESET: the program stops between two rows (lite_isa.c checks cp_prog.running). */
void cp_port_abort(void)
{
    if (cp_prog.running)
        lite_prog_end(PTPU_STATE_FAULT, PTPU_FAULT_ABORTED, lite_prog.pc, 0);
}

void cp_port_idle(void)
{
    lite_prog.nwin = 0;               /* windows closed */
    lite_prog.start = lite_prog.end;  /* cycles 0 */
}

/* ------------------------------------------------------------------ requests */

void cp_port_info(uint32_t p[17])
{
    static const uint32_t desc[] = { PTPU_RTL_VERSION, LITE_FW_VERSION, LITE_N, 0, LITE_UB_ROWS,
                                     LITE_WB_ROWS, LITE_ACC_ROWS, LITE_VP_ROWS, LITE_MEM_KB,
                                     LITE_MAX_PAYLOAD };
    memcpy(&p[2], desc, sizeof desc);
    memcpy(&p[13], LITE_CONFIG_NAME, sizeof LITE_CONFIG_NAME);
}

/* COUNTERS: the 15 counters, then one memory channel (its bytes since the RUN). */
void cp_port_counters(uint8_t seq)
{
    const struct lite_prog *p = &lite_prog;
    tx_begin(PTPU_PKT_COUNTERS | PTPU_LINK_RESPONSE_BIT, 0, seq, 8u * PTPU_NUM_COUNTERS + 4u + 16u);
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++) {
        uint64_t v = p->cnt[i];
        if (cp_prog.running && i == PTPU_CNT_CYCLES)
            v = cp_port_cycles();
        else if (cp_prog.running && i == PTPU_CNT_MXU_ROWS)
            v = hal_xpu_count() - p->xpu_count0;
        tx_word((uint32_t)v);
        tx_word((uint32_t)(v >> 32));
    }
    tx_word(1);
    uint64_t rd = p->ch_rd + p->cnt[PTPU_CNT_BYTES_READ], wr = p->ch_wr + p->cnt[PTPU_CNT_BYTES_WRITTEN];
    tx_word((uint32_t)rd);
    tx_word((uint32_t)(rd >> 32));
    tx_word((uint32_t)wr);
    tx_word((uint32_t)(wr >> 32));
    tx_end();
}

/* A frame with a good CRC: the checks and answers of docs/link.md, "What the engine answers". */
static void serve(uint8_t type, uint8_t seq, uint32_t len)
{
    const uint8_t *p = (const uint8_t *)rx_buf;
    if (type == PTPU_PKT_PING) {
        if (len > PTPU_MAILBOX_BYTES)
            cp_send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        else
            send_bytes(type, seq, p, len);
    } else if (type == PTPU_PKT_MEM_WRITE) {
        uint32_t addr = rx_buf[0], n = len - 4u;
        if (len < 5) {
            cp_send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        } else if ((uint64_t)addr + n > LITE_DEV_MEM_BYTES) {
            cp_send_error(type, seq, PTPU_STATUS_BAD_ADDRESS, addr);
        } else {
            lite_copy(LITE_DEV_MEM + addr, p + 4, n);
            lite_prog.ch_wr += n;
            cp_port_send(type, 0, seq, rx_buf, 0);
        }
    } else if (type == PTPU_PKT_MEM_READ) {
        uint32_t addr = rx_buf[0], n = rx_buf[1];
        if (len != 8) {
            cp_send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        } else if (n == 0 || n > LITE_MAX_PAYLOAD) {
            cp_send_error(type, seq, PTPU_STATUS_BAD_LENGTH, n);
        } else if ((uint64_t)addr + n > LITE_DEV_MEM_BYTES) {
            cp_send_error(type, seq, PTPU_STATUS_BAD_ADDRESS, addr);
        } else {
            lite_prog.ch_rd += n;
            send_bytes(type, seq, LITE_DEV_MEM + addr, n);
        }
    } else if (type == 0 || type == PTPU_PKT_NAK || (type & PTPU_LINK_RESPONSE_BIT)) {
        cp_send_error(type, seq, PTPU_STATUS_BAD_TYPE, type);
    } else if (len > PTPU_MAILBOX_BYTES) {
        cp_send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
    } else {
        cp_serve(type, seq, len, rx_buf);
    }
}

/* ------------------------------------------------------------------ receive */

/* Waits for the next byte: the byte, or -1 after PTPU_BYTE_TIMEOUT_CYCLES without one.
 * The gap is measured from when the wait started, which is no earlier than the previous
 * byte's arrival, so a frame is never dropped sooner than the full SoC's link engine
 * would drop it. */
static __attribute__((noinline)) int rx_byte_wait(void)
{
    uint32_t t0 = hal_time_lo();
    do {
        int b = hal_uart_rx();
        if (b >= 0)
            return b;
    } while (hal_time_lo() - t0 < PTPU_BYTE_TIMEOUT_CYCLES);
    return -1;
}

/* The next byte of a frame; the fast path (a byte is waiting) is one UART read. */
LITE_INLINE int rx_byte(void)
{
    int b = hal_uart_rx();
    return b >= 0 ? b : rx_byte_wait();
}

/* The rest of a frame whose SYNC has arrived.  A time-out drops it silently, LEN above
 * LITE_MAX_PAYLOAD gets NAK LENGTH (the caller then hunts for SYNC through the rest),
 * a bad CRC NAK CRC. */
static void rx_frame(void)
{
    for (int i = 0; i < 5; i++) {
        int b = rx_byte();
        if (b < 0)
            return;
        rx_hdr[i] = (uint8_t)b;
    }
    const uint32_t len = rx_hdr[3] | (uint32_t)rx_hdr[4] << 8;
    if (len > LITE_MAX_PAYLOAD) {
        send_nak(rx_hdr[2], PTPU_NAK_LENGTH);
        return;
    }
    /* The CRC runs along (about 40 of the 80 cycles a byte takes at 3 Mbaud and 24 MHz;
     * the RX FIFO absorbs any backlog), so the answer can start right after the frame. */
    uint8_t *p = (uint8_t *)rx_buf;
    uint32_t c = crc_bytes(~0u, rx_hdr, 5);
    for (uint32_t i = 0; i < len; i++) {
        int b = rx_byte();
        if (b < 0)
            return;
        p[i] = (uint8_t)b;
        c = crc_byte(c, (uint8_t)b);
    }
    uint32_t crc = 0;
    for (int i = 0; i < 4; i++) {
        int b = rx_byte();
        if (b < 0)
            return;
        crc |= (uint32_t)b << (8 * i);
    }
    if (~c != crc) {
        send_nak(rx_hdr[2], PTPU_NAK_CRC);
        return;
    }
    serve(rx_hdr[0], rx_hdr[2], len);
}

/* ------------------------------------------------------------------ main loop */

void lite_init(void)
{
    memset(&lite_prog, 0, sizeof lite_prog);
    cp_init(LITE_DEV_MEM_BYTES, LITE_NUM_WINDOWS);
}

void lite_yield(void)
{
    int b;
    while ((b = hal_uart_rx()) >= 0)
        if (b == PTPU_LINK_SYNC)   /* other bytes between frames are skipped */
            rx_frame();
    cp_wait_poll();
}

void lite_poll(void)
{
    lite_yield();
    struct lite_prog *p = &lite_prog;
    if (!cp_prog.running)
        return;
    if (p->timeout && hal_time() - p->start >= p->timeout)
        lite_prog_end(PTPU_STATE_FAULT, PTPU_FAULT_TIMEOUT, p->pc, 0);
    else
        lite_isa_step();
    if (!cp_prog.running)   /* ended: answer a deferred WAIT now */
        cp_wait_poll();
}

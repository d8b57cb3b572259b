/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lite_link.c - the picotpu-lite link protocol and command processor: what tpu_link and
 * fw/src/cp/cmdproc.c do in the full SoC, as far as a host can observe (docs/isa.md
 * "Link protocol" and "Link packets", docs/link.md), over the plain UART of lite_hal.h.
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

static struct {
    /* deferred WAIT */
    bool wait_pending, wait_deadline;
    uint8_t wait_seq;
    uint64_t wait_until;
    /* the previous firmware request and the response to the previous RUN */
    bool have_prev;
    uint8_t prev_type, prev_seq;
    uint8_t run_flags;
    uint32_t run_len, run_rsp[2];
    uint32_t tx_crc;
} g;

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
    g.tx_crc = crc_byte(g.tx_crc, b);
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
    g.tx_crc = ~0u;
    tx_byte(type);
    tx_byte(flags);
    tx_byte(seq);
    tx_byte((uint8_t)len);
    tx_byte((uint8_t)(len >> 8));
}

static void tx_end(void)
{
    uint32_t c = ~g.tx_crc;
    for (int i = 0; i < 4; i++, c >>= 8)
        hal_uart_tx((uint8_t)c);
}

/* A response (TYPE | 0x80) with a payload of words. */
static void send(uint8_t type, uint8_t flags, uint8_t seq, const uint32_t *p, uint32_t nwords)
{
    tx_begin(type | PTPU_LINK_RESPONSE_BIT, flags, seq, 4u * nwords);
    for (uint32_t i = 0; i < nwords; i++)
        tx_word(p[i]);
    tx_end();
}

static void send_error(uint8_t type, uint8_t seq, uint32_t status, uint32_t detail)
{
    uint32_t p[2] = { status, detail };
    send(type, PTPU_FLAG_ERR, seq, p, 2);
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

static uint64_t prog_cycles(void)
{
    return (lite_prog.running ? hal_time() : lite_prog.end) - lite_prog.start;
}

void lite_prog_end(uint32_t state, uint32_t fault, uint32_t pc, uint32_t addr)
{
    struct lite_prog *p = &lite_prog;
    p->end = hal_time();
    p->running = false;
    p->cnt[PTPU_CNT_CYCLES] = p->end - p->start;
    p->cnt[PTPU_CNT_MXU_ROWS] = hal_xpu_count() - p->xpu_count0;
    p->state = state;
    p->fault = fault;
    p->fault_pc = pc;
    p->fault_addr = addr;
}

/* STATUS and WAIT: u32 state, fault, fault pc, fault address, u64 cycles. */
static void send_status(uint8_t type, uint8_t seq)
{
    uint64_t c = prog_cycles();
    uint32_t p[6] = { lite_prog.state, lite_prog.fault, lite_prog.fault_pc, lite_prog.fault_addr,
                      (uint32_t)c, (uint32_t)(c >> 32) };
    send(type, 0, seq, p, 6);
}

static void wait_answer(void)
{
    g.wait_pending = false;
    send_status(PTPU_PKT_WAIT, g.wait_seq);
}

/* ------------------------------------------------------------------ requests */

/* RUN rejection details (BAD_PROGRAM), as fw/src/cp/cmdproc.c. */
enum {
    RUN_MISALIGNED = 1, RUN_EMPTY = 2, RUN_OUTSIDE_MEMORY = 3, RUN_BAD_WINDOW = 4,
    RUN_NOT_READABLE = 5, RUN_WINDOW_COUNT = 6,
};

static void do_run(uint8_t seq, uint32_t len)
{
    const uint32_t *rx = rx_buf;
    uint32_t status = PTPU_STATUS_OK, detail = 0;
    uint32_t addr = rx[0], n = rx[1], nw = rx[3];
    uint64_t end = (uint64_t)addr + (uint64_t)n * PTPU_INSTR_BYTES;

    if (len < 16 || (len - 16) % 12 != 0 || len != 16 + 12 * nw) {
        status = PTPU_STATUS_BAD_LENGTH;
        detail = len;
    } else if (lite_prog.running) {
        status = PTPU_STATUS_BUSY;
    } else if (nw < 1 || nw > LITE_NUM_WINDOWS) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_WINDOW_COUNT;
    } else if (addr % PTPU_INSTR_BYTES) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_MISALIGNED;
    } else if (n == 0) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_EMPTY;
    } else if (end > LITE_DEV_MEM_BYTES) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_OUTSIDE_MEMORY;
    } else {
        bool readable = false;
        for (uint32_t w = 0; w < nw && !status; w++) {
            uint32_t base = rx[4 + 3 * w], limit = rx[5 + 3 * w], perm = rx[6 + 3 * w];
            if (base >= limit || limit > LITE_DEV_MEM_BYTES || (perm & ~3u)) {
                status = PTPU_STATUS_BAD_PROGRAM;
                detail = RUN_BAD_WINDOW | (w << 8);
            } else if ((perm & PTPU_PERM_READ) && base <= addr && end <= limit) {
                readable = true;
            }
        }
        if (!status && !readable) {
            status = PTPU_STATUS_BAD_PROGRAM;
            detail = RUN_NOT_READABLE;
        }
    }

    if (status == PTPU_STATUS_OK) {
        struct lite_prog *p = &lite_prog;
        memcpy(p->win, rx + 4, 12 * nw);
        p->nwin = nw;
        p->addr = addr;
        p->len = n;
        p->pc = 0;
        p->timeout = rx[2];
        memset(p->cnt, 0, sizeof p->cnt);
        p->ch_rd = p->ch_wr = 0;
        p->xpu_count0 = hal_xpu_count();
        p->state = PTPU_STATE_RUNNING;
        p->fault = p->fault_pc = p->fault_addr = 0;
        p->start = hal_time();
        p->running = true;
        lite_isa_start();
        g.run_flags = 0;
        g.run_len = 0;
    } else {
        g.run_flags = PTPU_FLAG_ERR;
        g.run_len = 2;
        g.run_rsp[0] = status;
        g.run_rsp[1] = detail;
    }
    send(PTPU_PKT_RUN, g.run_flags, seq, g.run_rsp, g.run_len);
}

static void do_info(uint8_t seq)
{
    uint32_t p[17] = { PTPU_ID_MAGIC, PTPU_PROTOCOL_VERSION, PTPU_RTL_VERSION, LITE_FW_VERSION,
                       LITE_N, 0, LITE_UB_ROWS, LITE_WB_ROWS, LITE_ACC_ROWS, LITE_VP_ROWS,
                       LITE_MEM_KB, LITE_MAX_PAYLOAD, LITE_NUM_WINDOWS };
    memcpy(&p[13], LITE_CONFIG_NAME, sizeof LITE_CONFIG_NAME);
    send(PTPU_PKT_INFO, 0, seq, p, 17);
}

static void do_wait(uint8_t seq)
{
    if (g.wait_pending)        /* a newer WAIT replaces it: answer the old one now */
        wait_answer();
    g.wait_seq = seq;
    if (!lite_prog.running) {
        send_status(PTPU_PKT_WAIT, seq);
        return;
    }
    g.wait_pending = true;
    g.wait_deadline = rx_buf[0] != 0;
    g.wait_until = hal_time() + rx_buf[0];
}

/* COUNTERS: the 15 counters, then one memory channel (its bytes since the RUN). */
static void do_counters(uint8_t seq)
{
    const struct lite_prog *p = &lite_prog;
    tx_begin(PTPU_PKT_COUNTERS | PTPU_LINK_RESPONSE_BIT, 0, seq, 8u * PTPU_NUM_COUNTERS + 4u + 16u);
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++) {
        uint64_t v = p->cnt[i];
        if (p->running && i == PTPU_CNT_CYCLES)
            v = prog_cycles();
        else if (p->running && i == PTPU_CNT_MXU_ROWS)
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

static void do_reset(uint8_t seq)
{
    struct lite_prog *p = &lite_prog;
    if (p->running)
        lite_prog_end(PTPU_STATE_FAULT, PTPU_FAULT_ABORTED, p->pc, 0);
    if (g.wait_pending)
        wait_answer();
    p->nwin = 0;                 /* windows closed */
    p->state = PTPU_STATE_IDLE;
    p->fault = p->fault_pc = p->fault_addr = 0;
    p->start = p->end;           /* cycles 0 */
    send(PTPU_PKT_RESET, 0, seq, rx_buf, 0);
}

/* The requests the full SoC's firmware serves (through the mailbox there). */
static void serve_fw(uint8_t type, uint8_t seq, uint32_t len)
{
    /* A resent RUN (same SEQ as the previous request) gets the previous response. */
    bool resend = type == PTPU_PKT_RUN && g.have_prev && g.prev_type == PTPU_PKT_RUN && g.prev_seq == seq;
    g.have_prev = true;
    g.prev_type = type;
    g.prev_seq = seq;
    if (resend) {
        send(PTPU_PKT_RUN, g.run_flags, seq, g.run_rsp, g.run_len);
        return;
    }
    uint32_t want = 0;
    switch (type) {
    case PTPU_PKT_INFO: case PTPU_PKT_STATUS: case PTPU_PKT_COUNTERS: case PTPU_PKT_RESET:
        break;
    case PTPU_PKT_WAIT:
        want = 4;
        break;
    case PTPU_PKT_RUN:
        do_run(seq, len);
        return;
    default:
        send_error(type, seq, PTPU_STATUS_BAD_TYPE, type);
        return;
    }
    if (len != want) {
        send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        return;
    }
    switch (type) {
    case PTPU_PKT_INFO: do_info(seq); break;
    case PTPU_PKT_STATUS: send_status(PTPU_PKT_STATUS, seq); break;
    case PTPU_PKT_WAIT: do_wait(seq); break;
    case PTPU_PKT_COUNTERS: do_counters(seq); break;
    default: do_reset(seq); break;
    }
}

/* A frame with a good CRC: the checks and answers of docs/link.md, "What the engine answers". */
static void serve(uint8_t type, uint8_t seq, uint32_t len)
{
    const uint8_t *p = (const uint8_t *)rx_buf;
    if (type == PTPU_PKT_PING) {
        if (len > PTPU_MAILBOX_BYTES)
            send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        else
            send_bytes(type, seq, p, len);
    } else if (type == PTPU_PKT_MEM_WRITE) {
        uint32_t addr = rx_buf[0], n = len - 4u;
        if (len < 5) {
            send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        } else if ((uint64_t)addr + n > LITE_DEV_MEM_BYTES) {
            send_error(type, seq, PTPU_STATUS_BAD_ADDRESS, addr);
        } else {
            lite_copy(LITE_DEV_MEM + addr, p + 4, n);
            lite_prog.ch_wr += n;
            send(type, 0, seq, rx_buf, 0);
        }
    } else if (type == PTPU_PKT_MEM_READ) {
        uint32_t addr = rx_buf[0], n = rx_buf[1];
        if (len != 8) {
            send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        } else if (n == 0 || n > LITE_MAX_PAYLOAD) {
            send_error(type, seq, PTPU_STATUS_BAD_LENGTH, n);
        } else if ((uint64_t)addr + n > LITE_DEV_MEM_BYTES) {
            send_error(type, seq, PTPU_STATUS_BAD_ADDRESS, addr);
        } else {
            lite_prog.ch_rd += n;
            send_bytes(type, seq, LITE_DEV_MEM + addr, n);
        }
    } else if (type == 0 || type == PTPU_PKT_NAK || (type & PTPU_LINK_RESPONSE_BIT)) {
        send_error(type, seq, PTPU_STATUS_BAD_TYPE, type);
    } else if (len > PTPU_MAILBOX_BYTES) {
        send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
    } else {
        serve_fw(type, seq, len);
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
    memset(&g, 0, sizeof g);
    memset(&lite_prog, 0, sizeof lite_prog);
    lite_prog.state = PTPU_STATE_IDLE;
}

void lite_yield(void)
{
    int b;
    while ((b = hal_uart_rx()) >= 0)
        if (b == PTPU_LINK_SYNC)   /* other bytes between frames are skipped */
            rx_frame();
    if (g.wait_pending && !lite_prog.running)
        wait_answer();
    if (g.wait_pending && g.wait_deadline && hal_time() >= g.wait_until)
        wait_answer();
}

void lite_poll(void)
{
    lite_yield();
    struct lite_prog *p = &lite_prog;
    if (!p->running)
        return;
    if (p->timeout && hal_time() - p->start >= p->timeout)
        lite_prog_end(PTPU_STATE_FAULT, PTPU_FAULT_TIMEOUT, p->pc, 0);
    else
        lite_isa_step();
    if (g.wait_pending && !p->running)
        wait_answer();
}

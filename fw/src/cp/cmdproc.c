/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmdproc.c - the command processor: serves the link requests that the link engine
 * passes to the mailbox (INFO, RUN, STATUS, WAIT, COUNTERS, RESET), launches programs on
 * the accelerator, watches them (completion, faults, the per-RUN watchdog) and answers.
 *
 * A polling loop, no interrupts: each turn looks at the running program, the deferred
 * WAIT, the mailbox and the channel byte counters.  docs/firmware.md describes it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ptpu_fw.h"
#include "ptpu_isa.h"
#include "ptpu_soc.h"

#define FW_VERSION 0x00010000u     /* major.minor.patch as 0x00MMmmpp */
#define MAX_CH 16
#define MAX_WIN 16
#define MBOX_WORDS (PTPU_MAILBOX_BYTES / 4)
#define CH_POLL_CYCLES (1u << 24)  /* < 2^32 bytes / (32 bytes * 2 per cycle): no wrap missed */
#define ABORT_SPIN 1000000u        /* register polls before an abort is declared stuck */

/* RUN rejection details (BAD_PROGRAM): check number, window index in bits 15:8. */
enum {
    RUN_MISALIGNED = 1,            /* program address not 32-byte aligned */
    RUN_EMPTY = 2,                 /* zero instructions */
    RUN_OUTSIDE_MEMORY = 3,        /* program past the end of device memory */
    RUN_BAD_WINDOW = 4,            /* base >= limit, limit past memory, unknown permission bits */
    RUN_NOT_READABLE = 5,          /* program not inside one readable window */
    RUN_WINDOW_COUNT = 6,          /* W = 0 or more than NUM_WINDOWS */
};

static struct {
    /* device description, read once */
    uint64_t mem_bytes;
    uint32_t num_windows, nch;
    /* the last program */
    uint32_t state, fault, fault_pc, fault_addr;
    uint64_t cycles;
    bool running, timed_out, aborting;
    uint64_t start, timeout;
    /* deferred WAIT */
    bool wait_pending, wait_deadline;
    uint8_t wait_seq;
    uint64_t wait_until;
    /* the previous request and the response to the previous RUN */
    bool have_prev;
    uint8_t prev_type, prev_seq;
    uint8_t run_flags;
    uint32_t run_len, run_rsp[2];
    /* channel bytes since the last RUN started */
    uint64_t ch_rd[MAX_CH], ch_wr[MAX_CH];
    uint32_t ch_rd_last[MAX_CH], ch_wr_last[MAX_CH];
    uint64_t ch_next_poll;
} cp;

static uint32_t rx[MBOX_WORDS];
static uint32_t tx[MBOX_WORDS];

static uint64_t now(void)
{
    uint32_t hi, lo;
    do {
        hi = PTPU_MMIO(PTPU_PLATFORM_MTIME_HI);
        lo = PTPU_MMIO(PTPU_PLATFORM_MTIME_LO);
    } while (hi != PTPU_MMIO(PTPU_PLATFORM_MTIME_HI));
    return ((uint64_t)hi << 32) | lo;
}

static uint64_t counter(int i)
{
    uint32_t lo = PTPU_MMIO(PTPU_CNT_CNT0_LO + 8u * (uint32_t)i);  /* latches the high word */
    uint32_t hi = PTPU_MMIO(PTPU_CNT_CNT0_HI + 8u * (uint32_t)i);
    return ((uint64_t)hi << 32) | lo;
}

/* ------------------------------------------------------------------ channel byte counters */

static void ch_poll(void)
{
    for (uint32_t c = 0; c < cp.nch; c++) {
        uint32_t r = PTPU_MMIO(PTPU_CNT_CH_RD_BYTES0 + 8u * c);
        uint32_t w = PTPU_MMIO(PTPU_CNT_CH_WR_BYTES0 + 8u * c);
        cp.ch_rd[c] += (uint32_t)(r - cp.ch_rd_last[c]);
        cp.ch_wr[c] += (uint32_t)(w - cp.ch_wr_last[c]);
        cp.ch_rd_last[c] = r;
        cp.ch_wr_last[c] = w;
    }
    cp.ch_next_poll = now() + CH_POLL_CYCLES;
}

static void ch_restart(void)
{
    ch_poll();
    memset(cp.ch_rd, 0, sizeof cp.ch_rd);
    memset(cp.ch_wr, 0, sizeof cp.ch_wr);
}

/* ------------------------------------------------------------------ responses */

static void send(uint8_t type, uint8_t flags, uint8_t seq, const uint32_t *payload, uint32_t len)
{
    while (PTPU_MMIO(PTPU_LINK_TX_STATUS) & 1u)
        ;
    for (uint32_t i = 0; i < (len + 3) / 4; i++)
        PTPU_MMIO(PTPU_LINK_TX_BUF + 4u * i) = payload[i];
    PTPU_MMIO(PTPU_LINK_TX_HDR) = (uint32_t)(type | PTPU_LINK_RESPONSE_BIT) | ((uint32_t)flags << 8) |
                                  ((uint32_t)seq << 16);
    PTPU_MMIO(PTPU_LINK_TX_LEN) = len;
    PTPU_MMIO(PTPU_LINK_TX_SEND) = 1;
}

static void send_error(uint8_t type, uint8_t seq, uint32_t status, uint32_t detail)
{
    uint32_t p[2] = { status, detail };
    send(type, PTPU_FLAG_ERR, seq, p, 8);
}

static void put64(uint32_t *p, uint64_t v)
{
    p[0] = (uint32_t)v;
    p[1] = (uint32_t)(v >> 32);
}

static void send_status(uint8_t type, uint8_t seq)
{
    uint32_t p[6] = { cp.state, cp.fault, cp.fault_pc, cp.fault_addr, 0, 0 };
    put64(&p[4], cp.running ? counter(PTPU_CNT_CYCLES) : cp.cycles);
    send(type, 0, seq, p, 24);
}

/* ------------------------------------------------------------------ the program */

static void program_ended(uint32_t st)
{
    cp.running = false;
    cp.aborting = false;
    cp.cycles = counter(PTPU_CNT_CYCLES);
    if (st & PTPU_TPU_STATUS_FAULT) {
        cp.state = PTPU_STATE_FAULT;
        cp.fault = PTPU_MMIO(PTPU_TPU_FAULT_CODE);
        cp.fault_pc = PTPU_MMIO(PTPU_TPU_FAULT_PC);
        cp.fault_addr = PTPU_MMIO(PTPU_TPU_FAULT_ADDR);
        if (cp.timed_out)
            cp.fault = PTPU_FAULT_TIMEOUT;
    } else {
        cp.state = PTPU_STATE_DONE;
        cp.fault = PTPU_FAULT_NONE;
        cp.fault_pc = 0;
        cp.fault_addr = 0;
    }
}

/* Looks at the running program: ended, or past its time-out (then aborted). */
static void program_poll(void)
{
    if (!cp.running)
        return;
    uint32_t st = PTPU_MMIO(PTPU_TPU_STATUS);
    if (!(st & PTPU_TPU_STATUS_BUSY)) {
        program_ended(st);
        return;
    }
    if (cp.timeout && !cp.aborting && now() - cp.start >= cp.timeout) {
        cp.timed_out = true;
        cp.aborting = true;
        PTPU_MMIO(PTPU_TPU_CTRL) = PTPU_CTRL_ABORT;
    }
}

/* Stops a running program and waits until the engines have drained. */
static void program_abort(void)
{
    if (!cp.running)
        return;
    PTPU_MMIO(PTPU_TPU_CTRL) = PTPU_CTRL_ABORT;
    cp.aborting = true;
    for (uint32_t i = 0; i < ABORT_SPIN; i++) {
        uint32_t st = PTPU_MMIO(PTPU_TPU_STATUS);
        if (!(st & PTPU_TPU_STATUS_BUSY)) {
            program_ended(st);
            return;
        }
    }
    ptpu_puts("cp: abort did not stop the accelerator\n");
}

static void windows_close(void)
{
    for (uint32_t w = 0; w < cp.num_windows; w++) {
        PTPU_MMIO(PTPU_TPU_WIN_PERM0 + PTPU_WIN_STRIDE * w) = 0;
        PTPU_MMIO(PTPU_TPU_WIN_BASE0 + PTPU_WIN_STRIDE * w) = 0;
        PTPU_MMIO(PTPU_TPU_WIN_LIMIT0 + PTPU_WIN_STRIDE * w) = 0;
    }
}

/* ------------------------------------------------------------------ requests */

static void do_info(uint8_t seq)
{
    uint32_t *p = tx;
    p[0] = PTPU_ID_MAGIC;
    p[1] = PTPU_PROTOCOL_VERSION;
    p[2] = PTPU_MMIO(PTPU_TPU_RTL_VERSION);
    p[3] = FW_VERSION;
    uint32_t arr = PTPU_MMIO(PTPU_TPU_ARRAY);
    p[4] = arr & 0xffffu;
    p[5] = (arr >> 16) & 1u;
    p[6] = PTPU_MMIO(PTPU_TPU_UB_ROWS);
    p[7] = PTPU_MMIO(PTPU_TPU_WB_ROWS);
    p[8] = PTPU_MMIO(PTPU_TPU_ACC_ROWS);
    p[9] = PTPU_MMIO(PTPU_TPU_VP_ROWS);
    p[10] = PTPU_MMIO(PTPU_TPU_MEM_KB);
    p[11] = PTPU_MMIO(PTPU_TPU_MAX_PAYLOAD);
    p[12] = cp.num_windows;
    for (uint32_t i = 0; i < 4; i++)
        p[13 + i] = PTPU_MMIO(PTPU_TPU_CONFIG_NAME + 4u * i);
    send(PTPU_PKT_INFO, 0, seq, p, 68);
}

/* RUN: validate, program the windows, start.  The response is also kept for a resend. */
static void do_run(uint8_t seq, uint32_t len)
{
    uint32_t status = PTPU_STATUS_OK, detail = 0;
    uint32_t addr = rx[0], n = rx[1], timeout = rx[2], nw = rx[3];
    uint64_t end = (uint64_t)addr + (uint64_t)n * PTPU_INSTR_BYTES;

    if (len < 16 || (len - 16) % 12 != 0 || len != 16 + 12 * nw) {
        status = PTPU_STATUS_BAD_LENGTH;
        detail = len;
    } else if (cp.running) {
        status = PTPU_STATUS_BUSY;
    } else if (nw < 1 || nw > cp.num_windows) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_WINDOW_COUNT;
    } else if (addr % PTPU_INSTR_BYTES) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_MISALIGNED;
    } else if (n == 0) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_EMPTY;
    } else if (end > cp.mem_bytes) {
        status = PTPU_STATUS_BAD_PROGRAM;
        detail = RUN_OUTSIDE_MEMORY;
    } else {
        bool readable = false;
        for (uint32_t w = 0; w < nw && !status; w++) {
            uint32_t base = rx[4 + 3 * w], limit = rx[5 + 3 * w], perm = rx[6 + 3 * w];
            if (base >= limit || limit > cp.mem_bytes || (perm & ~3u)) {
                status = PTPU_STATUS_BAD_PROGRAM;
                detail = RUN_BAD_WINDOW | (w << 8);
            } else if ((perm & PTPU_WIN_PERM_READ) && base <= addr && end <= limit) {
                readable = true;
            }
        }
        if (!status && !readable) {
            status = PTPU_STATUS_BAD_PROGRAM;
            detail = RUN_NOT_READABLE;
        }
    }

    if (status == PTPU_STATUS_OK) {
        for (uint32_t w = 0; w < cp.num_windows; w++) {
            uint32_t base = 0, limit = 0, perm = 0;
            if (w < nw) {
                base = rx[4 + 3 * w];
                limit = rx[5 + 3 * w];
                perm = rx[6 + 3 * w];
            }
            PTPU_MMIO(PTPU_TPU_WIN_BASE0 + PTPU_WIN_STRIDE * w) = base;
            PTPU_MMIO(PTPU_TPU_WIN_LIMIT0 + PTPU_WIN_STRIDE * w) = limit;
            PTPU_MMIO(PTPU_TPU_WIN_PERM0 + PTPU_WIN_STRIDE * w) = perm;
        }
        PTPU_MMIO(PTPU_TPU_PROG_ADDR) = addr;
        PTPU_MMIO(PTPU_TPU_PROG_LEN) = n;
        ch_restart();
        cp.start = now();
        cp.timeout = timeout;
        cp.timed_out = false;
        cp.aborting = false;
        cp.running = true;
        cp.state = PTPU_STATE_RUNNING;
        cp.fault = cp.fault_pc = cp.fault_addr = 0;
        cp.cycles = 0;
        PTPU_MMIO(PTPU_TPU_CTRL) = PTPU_CTRL_START;
        cp.run_flags = 0;
        cp.run_len = 0;
    } else {
        cp.run_flags = PTPU_FLAG_ERR;
        cp.run_len = 8;
        cp.run_rsp[0] = status;
        cp.run_rsp[1] = detail;
    }
    send(PTPU_PKT_RUN, cp.run_flags, seq, cp.run_rsp, cp.run_len);
}

static void wait_answer(void)
{
    cp.wait_pending = false;
    send_status(PTPU_PKT_WAIT, cp.wait_seq);
}

static void do_wait(uint8_t seq)
{
    if (cp.wait_pending)        /* a newer WAIT replaces it: answer the old one now */
        wait_answer();
    program_poll();
    cp.wait_seq = seq;
    if (!cp.running) {
        send_status(PTPU_PKT_WAIT, seq);
        return;
    }
    cp.wait_pending = true;
    cp.wait_deadline = rx[0] != 0;
    cp.wait_until = now() + rx[0];
}

static void do_counters(uint8_t seq)
{
    uint32_t *p = tx;
    int k = 0;
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++, k += 2)
        put64(&p[k], counter(i));
    ch_poll();
    /* As many channels as fit in the mailbox after the counters and the count. */
    uint32_t fit = (PTPU_MAILBOX_BYTES - 4u * (uint32_t)k - 4u) / 16u;
    uint32_t c_n = cp.nch < fit ? cp.nch : fit;
    p[k++] = c_n;
    for (uint32_t c = 0; c < c_n; c++, k += 4) {
        put64(&p[k], cp.ch_rd[c]);
        put64(&p[k + 2], cp.ch_wr[c]);
    }
    send(PTPU_PKT_COUNTERS, 0, seq, p, 4u * (uint32_t)k);
}

static void do_reset(uint8_t seq)
{
    program_abort();
    if (cp.wait_pending)
        wait_answer();
    windows_close();
    cp.running = false;
    cp.state = PTPU_STATE_IDLE;
    cp.fault = cp.fault_pc = cp.fault_addr = 0;
    cp.cycles = 0;
    send(PTPU_PKT_RESET, 0, seq, tx, 0);
}

static void serve(void)
{
    uint32_t hdr = PTPU_MMIO(PTPU_LINK_RX_HDR);
    uint32_t len = PTPU_MMIO(PTPU_LINK_RX_LEN);
    uint8_t type = (uint8_t)hdr, seq = (uint8_t)(hdr >> 16);
    if (len > PTPU_MAILBOX_BYTES)
        len = PTPU_MAILBOX_BYTES;
    for (uint32_t i = 0; i < (len + 3) / 4; i++)
        rx[i] = PTPU_MMIO(PTPU_LINK_RX_BUF + 4u * i);
    PTPU_MMIO(PTPU_LINK_RX_DONE) = 1;

    /* A resent RUN (same SEQ as the previous request) gets the previous response. */
    bool resend = type == PTPU_PKT_RUN && cp.have_prev && cp.prev_type == PTPU_PKT_RUN && cp.prev_seq == seq;
    cp.have_prev = true;
    cp.prev_type = type;
    cp.prev_seq = seq;
    if (resend) {
        send(PTPU_PKT_RUN, cp.run_flags, seq, cp.run_rsp, cp.run_len);
        return;
    }

    program_poll();
    uint32_t want = 0;   /* payload length of the fixed-size requests */
    switch (type) {
    case PTPU_PKT_INFO: case PTPU_PKT_STATUS: case PTPU_PKT_COUNTERS: case PTPU_PKT_RESET:
        want = 0;
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

int main(void)
{
    cp.mem_bytes = (uint64_t)PTPU_MMIO(PTPU_TPU_MEM_KB) * 1024u;
    cp.num_windows = PTPU_MMIO(PTPU_TPU_NUM_WINDOWS);
    if (cp.num_windows > MAX_WIN)
        cp.num_windows = MAX_WIN;
    cp.nch = PTPU_MMIO(PTPU_PLATFORM_SOC_INFO) & 0xffu;
    if (cp.nch > MAX_CH)
        cp.nch = MAX_CH;
    cp.state = PTPU_STATE_IDLE;
    windows_close();
    ch_restart();

    uint32_t name[5] = { 0 };
    for (uint32_t i = 0; i < 4; i++)
        name[i] = PTPU_MMIO(PTPU_TPU_CONFIG_NAME + 4u * i);
    ptpu_puts("picotpu command processor ");
    ptpu_puthex(FW_VERSION);
    ptpu_puts(" on ");
    ptpu_puts((const char *)name);
    ptpu_puts("\n");

    for (;;) {
        program_poll();
        if (cp.wait_pending && (!cp.running || (cp.wait_deadline && now() >= cp.wait_until)))
            wait_answer();
        if (PTPU_MMIO(PTPU_LINK_RX_STATUS) & 1u)
            serve();
        if (now() >= cp.ch_next_poll)
            ch_poll();
    }
}

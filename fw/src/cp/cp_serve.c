/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp_serve.c - the command layer of both command processors (fw/include/ptpu_cp.h): the
 * dispatch of the firmware's requests, their length checks, the RUN validation, RUN
 * dedup by SEQ, the deferred WAIT and RESET.  docs/firmware.md describes the answers.
 * Compiled into the full SoC's firmware (fw/fw_cp.mk) and the lite's (fw/lite/lite.mk).
 */
#include <stddef.h>
#include <string.h>

#include "ptpu_cp.h"
#include "picotpu_isa.h"

#define WIN_PERM_READ 1u           /* RUN window permission bits: 0 read, 1 write */

/* RUN rejection details (BAD_PROGRAM): check number, window index in bits 15:8. */
enum {
    RUN_MISALIGNED = 1,            /* program address not 32-byte aligned */
    RUN_EMPTY = 2,                 /* zero instructions */
    RUN_OUTSIDE_MEMORY = 3,        /* program past the end of device memory */
    RUN_BAD_WINDOW = 4,            /* base >= limit, limit past memory, unknown permission bits */
    RUN_NOT_READABLE = 5,          /* program not inside one readable window */
    RUN_WINDOW_COUNT = 6,          /* W = 0 or more than NUM_WINDOWS */
};

struct cp_prog cp_prog;

static struct {
    uint64_t mem_bytes;
    uint32_t num_windows;
    /* deferred WAIT */
    bool wait_pending, wait_deadline;
    uint8_t wait_seq;
    uint64_t wait_until;
    /* the previous request and the response to the previous RUN */
    bool have_prev;
    uint8_t prev_type, prev_seq;
    uint8_t run_flags;
    uint32_t run_len, run_rsp[2];
} g;

void cp_init(uint64_t mem_bytes, uint32_t num_windows)
{
    memset(&g, 0, sizeof g);
    g.mem_bytes = mem_bytes;
    g.num_windows = num_windows;
    memset(&cp_prog, 0, sizeof cp_prog);
    cp_prog.state = PTPU_STATE_IDLE;
}

void cp_send_error(uint8_t type, uint8_t seq, uint32_t status, uint32_t detail)
{
    uint32_t p[2] = { status, detail };
    cp_port_send(type, PTPU_FLAG_ERR, seq, p, 8);
}

/* STATUS and WAIT: u32 state, fault, fault pc, fault address, u64 cycles. */
static void send_status(uint8_t type, uint8_t seq)
{
    uint64_t c = cp_port_cycles();
    uint32_t p[6] = { cp_prog.state, cp_prog.fault, cp_prog.fault_pc, cp_prog.fault_addr,
                      (uint32_t)c, (uint32_t)(c >> 32) };
    cp_port_send(type, 0, seq, p, 24);
}

static void wait_answer(void)
{
    g.wait_pending = false;
    send_status(PTPU_PKT_WAIT, g.wait_seq);
}

void cp_wait_poll(void)
{
    if (g.wait_pending && (!cp_prog.running || (g.wait_deadline && cp_port_time() >= g.wait_until)))
        wait_answer();
}

/* The RUN checks in the order of docs/firmware.md: PTPU_STATUS_OK, or the status with
 * *detail. */
static uint32_t run_check(const uint32_t *rx, uint32_t len, uint32_t *detail)
{
    uint32_t addr = rx[0], n = rx[1], nw = rx[3];
    uint64_t end = (uint64_t)addr + (uint64_t)n * PTPU_INSTR_BYTES;

    if (len < 16 || (len - 16) % 12 != 0 || len != 16 + 12 * nw) {
        *detail = len;
        return PTPU_STATUS_BAD_LENGTH;
    }
    if (cp_prog.running)
        return PTPU_STATUS_BUSY;
    if (nw < 1 || nw > g.num_windows)
        *detail = RUN_WINDOW_COUNT;
    else if (addr % PTPU_INSTR_BYTES)
        *detail = RUN_MISALIGNED;
    else if (n == 0)
        *detail = RUN_EMPTY;
    else if (end > g.mem_bytes)
        *detail = RUN_OUTSIDE_MEMORY;
    else {
        bool readable = false;
        for (uint32_t w = 0; w < nw; w++) {
            uint32_t base = rx[4 + 3 * w], limit = rx[5 + 3 * w], perm = rx[6 + 3 * w];
            if (base >= limit || limit > g.mem_bytes || (perm & ~3u)) {
                *detail = RUN_BAD_WINDOW | (w << 8);
                return PTPU_STATUS_BAD_PROGRAM;
            }
            if ((perm & WIN_PERM_READ) && base <= addr && end <= limit)
                readable = true;
        }
        if (readable)
            return PTPU_STATUS_OK;
        *detail = RUN_NOT_READABLE;
    }
    return PTPU_STATUS_BAD_PROGRAM;
}

/* RUN: validate, start.  The response is also kept for a resend. */
static void do_run(uint8_t seq, uint32_t len, const uint32_t *rx)
{
    uint32_t detail = 0;
    uint32_t status = run_check(rx, len, &detail);
    if (status == PTPU_STATUS_OK) {
        cp_prog = (struct cp_prog){ .running = true, .state = PTPU_STATE_RUNNING };
        cp_port_start(rx[0], rx[1], rx[2], rx[3], rx + 4);
        g.run_flags = 0;
        g.run_len = 0;
    } else {
        g.run_flags = PTPU_FLAG_ERR;
        g.run_len = 8;
        g.run_rsp[0] = status;
        g.run_rsp[1] = detail;
    }
    cp_port_send(PTPU_PKT_RUN, g.run_flags, seq, g.run_rsp, g.run_len);
}

static void do_info(uint8_t seq)
{
    uint32_t p[17] = { PTPU_ID_MAGIC, PTPU_PROTOCOL_VERSION };
    p[12] = g.num_windows;
    cp_port_info(p);
    cp_port_send(PTPU_PKT_INFO, 0, seq, p, 68);
}

static void do_wait(uint8_t seq, uint32_t timeout)
{
    if (g.wait_pending)        /* a newer WAIT replaces it: answer the old one now */
        wait_answer();
    cp_port_poll();
    g.wait_seq = seq;
    if (!cp_prog.running) {
        send_status(PTPU_PKT_WAIT, seq);
        return;
    }
    g.wait_pending = true;
    g.wait_deadline = timeout != 0;
    g.wait_until = cp_port_time() + timeout;
}

static void do_reset(uint8_t seq)
{
    cp_port_abort();
    if (g.wait_pending)
        wait_answer();
    cp_port_idle();
    cp_prog = (struct cp_prog){ .state = PTPU_STATE_IDLE };
    cp_port_send(PTPU_PKT_RESET, 0, seq, NULL, 0);
}

void cp_serve(uint8_t type, uint8_t seq, uint32_t len, const uint32_t *rx)
{
    /* A resent RUN (same SEQ as the previous request) gets the previous response. */
    bool resend = type == PTPU_PKT_RUN && g.have_prev && g.prev_type == PTPU_PKT_RUN && g.prev_seq == seq;
    g.have_prev = true;
    g.prev_type = type;
    g.prev_seq = seq;
    if (resend) {
        cp_port_send(PTPU_PKT_RUN, g.run_flags, seq, g.run_rsp, g.run_len);
        return;
    }

    cp_port_poll();
    uint32_t want = 0;   /* payload length of the fixed-size requests */
    switch (type) {
    case PTPU_PKT_INFO: case PTPU_PKT_STATUS: case PTPU_PKT_COUNTERS: case PTPU_PKT_RESET:
        break;
    case PTPU_PKT_WAIT:
        want = 4;
        break;
    case PTPU_PKT_RUN:
        do_run(seq, len, rx);
        return;
    default:
        cp_send_error(type, seq, PTPU_STATUS_BAD_TYPE, type);
        return;
    }
    if (len != want) {
        cp_send_error(type, seq, PTPU_STATUS_BAD_LENGTH, len);
        return;
    }
    switch (type) {
    case PTPU_PKT_INFO: do_info(seq); break;
    case PTPU_PKT_STATUS: send_status(PTPU_PKT_STATUS, seq); break;
    case PTPU_PKT_WAIT: do_wait(seq, rx[0]); break;
    case PTPU_PKT_COUNTERS: cp_port_counters(seq); break;
    default: do_reset(seq); break;
    }
}

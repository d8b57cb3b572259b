/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmdproc.c - the command processor of the SoC: the port of the command layer
 * (fw/include/ptpu_cp.h, fw/src/cp/cp_serve.c) to the SoC's mailbox and TPU registers.
 * It passes the link requests that the link engine leaves in the mailbox (INFO, RUN,
 * STATUS, WAIT, COUNTERS, RESET) to the layer, launches programs on the accelerator,
 * watches them (completion, faults, the per-RUN watchdog) and sends the answers.
 *
 * A polling loop, no interrupts: each turn looks at the running program, the deferred
 * WAIT, the mailbox and the channel byte counters.  docs/firmware.md describes it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ptpu_cp.h"
#include "ptpu_fw.h"
#include "picotpu_isa.h"
#include "ptpu_soc.h"

#define FW_VERSION 0x00010000u     /* major.minor.patch as 0x00MMmmpp */
#define MAX_CH 16
#define MAX_WIN 16
#define MBOX_WORDS (PTPU_MAILBOX_BYTES / 4)
#define CH_POLL_CYCLES (1u << 24)  /* < 2^32 bytes / (32 bytes * 2 per cycle): no wrap missed */
#define ABORT_SPIN 1000000u        /* register polls before an abort is declared stuck */

static struct {
    /* device description, read once */
    uint32_t num_windows, nch;
    /* the last program (its outcome is in cp_prog) */
    uint64_t cycles;
    bool timed_out, aborting;
    uint64_t start, timeout;
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

uint64_t cp_port_time(void)
{
    return now();
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

void cp_port_send(uint8_t type, uint8_t flags, uint8_t seq, const uint32_t *payload, uint32_t len)
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

static void put64(uint32_t *p, uint64_t v)
{
    p[0] = (uint32_t)v;
    p[1] = (uint32_t)(v >> 32);
}

uint64_t cp_port_cycles(void)
{
    return cp_prog.running ? counter(PTPU_CNT_CYCLES) : cp.cycles;
}

/* ------------------------------------------------------------------ the program */

static void program_ended(uint32_t st)
{
    cp_prog.running = false;
    cp.aborting = false;
    cp.cycles = counter(PTPU_CNT_CYCLES);
    if (st & PTPU_TPU_STATUS_FAULT) {
        cp_prog.state = PTPU_STATE_FAULT;
        cp_prog.fault = PTPU_MMIO(PTPU_TPU_FAULT_CODE);
        cp_prog.fault_pc = PTPU_MMIO(PTPU_TPU_FAULT_PC);
        cp_prog.fault_addr = PTPU_MMIO(PTPU_TPU_FAULT_ADDR);
        if (cp.timed_out)
            cp_prog.fault = PTPU_FAULT_TIMEOUT;
    } else {
        cp_prog.state = PTPU_STATE_DONE;
        cp_prog.fault = PTPU_FAULT_NONE;
        cp_prog.fault_pc = 0;
        cp_prog.fault_addr = 0;
    }
}

/* Looks at the running program: ended, or past its time-out (then aborted). */
void cp_port_poll(void)
{
    if (!cp_prog.running)
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
void cp_port_abort(void)
{
    if (!cp_prog.running)
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

void cp_port_idle(void)
{
    windows_close();
    cp.cycles = 0;
}

void cp_port_start(uint32_t addr, uint32_t n, uint32_t timeout, uint32_t nw, const uint32_t *win)
{
    for (uint32_t w = 0; w < cp.num_windows; w++) {   /* the unused ones closed */
        uint32_t base = 0, limit = 0, perm = 0;
        if (w < nw) {
            base = win[3 * w];
            limit = win[3 * w + 1];
            perm = win[3 * w + 2];
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
    cp.cycles = 0;
    PTPU_MMIO(PTPU_TPU_CTRL) = PTPU_CTRL_START;
}

/* ------------------------------------------------------------------ requests */

void cp_port_info(uint32_t p[17])
{
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
    for (uint32_t i = 0; i < 4; i++)
        p[13 + i] = PTPU_MMIO(PTPU_TPU_CONFIG_NAME + 4u * i);
}

/* COUNTERS: the 15 counters, then as many channels as fit in the mailbox after them and
 * the count. */
void cp_port_counters(uint8_t seq)
{
    uint32_t *p = tx;
    int k = 0;
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++, k += 2)
        put64(&p[k], counter(i));
    ch_poll();
    uint32_t fit = (PTPU_MAILBOX_BYTES - 4u * (uint32_t)k - 4u) / 16u;
    uint32_t c_n = cp.nch < fit ? cp.nch : fit;
    p[k++] = c_n;
    for (uint32_t c = 0; c < c_n; c++, k += 4) {
        put64(&p[k], cp.ch_rd[c]);
        put64(&p[k + 2], cp.ch_wr[c]);
    }
    cp_port_send(PTPU_PKT_COUNTERS, 0, seq, p, 4u * (uint32_t)k);
}

/* Copies the request out of the mailbox, frees it and serves it. */
static void serve(void)
{
    uint32_t hdr = PTPU_MMIO(PTPU_LINK_RX_HDR);
    uint32_t len = PTPU_MMIO(PTPU_LINK_RX_LEN);
    if (len > PTPU_MAILBOX_BYTES)
        len = PTPU_MAILBOX_BYTES;
    for (uint32_t i = 0; i < (len + 3) / 4; i++)
        rx[i] = PTPU_MMIO(PTPU_LINK_RX_BUF + 4u * i);
    PTPU_MMIO(PTPU_LINK_RX_DONE) = 1;
    cp_serve((uint8_t)hdr, (uint8_t)(hdr >> 16), len, rx);
}

int main(void)
{
    uint64_t mem_bytes = (uint64_t)PTPU_MMIO(PTPU_TPU_MEM_KB) * 1024u;
    cp.num_windows = PTPU_MMIO(PTPU_TPU_NUM_WINDOWS);
    if (cp.num_windows > MAX_WIN)
        cp.num_windows = MAX_WIN;
    cp.nch = PTPU_MMIO(PTPU_PLATFORM_SOC_INFO) & 0xffu;
    if (cp.nch > MAX_CH)
        cp.nch = MAX_CH;
    cp_init(mem_bytes, cp.num_windows);
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
        cp_port_poll();
        cp_wait_poll();
        if (PTPU_MMIO(PTPU_LINK_RX_STATUS) & 1u)
            serve();
        if (now() >= cp.ch_next_poll)
            ch_poll();
    }
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_boardsoc.c - end-to-end test of a board configuration of the SoC (tpu_soc with a
 * narrow memory bus and a board memory backend: icebreaker = SPRAM, ulx3s = SDRAM),
 * Verilated directly on the generic tb API (sim/tb/tb.h) and driven only through the
 * link byte stream, as a host would drive the board:
 *   boot     the command-processor firmware (build/fw/ptpu_cp.bin) through the boot
 *            port, INFO and STATUS answer with the configuration's figures;
 *   mem      random MEM_WRITE / MEM_READ against a shadow of the whole device memory;
 *   progs    random programs from tests/soc/progen (data and program loaded by
 *            MEM_WRITE, results read by MEM_READ) compared bit for bit with the ref
 *            model (host/src/ref) at this configuration: state, fault, memory, counters.
 *
 * The configuration comes from C defines (tests/boardsoc/test.mk, from mk/configs.mk).
 * With BOARD_UART (picotpu-lite, tpu_lite_soc, docs/lite.md) the SoC has a board SoC's
 * ports only: the firmware is in its ROM from the start ($readmemh, the model's FwInit;
 * --fw is ignored), the testbench sends and receives the link bytes on uart_rx_i/uart_tx_o
 * as 8N1 frames of BOARD_UART_DIV cycles per bit, and fault_o ends the run like EXIT.
 * Usage: tb_boardsoc [--seed N] [--progs N] [--fw FILE]
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu_isa.h"
#include "progen.h"
#include "linkcli.h"
#include "ptpu_link.h"
#include "ptpu_ref.h"
#include "tb.h"
#ifdef BOARD_SDRAM
#include "sdram.h"
#endif

#define STR2(x) #x
#define STR(x) STR2(x)
#ifndef BOARD_NAME
#define BOARD_NAME BOARD_CONFIG  /* the tests' names; BOARD_CONFIG is the name INFO reports */
#endif
#define RSP_CYCLES 2000000u      /* a response must come within this (no program wait) */

static const struct ptpu_ref_cfg g_cfg = { BOARD_N, BOARD_BF16, BOARD_UB_ROWS, BOARD_WB_ROWS,
                                           BOARD_ACC_ROWS, BOARD_VP_ROWS, BOARD_MEM_KB };

/* ------------------------------------------------------------------ the device */

typedef struct bytes { uint8_t *buf; size_t head, tail, cap; } bytes_t;

static void bytes_push(bytes_t *b, const uint8_t *p, size_t n)
{
    if (b->head == b->tail)
        b->head = b->tail = 0;
    if (b->tail + n > b->cap) {
        if (b->head) {
            memmove(b->buf, b->buf + b->head, b->tail - b->head);
            b->tail -= b->head;
            b->head = 0;
        }
        while (b->tail + n > b->cap)
            b->cap = b->cap ? 2 * b->cap : 65536;
        b->buf = realloc(b->buf, b->cap);
        if (!b->buf) {
            fprintf(stderr, "tb_boardsoc: out of memory\n");
            exit(2);
        }
    }
    memcpy(b->buf + b->tail, p, n);
    b->tail += n;
}

typedef struct dev {
    tb_t *tb;
    tb_sig_t *boot_we, *boot_addr, *boot_wdata;
    tb_sig_t *s_valid, *s_ready, *s_data, *m_valid, *m_ready, *m_data;
    tb_sig_t *con_valid, *con_data, *exit_valid;
#ifdef BOARD_UART
    /* the serial line: a sender of tx's bytes on uart_rx_i, a receiver of uart_tx_o */
    tb_sig_t *uart_rx, *uart_tx, *fault;
    int snd_bit, snd_cnt, rcv_bit, rcv_cnt;
    uint8_t rcv_byte;
    uint64_t frame_errors;
#endif
#ifdef BOARD_SDRAM
    sdram_t *sdram;
    tb_sig_t *sd_cke, *sd_cs, *sd_ras, *sd_cas, *sd_we, *sd_ba, *sd_a, *sd_dqm, *sd_dq_o, *sd_dq_oe,
             *sd_dq_i;
#endif
    bytes_t tx, rx;
    char con[8192];
    size_t ncon;
    bool exited;
    struct ptpu_link_dec dec;
    struct linkcli lc;          /* requests and responses (tests/soc/linkcli.h) */
} bdev_t;

#ifdef BOARD_SDRAM
/* Every broken SDRAM timing rule fails the running test. */
static void sdram_violation(void *ctx, const char *msg)
{
    bdev_t *d = ctx;
    tb_check(d->tb, 0, "SDRAM device model: %s", msg);
}
#endif

#ifdef BOARD_UART
/* One clock of the line at BOARD_UART_DIV cycles per bit: the sender starts the next byte
 * of tx after the stop bit of the last one; the receiver finds the start bit's edge and
 * samples each bit in its middle. */
static void one_cycle(bdev_t *d)
{
    int level = 1;
    if (d->snd_bit < 0 && d->tx.tail > d->tx.head) {
        d->snd_bit = 0;
        d->snd_cnt = BOARD_UART_DIV;
    }
    if (d->snd_bit >= 0) {
        uint8_t b = d->tx.buf[d->tx.head];
        level = d->snd_bit == 0 ? 0 : d->snd_bit <= 8 ? (b >> (d->snd_bit - 1)) & 1 : 1;
        if (--d->snd_cnt == 0) {
            d->snd_cnt = BOARD_UART_DIV;
            if (++d->snd_bit == 10) {
                d->snd_bit = -1;
                d->tx.head++;
            }
        }
    }
    tb_set(d->uart_rx, (uint64_t)level);
    tb_fall(d->tb);
    int line = (int)tb_get(d->uart_tx);
    if (d->rcv_bit < 0) {
        if (!line) {
            d->rcv_bit = 0;
            d->rcv_cnt = BOARD_UART_DIV / 2;
        }
    } else if (--d->rcv_cnt == 0) {
        d->rcv_cnt = BOARD_UART_DIV;
        if (d->rcv_bit >= 1 && d->rcv_bit <= 8) {
            d->rcv_byte = (uint8_t)(d->rcv_byte >> 1 | (line ? 0x80 : 0));
        } else if (d->rcv_bit == 9) {
            if (line)
                bytes_push(&d->rx, &d->rcv_byte, 1);
            else
                d->frame_errors++;
            d->rcv_bit = -2;
        }
        d->rcv_bit++;
    }
    if (tb_get(d->fault))
        d->exited = true;
    tb_rise(d->tb);
}
#else
static void one_cycle(bdev_t *d)
{
    bool offer = d->tx.tail > d->tx.head;
    tb_set(d->s_valid, offer);
    if (offer)
        tb_set(d->s_data, d->tx.buf[d->tx.head]);
    tb_fall(d->tb);
#ifdef BOARD_SDRAM
    /* The SDRAM device sees the command and data pins at the rising edge and drives its
     * read data for the next one. */
    sdram_pins_t pins = {
        tb_get(d->sd_cke) != 0, tb_get(d->sd_cs) != 0, tb_get(d->sd_ras) != 0, tb_get(d->sd_cas) != 0,
        tb_get(d->sd_we) != 0, (int)tb_get(d->sd_ba), (uint32_t)tb_get(d->sd_a), (int)tb_get(d->sd_dqm),
        (uint16_t)tb_get(d->sd_dq_o), tb_get(d->sd_dq_oe) != 0 };
    uint16_t dq = 0;
    if (!sdram_cycle(d->sdram, &pins, &dq))
        dq = 0;
    tb_set(d->sd_dq_i, dq);
#endif
    bool took = offer && tb_get(d->s_ready);
    bool sent = tb_get(d->m_valid);
    uint8_t out = (uint8_t)tb_get(d->m_data);
    if (tb_get(d->con_valid) && d->ncon + 1 < sizeof d->con)
        d->con[d->ncon++] = (char)tb_get(d->con_data);
    if (tb_get(d->exit_valid))
        d->exited = true;
    tb_rise(d->tb);
    if (took)
        d->tx.head++;
    if (sent)
        bytes_push(&d->rx, &out, 1);
}
#endif

#ifdef BOARD_UART
/* The firmware is in the ROM from the start: only the reset. */
static int boot(bdev_t *d, const char *fw)
{
    (void)fw;
    d->snd_bit = d->rcv_bit = -1;
    tb_set(d->uart_rx, 1);
    tb_set(d->tb->rst_n, 0);
    tb_ticks(d->tb, 4);
    tb_set(d->tb->rst_n, 1);
    return 0;
}
#else
static int boot(bdev_t *d, const char *fw)
{
    FILE *f = fopen(fw, "rb");
    if (!f) {
        fprintf(stderr, "tb_boardsoc: cannot open firmware %s\n", fw);
        return -1;
    }
    size_t max = (size_t)BOARD_FW_RAM_KB * 1024;
    uint8_t *img = calloc(1, max + 4);
    size_t n = fread(img, 1, max + 1, f);
    fclose(f);
    if (n == 0 || n > max) {
        fprintf(stderr, "tb_boardsoc: firmware %s is %s (RAM %d KB)\n", fw, n ? "too large" : "empty",
                BOARD_FW_RAM_KB);
        free(img);
        return -1;
    }
    tb_set(d->tb->rst_n, 0);
    for (size_t a = 0; a < n; a += 4) {
        uint32_t w;
        memcpy(&w, img + a, 4);
        tb_set(d->boot_we, 1);
        tb_set(d->boot_addr, a);
        tb_set(d->boot_wdata, w);
        tb_tick(d->tb);
    }
    free(img);
    tb_set(d->boot_we, 0);
    tb_ticks(d->tb, 4);
    tb_set(d->tb->rst_n, 1);
    return 0;
}
#endif

/* Runs until a frame (or a decoder event) arrives or `cycles` pass; 0 on time-out. */
static int recv_frame(bdev_t *d, struct ptpu_link_frame *f, uint64_t cycles)
{
    uint64_t end_c = d->tb->cycle + cycles;
    for (;;) {
        while (d->rx.head < d->rx.tail) {
            size_t used;
            int ev = ptpu_link_dec_feed(&d->dec, d->rx.buf + d->rx.head, d->rx.tail - d->rx.head, &used, f);
            d->rx.head += used;
            if (ev != PTPU_LINK_DEC_NONE)
                return ev;
        }
        if (d->tb->cycle >= end_c || d->exited)
            return 0;
        for (int i = 0; i < 64; i++)
            one_cycle(d);
    }
}

/* The link client's transport and failure report (tests/soc/linkcli.h). */
static void lc_send(void *ctx, const uint8_t *p, size_t n) { bytes_push(&((bdev_t *)ctx)->tx, p, n); }
static int lc_recv(void *ctx, struct ptpu_link_frame *f, uint64_t cycles) { return recv_frame(ctx, f, cycles); }
static void lc_fail(void *ctx, const char *msg) { tb_check(((bdev_t *)ctx)->tb, 0, "%s", msg); }

/* ------------------------------------------------------------------ tests */

static void test_boot(bdev_t *d)
{
    tb_t *tb = d->tb;
    tb_begin(tb);
    struct ptpu_link_info in;
    memset(&in, 0, sizeof in);
    if (lc_info(&d->lc, &in)) {
        d->lc.info = in;
        tb_check(tb, in.magic == PTPU_ID_MAGIC, "magic 0x%08x", in.magic);
        tb_check(tb, in.protocol_version == PTPU_PROTOCOL_VERSION, "protocol %u", in.protocol_version);
        tb_check(tb, (int)in.n == g_cfg.n && (int)(in.flags & 1) == g_cfg.bf16, "n %u flags %u", in.n, in.flags);
        tb_check(tb, (int)in.ub_rows == g_cfg.ub_rows && (int)in.wb_rows == g_cfg.wb_rows &&
                 (int)in.acc_rows == g_cfg.acc_rows && (int)in.vp_rows == g_cfg.vp_rows,
                 "buffers %u %u %u %u", in.ub_rows, in.wb_rows, in.acc_rows, in.vp_rows);
        tb_check(tb, in.mem_kb == g_cfg.mem_kb, "mem_kb %u", in.mem_kb);
        tb_check(tb, in.max_payload >= 256, "max_payload %u", in.max_payload);
        tb_check(tb, strcmp(in.config_name, STR(BOARD_CONFIG)) == 0, "config name '%s'", in.config_name);
    }
    struct ptpu_link_status st;
    tb_check(tb, lc_status(&d->lc, &st) && st.state == PTPU_STATE_IDLE, "STATUS after boot: state %u",
             st.state);
    tb_end(tb, "boardsoc-" STR(BOARD_NAME) "/boot", "INFO after %" PRIu64 " cycles: N=%u mem=%u KB max_payload=%u name=%s",
           tb->cycle, in.n, in.mem_kb, in.max_payload, in.config_name);
}

/* Random MEM_WRITE / MEM_READ against a shadow of a span of memory (zeroed first): the
 * whole memory up to 128 KB, else a random 128 KB-aligned 128 KB (the link moves about one
 * byte per cycle). */
static void test_mem(bdev_t *d, int ops)
{
    tb_t *tb = d->tb;
    tb_begin(tb);
    const uint32_t mem = g_cfg.mem_kb * 1024u, size = mem < 131072u ? mem : 131072u;
    const uint32_t base = (uint32_t)tb_rand_range(tb, 0, mem / size - 1) * size;
    uint8_t *shadow = calloc(1, size), *buf = malloc(size);
    uint64_t bytes = 0;
    lc_mem_write(&d->lc, base, shadow, size);
    for (int i = 0; i < ops && !tb->errors; i++) {
        uint32_t max = d->lc.info.max_payload - 4;
        uint32_t len = tb_chance(tb, 3, 4) ? (uint32_t)tb_rand_range(tb, 1, 96) : (uint32_t)tb_rand_range(tb, 1, max);
        uint32_t off = (uint32_t)tb_rand_range(tb, 0, size - len);
        if (tb_chance(tb, 1, 2)) {
            for (uint32_t k = 0; k < len; k++)
                buf[k] = (uint8_t)tb_rand32(tb);
            lc_mem_write(&d->lc, base + off, buf, len);
            memcpy(shadow + off, buf, len);
        } else if (lc_mem_read(&d->lc, base + off, buf, len)) {
            for (uint32_t k = 0; k < len; k++)
                if (buf[k] != shadow[off + k]) {
                    tb_check(tb, 0, "read at 0x%x+%u: 0x%02x, expected 0x%02x", base + off, k, buf[k],
                             shadow[off + k]);
                    break;
                }
        }
        bytes += len;
    }
    /* The whole span once more. */
    if (!tb->errors && lc_mem_read(&d->lc, base, buf, size))
        for (uint32_t k = 0; k < size; k++)
            if (buf[k] != shadow[k]) {
                tb_check(tb, 0, "final read at 0x%x: 0x%02x, expected 0x%02x", base + k, buf[k], shadow[k]);
                break;
            }
    free(shadow);
    free(buf);
    tb_end(tb, "boardsoc-" STR(BOARD_NAME) "/mem", "%d operations, %" PRIu64 " bytes in %u KB at 0x%x", ops,
           bytes, size / 1024, base);
}

static const int k_faults[] = { PTPU_FAULT_BAD_OPCODE, PTPU_FAULT_BAD_FIELD, PTPU_FAULT_BUF_RANGE,
                                PTPU_FAULT_PROT_READ, PTPU_FAULT_PROT_WRITE, PTPU_FAULT_PROG_END,
                                PTPU_FAULT_NO_WEIGHTS, PTPU_FAULT_TOKEN };

/* Random programs on the RTL and on ref: status, fault, memory, counters. */
static void test_progs(bdev_t *d, int nprogs)
{
    tb_t *tb = d->tb;
    tb_begin(tb);
    int done = 0, faulted = 0, skipped = 0, mismatches = 0;
    uint64_t cycles = 0, insns = 0;
    for (int i = 0; i < nprogs && !d->lc.dead; i++) {
        int errors_before = tb->errors;
        struct progen_opts o = { g_cfg.n, g_cfg.bf16, g_cfg.ub_rows, g_cfg.wb_rows, g_cfg.acc_rows, g_cfg.vp_rows,
                                 g_cfg.mem_kb, (int)tb_rand_range(tb, 8, 40), 0 };
        if (i % 3 == 2)
            o.fault_kind = k_faults[tb_rand32(tb) % (sizeof k_faults / sizeof k_faults[0])];
        struct progen p;
        uint64_t ps = tb->seed * 1000003u + (uint64_t)i;
        if (progen_make(ps, &o, &p)) {
            skipped++;
            continue;
        }
        struct ptpu_ref *ref;
        ptpu_ref_create(&g_cfg, &ref);
        for (int r = 0; r < p.ninit; r++) {
            ptpu_ref_mem_write(ref, p.init[r].addr, p.init_data[r], p.init[r].len);
            lc_mem_write(&d->lc, p.init[r].addr, p.init_data[r], p.init[r].len);
        }
        ptpu_ref_mem_write(ref, p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        lc_mem_write(&d->lc, p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        struct ptpu_run_result res;
        ptpu_ref_run(ref, p.prog_addr, p.prog_len, p.win, p.nwin, &res);

        struct ptpu_link_window lw[8];
        for (int w = 0; w < p.nwin; w++)
            lw[w] = (struct ptpu_link_window){ p.win[w].base, p.win[w].limit, p.win[w].perm };
        struct ptpu_link_frame f;
        uint32_t st = 0, det = 0;
        size_t n = ptpu_link_req_run(d->lc.frame, ++d->lc.seq, p.prog_addr, p.prog_len, 0, lw, p.nwin);
        int c = lc_transact(&d->lc, n, PTPU_PKT_RUN, &f, &st, &det, RSP_CYCLES);
        struct ptpu_link_status s = { 0 };
        if (c != PTPU_LINK_RESP_OK) {
            tb_check(tb, 0, "prog %d (seed %" PRIu64 "): RUN rejected: class %d status %u detail 0x%x", i, ps, c,
                     st, det);
        } else if (lc_wait(&d->lc, 0, &s, 50000000)) {
            cycles += s.cycles;
            insns += p.prog_len;
            tb_check(tb, (int)s.state == res.state && (int)s.fault == res.fault,
                     "prog %d (seed %" PRIu64 ", fault kind %d): state %u fault %u pc %u, ref state %d fault %d pc %u",
                     i, ps, o.fault_kind, s.state, s.fault, s.fault_pc, res.state, res.fault, res.fault_pc);
            if (res.state == PTPU_STATE_FAULT)
                tb_check(tb, s.fault_pc == res.fault_pc && s.fault_addr == res.fault_addr,
                         "prog %d (seed %" PRIu64 "): fault %d at pc %u addr 0x%x, ref pc %u addr 0x%x", i, ps,
                         res.fault, s.fault_pc, s.fault_addr, res.fault_pc, res.fault_addr);
            bool dynamic = res.fault == PTPU_FAULT_PROT_READ || res.fault == PTPU_FAULT_PROT_WRITE ||
                           res.fault == PTPU_FAULT_BUS_ERROR;
            if (res.state == PTPU_STATE_DONE)
                done++;
            else
                faulted++;
            for (int r = 0; r < p.nout && !dynamic && tb->errors == errors_before; r++) {
                uint32_t len = p.out[r].len;
                uint8_t *a = malloc(len), *b = malloc(len);
                ptpu_ref_mem_read(ref, p.out[r].addr, a, len);
                if (lc_mem_read(&d->lc, p.out[r].addr, b, len))
                    for (uint32_t k = 0; k < len; k++)
                        if (a[k] != b[k]) {
                            tb_check(tb, 0, "prog %d (seed %" PRIu64 "): memory 0x%08x = 0x%02x, ref 0x%02x", i, ps,
                                     p.out[r].addr + k, b[k], a[k]);
                            break;
                        }
                free(a);
                free(b);
            }
            if (res.state == PTPU_STATE_DONE && tb->errors == errors_before) {
                size_t cl = ptpu_link_req_counters(d->lc.frame, ++d->lc.seq);
                struct ptpu_link_counters cn;
                if (lc_req_ok(&d->lc, cl, PTPU_PKT_COUNTERS, &f, RSP_CYCLES) && ptpu_link_parse_counters(&f, &cn) == 0) {
                    static const int exact[] = { PTPU_CNT_LOAD_INSNS, PTPU_CNT_COMPUTE_INSNS, PTPU_CNT_STORE_INSNS,
                                                 PTPU_CNT_BYTES_READ, PTPU_CNT_BYTES_WRITTEN };
                    for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++)
                        tb_check(tb, cn.counter[exact[k]] == res.counters[exact[k]],
                                 "prog %d (seed %" PRIu64 "): counter %d = %" PRIu64 ", ref %" PRIu64, i, ps,
                                 exact[k], cn.counter[exact[k]], res.counters[exact[k]]);
                    tb_check(tb, cn.channels == 1, "COUNTERS reports %u channels", cn.channels);
                }
            }
        }
        ptpu_ref_destroy(ref);
        progen_free(&p);
        if (tb->errors != errors_before)
            mismatches++;
    }
    printf("DIFF programs %d mismatches %d\n", done + faulted, mismatches);
    tb_end(tb, "boardsoc-" STR(BOARD_NAME) "/progs",
           "%d programs compared with ref (%d done, %d faulted, %d skipped, %d mismatches), %" PRIu64
           " instructions, %" PRIu64 " device cycles", done + faulted, done, faulted, skipped, mismatches, insns,
           cycles);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    int nprogs = 12, ops = 60;
    const char *fw = STR(BOARD_DEFAULT_FW);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--progs") && i + 1 < argc)
            nprogs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            ops = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--fw") && i + 1 < argc)
            fw = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            i++;
        else if (strncmp(argv[i], "--seed=", 7)) {
            fprintf(stderr, "usage: %s [--seed N] [--progs N] [--ops N] [--fw FILE]\n", argv[0]);
            return 2;
        }
    }
    bdev_t *d = calloc(1, sizeof *d);
    d->tb = tb_open("boardsoc-" STR(BOARD_NAME), argc, argv);
    tb_t *tb = d->tb;
#ifdef BOARD_UART
    d->uart_rx = tb_sig(tb, "uart_rx_i");
    d->uart_tx = tb_sig(tb, "uart_tx_o");
    d->fault = tb_sig(tb, "fault_o");
#else
    d->boot_we = tb_sig(tb, "boot_we_i");
    d->boot_addr = tb_sig(tb, "boot_addr_i");
    d->boot_wdata = tb_sig(tb, "boot_wdata_i");
    d->s_valid = tb_sig(tb, "s_link_valid_i");
    d->s_ready = tb_sig(tb, "s_link_ready_o");
    d->s_data = tb_sig(tb, "s_link_data_i");
    d->m_valid = tb_sig(tb, "m_link_valid_o");
    d->m_ready = tb_sig(tb, "m_link_ready_i");
    d->m_data = tb_sig(tb, "m_link_data_o");
    d->con_valid = tb_sig(tb, "console_valid_o");
    d->con_data = tb_sig(tb, "console_data_o");
    d->exit_valid = tb_sig(tb, "exit_valid_o");
#endif
#ifdef BOARD_SDRAM
    d->sd_cke = tb_sig(tb, "sdram_cke_o");
    d->sd_cs = tb_sig(tb, "sdram_cs_no");
    d->sd_ras = tb_sig(tb, "sdram_ras_no");
    d->sd_cas = tb_sig(tb, "sdram_cas_no");
    d->sd_we = tb_sig(tb, "sdram_we_no");
    d->sd_ba = tb_sig(tb, "sdram_ba_o");
    d->sd_a = tb_sig(tb, "sdram_a_o");
    d->sd_dqm = tb_sig(tb, "sdram_dqm_o");
    d->sd_dq_o = tb_sig(tb, "sdram_dq_o");
    d->sd_dq_oe = tb_sig(tb, "sdram_dq_oe_o");
    d->sd_dq_i = tb_sig(tb, "sdram_dq_i");
    sdram_config_t sc = { .name = "sdram", .clk_hz = BOARD_CLK_HZ, .check_refresh = true,
                          .on_violation = sdram_violation, .ctx = d };
    sdram_timing_default(&sc.t);
    d->sdram = sdram_new(&sc);
#endif
#ifndef BOARD_UART
    tb_set(d->m_ready, 1);
#endif
    ptpu_link_dec_init(&d->dec, 65535);
    d->lc = (struct linkcli){ .ctx = d, .send = lc_send, .recv = lc_recv, .fail = lc_fail,
                              .rsp_cycles = RSP_CYCLES, .stop_on_silence = true,
                              .seq = (uint8_t)tb_rand32(tb) };
    int rc = 1;
    if (boot(d, fw) == 0) {
        test_boot(d);
        if (!d->lc.dead) {
            test_mem(d, ops);
            test_progs(d, nprogs);
        }
        d->con[d->ncon] = 0;
        if (tb->fails)
            printf("tb_boardsoc: console:\n%s", d->con);
        printf("tb_boardsoc: %" PRIu64 " cycles simulated\n", tb->cycle);
#ifdef BOARD_UART
        if (d->frame_errors)
            printf("tb_boardsoc: %" PRIu64 " bytes from the SoC with a low stop bit\n", d->frame_errors);
#endif
        rc = tb_close(tb);
#ifdef BOARD_UART
        if (d->frame_errors)
            rc = 1;
#endif
    }
    ptpu_link_dec_free(&d->dec);
#ifdef BOARD_SDRAM
    sdram_stats_t ss;
    sdram_get_stats(d->sdram, &ss);
    printf("tb_boardsoc: SDRAM %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " refreshes, %" PRIu64
           " violations\n", ss.rd, ss.wr, ss.ref, ss.violations);
    sdram_free(d->sdram);
#endif
    free(d->tx.buf);
    free(d->rx.buf);
    free(d);
    return rc;
}

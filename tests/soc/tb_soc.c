/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_soc.c - end-to-end tests of the SoC through the simulation library
 * (sim/include/picotpu_sim.h) and the host frame codec (host/src/ptpu_link.h): the
 * firmware's requests, the link engine's memory access, random programs from
 * tests/soc/progen compared with the ref model (memory, fault codes, counters), and every
 * error path, each followed by a check that the device still answers.
 *
 * Usage: tb_soc [--seed N] [--progs N] [--only TEST] | --bench [--cycles N]
 * Tests: info mem progs errors run_ctl.  Prints one PASS/FAIL line per test.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "picotpu_isa.h"
#include "picotpu_sim.h"
#include "progen.h"
#include "linkcli.h"
#include "ptpu_link.h"
#include "ptpu_ref.h"

#define STEP 64                      /* cycles per step while waiting for bytes */
#define RSP_CYCLES 400000u           /* a response must come within this (no program wait) */

static const struct ptpu_sim_info *g_info;
static uint64_t g_rng[2];
static int g_errors;
static char g_first[512];
static int g_pass, g_fail;

static uint64_t rnd(void)
{
    uint64_t s1 = g_rng[0];
    const uint64_t s0 = g_rng[1];
    g_rng[0] = s0;
    s1 ^= s1 << 23;
    g_rng[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
    return g_rng[1] + s0;
}
static uint32_t rr(uint32_t lo, uint32_t hi) { return lo + (uint32_t)(rnd() % ((uint64_t)hi - lo + 1)); }

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    if (g_errors++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g_first, sizeof g_first, fmt, ap);
        va_end(ap);
    }
}
#define CHECK(c, ...) ((c) ? (void)0 : fail(__VA_ARGS__))

static void begin(void) { g_errors = 0; g_first[0] = 0; }
static void end(const char *test, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void end(const char *test, const char *fmt, ...)
{
    char d[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d, sizeof d, fmt, ap);
    va_end(ap);
    if (g_errors) {
        g_fail++;
        printf("FAIL soc-%s/%s: %s (%d errors; %s)\n", g_info->config, test, g_first, g_errors, d);
    } else {
        g_pass++;
        printf("PASS soc-%s/%s %s\n", g_info->config, test, d);
    }
    fflush(stdout);
}

/* ------------------------------------------------------------------ the device */

typedef struct dev {
    ptpu_sim_t *s;
    struct ptpu_link_dec dec;
    uint8_t pend[8192];
    size_t npend, pos;
    struct linkcli lc;          /* requests and responses (tests/soc/linkcli.h) */
} sdev_t;

/* Runs until a frame (or a decoder event) arrives or `cycles` pass.  Returns the event,
 * or 0 on time-out. */
static int recv_frame(sdev_t *d, struct ptpu_link_frame *f, uint64_t cycles)
{
    uint64_t end_c = ptpu_sim_cycles(d->s) + cycles;
    for (;;) {
        while (d->pos < d->npend) {
            size_t used;
            int ev = ptpu_link_dec_feed(&d->dec, d->pend + d->pos, d->npend - d->pos, &used, f);
            d->pos += used;
            if (ev != PTPU_LINK_DEC_NONE)
                return ev;
        }
        d->npend = ptpu_sim_link_recv(d->s, d->pend, sizeof d->pend);
        d->pos = 0;
        if (d->npend)
            continue;
        if (ptpu_sim_cycles(d->s) >= end_c)
            return 0;
        int rc = ptpu_sim_step(d->s, STEP);
        if (rc) {
            fail("simulation ended: %s", ptpu_sim_strerror(rc));
            return 0;
        }
    }
}

static void send_raw(sdev_t *d, const uint8_t *p, size_t n) { ptpu_sim_link_send(d->s, p, n); }

/* The link client's transport and failure report (tests/soc/linkcli.h). */
static void lc_send(void *ctx, const uint8_t *p, size_t n) { send_raw(ctx, p, n); }
static int lc_recv(void *ctx, struct ptpu_link_frame *f, uint64_t cycles) { return recv_frame(ctx, f, cycles); }
static void lc_fail(void *ctx, const char *msg)
{
    (void)ctx;
    fail("%s", msg);
}

/* Expects an error response with `status` (and `detail` unless ~0). */
static void req_err(sdev_t *d, size_t n, uint8_t type, uint32_t status, uint32_t detail, const char *what)
{
    struct ptpu_link_frame f;
    uint32_t st = 0, det = 0;
    int c = lc_transact(&d->lc, n, type, &f, &st, &det, RSP_CYCLES);
    CHECK(c == PTPU_LINK_RESP_ERR && st == status && (detail == ~0u || det == detail),
          "%s: expected error %u/0x%x, got class %d status %u detail 0x%x", what, status, detail, c, st, det);
}

/* The device still answers: INFO with the right magic. */
static void alive(sdev_t *d, const char *after)
{
    struct ptpu_link_info info;
    CHECK(lc_info(&d->lc, &info) && info.magic == PTPU_ID_MAGIC, "no INFO after %s", after);
}

static int run(sdev_t *d, uint32_t addr, uint32_t ninsn, uint32_t timeout, const struct ptpu_window *w,
               int nw, uint32_t *status, uint32_t *detail)
{
    struct ptpu_link_window lw[8];
    for (int i = 0; i < nw; i++)
        lw[i] = (struct ptpu_link_window){ w[i].base, w[i].limit, w[i].perm };
    struct ptpu_link_frame f;
    size_t n = ptpu_link_req_run(d->lc.frame, ++d->lc.seq, addr, ninsn, timeout, lw, nw);
    return lc_transact(&d->lc, n, PTPU_PKT_RUN, &f, status, detail, RSP_CYCLES);
}

static bool counters(sdev_t *d, struct ptpu_link_counters *c)
{
    struct ptpu_link_frame f;
    size_t n = ptpu_link_req_counters(d->lc.frame, ++d->lc.seq);
    if (!lc_req_ok(&d->lc, n, PTPU_PKT_COUNTERS, &f, RSP_CYCLES))
        return false;
    if (ptpu_link_parse_counters(&f, c)) {
        fail("COUNTERS payload of %u bytes", f.len);
        return false;
    }
    return true;
}

static int dev_open(sdev_t *d)
{
    memset(d, 0, sizeof *d);
    int rc = ptpu_sim_create(NULL, NULL, &d->s);
    if (rc) {
        printf("FAIL soc: ptpu_sim_create: %s\n", ptpu_sim_strerror(rc));
        return -1;
    }
    ptpu_link_dec_init(&d->dec, 65535);
    d->lc = (struct linkcli){ .ctx = d, .send = lc_send, .recv = lc_recv, .fail = lc_fail,
                              .rsp_cycles = RSP_CYCLES, .seq = (uint8_t)rnd() };
    if (!lc_info(&d->lc, &d->lc.info)) {
        printf("FAIL soc-%s/boot: no INFO response (%s)\n", g_info->config, g_first);
        return -1;
    }
    return 0;
}

static void dev_close(sdev_t *d)
{
    ptpu_link_dec_free(&d->dec);
    ptpu_sim_destroy(d->s);
}

/* ------------------------------------------------------------------ tests */

static void test_info(sdev_t *d)
{
    begin();
    struct ptpu_link_info in;
    if (lc_info(&d->lc, &in)) {
        CHECK(in.magic == PTPU_ID_MAGIC, "magic 0x%08x", in.magic);
        CHECK(in.protocol_version == PTPU_PROTOCOL_VERSION, "protocol %u", in.protocol_version);
        CHECK(in.rtl_version == PTPU_RTL_VERSION, "rtl version 0x%x", in.rtl_version);
        CHECK(in.fw_version == 0x00010000u, "fw version 0x%x", in.fw_version);
        CHECK((int)in.n == g_info->n && (int)(in.flags & 1) == g_info->bf16, "n %u flags %u", in.n, in.flags);
        CHECK((int)in.ub_rows == g_info->ub_rows && (int)in.wb_rows == g_info->wb_rows &&
              (int)in.acc_rows == g_info->acc_rows && (int)in.vp_rows == g_info->vp_rows,
              "buffers %u %u %u %u", in.ub_rows, in.wb_rows, in.acc_rows, in.vp_rows);
        CHECK(in.mem_kb == g_info->mem_kb, "mem_kb %u", in.mem_kb);
        CHECK(in.num_windows >= 1 && in.max_payload >= 256, "windows %u payload %u", in.num_windows,
              in.max_payload);
        CHECK(strcmp(in.config_name, g_info->config) == 0, "config name '%s'", in.config_name);
    }
    struct ptpu_link_status st;
    CHECK(lc_status(&d->lc, &st) && st.state == PTPU_STATE_IDLE, "STATUS after boot: state %u", st.state);
    end("info", "N=%u mem=%u KB windows=%u max_payload=%u name=%s", in.n, in.mem_kb, in.num_windows,
        in.max_payload, in.config_name);
}

/* Random MEM_WRITE / MEM_READ against a shadow, crossed with the backdoor. */
static void test_mem(sdev_t *d, int ops)
{
    begin();
    const uint32_t span = 1u << 20, base = (uint32_t)rr(0, g_info->mem_kb / 1024 - 1) << 20 & ~(span - 1);
    uint8_t *shadow = calloc(1, span), *buf = malloc(8192);
    uint32_t bytes = 0;
    /* A clean span: zero it through the backdoor. */
    ptpu_sim_mem_write(d->s, base, shadow, span);
    for (int i = 0; i < ops && !g_errors; i++) {
        uint32_t max = d->lc.info.max_payload - 4;
        uint32_t len = rnd() % 4 ? rr(1, 96) : rr(1, max);
        uint32_t off = rnd() % 3 ? rr(0, 4096) : rr(0, span - len);
        int kind = (int)(rnd() % 4);
        if (kind <= 1) {           /* write: link or backdoor */
            for (uint32_t k = 0; k < len; k++)
                buf[k] = (uint8_t)rnd();
            if (kind == 0)
                lc_mem_write(&d->lc, base + off, buf, len);
            else
                ptpu_sim_mem_write(d->s, base + off, buf, len);
            memcpy(shadow + off, buf, len);
        } else {                   /* read: link or backdoor */
            if (kind == 2)
                lc_mem_read(&d->lc, base + off, buf, len);
            else
                ptpu_sim_mem_read(d->s, base + off, buf, len);
            for (uint32_t k = 0; k < len; k++)
                if (buf[k] != shadow[off + k]) {
                    fail("%s read at 0x%x+%u: 0x%02x, expected 0x%02x", kind == 2 ? "link" : "backdoor",
                         base + off, k, buf[k], shadow[off + k]);
                    break;
                }
        }
        bytes += len;
    }
    /* Past the end of memory: a clear error, nothing touched, the device still answers. */
    const uint32_t top = (uint32_t)g_info->mem_kb * 1024u;
    CHECK(ptpu_sim_mem_read(d->s, top - 4, buf, 8) == PTPU_SIM_ERANGE, "backdoor read past the end accepted");
    CHECK(ptpu_sim_mem_write(d->s, top - 4, buf, 8) == PTPU_SIM_ERANGE, "backdoor write past the end accepted");
    free(shadow);
    free(buf);
    alive(d, "memory traffic");
    end("mem", "%d operations, %u bytes at 0x%08x", ops, bytes, base);
}

static const int k_faults[] = { PTPU_FAULT_BAD_OPCODE, PTPU_FAULT_BAD_FIELD, PTPU_FAULT_BUF_RANGE,
                                PTPU_FAULT_PROT_READ, PTPU_FAULT_PROT_WRITE, PTPU_FAULT_PROG_END,
                                PTPU_FAULT_NO_WEIGHTS, PTPU_FAULT_TOKEN };

/* Random programs on the RTL and on ref: status, fault, memory, counters. */
static void test_progs(sdev_t *d, int nprogs, uint64_t seed)
{
    begin();
    struct ptpu_ref_cfg rc = { g_info->n, g_info->bf16, g_info->ub_rows, g_info->wb_rows, g_info->acc_rows,
                               g_info->vp_rows, g_info->mem_kb };
    int done = 0, faulted = 0, skipped = 0, mismatches = 0;
    uint64_t cycles = 0, insns = 0;
    for (int i = 0; i < nprogs; i++) {
        int errors_before = g_errors;
        struct progen_opts o = { rc.n, rc.bf16, rc.ub_rows, rc.wb_rows, rc.acc_rows, rc.vp_rows, rc.mem_kb,
                                 (int)rr(8, 48), 0 };
        if (i % 3 == 2)
            o.fault_kind = k_faults[rnd() % (sizeof k_faults / sizeof k_faults[0])];
        struct progen p;
        uint64_t ps = seed * 1000003u + (uint64_t)i;
        if (progen_make(ps, &o, &p)) {
            skipped++;
            continue;
        }
        struct ptpu_ref *ref;
        ptpu_ref_create(&rc, &ref);
        bool via_link = i % 4 == 0;
        for (int r = 0; r < p.ninit; r++) {
            ptpu_ref_mem_write(ref, p.init[r].addr, p.init_data[r], p.init[r].len);
            if (via_link && p.init[r].len <= 16384)
                lc_mem_write(&d->lc, p.init[r].addr, p.init_data[r], p.init[r].len);
            else
                ptpu_sim_mem_write(d->s, p.init[r].addr, p.init_data[r], p.init[r].len);
        }
        ptpu_ref_mem_write(ref, p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        ptpu_sim_mem_write(d->s, p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        struct ptpu_run_result res;
        ptpu_ref_run(ref, p.prog_addr, p.prog_len, p.win, p.nwin, &res);

        uint32_t st = 0, det = 0;
        int c = run(d, p.prog_addr, p.prog_len, 0, p.win, p.nwin, &st, &det);
        struct ptpu_link_status s = { 0 };
        if (c != PTPU_LINK_RESP_OK) {
            fail("prog %d (seed %" PRIu64 "): RUN rejected: class %d status %u detail 0x%x", i, ps, c, st, det);
        } else if (lc_wait(&d->lc, 0, &s, 50000000)) {
            cycles += s.cycles;
            insns += p.prog_len;
            CHECK((int)s.state == res.state && (int)s.fault == res.fault,
                  "prog %d (seed %" PRIu64 ", fault kind %d): state %u fault %u pc %u, ref state %d fault %d pc %u",
                  i, ps, o.fault_kind, s.state, s.fault, s.fault_pc, res.state, res.fault, res.fault_pc);
            if (res.state == PTPU_STATE_FAULT)
                CHECK(s.fault_pc == res.fault_pc && s.fault_addr == res.fault_addr,
                      "prog %d (seed %" PRIu64 "): fault %d at pc %u addr 0x%x, ref pc %u addr 0x%x", i, ps,
                      res.fault, s.fault_pc, s.fault_addr, res.fault_pc, res.fault_addr);
            bool dynamic = res.fault == PTPU_FAULT_PROT_READ || res.fault == PTPU_FAULT_PROT_WRITE ||
                           res.fault == PTPU_FAULT_BUS_ERROR;
            if (res.state == PTPU_STATE_DONE)
                done++;
            else
                faulted++;
            for (int r = 0; r < p.nout && !dynamic && g_errors == errors_before; r++) {
                uint32_t len = p.out[r].len;
                uint8_t *a = malloc(len), *b = malloc(len);
                ptpu_ref_mem_read(ref, p.out[r].addr, a, len);
                if (r == 0 && len <= 8192 && i % 2)
                    lc_mem_read(&d->lc, p.out[r].addr, b, len);
                else
                    ptpu_sim_mem_read(d->s, p.out[r].addr, b, len);
                for (uint32_t k = 0; k < len; k++)
                    if (a[k] != b[k]) {
                        fail("prog %d (seed %" PRIu64 "): memory 0x%08x = 0x%02x, ref 0x%02x", i, ps,
                             p.out[r].addr + k, b[k], a[k]);
                        break;
                    }
                free(a);
                free(b);
            }
            if (res.state == PTPU_STATE_DONE && g_errors == errors_before) {
                struct ptpu_link_counters cn;
                if (counters(d, &cn)) {
                    static const int exact[] = { PTPU_CNT_LOAD_INSNS, PTPU_CNT_COMPUTE_INSNS, PTPU_CNT_STORE_INSNS,
                                                 PTPU_CNT_BYTES_READ, PTPU_CNT_BYTES_WRITTEN };
                    for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++)
                        CHECK(cn.counter[exact[k]] == res.counters[exact[k]],
                              "prog %d (seed %" PRIu64 "): counter %d = %" PRIu64 ", ref %" PRIu64, i, ps,
                              exact[k], cn.counter[exact[k]], res.counters[exact[k]]);
                    CHECK(cn.counter[PTPU_CNT_CYCLES] == s.cycles, "CYCLES %" PRIu64 " vs STATUS %" PRIu64,
                          cn.counter[PTPU_CNT_CYCLES], s.cycles);
                    CHECK(cn.channels == (uint32_t)(g_info->num_pch < 8 ? g_info->num_pch : 8),
                          "COUNTERS reports %u channels", cn.channels);
                }
            }
        }
        ptpu_ref_destroy(ref);
        progen_free(&p);
        if (g_errors != errors_before)
            mismatches++;
        if (ptpu_sim_step(d->s, 0))   /* the simulation stopped: nothing more to compare */
            break;
    }
    alive(d, "random programs");
    printf("DIFF programs %d mismatches %d\n", done + faulted, mismatches);
    end("progs", "%d programs compared with ref (%d done, %d faulted, %d skipped, %d mismatches), %" PRIu64
        " instructions, %" PRIu64 " device cycles, seed %" PRIu64, done + faulted, done, faulted, skipped,
        mismatches, insns, cycles, seed);
}

/* A long program: `nload` LOADs of every UB row from memory at `src`, then HALT. */
static uint32_t long_prog(sdev_t *d, uint32_t at, uint32_t src, int nload)
{
    uint32_t rowb = (uint32_t)g_info->n * (g_info->bf16 ? 2 : 1);
    uint32_t rows = (uint32_t)g_info->ub_rows < 4095 ? (uint32_t)g_info->ub_rows : 4095;
    uint32_t insn[8];
    for (int k = 0; k <= nload; k++) {
        memset(insn, 0, sizeof insn);
        if (k == nload) {
            ptpu_field_set(insn, PTPU_F_COMMON_OP, PTPU_OP_HALT);
        } else {
            ptpu_field_set(insn, PTPU_F_COMMON_OP, PTPU_OP_LOAD);
            ptpu_field_set(insn, PTPU_F_DMA_BUF, PTPU_BUF_UB);
            ptpu_field_set(insn, PTPU_F_DMA_ROW, 0);
            ptpu_field_set(insn, PTPU_F_DMA_LEN0, rowb);
            ptpu_field_set(insn, PTPU_F_DMA_OUT0, rowb);
            ptpu_field_set(insn, PTPU_F_DMA_ADDR, src);
            ptpu_field_set(insn, PTPU_F_DMA_STRIDE1, rowb);
            ptpu_field_set(insn, PTPU_F_DMA_COUNT1, rows);
            ptpu_field_set(insn, PTPU_F_DMA_STEP1, 1);
            ptpu_field_set(insn, PTPU_F_DMA_BOUND1, 4095);
            ptpu_field_set(insn, PTPU_F_DMA_COUNT2, 1);
            ptpu_field_set(insn, PTPU_F_DMA_BOUND2, 1);
        }
        ptpu_sim_mem_write(d->s, at + 32u * (uint32_t)k, insn, 32);
    }
    return (uint32_t)nload + 1;
}

/* Watchdog, RESET during a run, RUN while busy, resent RUN, a RUN reusing an old SEQ, WAIT
 * time-out. */
static void test_run_ctl(sdev_t *d)
{
    begin();
    const uint32_t prog = 0x100000, src = 0x200000;
    struct ptpu_window all = { 0, (uint32_t)((uint64_t)g_info->mem_kb * 1024 > 0xffffffffu ? 0xffffffe0u
                                                                                           : g_info->mem_kb * 1024u), 3 };
    uint32_t n = long_prog(d, prog, src, 20);
    struct ptpu_link_status s;
    uint32_t st, det;

    /* The program alone, to know its length. */
    CHECK(run(d, prog, n, 0, &all, 1, &st, &det) == PTPU_LINK_RESP_OK, "RUN of the long program");
    CHECK(lc_wait(&d->lc, 0, &s, 20000000) && s.state == PTPU_STATE_DONE, "long program: state %u fault %u",
          s.state, s.fault);
    uint64_t len = s.cycles;

    /* Watchdog: a time-out of a quarter of its length. */
    CHECK(run(d, prog, n, (uint32_t)(len / 4), &all, 1, &st, &det) == PTPU_LINK_RESP_OK, "RUN with time-out");
    CHECK(lc_wait(&d->lc, 0, &s, 20000000) && s.state == PTPU_STATE_FAULT && s.fault == PTPU_FAULT_TIMEOUT,
          "watchdog: state %u fault %u after %" PRIu64 " cycles (time-out %" PRIu64 ")", s.state, s.fault,
          s.cycles, len / 4);
    CHECK(s.cycles < len, "watchdog: program ran %" PRIu64 " of %" PRIu64 " cycles", s.cycles, len);
    alive(d, "watchdog");

    /* WAIT with a time-out shorter than the program: answered while it still runs. */
    CHECK(run(d, prog, n, 0, &all, 1, &st, &det) == PTPU_LINK_RESP_OK, "RUN");
    CHECK(lc_wait(&d->lc, 2000, &s, RSP_CYCLES) && s.state == PTPU_STATE_RUNNING, "WAIT time-out: state %u",
          s.state);
    /* RUN while busy. */
    size_t fl = ptpu_link_req_run(d->lc.frame, ++d->lc.seq, prog, n, 0,
                                  &(struct ptpu_link_window){ all.base, all.limit, all.perm }, 1);
    req_err(d, fl, PTPU_PKT_RUN, PTPU_STATUS_BUSY, ~0u, "RUN while busy");
    /* RESET during the run (the link takes one request at a time, so no WAIT is pending):
     * the program is aborted, STATUS is IDLE, and the next program runs normally. */
    struct ptpu_link_frame f;
    ptpu_sim_step(d->s, 3000);
    CHECK(lc_status(&d->lc, &s) && s.state == PTPU_STATE_RUNNING, "before RESET: state %u", s.state);
    size_t rl = ptpu_link_req_reset(d->lc.frame, ++d->lc.seq);
    CHECK(lc_req_ok(&d->lc, rl, PTPU_PKT_RESET, &f, RSP_CYCLES) && f.len == 0, "RESET response");
    CHECK(lc_status(&d->lc, &s) && s.state == PTPU_STATE_IDLE && s.fault == 0, "after RESET: state %u fault %u",
          s.state, s.fault);
    CHECK(lc_wait(&d->lc, 0, &s, RSP_CYCLES) && s.state == PTPU_STATE_IDLE, "WAIT after RESET: state %u", s.state);
    alive(d, "RESET during a run");

    /* A resent RUN (same SEQ) gets the first response and does not start a second run. */
    const uint8_t run_seq = ++d->lc.seq;
    fl = ptpu_link_req_run(d->lc.frame, run_seq, prog, n, 0,
                           &(struct ptpu_link_window){ all.base, all.limit, all.perm }, 1);
    CHECK(lc_transact(&d->lc, fl, PTPU_PKT_RUN, &f, &st, &det, RSP_CYCLES) == PTPU_LINK_RESP_OK, "RUN");
    CHECK(lc_transact(&d->lc, fl, PTPU_PKT_RUN, &f, &st, &det, RSP_CYCLES) == PTPU_LINK_RESP_OK,
          "resent RUN: status %u (BUSY would mean a second start)", st);
    CHECK(lc_wait(&d->lc, 0, &s, 20000000) && s.state == PTPU_STATE_DONE, "after resent RUN: state %u", s.state);
    alive(d, "resent RUN");
    /* The same SEQ again, but other requests came between: a new RUN (the host's 8-bit SEQ
     * wraps), which starts. */
    fl = ptpu_link_req_run(d->lc.frame, run_seq, prog, n, 0,
                           &(struct ptpu_link_window){ all.base, all.limit, all.perm }, 1);
    CHECK(lc_transact(&d->lc, fl, PTPU_PKT_RUN, &f, &st, &det, RSP_CYCLES) == PTPU_LINK_RESP_OK,
          "RUN with an earlier RUN's SEQ: status %u", st);
    CHECK(lc_status(&d->lc, &s) && s.state == PTPU_STATE_RUNNING,
          "RUN with an earlier RUN's SEQ after other requests: state %u (not started)", s.state);
    CHECK(lc_wait(&d->lc, 0, &s, 20000000) && s.state == PTPU_STATE_DONE, "after it: state %u", s.state);
    end("run_ctl", "long program %" PRIu64 " cycles", len);
}

/* Every malformed request class and RUN rejection; the device answers after each. */
static void test_errors(sdev_t *d)
{
    begin();
    uint8_t *fr = d->lc.frame;
    struct ptpu_link_frame f;
    uint32_t st, det;
    uint32_t mem = g_info->mem_kb * 1024u;

    /* Bad CRC: NAK CRC. */
    size_t n = ptpu_link_req_info(fr, ++d->lc.seq);
    fr[n - 1] ^= 0x40;
    send_raw(d, fr, n);
    int ev = recv_frame(d, &f, RSP_CYCLES);
    CHECK(ev == PTPU_LINK_DEC_FRAME && f.type == PTPU_PKT_NAK && f.len >= 1 && f.payload[0] == PTPU_NAK_CRC,
          "bad CRC: event %d type 0x%02x", ev, f.type);
    alive(d, "bad CRC");
    /* LEN larger than the device takes: NAK LENGTH. */
    uint8_t big[6] = { PTPU_LINK_SYNC, PTPU_PKT_MEM_WRITE, 0, ++d->lc.seq, 0xff, 0xff };
    send_raw(d, big, sizeof big);
    ev = recv_frame(d, &f, RSP_CYCLES);
    CHECK(ev == PTPU_LINK_DEC_FRAME && f.type == PTPU_PKT_NAK && f.len >= 1 && f.payload[0] == PTPU_NAK_LENGTH,
          "LEN 65535: event %d type 0x%02x", ev, f.type);
    alive(d, "LEN too large");
    /* Garbage between frames is skipped. */
    uint8_t junk[64];
    for (size_t k = 0; k < sizeof junk; k++)
        junk[k] = (uint8_t)(rnd() | 1) == PTPU_LINK_SYNC ? 0 : (uint8_t)(rnd() | 1);
    for (size_t k = 0; k < sizeof junk; k++)
        if (junk[k] == PTPU_LINK_SYNC)
            junk[k] = 0;
    send_raw(d, junk, sizeof junk);
    alive(d, "garbage bytes");
    /* Unknown type (firmware), bad lengths (firmware and link). */
    n = ptpu_link_encode(fr, 0x55, 0, ++d->lc.seq, NULL, 0);
    req_err(d, n, 0x55, PTPU_STATUS_BAD_TYPE, ~0u, "unknown type");
    alive(d, "unknown type");
    uint32_t four = 0;
    n = ptpu_link_encode(fr, PTPU_PKT_STATUS, 0, ++d->lc.seq, &four, 4);
    req_err(d, n, PTPU_PKT_STATUS, PTPU_STATUS_BAD_LENGTH, ~0u, "STATUS with a payload");
    n = ptpu_link_encode(fr, PTPU_PKT_WAIT, 0, ++d->lc.seq, NULL, 0);
    req_err(d, n, PTPU_PKT_WAIT, PTPU_STATUS_BAD_LENGTH, ~0u, "WAIT without time-out");
    n = ptpu_link_encode(fr, PTPU_PKT_RUN, 0, ++d->lc.seq, &four, 3);
    req_err(d, n, PTPU_PKT_RUN, PTPU_STATUS_BAD_LENGTH, ~0u, "RUN of 3 bytes");
    n = ptpu_link_encode(fr, PTPU_PKT_MEM_READ, 0, ++d->lc.seq, &four, 3);
    req_err(d, n, PTPU_PKT_MEM_READ, PTPU_STATUS_BAD_LENGTH, ~0u, "MEM_READ of 3 bytes");
    alive(d, "bad lengths");
    /* Out-of-range memory access. */
    n = ptpu_link_req_mem_read(fr, ++d->lc.seq, mem - 16, 32);
    req_err(d, n, PTPU_PKT_MEM_READ, PTPU_STATUS_BAD_ADDRESS, ~0u, "MEM_READ past memory");
    uint8_t data[64] = { 0 };
    n = ptpu_link_req_mem_write(fr, ++d->lc.seq, mem - 8, data, 64);
    req_err(d, n, PTPU_PKT_MEM_WRITE, PTPU_STATUS_BAD_ADDRESS, ~0u, "MEM_WRITE past memory");
    alive(d, "out-of-range addresses");
    /* RUN rejections (docs/firmware.md). */
    struct ptpu_link_window w_all = { 0, mem, 3 }, w_wo = { 0, mem, 2 }, w_bad = { 4096, 4096, 1 },
                            w_past = { 0, mem + 4096, 1 }, w_perm = { 0, 4096, 5 };
    struct { uint32_t addr, len; struct ptpu_link_window w; int nw; uint32_t detail; const char *what; } bad[] = {
        { 0x1010, 4, w_all, 1, 1, "misaligned program" },
        { 0x1000, 0, w_all, 1, 2, "empty program" },
        { mem - 64, 4, w_all, 1, 3, "program past memory" },
        { 0x1000, 4, w_bad, 1, 4, "empty window" },
        { 0x1000, 4, w_past, 1, 4, "window past memory" },
        { 0x1000, 4, w_perm, 1, 4, "unknown permission bits" },
        { 0x1000, 4, w_wo, 1, 5, "program not readable" },
        { 0x1000, 4, w_all, 0, 6, "no window" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        n = ptpu_link_req_run(fr, ++d->lc.seq, bad[k].addr, bad[k].len, 0, &bad[k].w, bad[k].nw);
        req_err(d, n, PTPU_PKT_RUN, PTPU_STATUS_BAD_PROGRAM, bad[k].detail, bad[k].what);
    }
    struct ptpu_link_window many[17];
    for (int k = 0; k < 17; k++)
        many[k] = w_all;
    n = ptpu_link_req_run(fr, ++d->lc.seq, 0x1000, 4, 0, many, (int)d->lc.info.num_windows + 1);
    req_err(d, n, PTPU_PKT_RUN, PTPU_STATUS_BAD_PROGRAM, 6, "more windows than the device has");
    struct ptpu_link_status s;
    CHECK(lc_status(&d->lc, &s) && s.state != PTPU_STATE_RUNNING, "a rejected RUN started: state %u", s.state);
    alive(d, "rejected RUNs");
    /* A bad program (static fault) is a FAULT, not a rejection. */
    uint32_t insn[8] = { 0 };
    ptpu_sim_mem_write(d->s, 0x3000, insn, 32);     /* opcode 0 */
    CHECK(run(d, 0x3000, 1, 0, (struct ptpu_window *)&w_all, 1, &st, &det) == PTPU_LINK_RESP_OK, "RUN");
    CHECK(lc_wait(&d->lc, 0, &s, RSP_CYCLES) && s.state == PTPU_STATE_FAULT && s.fault == PTPU_FAULT_BAD_OPCODE &&
              s.fault_pc == 0,
          "opcode 0: state %u fault %u pc %u", s.state, s.fault, s.fault_pc);
    alive(d, "bad program");
    end("errors", "bad CRC, LEN, garbage, type, lengths, addresses, 9 RUN rejections, bad opcode");
}

/* ------------------------------------------------------------------ benchmark */

/* Process CPU time: the machine is shared, and wall-clock rates would measure the load. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Simulated cycles per second of CPU time: idle (firmware polling) and running random
 * programs back to back (with their link traffic). */
static int bench(sdev_t *d, uint64_t budget, uint64_t seed)
{
    double t0 = now_s();
    uint64_t c0 = ptpu_sim_cycles(d->s);
    ptpu_sim_step(d->s, 200000);
    double idle = (double)(ptpu_sim_cycles(d->s) - c0) / (now_s() - t0);
    struct ptpu_ref_cfg rc = { g_info->n, g_info->bf16, g_info->ub_rows, g_info->wb_rows, g_info->acc_rows,
                               g_info->vp_rows, g_info->mem_kb };
    t0 = now_s();
    c0 = ptpu_sim_cycles(d->s);
    uint64_t busy = 0;
    begin();
    for (int i = 0; ptpu_sim_cycles(d->s) - c0 < budget && !g_errors; i++) {
        struct progen_opts o = { rc.n, rc.bf16, rc.ub_rows, rc.wb_rows, rc.acc_rows, rc.vp_rows, rc.mem_kb, 64, 0 };
        struct progen p;
        if (progen_make(seed + (uint64_t)i, &o, &p))
            continue;
        for (int r = 0; r < p.ninit; r++)
            ptpu_sim_mem_write(d->s, p.init[r].addr, p.init_data[r], p.init[r].len);
        ptpu_sim_mem_write(d->s, p.prog_addr, p.prog, (size_t)p.prog_len * 32);
        uint32_t st, det;
        struct ptpu_link_status s;
        if (run(d, p.prog_addr, p.prog_len, 0, p.win, p.nwin, &st, &det) == PTPU_LINK_RESP_OK &&
            lc_wait(&d->lc, 0, &s, 50000000))
            busy += s.cycles;
        progen_free(&p);
    }
    double dt = now_s() - t0;
    double run_rate = (double)(ptpu_sim_cycles(d->s) - c0) / dt;
    printf("BENCH soc.sim_cycles_per_s %.0f (config %s; idle %.0f; programs: %" PRIu64
           " cycles, %.0f %% busy, %.1f s of CPU time)\n", run_rate, g_info->config, idle,
           ptpu_sim_cycles(d->s) - c0, 100.0 * (double)busy / (double)(ptpu_sim_cycles(d->s) - c0), dt);
    return g_errors ? 1 : 0;
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    bool have_seed = false, do_bench = false;
    int nprogs = 24;
    uint64_t bench_cycles = 2000000;
    const char *only = NULL;
    if (getenv("SEED")) {
        seed = strtoull(getenv("SEED"), NULL, 0);
        have_seed = true;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
            have_seed = true;
        } else if (!strcmp(argv[i], "--progs") && i + 1 < argc) {
            nprogs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--bench")) {
            do_bench = true;
        } else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
            bench_cycles = strtoull(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--progs N] [--only TEST] | --bench [--cycles N]\n", argv[0]);
            return 2;
        }
    }
    if (!have_seed)
        seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    g_rng[0] = seed ^ 0x9e3779b97f4a7c15ull;
    g_rng[1] = (seed << 1) | 1;
    for (int i = 0; i < 8; i++)
        rnd();
    g_info = ptpu_sim_info();
    printf("tb_soc: config %s, seed %" PRIu64 "\n", g_info->config, seed);

    sdev_t *d = calloc(1, sizeof *d);
    if (dev_open(d))
        return 1;
    if (do_bench) {
        int rc = bench(d, bench_cycles, seed);
        dev_close(d);
        free(d);
        return rc;
    }
#define RUN_TEST(name, call) if (!only || !strcmp(only, name)) { call; }
    RUN_TEST("info", test_info(d));
    RUN_TEST("mem", test_mem(d, 60));
    RUN_TEST("errors", test_errors(d));
    RUN_TEST("run_ctl", test_run_ctl(d));
    RUN_TEST("progs", test_progs(d, nprogs, seed));
    char con[4096];
    size_t cn = ptpu_sim_console_read(d->s, con, sizeof con - 1);
    con[cn] = 0;
    if (g_fail)
        printf("tb_soc: console:\n%s", con);
    printf("tb_soc: %" PRIu64 " cycles simulated\n", ptpu_sim_cycles(d->s));
    dev_close(d);
    free(d);
    return g_fail ? 1 : 0;
}

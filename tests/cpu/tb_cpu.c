/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_cpu.c - the simulated platform of tpu_cpu and its test modes.
 *
 * The platform (fw/include/ptpu_sim.h): RAM from address 0, an MMIO page with
 * the console, the exit register, a 64-bit timer (mtime/mtimecmp) and the
 * external interrupt line; every other address is an access fault.  The core's
 * instruction and data ports see either a 1-cycle SRAM (--bus sram) or a
 * variable-latency bus with random stalls (--bus random).
 *
 * Every retirement of the RTL is checked against the instruction-set model
 * (rv32_model.c): pc, instruction, trap cause, register write, next pc and the
 * data request.  Interrupts from the platform's asynchronous lines are taken
 * when the RTL takes them, after checking that the model allows them.
 *
 *   tb_cpu [options] IMAGE...    run each firmware image (.bin or .hex) until
 *                                it writes EXIT; one PASS/FAIL line each
 *   tb_cpu --random N [--len L]  N random programs, each run on the RTL and the
 *                                model with random bus timing and interrupts
 *   tb_cpu --bench IMAGE         CPI and simulation speed on the 1-cycle SRAM
 *
 * Options: --bus sram|random, --model (run images on the model alone: checks
 * the test programs themselves), --no-cosim, --max-cycles N, --ram-kb N,
 * --expect FILE (console output must equal the file), --expect-exit N,
 * --expect-console TEXT (console must contain it), --trace, --seed N.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv32_asm.h"
#include "rv32_model.h"
#include "tb.h"

#ifndef TB_CPU_HAS_M
#define TB_CPU_HAS_M 0
#endif
#ifndef TB_CPU_NAME
#define TB_CPU_NAME "cpu"
#endif
#ifndef TB_CPU_BOOT
#define TB_CPU_BOOT 0
#endif

#define MMIO_BASE 0x10000000u
#define MMIO_CONSOLE 0x00
#define MMIO_EXIT 0x04
#define MMIO_MTIME_LO 0x08
#define MMIO_MTIME_HI 0x0c
#define MMIO_MTIMECMP_LO 0x10
#define MMIO_MTIMECMP_HI 0x14
#define MMIO_IRQ 0x18
#define MMIO_IRQ_DELAY 0x1c
#define MMIO_END 0x20

/* ------------------------------------------------------------------ options */

typedef struct opts {
    bool random_bus;
    bool model_only;
    bool cosim;
    bool trace;
    bool bench;
    uint64_t max_cycles;
    uint32_t ram_size;
    const char *expect_file;
    const char *expect_text;
    long expect_exit;
    int random_n, random_len;
} opts_t;

static void usage(void)
{
    fprintf(stderr,
            "usage: tb_cpu [--bus sram|random] [--model] [--no-cosim] [--max-cycles N]\n"
            "              [--ram-kb N] [--expect FILE] [--expect-exit N] [--expect-console TEXT]\n"
            "              [--trace] [--seed N] IMAGE.bin|IMAGE.hex ...\n"
            "       tb_cpu --random N [--len L] [--seed N]\n"
            "       tb_cpu --bench IMAGE\n");
    exit(2);
}

static long num_arg(const char *s, const char *opt)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (errno || *end || v < 0) {
        fprintf(stderr, "tb_cpu: bad value '%s' for %s\n", s, opt);
        exit(2);
    }
    return v;
}

/* ----------------------------------------------------------------- platform */

typedef struct plat {
    uint8_t *ram;
    uint32_t ram_size;
    uint64_t mtime, mtimecmp;
    bool irq;
    uint64_t irq_delay;     /* cycles until irq rises, 0 = none */
    bool exited;
    uint32_t exit_code;
    char *con;
    size_t con_len, con_cap;
} plat_t;

enum { A_FAULT, A_RAM, A_MMIO };

static int addr_kind(const plat_t *p, uint32_t a)
{
    if (a < p->ram_size)
        return A_RAM;
    if (a >= MMIO_BASE && a < MMIO_BASE + MMIO_END)
        return A_MMIO;
    return A_FAULT;
}

static void plat_reset(plat_t *p)
{
    memset(p->ram, 0, p->ram_size);
    p->mtime = 0;
    p->mtimecmp = ~0ull;
    p->irq = false;
    p->irq_delay = 0;
    p->exited = false;
    p->exit_code = 0;
    p->con_len = 0;
}

static void con_put(plat_t *p, char c)
{
    if (p->con_len + 2 > p->con_cap) {
        p->con_cap = p->con_cap ? 2 * p->con_cap : 4096;
        p->con = realloc(p->con, p->con_cap);
        if (!p->con) {
            perror("tb_cpu");
            exit(2);
        }
    }
    p->con[p->con_len++] = c;
    p->con[p->con_len] = 0;
}

static uint32_t merge(uint32_t old, uint32_t wdata, unsigned wstrb)
{
    uint32_t m = 0;
    for (int i = 0; i < 4; i++)
        if (wstrb & (1u << i))
            m |= 0xffu << (8 * i);
    return (old & ~m) | (wdata & m);
}

static int plat_fetch(plat_t *p, uint32_t a, uint32_t *insn)
{
    if (addr_kind(p, a) != A_RAM || (a & 3))
        return -1;
    memcpy(insn, p->ram + a, 4);
    return 0;
}

static int plat_load(plat_t *p, uint32_t a, uint32_t *word)
{
    uint32_t w = a & ~3u;
    switch (addr_kind(p, a)) {
    case A_RAM:
        memcpy(word, p->ram + w, 4);
        return 0;
    case A_MMIO:
        switch (w - MMIO_BASE) {
        case MMIO_MTIME_LO: *word = (uint32_t)p->mtime; break;
        case MMIO_MTIME_HI: *word = (uint32_t)(p->mtime >> 32); break;
        case MMIO_MTIMECMP_LO: *word = (uint32_t)p->mtimecmp; break;
        case MMIO_MTIMECMP_HI: *word = (uint32_t)(p->mtimecmp >> 32); break;
        case MMIO_IRQ: *word = p->irq; break;
        default: *word = 0; break;  /* write-only registers read as zero */
        }
        return 0;
    default:
        return -1;
    }
}

static int plat_store(plat_t *p, uint32_t a, uint32_t wdata, unsigned wstrb)
{
    uint32_t w = a & ~3u, v;
    switch (addr_kind(p, a)) {
    case A_RAM:
        memcpy(&v, p->ram + w, 4);
        v = merge(v, wdata, wstrb);
        memcpy(p->ram + w, &v, 4);
        return 0;
    case A_MMIO:
        switch (w - MMIO_BASE) {
        case MMIO_CONSOLE:
            for (int i = 0; i < 4; i++)
                if (wstrb & (1u << i)) {
                    con_put(p, (char)(wdata >> (8 * i)));
                    break;
                }
            break;
        case MMIO_EXIT:
            p->exited = true;
            p->exit_code = merge(0, wdata, wstrb);
            break;
        case MMIO_MTIME_LO:
            p->mtime = (p->mtime & ~0xffffffffull) | merge((uint32_t)p->mtime, wdata, wstrb);
            break;
        case MMIO_MTIME_HI:
            p->mtime = (p->mtime & 0xffffffffull) |
                       ((uint64_t)merge((uint32_t)(p->mtime >> 32), wdata, wstrb) << 32);
            break;
        case MMIO_MTIMECMP_LO:
            p->mtimecmp = (p->mtimecmp & ~0xffffffffull) | merge((uint32_t)p->mtimecmp, wdata, wstrb);
            break;
        case MMIO_MTIMECMP_HI:
            p->mtimecmp = (p->mtimecmp & 0xffffffffull) |
                          ((uint64_t)merge((uint32_t)(p->mtimecmp >> 32), wdata, wstrb) << 32);
            break;
        case MMIO_IRQ:
            p->irq = merge(p->irq, wdata, wstrb) & 1;
            break;
        case MMIO_IRQ_DELAY:
            p->irq_delay = merge(0, wdata, wstrb);
            break;
        }
        return 0;
    default:
        return -1;
    }
}

/* One platform clock: the timer counts, a delayed interrupt may rise. */
static void plat_tick(plat_t *p)
{
    p->mtime++;
    if (p->irq_delay && --p->irq_delay == 0)
        p->irq = true;
}

static bool plat_mtip(const plat_t *p) { return p->mtime >= p->mtimecmp; }

/* Loads a .bin (raw, from address 0) or .hex (@word-address, one 32-bit word
 * per line) image into RAM.  Returns false with a message on error. */
static bool load_image(plat_t *p, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    size_t n = strlen(path);
    bool ok = true;
    if (n > 4 && strcmp(path + n - 4, ".hex") == 0) {
        char tok[64];
        uint64_t waddr = 0;
        while (ok && fscanf(f, "%63s", tok) == 1) {
            char *end;
            if (tok[0] == '@') {
                waddr = strtoull(tok + 1, &end, 16);
                ok = *end == 0;
                continue;
            }
            uint32_t v = (uint32_t)strtoul(tok, &end, 16);
            if (*end || waddr * 4 + 4 > p->ram_size) {
                snprintf(err, errlen, "%s: bad word '%s' or beyond RAM", path, tok);
                ok = false;
                break;
            }
            memcpy(p->ram + waddr * 4, &v, 4);
            waddr++;
        }
        if (!ok && !err[0])
            snprintf(err, errlen, "%s: bad address", path);
    } else if (n > 4 && strcmp(path + n - 4, ".bin") == 0) {
        size_t got = fread(p->ram, 1, p->ram_size, f);
        if (!feof(f) || ferror(f)) {
            snprintf(err, errlen, "%s: larger than RAM (%u bytes)", path, p->ram_size);
            ok = false;
        } else if (got == 0) {
            snprintf(err, errlen, "%s: empty", path);
            ok = false;
        }
    } else {
        snprintf(err, errlen, "%s: not a .bin or .hex image", path);
        ok = false;
    }
    fclose(f);
    return ok;
}

/* ---------------------------------------------------------------- the DUT */

typedef struct dut {
    tb_t *tb;
    tb_sig_t *rst_n;
    tb_sig_t *i_valid, *i_ready, *i_addr, *i_rvalid, *i_rdata, *i_err;
    tb_sig_t *d_valid, *d_ready, *d_addr, *d_we, *d_wdata, *d_wstrb, *d_rvalid, *d_rdata, *d_err;
    tb_sig_t *irq, *timer_irq;
    tb_sig_t *t_valid, *t_pc, *t_insn, *t_trap, *t_cause, *t_rd, *t_wdata, *t_next;
    int models;
} dut_t;

static void dut_ports(dut_t *d)
{
    tb_t *tb = d->tb;
    d->rst_n = tb_sig(tb, "rst_ni");
    d->i_valid = tb_sig(tb, "imem_req_valid_o");
    d->i_ready = tb_sig(tb, "imem_req_ready_i");
    d->i_addr = tb_sig(tb, "imem_req_addr_o");
    d->i_rvalid = tb_sig(tb, "imem_rsp_valid_i");
    d->i_rdata = tb_sig(tb, "imem_rsp_rdata_i");
    d->i_err = tb_sig(tb, "imem_rsp_err_i");
    d->d_valid = tb_sig(tb, "dmem_req_valid_o");
    d->d_ready = tb_sig(tb, "dmem_req_ready_i");
    d->d_addr = tb_sig(tb, "dmem_req_addr_o");
    d->d_we = tb_sig(tb, "dmem_req_we_o");
    d->d_wdata = tb_sig(tb, "dmem_req_wdata_o");
    d->d_wstrb = tb_sig(tb, "dmem_req_wstrb_o");
    d->d_rvalid = tb_sig(tb, "dmem_rsp_valid_i");
    d->d_rdata = tb_sig(tb, "dmem_rsp_rdata_i");
    d->d_err = tb_sig(tb, "dmem_rsp_err_i");
    d->irq = tb_sig(tb, "irq_i");
    d->timer_irq = tb_sig(tb, "timer_irq_i");
    d->t_valid = tb_sig(tb, "trace_valid_o");
    d->t_pc = tb_sig(tb, "trace_pc_o");
    d->t_insn = tb_sig(tb, "trace_insn_o");
    d->t_trap = tb_sig(tb, "trace_trap_o");
    d->t_cause = tb_sig(tb, "trace_cause_o");
    d->t_rd = tb_sig(tb, "trace_rd_o");
    d->t_wdata = tb_sig(tb, "trace_rd_wdata_o");
    d->t_next = tb_sig(tb, "trace_next_pc_o");
}

/* A fresh model per program: the register file and the RAM-held CSRs start
 * from their configuration values again, as on a freshly loaded FPGA. */
static void dut_fresh(dut_t *d, const char *prog)
{
    tb_t *tb = d->tb;
    if (d->models++) {
        tbm_free(tb->m);
        tb->m = tbm_new(tb->name);
        tb->clk = tb_sig(tb, "clk_i");
        tb->rst_n = tb_sig(tb, "rst_ni");
        if (tb->tracing) {
            char path[512];
            snprintf(path, sizeof path, "build/waves/%s-%s.fst", tb->name, prog);
            for (char *c = path + 12; *c; c++)
                if (*c == '/')
                    *c = '_';
            tbm_trace_open(tb->m, path);
        }
    }
    dut_ports(d);
    tb_set(d->i_ready, 0);
    tb_set(d->i_rvalid, 0);
    tb_set(d->d_ready, 0);
    tb_set(d->d_rvalid, 0);
    tb_set(d->irq, 0);
    tb_set(d->timer_irq, 0);
    tb_reset(tb, 3);
}

/* --------------------------------------------------------- co-simulation */

typedef struct port {
    bool pending;
    uint32_t wait;
    uint32_t rdata;
    bool err;
} port_t;

typedef struct memrec {        /* the RTL's data request of one instruction */
    bool valid, we, err;
    uint32_t addr, wdata, rdata;
    unsigned wstrb;
} memrec_t;

typedef struct run {
    const opts_t *o;
    tb_t *tb;
    dut_t *d;
    plat_t *p;
    rv32_t m;
    uint8_t *mram;             /* the model's own copy of RAM */
    memrec_t rec;
    bool rtl_rd_valid;
    uint32_t rtl_rd_wdata;
    bool mmio_mismatch;
    char err[512];
    uint64_t cycles, instret, events;
    /* random mode */
    bool strict_irq;           /* the model decides interrupts itself */
    bool lv_irq, lv_timer;     /* interrupt levels driven by the testbench */
} run_t;

static bool failf(run_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(run_t *r, const char *fmt, ...)
{
    if (!r->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, sizeof r->err, fmt, ap);
        va_end(ap);
    }
    return false;
}

static int m_fetch(void *ctx, uint32_t a, uint32_t *insn)
{
    run_t *r = ctx;
    if (addr_kind(r->p, a) != A_RAM)
        return -1;
    memcpy(insn, r->mram + a, 4);
    return 0;
}

static int m_load(void *ctx, uint32_t a, int size, uint32_t *word)
{
    run_t *r = ctx;
    (void)size;
    switch (addr_kind(r->p, a)) {
    case A_RAM:
        memcpy(word, r->mram + (a & ~3u), 4);
        return 0;
    case A_MMIO:
        /* Device registers change with time: use what the RTL read. */
        if (!r->rec.valid || r->rec.addr != a || r->rec.we)
            r->mmio_mismatch = true;
        *word = r->rec.rdata;
        return 0;
    default:
        return -1;
    }
}

static int m_store(void *ctx, uint32_t a, uint32_t wdata, unsigned wstrb)
{
    run_t *r = ctx;
    uint32_t v;
    switch (addr_kind(r->p, a)) {
    case A_RAM:
        memcpy(&v, r->mram + (a & ~3u), 4);
        v = merge(v, wdata, wstrb);
        memcpy(r->mram + (a & ~3u), &v, 4);
        return 0;
    case A_MMIO:
        return 0;  /* the RTL's store had the effect; compared below */
    default:
        return -1;
    }
}

/* mcycle is not cycle-exact in the model: reads replay the RTL's value. */
static bool m_csr_read(void *ctx, unsigned csr, uint32_t *v)
{
    run_t *r = ctx;
    if (csr != 0xb00 && csr != 0xb80 && csr != 0xc00 && csr != 0xc80)
        return false;
    *v = r->rtl_rd_valid ? r->rtl_rd_wdata : 0;
    return true;
}

static void print_commit(const char *who, const rv32_commit_t *c)
{
    char dis[64];
    printf("# %s pc=%08x %08x %-28s", who, c->pc, c->insn, rv32_disasm(c->insn, dis, sizeof dis));
    if (c->trap)
        printf(" TRAP cause=%s%u", (c->cause & 0x10) ? "irq " : "", c->cause & 0xf);
    if (c->rd)
        printf(" x%u=%08x", c->rd, c->rd_wdata);
    if (c->mem)
        printf(" %s[%08x]/%x%s%08x", c->mem_we ? "st" : "ld", c->mem_addr, c->mem_wstrb,
               c->mem_we ? "=" : "", c->mem_we ? c->mem_wdata : 0);
    printf(" -> %08x\n", c->next_pc);
}

/* One RTL retirement: step the model the same way and compare. */
static bool cosim_event(run_t *r)
{
    dut_t *d = r->d;
    rv32_commit_t rtl = {0}, c;
    rtl.pc = (uint32_t)tb_get(d->t_pc);
    rtl.insn = (uint32_t)tb_get(d->t_insn);
    rtl.trap = tb_get(d->t_trap);
    rtl.cause = rtl.trap ? (unsigned)tb_get(d->t_cause) : 0;
    rtl.rd = (unsigned)tb_get(d->t_rd);
    rtl.rd_wdata = (uint32_t)tb_get(d->t_wdata);
    rtl.next_pc = (uint32_t)tb_get(d->t_next);
    rtl.mem = r->rec.valid;
    rtl.mem_we = r->rec.we;
    rtl.mem_addr = r->rec.addr;
    rtl.mem_wdata = r->rec.wdata;
    rtl.mem_wstrb = r->rec.wstrb;

    if (r->o->trace)
        print_commit("rtl  ", &rtl);
    if (!r->o->cosim)
        return true;

    r->rtl_rd_valid = rtl.rd != 0;
    r->rtl_rd_wdata = rtl.rd_wdata;
    r->mmio_mismatch = false;
    r->m.meip = tb_get(d->irq);
    r->m.mtip = tb_get(d->timer_irq);
    bool rtl_irq = rtl.trap && (rtl.cause & 0x10);
    if (r->strict_irq) {
        rv32_step(&r->m, &c);
    } else if (rtl_irq) {
        if (!rv32_take_irq(&r->m, rtl.cause, &c))
            return failf(r, "pc %08x: the RTL took interrupt %u, which mstatus/mie do not allow",
                         rtl.pc, rtl.cause & 0xf);
    } else {
        rv32_exec(&r->m, &c);
    }
    if (r->o->trace)
        print_commit("model", &c);

    char dis[64];
    rv32_disasm(c.insn, dis, sizeof dis);
#define CMP(field, what)                                                                        \
    if (rtl.field != c.field)                                                                   \
        return failf(r, "pc %08x (%s): %s: RTL %x, model %x", c.pc, dis, what,                  \
                     (unsigned)rtl.field, (unsigned)c.field);
    CMP(pc, "pc");
    CMP(trap, "trap");
    CMP(cause, "trap cause");
    if (!c.trap || (c.cause != RV32_EXC_INSN_FAULT && !(c.cause & 0x10)))
        CMP(insn, "instruction");
    CMP(rd, "destination register");
    CMP(rd_wdata, "register value");
    CMP(next_pc, "next pc");
    CMP(mem, "data request made");
    if (c.mem) {
        CMP(mem_we, "data request write");
        CMP(mem_addr, "data address");
        CMP(mem_wstrb, "data byte lanes");
        if (c.mem_we)
            CMP(mem_wdata, "store data");
    }
#undef CMP
    if (r->mmio_mismatch)
        return failf(r, "pc %08x (%s): the model read MMIO the RTL did not", c.pc, dis);
    return true;
}

/* Bus timing: a 1-cycle SRAM, or random stalls and latencies. */
static uint32_t latency(run_t *r)
{
    if (!r->o->random_bus)
        return 1;
    if (tb_chance(r->tb, 1, 20))
        return (uint32_t)tb_rand_range(r->tb, 5, 24);
    return (uint32_t)tb_rand_range(r->tb, 1, 3);
}

static bool ready(run_t *r)
{
    return !r->o->random_bus || tb_chance(r->tb, 2, 3);
}

/* Runs the RTL until EXIT (plus a few cycles so that the exit store
 * retires) or the cycle limit.  Returns false with r->err set on a mismatch
 * or a hang. */
static bool run_rtl(run_t *r)
{
    dut_t *d = r->d;
    plat_t *p = r->p;
    port_t ip = {0}, dp = {0};
    uint64_t stop_at = 0;
    memset(&r->rec, 0, sizeof r->rec);

    for (r->cycles = 0; r->cycles < r->o->max_cycles; r->cycles++) {
        tb_set(d->i_rvalid, ip.pending && ip.wait == 0);
        tb_set(d->i_rdata, ip.rdata);
        tb_set(d->i_err, ip.err);
        tb_set(d->d_rvalid, dp.pending && dp.wait == 0);
        tb_set(d->d_rdata, dp.rdata);
        tb_set(d->d_err, dp.err);
        bool ir = ready(r), dr = ready(r);
        tb_set(d->i_ready, ir);
        tb_set(d->d_ready, dr);
        if (r->strict_irq) {
            tb_set(d->irq, r->lv_irq);
            tb_set(d->timer_irq, r->lv_timer);
        } else {
            tb_set(d->irq, p->irq);
            tb_set(d->timer_irq, plat_mtip(p));
        }
        tb_fall(r->tb);

        if (ip.pending && ip.wait == 0)
            ip.pending = false;
        if (dp.pending && dp.wait == 0)
            dp.pending = false;
        if (tb_get(d->i_valid) && ir) {
            if (ip.pending)
                return failf(r, "fetch request while one is outstanding");
            uint32_t a = (uint32_t)tb_get(d->i_addr);
            ip.pending = true;
            ip.wait = latency(r);
            ip.err = plat_fetch(p, a, &ip.rdata) != 0;
            if (ip.err)
                ip.rdata = tb_rand32(r->tb);  /* garbage with the error */
        }
        if (tb_get(d->d_valid) && dr) {
            if (dp.pending)
                return failf(r, "data request while one is outstanding");
            memrec_t *m = &r->rec;
            if (m->valid)
                return failf(r, "two data requests for one instruction (pc %08x)",
                             (uint32_t)tb_get(d->t_pc));
            m->valid = true;
            m->addr = (uint32_t)tb_get(d->d_addr);
            m->we = tb_get(d->d_we);
            m->wdata = (uint32_t)tb_get(d->d_wdata);
            m->wstrb = (unsigned)tb_get(d->d_wstrb);
            dp.pending = true;
            dp.wait = latency(r);
            if (m->we) {
                dp.err = plat_store(p, m->addr, m->wdata, m->wstrb) != 0;
                dp.rdata = tb_rand32(r->tb);
            } else {
                dp.err = plat_load(p, m->addr, &dp.rdata) != 0;
                if (dp.err)
                    dp.rdata = tb_rand32(r->tb);
            }
            m->err = dp.err;
            m->rdata = dp.rdata;
            if (p->exited && !stop_at)
                stop_at = r->cycles + 64;
        }
        if (tb_get(d->t_valid)) {
            r->events++;
            if (!tb_get(d->t_trap))
                r->instret++;
            if (!cosim_event(r))
                return false;
            memset(&r->rec, 0, sizeof r->rec);
            if (r->strict_irq) {
                /* Lines change only between retirements, so the model sees
                 * the levels the RTL sampled. */
                if (r->lv_irq ? tb_chance(r->tb, 1, 3) : tb_chance(r->tb, 1, 40))
                    r->lv_irq = !r->lv_irq;
                if (r->lv_timer ? tb_chance(r->tb, 1, 3) : tb_chance(r->tb, 1, 60))
                    r->lv_timer = !r->lv_timer;
            }
            if (stop_at && !r->rec.valid && !dp.pending)
                return true;
        }
        tb_rise(r->tb);
        if (ip.pending && ip.wait)
            ip.wait--;
        if (dp.pending && dp.wait)
            dp.wait--;
        plat_tick(p);
        if (stop_at && r->cycles >= stop_at)
            return true;
    }
    return failf(r, "no EXIT after %llu cycles (pc %08x)", (unsigned long long)r->cycles,
                 (uint32_t)tb_get(d->i_addr));
}

/* Runs the model alone on the platform (one step per clock). */
static bool run_model(run_t *r)
{
    plat_t *p = r->p;
    rv32_commit_t c;
    for (r->cycles = 0; r->cycles < r->o->max_cycles && !p->exited; r->cycles++) {
        r->m.meip = p->irq;
        r->m.mtip = plat_mtip(p);
        rv32_step(&r->m, &c);
        if (r->o->trace)
            print_commit("model", &c);
        if (!c.trap)
            r->instret++;
        plat_tick(p);
    }
    if (!p->exited)
        return failf(r, "no EXIT after %llu steps (pc %08x)", (unsigned long long)r->cycles, r->m.pc);
    return true;
}

static int m_fetch_plat(void *ctx, uint32_t a, uint32_t *insn) { return plat_fetch(((run_t *)ctx)->p, a, insn); }
static int m_load_plat(void *ctx, uint32_t a, int size, uint32_t *w)
{
    (void)size;
    return plat_load(((run_t *)ctx)->p, a, w);
}
static int m_store_plat(void *ctx, uint32_t a, uint32_t wd, unsigned ws)
{
    return plat_store(((run_t *)ctx)->p, a, wd, ws);
}

static void model_setup(run_t *r, bool on_platform)
{
    r->m.bus.ctx = r;
    if (on_platform) {
        r->m.bus.fetch = m_fetch_plat;
        r->m.bus.load = m_load_plat;
        r->m.bus.store = m_store_plat;
        r->m.bus.csr_read = NULL;
    } else {
        r->m.bus.fetch = m_fetch;
        r->m.bus.load = m_load;
        r->m.bus.store = m_store;
        r->m.bus.csr_read = m_csr_read;
    }
    rv32_init(&r->m, TB_CPU_BOOT, TB_CPU_HAS_M, 0);
}

/* ------------------------------------------------------------- image runs */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t n;
    while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 >= cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (s)
        s[len] = 0;
    return s;
}

static const char *base_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    snprintf(buf, len, "%s", b ? b + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot)
        *dot = 0;
    return buf;
}

static void run_image(tb_t *tb, dut_t *d, plat_t *p, const opts_t *o, const char *path)
{
    char name[256], test[320];
    base_name(path, name, sizeof name);
    snprintf(test, sizeof test, "%s/%s (%s%s)", TB_CPU_NAME, name,
             o->model_only ? "model" : o->random_bus ? "random bus" : "sram",
             o->model_only || o->cosim ? "" : ", no cosim");
    tb_begin(tb);

    static run_t r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.tb = tb;
    r.d = d;
    r.p = p;
    plat_reset(p);
    if (!load_image(p, path, r.err, sizeof r.err)) {
        tb_check(tb, false, "%s", r.err);
        tb_end(tb, test, NULL);
        return;
    }
    bool ok;
    double t0 = tb_now();
    if (o->model_only) {
        model_setup(&r, true);
        ok = run_model(&r);
    } else {
        r.mram = malloc(p->ram_size);
        memcpy(r.mram, p->ram, p->ram_size);
        model_setup(&r, false);
        dut_fresh(d, name);
        ok = run_rtl(&r);
        free(r.mram);
    }
    double secs = tb_now() - t0;
    tb_check(tb, ok, "%s", r.err);
    if (ok && (long)p->exit_code != o->expect_exit)
        tb_check(tb, false, "exit code 0x%x, expected 0x%lx; console tail: %.200s", p->exit_code,
                 o->expect_exit, p->con_len > 200 ? p->con + p->con_len - 200 : (p->con ? p->con : ""));
    if (ok && o->expect_file) {
        char *want = read_file(o->expect_file);
        tb_check(tb, want != NULL, "cannot read %s", o->expect_file);
        if (want)
            tb_check(tb, strcmp(want, p->con ? p->con : "") == 0,
                     "console differs from %s:\n--- got\n%s--- expected\n%s", o->expect_file,
                     p->con ? p->con : "", want);
        free(want);
    }
    if (ok && o->expect_text)
        tb_check(tb, p->con && strstr(p->con, o->expect_text),
                 "console lacks \"%s\"", o->expect_text);
    if (p->con_len && (tb->errors || o->trace))
        printf("# console:\n%s%s", p->con, p->con[p->con_len - 1] == '\n' ? "" : "\n");
    if (o->bench) {
        printf("BENCH cycles=%llu instret=%llu cpi=%.4f seconds=%.3f cycles_per_s=%.0f\n",
               (unsigned long long)r.cycles, (unsigned long long)r.instret,
               r.instret ? (double)r.cycles / (double)r.instret : 0.0, secs,
               secs > 0 ? (double)r.cycles / secs : 0.0);
    }
    tb_end(tb, test, "cycles=%llu instret=%llu", (unsigned long long)r.cycles,
           (unsigned long long)r.instret);
}

/* --------------------------------------------------- random programs */

enum {
    R_HANDLER = 0x7000,   /* trap handler */
    R_DATA = 0x8000,      /* 16 KB of random data */
    R_DATA_BASE = 0xa000, /* x28 points here: offsets +-2 KB stay inside */
    R_BAD = 0x20000000,   /* x27 points here: access faults */
};

typedef struct gen {
    tb_t *tb;
    uint32_t *code;       /* RAM as words */
    uint32_t pc, end;     /* next address, end of the body */
    bool has_m;
} gen_t;

static void emit(gen_t *g, uint32_t insn)
{
    if (g->pc < g->end)
        g->code[g->pc / 4] = insn;
    g->pc += 4;
}

static uint32_t rnd(gen_t *g, uint32_t n) { return (uint32_t)tb_rand_range(g->tb, 0, n - 1); }
static unsigned any_reg(gen_t *g) { return rnd(g, 32); }
/* Destinations: x0-x26 (x27-x31 are the generator's). */
static unsigned dst_reg(gen_t *g) { return rnd(g, 27); }

static uint32_t interesting(gen_t *g)
{
    static const uint32_t v[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
                                 0x80000001, 31, 32, 0x0000ffff, 0xffff0000};
    return tb_chance(g->tb, 1, 2) ? v[rnd(g, sizeof v / sizeof v[0])] : tb_rand32(g->tb);
}

static void emit_li(gen_t *g, unsigned rd, uint32_t v)
{
    uint32_t lo = v & 0xfff, hi = (v >> 12) + (lo >= 0x800);
    emit(g, RV_LUI(rd, hi & 0xfffff));
    emit(g, RV_ADDI(rd, rd, (int32_t)(lo << 20) >> 20));
}

static void gen_alu(gen_t *g)
{
    unsigned rd = dst_reg(g), rs1 = any_reg(g), rs2 = any_reg(g), f3 = rnd(g, 8);
    switch (rnd(g, 6)) {
    case 0:
    case 1: {                                   /* op-imm */
        int32_t imm = (int32_t)rnd(g, 4096) - 2048;
        if (f3 == 1)
            imm = (int32_t)rnd(g, 32);
        else if (f3 == 5)
            imm = (int32_t)rnd(g, 32) | (tb_chance(g->tb, 1, 2) ? 0x400 : 0);
        emit(g, rv_i(imm, rs1, f3, rd, 0x13));
        break;
    }
    case 2:
    case 3: {                                   /* op, M when present */
        unsigned f7 = 0;
        if (g->has_m && tb_chance(g->tb, 1, 3))
            f7 = 1;
        else if ((f3 == 0 || f3 == 5) && tb_chance(g->tb, 1, 2))
            f7 = 0x20;
        emit(g, rv_r(f7, rs2, rs1, f3, rd, 0x33));
        break;
    }
    case 4:
        emit(g, RV_LUI(rd, tb_rand32(g->tb) >> 12));
        break;
    default:
        emit(g, RV_AUIPC(rd, tb_rand32(g->tb) >> 12));
        break;
    }
}

static void gen_mem(gen_t *g)
{
    unsigned f3, base;
    int32_t off;
    uint32_t k = rnd(g, 20);
    if (k < 16) {
        base = 28;                              /* the data region */
        off = (int32_t)rnd(g, 4096) - 2048;
        if (k < 12)
            off &= ~3;                          /* mostly aligned words */
    } else if (k < 18) {
        base = 27;                              /* faults */
        off = (int32_t)rnd(g, 64) * 4;
    } else {
        base = any_reg(g);                      /* wherever a register points: */
        off = (int32_t)rnd(g, 4096) - 2048;     /* loads only, so that no store */
    }                                           /* lands in the code */
    bool load = (base != 27 && base != 28) || tb_chance(g->tb, 1, 2);
    if (load) {
        static const unsigned ld[] = {0, 1, 2, 4, 5};
        f3 = ld[rnd(g, 5)];
        emit(g, rv_i(off, base, f3, dst_reg(g), 0x03));
    } else {
        f3 = rnd(g, 3);
        emit(g, rv_s(off, any_reg(g), base, f3, 0x23));
    }
}

static void gen_csr(gen_t *g)
{
    /* mtvec is left alone (the handler must stay reachable) */
    static const uint32_t rw[] = {0x340, 0x341, 0x342, 0x343, 0x300, 0x304, 0x344, 0x301, 0x310,
                                  0xb02, 0xb82, 0xb00, 0xb80};
    static const uint32_t ro[] = {0xf11, 0xf12, 0xf13, 0xf14, 0xc00, 0xc02, 0xc80, 0xc82, 0x305};
    uint32_t k = rnd(g, 10), csr;
    unsigned f3 = 1 + rnd(g, 3) + (tb_chance(g->tb, 1, 3) ? 4 : 0);
    unsigned rd = dst_reg(g), rs1 = any_reg(g);
    if (k < 6) {
        csr = rw[rnd(g, sizeof rw / sizeof rw[0])];
        if (csr == 0xb02 || csr == 0xb00) {
            /* counters: sometimes just below a carry into the high half */
            if (tb_chance(g->tb, 1, 2)) {
                emit_li(g, 26, 0xffffffff - rnd(g, 12));
                rs1 = 26;
                f3 = 1;
            }
        }
    } else if (k < 9) {
        csr = ro[rnd(g, sizeof ro / sizeof ro[0])];
        if (tb_chance(g->tb, 2, 3))
            rs1 = 0;                            /* a read, mostly */
        if (csr == 0x305 && (f3 & 3) == 1)
            f3 += 1;                            /* mtvec: never csrrw */
        if (csr == 0x305)
            rs1 = 0;
    } else {
        csr = rnd(g, 4096);                     /* mostly not a CSR: illegal */
        if (csr == 0x305)
            csr = 0x306;
    }
    emit(g, rv_i((int32_t)csr, rs1, f3, rd, 0x73));
}

static void gen_illegal(gen_t *g, const rv32_t *probe)
{
    for (;;) {
        uint32_t w = tb_rand32(g->tb);
        if (tb_chance(g->tb, 1, 2)) {           /* near a real opcode */
            static const unsigned ops[] = {0x03, 0x0f, 0x13, 0x23, 0x33, 0x63, 0x67, 0x73};
            w = (w & ~0x7fu) | ops[rnd(g, 8)];
        }
        if (rv32_is_illegal(probe, w)) {
            emit(g, w);
            return;
        }
    }
}

static void gen_jump(gen_t *g)
{
    uint32_t k = rnd(g, 10);
    unsigned rd = tb_chance(g->tb, 1, 3) ? 1 : dst_reg(g);
    int32_t skip = 4 * (int32_t)(1 + rnd(g, 6));
    if (tb_chance(g->tb, 1, 8))
        skip += 2;                              /* misaligned: traps */
    if (k < 4) {
        emit(g, rv_j(skip, rd));
    } else if (k < 8) {
        /* auipc + jalr forward (bit 0 of the target set sometimes) */
        emit(g, RV_AUIPC(29, 0));
        emit(g, RV_JALR(rd, 29, skip + 4 + (tb_chance(g->tb, 1, 4) ? 1 : 0)));
    } else if (k < 9) {
        emit(g, rv_b(skip, any_reg(g), any_reg(g), (unsigned[]){0, 1, 4, 5, 6, 7}[rnd(g, 6)]));
    } else {
        /* a fetch fault: the handler returns through x1 */
        emit(g, RV_LUI(29, (R_BAD >> 12) + rnd(g, 16)));
        emit(g, RV_JALR(1, 29, 0));
    }
    for (int32_t i = 0; i < skip / 4 + 1; i++)
        gen_alu(g);
}

static void gen_loop(gen_t *g, const rv32_t *probe)
{
    emit(g, RV_ADDI(29, 0, 1 + (int32_t)rnd(g, 4)));
    uint32_t top = g->pc;
    int n = 1 + (int)rnd(g, 6);
    for (int i = 0; i < n; i++) {
        uint32_t k = rnd(g, 10);
        if (k < 6)
            gen_alu(g);
        else if (k < 8)
            gen_mem(g);
        else if (k < 9)
            gen_csr(g);
        else
            gen_illegal(g, probe);
    }
    emit(g, RV_ADDI(29, 29, -1));
    emit(g, RV_BNE(29, 0, (int32_t)(top - g->pc)));
}

/* Writes a random program into RAM.  Returns the end of the code. */
static uint32_t gen_program(tb_t *tb, uint8_t *ram, int len, bool has_m)
{
    gen_t g = {.tb = tb, .code = (uint32_t *)ram, .pc = 0, .end = R_HANDLER - 64, .has_m = has_m};
    rv32_t probe;
    memset(&probe, 0, sizeof probe);
    probe.has_m = has_m;

    for (uint32_t a = R_DATA; a < R_DATA + 0x4000; a += 4) {
        uint32_t v = tb_rand32(tb);
        memcpy(ram + a, &v, 4);
    }
    /* Prologue: handler, registers, CSRs (the RTL's RAM-held CSRs are not
     * reset, so every one of them is written first). */
    emit_li(&g, 5, R_HANDLER);
    emit(&g, RV_CSRRW(0, 0x305, 5));
    for (unsigned rg = 1; rg < 27; rg++)
        emit_li(&g, rg, interesting(&g));
    emit_li(&g, 27, R_BAD);
    emit_li(&g, 28, R_DATA_BASE);
    emit(&g, RV_ADDI(29, 0, 0));
    emit(&g, RV_ADDI(30, 0, 0));
    emit(&g, RV_ADDI(31, 0, 0));
    static const uint32_t csrs[] = {0x340, 0x341, 0x343, 0xb80, 0xb82};
    for (unsigned i = 0; i < 5; i++) {
        emit_li(&g, 26, tb_rand32(tb));
        emit(&g, RV_CSRRW(0, csrs[i], 26));
    }
    emit_li(&g, 26, 0x880);                     /* mie: both interrupts */
    emit(&g, RV_CSRRW(0, 0x304, 26));
    emit_li(&g, 26, tb_chance(tb, 3, 4) ? 8 : 0); /* mstatus.MIE, mostly on */
    emit(&g, RV_CSRRW(0, 0x300, 26));

    for (int i = 0; i < len && g.pc < g.end - 256; i++) {
        uint32_t k = rnd(&g, 100);
        if (k < 40)
            gen_alu(&g);
        else if (k < 60)
            gen_mem(&g);
        else if (k < 70)
            gen_csr(&g);
        else if (k < 80)
            gen_jump(&g);
        else if (k < 86)
            gen_loop(&g, &probe);
        else if (k < 90)
            gen_illegal(&g, &probe);
        else if (k < 93)
            emit(&g, tb_chance(tb, 1, 2) ? 0x00000073u : 0x00100073u);  /* ecall, ebreak */
        else if (k < 95)
            emit(&g, tb_chance(tb, 1, 2) ? 0x10500073u : 0x0000100fu);  /* wfi, fence.i */
        else
            emit_li(&g, dst_reg(&g), interesting(&g));
    }
    /* Epilogue: EXIT. */
    emit_li(&g, 5, MMIO_BASE);
    emit(&g, RV_SW(0, 5, MMIO_EXIT));
    emit(&g, rv_j(0, 0));
    uint32_t end = g.pc;

    /* Trap handler: interrupts return to the interrupted instruction, fetch
     * faults to x1, other exceptions past the faulting instruction. */
    g.pc = R_HANDLER;
    g.end = R_DATA;
    emit(&g, RV_CSRRS(31, 0x342, 0));           /* csrr x31, mcause */
    emit(&g, RV_BLT(31, 0, 24));                /* interrupt -> mret */
    emit(&g, RV_ADDI(30, 0, 1));
    emit(&g, RV_BEQ(31, 30, 20));               /* fetch fault -> mepc = x1 */
    emit(&g, RV_CSRRS(31, 0x341, 0));
    emit(&g, RV_ADDI(31, 31, 4));
    emit(&g, RV_CSRRW(0, 0x341, 31));
    emit(&g, RV_MRET);
    emit(&g, RV_CSRRW(0, 0x341, 1));
    emit(&g, RV_MRET);
    return end;
}

static void run_random(tb_t *tb, dut_t *d, plat_t *p, opts_t *o)
{
    static run_t r;
    uint8_t *mram = malloc(p->ram_size);
    uint64_t total_cycles = 0, total_events = 0;
    bool failed = false;
    for (int n = 0; n < o->random_n && !failed; n++) {
        char test[128], name[32];
        snprintf(test, sizeof test, "%s/random-%d", TB_CPU_NAME, n);
        snprintf(name, sizeof name, "random-%d", n);
        tb_begin(tb);
        memset(&r, 0, sizeof r);
        o->random_bus = tb_chance(tb, 2, 3);
        r.o = o;
        r.tb = tb;
        r.d = d;
        r.p = p;
        r.strict_irq = true;
        plat_reset(p);
        gen_program(tb, p->ram, o->random_len, TB_CPU_HAS_M);
        memcpy(mram, p->ram, p->ram_size);
        r.mram = mram;
        model_setup(&r, false);
        dut_fresh(d, name);
        bool ok = run_rtl(&r);
        if (ok && memcmp(mram, p->ram, p->ram_size) != 0) {
            uint32_t a = 0;
            while (mram[a] == p->ram[a])
                a++;
            failf(&r, "final RAM differs at 0x%x: RTL %02x, model %02x", a, p->ram[a], mram[a]);
            ok = false;
        }
        tb_check(tb, ok, "program %d: %s", n, r.err);
        total_cycles += r.cycles;
        total_events += r.events;
        if (!ok) {
            /* The later programs of the seed depend on this one's draws. */
            tb_end(tb, test, "(re-run: --random %d --len %d --seed %llu)", n + 1, o->random_len,
                   (unsigned long long)tb->seed);
            failed = true;
        }
    }
    /* One line for the whole batch keeps the log short. */
    if (!failed)
        tb_end(tb, TB_CPU_NAME "/random-programs", "%d programs, %llu retirements, %llu cycles",
               o->random_n, (unsigned long long)total_events, (unsigned long long)total_cycles);
    free(mram);
}

/* -------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    opts_t o = {.cosim = true, .max_cycles = 20000000, .ram_size = 64 * 1024, .random_len = 400};
    const char *images[512];
    int nimg = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--seed") && more)
            i++;
        else if (!strncmp(a, "--seed=", 7))
            ;
        else if (!strcmp(a, "--bus") && more) {
            const char *b = argv[++i];
            if (!strcmp(b, "random"))
                o.random_bus = true;
            else if (strcmp(b, "sram"))
                usage();
        } else if (!strcmp(a, "--model"))
            o.model_only = true;
        else if (!strcmp(a, "--no-cosim"))
            o.cosim = false;
        else if (!strcmp(a, "--trace"))
            o.trace = true;
        else if (!strcmp(a, "--bench"))
            o.bench = true, o.cosim = false;
        else if (!strcmp(a, "--max-cycles") && more)
            o.max_cycles = (uint64_t)num_arg(argv[++i], a);
        else if (!strcmp(a, "--ram-kb") && more) {
            long kb = num_arg(argv[++i], a);
            if (kb < 64 || kb > 256 * 1024) {
                fprintf(stderr, "tb_cpu: --ram-kb must be 64..262144\n");
                exit(2);
            }
            o.ram_size = (uint32_t)kb * 1024;
        } else if (!strcmp(a, "--expect") && more)
            o.expect_file = argv[++i];
        else if (!strcmp(a, "--expect-console") && more)
            o.expect_text = argv[++i];
        else if (!strcmp(a, "--expect-exit") && more)
            o.expect_exit = num_arg(argv[++i], a);
        else if (!strcmp(a, "--random") && more)
            o.random_n = (int)num_arg(argv[++i], a);
        else if (!strcmp(a, "--len") && more)
            o.random_len = (int)num_arg(argv[++i], a);
        else if (a[0] == '-')
            usage();
        else if (nimg < 512)
            images[nimg++] = a;
    }
    if (!nimg && !o.random_n)
        usage();
    const char *env = getenv("CPU_RANDOM_SCALE");
    if (env && o.random_n)
        o.random_n *= (int)num_arg(env, "CPU_RANDOM_SCALE");

    tb_t *tb = tb_open(TB_CPU_NAME, argc, argv);
    static dut_t d;
    d.tb = tb;
    static plat_t p;
    p.ram_size = o.ram_size;
    p.ram = calloc(1, o.ram_size);
    if (!p.ram) {
        perror("tb_cpu");
        return 2;
    }
    for (int i = 0; i < nimg; i++)
        run_image(tb, &d, &p, &o, images[i]);
    if (o.random_n)
        run_random(tb, &d, &p, &o);
    free(p.ram);
    free(p.con);
    return tb_close(tb);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_sdram.c - randomized testbench of tpu_mem_sdram against the SDRAM device model
 * (sim/sdram) and a byte-accurate reference memory.
 *
 * Usage: tb_sdram Name=Value... [--seed N] [--requests N] [--only TEST]
 *                 [--model Name=Value]... [--expect RULE]
 *                 [--bench PATTERN --cycles N]
 *
 * Name=Value: the RTL parameters the model was Verilated with (DataWidth, AddrW, ClkHz,
 * CasLatency, InitRefs, ...), so that the testbench knows the geometry.  The device model
 * uses the data-sheet timing; --model overrides one of its values (sdram_timing_set names),
 * which makes the device stricter than the controller: with --expect RULE the run passes
 * only if the model reports a violation whose message contains RULE (the checker works).
 *
 * Tests: init (power-up sequence, mode register), random (reads and writes with random
 * strobes on a hot region of 8 rows per bank and anywhere, random gaps), seq (sequential
 * write and read streams), mixed (a read and a write stream interleaved), idle (gaps of
 * several refresh intervals).  Every read is compared with the reference, every beat
 * written is compared with the device array at the end, and the counters with the
 * requests and the device's commands.  Any timing violation fails the run.
 *
 * --bench seq_read|seq_write|rand_read|rand_mixed: requests as fast as the controller
 * takes them; prints the data-bus efficiency (words moved / cycles) over --cycles.
 */
#include "sdram.h"
#include "tb.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCNT 9
enum { CNT_RD, CNT_WR, CNT_BYTES, CNT_HIT, CNT_MISS, CNT_CONF, CNT_REF, CNT_BUSY, CNT_IDLE };

typedef struct sim {
    tb_t *tb;
    sdram_t *dev;
    sdram_config_t dcfg;
    int dw, bytes, words, addrw, cl, init_refs;
    uint32_t clk_hz;
    uint64_t nbeats;
    uint8_t *ref;                 /* reference memory, nbeats * bytes */
    uint8_t *written;             /* bitmap of written beats */
    /* Outstanding reads by tag. */
    bool busy[256];
    uint64_t exp_addr[256];
    uint8_t exp[256][32];
    int inflight;
    uint64_t reads, writes, rsps;
    uint64_t last_progress;
    uint64_t reset_cycle;
    uint64_t trace_from;          /* SDRAM_TRACE=cycle: print 400 cycles of pins */
    /* Violations. */
    uint64_t viol;
    char first_viol[512];
    const char *expect;
    bool expect_hit;
    /* Ports. */
    tb_sig_t *req_valid, *req_ready, *req_write, *req_addr, *req_wdata, *req_wstrb, *req_tag;
    tb_sig_t *rsp_valid, *rsp_tag, *rsp_rdata, *cnt;
    tb_sig_t *cke, *cs_n, *ras_n, *cas_n, *we_n, *ba, *a, *dqm, *dq_o, *dq_oe, *dq_i;
} sim_t;

static int pval(int argc, char **argv, const char *name, int dflt)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
            return atoi(argv[i] + n + 1);
    return dflt;
}

static void on_violation(void *ctx, const char *msg)
{
    sim_t *s = ctx;
    s->viol++;
    if (s->expect) {
        if (strstr(msg, s->expect)) {
            if (!s->expect_hit) printf("# expected violation seen: %s\n", msg);
            s->expect_hit = true;
        }
        return;
    }
    if (s->viol == 1) snprintf(s->first_viol, sizeof s->first_viol, "%s", msg);
    if (s->viol <= 5) fprintf(stderr, "%s\n", msg);
}

static void set_wide(tb_sig_t *sig, const uint8_t *b, int nbytes)
{
    for (int i = 0; i < nbytes; i += 4) {
        uint32_t w = (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 |
                     (uint32_t)b[i + 3] << 24;
        tb_set_bits(sig, 8 * i, 32, w);
    }
}

static void get_wide(tb_sig_t *sig, uint8_t *b, int nbytes)
{
    for (int i = 0; i < nbytes; i += 4) {
        uint32_t w = (uint32_t)tb_get_bits(sig, 8 * i, 32);
        b[i] = (uint8_t)w;
        b[i + 1] = (uint8_t)(w >> 8);
        b[i + 2] = (uint8_t)(w >> 16);
        b[i + 3] = (uint8_t)(w >> 24);
    }
}

static uint32_t get_cnt(sim_t *s, int k)
{
    return (uint32_t)tb_get_bits(s->cnt, 32 * k, 32);
}

/* One clock cycle: the device sees this cycle's pins and drives DQ, a response is checked,
 * then the clock edge (which takes a request the caller presented, if ready). */
static void cycle(sim_t *s)
{
    tb_t *tb = s->tb;
    sdram_pins_t p = {
        .cke = tb_get(s->cke), .cs_n = tb_get(s->cs_n), .ras_n = tb_get(s->ras_n),
        .cas_n = tb_get(s->cas_n), .we_n = tb_get(s->we_n), .ba = (int)tb_get(s->ba),
        .a = (uint32_t)tb_get(s->a), .dqm = (int)tb_get(s->dqm),
        .dq = (uint16_t)tb_get(s->dq_o), .dq_oe = tb_get(s->dq_oe),
    };
    uint16_t dq = 0;
    bool drv = sdram_cycle(s->dev, &p, &dq);
    if (s->trace_from && tb->cycle >= s->trace_from && tb->cycle < s->trace_from + 400) {
        static const char *const cn[8] = { "MRS", "REF", "PRE", "ACT", "WR", "RD", "BST", "-" };
        printf("# %6" PRIu64 " %s ba %d a %#06x dqm %d oe %d dq_o %04x | dev %s %04x | req %d rdy %d"
               " wr %d addr %#" PRIx64 " tag %d | rsp %d tag %d\n", tb->cycle,
               p.cs_n ? "-" : cn[(p.ras_n << 2) | (p.cas_n << 1) | p.we_n], p.ba, p.a, p.dqm,
               p.dq_oe, p.dq, drv ? "drv" : "   ", dq, (int)tb_get(s->req_valid),
               (int)tb_get(s->req_ready), (int)tb_get(s->req_write), tb_get(s->req_addr), (int)tb_get(s->req_tag),
               (int)tb_get(s->rsp_valid), (int)tb_get(s->rsp_tag));
    }
    /* An undriven bus reads as garbage, so sampling in the wrong cycle shows. */
    tb_set(s->dq_i, drv ? dq : (uint16_t)(0xa5c3 ^ (tb->cycle * 0x9e37)));

    if (tb_get(s->rsp_valid)) {
        int tag = (int)tb_get(s->rsp_tag);
        uint8_t got[32];
        get_wide(s->rsp_rdata, got, s->bytes);
        if (!s->busy[tag]) {
            tb_check(tb, false, "cycle %" PRIu64 ": response with tag %d, no read outstanding",
                     tb->cycle, tag);
        } else {
            s->busy[tag] = false;
            s->inflight--;
            s->rsps++;
            s->last_progress = tb->cycle;
            if (memcmp(got, s->exp[tag], (size_t)s->bytes) != 0) {
                int k = 0;
                while (got[k] == s->exp[tag][k]) k++;
                tb_check(tb, false, "cycle %" PRIu64 ": read of beat %#" PRIx64 " (tag %d): "
                         "byte %d is %#04x, expected %#04x", tb->cycle, s->exp_addr[tag], tag,
                         k, got[k], s->exp[tag][k]);
            }
        }
    }
    tb_tick(tb);
}

static void idle_req(sim_t *s)
{
    tb_set(s->req_valid, 0);
}

static int free_tag(sim_t *s)
{
    for (int t = 0; t < 256; t++) {
        int x = (int)((s->reads + (uint64_t)t) & 255);
        if (!s->busy[x]) return x;
    }
    return -1;
}

static bool watchdog(sim_t *s)
{
    uint64_t limit = 40000 + (uint64_t)s->clk_hz / 1000000 * 300; /* 300 us: the power-up */
    if (s->tb->cycle - s->last_progress > limit) {
        tb_check(s->tb, false, "no progress for %" PRIu64 " cycles (cycle %" PRIu64 ", %d reads "
                 "outstanding)", limit, s->tb->cycle, s->inflight);
        return true;
    }
    return false;
}

/* Presents a request until it is taken; the reference sees it at the handshake. */
static bool request(sim_t *s, bool write, uint64_t addr, const uint8_t *data, uint32_t strb)
{
    tb_t *tb = s->tb;
    addr &= s->nbeats - 1;
    int tag = 0;
    if (!write) {
        while ((tag = free_tag(s)) < 0) {
            idle_req(s);
            cycle(s);
            if (watchdog(s)) return false;
        }
    }
    tb_set(s->req_valid, 1);
    tb_set(s->req_write, write);
    tb_set(s->req_addr, addr);
    tb_set(s->req_tag, (uint64_t)tag);
    if (write) {
        set_wide(s->req_wdata, data, s->bytes);
        tb_set(s->req_wstrb, strb);
    } else {
        /* Garbage on the data lines of a read. */
        uint8_t junk[32];
        for (int i = 0; i < 32; i++) junk[i] = (uint8_t)tb_rand32(tb);
        set_wide(s->req_wdata, junk, s->bytes);
        tb_set(s->req_wstrb, tb_rand32(tb));
    }
    for (;;) {
        bool ready = tb_get(s->req_ready);
        if (ready) {
            uint8_t *r = s->ref + addr * (uint64_t)s->bytes;
            if (write) {
                for (int i = 0; i < s->bytes; i++)
                    if (strb >> i & 1) r[i] = data[i];
                s->written[addr >> 3] |= (uint8_t)(1u << (addr & 7));
                s->writes++;
            } else {
                memcpy(s->exp[tag], r, (size_t)s->bytes);
                s->exp_addr[tag] = addr;
                s->busy[tag] = true;
                s->inflight++;
                s->reads++;
            }
            s->last_progress = tb->cycle;
            cycle(s);
            idle_req(s);
            return true;
        }
        cycle(s);
        if (watchdog(s)) {
            idle_req(s);
            return false;
        }
    }
}

static void rand_data(sim_t *s, uint8_t *d)
{
    for (int i = 0; i < s->bytes; i++) d[i] = (uint8_t)tb_rand32(s->tb);
}

static uint32_t rand_strb(sim_t *s)
{
    uint32_t full = s->bytes == 32 ? 0xffffffffu : (1u << s->bytes) - 1;
    int r = (int)tb_rand_range(s->tb, 0, 99);
    if (r < 40) return full;
    if (r < 45) return 0;
    return tb_rand32(s->tb) & full;
}

static bool drain(sim_t *s)
{
    idle_req(s);
    while (s->inflight > 0) {
        cycle(s);
        if (watchdog(s)) return false;
    }
    /* Then until the queue is empty (posted writes issued): the busy counter stops. */
    for (int quiet = 0; quiet < 8;) {
        uint32_t b = get_cnt(s, CNT_BUSY);
        cycle(s);
        quiet = get_cnt(s, CNT_BUSY) == b ? quiet + 1 : 0;
        if (watchdog(s)) return false;
    }
    return true;
}

static void gap(sim_t *s)
{
    if (tb_chance(s->tb, 1, 4)) {
        int n = (int)tb_rand_range(s->tb, 1, tb_chance(s->tb, 1, 8) ? 40 : 4);
        for (int i = 0; i < n; i++) cycle(s);
    }
}

static uint64_t row_beats(sim_t *s)
{
    return 512 / (uint64_t)s->words;
}

/* ---- Tests ---- */

static bool t_init(sim_t *s)
{
    uint64_t limit = (uint64_t)s->clk_hz / 1000000 * 400 + 1000;
    while (!sdram_ready(s->dev) && s->tb->cycle < limit) cycle(s);
    tb_check(s->tb, sdram_ready(s->dev), "the power-up sequence did not end in %" PRIu64
             " cycles", limit);
    tb_check(s->tb, sdram_cas_latency(s->dev) == s->cl, "mode register CL %d, expected %d",
             sdram_cas_latency(s->dev), s->cl);
    int bl = s->words > 8 ? 8 : s->words;
    tb_check(s->tb, sdram_burst_length(s->dev) == bl, "mode register BL %d, expected %d",
             sdram_burst_length(s->dev), bl);
    for (int i = 0; i < 10; i++) cycle(s);
    return true;
}

static bool t_random(sim_t *s, uint64_t n)
{
    uint8_t d[32];
    /* A hot region: 8 rows of every bank (row conflicts, hits, hazards on the same beats). */
    uint64_t hot = row_beats(s) * 4 * 8;
    uint64_t base = (tb_rand64(s->tb) % (s->nbeats / hot)) * hot;
    for (uint64_t i = 0; i < n && !s->tb->errors; i++) {
        bool w = tb_chance(s->tb, 1, 2);
        uint64_t addr;
        int r = (int)tb_rand_range(s->tb, 0, 9);
        if (r < 6) addr = base + tb_rand64(s->tb) % hot;
        else if (r < 8) addr = base + tb_rand64(s->tb) % 16;  /* a few beats: hazards */
        else addr = tb_rand64(s->tb);
        rand_data(s, d);
        if (!request(s, w, addr, d, rand_strb(s))) return false;
        gap(s);
    }
    return drain(s);
}

static bool t_seq(sim_t *s, uint64_t n)
{
    uint8_t d[32];
    uint64_t base = tb_rand64(s->tb) & (s->nbeats - 1);
    for (uint64_t i = 0; i < n && !s->tb->errors; i++) {
        rand_data(s, d);
        if (!request(s, true, base + i, d, rand_strb(s))) return false;
    }
    for (uint64_t i = 0; i < n && !s->tb->errors; i++)
        if (!request(s, false, base + i, d, 0)) return false;
    return drain(s);
}

static bool t_mixed(sim_t *s, uint64_t n)
{
    uint8_t d[32];
    uint64_t rb = tb_rand64(s->tb) & (s->nbeats - 1);
    uint64_t wb = tb_rand64(s->tb) & (s->nbeats - 1);
    for (uint64_t i = 0; i < n && !s->tb->errors; i++) {
        rand_data(s, d);
        if (!request(s, false, rb + i, d, 0)) return false;
        if (!request(s, true, wb + i, d, rand_strb(s))) return false;
    }
    return drain(s);
}

static bool t_idle(sim_t *s, int rounds)
{
    uint8_t d[32];
    uint64_t refi = (uint64_t)s->clk_hz / 1000000 * 8;  /* about one refresh interval */
    for (int k = 0; k < rounds && !s->tb->errors; k++) {
        uint64_t n = refi * (uint64_t)tb_rand_range(s->tb, 1, 12);
        for (uint64_t i = 0; i < n; i++) cycle(s);
        s->last_progress = s->tb->cycle;
        uint64_t addr = tb_rand64(s->tb);
        for (int j = 0; j < 8; j++) {
            rand_data(s, d);
            if (!request(s, tb_chance(s->tb, 1, 2), addr + (uint64_t)j, d, rand_strb(s)))
                return false;
        }
    }
    return drain(s);
}

/* Counters against the requests and the device's commands; the device array against the
 * reference for every beat written. */
static void final_checks(sim_t *s)
{
    tb_t *tb = s->tb;
    sdram_stats_t st;
    sdram_get_stats(s->dev, &st);
    uint32_t c[NCNT];
    for (int k = 0; k < NCNT; k++) c[k] = get_cnt(s, k);
    tb_check(tb, c[CNT_RD] == (uint32_t)s->reads, "reads counter %u, %" PRIu64 " reads", c[CNT_RD],
             s->reads);
    tb_check(tb, c[CNT_WR] == (uint32_t)s->writes, "writes counter %u, %" PRIu64 " writes",
             c[CNT_WR], s->writes);
    tb_check(tb, c[CNT_BYTES] == (uint32_t)((s->reads + s->writes) * (uint64_t)s->bytes),
             "bytes counter %u", c[CNT_BYTES]);
    tb_check(tb, c[CNT_HIT] + c[CNT_MISS] + c[CNT_CONF] == c[CNT_RD] + c[CNT_WR],
             "hits %u + misses %u + conflicts %u != accesses", c[CNT_HIT], c[CNT_MISS],
             c[CNT_CONF]);
    tb_check(tb, st.act >= (uint64_t)c[CNT_MISS] + c[CNT_CONF], "%" PRIu64 " ACTs for %u misses "
             "and %u conflicts", st.act, c[CNT_MISS], c[CNT_CONF]);
    tb_check(tb, st.ref == (uint64_t)c[CNT_REF] + (uint64_t)s->init_refs,
             "device saw %" PRIu64 " REFs, refresh counter %u + %d at power-up", st.ref,
             c[CNT_REF], s->init_refs);
    tb_check(tb, c[CNT_BUSY] + c[CNT_IDLE] == (uint32_t)(tb->cycle - s->reset_cycle),
             "busy %u + idle %u != %" PRIu64 " cycles", c[CNT_BUSY], c[CNT_IDLE],
             tb->cycle - s->reset_cycle);
    tb_check(tb, st.rd * (uint64_t)(s->words > 8 ? 8 : s->words) == s->reads * (uint64_t)s->words,
             "%" PRIu64 " READ commands for %" PRIu64 " reads", st.rd, s->reads);
    uint64_t checked = 0;
    for (uint64_t b = 0; b < s->nbeats && !tb->errors; b++) {
        if (!(s->written[b >> 3] >> (b & 7) & 1)) continue;
        checked++;
        const uint8_t *r = s->ref + b * (uint64_t)s->bytes;
        for (int w = 0; w < s->words; w++) {
            uint16_t got = sdram_peek(s->dev, (uint32_t)(b * (uint64_t)s->words + (uint64_t)w));
            uint16_t exp = (uint16_t)(r[2 * w] | r[2 * w + 1] << 8);
            if (got != exp) {
                tb_check(tb, false, "device word %d of beat %#" PRIx64 " is %#06x, expected %#06x",
                         w, b, got, exp);
                break;
            }
        }
    }
    printf("# %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " beats checked in the device; "
           "hits %u misses %u conflicts %u refreshes %u; busy %u idle %u; %" PRIu64 " cycles\n",
           s->reads, s->writes, checked, c[CNT_HIT], c[CNT_MISS], c[CNT_CONF], c[CNT_REF],
           c[CNT_BUSY], c[CNT_IDLE], tb->cycle);
}

/* ---- Benchmarks ---- */

static void bench(sim_t *s, const char *pat, uint64_t cycles)
{
    uint8_t d[32];
    rand_data(s, d);
    t_init(s);
    bool seq = strncmp(pat, "seq", 3) == 0;
    uint64_t addr = 0, n = 0;
    uint64_t warm = cycles / 10, t0 = 0;
    sdram_stats_t a = { 0 }, b;
    uint64_t full = s->bytes == 32 ? 0xffffffffu : (1u << s->bytes) - 1;
    for (;;) {
        uint64_t el = s->tb->cycle;
        if (n == 0) el = 0;
        if (t0 == 0 && n > 0 && s->tb->cycle >= warm + s->reset_cycle) {
            t0 = s->tb->cycle;
            sdram_get_stats(s->dev, &a);
        }
        if (t0 && s->tb->cycle - t0 >= cycles) break;
        (void)el;
        bool w;
        if (!strcmp(pat, "seq_read") || !strcmp(pat, "rand_read")) w = false;
        else if (!strcmp(pat, "seq_write")) w = true;
        else w = tb_chance(s->tb, 1, 2);
        uint64_t x = seq ? addr++ : tb_rand64(s->tb);
        if (!request(s, w, x, d, (uint32_t)full)) break;
        n++;
    }
    sdram_get_stats(s->dev, &b);
    uint64_t el = s->tb->cycle - t0;
    uint64_t words = (b.rd_words - a.rd_words) + (b.wr_words - a.wr_words);
    printf("bench %s efficiency %.4f words %" PRIu64 " cycles %" PRIu64 " violations %" PRIu64 "\n",
           pat, (double)words / (double)el, words, el, s->viol);
    drain(s);
}

int main(int argc, char **argv)
{
    tb_t *tb = tb_open("tb_sdram", argc, argv);
    sim_t *s = calloc(1, sizeof *s);
    s->tb = tb;
    s->dw = pval(argc, argv, "DataWidth", 256);
    s->bytes = s->dw / 8;
    s->words = s->dw / 16;
    int wbits = s->words == 2 ? 1 : s->words == 4 ? 2 : s->words == 8 ? 3 : 4;
    s->addrw = pval(argc, argv, "AddrW", 24 - wbits);
    s->clk_hz = (uint32_t)pval(argc, argv, "ClkHz", 100000000);
    s->cl = pval(argc, argv, "CasLatency", 2);
    s->init_refs = pval(argc, argv, "InitRefs", 8);
    s->nbeats = (uint64_t)1 << s->addrw;
    if (getenv("SDRAM_TRACE")) s->trace_from = strtoull(getenv("SDRAM_TRACE"), NULL, 0);
    s->ref = calloc(s->nbeats, (size_t)s->bytes);
    s->written = calloc(s->nbeats / 8 + 1, 1);

    uint64_t requests = 20000, cycles = 200000;
    const char *only = NULL, *bench_pat = NULL, *model_arg = "at data-sheet timing";
    sdram_timing_default(&s->dcfg.t);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--requests") == 0 && i + 1 < argc)
            requests = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--bench") == 0 && i + 1 < argc)
            bench_pat = argv[++i];
        else if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc)
            cycles = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--expect") == 0 && i + 1 < argc)
            s->expect = argv[++i];
        else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
            char name[64];
            const char *arg = argv[++i], *eq = strchr(arg, '=');
            model_arg = arg;
            if (!eq || (size_t)(eq - arg) >= sizeof name) {
                fprintf(stderr, "tb_sdram: bad --model '%s'\n", arg);
                return 2;
            }
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = 0;
            if (!sdram_timing_set(&s->dcfg.t, name, atoi(eq + 1))) {
                fprintf(stderr, "tb_sdram: unknown model timing '%s'\n", name);
                return 2;
            }
        }
    }
    s->dcfg.name = "dev";
    s->dcfg.clk_hz = s->clk_hz;
    s->dcfg.check_refresh = true;
    s->dcfg.on_violation = on_violation;
    s->dcfg.ctx = s;
    s->dev = sdram_new(&s->dcfg);
    if (!s->dev || !s->ref || !s->written) {
        fprintf(stderr, "tb_sdram: out of memory\n");
        return 2;
    }

#define SIG(f, n) s->f = tb_sig(tb, n)
    SIG(req_valid, "s_req_valid_i"); SIG(req_ready, "s_req_ready_o");
    SIG(req_write, "s_req_write_i"); SIG(req_addr, "s_req_addr_i");
    SIG(req_wdata, "s_req_wdata_i"); SIG(req_wstrb, "s_req_wstrb_i");
    SIG(req_tag, "s_req_tag_i"); SIG(rsp_valid, "s_rsp_valid_o");
    SIG(rsp_tag, "s_rsp_tag_o"); SIG(rsp_rdata, "s_rsp_rdata_o"); SIG(cnt, "cnt_o");
    SIG(cke, "sdram_cke_o"); SIG(cs_n, "sdram_cs_no"); SIG(ras_n, "sdram_ras_no");
    SIG(cas_n, "sdram_cas_no"); SIG(we_n, "sdram_we_no"); SIG(ba, "sdram_ba_o");
    SIG(a, "sdram_a_o"); SIG(dqm, "sdram_dqm_o"); SIG(dq_o, "sdram_dq_o");
    SIG(dq_oe, "sdram_dq_oe_o"); SIG(dq_i, "sdram_dq_i");
#undef SIG
    idle_req(s);
    tb_reset(tb, 4);
    s->reset_cycle = tb->cycle;
    s->last_progress = tb->cycle;

    char cfg[128];
    snprintf(cfg, sizeof cfg, "DataWidth=%d CL=%d %u MHz", s->dw, s->cl, s->clk_hz / 1000000);

    if (bench_pat) {
        bench(s, bench_pat, cycles);
        return tb_close(tb) || s->viol ? 1 : 0;
    }

    if (s->expect) {
        /* Negative test: requests from the start (so the first ACT follows the MRS at once),
         * random and sequential traffic until the expected violation shows. */
        tb_begin(tb);
        uint8_t d[32];
        for (int i = 0; i < 4; i++) {
            rand_data(s, d);
            request(s, true, (uint64_t)i * row_beats(s) * 4, d, 0xffffffffu);
        }
        for (int k = 0; k < 20 && !s->expect_hit && !tb->errors; k++) {
            t_random(s, 500);
            if (!s->expect_hit) t_seq(s, 200);
            if (!s->expect_hit) t_idle(s, 1);
        }
        tb->errors = 0;
        tb_check(tb, s->expect_hit, "the device model (%s) reported no '%s' violation (%" PRIu64
                 " others)", model_arg, s->expect, s->viol);
        tb_end(tb, "sdram-checker", "%s, device %s: '%s' caught", cfg, model_arg, s->expect);
        return tb_close(tb);
    }

    struct { const char *name; int which; } tests[] = {
        { "init", 0 }, { "random", 1 }, { "seq", 2 }, { "mixed", 3 }, { "idle", 4 },
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (only && strcmp(only, tests[i].name) != 0 && tests[i].which != 0) continue;
        tb_begin(tb);
        switch (tests[i].which) {
        case 0: t_init(s); break;
        case 1: t_random(s, requests); break;
        case 2: t_seq(s, requests / 2); break;
        case 3: t_mixed(s, requests / 4); break;
        case 4: t_idle(s, 6); break;
        }
        tb_check(tb, s->viol == 0, "%" PRIu64 " timing violations, the first: %s", s->viol,
                 s->first_viol);
        char name[64];
        snprintf(name, sizeof name, "sdram-%s", tests[i].name);
        ok &= tb_end(tb, name, "%s", cfg);
        if (!ok) break;
    }
    if (ok) {
        tb_begin(tb);
        final_checks(s);
        tb_check(tb, s->viol == 0, "%" PRIu64 " timing violations, the first: %s", s->viol,
                 s->first_viol);
        tb_end(tb, "sdram-final", "%s: counters and device contents", cfg);
    }
    return tb_close(tb);
}

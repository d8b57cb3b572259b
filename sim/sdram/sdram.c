/* SPDX-License-Identifier: Apache-2.0 */
/* sdram.c - 16-bit SDR SDRAM model: storage, CAS latency, bursts, protocol and timing checks. */
#include "sdram.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER (-((int64_t)1 << 40)) /* "long ago": every distance from it is large */
#define RING 16                    /* read-data ring (> CL + burst length) */

enum cmd { C_INH, C_NOP, C_ACT, C_RD, C_WR, C_BST, C_PRE, C_REF, C_MRS };
static const char *const cmd_name[] = { "INHIBIT", "NOP", "ACT", "READ", "WRITE",
                                        "BURST TERMINATE", "PRE", "REF", "MRS" };

struct sdram {
    sdram_config_t cfg;
    char name[32];                 /* a copy: the caller's name may live on its stack */
    int64_t now;
    /* Timing in cycles. */
    int trcd, trp, tras, trc, trrd, twr, trfc, tmrd;
    int64_t tras_max;
    int64_t init_ck, refi_num, refi_den; /* refresh interval = refi_num / refi_den cycles */

    /* Power-up. */
    int64_t cke_on;                /* first cycle with CKE high, or NEVER */
    bool cke_seen, prea_done, ready;
    int init_refs;
    int64_t ready_at;              /* cycle of the MRS that ended the power-up sequence */
    int64_t refs;                  /* refreshes since then */
    int64_t next_ref_check;
    int cl, bl;                    /* mode register */

    /* Banks. */
    bool open[SDRAM_BANKS];
    uint32_t row[SDRAM_BANKS];
    int64_t act[SDRAM_BANKS], pre[SDRAM_BANKS], rd[SDRAM_BANKS], wr_end[SDRAM_BANKS];
    int64_t act_any, ref_at, mrs_at;

    /* Bursts: the column command of the burst on the bus (reads end BL cycles after). */
    int64_t col_at;
    bool col_rd;
    /* Write burst in progress. */
    int wr_left, wr_bank, wr_idx;
    uint32_t wr_row, wr_col;
    /* Read data on its way, by cycle. */
    int64_t out_at[RING];
    uint16_t out_data[RING];
    int dqm_hist[3];               /* DQM of this cycle and the two before */
    bool dev_drove;                /* the device drove DQ in the previous cycle */
    bool ctl_drove;                /* the controller drove DQ in the previous cycle */

    uint16_t *mem;
    sdram_stats_t st;
};

void sdram_timing_default(sdram_timing_t *t)
{
    *t = (sdram_timing_t){
        .trcd_ns = 20, .trp_ns = 20, .tras_ns = 42, .tras_max_ns = 100000, .trc_ns = 66, .trrd_ns = 15,
        .twr_ns = 15, .twr_ck = 2, .trfc_ns = 66, .tmrd_ck = 2, .init_us = 200,
        .init_refs = 2, .refresh_count = 8192, .refresh_ms = 64, .max_postpone = 8,
    };
}

bool sdram_timing_set(sdram_timing_t *t, const char *name, int v)
{
    static const struct { const char *n; size_t off; } f[] = {
#define F(n, m) { n, offsetof(sdram_timing_t, m) }
        F("TRcdNs", trcd_ns), F("TRpNs", trp_ns), F("TRasNs", tras_ns), F("TRasMaxNs", tras_max_ns), F("TRcNs", trc_ns),
        F("TRrdNs", trrd_ns), F("TWrNs", twr_ns), F("TWrCk", twr_ck), F("TRfcNs", trfc_ns),
        F("TMrdCk", tmrd_ck), F("TInitUs", init_us), F("InitRefs", init_refs),
        F("RefreshCount", refresh_count), F("RefreshMs", refresh_ms),
        F("MaxPostpone", max_postpone),
#undef F
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (strcmp(f[i].n, name) == 0) {
            *(int *)((char *)t + f[i].off) = v;
            return true;
        }
    }
    return false;
}

static void default_handler(void *ctx, const char *msg)
{
    sdram_t *d = ctx;
    if (d->st.violations <= 20) fprintf(stderr, "%s\n", msg);
    if (d->st.violations == 20) fprintf(stderr, "%s: further violations not printed\n", d->name);
}

static void violation(sdram_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(sdram_t *d, const char *fmt, ...)
{
    char msg[512];
    int n = snprintf(msg, sizeof msg, "sdram %s: violation at cycle %lld: ", d->name,
                     (long long)d->now);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    d->st.violations++;
    if (d->cfg.on_violation) d->cfg.on_violation(d->cfg.ctx, msg);
    else default_handler(d, msg);
}

int sdram_ns2ck(const sdram_t *d, int ns)
{
    return (int)(((int64_t)ns * d->cfg.clk_hz + 999999999) / 1000000000);
}

sdram_t *sdram_new(const sdram_config_t *cfg)
{
    sdram_t *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cfg = *cfg;
    snprintf(d->name, sizeof d->name, "%s", cfg->name ? cfg->name : "sdram");
    d->cfg.name = d->name;
    d->mem = calloc(SDRAM_WORDS, sizeof(uint16_t));
    if (!d->mem) {
        free(d);
        return NULL;
    }
    const sdram_timing_t *t = &cfg->t;
    d->trcd = sdram_ns2ck(d, t->trcd_ns);
    d->trp = sdram_ns2ck(d, t->trp_ns);
    d->tras = sdram_ns2ck(d, t->tras_ns);
    d->tras_max = (int64_t)t->tras_max_ns * cfg->clk_hz / 1000000000;
    d->trc = sdram_ns2ck(d, t->trc_ns);
    d->trrd = sdram_ns2ck(d, t->trrd_ns);
    d->twr = sdram_ns2ck(d, t->twr_ns);
    if (d->twr < t->twr_ck) d->twr = t->twr_ck;
    d->trfc = sdram_ns2ck(d, t->trfc_ns);
    d->tmrd = t->tmrd_ck;
    d->init_ck = ((int64_t)t->init_us * cfg->clk_hz + 999999) / 1000000;
    /* refresh_count per refresh_ms: one every clk_hz * ms / 1000 / count cycles. */
    d->refi_num = (int64_t)cfg->clk_hz * t->refresh_ms;
    d->refi_den = (int64_t)1000 * t->refresh_count;
    d->cke_on = NEVER;
    d->ready_at = NEVER;
    d->act_any = d->ref_at = d->mrs_at = d->col_at = NEVER;
    for (int b = 0; b < SDRAM_BANKS; b++) d->act[b] = d->pre[b] = d->rd[b] = d->wr_end[b] = NEVER;
    for (int i = 0; i < RING; i++) d->out_at[i] = NEVER;
    return d;
}

void sdram_free(sdram_t *d)
{
    if (!d) return;
    free(d->mem);
    free(d);
}

static uint32_t waddr(int bank, uint32_t row, uint32_t col)
{
    return (row << 11) | ((uint32_t)bank << 9) | col;
}

/* Column of word i of a sequential burst starting at col (wraps inside the burst). */
static uint32_t burst_col(const sdram_t *d, uint32_t col, int i)
{
    uint32_t m = (uint32_t)d->bl - 1;
    return (col & ~m) | ((col + (uint32_t)i) & m);
}

static void since(sdram_t *d, const char *rule, const char *what, int64_t then,
                  const char *then_what, int need)
{
    if (d->now - then < need)
        violation(d, "%s: %s %lld cycles after %s at cycle %lld, needs %d", rule, what,
                  (long long)(d->now - then), then_what, (long long)then, need);
}

/* Rules every command (but NOP) keeps: tRFC after REF, tMRD after MRS, no command in the
 * middle of a burst that it would cut short. */
static void check_any(sdram_t *d, enum cmd c)
{
    since(d, "tRFC", cmd_name[c], d->ref_at, "REF", d->trfc);
    since(d, "tMRD", cmd_name[c], d->mrs_at, "MRS", d->tmrd);
}

static void check_pre(sdram_t *d, int b)
{
    if (!d->open[b]) return;
    char what[32];
    snprintf(what, sizeof what, "PRE of bank %d", b);
    since(d, "tRAS", what, d->act[b], "its ACT", d->tras);
    if (d->now - d->act[b] > d->tras_max)
        violation(d, "tRAS max: %s %lld cycles after its ACT at cycle %lld, at most %lld",
                  what, (long long)(d->now - d->act[b]), (long long)d->act[b],
                  (long long)d->tras_max);
    if (d->now - d->wr_end[b] < d->twr)
        violation(d, "tWR: %s %lld cycles after its last write data at cycle %lld, needs %d",
                  what, (long long)(d->now - d->wr_end[b]), (long long)d->wr_end[b], d->twr);
    if (d->bl && d->now - d->rd[b] < d->bl)
        violation(d, "read burst cut: %s %lld cycles after its READ at cycle %lld, burst %d",
                  what, (long long)(d->now - d->rd[b]), (long long)d->rd[b], d->bl);
}

static void do_command(sdram_t *d, enum cmd c, const sdram_pins_t *p)
{
    int b = p->ba & 3;
    char what[48];
    if (!d->cke_seen) {
        violation(d, "init: %s before CKE high", cmd_name[c]);
        return;
    }
    if (d->now - d->cke_on < d->init_ck)
        violation(d, "init: %s %lld cycles after CKE high, the power-up wait is %lld cycles "
                  "(%d us)", cmd_name[c], (long long)(d->now - d->cke_on),
                  (long long)d->init_ck, d->cfg.t.init_us);
    if (!d->prea_done && !(c == C_PRE && (p->a & 0x400)))
        violation(d, "init: %s before the first PRECHARGE ALL", cmd_name[c]);
    if (!d->ready && (c == C_ACT || c == C_RD || c == C_WR || c == C_BST))
        violation(d, "init: %s before LOAD MODE REGISTER", cmd_name[c]);
    check_any(d, c);
    /* A command that uses the data bus or the banks while a burst is still running. */
    if ((c == C_RD || c == C_WR || c == C_BST || c == C_MRS) && d->bl &&
        d->now - d->col_at < d->bl)
        violation(d, "burst cut: %s %lld cycles after the %s at cycle %lld, burst %d",
                  cmd_name[c], (long long)(d->now - d->col_at), d->col_rd ? "READ" : "WRITE",
                  (long long)d->col_at, d->bl);
    switch (c) {
    case C_ACT:
        d->st.act++;
        snprintf(what, sizeof what, "ACT to bank %d", b);
        if (d->open[b]) violation(d, "ACT to bank %d with row %u open", b, d->row[b]);
        since(d, "tRP", what, d->pre[b], "its PRE", d->trp);
        since(d, "tRC", what, d->act[b], "its ACT", d->trc);
        since(d, "tRRD", what, d->act_any, "the ACT", d->trrd);
        d->open[b] = true;
        d->row[b] = p->a & 0x1fff;
        d->act[b] = d->act_any = d->now;
        break;
    case C_RD:
    case C_WR: {
        bool rd = c == C_RD;
        rd ? d->st.rd++ : d->st.wr++;
        snprintf(what, sizeof what, "%s to bank %d", cmd_name[c], b);
        if (!d->open[b]) {
            violation(d, "%s: the bank is closed", what);
            break;
        }
        since(d, "tRCD", what, d->act[b], "its ACT", d->trcd);
        if (p->a & 0x400) violation(d, "%s with auto precharge (not modelled)", what);
        uint32_t col = p->a & 0x1ff;
        d->col_at = d->now;
        d->col_rd = rd;
        if (rd) {
            d->rd[b] = d->now;
            for (int i = 0; i < d->bl; i++) {
                int64_t at = d->now + d->cl + i;
                d->out_at[at % RING] = at;
                d->out_data[at % RING] = d->mem[waddr(b, d->row[b], burst_col(d, col, i))];
            }
        } else {
            d->wr_left = d->bl;
            d->wr_bank = b;
            d->wr_row = d->row[b];
            d->wr_col = col;
            d->wr_idx = 0;
            d->wr_end[b] = d->now + d->bl - 1;
        }
        break;
    }
    case C_BST:
        violation(d, "BURST TERMINATE (not modelled: the controller uses fixed bursts)");
        break;
    case C_PRE:
        if (p->a & 0x400) {
            d->st.prea++;
            for (int i = 0; i < SDRAM_BANKS; i++) {
                check_pre(d, i);
                d->open[i] = false;
                d->pre[i] = d->now;
            }
            d->prea_done = true;
        } else {
            d->st.pre++;
            check_pre(d, b);
            d->open[b] = false;
            d->pre[b] = d->now;
        }
        break;
    case C_REF:
        d->st.ref++;
        for (int i = 0; i < SDRAM_BANKS; i++) {
            if (d->open[i]) violation(d, "REF with bank %d open (row %u)", i, d->row[i]);
            snprintf(what, sizeof what, "REF (bank %d)", i);
            since(d, "tRP", what, d->pre[i], "its PRE", d->trp);
            since(d, "tRC", what, d->act[i], "its ACT", d->trc);
        }
        d->ref_at = d->now;
        if (d->ready) d->refs++;
        else d->init_refs++;
        break;
    case C_MRS: {
        d->st.mrs++;
        for (int i = 0; i < SDRAM_BANKS; i++) {
            if (d->open[i]) violation(d, "MRS with bank %d open (row %u)", i, d->row[i]);
            snprintf(what, sizeof what, "MRS (bank %d)", i);
            since(d, "tRP", what, d->pre[i], "its PRE", d->trp);
        }
        uint32_t a = p->a;
        int blc = a & 7, cl = (a >> 4) & 7;
        if (blc > 3) violation(d, "MRS: burst length code %d not modelled (1, 2, 4, 8 only)", blc);
        if (a & 8) violation(d, "MRS: interleaved bursts not modelled");
        if (cl != 2 && cl != 3) violation(d, "MRS: CAS latency %d not supported (2 or 3)", cl);
        if ((a >> 7) & 3) violation(d, "MRS: operating mode %u reserved", (a >> 7) & 3);
        if (a & 0x200) violation(d, "MRS: single-location write bursts not modelled");
        if (p->ba || (a >> 10)) violation(d, "MRS: reserved bits set (ba %d, a %#x)", p->ba, a);
        if (!d->ready && d->init_refs < d->cfg.t.init_refs)
            violation(d, "init: MRS after %d AUTO REFRESHes, needs %d", d->init_refs,
                      d->cfg.t.init_refs);
        d->bl = 1 << (blc > 3 ? 3 : blc);
        d->cl = (cl == 2 || cl == 3) ? cl : 3;
        d->mrs_at = d->now;
        if (!d->ready) {
            d->ready = true;
            d->ready_at = d->now;
            d->next_ref_check = 0;
        }
        break;
    }
    default:
        break;
    }
}

/* Refresh: at every whole refresh interval after the power-up sequence, no more than
 * max_postpone refreshes may be owed. */
static void check_refresh(sdram_t *d)
{
    if (!d->ready || !d->cfg.check_refresh) return;
    int64_t el = d->now - d->ready_at;
    /* intervals elapsed = floor(el * den / num) */
    int64_t owed = el * d->refi_den / d->refi_num;
    if (owed < d->next_ref_check) return;
    d->next_ref_check = owed + 1;
    if (owed - d->refs > d->cfg.t.max_postpone)
        violation(d, "refresh: %lld REFs in the %lld cycles since the mode register was set, "
                  "needs %lld (%d per %d ms, at most %d owed)", (long long)d->refs,
                  (long long)el, (long long)(owed - d->cfg.t.max_postpone),
                  d->cfg.t.refresh_count, d->cfg.t.refresh_ms, d->cfg.t.max_postpone);
}

bool sdram_cycle(sdram_t *d, const sdram_pins_t *p, uint16_t *dq)
{
    d->dqm_hist[2] = d->dqm_hist[1];
    d->dqm_hist[1] = d->dqm_hist[0];
    d->dqm_hist[0] = p->dqm & 3;
    if (p->cke && !d->cke_seen) {
        d->cke_seen = true;
        d->cke_on = d->now;
    }
    if (!p->cke && d->cke_seen) violation(d, "CKE low after power-up (power-down not modelled)");

    enum cmd c = C_INH;
    if (p->cke && !p->cs_n) {
        static const enum cmd dec[8] = { C_MRS, C_REF, C_PRE, C_ACT, C_WR, C_RD, C_BST, C_NOP };
        c = dec[(p->ras_n << 2) | (p->cas_n << 1) | p->we_n];
    }
    if (c != C_INH && c != C_NOP) do_command(d, c, p);

    /* Write data: word wr_idx of the burst is on DQ this cycle. */
    if (d->wr_left > 0) {
        if (p->dqm != 3 && !p->dq_oe)
            violation(d, "write data: DQ not driven for word %d of the WRITE", d->wr_idx);
        uint32_t w = waddr(d->wr_bank, d->wr_row, burst_col(d, d->wr_col, d->wr_idx));
        uint16_t m = (uint16_t)((p->dqm & 1 ? 0 : 0x00ff) | (p->dqm & 2 ? 0 : 0xff00));
        d->mem[w] = (uint16_t)((d->mem[w] & ~m) | (p->dq & m));
        d->st.wr_words++;
        d->wr_idx++;
        d->wr_left--;
    }

    /* Read data: the device drives DQ unless DQM (two cycles earlier) masks both bytes. */
    bool drive = false;
    int s = (int)(d->now % RING);
    if (d->out_at[s] == d->now) {
        d->out_at[s] = NEVER;
        if (d->dqm_hist[2] != 3) {
            drive = true;
            *dq = d->out_data[s];
            d->st.rd_words++;
        }
    }
    if (drive && p->dq_oe)
        violation(d, "DQ: driven by the controller and the device in the same cycle");
    else if (p->dq_oe && d->dev_drove)
        violation(d, "DQ: the controller drives the cycle after the device did (no turnaround)");
    else if (drive && d->ctl_drove)
        violation(d, "DQ: the device drives the cycle after the controller did (no turnaround)");
    d->dev_drove = drive;
    d->ctl_drove = p->dq_oe;

    check_refresh(d);
    d->now++;
    d->st.cycles++;
    return drive;
}

uint16_t sdram_peek(const sdram_t *d, uint32_t w)
{
    return d->mem[w % SDRAM_WORDS];
}

void sdram_poke(sdram_t *d, uint32_t w, uint16_t v)
{
    d->mem[w % SDRAM_WORDS] = v;
}

void sdram_get_stats(const sdram_t *d, sdram_stats_t *s)
{
    *s = d->st;
}

uint64_t sdram_now(const sdram_t *d)
{
    return (uint64_t)d->now;
}

bool sdram_ready(const sdram_t *d)
{
    return d->ready;
}

int sdram_cas_latency(const sdram_t *d)
{
    return d->cl;
}

int sdram_burst_length(const sdram_t *d)
{
    return d->bl;
}

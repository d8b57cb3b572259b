/* SPDX-License-Identifier: Apache-2.0 */
/* hbm2.c - HBM2 pseudo-channel model: sparse storage, read latency, timing checks. */
#include "hbm2.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER (-((int64_t)1 << 40))  /* "long ago": every distance from it is large */
#define RING 256                    /* read-data and bus-occupancy ring (> CL + tBL) */
#define PAGE 1024

typedef struct page {
    uint32_t key;                   /* bank << row_bits | row, plus one */
    uint8_t *data;
} page_t;

struct hbm2 {
    hbm2_config_t cfg;
    char name[32];  /* a copy: the caller's name may live on its stack */
    hbm2_timing_t t;
    int64_t now;
    uint32_t rows;

    /* Banks. */
    bool open[HBM2_BANKS];
    uint32_t row[HBM2_BANKS];
    int64_t act[HBM2_BANKS], pre[HBM2_BANKS], rd[HBM2_BANKS], wr[HBM2_BANKS];
    int64_t ref_end[HBM2_BANKS];    /* refresh of the bank busy until this cycle */
    int64_t refs[HBM2_BANKS];       /* refreshes the bank has had */
    bool ref_pb[HBM2_BANKS];        /* its last refresh was a per-bank one */
    /* Bank groups. */
    int64_t act_g[HBM2_GROUPS], rd_g[HBM2_GROUPS], wr_g[HBM2_GROUPS], col_g[HBM2_GROUPS];
    /* Channel. */
    int64_t act_any, rd_any, wr_any, col_any, refpb_any;
    int refpb_bank;
    int64_t faw[4];                 /* the last four ACTs, oldest first */
    int64_t next_ref_check;

    /* Data bus: which cycles are taken, and read data on its way. */
    int64_t bus[RING];              /* cycle that occupies the slot, or NEVER */
    bool rvalid[RING];
    uint8_t rdata[RING][HBM2_BEAT];

    /* Sparse storage: open addressing on page keys. */
    page_t *tab;
    size_t tab_size, tab_used;

    hbm2_stats_t st;
};

void hbm2_timing_default(hbm2_timing_t *t)
{
    *t = (hbm2_timing_t){
        .cl = 14, .cwl = 4, .tbl = 2,
        .trcd = 14, .trp = 14, .tras = 34, .trc = 48,
        .trrd_s = 4, .trrd_l = 6, .tfaw = 30,
        .tccd_s = 1, .tccd_l = 2,
        .twr = 16, .trtp_s = 4, .trtp_l = 6,
        .twtr_s = 6, .twtr_l = 8, .trtw = 14,
        .trfc = 260, .trfc_pb = 160, .trrefd = 8,
        .trefi = 3900, .max_postpone = 8,
    };
}

bool hbm2_timing_set(hbm2_timing_t *t, const char *name, int v)
{
    static const struct { const char *n; size_t off; } f[] = {
#define F(n, m) { n, offsetof(hbm2_timing_t, m) }
        F("CL", cl), F("CWL", cwl), F("TBl", tbl), F("TRcd", trcd), F("TRp", trp),
        F("TRas", tras), F("TRc", trc), F("TRrdS", trrd_s), F("TRrdL", trrd_l),
        F("TFaw", tfaw), F("TCcdS", tccd_s), F("TCcdL", tccd_l), F("TWr", twr),
        F("TRtpS", trtp_s), F("TRtpL", trtp_l), F("TWtrS", twtr_s), F("TWtrL", twtr_l),
        F("TRtw", trtw), F("TRfc", trfc), F("TRfcPb", trfc_pb), F("TRrefd", trrefd),
        F("TRefi", trefi),
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

static void die(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "%s\n", msg);
    fflush(stdout);
    exit(1);
}

hbm2_t *hbm2_new(const hbm2_config_t *cfg)
{
    hbm2_t *d = calloc(1, sizeof *d);
    if (!d) {
        perror("hbm2");
        exit(2);
    }
    d->cfg = *cfg;
    snprintf(d->name, sizeof d->name, "%s", cfg->name ? cfg->name : "hbm2");
    d->cfg.name = d->name;
    if (!d->cfg.on_violation)
        d->cfg.on_violation = die;
    d->t = cfg->t;
    if (cfg->row_bits < 1 || cfg->row_bits > 20 || d->t.cl + d->t.tbl >= RING / 2 ||
        d->t.cwl + d->t.tbl >= RING / 2 || d->t.tbl < 1 || d->t.trefi < HBM2_BANKS) {
        fprintf(stderr, "hbm2 %s: unsupported configuration (row_bits %d, CL %d, CWL %d, TBl %d)\n",
                d->cfg.name, cfg->row_bits, d->t.cl, d->t.cwl, d->t.tbl);
        exit(2);
    }
    d->rows = 1u << cfg->row_bits;
    for (int b = 0; b < HBM2_BANKS; b++) {
        d->act[b] = d->pre[b] = d->rd[b] = d->wr[b] = NEVER;
        d->ref_end[b] = 0;
    }
    for (int g = 0; g < HBM2_GROUPS; g++)
        d->act_g[g] = d->rd_g[g] = d->wr_g[g] = d->col_g[g] = NEVER;
    d->act_any = d->rd_any = d->wr_any = d->col_any = d->refpb_any = NEVER;
    d->refpb_bank = -1;
    for (int k = 0; k < 4; k++)
        d->faw[k] = NEVER;
    for (int i = 0; i < RING; i++)
        d->bus[i] = NEVER;
    d->next_ref_check = d->t.trefi;
    d->tab_size = 1024;
    d->tab = calloc(d->tab_size, sizeof *d->tab);
    if (!d->tab) {
        perror("hbm2");
        exit(2);
    }
    return d;
}

void hbm2_free(hbm2_t *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->tab_size; i++)
        free(d->tab[i].data);
    free(d->tab);
    free(d);
}

/* ---------------------------------------------------------------- storage */

static inline uint32_t page_key(const hbm2_t *d, int bank, uint32_t row)
{
    return (((uint32_t)bank << d->cfg.row_bits) | row) + 1;
}

static inline size_t hash32(uint32_t k, size_t mask)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k & mask;
}

static page_t *page_find(const hbm2_t *d, uint32_t key)
{
    size_t mask = d->tab_size - 1;
    for (size_t i = hash32(key, mask);; i = (i + 1) & mask) {
        if (d->tab[i].key == key)
            return &d->tab[i];
        if (d->tab[i].key == 0)
            return NULL;
    }
}

static uint8_t *page_get(hbm2_t *d, uint32_t key)
{
    page_t *p = page_find(d, key);
    if (p)
        return p->data;
    if (2 * (d->tab_used + 1) > d->tab_size) {
        page_t *old = d->tab;
        size_t n = d->tab_size;
        d->tab_size *= 2;
        d->tab = calloc(d->tab_size, sizeof *d->tab);
        if (!d->tab) {
            perror("hbm2");
            exit(2);
        }
        for (size_t i = 0; i < n; i++) {
            if (!old[i].key)
                continue;
            size_t mask = d->tab_size - 1, j = hash32(old[i].key, mask);
            while (d->tab[j].key)
                j = (j + 1) & mask;
            d->tab[j] = old[i];
        }
        free(old);
    }
    size_t mask = d->tab_size - 1, j = hash32(key, mask);
    while (d->tab[j].key)
        j = (j + 1) & mask;
    d->tab[j].key = key;
    d->tab[j].data = calloc(1, PAGE);
    if (!d->tab[j].data) {
        perror("hbm2");
        exit(2);
    }
    d->tab_used++;
    d->st.pages++;
    return d->tab[j].data;
}

void hbm2_peek(const hbm2_t *d, int bank, uint32_t row, int col, uint8_t *out)
{
    const page_t *p = page_find(d, page_key(d, bank, row));
    if (p)
        memcpy(out, p->data + col * HBM2_BEAT, HBM2_BEAT);
    else
        memset(out, 0, HBM2_BEAT);
}

void hbm2_poke(hbm2_t *d, int bank, uint32_t row, int col, const uint8_t *in, uint32_t strb)
{
    uint8_t *p = page_get(d, page_key(d, bank, row)) + col * HBM2_BEAT;
    if (strb == 0xffffffffu) {
        memcpy(p, in, HBM2_BEAT);
        return;
    }
    for (int i = 0; i < HBM2_BEAT; i++)
        if (strb >> i & 1)
            p[i] = in[i];
}

/* ---------------------------------------------------------------- checks */

static void violation(hbm2_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(hbm2_t *d, const char *fmt, ...)
{
    char msg[512];
    int n = snprintf(msg, sizeof msg, "hbm2 %s: timing violation at cycle %lld: ", d->cfg.name,
                     (long long)d->now);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    d->st.violations++;
    d->cfg.on_violation(d->cfg.ctx, msg);
}

/* "rule: CMD bank B ... cycles after PREV at cycle C, needs N" */
static inline void need(hbm2_t *d, const char *rule, const char *cmd, int bank, const char *prev,
                        int64_t since, int64_t min)
{
    if (d->now - since < min)
        violation(d, "%s: %s to bank %d (bg %d) %lld cycles after %s at cycle %lld, needs %lld",
                  rule, cmd, bank, bank >> 2, (long long)(d->now - since), prev, (long long)since,
                  (long long)min);
}

static void check_bank(hbm2_t *d, const char *cmd, int bank)
{
    if (bank < 0 || bank >= HBM2_BANKS)
        violation(d, "%s to bank %d: no such bank", cmd, bank);
}

static void do_pre(hbm2_t *d, const char *cmd, int b)
{
    if (!d->open[b])
        return;  /* precharging a closed bank is a no-op */
    need(d, "tRAS", cmd, b, "its ACT", d->act[b], d->t.tras);
    need(d, "tWR", cmd, b, "its last WR", d->wr[b], d->t.cwl + d->t.tbl + d->t.twr);
    need(d, "tRTP_L", cmd, b, "its last RD", d->rd[b], d->t.trtp_l);
    need(d, "tRTP_S", cmd, b, "its last RD", d->rd[b], d->t.trtp_s);
    d->open[b] = false;
    d->pre[b] = d->now;
}

static void refresh_count(hbm2_t *d, int b)
{
    d->refs[b]++;
    int64_t due = d->now / d->t.trefi;
    if (d->cfg.check_refresh && d->refs[b] - due > d->t.max_postpone)
        violation(d, "refresh pulled in too far: bank %d has had %lld refreshes by cycle %lld, at most %lld allowed",
                  b, (long long)d->refs[b], (long long)d->now, (long long)(due + d->t.max_postpone));
}

static void row_command(hbm2_t *d, int cmd, int b, uint32_t row)
{
    const hbm2_timing_t *t = &d->t;
    switch (cmd) {
    case HBM2_ACT: {
        check_bank(d, "ACT", b);
        int g = b >> 2;
        d->st.act++;
        if (row >= d->rows)
            violation(d, "ACT to bank %d: row %u out of range (%u rows)", b, row, d->rows);
        if (d->open[b])
            violation(d, "ACT to bank %d (bg %d) which has row %u open", b, g, d->row[b]);
        if (d->now < d->ref_end[b])
            violation(d, "%s: ACT to bank %d (bg %d) while it refreshes until cycle %lld",
                      d->ref_pb[b] ? "tRFCpb" : "tRFC", b, g, (long long)d->ref_end[b]);
        need(d, "tRC", "ACT", b, "its last ACT", d->act[b], t->trc);
        need(d, "tRP", "ACT", b, "its PRE", d->pre[b], t->trp);
        need(d, "tRRD_L", "ACT", b, "an ACT in the same bank group", d->act_g[g], t->trrd_l);
        need(d, "tRRD_S", "ACT", b, "an ACT", d->act_any, t->trrd_s);
        need(d, "tFAW", "ACT", b, "the fourth-last ACT", d->faw[0], t->tfaw);
        if (d->refpb_bank != b)
            need(d, "tRREFD", "ACT", b, "a REFpb of another bank", d->refpb_any, t->trrefd);
        d->open[b] = true;
        d->row[b] = row;
        d->act[b] = d->act_g[g] = d->act_any = d->now;
        memmove(d->faw, d->faw + 1, 3 * sizeof d->faw[0]);
        d->faw[3] = d->now;
        break;
    }
    case HBM2_PRE:
        check_bank(d, "PRE", b);
        d->st.pre++;
        do_pre(d, "PRE", b);
        break;
    case HBM2_PREA:
        d->st.prea++;
        for (int k = 0; k < HBM2_BANKS; k++)
            do_pre(d, "PREA", k);
        break;
    case HBM2_REFAB:
        d->st.refab++;
        for (int k = 0; k < HBM2_BANKS; k++) {
            if (d->open[k])
                violation(d, "REFab with bank %d (bg %d) open", k, k >> 2);
            if (d->now < d->ref_end[k])
                violation(d, "%s: REFab while bank %d refreshes until cycle %lld",
                          d->ref_pb[k] ? "tRFCpb" : "tRFC", k, (long long)d->ref_end[k]);
            need(d, "tRP", "REFab", k, "its PRE", d->pre[k], t->trp);
            need(d, "tRC", "REFab", k, "its last ACT", d->act[k], t->trc);
        }
        for (int k = 0; k < HBM2_BANKS; k++) {
            d->ref_end[k] = d->now + t->trfc;
            d->ref_pb[k] = false;
            refresh_count(d, k);
        }
        break;
    case HBM2_REFPB:
        check_bank(d, "REFpb", b);
        d->st.refpb++;
        if (d->open[b])
            violation(d, "REFpb to bank %d (bg %d) which is open", b, b >> 2);
        if (d->now < d->ref_end[b])
            violation(d, "tRFCpb: REFpb to bank %d while it refreshes until cycle %lld", b,
                      (long long)d->ref_end[b]);
        need(d, "tRP", "REFpb", b, "its PRE", d->pre[b], t->trp);
        need(d, "tRC", "REFpb", b, "its last ACT", d->act[b], t->trc);
        need(d, "tRREFD", "REFpb", b, "an ACT", d->act_any, t->trrefd);
        need(d, "tRREFD", "REFpb", b, "a REFpb", d->refpb_any, t->trrefd);
        d->ref_end[b] = d->now + t->trfc_pb;
        d->ref_pb[b] = true;
        d->refpb_any = d->now;
        d->refpb_bank = b;
        refresh_count(d, b);
        break;
    default:
        violation(d, "unknown row command %d", cmd);
    }
}

static void bus_take(hbm2_t *d, const char *cmd, int b, int64_t start)
{
    for (int64_t c = start; c < start + d->t.tbl; c++) {
        int64_t *slot = &d->bus[c % RING];
        if (*slot == c)
            violation(d, "data bus conflict: the burst of %s to bank %d needs cycle %lld, already taken",
                      cmd, b, (long long)c);
        *slot = c;
    }
}

static void col_command(hbm2_t *d, int cmd, int b, int col, const uint8_t *wdata, uint32_t wstrb)
{
    const hbm2_timing_t *t = &d->t;
    const char *name = cmd == HBM2_RD ? "RD" : cmd == HBM2_WR ? "WR" : "?";
    if (cmd != HBM2_RD && cmd != HBM2_WR) {
        violation(d, "unknown column command %d", cmd);
        return;
    }
    check_bank(d, name, b);
    int g = b >> 2;
    if (col < 0 || col >= HBM2_COLS)
        violation(d, "%s to bank %d: column %d out of range", name, b, col);
    if (!d->open[b]) {
        violation(d, "%s to bank %d (bg %d) which is not open", name, b, g);
        return;
    }
    need(d, "tRCD", name, b, "its ACT", d->act[b], t->trcd);
    need(d, "tCCD_L", name, b, "a column command in the same bank group", d->col_g[g],
         t->tccd_l);
    need(d, "tCCD_S", name, b, "a column command", d->col_any, t->tccd_s);
    uint8_t *page = NULL;
    if (cmd == HBM2_RD) {
        d->st.rd++;
        need(d, "tWTR_L", name, b, "a WR in the same bank group", d->wr_g[g],
             t->cwl + t->tbl + t->twtr_l);
        for (int h = 0; h < HBM2_GROUPS; h++)
            if (h != g)
                need(d, "tWTR_S", name, b, "a WR in another bank group", d->wr_g[h],
                     t->cwl + t->tbl + t->twtr_s);
        int64_t at = d->now + t->cl;
        bus_take(d, name, b, at);
        int slot = (int)(at % RING);
        d->rvalid[slot] = true;
        const page_t *p = page_find(d, page_key(d, b, d->row[b]));
        if (p)
            memcpy(d->rdata[slot], p->data + col * HBM2_BEAT, HBM2_BEAT);
        else
            memset(d->rdata[slot], 0, HBM2_BEAT);
        d->rd[b] = d->rd_g[g] = d->rd_any = d->now;
    } else {
        d->st.wr++;
        need(d, "tRTW", name, b, "a RD", d->rd_any, t->trtw);
        bus_take(d, name, b, d->now + t->cwl);
        if (wstrb) {
            page = page_get(d, page_key(d, b, d->row[b])) + col * HBM2_BEAT;
            if (wstrb == 0xffffffffu) {
                memcpy(page, wdata, HBM2_BEAT);
            } else {
                for (int i = 0; i < HBM2_BEAT; i++)
                    if (wstrb >> i & 1)
                        page[i] = wdata[i];
            }
        }
        d->wr[b] = d->wr_g[g] = d->wr_any = d->now;
    }
    d->col_g[g] = d->col_any = d->now;
}

static void check_refresh_debt(hbm2_t *d)
{
    int64_t due = d->now / d->t.trefi;
    for (int b = 0; b < HBM2_BANKS; b++)
        if (due - d->refs[b] > d->t.max_postpone)
            violation(d, "refresh postponed too long: bank %d has had %lld refreshes by cycle %lld, needs %lld",
                      b, (long long)d->refs[b], (long long)d->now, (long long)(due - d->t.max_postpone));
    d->next_ref_check += d->t.trefi;
}

bool hbm2_cycle(hbm2_t *d, int rcmd, int rbank, uint32_t row, int ccmd, int cbank, int col,
                const uint8_t *wdata, uint32_t wstrb, uint8_t *rdata)
{
    if (rcmd)
        row_command(d, rcmd, rbank, row);
    if (ccmd)
        col_command(d, ccmd, cbank, col, wdata, wstrb);
    if (d->cfg.check_refresh && d->now >= d->next_ref_check)
        check_refresh_debt(d);
    int slot = (int)(d->now % RING);
    bool v = d->rvalid[slot];
    if (v) {
        memcpy(rdata, d->rdata[slot], HBM2_BEAT);
        d->rvalid[slot] = false;
    }
    d->now++;
    d->st.cycles++;
    return v;
}

void hbm2_get_stats(const hbm2_t *d, hbm2_stats_t *s) { *s = d->st; }

unsigned hbm2_open_banks(const hbm2_t *d)
{
    unsigned m = 0;
    for (int b = 0; b < HBM2_BANKS; b++)
        if (d->open[b])
            m |= 1u << b;
    return m;
}

uint64_t hbm2_now(const hbm2_t *d) { return (uint64_t)d->now; }

int hbm2_row_fold(uint32_t row)
{
    int f = 0;
    for (; row; row >>= 4)
        f ^= (int)(row & 15);
    return f;
}

bool hbm2_map(uint64_t addr, int npch, uint32_t gran, int row_bits, bool bank_hash, hbm2_loc_t *loc)
{
    uint64_t pch_bytes = (uint64_t)1 << (row_bits + 14);
    if (addr >= pch_bytes * (uint64_t)npch)
        return false;
    uint64_t chunk = addr / gran;
    uint64_t local = (chunk / (uint64_t)npch) * gran + addr % gran;   /* channel-local byte */
    uint64_t beat = local / HBM2_BEAT;
    loc->pch = (int)(chunk % (uint64_t)npch);
    loc->col = (int)(beat & 31);
    int bg = (int)(beat >> 5 & 3), ba = (int)(beat >> 7 & 3);
    loc->row = (uint32_t)(beat >> 9);
    loc->bank = (bg << 2 | ba) ^ (bank_hash ? hbm2_row_fold(loc->row) : 0);
    return true;
}

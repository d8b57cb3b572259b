/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_mem.c - testbench and benchmark driver of tpu_mem_sys.
 *
 * The Verilated memory system talks to one C HBM2 model (sim/hbm2) per
 * pseudo-channel; a C traffic generator drives every AXI port with random bursts
 * (back-pressure on R and B, gaps on AW/W/AR) and checks every beat against a
 * byte-accurate reference memory (mem_ref.c).  Bursts that touch bytes of an
 * unfinished write are never issued concurrently, so "what was last written" is
 * always defined; a write counts as done at its B response.
 *
 * Usage: tb_mem Name=Value... [--seed N] [--bursts N] [--only TEST] [--keep-going]
 *        tb_mem Name=Value... --bench seq_read|seq_write|mixed|rand64|rand1k [--cycles N]
 * Name=Value are the -G parameters the model was built with (NumPch, GranBytes,
 * RefreshMode, BankHash, Backend, timing names such as TRefi, ...).
 * MEM_SOAK=K in the environment multiplies the random test length by K.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbm2.h"
#include "mem_ref.h"
#include "tb.h"

#define MAXP 16
#define MAXPORTS 16
#define BEAT 32

/* ------------------------------------------------------------------ configuration */

typedef struct cfg {
    int nports, npch, idw, gran, backend, row_bits, refresh_mode, bank_hash, rob_depth;
    int row_hit_cap, close_idle;
    uint64_t spram_bytes, pch_bytes, mem_bytes;
    hbm2_timing_t t;
} cfg_t;

/* ------------------------------------------------------------------ bursts */

typedef struct burst {
    struct burst *next;
    bool write, addr_sent;
    int port, len, sent;       /* len beats; writes: W beats sent, reads: R beats checked */
    uint32_t id;
    uint64_t addr;
    uint8_t *data;             /* writes: len * 32 bytes */
    uint32_t *strb;
    uint64_t t_addr;           /* cycle the address handshake happened */
    int slot;                  /* index in the in-flight table */
    int tag;                   /* test-specific marker */
} burst_t;

typedef struct bq {
    burst_t *head, *tail;
    int n;
} bq_t;

typedef struct port {
    bq_t wq, rq;               /* outstanding bursts in address order */
    burst_t *aw_next, *w_next, *ar_next;
    bool aw_up, w_up, ar_up;   /* valid raised and not yet taken: must stay */
    bool r_hold, b_hold;       /* slave valid seen without ready: must stay */
    uint32_t r_hold_id, b_hold_id;
    uint8_t r_hold_data[BEAT];
    uint64_t seq;              /* per-port sequential pointer */
    bool pending;              /* `next` was generated but not issued yet */
    burst_t next;
} port_t;

struct sim;
/* A traffic pattern: fills a new burst (write, addr, len, id) or returns false. */
typedef bool (*gen_fn)(struct sim *s, int port, burst_t *b);

typedef struct sim {
    tb_t *tb;
    cfg_t c;
    const char *test;          /* the running test, for violation messages */
    bool keep_going;
    uint64_t violations, viol_total;
    uint64_t trace_from;       /* MEM_TRACE=cycle[,n]: print n (400) cycles of device commands */
    uint64_t trace_len;
    /* signals */
    tb_sig_t *awvalid, *awready, *awid, *awaddr, *awlen;
    tb_sig_t *wvalid, *wready, *wdata, *wstrb, *wlast;
    tb_sig_t *bvalid, *bready, *bid, *bresp;
    tb_sig_t *arvalid, *arready, *arid, *araddr, *arlen;
    tb_sig_t *rvalid, *rready, *rid, *rdata, *rresp, *rlast;
    tb_sig_t *h_rcmd, *h_rbank, *h_row, *h_ccmd, *h_cbank, *h_col, *h_wdata, *h_wstrb;
    tb_sig_t *h_rvalid, *h_rdata, *cnt;
    /* models */
    hbm2_t *dev[MAXP];
    mem_ref_t *ref;
    port_t port[MAXPORTS];
    burst_t **fly;             /* every outstanding burst */
    int nfly, fly_cap;
    /* traffic */
    gen_fn gen;
    void *gen_ctx;
    int max_w, max_r;          /* outstanding bursts per port and direction */
    unsigned rready_pct, bready_pct, gap_pct;
    uint64_t to_issue, issued, completed;
    uint64_t start_cycle, last_progress;
    /* statistics */
    uint64_t beats_r, beats_w, slverr_beats, bursts_r, bursts_w;
    uint64_t lat_tag_max;      /* max latency of bursts with tag != 0 */
    uint64_t max_read_latency;
} sim_t;

static sim_t *g_sim;  /* for the violation handler */

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n, sz);
    if (!p) {
        perror("tb_mem");
        exit(2);
    }
    return p;
}

/* ------------------------------------------------------------------ signal helpers */

static inline void fset(tb_sig_t *s, int lsb, int w, uint64_t v)
{
    if (s->store == 0 && (lsb & 31) + w <= 32) {
        uint32_t *p = tb_words(s) + (lsb >> 5);
        uint32_t m = (w == 32 ? ~0u : ((1u << w) - 1)) << (lsb & 31);
        *p = (*p & ~m) | (((uint32_t)v << (lsb & 31)) & m);
    } else {
        tb_set_bits(s, lsb, w, v);
    }
}

static inline uint64_t fget(tb_sig_t *s, int lsb, int w) { return tb_get_bits(s, lsb, w); }

static inline uint8_t *wide_bytes(tb_sig_t *s, int beat) { return (uint8_t *)(tb_words(s) + beat * 8); }

/* ------------------------------------------------------------------ violations */

static void on_violation(void *ctx, const char *msg)
{
    sim_t *s = ctx;
    s->violations++;
    s->viol_total++;
    if (s->keep_going) {
        if (s->violations <= 5)
            fprintf(stderr, "%s\n", msg);
        return;
    }
    printf("FAIL %s: %s (seed=%llu)\n", s->test ? s->test : "mem", msg,
           (unsigned long long)s->tb->seed);
    fflush(stdout);
    exit(1);
}

/* ------------------------------------------------------------------ setup */

static int pval(int argc, char **argv, const char *name, int dflt)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
            return atoi(argv[i] + n + 1);
    return dflt;
}

static void parse_cfg(sim_t *s, int argc, char **argv)
{
    cfg_t *c = &s->c;
    tb_t *tb = s->tb;
    c->nports = (int)s->awvalid->bits;
    c->npch = (int)s->h_rcmd->bits / 3;
    c->idw = (int)s->awid->bits / c->nports;
    c->row_bits = (int)s->h_row->bits / c->npch;
    c->gran = pval(argc, argv, "GranBytes", 256);
    c->backend = pval(argc, argv, "Backend", 0);
    c->refresh_mode = pval(argc, argv, "RefreshMode", 0);
    c->bank_hash = pval(argc, argv, "BankHash", 1);
    c->rob_depth = pval(argc, argv, "RobDepth", 64);
    c->row_hit_cap = pval(argc, argv, "RowHitCap", 16);
    c->close_idle = pval(argc, argv, "CloseIdle", 0);
    c->spram_bytes = (uint64_t)pval(argc, argv, "SpramBytes", 131072);
    hbm2_timing_default(&c->t);
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *eq = strchr(argv[i], '=');
        if (!eq || argv[i][0] == '-' || (size_t)(eq - argv[i]) >= sizeof name)
            continue;
        memcpy(name, argv[i], (size_t)(eq - argv[i]));
        name[eq - argv[i]] = 0;
        hbm2_timing_set(&c->t, name, atoi(eq + 1));
    }
    /* Parameters that the port widths reveal must agree with the arguments. */
    if (pval(argc, argv, "NumPch", c->npch) != c->npch ||
        pval(argc, argv, "NumPorts", c->nports) != c->nports ||
        pval(argc, argv, "RowBits", c->row_bits) != c->row_bits) {
        fprintf(stderr, "tb_mem: arguments disagree with the model (NumPch %d, NumPorts %d, RowBits %d)\n",
                c->npch, c->nports, c->row_bits);
        exit(2);
    }
    c->pch_bytes = c->backend == 1 ? c->spram_bytes : (uint64_t)1 << (c->row_bits + 14);
    c->mem_bytes = c->pch_bytes * (uint64_t)c->npch;
    if (c->nports > MAXPORTS || c->npch > MAXP) {
        fprintf(stderr, "tb_mem: too many ports or channels\n");
        exit(2);
    }
    printf("# %s: %d ports, P=%d, %s, granularity %d B, %s refresh%s, %.0f MB\n", tb->name,
           c->nports, c->npch, c->backend ? "SPRAM" : "HBM2", c->gran,
           c->refresh_mode ? "per-bank" : "all-bank", c->bank_hash ? ", bank hash" : "",
           (double)c->mem_bytes / (1 << 20));
}

static void sim_devices(sim_t *s)
{
    for (int c = 0; c < s->c.npch; c++) {
        hbm2_free(s->dev[c]);
        s->dev[c] = NULL;
        if (s->c.backend != 0)
            continue;
        char *name = xcalloc(1, 16);
        snprintf(name, 16, "pch%d", c);
        hbm2_config_t hc = {
            .name = name, .row_bits = s->c.row_bits, .t = s->c.t, .check_refresh = true,
            .on_violation = on_violation, .ctx = s,
        };
        s->dev[c] = hbm2_new(&hc);
    }
}

static void sim_init(sim_t *s, tb_t *tb, int argc, char **argv)
{
    s->tb = tb;
    g_sim = s;
#define SIG(f, n) s->f = tb_sig(tb, n)
    SIG(awvalid, "s_axi_awvalid_i"); SIG(awready, "s_axi_awready_o"); SIG(awid, "s_axi_awid_i");
    SIG(awaddr, "s_axi_awaddr_i"); SIG(awlen, "s_axi_awlen_i");
    SIG(wvalid, "s_axi_wvalid_i"); SIG(wready, "s_axi_wready_o"); SIG(wdata, "s_axi_wdata_i");
    SIG(wstrb, "s_axi_wstrb_i"); SIG(wlast, "s_axi_wlast_i");
    SIG(bvalid, "s_axi_bvalid_o"); SIG(bready, "s_axi_bready_i"); SIG(bid, "s_axi_bid_o");
    SIG(bresp, "s_axi_bresp_o");
    SIG(arvalid, "s_axi_arvalid_i"); SIG(arready, "s_axi_arready_o"); SIG(arid, "s_axi_arid_i");
    SIG(araddr, "s_axi_araddr_i"); SIG(arlen, "s_axi_arlen_i");
    SIG(rvalid, "s_axi_rvalid_o"); SIG(rready, "s_axi_rready_i"); SIG(rid, "s_axi_rid_o");
    SIG(rdata, "s_axi_rdata_o"); SIG(rresp, "s_axi_rresp_o"); SIG(rlast, "s_axi_rlast_o");
    SIG(h_rcmd, "m_hbm_rcmd_o"); SIG(h_rbank, "m_hbm_rbank_o"); SIG(h_row, "m_hbm_row_o");
    SIG(h_ccmd, "m_hbm_ccmd_o"); SIG(h_cbank, "m_hbm_cbank_o"); SIG(h_col, "m_hbm_col_o");
    SIG(h_wdata, "m_hbm_wdata_o"); SIG(h_wstrb, "m_hbm_wstrb_o");
    SIG(h_rvalid, "m_hbm_rvalid_i"); SIG(h_rdata, "m_hbm_rdata_i"); SIG(cnt, "cnt_o");
#undef SIG
    parse_cfg(s, argc, argv);
    s->fly_cap = 4096;
    s->fly = xcalloc((size_t)s->fly_cap, sizeof *s->fly);
}

/* Resets the RTL and every model: each test starts from a fresh memory. */
static void sim_reset(sim_t *s)
{
    for (int p = 0; p < s->c.nports; p++) {
        port_t *pt = &s->port[p];
        for (burst_t *b = pt->wq.head, *n; b; b = n) {
            n = b->next;
            free(b->data);
            free(b->strb);
            free(b);
        }
        for (burst_t *b = pt->rq.head, *n; b; b = n) {
            n = b->next;
            free(b);
        }
        memset(pt, 0, sizeof *pt);
    }
    s->nfly = 0;
    /* A reset empties the HBM2 devices (they are rebuilt below) but not on-chip RAM. */
    if (s->ref && s->c.backend == 0) {
        mem_ref_free(s->ref);
        s->ref = NULL;
    }
    if (!s->ref)
        s->ref = mem_ref_new();
    tb_set(s->awvalid, 0);
    tb_set(s->wvalid, 0);
    tb_set(s->arvalid, 0);
    tb_set(s->rready, 0);
    tb_set(s->bready, 0);
    tb_set(s->h_rvalid, 0);
    tb_reset(s->tb, 5);
    sim_devices(s);
    s->issued = s->completed = 0;
    s->beats_r = s->beats_w = s->slverr_beats = s->bursts_r = s->bursts_w = 0;
    s->lat_tag_max = s->max_read_latency = 0;
    s->start_cycle = s->last_progress = s->tb->cycle;
    s->violations = 0;
}

/* ------------------------------------------------------------------ in-flight table */

static bool overlaps(const burst_t *a, const burst_t *b)
{
    uint64_t a0 = a->addr, a1 = a->addr + (uint64_t)a->len * BEAT;
    uint64_t b0 = b->addr, b1 = b->addr + (uint64_t)b->len * BEAT;
    return a0 < b1 && b0 < a1;
}

/* A new burst may not share bytes with an unfinished write, nor (if it writes) with
 * an unfinished read: the order of such pairs is not defined across ports. */
static bool conflicts(const sim_t *s, const burst_t *b)
{
    for (int i = 0; i < s->nfly; i++) {
        const burst_t *o = s->fly[i];
        if ((o->write || b->write) && overlaps(o, b))
            return true;
    }
    return false;
}

static void fly_add(sim_t *s, burst_t *b)
{
    if (s->nfly == s->fly_cap) {
        s->fly_cap *= 2;
        s->fly = realloc(s->fly, (size_t)s->fly_cap * sizeof *s->fly);
        if (!s->fly) {
            perror("tb_mem");
            exit(2);
        }
    }
    b->slot = s->nfly;
    s->fly[s->nfly++] = b;
}

static void fly_del(sim_t *s, burst_t *b)
{
    burst_t *last = s->fly[--s->nfly];
    s->fly[b->slot] = last;
    last->slot = b->slot;
}

static void bq_push(bq_t *q, burst_t *b)
{
    b->next = NULL;
    if (q->tail)
        q->tail->next = b;
    else
        q->head = b;
    q->tail = b;
    q->n++;
}

static void bq_del(bq_t *q, burst_t *b)
{
    burst_t **pp = &q->head, *prev = NULL;
    while (*pp != b) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    *pp = b->next;
    if (q->tail == b)
        q->tail = prev;
    q->n--;
}

/* ------------------------------------------------------------------ expectations */

static inline bool beat_ok(const sim_t *s, const burst_t *b, int k)
{
    uint64_t a = b->addr + (uint64_t)k * BEAT;
    return (b->addr % BEAT) == 0 && a < s->c.mem_bytes && a < ((uint64_t)1 << 32);
}

static bool burst_ok(const sim_t *s, const burst_t *b)
{
    for (int k = 0; k < b->len; k++)
        if (!beat_ok(s, b, k))
            return false;
    return true;
}

/* ------------------------------------------------------------------ one cycle */

static void device_step(sim_t *s)
{
    if (s->c.backend != 0)
        return;
    uint8_t rd[BEAT];
    for (int c = 0; c < s->c.npch; c++) {
        int rc = (int)fget(s->h_rcmd, c * 3, 3);
        int cc = (int)fget(s->h_ccmd, c * 2, 2);
        int rb = 0, cb = 0, col = 0;
        uint32_t row = 0, strb = 0;
        const uint8_t *wd = NULL;
        if (rc) {
            rb = (int)fget(s->h_rbank, c * 4, 4);
            row = (uint32_t)fget(s->h_row, c * s->c.row_bits, s->c.row_bits);
        }
        if (cc) {
            cb = (int)fget(s->h_cbank, c * 4, 4);
            col = (int)fget(s->h_col, c * 5, 5);
            if (cc == HBM2_WR) {
                wd = wide_bytes(s->h_wdata, c);
                strb = (uint32_t)fget(s->h_wstrb, c * 32, 32);
            }
        }
        if (s->trace_from && s->tb->cycle >= s->trace_from && s->tb->cycle < s->trace_from + s->trace_len &&
            (rc || cc))
            printf("T %llu pch%d r%d b%d row%u | c%d b%d col%d\n", (unsigned long long)s->tb->cycle, c, rc,
                   rb, row, cc, cb, col);
        bool v = hbm2_cycle(s->dev[c], rc, rb, row, cc, cb, col, wd, strb, rd);
        fset(s->h_rvalid, c, 1, v);
        if (v)
            memcpy(wide_bytes(s->h_rdata, c), rd, BEAT);
    }
}

/* Issues the port's next burst when there is room; a burst that cannot go yet (no
 * room in its direction, or it shares bytes with an unfinished write) waits. */
static void new_bursts(sim_t *s, int p)
{
    port_t *pt = &s->port[p];
    for (int n = 0; n < 2 && s->issued < s->to_issue; n++) {
        if (!pt->pending) {
            burst_t nb = { .port = p };
            if (!s->gen(s, p, &nb))
                return;
            if (nb.len < 1 || nb.len > 256) {
                fprintf(stderr, "tb_mem: generator made a burst of %d beats\n", nb.len);
                exit(2);
            }
            pt->next = nb;
            pt->pending = true;
        }
        burst_t *nb = &pt->next;
        if (nb->write ? pt->wq.n >= s->max_w : pt->rq.n >= s->max_r)
            return;
        if (conflicts(s, nb))
            return;
        pt->pending = false;
        burst_t *b = xcalloc(1, sizeof *b);
        *b = *nb;
        if (b->write) {
            b->data = xcalloc((size_t)b->len, BEAT);
            b->strb = xcalloc((size_t)b->len, sizeof *b->strb);
            uint64_t *d = (uint64_t *)b->data;
            for (int k = 0; k < b->len * BEAT / 8; k++)
                d[k] = tb_rand64(s->tb);
            bool all = tb_chance(s->tb, 3, 4);
            for (int k = 0; k < b->len; k++)
                b->strb[k] = all ? 0xffffffffu : tb_rand32(s->tb);
            bq_push(&pt->wq, b);
            if (!pt->aw_next)
                pt->aw_next = b;
            if (!pt->w_next)
                pt->w_next = b;
        } else {
            bq_push(&pt->rq, b);
            if (!pt->ar_next)
                pt->ar_next = b;
        }
        fly_add(s, b);
        s->issued++;
    }
}

static void drive(sim_t *s, int p)
{
    port_t *pt = &s->port[p];
    int idw = s->c.idw;
    /* AW */
    burst_t *b = pt->aw_next;
    bool v = b && (pt->aw_up || !tb_chance(s->tb, s->gap_pct, 100));
    fset(s->awvalid, p, 1, v);
    if (v) {
        fset(s->awid, p * idw, idw, b->id);
        fset(s->awaddr, p * 32, 32, (uint32_t)b->addr);
        fset(s->awlen, p * 8, 8, (uint64_t)(b->len - 1));
    }
    pt->aw_up = v;
    /* W */
    b = pt->w_next;
    v = b && (pt->w_up || !tb_chance(s->tb, s->gap_pct, 100));
    fset(s->wvalid, p, 1, v);
    if (v) {
        memcpy(wide_bytes(s->wdata, p), b->data + b->sent * BEAT, BEAT);
        fset(s->wstrb, p * 32, 32, b->strb[b->sent]);
        fset(s->wlast, p, 1, b->sent == b->len - 1);
    }
    pt->w_up = v;
    /* AR */
    b = pt->ar_next;
    v = b && (pt->ar_up || !tb_chance(s->tb, s->gap_pct, 100));
    fset(s->arvalid, p, 1, v);
    if (v) {
        fset(s->arid, p * idw, idw, b->id);
        fset(s->araddr, p * 32, 32, (uint32_t)b->addr);
        fset(s->arlen, p * 8, 8, (uint64_t)(b->len - 1));
    }
    pt->ar_up = v;
    fset(s->rready, p, 1, s->rready_pct >= 100 || tb_chance(s->tb, s->rready_pct, 100));
    fset(s->bready, p, 1, s->bready_pct >= 100 || tb_chance(s->tb, s->bready_pct, 100));
}

typedef struct hs {
    bool aw, w, ar, r, b, rv, bv;
    uint32_t rid, bid;
    int rresp, bresp;
    bool rlast;
    uint8_t rdata[BEAT];
} hs_t;

static void check_r(sim_t *s, int p, const hs_t *h)
{
    tb_t *tb = s->tb;
    port_t *pt = &s->port[p];
    burst_t *b = pt->rq.head;
    while (b && !(b->addr_sent && b->id == h->rid))
        b = b->next;
    if (!b) {
        tb_check(tb, false, "port %d: R beat with id %u and no read burst outstanding", p, h->rid);
        return;
    }
    int k = b->sent;
    uint8_t exp[BEAT];
    bool ok = beat_ok(s, b, k);
    if (ok)
        mem_ref_read(s->ref, b->addr + (uint64_t)k * BEAT, exp);
    else
        memset(exp, 0, BEAT);
    tb_check(tb, h->rresp == (ok ? 0 : 2), "port %d: read 0x%09" PRIx64 " beat %d/%d: rresp %d, expected %d",
             p, b->addr, k, b->len, h->rresp, ok ? 0 : 2);
    tb_check(tb, h->rlast == (k == b->len - 1), "port %d: read 0x%09" PRIx64 " beat %d/%d: rlast %d", p,
             b->addr, k, b->len, h->rlast);
    if (memcmp(exp, h->rdata, BEAT) != 0) {
        int i = 0;
        while (exp[i] == h->rdata[i])
            i++;
        tb_check(tb, false, "port %d: read 0x%09" PRIx64 " beat %d/%d byte %d: got 0x%02x, expected 0x%02x",
                 p, b->addr, k, b->len, i, h->rdata[i], exp[i]);
    }
    if (!ok)
        s->slverr_beats++;
    s->beats_r++;
    if (++b->sent == b->len) {
        uint64_t lat = tb->cycle - b->t_addr;
        if (lat > s->max_read_latency)
            s->max_read_latency = lat;
        if (b->tag && lat > s->lat_tag_max)
            s->lat_tag_max = lat;
        bq_del(&pt->rq, b);
        fly_del(s, b);
        free(b);
        s->completed++;
        s->bursts_r++;
    }
}

static void check_b(sim_t *s, int p, const hs_t *h)
{
    tb_t *tb = s->tb;
    port_t *pt = &s->port[p];
    burst_t *b = pt->wq.head;
    while (b && !(b->addr_sent && b->id == h->bid))
        b = b->next;
    if (!b) {
        tb_check(tb, false, "port %d: B with id %u and no write burst outstanding", p, h->bid);
        return;
    }
    tb_check(tb, b->sent == b->len, "port %d: B for write 0x%09" PRIx64 " after %d of %d beats", p,
             b->addr, b->sent, b->len);
    bool ok = burst_ok(s, b);
    tb_check(tb, h->bresp == (ok ? 0 : 2), "port %d: write 0x%09" PRIx64 " (%d beats): bresp %d, expected %d",
             p, b->addr, b->len, h->bresp, ok ? 0 : 2);
    for (int k = 0; k < b->len; k++) {
        if (beat_ok(s, b, k))
            mem_ref_write(s->ref, b->addr + (uint64_t)k * BEAT, b->data + k * BEAT, b->strb[k]);
        else
            s->slverr_beats++;
    }
    s->beats_w += (uint64_t)b->len;
    if (pt->aw_next == b || pt->w_next == b)
        tb_check(tb, false, "port %d: B for a burst still being sent", p);
    bq_del(&pt->wq, b);
    fly_del(s, b);
    free(b->data);
    free(b->strb);
    free(b);
    s->completed++;
    s->bursts_w++;
}

static void cycle(sim_t *s)
{
    tb_t *tb = s->tb;
    int np = s->c.nports;
    hs_t h[MAXPORTS];
    device_step(s);
    for (int p = 0; p < np; p++) {
        new_bursts(s, p);
        drive(s, p);
    }
    tb_fall(tb);  /* readies settle for the inputs just driven */
    for (int p = 0; p < np; p++) {
        hs_t *x = &h[p];
        port_t *pt = &s->port[p];
        x->aw = pt->aw_up && fget(s->awready, p, 1);
        x->w = pt->w_up && fget(s->wready, p, 1);
        x->ar = pt->ar_up && fget(s->arready, p, 1);
        x->rv = fget(s->rvalid, p, 1);
        x->bv = fget(s->bvalid, p, 1);
        x->r = x->rv && fget(s->rready, p, 1);
        x->b = x->bv && fget(s->bready, p, 1);
        if (x->rv) {
            x->rid = (uint32_t)fget(s->rid, p * s->c.idw, s->c.idw);
            x->rresp = (int)fget(s->rresp, p * 2, 2);
            x->rlast = fget(s->rlast, p, 1);
            memcpy(x->rdata, wide_bytes(s->rdata, p), BEAT);
            /* AXI: a valid R beat stays until it is taken. */
            if (pt->r_hold)
                tb_check(tb, x->rid == pt->r_hold_id && memcmp(x->rdata, pt->r_hold_data, BEAT) == 0,
                         "port %d: R beat changed before rready", p);
        } else {
            tb_check(tb, !pt->r_hold, "port %d: rvalid dropped before rready", p);
        }
        if (x->bv) {
            x->bid = (uint32_t)fget(s->bid, p * s->c.idw, s->c.idw);
            x->bresp = (int)fget(s->bresp, p * 2, 2);
            if (pt->b_hold)
                tb_check(tb, x->bid == pt->b_hold_id, "port %d: B changed before bready", p);
        } else {
            tb_check(tb, !pt->b_hold, "port %d: bvalid dropped before bready", p);
        }
        pt->r_hold = x->rv && !x->r;
        pt->r_hold_id = x->rid;
        memcpy(pt->r_hold_data, x->rdata, BEAT);
        pt->b_hold = x->bv && !x->b;
        pt->b_hold_id = x->bid;
    }
    tb_rise(tb);
    for (int p = 0; p < np; p++) {
        hs_t *x = &h[p];
        port_t *pt = &s->port[p];
        if (x->aw) {
            pt->aw_next->addr_sent = true;
            pt->aw_next->t_addr = tb->cycle;
            pt->aw_next = pt->aw_next->next;
            pt->aw_up = false;
        }
        if (x->w) {
            if (++pt->w_next->sent == pt->w_next->len)
                pt->w_next = pt->w_next->next;
            pt->w_up = false;
        }
        if (x->ar) {
            pt->ar_next->addr_sent = true;
            pt->ar_next->t_addr = tb->cycle;
            pt->ar_next = pt->ar_next->next;
            pt->ar_up = false;
        }
        if (x->r)
            check_r(s, p, x);
        if (x->b)
            check_b(s, p, x);
        if (x->aw || x->w || x->ar || x->r || x->b)
            s->last_progress = tb->cycle;
    }
}

/* Runs until `bursts` more bursts are issued and all of them are done, or until
 * `max_cycles` pass (then outstanding bursts are still drained). False on a hang. */
static bool run(sim_t *s, uint64_t bursts, uint64_t max_cycles)
{
    tb_t *tb = s->tb;
    s->to_issue = s->issued + bursts;
    uint64_t end = max_cycles > UINT64_MAX - tb->cycle ? UINT64_MAX : tb->cycle + max_cycles;
    s->last_progress = tb->cycle;
    for (;;) {
        if (tb->cycle >= end)
            s->to_issue = s->issued;  /* stop issuing, drain */
        if (s->issued >= s->to_issue && s->nfly == 0)
            return true;
        cycle(s);
        if (tb->errors > 20)
            return true;
        if (tb->cycle - s->last_progress > 60000) {
            tb_check(tb, false, "no AXI handshake for 60000 cycles with %d bursts outstanding (hang)",
                     s->nfly);
            return false;
        }
    }
}

/* ------------------------------------------------------------------ address helpers */

/* The byte address of channel-local beat `beat` of channel `ch` (inverse interleave). */
static uint64_t global_addr(const sim_t *s, int ch, uint64_t beat)
{
    uint64_t local = beat * BEAT;
    uint64_t g = (uint64_t)s->c.gran;
    return ((local / g) * (uint64_t)s->c.npch + (uint64_t)ch) * g + local % g;
}

/* The channel-local beat address of (bank, row, col), undoing the bank hash. */
static uint64_t local_beat(const sim_t *s, int bank, uint32_t row, int col)
{
    if (s->c.bank_hash)
        bank ^= hbm2_row_fold(row);
    int bg = bank >> 2, ba = bank & 3;
    return (uint64_t)row << 9 | (uint64_t)ba << 7 | (uint64_t)bg << 5 | (uint64_t)col;
}

static uint64_t rand_addr(sim_t *s, uint64_t lo, uint64_t span)
{
    return lo + (tb_rand64(s->tb) % (span / BEAT)) * BEAT;
}

static int rand_len(sim_t *s)
{
    tb_t *tb = s->tb;
    unsigned r = (unsigned)(tb_rand64(tb) % 100);
    if (r < 45)
        return (int)tb_rand_range(tb, 1, 4);
    if (r < 80)
        return (int)tb_rand_range(tb, 5, 16);
    if (r < 96)
        return (int)tb_rand_range(tb, 17, 64);
    return (int)tb_rand_range(tb, 65, 256);
}

/* ------------------------------------------------------------------ traffic: random */

typedef struct rnd_ctx {
    uint64_t hot_base, hot_size;
    unsigned w_pct;            /* share of writes */
    unsigned mix[8];           /* weights: hot, anywhere, seq, conflict, edge, oob, unaligned, wrap */
    int conf_ch, conf_bank;
    uint32_t conf_rows[4];
} rnd_ctx_t;

static bool gen_random(sim_t *s, int p, burst_t *b)
{
    tb_t *tb = s->tb;
    rnd_ctx_t *r = s->gen_ctx;
    uint64_t mem = s->c.mem_bytes;
    unsigned total = 0, pick;
    for (int i = 0; i < 8; i++)
        total += r->mix[i];
    pick = (unsigned)(tb_rand64(tb) % total);
    int mode = 0;
    while (pick >= r->mix[mode])
        pick -= r->mix[mode++];
    b->write = tb_chance(tb, r->w_pct, 100);
    b->id = (uint32_t)(tb_rand64(tb) & ((1u << s->c.idw) - 1));
    b->len = rand_len(s);
    switch (mode) {
    case 0: /* a small hot region: hazards and row hits */
        b->len = (int)tb_rand_range(tb, 1, 8);
        b->addr = rand_addr(s, r->hot_base, r->hot_size);
        break;
    case 1: /* anywhere */
        b->addr = rand_addr(s, 0, mem - (uint64_t)b->len * BEAT);
        break;
    case 2: { /* sequential per port */
        port_t *pt = &s->port[p];
        if (pt->seq == 0 || pt->seq + (uint64_t)b->len * BEAT > mem)
            pt->seq = rand_addr(s, 0, mem / 2);
        b->addr = pt->seq;
        pt->seq += (uint64_t)b->len * BEAT;
        break;
    }
    case 3: { /* a few rows of one bank of one channel: row conflicts */
        int col = (int)tb_rand_range(tb, 0, 31);
        b->len = (int)tb_rand_range(tb, 1, 2);
        uint32_t row = r->conf_rows[tb_rand64(tb) % 4];
        b->addr = global_addr(s, r->conf_ch, local_beat(s, r->conf_bank, row, col));
        if (b->addr % (uint64_t)s->c.gran > (uint64_t)s->c.gran - 2 * BEAT)
            b->len = 1;
        break;
    }
    case 4: /* the last bytes of memory: bursts that run past the end */
        b->len = (int)tb_rand_range(tb, 1, 16);
        b->addr = mem - (uint64_t)tb_rand_range(tb, 1, 8) * BEAT;
        break;
    case 5: /* beyond the memory */
        if (mem >= ((uint64_t)1 << 32))
            b->addr = rand_addr(s, mem - 4096, 4096);
        else
            b->addr = mem + (tb_rand64(tb) % ((((uint64_t)1 << 32) - mem) / BEAT)) * BEAT;
        b->len = (int)tb_rand_range(tb, 1, 8);
        break;
    case 6: /* misaligned */
        b->addr = rand_addr(s, 0, mem - 256 * BEAT) + (uint64_t)tb_rand_range(tb, 1, 31);
        b->len = (int)tb_rand_range(tb, 1, 8);
        break;
    default: /* wrapping past 2^32 */
        b->addr = ((uint64_t)1 << 32) - (uint64_t)tb_rand_range(tb, 1, 4) * BEAT;
        b->len = (int)tb_rand_range(tb, 2, 8);
        break;
    }
    return true;
}

/* ------------------------------------------------------------------ tests */

/* Posted writes may still sit in the channel queues after their B: idles until every
 * channel has been idle (busy counter unchanged) for 64 cycles. */
static void settle(sim_t *s)
{
    tb_t *tb = s->tb;
    uint32_t last[MAXP] = { 0 };
    int quiet = 0;
    for (int n = 0; n < 100000 && quiet < 64; n++) {
        bool same = true;
        for (int c = 0; c < s->c.npch; c++) {
            uint32_t b = (uint32_t)fget(s->cnt, (c * 9 + 7) * 32, 32);
            same = same && b == last[c];
            last[c] = b;
        }
        quiet = same ? quiet + 1 : 0;
        cycle(s);
    }
    tb_check(tb, quiet >= 64, "the channels did not go idle");
}

static void counters_check(sim_t *s)
{
    tb_t *tb = s->tb;
    settle(s);
    if (s->c.backend != 0)
        return;
    for (int c = 0; c < s->c.npch; c++) {
        hbm2_stats_t st;
        hbm2_get_stats(s->dev[c], &st);
        /* The commands in the controller's output registers are counted but not yet
         * seen by the device. */
        int prc = (int)fget(s->h_rcmd, c * 3, 3), pcc = (int)fget(s->h_ccmd, c * 2, 2);
        st.act += prc == HBM2_ACT;
        st.refab += prc == HBM2_REFAB;
        st.refpb += prc == HBM2_REFPB;
        st.rd += pcc == HBM2_RD;
        st.wr += pcc == HBM2_WR;
        uint32_t k[9];
        for (int i = 0; i < 9; i++)
            k[i] = (uint32_t)fget(s->cnt, (c * 9 + i) * 32, 32);
        uint32_t acc = (uint32_t)(st.rd + st.wr);
        tb_check(tb, k[0] == (uint32_t)st.rd, "pch%d: read counter %u, device saw %" PRIu64 " RD", c, k[0], st.rd);
        tb_check(tb, k[1] == (uint32_t)st.wr, "pch%d: write counter %u, device saw %" PRIu64 " WR", c, k[1], st.wr);
        tb_check(tb, k[2] == 32 * acc, "pch%d: byte counter %u, expected %u", c, k[2], 32 * acc);
        tb_check(tb, k[3] + k[4] + k[5] == acc, "pch%d: hits %u + misses %u + conflicts %u != %u accesses", c,
                 k[3], k[4], k[5], acc);
        tb_check(tb, k[4] + k[5] <= (uint32_t)st.act, "pch%d: misses + conflicts %u > %" PRIu64 " ACTs", c,
                 k[4] + k[5], st.act);
        tb_check(tb, k[6] == (uint32_t)(st.refab + st.refpb), "pch%d: refresh counter %u, device saw %" PRIu64,
                 c, k[6], st.refab + st.refpb);
        tb_check(tb, k[7] + k[8] == (uint32_t)st.cycles, "pch%d: busy %u + idle %u != %" PRIu64 " cycles", c,
                 k[7], k[8], st.cycles);
        tb_check(tb, st.violations == 0, "pch%d: %" PRIu64 " timing violations", c, st.violations);
    }
}

/* Every beat the reference holds must sit in the device where the documented
 * address mapping puts it. */
typedef struct bd_ctx {
    sim_t *s;
    uint64_t beats, bad;
} bd_ctx_t;

static void backdoor_one(void *ctx, uint64_t addr, const uint8_t *data)
{
    bd_ctx_t *x = ctx;
    sim_t *s = x->s;
    hbm2_loc_t loc;
    if (!hbm2_map(addr, s->c.npch, (uint32_t)s->c.gran, s->c.row_bits, s->c.bank_hash, &loc))
        return;
    uint8_t dev[BEAT];
    hbm2_peek(s->dev[loc.pch], loc.bank, loc.row, loc.col, dev);
    x->beats++;
    if (memcmp(dev, data, BEAT) != 0 && x->bad++ == 0)
        tb_check(s->tb, false, "address 0x%09" PRIx64 " -> pch%d bank %d row %u col %d holds other data",
                 addr, loc.pch, loc.bank, loc.row, loc.col);
}

static uint64_t backdoor_check(sim_t *s)
{
    if (s->c.backend != 0)
        return 0;
    bd_ctx_t x = { .s = s };
    mem_ref_each(s->ref, backdoor_one, &x);
    return x.beats;
}

static void default_traffic(sim_t *s)
{
    s->max_w = 6;
    s->max_r = 6;
    s->rready_pct = 85;
    s->bready_pct = 85;
    s->gap_pct = 10;
}

static void test_random(sim_t *s, uint64_t bursts)
{
    tb_t *tb = s->tb;
    s->test = "random";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    rnd_ctx_t r = {
        .hot_size = 16384, .w_pct = 50,
        .mix = { 30, 25, 20, 12, 4, 3, 3, 1 },
        .conf_ch = (int)tb_rand_range(tb, 0, s->c.npch - 1),
        .conf_bank = (int)tb_rand_range(tb, 0, 15),
    };
    if (s->c.mem_bytes < ((uint64_t)1 << 32) && s->c.mem_bytes + 4096 > ((uint64_t)1 << 32))
        r.mix[5] = 0;
    r.hot_base = rand_addr(s, 0, s->c.mem_bytes - r.hot_size);
    uint32_t rows = s->c.backend ? 1 : 1u << s->c.row_bits;
    for (int i = 0; i < 4; i++)
        r.conf_rows[i] = (uint32_t)(tb_rand64(tb) % rows);
    if (s->c.backend != 0)
        r.mix[3] = 0;  /* no banks */
    s->gen = gen_random;
    s->gen_ctx = &r;
    /* Vary the back-pressure over the run. */
    uint64_t chunk = bursts / 4 + 1, done = 0;
    unsigned rr[4] = { 100, 85, 40, 95 }, gp[4] = { 0, 10, 30, 5 };
    for (int i = 0; i < 4 && done < bursts; i++) {
        s->rready_pct = rr[i];
        s->bready_pct = rr[(i + 1) % 4];
        s->gap_pct = gp[i];
        uint64_t n = bursts - done < chunk ? bursts - done : chunk;
        if (!run(s, n, UINT64_MAX))
            break;
        done += n;
    }
    counters_check(s);
    uint64_t bd = backdoor_check(s);
    uint64_t cyc = tb->cycle - s->start_cycle;
    tb_end(tb, "random", "%" PRIu64 " bursts (%" PRIu64 " R, %" PRIu64 " W), %" PRIu64 " beats, %" PRIu64
           " SLVERR beats, %" PRIu64 " cycles%s", s->bursts_r + s->bursts_w, s->bursts_r, s->bursts_w,
           s->beats_r + s->beats_w, s->slverr_beats, cyc,
           s->c.backend ? "" : bd ? ", every written beat found in the device, 0 timing violations" : "");
}

/* Sequential traffic over the whole memory with ready always high. */
typedef struct seq_ctx {
    uint64_t rptr, wptr, base, span;
    int len;
    unsigned w_pct;            /* 0: reads only, 100: writes only */
    bool rand_addr;            /* random aligned bursts instead of a stream */
    unsigned flip;
} seq_ctx_t;

static bool gen_seq(sim_t *s, int p, burst_t *b)
{
    (void)p;
    seq_ctx_t *q = s->gen_ctx;
    uint64_t bytes = (uint64_t)q->len * BEAT;
    b->len = q->len;
    b->id = (uint32_t)(s->issued & ((1u << s->c.idw) - 1));
    if (q->w_pct == 0)
        b->write = false;
    else if (q->w_pct >= 100)
        b->write = true;
    else
        b->write = (q->flip++ & 1) != 0;
    if (q->rand_addr) {
        b->addr = q->base + (tb_rand64(s->tb) % (q->span / bytes)) * bytes;
    } else {
        uint64_t *ptr = b->write ? &q->wptr : &q->rptr;
        b->addr = q->base + *ptr;
        *ptr = (*ptr + bytes) % q->span;
    }
    return true;
}

static void test_refresh_load(sim_t *s)
{
    tb_t *tb = s->tb;
    if (s->c.backend != 0)
        return;
    s->test = "refresh_load";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    s->rready_pct = s->bready_pct = 100;
    s->gap_pct = 0;
    s->max_r = s->max_w = 8;
    seq_ctx_t q = { .len = 16, .span = s->c.mem_bytes / 2, .w_pct = 0 };
    q.wptr = q.span / 2;
    s->gen = gen_seq;
    s->gen_ctx = &q;
    /* Fill a region with writes first so that the reads check real data. */
    q.w_pct = 100;
    q.span = 1 << 20;
    run(s, 1024, UINT64_MAX);
    q.w_pct = 0;
    q.rptr = 0;
    uint64_t t0 = tb->cycle;
    hbm2_stats_t st0[MAXP];
    for (int c = 0; c < s->c.npch; c++)
        hbm2_get_stats(s->dev[c], &st0[c]);
    uint64_t cycles = (uint64_t)s->c.t.trefi * 12;
    run(s, UINT64_MAX / 4, cycles);
    uint64_t cyc = tb->cycle - t0, refs = 0, acc = 0;
    for (int c = 0; c < s->c.npch; c++) {
        hbm2_stats_t st;
        hbm2_get_stats(s->dev[c], &st);
        uint64_t r = s->c.refresh_mode ? st.refpb - st0[c].refpb : st.refab - st0[c].refab;
        uint64_t due = cyc / (uint64_t)s->c.t.trefi * (s->c.refresh_mode ? 16 : 1);
        uint64_t slack = 9 * (s->c.refresh_mode ? 16 : 1);
        tb_check(tb, r + slack >= due, "pch%d: %" PRIu64 " refreshes in %" PRIu64 " loaded cycles, %" PRIu64 " due",
                 c, r, cyc, due);
        refs += r;
        acc += st.rd - st0[c].rd;
    }
    counters_check(s);
    tb_end(tb, "refresh_load", "%" PRIu64 " cycles of back-to-back reads, %" PRIu64 " refreshes, %.1f%% of peak",
           cyc, refs, 100.0 * (double)acc * s->c.t.tbl / ((double)cyc * s->c.npch));
}

/* One port streams row hits into one bank; another asks for a different row of the
 * same bank. FR-FCFS alone would serve the stream forever; the row-hit cap must let
 * the other read through. */
typedef struct starve_ctx {
    uint64_t row_a_addr[32];
    uint64_t victim;
    int k;
    bool victim_sent;
} starve_ctx_t;

static bool gen_starve(sim_t *s, int p, burst_t *b)
{
    starve_ctx_t *x = s->gen_ctx;
    b->write = false;
    b->len = 1;
    b->id = 0;
    if (p == 0) {
        b->addr = x->row_a_addr[x->k++ % 32];
        return true;
    }
    if (p == 1 && !x->victim_sent && s->tb->cycle > 2000) {
        x->victim_sent = true;
        b->addr = x->victim;
        b->tag = 1;
        return true;
    }
    return false;
}

static void test_starvation(sim_t *s)
{
    tb_t *tb = s->tb;
    if (s->c.backend != 0 || s->c.nports < 2)
        return;
    s->test = "starvation";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    s->rready_pct = s->bready_pct = 100;
    s->gap_pct = 0;
    s->max_r = 32;
    starve_ctx_t x = { 0 };
    int bank = 5;
    for (int col = 0; col < 32; col++)
        x.row_a_addr[col] = global_addr(s, 0, local_beat(s, bank, 7, col));
    x.victim = global_addr(s, 0, local_beat(s, bank, 9, 3));
    s->gen = gen_starve;
    s->gen_ctx = &x;
    uint64_t t0 = tb->cycle;
    run(s, UINT64_MAX / 4, 20000);
    tb_check(tb, x.victim_sent, "the conflicting read was never issued");
    tb_check(tb, s->lat_tag_max > 0 && s->lat_tag_max < 2000,
             "the conflicting read took %" PRIu64 " cycles while the stream ran %" PRIu64 " cycles",
             s->lat_tag_max, tb->cycle - t0);
    counters_check(s);
    tb_end(tb, "starvation", "conflicting read done in %" PRIu64 " cycles under a %" PRIu64
           "-cycle row-hit stream (RowHitCap %d)", s->lat_tag_max, tb->cycle - t0, s->c.row_hit_cap);
}

/* Two ports ping-pong reads and writes between rows of one bank. */
static void test_conflicts(sim_t *s)
{
    tb_t *tb = s->tb;
    if (s->c.backend != 0)
        return;
    s->test = "bank_conflicts";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    rnd_ctx_t r = { .w_pct = 50, .mix = { 0, 0, 0, 1, 0, 0, 0, 0 }, .conf_ch = s->c.npch - 1, .conf_bank = 10 };
    for (int i = 0; i < 4; i++)
        r.conf_rows[i] = (uint32_t)(i * 3 + 1);
    s->gen = gen_random;
    s->gen_ctx = &r;
    run(s, 3000, UINT64_MAX);
    counters_check(s);
    uint32_t conf = (uint32_t)fget(s->cnt, ((s->c.npch - 1) * 9 + 5) * 32, 32);
    tb_check(tb, conf > 100, "only %u row conflicts counted", conf);
    tb_end(tb, "bank_conflicts", "%" PRIu64 " bursts, %u row conflicts", s->completed, conf);
}

/* Reads and writes to the same few beats: every read must see the write before it
 * (read-after-write and write-after-read inside the channel queues). */
static void test_turnaround(sim_t *s)
{
    tb_t *tb = s->tb;
    s->test = "turnaround";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    s->gap_pct = 0;
    s->rready_pct = s->bready_pct = 100;
    rnd_ctx_t r = { .hot_size = 2048, .w_pct = 50, .mix = { 1, 0, 0, 0, 0, 0, 0, 0 } };
    r.hot_base = rand_addr(s, 0, s->c.mem_bytes - r.hot_size);
    s->gen = gen_random;
    s->gen_ctx = &r;
    run(s, 4000, UINT64_MAX);
    counters_check(s);
    tb_end(tb, "turnaround", "%" PRIu64 " bursts (%" PRIu64 " R, %" PRIu64 " W) on 2 KB", s->completed,
           s->bursts_r, s->bursts_w);
}

/* Out-of-range, misaligned and wrapping bursts get SLVERR on the right beats and
 * leave the memory alone; the system keeps serving afterwards. */
static void test_errors(sim_t *s)
{
    tb_t *tb = s->tb;
    s->test = "errors";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    rnd_ctx_t r = { .hot_size = 4096, .w_pct = 50, .mix = { 2, 2, 0, 0, 4, 4, 4, 2 } };
    if (s->c.mem_bytes < ((uint64_t)1 << 32) && s->c.mem_bytes + 4096 > ((uint64_t)1 << 32))
        r.mix[5] = 0;
    r.hot_base = s->c.mem_bytes - r.hot_size;
    s->gen = gen_random;
    s->gen_ctx = &r;
    run(s, 2000, UINT64_MAX);
    counters_check(s);
    tb_check(tb, s->slverr_beats > 0, "no SLVERR beat seen");
    tb_end(tb, "errors", "%" PRIu64 " bursts, %" PRIu64 " SLVERR beats", s->completed, s->slverr_beats);
}

/* Open-page policy: rows stay open after the traffic stops; with CloseIdle they close
 * CloseIdle cycles after their last access. */
static void test_page_policy(sim_t *s)
{
    tb_t *tb = s->tb;
    if (s->c.backend != 0)
        return;
    s->test = "page_policy";
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    rnd_ctx_t r = { .hot_size = 65536, .w_pct = 30, .mix = { 1, 0, 0, 0, 0, 0, 0, 0 } };
    r.hot_base = rand_addr(s, 0, s->c.mem_bytes - r.hot_size);
    s->gen = gen_random;
    s->gen_ctx = &r;
    run(s, 500, UINT64_MAX);
    settle(s);
    unsigned open_after = 0, open_later = 0;
    for (int c = 0; c < s->c.npch; c++)
        open_after |= hbm2_open_banks(s->dev[c]);
    int wait = s->c.close_idle ? s->c.close_idle + 40 : 2000;
    for (int i = 0; i < wait; i++)
        cycle(s);
    for (int c = 0; c < s->c.npch; c++)
        open_later |= hbm2_open_banks(s->dev[c]);
    /* A refresh may have closed everything in between (all-bank refresh does). */
    if (s->c.close_idle)
        tb_check(tb, open_later == 0, "banks 0x%04x still open %d cycles after the last access", open_later, wait);
    counters_check(s);
    tb_end(tb, "page_policy", "%s: banks 0x%04x open when the traffic stopped, 0x%04x %d cycles later",
           s->c.close_idle ? "close on idle" : "open page", open_after, open_later, wait);
}

/* ------------------------------------------------------------------ benchmarks */

static int bench(sim_t *s, const char *pattern, uint64_t cycles, uint64_t warmup)
{
    tb_t *tb = s->tb;
    s->test = pattern;
    tb_begin(tb);
    sim_reset(s);
    default_traffic(s);
    s->rready_pct = s->bready_pct = 100;
    s->gap_pct = 0;
    s->max_r = s->max_w = 16;
    seq_ctx_t q = { .span = s->c.mem_bytes / 2, .len = 32 };
    if (strcmp(pattern, "seq_read") == 0) {
        q.w_pct = 0;
    } else if (strcmp(pattern, "seq_write") == 0) {
        q.w_pct = 100;
    } else if (strcmp(pattern, "mixed") == 0) {
        q.w_pct = 50;
        q.wptr = q.span / 2;
    } else if (strcmp(pattern, "rand64") == 0) {
        q.len = 2;
        q.rand_addr = true;
        q.span = s->c.mem_bytes;
        s->max_r = 32;
    } else if (strcmp(pattern, "rand1k") == 0) {
        q.len = 32;
        q.rand_addr = true;
        q.span = s->c.mem_bytes;
    } else {
        fprintf(stderr, "tb_mem: unknown benchmark '%s'\n", pattern);
        return 2;
    }
    s->gen = gen_seq;
    s->gen_ctx = &q;
    s->to_issue = UINT64_MAX / 4;
    for (uint64_t i = 0; i < warmup; i++)
        cycle(s);
    hbm2_stats_t st0[MAXP];
    uint32_t bytes0[MAXP];
    for (int c = 0; c < s->c.npch; c++)
        if (s->dev[c])
            hbm2_get_stats(s->dev[c], &st0[c]);
    for (int c = 0; c < s->c.npch; c++)
        bytes0[c] = (uint32_t)fget(s->cnt, (c * 9 + 2) * 32, 32);
    uint64_t t0 = tb->cycle;
    for (uint64_t i = 0; i < cycles; i++)
        cycle(s);
    uint64_t cyc = tb->cycle - t0, acc = 0, refs = 0;
    for (int c = 0; c < s->c.npch; c++) {
        if (s->dev[c]) {
            hbm2_stats_t st;
            hbm2_get_stats(s->dev[c], &st);
            acc += st.rd + st.wr - st0[c].rd - st0[c].wr;
            refs += st.refab + st.refpb - st0[c].refab - st0[c].refpb;
        } else {
            acc += ((uint32_t)fget(s->cnt, (c * 9 + 2) * 32, 32) - bytes0[c]) / BEAT;
        }
    }
    /* Peak: every channel's data bus busy every cycle, one 32-byte burst per TBl cycles. */
    int tbl = s->c.backend ? 4 : s->c.t.tbl;
    double eff = (double)acc * tbl / ((double)cyc * s->c.npch);
    run(s, 0, 0);  /* drain: every outstanding beat is still checked */
    printf("mem.%s.efficiency %.4f\n", pattern, eff);
    tb_end(tb, pattern, "efficiency %.2f%% of peak (%" PRIu64 " bursts of 32 B in %" PRIu64
           " cycles on %d channels, %" PRIu64 " refreshes)", 100.0 * eff, acc, cyc, s->c.npch, refs);
    return 0;
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    tb_t *tb = tb_open("tb_mem", argc, argv);
    sim_t *s = xcalloc(1, sizeof *s);
    sim_init(s, tb, argc, argv);
    /* Benchmarks measure whole refresh intervals, after the all-bank refresh debt has
     * reached its steady state (refreshes postponed up to 8 intervals under load). */
    uint64_t bursts = 20000, cycles = 50 * (uint64_t)s->c.t.trefi, warmup = 9 * (uint64_t)s->c.t.trefi + 1000;
    const char *only = NULL, *bench_name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bursts") == 0 && i + 1 < argc)
            bursts = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--bench") == 0 && i + 1 < argc)
            bench_name = argv[++i];
        else if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc)
            cycles = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
            warmup = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--keep-going") == 0)
            s->keep_going = true;
    }
    if (getenv("MEM_TRACE")) {
        char *end;
        s->trace_from = strtoull(getenv("MEM_TRACE"), &end, 0);
        s->trace_len = *end == ',' ? strtoull(end + 1, NULL, 0) : 400;
    }
    const char *soak = getenv("MEM_SOAK");
    if (soak && atoi(soak) > 1)
        bursts *= (uint64_t)atoi(soak);
    int rc = 0;
    if (bench_name) {
        rc = bench(s, bench_name, cycles, warmup);
    } else {
        double t0 = tb_now();
#define RUN(n, call) if (!only || strcmp(only, n) == 0) call
        RUN("random", test_random(s, bursts));
        RUN("errors", test_errors(s));
        RUN("turnaround", test_turnaround(s));
        RUN("bank_conflicts", test_conflicts(s));
        RUN("starvation", test_starvation(s));
        RUN("refresh_load", test_refresh_load(s));
        RUN("page_policy", test_page_policy(s));
#undef RUN
        printf("# %s: %.1f s, %llu cycles, %llu timing violations\n", tb->name, tb_now() - t0,
               (unsigned long long)tb->cycle, (unsigned long long)s->viol_total);
        printf("mem.timing_violations %llu\n", (unsigned long long)s->viol_total);
    }
    int st = tb_close(tb);
    return rc ? rc : st;
}

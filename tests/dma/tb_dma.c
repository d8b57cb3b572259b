/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_dma.c - randomized and directed testbench for tpu_dma (rtl/dma/), and
 * its benchmark driver (--bench).
 *
 * The DUT's AXI master talks to axi_mem (random latency, back-pressure and
 * error injection); read rows, write results and every status are compared
 * bit for bit with dma_model.  The configuration is read from the port
 * widths, except MaxBurst, which is a command-line argument.
 *
 *   tb_dma_<cfg> --max-burst N [--seed S] [--iters N] [--bench]
 *   DMA_ITERS=N scales the random tests for soak runs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axi_mem.h"
#include "dma_model.h"
#include "tb.h"

#define MAX_JOBS 64
#define MAX_ROWS 4096        /* rows checked per read job */
#define MAX_SROWS 16384      /* stream rows per write job */

typedef struct desc_pins {
    tb_sig_t *valid, *ready, *addr, *len0, *out0, *pad;
    tb_sig_t *count[2], *start[2], *step[2], *bound[2], *stride[2];
} desc_pins_t;

typedef struct rd_job {
    dma_desc_t d;
    uint8_t *rows;          /* expected stream beats */
    size_t nrows;           /* beats expected (may exceed MAX_ROWS: then unchecked data) */
    dma_status_t st;
} rd_job_t;

typedef struct wr_job {
    dma_desc_t d;
    uint8_t *sdata;         /* stream rows */
    bool *slast;
    size_t nsrows;
    dma_status_t st;        /* expected unless bus errors are expected */
    bool bus_err_possible;
} wr_job_t;

typedef struct dut {
    tb_t *tb;
    int aw, dbytes, rowbytes, nwin, maxburst;
    tb_sig_t *win_base, *win_limit, *win_rd, *win_wr;
    desc_pins_t rdp, wrp;
    tb_sig_t *rd_sts_valid, *rd_sts_ready, *rd_sts_code, *rd_sts_addr;
    tb_sig_t *wr_sts_valid, *wr_sts_ready, *wr_sts_code, *wr_sts_addr;
    tb_sig_t *m_row_valid, *m_row_ready, *m_row_data, *m_row_last, *m_row_err;
    tb_sig_t *s_row_valid, *s_row_ready, *s_row_data, *s_row_last;
    tb_sig_t *arvalid, *arready, *arid, *araddr, *arlen;
    tb_sig_t *rvalid, *rready, *rid, *rdata, *rresp, *rlast;
    tb_sig_t *awvalid, *awready, *awid, *awaddr, *awlen;
    tb_sig_t *wvalid, *wready, *wdata, *wstrb, *wlast;
    tb_sig_t *bvalid, *bready, *bid, *bresp;

    uint8_t *mem, *model_mem, *poison;
    size_t mem_size;
    axi_mem_t axi;
    dma_env_t env;

    /* stimulus knobs (percent per cycle) */
    unsigned desc_pct, row_ready_pct, srow_valid_pct, sts_ready_pct;

    /* jobs */
    rd_job_t rd[MAX_JOBS];
    int rd_n, rd_sent, rd_beat_job, rd_sts_job;
    size_t rd_beat;
    bool rd_desc_pres;
    wr_job_t wr[MAX_JOBS];
    int wr_n, wr_sent, wr_srow_job, wr_sts_job;
    size_t wr_srow;
    bool wr_desc_pres, srow_pres;
    dma_status_t wr_got[MAX_JOBS];

    uint64_t cycles;
} dut_t;

static int g_iters = 1;
static char g_cfg[64] = "dma";

/* Test names carry the configuration: "dma_d256r64.rand_read". */
static const char *tname(const dut_t *t, const char *test)
{
    static char buf[128];
    (void)t;
    snprintf(buf, sizeof buf, "%s.%s", g_cfg, test);
    return buf;
}

/* ------------------------------------------------------------------ pins */

static void copy_in(tb_sig_t *s, const void *src, size_t bytes)
{
    memcpy(s->ptr, src, bytes);
}

static void copy_out(tb_sig_t *s, void *dst, size_t bytes)
{
    memcpy(dst, s->ptr, bytes);
}

static void read_words(tb_sig_t *s, uint32_t *w)
{
    int n = (s->bits + 31) / 32;
    if (s->store == 0) {
        memcpy(w, s->ptr, (size_t)n * 4);
        return;
    }
    uint64_t v = tb_get(s);
    w[0] = (uint32_t)v;
    if (n > 1)
        w[1] = (uint32_t)(v >> 32);
}

static void desc_pins(dut_t *t, desc_pins_t *p, const char *pre)
{
    char n[64];
#define SIG(f, name) (snprintf(n, sizeof n, "%s_desc_" name, pre), p->f = tb_sig(t->tb, n))
    SIG(valid, "valid_i");
    SIG(ready, "ready_o");
    SIG(addr, "addr_i");
    SIG(len0, "len0_i");
    SIG(out0, "out0_i");
    SIG(pad, "pad_i");
    SIG(count[0], "count1_i");
    SIG(start[0], "start1_i");
    SIG(step[0], "step1_i");
    SIG(bound[0], "bound1_i");
    SIG(stride[0], "stride1_i");
    SIG(count[1], "count2_i");
    SIG(start[1], "start2_i");
    SIG(step[1], "step2_i");
    SIG(bound[1], "bound2_i");
    SIG(stride[1], "stride2_i");
#undef SIG
}

static void set_desc(desc_pins_t *p, const dma_desc_t *d)
{
    tb_set(p->addr, d->addr);
    tb_set(p->len0, d->len0);
    tb_set(p->out0, d->out0);
    tb_set(p->pad, d->pad);
    for (int i = 0; i < 2; i++) {
        tb_set(p->count[i], d->count[i]);
        tb_set(p->start[i], (uint16_t)d->start[i]);
        tb_set(p->step[i], (uint16_t)d->step[i]);
        tb_set(p->bound[i], d->bound[i]);
        tb_set(p->stride[i], d->stride[i]);
    }
}

static void set_windows(dut_t *t)
{
    for (int w = 0; w < t->nwin; w++) {
        tb_set_bits(t->win_base, w * t->aw, t->aw, t->env.win[w].base);
        tb_set_bits(t->win_limit, w * t->aw, t->aw, t->env.win[w].limit);
        tb_set_bits(t->win_rd, w, 1, t->env.win[w].rd);
        tb_set_bits(t->win_wr, w, 1, t->env.win[w].wr);
    }
}

static dut_t *dut_open(int argc, char **argv, const char *name, size_t mem_size)
{
    dut_t *t = calloc(1, sizeof *t);
    /* The program is tb_dma_<config>; the tests are named after the config. */
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (strncmp(base, "tb_", 3) == 0)
        base += 3;
    snprintf(g_cfg, sizeof g_cfg, "%s", base);
    (void)name;
    t->tb = tb_open(g_cfg, argc, argv);
    tb_t *tb = t->tb;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--max-burst") == 0 && i + 1 < argc)
            t->maxburst = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
            g_iters = atoi(argv[i + 1]);
    }
    if (getenv("DMA_ITERS"))
        g_iters = atoi(getenv("DMA_ITERS"));
    if (g_iters < 1)
        g_iters = 1;
    if (t->maxburst < 1 || t->maxburst > 256) {
        fprintf(stderr, "tb_dma: --max-burst N (the model's MaxBurst) is required\n");
        exit(2);
    }
    t->win_base = tb_sig(tb, "win_base_i");
    t->win_limit = tb_sig(tb, "win_limit_i");
    t->win_rd = tb_sig(tb, "win_rd_i");
    t->win_wr = tb_sig(tb, "win_wr_i");
    desc_pins(t, &t->rdp, "rd");
    desc_pins(t, &t->wrp, "wr");
    t->rd_sts_valid = tb_sig(tb, "rd_sts_valid_o");
    t->rd_sts_ready = tb_sig(tb, "rd_sts_ready_i");
    t->rd_sts_code = tb_sig(tb, "rd_sts_code_o");
    t->rd_sts_addr = tb_sig(tb, "rd_sts_addr_o");
    t->wr_sts_valid = tb_sig(tb, "wr_sts_valid_o");
    t->wr_sts_ready = tb_sig(tb, "wr_sts_ready_i");
    t->wr_sts_code = tb_sig(tb, "wr_sts_code_o");
    t->wr_sts_addr = tb_sig(tb, "wr_sts_addr_o");
    t->m_row_valid = tb_sig(tb, "m_row_valid_o");
    t->m_row_ready = tb_sig(tb, "m_row_ready_i");
    t->m_row_data = tb_sig(tb, "m_row_data_o");
    t->m_row_last = tb_sig(tb, "m_row_last_o");
    t->m_row_err = tb_sig(tb, "m_row_err_o");
    t->s_row_valid = tb_sig(tb, "s_row_valid_i");
    t->s_row_ready = tb_sig(tb, "s_row_ready_o");
    t->s_row_data = tb_sig(tb, "s_row_data_i");
    t->s_row_last = tb_sig(tb, "s_row_last_i");
    t->arvalid = tb_sig(tb, "m_axi_arvalid_o");
    t->arready = tb_sig(tb, "m_axi_arready_i");
    t->arid = tb_sig(tb, "m_axi_arid_o");
    t->araddr = tb_sig(tb, "m_axi_araddr_o");
    t->arlen = tb_sig(tb, "m_axi_arlen_o");
    t->rvalid = tb_sig(tb, "m_axi_rvalid_i");
    t->rready = tb_sig(tb, "m_axi_rready_o");
    t->rid = tb_sig(tb, "m_axi_rid_i");
    t->rdata = tb_sig(tb, "m_axi_rdata_i");
    t->rresp = tb_sig(tb, "m_axi_rresp_i");
    t->rlast = tb_sig(tb, "m_axi_rlast_i");
    t->awvalid = tb_sig(tb, "m_axi_awvalid_o");
    t->awready = tb_sig(tb, "m_axi_awready_i");
    t->awid = tb_sig(tb, "m_axi_awid_o");
    t->awaddr = tb_sig(tb, "m_axi_awaddr_o");
    t->awlen = tb_sig(tb, "m_axi_awlen_o");
    t->wvalid = tb_sig(tb, "m_axi_wvalid_o");
    t->wready = tb_sig(tb, "m_axi_wready_i");
    t->wdata = tb_sig(tb, "m_axi_wdata_o");
    t->wstrb = tb_sig(tb, "m_axi_wstrb_o");
    t->wlast = tb_sig(tb, "m_axi_wlast_o");
    t->bvalid = tb_sig(tb, "m_axi_bvalid_i");
    t->bready = tb_sig(tb, "m_axi_bready_o");
    t->bid = tb_sig(tb, "m_axi_bid_i");
    t->bresp = tb_sig(tb, "m_axi_bresp_i");

    t->aw = t->araddr->bits;
    t->dbytes = t->rdata->bits / 8;
    t->rowbytes = t->m_row_data->bits / 8;
    t->nwin = t->win_rd->bits;
    if (t->dbytes > AXI_MAX_BEAT_BYTES || t->nwin > DMA_MAX_WIN) {
        fprintf(stderr, "tb_dma: configuration too large for the testbench\n");
        exit(2);
    }
    /* Memory: never more than the address space. */
    if (t->aw < 40 && mem_size > (1ull << t->aw))
        mem_size = (size_t)1 << t->aw;
    t->mem_size = mem_size;
    t->mem = malloc(mem_size);
    t->model_mem = malloc(mem_size);
    t->poison = calloc(mem_size / (size_t)t->dbytes, 1);
    for (size_t i = 0; i < mem_size; i++)
        t->mem[i] = (uint8_t)tb_rand32(tb);
    memcpy(t->model_mem, t->mem, mem_size);

    t->env.addr_width = t->aw;
    t->env.beat_bytes = t->dbytes;
    t->env.row_bytes = t->rowbytes;
    t->env.num_windows = t->nwin;
    t->env.mem_size = mem_size;
    t->env.poison = t->poison;
    axi_mem_init(&t->axi, tb, t->dbytes, t->aw, t->maxburst, t->mem, mem_size, t->poison);

    printf("# tb_dma: AddrWidth=%d DataWidth=%d RowBytes=%d NumWindows=%d MaxBurst=%d "
           "memory=%zu iters=%d\n",
           t->aw, t->dbytes * 8, t->rowbytes, t->nwin, t->maxburst, mem_size, g_iters);
    t->desc_pct = t->row_ready_pct = t->srow_valid_pct = t->sts_ready_pct = 100;
    set_windows(t);
    tb_set(t->rd_sts_ready, 1);
    tb_set(t->wr_sts_ready, 1);
    tb_reset(t->tb, 5);
    return t;
}

/* ------------------------------------------------------------------ jobs */

static void jobs_clear(dut_t *t)
{
    for (int i = 0; i < t->rd_n; i++)
        free(t->rd[i].rows);
    for (int i = 0; i < t->wr_n; i++) {
        free(t->wr[i].sdata);
        free(t->wr[i].slast);
    }
    t->rd_n = t->rd_sent = t->rd_beat_job = t->rd_sts_job = 0;
    t->rd_beat = 0;
    t->wr_n = t->wr_sent = t->wr_srow_job = t->wr_sts_job = 0;
    t->wr_srow = 0;
}

static rd_job_t *add_read(dut_t *t, const dma_desc_t *d)
{
    rd_job_t *j = &t->rd[t->rd_n++];
    j->d = *d;
    j->rows = malloc((size_t)MAX_ROWS * t->rowbytes);
    j->st = dma_read_model(&t->env, t->mem, d, j->rows, MAX_ROWS, &j->nrows);
    return j;
}

/* Stream rows for a write: count1*count2 rows ending with last, or (mode 1)
 * an early last, (mode 2) extra rows after the final one. */
static wr_job_t *add_write(dut_t *t, const dma_desc_t *d, int mode)
{
    wr_job_t *j = &t->wr[t->wr_n++];
    j->d = *d;
    size_t total = (size_t)d->count[0] * d->count[1];
    if (dma_desc_bad(&t->env, d) || total == 0)
        total = (size_t)tb_rand_range(t->tb, 1, 3);
    if (mode == 1 && total > 1)
        total = (size_t)tb_rand_range(t->tb, 1, (int64_t)total - 1);
    else if (mode == 2)
        total += (size_t)tb_rand_range(t->tb, 1, 3);
    if (total > MAX_SROWS)
        total = MAX_SROWS;
    j->nsrows = total;
    j->sdata = malloc(total * t->rowbytes);
    j->slast = calloc(total, sizeof(bool));
    for (size_t i = 0; i < total * t->rowbytes; i++)
        j->sdata[i] = (uint8_t)tb_rand32(t->tb);
    j->slast[total - 1] = true;
    dma_srow_t *s = malloc(total * sizeof *s);
    for (size_t i = 0; i < total; i++)
        s[i] = (dma_srow_t){j->sdata + i * t->rowbytes, j->slast[i]};
    size_t consumed, written;
    long bad;
    j->st = dma_write_model(&t->env, t->model_mem, d, s, total, SIZE_MAX, &consumed, &bad,
                            &written);
    j->bus_err_possible = bad >= 0;
    if (consumed != total) {
        fprintf(stderr, "tb_dma: internal: write model consumed %zu of %zu rows\n", consumed,
                total);
        exit(2);
    }
    free(s);
    return j;
}

/* ----------------------------------------------------------------- cycle */

static void cycle(dut_t *t)
{
    tb_t *tb = t->tb;
    axi_mem_t *ax = &t->axi;

    /* Drive: descriptors, streams, status readies, the slave. */
    if (!t->rd_desc_pres && t->rd_sent < t->rd_n && tb_chance(tb, t->desc_pct, 100)) {
        t->rd_desc_pres = true;
        set_desc(&t->rdp, &t->rd[t->rd_sent].d);
    }
    tb_set(t->rdp.valid, t->rd_desc_pres);
    if (!t->wr_desc_pres && t->wr_sent < t->wr_n && tb_chance(tb, t->desc_pct, 100)) {
        t->wr_desc_pres = true;
        set_desc(&t->wrp, &t->wr[t->wr_sent].d);
    }
    tb_set(t->wrp.valid, t->wr_desc_pres);
    if (!t->srow_pres && t->wr_srow_job < t->wr_n && tb_chance(tb, t->srow_valid_pct, 100)) {
        wr_job_t *j = &t->wr[t->wr_srow_job];
        t->srow_pres = true;
        copy_in(t->s_row_data, j->sdata + t->wr_srow * t->rowbytes, (size_t)t->rowbytes);
        tb_set(t->s_row_last, j->slast[t->wr_srow]);
    }
    tb_set(t->s_row_valid, t->srow_pres);
    tb_set(t->m_row_ready, tb_chance(tb, t->row_ready_pct, 100));
    tb_set(t->rd_sts_ready, tb_chance(tb, t->sts_ready_pct, 100));
    tb_set(t->wr_sts_ready, tb_chance(tb, t->sts_ready_pct, 100));

    axi_mem_drive(ax);
    const axi_slave_pins_t *o = &ax->out;
    tb_set(t->arready, o->arready);
    tb_set(t->rvalid, o->rvalid);
    copy_in(t->rdata, o->rdata, (size_t)t->dbytes);
    tb_set(t->rresp, (uint64_t)o->rresp);
    tb_set(t->rlast, o->rlast);
    tb_set(t->rid, ax->id);
    tb_set(t->awready, o->awready);
    tb_set(t->wready, o->wready);
    tb_set(t->bvalid, o->bvalid);
    tb_set(t->bresp, (uint64_t)o->bresp);
    tb_set(t->bid, ax->id);

    tb_fall(tb);

    /* Sample the DUT. */
    bool rd_desc_hs = t->rd_desc_pres && tb_get(t->rdp.ready);
    bool wr_desc_hs = t->wr_desc_pres && tb_get(t->wrp.ready);
    bool srow_hs = t->srow_pres && tb_get(t->s_row_ready);
    bool mrow_hs = tb_get(t->m_row_valid) && tb_get(t->m_row_ready);
    bool rsts_hs = tb_get(t->rd_sts_valid) && tb_get(t->rd_sts_ready);
    bool wsts_hs = tb_get(t->wr_sts_valid) && tb_get(t->wr_sts_ready);
    uint8_t row[4096];
    if (mrow_hs)
        copy_out(t->m_row_data, row, (size_t)t->rowbytes);
    bool row_last = tb_get(t->m_row_last), row_err = tb_get(t->m_row_err);
    dma_status_t rsts = {(int)tb_get(t->rd_sts_code), tb_get(t->rd_sts_addr)};
    dma_status_t wsts = {(int)tb_get(t->wr_sts_code), tb_get(t->wr_sts_addr)};

    axi_master_pins_t m;
    uint32_t wdata[AXI_MAX_BEAT_BYTES / 4], wstrb[AXI_MAX_BEAT_BYTES / 32 + 1];
    m.arvalid = tb_get(t->arvalid);
    m.araddr = tb_get(t->araddr);
    m.arlen = (int)tb_get(t->arlen);
    m.arid = (unsigned)tb_get(t->arid);
    m.rready = tb_get(t->rready);
    m.awvalid = tb_get(t->awvalid);
    m.awaddr = tb_get(t->awaddr);
    m.awlen = (int)tb_get(t->awlen);
    m.awid = (unsigned)tb_get(t->awid);
    m.wvalid = tb_get(t->wvalid);
    if (m.wvalid) {
        read_words(t->wdata, wdata);
        read_words(t->wstrb, wstrb);
    }
    m.wdata = wdata;
    m.wstrb = wstrb;
    m.wlast = tb_get(t->wlast);
    m.bready = tb_get(t->bready);

    tb_rise(tb);
    t->cycles++;

    /* Account. */
    axi_mem_update(ax, &m);
    if (rd_desc_hs) {
        t->rd_desc_pres = false;
        t->rd_sent++;
    }
    if (wr_desc_hs) {
        t->wr_desc_pres = false;
        t->wr_sent++;
    }
    if (srow_hs) {
        t->srow_pres = false;
        if (++t->wr_srow == t->wr[t->wr_srow_job].nsrows) {
            t->wr_srow = 0;
            t->wr_srow_job++;
        }
    }
    if (mrow_hs) {
        if (t->rd_beat_job >= t->rd_n) {
            tb_check(tb, false, "read row with no descriptor outstanding");
        } else {
            rd_job_t *j = &t->rd[t->rd_beat_job];
            size_t b = t->rd_beat;
            bool exp_last = b + 1 == j->nrows;
            bool exp_err = exp_last && j->st.code != DMA_OK;
            tb_check(tb, row_last == exp_last && row_err == exp_err,
                     "read job %d row %zu: last=%d err=%d, expected last=%d err=%d", t->rd_beat_job,
                     b, row_last, row_err, exp_last, exp_err);
            if (b < MAX_ROWS) {
                const uint8_t *e = j->rows + b * t->rowbytes;
                for (int i = 0; i < t->rowbytes; i++) {
                    if (row[i] != e[i]) {
                        tb_check(tb, false, "read job %d row %zu byte %d: 0x%02x, expected 0x%02x",
                                 t->rd_beat_job, b, i, row[i], e[i]);
                        break;
                    }
                }
            }
            if (row_last) {
                t->rd_beat_job++;
                t->rd_beat = 0;
            } else {
                t->rd_beat++;
            }
        }
    }
    if (rsts_hs) {
        if (t->rd_sts_job >= t->rd_n) {
            tb_check(tb, false, "read status with no descriptor outstanding");
        } else {
            rd_job_t *j = &t->rd[t->rd_sts_job];
            tb_check(tb, rsts.code == j->st.code && rsts.addr == j->st.addr,
                     "read job %d status %s @0x%llx, expected %s @0x%llx", t->rd_sts_job,
                     dma_sts_name(rsts.code), (unsigned long long)rsts.addr,
                     dma_sts_name(j->st.code), (unsigned long long)j->st.addr);
            tb_check(tb, t->rd_beat_job > t->rd_sts_job,
                     "read job %d status before its last row", t->rd_sts_job);
            t->rd_sts_job++;
        }
    }
    if (wsts_hs) {
        if (t->wr_sts_job >= t->wr_n) {
            tb_check(tb, false, "write status with no descriptor outstanding");
        } else {
            t->wr_got[t->wr_sts_job++] = wsts;
        }
    }
    if (ax->errors) {
        tb_check(tb, false, "AXI: %s", ax->err);
        ax->errors = 0;
    }
}

static bool jobs_done(const dut_t *t)
{
    return t->rd_sts_job == t->rd_n && t->wr_sts_job == t->wr_n && t->wr_srow_job == t->wr_n &&
           t->rd_beat_job == t->rd_n;
}

static bool dut_quiet(dut_t *t)
{
    return !tb_get(t->arvalid) && !tb_get(t->awvalid) && !tb_get(t->wvalid) &&
           !tb_get(t->m_row_valid) && !tb_get(t->rd_sts_valid) && !tb_get(t->wr_sts_valid) &&
           axi_mem_idle(&t->axi);
}

static void print_desc(const char *what, int i, const dma_desc_t *d, dma_status_t st, size_t n)
{
    printf("# %s job %d: addr=0x%llx len0=%u out0=%u pad=0x%02x dim1=(count %u start %d step %d "
           "bound %u stride 0x%llx) dim2=(count %u start %d step %d bound %u stride 0x%llx) "
           "-> %s @0x%llx, %zu rows\n",
           what, i, (unsigned long long)d->addr, d->len0, d->out0, d->pad, d->count[0],
           d->start[0], d->step[0], d->bound[0], (unsigned long long)d->stride[0], d->count[1],
           d->start[1], d->step[1], d->bound[1], (unsigned long long)d->stride[1],
           dma_sts_name(st.code), (unsigned long long)st.addr, n);
}

/* Runs the queued jobs to completion; false (and a failed check) on a hang. */
static bool run_jobs(dut_t *t, uint64_t budget)
{
    uint64_t start = t->cycles;
    while (!jobs_done(t)) {
        if (t->cycles - start > budget) {
            tb_check(t->tb, false,
                     "no progress: %llu cycles; read %d/%d sent, %d rows-done, %d status; "
                     "write %d/%d sent, %d streamed, %d status",
                     (unsigned long long)budget, t->rd_sent, t->rd_n, t->rd_beat_job,
                     t->rd_sts_job, t->wr_sent, t->wr_n, t->wr_srow_job, t->wr_sts_job);
            printf("# hang: arvalid=%d rready=%d awvalid=%d wvalid=%d bready=%d row_valid=%d "
                   "s_row_ready=%d; slave ar=%d aw=%d b=%d rvalid=%d bvalid=%d\n",
                   (int)tb_get(t->arvalid), (int)tb_get(t->rready), (int)tb_get(t->awvalid),
                   (int)tb_get(t->wvalid), (int)tb_get(t->bready), (int)tb_get(t->m_row_valid),
                   (int)tb_get(t->s_row_ready), t->axi.ar_n, t->axi.aw_n, t->axi.b_n,
                   t->axi.out.rvalid, t->axi.out.bvalid);
            if (t->axi.ar_n)
                printf("# hang: slave read burst 0x%llx len %d beat %d ready at %llu, now %llu\n",
                       (unsigned long long)t->axi.ar[t->axi.ar_head].addr,
                       t->axi.ar[t->axi.ar_head].len, t->axi.r_beat,
                       (unsigned long long)t->axi.ar[t->axi.ar_head].ready_at,
                       (unsigned long long)t->axi.cycle);
            for (int i = 0; i < t->rd_n; i++)
                print_desc("read", i, &t->rd[i].d, t->rd[i].st, t->rd[i].nrows);
            for (int i = 0; i < t->wr_n; i++)
                print_desc("write", i, &t->wr[i].d, t->wr[i].st, t->wr[i].nsrows);
            return false;
        }
        cycle(t);
    }
    /* Everything answered: the engine must fall quiet. */
    for (int i = 0; i < 40; i++)
        cycle(t);
    tb_check(t->tb, dut_quiet(t),
             "still busy after every status: arvalid=%d awvalid=%d wvalid=%d row=%d rsts=%d "
             "wsts=%d slave ar=%d aw=%d b=%d rvalid=%d bvalid=%d",
             (int)tb_get(t->arvalid), (int)tb_get(t->awvalid), (int)tb_get(t->wvalid),
             (int)tb_get(t->m_row_valid), (int)tb_get(t->rd_sts_valid),
             (int)tb_get(t->wr_sts_valid), t->axi.ar_n, t->axi.aw_n, t->axi.b_n,
             t->axi.out.rvalid, t->axi.out.bvalid);
    return true;
}

/* Generous: a hang is a hang however long the budget; slow configurations
 * (one small burst in flight, long random latency) must not look like one. */
static uint64_t budget_for(const dut_t *t)
{
    uint64_t rows = 0;
    for (int i = 0; i < t->rd_n; i++)
        rows += (uint64_t)t->rd[i].nrows;
    for (int i = 0; i < t->wr_n; i++)
        rows += t->wr[i].nsrows + (uint64_t)t->wr[i].d.count[0] * t->wr[i].d.count[1];
    uint64_t beats = (uint64_t)(t->rowbytes / t->dbytes + 2);
    uint64_t lat = (uint64_t)t->axi.t.lat_max + 20;
    return 50000 + rows * beats * lat * 2 + (uint64_t)(t->rd_n + t->wr_n) * 1000;
}

/* After a failed test: reset the DUT and the slave so the next test starts clean. */
static void dut_recover(dut_t *t)
{
    jobs_clear(t);
    t->rd_desc_pres = t->wr_desc_pres = t->srow_pres = false;
    tb_set(t->rdp.valid, 0);
    tb_set(t->wrp.valid, 0);
    tb_set(t->s_row_valid, 0);
    axi_mem_init(&t->axi, t->tb, t->dbytes, t->aw, t->maxburst, t->mem, t->mem_size, t->poison);
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    memcpy(t->model_mem, t->mem, t->mem_size);
    tb_reset(t->tb, 5);
}

/* Checks write statuses and memory after run_jobs (no bus errors expected). */
static void check_writes(dut_t *t)
{
    for (int i = 0; i < t->wr_n && i < t->wr_sts_job; i++) {
        wr_job_t *j = &t->wr[i];
        dma_status_t g = t->wr_got[i];
        tb_check(t->tb, g.code == j->st.code && g.addr == j->st.addr,
                 "write job %d status %s @0x%llx, expected %s @0x%llx", i, dma_sts_name(g.code),
                 (unsigned long long)g.addr, dma_sts_name(j->st.code),
                 (unsigned long long)j->st.addr);
    }
    for (size_t a = 0; a < t->mem_size; a++) {
        if (t->mem[a] != t->model_mem[a]) {
            tb_check(t->tb, false, "memory 0x%zx = 0x%02x, model 0x%02x", a, t->mem[a],
                     t->model_mem[a]);
            break;
        }
    }
}

/* ------------------------------------------------------------- generators */

static int64_t rr(dut_t *t, int64_t lo, int64_t hi) { return tb_rand_range(t->tb, lo, hi); }
static bool pct(dut_t *t, unsigned p) { return tb_chance(t->tb, p, 100); }

static void random_timing(dut_t *t, bool ideal)
{
    axi_timing_t *x = &t->axi.t;
    if (ideal) {
        *x = (axi_timing_t){100, 100, 100, 100, 100, 1, 4};
        t->desc_pct = t->row_ready_pct = t->srow_valid_pct = t->sts_ready_pct = 100;
        return;
    }
    static const unsigned lv[] = {100, 100, 90, 70, 50, 20};
    x->ar_ready = lv[rr(t, 0, 5)];
    x->r_valid = lv[rr(t, 0, 5)];
    x->aw_ready = lv[rr(t, 0, 5)];
    x->w_ready = lv[rr(t, 0, 5)];
    x->b_valid = lv[rr(t, 0, 5)];
    x->lat_min = (int)rr(t, 0, 10);
    x->lat_max = x->lat_min + (int)rr(t, 0, pct(t, 20) ? 120 : 30);
    t->desc_pct = lv[rr(t, 0, 5)];
    t->row_ready_pct = lv[rr(t, 0, 5)];
    t->srow_valid_pct = lv[rr(t, 0, 5)];
    t->sts_ready_pct = lv[rr(t, 0, 5)];
}

/* Windows over [lo, hi): window 0 mostly covers it; the others are random
 * pieces, sometimes disabled, sometimes hanging over the end of memory. */
static void random_windows(dut_t *t, uint64_t lo, uint64_t hi, bool rd, bool wr)
{
    uint64_t span = hi - lo;
    for (int w = 0; w < t->nwin; w++) {
        dma_win_t *x = &t->env.win[w];
        uint64_t a = lo + (uint64_t)rr(t, 0, (int64_t)span - 1);
        uint64_t b = a + (uint64_t)rr(t, 1, (int64_t)(hi - a));
        if (w == 0) {
            a = lo + (uint64_t)(pct(t, 50) ? 0 : rr(t, 0, (int64_t)span / 16));
            b = hi - (uint64_t)(pct(t, 50) ? 0 : rr(t, 0, (int64_t)span / 16));
        }
        if (pct(t, 50)) { /* beat-aligned, as real windows are */
            a = a / t->dbytes * t->dbytes;
            b = (b + t->dbytes - 1) / t->dbytes * t->dbytes;
            if (b > hi)
                b = hi;
        }
        x->base = a;
        x->limit = b;
        x->rd = rd && (w == 0 || pct(t, 70));
        x->wr = wr && (w == 0 || pct(t, 70));
        if (w > 0 && pct(t, 10))
            x->rd = x->wr = false;
        if (w > 0 && rd && !wr && pct(t, 8)) { /* reaches past the memory: DECERR */
            x->base = t->mem_size - (uint64_t)rr(t, 1, 4096);
            x->limit = t->mem_size + (uint64_t)rr(t, 1, 4096);
        }
    }
    set_windows(t);
}

/* A random descriptor whose rows mostly land in [lo, hi). */
static dma_desc_t random_desc(dut_t *t, uint64_t lo, uint64_t hi, bool allow_bad, int max_rows)
{
    dma_desc_t d;
    memset(&d, 0, sizeof d);
    int rb = t->rowbytes;
    int k = (int)rr(t, 0, 9);
    d.len0 = (uint16_t)(k < 4 ? rb : k < 7 ? rr(t, 1, rb) : rr(t, 1, rb < 16 ? rb : 16));
    d.out0 = (uint16_t)(pct(t, 50) ? d.len0 : rr(t, d.len0, rb));
    d.pad = (uint8_t)tb_rand32(t->tb);
    int c1max = pct(t, 20) ? 48 : 10;
    d.count[0] = (uint16_t)rr(t, 1, c1max);
    d.count[1] = (uint16_t)rr(t, 1, pct(t, 30) ? 6 : 2);
    while (d.count[0] * d.count[1] > max_rows)
        d.count[0] = (uint16_t)(d.count[0] / 2 + 1), d.count[1] = (uint16_t)(d.count[1] / 2 + 1);
    for (int i = 0; i < 2; i++) {
        int s = (int)rr(t, 0, 9);
        d.step[i] = (int16_t)(s < 7 ? 1 : s < 9 ? rr(t, 2, 3) : -rr(t, 1, 2));
        d.start[i] = (int16_t)(pct(t, 60) ? 0 : rr(t, -3, 3));
        if (d.step[i] < 0)
            d.start[i] = (int16_t)(d.start[i] + (d.count[i] - 1) * -d.step[i]);
        int64_t far = (int64_t)d.start[i] + (int64_t)(d.count[i] - 1) * d.step[i];
        int64_t hi_c = far > d.start[i] ? far : d.start[i];
        d.bound[i] = (uint16_t)(pct(t, 60) ? (hi_c < 0 ? 0 : hi_c + 1 + rr(t, 0, 2))
                                           : rr(t, 0, hi_c < 0 ? 2 : hi_c + 2));
    }
    int s1 = (int)rr(t, 0, 9);
    int64_t stride1 = s1 < 5 ? d.len0
                      : s1 < 7 ? d.len0 + rr(t, 1, 3 * t->dbytes)
                      : s1 < 9 ? rr(t, -2 * rb, 2 * rb)
                               : rr(t, 1, 4) * t->dbytes;
    int64_t stride2 = pct(t, 50) ? stride1 * d.count[0] * (d.step[0] < 0 ? -d.step[0] : d.step[0])
                                 : rr(t, -4096, 4096);
    if (pct(t, 5))
        stride2 = rr(t, -65536, 65536);
    d.stride[0] = (uint64_t)stride1 & dma_addr_mask(&t->env);
    d.stride[1] = (uint64_t)stride2 & dma_addr_mask(&t->env);
    /* Place the in-bounds rows inside [lo, hi) when they fit. */
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    for (int i2 = 0; i2 < d.count[1]; i2++)
        for (int i1 = 0; i1 < d.count[0]; i1++) {
            int64_t c1 = d.start[0] + (int64_t)i1 * d.step[0];
            int64_t c2 = d.start[1] + (int64_t)i2 * d.step[1];
            int64_t off = c1 * stride1 + c2 * stride2;
            if (off < mn) mn = off;
            if (off + d.len0 > mx) mx = off + d.len0;
        }
    int64_t span = (int64_t)(hi - lo);
    if (mx - mn <= span && pct(t, 95))
        d.addr = (uint64_t)((int64_t)lo - mn + rr(t, 0, span - (mx - mn)));
    else
        d.addr = lo + (uint64_t)rr(t, 0, span - 1);
    d.addr &= dma_addr_mask(&t->env);
    if (allow_bad && pct(t, 4)) {
        switch (rr(t, 0, 4)) {
        case 0: d.len0 = 0; break;
        case 1: d.out0 = (uint16_t)(d.len0 - 1); if (d.len0 == 0) d.len0 = 1; break;
        case 2: d.out0 = (uint16_t)rr(t, rb + 1, 65535); break;
        case 3: d.count[0] = 0; break;
        default: d.count[1] = 0; break;
        }
    }
    return d;
}

static void random_poison(dut_t *t, uint64_t lo, uint64_t hi, int n)
{
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    for (int i = 0; i < n; i++) {
        uint64_t a = lo + (uint64_t)rr(t, 0, (int64_t)(hi - lo) - 1);
        t->poison[a / (uint64_t)t->dbytes] = 1;
    }
}

/* ------------------------------------------------------------------ tests */

static void test_rand_read(dut_t *t)
{
    tb_begin(t->tb);
    int batches = 60 * g_iters;
    uint64_t rows = 0;
    int errs = 0;
    for (int b = 0; b < batches && t->tb->errors == 0; b++) {
        random_timing(t, pct(t, 15));
        random_windows(t, 0, t->mem_size, true, false);
        random_poison(t, 0, t->mem_size, pct(t, 30) ? (int)rr(t, 1, 40) : 0);
        int n = (int)rr(t, 1, 6);
        for (int i = 0; i < n; i++) {
            dma_desc_t d = random_desc(t, 0, t->mem_size, true, 400);
            rd_job_t *j = add_read(t, &d);
            rows += j->nrows;
            errs += j->st.code != DMA_OK;
        }
        run_jobs(t, budget_for(t));
        jobs_clear(t);
    }
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    tb_end(t->tb, tname(t, "rand_read"), "%d batches, %llu rows, %d error statuses", batches,
           (unsigned long long)rows, errs);
}

static void test_rand_write(dut_t *t)
{
    tb_begin(t->tb);
    int batches = 50 * g_iters;
    uint64_t rows = 0;
    int errs = 0;
    for (int b = 0; b < batches && t->tb->errors == 0; b++) {
        random_timing(t, pct(t, 15));
        random_windows(t, 0, t->mem_size, false, true);
        int n = (int)rr(t, 1, 5);
        for (int i = 0; i < n; i++) {
            dma_desc_t d = random_desc(t, 0, t->mem_size, true, 300);
            int mode = pct(t, 6) ? (int)rr(t, 1, 2) : 0;
            wr_job_t *j = add_write(t, &d, mode);
            rows += j->nsrows;
            errs += j->st.code != DMA_OK;
        }
        run_jobs(t, budget_for(t));
        check_writes(t);
        jobs_clear(t);
    }
    tb_end(t->tb, tname(t, "rand_write"), "%d batches, %llu rows, %d error statuses", batches,
           (unsigned long long)rows, errs);
}

static dma_desc_t desc_1d(uint64_t addr, int len0, int out0, int count, int64_t stride)
{
    dma_desc_t d;
    memset(&d, 0, sizeof d);
    d.addr = addr;
    d.len0 = (uint16_t)len0;
    d.out0 = (uint16_t)out0;
    d.count[0] = (uint16_t)count;
    d.count[1] = 1;
    d.step[0] = d.step[1] = 1;
    d.bound[0] = 65535;
    d.bound[1] = 1;
    d.stride[0] = (uint64_t)stride;
    return d;
}

/* True when every in-bounds row of d lies in [lo, hi). */
static bool desc_inside(const dut_t *t, const dma_desc_t *d, uint64_t lo, uint64_t hi)
{
    if (dma_desc_bad(&t->env, d))
        return true;
    for (int i2 = 0; i2 < d->count[1]; i2++)
        for (int i1 = 0; i1 < d->count[0]; i1++) {
            bool inb;
            uint64_t a = dma_row_addr(&t->env, d, i1, i2, &inb);
            if (inb && (a < lo || a + d->len0 > hi))
                return false;
        }
    return true;
}

/* A descriptor for one side of test_rand_mixed, in [lo, hi).  With several windows the
 * windows keep the sides apart (a row outside its side's window is a protection error);
 * one window serves both sides, so then every in-bounds row must lie in [lo, hi): a read
 * row in the written half would race the writes (seen with seeds 6 and 281295206 on
 * d32r4, when only the writes were kept inside). */
static dma_desc_t mixed_desc(dut_t *t, uint64_t lo, uint64_t hi)
{
    dma_desc_t d = random_desc(t, lo, hi, true, 300);
    for (int k = 0; k < 50 && t->nwin == 1 && !desc_inside(t, &d, lo, hi); k++)
        d = random_desc(t, lo, hi, true, 300);
    if (t->nwin == 1 && !desc_inside(t, &d, lo, hi))
        d = desc_1d(lo + (uint64_t)rr(t, 0, 4096), t->rowbytes, t->rowbytes, 8, t->rowbytes);
    return d;
}

/* Both engines at once: reads from the lower half, writes to the upper half,
 * the windows keep them apart. */
static void test_rand_mixed(dut_t *t)
{
    tb_begin(t->tb);
    int batches = 30 * g_iters;
    uint64_t half = t->mem_size / 2;
    for (int b = 0; b < batches && t->tb->errors == 0; b++) {
        random_timing(t, false);
        for (int w = 0; w < t->nwin; w++) {
            dma_win_t *x = &t->env.win[w];
            bool rdw = (w % 2) == 0 || t->nwin == 1;
            uint64_t lo = rdw ? 0 : half, hi = rdw ? half : t->mem_size;
            x->base = lo + (uint64_t)(pct(t, 60) ? 0 : rr(t, 0, 256));
            x->limit = hi - (uint64_t)(pct(t, 60) ? 0 : rr(t, 0, 256));
            x->rd = rdw;
            x->wr = !rdw || t->nwin == 1;
            if (t->nwin == 1) { /* one window can only serve one side */
                x->base = 0;
                x->limit = t->mem_size;
            }
        }
        set_windows(t);
        random_poison(t, 0, half, pct(t, 30) ? (int)rr(t, 1, 20) : 0);
        int n = (int)rr(t, 1, 5);
        for (int i = 0; i < n; i++) {
            dma_desc_t d = mixed_desc(t, 0, half);
            add_read(t, &d);
        }
        n = (int)rr(t, 1, 5);
        for (int i = 0; i < n; i++) {
            dma_desc_t d = mixed_desc(t, half, t->mem_size);
            add_write(t, &d, pct(t, 5) ? 1 : 0);
        }
        run_jobs(t, budget_for(t));
        check_writes(t);
        jobs_clear(t);
    }
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    tb_end(t->tb, tname(t, "rand_mixed"), "%d batches", batches);
}

/* Write bus errors: one descriptor at a time, SLVERR on random beats.  The
 * status must name the first failing burst; memory must hold a prefix of the
 * rows (bad beats unwritten), at least up to the first failing row. */
static void test_write_bus_error(dut_t *t)
{
    tb_begin(t->tb);
    int runs = 40 * g_iters, seen = 0;
    for (int r = 0; r < runs && t->tb->errors == 0; r++) {
        random_timing(t, pct(t, 30));
        random_windows(t, 0, t->mem_size, false, true);
        t->env.win[0] = (dma_win_t){0, t->mem_size, false, true};
        set_windows(t);
        dma_desc_t d = random_desc(t, 0, t->mem_size, false, 200);
        /* Poison a beat under one of its rows. */
        memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
        int i1 = (int)rr(t, 0, d.count[0] - 1), i2 = (int)rr(t, 0, d.count[1] - 1);
        uint64_t a = dma_row_addr(&t->env, &d, i1, i2, NULL) + (uint64_t)rr(t, 0, d.len0 - 1);
        if (a < t->mem_size && pct(t, 85))
            t->poison[a / t->dbytes] = 1;
        uint8_t *before = malloc(t->mem_size);
        memcpy(before, t->mem, t->mem_size);
        wr_job_t *j = add_write(t, &d, 0);
        axi_mem_clear_log(&t->axi);
        run_jobs(t, budget_for(t));
        dma_status_t g = t->wr_got[0];
        if (j->bus_err_possible) {
            seen++;
            uint64_t first = ~0ull;
            for (int i = 0; i < t->axi.wlog_n; i++)
                if (t->axi.wlog[i].resp) {
                    first = t->axi.wlog[i].addr;
                    break;
                }
            tb_check(t->tb, g.code == DMA_BUS_ERROR && g.addr == first,
                     "run %d: status %s @0x%llx, expected BUS_ERROR @0x%llx", r,
                     dma_sts_name(g.code), (unsigned long long)g.addr, (unsigned long long)first);
            /* Which prefix of the rows landed? */
            dma_srow_t *s = malloc(j->nsrows * sizeof *s);
            for (size_t i = 0; i < j->nsrows; i++)
                s[i] = (dma_srow_t){j->sdata + i * t->rowbytes, j->slast[i]};
            size_t consumed, total;
            long bad;
            memcpy(t->model_mem, before, t->mem_size);
            dma_write_model(&t->env, t->model_mem, &d, s, j->nsrows, SIZE_MAX, &consumed, &bad,
                            &total);
            bool match = false;
            for (size_t m = (size_t)bad + 1; m <= total && !match; m++) {
                memcpy(t->model_mem, before, t->mem_size);
                size_t w;
                dma_write_model(&t->env, t->model_mem, &d, s, j->nsrows, m, &consumed, &bad, &w);
                match = memcmp(t->model_mem, t->mem, t->mem_size) == 0;
            }
            tb_check(t->tb, match, "run %d: memory is not a prefix of the rows after a bus error",
                     r);
            free(s);
        } else {
            check_writes(t);
        }
        memcpy(t->model_mem, t->mem, t->mem_size);
        free(before);
        jobs_clear(t);
    }
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    tb_end(t->tb, tname(t, "write_bus_error"), "%d runs, %d with bus errors", runs, seen);
}


/* Protection windows hit exactly at their limits, both engines. */
static void test_prot_limits(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, true);
    uint64_t mask = dma_addr_mask(&t->env);
    int rb = t->rowbytes;
    for (int w = 0; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    uint64_t base = 0x1000 + 3, limit = 0x1000 + 3 + 40 * (uint64_t)rb;
    t->env.win[0] = (dma_win_t){base, limit, true, true};
    if (t->nwin > 1) /* read-only neighbour: writes there must fault */
        t->env.win[1] = (dma_win_t){limit, limit + 8 * (uint64_t)rb, true, false};
    set_windows(t);
    int nr = 0;
    for (int pass = 0; pass < 2; pass++) {
        bool wr = pass == 1;
        dma_desc_t ds[] = {
            desc_1d(base, rb, rb, 40, rb),                     /* exactly the window */
            desc_1d(base - 1, rb, rb, 2, rb),                  /* one byte below */
            desc_1d(limit - rb, rb, rb, 1, rb),                /* ends at the limit */
            desc_1d(limit - rb + 1, rb, rb, 1, rb),            /* one byte over */
            desc_1d(base, rb, rb, 41, rb),                     /* last row over */
            desc_1d(base + 5 * (uint64_t)rb, rb, rb, 10, -(int64_t)rb), /* walks below */
            desc_1d(limit, rb, rb, 4, rb),                     /* read-only window */
            desc_1d(mask - (uint64_t)rb / 2, rb, rb, 1, rb),   /* wraps the address space */
            desc_1d(base + 7, 1, rb, 3, 1),                    /* single bytes */
        };
        int n = (int)(sizeof ds / sizeof ds[0]);
        for (int i = 0; i < n; i++) {
            ds[i].stride[0] &= mask;
            if (wr)
                add_write(t, &ds[i], 0);
            else
                add_read(t, &ds[i]);
            nr++;
        }
        run_jobs(t, budget_for(t));
        if (wr)
            check_writes(t);
        /* Spot-check that the model agrees with what the test means. */
        if (wr) {
            tb_check(t->tb, t->wr[0].st.code == DMA_OK && t->wr[1].st.code == DMA_PROT_WRITE &&
                                t->wr[2].st.code == DMA_OK && t->wr[3].st.code == DMA_PROT_WRITE &&
                                t->wr[4].st.code == DMA_PROT_WRITE &&
                                t->wr[6].st.code == DMA_PROT_WRITE,
                     "write expectations");
        } else {
            tb_check(t->tb, t->rd[0].st.code == DMA_OK && t->rd[1].st.code == DMA_PROT_READ &&
                                t->rd[2].st.code == DMA_OK && t->rd[3].st.code == DMA_PROT_READ &&
                                t->rd[4].st.code == (t->nwin > 1 ? DMA_OK : DMA_PROT_READ) &&
                                t->rd[4].nrows == 41 &&
                                t->rd[7].st.code == DMA_PROT_READ,
                     "read expectations");
        }
        jobs_clear(t);
    }
    tb_end(t->tb, tname(t, "prot_limits"), "%d descriptors", nr);
}

static void test_bad_desc(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, false);
    t->env.win[0] = (dma_win_t){0, t->mem_size, true, true};
    for (int w = 1; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    set_windows(t);
    int rb = t->rowbytes;
    dma_desc_t good = desc_1d(0x100, rb, rb, 4, rb);
    dma_desc_t ds[7];
    for (int i = 0; i < 7; i++)
        ds[i] = good;
    ds[0].len0 = 0;
    ds[1].out0 = (uint16_t)(rb - 1), ds[1].len0 = (uint16_t)rb;
    ds[2].out0 = (uint16_t)(rb + 1);
    ds[3].count[0] = 0;
    ds[4].count[1] = 0;
    ds[5].out0 = 0xffff, ds[5].len0 = 0xffff;
    for (int i = 0; i < 7; i++) {
        add_read(t, &ds[i]);
        dma_desc_t w = ds[i];
        w.addr += t->mem_size / 2;
        add_write(t, &w, 0);
        tb_check(t->tb, i == 6 ? t->rd[t->rd_n - 1].st.code == DMA_OK
                               : t->rd[t->rd_n - 1].st.code == DMA_BAD_DESC,
                 "model: descriptor %d", i);
    }
    run_jobs(t, budget_for(t));
    check_writes(t);
    jobs_clear(t);
    tb_end(t->tb, tname(t, "bad_desc"), "6 bad + 1 good, both engines");
}

static void test_bus_error_read(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, false);
    t->env.win[0] = (dma_win_t){0, t->mem_size + 4096, true, false};
    set_windows(t);
    int rb = t->rowbytes, n = 0;
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    uint64_t p = 0x2000 + 5 * (uint64_t)t->dbytes;
    t->poison[p / t->dbytes] = 1;
    dma_desc_t ds[] = {
        desc_1d(0x2000 - 3, rb, rb, 64, rb),             /* contiguous over the bad beat */
        desc_1d(0x2000 + 1, (rb + 1) / 2, rb, 32, rb),   /* strided */
        desc_1d(0x3000, rb, rb, 4, rb),                  /* fine afterwards */
        desc_1d(t->mem_size - 2 * (uint64_t)rb, rb, rb, 4, rb), /* runs off the memory: DECERR */
    };
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++, n++)
        add_read(t, &ds[i]);
    tb_check(t->tb, t->rd[0].st.code == DMA_BUS_ERROR && t->rd[3].st.code == DMA_BUS_ERROR,
             "model expectations");
    run_jobs(t, budget_for(t));
    jobs_clear(t);
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    tb_end(t->tb, tname(t, "bus_error_read"), "%d descriptors", n);
}

/* Long stalls on every handshake the DUT depends on. */
static void test_backpressure(dut_t *t)
{
    tb_begin(t->tb);
    t->env.win[0] = (dma_win_t){0, t->mem_size, true, true};
    for (int w = 1; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    set_windows(t);
    int rb = t->rowbytes;
    for (int round = 0; round < 3 * g_iters && t->tb->errors == 0; round++) {
        random_timing(t, true);
        t->row_ready_pct = 3;
        t->srow_valid_pct = 3;
        t->sts_ready_pct = 2;
        t->axi.t.lat_max = 60;
        t->axi.t.b_valid = 5;
        for (int i = 0; i < 4; i++) {
            dma_desc_t d = desc_1d(0x400 + (uint64_t)i * 0x800 + (uint64_t)round, rb, rb, 24, rb);
            add_read(t, &d);
            d.addr += t->mem_size / 2;
            add_write(t, &d, 0);
        }
        run_jobs(t, 400000);
        check_writes(t);
        jobs_clear(t);
    }
    tb_end(t->tb, tname(t, "backpressure"), "stream, status and B stalls");
}

static void test_stream_mismatch(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, false);
    t->env.win[0] = (dma_win_t){0, t->mem_size, true, true};
    for (int w = 1; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    set_windows(t);
    int rb = t->rowbytes, n = 0;
    for (int i = 0; i < 8; i++) {
        dma_desc_t d = desc_1d(0x800 + (uint64_t)i * 0x400 + (uint64_t)i, rb, rb, 6, rb + i);
        wr_job_t *j = add_write(t, &d, i % 3); /* good, early last, late last */
        tb_check(t->tb, j->st.code == (i % 3 ? DMA_STREAM : DMA_OK), "model: job %d", i);
        n++;
    }
    run_jobs(t, budget_for(t));
    check_writes(t);
    jobs_clear(t);
    tb_end(t->tb, tname(t, "stream_mismatch"), "%d descriptors", n);
}

/* A 65535 x 65535-row descriptor that fails early must end promptly. */
static void test_abort_huge(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, true);
    t->env.win[0] = (dma_win_t){0, t->mem_size / 2, true, true};
    for (int w = 1; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    set_windows(t);
    int rb = t->rowbytes;
    dma_desc_t d = desc_1d(t->mem_size / 2 - 40 * 64, rb, rb, 65535, rb);
    d.count[1] = 65535;
    d.bound[1] = 65535;
    d.stride[1] = 0; /* every dim2 line rereads the same rows: prot stays OK */
    d.count[0] = 65535;
    d.stride[0] = 64; /* walks off the window after a few hundred rows */
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    add_read(t, &d); /* prot fault after 40 rows */
    dma_desc_t e = d;
    e.stride[0] = 0;
    e.stride[1] = 0; /* same row forever: only a bus error can stop it */
    e.addr = 0x4000;
    t->poison[0x4000 / t->dbytes] = 1;
    add_read(t, &e);
    run_jobs(t, 200000);
    jobs_clear(t);
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    dma_desc_t f = d; /* write: fault at the first row outside the window */
    f.addr = t->mem_size / 2 - 3 * (uint64_t)rb;
    f.stride[0] = (uint64_t)rb;
    add_write(t, &f, 0);
    wr_job_t *wj = &t->wr[t->wr_n - 1];
    /* add_write capped the stream; the engine drains it to its last row */
    tb_check(t->tb, wj->st.code == DMA_PROT_WRITE, "model: write fault");
    run_jobs(t, 200000);
    check_writes(t);
    jobs_clear(t);
    /* Write with a bus error on a descriptor that would never end. */
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    t->poison[0x4000 / t->dbytes] = 1;
    dma_desc_t g = e;
    wr_job_t *gj = add_write(t, &g, 0);
    (void)gj;
    run_jobs(t, 200000);
    tb_check(t->tb, t->wr_got[0].code == DMA_BUS_ERROR && t->wr_got[0].addr == (uint64_t)(0x4000 / t->dbytes * t->dbytes),
             "huge write: status %s @0x%llx", dma_sts_name(t->wr_got[0].code),
             (unsigned long long)t->wr_got[0].addr);
    memcpy(t->model_mem, t->mem, t->mem_size);
    jobs_clear(t);
    memset(t->poison, 0, t->mem_size / (size_t)t->dbytes);
    tb_end(t->tb, tname(t, "abort_huge"), "4G-row descriptors end on prot and bus errors");
}

/* Convolution windows checked against direct NHWC indexing (not the model). */
static void test_conv_windows(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, false);
    int rb = t->rowbytes, checked = 0;
    for (int it = 0; it < 6 * g_iters && t->tb->errors == 0; it++) {
        int H = (int)rr(t, 3, 9), W = (int)rr(t, 3, 9), C = (int)rr(t, 1, rb);
        int K = (int)rr(t, 1, 3), S = (int)rr(t, 1, 2), D = (int)rr(t, 1, 2), P = (int)rr(t, 0, K);
        int OH = (H + 2 * P - D * (K - 1) - 1) / S + 1, OW = (W + 2 * P - D * (K - 1) - 1) / S + 1;
        if (OH < 1 || OW < 1)
            continue;
        uint64_t in = 0x1000 + (uint64_t)rr(t, 0, 63);
        uint8_t zp = (uint8_t)tb_rand32(t->tb);
        int out0 = (int)rr(t, C, rb);
        t->env.win[0] = (dma_win_t){in, in + (uint64_t)H * W * C, true, false};
        for (int w = 1; w < t->nwin; w++)
            t->env.win[w] = (dma_win_t){0, 0, false, false};
        set_windows(t);
        for (int kh = 0; kh < K; kh++)
            for (int kw = 0; kw < K; kw++) {
                dma_desc_t d;
                memset(&d, 0, sizeof d);
                d.addr = in;
                d.len0 = (uint16_t)C;
                d.out0 = (uint16_t)out0;
                d.pad = zp;
                d.count[0] = (uint16_t)OW, d.start[0] = (int16_t)(kw * D - P), d.step[0] = (int16_t)S;
                d.bound[0] = (uint16_t)W, d.stride[0] = (uint64_t)C;
                d.count[1] = (uint16_t)OH, d.start[1] = (int16_t)(kh * D - P), d.step[1] = (int16_t)S;
                d.bound[1] = (uint16_t)H, d.stride[1] = (uint64_t)W * C;
                rd_job_t *j = add_read(t, &d);
                /* The rows a convolution expects. */
                tb_check(t->tb, j->st.code == DMA_OK && j->nrows == (size_t)OH * OW, "conv model");
                for (int oy = 0; oy < OH; oy++)
                    for (int ox = 0; ox < OW; ox++) {
                        int iy = oy * S + kh * D - P, ix = ox * S + kw * D - P;
                        const uint8_t *r = j->rows + ((size_t)oy * OW + ox) * rb;
                        for (int c = 0; c < rb; c++) {
                            uint8_t e = c >= out0 ? 0
                                        : c >= C || iy < 0 || iy >= H || ix < 0 || ix >= W
                                            ? zp
                                            : t->mem[in + ((size_t)iy * W + ix) * C + c];
                            if (r[c] != e) {
                                tb_check(t->tb, false, "conv (%d,%d) pixel (%d,%d) ch %d", kh, kw,
                                         oy, ox, c);
                                c = rb;
                            }
                        }
                    }
            }
        checked += t->rd_n;
        run_jobs(t, budget_for(t));
        jobs_clear(t);
    }
    tb_end(t->tb, tname(t, "conv_windows"), "%d kernel-offset loads", checked);
}

/* Long transfers across 4 KB pages, overlapping and backward rows. */
static void test_directed_shapes(dut_t *t)
{
    tb_begin(t->tb);
    random_timing(t, false);
    t->env.win[0] = (dma_win_t){0, t->mem_size, true, true};
    for (int w = 1; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    set_windows(t);
    int rb = t->rowbytes;
    int long_rows = (int)(3 * 4096 / rb + 7);
    if (long_rows > 1500)
        long_rows = 1500;
    dma_desc_t ds[] = {
        desc_1d(0x0fff, rb, rb, long_rows, rb),               /* contiguous, odd start */
        desc_1d(0x0800, rb, rb, long_rows / 4, 2 * rb + 1),   /* strided */
        desc_1d(0x7000 - 1, rb, rb, 40, -(int64_t)rb),        /* backwards */
        desc_1d(0x5000 + 1, rb, rb, 40, rb > 2 ? rb / 2 : 1), /* overlapping rows */
        desc_1d(0x6000, 1, rb, 200, 1),                       /* 1-byte rows */
        desc_1d(0x7400 + 2, rb, rb, 30, 0),                   /* the same row again */
    };
    uint64_t mask = dma_addr_mask(&t->env);
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        ds[i].stride[0] &= mask;
        add_read(t, &ds[i]);
        dma_desc_t w = ds[i];
        w.addr += t->mem_size / 2;
        add_write(t, &w, 0);
    }
    run_jobs(t, budget_for(t));
    check_writes(t);
    jobs_clear(t);
    tb_end(t->tb, tname(t, "directed_shapes"), "4 KB crossings, negative and overlapping strides");
}

/* ------------------------------------------------------------------ bench */

/* Cycles from the first descriptor to the last status, ideal memory with a
 * fixed latency, everything else always ready. */
static uint64_t bench_run(dut_t *t, int latency)
{
    random_timing(t, true);
    t->axi.t.lat_min = t->axi.t.lat_max = latency;
    uint64_t start = t->cycles;
    while (!jobs_done(t))
        cycle(t);
    uint64_t c = t->cycles - start;
    for (int i = 0; i < 40; i++)
        cycle(t);
    return c;
}

static void bench_line(const char *name, double v, const char *unit, const char *fmt, ...)
{
    char cfg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cfg, sizeof cfg, fmt, ap);
    va_end(ap);
    printf("BENCH %s %.4f %s %s\n", name, v, unit, cfg);
}

static void bench(dut_t *t)
{
    const int lat = 30;
    /* Latency tolerance: contiguous reads and writes behind a slower memory. */
    for (int l = 60; l <= 120; l += 60) {
        int rb = t->rowbytes, db = t->dbytes;
        t->env.win[0] = (dma_win_t){0, t->mem_size, true, true};
        set_windows(t);
        dma_desc_t d = desc_1d(0, rb, rb, 4096, rb);
        add_read(t, &d);
        uint64_t c = bench_run(t, l);
        jobs_clear(t);
        bench_line("dma.read.efficiency", (double)4096 * rb / c / db, "of-peak",
                   "read contiguous len0=%d rows=4096 DataWidth=%d RowBytes=%d MaxBurst=%d "
                   "latency=%d", rb, db * 8, rb, t->maxburst, l);
        add_write(t, &d, 0);
        c = bench_run(t, l);
        check_writes(t);
        jobs_clear(t);
        bench_line("dma.write.efficiency", (double)4096 * rb / c / db, "of-peak",
                   "write contiguous len0=%d rows=4096 DataWidth=%d RowBytes=%d MaxBurst=%d "
                   "latency=%d", rb, db * 8, rb, t->maxburst, l);
    }
    int rb = t->rowbytes, db = t->dbytes;
    char hw[96];
    snprintf(hw, sizeof hw, "DataWidth=%d RowBytes=%d MaxBurst=%d latency=%d", db * 8, rb,
             t->maxburst, lat);
    t->env.win[0] = (dma_win_t){0, t->mem_size, true, true};
    for (int w = 1; w < t->nwin; w++)
        t->env.win[w] = (dma_win_t){0, 0, false, false};
    set_windows(t);
    tb_begin(t->tb);

    struct { const char *what; int len0; int64_t stride; int rows; } pats[] = {
        {"contiguous", rb, rb, 4096},
        {"contiguous-32B-rows", 32 < rb ? 32 : rb, 32 < rb ? 32 : rb, 8192},
        {"contiguous-16B-rows", 16 < rb ? 16 : rb, 16 < rb ? 16 : rb, 8192},
        {"strided-3x", rb, 3 * rb, 2048},
        {"strided-unaligned", rb, 3 * rb + 5, 2048},
    };
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
        dma_desc_t d = desc_1d(0, pats[p].len0, pats[p].len0, pats[p].rows, pats[p].stride);
        d.count[0] = (uint16_t)(pats[p].rows / 16);
        d.count[1] = 16;
        d.bound[1] = 16;
        d.stride[1] = (uint64_t)(pats[p].stride * d.count[0]);
        uint64_t bytes = (uint64_t)pats[p].rows * pats[p].len0;
        uint64_t need = (uint64_t)pats[p].stride * pats[p].rows;
        if (need > t->mem_size)
            continue;
        add_read(t, &d);
        uint64_t c = bench_run(t, lat);
        jobs_clear(t);
        bench_line("dma.read.efficiency", (double)bytes / c / db, "of-peak",
                   "read %s len0=%d stride=%lld rows=%d (%.3f rows/cycle) %s", pats[p].what,
                   pats[p].len0, (long long)pats[p].stride, pats[p].rows,
                   (double)pats[p].rows / c, hw);
        add_write(t, &d, 0);
        c = bench_run(t, lat);
        check_writes(t);
        jobs_clear(t);
        bench_line("dma.write.efficiency", (double)bytes / c / db, "of-peak",
                   "write %s len0=%d stride=%lld rows=%d (%.3f rows/cycle) %s", pats[p].what,
                   pats[p].len0, (long long)pats[p].stride, pats[p].rows,
                   (double)pats[p].rows / c, hw);
    }

    /* Convolution loads: the 9 kernel offsets of a 3x3 conv over a 32x32
     * NHWC int8 input, queued back to back. */
    int chans[] = {8, 16, 32, 64};
    for (size_t ci = 0; ci < sizeof chans / sizeof chans[0]; ci++) {
        int C = chans[ci];
        if (C > rb)
            continue;
        for (int S = 1; S <= 2; S++) {
            int H = 32, W = 32, K = 3, P = 1;
            int OH = (H + 2 * P - K) / S + 1, OW = (W + 2 * P - K) / S + 1;
            uint64_t rows = 0, inb = 0;
            for (int kh = 0; kh < K; kh++)
                for (int kw = 0; kw < K; kw++) {
                    dma_desc_t d;
                    memset(&d, 0, sizeof d);
                    d.addr = 0x100;
                    d.len0 = (uint16_t)C;
                    d.out0 = (uint16_t)C;
                    d.count[0] = (uint16_t)OW, d.start[0] = (int16_t)(kw - P), d.step[0] = (int16_t)S;
                    d.bound[0] = (uint16_t)W, d.stride[0] = (uint64_t)C;
                    d.count[1] = (uint16_t)OH, d.start[1] = (int16_t)(kh - P), d.step[1] = (int16_t)S;
                    d.bound[1] = (uint16_t)H, d.stride[1] = (uint64_t)W * C;
                    add_read(t, &d);
                    rows += (uint64_t)OH * OW;
                    for (int oy = 0; oy < OH; oy++)
                        for (int ox = 0; ox < OW; ox++) {
                            int iy = oy * S + kh - P, ix = ox * S + kw - P;
                            inb += iy >= 0 && iy < H && ix >= 0 && ix < W;
                        }
                }
            uint64_t c = bench_run(t, lat);
            jobs_clear(t);
            bench_line("dma.conv_read.rows_per_cycle", (double)rows / c, "rows/cycle",
                       "3x3 conv stride %d pad 1, 32x32x%d int8 NHWC, 9 loads of %dx%d rows "
                       "(%.1f%% padding) %s",
                       S, C, OH, OW, 100.0 * (double)(rows - inb) / (double)rows, hw);
        }
    }
    tb_end(t->tb, tname(t, "bench"), "%s", hw);
}

int main(int argc, char **argv)
{
    bool do_bench = false;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--bench") == 0)
            do_bench = true;
    dut_t *t = dut_open(argc, argv, "tb_dma", do_bench ? (size_t)1 << 20 : (size_t)1 << 16);
    double t0 = tb_now();
    if (do_bench) {
        bench(t);
    } else {
        static const struct { const char *name; void (*fn)(dut_t *); } tests[] = {
            {"prot_limits", test_prot_limits},     {"bad_desc", test_bad_desc},
            {"bus_error_read", test_bus_error_read}, {"stream_mismatch", test_stream_mismatch},
            {"directed_shapes", test_directed_shapes}, {"conv_windows", test_conv_windows},
            {"backpressure", test_backpressure},   {"abort_huge", test_abort_huge},
            {"rand_read", test_rand_read},         {"rand_write", test_rand_write},
            {"rand_mixed", test_rand_mixed},       {"write_bus_error", test_write_bus_error},
        };
        /* DMA_ONLY=name runs one test (debugging). */
        const char *only = getenv("DMA_ONLY");
        for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
            if (only && strcmp(only, tests[i].name) != 0)
                continue;
            int fails = t->tb->fails;
            tests[i].fn(t);
            if (t->tb->fails != fails)
                dut_recover(t);
        }
    }
    printf("# tb_dma: %llu cycles in %.1f s\n", (unsigned long long)t->cycles, tb_now() - t0);
    return tb_close(t->tb);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_compile.c - from operations to picotpu programs.
 *
 * Layers, bottom up: encoders for single instructions; the pass scheduler,
 * which turns a list of output tiles (each: MATMUL steps, ACTIVATEs, STOREs)
 * into a triple-buffered instruction stream with dependency tokens; the
 * lowerings of each operation into tiles.  docs/runtime.md explains the
 * schedule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptpu_compile.h"

/* ---- encoders ---- */

static uint32_t *emit(struct ptpu_prog *p)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        uint32_t *w = realloc(p->w, cap * PTPU_INSTR_BYTES);
        if (!w) {
            p->err = PTPU_ERR_NO_MEM;
            return NULL;
        }
        p->w = w;
        p->cap = cap;
    }
    uint32_t *i = p->w + 8 * p->n++;
    memset(i, 0, PTPU_INSTR_BYTES);
    return i;
}

#define SETF(i, f, v) fset(p, i, f, (int64_t)(v))
static void fset(struct ptpu_prog *p, uint32_t *insn, int word, int lsb, int width, int sgn,
                 int64_t v)
{
    if (ptpu_field_set(insn, word, lsb, width, sgn, v) && !p->err)
        p->err = PTPU_ERR_RANGE;
}

static int enc_dma(struct ptpu_prog *p, int op, unsigned tok, const struct ptpu_dma *d)
{
    uint32_t *i = emit(p);
    if (!i)
        return p->err;
    i[0] = (uint32_t)op | tok;
    SETF(i, PTPU_F_DMA_BUF, d->buf);
    SETF(i, PTPU_F_DMA_PAD, d->pad & 0xff);
    SETF(i, PTPU_F_DMA_BOUND2, d->bound2);
    SETF(i, PTPU_F_DMA_ROW, d->row);
    SETF(i, PTPU_F_DMA_LEN0, d->len0);
    i[2] = d->addr;
    i[3] = (uint32_t)d->stride1;
    i[4] = (uint32_t)d->stride2;
    SETF(i, PTPU_F_DMA_OUT0, d->out0);
    SETF(i, PTPU_F_DMA_COUNT1, d->count1);
    SETF(i, PTPU_F_DMA_STEP1, d->step1);
    SETF(i, PTPU_F_DMA_START1, d->start1);
    SETF(i, PTPU_F_DMA_BOUND1, d->bound1);
    SETF(i, PTPU_F_DMA_STEP2, d->step2);
    SETF(i, PTPU_F_DMA_COUNT2, d->count2);
    SETF(i, PTPU_F_DMA_START2, d->start2);
    return p->err;
}

int ptpu_enc_load(struct ptpu_prog *p, unsigned tok, const struct ptpu_dma *d)
{
    return enc_dma(p, PTPU_OP_LOAD, tok, d);
}

int ptpu_enc_store(struct ptpu_prog *p, unsigned tok, const struct ptpu_dma *d)
{
    struct ptpu_dma s = *d;
    s.buf = PTPU_BUF_UB;
    s.pad = 0;
    s.out0 = s.len0;
    return enc_dma(p, PTPU_OP_STORE, tok, &s);
}

int ptpu_enc_matmul(struct ptpu_prog *p, unsigned tok, int bf16, int acc, int new_w, int zp,
                    int urow, int rows, int arow, int wrow)
{
    uint32_t *i = emit(p);
    if (!i)
        return p->err;
    i[0] = PTPU_OP_MATMUL | tok;
    SETF(i, PTPU_F_MATMUL_BF16, bf16);
    SETF(i, PTPU_F_MATMUL_ACC, acc);
    SETF(i, PTPU_F_MATMUL_NEW_W, new_w);
    SETF(i, PTPU_F_MATMUL_ZP, zp);
    SETF(i, PTPU_F_MATMUL_UROW, urow);
    SETF(i, PTPU_F_MATMUL_ROWS, rows);
    SETF(i, PTPU_F_MATMUL_AROW, arow);
    SETF(i, PTPU_F_MATMUL_WROW, wrow);
    return p->err;
}

int ptpu_enc_activate(struct ptpu_prog *p, unsigned tok, const struct ptpu_act_f *a)
{
    uint32_t *i = emit(p);
    if (!i)
        return p->err;
    i[0] = PTPU_OP_ACTIVATE | tok;
    SETF(i, PTPU_F_ACTIVATE_OUT, a->out);
    SETF(i, PTPU_F_ACTIVATE_POOL, a->pool);
    SETF(i, PTPU_F_ACTIVATE_RELU, a->relu);
    SETF(i, PTPU_F_ACTIVATE_RELU6, a->relu6);
    SETF(i, PTPU_F_ACTIVATE_ZP_OUT, a->zp_out);
    SETF(i, PTPU_F_ACTIVATE_AROW, a->arow);
    SETF(i, PTPU_F_ACTIVATE_UROW, a->urow);
    SETF(i, PTPU_F_ACTIVATE_VROW, a->vrow);
    SETF(i, PTPU_F_ACTIVATE_CLAMP_LO, a->clamp_lo);
    SETF(i, PTPU_F_ACTIVATE_CLAMP_HI, a->clamp_hi);
    SETF(i, PTPU_F_ACTIVATE_COUNT1, a->count1);
    SETF(i, PTPU_F_ACTIVATE_COUNT2, a->count2);
    SETF(i, PTPU_F_ACTIVATE_WIN1, a->win1);
    SETF(i, PTPU_F_ACTIVATE_WIN2, a->win2);
    SETF(i, PTPU_F_ACTIVATE_STEP1, a->step1);
    SETF(i, PTPU_F_ACTIVATE_STEP2, a->step2);
    SETF(i, PTPU_F_ACTIVATE_WSTEP1, a->wstep1);
    SETF(i, PTPU_F_ACTIVATE_WSTEP2, a->wstep2);
    return p->err;
}

int ptpu_enc_sync(struct ptpu_prog *p)
{
    uint32_t *i = emit(p);
    if (i)
        i[0] = PTPU_OP_SYNC;
    return p->err;
}

int ptpu_enc_halt(struct ptpu_prog *p)
{
    uint32_t *i = emit(p);
    if (i)
        i[0] = PTPU_OP_HALT;
    return p->err;
}

void ptpu_prog_free(struct ptpu_prog *p)
{
    free(p->w);
    memset(p, 0, sizeof(*p));
}

/* ---- constants ---- */

static uint32_t cb_alloc(struct ptpu_cblob *c, size_t len, uint8_t **ptr)
{
    size_t off = (c->n + 31) & ~(size_t)31;
    if (off + len > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (cap < off + len)
            cap *= 2;
        uint8_t *d = realloc(c->d, cap);
        if (!d) {
            c->err = PTPU_ERR_NO_MEM;
            *ptr = NULL;
            return 0;
        }
        c->d = d;
        c->cap = cap;
    }
    memset(c->d + c->n, 0, off + len - c->n);
    c->n = off + len;
    *ptr = c->d + off;
    return c->base + (uint32_t)off;
}

void ptpu_cblob_free(struct ptpu_cblob *c)
{
    free(c->d);
    memset(c, 0, sizeof(*c));
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* ---- pass scheduler ---- */

#define GMAX 8   /* output-channel tiles sharing one input LOAD (group_size) */

struct step {
    uint32_t w_addr[GMAX]; /* weight tiles: N rows of N*EW bytes each */
    int ng;             /* weight tiles, one MATMUL each into ACC sub-region g */
    struct ptpu_dma in; /* input LOAD into UB (row filled in by the scheduler) */
    int zp, rows;       /* MATMUL zero point and rows (the LOAD's rows) */
};

struct tile {
    int s0, ns;         /* steps */
    int a0, na;         /* ACTIVATEs (arow, urow relative to the tile's ACC / out slot) */
    int t0, nt;         /* STOREs (row relative to the out slot) */
};

struct pass {
    int bf16, ew, out_rows;     /* out_rows: UB rows per output slot */
    int in_rows;                /* UB rows per input slot, ACC rows per sub-region */
    int g;                      /* ACC sub-regions per tile (weight tiles per step) */
    int nslot, slot_rows;       /* set by pass_emit: UB/WB slots in flight, UB rows each */
    uint32_t vp_addr;
    int vp_rows;
    struct step *st;
    int nst, cst;
    struct ptpu_act_f *ac;
    int nac, cac;
    struct ptpu_dma *so;
    int nso, cso;
    struct tile *ti;
    int nti, cti;
    int err;
};

#define NSLOT 3   /* input / weight buffers in flight: one computing, two loading */
#define NSLOT_MAX 8   /* for short steps */

#define PUSH(pa, arr, n, cap)                                                                \
    ((pa)->n == (pa)->cap                                                                    \
         ? grow((void **)&(pa)->arr, &(pa)->cap, sizeof(*(pa)->arr), &(pa)->err)             \
         : 0) ||                                                                             \
            (pa)->err                                                                        \
        ? NULL                                                                               \
        : &(pa)->arr[(pa)->n++]

static int grow(void **arr, int *cap, size_t el, int *err)
{
    int nc = *cap ? 2 * *cap : 64;
    void *a = realloc(*arr, (size_t)nc * el);
    if (!a) {
        *err = PTPU_ERR_NO_MEM;
        return 1;
    }
    *arr = a;
    *cap = nc;
    return 0;
}

static void pass_free(struct pass *pa)
{
    free(pa->st);
    free(pa->ac);
    free(pa->so);
    free(pa->ti);
    memset(pa, 0, sizeof(*pa));
}

static struct tile *tile_begin(struct pass *pa)
{
    struct tile *t = PUSH(pa, ti, nti, cti);
    if (t)
        *t = (struct tile){pa->nst, 0, pa->nac, 0, pa->nso, 0};
    return t;
}

/* A step with ng weight tiles (w_addr[0..ng-1]) on one input LOAD. */
static void add_step_g(struct pass *pa, const uint32_t *w_addr, int ng, const struct ptpu_dma *in,
                       int zp)
{
    struct step *s = PUSH(pa, st, nst, cst);
    if (!s)
        return;
    if (pa->g < 1)
        pa->g = 1;
    for (int g = 0; g < ng; g++)
        s->w_addr[g] = w_addr[g];
    s->ng = ng;
    if ((ng > pa->g || ng < 1) && !pa->err)
        pa->err = PTPU_ERR_INVALID_ARG;
    s->in = *in;
    s->zp = zp;
    s->rows = in->count1 * in->count2;
    pa->ti[pa->nti - 1].ns++;
    if (s->rows > pa->in_rows && !pa->err)
        pa->err = PTPU_ERR_UNSUPPORTED;
}

static void add_step(struct pass *pa, uint32_t w_addr, const struct ptpu_dma *in, int zp)
{
    add_step_g(pa, &w_addr, 1, in, zp);
}

static void add_act(struct pass *pa, const struct ptpu_act_f *a)
{
    struct ptpu_act_f *x = PUSH(pa, ac, nac, cac);
    if (x) {
        *x = *a;
        pa->ti[pa->nti - 1].na++;
    }
}

static void add_store(struct pass *pa, const struct ptpu_dma *d)
{
    struct ptpu_dma *x = PUSH(pa, so, nso, cso);
    if (x) {
        *x = *d;
        pa->ti[pa->nti - 1].nt++;
    }
}

/* Rows of an input slot / ACC region and an output slot for this configuration. */
/* Rows per tile with g ACC sub-regions per tile (double-buffered) and out_rows_per_row UB
 * rows per output row in each of the 2g output areas. */
static int tile_rows_g(const struct ptpu_hw *hw, int out_rows_per_row, int g)
{
    int t = hw->acc_rows / (2 * g);
    int u = hw->ub_rows / (NSLOT + 2 * out_rows_per_row * g);
    if (u < t)
        t = u;
    return t > 4095 ? 4095 : t;
}

/* Weight tiles per step (G) for nct output-channel tiles.  Each input beat feeds G x T MXU
 * rows, so a larger G needs fewer input beats per MXU cycle: on the RTL a step's input rows
 * are single-beat reads at a pitch (a gather), which deliver well under one beat per cycle
 * (docs/performance.md, BERT on the RTL).  When all rows_needed rows of the operation fit
 * one tile with G > 2 (ACC double-buffered in G sub-regions, the UB's 2G output areas, the
 * WB's NSLOT x G tiles), take the largest such G: the tiles are then as long as with G = 2
 * (the operation's rows) and the input is read nct / G times instead of nct / 2.  G stays
 * <= nct / 2, so that there are at least two tiles: one tile alone would not overlap its
 * ACTIVATEs and STOREs with another tile's MATMULs (BERT's per-head matmuls).  Otherwise
 * 2 when the tiles stay >= 2N rows (or as large as with one). */
static int group_size(const struct ptpu_hw *hw, int nct, int ob, int rows_needed)
{
    if (nct < 2 || NSLOT * 2 * hw->n > hw->wb_rows)
        return 1;
    for (int g = GMAX < nct / 2 ? GMAX : nct / 2; g > 2; g--)
        if (NSLOT * g * hw->n <= hw->wb_rows && tile_rows_g(hw, ob, g) >= rows_needed)
            return g;
    int t2 = tile_rows_g(hw, ob, 2);
    return t2 >= 2 * hw->n || t2 >= rows_needed ? 2 : 1;
}

/* Tiles in the group that starts at tile c of a pass of nt tiles, with at most G per group:
 * the groups of a pass differ by at most one tile.  A remainder group of one tile would
 * read its input for one tile's MXU rows alone (on the RTL, 16 output-channel tiles in
 * groups of 5, 5, 5, 1 ran at 93.9 % against 97.1 % in groups of 2). */
static int group_at(int nt, int G, int c)
{
    int ngr = (nt + G - 1) / G, base = nt / ngr, big = nt % ngr;
    /* the first `big` groups have base + 1 tiles */
    return c < big * (base + 1) ? base + 1 : base;
}

static int tile_rows(const struct ptpu_hw *hw, int out_rows_per_row)
{
    int t = hw->acc_rows / 2;
    int u = hw->ub_rows / (NSLOT + 2 * out_rows_per_row);
    if (u < t)
        t = u;
    return t > 4095 ? 4095 : t;
}

static void emit_load(struct ptpu_cc *cc, struct pass *pa, int j)
{
    const struct ptpu_hw *hw = &cc->hw;
    int s = j % pa->nslot, rb = hw->n * pa->ew;
    /* Weight tiles at consecutive addresses go to consecutive WB rows: with more than two
     * tiles per step, one LOAD for them (measured on the RTL: 95.6 % against 89.8 % at
     * M = 128 with 8 tiles; with 2 tiles, 2 LOADs ran a 3136-row GEMM at 92.4 %, one 88.1 %) */
    const uint32_t *wa = pa->st[j].w_addr, tb = (uint32_t)(hw->n * rb);
    for (int g = 0, g1; g < pa->st[j].ng; g = g1) {
        for (g1 = g + 1;
             pa->g > 2 && g1 < pa->st[j].ng && wa[g1] == wa[g] + (uint32_t)(g1 - g) * tb; g1++)
            ;
        int nr = (g1 - g) * hw->n;
        struct ptpu_dma w = {.buf = PTPU_BUF_WB, .row = (s * pa->g + g) * hw->n,
                             .addr = pa->st[j].w_addr[g], .len0 = rb, .out0 = rb,
                             .count1 = nr, .step1 = 1, .bound1 = nr, .count2 = 1,
                             .step2 = 1, .bound2 = 1, .stride1 = rb};
        ptpu_enc_load(cc->prog, g == 0 && j >= pa->nslot ? PTPU_TOK_POP_NEXT : 0, &w);
    }
    struct ptpu_dma in = pa->st[j].in;
    in.buf = PTPU_BUF_UB;
    in.row = s * pa->slot_rows;
    ptpu_enc_load(cc->prog, PTPU_TOK_PUSH_NEXT, &in);
}

/* Emit a pass: VP rows, then the tiles, then SYNC. */
static int pass_emit(struct ptpu_cc *cc, struct pass *pa)
{
    const struct ptpu_hw *hw = &cc->hw;
    if (pa->err)
        return pa->err;
    if (pa->g < 1)
        pa->g = 1;
    if (NSLOT * pa->g * hw->n > hw->wb_rows || 2 * pa->g * pa->in_rows > hw->acc_rows ||
        NSLOT * pa->in_rows + 2 * pa->out_rows > hw->ub_rows)
        return PTPU_ERR_UNSUPPORTED;
    if (pa->vp_rows) {
        struct ptpu_dma v = {.buf = PTPU_BUF_VP, .row = 0, .addr = pa->vp_addr,
                             .len0 = 4 * hw->n, .out0 = 4 * hw->n, .count1 = pa->vp_rows,
                             .step1 = 1, .bound1 = pa->vp_rows, .count2 = 1, .step2 = 1,
                             .bound2 = 1, .stride1 = 4 * hw->n};
        ptpu_enc_load(cc->prog, 0, &v);
    }
    /* Short steps (FC at batch 1, small maps) are bound by the load and MATMUL
     * latencies rather than by throughput: keep more of them in flight. */
    int maxrows = 1;
    for (int j = 0; j < pa->nst; j++)
        if (pa->st[j].rows > maxrows)
            maxrows = pa->st[j].rows;
    pa->slot_rows = maxrows;
    pa->nslot = NSLOT;
    while (pa->nslot < NSLOT_MAX &&
           (pa->nslot + 1) * maxrows + 2 * pa->out_rows <= hw->ub_rows &&
           (pa->nslot + 1) * pa->g * hw->n <= hw->wb_rows)
        pa->nslot++;
    int total = pa->nst, ahead = pa->nslot - 1;
    int out_base = pa->nslot * pa->slot_rows;
    for (int j = 0; j < ahead && j < total; j++)
        emit_load(cc, pa, j);
    for (int t = 0; t < pa->nti; t++) {
        const struct tile *ti = &pa->ti[t];
        int region = (t % 2) * pa->g * pa->in_rows;
        for (int k = 0; k < ti->ns; k++) {
            int j = ti->s0 + k;
            if (j + ahead < total)
                emit_load(cc, pa, j + ahead);
            const struct step *s = &pa->st[j];
            for (int g = 0; g < s->ng; g++) {
                /* the first MATMUL takes the step's token, the last frees its slot */
                unsigned tok = (g == 0 ? PTPU_TOK_POP_PREV : 0) |
                               (g == s->ng - 1 && j + pa->nslot < total ? PTPU_TOK_PUSH_PREV
                                                                         : 0);
                ptpu_enc_matmul(cc->prog, tok, pa->bf16, k > 0, 1, s->zp,
                                (j % pa->nslot) * pa->slot_rows, s->rows,
                                region + g * pa->in_rows, ((j % pa->nslot) * pa->g + g) * hw->n);
            }
        }
        for (int k = 0; k < ti->na; k++) {
            struct ptpu_act_f a = pa->ac[ti->a0 + k];
            a.arow += region;
            a.urow += out_base + (t % 2) * pa->out_rows;
            unsigned tok = (k == 0 && t >= 2 ? PTPU_TOK_POP_NEXT : 0) |
                           (k == ti->na - 1 ? PTPU_TOK_PUSH_NEXT : 0);
            ptpu_enc_activate(cc->prog, tok, &a);
        }
        for (int k = 0; k < ti->nt; k++) {
            struct ptpu_dma d = pa->so[ti->t0 + k];
            d.row += out_base + (t % 2) * pa->out_rows;
            unsigned tok = (k == 0 ? PTPU_TOK_POP_PREV : 0) |
                           (k == ti->nt - 1 && t + 2 < pa->nti ? PTPU_TOK_PUSH_PREV : 0);
            ptpu_enc_store(cc->prog, tok, &d);
        }
    }
    ptpu_enc_sync(cc->prog);
    if (cc->cb->err)
        return cc->cb->err;
    return cc->prog->err;
}

/* ---- lowering helpers ---- */

static int fail(struct ptpu_cc *cc, int code, const char *msg)
{
    snprintf(cc->err, sizeof(cc->err), "%s", msg);
    return code;
}

/* VP rows for int8 output: bias, M0, shift of the columns c0 .. c0+N-1. */
static void vp_int8(const struct ptpu_hw *hw, uint8_t *rows, int c0, int cn, const int32_t *bias,
                    const int32_t *m0, const int32_t *shift)
{
    for (int k = 0; k < cn; k++) {
        put32(rows + 4 * k, bias ? (uint32_t)bias[c0 + k] : 0);
        put32(rows + 4 * hw->n + 4 * k, (uint32_t)m0[c0 + k]);
        put32(rows + 8 * hw->n + 4 * k, (uint32_t)shift[c0 + k]);
    }
}

/* A diagonal weight tile: W[k][k] = d[k] for k < cn. */
static uint32_t diag_tile(struct ptpu_cc *cc, const int8_t *d, int scalar, int cn)
{
    int n = cc->hw.n;
    uint8_t *t;
    uint32_t a = cb_alloc(cc->cb, (size_t)n * n, &t);
    if (t)
        for (int k = 0; k < cn; k++)
            t[k * n + k] = (uint8_t)(d ? d[k] : scalar);
    return a;
}

/* An input LOAD over output pixels: dim1 along x, dim2 along y, coordinates
 * rebased so that large images stay inside the 12-bit fields. */
static struct ptpu_dma in_desc(uint32_t base, int H, int W, int rowbytes, int pixbytes,
                               int x0, int nx, int sx, int y0, int ny, int sy, int len0, int pad)
{
    struct ptpu_dma d = {.addr = base, .len0 = len0, .out0 = len0, .pad = pad, .count1 = nx,
                         .start1 = x0, .step1 = sx, .bound1 = W, .count2 = ny, .start2 = y0,
                         .step2 = sy, .bound2 = H, .stride1 = pixbytes, .stride2 = rowbytes};
    if (y0 > 0) {
        d.addr += (uint32_t)y0 * (uint32_t)rowbytes;
        d.start2 = 0;
        d.bound2 = H > y0 ? H - y0 : 0;   /* rows wholly in the bottom padding */
    }
    if (d.bound2 > 4095)
        d.bound2 = 4095;
    return d;
}

static struct ptpu_dma out_desc(uint32_t addr, int nx, int ny, int pixbytes, int rowbytes,
                                int len0, int row)
{
    struct ptpu_dma d = {.row = row, .addr = addr, .len0 = len0, .out0 = len0, .count1 = nx,
                         .step1 = 1, .bound1 = nx, .count2 = ny, .step2 = 1, .bound2 = ny,
                         .stride1 = pixbytes, .stride2 = rowbytes};
    return d;
}

/* ---- convolution family: conv2d, depthwise, FC, int8 GEMM ---- */

struct convspec {
    int H, W, C, OH, OW, CO;
    int kh, kw, sh, sw, dh, dw, pt, pl;
    int zp_in, depthwise;
    const int8_t *w;            /* conv: [co][kh][kw][ci]; dw: [kh][kw][c]; gemm: [k][n] */
    int gemm;                   /* w is B [K][N] */
    int lda, ldc;               /* gemm: bytes from one row of A (>= C) / C (>= CO) to the next */
    const int32_t *bias, *m0, *shift;
    int zp_out, lo, hi;
    uint32_t in, out;
};

static int8_t wget(const struct convspec *s, int co, int ky, int kx, int ci)
{
    if (s->gemm)
        return s->w[(size_t)ci * s->CO + co];
    return s->w[(((size_t)co * s->kh + ky) * s->kw + kx) * s->C + ci];
}

static int lower_conv(struct ptpu_cc *cc, const struct convspec *s)
{
    const struct ptpu_hw *hw = &cc->hw;
    int n = hw->n;
    if (s->W > 2047 || s->OW > 4095 || s->kh * s->dh > 2047 ||
        s->kw * s->dw > 2047)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "image too wide for the DMA fields");
    int nct = (s->CO + n - 1) / n, ncit = (s->C + n - 1) / n;
    /* G output-channel tiles share each input LOAD (not depthwise: its input is per tile) */
    int G = s->depthwise ? 1 : group_size(hw, nct, 1, s->OH * s->OW);
    int tm = tile_rows_g(hw, 1, G);
    /* Packing (docs/isa.md): with dilation 1 along x, g kernel columns of a kernel row
     * are g*C contiguous bytes, so one LOAD row carries them and one MATMUL does g
     * offsets.  Valid where the whole kernel row is inside the image horizontally: the
     * interior output columns [oxl, oxr); the border columns use one offset per step. */
    int g = 1, oxl = 0, oxr = 0;
    if (!s->depthwise && !s->gemm && s->dw == 1 && s->kw > 1 && 2 * s->C <= n) {
        g = n / s->C < s->kw ? n / s->C : s->kw;
        oxl = (s->pl + s->sw - 1) / s->sw;
        oxr = s->W - s->kw + s->pl >= 0 ? (s->W - s->kw + s->pl) / s->sw + 1 : 0;
        if (oxr > s->OW)
            oxr = s->OW;
        if (oxl > oxr)
            oxl = oxr = 0;
    }
    if (oxr <= oxl)
        g = 1;
    int ngrp = (s->kw + g - 1) / g;
    /* Column ranges with their packing, tiled into rectangles of at most tm pixels. */
    int rng[3][3] = {{0, s->OW, 0}}, nrng = 1;
    if (g > 1) {
        nrng = 0;
        if (oxl > 0)
            rng[nrng][0] = 0, rng[nrng][1] = oxl, rng[nrng++][2] = 0;
        rng[nrng][0] = oxl, rng[nrng][1] = oxr, rng[nrng++][2] = 1;
        if (oxr < s->OW)
            rng[nrng][0] = oxr, rng[nrng][1] = s->OW, rng[nrng++][2] = 0;
    }
    int per_pass = hw->vp_rows / 3;
    if (per_pass < 1)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "VP buffer too small");
    if (per_pass >= G)
        per_pass -= per_pass % G;   /* whole groups in every pass */
    for (int ct0 = 0; ct0 < nct; ct0 += per_pass) {
        int ct1 = ct0 + per_pass < nct ? ct0 + per_pass : nct;
        struct pass pa = {.ew = 1, .out_rows = G * tm, .in_rows = tm, .g = G};
        uint8_t *vp;
        uint32_t wbase_of[GMAX], pbase_of[GMAX];
        pa.vp_rows = 3 * (ct1 - ct0);
        pa.vp_addr = cb_alloc(cc->cb, (size_t)pa.vp_rows * 4 * n, &vp);
        if (!vp)
            return PTPU_ERR_NO_MEM;
        for (int cg = ct0, ng; cg < ct1; cg += ng) {
            ng = group_at(ct1 - ct0, G, cg - ct0);
            /* VP rows and weight tiles of the group's output tiles, in step order: one
             * offset per tile, then (packing) one group of g offsets per tile.  With G > 2
             * the ng tiles of one step are contiguous ([step][tile]: one LOAD, spread over
             * the memory's channels, emit_load), otherwise each tile's steps are ([tile]
             * [step]).  Tile (gi, step k) is at wt + (k * ks + gi * gs) * n * n. */
            int nk = s->depthwise ? s->kh * s->kw : s->kh * s->kw * ncit;
            int nkp = g > 1 ? s->kh * ngrp : 0;
            int ks = G > 2 ? ng : 1, gs = G > 2 ? 1 : nk + nkp;
            uint8_t *wt;
            uint32_t wbase = cb_alloc(cc->cb, (size_t)(nk + nkp) * ng * n * n, &wt);
            if (!wt)
                return PTPU_ERR_NO_MEM;
            for (int gi = 0; gi < ng; gi++) {
                int ct = cg + gi, c0 = ct * n, cn = s->CO - c0 < n ? s->CO - c0 : n;
                vp = cc->cb->d + (pa.vp_addr - cc->cb->base);   /* the blob may have moved */
                vp_int8(hw, vp + (size_t)(ct - ct0) * 12 * n, c0, cn, s->bias, s->m0, s->shift);
                wbase_of[gi] = wbase + (uint32_t)(gi * gs * n * n);
                pbase_of[gi] = wbase + (uint32_t)((nk * ks + gi * gs) * n * n);
                for (int ky = 0, k = 0; ky < s->kh; ky++)
                    for (int kx = 0; kx < s->kw; kx++)
                        for (int cit = 0; cit < (s->depthwise ? 1 : ncit); cit++, k++) {
                            uint8_t *t = wt + ((size_t)k * ks + (size_t)gi * gs) * n * n;
                            for (int r = 0; r < n; r++)
                                for (int c = 0; c < cn; c++) {
                                    if (s->depthwise) {
                                        if (r == c)
                                            t[r * n + c] = (uint8_t)
                                                s->w[((size_t)ky * s->kw + kx) * s->C + c0 + c];
                                    } else if (cit * n + r < s->C) {
                                        t[r * n + c] =
                                            (uint8_t)wget(s, c0 + c, ky, kx, cit * n + r);
                                    }
                                }
                        }
                for (int k = 0; k < nkp; k++) {
                    uint8_t *t = wt + ((size_t)(nk + k) * ks + (size_t)gi * gs) * n * n;
                    int ky = k / ngrp, kx0 = (k % ngrp) * g;
                    for (int j = 0; j < g && kx0 + j < s->kw; j++)
                        for (int ci = 0; ci < s->C; ci++)
                            for (int c = 0; c < cn; c++)
                                t[(j * s->C + ci) * n + c] =
                                    (uint8_t)wget(s, c0 + c, ky, kx0 + j, ci);
                }
            }
            int c00 = cg * n;     /* first output channel of the group */
            for (int ri = 0; ri < nrng; ri++) {
                int x0 = rng[ri][0], x1 = rng[ri][1], packed = rng[ri][2];
                int tx = x1 - x0 < tm ? x1 - x0 : tm, ty = tm / tx;
                if (ty > s->OH)
                    ty = s->OH;
                for (int oy = 0; oy < s->OH; oy += ty) {
                    int ny = s->OH - oy < ty ? s->OH - oy : ty;
                    for (int ox = x0; ox < x1; ox += tx) {
                        int nx = x1 - ox < tx ? x1 - ox : tx;
                        uint32_t wa[GMAX];
                        if (!tile_begin(&pa))
                            break;
                        if (packed) {
                            for (int k = 0; k < nkp; k++) {
                                int ky = k / ngrp, kx0 = (k % ngrp) * g;
                                int gl = s->kw - kx0 < g ? s->kw - kx0 : g;
                                struct ptpu_dma in = in_desc(
                                    s->in, s->H, s->W, s->W * s->C, s->C,
                                    ox * s->sw + kx0 - s->pl, nx, s->sw,
                                    oy * s->sh + ky * s->dh - s->pt, ny, s->sh, gl * s->C,
                                    s->zp_in);
                                for (int gi = 0; gi < ng; gi++)
                                    wa[gi] = pbase_of[gi] + (uint32_t)(k * ks * n * n);
                                add_step_g(&pa, wa, ng, &in, s->zp_in);
                            }
                        } else {
                            for (int ky = 0, k = 0; ky < s->kh; ky++)
                                for (int kx = 0; kx < s->kw; kx++)
                                    for (int cit = 0; cit < (s->depthwise ? 1 : ncit);
                                         cit++, k++) {
                                        int ci0 = s->depthwise ? c00 : cit * n;
                                        int cn0 = s->CO - c00 < n ? s->CO - c00 : n;
                                        int len = s->depthwise ? cn0
                                                               : (s->C - ci0 < n ? s->C - ci0 : n);
                                        struct ptpu_dma in = in_desc(
                                            s->in + (uint32_t)ci0, s->H, s->W,
                                            s->gemm ? s->lda : s->W * s->C, s->C,
                                            ox * s->sw + kx * s->dw - s->pl, nx, s->sw,
                                            oy * s->sh + ky * s->dh - s->pt, ny, s->sh, len,
                                            s->zp_in);
                                        for (int gi = 0; gi < ng; gi++)
                                            wa[gi] = wbase_of[gi] +
                                                     (uint32_t)(k * ks * n * n);
                                        add_step_g(&pa, wa, ng, &in, s->zp_in);
                                    }
                        }
                        for (int gi = 0; gi < ng; gi++) {
                            int ct = cg + gi;
                            struct ptpu_act_f a = {.out = PTPU_OUT_INT8, .zp_out = s->zp_out,
                                                   .clamp_lo = s->lo, .clamp_hi = s->hi,
                                                   .arow = gi * tm, .urow = gi * tm,
                                                   .vrow = 3 * (ct - ct0), .count1 = nx * ny,
                                                   .count2 = 1, .win1 = 1, .win2 = 1,
                                                   .step1 = 1};
                            add_act(&pa, &a);
                        }
                        for (int gi = 0; gi < ng; gi++) {
                            int ct = cg + gi, c0 = ct * n, cn = s->CO - c0 < n ? s->CO - c0 : n;
                            int orow = s->gemm ? s->ldc : s->OW * s->CO;
                            struct ptpu_dma o = out_desc(
                                s->out + (uint32_t)oy * (uint32_t)orow +
                                    (uint32_t)ox * (uint32_t)s->CO + (uint32_t)c0,
                                nx, ny, s->CO, orow, cn, gi * tm);
                            add_store(&pa, &o);
                        }
                    }
                }
            }
        }
        int rc = pass_emit(cc, &pa);
        pass_free(&pa);
        if (rc)
            return fail(cc, rc, "conv: a field out of range");
    }
    return 0;
}

int ptpu_gemm_lda(int rowbytes)
{
    int p = (rowbytes + 31) & ~31;
    return p > 1024 && p % 512 == 0 ? p + 256 : p;
}

int ptpu_cc_gemm_i8(struct ptpu_cc *cc, int M, int N, int K, uint32_t a, int lda, int zp_a,
                    const int8_t *B, const struct ptpu_quant *q, uint32_t c, int ldc)
{
    struct convspec s = {.H = M, .W = 1, .C = K, .OH = M, .OW = 1, .CO = N, .kh = 1, .kw = 1,
                         .sh = 1, .sw = 1, .dh = 1, .dw = 1, .zp_in = zp_a, .w = B, .gemm = 1,
                         .lda = lda, .ldc = ldc,
                         .bias = q->bias, .m0 = q->m0, .shift = q->shift, .zp_out = q->zp_out,
                         .lo = q->clamp_lo, .hi = q->clamp_hi, .in = a, .out = c};
    if (M < 1 || N < 1 || K < 1)
        return fail(cc, PTPU_ERR_INVALID_ARG, "gemm: empty matrix");
    if (lda < K || ldc < N)
        return fail(cc, PTPU_ERR_INVALID_ARG, "gemm: lda < K or ldc < N");
    if (M > 4095 * 4096)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "gemm: M too large");
    return lower_conv(cc, &s);
}

int ptpu_cc_gemm_bf16(struct ptpu_cc *cc, int M, int N, int K, uint32_t a, int lda,
                      const uint16_t *B, const uint32_t *bias, int relu, int out_bf16,
                      uint32_t c, int ldc)
{
    const struct ptpu_hw *hw = &cc->hw;
    int n = hw->n, ob = out_bf16 ? 1 : 2;
    if (!hw->bf16)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "bf16 GEMM on an int8-only configuration");
    if (M < 1 || N < 1 || K < 1)
        return fail(cc, PTPU_ERR_INVALID_ARG, "gemm: empty matrix");
    int nct = (N + n - 1) / n, nkt = (K + n - 1) / n, esz = out_bf16 ? 2 : 4;
    if (lda < 2 * K || ldc < N * esz)
        return fail(cc, PTPU_ERR_INVALID_ARG, "gemm: lda < 2K or ldc < N x output bytes");
    int G = group_size(hw, nct, ob, M), tm = tile_rows_g(hw, ob, G);
    int per_pass = hw->vp_rows;
    if (per_pass >= G)
        per_pass -= per_pass % G;
    for (int ct0 = 0; ct0 < nct; ct0 += per_pass) {
        int ct1 = ct0 + per_pass < nct ? ct0 + per_pass : nct;
        struct pass pa = {.bf16 = 1, .ew = 2, .out_rows = G * tm * ob, .in_rows = tm, .g = G};
        uint8_t *vp;
        uint32_t wbase_of[GMAX];
        pa.vp_rows = ct1 - ct0;
        pa.vp_addr = cb_alloc(cc->cb, (size_t)pa.vp_rows * 4 * n, &vp);
        if (!vp)
            return PTPU_ERR_NO_MEM;
        for (int cg = ct0, ng; cg < ct1; cg += ng) {
            ng = group_at(ct1 - ct0, G, cg - ct0);
            /* weight tiles [kt][gi] with G > 2 (the ng tiles of a step contiguous: one LOAD),
             * else [gi][kt]; tile (gi, kt) at wt + (kt * ks + gi * gs) * n * n * 2 */
            int ks = G > 2 ? ng : 1, gs = G > 2 ? 1 : nkt;
            uint8_t *wt;
            uint32_t wbase = cb_alloc(cc->cb, (size_t)nkt * ng * n * n * 2, &wt);
            if (!wt)
                return PTPU_ERR_NO_MEM;
            for (int gi = 0; gi < ng; gi++) {
                int ct = cg + gi, c0 = ct * n, cn = N - c0 < n ? N - c0 : n;
                vp = cc->cb->d + (pa.vp_addr - cc->cb->base);   /* the blob may have moved */
                for (int k = 0; k < cn && bias; k++)
                    put32(vp + (size_t)(ct - ct0) * 4 * n + 4 * k, bias[c0 + k]);
                wbase_of[gi] = wbase + (uint32_t)(gi * gs * n * n * 2);
                for (int kt = 0; kt < nkt; kt++)
                    for (int r = 0; r < n && kt * n + r < K; r++)
                        for (int j = 0; j < cn; j++) {
                            uint16_t v = B[(size_t)(kt * n + r) * N + c0 + j];
                            uint8_t *p = wt + (((size_t)kt * ks + (size_t)gi * gs) * n * n +
                                               (size_t)r * n + j) * 2;
                            p[0] = (uint8_t)v;
                            p[1] = (uint8_t)(v >> 8);
                        }
            }
            for (int m0 = 0; m0 < M; m0 += tm) {
                int nm = M - m0 < tm ? M - m0 : tm;
                uint32_t wa[GMAX];
                if (!tile_begin(&pa))
                    break;
                for (int kt = 0; kt < nkt; kt++) {
                    int len = K - kt * n < n ? K - kt * n : n;
                    struct ptpu_dma in = in_desc(a + (uint32_t)kt * n * 2, M, 1, lda, lda,
                                                 0, 1, 1, m0, nm, 1, len * 2, 0);
                    for (int gi = 0; gi < ng; gi++)
                        wa[gi] = wbase_of[gi] + (uint32_t)(kt * ks * n * n * 2);
                    add_step_g(&pa, wa, ng, &in, 0);
                }
                for (int gi = 0; gi < ng; gi++) {
                    struct ptpu_act_f ac = {.out = out_bf16 ? PTPU_OUT_BF16 : PTPU_OUT_FP32,
                                            .relu = relu, .arow = gi * tm, .urow = gi * tm * ob,
                                            .vrow = cg + gi - ct0, .count1 = nm, .count2 = 1,
                                            .win1 = 1, .win2 = 1, .step1 = 1,
                                            .clamp_lo = -128, .clamp_hi = 127};
                    add_act(&pa, &ac);
                }
                for (int gi = 0; gi < ng; gi++) {
                    int c0 = (cg + gi) * n, cn = N - c0 < n ? N - c0 : n, base = gi * tm * ob;
                    uint32_t oaddr = c + (uint32_t)m0 * (uint32_t)ldc + (uint32_t)c0 * esz;
                    if (out_bf16) {
                        struct ptpu_dma o = out_desc(oaddr, 1, nm, 0, ldc, cn * 2, base);
                        add_store(&pa, &o);
                    } else {
                        /* fp32: output o is UB rows 2o (lanes < N/2) and 2o+1 */
                        int h = n / 2, c_lo = cn < h ? cn : h, c_hi = cn - c_lo;
                        struct ptpu_dma o = out_desc(oaddr, 2, nm, 0, ldc, c_lo * 4, base);
                        o.bound1 = 1;
                        add_store(&pa, &o);
                        if (c_hi > 0) {
                            o = out_desc(oaddr + (uint32_t)h * 4, 2, nm, 0, ldc, c_hi * 4,
                                         base + 1);
                            o.bound1 = 1;
                            add_store(&pa, &o);
                        }
                    }
                }
            }
        }
        int rc = pass_emit(cc, &pa);
        pass_free(&pa);
        if (rc)
            return fail(cc, rc, "bf16 gemm: a field out of range");
    }
    return 0;
}

/* ---- pools ---- */

/* Taps of output (y, x)'s window inside the input. */
static int pool_count(const struct ptpu_mop *op, const struct ptpu_tensor *ti, int y, int x)
{
    int iy = y * op->sh - op->pt, ix = x * op->sw - op->pl, hy = 0, hx = 0;
    for (int k = 0; k < op->kh; k++)
        hy += iy + k >= 0 && iy + k < ti->h;
    for (int k = 0; k < op->kw; k++)
        hx += ix + k >= 0 && ix + k < ti->w;
    return hy * hx;
}

/* An unpadded average pool as a depthwise convolution with weights 1: any window size. */
static int lower_avgpool_conv(struct ptpu_cc *cc, const struct ptpu_model *m,
                              const struct ptpu_mop *op, const uint32_t *addr)
{
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    size_t nw = (size_t)op->kh * op->kw * ti->c;
    int8_t *w = malloc(nw);
    int32_t *m0 = malloc(4 * (size_t)ti->c), *sh = malloc(4 * (size_t)ti->c);
    int rc = PTPU_ERR_NO_MEM;
    if (w && m0 && sh) {
        memset(w, 1, nw);
        for (int c = 0; c < ti->c; c++) {
            m0[c] = op->m0[op->kh * op->kw];
            sh[c] = op->shift[op->kh * op->kw];
        }
        struct convspec s = {.H = ti->h, .W = ti->w, .C = ti->c, .OH = to->h, .OW = to->w,
                             .CO = to->c, .kh = op->kh, .kw = op->kw, .sh = op->sh,
                             .sw = op->sw, .dh = 1, .dw = 1, .zp_in = ti->zp, .depthwise = 1,
                             .w = w, .m0 = m0, .shift = sh, .zp_out = to->zp, .lo = -128,
                             .hi = 127, .in = addr[op->in[0]], .out = addr[op->out]};
        rc = lower_conv(cc, &s);
    }
    free(w);
    free(m0);
    free(sh);
    return rc;
}

/* A global average pool: the P pixels of a channel slice in chunks of R rows, each
 * chunk accumulated by an identity MATMUL into the same R ACC rows (ACC row r sums
 * pixels r, R + r, 2R + r, ...), then one ACTIVATE sums the R rows as a window. */
static int lower_global_avgpool(struct ptpu_cc *cc, const struct ptpu_model *m,
                                const struct ptpu_mop *op, const uint32_t *addr)
{
    const struct ptpu_hw *hw = &cc->hw;
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    int n = hw->n, tm = tile_rows(hw, 1), C = ti->c, P = ti->h * ti->w;
    int w1 = 15, w2 = tm / 15 < 15 ? tm / 15 : 15;
    if (w2 < 1) {
        w1 = tm;
        w2 = 1;
    }
    int R = w1 * w2;
    struct pass pa = {.ew = 1, .out_rows = tm, .in_rows = tm};
    uint8_t *vp;
    pa.vp_rows = 3;
    pa.vp_addr = cb_alloc(cc->cb, (size_t)3 * 4 * n, &vp);
    if (!vp)
        return PTPU_ERR_NO_MEM;
    for (int k = 0; k < n; k++) {
        put32(vp + 4 * n + 4 * k, (uint32_t)op->m0[P]);
        put32(vp + 8 * n + 4 * k, (uint32_t)op->shift[P]);
    }
    uint32_t ident = diag_tile(cc, NULL, 1, n);
    for (int c0 = 0; c0 < C; c0 += n) {
        int cn = C - c0 < n ? C - c0 : n;
        if (!tile_begin(&pa))
            break;
        for (int p0 = 0; p0 < P; p0 += R) {
            /* rows past P are outside: the pad byte is the zero point, adding 0 */
            struct ptpu_dma in = in_desc(addr[op->in[0]] + (uint32_t)c0, P, 1, C, C, 0, 1, 1, p0,
                                         R, 1, cn, ti->zp);
            add_step(&pa, ident, &in, ti->zp);
        }
        struct ptpu_act_f a = {.out = PTPU_OUT_INT8, .pool = PTPU_POOL_SUM, .zp_out = to->zp,
                               .clamp_lo = -128, .clamp_hi = 127, .count1 = 1, .count2 = 1,
                               .win1 = w1, .win2 = w2, .wstep1 = 1, .wstep2 = w1};
        add_act(&pa, &a);
        struct ptpu_dma o = out_desc(addr[op->out] + (uint32_t)c0, 1, 1, 0, 0, cn, 0);
        add_store(&pa, &o);
    }
    int rc = pass_emit(cc, &pa);
    pass_free(&pa);
    return rc ? fail(cc, rc, "global avgpool: a field out of range") : 0;
}

static int lower_pool(struct ptpu_cc *cc, const struct ptpu_model *m, const struct ptpu_mop *op,
                      const uint32_t *addr)
{
    const struct ptpu_hw *hw = &cc->hw;
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    int n = hw->n, tm = tile_rows(hw, 1), C = ti->c, mx = op->type == PTPU_MOP_MAXPOOL;
    int padded = op->pt || op->pb || op->pl || op->pr;
    /* global: the one window is the whole input (a 4x4 window on a 4x6 input with stride 3
     * also has one output, but sums 16 of the 24 pixels) */
    if (!mx && !padded && to->h == 1 && to->w == 1 && op->kh * op->kw > 15 &&
        op->kh == ti->h && op->kw == ti->w)
        return lower_global_avgpool(cc, m, op, addr);
    if (!mx && !padded && (op->kh > 15 || op->kw > 15 || op->kh * op->kw > tm))
        return lower_avgpool_conv(cc, m, op, addr);
    if (op->kh > 15 || op->kw > 15)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "pool window larger than 15");
    if (ti->w > 2047 || ti->h > 4095)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "pool: image too large");
    /* Output tiles of ty rows of tx outputs; their input windows go through ACC. */
    int tx = to->w;
    while (tx > 1 && ((tx - 1) * op->sw + op->kw) * op->kh > tm)
        tx--;
    int wcols = (tx - 1) * op->sw + op->kw;            /* input columns of a tile row */
    if (op->kh * wcols > tm)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "pool: a window needs too many ACC rows");
    int ty = 1;
    while (ty < to->h && (ty * op->sh + op->kh) * wcols <= tm)
        ty++;
    /* VP sets: maxpool identity; avgpool one per divisor that occurs (the border
     * windows of a padded pool have fewer taps). */
    int setof[256], cnts[256], nsets = 0;
    memset(setof, -1, sizeof(setof));
    for (int y = 0; y < to->h; y++)
        for (int x = 0; x < to->w; x++) {
            int cnt = mx ? 0 : pool_count(op, ti, y, x);
            if (setof[cnt] < 0) {
                setof[cnt] = nsets;
                cnts[nsets++] = cnt;
            }
            if (mx || !padded)
                break;
        }
    if (3 * nsets > hw->vp_rows)
        return fail(cc, PTPU_ERR_UNSUPPORTED, "pool: too many parameter sets for the VP buffer");
    struct pass pa = {.ew = 1, .out_rows = tm, .in_rows = tm};
    uint8_t *vp;
    pa.vp_rows = 3 * nsets;
    pa.vp_addr = cb_alloc(cc->cb, (size_t)pa.vp_rows * 4 * n, &vp);
    if (!vp)
        return PTPU_ERR_NO_MEM;
    for (int sidx = 0; sidx < nsets; sidx++)
        for (int k = 0; k < n; k++) {
            put32(vp + (size_t)sidx * 12 * n + 4 * n + 4 * k, (uint32_t)op->m0[cnts[sidx]]);
            put32(vp + (size_t)sidx * 12 * n + 8 * n + 4 * k, (uint32_t)op->shift[cnts[sidx]]);
        }
    uint32_t ident = diag_tile(cc, NULL, 1, n);
    for (int c0 = 0; c0 < C; c0 += n) {
        int cn = C - c0 < n ? C - c0 : n;
        for (int oy = 0; oy < to->h; oy += ty)
            for (int ox = 0; ox < to->w; ox += tx) {
                int ny = to->h - oy < ty ? to->h - oy : ty, nx = to->w - ox < tx ? to->w - ox : tx;
                int rin = (ny - 1) * op->sh + op->kh, cols = (nx - 1) * op->sw + op->kw;
                if (!tile_begin(&pa))
                    break;
                struct ptpu_dma in = in_desc(addr[op->in[0]] + (uint32_t)c0, ti->h, ti->w,
                                             ti->w * C, C, ox * op->sw - op->pl, cols, 1,
                                             oy * op->sh - op->pt, rin, 1, cn,
                                             mx ? 0x80 : ti->zp);
                add_step(&pa, ident, &in, ti->zp);
                struct ptpu_act_f a = {.out = PTPU_OUT_INT8,
                                       .pool = mx ? PTPU_POOL_MAX : PTPU_POOL_SUM,
                                       .zp_out = to->zp, .clamp_lo = -128, .clamp_hi = 127,
                                       .count1 = nx, .count2 = ny, .win1 = op->kw,
                                       .win2 = op->kh, .step1 = op->sw, .step2 = op->sh * cols,
                                       .wstep1 = 1, .wstep2 = cols};
                if (!padded || mx) {
                    add_act(&pa, &a);
                } else {
                    /* the divisor differs at the borders: one ACTIVATE per output */
                    for (int y = 0; y < ny; y++)
                        for (int x = 0; x < nx; x++) {
                            struct ptpu_act_f b = a;
                            b.count1 = b.count2 = 1;
                            b.arow = y * op->sh * cols + x * op->sw;
                            b.urow = y * nx + x;
                            b.vrow = 3 * setof[pool_count(op, ti, oy + y, ox + x)];
                            add_act(&pa, &b);
                        }
                }
                struct ptpu_dma o = out_desc(addr[op->out] +
                                                 ((uint32_t)oy * to->w + (uint32_t)ox) * C +
                                                 (uint32_t)c0,
                                             nx, ny, C, to->w * C, cn, 0);
                add_store(&pa, &o);
            }
    }
    int rc = pass_emit(cc, &pa);
    pass_free(&pa);
    return rc ? fail(cc, rc, "pool: a field out of range") : 0;
}

/* ---- residual add: two accumulating MATMULs with diagonal weights ---- */

static int lower_add(struct ptpu_cc *cc, const struct ptpu_model *m, const struct ptpu_mop *op,
                     const uint32_t *addr)
{
    const struct ptpu_hw *hw = &cc->hw;
    const struct ptpu_tensor *ta = &m->t[op->in[0]], *tb = &m->t[op->in[1]], *to = &m->t[op->out];
    int n = hw->n, tm = tile_rows(hw, 1), C = to->c, P = to->h * to->w;
    struct pass pa = {.ew = 1, .out_rows = tm, .in_rows = tm};
    uint8_t *vp;
    pa.vp_rows = 3;
    pa.vp_addr = cb_alloc(cc->cb, (size_t)3 * 4 * n, &vp);
    if (!vp)
        return PTPU_ERR_NO_MEM;
    for (int k = 0; k < n; k++) {
        put32(vp + 4 * n + 4 * k, (uint32_t)op->m0[0]);
        put32(vp + 8 * n + 4 * k, (uint32_t)op->shift[0]);
    }
    uint32_t wa = diag_tile(cc, NULL, op->ka, n), wb = diag_tile(cc, NULL, op->kb, n);
    for (int c0 = 0; c0 < C; c0 += n) {
        int cn = C - c0 < n ? C - c0 : n;
        for (int p0 = 0; p0 < P; p0 += tm) {
            int np = P - p0 < tm ? P - p0 : tm;
            if (!tile_begin(&pa))
                break;
            struct ptpu_dma in = in_desc(addr[op->in[0]] + (uint32_t)c0, P, 1, C, C, 0, 1, 1, p0,
                                         np, 1, cn, 0);
            add_step(&pa, wa, &in, ta->zp);
            in = in_desc(addr[op->in[1]] + (uint32_t)c0, P, 1, C, C, 0, 1, 1, p0, np, 1, cn, 0);
            add_step(&pa, wb, &in, tb->zp);
            struct ptpu_act_f a = {.out = PTPU_OUT_INT8, .zp_out = to->zp,
                                   .clamp_lo = op->clamp_lo, .clamp_hi = op->clamp_hi,
                                   .count1 = np, .count2 = 1, .win1 = 1, .win2 = 1, .step1 = 1};
            add_act(&pa, &a);
            struct ptpu_dma o = out_desc(addr[op->out] + (uint32_t)p0 * C + (uint32_t)c0, 1, np, 0,
                                         C, cn, 0);
            add_store(&pa, &o);
        }
    }
    int rc = pass_emit(cc, &pa);
    pass_free(&pa);
    return rc ? fail(cc, rc, "add: a field out of range") : 0;
}

int ptpu_cc_op(struct ptpu_cc *cc, const struct ptpu_model *m, const struct ptpu_mop *op,
               const uint32_t *addr)
{
    const struct ptpu_tensor *ti = &m->t[op->in[0]], *to = &m->t[op->out];
    struct convspec s = {.H = ti->h, .W = ti->w, .C = ti->c, .OH = to->h, .OW = to->w,
                         .CO = to->c, .kh = op->kh, .kw = op->kw, .sh = op->sh, .sw = op->sw,
                         .dh = op->dh, .dw = op->dw, .pt = op->pt, .pl = op->pl,
                         .zp_in = ti->zp, .w = op->w, .bias = op->bias, .m0 = op->m0,
                         .shift = op->shift, .zp_out = to->zp, .lo = op->clamp_lo,
                         .hi = op->clamp_hi, .in = addr[op->in[0]], .out = addr[op->out]};
    switch (op->type) {
    case PTPU_MOP_CONV2D:
        return lower_conv(cc, &s);
    case PTPU_MOP_DEPTHWISE:
        s.depthwise = 1;
        return lower_conv(cc, &s);
    case PTPU_MOP_FC:
        /* one output pixel, the flattened input as its channels */
        s.H = s.W = 1;
        s.C = op->cin;
        return lower_conv(cc, &s);
    case PTPU_MOP_MAXPOOL:
    case PTPU_MOP_AVGPOOL:
        return lower_pool(cc, m, op, addr);
    case PTPU_MOP_ADD:
        return lower_add(cc, m, op, addr);
    default:
        return fail(cc, PTPU_ERR_INVALID_ARG, "unknown op");
    }
}

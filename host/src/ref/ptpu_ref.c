/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_ref.c - the `ref` model of the picotpu ISA (docs/isa.md, docs/ref.md).
 *
 * Instructions run one at a time in program order: decode (every static rule,
 * the token counters, the weight state), then execute.  That is the meaning
 * of every race-free program (docs/isa.md, "Programs").  A small dataflow
 * timing model next to it estimates CYCLES (docs/ref.md).
 */
#include "ptpu_ref.h"

#include <stdlib.h>
#include <string.h>

#include "ptpu_arith.h"
#include "ptpu_vpu.h"

#define PAGE_SHIFT 16
#define PAGE_BYTES (1u << PAGE_SHIFT)
#define MAX_TOKENS 65535u
#define MAX_WINDOWS 16

#define X(name, value, text) enum { REF_ERR_##name = value };
PTPU_ERROR_LIST(X)
#undef X

/* Token counters: load->compute, compute->load, compute->store, store->compute. */
enum { TK_LC, TK_CL, TK_CS, TK_SC, TK_NUM };
enum { Q_LOAD, Q_COMPUTE, Q_STORE, Q_NUM };

/* Timing-model constants (docs/ref.md, "CYCLES"). */
#define T_MEM_LATENCY 40u   /* memory read/write latency of a DMA descriptor */
#define T_DMA_SETUP 16u     /* descriptor setup (overlaps the previous descriptor) */
#define T_VPU_LATENCY 8u

/* Completion times of pushed tokens, oldest first (one FIFO per counter). */
struct tfifo {
    uint64_t *t;
    uint32_t cap, head, n;
};

struct ptpu_ref {
    struct ptpu_ref_cfg cfg;
    int n, ew;
    uint32_t ub_rb, wb_rb, vp_rb;     /* row bytes */
    uint8_t *ub, *wb, *vp;
    uint32_t *acc;
    uint64_t mem_bytes;
    uint32_t npages;
    uint8_t **pages;
    /* Current weight tile (the MXU's weights), copied from WB when a MATMUL starts. */
    int32_t *w_i8;                    /* [k*n + col] */
    uint16_t *w_bf;                   /* [k*n + col] */
    int32_t *tmp_i;
    uint16_t *tmp_h;
    uint32_t *tmp_bias, *tmp_m0, *tmp_shift;
    uint8_t *tmp_out;
    const uint32_t **tmp_rows;
    /* Timing model. */
    struct tfifo tok_t[TK_NUM];
};

struct run_state {
    const struct ptpu_window *win;
    int nwin;
    uint32_t tok[TK_NUM];            /* decode-time token counters */
    int w_valid, w_bf16;             /* decode-time weight state */
    /* timing */
    uint64_t t_dec, t_all_done, q_free[Q_NUM], mm_done, act_done;
    struct ptpu_run_result *res;
};

/* ---- configuration ---------------------------------------------------- */

int ptpu_ref_cfg_named(const char *name, struct ptpu_ref_cfg *cfg)
{
#define X(nm, n_, bf, ub, wb, ac, vp, pch, kb)                                          \
    if (strcmp(name, #nm) == 0) {                                                      \
        cfg->n = n_; cfg->bf16 = bf; cfg->ub_rows = ub; cfg->wb_rows = wb;             \
        cfg->acc_rows = ac; cfg->vp_rows = vp; cfg->mem_kb = kb; (void)(pch);          \
        return 0;                                                                      \
    }
    PTPU_CONFIG_LIST(X)
#undef X
    return -1;
}

int ptpu_ref_create(const struct ptpu_ref_cfg *cfg, struct ptpu_ref **out)
{
    *out = NULL;
    if (!cfg || cfg->n < 2 || cfg->n > 4096 || (cfg->n & 1) || cfg->ub_rows < 1 ||
        cfg->ub_rows > 65536 || cfg->wb_rows < cfg->n || cfg->wb_rows > 65536 ||
        cfg->acc_rows < 1 || cfg->acc_rows > 65536 || cfg->vp_rows < 1 ||
        cfg->vp_rows > 65536 || cfg->mem_kb == 0 || cfg->mem_kb > 4u * 1024 * 1024)
        return REF_ERR_INVALID_ARG;
    struct ptpu_ref *r = calloc(1, sizeof *r);
    if (!r)
        return REF_ERR_NO_MEM;
    r->cfg = *cfg;
    r->n = cfg->n;
    r->ew = cfg->bf16 ? 2 : 1;
    r->ub_rb = r->wb_rb = (uint32_t)(r->n * r->ew);
    r->vp_rb = 4u * (uint32_t)r->n;
    r->mem_bytes = (uint64_t)cfg->mem_kb * 1024u;
    r->npages = (uint32_t)((r->mem_bytes + PAGE_BYTES - 1) >> PAGE_SHIFT);
    size_t n = (size_t)r->n;
    r->ub = calloc((size_t)cfg->ub_rows, r->ub_rb);
    r->wb = calloc((size_t)cfg->wb_rows, r->wb_rb);
    r->vp = calloc((size_t)cfg->vp_rows, r->vp_rb);
    r->acc = calloc((size_t)cfg->acc_rows * n, sizeof *r->acc);
    r->pages = calloc(r->npages, sizeof *r->pages);
    r->w_i8 = calloc(n * n, sizeof *r->w_i8);
    r->w_bf = calloc(n * n, sizeof *r->w_bf);
    r->tmp_i = calloc(n, sizeof *r->tmp_i);
    r->tmp_h = calloc(n, sizeof *r->tmp_h);
    r->tmp_bias = calloc(n, sizeof(uint32_t));
    r->tmp_m0 = calloc(n, sizeof(uint32_t));
    r->tmp_shift = calloc(n, sizeof(uint32_t));
    r->tmp_out = calloc(n, 4);
    r->tmp_rows = calloc(15 * 15, sizeof *r->tmp_rows);
    if (!r->ub || !r->wb || !r->vp || !r->acc || !r->pages || !r->w_i8 || !r->w_bf ||
        !r->tmp_i || !r->tmp_h || !r->tmp_bias || !r->tmp_m0 || !r->tmp_shift ||
        !r->tmp_out || !r->tmp_rows) {
        ptpu_ref_destroy(r);
        return REF_ERR_NO_MEM;
    }
    *out = r;
    return 0;
}

void ptpu_ref_destroy(struct ptpu_ref *r)
{
    if (!r)
        return;
    if (r->pages)
        for (uint32_t i = 0; i < r->npages; i++)
            free(r->pages[i]);
    free(r->pages);
    free(r->ub);
    free(r->wb);
    free(r->vp);
    free(r->acc);
    free(r->w_i8);
    free(r->w_bf);
    free(r->tmp_i);
    free(r->tmp_h);
    free(r->tmp_bias);
    free(r->tmp_m0);
    free(r->tmp_shift);
    free(r->tmp_out);
    free(r->tmp_rows);
    for (int i = 0; i < TK_NUM; i++)
        free(r->tok_t[i].t);
    free(r);
}

/* ---- sparse device memory ---------------------------------------------- */

/* Callers have checked that [addr, addr+len) is inside device memory. */
static int mem_put(struct ptpu_ref *r, uint32_t addr, const uint8_t *src, size_t len)
{
    while (len) {
        uint32_t pg = addr >> PAGE_SHIFT, off = addr & (PAGE_BYTES - 1);
        size_t chunk = PAGE_BYTES - off;
        if (chunk > len)
            chunk = len;
        if (!r->pages[pg]) {
            r->pages[pg] = calloc(1, PAGE_BYTES);
            if (!r->pages[pg])
                return REF_ERR_NO_MEM;
        }
        memcpy(r->pages[pg] + off, src, chunk);
        addr += (uint32_t)chunk;
        src += chunk;
        len -= chunk;
    }
    return 0;
}

static void mem_get(const struct ptpu_ref *r, uint32_t addr, uint8_t *dst, size_t len)
{
    while (len) {
        uint32_t pg = addr >> PAGE_SHIFT, off = addr & (PAGE_BYTES - 1);
        size_t chunk = PAGE_BYTES - off;
        if (chunk > len)
            chunk = len;
        if (r->pages[pg])
            memcpy(dst, r->pages[pg] + off, chunk);
        else
            memset(dst, 0, chunk);
        addr += (uint32_t)chunk;
        dst += chunk;
        len -= chunk;
    }
}

static int in_mem(const struct ptpu_ref *r, uint32_t addr, size_t len)
{
    return (uint64_t)addr + len <= r->mem_bytes;
}

int ptpu_ref_mem_write(struct ptpu_ref *r, uint32_t addr, const void *data, size_t len)
{
    if (!r || (!data && len))
        return REF_ERR_INVALID_ARG;
    if (!in_mem(r, addr, len))
        return REF_ERR_RANGE;
    return mem_put(r, addr, data, len);
}

int ptpu_ref_mem_read(struct ptpu_ref *r, uint32_t addr, void *data, size_t len)
{
    if (!r || (!data && len))
        return REF_ERR_INVALID_ARG;
    if (!in_mem(r, addr, len))
        return REF_ERR_RANGE;
    mem_get(r, addr, data, len);
    return 0;
}

static uint8_t *buf_row(struct ptpu_ref *r, int buf, uint32_t row, uint32_t *rb)
{
    switch (buf) {
    case PTPU_BUF_UB: *rb = r->ub_rb; return r->ub + (size_t)row * r->ub_rb;
    case PTPU_BUF_WB: *rb = r->wb_rb; return r->wb + (size_t)row * r->wb_rb;
    default: *rb = r->vp_rb; return r->vp + (size_t)row * r->vp_rb;
    }
}

int ptpu_ref_buf_read(struct ptpu_ref *r, int buf, uint32_t row, void *data)
{
    if (!r || !data)
        return REF_ERR_INVALID_ARG;
    uint32_t rb;
    if (buf == PTPU_REF_BUF_ACC) {
        if (row >= (uint32_t)r->cfg.acc_rows)
            return REF_ERR_INVALID_ARG;
        uint8_t *d = data;
        for (int c = 0; c < r->n; c++) {
            uint32_t v = r->acc[(size_t)row * (size_t)r->n + (size_t)c];
            d[4 * c] = (uint8_t)v;
            d[4 * c + 1] = (uint8_t)(v >> 8);
            d[4 * c + 2] = (uint8_t)(v >> 16);
            d[4 * c + 3] = (uint8_t)(v >> 24);
        }
        return 4 * r->n;
    }
    int rows = buf == PTPU_BUF_UB ? r->cfg.ub_rows : buf == PTPU_BUF_WB ? r->cfg.wb_rows
             : buf == PTPU_BUF_VP ? r->cfg.vp_rows : 0;
    if (row >= (uint32_t)rows)
        return REF_ERR_INVALID_ARG;
    const uint8_t *src = buf_row(r, buf, row, &rb);
    memcpy(data, src, rb);
    return (int)rb;
}

/* The first beat of [addr, addr+len) beyond device memory (BUS_ERROR address), or 0 with
 * *bad = 0 when the range is inside memory.  The range does not wrap (windows forbid it). */
static uint32_t first_bad_beat(const struct ptpu_ref *r, uint32_t addr, uint32_t len, int *bad)
{
    *bad = 0;
    if ((uint64_t)addr + len <= r->mem_bytes)
        return 0;
    *bad = 1;
    uint64_t b = addr & ~(uint64_t)(PTPU_REF_BEAT_BYTES - 1);
    uint64_t mem_beats_end = r->mem_bytes & ~(uint64_t)(PTPU_REF_BEAT_BYTES - 1);
    return (uint32_t)(b > mem_beats_end ? b : mem_beats_end);
}

/* ---- timing model ------------------------------------------------------- */

static int tf_push(struct tfifo *f, uint64_t t)
{
    if (f->n == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 64;
        uint64_t *nt = malloc(cap * sizeof *nt);
        if (!nt)
            return -1;
        for (uint32_t i = 0; i < f->n; i++)
            nt[i] = f->t[(f->head + i) % f->cap];
        free(f->t);
        f->t = nt;
        f->cap = cap;
        f->head = 0;
    }
    f->t[(f->head + f->n) % f->cap] = t;
    f->n++;
    return 0;
}

static uint64_t tf_pop(struct tfifo *f)
{
    if (!f->n)
        return 0;
    uint64_t t = f->t[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return t;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ---- decode: every static rule ----------------------------------------- */

#define F(insn, f) ptpu_field_get(insn, PTPU_F_##f)

struct tok_use { int pop[TK_NUM], push[TK_NUM]; };

static int decode(const struct ptpu_ref *r, struct run_state *s, const uint32_t *in,
                  struct tok_use *tu)
{
    const int op = F(in, COMMON_OP);
    const int pop_prev = F(in, COMMON_POP_PREV), pop_next = F(in, COMMON_POP_NEXT);
    const int push_prev = F(in, COMMON_PUSH_PREV), push_next = F(in, COMMON_PUSH_NEXT);
    const int n = r->n;
    memset(tu, 0, sizeof *tu);
    if (op < PTPU_OP_LOAD || op > PTPU_OP_HALT)
        return PTPU_FAULT_BAD_OPCODE;
    if (op == PTPU_OP_SYNC || op == PTPU_OP_HALT)
        return 0;

    /* 1. BAD_FIELD: token bits of a queue that does not exist, then the fields. */
    if (op == PTPU_OP_LOAD && (pop_prev || push_prev))
        return PTPU_FAULT_BAD_FIELD;
    if (op == PTPU_OP_STORE && (pop_next || push_next))
        return PTPU_FAULT_BAD_FIELD;

    uint64_t range_fault = 0;   /* BUF_RANGE found while checking fields */
    if (op == PTPU_OP_LOAD || op == PTPU_OP_STORE) {
        const uint32_t buf = (uint32_t)F(in, DMA_BUF), len0 = (uint32_t)F(in, DMA_LEN0);
        const uint32_t out0 = (uint32_t)F(in, DMA_OUT0);
        const uint32_t c1 = (uint32_t)F(in, DMA_COUNT1), c2 = (uint32_t)F(in, DMA_COUNT2);
        const uint64_t row = (uint32_t)F(in, DMA_ROW);
        uint64_t rows;
        if (op == PTPU_OP_LOAD) {
            if (buf == 3 || len0 == 0 || len0 > out0 ||
                out0 > (buf == PTPU_BUF_VP ? r->vp_rb : r->ub_rb) || c1 == 0 || c2 == 0)
                return PTPU_FAULT_BAD_FIELD;
            rows = buf == PTPU_BUF_UB ? (uint64_t)r->cfg.ub_rows
                 : buf == PTPU_BUF_WB ? (uint64_t)r->cfg.wb_rows : (uint64_t)r->cfg.vp_rows;
        } else {
            if (buf != PTPU_BUF_UB || F(in, DMA_PAD) != 0 || out0 != len0 || len0 == 0 ||
                len0 > r->ub_rb || c1 == 0 || c2 == 0)
                return PTPU_FAULT_BAD_FIELD;
            rows = (uint64_t)r->cfg.ub_rows;
        }
        range_fault = row + (uint64_t)c1 * c2 > rows;
    } else if (op == PTPU_OP_MATMUL) {
        const int bf = F(in, MATMUL_BF16), new_w = F(in, MATMUL_NEW_W);
        const uint64_t rows = (uint32_t)F(in, MATMUL_ROWS);
        if (rows == 0 || (bf && !r->cfg.bf16) || (bf && F(in, MATMUL_ZP) != 0) ||
            (!new_w && s->w_valid && bf != s->w_bf16))
            return PTPU_FAULT_BAD_FIELD;
        if (!new_w && !s->w_valid)
            return PTPU_FAULT_NO_WEIGHTS;
        range_fault = (uint64_t)(uint32_t)F(in, MATMUL_UROW) + rows > (uint64_t)r->cfg.ub_rows ||
                      (uint64_t)(uint32_t)F(in, MATMUL_AROW) + rows > (uint64_t)r->cfg.acc_rows ||
                      (new_w && (uint64_t)(uint32_t)F(in, MATMUL_WROW) + (uint64_t)n >
                                    (uint64_t)r->cfg.wb_rows);
    } else if (op == PTPU_OP_ACTIVATE) {
        const int out = F(in, ACTIVATE_OUT), pool = F(in, ACTIVATE_POOL);
        const uint64_t c1 = (uint32_t)F(in, ACTIVATE_COUNT1), c2 = (uint32_t)F(in, ACTIVATE_COUNT2);
        const uint64_t w1 = (uint32_t)F(in, ACTIVATE_WIN1), w2 = (uint32_t)F(in, ACTIVATE_WIN2);
        if (out == 3 || pool == 3 || (out != PTPU_OUT_INT8 && !r->cfg.bf16) ||
            (out == PTPU_OUT_INT8 && (F(in, ACTIVATE_RELU) || F(in, ACTIVATE_RELU6))) ||
            (pool == PTPU_POOL_NONE && (w1 != 1 || w2 != 1)) || c1 == 0 || c2 == 0 ||
            w1 == 0 || w2 == 0 ||
            (out == PTPU_OUT_INT8 && F(in, ACTIVATE_CLAMP_LO) > F(in, ACTIVATE_CLAMP_HI)))
            return PTPU_FAULT_BAD_FIELD;
        uint64_t top = (uint64_t)(uint32_t)F(in, ACTIVATE_AROW) +
                       (c2 - 1) * (uint32_t)F(in, ACTIVATE_STEP2) +
                       (c1 - 1) * (uint32_t)F(in, ACTIVATE_STEP1) +
                       (w2 - 1) * (uint32_t)F(in, ACTIVATE_WSTEP2) +
                       (w1 - 1) * (uint32_t)F(in, ACTIVATE_WSTEP1);
        range_fault = top >= (uint64_t)r->cfg.acc_rows ||
                      (uint64_t)(uint32_t)F(in, ACTIVATE_UROW) +
                              c1 * c2 * (out == PTPU_OUT_FP32 ? 2u : 1u) >
                          (uint64_t)r->cfg.ub_rows ||
                      (uint64_t)(uint32_t)F(in, ACTIVATE_VROW) + (out == PTPU_OUT_INT8 ? 3u : 1u) >
                          (uint64_t)r->cfg.vp_rows;
    }
    if (range_fault)
        return PTPU_FAULT_BUF_RANGE;

    /* 2. Tokens: pops against the pushes decoded so far, then this instruction's pushes. */
    if (op == PTPU_OP_LOAD) {
        tu->pop[TK_CL] = pop_next;
        tu->push[TK_LC] = push_next;
    } else if (op == PTPU_OP_STORE) {
        tu->pop[TK_CS] = pop_prev;
        tu->push[TK_SC] = push_prev;
    } else {
        tu->pop[TK_LC] = pop_prev;
        tu->pop[TK_SC] = pop_next;
        tu->push[TK_CL] = push_prev;
        tu->push[TK_CS] = push_next;
    }
    for (int k = 0; k < TK_NUM; k++)
        if (tu->pop[k] && s->tok[k] == 0)
            return PTPU_FAULT_TOKEN;
    for (int k = 0; k < TK_NUM; k++)
        if (tu->push[k] && s->tok[k] - (uint32_t)tu->pop[k] + 1u > MAX_TOKENS)
            return PTPU_FAULT_TOKEN;
    for (int k = 0; k < TK_NUM; k++)
        s->tok[k] += (uint32_t)tu->push[k] - (uint32_t)tu->pop[k];
    if (op == PTPU_OP_MATMUL && F(in, MATMUL_NEW_W)) {
        s->w_valid = 1;
        s->w_bf16 = F(in, MATMUL_BF16);
    }
    return 0;
}

/* ---- execution ---------------------------------------------------------- */

static void fault(struct run_state *s, int code, uint32_t pc, uint32_t addr)
{
    s->res->state = PTPU_STATE_FAULT;
    s->res->fault = code;
    s->res->fault_pc = pc;
    s->res->fault_addr = addr;
}

/* Beats a row of len bytes at addr touches. */
static uint32_t row_beats(uint32_t addr, uint32_t len)
{
    uint32_t first = addr / PTPU_REF_BEAT_BYTES;
    uint32_t last = (uint32_t)(((uint64_t)addr + len - 1) / PTPU_REF_BEAT_BYTES);
    return last - first + 1;
}

/* LOAD: returns 0 or a dynamic fault code with *faddr. *cycles: the engine's row time. */
static int exec_load(struct ptpu_ref *r, struct run_state *s, const uint32_t *in,
                     uint32_t *faddr, uint64_t *cycles)
{
    struct ptpu_dma_desc d;
    ptpu_dmafn_from_insn(in, &d);
    const int buf = F(in, DMA_BUF);
    const uint32_t row0 = (uint32_t)F(in, DMA_ROW);
    struct ptpu_dma_iter it;
    struct ptpu_dma_row dr;
    uint32_t prev_last_beat = UINT32_MAX;
    uint64_t beats = 0;
    ptpu_dmafn_iter_init(&it, &d);
    while (ptpu_dmafn_iter_next(&it, &dr)) {
        uint32_t rb;
        uint8_t *dst = buf_row(r, buf, row0 + dr.index, &rb);
        if (dr.inside) {
            if (!ptpu_dmafn_allowed(s->win, s->nwin, dr.addr, d.len0, PTPU_PERM_READ)) {
                *faddr = dr.addr;
                *cycles = beats;
                return PTPU_FAULT_PROT_READ;
            }
            int bad;
            uint32_t ba = first_bad_beat(r, dr.addr, d.len0, &bad);
            if (bad) {
                *faddr = ba;
                *cycles = beats;
                return PTPU_FAULT_BUS_ERROR;
            }
            mem_get(r, dr.addr, dst, d.len0);
            memset(dst + d.len0, d.pad, d.out0 - d.len0);
            s->res->counters[PTPU_CNT_BYTES_READ] += d.len0;
            uint32_t b = row_beats(dr.addr, d.len0);
            if (dr.addr / PTPU_REF_BEAT_BYTES == prev_last_beat)
                b--;   /* the DMA reuses the previous row's last beat */
            beats += b ? b : 1;
            prev_last_beat = (uint32_t)(((uint64_t)dr.addr + d.len0 - 1) / PTPU_REF_BEAT_BYTES);
        } else {
            memset(dst, d.pad, d.out0);
            beats++;
        }
        memset(dst + d.out0, 0, rb - d.out0);
    }
    *cycles = beats;
    return 0;
}

static int exec_store(struct ptpu_ref *r, struct run_state *s, const uint32_t *in,
                      uint32_t *faddr, uint64_t *cycles)
{
    struct ptpu_dma_desc d;
    ptpu_dmafn_from_insn(in, &d);
    const uint32_t row0 = (uint32_t)F(in, DMA_ROW);
    struct ptpu_dma_iter it;
    struct ptpu_dma_row dr;
    uint64_t beats = 0;
    ptpu_dmafn_iter_init(&it, &d);
    while (ptpu_dmafn_iter_next(&it, &dr)) {
        if (!dr.inside) {
            beats++;
            continue;
        }
        if (!ptpu_dmafn_allowed(s->win, s->nwin, dr.addr, d.len0, PTPU_PERM_WRITE)) {
            *faddr = dr.addr;
            *cycles = beats;
            return PTPU_FAULT_PROT_WRITE;
        }
        int bad;
        uint32_t ba = first_bad_beat(r, dr.addr, d.len0, &bad);
        if (bad) {
            *faddr = ba;
            *cycles = beats;
            return PTPU_FAULT_BUS_ERROR;
        }
        if (mem_put(r, dr.addr, r->ub + (size_t)(row0 + dr.index) * r->ub_rb, d.len0))
            return -1;
        s->res->counters[PTPU_CNT_BYTES_WRITTEN] += d.len0;
        beats += row_beats(dr.addr, d.len0);
    }
    *cycles = beats;
    return 0;
}

/* One int8 row through the array: acc[c] = sum_k (x[k] - zp) * w[k][c].  The hot loop of
 * the runtime's ref backend: vectorized (the optimize attribute lifts it to -O3 whatever
 * the library's flags). |x - zp| <= 255 and |w| <= 128: no int32 overflow below 65536 lanes. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void row_int8(int32_t *restrict acc, const uint8_t *restrict x,
                     const int32_t *restrict w, int n, int32_t zp)
{
    memset(acc, 0, (size_t)n * sizeof *acc);
    for (int k = 0; k < n; k++) {
        const int32_t xk = (int32_t)(int8_t)x[k] - zp;
        const int32_t *wk = w + (size_t)k * (size_t)n;
        if ((n & 15) == 0) {
            for (int c0 = 0; c0 < n; c0 += 16)
                for (int c = 0; c < 16; c++)
                    acc[c0 + c] += xk * wk[c0 + c];
        } else {
            for (int c = 0; c < n; c++)
                acc[c] += xk * wk[c];
        }
    }
}

static void exec_matmul(struct ptpu_ref *r, struct run_state *s, const uint32_t *in)
{
    const int n = r->n, bf = F(in, MATMUL_BF16), accum = F(in, MATMUL_ACC);
    const int32_t zp = F(in, MATMUL_ZP);
    const uint32_t urow = (uint32_t)F(in, MATMUL_UROW), rows = (uint32_t)F(in, MATMUL_ROWS);
    const uint32_t arow = (uint32_t)F(in, MATMUL_AROW);
    if (F(in, MATMUL_NEW_W)) {
        const uint8_t *w = r->wb + (size_t)(uint32_t)F(in, MATMUL_WROW) * r->wb_rb;
        for (int k = 0; k < n; k++, w += r->wb_rb)
            for (int c = 0; c < n; c++) {
                if (bf)
                    r->w_bf[k * n + c] = (uint16_t)(w[2 * c] | (w[2 * c + 1] << 8));
                else
                    r->w_i8[k * n + c] = (int8_t)w[c];
            }
    }
    for (uint32_t i = 0; i < rows; i++) {
        const uint8_t *x = r->ub + (size_t)(urow + i) * r->ub_rb;
        uint32_t *a = r->acc + (size_t)(arow + i) * (size_t)n;
        if (!bf) {
            int32_t *acc = r->tmp_i;
            row_int8(acc, x, r->w_i8, n, zp);
            if (accum)
                for (int c = 0; c < n; c++)
                    a[c] += (uint32_t)acc[c];
            else
                for (int c = 0; c < n; c++)
                    a[c] = (uint32_t)acc[c];
        } else {
            for (int k = 0; k < n; k++)
                r->tmp_h[k] = (uint16_t)(x[2 * k] | (x[2 * k + 1] << 8));
            for (int c = 0; c < n; c++) {
                uint32_t v = ptpu_mxu_dot_bf16(r->tmp_h, r->w_bf + c, n, n);
                a[c] = accum ? ptpu_fp32_add(a[c], v) : v;
            }
        }
    }
    s->res->counters[PTPU_CNT_MXU_ROWS] += rows;
}

static void vp_words(const struct ptpu_ref *r, uint32_t row, uint32_t *dst)
{
    const uint8_t *p = r->vp + (size_t)row * r->vp_rb;
    for (int c = 0; c < r->n; c++, p += 4)
        dst[c] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
}

static uint64_t exec_activate(struct ptpu_ref *r, const uint32_t *in)
{
    const int n = r->n;
    struct ptpu_vpu_op op = {
        .n = n, .out = F(in, ACTIVATE_OUT), .pool = F(in, ACTIVATE_POOL),
        .relu = F(in, ACTIVATE_RELU), .relu6 = F(in, ACTIVATE_RELU6),
        .zp_out = F(in, ACTIVATE_ZP_OUT), .clamp_lo = F(in, ACTIVATE_CLAMP_LO),
        .clamp_hi = F(in, ACTIVATE_CLAMP_HI),
    };
    const uint32_t arow = (uint32_t)F(in, ACTIVATE_AROW), urow = (uint32_t)F(in, ACTIVATE_UROW);
    const uint32_t vrow = (uint32_t)F(in, ACTIVATE_VROW);
    const uint32_t c1 = (uint32_t)F(in, ACTIVATE_COUNT1), c2 = (uint32_t)F(in, ACTIVATE_COUNT2);
    const uint32_t w1 = (uint32_t)F(in, ACTIVATE_WIN1), w2 = (uint32_t)F(in, ACTIVATE_WIN2);
    const uint32_t st1 = (uint32_t)F(in, ACTIVATE_STEP1), st2 = (uint32_t)F(in, ACTIVATE_STEP2);
    const uint32_t ws1 = (uint32_t)F(in, ACTIVATE_WSTEP1), ws2 = (uint32_t)F(in, ACTIVATE_WSTEP2);
    vp_words(r, vrow, r->tmp_bias);
    if (op.out == PTPU_OUT_INT8) {
        vp_words(r, vrow + 1, r->tmp_m0);
        vp_words(r, vrow + 2, r->tmp_shift);
    }
    const int nwin = op.pool == PTPU_POOL_NONE ? 1 : (int)(w1 * w2);
    for (uint32_t o2 = 0; o2 < c2; o2++)
        for (uint32_t o1 = 0; o1 < c1; o1++) {
            const uint32_t base = arow + o2 * st2 + o1 * st1;
            int k = 0;
            for (uint32_t j2 = 0; j2 < w2 && k < nwin; j2++)
                for (uint32_t j1 = 0; j1 < w1 && k < nwin; j1++)
                    r->tmp_rows[k++] = r->acc + (size_t)(base + j2 * ws2 + j1 * ws1) * (size_t)n;
            ptpu_vpu_row(&op, r->tmp_rows, nwin, r->tmp_bias, r->tmp_m0, r->tmp_shift,
                         r->tmp_out);
            const uint32_t o = o2 * c1 + o1;
            if (op.out == PTPU_OUT_INT8) {
                uint8_t *u = r->ub + (size_t)(urow + o) * r->ub_rb;
                memcpy(u, r->tmp_out, (size_t)n);
                memset(u + n, 0, r->ub_rb - (uint32_t)n);   /* bf16 configurations */
            } else if (op.out == PTPU_OUT_BF16) {
                memcpy(r->ub + (size_t)(urow + o) * r->ub_rb, r->tmp_out, 2 * (size_t)n);
            } else {
                memcpy(r->ub + (size_t)(urow + 2 * o) * r->ub_rb, r->tmp_out, 2 * (size_t)n);
                memcpy(r->ub + (size_t)(urow + 2 * o + 1) * r->ub_rb, r->tmp_out + 2 * n,
                       2 * (size_t)n);
            }
        }
    return (uint64_t)c1 * c2 * (uint64_t)(op.pool == PTPU_POOL_NONE ? 1 : w1 * w2);
}

/* ---- run ---------------------------------------------------------------- */

/* Timing of one dispatched instruction: it starts when its queue is free, its tokens
 * have been pushed and (compute) its in-queue dependency is met; `busy` cycles occupy
 * the queue, `done` is when it has completed. */
static int time_insn(struct ptpu_ref *r, struct run_state *s, int q, const struct tok_use *tu,
                     uint64_t busy, uint64_t latency, uint64_t dep, uint64_t *done_out)
{
    static const int wait_cnt[Q_NUM] = { PTPU_CNT_LOAD_WAIT_TOKEN, PTPU_CNT_COMPUTE_WAIT_TOKEN,
                                         PTPU_CNT_STORE_WAIT_TOKEN };
    const uint64_t ready = max64(max64(s->t_dec, s->q_free[q]), dep);
    uint64_t start = ready;
    for (int k = 0; k < TK_NUM; k++)
        if (tu->pop[k])
            start = max64(start, tf_pop(&r->tok_t[k]));
    s->res->counters[wait_cnt[q]] += start - ready;
    s->q_free[q] = start + (busy ? busy : 1);
    uint64_t done = s->q_free[q] + latency;
    for (int k = 0; k < TK_NUM; k++)
        if (tu->push[k] && tf_push(&r->tok_t[k], done))
            return -1;
    s->t_all_done = max64(s->t_all_done, done);
    *done_out = done;
    return 0;
}

int ptpu_ref_run(struct ptpu_ref *r, uint32_t prog_addr, uint32_t prog_len,
                 const struct ptpu_window *win, int nwin, struct ptpu_run_result *res)
{
    if (!r || !res || (nwin && !win) || nwin < 0 || nwin > MAX_WINDOWS)
        return REF_ERR_INVALID_ARG;
    if ((prog_addr & (PTPU_INSTR_BYTES - 1)) || prog_len == 0)
        return REF_ERR_INVALID_ARG;
    if (!in_mem(r, prog_addr, (uint64_t)prog_len * PTPU_INSTR_BYTES))
        return REF_ERR_RANGE;
    memset(res, 0, sizeof *res);
    struct run_state s = { .win = win, .nwin = nwin, .res = res };
    for (int k = 0; k < TK_NUM; k++)
        r->tok_t[k].n = r->tok_t[k].head = 0;
    for (uint32_t pc = 0;; pc++) {
        if (pc >= prog_len) {
            fault(&s, PTPU_FAULT_PROG_END, pc, 0);
            break;
        }
        uint8_t raw[PTPU_INSTR_BYTES];
        uint32_t in[PTPU_INSTR_WORDS];
        mem_get(r, prog_addr + pc * PTPU_INSTR_BYTES, raw, sizeof raw);
        for (int w = 0; w < PTPU_INSTR_WORDS; w++)
            in[w] = (uint32_t)raw[4 * w] | (uint32_t)raw[4 * w + 1] << 8 |
                    (uint32_t)raw[4 * w + 2] << 16 | (uint32_t)raw[4 * w + 3] << 24;
        struct tok_use tu;
        int f = decode(r, &s, in, &tu);
        if (f) {
            fault(&s, f, pc, 0);
            break;
        }
        s.t_dec++;
        const int op = F(in, COMMON_OP);
        uint32_t faddr = 0;
        uint64_t cyc = 0, done = 0;
        int rc = 0;
        switch (op) {
        case PTPU_OP_LOAD:
            f = exec_load(r, &s, in, &faddr, &cyc);
            if (!f) {
                res->counters[PTPU_CNT_LOAD_INSNS]++;
                rc = time_insn(r, &s, Q_LOAD, &tu, cyc, T_MEM_LATENCY, 0, &done);
            }
            break;
        case PTPU_OP_STORE:
            f = exec_store(r, &s, in, &faddr, &cyc);
            if (f < 0)
                return REF_ERR_NO_MEM;
            if (!f) {
                res->counters[PTPU_CNT_STORE_INSNS]++;
                rc = time_insn(r, &s, Q_STORE, &tu, cyc, T_MEM_LATENCY, 0, &done);
            }
            break;
        case PTPU_OP_MATMUL: {
            exec_matmul(r, &s, in);
            res->counters[PTPU_CNT_COMPUTE_INSNS]++;
            /* Results reach ACC about 2N cycles after a row enters the array. */
            rc = time_insn(r, &s, Q_COMPUTE, &tu, (uint32_t)F(in, MATMUL_ROWS),
                           2u * (uint64_t)r->n, s.act_done, &s.mm_done);
            break;
        }
        case PTPU_OP_ACTIVATE:
            cyc = exec_activate(r, in);
            res->counters[PTPU_CNT_COMPUTE_INSNS]++;
            rc = time_insn(r, &s, Q_COMPUTE, &tu, cyc, T_VPU_LATENCY, s.mm_done, &s.act_done);
            break;
        case PTPU_OP_SYNC:
        case PTPU_OP_HALT:
            s.t_dec = max64(s.t_dec, s.t_all_done);
            break;
        }
        if (rc)
            return REF_ERR_NO_MEM;
        if (f) {
            fault(&s, f, pc, faddr);
            break;
        }
        if (op == PTPU_OP_HALT) {
            res->state = PTPU_STATE_DONE;
            break;
        }
    }
    res->counters[PTPU_CNT_CYCLES] = max64(s.t_all_done, s.t_dec) + T_DMA_SETUP;
    return 0;
}

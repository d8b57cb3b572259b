/* SPDX-License-Identifier: Apache-2.0 */
/* progcheck.c - see progcheck.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu_isa.h"
#include "progcheck.h"

enum { QL, QC, QS, NQ };   /* load, compute, store */
typedef struct { int k[NQ]; } vk;   /* per queue: highest index known complete (-1 none) */

static vk vmax(vk a, vk b)
{
    for (int q = 0; q < NQ; q++)
        if (b.k[q] > a.k[q])
            a.k[q] = b.k[q];
    return a;
}

struct acc { int q, idx; };          /* last access to a row */
struct row {
    struct acc w;                    /* last write */
    int r[NQ];                       /* highest reader index per queue since that write */
};

struct buf {
    struct row *rows;
    int n;
};

static int fails;
static char *errp;
static size_t errl;

static void report(const char *what, int pc, int q, int idx, int row)
{
    if (!fails++ && errp)
        snprintf(errp, errl, "race on %s row %d: instruction %d vs queue %d's instruction %d",
                 what, row, pc, q, idx);
}

static void access(struct buf *b, const char *name, int lo, int hi, int write, int q, int idx,
                   const vk *ks, int pc)
{
    if (lo < 0)
        lo = 0;
    if (hi > b->n)
        hi = b->n;
    for (int r = lo; r < hi; r++) {
        struct row *x = &b->rows[r];
        if (x->w.idx >= 0 && x->w.q != q && ks->k[x->w.q] < x->w.idx)
            report(name, pc, x->w.q, x->w.idx, r);
        if (write) {
            for (int o = 0; o < NQ; o++)
                if (o != q && x->r[o] >= 0 && ks->k[o] < x->r[o])
                    report(name, pc, o, x->r[o], r);
            x->w = (struct acc){q, idx};
            for (int o = 0; o < NQ; o++)
                x->r[o] = -1;
        } else if (idx > x->r[q]) {
            x->r[q] = idx;
        }
    }
}

/* Device memory: coarse [lo, hi) ranges per instruction (tensors are disjoint). */
struct mrange { uint64_t lo, hi; int q, idx, write; };

static void dma_range(const uint32_t *i, uint64_t *lo, uint64_t *hi)
{
    int64_t c1n = ptpu_field_get(i, PTPU_F_DMA_COUNT1), c2n = ptpu_field_get(i, PTPU_F_DMA_COUNT2);
    int64_t s1 = ptpu_field_get(i, PTPU_F_DMA_START1), st1 = ptpu_field_get(i, PTPU_F_DMA_STEP1);
    int64_t s2 = ptpu_field_get(i, PTPU_F_DMA_START2), st2 = ptpu_field_get(i, PTPU_F_DMA_STEP2);
    int64_t b1 = ptpu_field_get(i, PTPU_F_DMA_BOUND1), b2 = ptpu_field_get(i, PTPU_F_DMA_BOUND2);
    int64_t d1 = (int32_t)i[3], d2 = (int32_t)i[4], len = ptpu_field_get(i, PTPU_F_DMA_LEN0);
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    for (int64_t a = 0; a < c2n; a++) {
        int64_t c2 = s2 + a * st2;
        if (c2 < 0 || c2 >= b2)
            continue;
        for (int64_t b = 0; b < c1n; b++) {
            int64_t c1 = s1 + b * st1;
            if (c1 < 0 || c1 >= b1)
                continue;
            int64_t ad = (int64_t)i[2] + c1 * d1 + c2 * d2;
            if (ad < mn)
                mn = ad;
            if (ad + len > mx)
                mx = ad + len;
        }
    }
    *lo = mn == INT64_MAX ? 0 : (uint64_t)mn;
    *hi = mn == INT64_MAX ? 0 : (uint64_t)mx;
}

int progcheck(const uint32_t *w, size_t n, int N, int bf16, int ub_rows, int wb_rows,
              int acc_rows, int vp_rows, char *err, size_t errlen)
{
    (void)bf16;
    fails = 0;
    errp = err;
    errl = errlen;
    if (err && errlen)
        err[0] = 0;
    struct buf ub = {calloc((size_t)ub_rows, sizeof(struct row)), ub_rows};
    struct buf wb = {calloc((size_t)wb_rows, sizeof(struct row)), wb_rows};
    struct buf vp = {calloc((size_t)vp_rows, sizeof(struct row)), vp_rows};
    struct buf ac = {calloc((size_t)acc_rows, sizeof(struct row)), acc_rows};
    struct buf *all[4] = {&ub, &wb, &vp, &ac};
    for (int b = 0; b < 4; b++)
        for (int r = 0; r < all[b]->n; r++) {
            all[b]->rows[r].w.idx = -1;
            for (int q = 0; q < NQ; q++)
                all[b]->rows[r].r[q] = -1;
        }
    /* tokens: counters 0 L->C, 1 C->L, 2 C->S, 3 S->C; the knowledge at each push */
    vk *push[4];
    int npush[4] = {0}, npop[4] = {0};
    for (int t = 0; t < 4; t++)
        push[t] = malloc(sizeof(vk) * (n + 1));
    vk none = {{-1, -1, -1}}, barrier = none, startk[NQ], donek[NQ], alldone = none;
    int qidx[NQ] = {0};
    for (int q = 0; q < NQ; q++)
        startk[q] = donek[q] = none;
    struct mrange *mem = malloc(sizeof(*mem) * (n + 1));
    int nmem = 0;
    for (size_t pc = 0; pc < n && !fails; pc++) {
        const uint32_t *i = w + 8 * pc;
        int op = (int)(i[0] & 0xf);
        if (op == PTPU_OP_SYNC || op == PTPU_OP_HALT) {
            barrier = alldone;
            nmem = 0;             /* everything before is ordered before everything after */
            continue;
        }
        int q = op == PTPU_OP_LOAD ? QL : op == PTPU_OP_STORE ? QS : QC;
        int pp = (i[0] >> 4) & 1, pn = (i[0] >> 5) & 1, up = (i[0] >> 6) & 1, un = (i[0] >> 7) & 1;
        /* counters popped: load pop_next C->L; compute pop_prev L->C, pop_next S->C;
         * store pop_prev C->S */
        int popc[2] = {-1, -1}, pushc[2] = {-1, -1};
        if (q == QL) {
            popc[0] = pn ? 1 : -1;
            pushc[0] = un ? 0 : -1;
        } else if (q == QC) {
            popc[0] = pp ? 0 : -1;
            popc[1] = pn ? 3 : -1;
            pushc[0] = up ? 1 : -1;
            pushc[1] = un ? 2 : -1;
        } else {
            popc[0] = pp ? 2 : -1;
            pushc[0] = up ? 3 : -1;
        }
        vk ks = vmax(startk[q], barrier);
        for (int k = 0; k < 2; k++)
            if (popc[k] >= 0) {
                int c = popc[k];
                if (npop[c] >= npush[c]) {
                    if (!fails++ && err)
                        snprintf(err, errlen, "instruction %zu pops counter %d with no push", pc,
                                 c);
                    break;
                }
                ks = vmax(ks, push[c][npop[c]++]);
            }
        int idx = qidx[q]++;
        /* accesses */
        if (op == PTPU_OP_LOAD || op == PTPU_OP_STORE) {
            int row = ptpu_field_get(i, PTPU_F_DMA_ROW);
            int cnt = ptpu_field_get(i, PTPU_F_DMA_COUNT1) * ptpu_field_get(i, PTPU_F_DMA_COUNT2);
            int bufn = op == PTPU_OP_STORE ? 0 : ptpu_field_get(i, PTPU_F_DMA_BUF);
            static const char *const names[] = {"UB", "WB", "VP"};
            if (bufn <= 2)
                access(all[bufn], names[bufn], row, row + cnt, op == PTPU_OP_LOAD, q, idx, &ks,
                       (int)pc);
            uint64_t lo, hi;
            dma_range(i, &lo, &hi);
            int wr = op == PTPU_OP_STORE;
            for (int m = 0; m < nmem; m++)
                if ((wr || mem[m].write) && mem[m].q != q && lo < mem[m].hi && mem[m].lo < hi &&
                    ks.k[mem[m].q] < mem[m].idx) {
                    if (!fails++ && err)
                        snprintf(err, errlen,
                                 "race on memory 0x%llx..0x%llx: instruction %zu vs queue %d's "
                                 "instruction %d",
                                 (unsigned long long)lo, (unsigned long long)hi, pc, mem[m].q,
                                 mem[m].idx);
                }
            if (hi > lo)
                mem[nmem++] = (struct mrange){lo, hi, q, idx, wr};
        } else if (op == PTPU_OP_MATMUL) {
            int urow = ptpu_field_get(i, PTPU_F_MATMUL_UROW), rows = ptpu_field_get(i, PTPU_F_MATMUL_ROWS);
            int arow = ptpu_field_get(i, PTPU_F_MATMUL_AROW);
            access(&ub, "UB", urow, urow + rows, 0, q, idx, &ks, (int)pc);
            if (ptpu_field_get(i, PTPU_F_MATMUL_NEW_W)) {
                int wrow = ptpu_field_get(i, PTPU_F_MATMUL_WROW);
                access(&wb, "WB", wrow, wrow + N, 0, q, idx, &ks, (int)pc);
            }
            access(&ac, "ACC", arow, arow + rows, 1, q, idx, &ks, (int)pc);
        } else if (op == PTPU_OP_ACTIVATE) {
            int out = ptpu_field_get(i, PTPU_F_ACTIVATE_OUT);
            int c1 = ptpu_field_get(i, PTPU_F_ACTIVATE_COUNT1), c2 = ptpu_field_get(i, PTPU_F_ACTIVATE_COUNT2);
            int vrow = ptpu_field_get(i, PTPU_F_ACTIVATE_VROW), urow = ptpu_field_get(i, PTPU_F_ACTIVATE_UROW);
            access(&vp, "VP", vrow, vrow + (out == PTPU_OUT_INT8 ? 3 : 1), 0, q, idx, &ks, (int)pc);
            int arow = ptpu_field_get(i, PTPU_F_ACTIVATE_AROW);
            int s1 = ptpu_field_get(i, PTPU_F_ACTIVATE_STEP1), s2 = ptpu_field_get(i, PTPU_F_ACTIVATE_STEP2);
            int w1 = ptpu_field_get(i, PTPU_F_ACTIVATE_WIN1), w2 = ptpu_field_get(i, PTPU_F_ACTIVATE_WIN2);
            int ws1 = ptpu_field_get(i, PTPU_F_ACTIVATE_WSTEP1), ws2 = ptpu_field_get(i, PTPU_F_ACTIVATE_WSTEP2);
            int hiacc = arow + (c2 - 1) * s2 + (c1 - 1) * s1 + (w2 - 1) * ws2 + (w1 - 1) * ws1;
            access(&ac, "ACC", arow, hiacc + 1, 0, q, idx, &ks, (int)pc);
            access(&ub, "UB", urow, urow + c1 * c2 * (out == PTPU_OUT_FP32 ? 2 : 1), 1, q, idx, &ks,
                   (int)pc);
        }
        startk[q] = ks;
        vk kd = vmax(ks, donek[q]);
        kd.k[q] = idx;
        donek[q] = kd;
        alldone = vmax(alldone, kd);
        for (int k = 0; k < 2; k++)
            if (pushc[k] >= 0)
                push[pushc[k]][npush[pushc[k]]++] = kd;
    }
    for (int b = 0; b < 4; b++)
        free(all[b]->rows);
    for (int t = 0; t < 4; t++)
        free(push[t]);
    free(mem);
    return fails ? -1 : 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progen.c - random race-free picotpu programs (see progen.h, docs/ref.md).
 *
 * A program is a sequence of jobs (tiles).  Job j uses slot j % S (S = 1 or 2)
 * of each buffer: UB input rows, WB tiles, VP rows, ACC rows and UB output
 * rows.  Its instructions:
 *   load:    VP rows, then per K tile: a WB tile (unless the weights are
 *            reused, new_w = 0) and M UB rows, with random strides, bounds,
 *            padding and out0;
 *   compute: per K tile one or two MATMULs (overwrite, then accumulate), then
 *            one or two ACTIVATEs (int8 / bf16 / fp32, pool none / max / sum,
 *            windows) into the UB output slot, sometimes a chained MATMUL over
 *            the first ACTIVATE's rows and a third ACTIVATE;
 *   store:   the output rows, one or two strided STOREs with bounds.
 * Tokens, each push popped by exactly the instruction meant:
 *   last load of j  --load->compute-->  first compute of j
 *   last compute of j --compute->store--> first store of j
 *   last compute of j --compute->load-->  first load of j+S   (slot reuse)
 *   last store of j  --store->compute-->  first compute of j+S (output slot reuse)
 * With S = 2 the loads of job j+1 may also be emitted before the compute of
 * job j (software pipelining); SYNC is sprinkled between jobs.  ACC slots
 * alternate between consecutive jobs, or (30 % of programs) every job uses
 * the same ACC rows, so a MATMUL overwrites rows the previous ACTIVATE reads
 * (ordered by the compute queue alone).
 */
#include "progen.h"

#include <stdlib.h>
#include <string.h>

#include "picotpu_isa.h"
#include "../ref/ref_prog.h"   /* tests/ref: the header-only program builder */

#define MAX_M 48

struct area { uint32_t addr, len; };

struct gen {
    uint64_t s;
    const struct progen_opts *o;
    int n, ew;
    uint32_t rb;
    uint32_t mem;
    uint32_t prog_base, prog_bytes;
    uint32_t in_base, in_len, in_top;
    uint32_t out_base, out_len, out_top;
    uint8_t *in_data, *out_data;
    int S;
    int acc_one;   /* every job uses ACC slot 0: MATMULs overwrite rows an ACTIVATE just read */
    uint32_t ub_in_rows, ub_out_rows, acc_slot_rows, wb_slot_tiles;
    int w_valid, w_bf16;
};

static uint64_t rnd(struct gen *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int rr(struct gen *g, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(rnd(g) % (uint64_t)(hi - lo + 1));
}
static int chance(struct gen *g, int pct) { return rr(g, 0, 99) < pct; }
static int imin(int a, int b) { return a < b ? a : b; }

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint16_t rand_bf16(struct gen *g)
{
    switch (rr(g, 0, 80)) {
    case 0: return 0x8000;
    case 1: return (uint16_t)(chance(g, 50) ? 0x7f80 : 0xff80);
    case 2: return (uint16_t)(0x7f81 + rr(g, 0, 0x7e));
    case 3: return (uint16_t)(rr(g, 1, 0x7f) | (rr(g, 0, 1) << 15));
    case 4: return 0;
    default:
        return (uint16_t)((rr(g, 0, 1) << 15) | (rr(g, 118, 133) << 7) | rr(g, 0, 127));
    }
}

/* ---- descriptors ------------------------------------------------------------ */

/* Offsets of the inside rows of d (addr = 0): [lo, hi) bytes, or lo = hi = 0. */
static void extent(const struct pb_dma *d, int64_t *lo, int64_t *hi)
{
    int any = 0;
    *lo = *hi = 0;
    for (uint32_t i2 = 0; i2 < d->count2; i2++)
        for (uint32_t i1 = 0; i1 < d->count1; i1++) {
            int64_t c1 = d->start1 + (int64_t)i1 * d->step1, c2 = d->start2 + (int64_t)i2 * d->step2;
            if (c1 < 0 || c1 >= d->bound1 || c2 < 0 || c2 >= d->bound2)
                continue;
            int64_t off = c1 * d->stride1 + c2 * d->stride2;
            if (!any || off < *lo)
                *lo = off;
            if (!any || off + d->len0 > *hi)
                *hi = off + d->len0;
            any = 1;
        }
}

/* A random descriptor for R buffer rows of len_el elements of es bytes (out_el >= len_el
 * elements carry data or padding), address 0 (place() relocates it). */
static void rand_desc(struct gen *g, uint32_t R, uint32_t len_el, uint32_t out_el, int es,
                      int padding, struct pb_dma *d)
{
    memset(d, 0, sizeof *d);
    uint32_t divs[64], nd = 0;
    for (uint32_t x = 1; x <= R && nd < 64; x++)
        if (R % x == 0)
            divs[nd++] = x;
    d->count2 = chance(g, 40) ? 1 : divs[rr(g, 0, (int)nd - 1)];
    d->count1 = R / d->count2;
    d->len0 = len_el * (uint32_t)es;
    d->out0 = out_el * (uint32_t)es;
    int32_t s1;
    switch (rr(g, 0, 9)) {
    case 0: s1 = -(int32_t)len_el - rr(g, 0, 3); break;
    case 1: s1 = chance(g, 50) ? 0 : rr(g, 1, (int)len_el); break;   /* repeated/overlapping */
    case 2: case 3: s1 = (int32_t)len_el + rr(g, 1, 9); break;
    default: s1 = (int32_t)len_el;
    }
    int32_t s2 = (int32_t)d->count1 * (s1 < 0 ? -s1 : s1) + rr(g, 0, 5) * (int32_t)len_el / 2;
    if (s2 == 0)
        s2 = (int32_t)len_el;
    if (chance(g, 15))
        s2 = -s2;
    d->stride1 = s1 * es;
    d->stride2 = s2 * es;
    d->step1 = d->step2 = 1;
    d->bound1 = d->count1;
    d->bound2 = d->count2;
    if (padding && chance(g, 40)) {
        d->start1 = rr(g, -2, 1);
        d->step1 = rr(g, -1, 2);
        d->bound1 = (uint32_t)rr(g, 0, (int)d->count1 + 2);
    }
    if (padding && chance(g, 30)) {
        d->start2 = rr(g, -1, 1);
        d->step2 = rr(g, 0, 2);
        d->bound2 = (uint32_t)rr(g, 0, (int)d->count2 + 1);
    }
    if (chance(g, 5)) {   /* the full field ranges */
        d->bound1 = d->count1 + (uint32_t)rr(g, 0, 4000 - (int)d->count1);
        d->start1 = d->step1 >= 0 ? 0 : (int32_t)d->count1;
    }
    if (chance(g, 3)) {   /* starts near -2048 and steps near 127: rows far outside */
        d->step1 = rr(g, 100, 127);
        d->start1 = -2048 + rr(g, 0, 200);
        d->bound1 = (uint32_t)rr(g, 1, 300);
    }
    if (chance(g, 3)) {
        d->step2 = -rr(g, 100, 128);
        d->start2 = 2047 - rr(g, 0, 200);
        d->bound2 = (uint32_t)rr(g, 1, 60);
    }
}

/* Place d's inside rows in [base, base+len): returns -1 when they do not fit. */
static int place(struct gen *g, struct pb_dma *d, uint32_t *top, uint32_t base, uint32_t len,
                 struct area *a)
{
    int64_t lo, hi;
    extent(d, &lo, &hi);
    uint32_t start = (*top + 31u) & ~31u;
    start += (uint32_t)rr(g, 0, 3) * (chance(g, 50) ? 1u : 8u);   /* unaligned rows too */
    if ((uint64_t)start + (uint64_t)(hi - lo) > (uint64_t)base + len)
        return -1;
    d->addr = start - (uint32_t)lo;
    if (hi == lo)
        d->addr = start + (uint32_t)rr(g, 0, 1000);   /* no inside row: any address */
    a->addr = start;
    a->len = (uint32_t)(hi - lo);
    *top = start + a->len;
    return 0;
}

/* Retries until the descriptor fits; the last try is a plain contiguous one. */
static int make_desc(struct gen *g, uint32_t R, uint32_t len_el, uint32_t out_el, int es,
                     int padding, int is_store, struct pb_dma *d, struct area *a)
{
    for (int t = 0; t < 6; t++) {
        if (t < 5)
            rand_desc(g, R, len_el, out_el, es, padding, d);
        else {
            memset(d, 0, sizeof *d);
            d->count1 = d->bound1 = R;
            d->count2 = d->bound2 = 1;
            d->step1 = 1;
            d->len0 = len_el * (uint32_t)es;
            d->out0 = out_el * (uint32_t)es;
            d->stride1 = (int32_t)d->len0;
        }
        int64_t lo, hi;
        extent(d, &lo, &hi);
        if (t < 5 && hi - lo > 24 * 1024)   /* keep areas small, but not the fallback */
            continue;
        int rc = is_store ? place(g, d, &g->out_top, g->out_base, g->out_len, a)
                          : place(g, d, &g->in_top, g->in_base, g->in_len, a);
        if (!rc)
            return 0;
    }
    return -1;
}

/* Fill an input area: int8 bytes, bf16 halfwords, or leave the random bytes. */
static void fill_in(struct gen *g, const struct area *a, int kind)
{
    uint8_t *p = g->in_data + (a->addr - g->in_base);
    if (kind == 2) {
        for (uint32_t i = 0; i + 1 < a->len; i += 2) {
            uint16_t h = rand_bf16(g);
            p[i] = (uint8_t)h;
            p[i + 1] = (uint8_t)(h >> 8);
        }
    } else {
        for (uint32_t i = 0; i < a->len; i++)
            p[i] = (uint8_t)rnd(g);
    }
}

/* ---- jobs ------------------------------------------------------------------- */

struct out_block { uint32_t row, rows, bytes; };

struct job {
    struct pb L, C, St;
};

static void or_first(struct pb *p, uint32_t bits) { if (p->n) p->w[0] |= bits; }
static void or_last(struct pb *p, uint32_t bits) { if (p->n) p->w[(p->n - 1) * PTPU_INSTR_WORDS] |= bits; }

/* One job into j->L, j->C, j->St; -1 when memory ran out. */
static int gen_job(struct gen *g, uint32_t jn, struct job *j, int small)
{
    const int n = g->n, slot = (int)(jn % (uint32_t)g->S), accs = g->acc_one ? 0 : (int)(jn % 2);
    const int bf = g->o->bf16 && chance(g, 35);
    const int es = bf ? 2 : 1;
    int kt = small ? 1 : rr(g, 1, imin(3, (int)g->wb_slot_tiles));
    int maxm = imin(chance(g, 4) && !small ? 1000 : MAX_M,   /* sometimes long MATMULs */
                    imin((int)(g->ub_in_rows / (uint32_t)kt), (int)g->acc_slot_rows));
    int M = chance(g, 20) ? rr(g, 1, 3) : rr(g, 1, maxm);
    const uint32_t ub_in = (uint32_t)slot * g->ub_in_rows;
    const uint32_t ub_out = (uint32_t)(2 * g->ub_in_rows) + (uint32_t)slot * g->ub_out_rows;
    const uint32_t acc0 = (uint32_t)accs * g->acc_slot_rows;
    const uint32_t wb0 = (uint32_t)slot * g->wb_slot_tiles * (uint32_t)n;
    const uint32_t vp0 = (uint32_t)slot * 6u;
    struct area a;
    struct pb_dma d;

    /* ACTIVATE plan: types decide the VP rows. */
    int nact = small ? 1 : rr(g, 1, 2), outt[2], vrow[2];
    uint32_t nvp = 0;
    for (int i = 0; i < nact; i++) {
        outt[i] = bf ? (chance(g, 50) ? PTPU_OUT_BF16 : PTPU_OUT_FP32) : PTPU_OUT_INT8;
        vrow[i] = (int)nvp;
        nvp += outt[i] == PTPU_OUT_INT8 ? 3u : 1u;
    }
    /* VP load: contiguous or strided rows, sometimes a short len0 with pad lanes. */
    {
        uint32_t len = chance(g, 80) ? (uint32_t)n : (uint32_t)rr(g, 1, n);
        memset(&d, 0, sizeof d);
        d.buf = PTPU_BUF_VP;
        d.row = vp0;
        d.count1 = d.bound1 = nvp;
        d.count2 = d.bound2 = 1;
        d.step1 = 1;
        d.len0 = 4 * len - (chance(g, 10) ? (uint32_t)rr(g, 0, 3) : 0);
        d.out0 = 4u * (uint32_t)n;
        d.pad = (uint32_t)rr(g, 0, 255);
        d.stride1 = (int32_t)(4 * len + (chance(g, 30) ? 4u * (uint32_t)rr(g, 1, 4) : 0));
        if (place(g, &d, &g->in_top, g->in_base, g->in_len, &a))
            return -1;
        const uint32_t off = a.addr - g->in_base;
        for (int i = 0; i < nact; i++) {
            for (uint32_t c = 0; c < len; c++) {
                uint32_t row = off + (uint32_t)(vrow[i]) * (uint32_t)d.stride1 + 4 * c;
                uint32_t v[3];
                int nv = 1;
                if (outt[i] == PTPU_OUT_INT8) {
                    v[0] = chance(g, 5) ? (uint32_t)rnd(g) : (uint32_t)rr(g, -30000, 30000);
                    v[1] = chance(g, 5) ? (uint32_t)rnd(g) : (uint32_t)rr(g, 1 << 30, 0x7fffffff);
                    v[2] = chance(g, 5) ? (uint32_t)rnd(g) : (uint32_t)rr(g, -14, 1);
                    nv = 3;
                } else {
                    v[0] = (uint32_t)rand_bf16(g) << 16 | (uint32_t)rr(g, 0, 0xffff);
                }
                for (int k = 0; k < nv; k++) {
                    uint32_t at = row + (uint32_t)k * (uint32_t)d.stride1;
                    if (at + 4 <= g->in_len)
                        wr32(g->in_data + at, v[k]);
                }
            }
        }
        pb_load(&j->L, &d, 0);
    }

    /* K tiles: weights and inputs, then MATMULs. */
    int zp = bf ? 0 : rr(g, -128, 127);
    for (int t = 0; t < kt; t++) {
        int reuse = g->w_valid && g->w_bf16 == bf && chance(g, 20);
        uint32_t wrow = wb0 + (uint32_t)t * (uint32_t)n;
        if (!reuse) {
            uint32_t len_el = chance(g, 70) ? (uint32_t)n : (uint32_t)rr(g, 1, n);
            if (make_desc(g, (uint32_t)n, len_el, (uint32_t)rr(g, (int)len_el, n), es, 1, 0, &d, &a))
                return -1;
            d.buf = PTPU_BUF_WB;
            d.row = wrow;
            d.pad = bf ? (uint32_t)(chance(g, 50) ? 0 : rr(g, 0, 255)) : (uint32_t)rr(g, 0, 255);
            fill_in(g, &a, bf ? 2 : 1);
            pb_load(&j->L, &d, 0);
        }
        uint32_t urow = ub_in + (uint32_t)t * (uint32_t)M;
        {
            uint32_t len_el = chance(g, 60) ? (uint32_t)n : (uint32_t)rr(g, 1, n);
            /* int8 rows are read in bytes [0, N): out0 covers them; bf16 rows in full */
            uint32_t out_el = (uint32_t)rr(g, (int)len_el, n);
            if (!bf && g->ew == 2 && chance(g, 30))
                out_el = (uint32_t)rr(g, n, 2 * n);   /* out0 past N in a bf16 configuration */
            if (!bf && out_el < (uint32_t)n && chance(g, 50))
                out_el = (uint32_t)n;
            if (make_desc(g, (uint32_t)M, len_el, out_el, es, 1, 0, &d, &a))
                return -1;
            d.buf = PTPU_BUF_UB;
            d.row = urow;
            d.pad = bf ? 0 : (uint32_t)(chance(g, 60) ? (uint32_t)zp & 0xff : (uint32_t)rr(g, 0, 255));
            fill_in(g, &a, bf ? 2 : 1);
            pb_load(&j->L, &d, 0);
        }
        int m1 = M > 1 && !small && chance(g, 25) ? rr(g, 1, M - 1) : M;
        pb_matmul(&j->C, bf, t > 0, !reuse, zp, urow, (uint32_t)m1, acc0, reuse ? (uint32_t)rr(g, 0, 65535) : wrow, 0);
        if (m1 < M)
            pb_matmul(&j->C, bf, t > 0, 0, zp, urow + (uint32_t)m1, (uint32_t)(M - m1),
                      acc0 + (uint32_t)m1, (uint32_t)rr(g, 0, 65535), 0);
        if (!reuse) {
            g->w_valid = 1;
            g->w_bf16 = bf;
        }
    }

    /* ACTIVATEs over ACC rows [acc0, acc0+M) into the output slot. */
    struct out_block blk[3];
    uint32_t out_used = 0;
    for (int i = 0; i < nact; i++) {
        struct pb_act ac;
        const int per = outt[i] == PTPU_OUT_FP32 ? 2 : 1;
        uint32_t room = (g->ub_out_rows - out_used) / (uint32_t)per;
        if (room == 0) {   /* the output slot is full: no second ACTIVATE */
            nact = i;
            break;
        }
        int ok = 0;
        for (int t = 0; t < 30 && !ok; t++) {
            memset(&ac, 0, sizeof ac);
            ac.pool = rr(g, 0, 2);
            if (ac.pool == PTPU_POOL_NONE) {
                ac.win1 = ac.win2 = 1;
                ac.count1 = (uint32_t)rr(g, 1, M);
                ac.count2 = (uint32_t)rr(g, 1, imin(4, M));
                ac.step1 = (uint32_t)rr(g, 0, 2);
                ac.step2 = (uint32_t)rr(g, 0, M);
                ac.wstep1 = (uint32_t)rr(g, 0, 65535);
                ac.wstep2 = (uint32_t)rr(g, 0, 65535);
            } else {
                int big = chance(g, 10);
                ac.win1 = (uint32_t)rr(g, 1, big ? 15 : 4);
                ac.win2 = (uint32_t)rr(g, 1, big ? 15 : 3);
                ac.wstep1 = (uint32_t)rr(g, 0, 2);
                ac.wstep2 = (uint32_t)rr(g, 0, 8);
                ac.count1 = (uint32_t)rr(g, 1, 8);
                ac.count2 = (uint32_t)rr(g, 1, 4);
                ac.step1 = (uint32_t)rr(g, 0, 3);
                ac.step2 = (uint32_t)rr(g, 0, 10);
            }
            uint64_t top = (uint64_t)(ac.count2 - 1) * ac.step2 + (uint64_t)(ac.count1 - 1) * ac.step1 +
                           (uint64_t)(ac.win2 - 1) * ac.wstep2 + (uint64_t)(ac.win1 - 1) * ac.wstep1;
            ok = top < (uint64_t)M && ac.count1 * ac.count2 <= room;
            if (ok && ac.count1 == 1 && chance(g, 30))   /* unused steps: any value */
                ac.step1 = (uint32_t)rr(g, 0, 65535);
            if (ok && ac.count2 == 1 && chance(g, 30))
                ac.step2 = (uint32_t)rr(g, 0, 65535);
        }
        if (!ok) {
            memset(&ac, 0, sizeof ac);
            ac.count1 = ac.count2 = ac.win1 = ac.win2 = 1;
        }
        ac.out = outt[i];
        ac.arow = acc0;
        ac.urow = ub_out + out_used;
        ac.vrow = vp0 + (uint32_t)vrow[i];
        if (ac.out == PTPU_OUT_INT8) {
            ac.zp_out = rr(g, -128, 127);
            switch (rr(g, 0, 2)) {
            case 0: ac.clamp_lo = -128; ac.clamp_hi = 127; break;
            case 1: ac.clamp_lo = ac.zp_out; ac.clamp_hi = rr(g, ac.zp_out, 127); break;
            default: ac.clamp_lo = rr(g, -128, 127); ac.clamp_hi = rr(g, ac.clamp_lo, 127);
            }
        } else {
            ac.relu = rr(g, 0, 1);
            ac.relu6 = rr(g, 0, 1);
            ac.zp_out = rr(g, -128, 127);        /* unused by fp outputs */
            ac.clamp_lo = rr(g, -128, 127);
            ac.clamp_hi = rr(g, -128, 127);
        }
        pb_activate(&j->C, &ac, 0);
        blk[i].row = ac.urow;
        blk[i].rows = ac.count1 * ac.count2 * (uint32_t)per;
        blk[i].bytes = ac.out == PTPU_OUT_INT8 ? (uint32_t)n : 2u * (uint32_t)n;
        out_used += blk[i].rows;
    }

    /* Chained layer, inside the compute queue without tokens: a MATMUL reads the int8
     * rows the first ACTIVATE just wrote (current weights, new_w = 0) into unused ACC
     * rows of the slot, and a third ACTIVATE requantizes them. */
    if (!bf && !small && outt[0] == PTPU_OUT_INT8 && chance(g, 30) &&
        blk[0].rows <= g->acc_slot_rows - (uint32_t)M &&
        blk[0].rows <= g->ub_out_rows - out_used) {
        const uint32_t R = blk[0].rows, arow = acc0 + (uint32_t)M;
        pb_matmul(&j->C, 0, 0, 0, rr(g, -128, 127), blk[0].row, R, arow,
                  (uint32_t)rr(g, 0, 65535), 0);
        struct pb_act ac = { .out = PTPU_OUT_INT8, .zp_out = rr(g, -128, 127), .clamp_lo = -128,
                             .clamp_hi = 127, .arow = arow, .urow = ub_out + out_used,
                             .vrow = vp0 + (uint32_t)vrow[0], .count1 = R, .count2 = 1,
                             .win1 = 1, .win2 = 1, .step1 = 1 };
        pb_activate(&j->C, &ac, 0);
        blk[nact].row = ac.urow;
        blk[nact].rows = R;
        blk[nact].bytes = (uint32_t)n;
        out_used += R;
        nact++;
    }

    /* STOREs: each block, whole or in two parts, sometimes a subset of its rows. */
    for (int i = 0; i < nact; i++) {
        uint32_t r0 = blk[i].row, rows = blk[i].rows;
        if (chance(g, 15) && rows > 1) {
            uint32_t skip = (uint32_t)rr(g, 1, (int)rows - 1);
            r0 += chance(g, 50) ? skip : 0;
            rows -= skip;
        }
        uint32_t parts = rows > 1 && !small && chance(g, 25) ? 2 : 1;
        uint32_t first = parts == 2 ? (uint32_t)rr(g, 1, (int)rows - 1) : rows;
        for (uint32_t pi = 0; pi < parts; pi++) {
            uint32_t rr_rows = pi == 0 ? first : rows - first;
            uint32_t len = chance(g, 60) ? blk[i].bytes : (uint32_t)rr(g, 1, (int)blk[i].bytes);
            if (make_desc(g, rr_rows, len, len, 1, 1, 1, &d, &a))
                return -1;
            d.buf = PTPU_BUF_UB;
            d.row = pi == 0 ? r0 : r0 + first;
            d.pad = 0;
            pb_store(&j->St, &d, 0);
        }
    }
    return 0;
}

/* ---- decode-time state, for fault injection ----------------------------------- */

enum { TK_LC, TK_CL, TK_CS, TK_SC };

static void tok_use(const uint32_t *in, int pop[4], int push[4])
{
    int op = ptpu_field_get(in, PTPU_F_COMMON_OP);
    int pp = ptpu_field_get(in, PTPU_F_COMMON_POP_PREV), pn = ptpu_field_get(in, PTPU_F_COMMON_POP_NEXT);
    int up = ptpu_field_get(in, PTPU_F_COMMON_PUSH_PREV), un = ptpu_field_get(in, PTPU_F_COMMON_PUSH_NEXT);
    memset(pop, 0, 4 * sizeof *pop);
    memset(push, 0, 4 * sizeof *push);
    if (op == PTPU_OP_LOAD) {
        pop[TK_CL] = pn;
        push[TK_LC] = un;
    } else if (op == PTPU_OP_STORE) {
        pop[TK_CS] = pp;
        push[TK_SC] = up;
    } else if (op == PTPU_OP_MATMUL || op == PTPU_OP_ACTIVATE) {
        pop[TK_LC] = pp;
        pop[TK_SC] = pn;
        push[TK_CL] = up;
        push[TK_CS] = un;
    }
}

static int inject(struct gen *g, struct progen *p, struct pb *pr, int kind)
{
    const uint32_t ninsn = pr->n;
    uint32_t (*tok)[4] = malloc(sizeof *tok * ninsn);
    if (!tok)
        return -1;
    uint32_t cnt[4] = { 0 };
    for (uint32_t pc = 0; pc < ninsn; pc++) {
        int pop[4], push[4];
        memcpy(tok[pc], cnt, sizeof cnt);
        tok_use(pr->w + pc * PTPU_INSTR_WORDS, pop, push);
        for (int k = 0; k < 4; k++)
            cnt[k] += (uint32_t)push[k] - (uint32_t)pop[k];
    }
    int rc = -1;
    for (int attempt = 0; attempt < 50 && rc; attempt++) {
        uint32_t pc = (uint32_t)rr(g, 0, (int)ninsn - 1);
        uint32_t *in = pr->w + pc * PTPU_INSTR_WORDS;
        int op = ptpu_field_get(in, PTPU_F_COMMON_OP);
        p->expect_pc = pc;
        p->expect_addr = 0;
        switch (kind) {
        case PTPU_FAULT_BAD_OPCODE: {
            static const int bad[] = { 0, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
            ptpu_field_set(in, PTPU_F_COMMON_OP, bad[rr(g, 0, 9)]);
            rc = 0;
            break;
        }
        case PTPU_FAULT_BAD_FIELD:
            if (op == PTPU_OP_LOAD) {
                switch (rr(g, 0, 6)) {
                case 0: PB_SET(in, DMA_BUF, 3); break;
                case 1: PB_SET(in, DMA_LEN0, 0); break;
                case 2: PB_SET(in, DMA_OUT0, ptpu_field_get(in, PTPU_F_DMA_LEN0) - 1); break;
                case 3: PB_SET(in, DMA_COUNT1, 0); break;
                case 4: PB_SET(in, DMA_COUNT2, 0); break;
                case 5: in[0] |= PB_PUSH_PREV; break;
                default: in[0] |= PB_POP_PREV; break;
                }
            } else if (op == PTPU_OP_STORE) {
                switch (rr(g, 0, 5)) {
                case 0: PB_SET(in, DMA_BUF, rr(g, 1, 3)); break;
                case 1: PB_SET(in, DMA_PAD, rr(g, 1, 255)); break;
                case 2: PB_SET(in, DMA_OUT0, ptpu_field_get(in, PTPU_F_DMA_LEN0) + 1); break;
                case 3: PB_SET(in, DMA_COUNT1, 0); break;
                case 4: in[0] |= PB_PUSH_NEXT; break;
                default: in[0] |= PB_POP_NEXT; break;
                }
            } else if (op == PTPU_OP_MATMUL) {
                if (g->o->bf16 && !ptpu_field_get(in, PTPU_F_MATMUL_BF16) && chance(g, 50)) {
                    PB_SET(in, MATMUL_BF16, 1);
                    PB_SET(in, MATMUL_ZP, rr(g, 1, 127));
                    PB_SET(in, MATMUL_NEW_W, 1);
                    PB_SET(in, MATMUL_WROW, 0);
                } else if (!g->o->bf16 && chance(g, 50)) {
                    PB_SET(in, MATMUL_BF16, 1);
                } else {
                    PB_SET(in, MATMUL_ROWS, 0);
                }
            } else if (op == PTPU_OP_ACTIVATE) {
                int out = ptpu_field_get(in, PTPU_F_ACTIVATE_OUT);
                switch (rr(g, 0, 4)) {
                case 0: PB_SET(in, ACTIVATE_OUT, 3); PB_SET(in, ACTIVATE_RELU, 0); PB_SET(in, ACTIVATE_RELU6, 0); break;
                case 1: PB_SET(in, ACTIVATE_POOL, 3); break;
                case 2:
                    if (out != PTPU_OUT_INT8)
                        continue;
                    PB_SET(in, ACTIVATE_RELU, 1);
                    break;
                case 3:
                    PB_SET(in, ACTIVATE_POOL, PTPU_POOL_NONE);
                    PB_SET(in, ACTIVATE_WIN1, 1);
                    PB_SET(in, ACTIVATE_WIN2, 2);
                    PB_SET(in, ACTIVATE_WSTEP2, 0);
                    break;
                default:
                    if (out != PTPU_OUT_INT8)
                        continue;
                    PB_SET(in, ACTIVATE_CLAMP_LO, 1);
                    PB_SET(in, ACTIVATE_CLAMP_HI, 0);
                }
            } else {
                continue;
            }
            rc = 0;
            break;
        case PTPU_FAULT_BUF_RANGE:
            if (op == PTPU_OP_LOAD || op == PTPU_OP_STORE) {
                int buf = ptpu_field_get(in, PTPU_F_DMA_BUF);
                int rows = buf == PTPU_BUF_UB ? g->o->ub_rows : buf == PTPU_BUF_WB ? g->o->wb_rows : g->o->vp_rows;
                int64_t cnt12 = (int64_t)ptpu_field_get(in, PTPU_F_DMA_COUNT1) * ptpu_field_get(in, PTPU_F_DMA_COUNT2);
                int64_t row = rows - cnt12 + rr(g, 1, 3);
                if (row < 0 || row > 65535)
                    continue;
                PB_SET(in, DMA_ROW, row);
            } else if (op == PTPU_OP_MATMUL) {
                int rows = ptpu_field_get(in, PTPU_F_MATMUL_ROWS);
                switch (rr(g, 0, 2)) {
                case 0: PB_SET(in, MATMUL_AROW, g->o->acc_rows - rows + 1); break;
                case 1: PB_SET(in, MATMUL_UROW, g->o->ub_rows - rows + 1); break;
                default:
                    if (!ptpu_field_get(in, PTPU_F_MATMUL_NEW_W))
                        continue;
                    PB_SET(in, MATMUL_WROW, g->o->wb_rows - g->n + 1);
                }
            } else if (op == PTPU_OP_ACTIVATE) {
                int out = ptpu_field_get(in, PTPU_F_ACTIVATE_OUT);
                if (chance(g, 50))
                    PB_SET(in, ACTIVATE_VROW, g->o->vp_rows - (out == PTPU_OUT_INT8 ? 3 : 1) + 1);
                else
                    PB_SET(in, ACTIVATE_AROW, g->o->acc_rows - 1);   /* +0 rows: == ACC_ROWS - 1 ok? */
                if (ptpu_field_get(in, PTPU_F_ACTIVATE_AROW) == g->o->acc_rows - 1) {
                    /* make the window reach past the end */
                    PB_SET(in, ACTIVATE_WIN1, 2);
                    PB_SET(in, ACTIVATE_WSTEP1, 1);
                    if (ptpu_field_get(in, PTPU_F_ACTIVATE_POOL) == PTPU_POOL_NONE)
                        PB_SET(in, ACTIVATE_POOL, PTPU_POOL_MAX);
                }
            } else {
                continue;
            }
            rc = 0;
            break;
        case PTPU_FAULT_TOKEN: {
            int pop[4], push[4];
            tok_use(in, pop, push);
            if (op == PTPU_OP_LOAD && !pop[TK_CL] && tok[pc][TK_CL] == 0)
                in[0] |= PB_POP_NEXT;
            else if (op == PTPU_OP_STORE && !pop[TK_CS] && tok[pc][TK_CS] == 0)
                in[0] |= PB_POP_PREV;
            else if ((op == PTPU_OP_MATMUL || op == PTPU_OP_ACTIVATE) && !pop[TK_LC] && tok[pc][TK_LC] == 0)
                in[0] |= PB_POP_PREV;
            else if ((op == PTPU_OP_MATMUL || op == PTPU_OP_ACTIVATE) && !pop[TK_SC] && tok[pc][TK_SC] == 0)
                in[0] |= PB_POP_NEXT;
            else
                continue;
            rc = 0;
            break;
        }
        case PTPU_FAULT_NO_WEIGHTS: {
            uint32_t q = 0;
            while (q < ninsn && ptpu_field_get(pr->w + q * PTPU_INSTR_WORDS, PTPU_F_COMMON_OP) != PTPU_OP_MATMUL)
                q++;
            if (q == ninsn)
                break;
            PB_SET(pr->w + q * PTPU_INSTR_WORDS, MATMUL_NEW_W, 0);
            p->expect_pc = q;
            rc = 0;
            break;
        }
        case PTPU_FAULT_PROG_END:
            p->prog_len = (uint32_t)rr(g, 1, (int)ninsn - 1);
            p->expect_pc = p->prog_len;
            rc = 0;
            break;
        case PTPU_FAULT_PROT_READ:
        case PTPU_FAULT_PROT_WRITE:
        case PTPU_FAULT_BUS_ERROR: {
            int want_op = kind == PTPU_FAULT_PROT_WRITE ? PTPU_OP_STORE : PTPU_OP_LOAD;
            if (op != want_op)
                continue;
            struct ptpu_dma_desc dd;
            ptpu_dmafn_from_insn(in, &dd);
            struct pb_dma pd = { .count1 = dd.count1, .count2 = dd.count2, .bound1 = dd.bound1,
                                 .bound2 = dd.bound2, .start1 = dd.start1, .start2 = dd.start2,
                                 .step1 = dd.step1, .step2 = dd.step2, .stride1 = dd.stride1,
                                 .stride2 = dd.stride2, .len0 = dd.len0 };
            int64_t lo, hi;
            extent(&pd, &lo, &hi);
            if (hi == lo)
                continue;   /* no inside row */
            uint32_t target;
            if (kind == PTPU_FAULT_BUS_ERROR)
                target = g->mem + 32u * (uint32_t)rr(g, 0, 64) + (uint32_t)rr(g, 0, 31);
            else if (kind == PTPU_FAULT_PROT_READ)
                target = g->out_base + (uint32_t)rr(g, 0, 256);   /* write-only window */
            else
                target = g->in_base + (uint32_t)rr(g, 0, 256);    /* read-only window */
            uint32_t addr = target - (uint32_t)lo;
            PB_SET(in, DMA_ADDR, addr);
            ptpu_dmafn_from_insn(in, &dd);
            /* the expected result, row by row, as the DMA checks it */
            struct ptpu_dma_iter it;
            struct ptpu_dma_row row;
            ptpu_dmafn_iter_init(&it, &dd);
            int got = 0;
            while (!got && ptpu_dmafn_iter_next(&it, &row)) {
                if (!row.inside)
                    continue;
                uint32_t perm = kind == PTPU_FAULT_PROT_WRITE ? PTPU_PERM_WRITE : PTPU_PERM_READ;
                if (!ptpu_dmafn_allowed(p->win, p->nwin, row.addr, dd.len0, perm)) {
                    got = kind == PTPU_FAULT_BUS_ERROR ? -1 : 1;
                    p->expect_addr = row.addr;
                } else if ((uint64_t)row.addr + dd.len0 > g->mem) {
                    got = kind == PTPU_FAULT_BUS_ERROR ? 1 : -1;
                    uint32_t b = row.addr & ~31u;
                    p->expect_addr = b > g->mem ? b : g->mem;
                }
            }
            if (got != 1)
                attempt = 1000;   /* no clean fault here: the caller reseeds */
            else
                rc = 0;
            break;
        }
        default:
            break;
        }
        if (kind == PTPU_FAULT_NO_WEIGHTS || kind == PTPU_FAULT_PROG_END)
            break;
    }
    free(tok);
    return rc;
}

/* ---- top level ---------------------------------------------------------------- */

static void append(struct pb *dst, const struct pb *src)
{
    for (uint32_t i = 0; i < src->n; i++) {
        uint32_t *in = pb_new(dst, PTPU_OP_SYNC);
        memcpy(in, src->w + i * PTPU_INSTR_WORDS, PTPU_INSTR_BYTES);
    }
}

void progen_free(struct progen *p)
{
    if (!p)
        return;
    free(p->prog);
    for (int i = 0; i < p->ninit; i++)
        free(p->init_data[i]);
    free(p->init_data);
    free(p->init);
    free(p->out);
    memset(p, 0, sizeof *p);
}

static int make_once(uint64_t seed, const struct progen_opts *o, struct progen *p)
{
    struct gen g = { .s = seed * 0x2545f4914f6cdd1dull + 1, .o = o, .n = o->n, .ew = o->bf16 ? 2 : 1 };
    memset(p, 0, sizeof *p);
    g.rb = (uint32_t)(g.n * g.ew);
    g.mem = o->mem_kb * 1024u;
    g.S = chance(&g, 25) ? 1 : 2;
    g.acc_one = chance(&g, 30);
    g.ub_in_rows = (uint32_t)o->ub_rows / 4;
    g.ub_out_rows = (uint32_t)o->ub_rows / 4;
    g.acc_slot_rows = (uint32_t)o->acc_rows / 2;
    g.wb_slot_tiles = (uint32_t)(o->wb_rows / 2 / o->n);
    g.prog_bytes = (uint32_t)o->max_insns * PTPU_INSTR_BYTES;
    g.in_len = g.mem / 4 < 256 * 1024 ? (g.mem / 4) & ~63u : 256 * 1024;
    g.out_len = g.mem / 8 < 96 * 1024 ? (g.mem / 8) & ~63u : 96 * 1024;
    uint32_t total = g.prog_bytes + g.in_len + g.out_len + 3 * 256;
    if (total + 4096 > g.mem)
        return -1;
    uint32_t base = ((uint32_t)rr(&g, 0, (int)((g.mem - total - 4096) / 64))) * 64u;
    g.prog_base = base;
    g.in_base = (g.prog_base + g.prog_bytes + 256) & ~63u;
    g.out_base = (g.in_base + g.in_len + 256) & ~63u;
    g.in_top = g.in_base;
    g.out_top = g.out_base;
    g.in_data = malloc(g.in_len);
    g.out_data = malloc(g.out_len);
    if (!g.in_data || !g.out_data) {
        free(g.in_data);
        free(g.out_data);
        return -1;
    }
    for (uint32_t i = 0; i < g.in_len; i++)
        g.in_data[i] = (uint8_t)rnd(&g);
    for (uint32_t i = 0; i < g.out_len; i++)
        g.out_data[i] = (uint8_t)rnd(&g);

    /* windows: program (read), inputs (read, sometimes read-write), outputs (write,
     * sometimes read-write), and sometimes a fourth one with no permission or over a gap */
    p->nwin = 3;
    p->win[0] = (struct ptpu_window){ g.prog_base, g.prog_base + g.prog_bytes, 1 };
    p->win[1] = (struct ptpu_window){ g.in_base, g.in_base + g.in_len, chance(&g, 20) ? 3u : 1u };
    p->win[2] = (struct ptpu_window){ g.out_base, g.out_base + g.out_len, chance(&g, 20) ? 3u : 2u };
    if (o->fault_kind == PTPU_FAULT_PROT_READ)
        p->win[2].perm = 2;
    if (o->fault_kind == PTPU_FAULT_PROT_WRITE)
        p->win[1].perm = 1;
    if (o->fault_kind == PTPU_FAULT_BUS_ERROR) {
        p->win[3] = (struct ptpu_window){ g.mem, 0xffff0000u, 3 };
        p->nwin = 4;
    } else if (chance(&g, 40)) {
        p->win[3] = (struct ptpu_window){ g.out_base + g.out_len + 64, g.out_base + g.out_len + 128,
                                          (uint32_t)rr(&g, 0, 3) };
        p->nwin = 4;
    }

    /* jobs */
    struct pb prog = { 0 };
    struct job jobs[2];
    memset(jobs, 0, sizeof jobs);
    int prefetch = g.S == 2 && chance(&g, 60);
    const uint32_t budget = (uint32_t)o->max_insns - 1;
    uint32_t jn = 0;
    int pending = 0;   /* prefetch: job jn-1's loads are emitted, its compute/store not */
    for (;;) {
        struct job *cur = &jobs[jn % 2];
        pb_free(&cur->L);
        pb_free(&cur->C);
        pb_free(&cur->St);
        int w_valid = g.w_valid, w_bf16 = g.w_bf16;
        uint32_t in_top = g.in_top, out_top = g.out_top;
        int ok = gen_job(&g, jn, cur, 0) == 0;
        uint32_t need = cur->L.n + cur->C.n + cur->St.n + 2;
        if (pending)
            need += jobs[(jn - 1) % 2].C.n + jobs[(jn - 1) % 2].St.n;
        if (jn == 0 && (!ok || prog.n + need > budget)) {
            /* short programs: one small job (one tile, one ACTIVATE, one STORE) */
            pb_free(&cur->L);
            pb_free(&cur->C);
            pb_free(&cur->St);
            g.w_valid = w_valid;
            g.w_bf16 = w_bf16;
            g.in_top = in_top;
            g.out_top = out_top;
            ok = gen_job(&g, jn, cur, 1) == 0;
            need = cur->L.n + cur->C.n + cur->St.n + 1;
        }
        if (!ok || prog.n + need > budget || (jn > 0 && chance(&g, 3))) {
            g.w_valid = w_valid;
            g.w_bf16 = w_bf16;
            g.in_top = in_top;
            g.out_top = out_top;
            break;
        }
        /* tokens */
        if (jn >= (uint32_t)g.S)
            or_first(&cur->L, PB_POP_NEXT);
        or_last(&cur->L, PB_PUSH_NEXT);
        or_first(&cur->C, PB_POP_PREV | (jn >= (uint32_t)g.S ? PB_POP_NEXT : 0));
        or_last(&cur->C, PB_PUSH_NEXT | PB_PUSH_PREV);
        or_first(&cur->St, PB_POP_PREV);
        or_last(&cur->St, PB_PUSH_PREV);
        if (prefetch) {
            append(&prog, &cur->L);
            if (pending) {
                append(&prog, &jobs[(jn - 1) % 2].C);
                append(&prog, &jobs[(jn - 1) % 2].St);
            }
            pending = 1;
        } else {
            append(&prog, &cur->L);
            append(&prog, &cur->C);
            append(&prog, &cur->St);
        }
        if (chance(&g, 8))
            pb_sync(&prog);
        jn++;
    }
    if (pending) {
        append(&prog, &jobs[(jn - 1) % 2].C);
        append(&prog, &jobs[(jn - 1) % 2].St);
    }
    for (int i = 0; i < 2; i++) {
        pb_free(&jobs[i].L);
        pb_free(&jobs[i].C);
        pb_free(&jobs[i].St);
    }
    pb_halt(&prog);
    p->njobs = jn;
    p->prog_addr = g.prog_base;
    p->prog_len = prog.n;
    p->expect_fault = PTPU_FAULT_NONE;

    int rc = 0;
    if (jn == 0)
        rc = -1;
    if (!rc && o->fault_kind) {
        p->expect_fault = o->fault_kind;
        rc = inject(&g, p, &prog, o->fault_kind);
    }
    if (!rc) {
        p->prog = pb_bytes(&prog);
        p->ninit = 2;
        p->init = malloc(2 * sizeof *p->init);
        p->init_data = malloc(2 * sizeof *p->init_data);
        p->out = malloc(sizeof *p->out);
        if (!p->prog || !p->init || !p->init_data || !p->out)
            rc = -1;
    }
    if (!rc) {
        p->init[0] = (struct progen_region){ g.in_base, g.in_len };
        p->init_data[0] = g.in_data;
        p->init[1] = (struct progen_region){ g.out_base, g.out_len };
        p->init_data[1] = g.out_data;
        p->out[0] = p->init[1];
        p->nout = 1;
    } else {
        free(g.in_data);
        free(g.out_data);
        p->ninit = 0;
    }
    pb_free(&prog);
    return rc;
}

int progen_make(uint64_t seed, const struct progen_opts *o, struct progen *p)
{
    if (!o || !p || o->n < 2 || o->max_insns < 8 || o->ub_rows < 16 || o->acc_rows < 4 ||
        o->vp_rows < 12 || o->wb_rows < 2 * o->n ||
        (uint64_t)o->max_insns * PTPU_INSTR_BYTES > (uint64_t)o->mem_kb * 1024u / 2)
        return -1;
    switch (o->fault_kind) {
    case PTPU_FAULT_NONE: case PTPU_FAULT_BAD_OPCODE: case PTPU_FAULT_BAD_FIELD:
    case PTPU_FAULT_BUF_RANGE: case PTPU_FAULT_PROT_READ: case PTPU_FAULT_PROT_WRITE:
    case PTPU_FAULT_BUS_ERROR: case PTPU_FAULT_PROG_END: case PTPU_FAULT_NO_WEIGHTS:
    case PTPU_FAULT_TOKEN:
        break;
    default:
        return -1;
    }
    /* An injection can miss (no suitable instruction in a short program): derive a new
     * generator seed, deterministically. */
    for (uint64_t k = 0; k < 64; k++) {
        if (make_once(seed + k * 0x9e3779b97f4a7c15ull, o, p) == 0)
            return 0;
        progen_free(p);
    }
    return -1;
}

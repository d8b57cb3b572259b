/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tb_ref.c - the `ref` model against naive C kernels, bit for bit.
 *
 * Random int8 GEMMs (TFLite requantization), bf16 GEMMs (fp32 and bf16
 * outputs), int8 conv2d by the convolution recipe of docs/isa.md, and max/avg
 * pooling are compiled into programs by a small builder (ref_prog.h), run on
 * ref, and compared with direct C loops over the whole tensors.  Then one
 * directed test per fault code (code, pc, address and the memory image), and
 * the dmafn descriptor functions against direct formulas.
 *
 *   tb_ref [--seed N] [--iters N]     (prints one PASS/FAIL line per test)
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptpu_arith.h"
#include "ptpu_dmafn.h"
#include "ptpu_ref.h"
#include "ref_prog.h"
#include "dma_model.h"

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_s;
static uint64_t rnd(void)
{
    uint64_t z = (rng_s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int rr(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static int failures;
static char fail_msg[512];
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fail_msg, sizeof fail_msg, fmt, ap);
    va_end(ap);
    return 1;
}

/* Device memory bump allocator. */
struct arena { uint32_t top, limit; };
static uint32_t alloc(struct arena *a, uint32_t bytes)
{
    uint32_t p = (a->top + 63u) & ~63u;
    a->top = p + bytes;
    if (a->top > a->limit) {
        fprintf(stderr, "arena overflow\n");
        abort();
    }
    return p;
}

/* Token-correct kernel programs: each group of loads waits for the previous MATMUL
 * (compute->load) and hands one token to the next MATMUL (load->compute); an
 * ACTIVATE waits for the previous STORE (store->compute) and hands one token to its
 * STORE (compute->store).  Every push is popped by exactly the instruction meant. */
struct kp {
    struct pb p;
    int mm_pushed, st_pushed, loads, computes, stores;
};
static void kp_load(struct kp *k, const struct pb_dma *d, int first, int last)
{
    uint32_t tok = 0;
    if (first && k->mm_pushed) {
        tok |= PB_POP_NEXT;
        k->mm_pushed = 0;
    }
    if (last)
        tok |= PB_PUSH_NEXT;
    pb_load(&k->p, d, tok);
    k->loads++;
}
static void kp_matmul(struct kp *k, int bf16, int acc, int new_w, int zp, uint32_t urow,
                      uint32_t rows, uint32_t arow, uint32_t wrow)
{
    pb_matmul(&k->p, bf16, acc, new_w, zp, urow, rows, arow, wrow, PB_POP_PREV | PB_PUSH_PREV);
    k->mm_pushed = 1;
    k->computes++;
}
static void kp_activate(struct kp *k, const struct pb_act *a)
{
    uint32_t tok = PB_PUSH_NEXT;
    if (k->st_pushed)
        tok |= PB_POP_NEXT;
    k->st_pushed = 0;
    pb_activate(&k->p, a, tok);
    k->computes++;
}
static void kp_store(struct kp *k, const struct pb_dma *d)
{
    pb_store(&k->p, d, PB_POP_PREV | PB_PUSH_PREV);
    k->st_pushed = 1;
    k->stores++;
}

/* Write the program at a fresh place, run it with one read-write window over the arena
 * plus random unrelated windows, check DONE and the instruction counters. */
static int run_kp(struct ptpu_ref *r, struct arena *a, struct kp *k, struct ptpu_run_result *res)
{
    pb_halt(&k->p);
    uint8_t *bytes = pb_bytes(&k->p);
    uint32_t pa = alloc(a, k->p.n * PTPU_INSTR_BYTES);
    pa = (pa + 31u) & ~31u;
    int rc = ptpu_ref_mem_write(r, pa, bytes, (size_t)k->p.n * PTPU_INSTR_BYTES);
    free(bytes);
    if (rc)
        return fail("mem_write of the program: %d", rc);
    struct ptpu_window win[4];
    int nwin = rr(1, 4), main_w = rr(0, nwin - 1);
    for (int i = 0; i < nwin; i++) {
        win[i].base = (uint32_t)rnd();
        win[i].limit = win[i].base + (uint32_t)rr(0, 4096);
        win[i].perm = (uint32_t)rr(0, 3);
    }
    win[main_w].base = 0;
    win[main_w].limit = a->top;
    win[main_w].perm = 3;
    rc = ptpu_ref_run(r, pa, k->p.n, win, nwin, res);
    if (rc)
        return fail("ptpu_ref_run returned %d", rc);
    if (res->state != PTPU_STATE_DONE)
        return fail("state %d fault %d pc %u addr 0x%x", res->state, res->fault, res->fault_pc,
                    res->fault_addr);
    if (res->counters[PTPU_CNT_LOAD_INSNS] != (uint64_t)k->loads ||
        res->counters[PTPU_CNT_COMPUTE_INSNS] != (uint64_t)k->computes ||
        res->counters[PTPU_CNT_STORE_INSNS] != (uint64_t)k->stores)
        return fail("instruction counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " want %d/%d/%d",
                    res->counters[PTPU_CNT_LOAD_INSNS], res->counters[PTPU_CNT_COMPUTE_INSNS],
                    res->counters[PTPU_CNT_STORE_INSNS], k->loads, k->computes, k->stores);
    return 0;
}

static void put(struct ptpu_ref *r, uint32_t addr, const void *d, size_t n)
{
    if (ptpu_ref_mem_write(r, addr, d, n)) {
        fprintf(stderr, "mem_write failed\n");
        abort();
    }
}
static void get(struct ptpu_ref *r, uint32_t addr, void *d, size_t n)
{
    if (ptpu_ref_mem_read(r, addr, d, n)) {
        fprintf(stderr, "mem_read failed\n");
        abort();
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Quantization parameters of one output channel. */
struct qp { int32_t bias, m0, shift; };
static struct qp rand_qp(void)
{
    struct qp q;
    q.bias = rr(-5000, 5000);
    if (rr(0, 9) == 0) {           /* extreme multipliers and shifts */
        q.m0 = (int32_t)(uint32_t)rnd();
        q.shift = rr(-40, 40);     /* the unit uses the low 6 bits, clamped */
        if (rr(0, 1))
            q.bias = (int32_t)(uint32_t)rnd();
    } else {
        int sh;
        double m = (double)rr(1, 1000000) / 1e6 * (rr(0, 3) ? 0.01 : 4.0);
        ptpu_quantize_multiplier(m, &q.m0, &sh);
        q.shift = sh;
    }
    return q;
}
static int vpu_shift(int32_t s)
{
    int v = (int)((uint32_t)s & 0x3f);
    if (v >= 32)
        v -= 64;
    return v < -31 ? -31 : v;
}
static int8_t requant(uint32_t acc, const struct qp *q, int zp_out, int lo, int hi)
{
    int32_t t = (int32_t)(acc + (uint32_t)q->bias);
    int64_t y = (int64_t)ptpu_mbqm(t, q->m0, vpu_shift(q->shift)) + zp_out;
    if (y < lo)
        y = lo;
    if (y > hi)
        y = hi;
    return (int8_t)y;
}
static void rand_clamp(int zp_out, int *lo, int *hi)
{
    switch (rr(0, 2)) {
    case 0: *lo = -128; *hi = 127; break;
    case 1: *lo = zp_out; *hi = 127; break;
    default:
        *lo = rr(-128, 127);
        *hi = rr(*lo, 127);
    }
}

/* VP rows bias, m0, shift of output channels [n0, n0+nn) at vrow from a params block
 * of three int32 arrays of nout each at `params`. */
static void load_vp(struct kp *k, uint32_t params, int nout, int n0, int nn, int n, uint32_t vrow,
                    int first, int last)
{
    struct pb_dma d = pb_dma_rows(PTPU_BUF_VP, vrow, params + 4u * (uint32_t)n0, 4u * (uint32_t)nn,
                                  4u * (uint32_t)n, 3, 4 * nout);
    kp_load(k, &d, first, last);
}

/* ---- int8 GEMM ---------------------------------------------------------- */

static int test_gemm_int8(struct ptpu_ref *r, const struct ptpu_ref_cfg *c)
{
    const int n = c->n, ew = c->bf16 ? 2 : 1;
    int max_nt = c->vp_rows / 3;
    int M = rr(1, rr(0, 3) ? 40 : 300), K = rr(1, 3 * n + 3), NO = rr(1, n * (max_nt < 4 ? max_nt : 4));
    if (c->mem_kb < 1024) {
        M = rr(1, 40);
        K = rr(1, 2 * n + 3);
    }
    int zp = rr(-128, 127), zp_out = rr(-128, 127), lo, hi;
    rand_clamp(zp_out, &lo, &hi);
    struct arena a = { 0x100, c->mem_kb * 1024u };
    uint32_t A = alloc(&a, (uint32_t)(M * K)), W = alloc(&a, (uint32_t)(K * NO));
    uint32_t P = alloc(&a, 12u * (uint32_t)NO), C = alloc(&a, (uint32_t)(M * NO));
    int8_t *ha = malloc((size_t)M * K), *hw = malloc((size_t)K * NO), *hc = malloc((size_t)M * NO);
    int8_t *got = malloc((size_t)M * NO);
    struct qp *q = malloc(sizeof *q * (size_t)NO);
    uint8_t *pbytes = malloc(12u * (size_t)NO);
    for (int i = 0; i < M * K; i++)
        ha[i] = (int8_t)rr(-128, 127);
    for (int i = 0; i < K * NO; i++)
        hw[i] = (int8_t)rr(-127, 127);
    for (int j = 0; j < NO; j++) {
        q[j] = rand_qp();
        put32(pbytes + 4 * j, (uint32_t)q[j].bias);
        put32(pbytes + 4 * (NO + j), (uint32_t)q[j].m0);
        put32(pbytes + 4 * (2 * NO + j), (uint32_t)q[j].shift);
    }
    put(r, A, ha, (size_t)M * K);
    put(r, W, hw, (size_t)K * NO);
    put(r, P, pbytes, 12u * (size_t)NO);
    memset(got, 0x5a, (size_t)M * NO);
    put(r, C, got, (size_t)M * NO);
    /* naive */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < NO; j++) {
            uint32_t acc = 0;
            for (int kk = 0; kk < K; kk++)
                acc += (uint32_t)(((int32_t)ha[i * K + kk] - zp) * hw[kk * NO + j]);
            hc[i * NO + j] = requant(acc, &q[j], zp_out, lo, hi);
        }
    /* program */
    struct kp k = { 0 };
    int mt = rr(1, M);
    if (mt > c->ub_rows / 2)
        mt = c->ub_rows / 2;
    if (mt > c->acc_rows)
        mt = c->acc_rows;
    int ntiles = (NO + n - 1) / n;
    for (int t = 0; t < ntiles; t++)
        load_vp(&k, P, NO, t * n, NO - t * n < n ? NO - t * n : n, n, 3u * (uint32_t)t, t == 0, 0);
    uint32_t out_row = (uint32_t)c->ub_rows / 2;
    for (int t = 0; t < ntiles; t++) {
        int n0 = t * n, nn = NO - n0 < n ? NO - n0 : n;
        for (int m0 = 0; m0 < M; m0 += mt) {
            int mm = M - m0 < mt ? M - m0 : mt;
            for (int k0 = 0; k0 < K; k0 += n) {
                int kk = K - k0 < n ? K - k0 : n;
                struct pb_dma wd = pb_dma_rows(PTPU_BUF_WB, 0, W + (uint32_t)(k0 * NO + n0),
                                               (uint32_t)nn, (uint32_t)n, (uint32_t)n, NO);
                wd.bound1 = (uint32_t)kk;
                wd.pad = (uint32_t)rr(0, 255);  /* rows k >= kk meet x - zp = 0 */
                struct pb_dma ud = pb_dma_rows(PTPU_BUF_UB, 0, A + (uint32_t)(m0 * K + k0),
                                               (uint32_t)kk, (uint32_t)(rr(0, 1) ? n : n * ew),
                                               (uint32_t)mm, K);
                ud.pad = (uint32_t)(zp & 0xff);
                kp_load(&k, &wd, 1, 0);
                kp_load(&k, &ud, 0, 1);
                kp_matmul(&k, 0, k0 > 0, 1, zp, 0, (uint32_t)mm, 0, 0);
            }
            struct pb_act act = { .out = PTPU_OUT_INT8, .zp_out = zp_out, .clamp_lo = lo,
                                  .clamp_hi = hi, .urow = out_row, .vrow = 3u * (uint32_t)t,
                                  .count1 = (uint32_t)mm, .count2 = 1, .win1 = 1, .win2 = 1,
                                  .step1 = 1 };
            kp_activate(&k, &act);
            struct pb_dma sd = pb_dma_rows(PTPU_BUF_UB, out_row, C + (uint32_t)(m0 * NO + n0),
                                           (uint32_t)nn, (uint32_t)nn, (uint32_t)mm, NO);
            kp_store(&k, &sd);
        }
    }
    struct ptpu_run_result res;
    int bad = run_kp(r, &a, &k, &res);
    if (!bad) {
        get(r, C, got, (size_t)M * NO);
        for (int i = 0; i < M * NO && !bad; i++)
            if (got[i] != hc[i])
                bad = fail("gemm_int8 M=%d K=%d N=%d: C[%d][%d] = %d, want %d", M, K, NO,
                           i / NO, i % NO, got[i], hc[i]);
        if (!bad && res.counters[PTPU_CNT_BYTES_WRITTEN] != (uint64_t)(M * NO))
            bad = fail("BYTES_WRITTEN %" PRIu64 " want %d", res.counters[PTPU_CNT_BYTES_WRITTEN],
                       M * NO);
    }
    if (bad)
        strncat(fail_msg, " (gemm_int8)", sizeof fail_msg - strlen(fail_msg) - 1);
    pb_free(&k.p);
    free(ha); free(hw); free(hc); free(got); free(q); free(pbytes);
    return bad;
}

/* ---- bf16 GEMM ---------------------------------------------------------- */

static uint16_t rand_bf16(void)
{
    switch (rr(0, 60)) {
    case 0: return 0x8000;                             /* -0 */
    case 1: return (uint16_t)(rr(0, 1) ? 0x7f80 : 0xff80);   /* +-Inf */
    case 2: return 0x7fc1;                             /* NaN */
    case 3: return (uint16_t)(rr(0, 0x7f) | (rr(0, 1) << 15));  /* subnormal */
    default: {
        int e = rr(120, 134);
        return (uint16_t)((rr(0, 1) << 15) | (e << 7) | rr(0, 127));
    }
    }
}
static uint32_t fp_act(uint32_t acc, uint32_t bias, int relu, int relu6)
{
    uint32_t t = ptpu_fp32_add(acc, bias);
    int nan = (t & 0x7fffffffu) > 0x7f800000u;
    if (!nan && relu && (t >> 31))
        t = 0;
    if (!nan && relu6 && !(t >> 31) && ptpu_f32(t) > 6.0f)
        t = 0x40c00000u;
    return t;
}

static int test_gemm_bf16(struct ptpu_ref *r, const struct ptpu_ref_cfg *c)
{
    if (!c->bf16)
        return 0;
    const int n = c->n;
    int max_nt = c->vp_rows < 12 ? c->vp_rows : 12;
    int M = rr(1, 48), K = rr(1, 3 * n + 3), NO = rr(1, n * (max_nt < 3 ? max_nt : 3));
    int fp32 = rr(0, 1), relu = rr(0, 1), relu6 = rr(0, 1);
    struct arena a = { 0x100, c->mem_kb * 1024u };
    int pitch = (NO + n - 1) / n * n;   /* fp32 rows are stored in halves of N/2 lanes */
    uint32_t A = alloc(&a, (uint32_t)(2 * M * K)), W = alloc(&a, (uint32_t)(2 * K * NO));
    uint32_t B = alloc(&a, 4u * (uint32_t)NO), C = alloc(&a, (uint32_t)(4 * M * pitch));
    uint16_t *ha = malloc(2 * (size_t)M * K), *hw = malloc(2 * (size_t)K * NO);
    uint32_t *hb = malloc(4 * (size_t)NO), *hc = malloc(4 * (size_t)M * NO);
    uint8_t *buf = calloc(1, 4 * (size_t)M * pitch + 2 * (size_t)M * K + 2 * (size_t)K * NO + 4 * (size_t)NO + 8);
    for (int i = 0; i < M * K; i++)
        ha[i] = rand_bf16();
    for (int i = 0; i < K * NO; i++)
        hw[i] = rand_bf16();
    for (int j = 0; j < NO; j++)
        hb[j] = (uint32_t)rand_bf16() << 16 | (uint32_t)rr(0, 0xffff);
    for (int i = 0; i < M * K; i++) { buf[2 * i] = (uint8_t)ha[i]; buf[2 * i + 1] = (uint8_t)(ha[i] >> 8); }
    put(r, A, buf, 2 * (size_t)M * K);
    for (int i = 0; i < K * NO; i++) { buf[2 * i] = (uint8_t)hw[i]; buf[2 * i + 1] = (uint8_t)(hw[i] >> 8); }
    put(r, W, buf, 2 * (size_t)K * NO);
    for (int j = 0; j < NO; j++)
        put32(buf + 4 * j, hb[j]);
    put(r, B, buf, 4 * (size_t)NO);
    /* naive, in the documented order: per K tile of N lanes ((p0 + p1) + p2) + ...
     * with zero padding, tiles accumulated in order, then bias and activation. */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < NO; j++) {
            uint32_t acc = 0;
            for (int k0 = 0; k0 < K; k0 += n) {
                uint32_t s = 0;
                for (int kk = 0; kk < n; kk++) {
                    uint16_t x = k0 + kk < K ? ha[i * K + k0 + kk] : 0;
                    uint16_t w = k0 + kk < K ? hw[(k0 + kk) * NO + j] : 0;
                    uint32_t p = ptpu_bf16_mul(x, w);
                    s = kk ? ptpu_fp32_add(s, p) : p;
                }
                acc = k0 ? ptpu_fp32_add(acc, s) : s;
            }
            hc[i * NO + j] = fp_act(acc, hb[j], relu, relu6);
        }
    struct kp k = { 0 };
    int per = fp32 ? 2 : 1;
    int mt = rr(1, M);
    if (mt * per > c->ub_rows / 2)
        mt = c->ub_rows / 2 / per;
    if (mt > c->acc_rows)
        mt = c->acc_rows;
    int ntiles = (NO + n - 1) / n;
    for (int t = 0; t < ntiles; t++) {
        int nn = NO - t * n < n ? NO - t * n : n;
        struct pb_dma d = pb_dma_rows(PTPU_BUF_VP, (uint32_t)t, B + 4u * (uint32_t)(t * n),
                                      4u * (uint32_t)nn, 4u * (uint32_t)n, 1, 0);
        kp_load(&k, &d, t == 0, 0);
    }
    uint32_t out_row = (uint32_t)c->ub_rows / 2;
    for (int t = 0; t < ntiles; t++) {
        int n0 = t * n, nn = NO - n0 < n ? NO - n0 : n;
        for (int m0 = 0; m0 < M; m0 += mt) {
            int mm = M - m0 < mt ? M - m0 : mt;
            for (int k0 = 0; k0 < K; k0 += n) {
                int kk = K - k0 < n ? K - k0 : n;
                struct pb_dma wd = pb_dma_rows(PTPU_BUF_WB, 0, W + 2u * (uint32_t)(k0 * NO + n0),
                                               2u * (uint32_t)nn, 2u * (uint32_t)n, (uint32_t)n,
                                               2 * NO);
                wd.bound1 = (uint32_t)kk;
                struct pb_dma ud = pb_dma_rows(PTPU_BUF_UB, 0, A + 2u * (uint32_t)(m0 * K + k0),
                                               2u * (uint32_t)kk, 2u * (uint32_t)n, (uint32_t)mm,
                                               2 * K);
                kp_load(&k, &wd, 1, 0);
                kp_load(&k, &ud, 0, 1);
                kp_matmul(&k, 1, k0 > 0, 1, 0, 0, (uint32_t)mm, 0, 0);
            }
            struct pb_act act = { .out = fp32 ? PTPU_OUT_FP32 : PTPU_OUT_BF16, .relu = relu,
                                  .relu6 = relu6, .urow = out_row, .vrow = (uint32_t)t,
                                  .count1 = (uint32_t)mm, .count2 = 1, .win1 = 1, .win2 = 1,
                                  .step1 = 1 };
            kp_activate(&k, &act);
            struct pb_dma sd;
            if (fp32) {
                /* row 2o: lanes [0, N/2), row 2o+1: lanes [N/2, N); halves past NO skipped */
                sd = pb_dma_rows(PTPU_BUF_UB, out_row, C + 4u * (uint32_t)(m0 * pitch + n0),
                                 2u * (uint32_t)n, 2u * (uint32_t)n, 2, 2 * n);
                sd.bound1 = (uint32_t)((nn + n / 2 - 1) / (n / 2));
                sd.count2 = sd.bound2 = (uint32_t)mm;
                sd.step2 = 1;
                sd.stride2 = 4 * pitch;
            } else {
                sd = pb_dma_rows(PTPU_BUF_UB, out_row, C + 2u * (uint32_t)(m0 * NO + n0),
                                 2u * (uint32_t)nn, 2u * (uint32_t)nn, (uint32_t)mm, 2 * NO);
            }
            kp_store(&k, &sd);
        }
    }
    struct ptpu_run_result res;
    int bad = run_kp(r, &a, &k, &res);
    if (!bad) {
        get(r, C, buf, fp32 ? 4 * (size_t)M * pitch : 2 * (size_t)M * NO);
        for (int i = 0; i < M && !bad; i++)
            for (int j = 0; j < NO && !bad; j++) {
                uint32_t want = fp32 ? hc[i * NO + j] : ptpu_fp32_to_bf16(hc[i * NO + j]);
                uint32_t g = fp32 ? get32(buf + 4 * (i * pitch + j))
                                  : (uint32_t)(buf[2 * (i * NO + j)] | buf[2 * (i * NO + j) + 1] << 8);
                if (g != want)
                    bad = fail("gemm_bf16 M=%d K=%d N=%d fp32=%d relu=%d relu6=%d: C[%d][%d] = "
                               "0x%x, want 0x%x", M, K, NO, fp32, relu, relu6, i, j, g, want);
            }
    }
    if (bad)
        strncat(fail_msg, " (gemm_bf16)", sizeof fail_msg - strlen(fail_msg) - 1);
    pb_free(&k.p);
    free(ha); free(hw); free(hb); free(hc); free(buf);
    return bad;
}

/* ---- conv2d int8 (docs/isa.md convolution recipe) ------------------------ */

static int test_conv(struct ptpu_ref *r, const struct ptpu_ref_cfg *c)
{
    const int n = c->n;
    int small = c->mem_kb < 1024;
    int H = rr(1, small ? 8 : 14), Wd = rr(1, small ? 8 : 14), C = rr(1, 2 * n + 1);
    int KH = rr(1, 3), KW = rr(1, 3), s = rr(1, 2), d = rr(1, 2);
    int pt = rr(0, 2), pl = rr(0, 2), pb_ = rr(0, 2), pr = rr(0, 2);
    int OC = rr(1, n * (c->vp_rows / 3 < 2 ? 1 : 2));
    /* packed: stride 1, no horizontal padding, a whole kernel row (KW*C <= N bytes) in one
     * array row: one LOAD and one MATMUL per kernel row (isa.md) */
    int packed = rr(0, 2) == 0 && KW <= n;
    if (packed) {
        s = d = 1;
        pl = pr = 0;
        C = rr(1, n / KW);
    }
    int OH = (H + pt + pb_ - d * (KH - 1) - 1) / s + 1, OW = (Wd + pl + pr - d * (KW - 1) - 1) / s + 1;
    if (H + pt + pb_ - d * (KH - 1) - 1 < 0 || Wd + pl + pr - d * (KW - 1) - 1 < 0)
        return 0;   /* kernel larger than the padded input: no output */
    int zp = rr(-128, 127), zp_out = rr(-128, 127), lo, hi;
    rand_clamp(zp_out, &lo, &hi);
    struct arena a = { 0x100, c->mem_kb * 1024u };
    uint32_t IN = alloc(&a, (uint32_t)(H * Wd * C)), WT = alloc(&a, (uint32_t)(KH * KW * C * OC));
    uint32_t P = alloc(&a, 12u * (uint32_t)OC), OUT = alloc(&a, (uint32_t)(OH * OW * OC));
    int8_t *hi_ = malloc((size_t)(H * Wd * C)), *hw = malloc((size_t)(KH * KW * C * OC));
    int8_t *ho = malloc((size_t)(OH * OW * OC)), *got = malloc((size_t)(OH * OW * OC));
    struct qp *q = malloc(sizeof *q * (size_t)OC);
    uint8_t *pbytes = malloc(12u * (size_t)OC);
    for (int i = 0; i < H * Wd * C; i++)
        hi_[i] = (int8_t)rr(-128, 127);
    for (int i = 0; i < KH * KW * C * OC; i++)
        hw[i] = (int8_t)rr(-127, 127);
    for (int j = 0; j < OC; j++) {
        q[j] = rand_qp();
        put32(pbytes + 4 * j, (uint32_t)q[j].bias);
        put32(pbytes + 4 * (OC + j), (uint32_t)q[j].m0);
        put32(pbytes + 4 * (2 * OC + j), (uint32_t)q[j].shift);
    }
    put(r, IN, hi_, (size_t)(H * Wd * C));
    put(r, WT, hw, (size_t)(KH * KW * C * OC));
    put(r, P, pbytes, 12u * (size_t)OC);
    for (int oy = 0; oy < OH; oy++)
        for (int ox = 0; ox < OW; ox++)
            for (int oc = 0; oc < OC; oc++) {
                uint32_t acc = 0;
                for (int kh = 0; kh < KH; kh++)
                    for (int kw = 0; kw < KW; kw++) {
                        int iy = oy * s + kh * d - pt, ix = ox * s + kw * d - pl;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= Wd)
                            continue;   /* the zero point: contributes 0 */
                        for (int ci = 0; ci < C; ci++)
                            acc += (uint32_t)(((int32_t)hi_[(iy * Wd + ix) * C + ci] - zp) *
                                              hw[((kh * KW + kw) * C + ci) * OC + oc]);
                    }
                ho[(oy * OW + ox) * OC + oc] = requant(acc, &q[oc], zp_out, lo, hi);
            }
    struct kp k = { 0 };
    /* output rows per tile: pixels in ACC and in each half of UB */
    int lim = c->ub_rows / 2 < c->acc_rows ? c->ub_rows / 2 : c->acc_rows;
    int rows_t = lim / OW;
    if (rows_t < 1)
        rows_t = 1;
    rows_t = rr(1, rows_t < OH ? rows_t : OH);
    int ntiles = (OC + n - 1) / n;
    for (int t = 0; t < ntiles; t++)
        load_vp(&k, P, OC, t * n, OC - t * n < n ? OC - t * n : n, n, 3u * (uint32_t)t, t == 0, 0);
    uint32_t out_row = (uint32_t)c->ub_rows / 2;
    for (int t = 0; t < ntiles; t++) {
        int oc0 = t * n, ocn = OC - oc0 < n ? OC - oc0 : n;
        for (int oy0 = 0; oy0 < OH; oy0 += rows_t) {
            int oh = OH - oy0 < rows_t ? OH - oy0 : rows_t;
            int first = 1;
            for (int kh = 0; kh < KH && packed; kh++) {
                struct pb_dma wd = pb_dma_rows(PTPU_BUF_WB, 0,
                                               WT + (uint32_t)(kh * KW * C * OC + oc0),
                                               (uint32_t)ocn, (uint32_t)n, (uint32_t)n, OC);
                wd.bound1 = (uint32_t)(KW * C);
                struct pb_dma ud = {
                    .buf = PTPU_BUF_UB, .row = 0, .addr = IN, .len0 = (uint32_t)(KW * C),
                    .out0 = (uint32_t)n, .pad = (uint32_t)(zp & 0xff), .count1 = (uint32_t)OW,
                    .step1 = 1, .bound1 = (uint32_t)Wd, .stride1 = C, .count2 = (uint32_t)oh,
                    .start2 = oy0 + kh - pt, .step2 = 1, .bound2 = (uint32_t)H, .stride2 = Wd * C };
                kp_load(&k, &wd, 1, 0);
                kp_load(&k, &ud, 0, 1);
                kp_matmul(&k, 0, !first, 1, zp, 0, (uint32_t)(OW * oh), 0, 0);
                first = 0;
            }
            for (int kh = 0; kh < KH && !packed; kh++)
                for (int kw = 0; kw < KW; kw++)
                    for (int c0 = 0; c0 < C; c0 += n) {
                        int cc = C - c0 < n ? C - c0 : n;
                        struct pb_dma wd = pb_dma_rows(
                            PTPU_BUF_WB, 0, WT + (uint32_t)(((kh * KW + kw) * C + c0) * OC + oc0),
                            (uint32_t)ocn, (uint32_t)n, (uint32_t)n, OC);
                        wd.bound1 = (uint32_t)cc;
                        struct pb_dma ud = {
                            .buf = PTPU_BUF_UB, .row = 0, .addr = IN + (uint32_t)c0,
                            .len0 = (uint32_t)cc, .out0 = (uint32_t)n, .pad = (uint32_t)(zp & 0xff),
                            .count1 = (uint32_t)OW, .start1 = kw * d - pl, .step1 = s,
                            .bound1 = (uint32_t)Wd, .stride1 = C,
                            .count2 = (uint32_t)oh, .start2 = oy0 * s + kh * d - pt, .step2 = s,
                            .bound2 = (uint32_t)H, .stride2 = Wd * C };
                        kp_load(&k, &wd, 1, 0);
                        kp_load(&k, &ud, 0, 1);
                        kp_matmul(&k, 0, !first, 1, zp, 0, (uint32_t)(OW * oh), 0, 0);
                        first = 0;
                    }
            struct pb_act act = { .out = PTPU_OUT_INT8, .zp_out = zp_out, .clamp_lo = lo,
                                  .clamp_hi = hi, .urow = out_row, .vrow = 3u * (uint32_t)t,
                                  .count1 = (uint32_t)OW, .count2 = (uint32_t)oh, .win1 = 1,
                                  .win2 = 1, .step1 = 1, .step2 = (uint32_t)OW };
            kp_activate(&k, &act);
            struct pb_dma sd = pb_dma_rows(PTPU_BUF_UB, out_row,
                                           OUT + (uint32_t)(oy0 * OW * OC + oc0), (uint32_t)ocn,
                                           (uint32_t)ocn, (uint32_t)(OW * oh), OC);
            kp_store(&k, &sd);
        }
    }
    struct ptpu_run_result res;
    int bad = run_kp(r, &a, &k, &res);
    if (!bad) {
        get(r, OUT, got, (size_t)(OH * OW * OC));
        for (int i = 0; i < OH * OW * OC && !bad; i++)
            if (got[i] != ho[i])
                bad = fail("conv %dx%dx%d k%dx%d s%d d%d pad %d,%d,%d,%d OC=%d packed=%d: out[%d] "
                           "= %d, want %d", H, Wd, C, KH, KW, s, d, pt, pl, pb_, pr, OC, packed, i,
                           got[i], ho[i]);
    }
    if (bad)
        strncat(fail_msg, " (conv)", sizeof fail_msg - strlen(fail_msg) - 1);
    pb_free(&k.p);
    free(hi_); free(hw); free(ho); free(got); free(q); free(pbytes);
    return bad;
}

/* ---- max / average pooling ---------------------------------------------- */

static int test_pool(struct ptpu_ref *r, const struct ptpu_ref_cfg *c)
{
    const int n = c->n;
    int H = rr(1, 12), Wd = rr(1, 12), C = rr(1, 2 * n + 1);
    while (H * Wd > c->acc_rows || H * Wd > c->ub_rows / 2) {
        H = rr(1, H);
        Wd = rr(1, Wd);
    }
    int KH = rr(1, H < 4 ? H : 4), KW = rr(1, Wd < 4 ? Wd : 4), SY = rr(1, 3), SX = rr(1, 3);
    int OH = (H - KH) / SY + 1, OW = (Wd - KW) / SX + 1;
    int avg = rr(0, 1), zp = rr(-128, 127), zp_out = rr(-128, 127), lo, hi;
    rand_clamp(zp_out, &lo, &hi);
    struct qp qv;
    if (avg) {
        int sh;
        ptpu_quantize_multiplier(1.0 / (KH * KW) * (rr(0, 3) ? 1.0 : rr(1, 100) / 37.0), &qv.m0, &sh);
        qv.shift = sh;
    } else {
        qv.m0 = 1 << 30;   /* exactly the identity */
        qv.shift = 1;
    }
    qv.bias = rr(-3, 3);
    struct arena a = { 0x100, c->mem_kb * 1024u };
    uint32_t IN = alloc(&a, (uint32_t)(H * Wd * C)), ID = alloc(&a, (uint32_t)(n * n));
    uint32_t P = alloc(&a, 12u * (uint32_t)n), OUT = alloc(&a, (uint32_t)(OH * OW * C));
    int8_t *hin = malloc((size_t)(H * Wd * C)), *ho = malloc((size_t)(OH * OW * C));
    int8_t *got = malloc((size_t)(OH * OW * C));
    uint8_t *tmp = malloc((size_t)(n * n) + 12u * (size_t)n);
    for (int i = 0; i < H * Wd * C; i++)
        hin[i] = (int8_t)rr(-128, 127);
    put(r, IN, hin, (size_t)(H * Wd * C));
    memset(tmp, 0, (size_t)(n * n));
    for (int i = 0; i < n; i++)
        tmp[i * n + i] = 1;
    put(r, ID, tmp, (size_t)(n * n));
    for (int j = 0; j < n; j++) {
        put32(tmp + 4 * j, (uint32_t)qv.bias);
        put32(tmp + 4 * (n + j), (uint32_t)qv.m0);
        put32(tmp + 4 * (2 * n + j), (uint32_t)qv.shift);
    }
    put(r, P, tmp, 12u * (size_t)n);
    for (int oy = 0; oy < OH; oy++)
        for (int ox = 0; ox < OW; ox++)
            for (int ci = 0; ci < C; ci++) {
                int32_t m = INT32_MIN;
                uint32_t sum = 0;
                for (int ky = 0; ky < KH; ky++)
                    for (int kx = 0; kx < KW; kx++) {
                        int32_t v = hin[((oy * SY + ky) * Wd + ox * SX + kx) * C + ci] - zp;
                        m = v > m ? v : m;
                        sum += (uint32_t)v;
                    }
                ho[(oy * OW + ox) * C + ci] = requant(avg ? sum : (uint32_t)m, &qv, zp_out, lo, hi);
            }
    struct kp k = { 0 };
    struct pb_dma vd = pb_dma_rows(PTPU_BUF_VP, 0, P, 4u * (uint32_t)n, 4u * (uint32_t)n, 3,
                                   4 * n);
    kp_load(&k, &vd, 1, 0);
    uint32_t out_row = (uint32_t)c->ub_rows / 2;
    for (int c0 = 0; c0 < C; c0 += n) {
        int cc = C - c0 < n ? C - c0 : n;
        struct pb_dma wd = pb_dma_rows(PTPU_BUF_WB, 0, ID, (uint32_t)n, (uint32_t)n, (uint32_t)n, n);
        struct pb_dma ud = pb_dma_rows(PTPU_BUF_UB, 0, IN + (uint32_t)c0, (uint32_t)cc,
                                       (uint32_t)n, (uint32_t)(H * Wd), C);
        ud.pad = (uint32_t)(zp & 0xff);
        kp_load(&k, &wd, c0 == 0 ? 0 : 1, 0);
        kp_load(&k, &ud, 0, 1);
        kp_matmul(&k, 0, 0, 1, zp, 0, (uint32_t)(H * Wd), 0, 0);
        struct pb_act act = { .out = PTPU_OUT_INT8, .pool = avg ? PTPU_POOL_SUM : PTPU_POOL_MAX,
                              .zp_out = zp_out, .clamp_lo = lo, .clamp_hi = hi,
                              .urow = out_row, .vrow = 0, .count1 = (uint32_t)OW,
                              .count2 = (uint32_t)OH, .win1 = (uint32_t)KW, .win2 = (uint32_t)KH,
                              .step1 = (uint32_t)SX, .step2 = (uint32_t)(SY * Wd), .wstep1 = 1,
                              .wstep2 = (uint32_t)Wd };
        kp_activate(&k, &act);
        struct pb_dma sd = pb_dma_rows(PTPU_BUF_UB, out_row, OUT + (uint32_t)c0, (uint32_t)cc,
                                       (uint32_t)cc, (uint32_t)(OH * OW), C);
        kp_store(&k, &sd);
    }
    struct ptpu_run_result res;
    int bad = run_kp(r, &a, &k, &res);
    if (!bad) {
        get(r, OUT, got, (size_t)(OH * OW * C));
        for (int i = 0; i < OH * OW * C && !bad; i++)
            if (got[i] != ho[i])
                bad = fail("%s pool %dx%dx%d win %dx%d stride %d,%d: out[%d] = %d, want %d",
                           avg ? "avg" : "max", H, Wd, C, KH, KW, SY, SX, i, got[i], ho[i]);
    }
    if (bad)
        strncat(fail_msg, " (pool)", sizeof fail_msg - strlen(fail_msg) - 1);
    pb_free(&k.p);
    free(hin); free(ho); free(got); free(tmp);
    return bad;
}

/* ---- faults ------------------------------------------------------------- */

struct fault_case {
    const char *name;
    int code;
};

/* Runs program p (after a prefix that stores a marker, to check that instructions before
 * the fault ran) and checks code, pc and address. */
static int expect_fault(struct ptpu_ref *r, const struct ptpu_ref_cfg *c, struct pb *p,
                        uint32_t prog_len, int code, uint32_t pc, uint32_t addr,
                        const struct ptpu_window *win, int nwin, const char *what)
{
    uint8_t *bytes = pb_bytes(p);
    uint32_t pa = c->mem_kb * 1024u / 2;
    put(r, pa, bytes, (size_t)p->n * PTPU_INSTR_BYTES);
    free(bytes);
    struct ptpu_window wdef = { 0, c->mem_kb * 1024u, 3 };
    struct ptpu_run_result res;
    int rc = ptpu_ref_run(r, pa, prog_len, win ? win : &wdef, win ? nwin : 1, &res);
    if (rc)
        return fail("%s: ptpu_ref_run returned %d", what, rc);
    if (res.state != PTPU_STATE_FAULT || res.fault != code || res.fault_pc != pc ||
        res.fault_addr != addr)
        return fail("%s: state %d fault %d pc %u addr 0x%x, want fault %d pc %u addr 0x%x",
                    what, res.state, res.fault, res.fault_pc, res.fault_addr, code, pc, addr);
    return 0;
}

/* A prefix that copies 16 bytes 0x100 -> 0x200 through UB row 0 (so the memory image shows
 * whether instructions before the fault ran). */
static void prefix(struct pb *p, int n)
{
    struct pb_dma d = pb_dma_rows(PTPU_BUF_UB, 0, 0x100, (uint32_t)n, (uint32_t)n, 1, 0);
    pb_load(p, &d, PB_PUSH_NEXT);
    pb_matmul(p, 0, 0, 1, 0, 0, 1, 0, 0, PB_POP_PREV | PB_PUSH_NEXT);   /* weights valid */
    pb_store(p, &(struct pb_dma){ .buf = PTPU_BUF_UB, .row = 0, .addr = 0x200, .len0 = (uint32_t)n,
                                   .out0 = (uint32_t)n, .count1 = 1, .bound1 = 1, .count2 = 1,
                                   .bound2 = 1 }, PB_POP_PREV);
}

static int check_prefix_ran(struct ptpu_ref *r, int n, int ran, const char *what)
{
    uint8_t a[128], b[128];
    get(r, 0x100, a, (size_t)n);
    get(r, 0x200, b, (size_t)n);
    if ((memcmp(a, b, (size_t)n) == 0) != ran)
        return fail("%s: the instructions before the fault %s", what, ran ? "did not run" : "ran");
    return 0;
}

static uint32_t *good_load(struct pb *p, int n, uint32_t tok)
{
    struct pb_dma d = pb_dma_rows(PTPU_BUF_UB, 1, 0x400, (uint32_t)n, (uint32_t)n, 2, 64);
    return pb_load(p, &d, tok);
}
static uint32_t *good_store(struct pb *p, int n, uint32_t tok)
{
    struct pb_dma d = pb_dma_rows(PTPU_BUF_UB, 1, 0x800, (uint32_t)n, (uint32_t)n, 2, 64);
    return pb_store(p, &d, tok);
}
static uint32_t *good_act(struct pb *p, int out, uint32_t tok)
{
    struct pb_act a = { .out = out, .clamp_lo = -128, .clamp_hi = 127, .count1 = 1, .count2 = 1,
                        .win1 = 1, .win2 = 1, .urow = 4 };
    return pb_activate(p, &a, tok);
}

/* Each static rule, one at a time, at pc 3 after the prefix. */
static int test_faults(struct ptpu_ref *r, const struct ptpu_ref_cfg *c, int *count)
{
    const int n = c->n, ew = c->bf16 ? 2 : 1;
    const uint32_t rb = (uint32_t)(n * ew);
    uint8_t pat[512];
    for (int i = 0; i < 512; i++)
        pat[i] = (uint8_t)(i * 7 + 1);
    int bad = 0;
    enum { K_LOAD, K_STORE, K_MM, K_ACT };
    for (int v = 0;; v++) {
        struct pb p = { 0 };
        prefix(&p, n);
        int code = 0;
        const char *what = NULL;
        uint32_t *in = NULL;
        /* Build variant v: code and instruction at pc 3. */
        switch (v) {
        case 0: what = "opcode 0"; code = PTPU_FAULT_BAD_OPCODE; in = pb_new(&p, 0); break;
        case 1: what = "opcode 7"; code = PTPU_FAULT_BAD_OPCODE; in = pb_new(&p, 7); break;
        case 2: what = "opcode 15"; code = PTPU_FAULT_BAD_OPCODE; in = pb_new(&p, 15); break;
        case 3: what = "LOAD pop_prev"; code = PTPU_FAULT_BAD_FIELD; good_load(&p, n, PB_POP_PREV); break;
        case 4: what = "LOAD push_prev"; code = PTPU_FAULT_BAD_FIELD; good_load(&p, n, PB_PUSH_PREV); break;
        case 5: what = "STORE pop_next"; code = PTPU_FAULT_BAD_FIELD; good_store(&p, n, PB_POP_NEXT); break;
        case 6: what = "STORE push_next"; code = PTPU_FAULT_BAD_FIELD; good_store(&p, n, PB_PUSH_NEXT); break;
        case 7: what = "LOAD buf 3"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_BUF, 3); break;
        case 8: what = "LOAD len0 0"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_LEN0, 0); break;
        case 9: what = "LOAD len0 > out0"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_OUT0, n - 1); break;
        case 10: what = "LOAD out0 > UB row"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_OUT0, rb + 1); break;
        case 11: what = "LOAD out0 > VP row"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_BUF, PTPU_BUF_VP); PB_SET(in, DMA_OUT0, 4 * n + 1); break;
        case 12: what = "LOAD count1 0"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_COUNT1, 0); break;
        case 13: what = "LOAD count2 0"; code = PTPU_FAULT_BAD_FIELD; in = good_load(&p, n, 0); PB_SET(in, DMA_COUNT2, 0); break;
        case 14: what = "STORE buf 1"; code = PTPU_FAULT_BAD_FIELD; in = good_store(&p, n, 0); PB_SET(in, DMA_BUF, 1); break;
        case 15: what = "STORE pad"; code = PTPU_FAULT_BAD_FIELD; in = good_store(&p, n, 0); PB_SET(in, DMA_PAD, 1); break;
        case 16: what = "STORE out0 != len0"; code = PTPU_FAULT_BAD_FIELD; in = good_store(&p, n, 0); PB_SET(in, DMA_OUT0, n - 1); break;
        case 17: what = "STORE len0 > row"; code = PTPU_FAULT_BAD_FIELD; in = good_store(&p, n, 0); PB_SET(in, DMA_LEN0, rb + 1); PB_SET(in, DMA_OUT0, rb + 1); break;
        case 18: what = "STORE count2 0"; code = PTPU_FAULT_BAD_FIELD; in = good_store(&p, n, 0); PB_SET(in, DMA_COUNT2, 0); break;
        case 19: what = "MATMUL rows 0"; code = PTPU_FAULT_BAD_FIELD; pb_matmul(&p, 0, 0, 0, 0, 0, 0, 0, 0, 0); break;
        case 20: what = "MATMUL bf16"; code = c->bf16 ? PTPU_FAULT_BAD_FIELD : PTPU_FAULT_BAD_FIELD;
            if (c->bf16) pb_matmul(&p, 1, 0, 0, 0, 0, 1, 0, 0, 0);   /* keep int8 tile as bf16 */
            else pb_matmul(&p, 1, 0, 1, 0, 0, 1, 0, 0, 0);           /* no bf16 here */
            break;
        case 21: what = "MATMUL bf16 zp"; if (!c->bf16) { pb_free(&p); continue; } code = PTPU_FAULT_BAD_FIELD; pb_matmul(&p, 1, 0, 1, 3, 0, 1, 0, 0, 0); break;
        case 22: what = "ACTIVATE out 3"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_OUT, 3); break;
        case 23: what = "ACTIVATE pool 3"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_POOL, 3); break;
        case 24: what = "ACTIVATE fp out"; code = c->bf16 ? 0 : PTPU_FAULT_BAD_FIELD; if (c->bf16) { pb_free(&p); continue; } good_act(&p, PTPU_OUT_BF16, 0); break;
        case 25: what = "ACTIVATE relu int8"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_RELU, 1); break;
        case 26: what = "ACTIVATE relu6 int8"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_RELU6, 1); break;
        case 27: what = "ACTIVATE window with POOL_NONE"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_WIN2, 2); break;
        case 28: what = "ACTIVATE count1 0"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_COUNT1, 0); break;
        case 29: what = "ACTIVATE win1 0"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_POOL, 1); PB_SET(in, ACTIVATE_WIN1, 0); break;
        case 30: what = "ACTIVATE clamp_lo > clamp_hi"; code = PTPU_FAULT_BAD_FIELD; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_CLAMP_LO, 5); PB_SET(in, ACTIVATE_CLAMP_HI, 4); break;
        case 31: what = "LOAD UB range"; code = PTPU_FAULT_BUF_RANGE; in = good_load(&p, n, 0); PB_SET(in, DMA_ROW, c->ub_rows - 1); break;
        case 32: what = "LOAD WB range"; code = PTPU_FAULT_BUF_RANGE; in = good_load(&p, n, 0); PB_SET(in, DMA_BUF, 1); PB_SET(in, DMA_ROW, c->wb_rows - 1); break;
        case 33: what = "LOAD VP range"; code = PTPU_FAULT_BUF_RANGE; in = good_load(&p, n, 0); PB_SET(in, DMA_BUF, 2); PB_SET(in, DMA_ROW, c->vp_rows - 1); break;
        case 34: what = "STORE UB range"; code = PTPU_FAULT_BUF_RANGE; in = good_store(&p, n, 0); PB_SET(in, DMA_ROW, c->ub_rows - 1); break;
        case 35: what = "MATMUL urow range"; code = PTPU_FAULT_BUF_RANGE; pb_matmul(&p, 0, 0, 0, 0, (uint32_t)c->ub_rows - 1, 2, 0, 0, 0); break;
        case 36: what = "MATMUL arow range"; code = PTPU_FAULT_BUF_RANGE; pb_matmul(&p, 0, 0, 0, 0, 0, 2, (uint32_t)c->acc_rows - 1, 0, 0); break;
        case 37: what = "MATMUL wrow range"; code = PTPU_FAULT_BUF_RANGE; pb_matmul(&p, 0, 0, 1, 0, 0, 2, 0, (uint32_t)(c->wb_rows - n + 1), 0); break;
        case 38: what = "ACTIVATE acc range"; code = PTPU_FAULT_BUF_RANGE; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_POOL, 2); PB_SET(in, ACTIVATE_WIN1, 2); PB_SET(in, ACTIVATE_WSTEP1, c->acc_rows); break;
        case 39: what = "ACTIVATE ub range"; code = PTPU_FAULT_BUF_RANGE; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_UROW, c->ub_rows - 1); PB_SET(in, ACTIVATE_COUNT2, 2); PB_SET(in, ACTIVATE_STEP2, 1); break;
        case 40: what = "ACTIVATE fp32 ub range"; if (!c->bf16) { pb_free(&p); continue; } code = PTPU_FAULT_BUF_RANGE; in = good_act(&p, PTPU_OUT_FP32, 0); PB_SET(in, ACTIVATE_UROW, c->ub_rows - 1); break;
        case 41: what = "ACTIVATE vp range"; code = PTPU_FAULT_BUF_RANGE; in = good_act(&p, 0, 0); PB_SET(in, ACTIVATE_VROW, c->vp_rows - 2); break;
        case 42: what = "MATMUL pop with no token"; code = PTPU_FAULT_TOKEN; pb_matmul(&p, 0, 0, 0, 0, 0, 1, 0, 0, PB_POP_PREV); break;
        case 43: what = "STORE pop with no token"; code = PTPU_FAULT_TOKEN; good_store(&p, n, PB_POP_PREV); break;
        case 44: what = "LOAD pop with no token"; code = PTPU_FAULT_TOKEN; good_load(&p, n, PB_POP_NEXT); break;
        case 45: what = "ACTIVATE pop store token"; code = PTPU_FAULT_TOKEN; good_act(&p, 0, PB_POP_NEXT); break;
        case 46: what = "MATMUL without weights"; code = PTPU_FAULT_NO_WEIGHTS; break;   /* below */
        case 47: what = "MATMUL keeps bf16 tile as int8"; if (!c->bf16) { pb_free(&p); continue; } code = PTPU_FAULT_BAD_FIELD; break;
        default: break;
        }
        if (!what) {
            pb_free(&p);
            break;
        }
        uint32_t fpc = 3;
        if (v == 46) {
            pb_free(&p);   /* no prefix: a fresh program whose weights are not valid */
            good_load(&p, n, 0);
            pb_matmul(&p, 0, 0, 0, 0, 0, 1, 0, 0, 0);
            fpc = 1;
        } else if (v == 47) {
            pb_matmul(&p, 1, 0, 1, 0, 0, 1, 0, 0, 0);
            pb_matmul(&p, 0, 0, 0, 0, 0, 1, 0, 0, 0);
            fpc = 4;
        }
        pb_halt(&p);
        put(r, 0x100, pat, (size_t)n);
        put(r, 0x200, pat + 64, (size_t)n);
        if (code == 0)
            code = PTPU_FAULT_BAD_FIELD;
        bad |= expect_fault(r, c, &p, p.n, code, fpc, 0, NULL, 0, what);
        if (!bad && v != 46)
            bad |= check_prefix_ran(r, n, 1, what);
        ++*count;
        pb_free(&p);
        if (bad)
            return bad;
    }

    /* Dynamic faults: the failing row's address; rows before it moved. */
    {
        const uint32_t mem = c->mem_kb * 1024u;
        struct ptpu_window win[2] = { { 0, 0x1000, 3 }, { 0x1000, 0x2000, 1 } };
        struct pb p = { 0 };
        /* LOAD rows 0x0f00 + 64*i, 4 rows: row 2 at 0x0f80 crosses into the read-only
         * window... both readable, so make row 3 cross the end of window 1 instead. */
        struct pb_dma d = pb_dma_rows(PTPU_BUF_UB, 0, 0x1f00, (uint32_t)n, (uint32_t)n, 8, 40);
        pb_load(&p, &d, PB_PUSH_NEXT);
        pb_halt(&p);
        uint32_t want = 0x1f00u + 40u * (uint32_t)((0x2000 - 0x1f00 - n) / 40 + 1);
        bad |= expect_fault(r, c, &p, p.n, PTPU_FAULT_PROT_READ, 0, want, win, 2, "PROT_READ");
        ++*count;
        pb_free(&p);
        /* STORE into the read-only window: row 1 of a store straddling 0x1000. */
        d = pb_dma_rows(PTPU_BUF_UB, 0, 0x1000 - 2u * (uint32_t)n, (uint32_t)n, (uint32_t)n, 3,
                        n);
        put(r, 0x0800, pat, 512);
        struct pb_dma ld = pb_dma_rows(PTPU_BUF_UB, 0, 0x0800, (uint32_t)n, (uint32_t)n, 3, n);
        pb_load(&p, &ld, PB_PUSH_NEXT);
        pb_matmul(&p, 0, 0, 1, 0, 0, 1, 0, 0, PB_POP_PREV | PB_PUSH_NEXT);
        pb_store(&p, &d, PB_POP_PREV);
        pb_halt(&p);
        uint8_t zero[512] = { 0 };
        put(r, 0x1000 - 2u * (uint32_t)n, zero, 2 * (size_t)n);
        bad |= expect_fault(r, c, &p, p.n, PTPU_FAULT_PROT_WRITE, 2, 0x1000, win, 2, "PROT_WRITE");
        uint8_t g[512];
        get(r, 0x1000 - 2u * (uint32_t)n, g, 2 * (size_t)n);
        if (!bad && memcmp(g, pat, 2 * (size_t)n))
            bad = fail("PROT_WRITE: the rows before the failing row were not written");
        ++*count;
        pb_free(&p);
        /* BUS_ERROR: a window beyond device memory; the first beat past the end. */
        struct ptpu_window wbig = { 0, 0xffffff00u, 3 };
        d = pb_dma_rows(PTPU_BUF_UB, 0, mem - 2u * (uint32_t)n - 5u, (uint32_t)n, (uint32_t)n, 4,
                        n);
        pb_load(&p, &d, 0);
        pb_halt(&p);
        want = mem;   /* row 2 starts at mem - 5 and needs the beat at mem */
        bad |= expect_fault(r, c, &p, p.n, PTPU_FAULT_BUS_ERROR, 0, want, &wbig, 1, "BUS_ERROR");
        ++*count;
        pb_free(&p);
        /* PROG_END: a program without HALT. */
        good_load(&p, n, 0);
        good_load(&p, n, 0);
        pb_halt(&p);
        bad |= expect_fault(r, c, &p, 2, PTPU_FAULT_PROG_END, 2, 0, NULL, 0, "PROG_END");
        ++*count;
        pb_free(&p);
        /* TOKEN: more than 65535 outstanding (65536 pushes; 2 MB of program). */
        if (c->mem_kb < 8192)
            return bad;
        for (int i = 0; i < 65536; i++)
            good_load(&p, n, PB_PUSH_NEXT);
        pb_halt(&p);
        bad |= expect_fault(r, c, &p, p.n, PTPU_FAULT_TOKEN, 65535, 0, NULL, 0, "TOKEN overflow");
        ++*count;
        pb_free(&p);
    }
    return bad;
}

/* ---- dmafn against direct formulas -------------------------------------- */

static int test_dmafn(int iters)
{
    for (int it = 0; it < iters; it++) {
        struct ptpu_dma_desc d = {
            .addr = (uint32_t)rnd(), .len0 = (uint32_t)rr(1, 64), .count1 = (uint32_t)rr(1, 9),
            .count2 = (uint32_t)rr(1, 9), .bound1 = (uint32_t)rr(0, 9), .bound2 = (uint32_t)rr(0, 9),
            .start1 = rr(-5, 5), .start2 = rr(-5, 5), .step1 = rr(-3, 3), .step2 = rr(-3, 3),
            .stride1 = (int32_t)(rnd() % 2001) - 1000, .stride2 = (int32_t)(uint32_t)rnd() };
        struct ptpu_window w[3];
        for (int i = 0; i < 3; i++) {
            w[i].base = d.addr + (uint32_t)rr(-3000, 3000);
            w[i].limit = w[i].base + (uint32_t)rr(0, 6000);
            w[i].perm = (uint32_t)rr(0, 3);
        }
        struct ptpu_dma_iter itr;
        struct ptpu_dma_row row;
        ptpu_dmafn_iter_init(&itr, &d);
        int64_t first = -1;
        uint32_t first_addr = 0;
        for (uint32_t i2 = 0; i2 < d.count2; i2++)
            for (uint32_t i1 = 0; i1 < d.count1; i1++) {
                int64_t c1 = d.start1 + (int64_t)i1 * d.step1, c2 = d.start2 + (int64_t)i2 * d.step2;
                uint32_t addr = (uint32_t)((int64_t)d.addr + c1 * d.stride1 + c2 * d.stride2);
                int inside = c1 >= 0 && c1 < d.bound1 && c2 >= 0 && c2 < d.bound2;
                uint32_t idx = i2 * d.count1 + i1;
                struct ptpu_dma_row r2;
                if (!ptpu_dmafn_iter_next(&itr, &row))
                    return fail("dmafn: iterator ended early");
                ptpu_dmafn_row(&d, idx, &r2);
                if (row.index != idx || row.addr != addr || row.inside != inside ||
                    r2.index != idx || r2.addr != addr || r2.inside != inside)
                    return fail("dmafn: row %u: got %u 0x%x %d / 0x%x %d, want 0x%x %d", idx,
                                row.index, row.addr, row.inside, r2.addr, r2.inside, addr, inside);
                int ok = 0;
                for (int i = 0; i < 3; i++)
                    ok |= (w[i].perm & 1) && (uint64_t)addr >= w[i].base &&
                          (uint64_t)addr + d.len0 <= (uint64_t)w[i].limit;
                if (inside && !ok && first < 0) {
                    first = idx;
                    first_addr = addr;
                }
            }
        if (ptpu_dmafn_iter_next(&itr, &row))
            return fail("dmafn: iterator ran past the last row");
        uint32_t fa = 0;
        int64_t f = ptpu_dmafn_first_denied(&d, w, 3, PTPU_PERM_READ, &fa);
        if (f != first || (f >= 0 && fa != first_addr))
            return fail("dmafn: first denied %lld at 0x%x, want %lld at 0x%x", (long long)f, fa,
                        (long long)first, first_addr);
    }
    struct ptpu_window top = { 0xfffff000u, 0xffffffffu, 3 };
    if (!ptpu_dmafn_allowed(&top, 1, 0xfffffff0u, 15, 1) ||
        ptpu_dmafn_allowed(&top, 1, 0xfffffff0u, 16, 1) ||
        ptpu_dmafn_allowed(&top, 1, 0xfffffff0u, 0x20, 1) || ptpu_dmafn_allowed(&top, 1, 0, 1, 1))
        return fail("dmafn: window at the top of the address space");
    return 0;
}

/* ---- the API: memory, arguments, buffers kept between runs --------------- */

static int test_api(void)
{
    struct ptpu_ref_cfg c;
    struct ptpu_ref *r;
    if (ptpu_ref_cfg_named("icebreaker", &c) || ptpu_ref_create(&c, &r))
        return fail("create icebreaker");
    int bad = 0;
    uint8_t b[64], z[64] = { 0 };
    const uint32_t mem = c.mem_kb * 1024u;
    struct ptpu_window w = { 0, mem, 3 };
    struct ptpu_run_result res;
    memset(b, 0xa5, sizeof b);
    if (ptpu_ref_mem_read(r, 0x1230, b, sizeof b) || memcmp(b, z, sizeof b))
        bad = fail("unwritten memory does not read as zero");
    else if (ptpu_ref_mem_write(r, mem - 8, b, 9) != -13 || ptpu_ref_mem_read(r, mem - 8, b, 9) != -13 ||
             ptpu_ref_mem_write(r, 0xfffffff0u, b, 32) != -13)
        bad = fail("access past device memory not refused with RANGE");
    else if (ptpu_ref_mem_write(r, mem - 64, b, 64) || ptpu_ref_mem_write(r, 65536 - 7, b, 20) ||
             ptpu_ref_mem_read(r, 65536 - 7, z, 20) || memcmp(b, z, 20))
        bad = fail("write/read across a page boundary");
    else if (ptpu_ref_run(r, 16, 1, &w, 1, &res) != -1 || ptpu_ref_run(r, 0, 0, &w, 1, &res) != -1 ||
             ptpu_ref_run(r, mem - 32, 2, &w, 1, &res) != -13 || ptpu_ref_run(r, 0, 1, &w, 17, &res) != -1)
        bad = fail("bad run arguments not refused");
    struct ptpu_ref_cfg badc = c;
    struct ptpu_ref *r2;
    badc.n = 3;
    if (!bad && ptpu_ref_create(&badc, &r2) != -1)
        bad = fail("odd N accepted");
    /* UB rows survive between runs: load in one program, store in the next. */
    if (!bad) {
        struct pb p = { 0 };
        uint8_t pat[4] = { 1, 2, 3, 4 }, got[4];
        ptpu_ref_mem_write(r, 0x100, pat, 4);
        struct pb_dma d = pb_dma_rows(PTPU_BUF_UB, 7, 0x100, 4, 4, 1, 0);
        pb_load(&p, &d, 0);
        pb_halt(&p);
        uint8_t *bytes = pb_bytes(&p);
        ptpu_ref_mem_write(r, 0x1000, bytes, (size_t)p.n * 32);
        free(bytes);
        pb_free(&p);
        if (ptpu_ref_run(r, 0x1000, 2, &w, 1, &res) || res.state != PTPU_STATE_DONE)
            bad = fail("load program");
        d.addr = 0x200;
        pb_store(&p, &d, 0);
        pb_halt(&p);
        bytes = pb_bytes(&p);
        ptpu_ref_mem_write(r, 0x1000, bytes, (size_t)p.n * 32);
        free(bytes);
        pb_free(&p);
        if (!bad && (ptpu_ref_run(r, 0x1000, 2, &w, 1, &res) || res.state != PTPU_STATE_DONE ||
                     ptpu_ref_mem_read(r, 0x200, got, 4) || memcmp(got, pat, 4) ||
                     res.counters[PTPU_CNT_STORE_INSNS] != 1 || res.counters[PTPU_CNT_BYTES_WRITTEN] != 4))
            bad = fail("UB rows not kept between programs");
    }
    ptpu_ref_destroy(r);
    return bad;
}

/* ---- LOAD and STORE against the DMA engines' bit-exact model ------------- */

/* tests/dma/dma_model.c is what the RTL DMA is verified against: the rows a LOAD leaves
 * in a buffer, the memory a STORE leaves, the fault and its address must agree with it. */
static int dma_codes[8];
static int test_dma_model(int iters)
{
    struct ptpu_ref_cfg c = { .n = 16, .bf16 = 1, .ub_rows = 512, .wb_rows = 64, .acc_rows = 64,
                              .vp_rows = 64, .mem_kb = 64 };
    const uint32_t mem = 65536, prog = 0xff00, src = 0xe000;
    uint8_t *img = malloc(mem), *want = malloc(mem), *got = malloc(mem);
    uint8_t *rows = malloc(64 * 40), row[64];
    int bad = 0;
    for (int it = 0; it < iters && !bad; it++) {
        struct ptpu_ref *r;
        if (ptpu_ref_create(&c, &r))
            return fail("create");
        int store = rr(0, 1), buf = store ? PTPU_BUF_UB : (rr(0, 2) ? PTPU_BUF_UB : PTPU_BUF_VP);
        const uint32_t rb = buf == PTPU_BUF_VP ? 64 : 32;
        for (uint32_t i = 0; i < mem; i++)
            img[i] = (uint8_t)rnd();
        struct pb_dma d = { .buf = buf, .len0 = (uint32_t)rr(1, (int)rb),
                            .count1 = (uint32_t)rr(1, 8), .count2 = (uint32_t)rr(1, 4),
                            .start1 = rr(-3, 3), .start2 = rr(-2, 2), .step1 = rr(-2, 2),
                            .step2 = rr(-2, 2), .bound1 = (uint32_t)rr(0, 10),
                            .bound2 = (uint32_t)rr(0, 6), .stride1 = rr(-200, 200),
                            .stride2 = rr(-2000, 2000) };
        if (rr(0, 3) == 0) {
            d.bound1 = 4095;
            d.bound2 = 4095;
            d.start1 = d.start2 = 3;
        }
        d.out0 = store ? d.len0 : (uint32_t)rr((int)d.len0, (int)rb);
        d.pad = store ? 0 : (uint32_t)rr(0, 255);
        d.addr = store ? (uint32_t)rr(0, 0xd000) : (uint32_t)rr(0, (int)mem + 200);
        struct ptpu_window win[4];
        int nwin = rr(1, 3);
        uint32_t lim = store ? 0xe000 : mem + 4096;
        for (int i = 0; i < nwin; i++) {
            win[i].base = (uint32_t)rr(0, (int)lim);
            win[i].limit = win[i].base + (uint32_t)rr(0, (int)(lim - win[i].base));
            win[i].perm = (uint32_t)rr(0, 3);
        }
        if (rr(0, 1)) {   /* mostly allowed */
            win[0].base = 0;
            win[0].limit = lim;
            win[0].perm = 3;
            if (!store && rr(0, 1))   /* rows running past the end of memory */
                d.addr = (uint32_t)rr((int)mem - 400, (int)mem + 100);
        }
        win[nwin++] = (struct ptpu_window){ src, src + 0x1000, 1 };   /* the STORE's rows */
        uint32_t nrows = d.count1 * d.count2;
        struct pb p = { 0 };
        if (store) {
            struct pb_dma f = pb_dma_rows(PTPU_BUF_UB, 0, src, 32, 32, nrows, 32);
            pb_load(&p, &f, PB_PUSH_NEXT);
            pb_matmul(&p, 0, 0, 1, 0, 0, 1, 0, 0, PB_POP_PREV | PB_PUSH_NEXT);
            pb_store(&p, &d, PB_POP_PREV);
        } else {
            pb_load(&p, &d, 0);
        }
        pb_halt(&p);
        uint8_t *pbytes = pb_bytes(&p);
        memcpy(img + prog, pbytes, (size_t)p.n * PTPU_INSTR_BYTES);
        free(pbytes);
        put(r, 0, img, mem);
        struct ptpu_run_result res;
        if (ptpu_ref_run(r, prog, p.n, win, nwin, &res)) {
            bad = fail("dma_model: run");
            break;
        }
        dma_env_t env = { .addr_width = 32, .beat_bytes = 32, .row_bytes = (int)rb,
                          .num_windows = nwin, .mem_size = mem };
        for (int i = 0; i < nwin; i++)
            env.win[i] = (dma_win_t){ win[i].base, win[i].limit, win[i].perm & 1, (win[i].perm >> 1) & 1 };
        dma_desc_t dd = { .addr = d.addr, .len0 = (uint16_t)d.len0, .out0 = (uint16_t)d.out0,
                          .pad = (uint8_t)d.pad, .count = { (uint16_t)d.count1, (uint16_t)d.count2 },
                          .start = { (int16_t)d.start1, (int16_t)d.start2 },
                          .step = { (int16_t)d.step1, (int16_t)d.step2 },
                          .bound = { (uint16_t)d.bound1, (uint16_t)d.bound2 },
                          .stride = { (uint32_t)d.stride1, (uint32_t)d.stride2 } };
        dma_status_t st;
        size_t moved;
        if (!store) {
            size_t n;
            st = dma_read_model(&env, img, &dd, rows, 40, &n);
            moved = st.code == DMA_OK ? n : n - 1;
            for (size_t i = 0; i < moved && !bad; i++) {
                ptpu_ref_buf_read(r, buf, (uint32_t)i, row);
                if (memcmp(row, rows + i * rb, rb))
                    bad = fail("dma_model: LOAD row %zu differs from the DMA model", i);
            }
        } else {
            dma_srow_t sr[40];
            uint8_t ub[40][32];
            for (uint32_t i = 0; i < nrows; i++) {
                ptpu_ref_buf_read(r, PTPU_BUF_UB, i, ub[i]);
                sr[i] = (dma_srow_t){ ub[i], i + 1 == nrows };
            }
            size_t consumed, written;
            long first_bad;
            memcpy(want, img, mem);
            st = dma_write_model(&env, want, &dd, sr, nrows, SIZE_MAX, &consumed, &first_bad, &written);
            get(r, 0, got, mem);
            if (memcmp(got, want, mem))
                bad = fail("dma_model: memory after STORE differs from the DMA model");
            moved = written;
        }
        int want_fault = st.code == DMA_OK ? 0 : st.code == DMA_PROT_READ ? PTPU_FAULT_PROT_READ
                       : st.code == DMA_PROT_WRITE ? PTPU_FAULT_PROT_WRITE
                       : st.code == DMA_BUS_ERROR ? PTPU_FAULT_BUS_ERROR : -1;
        uint32_t fpc = store ? 2 : 0;
        if (!bad && (want_fault == 0 ? res.state != PTPU_STATE_DONE
                                     : res.state != PTPU_STATE_FAULT || res.fault != want_fault ||
                                           res.fault_pc != fpc || res.fault_addr != (uint32_t)st.addr))
            bad = fail("dma_model: %s status: ref state %d fault %d addr 0x%x, model %s 0x%llx",
                       store ? "STORE" : "LOAD", res.state, res.fault, res.fault_addr,
                       dma_sts_name(st.code), (unsigned long long)st.addr);
        (void)moved;
        dma_codes[st.code & 7]++;
        pb_free(&p);
        ptpu_ref_destroy(r);
    }
    free(img);
    free(want);
    free(got);
    free(rows);
    return bad;
}

/* ---- main --------------------------------------------------------------- */

static void report(const char *name, int bad, const char *detail)
{
    if (bad) {
        printf("FAIL ref.%s: %s\n", name, fail_msg);
        failures++;
    } else {
        printf("PASS ref.%s %s\n", name, detail);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    int have_seed = 0, iters = 150;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
            have_seed = 1;
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    if (!have_seed && getenv("SEED")) {
        seed = strtoull(getenv("SEED"), NULL, 0);
        have_seed = 1;
    }
    if (!have_seed)
        seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    printf("# tb_ref seed=%" PRIu64 " iters=%d\n", seed, iters);
    rng_s = seed;

    char det[128];
    snprintf(det, sizeof det, "(%d random descriptors)", iters * 20);
    report("dmafn", test_dmafn(iters * 20), det);

    report("api", test_api(), "(memory, arguments, buffers kept between runs)");
    int dbad = test_dma_model(iters * 10);
    snprintf(det, sizeof det, "(%d random LOADs and STOREs: %d OK, %d PROT_READ, %d PROT_WRITE, "
             "%d BUS_ERROR)", iters * 10, dma_codes[DMA_OK], dma_codes[DMA_PROT_READ],
             dma_codes[DMA_PROT_WRITE], dma_codes[DMA_BUS_ERROR]);
    report("dma_model", dbad, det);

    static const char *cfgs[] = { "sim16", "sim32", "ulx3s", "icebreaker", "sim128" };
    for (size_t ci = 0; ci < sizeof cfgs / sizeof *cfgs; ci++) {
        struct ptpu_ref_cfg c;
        struct ptpu_ref *r;
        if (ptpu_ref_cfg_named(cfgs[ci], &c) || ptpu_ref_create(&c, &r)) {
            snprintf(fail_msg, sizeof fail_msg, "cannot create %s", cfgs[ci]);
            report(cfgs[ci], 1, "");
            continue;
        }
        int it = !strcmp(cfgs[ci], "sim128") ? iters / 10 + 1 : iters;
        static const struct { const char *name; int (*fn)(struct ptpu_ref *, const struct ptpu_ref_cfg *); } kern[] = {
            { "gemm_int8", test_gemm_int8 }, { "gemm_bf16", test_gemm_bf16 },
            { "conv2d", test_conv }, { "pool", test_pool },
        };
        for (size_t kk = 0; kk < sizeof kern / sizeof *kern; kk++) {
            if (kern[kk].fn == test_gemm_bf16 && !c.bf16)
                continue;
            int bad = 0, i;
            for (i = 0; i < it && !bad; i++)
                bad = kern[kk].fn(r, &c);
            char name[64];
            snprintf(name, sizeof name, "%s.%s", cfgs[ci], kern[kk].name);
            snprintf(det, sizeof det, "(%d random shapes)", i);
            report(name, bad, det);
        }
        int count = 0;
        char name[64];
        snprintf(name, sizeof name, "%s.faults", cfgs[ci]);
        int bad = test_faults(r, &c, &count);
        snprintf(det, sizeof det, "(%d directed fault cases)", count);
        report(name, bad, det);
        ptpu_ref_destroy(r);
    }
    printf("%s tb_ref: %d failed (seed %" PRIu64 ")\n", failures ? "FAIL" : "PASS", failures, seed);
    return failures ? 1 : 0;
}

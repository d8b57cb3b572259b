/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ops.c - every operation compiled by libpicotpu, run on a device
 * (default `ref`), against the naive kernels bit for bit, over random
 * parameters and the edge cases: 1x1 images, sizes that are not multiples of
 * the array, K = 1, padding larger than the kernel overlap, extreme zero
 * points and multipliers.
 *   test_ops [--device URI] [--seed N] [--iters N]
 */
#include <math.h>

#include "hostutil.h"
#include "picotpu.h"
#include "ptpu_arith.h"
#include "ptpu_kernels.h"
#include "ptpu_model.h"
#include "ptpu_runtime.h"
#include "progcheck.h"

static int failures, checks;
static ptpu_device *dev;
static struct ptpu_device_info info;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond)) {                                                                        \
            if (failures++ < 10) {                                                            \
                printf("# mismatch: ");                                                       \
                printf(__VA_ARGS__);                                                          \
                printf("\n");                                                                 \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static int edge(int lo, int hi)
{
    switch (hu_range(0, 5)) {
    case 0:
        return lo;
    case 1:
        return hi;
    default:
        return hu_range(lo, hi);
    }
}

static int rand_zp(void)
{
    return edge(-128, 127);
}

static void rand_i8(int8_t *p, size_t n, int lo)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (int8_t)hu_range(lo, 127);
}

/* A multiplier over a wide range: 2^-24 .. 2^4. */
static double rand_mult(void)
{
    return ldexp(0.5 + 0.5 * hu_unit(), hu_range(-24, 4));
}

static void test_gemm_i8(int iters)
{
    int n = info.n;
    for (int it = 0; it < iters; it++) {
        int M = hu_range(0, 3) ? hu_range(1, 3 * n + 3) : hu_range(1, 700);
        int N = hu_range(0, 3) ? hu_range(1, 2 * n + 1) : hu_range(1, 70);
        int K = hu_range(0, 4) ? hu_range(1, 3 * n + 1) : 1;
        if (hu_range(0, 9) == 0) {
            /* many output-channel tiles on few rows: up to GMAX = 8 weight tiles per input
             * LOAD (ptpu_compile.c, group_size) */
            M = hu_range(1, 2 * n);
            N = hu_range(5 * n, 17 * n + 3);
        }
        if (hu_range(0, 9) == 0)   /* rows of A and C padded in device memory (ptpu_gemm_lda) */
            K = hu_range(0, 1) ? 512 * hu_range(1, 2) : hu_range(480, 1100);
        if (hu_range(0, 19) == 0)
            N = 512;
        int zpa = rand_zp();
        int8_t *A = malloc((size_t)M * K), *B = malloc((size_t)K * N);
        int8_t *C = malloc((size_t)M * N), *R = malloc((size_t)M * N);
        int32_t *bias = malloc(4 * (size_t)N), *m0 = malloc(4 * (size_t)N), *sh = malloc(4 * (size_t)N);
        rand_i8(A, (size_t)M * K, -128);
        rand_i8(B, (size_t)K * N, hu_range(0, 1) ? -127 : -128);  /* the API takes -128 too */
        for (int j = 0; j < N; j++) {
            int s;
            bias[j] = hu_range(-(1 << 20), 1 << 20);
            ptpu_quantize_multiplier(rand_mult(), &m0[j], &s);
            if (s < -31)
                s = -31;
            sh[j] = s;
            if (hu_range(0, 20) == 0) {
                m0[j] = INT32_MAX;
                sh[j] = hu_range(-31, 31);
            }
        }
        int lo = hu_range(-128, 0), hi = hu_range(lo, 127);
        struct ptpu_quant q = {hu_range(0, 3) ? bias : NULL, m0, sh, rand_zp(), lo, hi};
        ptpu_k_gemm_i8(M, N, K, A, zpa, B, &q, R);
        struct ptpu_counters cnt;
        int rc = ptpu_gemm_i8(dev, M, N, K, A, zpa, B, &q, C, &cnt);
        if (rc == PTPU_ERR_RANGE && info.mem_kb < 1024) {
            printf("# gemm_i8 M=%d N=%d K=%d does not fit %u KB\n", M, N, K, info.mem_kb);
            rc = 0;
            memcpy(C, R, (size_t)M * N);
        }
        CHECK(rc == 0, "gemm_i8 M=%d N=%d K=%d: %s (%s)", M, N, K, ptpu_error_name(rc),
              ptpu_last_error(dev));
        if (rc == 0) {
            size_t bad = 0;
            for (size_t i = 0; i < (size_t)M * N; i++)
                bad += C[i] != R[i];
            CHECK(bad == 0, "gemm_i8 M=%d N=%d K=%d zp=%d: %zu of %d outputs differ", M, N, K,
                  zpa, bad, M * N);
        }
        free(A);
        free(B);
        free(C);
        free(R);
        free(bias);
        free(m0);
        free(sh);
    }
}

static uint16_t rand_bf16(void)
{
    switch (hu_range(0, 15)) {
    case 0:
        return 0;
    case 1:
        return 0x8000;
    case 2:
        return (uint16_t)(0x0001 + hu_range(0, 0x7e));   /* subnormal */
    default: {
        int e = hu_range(100, 150);
        return (uint16_t)((hu_range(0, 1) << 15) | (e << 7) | hu_range(0, 127));
    }
    }
}

static void test_gemm_bf16(int iters)
{
    int n = info.n;
    if (!info.bf16) {
        printf("# bf16 GEMM skipped: %s has no bf16\n", info.config);
        return;
    }
    for (int it = 0; it < iters; it++) {
        int M = hu_range(1, 3 * n + 2), N = hu_range(1, 2 * n + 3);
        int K = hu_range(0, 4) ? hu_range(1, 3 * n + 1) : 1;
        int relu = hu_range(0, 1), obf = hu_range(0, 1);
        if (hu_range(0, 9) == 0) {   /* many output-channel tiles: up to 8 per input LOAD */
            M = hu_range(1, 2 * n);
            N = hu_range(5 * n, 17 * n + 3);
        }
        if (hu_range(0, 9) == 0)   /* padded rows of A and C (ptpu_gemm_lda) */
            K = hu_range(0, 1) ? 256 * hu_range(1, 2) : hu_range(240, 560);
        if (hu_range(0, 19) == 0)
            N = 256;
        if (hu_range(0, 30) == 0) {   /* more column tiles than VP rows: several passes */
            M = hu_range(1, 3);
            K = hu_range(1, n);
            N = hu_range(info.vp_rows * n - n, (info.vp_rows + 3) * n);
        }
        uint16_t *A = malloc(2 * (size_t)M * K), *B = malloc(2 * (size_t)K * N);
        uint32_t *bias = malloc(4 * (size_t)N);
        uint32_t *C = malloc(4 * (size_t)M * N), *R = malloc(4 * (size_t)M * N);
        for (size_t i = 0; i < (size_t)M * K; i++)
            A[i] = rand_bf16();
        for (size_t i = 0; i < (size_t)K * N; i++)
            B[i] = rand_bf16();
        for (int j = 0; j < N; j++)
            bias[j] = (uint32_t)rand_bf16() << 16;
        uint32_t *bp = hu_range(0, 2) ? bias : NULL;
        memset(C, 0, 4 * (size_t)M * N);
        memset(R, 0, 4 * (size_t)M * N);
        ptpu_k_gemm_bf16(n, M, N, K, A, B, bp, relu, obf, R);
        int rc = ptpu_gemm_bf16(dev, M, N, K, A, B, bp, relu, obf, C, NULL);
        CHECK(rc == 0, "gemm_bf16 M=%d N=%d K=%d: %s (%s)", M, N, K, ptpu_error_name(rc),
              ptpu_last_error(dev));
        if (rc == 0)
            CHECK(!memcmp(C, R, (size_t)M * N * (obf ? 2 : 4)),
                  "gemm_bf16 M=%d N=%d K=%d relu=%d bf16out=%d differs", M, N, K, relu, obf);
        free(A);
        free(B);
        free(bias);
        free(C);
        free(R);
    }
}

/* ---- model ops: a small model per case, device against ptpu_model_run_host ---- */

static float rand_scale(void)
{
    return (float)ldexp(0.5 + hu_unit(), hu_range(-12, 2));
}

struct wts {
    int8_t *w;
    int32_t *b;
    float *s;
};

static void wts_make(struct wts *x, size_t nw, int cout)
{
    x->w = malloc(nw ? nw : 1);
    x->b = malloc(4 * (size_t)cout);
    x->s = malloc(4 * (size_t)cout);
    rand_i8(x->w, nw, -127);
    for (int c = 0; c < cout; c++) {
        x->b[c] = hu_range(-(1 << 16), 1 << 16);
        x->s[c] = (float)ldexp(0.5 + hu_unit(), hu_range(-14, -4));
    }
}

static void wts_free(struct wts *x)
{
    free(x->w);
    free(x->b);
    free(x->s);
}

static void rand_conv_params(struct ptpu_conv_params *p, int maxk)
{
    p->kh = hu_range(1, maxk);
    p->kw = hu_range(1, maxk);
    p->stride_h = hu_range(0, 2) ? 1 : hu_range(2, 3);
    p->stride_w = hu_range(0, 2) ? 1 : hu_range(2, 3);
    p->dil_h = hu_range(0, 4) ? 1 : 2;
    p->dil_w = hu_range(0, 4) ? 1 : 2;
    p->padding = (enum ptpu_padding)hu_range(0, 2);
    p->pad_t = hu_range(0, 4);
    p->pad_b = hu_range(0, 4);
    p->pad_l = hu_range(0, 4);
    p->pad_r = hu_range(0, 4);
    p->act = (enum ptpu_act)hu_range(0, 2);
}

/* Run the builder's model on the host and on the device; 1 when compared. */
static int compare_model(ptpu_model_builder *mb, const char *what)
{
    uint8_t *img;
    size_t len;
    ptpu_model *m;
    if (ptpu_mb_image(mb, &img, &len))
        return 0;
    int rc = ptpu_model_load_mem(img, len, &m);
    free(img);
    CHECK(rc == 0, "%s: reload of a built model: %s", what, ptpu_last_error(NULL));
    if (rc)
        return 0;
    struct ptpu_shape si, so;
    ptpu_model_io(m, &si, &so);
    size_t ni = (size_t)si.h * si.w * si.c, no = (size_t)so.h * so.w * so.c;
    int8_t *in = malloc(ni), *o1 = malloc(no), *o2 = malloc(no);
    rand_i8(in, ni, -128);
    ptpu_model_run_host(m, in, o1);
    /* alternately op by op and as one asynchronous program */
    static int async;
    if ((async ^= 1)) {
        rc = ptpu_model_start(dev, m, in);
        if (!rc)
            rc = ptpu_model_wait(dev, m, o2, NULL);
    } else {
        rc = ptpu_model_run(dev, m, in, o2, NULL);
    }
    if (rc == PTPU_ERR_UNSUPPORTED || (rc == PTPU_ERR_RANGE && info.mem_kb < 1024)) {
        printf("# %s: unsupported on the device: %s\n", what, ptpu_last_error(dev));
    } else {
        CHECK(rc == 0, "%s: %s (%s)", what, ptpu_error_name(rc), ptpu_last_error(dev));
        if (!rc) {
            size_t bad = 0;
            for (size_t i = 0; i < no; i++)
                bad += o1[i] != o2[i];
            CHECK(bad == 0, "%s: %zu of %zu outputs differ", what, bad, no);
        }
    }
    free(in);
    free(o1);
    free(o2);
    ptpu_model_free(m);
    return 1;
}

static void test_conv(int iters, int depthwise)
{
    int n = info.n, done = 0;
    while (done < iters) {
        int H = edge(1, 12), W = edge(1, 12), C = hu_range(0, 3) ? hu_range(1, 2 * n + 3) : 1;
        int cout = depthwise ? C : hu_range(1, 2 * n + 3);
        if (hu_range(0, 9) == 0) {   /* several pixel tiles */
            H = hu_range(20, 40);
            W = hu_range(20, 40);
        } else if (hu_range(0, 24) == 0) {
            /* more output-channel tiles than the VP buffer holds: several passes */
            H = hu_range(1, 3);
            W = hu_range(1, 3);
            C = hu_range(1, 5);
            cout = hu_range(info.vp_rows / 3 * n - n, (info.vp_rows / 3 + 3) * n);
            if (depthwise)
                C = cout;
        }
        struct ptpu_conv_params p;
        rand_conv_params(&p, 5);
        ptpu_model_builder *mb;
        ptpu_mb_create(&mb);
        int t0 = ptpu_mb_input(mb, H, W, C, rand_scale(), rand_zp());
        struct wts x;
        wts_make(&x, (size_t)(depthwise ? 1 : cout) * p.kh * p.kw * C, cout);
        int t1 = depthwise ? ptpu_mb_depthwise2d(mb, t0, &p, x.w, x.b, x.s, rand_scale(), rand_zp())
                           : ptpu_mb_conv2d(mb, t0, cout, &p, x.w, x.b, x.s, rand_scale(),
                                            rand_zp());
        char what[160];
        snprintf(what, sizeof(what), "%s %dx%dx%d->%d k%dx%d s%dx%d d%dx%d pad%d(%d,%d,%d,%d) act%d",
                 depthwise ? "depthwise" : "conv2d", H, W, C, cout, p.kh, p.kw, p.stride_h,
                 p.stride_w, p.dil_h, p.dil_w, p.padding, p.pad_t, p.pad_b, p.pad_l, p.pad_r,
                 p.act);
        if (t1 > 0 && compare_model(mb, what))
            done++;
        wts_free(&x);
        ptpu_mb_free(mb);
    }
}

static void test_fc(int iters)
{
    int n = info.n;
    for (int it = 0; it < iters; it++) {
        int H = hu_range(1, 4), W = hu_range(1, 4), C = hu_range(1, 2 * n + 1);
        int cout = hu_range(1, 3 * n);
        ptpu_model_builder *mb;
        ptpu_mb_create(&mb);
        int t0 = ptpu_mb_input(mb, H, W, C, rand_scale(), rand_zp());
        struct wts x;
        wts_make(&x, (size_t)cout * H * W * C, cout);
        int t1 = ptpu_mb_fc(mb, t0, cout, x.w, x.b, x.s, (enum ptpu_act)hu_range(0, 2),
                            rand_scale(), rand_zp());
        char what[96];
        snprintf(what, sizeof(what), "fc %dx%dx%d->%d", H, W, C, cout);
        CHECK(t1 > 0, "%s: builder rejected it", what);
        if (t1 > 0)
            compare_model(mb, what);
        wts_free(&x);
        ptpu_mb_free(mb);
    }
}

static void test_pool(int iters, int avg)
{
    int n = info.n, done = 0;
    while (done < iters) {
        int H = edge(1, 20), W = edge(1, 20), C = hu_range(1, 2 * n + 3);
        int kh = hu_range(1, 4), kw = hu_range(1, 4), sh = hu_range(1, 3), sw = hu_range(1, 3);
        if (hu_range(0, 9) == 0) {   /* global pool */
            kh = avg || H < 15 ? H : 15;
            kw = avg || W < 15 ? W : 15;
            sh = sw = 1;
        }
        enum ptpu_padding pad = (enum ptpu_padding)hu_range(0, 1);
        ptpu_model_builder *mb;
        ptpu_mb_create(&mb);
        int t0 = ptpu_mb_input(mb, H, W, C, rand_scale(), rand_zp());
        int t1 = avg ? ptpu_mb_avgpool(mb, t0, kh, kw, sh, sw, pad, rand_scale(), rand_zp())
                     : ptpu_mb_maxpool(mb, t0, kh, kw, sh, sw, pad);
        char what[96];
        snprintf(what, sizeof(what), "%s %dx%dx%d k%dx%d s%dx%d %s", avg ? "avgpool" : "maxpool",
                 H, W, C, kh, kw, sh, sw, pad ? "SAME" : "VALID");
        if (t1 > 0 && compare_model(mb, what))
            done++;
        ptpu_mb_free(mb);
    }
}

static void test_add(int iters)
{
    int n = info.n;
    for (int it = 0; it < iters; it++) {
        int H = edge(1, 10), W = edge(1, 10), C = hu_range(1, 2 * n + 3);
        ptpu_model_builder *mb;
        ptpu_mb_create(&mb);
        int t0 = ptpu_mb_input(mb, H, W, C, rand_scale(), rand_zp());
        struct ptpu_conv_params p = {1, 1, 1, 1, 1, 1, PTPU_PAD_VALID, 0, 0, 0, 0, PTPU_ACT_NONE};
        struct wts x;
        wts_make(&x, (size_t)C * C, C);
        int t1 = ptpu_mb_conv2d(mb, t0, C, &p, x.w, x.b, x.s, rand_scale(), rand_zp());
        int a = hu_range(0, 1) ? t0 : t1, b = hu_range(0, 1) ? t0 : t1;
        int t2 = ptpu_mb_add(mb, a, b, (enum ptpu_act)hu_range(0, 2), rand_scale(), rand_zp());
        char what[96];
        snprintf(what, sizeof(what), "add %dx%dx%d (%d+%d)", H, W, C, a, b);
        CHECK(t2 > 0, "%s: builder rejected it (%s)", what, ptpu_mb_error(mb));
        if (t2 > 0)
            compare_model(mb, what);
        wts_free(&x);
        ptpu_mb_free(mb);
    }
}

/* A small CNN end to end: conv, pool, depthwise, residual add, avgpool, fc. */
static void test_cnn(int iters)
{
    for (int it = 0; it < iters; it++) {
        int H = hu_range(6, 16), W = hu_range(6, 16), C = hu_range(1, 3), F = hu_range(4, 24);
        ptpu_model_builder *mb;
        ptpu_mb_create(&mb);
        int t = ptpu_mb_input(mb, H, W, C, rand_scale(), rand_zp());
        struct ptpu_conv_params p3 = {3, 3, 1, 1, 1, 1, PTPU_PAD_SAME, 0, 0, 0, 0, PTPU_ACT_RELU};
        struct wts a, b, c, d;
        wts_make(&a, (size_t)F * 9 * C, F);
        wts_make(&b, (size_t)9 * F, F);
        wts_make(&c, (size_t)F * 9 * F, F);
        int t1 = ptpu_mb_conv2d(mb, t, F, &p3, a.w, a.b, a.s, 0.05f, -128);
        int t2 = ptpu_mb_maxpool(mb, t1, 2, 2, 2, 2, PTPU_PAD_SAME);
        int t3 = ptpu_mb_depthwise2d(mb, t2, &p3, b.w, b.b, b.s, 0.05f, -100);
        int t4 = ptpu_mb_conv2d(mb, t3, F, &p3, c.w, c.b, c.s, 0.04f, -90);
        int t5 = ptpu_mb_add(mb, t2, t4, PTPU_ACT_RELU, 0.06f, -128);
        struct ptpu_shape sh = {0};
        (void)sh;
        int h5 = (H + 1) / 2, w5 = (W + 1) / 2;
        int t6 = ptpu_mb_avgpool(mb, t5, h5 < 15 ? h5 : 15, w5 < 15 ? w5 : 15, 1, 1,
                                 PTPU_PAD_VALID, 0.03f, 0);
        wts_make(&d, (size_t)10 * F * (h5 - (h5 < 15 ? h5 : 15) + 1) * (w5 - (w5 < 15 ? w5 : 15) + 1), 10);
        int t7 = ptpu_mb_fc(mb, t6, 10, d.w, d.b, d.s, PTPU_ACT_NONE, 0.1f, 0);
        ptpu_mb_output(mb, t7);
        CHECK(t1 > 0 && t2 > 0 && t3 > 0 && t4 > 0 && t5 > 0 && t6 > 0 && t7 > 0,
              "cnn: builder failed (%s)", ptpu_mb_error(mb));
        if (t7 > 0)
            compare_model(mb, "cnn");
        wts_free(&a);
        wts_free(&b);
        wts_free(&c);
        wts_free(&d);
        ptpu_mb_free(mb);
    }
}

/* Every program the library uploads goes through the race checker. */
static int programs, racy;
static void check_program(const uint32_t *w, size_t n, const struct ptpu_hw *hw)
{
    char err[256];
    programs++;
    if (progcheck(w, n, hw->n, hw->bf16, hw->ub_rows, hw->wb_rows, hw->acc_rows, hw->vp_rows,
                  err, sizeof(err))) {
        if (racy++ < 5)
            printf("# program of %zu instructions: %s\n", n, err);
    }
}

/* Random graphs: chains of random ops with residual adds back to earlier tensors. */
static void test_randnet(int iters)
{
    int n = info.n;
    for (int it = 0; it < iters; it++) {
        ptpu_model_builder *mb;
        ptpu_mb_create(&mb);
        int H = hu_range(3, 14), W = hu_range(3, 14), C = hu_range(1, 2 * n);
        int ids[16], hh[16], ww[16], cc[16], nt = 0;
        ids[nt] = ptpu_mb_input(mb, H, W, C, rand_scale(), rand_zp());
        hh[nt] = H, ww[nt] = W, cc[nt++] = C;
        struct wts x[16];
        int nx = 0, nops = hu_range(2, 8);
        char what[256] = "randnet:";
        for (int k = 0; k < nops && nt < 15; k++) {
            int src = nt - 1, kind = hu_range(0, 5), t = -1;
            int h = hh[src], w = ww[src], c = cc[src];
            struct ptpu_conv_params p;
            rand_conv_params(&p, 3);
            p.dil_h = p.dil_w = 1;
            switch (kind) {
            case 0:
            case 1: {
                int co = hu_range(1, 2 * n + 2);
                wts_make(&x[nx], (size_t)co * p.kh * p.kw * c, co);
                t = ptpu_mb_conv2d(mb, ids[src], co, &p, x[nx].w, x[nx].b, x[nx].s,
                                   rand_scale(), rand_zp());
                nx++;
                break;
            }
            case 2:
                wts_make(&x[nx], (size_t)p.kh * p.kw * c, c);
                t = ptpu_mb_depthwise2d(mb, ids[src], &p, x[nx].w, x[nx].b, x[nx].s,
                                        rand_scale(), rand_zp());
                nx++;
                break;
            case 3:
                t = ptpu_mb_maxpool(mb, ids[src], hu_range(1, 3), hu_range(1, 3), hu_range(1, 2),
                                    hu_range(1, 2), (enum ptpu_padding)hu_range(0, 1));
                break;
            case 4:
                t = ptpu_mb_avgpool(mb, ids[src], hu_range(1, 3), hu_range(1, 3), hu_range(1, 2),
                                    hu_range(1, 2), (enum ptpu_padding)hu_range(0, 1),
                                    rand_scale(), rand_zp());
                break;
            default:
                /* add to an earlier tensor of the same shape, if any */
                for (int e = src - 1; e >= 0 && t < 0; e--)
                    if (hh[e] == h && ww[e] == w && cc[e] == c)
                        t = ptpu_mb_add(mb, ids[e], ids[src], (enum ptpu_act)hu_range(0, 2),
                                        rand_scale(), rand_zp());
                break;
            }
            if (t <= 0)
                continue;
            ids[nt] = t;
            /* the shape of the new tensor: from a one-op image of the builder */
            uint8_t *img;
            size_t len;
            ptpu_model *tmp;
            ptpu_mb_output(mb, t);
            if (ptpu_mb_image(mb, &img, &len) || ptpu_model_load_mem(img, len, &tmp))
                break;
            struct ptpu_shape so;
            ptpu_model_io(tmp, NULL, &so);
            ptpu_model_free(tmp);
            free(img);
            hh[nt] = so.h, ww[nt] = so.w, cc[nt++] = so.c;
            snprintf(what + strlen(what), sizeof(what) - strlen(what), " %d", kind);
        }
        if (nt > 1)
            compare_model(mb, what);
        for (int k = 0; k < nx; k++)
            wts_free(&x[k]);
        ptpu_mb_free(mb);
    }
}

int main(int argc, char **argv)
{
    ptpu_prog_hook = check_program;
    uint64_t seed;
    int iters = 200;
    const char *uri = "ref";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            uri = argv[++i];
    hu_args(argc, argv, "test_ops", &seed, &iters);
    int rc = ptpu_open(uri, &dev);
    if (rc) {
        printf("FAIL host_ops: cannot open %s: %s\n", uri, ptpu_last_error(NULL));
        return 1;
    }
    ptpu_device_info(dev, &info);
    printf("# device %s config %s N=%d\n", info.backend, info.config, info.n);
    test_gemm_i8(iters);
    test_gemm_bf16(iters / 2);
    test_conv(iters, 0);
    test_conv(iters / 2, 1);
    test_fc(iters / 4);
    test_pool(iters / 2, 0);
    test_pool(iters / 2, 1);
    test_add(iters / 4);
    test_cnn(iters / 20 + 1);
    test_randnet(iters / 5 + 1);
    ptpu_close(dev);
    printf("# %d programs race-checked, %d with races\n", programs, racy);
    checks++;
    if (racy)
        failures++;
    if (failures) {
        printf("FAIL host_ops[%s:%s]: %d of %d checks failed (seed %llu)\n", info.backend,
               info.config, failures, checks, (unsigned long long)seed);
        return 1;
    }
    printf("PASS host_ops[%s:%s]: %d checks, seed %llu\n", info.backend, info.config, checks,
           (unsigned long long)seed);
    return 0;
}

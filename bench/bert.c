/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bert.c - the matmuls of one BERT-base encoder layer (docs/workloads.md) and a
 * large GEMM, int8 and bf16, on a picotpu device, each checked bit for bit against
 * the naive kernels (host/src/ptpu_kernels.h).
 *
 *   bert [--device URI] [--seq S] [--hidden H] [--heads A] [--ffn F] [--seed N]
 *        [--dtype int8|bf16|both|none] [--gemm M] [--only NAME,...] [--no-check]
 *        [--tsv FILE]
 *
 * Shapes (M x N x K, BERT-base at S = 128: H = 768, A = 12, F = 3072):
 *   qkv    S x 3H x H        (Q, K and V projections as one GEMM)
 *   scores S x S x H/A       per head (A times)
 *   attnv  S x H/A x S       per head (A times)
 *   proj   S x H x H
 *   ffn1   S x F x H
 *   ffn2   S x H x F
 * The per-head matmuls run once and count A times (same shape, same program).
 * --gemm M adds an int8 M x M x M GEMM (gemm1024 at M = 1024).  Utilization =
 * MXU rows / cycles summed over the layer's matmuls (--only: over the named ones, for
 * slow devices).  Prints "RESULT key value".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "picotpu.h"
#include "ptpu_kernels.h"

static uint64_t rs = 1;
static uint64_t rnext(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bert: out of memory\n");
        exit(1);
    }
    return p;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* bf16 values of magnitude 2^-7..2^0, random sign and mantissa */
static uint16_t rbf16(void)
{
    uint64_t r = rnext();
    return (uint16_t)((r & 0x8000) | (uint16_t)(120 + (r >> 16) % 8) << 7 | ((r >> 24) & 0x7f));
}

struct mm {
    const char *name;
    int M, N, K, count;
};

/* One GEMM on the device against the naive kernel; counters in *c; returns 0 when identical. */
static int run(ptpu_device *dev, int bf16, int n, const struct mm *s, int check,
               struct ptpu_counters *c, double *wall)
{
    size_t MK = (size_t)s->M * s->K, KN = (size_t)s->K * s->N, MN = (size_t)s->M * s->N;
    int rc;
    double t0;
    if (!bf16) {
        int8_t *A = xmalloc(MK), *B = xmalloc(KN), *C = xmalloc(MN), *R = xmalloc(MN);
        int32_t *bias = xmalloc(4 * (size_t)s->N), *m0 = xmalloc(4 * (size_t)s->N),
                *sh = xmalloc(4 * (size_t)s->N);
        for (size_t i = 0; i < MK; i++)
            A[i] = (int8_t)rnext();
        for (size_t i = 0; i < KN; i++)
            B[i] = (int8_t)((int)(rnext() % 255) - 127);
        for (int i = 0; i < s->N; i++) {
            bias[i] = (int32_t)(rnext() % 20001) - 10000;
            m0[i] = (int32_t)(0x40000000u + rnext() % 0x3fffffffu);
            sh[i] = -8 - (int)(rnext() % 4);   /* |acc| ~ 2^14 sqrt(K): keeps outputs in range */
        }
        struct ptpu_quant q = {bias, m0, sh, 5, -128, 127};
        t0 = now();
        rc = ptpu_gemm_i8(dev, s->M, s->N, s->K, A, -3, B, &q, C, c);
        *wall = now() - t0;
        if (!rc && check) {
            ptpu_k_gemm_i8(s->M, s->N, s->K, A, -3, B, &q, R);
            rc = memcmp(C, R, MN) ? 1 : 0;
        }
        free(A), free(B), free(C), free(R), free(bias), free(m0), free(sh);
    } else {
        uint16_t *A = xmalloc(2 * MK), *B = xmalloc(2 * KN), *C = xmalloc(2 * MN),
                 *R = xmalloc(2 * MN);
        for (size_t i = 0; i < MK; i++)
            A[i] = rbf16();
        for (size_t i = 0; i < KN; i++)
            B[i] = rbf16();
        t0 = now();
        rc = ptpu_gemm_bf16(dev, s->M, s->N, s->K, A, B, NULL, 0, 1, C, c);
        *wall = now() - t0;
        if (!rc && check) {
            ptpu_k_gemm_bf16(n, s->M, s->N, s->K, A, B, NULL, 0, 1, R);
            rc = memcmp(C, R, 2 * MN) ? 1 : 0;
        }
        free(A), free(B), free(C), free(R);
    }
    return rc;
}

int main(int argc, char **argv)
{
    const char *uri = "ref", *tsv = NULL, *dt = "both", *only = NULL;
    int S = 128, H = 768, A = 12, F = 3072, check = 1, gemm = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            uri = argv[++i];
        else if (!strcmp(argv[i], "--seq") && i + 1 < argc)
            S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hidden") && i + 1 < argc)
            H = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--heads") && i + 1 < argc)
            A = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ffn") && i + 1 < argc)
            F = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rs = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--dtype") && i + 1 < argc)
            dt = argv[++i];
        else if (!strcmp(argv[i], "--gemm") && i + 1 < argc)
            gemm = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--tsv") && i + 1 < argc)
            tsv = argv[++i];
        else if (!strcmp(argv[i], "--no-check"))
            check = 0;
        else {
            fprintf(stderr, "usage: bert [--device URI] [--seq S] [--hidden H] [--heads A] "
                            "[--ffn F] [--seed N] [--dtype int8|bf16|both|none] [--gemm M] "
                            "[--only NAME,...] [--no-check] [--tsv FILE]\n");
            return 2;
        }
    }
    uint64_t seed = rs;
    printf("# bert seed=%llu seq=%d hidden=%d heads=%d ffn=%d device=%s\n",
           (unsigned long long)seed, S, H, A, F, uri);
    if (H % A) {
        fprintf(stderr, "bert: hidden %% heads != 0\n");
        return 2;
    }
    ptpu_device *dev;
    if (ptpu_open(uri, &dev)) {
        printf("FAIL bert: cannot open %s: %s\n", uri, ptpu_last_error(NULL));
        return 1;
    }
    struct ptpu_device_info info;
    ptpu_device_info(dev, &info);
    const struct mm layer[] = {{"qkv", S, 3 * H, H, 1},      {"scores", S, S, H / A, A},
                               {"attnv", S, H / A, S, A},    {"proj", S, H, H, 1},
                               {"ffn1", S, F, H, 1},         {"ffn2", S, H, F, 1}};
    FILE *f = tsv ? fopen(tsv, "w") : NULL;
    if (f)
        fprintf(f, "dtype\tname\tM\tN\tK\tcount\tcycles\tmxu_rows\tutil\tbytes_read"
                   "\tbytes_written\twall_s\n");
    printf("%-5s %-7s %16s %5s %12s %12s %7s\n", "dtype", "matmul", "M x N x K", "count",
           "cycles", "MXU rows", "util");
    int bad = 0;
    for (int d = 0; d < 2; d++) {
        if ((d == 0 && !strcmp(dt, "bf16")) || (d == 1 && !strcmp(dt, "int8")) ||
            !strcmp(dt, "none"))
            continue;
        if (d == 1 && !info.bf16) {
            printf("# %s has no bf16: skipped\n", info.config);
            continue;
        }
        const char *dn = d ? "bf16" : "int8";
        uint64_t cyc = 0, rows = 0;
        for (size_t i = 0; i < sizeof(layer) / sizeof(layer[0]); i++) {
            const struct mm *s = &layer[i];
            if (only && !strstr(only, s->name))
                continue;
            struct ptpu_counters c;
            double wall;
            int rc = run(dev, d, info.n, s, check, &c, &wall);
            if (rc) {
                printf("# fail bert[%s:%s]: %s %s %dx%dx%d: %s %s\n", info.backend, info.config,
                       dn, s->name, s->M, s->N, s->K,
                       rc > 0 ? "differs from the naive kernel" : ptpu_error_name(rc),
                       rc > 0 ? "" : ptpu_last_error(dev));
                bad = 1;
                continue;
            }
            char shp[40];
            snprintf(shp, sizeof(shp), "%dx%dx%d", s->M, s->N, s->K);
            printf("%-5s %-7s %16s %5d %12llu %12llu %6.1f%%\n", dn, s->name, shp, s->count,
                   (unsigned long long)c.c[PTPU_CNT_CYCLES],
                   (unsigned long long)c.c[PTPU_CNT_MXU_ROWS], 100 * c.utilization);
            if (f)
                fprintf(f, "%s\t%s\t%d\t%d\t%d\t%d\t%llu\t%llu\t%.4f\t%llu\t%llu\t%.3f\n", dn,
                        s->name, s->M, s->N, s->K, s->count,
                        (unsigned long long)c.c[PTPU_CNT_CYCLES],
                        (unsigned long long)c.c[PTPU_CNT_MXU_ROWS], c.utilization,
                        (unsigned long long)c.c[PTPU_CNT_BYTES_READ],
                        (unsigned long long)c.c[PTPU_CNT_BYTES_WRITTEN], wall);
            cyc += (uint64_t)s->count * c.c[PTPU_CNT_CYCLES];
            rows += (uint64_t)s->count * c.c[PTPU_CNT_MXU_ROWS];
        }
        printf("RESULT %s_cycles %llu\nRESULT %s_utilization %.4f\n", dn,
               (unsigned long long)cyc, dn, cyc ? (double)rows / (double)cyc : 0);
    }
    if (gemm > 0) {
        struct mm s = {"gemm", gemm, gemm, gemm, 1};
        struct ptpu_counters c;
        double wall;
        int rc = run(dev, 0, info.n, &s, check, &c, &wall);
        if (rc) {
            printf("# fail bert[%s:%s]: int8 GEMM %d^3: %s\n", info.backend, info.config, gemm,
                   rc > 0 ? "differs from the naive kernel" : ptpu_error_name(rc));
            bad = 1;
        } else {
            printf("int8  gemm    %6dx%dx%d %5d %12llu %12llu %6.1f%%\n", gemm, gemm, gemm, 1,
                   (unsigned long long)c.c[PTPU_CNT_CYCLES],
                   (unsigned long long)c.c[PTPU_CNT_MXU_ROWS], 100 * c.utilization);
            printf("RESULT gemm_cycles %llu\nRESULT gemm_utilization %.4f\n"
                   "RESULT gemm_bytes %llu\n",
                   (unsigned long long)c.c[PTPU_CNT_CYCLES], c.utilization,
                   (unsigned long long)(c.c[PTPU_CNT_BYTES_READ] + c.c[PTPU_CNT_BYTES_WRITTEN]));
            if (f)
                fprintf(f, "int8\tgemm%d\t%d\t%d\t%d\t1\t%llu\t%llu\t%.4f\t%llu\t%llu\t%.3f\n",
                        gemm, gemm, gemm, gemm, (unsigned long long)c.c[PTPU_CNT_CYCLES],
                        (unsigned long long)c.c[PTPU_CNT_MXU_ROWS], c.utilization,
                        (unsigned long long)c.c[PTPU_CNT_BYTES_READ],
                        (unsigned long long)c.c[PTPU_CNT_BYTES_WRITTEN], wall);
        }
    }
    if (f)
        fclose(f);
    if (!bad)
        printf("PASS bert[%s:%s]: every matmul identical to the naive kernels%s (seed %llu)\n",
               info.backend, info.config, check ? "" : " (not checked)",
               (unsigned long long)seed);
    else
        printf("FAIL bert[%s:%s]: matmuls not identical to the naive kernels or failed "
               "(lines '# fail' above; seed %llu)\n", info.backend, info.config,
               (unsigned long long)seed);
    ptpu_close(dev);
    return bad;
}

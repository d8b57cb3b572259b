/* SPDX-License-Identifier: Apache-2.0 */
/*
 * picotpu - command-line tool of libpicotpu (docs/runtime.md).
 *
 *   picotpu [--device URI] [--trace FILE] info
 *   picotpu [--device URI] [--trace FILE] run MODEL INPUT   (INPUT: raw int8 NHWC, or
 *                                                         "random")
 *   picotpu [--device URI] [--trace FILE] gemm M N K [bf16]
 *   picotpu [--device URI] [--trace FILE] bench
 *   picotpu [--device URI] classify MODEL INPUTS [--labels FILE] [--count N] [--offset K]
 *                                   [--classes A,B,...] [--json FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "picotpu.h"
#include "ptpu_arith.h"
#include "ptpu_kernels.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: picotpu [--device URI] [--trace FILE] COMMAND\n"
            "  info                 the device and its configuration\n"
            "  run MODEL INPUT      run a .ptpm model on INPUT (raw int8 NHWC bytes, or\n"
            "                       'random'); prints the output and checks it against the\n"
            "                       host's naive kernels\n"
            "  gemm M N K [bf16]    a random int8 (or bf16) GEMM: cycles, MXU utilization, check\n"
            "  bench                standard GEMM and convolution shapes\n"
            "  classify MODEL INPUTS [--labels FILE] [--count N] [--offset K]\n"
            "           [--classes A,B,...] [--json FILE]\n"
            "                       run the inputs (raw int8, back to back) one by one: per\n"
            "                       input the argmax (and label), then accuracy, cycles per\n"
            "                       input, MXU utilization; every output checked against the\n"
            "                       naive kernels\n"
            "URI: ref, ref:config=NAME, sim[:config=NAME,trace=FILE], usb[:serial=S]\n");
    return 2;
}

static void print_counters(const struct ptpu_counters *c)
{
    static const char *const names[] = {
#define X(name, idx, desc) #name,
        PTPU_COUNTER_LIST(X)
#undef X
    };
    for (int i = 0; i < PTPU_NUM_COUNTERS; i++)
        printf("  %-22s %llu\n", names[i], (unsigned long long)c->c[i]);
    printf("  %-22s %.1f %%\n", "MXU utilization", 100.0 * c->utilization);
}

static int fail(ptpu_device *dev, int rc, const char *what)
{
    fprintf(stderr, "picotpu: %s: %s (%s)\n", what, ptpu_error_name(rc),
            *ptpu_last_error(dev) ? ptpu_last_error(dev) : ptpu_strerror(rc));
    return 1;
}

/* libpicotpu internal (host/src/ptpu_backend_usb.c): prints the FTDI boards found. */
int ptpu_usb_list(FILE *out);

static int cmd_info(ptpu_device *dev)
{
    struct ptpu_device_info i;
    ptpu_device_info(dev, &i);
    printf("libpicotpu API %d.%d\n", PTPU_API_VERSION >> 16, PTPU_API_VERSION & 0xffff);
    printf("backend        %s\nconfiguration  %s\narray          %d x %d (int8%s)\n", i.backend,
           i.config, i.n, i.n, i.bf16 ? ", bf16" : "");
    printf("UB rows        %d\nWB rows        %d\nACC rows       %d\nVP rows        %d\n"
           "memory         %u KB\n",
           i.ub_rows, i.wb_rows, i.acc_rows, i.vp_rows, i.mem_kb);
    return 0;
}

static uint64_t rng = 0x1234567;
static int8_t rnd8(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (int8_t)(rng >> 56);
}

static int run_gemm(ptpu_device *dev, int M, int N, int K, int check, struct ptpu_counters *c)
{
    int8_t *A = malloc((size_t)M * K), *B = malloc((size_t)K * N);
    int8_t *C = malloc((size_t)M * N), *R = check ? malloc((size_t)M * N) : NULL;
    int32_t *m0 = malloc(4 * (size_t)N), *sh = malloc(4 * (size_t)N), *bias = malloc(4 * (size_t)N);
    if (!A || !B || !C || !m0 || !sh || !bias || (check && !R)) {
        fprintf(stderr, "picotpu: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < (size_t)M * K; i++)
        A[i] = rnd8();
    for (size_t i = 0; i < (size_t)K * N; i++) {
        B[i] = rnd8();
        if (B[i] == -128)
            B[i] = -127;
    }
    for (int j = 0; j < N; j++) {
        int s;
        ptpu_quantize_multiplier(1.0 / (64.0 * K), &m0[j], &s);
        sh[j] = s;
        bias[j] = rnd8() * 100;
    }
    struct ptpu_quant q = {bias, m0, sh, -5, -128, 127};
    int rc = ptpu_gemm_i8(dev, M, N, K, A, 3, B, &q, C, c);
    if (!rc && check) {
        ptpu_k_gemm_i8(M, N, K, A, 3, B, &q, R);
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)M * N; i++)
            bad += C[i] != R[i];
        printf("check against the naive kernel: %s (%zu of %zu differ)\n",
               bad ? "MISMATCH" : "identical", bad, (size_t)M * N);
        if (bad)
            rc = PTPU_ERR_DEVICE;
    }
    free(A);
    free(B);
    free(C);
    free(R);
    free(m0);
    free(sh);
    free(bias);
    return rc;
}

static uint16_t rnd_bf16(void)
{
    uint16_t e = (uint16_t)(120 + (rnd8() & 7));
    return (uint16_t)(((uint16_t)rnd8() & 0x8000) | e << 7 | ((uint8_t)rnd8() & 0x7f));
}

static int run_gemm_bf16(ptpu_device *dev, int M, int N, int K, int check,
                         struct ptpu_counters *c)
{
    uint16_t *A = malloc(2 * (size_t)M * K), *B = malloc(2 * (size_t)K * N);
    uint32_t *C = malloc(4 * (size_t)M * N), *R = check ? malloc(4 * (size_t)M * N) : NULL;
    if (!A || !B || !C || (check && !R)) {
        fprintf(stderr, "picotpu: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < (size_t)M * K; i++)
        A[i] = rnd_bf16();
    for (size_t i = 0; i < (size_t)K * N; i++)
        B[i] = rnd_bf16();
    struct ptpu_device_info info;
    ptpu_device_info(dev, &info);
    int rc = ptpu_gemm_bf16(dev, M, N, K, A, B, NULL, 0, 0, C, c);
    if (!rc && check) {
        ptpu_k_gemm_bf16(info.n, M, N, K, A, B, NULL, 0, 0, R);
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)M * N; i++)
            bad += C[i] != R[i];
        printf("check against the naive kernel: %s (%zu of %zu differ)\n",
               bad ? "MISMATCH" : "identical", bad, (size_t)M * N);
        if (bad)
            rc = PTPU_ERR_DEVICE;
    }
    free(A);
    free(B);
    free(C);
    free(R);
    return rc;
}

static int cmd_gemm(ptpu_device *dev, int M, int N, int K, int bf16)
{
    struct ptpu_counters c;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = bf16 ? run_gemm_bf16(dev, M, N, K, 1, &c) : run_gemm(dev, M, N, K, 1, &c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc)
        return fail(dev, rc, "gemm");
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%s GEMM %d x %d x %d: %.3f s wall\n", bf16 ? "bf16 (fp32 out)" : "int8", M, N, K,
           secs);
    print_counters(&c);
    return 0;
}

static int cmd_bench(ptpu_device *dev)
{
    static const int shapes[][3] = {{256, 256, 256}, {512, 512, 512}, {128, 768, 768},
                                    {128, 3072, 768}, {49, 512, 4608}};
    printf("%-18s %12s %12s %8s\n", "int8 GEMM MxNxK", "cycles", "MXU rows", "util");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        struct ptpu_counters c;
        int rc = run_gemm(dev, shapes[i][0], shapes[i][1], shapes[i][2], 0, &c);
        if (rc)
            return fail(dev, rc, "bench");
        char name[32];
        snprintf(name, sizeof(name), "%dx%dx%d", shapes[i][0], shapes[i][1], shapes[i][2]);
        printf("%-18s %12llu %12llu %7.1f%%\n", name, (unsigned long long)c.c[PTPU_CNT_CYCLES],
               (unsigned long long)c.c[PTPU_CNT_MXU_ROWS], 100.0 * c.utilization);
    }
    struct ptpu_device_info info;
    ptpu_device_info(dev, &info);
    if (!info.bf16)
        return 0;
    printf("%-18s %12s %12s %8s\n", "bf16 GEMM MxNxK", "cycles", "MXU rows", "util");
    for (size_t i = 2; i < 4; i++) {
        struct ptpu_counters c;
        int rc = run_gemm_bf16(dev, shapes[i][0], shapes[i][1], shapes[i][2], 0, &c);
        if (rc)
            return fail(dev, rc, "bench");
        char name[32];
        snprintf(name, sizeof(name), "%dx%dx%d", shapes[i][0], shapes[i][1], shapes[i][2]);
        printf("%-18s %12llu %12llu %7.1f%%\n", name, (unsigned long long)c.c[PTPU_CNT_CYCLES],
               (unsigned long long)c.c[PTPU_CNT_MXU_ROWS], 100.0 * c.utilization);
    }
    return 0;
}

static int cmd_run(ptpu_device *dev, const char *path, const char *input)
{
    ptpu_model *m;
    int rc = ptpu_model_load(path, &m);
    if (rc)
        return fail(NULL, rc, "load");
    struct ptpu_shape si, so;
    ptpu_model_io(m, &si, &so);
    size_t ni = (size_t)si.h * si.w * si.c, no = (size_t)so.h * so.w * so.c;
    int8_t *in = malloc(ni), *out = malloc(no), *ref = malloc(no);
    if (!strcmp(input, "random")) {
        for (size_t i = 0; i < ni; i++)
            in[i] = rnd8();
    } else {
        FILE *f = fopen(input, "rb");
        size_t got = f ? fread(in, 1, ni, f) : 0;
        if (f)
            fclose(f);
        if (got != ni) {
            fprintf(stderr, "picotpu: %s: need %zu bytes (%dx%dx%d int8), got %zu\n", input, ni,
                    si.h, si.w, si.c, got);
            return 1;
        }
    }
    int nops = ptpu_model_num_ops(m);
    struct ptpu_counters c, *po = calloc((size_t)nops, sizeof(*po));
    rc = po ? ptpu_model_profile(dev, m, in, out, po) : PTPU_ERR_NO_MEM;
    if (rc)
        return fail(dev, rc, "run");
    memset(&c, 0, sizeof(c));
    printf("%-3s %-10s %-16s %-16s %12s %10s %6s\n", "op", "kind", "input", "output", "MACs",
           "cycles", "MXU");
    for (int k = 0; k < nops; k++) {
        struct ptpu_op_info oi;
        ptpu_model_op_info(m, k, &oi);
        char a[32], b[32];
        snprintf(a, sizeof(a), "%dx%dx%d", oi.in_h, oi.in_w, oi.in_c);
        snprintf(b, sizeof(b), "%dx%dx%d", oi.out_h, oi.out_w, oi.out_c);
        printf("%-3d %-10s %-16s %-16s %12llu %10llu %5.1f%%\n", k, oi.name, a, b,
               (unsigned long long)oi.macs, (unsigned long long)po[k].c[PTPU_CNT_CYCLES],
               100.0 * po[k].utilization);
        for (int j = 0; j < PTPU_NUM_COUNTERS; j++)
            c.c[j] += po[k].c[j];
    }
    c.utilization = c.c[PTPU_CNT_CYCLES] ? (double)c.c[PTPU_CNT_MXU_ROWS] /
                                               (double)c.c[PTPU_CNT_CYCLES]
                                         : 0.0;
    free(po);
    ptpu_model_run_host(m, in, ref);
    int best = 0;
    printf("output %dx%dx%d (scale %g, zero point %d):\n", so.h, so.w, so.c, (double)so.scale,
           so.zero_point);
    for (size_t i = 0; i < no; i++) {
        if (i < 64)
            printf("  [%zu] %4d  %9.4f\n", i, out[i],
                   (double)so.scale * (out[i] - so.zero_point));
        if (out[i] > out[best])
            best = (int)i;
    }
    printf("argmax %d\ncheck against the naive kernels: %s\n", best,
           memcmp(out, ref, no) ? "MISMATCH" : "identical");
    print_counters(&c);
    int bad = memcmp(out, ref, no) != 0;
    free(in);
    free(out);
    free(ref);
    ptpu_model_free(m);
    return bad;
}

static double wall_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int argmax8(const int8_t *y, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (y[i] > y[best])
            best = i;
    return (int)best;
}

/* The name of class k from a comma-separated list, or its number. */
static const char *class_name(const char *list, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%d", k);
    for (const char *p = list; p && *p; k--) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (k == 0) {
            snprintf(buf, len, "%.*s", (int)n, p);
            break;
        }
        p = e ? e + 1 : NULL;
    }
    return buf;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *len = n;
    return buf;
}

static int cmd_classify(ptpu_device *dev, int argc, char **argv)
{
    const char *model = NULL, *inputs = NULL, *labels = NULL, *classes = NULL, *json = NULL;
    long count = -1, offset = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--labels") && i + 1 < argc)
            labels = argv[++i];
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atol(argv[++i]);
        else if (!strcmp(argv[i], "--offset") && i + 1 < argc)
            offset = atol(argv[++i]);
        else if (!strcmp(argv[i], "--classes") && i + 1 < argc)
            classes = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (argv[i][0] != '-' && !model)
            model = argv[i];
        else if (argv[i][0] != '-' && !inputs)
            inputs = argv[i];
        else
            return usage();
    }
    if (!model || !inputs || offset < 0)
        return usage();
    ptpu_model *m;
    int rc = ptpu_model_load(model, &m);
    if (rc)
        return fail(NULL, rc, "load");
    struct ptpu_shape si, so;
    ptpu_model_io(m, &si, &so);
    size_t ni = (size_t)si.h * si.w * si.c, no = (size_t)so.h * so.w * so.c;
    size_t len = 0, nlab = 0;
    uint8_t *x = read_file(inputs, &len), *lab = labels ? read_file(labels, &nlab) : NULL;
    int8_t *y = malloc(no), *ref = malloc(no);
    int ret = 1;
    if (!x || (labels && !lab) || !y || !ref) {
        fprintf(stderr, "picotpu: cannot read %s\n", !x ? inputs : labels);
        goto out;
    }
    long avail = (long)(len / ni) - offset;
    if (count < 0 || count > avail)
        count = avail;
    if (count <= 0 || len % ni) {
        fprintf(stderr, "picotpu: %s: %zu bytes is not a whole number of %dx%dx%d inputs "
                "beyond %ld\n", inputs, len, si.h, si.w, si.c, offset);
        goto out;
    }
    if (lab && nlab < (size_t)(offset + count)) {
        fprintf(stderr, "picotpu: %s: %zu labels for %ld inputs\n", labels, nlab,
                offset + count);
        goto out;
    }
    struct ptpu_device_info di;
    ptpu_device_info(dev, &di);
    printf("%ld inputs of %s on %s (%s, %dx%d array)\n", count, model, di.backend, di.config,
           di.n, di.n);
    long correct = 0, same = 0;
    uint64_t cycles = 0, rows = 0;
    double t0 = wall_s();
    for (long k = 0; k < count; k++) {
        const int8_t *in = (const int8_t *)x + (size_t)(offset + k) * ni;
        struct ptpu_counters c;
        double t = wall_s();
        /* the whole model as one program (SYNC between the layers): one RUN per input */
        rc = ptpu_model_start(dev, m, in);
        if (!rc)
            rc = ptpu_model_wait(dev, m, y, &c);
        if (rc) {
            fail(dev, rc, "run");
            goto out;
        }
        t = wall_s() - t;
        ptpu_model_run_host(m, in, ref);
        int eq = !memcmp(y, ref, no), p = argmax8(y, no);
        same += eq;
        cycles += c.c[PTPU_CNT_CYCLES];
        rows += c.c[PTPU_CNT_MXU_ROWS];
        char a[32], b[32];
        printf("input %5ld  predicted %-12s", offset + k, class_name(classes, p, a, sizeof(a)));
        if (lab) {
            int l = lab[offset + k];
            correct += p == l;
            printf(" label %-12s %-5s", class_name(classes, l, b, sizeof(b)),
                   p == l ? "ok" : "WRONG");
        }
        printf(" %8llu cycles  MXU %4.1f %%  %5.2f s%s\n",
               (unsigned long long)c.c[PTPU_CNT_CYCLES], 100.0 * c.utilization, t,
               eq ? "" : "  OUTPUT DIFFERS FROM THE NAIVE KERNELS");
        fflush(stdout);
    }
    double wall = wall_s() - t0, acc = lab ? (double)correct / (double)count : 0.0;
    double cpi = (double)cycles / (double)count, util = cycles ? (double)rows / (double)cycles : 0;
    if (lab)
        printf("accuracy            %.2f %% (%ld of %ld)\n", 100.0 * acc, correct, count);
    printf("cycles per input    %.0f\n", cpi);
    printf("MXU utilization     %.1f %%\n", 100.0 * util);
    printf("outputs identical to the naive kernels: %ld of %ld\n", same, count);
    printf("wall time           %.1f s (%.2f s per input, %.0f simulated cycles/s)\n", wall,
           wall / (double)count, (double)cycles / wall);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "picotpu: cannot write %s\n", json);
            goto out;
        }
        char accs[32] = "null";
        if (lab)
            snprintf(accs, sizeof(accs), "%.4f", acc);
        fprintf(f, "{\"inputs\": %ld, \"accuracy\": %s, \"correct\": %ld, \"cycles_per_input\": "
                "%.1f, \"utilization\": %.4f, \"identical\": %ld, \"wall_s\": %.2f, "
                "\"device\": \"%s\", \"config\": \"%s\"}\n",
                count, accs, correct, cpi, util, same, wall, di.backend, di.config);
        fclose(f);
    }
    ret = same != count;
out:
    free(x);
    free(lab);
    free(y);
    free(ref);
    ptpu_model_free(m);
    return ret;
}

int main(int argc, char **argv)
{
    const char *uri = "ref", *trace = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            uri = argv[++i];
        else if (!strcmp(argv[i], "--trace") && i + 1 < argc)
            trace = argv[++i];
        else
            return usage();
    }
    if (i >= argc)
        return usage();
    const char *cmd = argv[i++];
    ptpu_device *dev;
    if (!strcmp(cmd, "info") && (!strcmp(uri, "usb") || !strncmp(uri, "usb:", 4)))
        ptpu_usb_list(stdout);  /* the boards, before opening one */
    int rc = ptpu_open(uri, &dev);
    if (rc)
        return fail(NULL, rc, uri);
    if (trace && (rc = ptpu_trace_open(dev, trace)))
        return fail(dev, rc, "trace");
    int ret;
    if (!strcmp(cmd, "info") && i == argc)
        ret = cmd_info(dev);
    else if (!strcmp(cmd, "run") && i + 2 == argc)
        ret = cmd_run(dev, argv[i], argv[i + 1]);
    else if (!strcmp(cmd, "gemm") && (i + 3 == argc || (i + 4 == argc &&
                                                        !strcmp(argv[i + 3], "bf16"))) &&
             atoi(argv[i]) > 0 && atoi(argv[i + 1]) > 0 && atoi(argv[i + 2]) > 0)
        ret = cmd_gemm(dev, atoi(argv[i]), atoi(argv[i + 1]), atoi(argv[i + 2]), i + 4 == argc);
    else if (!strcmp(cmd, "classify"))
        ret = cmd_classify(dev, argc - i, argv + i);
    else if (!strcmp(cmd, "bench") && i == argc)
        ret = cmd_bench(dev);
    else
        ret = usage();
    ptpu_close(dev);
    return ret;
}

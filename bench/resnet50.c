/* SPDX-License-Identifier: Apache-2.0 */
/*
 * resnet50.c - ResNet-50 v1.5 (int8, batch 1) on a picotpu device (docs/workloads.md).
 *
 *   resnet50 [--device URI] [--size S] [--width-div D] [--seed N] [--tsv FILE]
 *            [--no-profile] [--no-whole] [--layers all|subset|NAME,NAME,...] [--keep-going]
 *            [--build-layers K]
 *
 * Whole network (default): the naive kernels compute the expected logits; the device
 * runs the model op by op (ptpu_model_profile: per-layer counters, --tsv writes them)
 * and as one program (ptpu_model_start/wait: the start call compiles and uploads the
 * model and input, the wait is the run from a resident model; both timed).
 * --layers: each named conv/FC layer as a model of its own, its input the layer's
 * calibration activation, against the naive kernels (for devices too slow for the
 * whole network; --keep-going: layers that do not fit the device's memory are
 * skipped and counted; --build-layers K: build and calibrate only the first K layers,
 * for a quick test of early layers).  Prints "RESULT key value" lines for the benchmark scripts and one
 * PASS/FAIL line (outputs identical to the naive kernels, bit for bit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "picotpu.h"
#include "ptpu_model.h"
#include "rn50net.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of this process (the sim backend simulates in process) */
static double cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
           (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

static const char *kind_name(enum rn_kind k)
{
    static const char *n[] = {"conv", "maxpool", "avgpool", "fc", "add"};
    return n[k];
}

/* TSV of one layer: shapes, MACs and the run's counters. */
static void tsv_header(FILE *f)
{
    if (f)
        fprintf(f, "layer\tname\tkind\tin\tout\tk\ts\tmacs\tcycles\tmxu_rows\tutil\tmac_eff"
                   "\tload_wait_token\tcompute_wait_token\tstore_wait_token\tload_wait_mem"
                   "\tstore_wait_mem\tcompute_wait_weights\tfetch_wait_mem\tcompute_idle"
                   "\tbytes_read\tbytes_written\twall_s\n");
}

static void row(FILE *f, int i, const struct rn_net *net, const struct rn_layer *l,
                uint64_t macs, const struct ptpu_counters *c, int n, double wall)
{
    const struct rn_tensor *x = &net->t[l->in], *y = &net->t[l->out];
    double cyc = (double)c->c[PTPU_CNT_CYCLES];
    double util = cyc ? (double)c->c[PTPU_CNT_MXU_ROWS] / cyc : 0;
    double eff = cyc ? (double)macs / ((double)n * n * cyc) : 0;
    char in[32], out[32];
    snprintf(in, sizeof(in), "%dx%dx%d", x->h, x->w, x->c);
    snprintf(out, sizeof(out), "%dx%dx%d", y->h, y->w, y->c);
    printf("%3d %-12s %-7s %-12s %-12s %dx%d/%d %12llu %10llu %6.1f%% %6.1f%%\n", i, l->name,
           kind_name(l->kind), in, out, l->k, l->k, l->s, (unsigned long long)macs,
           (unsigned long long)c->c[PTPU_CNT_CYCLES], 100 * util, 100 * eff);
    if (!f)
        return;
    fprintf(f, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%llu\t%llu\t%llu\t%.4f\t%.4f", i, l->name,
            kind_name(l->kind), in, out, l->k, l->s, (unsigned long long)macs,
            (unsigned long long)c->c[PTPU_CNT_CYCLES],
            (unsigned long long)c->c[PTPU_CNT_MXU_ROWS], util, eff);
    static const int st[] = {PTPU_CNT_LOAD_WAIT_TOKEN, PTPU_CNT_COMPUTE_WAIT_TOKEN,
                             PTPU_CNT_STORE_WAIT_TOKEN, PTPU_CNT_LOAD_WAIT_MEM,
                             PTPU_CNT_STORE_WAIT_MEM, PTPU_CNT_COMPUTE_WAIT_WEIGHTS,
                             PTPU_CNT_FETCH_WAIT_MEM, PTPU_CNT_COMPUTE_IDLE,
                             PTPU_CNT_BYTES_READ, PTPU_CNT_BYTES_WRITTEN};
    for (size_t j = 0; j < sizeof(st) / sizeof(st[0]); j++)
        fprintf(f, "\t%llu", (unsigned long long)c->c[st[j]]);
    fprintf(f, "\t%.3f\n", wall);
}

static int want(const char *list, const struct rn_layer *l, int i)
{
    if (l->kind != RN_CONV && l->kind != RN_FC)
        return 0;
    if (!strcmp(list, "all"))
        return 1;
    if (!strcmp(list, "subset"))  /* one of each kind of conv: stem, 1x1, 3x3/2 (v1.5), proj, 3x3, FC */
        list = "conv1,s2b0.c1,s2b0.c2,s2b0.proj,s3b1.c2,s4b0.c3,fc";
    size_t n = strlen(l->name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if ((k == n && !strncmp(p, l->name, n)) || (k && atoi(p) == i && p[0] >= '0' && p[0] <= '9'))
            return 1;
        p += k + (e ? 1 : 0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *uri = "ref", *tsv = NULL, *layers = NULL;
    int size = 224, wdiv = 1, profile = 1, whole = 1, keep = 0, maxl = 0;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            uri = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--width-div") && i + 1 < argc)
            wdiv = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--tsv") && i + 1 < argc)
            tsv = argv[++i];
        else if (!strcmp(argv[i], "--layers") && i + 1 < argc)
            layers = argv[++i];
        else if (!strcmp(argv[i], "--no-profile"))
            profile = 0;
        else if (!strcmp(argv[i], "--build-layers") && i + 1 < argc)
            maxl = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--keep-going"))
            keep = 1;
        else if (!strcmp(argv[i], "--no-whole"))
            whole = 0;
        else {
            fprintf(stderr, "usage: resnet50 [--device URI] [--size S] [--width-div D] [--seed N]"
                            " [--tsv FILE] [--no-profile] [--no-whole] [--layers LIST] [--keep-going]\n"
                            "                [--build-layers K]\n");
            return 2;
        }
    }
    printf("# resnet50 seed=%llu size=%d width_div=%d device=%s\n", (unsigned long long)seed,
           size, wdiv, uri);
    double t0 = now();
    struct rn_net net;
    int rc = rn_build(&net, size, wdiv, maxl, seed);
    if (rc) {
        printf("FAIL resnet50: building the model: %s\n", ptpu_error_name(rc));
        return 1;
    }
    printf("# built and calibrated in %.1f s: %d layers, %zu-byte model\n", now() - t0,
           net.nlayers, net.image_len);
    ptpu_device *dev;
    if ((rc = ptpu_open(uri, &dev))) {
        printf("FAIL resnet50: cannot open %s: %s\n", uri, ptpu_last_error(NULL));
        rn_free(&net);
        return 1;
    }
    struct ptpu_device_info info;
    ptpu_device_info(dev, &info);
    printf("RESULT config %s\nRESULT n %d\n", info.config, info.n);
    FILE *f = tsv ? fopen(tsv, "w") : NULL;
    tsv_header(f);
    int bad = 0;
    printf("%3s %-12s %-7s %-12s %-12s %-6s %12s %10s %7s %7s\n", "#", "layer", "kind", "in",
           "out", "kernel", "MACs", "cycles", "MXU", "MACs");

    if (!layers && !net.image) {
        printf("FAIL resnet50: --build-layers needs --layers\n");
        return 1;
    }
    if (layers) {
        /* layer by layer, each a model of its own */
        uint64_t cyc = 0, rows = 0, macs = 0;
        double wall = 0, cpu_s = 0;
        int nl = 0, nskip = 0;
        for (int i = 0; i < net.nlayers; i++) {
            const struct rn_layer *l = &net.l[i];
            if (!want(layers, l, i))
                continue;
            uint8_t *img;
            size_t len;
            ptpu_model *m;
            if ((rc = rn_layer_model(&net, i, &img, &len)) || (rc = ptpu_model_load_mem(img, len, &m))) {
                printf("# fail resnet50: layer %s: %s %s\n", l->name, ptpu_error_name(rc),
                       ptpu_last_error(NULL));
                bad = 1;
                break;
            }
            free(img);
            const struct rn_tensor *y = &net.t[l->out];
            size_t ny = (size_t)y->h * y->w * y->c;
            int8_t *ref = malloc(ny), *out = malloc(ny);
            ptpu_model_run_host(m, net.t[l->in].q, ref);
            struct ptpu_counters c;
            double a = now();
            rc = ptpu_model_start(dev, m, net.t[l->in].q);
            double b = now(), cb = cpu();
            if (!rc)
                rc = ptpu_model_wait(dev, m, out, &c);
            double e = now();
            cpu_s += cpu() - cb;
            struct ptpu_op_info oi;
            ptpu_model_op_info(m, 0, &oi);
            if (keep && (rc == PTPU_ERR_RANGE || rc == PTPU_ERR_NO_MEM)) {
                printf("#     %s does not fit %s: %s\n", l->name, info.config, ptpu_last_error(dev));
                nskip++;
            } else if (rc || memcmp(out, ref, ny)) {
                printf("# fail resnet50[%s:%s]: layer %s: %s %s\n", info.backend, info.config,
                       l->name, rc ? ptpu_error_name(rc) : "output differs from the naive kernels",
                       rc ? ptpu_last_error(dev) : "");
                bad = 1;
            } else {
                row(f, i, &net, l, oi.macs, &c, info.n, e - b);
                printf("#     load %.3f s, run %.3f s wall (%.0f cycles/s)\n", b - a, e - b,
                       (double)c.c[PTPU_CNT_CYCLES] / (e - b));
                cyc += c.c[PTPU_CNT_CYCLES];
                rows += c.c[PTPU_CNT_MXU_ROWS];
                macs += oi.macs;
                wall += e - b;
                nl++;
            }
            free(ref);
            free(out);
            ptpu_model_free(m);
            if (rc == PTPU_ERR_IO) {
                /* the device is gone (the simulation stopped): a fresh one for the next layer */
                ptpu_close(dev);
                dev = NULL;
                if (ptpu_open(uri, &dev)) {
                    printf("FAIL resnet50: cannot reopen %s: %s\n", uri, ptpu_last_error(NULL));
                    return 1;
                }
            }
        }
        printf("RESULT layers_skipped %d\nRESULT layers_cpu_s %.3f\n", nskip, cpu_s);
        printf("RESULT layers %d\nRESULT layers_cycles %llu\nRESULT layers_macs %llu\n"
               "RESULT layers_utilization %.4f\nRESULT layers_wall_s %.3f\n"
               "RESULT layers_cycles_per_s %.0f\nRESULT layers_equal %d\n",
               nl, (unsigned long long)cyc, (unsigned long long)macs,
               cyc ? (double)rows / (double)cyc : 0, wall, wall > 0 ? (double)cyc / wall : 0,
               !bad);
    } else {
        ptpu_model *m;
        if ((rc = ptpu_model_load_mem(net.image, net.image_len, &m))) {
            printf("FAIL resnet50: loading the model: %s %s\n", ptpu_error_name(rc),
                   ptpu_last_error(NULL));
            return 1;
        }
        int nops = ptpu_model_num_ops(m);
        int8_t ref[1000], out[1000];
        double a = now();
        ptpu_model_run_host(m, net.input, ref);
        printf("# naive kernels: %.1f s\n", now() - a);
        if (profile) {
            struct ptpu_counters *po = calloc((size_t)nops, sizeof(*po));
            a = now();
            rc = ptpu_model_profile(dev, m, net.input, out, po);
            double wall = now() - a;
            uint64_t cyc = 0, rows = 0, macs = 0;
            for (int i = 0; i < nops && !rc; i++) {
                struct ptpu_op_info oi;
                ptpu_model_op_info(m, i, &oi);
                row(f, i, &net, &net.l[i], oi.macs, &po[i], info.n, 0);
                cyc += po[i].c[PTPU_CNT_CYCLES];
                rows += po[i].c[PTPU_CNT_MXU_ROWS];
                macs += oi.macs;
            }
            int eq = !rc && !memcmp(out, ref, sizeof(ref));
            printf("RESULT profile_cycles %llu\nRESULT profile_utilization %.4f\n"
                   "RESULT macs %llu\nRESULT profile_mac_efficiency %.4f\nRESULT profile_wall_s %.2f\n"
                   "RESULT profile_equal %d\n",
                   (unsigned long long)cyc, cyc ? (double)rows / (double)cyc : 0,
                   (unsigned long long)macs,
                   cyc ? (double)macs / ((double)info.n * info.n * (double)cyc) : 0, wall, eq);
            if (!eq) {
                printf("# fail resnet50[%s:%s]: op by op: %s %s\n", info.backend, info.config,
                       rc ? ptpu_error_name(rc) : "logits differ from the naive kernels",
                       rc ? ptpu_last_error(dev) : "");
                bad = 1;
            }
            free(po);
        }
        if (whole) {
            struct ptpu_counters c;
            memset(out, 0, sizeof(out));
            a = now();
            rc = ptpu_model_start(dev, m, net.input);
            double b = now(), cb = cpu();
            if (!rc)
                rc = ptpu_model_wait(dev, m, out, &c);
            double e = now(), ce = cpu();
            printf("RESULT cpu_s %.3f\n", ce - cb);
            int eq = !rc && !memcmp(out, ref, sizeof(ref));
            if (!rc)
                printf("RESULT cycles %llu\nRESULT utilization %.4f\nRESULT load_s %.3f\n"
                       "RESULT wall_s %.3f\nRESULT cycles_per_s %.0f\n",
                       (unsigned long long)c.c[PTPU_CNT_CYCLES], c.utilization, b - a, e - b,
                       (double)c.c[PTPU_CNT_CYCLES] / (e - b));
            printf("RESULT equal %d\n", eq);
            if (!eq) {
                printf("# fail resnet50[%s:%s]: one program: %s %s\n", info.backend, info.config,
                       rc ? ptpu_error_name(rc) : "logits differ from the naive kernels",
                       rc ? ptpu_last_error(dev) : "");
                bad = 1;
            }
        }
        ptpu_model_free(m);
    }
    if (f)
        fclose(f);
    if (!bad)
        printf("PASS resnet50[%s:%s]: %s identical to the naive kernels (seed %llu)\n",
               info.backend, info.config, layers ? "layers" : "whole network",
               (unsigned long long)seed);
    else
        printf("FAIL resnet50[%s:%s]: %s: not identical to the naive kernels or the run failed "
               "(lines '# fail' above; seed %llu)\n", info.backend, info.config,
               layers ? "layers" : "whole network", (unsigned long long)seed);
    ptpu_close(dev);
    rn_free(&net);
    return bad;
}

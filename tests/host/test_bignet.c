/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bignet.c - the compiler at scale: a network with ResNet-50 v1.5's layer shapes
 * (224x224x3 input, 7x7/2 stem, max pool, 16 bottleneck blocks with projection
 * shortcuts and stride-2 3x3 convolutions, global average pool, FC 1000) and
 * pseudo-random weights, on a device against the naive kernels bit for bit, op by op
 * and as one asynchronous program.  Prints cycles and MXU utilization.
 *   test_bignet [--device URI] [--seed N]
 */
#include "hostutil.h"
#include "picotpu.h"
#include "ptpu_model.h"

static int8_t *W;
static int32_t B[2048];
static float S[2048];
static ptpu_model_builder *mb;

static int conv(int in, int cout, int k, int s, int relu, int ozp)
{
    struct ptpu_conv_params p = {k, k, s, s, 1, 1, PTPU_PAD_SAME, 0, 0, 0, 0,
                                 relu ? PTPU_ACT_RELU : PTPU_ACT_NONE};
    return ptpu_mb_conv2d(mb, in, cout, &p, W, B, S, 0.05f, ozp);
}

int main(int argc, char **argv)
{
    uint64_t seed;
    const char *uri = "ref";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            uri = argv[++i];
    hu_args(argc, argv, "test_bignet", &seed, NULL);
    size_t nw = 3 * 3 * 512 * 512;
    W = malloc(nw);
    for (size_t i = 0; i < nw; i++)
        W[i] = (int8_t)hu_range(-127, 127);
    for (int i = 0; i < 2048; i++) {
        B[i] = hu_range(-3000, 3000);
        S[i] = (float)(0.0003 + 0.0004 * hu_unit());
    }
    ptpu_mb_create(&mb);
    int t = ptpu_mb_input(mb, 224, 224, 3, 0.02f, -10), ok = t == 0;
    t = conv(t, 64, 7, 2, 1, -128);
    t = ptpu_mb_maxpool(mb, t, 3, 3, 2, 2, PTPU_PAD_SAME);
    static const int stages[4][2] = {{64, 3}, {128, 4}, {256, 6}, {512, 3}};
    for (int st = 0; st < 4; st++)
        for (int b = 0; b < stages[st][1]; b++) {
            int w = stages[st][0], s = b == 0 && st > 0 ? 2 : 1;
            int a = conv(t, w, 1, 1, 1, -128);
            a = conv(a, w, 3, s, 1, -128);
            a = conv(a, 4 * w, 1, 1, 0, -10);
            int sc = b == 0 ? conv(t, 4 * w, 1, s, 0, -10) : t;
            t = ptpu_mb_add(mb, a, sc, PTPU_ACT_RELU, 0.06f, -128);
            ok &= a > 0 && sc >= 0 && t > 0;
        }
    t = ptpu_mb_avgpool(mb, t, 7, 7, 1, 1, PTPU_PAD_VALID, 0.02f, -128);
    t = ptpu_mb_fc(mb, t, 1000, W, B, S, PTPU_ACT_NONE, 0.1f, 0);
    ok &= t > 0;
    uint8_t *img = NULL;
    size_t len = 0;
    ptpu_model *m = NULL;
    ptpu_device *dev = NULL;
    if (!ok || ptpu_mb_image(mb, &img, &len) || ptpu_model_load_mem(img, len, &m)) {
        printf("FAIL host_bignet: building the model: %s %s\n", ptpu_mb_error(mb),
               ptpu_last_error(NULL));
        return 1;
    }
    if (ptpu_open(uri, &dev)) {
        printf("FAIL host_bignet: cannot open %s: %s\n", uri, ptpu_last_error(NULL));
        return 1;
    }
    int nops = ptpu_model_num_ops(m);
    static int8_t in[224 * 224 * 3], ref[1000], out[1000], out2[1000];
    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (int8_t)hu_range(-128, 127);
    ptpu_model_run_host(m, in, ref);
    struct ptpu_counters *po = calloc((size_t)nops, sizeof(*po)), all;
    int rc = ptpu_model_profile(dev, m, in, out, po);
    int rc2 = ptpu_model_start(dev, m, in);
    if (!rc2)
        rc2 = ptpu_model_wait(dev, m, out2, &all);
    uint64_t cyc = 0, rows = 0, macs = 0;
    for (int i = 0; i < nops && !rc; i++) {
        struct ptpu_op_info oi;
        ptpu_model_op_info(m, i, &oi);
        cyc += po[i].c[PTPU_CNT_CYCLES];
        rows += po[i].c[PTPU_CNT_MXU_ROWS];
        macs += oi.macs;
    }
    struct ptpu_device_info info;
    ptpu_device_info(dev, &info);
    printf("# %d ops, %zu-byte model, %llu MACs\n", nops, len, (unsigned long long)macs);
    printf("# op by op: %llu cycles, MXU utilization %.1f %%, MAC efficiency %.1f %%\n",
           (unsigned long long)cyc, cyc ? 100.0 * (double)rows / (double)cyc : 0.0,
           cyc ? 100.0 * (double)macs / ((double)info.n * info.n * (double)cyc) : 0.0);
    if (!rc2)
        printf("# one program: %llu cycles, MXU utilization %.1f %%\n",
               (unsigned long long)all.c[PTPU_CNT_CYCLES], 100.0 * all.utilization);
    int bad = rc || rc2 || memcmp(out, ref, sizeof(ref)) || memcmp(out2, ref, sizeof(ref));
    if (bad)
        printf("FAIL host_bignet[%s:%s]: rc %s / %s (%s), outputs %s\n", info.backend,
               info.config, ptpu_error_name(rc), ptpu_error_name(rc2), ptpu_last_error(dev),
               memcmp(out, ref, sizeof(ref)) ? "differ" : "equal");
    else
        printf("PASS host_bignet[%s:%s]: ResNet-50-shaped network (%d ops) identical to the "
               "naive kernels, seed %llu\n",
               info.backend, info.config, nops, (unsigned long long)seed);
    free(po);
    free(img);
    free(W);
    ptpu_model_free(m);
    ptpu_mb_free(mb);
    ptpu_close(dev);
    return bad;
}

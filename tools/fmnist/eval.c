/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eval.c - accuracy of the Fashion-MNIST CNN on the test set: the float
 * network (the training tool's parameter file) and the int8 model (the
 * project's model format) run with libpicotpu's naive kernels, which define
 * what the device computes bit for bit.
 *
 *   eval --model MODEL [--float PARAMS] [--count N] [--data DIR] [--device URI]
 *        [--max-drop POINTS] [--min-int8 PERCENT] [--json FILE]
 *
 * --device URI also runs every image on a libpicotpu device ("ref", "sim")
 * and compares its logits with the naive kernels', byte for byte; it reports
 * the cycles per image and the MXU utilization.
 * With --max-drop, --min-int8 or --device it is a test: one PASS/FAIL line
 * and the exit code (a device must match the naive kernels on every image).
 */
#include "fmnist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "picotpu.h"

static void usage(void)
{
    fprintf(stderr, "usage: eval --model MODEL [--float PARAMS] [--count N] [--data DIR]\n"
                    "            [--device URI] [--max-drop POINTS] [--min-int8 PERCENT]\n"
                    "            [--json FILE]\n");
    exit(2);
}

static int argmax_i8(const int8_t *v, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[best])
            best = i;
    return best;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL, *float_path = NULL, *dir = NULL, *json = NULL, *uri = NULL;
    int count = 10000;
    double max_drop = -1.0, min_int8 = -1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--model")) model_path = v;
        else if (!strcmp(a, "--float")) float_path = v;
        else if (!strcmp(a, "--count")) count = atoi(v);
        else if (!strcmp(a, "--data")) dir = v;
        else if (!strcmp(a, "--max-drop")) max_drop = atof(v);
        else if (!strcmp(a, "--min-int8")) min_int8 = atof(v);
        else if (!strcmp(a, "--json")) json = v;
        else if (!strcmp(a, "--device")) uri = v;
        else usage();
    }
    if (!model_path || count < 1)
        usage();
    int is_test = max_drop >= 0.0 || min_int8 >= 0.0 || uri;
    if (max_drop >= 0.0 && !float_path)
        usage();

    struct fm_set te;
    if (fm_load(dir, "t10k", &te) != 0) {
        printf("FAIL fmnist eval: cannot read the test set\n");
        return 1;
    }
    if (count > te.n)
        count = te.n;

    ptpu_model *m = NULL;
    int rc = ptpu_model_load(model_path, &m);
    if (rc) {
        printf("FAIL fmnist eval: %s: %s (%s)\n", model_path, ptpu_error_name(rc),
               ptpu_last_error(NULL));
        return 1;
    }
    struct ptpu_shape in, out;
    rc = ptpu_model_io(m, &in, &out);
    /* The image convention of docs/fmnist.md: q = pixel - 128. */
    if (rc || in.h != FM_SIDE || in.w != FM_SIDE || in.c != 1 || in.zero_point != -128 ||
        fabsf(in.scale * 255.0f - 1.0f) > 1e-6f || out.h * out.w * out.c != FM_CLASSES) {
        printf("FAIL fmnist eval: %s: input %dx%dx%d (scale %g, zp %d), output %d values; "
               "want 28x28x1 (1/255, -128) and 10\n",
               model_path, in.h, in.w, in.c, in.scale, in.zero_point, out.h * out.w * out.c);
        return 1;
    }

    struct fm_net net;
    struct fm_acts acts;
    int have_float = float_path != NULL;
    if (have_float && (fm_net_init(&net) != 0 || fm_net_load(&net, float_path) != 0 ||
                       fm_acts_init(&acts, &net) != 0)) {
        printf("FAIL fmnist eval: cannot read %s\n", float_path);
        return 1;
    }

    ptpu_device *dev = NULL;
    if (uri && (rc = ptpu_open(uri, &dev)) != 0) {
        printf("FAIL fmnist eval: device %s: %s (%s)\n", uri, ptpu_error_name(rc),
               ptpu_last_error(NULL));
        return 1;
    }

    int ok_f = 0, ok_q = 0, agree = 0, ok_d = 0, dev_same = 0, dev_agree = 0, first_diff = -1;
    uint64_t cycles = 0, mxu_rows = 0;
    char dev_fail[600] = "";
    int conf[FM_CLASSES][FM_CLASSES];
    memset(conf, 0, sizeof(conf));
    int8_t qin[FM_PIXELS], qout[FM_CLASSES], dout[FM_CLASSES];
    clock_t t0 = clock();
    for (int i = 0; i < count; i++) {
        const uint8_t *pix = te.pix + (size_t)i * FM_PIXELS;
        int lab = te.label[i];
        fm_quantize_image(pix, qin);
        rc = ptpu_model_run_host(m, qin, qout);
        if (rc) {
            printf("FAIL fmnist eval: image %d: %s (%s)\n", i, ptpu_error_name(rc),
                   ptpu_last_error(NULL));
            return 1;
        }
        int pq = argmax_i8(qout, FM_CLASSES);
        if (dev) {
            struct ptpu_counters cnt;
            memset(&cnt, 0, sizeof(cnt));
            rc = ptpu_model_run(dev, m, qin, dout, &cnt);
            if (rc) {
                /* report the images done so far, then fail */
                snprintf(dev_fail, sizeof(dev_fail), ": image %d on %s: %s (%s)", i, uri,
                         ptpu_error_name(rc), ptpu_last_error(dev));
                count = i;
                break;
            }
            cycles += cnt.c[PTPU_CNT_CYCLES];
            mxu_rows += cnt.c[PTPU_CNT_MXU_ROWS];
            int pd = argmax_i8(dout, FM_CLASSES);
            ok_d += pd == lab;
            dev_agree += pd == pq;
            if (memcmp(dout, qout, FM_CLASSES) == 0)
                dev_same++;
            else if (first_diff < 0)
                first_diff = i;
            if (count >= 20 && (i + 1) % (count / 10) == 0) {
                fprintf(stderr, "# %s: %d/%d images\n", uri, i + 1, count);
            }
        }
        ok_q += pq == lab;
        conf[lab][pq]++;
        if (have_float) {
            int pf = fm_forward(&net, pix, &acts);
            ok_f += pf == lab;
            agree += pf == pq;
        }
    }
    if (count == 0) {
        printf("FAIL fmnist eval%s\n", dev_fail);
        return 1;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    double acc_q = 100.0 * ok_q / count, acc_f = 100.0 * ok_f / count;
    printf("# %d test images (the first of t10k), %.1f s\n", count, secs);
    printf("# confusion (rows: label, columns: int8 prediction)\n");
    for (int r = 0; r < FM_CLASSES; r++) {
        printf("#  %d:", r);
        for (int c = 0; c < FM_CLASSES; c++)
            printf(" %4d", conf[r][c]);
        printf("\n");
    }
    if (have_float)
        printf("float accuracy: %.2f %%\n", acc_f);
    printf("int8 accuracy:  %.2f %% (%s, naive kernels)\n", acc_q, model_path);
    if (have_float)
        printf("int8 and float predictions agree on %.2f %% of the images\n",
               100.0 * agree / count);
    if (dev) {
        printf("device %s: accuracy %.2f %%, logits identical to the naive kernels on %d of %d "
               "images, %.0f cycles per image, MXU utilization %.1f %%\n",
               uri, 100.0 * ok_d / count, dev_same, count, (double)cycles / count,
               cycles ? 100.0 * (double)mxu_rows / (double)cycles : 0.0);
    }
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "eval: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\"images\": %d, \"int8_accuracy\": %.4f", count, acc_q / 100.0);
        if (have_float)
            fprintf(f, ", \"float_accuracy\": %.4f, \"agreement\": %.4f", acc_f / 100.0,
                    (double)agree / count);
        if (dev)
            fprintf(f, ", \"device\": \"%s\", \"device_accuracy\": %.4f, \"device_equal\": %.4f"
                       ", \"device_agree\": %.4f, \"cycles_per_image\": %.1f"
                       ", \"utilization\": %.4f",
                    uri, (double)ok_d / count, (double)dev_same / count,
                    (double)dev_agree / count, (double)cycles / count,
                    cycles ? (double)mxu_rows / (double)cycles : 0.0);
        fprintf(f, "}\n");
        fclose(f);
    }
    int pass = 1;
    if (is_test) {
        char why[700] = "";
        if (max_drop >= 0.0 && acc_f - acc_q > max_drop) {
            pass = 0;
            snprintf(why, sizeof(why), ": int8 is %.2f points below float (limit %.2f)",
                     acc_f - acc_q, max_drop);
        }
        if (min_int8 >= 0.0 && acc_q < min_int8) {
            pass = 0;
            snprintf(why, sizeof(why), ": int8 accuracy below %.2f %%", min_int8);
        }
        if (dev_fail[0]) {
            pass = 0;
            snprintf(why, sizeof(why), "%s", dev_fail);
        } else if (dev && dev_same != count) {
            pass = 0;
            snprintf(why, sizeof(why), ": %s differs from the naive kernels on %d images "
                     "(first: image %d)", uri, count - dev_same, first_diff);
        }
        printf("%s fmnist eval: %d images, int8 %.2f %%", pass ? "PASS" : "FAIL", count, acc_q);
        if (have_float)
            printf(", float %.2f %% (drop %.2f points)", acc_f, acc_f - acc_q);
        if (dev && dev_same == count)
            printf(", %s identical to the naive kernels", uri);
        printf("%s\n", why);
    }
    ptpu_close(dev);
    ptpu_model_free(m);
    if (have_float) {
        fm_acts_free(&acts);
        fm_net_free(&net);
    }
    fm_free(&te);
    return pass ? 0 : 1;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * train.c - trains the Fashion-MNIST CNN in float (Adam, minibatches, fixed
 * seed, single thread: the same parameters on every run), writes the float
 * parameters, then quantizes the network to int8 with calibration and writes
 * the model in the project's format (docs/fmnist.md).
 *
 *   train [--epochs N] [--batch N] [--lr X] [--seed N] [--train-count N]
 *         [--float-out FILE] [--from FILE] [--out MODEL] [--calib N]
 *         [--data DIR] [--expect MODEL] [--gradcheck] [--test-count N]
 *         [--min-acc PERCENT]
 *
 * --from FILE skips training and quantizes the given float parameters;
 * --expect MODEL then checks that the written model is byte-identical to
 * MODEL (a PASS/FAIL line): the quantization is reproducible.  --min-acc
 * makes a short training run a test: PASS when the float test accuracy after
 * the last epoch (over --test-count images) reaches PERCENT.
 */
#include "fmnist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: train [--epochs N] [--batch N] [--lr X] [--seed N] [--train-count N]\n"
            "             [--float-out FILE] [--from FILE] [--out MODEL] [--calib N]\n"
            "             [--data DIR] [--expect MODEL] [--gradcheck] [--test-count N]\n"
            "             [--min-acc PERCENT]\n");
    exit(2);
}

/* Central differences against the backward pass on a few parameters of each
 * tensor; prints the worst relative error and returns 0 when it is small. */
static int gradcheck(struct fm_net *n, const struct fm_set *s, struct fm_rng *r)
{
    struct fm_acts a;
    fm_real *grad = calloc(n->nparams, sizeof(fm_real));
    fm_real *wt = calloc(n->nparams, sizeof(fm_real));
    if (!grad || !wt || fm_acts_init(&a, n) != 0)
        return -1;
    /* a double-precision loss of the float net for the differences */
    int img = 0, label = s->label[img];
    const uint8_t *pix = s->pix;
    /* nonzero biases: with zero ones, background pixels sit exactly on the
     * ReLU's kink, where the two differences disagree by design */
    for (int l = 0; l < FM_NCONV; l++)
        for (int c = 0; c < n->conv[l].cout; c++)
            n->p[n->conv[l].b_off + c] = (fm_real)(0.05 * fm_normal(r));
    fm_transpose_weights(n, wt);
    fm_forward(n, pix, &a);
    fm_backward(n, wt, &a, label, grad);
    struct { const char *name; size_t off, cnt; } t[2 * FM_NCONV + 2];
    int nt = 0;
    for (int l = 0; l < FM_NCONV; l++) {
        const struct fm_conv *c = &n->conv[l];
        t[nt++] = (typeof(t[0])){"conv.w", c->w_off, (size_t)9 * c->cin * c->cout};
        t[nt++] = (typeof(t[0])){"conv.b", c->b_off, (size_t)c->cout};
    }
    t[nt++] = (typeof(t[0])){"fc.w", n->fcw_off, (size_t)n->fc_in * n->fc_out};
    t[nt++] = (typeof(t[0])){"fc.b", n->fcb_off, (size_t)n->fc_out};
    double worst = 0.0;
    int checked = 0;
    for (int i = 0; i < nt; i++)
        for (int k = 0; k < 12; k++) {
            size_t idx = t[i].off + fm_rand(r) % t[i].cnt;
            fm_real keep = n->p[idx];
            double h = 1e-6 * (fabs(keep) > 0.1 ? fabs(keep) : 0.1);
            double lp, lm;
                        n->p[idx] = (fm_real)(keep + h);
            fm_forward(n, pix, &a);
            {
                double mx = a.logits[0], sum = 0;
                for (int o = 1; o < FM_CLASSES; o++) mx = a.logits[o] > mx ? a.logits[o] : mx;
                for (int o = 0; o < FM_CLASSES; o++) sum += exp(a.logits[o] - mx);
                lp = log(sum) + mx - a.logits[label];
            }
            n->p[idx] = (fm_real)(keep - h);
            fm_forward(n, pix, &a);
            {
                double mx = a.logits[0], sum = 0;
                for (int o = 1; o < FM_CLASSES; o++) mx = a.logits[o] > mx ? a.logits[o] : mx;
                for (int o = 0; o < FM_CLASSES; o++) sum += exp(a.logits[o] - mx);
                lm = log(sum) + mx - a.logits[label];
            }
            n->p[idx] = keep;
            double num = (lp - lm) / (2 * h), ana = grad[idx];
            double err = fabs(num - ana) / (fabs(num) + fabs(ana) + 1e-3);
            if (err > worst)
                worst = err;
            if (err > 0.05)
                printf("# %s[%zu]: numeric %.6g analytic %.6g\n", t[i].name, idx - t[i].off,
                       num, ana);
            checked++;
        }
    fm_acts_free(&a);
    free(grad);
    free(wt);
    int ok = worst < 0.05;
    printf("%s fmnist gradcheck: %d parameters, worst relative error %.3g\n", ok ? "PASS" : "FAIL",
           checked, worst);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int epochs = 3, batch = 32, calib = 500, do_gradcheck = 0, train_count = 0, test_count = 0;
    double min_acc = -1.0, last_acc = -1.0;
    double lr = 2e-3;
    unsigned long long seed = 1;
    const char *dir = NULL, *float_out = NULL, *from = NULL, *out = NULL, *expect = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--gradcheck")) { do_gradcheck = 1; continue; }
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--epochs")) epochs = atoi(v);
        else if (!strcmp(a, "--batch")) batch = atoi(v);
        else if (!strcmp(a, "--lr")) lr = atof(v);
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--train-count")) train_count = atoi(v);
        else if (!strcmp(a, "--test-count")) test_count = atoi(v);
        else if (!strcmp(a, "--min-acc")) min_acc = atof(v);
        else if (!strcmp(a, "--calib")) calib = atoi(v);
        else if (!strcmp(a, "--data")) dir = v;
        else if (!strcmp(a, "--float-out")) float_out = v;
        else if (!strcmp(a, "--from")) from = v;
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--expect")) expect = v;
        else usage();
    }
    if (epochs < 0 || batch < 1 || calib < 1 || (expect && !out))
        usage();

    struct fm_set tr, te;
    if (fm_load(dir, "train", &tr) != 0 || fm_load(dir, "t10k", &te) != 0)
        return 1;
    if (train_count > 0 && train_count < tr.n)
        tr.n = train_count;
    if (test_count > 0 && test_count < te.n)
        te.n = test_count;
    struct fm_net net;
    if (fm_net_init(&net) != 0)
        return 1;
    struct fm_rng rng = {seed};
    fm_net_randomize(&net, &rng);
    printf("# fmnist: %zu parameters, %d training and %d test images, seed %llu\n",
           net.nparams, tr.n, te.n, seed);
    if (do_gradcheck) {
        int rc = gradcheck(&net, &tr, &rng);
        fm_net_free(&net);
        fm_free(&tr);
        fm_free(&te);
        return rc;
    }

    double t0 = now();
    if (from) {
        if (fm_net_load(&net, from) != 0)
            return 1;
        printf("# parameters from %s\n", from);
    } else {
        size_t np = net.nparams;
        fm_real *grad = calloc(np, sizeof(fm_real)), *wt = calloc(np, sizeof(fm_real));
        fm_real *m = calloc(np, sizeof(fm_real)), *v = calloc(np, sizeof(fm_real));
        int *order = malloc((size_t)tr.n * sizeof(int));
        struct fm_acts a;
        if (!grad || !wt || !m || !v || !order || fm_acts_init(&a, &net) != 0)
            return 1;
        for (int i = 0; i < tr.n; i++)
            order[i] = i;
        long steps = (long)epochs * ((tr.n + batch - 1) / batch), step = 0;
        const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
        printf("# Adam lr %g (cosine decay), batch %d, %d epochs, %ld steps\n", lr, batch,
               epochs, steps);
        for (int ep = 0; ep < epochs; ep++) {
            for (int i = tr.n - 1; i > 0; i--) {
                int j = (int)(fm_rand(&rng) % (uint64_t)(i + 1)), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            double loss = 0.0, t_ep = now();
            int correct = 0, seen = 0, next_report = tr.n / 10;
            for (int b0 = 0; b0 < tr.n; b0 += batch) {
                int bn = tr.n - b0 < batch ? tr.n - b0 : batch;
                memset(grad, 0, np * sizeof(fm_real));
                fm_transpose_weights(&net, wt);
                for (int k = 0; k < bn; k++) {
                    int idx = order[b0 + k], lab = tr.label[idx];
                    correct += fm_forward(&net, tr.pix + (size_t)idx * FM_PIXELS, &a) == lab;
                    loss += fm_backward(&net, wt, &a, lab, grad);
                }
                seen += bn;
                step++;
                double frac = (double)(step - 1) / (double)steps;
                double lr_t = lr * 0.5 * (1.0 + cos(3.141592653589793 * frac));
                double c1 = 1.0 - pow(b1, (double)step), c2 = 1.0 - pow(b2, (double)step);
                fm_real inv = 1.0f / (fm_real)bn;
                for (size_t k = 0; k < np; k++) {
                    fm_real g = grad[k] * inv;
                    m[k] = (fm_real)(b1 * m[k] + (1.0 - b1) * g);
                    v[k] = (fm_real)(b2 * v[k] + (1.0 - b2) * g * g);
                    net.p[k] -= (fm_real)(lr_t * (m[k] / c1) / (sqrt(v[k] / c2) + eps));
                }
                if (seen >= next_report || seen == tr.n) {
                    double el = now() - t_ep;
                    printf("epoch %d/%d  %5d/%d images  loss %.4f  train acc %.2f %%  %.0f s "
                           "(epoch ETA %.0f s)\n",
                           ep + 1, epochs, seen, tr.n, loss / seen, 100.0 * correct / seen, el,
                           el * (tr.n - seen) / seen);
                    fflush(stdout);
                    next_report += tr.n / 10;
                }
            }
            double facc = fm_accuracy(&net, &te, te.n);
            last_acc = 100.0 * facc;
            printf("epoch %d/%d done: float test accuracy %.2f %% (%d images), %.0f s total\n",
                   ep + 1, epochs, 100.0 * facc, te.n, now() - t0);
            fflush(stdout);
        }
        fm_acts_free(&a);
        free(grad); free(wt); free(m); free(v); free(order);
        if (float_out && fm_net_save(&net, float_out) != 0)
            return 1;
    }
    if (out) {
        struct fm_quant q;
        if (fm_calibrate(&net, &tr, calib, &q) != 0)
            return 1;
        printf("# calibration on %d training images (min/max -> scale, zero point):\n", calib);
        for (int l = 0; l < FM_NCONV; l++)
            printf("#   conv%d  [%8.4f, %8.4f] -> %.6g, %d\n", l + 1, q.conv[l].lo, q.conv[l].hi,
                   q.conv[l].scale, q.conv[l].zp);
        printf("#   logits [%8.4f, %8.4f] -> %.6g, %d\n", q.logits.lo, q.logits.hi, q.logits.scale,
               q.logits.zp);
        int rc = fm_write_model(&net, &q, out);
        if (rc != 0) {
            fprintf(stderr, "train: writing %s failed (%d)\n", out, rc);
            return 1;
        }
        printf("# wrote %s\n", out);
    }
    int status = 0;
    if (min_acc >= 0.0) {
        int pass = last_acc >= min_acc;
        printf("%s fmnist train: %d epoch(s) on %d images, float test accuracy %.2f %% "
               "(%d images, limit %.2f %%)\n",
               pass ? "PASS" : "FAIL", epochs, tr.n, last_acc, te.n, min_acc);
        status = !pass;
    }
    if (expect) {
        FILE *fa = fopen(out, "rb"), *fb = fopen(expect, "rb");
        long pos = 0;
        int ca = EOF, cb = EOF;
        if (fa && fb)
            do {
                ca = fgetc(fa);
                cb = fgetc(fb);
                pos++;
            } while (ca == cb && ca != EOF);
        int same = fa && fb && ca == cb;
        if (same)
            printf("PASS fmnist quantize: %s re-quantized is byte-identical to %s\n",
                   from ? from : "the trained net", expect);
        else if (!fa || !fb)
            printf("FAIL fmnist quantize: cannot read %s\n", fa ? expect : out);
        else
            printf("FAIL fmnist quantize: %s differs from %s at byte %ld\n", out, expect, pos - 1);
        if (fa)
            fclose(fa);
        if (fb)
            fclose(fb);
        status |= same ? 0 : 1;
    }
    fm_net_free(&net);
    fm_free(&tr);
    fm_free(&te);
    return status;
}

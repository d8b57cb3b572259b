/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rn50net.c - ResNet-50 v1.5 as a picotpu model: torchvision's layer structure
 * (7x7/2 stem with padding 3, 3x3/2 max pool, bottlenecks 1x1 -> 3x3 (stride 2 in the
 * first block of stages 2-4: v1.5) -> 1x1 with projection shortcuts, residual add +
 * ReLU, global average pool, FC 1000), He-normal pseudo-random weights quantized per
 * output channel, and every activation's scale and zero point calibrated on a random
 * input: the network runs once in float on the dequantized int8 tensors, layer by
 * layer, and each output tensor gets TFLite's asymmetric quantization of its observed
 * [min, max] (widened to contain 0; ReLU outputs have min 0, so zero point -128).
 */
#include "rn50net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu.h"
#include "ptpu_model.h"

static uint64_t rs;
static uint64_t rnext(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double runit(void) { return ((double)(rnext() >> 11) + 0.5) / 9007199254740992.0; }
/* Box-Muller, both values of a pair used */
static double rgauss(void)
{
    static double spare;
    static int have;
    if (have) {
        have = 0;
        return spare;
    }
    double r = sqrt(-2.0 * log(runit())), a = 6.283185307179586 * runit();
    spare = r * sin(a);
    have = 1;
    return r * cos(a);
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "rn50net: out of memory\n");
        exit(1);
    }
    return p;
}

static int clamp8(long v) { return v < -128 ? -128 : v > 127 ? 127 : (int)v; }

/* Quantize the real values y[n] of a new tensor: range -> scale, zero point, values. */
static void calibrate(struct rn_tensor *t, const float *y, size_t n, int relu)
{
    float lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = y[i] < lo ? y[i] : lo;
        hi = y[i] > hi ? y[i] : hi;
    }
    if (relu)
        lo = 0;
    if (hi - lo < 1e-6f)
        hi = lo + 1e-6f;
    t->scale = (hi - lo) / 255.0f;
    t->zp = relu ? -128 : clamp8(lrint(-128.0 - lo / t->scale));
    t->q = xcalloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        float v = relu && y[i] < 0 ? 0 : y[i];
        t->q[i] = (int8_t)clamp8(lrintf(v / t->scale) + t->zp);
    }
}

/* Random weights [cout][fan_in], He-normal times gain, quantized per output channel. */
static void weights(struct rn_layer *l, int cout, int fan_in, double gain, float in_scale)
{
    l->w = xcalloc((size_t)cout * fan_in, 1);
    l->bias = xcalloc((size_t)cout, sizeof(int32_t));
    l->ws = xcalloc((size_t)cout, sizeof(float));
    double *f = xcalloc((size_t)fan_in, sizeof(double)), sd = gain * sqrt(2.0 / fan_in);
    for (int co = 0; co < cout; co++) {
        double m = 1e-12;
        for (int i = 0; i < fan_in; i++) {
            f[i] = sd * rgauss();
            m = fabs(f[i]) > m ? fabs(f[i]) : m;
        }
        l->ws[co] = (float)(m / 127.0);
        for (int i = 0; i < fan_in; i++)
            l->w[(size_t)co * fan_in + i] = (int8_t)lrint(f[i] / l->ws[co]);
        l->bias[co] = (int32_t)lrint(0.05 * rgauss() / ((double)in_scale * l->ws[co]));
    }
    free(f);
}

struct ctx {
    struct rn_net *net;
    ptpu_model_builder *mb;
    int err;
    int max;            /* stop after this many layers (0: all) */
};
#define STOP(c) ((c)->err || ((c)->max && (c)->net->nlayers >= (c)->max))

static int new_tensor(struct ctx *c, int id, int h, int w, int ch)
{
    if (id < 0 || id != c->net->ntensors || id >= 160) {
        fprintf(stderr, "rn50net: builder: %s (id %d)\n", ptpu_mb_error(c->mb), id);
        c->err = id < 0 ? id : PTPU_ERR_INVALID_ARG;
        return -1;
    }
    struct rn_tensor *t = &c->net->t[c->net->ntensors++];
    t->h = h, t->w = w, t->c = ch;
    return id;
}

static struct rn_layer *new_layer(struct ctx *c, enum rn_kind kind, const char *name, int in)
{
    struct rn_layer *l = &c->net->l[c->net->nlayers++];
    memset(l, 0, sizeof(*l));
    l->kind = kind;
    l->in = in;
    l->in2 = -1;
    snprintf(l->name, sizeof(l->name), "%s", name);
    return l;
}

static int conv(struct ctx *c, const char *name, int in, int cout, int k, int s, int relu,
                double gain)
{
    if (STOP(c) || in < 0)
        return -1;
    struct rn_net *n = c->net;
    const struct rn_tensor *x = &n->t[in];
    struct rn_layer *l = new_layer(c, RN_CONV, name, in);
    int pad = k / 2, oh = (x->h + 2 * pad - k) / s + 1, ow = (x->w + 2 * pad - k) / s + 1;
    int cin = x->c, fan = k * k * cin;
    l->cout = cout, l->k = k, l->s = s, l->pad = pad, l->act = relu ? PTPU_ACT_RELU : PTPU_ACT_NONE;
    weights(l, cout, fan, gain, x->scale);
    /* float forward: weights transposed to [ky][kx][ci][co] so the inner loop is over co */
    int32_t *wt = xcalloc((size_t)fan * cout, sizeof(int32_t)), *acc = xcalloc((size_t)cout, 4);
    for (int co = 0; co < cout; co++)
        for (int i = 0; i < fan; i++)
            wt[(size_t)i * cout + co] = l->w[(size_t)co * fan + i];
    float *y = xcalloc((size_t)oh * ow * cout, sizeof(float));
    for (int oy = 0; oy < oh; oy++)
        for (int ox = 0; ox < ow; ox++) {
            for (int co = 0; co < cout; co++)
                acc[co] = l->bias[co];
            for (int ky = 0; ky < k; ky++) {
                int iy = oy * s + ky - pad;
                if (iy < 0 || iy >= x->h)
                    continue;
                for (int kx = 0; kx < k; kx++) {
                    int ix = ox * s + kx - pad;
                    if (ix < 0 || ix >= x->w)
                        continue;
                    const int8_t *px = x->q + ((size_t)iy * x->w + ix) * cin;
                    for (int ci = 0; ci < cin; ci++) {
                        int32_t v = px[ci] - x->zp;
                        if (!v)
                            continue;
                        const int32_t *wr = wt + ((size_t)(ky * k + kx) * cin + ci) * cout;
                        for (int co = 0; co < cout; co++)
                            acc[co] += v * wr[co];
                    }
                }
            }
            float *yo = y + ((size_t)oy * ow + ox) * cout;
            for (int co = 0; co < cout; co++)
                yo[co] = (float)acc[co] * x->scale * l->ws[co];
        }
    free(wt);
    free(acc);
    struct ptpu_conv_params p = {k, k, s, s, 1, 1, PTPU_PAD_EXPLICIT, pad, pad, pad, pad, l->act};
    struct rn_tensor tmp = {0};
    calibrate(&tmp, y, (size_t)oh * ow * cout, relu);
    free(y);
    int id = ptpu_mb_conv2d(c->mb, in, cout, &p, l->w, l->bias, l->ws, tmp.scale, tmp.zp);
    if (new_tensor(c, id, oh, ow, cout) < 0) {
        free(tmp.q);
        return -1;
    }
    n->t[id].scale = tmp.scale, n->t[id].zp = tmp.zp, n->t[id].q = tmp.q;
    l->out = id;
    return id;
}

static int maxpool(struct ctx *c, int in)
{
    if (STOP(c) || in < 0)
        return -1;
    struct rn_net *n = c->net;
    const struct rn_tensor *x = &n->t[in];
    struct rn_layer *l = new_layer(c, RN_MAXPOOL, "maxpool", in);
    l->k = 3, l->s = 2;
    int pt, pb, pl, pr;
    int oh = ptpu_out_dim(x->h, 3, 2, 1, PTPU_PAD_SAME, &pt, &pb);
    int ow = ptpu_out_dim(x->w, 3, 2, 1, PTPU_PAD_SAME, &pl, &pr);
    int8_t *q = xcalloc((size_t)oh * ow * x->c, 1);
    for (int oy = 0; oy < oh; oy++)
        for (int ox = 0; ox < ow; ox++)
            for (int ch = 0; ch < x->c; ch++) {
                int m = -128;
                for (int ky = 0; ky < 3; ky++)
                    for (int kx = 0; kx < 3; kx++) {
                        int iy = oy * 2 + ky - pt, ix = ox * 2 + kx - pl;
                        if (iy >= 0 && iy < x->h && ix >= 0 && ix < x->w) {
                            int v = x->q[((size_t)iy * x->w + ix) * x->c + ch];
                            m = v > m ? v : m;
                        }
                    }
                q[((size_t)oy * ow + ox) * x->c + ch] = (int8_t)m;
            }
    int id = ptpu_mb_maxpool(c->mb, in, 3, 3, 2, 2, PTPU_PAD_SAME);
    if (new_tensor(c, id, oh, ow, x->c) < 0) {
        free(q);
        return -1;
    }
    n->t[id].scale = x->scale, n->t[id].zp = x->zp, n->t[id].q = q;
    l->out = id;
    return id;
}

static int add(struct ctx *c, const char *name, int a, int b)
{
    if (STOP(c) || a < 0 || b < 0)
        return -1;
    struct rn_net *n = c->net;
    const struct rn_tensor *x = &n->t[a], *z = &n->t[b];
    struct rn_layer *l = new_layer(c, RN_ADD, name, a);
    l->in2 = b, l->act = PTPU_ACT_RELU;
    size_t cnt = (size_t)x->h * x->w * x->c;
    float *y = xcalloc(cnt, sizeof(float));
    for (size_t i = 0; i < cnt; i++)
        y[i] = x->scale * (float)(x->q[i] - x->zp) + z->scale * (float)(z->q[i] - z->zp);
    struct rn_tensor tmp = {0};
    calibrate(&tmp, y, cnt, 1);
    free(y);
    int id = ptpu_mb_add(c->mb, a, b, PTPU_ACT_RELU, tmp.scale, tmp.zp);
    if (new_tensor(c, id, x->h, x->w, x->c) < 0) {
        free(tmp.q);
        return -1;
    }
    n->t[id].scale = tmp.scale, n->t[id].zp = tmp.zp, n->t[id].q = tmp.q;
    l->out = id;
    return id;
}

static int gap(struct ctx *c, int in)
{
    if (STOP(c) || in < 0)
        return -1;
    struct rn_net *n = c->net;
    const struct rn_tensor *x = &n->t[in];
    struct rn_layer *l = new_layer(c, RN_AVGPOOL, "avgpool", in);
    l->k = x->h, l->s = 1;
    float *y = xcalloc((size_t)x->c, sizeof(float));
    for (int ch = 0; ch < x->c; ch++) {
        double s = 0;
        for (int i = 0; i < x->h * x->w; i++)
            s += x->q[(size_t)i * x->c + ch] - x->zp;
        y[ch] = (float)(x->scale * s / (x->h * x->w));
    }
    struct rn_tensor tmp = {0};
    calibrate(&tmp, y, (size_t)x->c, 0);
    free(y);
    int id = ptpu_mb_avgpool(c->mb, in, x->h, x->w, 1, 1, PTPU_PAD_VALID, tmp.scale, tmp.zp);
    if (new_tensor(c, id, 1, 1, x->c) < 0) {
        free(tmp.q);
        return -1;
    }
    n->t[id].scale = tmp.scale, n->t[id].zp = tmp.zp, n->t[id].q = tmp.q;
    l->out = id;
    return id;
}

static int fc(struct ctx *c, int in, int cout)
{
    if (STOP(c) || in < 0)
        return -1;
    struct rn_net *n = c->net;
    const struct rn_tensor *x = &n->t[in];
    struct rn_layer *l = new_layer(c, RN_FC, "fc", in);
    int cin = x->h * x->w * x->c;
    l->cout = cout, l->k = 1, l->s = 1;
    weights(l, cout, cin, 0.5, x->scale);
    float *y = xcalloc((size_t)cout, sizeof(float));
    for (int co = 0; co < cout; co++) {
        int64_t a = l->bias[co];
        for (int i = 0; i < cin; i++)
            a += (int64_t)(x->q[i] - x->zp) * l->w[(size_t)co * cin + i];
        y[co] = (float)a * x->scale * l->ws[co];
    }
    struct rn_tensor tmp = {0};
    calibrate(&tmp, y, (size_t)cout, 0);
    free(y);
    int id = ptpu_mb_fc(c->mb, in, cout, l->w, l->bias, l->ws, PTPU_ACT_NONE, tmp.scale, tmp.zp);
    if (new_tensor(c, id, 1, 1, cout) < 0) {
        free(tmp.q);
        return -1;
    }
    n->t[id].scale = tmp.scale, n->t[id].zp = tmp.zp, n->t[id].q = tmp.q;
    l->out = id;
    return id;
}

int rn_build(struct rn_net *net, int size, int width_div, int max_layers, uint64_t seed)
{
    memset(net, 0, sizeof(*net));
    rs = seed;
    struct ctx c = {net, NULL, 0, max_layers};
    int rc = ptpu_mb_create(&c.mb);
    if (rc)
        return rc;
    /* input: a normalized image, N(0, 1) per value, scale 0.02 (range +-2.56), zp 0 */
    int in = ptpu_mb_input(c.mb, size, size, 3, 0.02f, 0);
    if (new_tensor(&c, in, size, size, 3) < 0)
        goto out;
    struct rn_tensor *t0 = &net->t[0];
    t0->scale = 0.02f, t0->zp = 0;
    t0->q = xcalloc((size_t)size * size * 3, 1);
    for (size_t i = 0; i < (size_t)size * size * 3; i++)
        t0->q[i] = (int8_t)clamp8(lrint(rgauss() / 0.02));
    net->input = t0->q;
    int t = conv(&c, "conv1", in, 64 / width_div, 7, 2, 1, 1.0);
    t = maxpool(&c, t);
    static const int stages[4][2] = {{64, 3}, {128, 4}, {256, 6}, {512, 3}};
    for (int st = 0; st < 4; st++)
        for (int b = 0; b < stages[st][1]; b++) {
            int w = stages[st][0] / width_div, s = b == 0 && st > 0 ? 2 : 1;
            char nm[24];
            snprintf(nm, sizeof(nm), "s%db%d.c1", st + 1, b);
            int a = conv(&c, nm, t, w, 1, 1, 1, 1.0);
            nm[strlen(nm) - 1] = '2';
            a = conv(&c, nm, a, w, 3, s, 1, 1.0);
            nm[strlen(nm) - 1] = '3';
            a = conv(&c, nm, a, 4 * w, 1, 1, 0, 0.5);
            int sc = t;
            if (b == 0) {
                snprintf(nm, sizeof(nm), "s%db%d.proj", st + 1, b);
                sc = conv(&c, nm, t, 4 * w, 1, s, 0, 1.0);
            }
            snprintf(nm, sizeof(nm), "s%db%d.add", st + 1, b);
            t = add(&c, nm, a, sc);
        }
    t = gap(&c, t);
    t = fc(&c, t, 1000);
    if (!c.err && t >= 0) {
        ptpu_mb_output(c.mb, t);
        rc = ptpu_mb_image(c.mb, &net->image, &net->image_len);
        if (rc)
            fprintf(stderr, "rn50net: %s\n", ptpu_mb_error(c.mb));
    }
out:
    if (c.err)
        rc = c.err;
    else if (!net->image && !rc && !max_layers)
        rc = PTPU_ERR_INVALID_ARG;
    ptpu_mb_free(c.mb);
    return rc;
}

void rn_free(struct rn_net *net)
{
    for (int i = 0; i < net->ntensors; i++)
        free(net->t[i].q);
    for (int i = 0; i < net->nlayers; i++) {
        free(net->l[i].w);
        free(net->l[i].bias);
        free(net->l[i].ws);
    }
    free(net->image);
    memset(net, 0, sizeof(*net));
}

int rn_layer_model(const struct rn_net *net, int li, uint8_t **img, size_t *len)
{
    const struct rn_layer *l = &net->l[li];
    const struct rn_tensor *x = &net->t[l->in], *y = &net->t[l->out];
    if (l->kind != RN_CONV && l->kind != RN_FC)
        return PTPU_ERR_INVALID_ARG;
    ptpu_model_builder *mb;
    int rc = ptpu_mb_create(&mb);
    if (rc)
        return rc;
    int t = ptpu_mb_input(mb, x->h, x->w, x->c, x->scale, x->zp);
    if (l->kind == RN_CONV) {
        struct ptpu_conv_params p = {l->k, l->k, l->s, l->s, 1, 1, PTPU_PAD_EXPLICIT,
                                     l->pad, l->pad, l->pad, l->pad, (enum ptpu_act)l->act};
        t = ptpu_mb_conv2d(mb, t, l->cout, &p, l->w, l->bias, l->ws, y->scale, y->zp);
    } else {
        t = ptpu_mb_fc(mb, t, l->cout, l->w, l->bias, l->ws, PTPU_ACT_NONE, y->scale, y->zp);
    }
    rc = t < 0 ? t : ptpu_mb_output(mb, t);
    if (rc >= 0)
        rc = ptpu_mb_image(mb, img, len);
    if (rc < 0)
        fprintf(stderr, "rn50net: layer %s: %s\n", l->name, ptpu_mb_error(mb));
    ptpu_mb_free(mb);
    return rc < 0 ? rc : 0;
}

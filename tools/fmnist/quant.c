/* SPDX-License-Identifier: Apache-2.0 */
/*
 * quant.c - post-training int8 quantization of the CNN (docs/fmnist.md):
 * activations per tensor, asymmetric, from the min/max observed on
 * calibration images; weights per output channel, symmetric in [-127, 127];
 * int32 biases with scale in_scale * w_scale.  The model is written with
 * libpicotpu's builder API.
 */
#include "fmnist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picotpu.h"

/* Asymmetric int8 over [lo, hi] widened to hold 0 (zero must be exact:
 * padding and ReLU produce it). */
static void aq_from_range(struct fm_aq *a, float lo, float hi)
{
    a->lo = lo;
    a->hi = hi;
    double l = lo < 0.0f ? lo : 0.0, h = hi > 0.0f ? hi : 0.0;
    if (h - l < 1e-6)
        h = l + 1e-6;
    double scale = (h - l) / 255.0;
    double zp = round(-128.0 - l / scale);
    a->scale = (float)scale;
    a->zp = zp < -128 ? -128 : zp > 127 ? 127 : (int)zp;
}

static void range_of(const fm_real *v, size_t cnt, float *lo, float *hi)
{
    for (size_t i = 0; i < cnt; i++) {
        if (v[i] < *lo)
            *lo = (float)v[i];
        if (v[i] > *hi)
            *hi = (float)v[i];
    }
}

int fm_calibrate(const struct fm_net *n, const struct fm_set *s, int count, struct fm_quant *q)
{
    struct fm_acts a;
    float lo[FM_NCONV + 1], hi[FM_NCONV + 1];
    if (count > s->n)
        count = s->n;
    if (count < 1 || fm_acts_init(&a, n) != 0)
        return -1;
    for (int l = 0; l <= FM_NCONV; l++) {
        lo[l] = INFINITY;
        hi[l] = -INFINITY;
    }
    for (int i = 0; i < count; i++) {
        fm_forward(n, s->pix + (size_t)i * FM_PIXELS, &a);
        for (int l = 0; l < FM_NCONV; l++) {
            const struct fm_conv *c = &n->conv[l];
            range_of(a.conv[l], (size_t)c->h * c->w * c->cout, &lo[l], &hi[l]);
        }
        range_of(a.logits, FM_CLASSES, &lo[FM_NCONV], &hi[FM_NCONV]);
    }
    fm_acts_free(&a);
    memset(q, 0, sizeof(*q));
    q->in = (struct fm_aq){1.0f / 255.0f, -128, 0.0f, 1.0f};
    for (int l = 0; l < FM_NCONV; l++)
        aq_from_range(&q->conv[l], lo[l], hi[l]);
    aq_from_range(&q->logits, lo[FM_NCONV], hi[FM_NCONV]);
    return 0;
}

/* w: [K][cout] floats (K inputs per output); out: [cout][K] int8, ws [cout],
 * bias [cout] int32 at scale in_scale * ws. */
static void quantize_layer(const fm_real *w, const fm_real *b, int K, int cout, float in_scale,
                           int8_t *qw, int32_t *qb, float *ws)
{
    for (int c = 0; c < cout; c++) {
        double mx = 0.0;
        for (int k = 0; k < K; k++)
            if (fabs((double)w[(size_t)k * cout + c]) > mx)
                mx = fabs((double)w[(size_t)k * cout + c]);
        double s = mx > 0.0 ? mx / 127.0 : 1.0;
        ws[c] = (float)s;
        s = ws[c];   /* quantize against the scale the file stores */
        for (int k = 0; k < K; k++) {
            double v = round((double)w[(size_t)k * cout + c] / s);
            qw[(size_t)c * K + k] = (int8_t)(v < -127 ? -127 : v > 127 ? 127 : v);
        }
        double bv = round((double)b[c] / ((double)in_scale * s));
        qb[c] = bv < -2147483647.0 ? -2147483647 : bv > 2147483647.0 ? 2147483647 : (int32_t)bv;
    }
}

int fm_write_model(const struct fm_net *n, const struct fm_quant *q, const char *path)
{
    ptpu_model_builder *mb;
    int rc = ptpu_mb_create(&mb);
    if (rc)
        return rc;
    size_t maxw = (size_t)n->fc_in * n->fc_out;
    for (int l = 0; l < FM_NCONV; l++)
        if ((size_t)9 * n->conv[l].cin * n->conv[l].cout > maxw)
            maxw = (size_t)9 * n->conv[l].cin * n->conv[l].cout;
    int8_t *qw = malloc(maxw);
    int32_t qb[64];
    float ws[64];
    int too_wide = n->fc_out > 64;   /* qb, ws */
    for (int l = 0; l < FM_NCONV; l++)
        too_wide |= n->conv[l].cout > 64;
    if (!qw || too_wide) {
        rc = qw ? PTPU_ERR_INVALID_ARG : PTPU_ERR_NO_MEM;
        free(qw);
        ptpu_mb_free(mb);
        return rc;
    }
    int t = ptpu_mb_input(mb, FM_SIDE, FM_SIDE, 1, q->in.scale, q->in.zp);
    float in_scale = q->in.scale;
    for (int l = 0; l < FM_NCONV && t >= 0; l++) {
        const struct fm_conv *c = &n->conv[l];
        const struct ptpu_conv_params p = {
            .kh = 3, .kw = 3, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1,
            .padding = PTPU_PAD_SAME, .act = PTPU_ACT_RELU};
        quantize_layer(n->p + c->w_off, n->p + c->b_off, 9 * c->cin, c->cout, in_scale, qw, qb,
                       ws);
        t = ptpu_mb_conv2d(mb, t, c->cout, &p, qw, qb, ws, q->conv[l].scale, q->conv[l].zp);
        if (t >= 0 && c->pool)
            t = ptpu_mb_maxpool(mb, t, 2, 2, 2, 2, PTPU_PAD_VALID);
        in_scale = q->conv[l].scale;
    }
    if (t >= 0) {
        quantize_layer(n->p + n->fcw_off, n->p + n->fcb_off, n->fc_in, n->fc_out, in_scale, qw,
                       qb, ws);
        t = ptpu_mb_fc(mb, t, n->fc_out, qw, qb, ws, PTPU_ACT_NONE, q->logits.scale,
                       q->logits.zp);
    }
    rc = t < 0 ? t : ptpu_mb_output(mb, t);
    if (rc == 0)
        rc = ptpu_mb_save(mb, path);
    free(qw);
    ptpu_mb_free(mb);
    return rc;
}

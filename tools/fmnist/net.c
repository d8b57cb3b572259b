/* SPDX-License-Identifier: Apache-2.0 */
/* net.c - the float CNN: forward pass, backward pass, parameter file.
 * Loops run over the channel dimension innermost (NHWC activations, HWIO
 * weights) so that the compiler vectorises them; inputs that are zero (ReLU
 * outputs, image background) and pixels without gradient (3 of 4 under a
 * max pool) are skipped. */
#include "fmnist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fm_magic[8] = {'F', 'M', 'N', 'F', '3', '2', 0, 1};

int fm_net_init(struct fm_net *n)
{
    static const int dims[FM_NCONV][5] = {
        /* h, w, cin, cout, pool */
        {28, 28, 1, 16, 1},
        {14, 14, 16, 32, 1},
        {7, 7, 32, 32, 0},
    };
    size_t off = 0;
    memset(n, 0, sizeof(*n));
    for (int l = 0; l < FM_NCONV; l++) {
        struct fm_conv *c = &n->conv[l];
        c->h = dims[l][0];
        c->w = dims[l][1];
        c->cin = dims[l][2];
        c->cout = dims[l][3];
        c->pool = dims[l][4];
        c->w_off = off;
        off += (size_t)9 * c->cin * c->cout;
        c->b_off = off;
        off += (size_t)c->cout;
    }
    const struct fm_conv *last = &n->conv[FM_NCONV - 1];
    n->fc_in = last->h * last->w * last->cout;
    n->fc_out = FM_CLASSES;
    n->fcw_off = off;
    off += (size_t)n->fc_in * n->fc_out;
    n->fcb_off = off;
    off += (size_t)n->fc_out;
    n->nparams = off;
    n->p = calloc(off, sizeof(fm_real));
    return n->p ? 0 : -1;
}

void fm_net_free(struct fm_net *n)
{
    free(n->p);
    n->p = NULL;
}

void fm_net_randomize(struct fm_net *n, struct fm_rng *r)
{
    memset(n->p, 0, n->nparams * sizeof(fm_real));
    for (int l = 0; l < FM_NCONV; l++) {
        const struct fm_conv *c = &n->conv[l];
        size_t cnt = (size_t)9 * c->cin * c->cout;
        double sd = sqrt(2.0 / (9.0 * c->cin));
        for (size_t i = 0; i < cnt; i++)
            n->p[c->w_off + i] = (fm_real)(float)(sd * fm_normal(r));
    }
    double sd = sqrt(1.0 / n->fc_in);
    for (size_t i = 0; i < (size_t)n->fc_in * n->fc_out; i++)
        n->p[n->fcw_off + i] = (fm_real)(float)(sd * fm_normal(r));
}

int fm_net_save(const struct fm_net *n, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "fmnist: cannot write %s\n", path);
        return -1;
    }
    uint8_t b[4];
    uint32_t cnt = (uint32_t)n->nparams;
    int ok = fwrite(fm_magic, 1, 8, f) == 8;
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(cnt >> (8 * i));
    ok = ok && fwrite(b, 1, 4, f) == 4;
    for (size_t k = 0; ok && k < n->nparams; k++) {
        uint32_t u;
        float fv = (float)n->p[k];
        memcpy(&u, &fv, 4);
        for (int i = 0; i < 4; i++)
            b[i] = (uint8_t)(u >> (8 * i));
        ok = fwrite(b, 1, 4, f) == 4;
    }
    if (fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "fmnist: error writing %s\n", path);
    return ok ? 0 : -1;
}

int fm_net_load(struct fm_net *n, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fmnist: cannot open %s\n", path);
        return -1;
    }
    uint8_t hdr[12], b[4];
    int ok = fread(hdr, 1, 12, f) == 12 && memcmp(hdr, fm_magic, 8) == 0;
    uint32_t cnt = ok ? (uint32_t)hdr[8] | (uint32_t)hdr[9] << 8 | (uint32_t)hdr[10] << 16 |
                            (uint32_t)hdr[11] << 24
                      : 0;
    if (ok && cnt != n->nparams) {
        fprintf(stderr, "fmnist: %s holds %u parameters, the network has %zu\n", path, cnt,
                n->nparams);
        fclose(f);
        return -1;
    }
    for (size_t k = 0; ok && k < n->nparams; k++) {
        ok = fread(b, 1, 4, f) == 4;
        uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24;
        float fv;
        memcpy(&fv, &u, 4);
        n->p[k] = fv;
    }
    if (ok && fgetc(f) != EOF)
        ok = 0;
    fclose(f);
    if (!ok)
        fprintf(stderr, "fmnist: %s is not a parameter file of this network\n", path);
    return ok ? 0 : -1;
}

int fm_acts_init(struct fm_acts *a, const struct fm_net *n)
{
    size_t big = n->fc_in, kmax = 0;
    int ok = 1;
    memset(a, 0, sizeof(*a));
    a->in = malloc(FM_PIXELS * sizeof(fm_real));
    ok = ok && a->in;
    for (int l = 0; l < FM_NCONV; l++) {
        const struct fm_conv *c = &n->conv[l];
        size_t sz = (size_t)c->h * c->w * c->cout;
        size_t szi = (size_t)c->h * c->w * c->cin;
        if (sz > big)
            big = sz;
        if (szi > big)
            big = szi;
        if ((size_t)9 * c->cin > kmax)
            kmax = (size_t)9 * c->cin;
        a->conv[l] = malloc(sz * sizeof(fm_real));
        ok = ok && a->conv[l];
        if (c->pool) {
            a->pool[l] = malloc(sz / 4 * sizeof(fm_real));
            a->arg[l] = malloc(sz / 4 * sizeof(int));
            ok = ok && a->pool[l] && a->arg[l];
        }
    }
    a->col = malloc(kmax * sizeof(fm_real));
    a->dcol = malloc(kmax * sizeof(fm_real));
    a->g_a = malloc(big * sizeof(fm_real));
    a->g_b = malloc(big * sizeof(fm_real));
    ok = ok && a->col && a->dcol && a->g_a && a->g_b;
    if (!ok)
        fm_acts_free(a);
    return ok ? 0 : -1;
}

void fm_acts_free(struct fm_acts *a)
{
    free(a->in);
    for (int l = 0; l < FM_NCONV; l++) {
        free(a->conv[l]);
        free(a->pool[l]);
        free(a->arg[l]);
    }
    free(a->col);
    free(a->dcol);
    free(a->g_a);
    free(a->g_b);
    memset(a, 0, sizeof(*a));
}

/* The 3x3 SAME patch of output pixel (y, x) in [ky][kx][cin] order. */
static void im2col(const struct fm_conv *L, const fm_real *in, int y, int x, fm_real *col)
{
    int ci = L->cin;
    for (int ky = 0; ky < 3; ky++) {
        int iy = y + ky - 1;
        for (int kx = 0; kx < 3; kx++) {
            int ix = x + kx - 1;
            fm_real *dst = col + (ky * 3 + kx) * ci;
            if (iy < 0 || iy >= L->h || ix < 0 || ix >= L->w)
                memset(dst, 0, (size_t)ci * sizeof(fm_real));
            else
                memcpy(dst, in + ((size_t)iy * L->w + ix) * ci, (size_t)ci * sizeof(fm_real));
        }
    }
}

static void conv_fwd(const struct fm_conv *L, const fm_real *restrict w, const fm_real *restrict b,
                     const fm_real *in, fm_real *restrict out, fm_real *restrict col)
{
    int co = L->cout, K = 9 * L->cin;
    for (int y = 0; y < L->h; y++)
        for (int x = 0; x < L->w; x++) {
            fm_real *restrict o = out + ((size_t)y * L->w + x) * co;
            im2col(L, in, y, x, col);
            memcpy(o, b, (size_t)co * sizeof(fm_real));
            for (int k = 0; k < K; k++) {
                fm_real v = col[k];
                if (v == 0.0f)
                    continue;
                const fm_real *restrict wk = w + (size_t)k * co;
                for (int c = 0; c < co; c++)
                    o[c] += v * wk[c];
            }
            for (int c = 0; c < co; c++)
                if (o[c] < 0.0f)
                    o[c] = 0.0f;
        }
}

static void pool_fwd(const struct fm_conv *L, const fm_real *in, fm_real *out, int *arg)
{
    int c = L->cout, oh = L->h / 2, ow = L->w / 2;
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++)
            for (int ch = 0; ch < c; ch++) {
                int best = ((2 * y) * L->w + 2 * x) * c + ch;
                for (int dy = 0; dy < 2; dy++)
                    for (int dx = 0; dx < 2; dx++) {
                        int i = ((2 * y + dy) * L->w + 2 * x + dx) * c + ch;
                        if (in[i] > in[best])
                            best = i;
                    }
                int o = (y * ow + x) * c + ch;
                out[o] = in[best];
                arg[o] = best;
            }
}

int fm_forward(const struct fm_net *n, const uint8_t *pix, struct fm_acts *a)
{
    for (int i = 0; i < FM_PIXELS; i++)
        a->in[i] = (fm_real)pix[i] * (1.0f / 255.0f);
    const fm_real *x = a->in;
    for (int l = 0; l < FM_NCONV; l++) {
        const struct fm_conv *L = &n->conv[l];
        conv_fwd(L, n->p + L->w_off, n->p + L->b_off, x, a->conv[l], a->col);
        x = a->conv[l];
        if (L->pool) {
            pool_fwd(L, x, a->pool[l], a->arg[l]);
            x = a->pool[l];
        }
    }
    const fm_real *w = n->p + n->fcw_off;
    int no = n->fc_out;
    memcpy(a->logits, n->p + n->fcb_off, (size_t)no * sizeof(fm_real));
    for (int i = 0; i < n->fc_in; i++) {
        fm_real v = x[i];
        if (v == 0.0f)
            continue;
        for (int o = 0; o < no; o++)
            a->logits[o] += v * w[(size_t)i * no + o];
    }
    int best = 0;
    for (int o = 1; o < no; o++)
        if (a->logits[o] > a->logits[best])
            best = o;
    return best;
}

void fm_transpose_weights(const struct fm_net *n, fm_real *wt)
{
    for (int l = 0; l < FM_NCONV; l++) {
        const struct fm_conv *L = &n->conv[l];
        int K = 9 * L->cin, co = L->cout;
        const fm_real *w = n->p + L->w_off;
        fm_real *t = wt + L->w_off;
        for (int k = 0; k < K; k++)
            for (int c = 0; c < co; c++)
                t[(size_t)c * K + k] = w[(size_t)k * co + c];
    }
}

/* gout: gradient of the ReLU output (masked here in place). gin may be NULL. */
static void conv_bwd(const struct fm_conv *L, const fm_real *restrict wt, const fm_real *in,
                     const fm_real *restrict out, fm_real *restrict gout, fm_real *restrict gw,
                     fm_real *restrict gb, fm_real *restrict gin, fm_real *restrict col,
                     fm_real *restrict dcol)
{
    int ci = L->cin, co = L->cout, K = 9 * ci;
    if (gin)
        memset(gin, 0, (size_t)L->h * L->w * ci * sizeof(fm_real));
    for (int y = 0; y < L->h; y++)
        for (int x = 0; x < L->w; x++) {
            size_t pix = (size_t)y * L->w + x;
            fm_real *restrict d = gout + pix * co;
            const fm_real *restrict o = out + pix * co;
            int any = 0;
            for (int c = 0; c < co; c++) {
                if (o[c] <= 0.0f)
                    d[c] = 0.0f;
                any |= d[c] != 0.0f;
            }
            if (!any)
                continue;
            im2col(L, in, y, x, col);
            for (int c = 0; c < co; c++)
                gb[c] += d[c];
            for (int k = 0; k < K; k++) {
                fm_real v = col[k];
                if (v == 0.0f)
                    continue;
                fm_real *restrict g = gw + (size_t)k * co;
                for (int c = 0; c < co; c++)
                    g[c] += v * d[c];
            }
            if (!gin)
                continue;
            memset(dcol, 0, (size_t)K * sizeof(fm_real));
            for (int c = 0; c < co; c++) {
                fm_real dc = d[c];
                if (dc == 0.0f)
                    continue;
                const fm_real *restrict wc = wt + (size_t)c * K;
                for (int k = 0; k < K; k++)
                    dcol[k] += dc * wc[k];
            }
            for (int ky = 0; ky < 3; ky++) {
                int iy = y + ky - 1;
                if (iy < 0 || iy >= L->h)
                    continue;
                for (int kx = 0; kx < 3; kx++) {
                    int ix = x + kx - 1;
                    if (ix < 0 || ix >= L->w)
                        continue;
                    fm_real *restrict gi = gin + ((size_t)iy * L->w + ix) * ci;
                    const fm_real *restrict dc = dcol + (ky * 3 + kx) * ci;
                    for (int i = 0; i < ci; i++)
                        gi[i] += dc[i];
                }
            }
        }
}

fm_real fm_backward(const struct fm_net *n, const fm_real *wt, struct fm_acts *a, int label,
                  fm_real *grad)
{
    const int no = FM_CLASSES;   /* == n->fc_out */
    fm_real dl[FM_CLASSES], mx = a->logits[0], sum = 0.0f;
    for (int o = 1; o < no; o++)
        if (a->logits[o] > mx)
            mx = a->logits[o];
    for (int o = 0; o < no; o++) {
        dl[o] = (fm_real)exp((double)(a->logits[o] - mx));
        sum += dl[o];
    }
    for (int o = 0; o < no; o++)
        dl[o] /= sum;
    fm_real loss = (fm_real)-log(dl[label] > 1e-30 ? (double)dl[label] : 1e-30);
    dl[label] -= 1.0f;

    /* fc */
    const fm_real *x = a->conv[FM_NCONV - 1];
    const fm_real *w = n->p + n->fcw_off;
    fm_real *gw = grad + n->fcw_off, *gb = grad + n->fcb_off;
    fm_real *g = a->g_a, *other = a->g_b;
    for (int o = 0; o < no; o++)
        gb[o] += dl[o];
    for (int i = 0; i < n->fc_in; i++) {
        fm_real v = x[i], s = 0.0f;
        for (int o = 0; o < no; o++) {
            if (v != 0.0f)
                gw[(size_t)i * no + o] += v * dl[o];
            s += w[(size_t)i * no + o] * dl[o];
        }
        g[i] = s;
    }
    /* g: gradient of the last activation (the pool output, or the conv output) */
    for (int l = FM_NCONV - 1; l >= 0; l--) {
        const struct fm_conv *L = &n->conv[l];
        if (L->pool) {
            size_t sz = (size_t)L->h * L->w * L->cout;
            memset(other, 0, sz * sizeof(fm_real));
            for (size_t j = 0; j < sz / 4; j++)
                other[a->arg[l][j]] += g[j];
            fm_real *t = g;
            g = other;
            other = t;
        }
        const fm_real *in = l == 0                  ? a->in
                            : n->conv[l - 1].pool ? a->pool[l - 1]
                                                  : a->conv[l - 1];
        conv_bwd(L, wt + L->w_off, in, a->conv[l], g, grad + L->w_off, grad + L->b_off,
                 l == 0 ? NULL : other, a->col, a->dcol);
        fm_real *t = g;
        g = other;
        other = t;
    }
    return loss;
}

double fm_accuracy(const struct fm_net *n, const struct fm_set *s, int count)
{
    struct fm_acts a;
    if (count > s->n)
        count = s->n;
    if (count <= 0 || fm_acts_init(&a, n) != 0)
        return 0.0;
    int ok = 0;
    for (int i = 0; i < count; i++)
        ok += fm_forward(n, s->pix + (size_t)i * FM_PIXELS, &a) == s->label[i];
    fm_acts_free(&a);
    return (double)ok / count;
}

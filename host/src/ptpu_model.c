/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_model.c - the model builder, the model file writer and its strict
 * loader (docs/model-format.md).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "picotpu.h"
#include "ptpu_arith.h"
#include "ptpu_model.h"

#define ERR(code, ...) fail(err, errlen, code, __VA_ARGS__)

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int ptpu_out_dim(int in, int k, int s, int d, int padding, int *p0, int *p1)
{
    long ext = (long)(k - 1) * d + 1;
    long out;
    if (padding == PTPU_PAD_SAME) {
        out = (in + s - 1) / s;
        long tot = (out - 1) * s + ext - in;
        if (tot < 0)
            tot = 0;
        *p0 = (int)(tot / 2);
        *p1 = (int)(tot - tot / 2);
        return (int)out;
    }
    if (padding == PTPU_PAD_VALID)
        *p0 = *p1 = 0;
    long span = (long)in + *p0 + *p1 - ext;
    if (span < 0)
        return 0;
    return (int)(span / s + 1);
}

void ptpu_act_range(int act, float scale, int zp, int *lo, int *hi)
{
    *lo = -128;
    *hi = 127;
    if (act == PTPU_ACT_RELU || act == PTPU_ACT_RELU6)
        *lo = zp;
    if (act == PTPU_ACT_RELU6) {
        double six = 6.0 / (double)scale;
        long h = six > 1000.0 ? 1000 : lround(six);
        if (zp + h < 127)
            *hi = (int)(zp + h);
    }
}

void ptpu_add_params(float sa, float sb, float so, int *ka, int *kb, int32_t *m0, int *shift)
{
    double unit = (sa > sb ? (double)sa : (double)sb) / 127.0;
    *ka = (int)lround((double)sa / unit);
    *kb = (int)lround((double)sb / unit);
    ptpu_quantize_multiplier(unit / (double)so, m0, shift);
}

size_t ptpu_mop_blob_bytes(const struct ptpu_model *m, const struct ptpu_mop *op)
{
    const struct ptpu_tensor *in = &m->t[op->in[0]], *out = &m->t[op->out];
    size_t nw;
    switch (op->type) {
    case PTPU_MOP_CONV2D:
        nw = (size_t)out->c * op->kh * op->kw * in->c;
        break;
    case PTPU_MOP_DEPTHWISE:
        nw = (size_t)op->kh * op->kw * in->c;
        break;
    case PTPU_MOP_FC:
        nw = (size_t)out->c * in->h * in->w * in->c;
        break;
    default:
        return 0;
    }
    return ((nw + 3) & ~(size_t)3) + 8 * (size_t)out->c;
}

static int check_tensor(const struct ptpu_tensor *t, int id, char *err, size_t errlen)
{
    if (t->h < 1 || t->w < 1 || t->c < 1 || t->h > PTPU_MODEL_MAX_DIM ||
        t->w > PTPU_MODEL_MAX_DIM || t->c > PTPU_MODEL_MAX_DIM ||
        (uint64_t)t->h * t->w * t->c > PTPU_MODEL_MAX_ELEMS)
        return ERR(PTPU_ERR_FORMAT, "tensor %d: shape %dx%dx%d out of range", id, t->h, t->w,
                   t->c);
    if (!isfinite(t->scale) || !(t->scale > 0.0f) || t->scale < 1e-30f)
        return ERR(PTPU_ERR_FORMAT, "tensor %d: scale %g is not a positive finite number", id,
                   (double)t->scale);
    if (t->zp < -128 || t->zp > 127)
        return ERR(PTPU_ERR_FORMAT, "tensor %d: zero point %d outside [-128, 127]", id, t->zp);
    return 0;
}

static int set_mult(struct ptpu_mop *op, int i, double mult, int idx, char *err, size_t errlen)
{
    if (!isfinite(mult) || mult < 0.0 || mult >= 2147483648.0)
        return ERR(PTPU_ERR_FORMAT, "op %d: requantization multiplier %g out of range", idx,
                   mult);
    ptpu_quantize_multiplier(mult, &op->m0[i], &op->shift[i]);
    if (op->shift[i] > 31)
        return ERR(PTPU_ERR_FORMAT, "op %d: requantization multiplier %g too large", idx, mult);
    return 0;
}

/* Point op's weights into the blob (which may have moved). */
static void resolve(struct ptpu_model *m, struct ptpu_mop *op)
{
    const struct ptpu_tensor *out = &m->t[op->out];
    size_t nw = ptpu_mop_blob_bytes(m, op);
    if (!nw) {
        op->w = NULL;
        op->bias = NULL;
        op->ws = NULL;
        return;
    }
    const uint8_t *b = m->blob + op->blob_off;
    op->w = (const int8_t *)b;
    op->bias = (const int32_t *)(b + nw - 8 * (size_t)out->c);
    op->ws = (const float *)(b + nw - 4 * (size_t)out->c);
}

/* Check op idx against the tensors before it and compute its derived fields. */
static int check_op(struct ptpu_model *m, int idx, char *err, size_t errlen)
{
    struct ptpu_mop *op = &m->op[idx];
    if (op->type < 1 || op->type > PTPU_MOP_MAX)
        return ERR(PTPU_ERR_FORMAT, "op %d: unknown type %d", idx, op->type);
    if (op->out != idx + 1)
        return ERR(PTPU_ERR_FORMAT, "op %d: output tensor %d, must be %d", idx, op->out, idx + 1);
    if (op->in[0] < 0 || op->in[0] > idx)
        return ERR(PTPU_ERR_FORMAT, "op %d: input tensor %d not defined before it", idx,
                   op->in[0]);
    if (op->type == PTPU_MOP_ADD) {
        if (op->in[1] < 0 || op->in[1] > idx)
            return ERR(PTPU_ERR_FORMAT, "op %d: second input tensor %d not defined before it",
                       idx, op->in[1]);
    } else if (op->in[1] != -1) {
        return ERR(PTPU_ERR_FORMAT, "op %d: second input %d on a one-input op", idx, op->in[1]);
    }
    if (op->act < 0 || op->act > PTPU_ACT_RELU6)
        return ERR(PTPU_ERR_FORMAT, "op %d: unknown activation %d", idx, op->act);
    if (op->padding < 0 || op->padding > PTPU_PAD_EXPLICIT)
        return ERR(PTPU_ERR_FORMAT, "op %d: unknown padding mode %d", idx, op->padding);
    if (op->kh < 1 || op->kw < 1 || op->kh > 255 || op->kw > 255 || op->sh < 1 ||
        op->sw < 1 || op->sh > 127 || op->sw > 127 || op->dh < 1 || op->dw < 1 ||
        op->dh > 127 || op->dw > 127)
        return ERR(PTPU_ERR_FORMAT,
                   "op %d: kernel %dx%d, stride %dx%d or dilation %dx%d out of range", idx,
                   op->kh, op->kw, op->sh, op->sw, op->dh, op->dw);
    if (op->pt < 0 || op->pb < 0 || op->pl < 0 || op->pr < 0 || op->pt > 255 ||
        op->pb > 255 || op->pl > 255 || op->pr > 255)
        return ERR(PTPU_ERR_FORMAT, "op %d: padding out of range", idx);
    const struct ptpu_tensor *in = &m->t[op->in[0]], *out = &m->t[op->out];
    int spatial = op->type == PTPU_MOP_CONV2D || op->type == PTPU_MOP_DEPTHWISE ||
                  op->type == PTPU_MOP_MAXPOOL || op->type == PTPU_MOP_AVGPOOL;
    if (!spatial && (op->kh != 1 || op->kw != 1 || op->sh != 1 || op->sw != 1 ||
                     op->dh != 1 || op->dw != 1 || op->padding != 0 || op->pt || op->pb ||
                     op->pl || op->pr))
        return ERR(PTPU_ERR_FORMAT, "op %d: kernel fields must be 1 and padding 0", idx);
    if ((op->type == PTPU_MOP_MAXPOOL || op->type == PTPU_MOP_AVGPOOL) &&
        (op->dh != 1 || op->dw != 1 || op->act != 0))
        return ERR(PTPU_ERR_FORMAT, "op %d: pooling takes no dilation or activation", idx);
    if (spatial) {
        int p0 = op->pt, p1 = op->pb, q0 = op->pl, q1 = op->pr;
        int oh = ptpu_out_dim(in->h, op->kh, op->sh, op->dh, op->padding, &p0, &p1);
        int ow = ptpu_out_dim(in->w, op->kw, op->sw, op->dw, op->padding, &q0, &q1);
        if (oh < 1 || ow < 1)
            return ERR(PTPU_ERR_SHAPE, "op %d: kernel larger than the padded input", idx);
        if (p0 != op->pt || p1 != op->pb || q0 != op->pl || q1 != op->pr)
            return ERR(PTPU_ERR_FORMAT,
                       "op %d: padding %d,%d,%d,%d does not match the padding mode (%d,%d,%d,%d)",
                       idx, op->pt, op->pb, op->pl, op->pr, p0, p1, q0, q1);
        if (oh != out->h || ow != out->w)
            return ERR(PTPU_ERR_SHAPE, "op %d: output %dx%d, expected %dx%d", idx, out->h,
                       out->w, oh, ow);
        if (op->type != PTPU_MOP_CONV2D && out->c != in->c)
            return ERR(PTPU_ERR_SHAPE, "op %d: output channels %d != input channels %d", idx,
                       out->c, in->c);
        /* The padding seen by a pool window must leave a valid element. */
        if ((op->type == PTPU_MOP_MAXPOOL || op->type == PTPU_MOP_AVGPOOL) &&
            (op->pt >= op->kh || op->pb >= op->kh || op->pl >= op->kw || op->pr >= op->kw))
            return ERR(PTPU_ERR_FORMAT, "op %d: pooling padding must be smaller than the window",
                       idx);
    } else if (op->type == PTPU_MOP_FC) {
        if (out->h != 1 || out->w != 1)
            return ERR(PTPU_ERR_SHAPE, "op %d: fully connected output must be 1x1xC", idx);
    } else {
        const struct ptpu_tensor *b = &m->t[op->in[1]];
        if (b->h != in->h || b->w != in->w || b->c != in->c || out->h != in->h ||
            out->w != in->w || out->c != in->c)
            return ERR(PTPU_ERR_SHAPE, "op %d: add of %dx%dx%d and %dx%dx%d into %dx%dx%d", idx,
                       in->h, in->w, in->c, b->h, b->w, b->c, out->h, out->w, out->c);
    }
    if (op->type == PTPU_MOP_MAXPOOL &&
        (fbits(out->scale) != fbits(in->scale) || out->zp != in->zp))
        return ERR(PTPU_ERR_FORMAT, "op %d: max pool output quantization differs from input",
                   idx);
    size_t need = ptpu_mop_blob_bytes(m, op);
    if (op->blob_len != need)
        return ERR(PTPU_ERR_FORMAT, "op %d: %u weight bytes, expected %zu", idx, op->blob_len,
                   need);
    if (need && ((op->blob_off & 3) || op->blob_off > m->blob_len ||
                 m->blob_len - op->blob_off < need))
        return ERR(PTPU_ERR_FORMAT, "op %d: weights at %u+%u outside the weight blob (%zu)",
                   idx, op->blob_off, op->blob_len, m->blob_len);
    if (!need && op->blob_off)
        return ERR(PTPU_ERR_FORMAT, "op %d: weight offset %u on an op without weights", idx,
                   op->blob_off);
    resolve(m, op);
    op->cout = out->c;
    op->cin = op->type == PTPU_MOP_FC          ? in->h * in->w * in->c
              : op->type == PTPU_MOP_DEPTHWISE ? 1
                                               : in->c;
    size_t nmult = op->type == PTPU_MOP_AVGPOOL ? (size_t)op->kh * op->kw + 1
                   : need                        ? (size_t)out->c
                                                 : 1;
    free(op->m0);
    free(op->shift);
    op->m0 = calloc(nmult, sizeof(*op->m0));
    op->shift = calloc(nmult, sizeof(*op->shift));
    if (!op->m0 || !op->shift)
        return ERR(PTPU_ERR_NO_MEM, "out of memory");
    ptpu_act_range(op->act, out->scale, out->zp, &op->clamp_lo, &op->clamp_hi);
    int rc = 0;
    if (need) {
        size_t nw = need - 8 * (size_t)out->c;
        for (size_t i = 0; i < nw; i++) {
            int padbyte = i >= (size_t)op->cout * op->kh * op->kw * op->cin &&
                          op->type != PTPU_MOP_DEPTHWISE;
            if (op->type == PTPU_MOP_DEPTHWISE)
                padbyte = i >= (size_t)op->kh * op->kw * in->c;
            if (padbyte ? op->w[i] != 0 : op->w[i] == -128)
                return ERR(PTPU_ERR_FORMAT, "op %d: weight %zu is %d (allowed: [-127, 127], padding 0)",
                           idx, i, op->w[i]);
        }
        for (int c = 0; c < out->c && !rc; c++) {
            float ws = op->ws[c];
            if (!isfinite(ws) || !(ws > 0.0f))
                return ERR(PTPU_ERR_FORMAT, "op %d: weight scale %d is %g", idx, c, (double)ws);
            rc = set_mult(op, c, (double)in->scale * (double)ws / (double)out->scale, idx, err,
                          errlen);
        }
    } else if (op->type == PTPU_MOP_AVGPOOL) {
        for (int n = 1; n <= op->kh * op->kw && !rc; n++)
            rc = set_mult(op, n, (double)in->scale / ((double)out->scale * n), idx, err, errlen);
    } else if (op->type == PTPU_MOP_MAXPOOL) {
        rc = set_mult(op, 0, 1.0, idx, err, errlen);
    } else if (op->type == PTPU_MOP_ADD) {
        ptpu_add_params(in->scale, m->t[op->in[1]].scale, out->scale, &op->ka, &op->kb,
                        &op->m0[0], &op->shift[0]);
        if (op->shift[0] > 31)
            return ERR(PTPU_ERR_FORMAT, "op %d: add output scale too small", idx);
    }
    return rc;
}

void ptpu_model_destroy(struct ptpu_model *m)
{
    if (!m)
        return;
    if (m->cache_free)
        m->cache_free(m);
    for (int i = 0; i < m->nops; i++) {
        free(m->op[i].m0);
        free(m->op[i].shift);
    }
    free(m->t);
    free(m->op);
    free(m->blob);
    free(m);
}

int ptpu_model_parse(const uint8_t *buf, size_t len, struct ptpu_model **out, char *err,
                     size_t errlen)
{
    *out = NULL;
    if (len < PTPU_MODEL_HDR_BYTES + 4)
        return ERR(PTPU_ERR_FORMAT, "file too short (%zu bytes) for a header", len);
    if (rd32(buf) != PTPU_MODEL_MAGIC)
        return ERR(PTPU_ERR_FORMAT, "bad magic 0x%08x (not a picotpu model)", rd32(buf));
    if (rd32(buf + 4) != PTPU_MODEL_VERSION)
        return ERR(PTPU_ERR_FORMAT, "unsupported version %u (this library reads %u)",
                   rd32(buf + 4), PTPU_MODEL_VERSION);
    uint32_t size = rd32(buf + 8), nt = rd32(buf + 12), nops = rd32(buf + 16);
    uint32_t outid = rd32(buf + 20), wbytes = rd32(buf + 24), rsv = rd32(buf + 28);
    if (size != len)
        return ERR(PTPU_ERR_FORMAT, "file is %zu bytes, header says %u (truncated?)", len, size);
    if (nops < 1 || nops > PTPU_MODEL_MAX_OPS || nt != nops + 1)
        return ERR(PTPU_ERR_FORMAT, "%u tensors and %u ops (need ops >= 1, tensors = ops + 1)",
                   nt, nops);
    if (rsv != 0)
        return ERR(PTPU_ERR_FORMAT, "reserved header word is 0x%08x, must be 0", rsv);
    uint64_t expect = (uint64_t)PTPU_MODEL_HDR_BYTES + (uint64_t)nt * PTPU_MODEL_TENSOR_BYTES +
                      (uint64_t)nops * PTPU_MODEL_OP_BYTES + wbytes + 4;
    if (expect != len)
        return ERR(PTPU_ERR_FORMAT, "file is %zu bytes, its tables need %llu", len,
                   (unsigned long long)expect);
    uint32_t crc = (uint32_t)crc32(0L, buf, (uInt)(len - 4));
    if (crc != rd32(buf + len - 4))
        return ERR(PTPU_ERR_FORMAT, "CRC-32 mismatch (file 0x%08x, computed 0x%08x): corrupted",
                   rd32(buf + len - 4), crc);
    if (outid < 1 || outid >= nt)
        return ERR(PTPU_ERR_FORMAT, "output tensor %u out of range", outid);
    struct ptpu_model *m = calloc(1, sizeof(*m));
    if (!m)
        return ERR(PTPU_ERR_NO_MEM, "out of memory");
    m->t = calloc(nt, sizeof(*m->t));
    m->op = calloc(nops, sizeof(*m->op));
    m->blob = malloc(wbytes ? wbytes : 1);
    if (!m->t || !m->op || !m->blob) {
        ptpu_model_destroy(m);
        return ERR(PTPU_ERR_NO_MEM, "out of memory");
    }
    m->ntensors = (int)nt;
    m->output = (int)outid;
    m->blob_len = wbytes;
    const uint8_t *p = buf + PTPU_MODEL_HDR_BYTES;
    int rc = 0;
    for (uint32_t i = 0; i < nt && !rc; i++, p += PTPU_MODEL_TENSOR_BYTES) {
        struct ptpu_tensor *t = &m->t[i];
        uint32_t h = rd32(p), w = rd32(p + 4), c = rd32(p + 8);
        t->h = h > PTPU_MODEL_MAX_DIM ? 0 : (int)h;
        t->w = w > PTPU_MODEL_MAX_DIM ? 0 : (int)w;
        t->c = c > PTPU_MODEL_MAX_DIM ? 0 : (int)c;
        t->scale = bitsf(rd32(p + 12));
        t->zp = (int32_t)rd32(p + 16);
        rc = check_tensor(t, (int)i, err, errlen);
    }
    const uint8_t *ops = p;
    memcpy(m->blob, ops + (size_t)nops * PTPU_MODEL_OP_BYTES, wbytes);
    for (uint32_t i = 0; i < nops && !rc; i++, p += PTPU_MODEL_OP_BYTES) {
        struct ptpu_mop *op = &m->op[i];
        int32_t f[20];
        for (int k = 0; k < 20; k++)
            f[k] = (int32_t)rd32(p + 4 * k);
        op->type = f[0];
        op->in[0] = f[1];
        op->in[1] = f[2];
        op->out = f[3];
        op->kh = f[4];
        op->kw = f[5];
        op->sh = f[6];
        op->sw = f[7];
        op->dh = f[8];
        op->dw = f[9];
        op->padding = f[10];
        op->pt = f[11];
        op->pb = f[12];
        op->pl = f[13];
        op->pr = f[14];
        op->act = f[15];
        op->blob_off = (uint32_t)f[16];
        op->blob_len = (uint32_t)f[17];
        m->nops = (int)i + 1;
        if (f[18] || f[19])
            rc = ERR(PTPU_ERR_FORMAT, "op %u: reserved words must be 0", i);
        else
            rc = check_op(m, (int)i, err, errlen);
    }
    if (rc) {
        ptpu_model_destroy(m);
        return rc;
    }
    *out = m;
    return 0;
}

int ptpu_model_serialize(const struct ptpu_model *m, uint8_t **bufp, size_t *lenp)
{
    size_t len = PTPU_MODEL_HDR_BYTES + (size_t)m->ntensors * PTPU_MODEL_TENSOR_BYTES +
                 (size_t)m->nops * PTPU_MODEL_OP_BYTES + m->blob_len + 4;
    uint8_t *b = calloc(1, len), *p = b;
    if (!b)
        return PTPU_ERR_NO_MEM;
    wr32(p, PTPU_MODEL_MAGIC);
    wr32(p + 4, PTPU_MODEL_VERSION);
    wr32(p + 8, (uint32_t)len);
    wr32(p + 12, (uint32_t)m->ntensors);
    wr32(p + 16, (uint32_t)m->nops);
    wr32(p + 20, (uint32_t)m->output);
    wr32(p + 24, (uint32_t)m->blob_len);
    p += PTPU_MODEL_HDR_BYTES;
    for (int i = 0; i < m->ntensors; i++, p += PTPU_MODEL_TENSOR_BYTES) {
        const struct ptpu_tensor *t = &m->t[i];
        wr32(p, (uint32_t)t->h);
        wr32(p + 4, (uint32_t)t->w);
        wr32(p + 8, (uint32_t)t->c);
        wr32(p + 12, fbits(t->scale));
        wr32(p + 16, (uint32_t)t->zp);
    }
    for (int i = 0; i < m->nops; i++, p += PTPU_MODEL_OP_BYTES) {
        const struct ptpu_mop *op = &m->op[i];
        int32_t f[20] = {op->type, op->in[0], op->in[1], op->out, op->kh, op->kw, op->sh,
                         op->sw, op->dh, op->dw, op->padding, op->pt, op->pb, op->pl, op->pr,
                         op->act, (int32_t)op->blob_off, (int32_t)op->blob_len, 0, 0};
        for (int k = 0; k < 20; k++)
            wr32(p + 4 * k, (uint32_t)f[k]);
    }
    if (m->blob_len)
        memcpy(p, m->blob, m->blob_len);
    p += m->blob_len;
    wr32(p, (uint32_t)crc32(0L, b, (uInt)(len - 4)));
    *bufp = b;
    *lenp = len;
    return 0;
}

/* ---- builder ---- */

struct ptpu_model_builder {
    struct ptpu_model m;
    size_t blob_cap;
    int has_input, failed;
    char err[256];
};

int ptpu_mb_create(ptpu_model_builder **out)
{
    if (!out)
        return PTPU_ERR_INVALID_ARG;
    *out = calloc(1, sizeof(**out));
    if (!*out)
        return PTPU_ERR_NO_MEM;
    (*out)->m.output = -1;
    return 0;
}

void ptpu_mb_free(ptpu_model_builder *mb)
{
    if (!mb)
        return;
    for (int i = 0; i < mb->m.nops; i++) {
        free(mb->m.op[i].m0);
        free(mb->m.op[i].shift);
    }
    free(mb->m.t);
    free(mb->m.op);
    free(mb->m.blob);
    free(mb);
}

const char *ptpu_mb_error(const ptpu_model_builder *mb)
{
    return mb ? mb->err : "";
}

static int add_tensor(ptpu_model_builder *mb, int h, int w, int c, float scale, int zp)
{
    struct ptpu_tensor *t = realloc(mb->m.t, sizeof(*t) * (size_t)(mb->m.ntensors + 1));
    if (!t)
        return PTPU_ERR_NO_MEM;
    mb->m.t = t;
    t[mb->m.ntensors] = (struct ptpu_tensor){h, w, c, scale, zp};
    int rc = check_tensor(&t[mb->m.ntensors], mb->m.ntensors, mb->err, sizeof(mb->err));
    if (rc)
        return rc == PTPU_ERR_FORMAT ? PTPU_ERR_INVALID_ARG : rc;
    return mb->m.ntensors++;
}

int ptpu_mb_input(ptpu_model_builder *mb, int h, int w, int c, float scale, int zero_point)
{
    if (!mb || mb->has_input)
        return PTPU_ERR_INVALID_ARG;
    int rc = add_tensor(mb, h, w, c, scale, zero_point);
    if (rc >= 0)
        mb->has_input = 1;
    return rc;
}

static int valid_in(ptpu_model_builder *mb, int id)
{
    return mb && mb->has_input && id >= 0 && id < mb->m.ntensors;
}

/* Append op (its out tensor is added here) with nw weight bytes. */
static int add_op(ptpu_model_builder *mb, struct ptpu_mop *op, int oh, int ow, int oc,
                  float scale, int zp, const int8_t *w, size_t nw, const int32_t *bias,
                  const float *ws)
{
    struct ptpu_model *m = &mb->m;
    if (m->nops >= PTPU_MODEL_MAX_OPS)
        return PTPU_ERR_INVALID_ARG;
    struct ptpu_mop *ops = realloc(m->op, sizeof(*ops) * (size_t)(m->nops + 1));
    if (!ops)
        return PTPU_ERR_NO_MEM;
    m->op = ops;
    int tid = add_tensor(mb, oh, ow, oc, scale, zp);
    if (tid < 0)
        return tid;
    op->out = tid;
    op->blob_off = 0;
    op->blob_len = 0;
    if (w) {
        size_t pw = (nw + 3) & ~(size_t)3, need = pw + 8 * (size_t)oc;
        if (m->blob_len + need > 0xffffffffu) {
            m->ntensors--;
            return PTPU_ERR_INVALID_ARG;
        }
        if (m->blob_len + need > mb->blob_cap) {
            size_t cap = mb->blob_cap ? mb->blob_cap : 4096;
            while (cap < m->blob_len + need)
                cap *= 2;
            uint8_t *nb = realloc(m->blob, cap);
            if (!nb) {
                m->ntensors--;
                return PTPU_ERR_NO_MEM;
            }
            m->blob = nb;
            mb->blob_cap = cap;
            for (int i = 0; i < m->nops; i++)
                resolve(m, &m->op[i]);
        }
        uint8_t *d = m->blob + m->blob_len;
        memset(d, 0, need);
        memcpy(d, w, nw);
        memcpy(d + pw, bias, 4 * (size_t)oc);
        memcpy(d + pw + 4 * (size_t)oc, ws, 4 * (size_t)oc);
        op->blob_off = (uint32_t)m->blob_len;
        op->blob_len = (uint32_t)need;
        m->blob_len += need;
    }
    m->op[m->nops] = *op;
    m->op[m->nops].m0 = NULL;
    m->op[m->nops].shift = NULL;
    int rc = check_op(m, m->nops, mb->err, sizeof(mb->err));
    if (rc) {
        free(m->op[m->nops].m0);
        free(m->op[m->nops].shift);
        m->ntensors--;
        m->blob_len -= op->blob_len;
        return rc == PTPU_ERR_FORMAT ? PTPU_ERR_INVALID_ARG : rc;
    }
    m->nops++;
    return tid;
}

static int conv_like(ptpu_model_builder *mb, int type, int in, int cout,
                     const struct ptpu_conv_params *p, const int8_t *weights,
                     const int32_t *bias, const float *w_scale, float out_scale, int ozp)
{
    if (!valid_in(mb, in) || !p || !weights || !bias || !w_scale)
        return PTPU_ERR_INVALID_ARG;
    const struct ptpu_tensor *t = &mb->m.t[in];
    if (type == PTPU_MOP_DEPTHWISE)
        cout = t->c;
    if (cout < 1 || cout > PTPU_MODEL_MAX_DIM || p->kh < 1 || p->kw < 1 || p->kh > 255 ||
        p->kw > 255 || p->stride_h < 1 || p->stride_w < 1 || p->dil_h < 1 || p->dil_w < 1 ||
        p->stride_h > 127 || p->stride_w > 127 || p->dil_h > 127 || p->dil_w > 127 ||
        (unsigned)p->padding > PTPU_PAD_EXPLICIT)
        return PTPU_ERR_INVALID_ARG;
    struct ptpu_mop op = {.type = type, .in = {in, -1}, .kh = p->kh, .kw = p->kw,
                          .sh = p->stride_h, .sw = p->stride_w, .dh = p->dil_h, .dw = p->dil_w,
                          .padding = (int)p->padding, .act = (int)p->act};
    if (p->padding == PTPU_PAD_EXPLICIT) {
        op.pt = p->pad_t;
        op.pb = p->pad_b;
        op.pl = p->pad_l;
        op.pr = p->pad_r;
    }
    int oh = ptpu_out_dim(t->h, op.kh, op.sh, op.dh, op.padding, &op.pt, &op.pb);
    int ow = ptpu_out_dim(t->w, op.kw, op.sw, op.dw, op.padding, &op.pl, &op.pr);
    if (oh < 1 || ow < 1)
        return PTPU_ERR_SHAPE;
    size_t nw = type == PTPU_MOP_DEPTHWISE ? (size_t)p->kh * p->kw * t->c
                                           : (size_t)cout * p->kh * p->kw * t->c;
    return add_op(mb, &op, oh, ow, cout, out_scale, ozp, weights, nw, bias, w_scale);
}

int ptpu_mb_conv2d(ptpu_model_builder *mb, int in, int cout, const struct ptpu_conv_params *p,
                   const int8_t *weights, const int32_t *bias, const float *w_scale,
                   float out_scale, int out_zero_point)
{
    return conv_like(mb, PTPU_MOP_CONV2D, in, cout, p, weights, bias, w_scale, out_scale,
                     out_zero_point);
}

int ptpu_mb_depthwise2d(ptpu_model_builder *mb, int in, const struct ptpu_conv_params *p,
                        const int8_t *weights, const int32_t *bias, const float *w_scale,
                        float out_scale, int out_zero_point)
{
    return conv_like(mb, PTPU_MOP_DEPTHWISE, in, 0, p, weights, bias, w_scale, out_scale,
                     out_zero_point);
}

int ptpu_mb_fc(ptpu_model_builder *mb, int in, int cout, const int8_t *weights,
               const int32_t *bias, const float *w_scale, enum ptpu_act act,
               float out_scale, int out_zero_point)
{
    if (!valid_in(mb, in) || !weights || !bias || !w_scale || cout < 1 ||
        cout > PTPU_MODEL_MAX_DIM)
        return PTPU_ERR_INVALID_ARG;
    const struct ptpu_tensor *t = &mb->m.t[in];
    struct ptpu_mop op = {.type = PTPU_MOP_FC, .in = {in, -1}, .kh = 1, .kw = 1, .sh = 1,
                          .sw = 1, .dh = 1, .dw = 1, .act = (int)act};
    size_t nw = (size_t)cout * t->h * t->w * t->c;
    return add_op(mb, &op, 1, 1, cout, out_scale, out_zero_point, weights, nw, bias, w_scale);
}

static int pool(ptpu_model_builder *mb, int type, int in, int kh, int kw, int sh, int sw,
                enum ptpu_padding padding, float out_scale, int ozp)
{
    if (!valid_in(mb, in) || kh < 1 || kw < 1 || kh > 255 || kw > 255 || sh < 1 || sw < 1 ||
        sh > 127 || sw > 127 || padding > PTPU_PAD_SAME)
        return PTPU_ERR_INVALID_ARG;
    const struct ptpu_tensor *t = &mb->m.t[in];
    struct ptpu_mop op = {.type = type, .in = {in, -1}, .kh = kh, .kw = kw, .sh = sh,
                          .sw = sw, .dh = 1, .dw = 1, .padding = (int)padding};
    int oh = ptpu_out_dim(t->h, kh, sh, 1, op.padding, &op.pt, &op.pb);
    int ow = ptpu_out_dim(t->w, kw, sw, 1, op.padding, &op.pl, &op.pr);
    if (oh < 1 || ow < 1)
        return PTPU_ERR_SHAPE;
    return add_op(mb, &op, oh, ow, t->c, out_scale, ozp, NULL, 0, NULL, NULL);
}

int ptpu_mb_maxpool(ptpu_model_builder *mb, int in, int kh, int kw, int stride_h, int stride_w,
                    enum ptpu_padding padding)
{
    if (!valid_in(mb, in))
        return PTPU_ERR_INVALID_ARG;
    return pool(mb, PTPU_MOP_MAXPOOL, in, kh, kw, stride_h, stride_w, padding,
                mb->m.t[in].scale, mb->m.t[in].zp);
}

int ptpu_mb_avgpool(ptpu_model_builder *mb, int in, int kh, int kw, int stride_h, int stride_w,
                    enum ptpu_padding padding, float out_scale, int out_zero_point)
{
    return pool(mb, PTPU_MOP_AVGPOOL, in, kh, kw, stride_h, stride_w, padding, out_scale,
                out_zero_point);
}

int ptpu_mb_add(ptpu_model_builder *mb, int a, int b, enum ptpu_act act, float out_scale,
                int out_zero_point)
{
    if (!valid_in(mb, a) || !valid_in(mb, b))
        return PTPU_ERR_INVALID_ARG;
    const struct ptpu_tensor *t = &mb->m.t[a];
    struct ptpu_mop op = {.type = PTPU_MOP_ADD, .in = {a, b}, .kh = 1, .kw = 1, .sh = 1,
                          .sw = 1, .dh = 1, .dw = 1, .act = (int)act};
    return add_op(mb, &op, t->h, t->w, t->c, out_scale, out_zero_point, NULL, 0, NULL, NULL);
}

int ptpu_mb_output(ptpu_model_builder *mb, int tensor)
{
    if (!valid_in(mb, tensor) || tensor == 0)
        return PTPU_ERR_INVALID_ARG;
    mb->m.output = tensor;
    return 0;
}

/* The builder's model as a standalone copy (the library's ptpu_model_from_builder). */
int ptpu_mb_image(ptpu_model_builder *mb, uint8_t **buf, size_t *len)
{
    if (!mb || !mb->has_input || mb->m.nops < 1)
        return PTPU_ERR_INVALID_ARG;
    struct ptpu_model m = mb->m;
    if (m.output < 0)
        m.output = m.ntensors - 1;
    return ptpu_model_serialize(&m, buf, len);
}

int ptpu_mb_save(ptpu_model_builder *mb, const char *path)
{
    uint8_t *buf;
    size_t len;
    if (!path)
        return PTPU_ERR_INVALID_ARG;
    int rc = ptpu_mb_image(mb, &buf, &len);
    if (rc)
        return rc;
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(mb->err, sizeof(mb->err), "%s: %s", path, strerror(errno));
        free(buf);
        return PTPU_ERR_IO;
    }
    size_t wr = fwrite(buf, 1, len, f);
    int cl = fclose(f);
    free(buf);
    if (wr != len || cl != 0) {
        snprintf(mb->err, sizeof(mb->err), "%s: write failed", path);
        return PTPU_ERR_IO;
    }
    return 0;
}

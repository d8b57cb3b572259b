/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_model.h - libpicotpu internals: the in-memory model graph shared by the
 * builder, the file loader (docs/model-format.md), the naive kernels and the
 * compiler.
 */
#ifndef PTPU_MODEL_H
#define PTPU_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "picotpu_model.h"

enum ptpu_op_type {
    PTPU_MOP_CONV2D = 1,
    PTPU_MOP_DEPTHWISE = 2,
    PTPU_MOP_FC = 3,
    PTPU_MOP_MAXPOOL = 4,
    PTPU_MOP_AVGPOOL = 5,
    PTPU_MOP_ADD = 6,
};
#define PTPU_MOP_MAX 6

#define PTPU_MODEL_MAGIC 0x4d505450u   /* "PTPM" */
#define PTPU_MODEL_VERSION 1u
#define PTPU_MODEL_HDR_BYTES 32
#define PTPU_MODEL_TENSOR_BYTES 20
#define PTPU_MODEL_OP_BYTES 80
#define PTPU_MODEL_MAX_DIM 65535
#define PTPU_MODEL_MAX_ELEMS (1u << 28)
#define PTPU_MODEL_MAX_OPS 65536

struct ptpu_tensor {
    int h, w, c;
    float scale;
    int zp;
};

struct ptpu_mop {
    int type;
    int in[2];          /* in[1] = -1 except ADD */
    int out;
    int kh, kw, sh, sw, dh, dw;   /* pools: dilation 1 */
    int padding;        /* enum ptpu_padding as given */
    int pt, pb, pl, pr; /* resolved padding */
    int act;
    uint32_t blob_off, blob_len;
    /* Derived when the model is built or loaded (not stored in the file). */
    int cout;           /* output channels */
    int cin;            /* input channels per output (conv, fc: all; depthwise: 1) */
    const int8_t *w;    /* conv [cout][kh][kw][cin], dw [kh][kw][c], fc [cout][cin] */
    const int32_t *bias;
    const float *ws;
    int32_t *m0;        /* per output channel (conv, dw, fc), [kh*kw+1] by count (avgpool), [1] */
    int *shift;
    int clamp_lo, clamp_hi;
    int ka, kb;         /* ADD: integer weights of a and b */
};

struct ptpu_model {
    int ntensors, nops;
    struct ptpu_tensor *t;
    struct ptpu_mop *op;
    uint8_t *blob;
    size_t blob_len;
    int output;         /* tensor id; the input is tensor 0 */
    /* Compiled programs per device (host/src/ptpu_runtime.c), freed with the model. */
    struct ptpu_mcache *cache;
    void (*cache_free)(struct ptpu_model *m);
};

/* Parse a model file image.  On error returns a negative PTPU_ERR_* code and,
 * when err is not NULL, writes a detail message naming what is wrong. */
int ptpu_model_parse(const uint8_t *buf, size_t len, struct ptpu_model **out, char *err,
                     size_t errlen);
/* Serialize to a newly allocated image (free() it). */
int ptpu_model_serialize(const struct ptpu_model *m, uint8_t **buf, size_t *len);
void ptpu_model_destroy(struct ptpu_model *m);
/* Blob bytes an op carries: conv/dw/fc weights (padded to 4), bias, w_scale. */
size_t ptpu_mop_blob_bytes(const struct ptpu_model *m, const struct ptpu_mop *op);
/* Output size and resolved padding of one spatial dimension; returns < 1 when impossible. */
int ptpu_out_dim(int in, int k, int s, int d, int padding, int *p0, int *p1);
/* Clamp range of an activation for an output quantization. */
void ptpu_act_range(int act, float scale, int zp, int *lo, int *hi);
/* The ADD weights and multiplier (docs/model-format.md). */
void ptpu_add_params(float sa, float sb, float so, int *ka, int *kb, int32_t *m0, int *shift);

/* Builder internals used by the library and the tests. */
int ptpu_mb_image(ptpu_model_builder *mb, uint8_t **buf, size_t *len);
const char *ptpu_mb_error(const ptpu_model_builder *mb);

#endif

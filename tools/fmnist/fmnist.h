/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fmnist.h - the Fashion-MNIST CNN of picotpu: the data set reader, the float
 * network (training and inference) and its post-training int8 quantization.
 * Shared by the training tool (train.c) and the evaluation tool (eval.c).
 *
 * Network (NHWC, every convolution 3x3, stride 1, SAME padding, fused ReLU):
 *   28x28x1 -> conv(16) -> maxpool 2 -> 14x14x16 -> conv(32) -> maxpool 2
 *   -> 7x7x32 -> conv(32) -> flatten (1568, NHWC order) -> fc(10) -> logits
 */
#ifndef FMNIST_H
#define FMNIST_H

#include <stddef.h>
#include <stdint.h>

#define FM_SIDE 28
#define FM_PIXELS (FM_SIDE * FM_SIDE)
#define FM_CLASSES 10
#define FM_DEFAULT_DIR "/usr/share/datasets/fashion-mnist"

/* ---- data set ---------------------------------------------------------- */
struct fm_set {
    int n;
    uint8_t *pix;    /* n * 784, row-major */
    uint8_t *label;  /* n */
};
/* set is "train" or "t10k"; dir NULL means $FMNIST_DIR or FM_DEFAULT_DIR.
 * Returns 0, or -1 with a message on stderr. */
int fm_load(const char *dir, const char *set, struct fm_set *out);
void fm_free(struct fm_set *s);
/* The model input of an image: q = pixel - 128 (scale 1/255, zero point -128). */
void fm_quantize_image(const uint8_t *pix, int8_t *q);

/* Deterministic pseudo-random numbers (splitmix64). */
struct fm_rng { uint64_t s; };
uint64_t fm_rand(struct fm_rng *r);
double fm_uniform(struct fm_rng *r);          /* [0, 1) */
double fm_normal(struct fm_rng *r);           /* N(0, 1), Box-Muller */

/* ---- float network ----------------------------------------------------- */
/* The training arithmetic: float; the gradient check builds it with
 * -DFM_REAL=double so that finite differences resolve small gradients. */
#ifndef FM_REAL
#define FM_REAL float
#endif
typedef FM_REAL fm_real;
#define FM_NCONV 3
struct fm_conv {
    int h, w, cin, cout;     /* input size = output size (SAME, stride 1) */
    int pool;                /* 1: a 2x2/2 max pool follows */
    size_t w_off, b_off;     /* weights [ky][kx][cin][cout] (HWIO), bias [cout] */
};
struct fm_net {
    struct fm_conv conv[FM_NCONV];
    int fc_in, fc_out;
    size_t fcw_off, fcb_off; /* weights [fc_in][fc_out], bias [fc_out] */
    size_t nparams;
    fm_real *p;                /* every parameter, one array */
};
/* The fixed topology with zeroed parameters. */
int fm_net_init(struct fm_net *n);
void fm_net_free(struct fm_net *n);
/* He-normal weights, zero biases. */
void fm_net_randomize(struct fm_net *n, struct fm_rng *r);
/* Parameter file: "FMNF32\0\1", uint32 count, count little-endian floats. */
int fm_net_save(const struct fm_net *n, const char *path);
int fm_net_load(struct fm_net *n, const char *path);

/* Activations of one image (also the backward pass's saved state). */
struct fm_acts {
    fm_real *in;                     /* 784, pixel / 255 */
    fm_real *conv[FM_NCONV];         /* conv outputs after ReLU */
    fm_real *pool[FM_NCONV];         /* pool outputs (NULL where no pool) */
    int *arg[FM_NCONV];            /* argmax index of each pool output */
    fm_real logits[FM_CLASSES];
    fm_real *col, *dcol;             /* im2col scratch */
    fm_real *g_a, *g_b;              /* gradient scratch (largest activation) */
};
int fm_acts_init(struct fm_acts *a, const struct fm_net *n);
void fm_acts_free(struct fm_acts *a);

/* Forward pass; returns the predicted class. */
int fm_forward(const struct fm_net *n, const uint8_t *pix, struct fm_acts *a);
/* Backward pass of softmax cross-entropy after fm_forward; adds the gradient
 * to grad (nparams floats); returns the loss. wt: n's weights transposed to
 * OHWI, from fm_transpose_weights(). */
fm_real fm_backward(const struct fm_net *n, const fm_real *wt, struct fm_acts *a, int label,
                  fm_real *grad);
/* OHWI copies of every conv weight tensor (nparams floats, same offsets). */
void fm_transpose_weights(const struct fm_net *n, fm_real *wt);
/* Float accuracy over images [0, count) of set. */
double fm_accuracy(const struct fm_net *n, const struct fm_set *s, int count);

/* ---- post-training int8 quantization (quant.c) ------------------------- */
/* Asymmetric int8 activation quantization, real = scale * (q - zp). */
struct fm_aq {
    float scale;
    int zp;
    float lo, hi;    /* observed float range (calibration) */
};
struct fm_quant {
    struct fm_aq in;               /* the image: pixel / 255, scale 1/255, zp -128 */
    struct fm_aq conv[FM_NCONV];   /* conv outputs (the pools keep them) */
    struct fm_aq logits;
};
/* Observed min/max of every activation over images [0, count) of set. */
int fm_calibrate(const struct fm_net *n, const struct fm_set *s, int count, struct fm_quant *q);
/* Quantize weights per output channel and write the model with the builder
 * API (host/include/picotpu_model.h). Returns 0 or a negative PTPU_ERR_*. */
int fm_write_model(const struct fm_net *n, const struct fm_quant *q, const char *path);


#endif

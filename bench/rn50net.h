/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rn50net.h - ResNet-50 v1.5 (int8, NHWC, batch 1) built with the model builder,
 * with deterministic pseudo-random weights and calibrated quantization
 * (docs/workloads.md).  Also builds single-layer models of any of its layers.
 */
#ifndef RN50NET_H
#define RN50NET_H

#include <stddef.h>
#include <stdint.h>

#include "picotpu_model.h"

enum rn_kind { RN_CONV, RN_MAXPOOL, RN_AVGPOOL, RN_FC, RN_ADD };

struct rn_tensor {
    int h, w, c;
    float scale;
    int zp;
    int8_t *q;                  /* calibration-pass values (float-rounded requantization) */
};

struct rn_layer {
    enum rn_kind kind;
    char name[24];              /* e.g. "conv1", "s2b0.c2" (stage 2, block 0, second conv) */
    int in, in2, out;           /* tensor ids (builder ids) */
    int cout, k, s, pad;        /* conv: explicit symmetric padding pad; pools: SAME */
    int act;                    /* enum ptpu_act */
    int8_t *w;                  /* OHWI */
    int32_t *bias;
    float *ws;
};

struct rn_net {
    int ntensors, nlayers;
    struct rn_tensor t[160];
    struct rn_layer l[96];
    uint8_t *image;             /* the model file image (ptpu_model_load_mem) */
    size_t image_len;
    int8_t *input;              /* the calibration input (tensor 0's values) */
};

/* size: input height and width (224 for ResNet-50); width_div: channel divisor
 * (1 for ResNet-50; 4 for a small network of the same structure); max_layers > 0:
 * only the first max_layers layers (no model image; rn_layer_model works).  Returns
 * 0 or a negative PTPU_ERR_* (message on stderr). */
int rn_build(struct rn_net *net, int size, int width_div, int max_layers, uint64_t seed);
void rn_free(struct rn_net *net);
/* A model of layer li alone (input: its input tensor's shape and quantization);
 * conv and FC layers only.  *img is malloc'ed. */
int rn_layer_model(const struct rn_net *net, int li, uint8_t **img, size_t *len);

#endif

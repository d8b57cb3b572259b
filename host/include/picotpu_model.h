/* SPDX-License-Identifier: Apache-2.0 */
/*
 * picotpu_model.h - the model builder of libpicotpu: build a quantized int8
 * graph and save it in the project's model format (docs/model-format.md).
 *
 * Tensors are NHWC int8 activations with a per-tensor scale and zero point;
 * weights int8 in [-127, 127], zero point 0, one scale per output channel;
 * bias int32 with scale in_scale * w_scale[c] and zero point 0.  Return
 * values: tensor ids >= 0, or a negative PTPU_ERR_* code.  The naive kernels
 * (host/src/ptpu_kernels.h) define what every op computes, bit for bit.
 */
#ifndef PICOTPU_MODEL_H
#define PICOTPU_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptpu_model_builder ptpu_model_builder;

enum ptpu_act { PTPU_ACT_NONE = 0, PTPU_ACT_RELU = 1, PTPU_ACT_RELU6 = 2 };
enum ptpu_padding { PTPU_PAD_VALID = 0, PTPU_PAD_SAME = 1, PTPU_PAD_EXPLICIT = 2 };

struct ptpu_conv_params {
    int kh, kw, stride_h, stride_w, dil_h, dil_w;
    enum ptpu_padding padding; int pad_t, pad_b, pad_l, pad_r;  /* EXPLICIT only */
    enum ptpu_act act;
};

int ptpu_mb_create(ptpu_model_builder **out);
void ptpu_mb_free(ptpu_model_builder *mb);
int ptpu_mb_input(ptpu_model_builder *mb, int h, int w, int c, float scale, int zero_point);
/* weights: [cout][kh][kw][cin] int8 (OHWI); bias: [cout] int32; w_scale: [cout] */
int ptpu_mb_conv2d(ptpu_model_builder *mb, int in, int cout, const struct ptpu_conv_params *p,
                   const int8_t *weights, const int32_t *bias, const float *w_scale,
                   float out_scale, int out_zero_point);
/* depthwise: weights [kh][kw][c] (multiplier 1), bias [c], w_scale [c] */
int ptpu_mb_depthwise2d(ptpu_model_builder *mb, int in, const struct ptpu_conv_params *p,
                        const int8_t *weights, const int32_t *bias, const float *w_scale,
                        float out_scale, int out_zero_point);
/* fully connected over the flattened input (h*w*c in NHWC order): weights [cout][cin] */
int ptpu_mb_fc(ptpu_model_builder *mb, int in, int cout, const int8_t *weights,
               const int32_t *bias, const float *w_scale, enum ptpu_act act,
               float out_scale, int out_zero_point);
int ptpu_mb_maxpool(ptpu_model_builder *mb, int in, int kh, int kw, int stride_h, int stride_w,
                    enum ptpu_padding padding);   /* output keeps the input's scale/zp */
int ptpu_mb_avgpool(ptpu_model_builder *mb, int in, int kh, int kw, int stride_h, int stride_w,
                    enum ptpu_padding padding, float out_scale, int out_zero_point);
/* global average pool = avgpool over the whole map */
int ptpu_mb_add(ptpu_model_builder *mb, int a, int b, enum ptpu_act act, float out_scale,
                int out_zero_point);
int ptpu_mb_output(ptpu_model_builder *mb, int tensor);   /* marks the model output (logits) */
int ptpu_mb_save(ptpu_model_builder *mb, const char *path);

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * classify.c - the example of docs/runtime.md: run a model on one input.
 *   classify MODEL.ptpm [INPUT.i8] [URI]
 * INPUT: raw int8 NHWC bytes of the model's input (zeros when absent).
 */
#include <stdio.h>
#include <stdlib.h>

#include "picotpu.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: classify MODEL [INPUT] [URI]\n");
        return 2;
    }
    ptpu_device *dev;
    ptpu_model *m;
    int rc = ptpu_open(argc > 3 ? argv[3] : "ref", &dev);
    if (rc) {
        fprintf(stderr, "open: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(NULL));
        return 1;
    }
    rc = ptpu_model_load(argv[1], &m);
    if (rc) {
        fprintf(stderr, "load: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(NULL));
        ptpu_close(dev);
        return 1;
    }
    struct ptpu_shape in, out;
    ptpu_model_io(m, &in, &out);
    size_t nin = (size_t)in.h * in.w * in.c, nout = (size_t)out.h * out.w * out.c;
    int8_t *x = calloc(nin, 1), *y = malloc(nout);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "rb");
        if (!f || fread(x, 1, nin, f) != nin) {
            fprintf(stderr, "%s: need %zu bytes\n", argv[2], nin);
            return 1;
        }
        fclose(f);
    }
    struct ptpu_counters c;
    rc = ptpu_model_run(dev, m, x, y, &c);   /* compiled and uploaded on the first call */
    if (rc) {
        fprintf(stderr, "run: %s: %s\n", ptpu_error_name(rc), ptpu_last_error(dev));
    } else {
        size_t best = 0;
        for (size_t i = 1; i < nout; i++)
            if (y[i] > y[best])
                best = i;
        printf("class %zu (score %.3f), %llu cycles, MXU %.1f %%\n", best,
               (double)out.scale * (y[best] - out.zero_point),
               (unsigned long long)c.c[PTPU_CNT_CYCLES], 100.0 * c.utilization);
    }
    free(x);
    free(y);
    ptpu_model_free(m);
    ptpu_close(dev);
    return rc != 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * export.c - writes Fashion-MNIST test images as model inputs for the demo
 * and `picotpu run`: raw files, no header (docs/fmnist.md).
 *
 *   export [--count N] [--offset K] [--data DIR] IMAGES LABELS
 *
 * IMAGES: N inputs of 28x28x1 int8 (NHWC), q = pixel - 128 (scale 1/255, zero
 * point -128: the model's input quantization), 784 bytes each, back to back.
 * LABELS: N bytes, the class (0..9) of each image.  Images K .. K+N-1 of t10k.
 */
#include "fmnist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr, "usage: export [--count N] [--offset K] [--data DIR] IMAGES LABELS\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int count = 10000, offset = 0, npos = 0;
    const char *dir = NULL, *pos[2] = {NULL, NULL};
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] == '-') {
            if (i + 1 >= argc)
                usage();
            if (!strcmp(argv[i], "--count")) count = atoi(argv[++i]);
            else if (!strcmp(argv[i], "--offset")) offset = atoi(argv[++i]);
            else if (!strcmp(argv[i], "--data")) dir = argv[++i];
            else usage();
        } else if (npos < 2) {
            pos[npos++] = argv[i];
        } else {
            usage();
        }
    }
    if (npos != 2 || count < 1 || offset < 0)
        usage();
    struct fm_set te;
    if (fm_load(dir, "t10k", &te) != 0)
        return 1;
    if (offset >= te.n) {
        fprintf(stderr, "export: offset %d beyond the %d test images\n", offset, te.n);
        return 1;
    }
    if (count > te.n - offset)
        count = te.n - offset;
    FILE *fi = fopen(pos[0], "wb"), *fl = fopen(pos[1], "wb");
    if (!fi || !fl) {
        fprintf(stderr, "export: cannot write %s\n", fi ? pos[1] : pos[0]);
        return 1;
    }
    int ok = 1;
    for (int i = offset; i < offset + count && ok; i++) {
        int8_t q[FM_PIXELS];
        fm_quantize_image(te.pix + (size_t)i * FM_PIXELS, q);
        ok = fwrite(q, 1, FM_PIXELS, fi) == FM_PIXELS && fputc(te.label[i], fl) != EOF;
    }
    if (fclose(fi) != 0 || fclose(fl) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "export: write error\n");
        return 1;
    }
    printf("export: %d test images (from %d) -> %s, labels -> %s\n", count, offset, pos[0],
           pos[1]);
    fm_free(&te);
    return 0;
}

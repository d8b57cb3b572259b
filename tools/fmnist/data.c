/* SPDX-License-Identifier: Apache-2.0 */
/* data.c - the Fashion-MNIST IDX files (gzipped, read with zlib) and the
 * deterministic random numbers of the training tool. */
#include "fmnist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int read_exact(gzFile f, void *buf, size_t len)
{
    uint8_t *p = buf;
    while (len > 0) {
        unsigned chunk = len > (1u << 30) ? (1u << 30) : (unsigned)len;
        int got = gzread(f, p, chunk);
        if (got <= 0)
            return -1;
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

static uint32_t be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* One IDX file: magic 0x0000080N (unsigned bytes, N dimensions), sizes. */
static uint8_t *read_idx(const char *path, int ndims, uint32_t *dims)
{
    gzFile f = gzopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fmnist: cannot open %s\n", path);
        return NULL;
    }
    uint8_t hdr[16];
    size_t hlen = 4 + 4 * (size_t)ndims;
    uint8_t *data = NULL;
    if (read_exact(f, hdr, hlen) != 0 || be32(hdr) != (0x0800u | (uint32_t)ndims)) {
        fprintf(stderr, "fmnist: %s is not an IDX file of %d dimensions\n", path, ndims);
        goto out;
    }
    size_t total = 1;
    for (int i = 0; i < ndims; i++) {
        dims[i] = be32(hdr + 4 + 4 * i);
        total *= dims[i];
    }
    data = malloc(total ? total : 1);
    if (!data || read_exact(f, data, total) != 0) {
        fprintf(stderr, "fmnist: %s is truncated\n", path);
        free(data);
        data = NULL;
    }
out:
    gzclose(f);
    return data;
}

int fm_load(const char *dir, const char *set, struct fm_set *out)
{
    char path[4096];
    uint32_t idim[3], ldim[1];
    memset(out, 0, sizeof(*out));
    if (!dir)
        dir = getenv("FMNIST_DIR");
    if (!dir || !*dir)
        dir = FM_DEFAULT_DIR;
    snprintf(path, sizeof(path), "%s/%s-images-idx3-ubyte.gz", dir, set);
    out->pix = read_idx(path, 3, idim);
    if (!out->pix)
        return -1;
    snprintf(path, sizeof(path), "%s/%s-labels-idx1-ubyte.gz", dir, set);
    out->label = read_idx(path, 1, ldim);
    if (!out->label) {
        fm_free(out);
        return -1;
    }
    if (idim[1] != FM_SIDE || idim[2] != FM_SIDE || idim[0] != ldim[0]) {
        fprintf(stderr, "fmnist: %s/%s: %ux%ux%u images, %u labels (want Nx28x28, N labels)\n",
                dir, set, idim[0], idim[1], idim[2], ldim[0]);
        fm_free(out);
        return -1;
    }
    for (uint32_t i = 0; i < ldim[0]; i++)
        if (out->label[i] >= FM_CLASSES) {
            fprintf(stderr, "fmnist: %s/%s: label %u of image %u out of range\n", dir, set,
                    out->label[i], i);
            fm_free(out);
            return -1;
        }
    out->n = (int)idim[0];
    return 0;
}

void fm_free(struct fm_set *s)
{
    free(s->pix);
    free(s->label);
    memset(s, 0, sizeof(*s));
}

void fm_quantize_image(const uint8_t *pix, int8_t *q)
{
    for (int i = 0; i < FM_PIXELS; i++)
        q[i] = (int8_t)(pix[i] - 128);
}

uint64_t fm_rand(struct fm_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double fm_uniform(struct fm_rng *r)
{
    return (double)(fm_rand(r) >> 11) * (1.0 / 9007199254740992.0);
}

double fm_normal(struct fm_rng *r)
{
    double u1 = fm_uniform(r), u2 = fm_uniform(r);
    return sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* dma_model.c - bit-exact C model of the DMA read and write engines. */
#include "dma_model.h"

#include <string.h>

const char *dma_sts_name(int code)
{
    switch (code) {
    case DMA_OK: return "OK";
    case DMA_BAD_DESC: return "BAD_DESC";
    case DMA_PROT_READ: return "PROT_READ";
    case DMA_PROT_WRITE: return "PROT_WRITE";
    case DMA_BUS_ERROR: return "BUS_ERROR";
    case DMA_STREAM: return "STREAM";
    default: return "?";
    }
}

uint64_t dma_addr_mask(const dma_env_t *env)
{
    return env->addr_width >= 64 ? ~0ull : (1ull << env->addr_width) - 1;
}

bool dma_desc_bad(const dma_env_t *env, const dma_desc_t *d)
{
    return d->len0 == 0 || d->len0 > d->out0 || d->out0 > env->row_bytes || d->count[0] == 0 ||
           d->count[1] == 0;
}

uint64_t dma_row_addr(const dma_env_t *env, const dma_desc_t *d, int i1, int i2, bool *inb)
{
    int64_t c1 = (int64_t)d->start[0] + (int64_t)i1 * d->step[0];
    int64_t c2 = (int64_t)d->start[1] + (int64_t)i2 * d->step[1];
    if (inb)
        *inb = c1 >= 0 && c1 < d->bound[0] && c2 >= 0 && c2 < d->bound[1];
    /* Modulo 2^AddrWidth, so signed and unsigned strides agree. */
    uint64_t a = d->addr + (uint64_t)c1 * d->stride[0] + (uint64_t)c2 * d->stride[1];
    return a & dma_addr_mask(env);
}

bool dma_prot_ok(const dma_env_t *env, uint64_t addr, unsigned len, bool write)
{
    for (int w = 0; w < env->num_windows; w++) {
        const dma_win_t *win = &env->win[w];
        if (!(write ? win->wr : win->rd))
            continue;
        if (addr >= win->base && addr + len <= win->limit)
            return true;
    }
    return false;
}

bool dma_beat_bad(const dma_env_t *env, uint64_t beat_addr)
{
    if (beat_addr + (uint64_t)env->beat_bytes > env->mem_size)
        return true;
    return env->poison && env->poison[beat_addr / (uint64_t)env->beat_bytes];
}

dma_status_t dma_read_model(const dma_env_t *env, const uint8_t *mem, const dma_desc_t *d,
                            uint8_t *rows, size_t max_rows, size_t *nrows)
{
    const size_t rb = (size_t)env->row_bytes;
    const uint64_t bb = (uint64_t)env->beat_bytes;
    dma_status_t st = {DMA_OK, 0};
    size_t n = 0;

    if (dma_desc_bad(env, d)) {
        st.code = DMA_BAD_DESC;
        st.addr = d->addr;
        goto error;
    }
    for (int i2 = 0; i2 < d->count[1]; i2++) {
        for (int i1 = 0; i1 < d->count[0]; i1++) {
            bool inb;
            uint64_t a = dma_row_addr(env, d, i1, i2, &inb);
            if (inb) {
                if (!dma_prot_ok(env, a, d->len0, false)) {
                    st.code = DMA_PROT_READ;
                    st.addr = a;
                    goto error;
                }
                for (uint64_t b = a / bb * bb; b < a + d->len0; b += bb) {
                    if (dma_beat_bad(env, b)) {
                        st.code = DMA_BUS_ERROR;
                        st.addr = b;
                        goto error;
                    }
                }
            }
            if (n < max_rows) {
                uint8_t *r = rows + n * rb;
                memset(r, 0, rb);
                size_t data = inb ? d->len0 : 0;
                for (size_t i = 0; i < data; i++)
                    r[i] = mem[a + i];
                for (size_t i = data; i < d->out0; i++)
                    r[i] = d->pad;
            }
            n++;
        }
    }
    *nrows = n;
    return st;

error:
    if (n < max_rows)
        memset(rows + n * rb, 0, rb);
    *nrows = n + 1;
    return st;
}

dma_status_t dma_write_model(const dma_env_t *env, uint8_t *mem, const dma_desc_t *d,
                             const dma_srow_t *stream, size_t nstream, size_t rows_limit,
                             size_t *consumed, long *first_bad_row, size_t *rows_written)
{
    const uint64_t bb = (uint64_t)env->beat_bytes;
    dma_status_t st = {DMA_OK, 0};
    size_t s = 0, written = 0;
    *first_bad_row = -1;

    if (dma_desc_bad(env, d)) {
        st.code = DMA_BAD_DESC;
        st.addr = d->addr;
        goto drain;
    }
    size_t total = (size_t)d->count[0] * d->count[1];
    size_t r = 0;
    for (int i2 = 0; i2 < d->count[1]; i2++) {
        for (int i1 = 0; i1 < d->count[0]; i1++, r++) {
            bool inb;
            uint64_t a = dma_row_addr(env, d, i1, i2, &inb);
            if (s >= nstream)
                goto out; /* the caller gave too few rows: not a valid test */
            const dma_srow_t *sr = &stream[s++];
            bool final = r + 1 == total;
            if (sr->last && !final) {
                st.code = DMA_STREAM;
                st.addr = a;
                goto out; /* the row with the early last is not written */
            }
            if (inb) {
                if (!dma_prot_ok(env, a, d->len0, true)) {
                    st.code = DMA_PROT_WRITE;
                    st.addr = a;
                    goto drain;
                }
                if (written < rows_limit) {
                    for (unsigned i = 0; i < d->len0; i++) {
                        uint64_t b = (a + i) / bb * bb;
                        if (dma_beat_bad(env, b)) {
                            if (*first_bad_row < 0)
                                *first_bad_row = (long)written;
                            continue;
                        }
                        mem[a + i] = sr->data[i];
                    }
                    written++;
                }
            }
            if (final) {
                if (!sr->last) {
                    st.code = DMA_STREAM;
                    st.addr = a;
                    goto drain;
                }
                goto out;
            }
        }
    }
    goto out;

drain:
    /* Consume the stream up to and including its last row. */
    if (s == 0 || !stream[s - 1].last) {
        while (s < nstream && !stream[s].last)
            s++;
        if (s < nstream)
            s++;
    }
out:
    *consumed = s;
    if (rows_written)
        *rows_written = written;
    return st;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dma_model.h - bit-exact C model of the picotpu DMA engines (rtl/dma/).
 *
 * The model defines what a descriptor means (docs/dma.md): which rows the
 * read engine streams, what the write engine leaves in memory, and which
 * status each descriptor ends with.  It knows nothing about cycles.
 */
#ifndef PICOTPU_DMA_MODEL_H
#define PICOTPU_DMA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    DMA_OK = 0,
    DMA_BAD_DESC = 1,
    DMA_PROT_READ = 2,
    DMA_PROT_WRITE = 3,
    DMA_BUS_ERROR = 4,
    DMA_STREAM = 5,
};

const char *dma_sts_name(int code);

/* A descriptor exactly as it is driven on the ports. */
typedef struct dma_desc {
    uint64_t addr;          /* AddrWidth bits */
    uint16_t len0, out0;    /* bytes read/written per row, bytes per stream row */
    uint8_t pad;
    uint16_t count[2];      /* [0] = dim1 (inner), [1] = dim2 (outer) */
    int16_t start[2], step[2];
    uint16_t bound[2];
    uint64_t stride[2];     /* AddrWidth bits, two's complement */
} dma_desc_t;

typedef struct dma_win {
    uint64_t base, limit;   /* [base, limit) */
    bool rd, wr;
} dma_win_t;

#define DMA_MAX_WIN 16

/* What the model needs to know about the hardware and the memory behind it. */
typedef struct dma_env {
    int addr_width;         /* AddrWidth */
    int beat_bytes;         /* DataWidth / 8 */
    int row_bytes;          /* RowBytes */
    int num_windows;
    dma_win_t win[DMA_MAX_WIN];
    size_t mem_size;        /* bytes [0, mem_size) exist; beats beyond answer DECERR */
    const uint8_t *poison;  /* one flag per beat of memory: answers SLVERR */
} dma_env_t;

typedef struct dma_status {
    int code;
    uint64_t addr;
} dma_status_t;

uint64_t dma_addr_mask(const dma_env_t *env);
bool dma_desc_bad(const dma_env_t *env, const dma_desc_t *d);
/* Address and in-bounds flag of row (i1, i2). */
uint64_t dma_row_addr(const dma_env_t *env, const dma_desc_t *d, int i1, int i2, bool *inb);
bool dma_prot_ok(const dma_env_t *env, uint64_t addr, unsigned len, bool write);
/* A beat that answers with an error (poisoned, or beyond the memory). */
bool dma_beat_bad(const dma_env_t *env, uint64_t beat_addr);

/*
 * Read engine: the rows streamed for one descriptor.  rows receives up to
 * max_rows rows of row_bytes bytes; *nrows is set to the number of stream
 * beats (including the final error beat, whose data is zero, on an error).
 * Returns the status.  last is on beat *nrows-1; err only on an error beat.
 */
dma_status_t dma_read_model(const dma_env_t *env, const uint8_t *mem, const dma_desc_t *d,
                            uint8_t *rows, size_t max_rows, size_t *nrows);

/* One row of the write stream. */
typedef struct dma_srow {
    const uint8_t *data;    /* row_bytes bytes */
    bool last;
} dma_srow_t;

/*
 * Write engine: applies one descriptor to mem, consuming stream rows (which
 * must contain a row with last = 1; the engine consumes up to and including
 * it).  Rows whose beats answer an error are not written where the beat is
 * bad (like the slave); rows_limit stops after that many rows have been
 * written (for the prefix check after a bus error; pass SIZE_MAX normally).
 * *consumed receives the stream rows consumed.  Returns the status the
 * engine reports when no bus error happens; bus errors are left to the
 * caller (they depend on burst boundaries).  *first_bad_row is the index of
 * the first written row that touches a bad beat, or -1.
 */
dma_status_t dma_write_model(const dma_env_t *env, uint8_t *mem, const dma_desc_t *d,
                             const dma_srow_t *stream, size_t nstream, size_t rows_limit,
                             size_t *consumed, long *first_bad_row, size_t *rows_written);

#endif

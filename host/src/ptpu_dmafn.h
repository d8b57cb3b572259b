/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_dmafn.h - the functional semantics of a DMA descriptor (docs/dma.md,
 * docs/isa.md "LOAD and STORE"): which rows a descriptor has, where each one
 * is in memory, whether it is inside the bounds, and whether the protection
 * windows allow it.  No timing, no bursts: the `ref` model moves rows with it.
 */
#ifndef PTPU_DMAFN_H
#define PTPU_DMAFN_H

#include <stdint.h>

#ifndef PTPU_WINDOW_DEFINED
#define PTPU_WINDOW_DEFINED
/* A protection window [base, limit), limit exclusive (empty when limit <= base). */
struct ptpu_window { uint32_t base, limit, perm; };   /* perm bit 0 read, bit 1 write */
#endif
#define PTPU_PERM_READ 1u
#define PTPU_PERM_WRITE 2u

/* A descriptor with the field widths of the ISA already sign-extended. */
struct ptpu_dma_desc {
    uint32_t addr;
    uint32_t len0, out0;
    uint8_t pad;
    uint32_t count1, count2, bound1, bound2;
    int32_t start1, start2, step1, step2;
    int32_t stride1, stride2;
};

/* One row of a descriptor. */
struct ptpu_dma_row {
    uint32_t index;    /* i2*count1 + i1: the buffer row offset / stream position */
    uint32_t addr;     /* addr + c1*stride1 + c2*stride2, mod 2^32 */
    int inside;        /* 0 <= c1 < bound1 and 0 <= c2 < bound2 */
};

/* The descriptor of a LOAD or STORE instruction (8 words). */
void ptpu_dmafn_from_insn(const uint32_t *insn, struct ptpu_dma_desc *d);
/* Rows in the descriptor: count1 * count2. */
uint32_t ptpu_dmafn_rows(const struct ptpu_dma_desc *d);
/* Row i (0 <= i < rows), i2 = i / count1 outer, i1 = i % count1 inner. */
void ptpu_dmafn_row(const struct ptpu_dma_desc *d, uint32_t i, struct ptpu_dma_row *r);
/* Whether [addr, addr+len) lies inside one window that has every bit of perm;
 * a range that wraps past 2^32 is never allowed. */
int ptpu_dmafn_allowed(const struct ptpu_window *win, int nwin, uint32_t addr, uint32_t len,
                       uint32_t perm);
/* The first inside row that the windows do not allow for perm: its index, with its
 * address in *addr; or -1 when every inside row is allowed. */
int64_t ptpu_dmafn_first_denied(const struct ptpu_dma_desc *d, const struct ptpu_window *win,
                                int nwin, uint32_t perm, uint32_t *addr);

/* Row iterator, for loops over big descriptors without divisions:
 *   struct ptpu_dma_iter it; ptpu_dmafn_iter_init(&it, d);
 *   while (ptpu_dmafn_iter_next(&it, &row)) ... */
struct ptpu_dma_iter {
    const struct ptpu_dma_desc *d;
    uint32_t i1, i2, index;
    int32_t c1, c2;
};
void ptpu_dmafn_iter_init(struct ptpu_dma_iter *it, const struct ptpu_dma_desc *d);
int ptpu_dmafn_iter_next(struct ptpu_dma_iter *it, struct ptpu_dma_row *r);

#endif

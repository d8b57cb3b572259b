/* SPDX-License-Identifier: Apache-2.0 */
/* ptpu_dmafn.c - functional DMA descriptor semantics (see ptpu_dmafn.h). */
#include "ptpu_dmafn.h"

#include "picotpu_isa.h"

void ptpu_dmafn_from_insn(const uint32_t *insn, struct ptpu_dma_desc *d)
{
    d->addr = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_ADDR);
    d->len0 = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_LEN0);
    d->out0 = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_OUT0);
    d->pad = (uint8_t)ptpu_field_get(insn, PTPU_F_DMA_PAD);
    d->count1 = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_COUNT1);
    d->count2 = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_COUNT2);
    d->bound1 = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_BOUND1);
    d->bound2 = (uint32_t)ptpu_field_get(insn, PTPU_F_DMA_BOUND2);
    d->start1 = ptpu_field_get(insn, PTPU_F_DMA_START1);
    d->start2 = ptpu_field_get(insn, PTPU_F_DMA_START2);
    d->step1 = ptpu_field_get(insn, PTPU_F_DMA_STEP1);
    d->step2 = ptpu_field_get(insn, PTPU_F_DMA_STEP2);
    d->stride1 = ptpu_field_get(insn, PTPU_F_DMA_STRIDE1);
    d->stride2 = ptpu_field_get(insn, PTPU_F_DMA_STRIDE2);
}

uint32_t ptpu_dmafn_rows(const struct ptpu_dma_desc *d) { return d->count1 * d->count2; }

static void make_row(const struct ptpu_dma_desc *d, int32_t c1, int32_t c2, uint32_t index,
                     struct ptpu_dma_row *r)
{
    r->index = index;
    /* Unsigned products wrap exactly like the hardware's A-bit address arithmetic. */
    r->addr = d->addr + (uint32_t)c1 * (uint32_t)d->stride1 + (uint32_t)c2 * (uint32_t)d->stride2;
    r->inside = c1 >= 0 && (uint32_t)c1 < d->bound1 && c2 >= 0 && (uint32_t)c2 < d->bound2;
}

void ptpu_dmafn_row(const struct ptpu_dma_desc *d, uint32_t i, struct ptpu_dma_row *r)
{
    uint32_t i1 = i % d->count1, i2 = i / d->count1;
    make_row(d, d->start1 + (int32_t)i1 * d->step1, d->start2 + (int32_t)i2 * d->step2, i, r);
}

int ptpu_dmafn_allowed(const struct ptpu_window *win, int nwin, uint32_t addr, uint32_t len,
                       uint32_t perm)
{
    uint64_t end = (uint64_t)addr + len;
    for (int w = 0; w < nwin; w++) {
        if ((win[w].perm & perm) != perm)
            continue;
        if (addr >= win[w].base && end <= win[w].limit)
            return 1;
    }
    return 0;
}

void ptpu_dmafn_iter_init(struct ptpu_dma_iter *it, const struct ptpu_dma_desc *d)
{
    it->d = d;
    it->i1 = it->i2 = it->index = 0;
    it->c1 = d->start1;
    it->c2 = d->start2;
}

int ptpu_dmafn_iter_next(struct ptpu_dma_iter *it, struct ptpu_dma_row *r)
{
    const struct ptpu_dma_desc *d = it->d;
    if (it->i2 >= d->count2 || d->count1 == 0)
        return 0;
    make_row(d, it->c1, it->c2, it->index, r);
    it->index++;
    if (++it->i1 == d->count1) {
        it->i1 = 0;
        it->c1 = d->start1;
        it->i2++;
        it->c2 += d->step2;
    } else {
        it->c1 += d->step1;
    }
    return 1;
}

int64_t ptpu_dmafn_first_denied(const struct ptpu_dma_desc *d, const struct ptpu_window *win,
                                int nwin, uint32_t perm, uint32_t *addr)
{
    struct ptpu_dma_iter it;
    struct ptpu_dma_row r;
    ptpu_dmafn_iter_init(&it, d);
    while (ptpu_dmafn_iter_next(&it, &r)) {
        if (r.inside && !ptpu_dmafn_allowed(win, nwin, r.addr, d->len0, perm)) {
            if (addr)
                *addr = r.addr;
            return r.index;
        }
    }
    return -1;
}

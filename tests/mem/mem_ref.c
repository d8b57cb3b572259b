/* SPDX-License-Identifier: Apache-2.0 */
/* mem_ref.c - sparse reference memory: open-addressed hash of 4 KB pages. */
#include "mem_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

typedef struct {
    uint64_t key;   /* page number + 1; 0 = empty slot */
    uint8_t *data;
} slot_t;

struct mem_ref {
    slot_t *tab;
    uint64_t size, used;
};

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n, sz);
    if (!p) {
        perror("mem_ref");
        exit(2);
    }
    return p;
}

mem_ref_t *mem_ref_new(void)
{
    mem_ref_t *m = xcalloc(1, sizeof *m);
    m->size = 1024;
    m->tab = xcalloc(m->size, sizeof *m->tab);
    return m;
}

void mem_ref_free(mem_ref_t *m)
{
    for (uint64_t i = 0; i < m->size; i++)
        free(m->tab[i].data);
    free(m->tab);
    free(m);
}

static inline uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static slot_t *find(const mem_ref_t *m, uint64_t key)
{
    uint64_t mask = m->size - 1;
    for (uint64_t i = mix(key) & mask;; i = (i + 1) & mask)
        if (m->tab[i].key == key || m->tab[i].key == 0)
            return &m->tab[i];
}

static uint8_t *page(mem_ref_t *m, uint64_t addr)
{
    uint64_t key = addr / PAGE + 1;
    slot_t *s = find(m, key);
    if (s->key)
        return s->data;
    if (2 * (m->used + 1) > m->size) {
        slot_t *old = m->tab;
        uint64_t n = m->size;
        m->size *= 2;
        m->tab = xcalloc(m->size, sizeof *m->tab);
        for (uint64_t i = 0; i < n; i++)
            if (old[i].key)
                *find(m, old[i].key) = old[i];
        free(old);
        s = find(m, key);
    }
    s->key = key;
    s->data = xcalloc(1, PAGE);
    m->used++;
    return s->data;
}

void mem_ref_write(mem_ref_t *m, uint64_t addr, const uint8_t *data, uint32_t strb)
{
    uint8_t *p = page(m, addr) + addr % PAGE;
    for (int i = 0; i < 32; i++)
        if (strb >> i & 1)
            p[i] = data[i];
}

void mem_ref_read(const mem_ref_t *m, uint64_t addr, uint8_t *out)
{
    const slot_t *s = find(m, addr / PAGE + 1);
    if (s->key)
        memcpy(out, s->data + addr % PAGE, 32);
    else
        memset(out, 0, 32);
}

void mem_ref_each(const mem_ref_t *m, void (*fn)(void *ctx, uint64_t addr, const uint8_t *data),
                  void *ctx)
{
    for (uint64_t i = 0; i < m->size; i++) {
        if (!m->tab[i].key)
            continue;
        uint64_t base = (m->tab[i].key - 1) * PAGE;
        for (uint32_t off = 0; off < PAGE; off += 32)
            fn(ctx, base + off, m->tab[i].data + off);
    }
}

uint64_t mem_ref_pages(const mem_ref_t *m) { return m->used; }

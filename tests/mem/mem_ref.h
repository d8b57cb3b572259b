/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mem_ref.h - the memory system's reference model for the testbenches: a sparse
 * byte-addressed memory that holds what was last written (unwritten bytes are 0).
 */
#ifndef PICOTPU_MEM_REF_H
#define PICOTPU_MEM_REF_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mem_ref mem_ref_t;

mem_ref_t *mem_ref_new(void);
void mem_ref_free(mem_ref_t *m);
/* Writes the bytes of one 32-byte beat whose strobe bit is set. */
void mem_ref_write(mem_ref_t *m, uint64_t addr, const uint8_t *data, uint32_t strb);
void mem_ref_read(const mem_ref_t *m, uint64_t addr, uint8_t *out);
/* Calls fn for every 32-byte beat of every page that was ever written. */
void mem_ref_each(const mem_ref_t *m, void (*fn)(void *ctx, uint64_t addr, const uint8_t *data),
                  void *ctx);
uint64_t mem_ref_pages(const mem_ref_t *m);

#endif

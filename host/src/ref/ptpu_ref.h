/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_ref.h - the `ref` model: a C implementation of the picotpu ISA
 * (docs/isa.md) that executes program images from a device-memory image,
 * bit for bit like the RTL, with the same fault codes.  It is also the fast
 * backend of the host runtime.  See docs/ref.md.
 */
#ifndef PTPU_REF_H
#define PTPU_REF_H

#include <stddef.h>
#include <stdint.h>

#include "picotpu_isa.h"
#include "ptpu_dmafn.h"   /* struct ptpu_window */

/* A configuration (docs/isa.md, Configurations): array size, bf16 support, buffer rows,
 * device memory in KB. */
struct ptpu_ref_cfg { int n, bf16, ub_rows, wb_rows, acc_rows, vp_rows; uint32_t mem_kb; };

struct ptpu_run_result {
    int state;                 /* PTPU_STATE_DONE or PTPU_STATE_FAULT */
    int fault; uint32_t fault_pc, fault_addr;
    uint64_t counters[PTPU_NUM_COUNTERS];  /* insns and bytes exact; cycles: ref's estimate */
};

struct ptpu_ref;

/* Every function returns 0 or a negative PTPU error code (picotpu_isa.h, PTPU_ERROR_LIST):
 * -1 INVALID_ARG (bad configuration, misaligned or empty program, bad window list),
 * -2 NO_MEM, -13 RANGE (memory access outside device memory). */
int  ptpu_ref_create(const struct ptpu_ref_cfg *cfg, struct ptpu_ref **out);
void ptpu_ref_destroy(struct ptpu_ref *r);
/* Host access to device memory (the link's MEM_WRITE/MEM_READ).  Memory is sparse: 64 KB
 * pages allocated on first write; unwritten memory reads as zero. */
int  ptpu_ref_mem_write(struct ptpu_ref *r, uint32_t addr, const void *data, size_t len);
int  ptpu_ref_mem_read(struct ptpu_ref *r, uint32_t addr, void *data, size_t len);
/* Run prog_len instructions at prog_addr (32-byte aligned, inside device memory) with
 * nwin protection windows (1..16).  The on-chip buffers keep their contents between runs,
 * as in the hardware.  Returns 0 when the program ran (res says DONE or FAULT). */
int  ptpu_ref_run(struct ptpu_ref *r, uint32_t prog_addr, uint32_t prog_len,
                  const struct ptpu_window *win, int nwin, struct ptpu_run_result *res);

/* For tests and debugging: row `row` of a buffer (PTPU_BUF_UB, PTPU_BUF_WB, PTPU_BUF_VP or
 * PTPU_REF_BUF_ACC, whose rows are N little-endian 32-bit words) into data; returns the
 * row's bytes (N*EW, N*EW, 4N, 4N) or -1 INVALID_ARG. */
#define PTPU_REF_BUF_ACC 3
int  ptpu_ref_buf_read(struct ptpu_ref *r, int buf, uint32_t row, void *data);

/* The configuration named `name` (sim16, sim32, sim128, ulx3s, icebreaker); 0 or -1. */
int  ptpu_ref_cfg_named(const char *name, struct ptpu_ref_cfg *cfg);

/* The memory beat size used for BUS_ERROR addresses (the DMA's DataWidth/8). */
#define PTPU_REF_BEAT_BYTES 32u

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progen.h - random race-free picotpu programs (docs/ref.md, "progen").
 *
 * From a seed and a configuration: a memory image (regions of random data), a
 * window list and a program with correct dependency tokens that exercises
 * every instruction and field: int8 and bf16 MATMULs (overwrite, accumulate,
 * new_w = 0 reuse), ACTIVATE with every output type, pooling windows, clamps,
 * zero points and multipliers, strided/padded LOADs and STOREs, SYNC, and
 * double-buffered tiles whose loads overlap the compute of the previous tile.
 * Every buffer row (and byte) a program reads was written earlier by it.
 * Optionally one injected fault of a chosen kind, with the expected result.
 * The same program runs on ref and on the RTL; the `out` regions are compared.
 *
 * Build: tests/soc/progen.c with -Ihost/include -Ihost/src and host/src/ptpu_dmafn.c
 * (it includes tests/ref/ref_prog.h by a relative path).
 */
#ifndef PROGEN_H
#define PROGEN_H

#include <stdint.h>

#include "ptpu_dmafn.h"   /* struct ptpu_window */

struct progen_opts { int n, bf16, ub_rows, wb_rows, acc_rows, vp_rows; uint32_t mem_kb;
                     int max_insns; int fault_kind; /* 0 none, else a PTPU_FAULT_* to inject */ };
struct progen_region { uint32_t addr, len; };
struct progen {
    uint8_t *prog; uint32_t prog_addr, prog_len;           /* prog_len instructions */
    struct progen_region *init; uint8_t **init_data; int ninit;  /* memory to preload */
    struct progen_region *out; int nout;                   /* memory to compare after the run */
    struct ptpu_window win[4]; int nwin;
    /* The expected outcome: PTPU_FAULT_NONE (then the program ends with DONE) or the
     * injected fault with its pc and FAULT_ADDR.  For dynamic faults (PROT_READ,
     * PROT_WRITE, BUS_ERROR) only the status is defined: memory written by other
     * queues after the fault is unspecified (docs/isa.md, Faults). */
    int expect_fault; uint32_t expect_pc, expect_addr;
    uint32_t njobs;                                        /* tiles generated (statistics) */
};
/* Returns 0, or -1 for bad options (a configuration too small, an unknown fault kind:
 * TIMEOUT and ABORTED are not program faults).  BUS_ERROR programs use a window that
 * extends past device memory. */
int  progen_make(uint64_t seed, const struct progen_opts *o, struct progen *p);
void progen_free(struct progen *p);

#endif

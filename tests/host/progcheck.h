/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progcheck.h - a race checker for picotpu programs: every pair of accesses to
 * the same buffer row (UB, WB, VP, ACC) or device memory bytes from different
 * queues, one of them a write, must be ordered by dependency tokens or
 * SYNC/HALT (docs/isa.md).  The ref model runs programs in order and cannot
 * see races; the RTL runs the three queues concurrently.
 *
 * Happens-before model: a queue starts and completes its instructions in order;
 * a pop starts after the matching push (the k-th push on that counter)
 * completed; SYNC/HALT: every earlier instruction completed before any later one
 * starts.  Same-queue accesses are taken as ordered.
 */
#ifndef PROGCHECK_H
#define PROGCHECK_H

#include <stddef.h>
#include <stdint.h>

/* 0 when race free, else -1 with a message in err. */
int progcheck(const uint32_t *w, size_t n, int N, int bf16, int ub_rows, int wb_rows,
              int acc_rows, int vp_rows, char *err, size_t errlen);

#endif

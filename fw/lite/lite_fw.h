/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lite_fw.h - the picotpu-lite firmware's pieces (docs/firmware.md, "Lite firmware"):
 * the link layer and the port of the command layer (lite_link.c; the layer itself is
 * fw/src/cp/cp_serve.c, shared with the full SoC's firmware) and the ISA interpreter
 * (lite_isa.c), which share the state of the program that runs (lite_prog, and cp_prog
 * for its outcome).  Hardware access: lite_hal.h.
 */
#ifndef LITE_FW_H
#define LITE_FW_H

#include <stdbool.h>
#include <stdint.h>

#include "lite_hal.h"
#include "picotpu_isa.h"
#include "ptpu_cp.h"
#include "ptpu_dmafn.h"

/* The configuration the device reports: the icebreaker figures (spec/picotpu.toml) with
 * the top 4 KB of the SPRAM kept for the firmware (mem_kb 124). */
#define LITE_N 4u
#define LITE_UB_ROWS 256u
#define LITE_WB_ROWS 64u
#define LITE_ACC_ROWS 128u
#define LITE_VP_ROWS 16u
#define LITE_MEM_KB (LITE_DEV_MEM_BYTES / 1024u)
#define LITE_NUM_WINDOWS 4u
#define LITE_MAX_PAYLOAD 1024u          /* largest frame payload: the RX buffer */
#define LITE_FW_VERSION 0x00010000u     /* major.minor.patch as 0x00MMmmpp */
#define LITE_CONFIG_NAME "icebreaker"

/* The program: set by RUN (lite_link.c), advanced by the interpreter.  Whether it runs
 * and how the last one ended: cp_prog (ptpu_cp.h). */
struct lite_prog {
    uint32_t addr, len, pc;
    uint32_t nwin;
    struct ptpu_window win[LITE_NUM_WINDOWS];
    uint64_t start, end, timeout;                   /* cycles; timeout 0: none */
    uint64_t cnt[PTPU_NUM_COUNTERS];                /* instructions and bytes */
    uint32_t xpu_count0;                            /* XPU COUNT at the start */
    uint64_t ch_rd, ch_wr;                          /* memory bytes since the start */
    /* decode state */
    uint32_t tok[4];
    bool w_valid;
};
extern struct lite_prog lite_prog;

/* lite_link.c */
/* memcpy, a word at a time when both pointers and n allow it (picolibc's -Os memcpy
 * moves bytes: a quarter of the speed for MEM_WRITE data and aligned LOAD/STORE rows). */
void lite_copy(void *dst, const void *src, uint32_t n);
void lite_init(void);            /* power-on state: idle, no program, parser hunting */
void lite_poll(void);            /* one turn of the main loop: requests, WAIT, one instruction */
void lite_yield(void);           /* serves waiting requests from inside a long instruction */
/* The program ended (DONE, or FAULT with code/pc/addr): status, pending WAIT. */
void lite_prog_end(uint32_t state, uint32_t fault, uint32_t pc, uint32_t addr);

/* lite_isa.c */
void lite_isa_start(void);       /* clears the decode state at RUN */
void lite_isa_step(void);        /* decodes and executes the instruction at lite_prog.pc */

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lite_isa.c - the picotpu-lite ISA interpreter: the instructions of a program one at
 * a time in program order (docs/isa.md), which is a valid execution of every race-free
 * program.  Decode checks every static rule in the order of the ref model
 * (host/src/ref/ptpu_ref.c), so the first fault, its pc and address are the same.
 *
 * LOAD and STORE move rows between device memory and the buffers here with the DMA
 * descriptor semantics of host/src/ptpu_dmafn.c; MATMUL writes the weight tile and the
 * UB rows to the XPU (lite_hal.h); ACTIVATE reads ACC through the XPU's window and
 * requantizes with host/src/ptpu_vpu.c's ptpu_vpu_int8.  Long instructions call
 * lite_yield() every few rows so that requests are answered while a program runs.
 */
#include <string.h>

#include "lite_fw.h"
#include "ptpu_vpu.h"

#define F(in, f) ptpu_field_get(in, PTPU_F_##f)
#define YIELD_ROWS 8u          /* rows between lite_yield() calls */
#define MAX_TOKENS 65535u

/* Token counters: load->compute, compute->load, compute->store, store->compute. */
enum { TK_LC, TK_CL, TK_CS, TK_SC };

/* The buffers (the XPU holds ACC). */
static uint8_t ub[LITE_UB_ROWS][LITE_N] __attribute__((aligned(4)));
static uint8_t wb[LITE_WB_ROWS][LITE_N] __attribute__((aligned(4)));
static uint32_t vp[LITE_VP_ROWS][LITE_N];   /* little-endian words, as LOAD writes them */

void lite_isa_start(void)
{
    memset(lite_prog.tok, 0, sizeof lite_prog.tok);
    lite_prog.w_valid = false;
}

/* Every static rule of docs/isa.md; the decode state is updated only when it passes. */
static uint32_t decode(const uint32_t *in)
{
    const uint32_t op = (uint32_t)F(in, COMMON_OP);
    const uint32_t pop_prev = (uint32_t)F(in, COMMON_POP_PREV), pop_next = (uint32_t)F(in, COMMON_POP_NEXT);
    const uint32_t push_prev = (uint32_t)F(in, COMMON_PUSH_PREV), push_next = (uint32_t)F(in, COMMON_PUSH_NEXT);
    if (op < PTPU_OP_LOAD || op > PTPU_OP_HALT)
        return PTPU_FAULT_BAD_OPCODE;
    if (op == PTPU_OP_SYNC || op == PTPU_OP_HALT)
        return 0;
    if (op == PTPU_OP_LOAD && (pop_prev || push_prev))
        return PTPU_FAULT_BAD_FIELD;
    if (op == PTPU_OP_STORE && (pop_next || push_next))
        return PTPU_FAULT_BAD_FIELD;

    bool range;
    if (op == PTPU_OP_LOAD || op == PTPU_OP_STORE) {
        const uint32_t buf = (uint32_t)F(in, DMA_BUF), len0 = (uint32_t)F(in, DMA_LEN0);
        const uint32_t out0 = (uint32_t)F(in, DMA_OUT0);
        const uint32_t c1 = (uint32_t)F(in, DMA_COUNT1), c2 = (uint32_t)F(in, DMA_COUNT2);
        uint32_t rows;
        if (op == PTPU_OP_LOAD) {
            if (buf == 3 || len0 == 0 || len0 > out0 ||
                out0 > (buf == PTPU_BUF_VP ? 4u * LITE_N : LITE_N) || c1 == 0 || c2 == 0)
                return PTPU_FAULT_BAD_FIELD;
            rows = buf == PTPU_BUF_UB ? LITE_UB_ROWS : buf == PTPU_BUF_WB ? LITE_WB_ROWS : LITE_VP_ROWS;
        } else {
            if (buf != PTPU_BUF_UB || F(in, DMA_PAD) != 0 || out0 != len0 || len0 == 0 ||
                len0 > LITE_N || c1 == 0 || c2 == 0)
                return PTPU_FAULT_BAD_FIELD;
            rows = LITE_UB_ROWS;
        }
        /* counts are 12 bits and row 16: no overflow */
        range = (uint32_t)F(in, DMA_ROW) + c1 * c2 > rows;
    } else if (op == PTPU_OP_MATMUL) {
        const uint32_t rows = (uint32_t)F(in, MATMUL_ROWS), new_w = (uint32_t)F(in, MATMUL_NEW_W);
        if (rows == 0 || F(in, MATMUL_BF16))      /* int8-only configuration */
            return PTPU_FAULT_BAD_FIELD;
        if (!new_w && !lite_prog.w_valid)
            return PTPU_FAULT_NO_WEIGHTS;
        range = (uint32_t)F(in, MATMUL_UROW) + rows > LITE_UB_ROWS ||
                (uint32_t)F(in, MATMUL_AROW) + rows > LITE_ACC_ROWS ||
                (new_w && (uint32_t)F(in, MATMUL_WROW) + LITE_N > LITE_WB_ROWS);
    } else {
        const uint32_t pool = (uint32_t)F(in, ACTIVATE_POOL);
        const uint32_t c1 = (uint32_t)F(in, ACTIVATE_COUNT1), c2 = (uint32_t)F(in, ACTIVATE_COUNT2);
        const uint32_t w1 = (uint32_t)F(in, ACTIVATE_WIN1), w2 = (uint32_t)F(in, ACTIVATE_WIN2);
        /* int8 output only: fp outputs and relu/relu6 (fp outputs' flags) are BAD_FIELD */
        if (F(in, ACTIVATE_OUT) != PTPU_OUT_INT8 || pool == 3 || F(in, ACTIVATE_RELU) ||
            F(in, ACTIVATE_RELU6) || (pool == PTPU_POOL_NONE && (w1 != 1 || w2 != 1)) ||
            c1 == 0 || c2 == 0 || w1 == 0 || w2 == 0 ||
            F(in, ACTIVATE_CLAMP_LO) > F(in, ACTIVATE_CLAMP_HI))
            return PTPU_FAULT_BAD_FIELD;
        /* 12-bit counts, 4-bit windows, 16-bit steps: every term < 2^28 */
        uint32_t top = (uint32_t)F(in, ACTIVATE_AROW) + (c2 - 1) * (uint32_t)F(in, ACTIVATE_STEP2) +
                       (c1 - 1) * (uint32_t)F(in, ACTIVATE_STEP1) +
                       (w2 - 1) * (uint32_t)F(in, ACTIVATE_WSTEP2) +
                       (w1 - 1) * (uint32_t)F(in, ACTIVATE_WSTEP1);
        range = top >= LITE_ACC_ROWS || (uint32_t)F(in, ACTIVATE_UROW) + c1 * c2 > LITE_UB_ROWS ||
                (uint32_t)F(in, ACTIVATE_VROW) + 3u > LITE_VP_ROWS;
    }
    if (range)
        return PTPU_FAULT_BUF_RANGE;

    /* Tokens: pops against the pushes decoded so far, then this instruction's pushes. */
    uint32_t pop = 0, push = 0;   /* bit k: counter k */
    if (op == PTPU_OP_LOAD) {
        pop = pop_next << TK_CL;
        push = push_next << TK_LC;
    } else if (op == PTPU_OP_STORE) {
        pop = pop_prev << TK_CS;
        push = push_prev << TK_SC;
    } else {
        pop = pop_prev << TK_LC | pop_next << TK_SC;
        push = push_prev << TK_CL | push_next << TK_CS;
    }
    for (int k = 0; k < 4; k++)
        if (((pop >> k) & 1u) && lite_prog.tok[k] == 0)
            return PTPU_FAULT_TOKEN;
    for (int k = 0; k < 4; k++)   /* no instruction pops and pushes the same counter */
        if (((push >> k) & 1u) && lite_prog.tok[k] + 1u > MAX_TOKENS)
            return PTPU_FAULT_TOKEN;
    for (int k = 0; k < 4; k++)
        lite_prog.tok[k] += ((push >> k) & 1u) - ((pop >> k) & 1u);
    if (op == PTPU_OP_MATMUL && F(in, MATMUL_NEW_W))
        lite_prog.w_valid = true;
    return 0;
}

/* Yields every YIELD_ROWS rows; false when a RESET stopped the program meanwhile. */
static bool row_yield(uint32_t i)
{
    if ((i % YIELD_ROWS) != YIELD_ROWS - 1)
        return true;
    lite_yield();
    return cp_prog.running;
}

/* LOAD and STORE: 0 (done), a fault code with *faddr, or -1 (stopped by RESET). */
static int exec_dma(const uint32_t *in, bool load, uint32_t *faddr)
{
    struct ptpu_dma_desc d;
    struct ptpu_dma_iter it;
    struct ptpu_dma_row r;
    ptpu_dmafn_from_insn(in, &d);
    const uint32_t buf = (uint32_t)F(in, DMA_BUF), row0 = (uint32_t)F(in, DMA_ROW);
    const uint32_t rb = buf == PTPU_BUF_VP ? 4u * LITE_N : LITE_N;
    const uint32_t rshift = buf == PTPU_BUF_VP ? 4u : 2u;   /* log2(rb): no multiply per row */
    _Static_assert(LITE_N == 4, "row shifts assume N = 4");
    uint8_t *base = buf == PTPU_BUF_UB ? ub[0] : buf == PTPU_BUF_WB ? wb[0] : (uint8_t *)vp[0];
    ptpu_dmafn_iter_init(&it, &d);
    while (ptpu_dmafn_iter_next(&it, &r)) {
        uint8_t *row = base + ((row0 + r.index) << rshift);
        /* Windows end inside device memory (RUN checks them): an allowed row is in it. */
        if (load) {
            if (r.inside) {
                if (!ptpu_dmafn_allowed(lite_prog.win, (int)lite_prog.nwin, r.addr, d.len0, PTPU_PERM_READ)) {
                    *faddr = r.addr;
                    return PTPU_FAULT_PROT_READ;
                }
                lite_copy(row, LITE_DEV_MEM + r.addr, d.len0);
                if (d.out0 > d.len0)   /* (calls skipped when empty: a row is ~400 cycles) */
                    memset(row + d.len0, d.pad, d.out0 - d.len0);
                lite_prog.cnt[PTPU_CNT_BYTES_READ] += d.len0;
            } else {
                memset(row, d.pad, d.out0);
            }
            if (rb > d.out0)
                memset(row + d.out0, 0, rb - d.out0);
        } else if (r.inside) {
            if (!ptpu_dmafn_allowed(lite_prog.win, (int)lite_prog.nwin, r.addr, d.len0, PTPU_PERM_WRITE)) {
                *faddr = r.addr;
                return PTPU_FAULT_PROT_WRITE;
            }
            lite_copy(LITE_DEV_MEM + r.addr, row, d.len0);
            lite_prog.cnt[PTPU_CNT_BYTES_WRITTEN] += d.len0;
        }
        if (!row_yield(r.index))
            return -1;
    }
    return 0;
}

static uint32_t word(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* MATMUL: the tile into W0..W3, then every UB row through the XPU. */
static bool exec_matmul(const uint32_t *in)
{
    const uint32_t urow = (uint32_t)F(in, MATMUL_UROW), rows = (uint32_t)F(in, MATMUL_ROWS);
    if (F(in, MATMUL_NEW_W)) {
        const uint32_t wrow = (uint32_t)F(in, MATMUL_WROW);
        for (uint32_t k = 0; k < LITE_N; k++)
            hal_xpu_w(k, word(wb[wrow + k]));
    }
    hal_xpu_zp((uint32_t)F(in, MATMUL_ZP) & 0xffu);
    hal_xpu_mode(F(in, MATMUL_ACC) ? LITE_XPU_MODE_ACC : 0u);
    hal_xpu_row((uint32_t)F(in, MATMUL_AROW));
    for (uint32_t i = 0; i < rows; i++) {
        hal_xpu_x(word(ub[urow + i]));
        if (!row_yield(i))
            return false;
    }
    return true;
}

/* ACTIVATE, int8 output: per output and lane the window's sum or maximum from ACC, then
 * bias, requantization, zero point and clamp (ptpu_vpu_int8). */
static bool exec_activate(const uint32_t *in)
{
    const uint32_t pool = (uint32_t)F(in, ACTIVATE_POOL);
    const uint32_t arow = (uint32_t)F(in, ACTIVATE_AROW), urow = (uint32_t)F(in, ACTIVATE_UROW);
    const uint32_t vrow = (uint32_t)F(in, ACTIVATE_VROW);
    const uint32_t c1 = (uint32_t)F(in, ACTIVATE_COUNT1), c2 = (uint32_t)F(in, ACTIVATE_COUNT2);
    const uint32_t w1 = (uint32_t)F(in, ACTIVATE_WIN1), w2 = (uint32_t)F(in, ACTIVATE_WIN2);
    const uint32_t st1 = (uint32_t)F(in, ACTIVATE_STEP1), st2 = (uint32_t)F(in, ACTIVATE_STEP2);
    const uint32_t ws1 = (uint32_t)F(in, ACTIVATE_WSTEP1), ws2 = (uint32_t)F(in, ACTIVATE_WSTEP2);
    const int zp_out = F(in, ACTIVATE_ZP_OUT), lo = F(in, ACTIVATE_CLAMP_LO), hi = F(in, ACTIVATE_CLAMP_HI);
    /* ACC rows by additions: a multiply takes 35 cycles on this core (docs/cpu.md) */
    uint32_t o = 0, b2 = arow;
    for (uint32_t o2 = 0; o2 < c2; o2++, b2 += st2) {
        uint32_t b = b2;
        for (uint32_t o1 = 0; o1 < c1; o1++, o++, b += st1) {
            for (uint32_t c = 0; c < LITE_N; c++) {
                uint32_t v = hal_xpu_acc(b, c);
                if (pool != PTPU_POOL_NONE) {
                    uint32_t r2 = b;
                    for (uint32_t j2 = 0; j2 < w2; j2++, r2 += ws2) {
                        uint32_t r = r2;
                        for (uint32_t j1 = 0; j1 < w1; j1++, r += ws1) {
                            if (j1 == 0 && j2 == 0)
                                continue;   /* the first element is v */
                            uint32_t x = hal_xpu_acc(r, c);
                            if (pool == PTPU_POOL_SUM)
                                v += x;
                            else if ((int32_t)x > (int32_t)v)
                                v = x;
                        }
                    }
                }
                ub[urow + o][c] = (uint8_t)ptpu_vpu_int8(v, vp[vrow][c], vp[vrow + 1][c], vp[vrow + 2][c],
                                                          zp_out, lo, hi);
            }
            if (!row_yield(o))
                return false;
        }
    }
    return true;
}

void lite_isa_step(void)
{
    struct lite_prog *p = &lite_prog;
    const uint32_t pc = p->pc;
    if (pc >= p->len) {
        lite_prog_end(PTPU_STATE_FAULT, PTPU_FAULT_PROG_END, pc, 0);
        return;
    }
    uint32_t in[PTPU_INSTR_WORDS];
    memcpy(in, LITE_DEV_MEM + p->addr + PTPU_INSTR_BYTES * pc, sizeof in);
    p->ch_rd += PTPU_INSTR_BYTES;
    uint32_t f = decode(in);
    if (f) {
        lite_prog_end(PTPU_STATE_FAULT, f, pc, 0);
        return;
    }
    const uint32_t op = (uint32_t)F(in, COMMON_OP);
    uint32_t faddr = 0;
    int rc = 0;
    switch (op) {
    case PTPU_OP_LOAD:
    case PTPU_OP_STORE:
        rc = exec_dma(in, op == PTPU_OP_LOAD, &faddr);
        if (rc == 0)
            p->cnt[op == PTPU_OP_LOAD ? PTPU_CNT_LOAD_INSNS : PTPU_CNT_STORE_INSNS]++;
        break;
    case PTPU_OP_MATMUL:
    case PTPU_OP_ACTIVATE:
        rc = (op == PTPU_OP_MATMUL ? exec_matmul(in) : exec_activate(in)) ? 0 : -1;
        if (rc == 0)
            p->cnt[PTPU_CNT_COMPUTE_INSNS]++;
        break;
    case PTPU_OP_HALT:
        lite_prog_end(PTPU_STATE_DONE, PTPU_FAULT_NONE, 0, 0);
        return;
    default:   /* SYNC: every earlier instruction has completed */
        break;
    }
    if (rc < 0 || !cp_prog.running)   /* stopped by RESET meanwhile */
        return;
    if (rc > 0) {
        lite_prog_end(PTPU_STATE_FAULT, (uint32_t)rc, pc, faddr);
        return;
    }
    p->pc = pc + 1;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_csr.h - machine-mode CSRs of tpu_cpu (docs/cpu.md) and accessors.
 * Build with -misa-spec=2.2: GCC 12 needs it for the CSR instructions on the
 * rv32i/rv32im multilibs (Zicsr in -march falls back to the rv64 libraries).
 */
#ifndef PTPU_CSR_H
#define PTPU_CSR_H

#define CSR_MSTATUS    0x300
#define CSR_MISA       0x301
#define CSR_MIE        0x304
#define CSR_MTVEC      0x305
#define CSR_MSCRATCH   0x340
#define CSR_MEPC       0x341
#define CSR_MCAUSE     0x342
#define CSR_MTVAL      0x343
#define CSR_MIP        0x344
#define CSR_MCYCLE     0xb00
#define CSR_MINSTRET   0xb02
#define CSR_MCYCLEH    0xb80
#define CSR_MINSTRETH  0xb82
#define CSR_MHARTID    0xf14

#define MSTATUS_MIE    (1u << 3)
#define MSTATUS_MPIE   (1u << 7)
#define MIE_MTIE       (1u << 7)
#define MIE_MEIE       (1u << 11)
#define MIP_MTIP       (1u << 7)
#define MIP_MEIP       (1u << 11)

/* mcause values */
#define CAUSE_INSN_MISALIGNED  0
#define CAUSE_INSN_FAULT       1
#define CAUSE_ILLEGAL          2
#define CAUSE_BREAKPOINT       3
#define CAUSE_LOAD_MISALIGNED  4
#define CAUSE_LOAD_FAULT       5
#define CAUSE_STORE_MISALIGNED 6
#define CAUSE_STORE_FAULT      7
#define CAUSE_ECALL_M          11
#define CAUSE_IRQ              0x80000000u
#define CAUSE_IRQ_TIMER        (CAUSE_IRQ | 7)
#define CAUSE_IRQ_EXTERNAL     (CAUSE_IRQ | 11)

#ifndef __ASSEMBLER__
#include <stdint.h>

#define PTPU_STR_(x) #x
#define PTPU_STR(x) PTPU_STR_(x)
#define csr_read(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " PTPU_STR(csr) : "=r"(v_)); v_; })
#define csr_write(csr, v) __asm__ volatile("csrw " PTPU_STR(csr) ", %0" ::"r"((uint32_t)(v)))
#define csr_set(csr, v) __asm__ volatile("csrs " PTPU_STR(csr) ", %0" ::"r"((uint32_t)(v)))
#define csr_clear(csr, v) __asm__ volatile("csrc " PTPU_STR(csr) ", %0" ::"r"((uint32_t)(v)))

/* 64-bit counters, read high-low-high so a carry between the halves is seen. */
static inline uint64_t ptpu_rdcycle(void)
{
    uint32_t hi, lo, hi2;
    do {
        hi = csr_read(CSR_MCYCLEH);
        lo = csr_read(CSR_MCYCLE);
        hi2 = csr_read(CSR_MCYCLEH);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t ptpu_rdinstret(void)
{
    uint32_t hi, lo, hi2;
    do {
        hi = csr_read(CSR_MINSTRETH);
        lo = csr_read(CSR_MINSTRET);
        hi2 = csr_read(CSR_MINSTRETH);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}
#endif

#endif

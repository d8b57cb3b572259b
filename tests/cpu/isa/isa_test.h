/* SPDX-License-Identifier: Apache-2.0 */
/*
 * isa_test.h - macros for the self-checking ISA and trap tests (assembly,
 * run through the C preprocessor).  Each program starts at _start, numbers
 * its checks in TESTNUM (x31) and ends by writing the platform's EXIT
 * register: 0 when every check passed, else the number of the first failed
 * check.  An unexpected trap exits with 0x8000 | TESTNUM << 4 | mcause code.
 *
 * Registers: x30 (t5) and x31 (TESTNUM) belong to the macros; checks write
 * their result to x14 unless they say otherwise.
 */
#ifndef ISA_TEST_H
#define ISA_TEST_H

#include "ptpu_sim.h"

#define TESTNUM x31

#define TEST_BEGIN                                                      \
    .section .text.start, "ax";                                         \
    .globl _start;                                                      \
_start:                                                                 \
    li TESTNUM, 1;                                                      \
    la sp, __stack_top;                                                 \
    la t5, unexpected_trap;                                             \
    csrw mtvec, t5;                                                     \
    j test_main;                                                        \
    .balign 4;                                                          \
unexpected_trap:                                                        \
    csrr t5, mcause;                                                    \
    andi t5, t5, 0xf;                                                   \
    slli TESTNUM, TESTNUM, 4;                                           \
    or TESTNUM, TESTNUM, t5;                                            \
    li t5, 0x8000;                                                      \
    or TESTNUM, TESTNUM, t5;                                            \
    j fail;                                                             \
test_main:

/* Jumps to fail unless reg == value (value through t5). */
#define CHECK(reg, value)                                               \
    li t5, value;                                                       \
    bne reg, t5, fail

#define TEST_CASE(n, reg, value, ...)                                   \
    li TESTNUM, n;                                                      \
    __VA_ARGS__;                                                        \
    CHECK(reg, value)

#define TEST_END                                                        \
pass:                                                                   \
    li t5, PTPU_EXIT;                                                   \
    sw zero, 0(t5);                                                     \
1:  j 1b;                                                               \
fail:                                                                   \
    li t5, PTPU_EXIT;                                                   \
    sw TESTNUM, 0(t5);                                                  \
2:  j 2b

/* Register-register and register-immediate operations. */
#define TEST_RR(n, inst, result, v1, v2)                                \
    TEST_CASE(n, x14, result, li x1, v1; li x2, v2; inst x14, x1, x2)
#define TEST_RR_SRC1_DEST(n, inst, result, v1, v2)                      \
    TEST_CASE(n, x1, result, li x1, v1; li x2, v2; inst x1, x1, x2)
#define TEST_RR_SRC2_DEST(n, inst, result, v1, v2)                      \
    TEST_CASE(n, x2, result, li x1, v1; li x2, v2; inst x2, x1, x2)
#define TEST_RR_SRC12_DEST(n, inst, result, v1)                         \
    TEST_CASE(n, x1, result, li x1, v1; inst x1, x1, x1)
#define TEST_RR_ZERO1(n, inst, result, v2)                              \
    TEST_CASE(n, x14, result, li x2, v2; inst x14, x0, x2)
#define TEST_RR_ZERO2(n, inst, result, v1)                              \
    TEST_CASE(n, x14, result, li x1, v1; inst x14, x1, x0)
#define TEST_RR_ZERODEST(n, inst, v1, v2)                               \
    TEST_CASE(n, x0, 0, li x1, v1; li x2, v2; inst x0, x1, x2)
#define TEST_IMM(n, inst, result, v1, imm)                              \
    TEST_CASE(n, x14, result, li x1, v1; inst x14, x1, imm)
#define TEST_IMM_SRC_DEST(n, inst, result, v1, imm)                     \
    TEST_CASE(n, x1, result, li x1, v1; inst x1, x1, imm)
#define TEST_IMM_ZERODEST(n, inst, v1, imm)                             \
    TEST_CASE(n, x0, 0, li x1, v1; inst x0, x1, imm)

/* Branches: taken ones must skip the fail jump, not-taken ones must not. */
#define TEST_BR_TAKEN(n, inst, v1, v2)                                  \
    li TESTNUM, n;                                                      \
    li x1, v1;                                                          \
    li x2, v2;                                                          \
    inst x1, x2, 3f;                                                    \
    j fail;                                                             \
3:
#define TEST_BR_NOT_TAKEN(n, inst, v1, v2)                              \
    li TESTNUM, n;                                                      \
    li x1, v1;                                                          \
    li x2, v2;                                                          \
    inst x1, x2, 4f;                                                    \
    j 5f;                                                               \
4:  j fail;                                                             \
5:

/* Traps.  INSTALL_TRAP_HANDLER points mtvec at a handler that records
 * mcause, mepc, mtval and mstatus in x21, x22, x23, x25 and resumes two
 * instructions after the trapping one (past the "j fail" that follows it
 * in EXPECT_TRAP). */
#define INSTALL_TRAP_HANDLER                                            \
    la t5, trap_handler;                                                \
    csrw mtvec, t5

#define TRAP_HANDLER                                                    \
    .balign 4;                                                          \
trap_handler:                                                           \
    csrr x21, mcause;                                                   \
    csrr x22, mepc;                                                     \
    csrr x23, mtval;                                                    \
    csrr x25, mstatus;                                                  \
    addi x24, x22, 8;                                                   \
    csrw mepc, x24;                                                     \
    mret

/* The instruction(s) must trap with `cause` at their first instruction
 * (label 6), mtval equal to the register tvalreg. */
#define EXPECT_TRAP_R(n, cause, tvalreg, ...)                           \
    li TESTNUM, n;                                                      \
    li x21, -1;                                                         \
    la x20, 6f;                                                         \
6:  __VA_ARGS__;                                                        \
    j fail;                                                             \
    CHECK(x21, cause);                                                  \
    bne x22, x20, fail;                                                 \
    bne x23, tvalreg, fail
#define EXPECT_TRAP(n, cause, ...) EXPECT_TRAP_R(n, cause, x0, __VA_ARGS__)

#endif

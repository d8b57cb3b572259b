/* SPDX-License-Identifier: Apache-2.0 */
/* isa_branch.S - RV32I conditional branches, taken and not taken, at the
 * signed and unsigned extremes, forward and backward, with rs1 == rs2. */
#include "isa_test.h"

    TEST_BEGIN

    # beq / bne
    TEST_BR_TAKEN(2, beq, 0, 0)
    TEST_BR_TAKEN(3, beq, 0xffffffff, 0xffffffff)
    TEST_BR_TAKEN(4, beq, 0x80000000, 0x80000000)
    TEST_BR_NOT_TAKEN(5, beq, 0, 1)
    TEST_BR_NOT_TAKEN(6, beq, 0x80000000, 0x00000000)
    TEST_BR_NOT_TAKEN(7, beq, 0x00000001, 0x80000001)
    TEST_BR_TAKEN(8, bne, 0, 1)
    TEST_BR_TAKEN(9, bne, 0x80000000, 0)
    TEST_BR_TAKEN(10, bne, 0xfffffffe, 0xffffffff)
    TEST_BR_NOT_TAKEN(11, bne, 0, 0)
    TEST_BR_NOT_TAKEN(12, bne, 0xffffffff, 0xffffffff)

    # blt / bge: signed
    TEST_BR_TAKEN(20, blt, 0, 1)
    TEST_BR_TAKEN(21, blt, 0xffffffff, 0)
    TEST_BR_TAKEN(22, blt, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(23, blt, 0x80000000, 0xffffffff)
    TEST_BR_TAKEN(24, blt, 0xfffffffe, 0xffffffff)
    TEST_BR_NOT_TAKEN(25, blt, 1, 0)
    TEST_BR_NOT_TAKEN(26, blt, 0x7fffffff, 0x80000000)
    TEST_BR_NOT_TAKEN(27, blt, 0, 0xffffffff)
    TEST_BR_NOT_TAKEN(28, blt, 0x80000000, 0x80000000)
    TEST_BR_TAKEN(30, bge, 0, 0)
    TEST_BR_TAKEN(31, bge, 1, 0)
    TEST_BR_TAKEN(32, bge, 0x7fffffff, 0x80000000)
    TEST_BR_TAKEN(33, bge, 0, 0xffffffff)
    TEST_BR_TAKEN(34, bge, 0x80000000, 0x80000000)
    TEST_BR_NOT_TAKEN(35, bge, 0xffffffff, 0)
    TEST_BR_NOT_TAKEN(36, bge, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(37, bge, 0xfffffffe, 0xffffffff)

    # bltu / bgeu: unsigned
    TEST_BR_TAKEN(40, bltu, 0, 1)
    TEST_BR_TAKEN(41, bltu, 0, 0xffffffff)
    TEST_BR_TAKEN(42, bltu, 0x7fffffff, 0x80000000)
    TEST_BR_TAKEN(43, bltu, 0xfffffffe, 0xffffffff)
    TEST_BR_NOT_TAKEN(44, bltu, 0xffffffff, 0)
    TEST_BR_NOT_TAKEN(45, bltu, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(46, bltu, 0x80000000, 0x80000000)
    TEST_BR_NOT_TAKEN(47, bltu, 1, 0)
    TEST_BR_TAKEN(50, bgeu, 0, 0)
    TEST_BR_TAKEN(51, bgeu, 0xffffffff, 0)
    TEST_BR_TAKEN(52, bgeu, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(53, bgeu, 0xffffffff, 0xffffffff)
    TEST_BR_NOT_TAKEN(54, bgeu, 0, 1)
    TEST_BR_NOT_TAKEN(55, bgeu, 0x7fffffff, 0x80000000)
    TEST_BR_NOT_TAKEN(56, bgeu, 0xfffffffe, 0xffffffff)

    # the same register as both operands
    li TESTNUM, 60
    li x1, 0x80000000
    beq x1, x1, 1f
    j fail
1:  bne x1, x1, fail
    blt x1, x1, fail
    bltu x1, x1, fail
    bge x1, x1, 2f
    j fail
2:  bgeu x1, x1, 3f
    j fail
3:

    # backward branches: a loop counting down 5 times, and x0 comparisons
    li TESTNUM, 61
    li x1, 5
    li x2, 0
4:  addi x2, x2, 3
    addi x1, x1, -1
    bne x1, x0, 4b
    CHECK(x2, 15)
    li TESTNUM, 62
    li x1, -3
5:  addi x1, x1, 1
    blt x1, x0, 5b
    CHECK(x1, 0)

    # a far branch (more than 2 KB) forward and back
    li TESTNUM, 63
    j 6f
7:  j 8f
    .skip 3000, 0
6:  li x1, 1
    beq x1, x1, 7b
    j fail
8:

    j pass
    TEST_END

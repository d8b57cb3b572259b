/* SPDX-License-Identifier: Apache-2.0 */
/* isa_jump.S - jal and jalr: link values (pc + 4), targets forward and
 * backward, jalr clearing bit 0 of the target, rd == rs1, x0 as the link
 * register (plain jump), and the immediate of jalr at both signs. */
#include "isa_test.h"

    TEST_BEGIN

    # jal: link = address of the next instruction
    li TESTNUM, 2
    la x2, 1f
    jal x1, 2f
1:  j fail
2:  bne x1, x2, fail

    # jal backward
    li TESTNUM, 3
    j 4f
3:  j 5f
4:  jal x3, 3b
    j fail
5:

    # jal with rd = x0 writes nothing
    TEST_CASE(4, x0, 0, jal x0, 6f; 6:)

    # jalr: link, target, negative and positive offsets
    li TESTNUM, 5
    la x5, 7f
    la x6, 8f
    jalr x1, 0(x5)
8:  j fail
7:  bne x1, x6, fail
    li TESTNUM, 6
    la x5, 9f + 16
    jalr x1, -16(x5)
    j fail
9:  li TESTNUM, 7
    la x5, 10f - 8
    jalr x0, 8(x5)
    j fail
10:

    # jalr clears bit 0 of rs1 + imm
    li TESTNUM, 8
    la x5, 11f
    addi x5, x5, 1
    jalr x1, 0(x5)
    j fail
11: li TESTNUM, 9
    la x5, 12f
    jalr x1, 1(x5)
    j fail
12:

    # rd == rs1: the target uses the old value
    li TESTNUM, 10
    la x1, 13f
    la x2, 14f
    jalr x1, 0(x1)
14: j fail
13: bne x1, x2, fail

    # call/return through ra, nested
    li TESTNUM, 11
    li x10, 0
    call func_a
    CHECK(x10, 0x21)

    j pass

func_a:
    addi sp, sp, -16
    sw ra, 12(sp)
    addi x10, x10, 1
    call func_b
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
func_b:
    addi x10, x10, 0x20
    ret

    TEST_END

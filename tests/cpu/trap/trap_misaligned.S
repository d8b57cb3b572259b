/* SPDX-License-Identifier: Apache-2.0 */
/* trap_misaligned.S - misaligned loads (mcause 4), stores (6) and jump
 * targets (0): mepc at the instruction, mtval the address or target, no
 * register or memory change; naturally aligned accesses at the same bytes
 * do not trap; a not-taken branch to a misaligned target does not trap. */
#include "isa_test.h"

    TEST_BEGIN
    INSTALL_TRAP_HANDLER
    la x1, buf
    li x2, 0x11223344
    sw x2, 0(x1)
    sw x2, 4(x1)

    /* loads */
    addi x3, x1, 1
    EXPECT_TRAP_R(2, 4, x3, lh x14, 1(x1))
    EXPECT_TRAP_R(3, 4, x3, lhu x14, 1(x1))
    EXPECT_TRAP_R(4, 4, x3, lw x14, 1(x1))
    addi x3, x1, 2
    EXPECT_TRAP_R(5, 4, x3, lw x14, 2(x1))
    addi x3, x1, 3
    EXPECT_TRAP_R(6, 4, x3, lh x14, 3(x1))
    EXPECT_TRAP_R(7, 4, x3, lw x14, 3(x1))
    addi x3, x1, 9
    EXPECT_TRAP_R(8, 4, x3, lw x14, 9(x1))
    /* the destination is not written */
    li x14, 0x5a5a
    addi x3, x1, 1
    EXPECT_TRAP_R(9, 4, x3, lw x14, 1(x1))
    CHECK(x14, 0x5a5a)
    /* stores, and memory unchanged */
    addi x3, x1, 1
    EXPECT_TRAP_R(10, 6, x3, sh x0, 1(x1))
    EXPECT_TRAP_R(11, 6, x3, sw x0, 1(x1))
    addi x3, x1, 2
    EXPECT_TRAP_R(12, 6, x3, sw x0, 2(x1))
    addi x3, x1, 3
    EXPECT_TRAP_R(13, 6, x3, sh x0, 3(x1))
    EXPECT_TRAP_R(14, 6, x3, sw x0, 3(x1))
    TEST_CASE(15, x14, 0x11223344, lw x14, 0(x1))
    TEST_CASE(16, x14, 0x11223344, lw x14, 4(x1))
    /* aligned neighbours work */
    TEST_CASE(17, x14, 0x1122, lhu x14, 2(x1))
    TEST_CASE(18, x14, 0x22, lbu x14, 2(x1); li x21, -1; sb x0, 3(x1); sh x0, 2(x1); lb x15, 1(x1); CHECK(x21, -1))

    /* jal / jalr to an address with bit 1 set: trap at the jump, no link */
    li x14, 0x5a5a
    la x3, 1f + 2
    EXPECT_TRAP_R(20, 0, x3, jal x14, 1f + 2)
    CHECK(x14, 0x5a5a)
1:  nop
    nop
    la x3, 2f + 2
    EXPECT_TRAP_R(21, 0, x3, jalr x14, 0(x3))
    CHECK(x14, 0x5a5a)
2:  nop
    nop
    /* jalr: bit 0 is cleared first, bit 1 traps, mtval has bit 0 clear */
    la x4, 3f + 3
    la x3, 3f + 2
    EXPECT_TRAP_R(22, 0, x3, jalr x14, 0(x4))
3:  nop
    nop
    /* jalr to bit 0 only: no trap */
    la x4, 4f + 1
    TEST_CASE(23, x21, -1, li x21, -1; jalr x14, 0(x4); j fail; 4:)
    /* taken branch to a misaligned target traps, mtval = target */
    la x3, 5f + 2
    EXPECT_TRAP_R(24, 0, x3, beq x0, x0, 5f + 2)
5:  nop
    nop
    la x3, 7f + 2
    EXPECT_TRAP_R(25, 0, x3, bltu x0, x1, 7f + 2)
7:  nop
    nop
    /* not taken: no trap */
    TEST_CASE(26, x21, -1, li x21, -1; bne x0, x0, 8f + 2; nop; 8: nop; nop)

    j pass
    TRAP_HANDLER
    TEST_END

    .data
    .balign 4
buf:
    .word 0, 0, 0, 0

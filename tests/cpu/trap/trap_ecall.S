/* SPDX-License-Identifier: Apache-2.0 */
/* trap_ecall.S - ecall (mcause 11) and ebreak (3): mepc at the instruction,
 * mtval 0, nothing retired (minstret), mstatus MIE -> MPIE and back with
 * mret (MPIE then 1), mret to an address set by software, and traps from
 * inside a loop resuming it. */
#include "isa_test.h"

    TEST_BEGIN
    INSTALL_TRAP_HANDLER

    EXPECT_TRAP(2, 11, ecall)
    EXPECT_TRAP(3, 3, ebreak)
    li x1, -1
    csrw mtval, x1
    EXPECT_TRAP(4, 11, ecall)
    li x1, -1
    csrw mtval, x1
    EXPECT_TRAP(5, 3, ebreak)

    /* a trapping instruction does not retire: between the two reads count
     * the first read and the handler's 7 instructions, not the ecall */
    li TESTNUM, 6
    csrr x1, minstret
    ecall
    j fail
    csrr x2, minstret
    sub x3, x2, x1
    CHECK(x3, 8)

    /* mstatus: MIE=1 before the trap -> MPIE=1, MIE=0 inside, MIE=1 after */
    li TESTNUM, 7
    csrw mie, x0            /* no interrupt sources */
    csrsi mstatus, 8
    EXPECT_TRAP(8, 11, ecall)
    CHECK(x25, 0x1880)
    li TESTNUM, 9
    csrr x1, mstatus
    CHECK(x1, 0x1888)
    csrci mstatus, 8
    /* MIE=0 before: MPIE=0 inside, and mret sets MPIE to 1 */
    EXPECT_TRAP(10, 3, ebreak)
    CHECK(x25, 0x1800)
    li TESTNUM, 11
    csrr x1, mstatus
    CHECK(x1, 0x1880)
    csrci mstatus, 0     /* no-op form */
    li x1, 0x80
    csrc mstatus, x1

    /* mret jumps to mepc, whatever put it there */
    li TESTNUM, 12
    la x1, 1f
    csrw mepc, x1
    mret
    j fail
1:
    /* mret restores MIE from MPIE: MPIE=1 -> MIE=1 */
    li TESTNUM, 13
    la x1, 2f
    csrw mepc, x1
    li x1, 0x80
    csrs mstatus, x1
    mret
2:  csrr x1, mstatus
    CHECK(x1, 0x1888)
    csrci mstatus, 8

    /* ecalls in a loop: each resumes the loop */
    li TESTNUM, 14
    li x5, 4
    li x6, 0
3:  ecall
    j 4f         /* skipped by the handler (it resumes 8 bytes on) */
    addi x6, x6, 1
    addi x5, x5, -1
    bnez x5, 3b
    CHECK(x6, 4)
    j 5f
4:  j fail
5:

    j pass
    TRAP_HANDLER
    TEST_END

/* SPDX-License-Identifier: Apache-2.0 */
/* trap_fault.S - bus errors: loads (mcause 5) and stores (7) outside RAM and
 * at MMIO offsets that do not exist, with mtval the address; instruction
 * fetches from outside RAM and from the MMIO page (1) with mepc the target
 * and mtval 0; the faulting load leaves rd alone and the store writes
 * nothing. */
#include "isa_test.h"

    TEST_BEGIN
    la t5, fault_handler
    csrw mtvec, t5

    li x3, 0x00020000                     /* just past 64 KB of RAM */
    EXPECT_TRAP_R(2, 5, x3, lw x14, 0(x3))
    EXPECT_TRAP_R(3, 7, x3, sw x0, 0(x3))
    li x3, 0x80000000
    EXPECT_TRAP_R(4, 5, x3, lb x14, 0(x3))
    EXPECT_TRAP_R(5, 7, x3, sb x0, 0(x3))
    li x3, 0xfffffffc
    EXPECT_TRAP_R(6, 5, x3, lw x14, 0(x3))
    li x3, PTPU_MMIO_BASE + 0x40          /* past the MMIO registers */
    EXPECT_TRAP_R(7, 5, x3, lw x14, 0(x3))
    EXPECT_TRAP_R(8, 7, x3, sw x0, 0(x3))
    li x3, PTPU_MMIO_BASE + 0x1000        /* the next page */
    EXPECT_TRAP_R(9, 5, x3, lhu x14, 0(x3))
    /* rd untouched */
    li x14, 0x5a5a
    li x3, 0x40000000
    EXPECT_TRAP_R(10, 5, x3, lw x14, 0(x3))
    CHECK(x14, 0x5a5a)
    /* an MMIO register that exists works */
    li TESTNUM, 11
    li x3, PTPU_MTIME_LO
    lw x14, 0(x3)
    lw x15, 0(x3)
    bgeu x14, x15, fail

    /* instruction fetch faults: the handler returns to ra */
    li x3, 0x00100000
    li x24, 0
    li TESTNUM, 20
    jalr ra, 0(x3)
    CHECK(x21, 1)
    bne x22, x3, fail
    CHECK(x23, 0)
    li x3, PTPU_MMIO_BASE
    li TESTNUM, 21
    jalr ra, 0(x3)
    CHECK(x21, 1)
    bne x22, x3, fail
    /* falling off the end of RAM */
    li x3, 0xfffc
    li x4, 0x0000006f                     /* j . is not needed: nop */
    li x4, 0x00000013
    sw x4, 0(x3)
    li TESTNUM, 22
    la ra, 1f
    jr x3
1:  CHECK(x21, 1)
    li x4, 0x10000
    bne x22, x4, fail

    j pass

    /* Records the trap like TRAP_HANDLER; a fetch fault returns to ra, an
     * access fault skips two instructions. */
    .balign 4
fault_handler:
    csrr x21, mcause
    csrr x22, mepc
    csrr x23, mtval
    li x25, 1
    bne x21, x25, 2f
    csrw mepc, ra
    mret
2:  addi x24, x22, 8
    csrw mepc, x24
    mret

    TEST_END

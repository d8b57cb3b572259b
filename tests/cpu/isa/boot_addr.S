/* SPDX-License-Identifier: Apache-2.0 */
/* boot_addr.S - for a core built with BootAddr = 0x100: execution starts
 * there (the word at 0 would trap), and mtvec starts at the boot address, so
 * a trap before software sets mtvec re-enters at 0x100. */
#include "isa_test.h"

    .section .text.start, "ax"
    .globl _start
_start:
    .word 0                         /* not executed */
    .org 0x100
boot:
    li TESTNUM, 2
    csrr x1, mtvec
    CHECK(x1, 0x100)
    li TESTNUM, 3
    la x2, 1f
1:  auipc x1, 0
    bne x1, x2, fail
    /* first pass: mcause is 0 after reset, so the illegal word below traps
     * to mtvec = 0x100 and the program starts over with mcause 2 */
    li TESTNUM, 4
    csrr x2, mcause
    li x3, 2
    beq x2, x3, 2f
bad:
    .word 0
    j fail
2:  csrr x4, mepc
    la x5, bad
    bne x4, x5, fail
    j pass
    TEST_END

/* SPDX-License-Identifier: Apache-2.0 */
/* trap_irq.S - interrupts: mip follows the lines; nothing is taken while
 * mstatus.MIE or the mie bit is clear; once enabled, the interrupt is taken
 * before the next instruction (mepc = that instruction, mcause = interrupt
 * bit | 11 or 7, mtval 0) and mret resumes it; external before timer when
 * both are pending; interrupts arriving during loops of loads, stores,
 * shifts and branches leave their results intact; wfi waits for one. */
#include "isa_test.h"

#define IRQ_LINE(v) li x28, PTPU_IRQ; li x27, v; sw x27, 0(x28)

    TEST_BEGIN
    la t5, irq_handler
    csrw mtvec, t5
    li x26, 0                       /* interrupts taken */
    li x29, 0                       /* timer interrupts taken */

    /* line up, nothing enabled: mip.MEIP = 1, no trap */
    li TESTNUM, 2
    IRQ_LINE(1)
    nop
    csrr x1, mip
    CHECK(x1, 0x800)
    /* mie.MEIE alone: still nothing */
    li TESTNUM, 3
    li x1, 0x800
    csrw mie, x1
    nop
    nop
    CHECK(x26, 0)
    /* mstatus.MIE alone (MEIE clear): nothing */
    li TESTNUM, 4
    csrw mie, x0
    csrsi mstatus, 8
    nop
    nop
    CHECK(x26, 0)
    csrci mstatus, 8

    /* both: taken right after the enabling instruction */
    li TESTNUM, 5
    li x1, 0x800
    csrw mie, x1
    la x20, 1f
    csrsi mstatus, 8
1:  addi x7, x0, 7
    CHECK(x26, 1)
    li TESTNUM, 6
    li x1, 0x8000000b
    bne x21, x1, fail
    bne x22, x20, fail
    CHECK(x23, 0)
    CHECK(x7, 7)                    /* the interrupted instruction ran after */
    li TESTNUM, 7
    csrr x1, mstatus
    CHECK(x1, 0x1888)               /* mret restored MIE */
    li TESTNUM, 8
    csrr x1, mip
    CHECK(x1, 0)                    /* the handler lowered the line */

    /* enabling through mie with MIE already set */
    li TESTNUM, 9
    csrw mie, x0
    IRQ_LINE(1)
    nop
    CHECK(x26, 1)
    li x1, 0x800
    la x20, 2f
    csrw mie, x1
2:  nop
    CHECK(x26, 2)
    li TESTNUM, 10
    bne x22, x20, fail

    /* timer: mtimecmp in the past -> taken */
    li TESTNUM, 11
    li x1, 0x80
    csrw mie, x1
    li x2, PTPU_MTIMECMP_LO
    sw x0, 4(x2)
    sw x0, 0(x2)
    nop
    nop
    nop
    CHECK(x29, 1)
    li TESTNUM, 12
    li x1, 0x80000007
    bne x21, x1, fail
    CHECK(x23, 0)

    /* both pending: external first, then timer */
    li TESTNUM, 13
    csrci mstatus, 8
    IRQ_LINE(1)
    li x2, PTPU_MTIMECMP_LO
    sw x0, 4(x2)
    sw x0, 0(x2)
    nop
    li x1, 0x880
    csrw mie, x1
    li x8, 0                        /* order of the causes taken */
    csrsi mstatus, 8
    nop
    nop
    li x1, 0xb7                     /* external (0xb) then timer (0x7) */
    bne x8, x1, fail
    CHECK(x26, 5)

    /* interrupts arriving during busy loops: the loops finish correctly */
    li TESTNUM, 14
    li x1, 0x800
    csrw mie, x1
    la x10, src
    la x11, dst
    li x12, 64                      /* words to copy */
    li x1, PTPU_IRQ_DELAY
    li x2, 37
    sw x2, 0(x1)
3:  lw x13, 0(x10)
    sw x13, 0(x11)
    addi x10, x10, 4
    addi x11, x11, 4
    addi x12, x12, -1
    bnez x12, 3b
    li TESTNUM, 15
    CHECK(x26, 6)
    li TESTNUM, 16
    la x10, src
    la x11, dst
    li x12, 64
4:  lw x13, 0(x10)
    lw x14, 0(x11)
    bne x13, x14, fail
    addi x10, x10, 4
    addi x11, x11, 4
    addi x12, x12, -1
    bnez x12, 4b
    /* shifts (multi-cycle) */
    li TESTNUM, 17
    li x1, PTPU_IRQ_DELAY
    li x2, 23
    sw x2, 0(x1)
    li x3, 0
    li x5, 0x80000000
    li x6, 20
5:  srai x4, x5, 31
    srli x7, x5, 17
    sll x9, x7, x6
    add x3, x3, x4
    add x3, x3, x7
    add x3, x3, x9
    addi x6, x6, -1
    bnez x6, 5b
    CHECK(x26, 7)
    li TESTNUM, 18
    /* sum over s = 20..1 of 0xffffffff + 0x4000 + (0x4000 << s), mod 2^32 */
    CHECK(x3, 0x00047fec)

    /* wfi waits for (or falls through to) the delayed interrupt */
    li TESTNUM, 19
    li x1, PTPU_IRQ_DELAY
    li x2, 50
    sw x2, 0(x1)
6:  wfi
    li x1, 8
    bne x26, x1, 6b
    CHECK(x26, 8)

    csrci mstatus, 8
    csrw mie, x0
    j pass

    .balign 4
irq_handler:
    csrr x21, mcause
    csrr x22, mepc
    csrr x23, mtval
    bgez x21, unexpected_trap
    addi x26, x26, 1
    andi x27, x21, 0xf
    slli x8, x8, 4
    or x8, x8, x27
    li x28, 7
    beq x27, x28, 7f
    li x28, PTPU_IRQ                /* external: lower the line */
    sw x0, 0(x28)
    mret
7:  addi x29, x29, 1                /* timer: compare value to all ones */
    li x28, PTPU_MTIMECMP_LO
    li x27, -1
    sw x27, 4(x28)
    sw x27, 0(x28)
    mret

    TEST_END

    .data
    .balign 4
src:
    .rept 64
    .word (0x9e3779b9 * (. - src + 1)) & 0xffffffff
    .endr
dst:
    .space 256

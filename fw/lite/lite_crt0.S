/* SPDX-License-Identifier: Apache-2.0 */
/* lite_crt0.S - reset entry of the picotpu-lite firmware: gp, sp, trap vector, .bss
 * (in the SPRAM; .data is in the image), main().  It uses no constructors, stdio or
 * thread-local data, so the platform layer of fw/src is not linked (ROM space).
 * Any trap ends in lite_trap: EXIT = 0x100 + mcause (the board's fault LED), then a
 * halt. */
    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      t0, lite_trap
    csrw    mtvec, t0
    csrw    mie, zero
    csrw    mstatus, zero
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    main
    j       lite_trap

    .balign 4
lite_trap:
    csrr    a0, mcause
    addi    a0, a0, 0x100
    li      t0, 0x10000004          /* LITE_PLATFORM_EXIT */
    sw      a0, 0(t0)
3:  j       3b

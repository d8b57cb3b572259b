/* SPDX-License-Identifier: Apache-2.0 */
/* crt0.S - reset entry of every C firmware image: registers, trap vector,
 * bss, constructors, main(), exit().
 *
 * With -DPTPU_CRT0_BARE (the picotpu-lite firmware, fw/lite/lite.mk) it is the
 * start-up of an image without the platform layer of fw/src (ROM space): no
 * thread pointer, constructors or exit(); the trap vector is crt0_trap below,
 * which also ends a return from main: EXIT = 0x100 + mcause (the lite board's
 * fault LED), then a halt. */
#include "ptpu_csr.h"
#include "ptpu_sim.h"

    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
#ifdef PTPU_CRT0_BARE
    la      t0, crt0_trap
#else
    la      tp, __tls_base
    la      t0, ptpu_trap_entry
#endif
    csrw    mtvec, t0
    csrw    mie, zero
    csrw    mstatus, zero

    /* Zero .tbss and .bss (the loader only writes the image). */
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:
#ifdef PTPU_CRT0_BARE
    call    main
    j       crt0_trap

    .balign 4
crt0_trap:
    csrr    a0, mcause
    addi    a0, a0, 0x100
    li      t0, PTPU_EXIT
    sw      a0, 0(t0)
3:  j       3b
#else
    call    __libc_init_array
    li      a0, 0
    li      a1, 0
    call    main
    call    exit
3:  j       3b
#endif

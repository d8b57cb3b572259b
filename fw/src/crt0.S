/* SPDX-License-Identifier: Apache-2.0 */
/* crt0.S - reset entry of every C firmware image: registers, trap vector,
 * bss, constructors, main(), exit(). */
#include "ptpu_csr.h"

    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base
    la      t0, ptpu_trap_entry
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
    call    __libc_init_array
    li      a0, 0
    li      a1, 0
    call    main
    call    exit
3:  j       3b

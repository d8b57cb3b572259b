/* SPDX-License-Identifier: Apache-2.0 */
/* isa_no_m.S - without the M extension (EnableM=0) every RV32M encoding is
 * an illegal instruction: mcause 2, mtval 0, mepc the instruction, rd not
 * written; misa does not report M. */
#include "isa_test.h"

#define EXPECT_ILLEGAL(n, insn)                                         \
    li TESTNUM, n;                                                      \
    li x14, 0x5a5a;                                                     \
    la x20, 6f;                                                         \
6:  insn;                                                               \
    j fail;                                                             \
    CHECK(x21, 2);                                                      \
    bne x22, x20, fail;                                                 \
    CHECK(x23, 0);                                                      \
    CHECK(x14, 0x5a5a)

    TEST_BEGIN
    la x1, handler
    csrw mtvec, x1

    TEST_CASE(1, x14, 0, csrr x14, misa; li x1, 0x1000; and x14, x14, x1)
    li x1, 7
    li x2, 3
    EXPECT_ILLEGAL(2, .word 0x02208733)  /* mul    x14, x1, x2 */
    EXPECT_ILLEGAL(3, .word 0x02209733)  /* mulh   x14, x1, x2 */
    EXPECT_ILLEGAL(4, .word 0x0220a733)  /* mulhsu x14, x1, x2 */
    EXPECT_ILLEGAL(5, .word 0x0220b733)  /* mulhu  x14, x1, x2 */
    EXPECT_ILLEGAL(6, .word 0x0220c733)  /* div    x14, x1, x2 */
    EXPECT_ILLEGAL(7, .word 0x0220d733)  /* divu   x14, x1, x2 */
    EXPECT_ILLEGAL(8, .word 0x0220e733)  /* rem    x14, x1, x2 */
    EXPECT_ILLEGAL(9, .word 0x0220f733)  /* remu   x14, x1, x2 */
    j pass

    /* Records mcause, mepc, mtval in x21-x23 and resumes two instructions
     * after the trapping one (past its "j fail"). */
    .balign 4
handler:
    csrr x21, mcause
    csrr x22, mepc
    csrr x23, mtval
    addi x24, x22, 8
    csrw mepc, x24
    mret

    TEST_END

/* SPDX-License-Identifier: Apache-2.0 */
/* trap_illegal.S - illegal instructions trap with mcause 2, mtval 0 and mepc
 * at the instruction, without writing rd: reserved opcodes, reserved funct3
 * and funct7 values of every major opcode, the 16-bit space, the system
 * instructions the core does not have, missing CSRs and writes to read-only
 * ones.  Legal neighbours of those encodings (csrrs rd, ro-csr, x0) must not
 * trap. */
#include "isa_test.h"

    TEST_BEGIN
    INSTALL_TRAP_HANDLER

    EXPECT_TRAP(2, 2, .word 0x00000000)           /* all zero (16-bit space) */
    EXPECT_TRAP(3, 2, .word 0xffffffff)           /* all ones */
    EXPECT_TRAP(4, 2, .word 0x00000001)           /* 16-bit encoding */
    EXPECT_TRAP(5, 2, .word 0x0000000b)           /* custom-0 */
    EXPECT_TRAP(6, 2, .word 0x00000007)           /* load-fp */
    EXPECT_TRAP(7, 2, .word 0x0000002f)           /* amo */
    EXPECT_TRAP(8, 2, .word 0x0000001b)           /* op-imm-32 (rv64) */
    EXPECT_TRAP(9, 2, .word 0x0000003b)           /* op-32 (rv64) */
    EXPECT_TRAP(10, 2, .word 0x00000053)          /* op-fp */
    EXPECT_TRAP(11, 2, .word 0x0000001f)          /* 48-bit encoding */
    EXPECT_TRAP(12, 2, .word 0x0000007f)          /* >= 80-bit encoding */
    EXPECT_TRAP(13, 2, .word 0x00001767)          /* jalr funct3 = 1 */
    EXPECT_TRAP(14, 2, .word 0x00002063)          /* branch funct3 = 2 */
    EXPECT_TRAP(15, 2, .word 0x00003063)          /* branch funct3 = 3 */
    EXPECT_TRAP(16, 2, .word 0x00003703)          /* load funct3 = 3 (ld) */
    EXPECT_TRAP(17, 2, .word 0x00006703)          /* load funct3 = 6 (lwu) */
    EXPECT_TRAP(18, 2, .word 0x00007703)          /* load funct3 = 7 */
    EXPECT_TRAP(19, 2, .word 0x00003023)          /* store funct3 = 3 (sd) */
    EXPECT_TRAP(20, 2, .word 0x00004023)          /* store funct3 = 4 */
    EXPECT_TRAP(21, 2, .word 0x02009713)          /* slli with funct7 = 1 */
    EXPECT_TRAP(22, 2, .word 0x4000d713 | 0x02000000) /* srai with funct7 = 0x21 */
    EXPECT_TRAP(23, 2, .word 0x00109713 | 0x80000000) /* slli with imm[11] set */
    EXPECT_TRAP(24, 2, .word 0x40209733)          /* sub-style funct7 on sll */
    EXPECT_TRAP(25, 2, .word 0x4020c733)          /* sub-style funct7 on xor */
    EXPECT_TRAP(26, 2, .word 0x80208733)          /* add with funct7 = 0x40 */
    EXPECT_TRAP(27, 2, .word 0x0000200f)          /* misc-mem funct3 = 2 */
    EXPECT_TRAP(28, 2, .word 0x00004073)          /* system funct3 = 4 */
    EXPECT_TRAP(29, 2, .word 0x10200073)          /* sret */
    EXPECT_TRAP(30, 2, .word 0x00200073)          /* uret */
    EXPECT_TRAP(31, 2, .word 0x7b200073)          /* dret */
    EXPECT_TRAP(32, 2, .word 0x12000073)          /* sfence.vma */
    EXPECT_TRAP(33, 2, .word 0x00000873)          /* ecall with rd != 0 */
    EXPECT_TRAP(34, 2, .word 0x00108073)          /* ebreak with rs1 != 0 */
    EXPECT_TRAP(35, 2, .word 0x30200473)          /* mret with rd != 0 */
    EXPECT_TRAP(36, 2, .word 0x10500073 | 0x00000080) /* wfi with rd != 0 */
    /* CSRs that do not exist */
    EXPECT_TRAP(40, 2, csrr x14, 0x7c0)
    EXPECT_TRAP(41, 2, csrr x14, sstatus)
    EXPECT_TRAP(42, 2, csrr x14, satp)
    EXPECT_TRAP(43, 2, csrr x14, time)
    EXPECT_TRAP(44, 2, csrr x14, mcountinhibit)
    EXPECT_TRAP(45, 2, csrr x14, mhpmcounter3)
    EXPECT_TRAP(46, 2, csrr x14, 0x345)
    EXPECT_TRAP(47, 2, csrr x14, 0x306)
    EXPECT_TRAP(48, 2, csrwi 0xb01, 0)
    /* writes to read-only CSRs: csrrw always writes; csrrs/c and the
     * immediate forms only with a non-zero rs1/uimm */
    EXPECT_TRAP(50, 2, csrw mhartid, x0)
    EXPECT_TRAP(51, 2, csrrwi x14, mvendorid, 0)
    li x1, 1
    EXPECT_TRAP(52, 2, csrs marchid, x1)
    EXPECT_TRAP(53, 2, csrsi mimpid, 1)
    EXPECT_TRAP(54, 2, csrci cycle, 2)
    EXPECT_TRAP(55, 2, csrw instret, x0)
    EXPECT_TRAP(56, 2, csrw cycleh, x0)
    EXPECT_TRAP(57, 2, csrw instreth, x0)
    /* rd must be untouched */
    li x14, 0x5a5a
    EXPECT_TRAP(60, 2, csrr x14, 0x7c0)
    CHECK(x14, 0x5a5a)
    /* reads of read-only CSRs do not trap */
    TEST_CASE(61, x21, -1, li x21, -1; csrr x1, mhartid; csrrs x1, cycle, x0; csrrci x1, instreth, 0)
    /* mstatus in the handler: MIE cleared, MPIE = old MIE, MPP = 3 */
    EXPECT_TRAP(62, 2, .word 0)
    CHECK(x25, 0x1800)
    csrsi mstatus, 8
    EXPECT_TRAP(63, 2, .word 0)
    CHECK(x25, 0x1880)
    li TESTNUM, 64
    csrr x1, mstatus
    CHECK(x1, 0x1888)
    csrci mstatus, 8

    j pass
    TRAP_HANDLER
    TEST_END

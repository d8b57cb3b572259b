/* SPDX-License-Identifier: Apache-2.0 */
/* isa_imm.S - RV32I register-immediate instructions: addi slti sltiu xori ori
 * andi slli srli srai with immediates at both ends of their range (sign
 * extension of the 12-bit immediate, sltiu's unsigned compare of a
 * sign-extended immediate), and lui/auipc. */
#include "isa_test.h"

    TEST_BEGIN
    # addi
    TEST_IMM(2, addi, 0x00000000, 0x00000000, 0)
    TEST_IMM(3, addi, 0x00000002, 0x00000001, 1)
    TEST_IMM(4, addi, 0x0000000a, 0x00000003, 7)
    TEST_IMM(5, addi, 0xfffff800, 0x00000000, -2048)
    TEST_IMM(6, addi, 0x000007ff, 0x00000000, 2047)
    TEST_IMM(7, addi, 0x7fffffff, 0x80000000, -1)
    TEST_IMM(8, addi, 0x80000000, 0x7fffffff, 1)
    TEST_IMM(9, addi, 0x00000000, 0xffffffff, 1)
    TEST_IMM(10, addi, 0x12345000, 0x12345678, -1656)
    TEST_IMM_SRC_DEST(11, addi, 0xfffff800, 0x00000000, -2048)
    TEST_IMM_ZERODEST(12, addi, 0x00000000, -2048)
    # slti
    TEST_IMM(13, slti, 0x00000000, 0x00000000, 0)
    TEST_IMM(14, slti, 0x00000001, 0x00000000, 1)
    TEST_IMM(15, slti, 0x00000000, 0x00000001, 0)
    TEST_IMM(16, slti, 0x00000001, 0x80000000, 2047)
    TEST_IMM(17, slti, 0x00000000, 0x7fffffff, -2048)
    TEST_IMM(18, slti, 0x00000001, 0xffffffff, 0)
    TEST_IMM(19, slti, 0x00000000, 0x00000000, -1)
    TEST_IMM(20, slti, 0x00000000, 0xfffff800, -2048)
    TEST_IMM(21, slti, 0x00000001, 0xfffff800, -2047)
    TEST_IMM_SRC_DEST(22, slti, 0x00000001, 0x80000000, 2047)
    TEST_IMM_ZERODEST(23, slti, 0x80000000, 2047)
    # sltiu
    TEST_IMM(24, sltiu, 0x00000000, 0x00000000, 0)
    TEST_IMM(25, sltiu, 0x00000001, 0x00000000, 1)
    TEST_IMM(26, sltiu, 0x00000000, 0x00000001, 0)
    TEST_IMM(27, sltiu, 0x00000001, 0x00000000, -1)
    TEST_IMM(28, sltiu, 0x00000000, 0xffffffff, -1)
    TEST_IMM(29, sltiu, 0x00000001, 0xfffffffe, -1)
    TEST_IMM(30, sltiu, 0x00000001, 0x7fffffff, -2048)
    TEST_IMM(31, sltiu, 0x00000000, 0x00000800, 2047)
    TEST_IMM(32, sltiu, 0x00000000, 0x000007ff, 2047)
    TEST_IMM_SRC_DEST(33, sltiu, 0x00000001, 0x00000000, -1)
    TEST_IMM_ZERODEST(34, sltiu, 0x00000000, -1)
    # xori
    TEST_IMM(35, xori, 0xff00f00f, 0x00ff0f00, -241)
    TEST_IMM(36, xori, 0x00ff0ff0, 0x00ff08ff, 1807)
    TEST_IMM(37, xori, 0xedcba987, 0x12345678, -1)
    TEST_IMM(38, xori, 0x00000000, 0xffffffff, -1)
    TEST_IMM_SRC_DEST(39, xori, 0x00000000, 0xffffffff, -1)
    TEST_IMM_ZERODEST(40, xori, 0xffffffff, -1)
    # ori
    TEST_IMM(41, ori, 0xffffff0f, 0xff00ff00, -241)
    TEST_IMM(42, ori, 0x0ff00ff0, 0x0ff00ff0, 240)
    TEST_IMM(43, ori, 0xfffff800, 0x00000000, -2048)
    TEST_IMM(44, ori, 0x80000001, 0x80000000, 1)
    TEST_IMM_SRC_DEST(45, ori, 0x80000001, 0x80000000, 1)
    TEST_IMM_ZERODEST(46, ori, 0x80000000, 1)
    # andi
    TEST_IMM(47, andi, 0xff00ff00, 0xff00ff00, -241)
    TEST_IMM(48, andi, 0x000000f0, 0x0ff00ff0, 240)
    TEST_IMM(49, andi, 0x000007ff, 0xffffffff, 2047)
    TEST_IMM(50, andi, 0x12345000, 0x12345678, -2048)
    TEST_IMM_SRC_DEST(51, andi, 0x12345000, 0x12345678, -2048)
    TEST_IMM_ZERODEST(52, andi, 0x12345678, -2048)
    # slli
    TEST_IMM(53, slli, 0x00000001, 0x00000001, 0)
    TEST_IMM(54, slli, 0x00000002, 0x00000001, 1)
    TEST_IMM(55, slli, 0x80000000, 0x00000001, 31)
    TEST_IMM(56, slli, 0x80000000, 0xffffffff, 31)
    TEST_IMM(57, slli, 0x23456780, 0x12345678, 4)
    TEST_IMM(58, slli, 0x48484000, 0x21212121, 14)
    TEST_IMM(59, slli, 0x00000080, 0x80000001, 7)
    TEST_IMM_SRC_DEST(60, slli, 0x80000000, 0xffffffff, 31)
    TEST_IMM_ZERODEST(61, slli, 0xffffffff, 31)
    # srli
    TEST_IMM(62, srli, 0x80000000, 0x80000000, 0)
    TEST_IMM(63, srli, 0x40000000, 0x80000000, 1)
    TEST_IMM(64, srli, 0x00000001, 0x80000000, 31)
    TEST_IMM(65, srli, 0x00000001, 0xffffffff, 31)
    TEST_IMM(66, srli, 0x01234567, 0x12345678, 4)
    TEST_IMM(67, srli, 0x00008484, 0x21212121, 14)
    TEST_IMM(68, srli, 0x01030303, 0x81818181, 7)
    TEST_IMM_SRC_DEST(69, srli, 0x00000001, 0xffffffff, 31)
    TEST_IMM_ZERODEST(70, srli, 0xffffffff, 31)
    # srai
    TEST_IMM(71, srai, 0x80000000, 0x80000000, 0)
    TEST_IMM(72, srai, 0xc0000000, 0x80000000, 1)
    TEST_IMM(73, srai, 0xffffffff, 0x80000000, 31)
    TEST_IMM(74, srai, 0x00000000, 0x7fffffff, 31)
    TEST_IMM(75, srai, 0xff030303, 0x81818181, 7)
    TEST_IMM(76, srai, 0xffffffff, 0xffffffff, 5)
    TEST_IMM(77, srai, 0x00012345, 0x12345678, 12)
    TEST_IMM_SRC_DEST(78, srai, 0x00000000, 0x7fffffff, 31)
    TEST_IMM_ZERODEST(79, srai, 0x7fffffff, 31)

    # lui: the 20-bit immediate in bits 31:12, low bits zero
    TEST_CASE(100, x14, 0x00000000, lui x14, 0)
    TEST_CASE(101, x14, 0xfffff000, lui x14, 0xfffff)
    TEST_CASE(102, x14, 0x80000000, lui x14, 0x80000)
    TEST_CASE(103, x14, 0x7ffff000, lui x14, 0x7ffff)
    TEST_CASE(104, x14, 0x12345000, li x14, 0x5a5; lui x14, 0x12345)
    TEST_CASE(105, x0, 0, lui x0, 0x12345)

    # auipc: pc-relative, compared with the label the assembler computed
    li TESTNUM, 110
    la x2, 1f
1:  auipc x14, 0
    bne x14, x2, fail
    li TESTNUM, 111
    la x2, 2f
2:  auipc x14, 0x1
    li x3, 0x1000
    sub x14, x14, x3
    bne x14, x2, fail
    li TESTNUM, 112
    la x2, 3f
3:  auipc x14, 0xfffff
    li x3, 0x1000
    add x14, x14, x3
    bne x14, x2, fail
    TEST_CASE(113, x0, 0, auipc x0, 0x10)

    j pass
    TEST_END

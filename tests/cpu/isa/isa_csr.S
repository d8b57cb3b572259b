/* SPDX-License-Identifier: Apache-2.0 */
/* isa_csr.S - the CSR instructions (csrrw/s/c and the immediate forms) and
 * every CSR of the core: read/write masks, read-only registers, exact
 * minstret counting, mcycle counting, the 64-bit carries into mcycleh and
 * minstreth, the user-level aliases, and fence / fence.i / wfi as no-ops. */
#include "isa_test.h"

    TEST_BEGIN

    # mscratch: csrrw returns the old value
    TEST_CASE(2, x14, 0, csrw mscratch, x0; li x1, 0x12345678; csrrw x14, mscratch, x1)
    TEST_CASE(3, x14, 0x12345678, csrr x14, mscratch)
    TEST_CASE(4, x14, 0x12345678, li x1, 0x0000ff0f; csrrs x14, mscratch, x1)
    TEST_CASE(5, x14, 0x1234ff7f, csrr x14, mscratch)
    TEST_CASE(6, x14, 0x1234ff7f, li x1, 0xff00000f; csrrc x14, mscratch, x1)
    TEST_CASE(7, x14, 0x0034ff70, csrr x14, mscratch)
    TEST_CASE(8, x14, 0x0034ff70, csrrwi x14, mscratch, 0x1f)
    TEST_CASE(9, x14, 0x0000001f, csrrsi x14, mscratch, 0x10)
    TEST_CASE(10, x14, 0x0000001f, csrrci x14, mscratch, 0x05)
    TEST_CASE(11, x14, 0x0000001a, csrrsi x14, mscratch, 0)
    TEST_CASE(12, x14, 0x0000001a, csrrci x14, mscratch, 0)
    TEST_CASE(13, x14, 0x0000001a, csrr x14, mscratch)
    # rd == rs1: the old value goes to rd, the CSR gets the register's old value
    TEST_CASE(14, x1, 0x0000001a, li x1, 0x5555; csrrw x1, mscratch, x1)
    TEST_CASE(15, x14, 0x5555, csrr x14, mscratch)
    # rd = x0 writes no register
    TEST_CASE(16, x0, 0, li x1, 7; csrrw x0, mscratch, x1)
    TEST_CASE(17, x14, 7, csrr x14, mscratch)

    # read-only identification registers and misa (M checked by the M tests)
    TEST_CASE(20, x14, 0, csrr x14, mhartid)
    TEST_CASE(21, x14, 0, csrr x14, mvendorid)
    TEST_CASE(22, x14, 0, csrr x14, marchid)
    TEST_CASE(23, x14, 0, csrr x14, mimpid)
    TEST_CASE(24, x14, 0x40000100, csrr x14, misa; li x1, ~0x1000; and x14, x14, x1)
    TEST_CASE(25, x14, 0, csrrsi x14, mhartid, 0)
    TEST_CASE(26, x14, 0, csrrc x14, mhartid, x0)
    # misa and mstatush ignore writes
    TEST_CASE(27, x14, 0x40000100, csrw misa, x0; csrr x14, misa; li x1, ~0x1000; and x14, x14, x1)
    TEST_CASE(28, x14, 0, li x1, -1; csrw mstatush, x1; csrr x14, mstatush)

    # mstatus: MIE, MPIE writable, MPP reads 3, all else zero
    TEST_CASE(30, x14, 0x00001888, li x1, -1; csrw mstatus, x1; csrr x14, mstatus)
    TEST_CASE(31, x14, 0x00001800, csrw mstatus, x0; csrr x14, mstatus)
    TEST_CASE(32, x14, 0x00001808, csrsi mstatus, 8; csrr x14, mstatus)
    TEST_CASE(33, x14, 0x00001800, csrci mstatus, 8; csrr x14, mstatus)
    # mie: MEIE, MTIE; mip: reads the (idle) lines, ignores writes
    TEST_CASE(34, x14, 0x00000880, li x1, -1; csrw mie, x1; csrr x14, mie)
    TEST_CASE(35, x14, 0, csrw mie, x0; csrr x14, mie)
    TEST_CASE(36, x14, 0, li x1, -1; csrw mip, x1; csrr x14, mip)
    # mtvec (direct mode only) and mepc keep bits 1:0 zero; mcause keeps
    # bit 31 and bits 3:0; mtval keeps everything
    TEST_CASE(37, x14, 0x12345674, csrr x2, mtvec; li x1, 0x12345677; csrw mtvec, x1; csrr x14, mtvec; csrw mtvec, x2)
    TEST_CASE(38, x14, 0xfffffffc, li x1, -1; csrw mepc, x1; csrr x14, mepc)
    TEST_CASE(39, x14, 0x00000004, li x1, 6; csrw mepc, x1; csrr x14, mepc)
    TEST_CASE(40, x14, 0x8000000f, li x1, -1; csrw mcause, x1; csrr x14, mcause)
    TEST_CASE(41, x14, 0x0000000a, li x1, 0x7ffffffa; csrw mcause, x1; csrr x14, mcause)
    TEST_CASE(42, x14, 0xdeadbeef, li x1, 0xdeadbeef; csrw mtval, x1; csrr x14, mtval)

    # minstret counts every retired instruction, the reading one included
    TEST_CASE(50, x14, 4, csrr x1, minstret; nop; nop; nop; csrr x2, minstret; sub x14, x2, x1)
    TEST_CASE(51, x14, 1, csrr x1, minstret; csrr x2, instret; sub x14, x2, x1)
    # a write of minstret takes precedence over its own count
    TEST_CASE(52, x14, 100, li x1, 100; csrw minstret, x1; csrr x14, minstret)
    TEST_CASE(53, x14, 100, li x1, 100; csrw minstret, x1; csrw minstreth, x0; csrr x14, minstret)
    TEST_CASE(54, x14, 0x77, li x1, 0x77; csrw minstreth, x1; csrr x14, minstreth)
    TEST_CASE(55, x14, 0x77, csrr x14, instreth)
    # carry into minstreth: two instructions after 0xfffffffe
    TEST_CASE(56, x14, 6, li x1, 0xfffffffe; li x2, 5; csrw minstret, x1; csrw minstreth, x2; nop; nop; csrr x14, minstreth)
    TEST_CASE(57, x14, 4, csrr x14, minstret)
    # a carry made by the reading instruction itself shows at the next read
    TEST_CASE(58, x14, 0xff, li x1, 0xffffffff; li x2, 0xff; csrw minstret, x1; csrw minstreth, x2; csrr x14, minstreth; csrr x15, minstreth)
    li TESTNUM, 61
    CHECK(x15, 0x100)
    TEST_CASE(59, x14, 0xffffffff, li x1, -1; csrw minstreth, x1; csrr x14, minstreth)
    TEST_CASE(60, x14, 0, li x1, -1; csrw minstret, x1; nop; csrr x14, minstreth)

    # mcycle counts up; cycle aliases it
    li TESTNUM, 70
    csrr x1, mcycle
    nop
    csrr x2, mcycle
    bgeu x1, x2, fail
    li TESTNUM, 71
    csrr x1, mcycle
    csrr x2, cycle
    bgeu x1, x2, fail
    # carry into mcycleh after writing the low half close to the top
    li TESTNUM, 72
    li x1, 0xffffff00
    li x2, 7
    csrw mcycle, x1
    csrw mcycleh, x2
    li x3, 300
1:  addi x3, x3, -1
    bnez x3, 1b
    csrr x4, mcycleh
    csrr x5, mcycle
    csrr x6, cycleh
    CHECK(x4, 8)
    li TESTNUM, 73
    li x1, 0x10000
    bgeu x5, x1, fail
    li TESTNUM, 74
    CHECK(x6, 8)

    # fence, fence.i and wfi retire as no-ops
    TEST_CASE(80, x14, 4, csrr x1, minstret; fence; fence.i; wfi; csrr x2, minstret; sub x14, x2, x1)
    TEST_CASE(81, x14, 3, li x14, 3; fence rw, rw; fence iorw, iorw)

    j pass
    TEST_END

/* SPDX-License-Identifier: Apache-2.0 */
/* isa_mem.S - loads and stores of every width at every aligned offset:
 * lb/lbu at offsets 0-3, lh/lhu at 0 and 2, lw; sign and zero extension;
 * sb/sh/sw touching only their bytes; negative and positive offsets; rd
 * equal to the base register; x0 as the destination of a load. */
#include "isa_test.h"

    TEST_BEGIN

    # loads from the pattern 0x80ff7f01 0xfedcba98
    TEST_CASE(2,  x14, 0x00000001, la x1, pat; lb x14, 0(x1))
    TEST_CASE(3,  x14, 0x0000007f, la x1, pat; lb x14, 1(x1))
    TEST_CASE(4,  x14, 0xffffffff, la x1, pat; lb x14, 2(x1))
    TEST_CASE(5,  x14, 0xffffff80, la x1, pat; lb x14, 3(x1))
    TEST_CASE(6,  x14, 0x00000001, la x1, pat; lbu x14, 0(x1))
    TEST_CASE(7,  x14, 0x0000007f, la x1, pat; lbu x14, 1(x1))
    TEST_CASE(8,  x14, 0x000000ff, la x1, pat; lbu x14, 2(x1))
    TEST_CASE(9,  x14, 0x00000080, la x1, pat; lbu x14, 3(x1))
    TEST_CASE(10, x14, 0x00007f01, la x1, pat; lh x14, 0(x1))
    TEST_CASE(11, x14, 0xffff80ff, la x1, pat; lh x14, 2(x1))
    TEST_CASE(12, x14, 0x00007f01, la x1, pat; lhu x14, 0(x1))
    TEST_CASE(13, x14, 0x000080ff, la x1, pat; lhu x14, 2(x1))
    TEST_CASE(14, x14, 0x80ff7f01, la x1, pat; lw x14, 0(x1))
    TEST_CASE(15, x14, 0xfedcba98, la x1, pat; lw x14, 4(x1))
    TEST_CASE(16, x14, 0xffffffba, la x1, pat + 8; lb x14, -3(x1))
    TEST_CASE(17, x14, 0x0000fedc, la x1, pat + 8; lhu x14, -2(x1))
    TEST_CASE(18, x14, 0xfedcba98, la x1, pat - 2043; lw x14, 2047(x1))
    TEST_CASE(19, x14, 0x80ff7f01, la x1, pat + 2048; lw x14, -2048(x1))
    TEST_CASE(20, x1,  0xffffffdc, la x1, pat; lb x1, 6(x1))
    TEST_CASE(21, x0,  0, la x1, pat; lw x0, 0(x1))

    # sb at every offset leaves the other bytes alone
    TEST_CASE(30, x14, 0x111111aa, la x1, buf; li x2, 0x11111111; sw x2, 0(x1); li x3, 0x123456aa; sb x3, 0(x1); lw x14, 0(x1))
    TEST_CASE(31, x14, 0x1111bb11, la x1, buf; li x2, 0x11111111; sw x2, 0(x1); li x3, 0xbb; sb x3, 1(x1); lw x14, 0(x1))
    TEST_CASE(32, x14, 0x11cc1111, la x1, buf; li x2, 0x11111111; sw x2, 0(x1); li x3, 0xffffffcc; sb x3, 2(x1); lw x14, 0(x1))
    TEST_CASE(33, x14, 0xdd111111, la x1, buf; li x2, 0x11111111; sw x2, 0(x1); li x3, 0xdd; sb x3, 3(x1); lw x14, 0(x1))
    TEST_CASE(34, x14, 0xffffffdd, lb x14, 3(x1))
    # sh at both halves
    TEST_CASE(35, x14, 0x2222beef, la x1, buf; li x2, 0x22222222; sw x2, 0(x1); li x3, 0xdeadbeef; sh x3, 0(x1); lw x14, 0(x1))
    TEST_CASE(36, x14, 0xcafe2222, la x1, buf; li x2, 0x22222222; sw x2, 0(x1); li x3, 0x1234cafe; sh x3, 2(x1); lw x14, 0(x1))
    TEST_CASE(37, x14, 0xffffcafe, lh x14, 2(x1))
    TEST_CASE(38, x14, 0x0000cafe, lhu x14, 2(x1))
    # sw, negative offset, and the neighbour word untouched
    TEST_CASE(39, x14, 0x89abcdef, la x1, buf + 8; li x2, 0x33333333; sw x2, -4(x1); sw x2, -8(x1); li x3, 0x89abcdef; sw x3, -4(x1); lw x14, -4(x1))
    TEST_CASE(40, x14, 0x33333333, lw x14, -8(x1))
    # store of x0, store with the base as data
    TEST_CASE(41, x14, 0, la x1, buf; sw x0, 0(x1); lw x14, 0(x1))
    TEST_CASE(42, x14, 0, la x1, buf; sw x1, 0(x1); lw x14, 0(x1); sub x14, x14, x1)
    # a load right after a store to the same address
    TEST_CASE(43, x14, 0x5a5a5a5a, la x1, buf; li x2, 0x5a5a5a5a; sw x2, 4(x1); lw x14, 4(x1))

    j pass
    TEST_END

    .data
    .balign 4
pat:
    .word 0x80ff7f01, 0xfedcba98
buf:
    .word 0, 0, 0, 0

/* SPDX-License-Identifier: Apache-2.0 */
/* rv32_asm.h - RV32IM instruction encoders for the random program generator. */
#ifndef RV32_ASM_H
#define RV32_ASM_H

#include <stdint.h>

static inline uint32_t rv_r(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
                            unsigned op)
{
    return (f7 << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) | (f3 << 12) | ((rd & 31) << 7) | op;
}
static inline uint32_t rv_i(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return ((uint32_t)(imm & 0xfff) << 20) | ((rs1 & 31) << 15) | (f3 << 12) | ((rd & 31) << 7) | op;
}
static inline uint32_t rv_s(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned op)
{
    uint32_t u = (uint32_t)imm;
    return (((u >> 5) & 0x7f) << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) | (f3 << 12) |
           ((u & 0x1f) << 7) | op;
}
static inline uint32_t rv_b(int32_t off, unsigned rs2, unsigned rs1, unsigned f3)
{
    uint32_t u = (uint32_t)off;
    return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | ((rs2 & 31) << 20) |
           ((rs1 & 31) << 15) | (f3 << 12) | (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
static inline uint32_t rv_u(uint32_t imm20, unsigned rd, unsigned op)
{
    return (imm20 << 12) | ((rd & 31) << 7) | op;
}
static inline uint32_t rv_j(int32_t off, unsigned rd)
{
    uint32_t u = (uint32_t)off;
    return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) | (((u >> 11) & 1) << 20) |
           (((u >> 12) & 0xff) << 12) | ((rd & 31) << 7) | 0x6f;
}

#define RV_ADDI(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x13)
#define RV_LUI(rd, imm20) rv_u((imm20), (rd), 0x37)
#define RV_AUIPC(rd, imm20) rv_u((imm20), (rd), 0x17)
#define RV_JALR(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x67)
#define RV_SW(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 2, 0x23)
#define RV_BNE(rs1, rs2, off) rv_b((off), (rs2), (rs1), 1)
#define RV_BLT(rs1, rs2, off) rv_b((off), (rs2), (rs1), 4)
#define RV_BEQ(rs1, rs2, off) rv_b((off), (rs2), (rs1), 0)
#define RV_CSRRW(rd, csr, rs1) rv_i((csr), (rs1), 1, (rd), 0x73)
#define RV_CSRRS(rd, csr, rs1) rv_i((csr), (rs1), 2, (rd), 0x73)
#define RV_MRET 0x30200073u
#define RV_NOP RV_ADDI(0, 0, 0)

#endif

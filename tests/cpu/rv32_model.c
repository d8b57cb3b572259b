/* SPDX-License-Identifier: Apache-2.0 */
/* rv32_model.c - instruction-set model of tpu_cpu (see rv32_model.h). */
#include "rv32_model.h"

#include <stdio.h>
#include <string.h>

/* CSR addresses */
enum {
    CSR_MSTATUS = 0x300, CSR_MISA = 0x301, CSR_MIE = 0x304, CSR_MTVEC = 0x305,
    CSR_MSTATUSH = 0x310, CSR_MSCRATCH = 0x340, CSR_MEPC = 0x341, CSR_MCAUSE = 0x342,
    CSR_MTVAL = 0x343, CSR_MIP = 0x344, CSR_MCYCLE = 0xB00, CSR_MINSTRET = 0xB02,
    CSR_MCYCLEH = 0xB80, CSR_MINSTRETH = 0xB82, CSR_CYCLE = 0xC00, CSR_INSTRET = 0xC02,
    CSR_CYCLEH = 0xC80, CSR_INSTRETH = 0xC82, CSR_MVENDORID = 0xF11, CSR_MARCHID = 0xF12,
    CSR_MIMPID = 0xF13, CSR_MHARTID = 0xF14,
};

static inline uint32_t bits(uint32_t x, int hi, int lo)
{
    return (x >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1));
}
static inline int32_t sext(uint32_t x, int width)
{
    uint32_t m = 1u << (width - 1);
    return (int32_t)((x ^ m) - m);
}

static int32_t imm_i(uint32_t in) { return sext(bits(in, 31, 20), 12); }
static int32_t imm_s(uint32_t in) { return sext((bits(in, 31, 25) << 5) | bits(in, 11, 7), 12); }
static int32_t imm_b(uint32_t in)
{
    return sext((bits(in, 31, 31) << 12) | (bits(in, 7, 7) << 11) | (bits(in, 30, 25) << 5) |
                    (bits(in, 11, 8) << 1), 13);
}
static uint32_t imm_u(uint32_t in) { return in & 0xfffff000u; }
static int32_t imm_j(uint32_t in)
{
    return sext((bits(in, 31, 31) << 20) | (bits(in, 19, 12) << 12) | (bits(in, 20, 20) << 11) |
                    (bits(in, 30, 21) << 1), 21);
}

void rv32_init(rv32_t *m, uint32_t boot, bool has_m, uint32_t hartid)
{
    rv32_bus_t bus = m->bus;
    memset(m, 0, sizeof *m);
    m->bus = bus;
    m->pc = boot;
    m->mtvec = boot;
    m->has_m = has_m;
    m->hartid = hartid;
}

static bool csr_exists(unsigned a)
{
    switch (a) {
    case CSR_MSTATUS: case CSR_MISA: case CSR_MIE: case CSR_MTVEC: case CSR_MSTATUSH:
    case CSR_MSCRATCH: case CSR_MEPC: case CSR_MCAUSE: case CSR_MTVAL: case CSR_MIP:
    case CSR_MCYCLE: case CSR_MINSTRET: case CSR_MCYCLEH: case CSR_MINSTRETH:
    case CSR_CYCLE: case CSR_INSTRET: case CSR_CYCLEH: case CSR_INSTRETH:
    case CSR_MVENDORID: case CSR_MARCHID: case CSR_MIMPID: case CSR_MHARTID:
        return true;
    default:
        return false;
    }
}

static bool csr_writes(uint32_t in)
{
    unsigned f3 = bits(in, 14, 12);
    return (f3 & 3) == 1 || bits(in, 19, 15) != 0;
}

bool rv32_is_illegal(const rv32_t *m, uint32_t in)
{
    unsigned op = bits(in, 6, 0), f3 = bits(in, 14, 12), f7 = bits(in, 31, 25);
    switch (op) {
    case 0x37: case 0x17: case 0x6f:
        return false;                                   /* lui auipc jal */
    case 0x67:
        return f3 != 0;                                 /* jalr */
    case 0x63:
        return f3 == 2 || f3 == 3;                      /* branches */
    case 0x03:
        return f3 == 3 || f3 >= 6;                      /* loads */
    case 0x23:
        return f3 >= 3;                                 /* stores */
    case 0x13:                                          /* op-imm */
        if (f3 == 1)
            return f7 != 0;
        if (f3 == 5)
            return f7 != 0 && f7 != 0x20;
        return false;
    case 0x33:                                          /* op */
        if (f7 == 0)
            return false;
        if (f7 == 0x20)
            return f3 != 0 && f3 != 5;
        if (f7 == 1)
            return !m->has_m;
        return true;
    case 0x0f:
        return f3 > 1;                                  /* fence, fence.i */
    case 0x73:
        if (f3 == 0)
            return !(in == 0x00000073 || in == 0x00100073 || in == 0x30200073 ||
                     in == 0x10500073);
        if (f3 == 4)
            return true;
        return !csr_exists(bits(in, 31, 20)) ||
               (csr_writes(in) && bits(in, 31, 30) == 3);
    default:
        return true;
    }
}

bool rv32_irq_pending(const rv32_t *m, unsigned *cause)
{
    if (!m->mstatus_mie)
        return false;
    if (m->mie_meie && m->meip) {
        *cause = RV32_IRQ_EXTERNAL;
        return true;
    }
    if (m->mie_mtie && m->mtip) {
        *cause = RV32_IRQ_TIMER;
        return true;
    }
    return false;
}

static void trap(rv32_t *m, rv32_commit_t *c, unsigned cause, uint32_t tval)
{
    c->trap = true;
    c->cause = cause;
    c->rd = 0;
    c->rd_wdata = 0;
    m->mepc = m->pc;
    m->mcause_int = (cause & 0x10) != 0;
    m->mcause_code = cause & 0xf;
    m->mtval = tval;
    m->mstatus_mpie = m->mstatus_mie;
    m->mstatus_mie = false;
    m->pc = m->mtvec;
    c->next_pc = m->pc;
}

bool rv32_take_irq(rv32_t *m, unsigned cause, rv32_commit_t *c)
{
    bool en = cause == RV32_IRQ_EXTERNAL ? m->mie_meie : m->mie_mtie;
    if (!m->mstatus_mie || !en)
        return false;
    memset(c, 0, sizeof *c);
    c->pc = m->pc;
    trap(m, c, cause, 0);
    m->mcycle++;
    return true;
}

static uint32_t csr_read(rv32_t *m, unsigned a)
{
    uint32_t v;
    if (m->bus.csr_read && m->bus.csr_read(m->bus.ctx, a, &v))
        return v;
    switch (a) {
    case CSR_MSTATUS:
        return (3u << 11) | ((uint32_t)m->mstatus_mpie << 7) | ((uint32_t)m->mstatus_mie << 3);
    case CSR_MISA:
        return 0x40000100u | (m->has_m ? 0x1000u : 0);
    case CSR_MIE:
        return ((uint32_t)m->mie_meie << 11) | ((uint32_t)m->mie_mtie << 7);
    case CSR_MTVEC: return m->mtvec;
    case CSR_MSCRATCH: return m->mscratch;
    case CSR_MEPC: return m->mepc;
    case CSR_MCAUSE: return ((uint32_t)m->mcause_int << 31) | m->mcause_code;
    case CSR_MTVAL: return m->mtval;
    case CSR_MIP: return ((uint32_t)m->meip << 11) | ((uint32_t)m->mtip << 7);
    case CSR_MCYCLE: case CSR_CYCLE: return (uint32_t)m->mcycle;
    case CSR_MCYCLEH: case CSR_CYCLEH: return (uint32_t)(m->mcycle >> 32);
    case CSR_MINSTRET: case CSR_INSTRET: return (uint32_t)m->minstret;
    case CSR_MINSTRETH: case CSR_INSTRETH: return (uint32_t)(m->minstret >> 32);
    case CSR_MHARTID: return m->hartid;
    default: return 0;  /* mstatush, mvendorid, marchid, mimpid */
    }
}

static void csr_write(rv32_t *m, unsigned a, uint32_t v)
{
    switch (a) {
    case CSR_MSTATUS:
        m->mstatus_mie = (v >> 3) & 1;
        m->mstatus_mpie = (v >> 7) & 1;
        break;
    case CSR_MIE:
        m->mie_meie = (v >> 11) & 1;
        m->mie_mtie = (v >> 7) & 1;
        break;
    case CSR_MTVEC: m->mtvec = v & ~3u; break;
    case CSR_MSCRATCH: m->mscratch = v; break;
    case CSR_MEPC: m->mepc = v & ~3u; break;
    case CSR_MCAUSE:
        m->mcause_int = v >> 31;
        m->mcause_code = v & 0xf;
        break;
    case CSR_MTVAL: m->mtval = v; break;
    case CSR_MCYCLE: m->mcycle = (m->mcycle & ~0xffffffffull) | v; break;
    case CSR_MCYCLEH: m->mcycle = (m->mcycle & 0xffffffffull) | ((uint64_t)v << 32); break;
    case CSR_MINSTRET: m->minstret = (m->minstret & ~0xffffffffull) | v; break;
    case CSR_MINSTRETH: m->minstret = (m->minstret & 0xffffffffull) | ((uint64_t)v << 32); break;
    default: break;  /* misa, mstatush, mip: writes ignored */
    }
}

static uint32_t muldiv(unsigned f3, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (f3) {
    case 0: return a * b;
    case 1: return (uint32_t)(((int64_t)sa * (int64_t)sb) >> 32);
    case 2: return (uint32_t)(((int64_t)sa * (int64_t)(uint64_t)b) >> 32);
    case 3: return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
    case 4:
        if (b == 0) return 0xffffffffu;
        if (a == 0x80000000u && b == 0xffffffffu) return a;
        return (uint32_t)(sa / sb);
    case 5: return b == 0 ? 0xffffffffu : a / b;
    case 6:
        if (b == 0) return a;
        if (a == 0x80000000u && b == 0xffffffffu) return 0;
        return (uint32_t)(sa % sb);
    default: return b == 0 ? a : a % b;
    }
}

void rv32_exec(rv32_t *m, rv32_commit_t *c)
{
    memset(c, 0, sizeof *c);
    c->pc = m->pc;
    m->mcycle++;

    uint32_t in;
    if (m->bus.fetch(m->bus.ctx, m->pc, &in)) {
        trap(m, c, RV32_EXC_INSN_FAULT, 0);
        return;
    }
    c->insn = in;
    if (rv32_is_illegal(m, in)) {
        trap(m, c, RV32_EXC_ILLEGAL, 0);
        return;
    }

    unsigned op = bits(in, 6, 0), f3 = bits(in, 14, 12), f7 = bits(in, 31, 25);
    unsigned rd = bits(in, 11, 7), rs1i = bits(in, 19, 15), rs2i = bits(in, 24, 20);
    uint32_t rs1 = m->x[rs1i], rs2 = m->x[rs2i];
    uint32_t pc4 = m->pc + 4, next = pc4;
    bool wr = false, count = true;
    uint32_t val = 0;

    switch (op) {
    case 0x37: wr = true; val = imm_u(in); break;
    case 0x17: wr = true; val = m->pc + imm_u(in); break;
    case 0x6f:
    case 0x67: {
        uint32_t t = op == 0x6f ? m->pc + (uint32_t)imm_j(in) : (rs1 + (uint32_t)imm_i(in)) & ~1u;
        if (t & 2) {
            trap(m, c, RV32_EXC_INSN_MISALIGNED, t);
            return;
        }
        wr = true;
        val = pc4;
        next = t;
        break;
    }
    case 0x63: {
        bool take;
        switch (f3) {
        case 0: take = rs1 == rs2; break;
        case 1: take = rs1 != rs2; break;
        case 4: take = (int32_t)rs1 < (int32_t)rs2; break;
        case 5: take = (int32_t)rs1 >= (int32_t)rs2; break;
        case 6: take = rs1 < rs2; break;
        default: take = rs1 >= rs2; break;
        }
        if (take) {
            uint32_t t = m->pc + (uint32_t)imm_b(in);
            if (t & 2) {
                trap(m, c, RV32_EXC_INSN_MISALIGNED, t);
                return;
            }
            next = t;
        }
        break;
    }
    case 0x03:
    case 0x23: {
        bool store = op == 0x23;
        uint32_t a = rs1 + (uint32_t)(store ? imm_s(in) : imm_i(in));
        unsigned size = f3 & 3;
        if ((size == 1 && (a & 1)) || (size == 2 && (a & 3))) {
            trap(m, c, store ? RV32_EXC_STORE_MISALIGNED : RV32_EXC_LOAD_MISALIGNED, a);
            return;
        }
        unsigned sh = (a & 3) * 8;
        c->mem = true;
        c->mem_we = store;
        c->mem_addr = a;
        c->mem_wstrb = size == 0 ? 1u << (a & 3) : size == 1 ? ((a & 2) ? 0xcu : 0x3u) : 0xfu;
        if (store) {
            c->mem_wdata = size == 0 ? (rs2 & 0xff) * 0x01010101u
                         : size == 1 ? (rs2 & 0xffff) * 0x00010001u : rs2;
            if (m->bus.store(m->bus.ctx, a, c->mem_wdata, c->mem_wstrb)) {
                trap(m, c, RV32_EXC_STORE_FAULT, a);
                return;
            }
        } else {
            uint32_t w;
            if (m->bus.load(m->bus.ctx, a, 1 << size, &w)) {
                trap(m, c, RV32_EXC_LOAD_FAULT, a);
                return;
            }
            wr = true;
            switch (f3) {
            case 0: val = (uint32_t)sext((w >> sh) & 0xff, 8); break;
            case 1: val = (uint32_t)sext((w >> sh) & 0xffff, 16); break;
            case 4: val = (w >> sh) & 0xff; break;
            case 5: val = (w >> sh) & 0xffff; break;
            default: val = w; break;
            }
        }
        break;
    }
    case 0x13:
    case 0x33: {
        uint32_t b = op == 0x13 ? (uint32_t)imm_i(in) : rs2;
        wr = true;
        if (op == 0x33 && f7 == 1) {
            val = muldiv(f3, rs1, rs2);
            break;
        }
        switch (f3) {
        case 0: val = (op == 0x33 && f7 == 0x20) ? rs1 - b : rs1 + b; break;
        case 1: val = rs1 << (b & 31); break;
        case 2: val = (int32_t)rs1 < (int32_t)b; break;
        case 3: val = rs1 < b; break;
        case 4: val = rs1 ^ b; break;
        case 5:
            val = (f7 == 0x20) ? (uint32_t)((int32_t)rs1 >> (b & 31)) : rs1 >> (b & 31);
            break;
        case 6: val = rs1 | b; break;
        default: val = rs1 & b; break;
        }
        break;
    }
    case 0x0f:
        break;  /* fence, fence.i */
    case 0x73:
        if (f3 == 0) {
            if (in == 0x00000073) {
                trap(m, c, RV32_EXC_ECALL_M, 0);
                return;
            }
            if (in == 0x00100073) {
                trap(m, c, RV32_EXC_BREAKPOINT, 0);
                return;
            }
            if (in == 0x30200073) {  /* mret */
                next = m->mepc;
                m->mstatus_mie = m->mstatus_mpie;
                m->mstatus_mpie = true;
            }
            break;  /* wfi: no-op */
        } else {
            unsigned a = bits(in, 31, 20);
            uint32_t src = (f3 & 4) ? rs1i : rs1;
            uint32_t old = csr_read(m, a);
            wr = true;
            val = old;
            if (csr_writes(in)) {
                uint32_t nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
                csr_write(m, a, nv);
                if (a == CSR_MINSTRET || a == CSR_MINSTRETH)
                    count = false;
            }
        }
        break;
    default:
        break;  /* unreachable: illegal above */
    }

    if (wr && rd != 0) {
        m->x[rd] = val;
        c->rd = rd;
        c->rd_wdata = val;
    }
    if (count)
        m->minstret++;
    m->pc = next;
    c->next_pc = next;
}

void rv32_step(rv32_t *m, rv32_commit_t *c)
{
    unsigned cause;
    if (rv32_irq_pending(m, &cause)) {
        rv32_take_irq(m, cause, c);
        return;
    }
    rv32_exec(m, c);
}

const char *rv32_disasm(uint32_t in, char *buf, int len)
{
    static const char *const alu[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
    static const char *const mul[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
    static const char *const br[8] = {"beq", "bne", "b?", "b?", "blt", "bge", "bltu", "bgeu"};
    static const char *const ld[8] = {"lb", "lh", "lw", "l?", "lbu", "lhu", "l?", "l?"};
    static const char *const st[8] = {"sb", "sh", "sw", "s?", "s?", "s?", "s?", "s?"};
    static const char *const csr[8] = {"?", "csrrw", "csrrs", "csrrc", "?", "csrrwi", "csrrsi", "csrrci"};
    unsigned op = bits(in, 6, 0), f3 = bits(in, 14, 12), f7 = bits(in, 31, 25);
    unsigned rd = bits(in, 11, 7), rs1 = bits(in, 19, 15), rs2 = bits(in, 24, 20);
    switch (op) {
    case 0x37: snprintf(buf, len, "lui x%u, 0x%x", rd, in >> 12); break;
    case 0x17: snprintf(buf, len, "auipc x%u, 0x%x", rd, in >> 12); break;
    case 0x6f: snprintf(buf, len, "jal x%u, %d", rd, imm_j(in)); break;
    case 0x67: snprintf(buf, len, "jalr x%u, %d(x%u)", rd, imm_i(in), rs1); break;
    case 0x63: snprintf(buf, len, "%s x%u, x%u, %d", br[f3], rs1, rs2, imm_b(in)); break;
    case 0x03: snprintf(buf, len, "%s x%u, %d(x%u)", ld[f3], rd, imm_i(in), rs1); break;
    case 0x23: snprintf(buf, len, "%s x%u, %d(x%u)", st[f3], rs2, imm_s(in), rs1); break;
    case 0x13:
        if (f3 == 1 || f3 == 5)
            snprintf(buf, len, "%si x%u, x%u, %u", f3 == 1 ? "sll" : f7 ? "sra" : "srl", rd, rs1, rs2);
        else
            snprintf(buf, len, "%si x%u, x%u, %d", alu[f3], rd, rs1, imm_i(in));
        break;
    case 0x33:
        snprintf(buf, len, "%s x%u, x%u, x%u",
                 f7 == 1 ? mul[f3] : (f7 == 0x20 ? (f3 == 0 ? "sub" : "sra") : alu[f3]), rd, rs1, rs2);
        break;
    case 0x0f: snprintf(buf, len, "%s", f3 ? "fence.i" : "fence"); break;
    case 0x73:
        if (f3 == 0)
            snprintf(buf, len, "%s", in == 0x73 ? "ecall" : in == 0x00100073 ? "ebreak"
                                   : in == 0x30200073 ? "mret" : in == 0x10500073 ? "wfi" : "system?");
        else if (f3 & 4)
            snprintf(buf, len, "%s x%u, 0x%03x, %u", csr[f3], rd, bits(in, 31, 20), rs1);
        else
            snprintf(buf, len, "%s x%u, 0x%03x, x%u", csr[f3], rd, bits(in, 31, 20), rs1);
        break;
    default: snprintf(buf, len, ".word 0x%08x", in); break;
    }
    return buf;
}

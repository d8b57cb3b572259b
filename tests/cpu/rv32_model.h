/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rv32_model.h - instruction-set model of tpu_cpu (RV32I, optionally M,
 * machine mode only): the reference that the RTL is compared against,
 * instruction by instruction, in every CPU test.
 *
 * It implements exactly the architecture documented in docs/cpu.md: the CSR
 * set and its write masks, trap causes and priorities, mtval values, the
 * interrupt rule (taken before an instruction when mstatus.MIE and an enabled
 * mip bit are set, external before timer) and the minstret rule (an
 * instruction that writes minstret or minstreth does not count itself).
 * mcycle counts steps here; co-simulation replays the RTL's values instead.
 */
#ifndef RV32_MODEL_H
#define RV32_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* mcause values as the RTL's trace reports them: {interrupt, code[3:0]}. */
enum {
    RV32_EXC_INSN_MISALIGNED = 0,
    RV32_EXC_INSN_FAULT = 1,
    RV32_EXC_ILLEGAL = 2,
    RV32_EXC_BREAKPOINT = 3,
    RV32_EXC_LOAD_MISALIGNED = 4,
    RV32_EXC_LOAD_FAULT = 5,
    RV32_EXC_STORE_MISALIGNED = 6,
    RV32_EXC_STORE_FAULT = 7,
    RV32_EXC_ECALL_M = 11,
    RV32_IRQ_TIMER = 0x10 | 7,
    RV32_IRQ_EXTERNAL = 0x10 | 11,
};

/* Memory seen by the model.  Accesses are naturally aligned (the model traps
 * misaligned ones first); a non-zero return is an access fault. */
typedef struct rv32_bus {
    void *ctx;
    int (*fetch)(void *ctx, uint32_t addr, uint32_t *insn);
    int (*load)(void *ctx, uint32_t addr, int size, uint32_t *word);  /* whole aligned word */
    int (*store)(void *ctx, uint32_t addr, uint32_t wdata, unsigned wstrb);
    /* Optional: supplies the value of a CSR read (co-simulation replays the
     * RTL's mcycle this way).  Returns false to use the model's own value. */
    bool (*csr_read)(void *ctx, unsigned csr, uint32_t *value);
} rv32_bus_t;

typedef struct rv32 {
    uint32_t x[32];
    uint32_t pc;
    bool has_m;
    uint32_t hartid;
    /* CSRs */
    bool mstatus_mie, mstatus_mpie;
    bool mie_meie, mie_mtie;
    bool meip, mtip;             /* interrupt inputs: set by the caller */
    uint32_t mtvec, mscratch, mepc, mtval;
    bool mcause_int;
    uint32_t mcause_code;
    uint64_t mcycle, minstret;
    rv32_bus_t bus;
} rv32_t;

/* What one step did: the fields of the RTL's retirement trace, plus the
 * data-port request it made (in the RTL's format: byte address, lanes,
 * store data replicated on every lane). */
typedef struct rv32_commit {
    uint32_t pc, insn;
    bool trap;                   /* exception or interrupt: nothing retired */
    unsigned cause;              /* {interrupt, code} when trap */
    unsigned rd;                 /* register written, 0 for none */
    uint32_t rd_wdata;
    uint32_t next_pc;
    bool mem;                    /* a data request was made */
    bool mem_we;
    uint32_t mem_addr, mem_wdata;
    unsigned mem_wstrb;
} rv32_commit_t;

/* Reset state: pc = mtvec = boot, every register and CSR zero. */
void rv32_init(rv32_t *m, uint32_t boot, bool has_m, uint32_t hartid);
/* True if an enabled interrupt is pending; *cause gets its cause. */
bool rv32_irq_pending(const rv32_t *m, unsigned *cause);
/* One step: an interrupt if one is pending, else one instruction. */
void rv32_step(rv32_t *m, rv32_commit_t *c);
/* Take interrupt `cause` now, as the RTL did (co-simulation with
 * asynchronous interrupt lines).  Returns false, changing nothing, if the
 * model's mstatus.MIE or mie bit does not allow it. */
bool rv32_take_irq(rv32_t *m, unsigned cause, rv32_commit_t *c);
/* Step without taking interrupts (the caller decides them). */
void rv32_exec(rv32_t *m, rv32_commit_t *c);
/* True if the model does not implement `insn` (an illegal-instruction trap). */
bool rv32_is_illegal(const rv32_t *m, uint32_t insn);
/* Disassembly of one instruction into buf (for messages). */
const char *rv32_disasm(uint32_t insn, char *buf, int len);

#endif

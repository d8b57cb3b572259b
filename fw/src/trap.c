/* SPDX-License-Identifier: Apache-2.0 */
/* trap.c - trap dispatch: interrupts to their handlers, exceptions to the
 * registered handler, everything else reported on the console. */
#include "ptpu_fw.h"

static ptpu_irq_fn timer_fn, external_fn;
static ptpu_exc_fn exception_fn;

void ptpu_on_timer_irq(ptpu_irq_fn fn)
{
    timer_fn = fn;
    if (fn)
        csr_set(CSR_MIE, MIE_MTIE);
    else
        csr_clear(CSR_MIE, MIE_MTIE);
}

void ptpu_on_external_irq(ptpu_irq_fn fn)
{
    external_fn = fn;
    if (fn)
        csr_set(CSR_MIE, MIE_MEIE);
    else
        csr_clear(CSR_MIE, MIE_MEIE);
}

void ptpu_on_exception(ptpu_exc_fn fn)
{
    exception_fn = fn;
}

void ptpu_irq_enable(void)
{
    csr_set(CSR_MSTATUS, MSTATUS_MIE);
}

void ptpu_irq_disable(void)
{
    csr_clear(CSR_MSTATUS, MSTATUS_MIE);
}

const char *ptpu_cause_name(uint32_t mcause)
{
    switch (mcause) {
    case CAUSE_INSN_MISALIGNED: return "instruction address misaligned";
    case CAUSE_INSN_FAULT: return "instruction access fault";
    case CAUSE_ILLEGAL: return "illegal instruction";
    case CAUSE_BREAKPOINT: return "breakpoint";
    case CAUSE_LOAD_MISALIGNED: return "load address misaligned";
    case CAUSE_LOAD_FAULT: return "load access fault";
    case CAUSE_STORE_MISALIGNED: return "store address misaligned";
    case CAUSE_STORE_FAULT: return "store access fault";
    case CAUSE_ECALL_M: return "environment call from M-mode";
    case CAUSE_IRQ_TIMER: return "machine timer interrupt";
    case CAUSE_IRQ_EXTERNAL: return "machine external interrupt";
    default: return "unknown cause";
    }
}

/* Reports an unhandled trap without stdio (the trap may come from inside it). */
static __attribute__((noreturn)) void unhandled(const ptpu_trap_frame_t *f)
{
    ptpu_puts("\n*** unhandled trap: ");
    ptpu_puts(ptpu_cause_name(f->mcause));
    ptpu_puts(" (mcause 0x");
    ptpu_puthex(f->mcause);
    ptpu_puts(") at mepc 0x");
    ptpu_puthex(f->mepc);
    ptpu_puts(", mtval 0x");
    ptpu_puthex(f->mtval);
    ptpu_puts("\n");
    ptpu_exit(0x100 + (int)(f->mcause & 0xff));
}

void ptpu_trap_dispatch(ptpu_trap_frame_t *f);
void ptpu_trap_dispatch(ptpu_trap_frame_t *f)
{
    if (f->mcause == CAUSE_IRQ_TIMER && timer_fn) {
        timer_fn();
        return;
    }
    if (f->mcause == CAUSE_IRQ_EXTERNAL && external_fn) {
        external_fn();
        return;
    }
    if (!(f->mcause & CAUSE_IRQ) && exception_fn && exception_fn(f))
        return;
    unhandled(f);
}

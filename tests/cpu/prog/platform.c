/* SPDX-License-Identifier: Apache-2.0 */
/*
 * platform.c - the firmware platform layer on the core: console through
 * printf, the timer interrupt (periodic, re-armed from its handler), the
 * external interrupt line (immediate and delayed), exception handlers that
 * skip ecall/ebreak/illegal instructions and report the cause, the 64-bit
 * counters.  Exit code 0 when every check passed.
 */
#include <stdio.h>

#include "ptpu_fw.h"

static volatile unsigned timer_ticks, ext_irqs, exceptions;
static volatile uint32_t last_cause, last_tval;
static unsigned failures;

#define EXPECT(cond)                                                     \
    do {                                                                 \
        if (!(cond)) {                                                   \
            printf("FAILED line %d: %s\n", __LINE__, #cond);             \
            failures++;                                                  \
        }                                                                \
    } while (0)

static void on_timer(void)
{
    if (++timer_ticks < 4)
        ptpu_timer_set(ptpu_time() + 300);
    else
        ptpu_timer_stop();
}

static void on_external(void)
{
    ext_irqs++;
    ptpu_irq_clear();
}

static bool on_exception(ptpu_trap_frame_t *f)
{
    exceptions++;
    last_cause = f->mcause;
    last_tval = f->mtval;
    f->mepc += 4;
    return true;
}

int main(void)
{
    printf("platform test\n");

    /* counters */
    uint64_t c0 = ptpu_rdcycle(), i0 = ptpu_rdinstret();
    uint64_t c1 = ptpu_rdcycle(), i1 = ptpu_rdinstret();
    EXPECT(c1 > c0);
    EXPECT(i1 > i0 && i1 - i0 < 100);
    uint64_t t0 = ptpu_time();
    ptpu_delay(1000);
    EXPECT(ptpu_time() - t0 >= 1000);

    /* exceptions handled and skipped */
    ptpu_on_exception(on_exception);
    __asm__ volatile("ecall");
    EXPECT(exceptions == 1 && last_cause == CAUSE_ECALL_M);
    __asm__ volatile("ebreak");
    EXPECT(exceptions == 2 && last_cause == CAUSE_BREAKPOINT);
    __asm__ volatile(".word 0xffffffff");
    EXPECT(exceptions == 3 && last_cause == CAUSE_ILLEGAL);
    volatile uint32_t *bad = (volatile uint32_t *)0x40000000;
    (void)*bad;
    EXPECT(exceptions == 4 && last_cause == CAUSE_LOAD_FAULT && last_tval == 0x40000000);
    ptpu_on_exception(NULL);

    /* timer interrupts, four of them */
    ptpu_on_timer_irq(on_timer);
    ptpu_timer_set(ptpu_time() + 300);
    ptpu_irq_enable();
    while (timer_ticks < 4)
        __asm__ volatile("wfi");
    EXPECT(timer_ticks == 4);

    /* external interrupt: now, then delayed while we count */
    ptpu_on_external_irq(on_external);
    ptpu_irq_raise(0);
    EXPECT(ext_irqs == 1);
    ptpu_irq_raise(200);
    unsigned spins = 0;
    while (ext_irqs < 2)
        spins++;
    EXPECT(ext_irqs == 2 && spins > 0);
    ptpu_irq_disable();
    ptpu_on_external_irq(NULL);
    ptpu_on_timer_irq(NULL);
    EXPECT((csr_read(CSR_MIE) & (MIE_MEIE | MIE_MTIE)) == 0);

    printf("%s: %u timer, %u external interrupts, %u exceptions\n",
           failures ? "FAILED" : "ok", timer_ticks, ext_irqs, exceptions);
    return failures ? 1 : 0;
}

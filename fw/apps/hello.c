/* SPDX-License-Identifier: Apache-2.0 */
/* hello.c - the smallest useful firmware: stdio on the console, the timer
 * interrupt, the cycle and instruction counters.  Exit code 0 = pass. */
#include <stdio.h>

#include "ptpu_fw.h"

static volatile unsigned ticks;

static void tick(void)
{
    ticks++;
    ptpu_timer_set(ptpu_time() + 500);
}

int main(void)
{
    printf("hello from tpu_cpu (hart %lu, misa 0x%08lx)\n",
           (unsigned long)csr_read(CSR_MHARTID), (unsigned long)csr_read(CSR_MISA));

    ptpu_on_timer_irq(tick);
    ptpu_timer_set(ptpu_time() + 500);
    ptpu_irq_enable();
    uint64_t c0 = ptpu_rdcycle(), i0 = ptpu_rdinstret();
    while (ticks < 5)
        __asm__ volatile("wfi");
    ptpu_irq_disable();
    ptpu_timer_stop();
    uint64_t c1 = ptpu_rdcycle(), i1 = ptpu_rdinstret();

    printf("5 timer interrupts in %lu cycles, %lu instructions\n",
           (unsigned long)(c1 - c0), (unsigned long)(i1 - i0));
    return ticks == 5 ? 0 : 1;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* platform.c - console (and picolibc's stdout), exit, timer and the
 * simulated interrupt line of the platform in fw/include/ptpu_sim.h. */
#include <stdio.h>

#include "ptpu_fw.h"

void ptpu_putc(char c)
{
    PTPU_REG(PTPU_CONSOLE) = (uint8_t)c;
}

void ptpu_puts(const char *s)
{
    while (*s)
        ptpu_putc(*s++);
}

void ptpu_puthex(uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4)
        ptpu_putc("0123456789abcdef"[(v >> i) & 0xf]);
}

void ptpu_exit(int code)
{
    PTPU_REG(PTPU_EXIT) = (uint32_t)code;
    for (;;)
        ;
}

/* picolibc: exit() ends here. */
void _exit(int code)
{
    ptpu_exit(code);
}

/* picolibc's tinystdio: stdout and stderr write to the console. */
static int console_put(char c, FILE *f)
{
    (void)f;
    ptpu_putc(c);
    return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

uint64_t ptpu_time(void)
{
    uint32_t hi, lo;
    do {
        hi = PTPU_REG(PTPU_MTIME_HI);
        lo = PTPU_REG(PTPU_MTIME_LO);
    } while (hi != PTPU_REG(PTPU_MTIME_HI));
    return ((uint64_t)hi << 32) | lo;
}

void ptpu_timer_set(uint64_t when)
{
    /* Never let the compare value pass through a smaller one. */
    PTPU_REG(PTPU_MTIMECMP_HI) = 0xffffffffu;
    PTPU_REG(PTPU_MTIMECMP_LO) = (uint32_t)when;
    PTPU_REG(PTPU_MTIMECMP_HI) = (uint32_t)(when >> 32);
}

void ptpu_timer_stop(void)
{
    PTPU_REG(PTPU_MTIMECMP_HI) = 0xffffffffu;
    PTPU_REG(PTPU_MTIMECMP_LO) = 0xffffffffu;
}

void ptpu_delay(uint32_t cycles)
{
    uint64_t end = ptpu_time() + cycles;
    while (ptpu_time() < end)
        ;
}

void ptpu_irq_raise(uint32_t delay_cycles)
{
    if (delay_cycles)
        PTPU_REG(PTPU_IRQ_DELAY) = delay_cycles;
    else
        PTPU_REG(PTPU_IRQ) = 1;
}

void ptpu_irq_clear(void)
{
    PTPU_REG(PTPU_IRQ_DELAY) = 0;
    PTPU_REG(PTPU_IRQ) = 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_fw.h - the firmware platform layer: console, exit, timer, interrupts
 * and traps.  Link with the platform library (fw/fw.mk); crt0 installs the
 * trap entry, stdout/stderr go to the console, exit() ends the simulation.
 */
#ifndef PTPU_FW_H
#define PTPU_FW_H

#include <stdbool.h>
#include <stdint.h>

#include "ptpu_csr.h"
#include "ptpu_sim.h"

/* Console (also reached through stdio: printf, puts, ...). */
void ptpu_putc(char c);
void ptpu_puts(const char *s);   /* no newline added */
void ptpu_puthex(uint32_t v);    /* eight hex digits, no allocation, no stdio */

/* End the simulation with an exit code (0 = pass).  exit() and returning
 * from main() do the same. */
__attribute__((noreturn)) void ptpu_exit(int code);

/* Platform timer: 64-bit mtime counting clock cycles, interrupt when
 * mtime >= mtimecmp. */
uint64_t ptpu_time(void);
void ptpu_timer_set(uint64_t when);   /* absolute */
void ptpu_timer_stop(void);           /* mtimecmp = all ones */
void ptpu_delay(uint32_t cycles);     /* busy wait */

/* The simulated external interrupt line (IRQ register). */
void ptpu_irq_raise(uint32_t delay_cycles);  /* 0: now */
void ptpu_irq_clear(void);

/* Interrupts and traps.  The trap entry saves the caller-saved registers and
 * calls the handler registered for the cause; a handler for an exception may
 * change the return address (*mepc) to skip the faulting instruction.  Without
 * a handler, an interrupt or exception is reported on the console and the
 * simulation ends with exit code 0x100 + mcause code. */
typedef struct ptpu_trap_frame {
    uint32_t ra, t0, t1, t2, a0, a1, a2, a3, a4, a5, a6, a7, t3, t4, t5, t6;
    uint32_t mepc, mcause, mtval, mstatus;
} ptpu_trap_frame_t;
typedef void (*ptpu_irq_fn)(void);
typedef bool (*ptpu_exc_fn)(ptpu_trap_frame_t *frame);  /* true: handled */

void ptpu_on_timer_irq(ptpu_irq_fn fn);      /* also sets/clears mie.MTIE */
void ptpu_on_external_irq(ptpu_irq_fn fn);   /* also sets/clears mie.MEIE */
void ptpu_on_exception(ptpu_exc_fn fn);
void ptpu_irq_enable(void);                  /* mstatus.MIE = 1 */
void ptpu_irq_disable(void);
const char *ptpu_cause_name(uint32_t mcause);

#endif

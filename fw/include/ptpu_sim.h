/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_sim.h - memory map of the simulated RV32 platform (tests/cpu/tb_cpu.c)
 * that every firmware image and CPU test runs on.  The SoC keeps the same
 * conventions: RAM from address 0, the console and exit registers in the
 * MMIO page.  Usable from C and from assembly.
 *
 *   0x0000_0000  RAM (64 KB by default; tb_cpu --ram-kb)
 *   0x1000_0000  MMIO page (32-bit registers):
 *     +0x00 CONSOLE      W   one byte (bits 7:0) to the console
 *     +0x04 EXIT         W   end the simulation: 0 = pass, anything else = fail code
 *     +0x08 MTIME_LO     RW  free-running 64-bit cycle counter of the platform
 *     +0x0c MTIME_HI     RW
 *     +0x10 MTIMECMP_LO  RW  timer interrupt (mip.MTIP) while mtime >= mtimecmp;
 *     +0x14 MTIMECMP_HI  RW    all ones after reset
 *     +0x18 IRQ          RW  bit 0: level of the external interrupt line (mip.MEIP)
 *     +0x1c IRQ_DELAY    W   N > 0: set IRQ bit 0 N cycles from now; 0: cancel
 *   anything else: access fault (instruction fetch from MMIO included)
 */
#ifndef PTPU_SIM_H
#define PTPU_SIM_H

#define PTPU_RAM_BASE      0x00000000
#define PTPU_RAM_SIZE      0x00010000
#define PTPU_MMIO_BASE     0x10000000
#define PTPU_CONSOLE       (PTPU_MMIO_BASE + 0x00)
#define PTPU_EXIT          (PTPU_MMIO_BASE + 0x04)
#define PTPU_MTIME_LO      (PTPU_MMIO_BASE + 0x08)
#define PTPU_MTIME_HI      (PTPU_MMIO_BASE + 0x0c)
#define PTPU_MTIMECMP_LO   (PTPU_MMIO_BASE + 0x10)
#define PTPU_MTIMECMP_HI   (PTPU_MMIO_BASE + 0x14)
#define PTPU_IRQ           (PTPU_MMIO_BASE + 0x18)
#define PTPU_IRQ_DELAY     (PTPU_MMIO_BASE + 0x1c)

#ifndef __ASSEMBLER__
#include <stdint.h>
#define PTPU_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#endif

#endif

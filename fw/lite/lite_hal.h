/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lite_hal.h - every hardware access of the picotpu-lite firmware (docs/firmware.md,
 * "Lite firmware"): the cycle counter, the UART, the XPU and device memory.
 *
 * On rv32 the functions are inline MMIO accesses at the addresses of lite_map.h.  With
 * LITE_NATIVE defined (the host-side tests, tests/lite_fw/) they are plain functions
 * that the test implements with a C model of the UART byte streams and the XPU, so the
 * same link and interpreter code runs on the host.
 */
#ifndef LITE_HAL_H
#define LITE_HAL_H

#include <stdint.h>

#include "lite_map.h"

#ifdef LITE_NATIVE

extern uint8_t *lite_dev_mem;           /* LITE_DEV_MEM_BYTES of device memory */
#define LITE_DEV_MEM lite_dev_mem

uint32_t hal_time_lo(void);             /* cycle counter, low word */
uint64_t hal_time(void);                /* cycle counter */
int hal_uart_rx(void);                  /* the next received byte, or -1 when none */
void hal_uart_tx(uint8_t b);            /* queue a byte (waits while the TX FIFO is full) */
void hal_xpu_w(uint32_t k, uint32_t row);   /* weight row k: byte n = W[k][n] */
void hal_xpu_zp(uint32_t zp);
void hal_xpu_row(uint32_t row);
void hal_xpu_mode(uint32_t mode);
void hal_xpu_x(uint32_t x);             /* one activation row through the array */
uint32_t hal_xpu_count(void);
uint32_t hal_xpu_acc(uint32_t row, uint32_t lane);

#else

#define LITE_MMIO(a) (*(volatile uint32_t *)(uintptr_t)(a))
/* -Os would otherwise make calls of some of these; the byte loops need them inline. */
#define LITE_INLINE static inline __attribute__((always_inline))
#define LITE_DEV_MEM ((uint8_t *)(uintptr_t)LITE_SPRAM_BASE)

LITE_INLINE uint32_t hal_time_lo(void) { return LITE_MMIO(LITE_PLATFORM_MTIME_LO); }

LITE_INLINE uint64_t hal_time(void)
{
    uint32_t hi, lo;
    do {
        hi = LITE_MMIO(LITE_PLATFORM_MTIME_HI);
        lo = LITE_MMIO(LITE_PLATFORM_MTIME_LO);
    } while (hi != LITE_MMIO(LITE_PLATFORM_MTIME_HI));
    return ((uint64_t)hi << 32) | lo;
}

LITE_INLINE int hal_uart_rx(void)
{
    uint32_t v = LITE_MMIO(LITE_UART_RXDATA);
    return (v & LITE_UART_RXDATA_VALID) ? (int)(v & 0xffu) : -1;
}

LITE_INLINE void hal_uart_tx(uint8_t b) { LITE_MMIO(LITE_UART_TXDATA) = b; }
LITE_INLINE void hal_xpu_w(uint32_t k, uint32_t row) { LITE_MMIO(LITE_XPU_W(k)) = row; }
LITE_INLINE void hal_xpu_zp(uint32_t zp) { LITE_MMIO(LITE_XPU_ZP) = zp; }
LITE_INLINE void hal_xpu_row(uint32_t row) { LITE_MMIO(LITE_XPU_ROW) = row; }
LITE_INLINE void hal_xpu_mode(uint32_t mode) { LITE_MMIO(LITE_XPU_MODE) = mode; }
LITE_INLINE void hal_xpu_x(uint32_t x) { LITE_MMIO(LITE_XPU_X) = x; }
LITE_INLINE uint32_t hal_xpu_count(void) { return LITE_MMIO(LITE_XPU_COUNT); }
LITE_INLINE uint32_t hal_xpu_acc(uint32_t row, uint32_t lane)
{
    return LITE_MMIO(LITE_XPU_ACC + 16u * row + 4u * lane);
}

#endif

#endif

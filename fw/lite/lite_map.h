/* SPDX-License-Identifier: Apache-2.0 */
/* lite_map.h: the CPU memory map of picotpu-lite (rtl/lite/tpu_lite_soc.sv),
 * the addresses and register bits the lite firmware uses.  Owned by the lite
 * hardware; docs/lite.md describes each register. */
#ifndef LITE_MAP_H
#define LITE_MAP_H

/* Firmware image in block RAM: instruction fetch and data (for .data/.rodata)
 * at the same addresses.  LITE_ROM_BYTES is the nominal size the board build
 * uses (FwRomKb of tpu_lite_soc); the image must not exceed it. */
#define LITE_ROM_BASE 0x00000000u
#define LITE_ROM_BYTES (10u * 1024u)

/* Platform page, as in the full SoC (host/include/picotpu_isa.h PTPU_PLATFORM_*). */
#define LITE_PLATFORM_BASE 0x10000000u
#define LITE_PLATFORM_CONSOLE 0x10000000u  /* write: byte to the simulation console */
#define LITE_PLATFORM_EXIT 0x10000004u     /* write: end the simulation with this code */
#define LITE_PLATFORM_MTIME_LO 0x10000008u /* read: cycle counter, low word */
#define LITE_PLATFORM_MTIME_HI 0x1000000cu /* read: cycle counter, high word */

/* UART (8N1 at the SoC's Baud parameter). */
#define LITE_UART_BASE 0x10004000u
#define LITE_UART_RXDATA 0x10004000u /* read: bit 8 valid, bits 7:0 byte; a valid read pops */
#define LITE_UART_TXDATA 0x10004004u /* write: push bits 7:0; stalls while the TX FIFO is full */
#define LITE_UART_STATUS 0x10004008u /* read: bits below; write 1s to bits 3/4 to clear them */
#define LITE_UART_RXDATA_VALID (1u << 8)
#define LITE_UART_ST_RX_AVAIL (1u << 0)   /* RX FIFO not empty */
#define LITE_UART_ST_TX_FULL (1u << 1)    /* TX FIFO full */
#define LITE_UART_ST_TX_IDLE (1u << 2)    /* TX FIFO empty and the shifter idle */
#define LITE_UART_ST_RX_OVERRUN (1u << 3) /* sticky: a byte arrived with the RX FIFO full (dropped) */
#define LITE_UART_ST_RX_FRAMING (1u << 4) /* sticky: a stop bit was 0 */

/* XPU: 4x4 int8 array with a 128-row int32 x 4 accumulator. */
#define LITE_XPU_BASE 0x10005000u
#define LITE_XPU_W0 0x10005000u /* write: weight row k at W0 + 4*k, byte n = W[k][n] */
#define LITE_XPU_W(k) (LITE_XPU_W0 + 4u * (unsigned)(k))
#define LITE_XPU_ZP 0x10005010u     /* write: input zero point, int8 in bits 7:0 */
#define LITE_XPU_ROW 0x10005014u    /* read/write: ACC row of the next X; ++ after each X */
#define LITE_XPU_MODE 0x10005018u   /* bit 0: 1 = accumulate, 0 = overwrite */
#define LITE_XPU_X 0x1000501cu      /* write: activation row, byte k = x[k]; may stall */
#define LITE_XPU_STATUS 0x10005020u /* read: bit 0 busy (an X in flight) */
#define LITE_XPU_COUNT 0x10005024u  /* read: X rows since reset */
#define LITE_XPU_INFO 0x10005028u   /* read: fields below */
#define LITE_XPU_MODE_ACC 1u
#define LITE_XPU_STATUS_BUSY 1u
#define LITE_XPU_INFO_N(v) ((v)&0xffu)                    /* array size N (4) */
#define LITE_XPU_INFO_ACC_ROWS(v) ((((v) >> 8) & 0xffu) * 4u) /* ACC rows (128) */
#define LITE_XPU_INFO_VERSION(v) (((v) >> 24) & 0xffu)   /* XPU version (1) */

/* ACC window: row r lane n (int32) at LITE_XPU_ACC + 16*r + 4*n; reads wait
 * for earlier X rows. */
#define LITE_XPU_ACC 0x10006000u
#define LITE_XPU_ACC_ROWS 128u
#define LITE_XPU_N 4u

/* SPRAM, 128 KB: device memory address a at LITE_SPRAM_BASE + a for
 * a < LITE_DEV_MEM_BYTES; the top 4 KB are the firmware's data and stack. */
#define LITE_SPRAM_BASE 0x20000000u
#define LITE_SPRAM_BYTES (128u * 1024u)
#define LITE_DEV_MEM_BYTES (124u * 1024u)
#define LITE_FW_DATA_BASE 0x2001f000u
#define LITE_FW_DATA_BYTES (4u * 1024u)
#define LITE_STACK_TOP 0x20020000u

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ptpu_soc.h - what the command-processor firmware needs of the SoC (rtl/soc/tpu_soc.sv)
 * beyond the generated map in picotpu_isa.h.
 */
#ifndef PTPU_SOC_H
#define PTPU_SOC_H

#include <stdint.h>

#include "picotpu_isa.h"

/* PTPU_PLATFORM_SOC_INFO (picotpu_isa.h): bits 7:0 = memory channels with byte counters in
 * the CNT page (CH_RD_BYTES0 + 8c, CH_WR_BYTES0 + 8c). */

/* TPU page bits (docs/isa.md) */
#define PTPU_CTRL_START 1u
#define PTPU_CTRL_ABORT 2u
#define PTPU_TPU_STATUS_BUSY 1u
#define PTPU_TPU_STATUS_DONE 2u
#define PTPU_TPU_STATUS_FAULT 4u
#define PTPU_WIN_STRIDE 16u
#define PTPU_WIN_PERM_READ 1u
#define PTPU_WIN_PERM_WRITE 2u

#define PTPU_MMIO(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#endif

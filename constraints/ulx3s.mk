# SPDX-License-Identifier: Apache-2.0
# constraints/ulx3s.mk - the ULX3S (ECP5 LFE5U-85F-6BG381C) build (mk/board.mk, docs/boards.md).
#
# Clock: the PLL makes 25 MHz * CLKFB_DIV / CLKI_DIV = 25 * 12 / 5 = 60 MHz (PFD 5 MHz, VCO
# 60 * CLKOP_DIV = 600 MHz); 60 MHz is 20 clocks per bit at the FT231X's 3 Mbaud.
# The 8 x 8 build (13:39-15:17 UTC, session 5) fits but reaches only 13.95 MHz, so the build
# stops with "misses timing" (docs/boards.md).  A multiple of 3 MHz (3 Mbaud) from this PLL
# is a multiple of 15 MHz; 10 MHz would be PllClkiDiv=5 PllClkfbDiv=2 PllClkopDiv=60
# PllSdramPhase=30 at Baud=2000000 (not built yet).
BOARD_ulx3s_FAMILY := ecp5
BOARD_ulx3s_TOP := ulx3s_top
BOARD_ulx3s_SRCS := $(BOARD_COMMON_SRCS) rtl/boards/ulx3s_top.sv
BOARD_ulx3s_CONFIG := ulx3s
# The LFE5U-85F has 156 MULT18X18D.  The 8 x 8 array (config ulx3s) puts all its 64 int8
# products on DSPs, the VPU 32 (8 lanes of 32 x 32 requantizing multiplies, 4 each) and the
# compute and store engines 11: 107.  A 16 x 16 array needs 331 and so logic products:
# -DTPU_MXU_DSP_PES=80 -DTPU_ECP5 (tpu_mxu DspPes, docs/mxu.md) makes 155, but that SoC
# takes 99 % of the LUT places (docs/performance.md, Boards) and was never placed.
BOARD_ulx3s_DEFINES :=
BOARD_ulx3s_MHZ := 60
BOARD_ulx3s_FW_RAM_KB := 16
BOARD_ulx3s_TOP_PARAMS := ClkHz=60000000 Baud=3000000 PllClkiDiv=5 PllClkfbDiv=12 PllClkopDiv=10 \
                          PllSdramPhase=5 FwRamKb=$(BOARD_ulx3s_FW_RAM_KB)
BOARD_ulx3s_CONSTRAINTS := constraints/ulx3s.lpf
BOARD_ulx3s_NEXTPNR = $(NEXTPNR_ECP5)
BOARD_ulx3s_PNR_ARGS := --85k --package CABGA381 --speed 6 --lpf ulx3s.lpf --textcfg ulx3s.config
BOARD_ulx3s_PACK = $(ECPPACK) --compress
BOARD_ulx3s_FLASH = $(OPENFPGALOADER) -b ulx3s
BOARD_ulx3s_FLASH_VAR := OPENFPGALOADER
BOARD_ulx3s_FW := $(FW_BUILD)/ptpu_cp.bin

# SPDX-License-Identifier: Apache-2.0
# constraints/ulx3s.mk - the ULX3S (ECP5 LFE5U-85F-6BG381C) build (mk/board.mk, docs/boards.md).
#
# Clock: the PLL makes 25 MHz * CLKFB_DIV / CLKI_DIV = 25 * 12 / 5 = 60 MHz (PFD 5 MHz, VCO
# 60 * CLKOP_DIV = 600 MHz); 60 MHz is 20 clocks per bit at the FT231X's 3 Mbaud.
BOARD_ulx3s_FAMILY := ecp5
BOARD_ulx3s_TOP := ulx3s_top
BOARD_ulx3s_SRCS := $(BOARD_COMMON_SRCS) rtl/boards/ulx3s_top.sv
BOARD_ulx3s_CONFIG := ulx3s
# The LFE5U-85F has 156 MULT18X18D.  Without this the SoC infers 331: the array's 256 int8
# products, the VPU's 64 (16 lanes of 32 x 32 requantizing multiplies, 4 each) and 11 in
# the compute and store engines.  Only the first 80 PEs of the 16 x 16 array multiply with
# a DSP (tpu_mxu DspPes, docs/mxu.md), the other 176 in logic: 80 + 64 + 11 = 155.
# TPU_ECP5 builds those logic products from hand-instantiated CCU2C carry chains.
BOARD_ulx3s_MXU_DSP_PES := 80
BOARD_ulx3s_DEFINES := -DTPU_ECP5 -DTPU_MXU_DSP_PES=$(BOARD_ulx3s_MXU_DSP_PES)
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

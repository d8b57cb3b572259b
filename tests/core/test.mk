# SPDX-License-Identifier: Apache-2.0
# tests/core: tpu_core (fetch, queues, engines, buffers, counters) against the ref model.
CORE_PKGS := rtl/soc/tpu_isa_pkg.sv rtl/dma/tpu_dma_pkg.sv rtl/mxu/tpu_fp_pkg.sv \
             $(sort $(wildcard rtl/vpu/*_pkg.sv))
CORE_MODS := rtl/mem/tpu_mem_cg.sv rtl/dma/tpu_dma_fifo.sv rtl/dma/tpu_dma_prot.sv rtl/dma/tpu_dma_agen.sv \
             rtl/dma/tpu_dma_rd.sv rtl/dma/tpu_dma_wr.sv rtl/dma/tpu_dma.sv \
             rtl/mxu/tpu_mxu_row.sv rtl/mxu/tpu_mxu_array.sv rtl/mxu/tpu_acc.sv rtl/mxu/tpu_mxu.sv \
             $(filter-out %_pkg.sv,$(sort $(wildcard rtl/vpu/*.sv))) \
             rtl/soc/tpu_core_fifo.sv rtl/soc/tpu_core_ram.sv rtl/soc/tpu_core_fetch.sv \
             rtl/soc/tpu_core_load.sv rtl/soc/tpu_core_store.sv rtl/soc/tpu_core_compute.sv \
             rtl/soc/tpu_core.sv
CORE_RTL := $(CORE_PKGS) $(CORE_MODS)
CORE_TB := tests/core/tb_core.c tests/dma/axi_mem.c host/src/ref/ptpu_ref.c host/src/ptpu_dmafn.c \
           host/src/ptpu_vpu.c host/src/ptpu_arith.c $(wildcard tests/soc/progen.c)
CORE_TB_DEPS := tests/dma/axi_mem.h host/src/ref/ptpu_ref.h host/include/picotpu_isa.h \
                $(wildcard tests/soc/progen.h)

# name:N:EnableBf16:UbRows:WbRows:AccRows:VpRows:MemKb:random programs per run:AccReadPort
# - N=4 bf16 with small buffers, N=16 bf16 with the sim16 buffers (the benchmark), N=4
# int8-only (the iCEBreaker array) with the FPGA's shared ACC read port.
CORE_CONFIGS := c4:4:1:256:64:128:16:4096:400:1 \
                c16:16:1:4096:1024:2048:256:4096:80:1 \
                c4i:4:0:256:64:128:16:4096:400:0
core_f = $(word $(2),$(subst :, ,$(1)))
core_params = N=$(call core_f,$(1),2) EnableBf16=$(call core_f,$(1),3) UbRows=$(call core_f,$(1),4) \
  WbRows=$(call core_f,$(1),5) AccRows=$(call core_f,$(1),6) VpRows=$(call core_f,$(1),7) \
  MemKb=$(call core_f,$(1),8) AccReadPort=$(call core_f,$(1),10)
# The MXU's simulation settings (tests/mxu/test.mk): 32-bit lanes, big loops kept as loops.
CORE_VFLAGS := -GWideLanes=1 --unroll-stmts 1500
define core_config
$(eval $(call tb_model,core_$(call core_f,$(1),1),tpu_core,$(CORE_RTL),$(addprefix -G,$(call core_params,$(1))) -GConfigName='"$(call core_f,$(1),1)"' $(CORE_VFLAGS)))
$(eval $(call tb_prog,tb_core_$(call core_f,$(1),1),core_$(call core_f,$(1),1),$(CORE_TB)))
endef
$(foreach c,$(CORE_CONFIGS),$(eval $(call core_config,$(c))))
$(foreach c,$(CORE_CONFIGS),$(eval $(tb_core_$(call core_f,$(c),1)_BIN): $(CORE_TB_DEPS)))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_core_%: TB_PROG_CFLAGS := -Itests/core -Itests/dma -Itests/soc \
  -Itests/ref -Ihost/include -Ihost/src -Ihost/src/ref $(if $(wildcard tests/soc/progen.c),-DCORE_HAVE_PROGEN)

# CORE_PROGS=N overrides the number of random programs (soak runs).
CORE_TESTS := $(foreach c,$(CORE_CONFIGS),test-core-$(call core_f,$(c),1))
TEST_TARGETS += $(CORE_TESTS)
.PHONY: $(CORE_TESTS)
$(foreach c,$(CORE_CONFIGS),$(eval test-core-$(call core_f,$(c),1): $(tb_core_$(call core_f,$(c),1)_BIN)))
$(CORE_TESTS): test-core-%:
	@$(call run_test,core_$*,$< --progs $(or $(CORE_PROGS),$(call core_f,$(filter $*:%,$(CORE_CONFIGS)),9)) \
	  $(if $(SEED),--seed $(SEED)))

# Lint: every named configuration of mk/configs.mk.  The 32 x 32 and 128 x 128 ones take
# minutes (the Yosys read of the bf16 array and vector unit): `make lint` only.
CORE_SLOW_LINT := sim32 sim128
$(foreach c,$(filter-out $(CORE_SLOW_LINT),$(SOC_CONFIGS)),$(eval $(call lint_config,core_$(c),tpu_core,$(CORE_RTL),$(filter-out NumPch=% MemBackend=%,$(SOC_CFG_$(c))))))
CORE_SAVED_LINT := $(LINT_TARGETS)
$(foreach c,$(CORE_SLOW_LINT),$(eval $(call lint_config,core_$(c),tpu_core,$(CORE_RTL),$(filter-out NumPch=% MemBackend=%,$(SOC_CFG_$(c))))))
LINT_SLOW_TARGETS += $(filter-out $(CORE_SAVED_LINT),$(LINT_TARGETS))
LINT_TARGETS := $(CORE_SAVED_LINT)

# Benchmark: back-to-back MATMULs of a tiled int8 GEMM (MXU utilization).
BENCH_TARGETS += bench-core
.PHONY: bench-core
bench-core: $(tb_core_c16_BIN)
	@mkdir -p build/bench
	@$< --bench --seed 1 > build/bench/core.log
	@grep '^BENCH ' build/bench/core.log | while read -r _ name value unit config; do \
	  scripts/bench-record.sh "$$name" "$$value" "$$unit" "$$config" \
	    "build/tb/bin/tb_core_c16 --bench --seed 1"; done
	@grep -q '^PASS ' build/bench/core.log

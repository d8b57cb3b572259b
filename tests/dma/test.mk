# SPDX-License-Identifier: Apache-2.0
# DMA: models per configuration, the testbench, lint, tests and benchmarks.
DMA_RTL := rtl/dma/tpu_dma_pkg.sv rtl/soc/tpu_core_fifo.sv rtl/dma/tpu_dma_fifo.sv rtl/dma/tpu_dma_prot.sv \
           rtl/dma/tpu_dma_agen.sv rtl/dma/tpu_dma_rd.sv rtl/dma/tpu_dma_wr.sv rtl/dma/tpu_dma.sv
DMA_TB := tests/dma/tb_dma.c tests/dma/dma_model.c tests/dma/axi_mem.c
DMA_TB_DEPS := tests/dma/dma_model.h tests/dma/axi_mem.h

# name:AddrWidth:DataWidth:RowBytes:NumWindows:MaxBurst:ReadBufBeats:RowQueueDepth:WriteBufBeats:MaxOutstanding:iters
# - every configuration the DMA claims (docs/dma.md, "Configurations").  The
# last field scales the random tests in `make test` (slow models run fewer).
DMA_CONFIGS := d256r64:32:256:64:4:16:128:128:32:32:6 \
               d256r32:32:256:32:2:64:64:32:64:4:6 \
               d256r512:32:256:512:4:32:64:16:64:8:3 \
               d64r16:32:64:16:8:8:16:16:16:4:6 \
               d64r64:32:64:64:3:256:256:8:256:16:6 \
               d32r64:32:32:64:2:2:2:2:2:2:4 \
               d32r4:17:32:4:1:4:4:4:4:2:6

dma_f = $(word $(2),$(subst :, ,$(1)))
dma_params = AddrWidth=$(call dma_f,$(1),2) DataWidth=$(call dma_f,$(1),3) \
  RowBytes=$(call dma_f,$(1),4) NumWindows=$(call dma_f,$(1),5) MaxBurst=$(call dma_f,$(1),6) \
  ReadBufBeats=$(call dma_f,$(1),7) RowQueueDepth=$(call dma_f,$(1),8) \
  WriteBufBeats=$(call dma_f,$(1),9) MaxOutstanding=$(call dma_f,$(1),10)
define dma_config
$(eval $(call tb_model,dma_$(call dma_f,$(1),1),tpu_dma,$(DMA_RTL),$(addprefix -G,$(call dma_params,$(1)))))
$(eval $(call tb_prog,tb_dma_$(call dma_f,$(1),1),dma_$(call dma_f,$(1),1),$(DMA_TB)))
$(eval $(call lint_config,dma_$(call dma_f,$(1),1),tpu_dma,$(DMA_RTL),$(call dma_params,$(1))))
endef
$(foreach c,$(DMA_CONFIGS),$(eval $(call dma_config,$(c))))
$(foreach c,$(DMA_CONFIGS),$(eval $(tb_dma_$(call dma_f,$(c),1)_BIN): $(DMA_TB_DEPS)))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_dma_%: TB_PROG_CFLAGS := -Itests/dma

# DMA_ITERS=N overrides the scale of every configuration, for soak runs.
DMA_TESTS := $(foreach c,$(DMA_CONFIGS),test-dma-$(call dma_f,$(c),1))
TEST_TARGETS += $(DMA_TESTS)
.PHONY: $(DMA_TESTS)
$(foreach c,$(DMA_CONFIGS),$(eval test-dma-$(call dma_f,$(c),1): $(tb_dma_$(call dma_f,$(c),1)_BIN)))
$(DMA_TESTS): test-dma-%:
	@$(call run_test,dma_$*,$< --max-burst $(call dma_f,$(filter $*:%,$(DMA_CONFIGS)),6) \
	  --iters $(or $(DMA_ITERS),$(call dma_f,$(filter $*:%,$(DMA_CONFIGS)),11)) $(if $(SEED),--seed $(SEED)))

# Benchmarks: the default configuration against an ideal memory.
BENCH_TARGETS += bench-dma
.PHONY: bench-dma
bench-dma: $(tb_dma_d256r64_BIN)
	@mkdir -p build/bench
	@$< --max-burst 16 --bench --seed 1 > build/bench/dma.log
	@grep '^BENCH ' build/bench/dma.log | while read -r _ name value unit config; do \
	  scripts/bench-record.sh "$$name" "$$value" "$$unit" "$$config" \
	    "build/tb/bin/tb_dma_d256r64 --max-burst 16 --bench --seed 1"; done
	@grep -q '^PASS ' build/bench/dma.log

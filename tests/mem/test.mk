# SPDX-License-Identifier: Apache-2.0
# tests/mem/test.mk - memory system (rtl/mem, sim/hbm2): models, tests, lint, benchmarks.
#
# Each configuration is one Verilated tpu_mem_sys; its test runs tests/mem/tb_mem.c with
# the same Name=Value list, so the C models see exactly the RTL parameters.

MEM_SRCS := rtl/mem/tpu_mem_pkg.sv rtl/mem/tpu_mem_fifo.sv rtl/mem/tpu_mem_rr_arb.sv \
            rtl/mem/tpu_mem_interleave.sv rtl/mem/tpu_mem_oldest.sv rtl/mem/tpu_mem_axi_wr.sv \
            rtl/mem/tpu_mem_axi_rd.sv rtl/mem/tpu_mem_pch_ctrl.sv rtl/mem/tpu_mem_spram.sv \
            rtl/mem/tpu_mem_sys.sv
MEM_TB_SRCS := tests/mem/tb_mem.c tests/mem/mem_ref.c sim/hbm2/hbm2.c
MEM_TB_DEPS := tests/mem/mem_ref.h sim/hbm2/hbm2.h

# Test configurations (random bursts per run in MEM_BURSTS_<cfg>; MEM_SOAK=K multiplies).
MEM_CFG_p1 := NumPorts=1 NumPch=1 GranBytes=256 RowBits=10 RefreshMode=0 BankHash=0
MEM_CFG_p2 := NumPorts=2 NumPch=2 GranBytes=64 RowBits=9 RefreshMode=1 BankHash=1
MEM_CFG_p4 := NumPorts=3 NumPch=4 GranBytes=1024 RowBits=8 RefreshMode=0 CloseIdle=64 \
              RowHitCap=4 QueueDepth=16 RobDepth=32 TRefi=1200 TRfc=120
MEM_CFG_p8 := NumPorts=4 NumPch=8 RefreshMode=1
MEM_CFG_sp := NumPorts=2 NumPch=2 GranBytes=128 Backend=1 SpramBytes=131072
MEM_BURSTS_p1 := 60000
MEM_BURSTS_p2 := 60000
MEM_BURSTS_p4 := 60000
MEM_BURSTS_p8 := 60000
MEM_BURSTS_sp := 20000
MEM_CONFIGS := p1 p2 p4 p8 sp

# Verilator: one C++ class per module (shared by its instances) and loops over the
# queue and the banks kept as loops build ten times faster and simulate faster.
MEM_VFLAGS := -fno-inline --unroll-count 8

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
test-mem: $(addprefix test-mem-,$(MEM_CONFIGS))

# Lint: the default configuration, the extremes, and the SPRAM backend.
$(eval $(call lint_config,mem_default,tpu_mem_sys,$(MEM_SRCS),))
$(eval $(call lint_config,mem_p16,tpu_mem_sys,$(MEM_SRCS),NumPorts=3 NumPch=16 RefreshMode=1 CloseIdle=64 GranBytes=32 RowBits=8 QueueDepth=16 BankHash=0))
$(eval $(call lint_config,mem_p1,tpu_mem_sys,$(MEM_SRCS),NumPorts=1 NumPch=1 RowHitCap=1 RefPostpone=1 QueueDepth=4 RobDepth=2 WriteHigh=2 WriteLow=0))
$(eval $(call lint_config,mem_spram,tpu_mem_sys,$(MEM_SRCS),NumPorts=2 NumPch=1 Backend=1))

# SPDX-License-Identifier: Apache-2.0
# tests/soc/test.mk - the SoC (rtl/soc/tpu_soc.sv), its simulation library (sim/) and the
# end-to-end tests through the link (tests/soc/).
#
# build/sim/<config>/libpicotpu_sim.a (and .so): tpu_soc Verilated with the parameters of
# SOC_CFG_<config> (mk/configs.mk), the HBM2 models, the glue; `make sim` builds them.

SIM_CONFIGS := sim16
SIM_BUILD := build/sim

# Sources: packages first.
SOC_PKGS := rtl/soc/tpu_isa_pkg.sv rtl/cpu/tpu_cpu_pkg.sv rtl/mem/tpu_mem_pkg.sv rtl/dma/tpu_dma_pkg.sv \
            rtl/mxu/tpu_fp_pkg.sv $(sort $(wildcard rtl/vpu/*_pkg.sv rtl/link/*_pkg.sv rtl/soc/tpu_core*_pkg.sv))
SOC_MODS := $(filter-out %_pkg.sv,$(sort $(wildcard rtl/cpu/*.sv rtl/mem/*.sv rtl/dma/*.sv rtl/mxu/*.sv \
              rtl/vpu/*.sv rtl/link/*.sv rtl/soc/tpu_core*.sv rtl/soc/tpu_soc*.sv)))
SOC_SRCS := $(SOC_PKGS) $(SOC_MODS)

soc_p = $(patsubst $(1)=%,%,$(filter $(1)=%,$(SOC_CFG_$(2))))
soc_rowbits = $(shell awk 'BEGIN { x = $(1) * 1024 / $(2); r = 0; while (x > 1) { x /= 2; r++ }; print r - 14 }')
SOC_FW_RAM_KB := 16
SOC_GRAN := 256
SOC_BANK_HASH := 1
SOC_FW := $(FW_BUILD)/ptpu_cp.bin

# A configuration may add Verilator parameters (SIM_GFLAGS_<config>, e.g. -GLinkPhy=1) and
# C defines for sim/picotpu_sim.c (SIM_CDEFS_<config>); both are empty by default.
# Verilator: the flags of mk/tb.mk for models, FST tracing compiled in (opened on demand),
# loops of up to 16 iterations unrolled (the lanes of the N = 16 MXU, ACC, VPU and the
# bank loops of the HBM2 controllers; the 32-entry queue loops stay loops), the MXU's
# statement limit (bf16 lanes stay loops), wide expressions of up to 256 words expanded into
# word operations (the default of 64 left the memory counters' 2,304-bit output a chain of
# wide concatenations in every cycle), position-independent code for the .so.
# docs/performance.md, "Simulator speed on the RTL".
SIM_VFLAGS := -O3 --x-assign fast --x-initial fast --assert -Wno-fatal --trace-fst \
              --unroll-count 16 --unroll-stmts 1500 --expand-limit 256 -CFLAGS -fPIC
SIM_CXXFLAGS := -I$(VINC) -I$(VINC)/vltstd -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 \
                -DVM_TRACE_VCD=0 -faligned-new -fcf-protection=none -fPIC -O2 -Wno-unused-parameter
SIM_CFLAGS := -std=gnu11 -O2 -g -fPIC -Wall -Wextra -Werror -Isim/include -Isim/hbm2 -Isim/tb -Isim
SIM_LDLIBS := -lstdc++ -lm -lz -pthread -latomic

# The Verilator runtime with FST, compiled once.
SIM_RT_SRCS := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp
SIM_RT := $(SIM_BUILD)/vlrt/libvlrt.a
$(SIM_RT): $(addprefix $(VINC)/,$(SIM_RT_SRCS))
	@mkdir -p $(@D)
	cd $(@D) && for s in $(SIM_RT_SRCS); do \
	  $(CXX) $(SIM_CXXFLAGS) -c $(VINC)/$$s -o $${s%.cpp}.o; done
	$(AR) rcs $@ $(addprefix $(@D)/,$(SIM_RT_SRCS:.cpp=.o))

# soc_sim_gflags,CONFIG: the SoC parameters of a simulation library (this one and the
# benchmark library, tests/workloads/test.mk): the configuration's, the firmware RAM, the
# interleave, wide MXU lanes and the simulation clock gates (same cycles, faster model).
soc_sim_gflags = $(addprefix -G,$(SOC_CFG_$(1))) -GConfigName=\"$(1)\" -GFwRamKb=$(SOC_FW_RAM_KB) \
  -GGranBytes=$(SOC_GRAN) -GBankHash=$(SOC_BANK_HASH) -GWideLanes=1 -GSimGate=1 $(SIM_GFLAGS_$(1))

define SIM_CONFIG
SIM_$(1)_DIR := $(SIM_BUILD)/$(1)
SIM_$(1)_LIB := $(SIM_BUILD)/$(1)/libpicotpu_sim.a
SIM_$(1)_SO := $(SIM_BUILD)/$(1)/libpicotpu_sim.so
SIM_$(1)_PCH := $(call soc_p,NumPch,$(1))
SIM_$(1)_ROWBITS := $(call soc_rowbits,$(call soc_p,MemKb,$(1)),$(call soc_p,NumPch,$(1)))
SIM_$(1)_DEFS := -DPTPU_SIM_CONFIG=$(1) -DPTPU_SIM_N=$(call soc_p,N,$(1)) -DPTPU_SIM_BF16=$(call soc_p,EnableBf16,$(1)) \
  -DPTPU_SIM_UB_ROWS=$(call soc_p,UbRows,$(1)) -DPTPU_SIM_WB_ROWS=$(call soc_p,WbRows,$(1)) \
  -DPTPU_SIM_ACC_ROWS=$(call soc_p,AccRows,$(1)) -DPTPU_SIM_VP_ROWS=$(call soc_p,VpRows,$(1)) \
  -DPTPU_SIM_NUM_PCH=$$(SIM_$(1)_PCH) -DPTPU_SIM_MEM_KB=$(call soc_p,MemKb,$(1))u \
  -DPTPU_SIM_GRAN_BYTES=$(SOC_GRAN) -DPTPU_SIM_ROW_BITS=$$(SIM_$(1)_ROWBITS) -DPTPU_SIM_BANK_HASH=$(SOC_BANK_HASH) \
  -DPTPU_SIM_FW_RAM_KB=$(SOC_FW_RAM_KB) -DPTPU_SIM_DEFAULT_FW=$(abspath $(SOC_FW)) $$(SIM_CDEFS_$(1))
TB_MODELS += soc_$(1)
soc_$(1)_LIB := $$(SIM_$(1)_LIB) $$(SIM_$(1)_SO)

$$(SIM_$(1)_DIR)/obj/Vmodel__ALL.a: $(SOC_SRCS) mk/configs.mk
	@mkdir -p $$(@D)
	@echo "  VERILATE soc $(1) ($$(SOC_CFG_$(1)))"
	@date +%s > $$(@D)/build_start
	$(VERILATOR) --cc $(SIM_VFLAGS) --top-module tpu_soc --prefix Vmodel --Mdir $$(@D) \
	  $$(call soc_sim_gflags,$(1)) $(SOC_SRCS)
	@$$(MAKE) -s -C $$(@D) -f Vmodel.mk VM_PARALLEL_BUILDS=1 OPT_FAST="-O2" OPT_SLOW=-O1 OPT_GLOBAL=-O1 Vmodel__ALL.a
	@echo "  BUILT soc $(1) in $$$$(( $$$$(date +%s) - $$$$(cat $$(@D)/build_start) )) s"

$$(SIM_$(1)_DIR)/glue.o: sim/picotpu_sim_glue.cpp sim/picotpu_sim_glue.h sim/tb/tb.h sim/tb/gen_ports.sh $$(SIM_$(1)_DIR)/obj/Vmodel__ALL.a
	@sim/tb/gen_ports.sh $$(SIM_$(1)_DIR)/obj/Vmodel.h > $$(SIM_$(1)_DIR)/obj/tb_ports.inc
	$(CXX) $(SIM_CXXFLAGS) -I$$(SIM_$(1)_DIR)/obj -Isim -Isim/tb -c $$< -o $$@

$$(SIM_$(1)_DIR)/picotpu_sim.o: sim/picotpu_sim.c sim/include/picotpu_sim.h sim/picotpu_sim_glue.h sim/hbm2/hbm2.h
	@mkdir -p $$(@D)
	$(CC) $(SIM_CFLAGS) $$(SIM_$(1)_DEFS) -c $$< -o $$@

$$(SIM_$(1)_DIR)/hbm2.o: sim/hbm2/hbm2.c sim/hbm2/hbm2.h
	@mkdir -p $$(@D)
	$(CC) $(SIM_CFLAGS) -c $$< -o $$@

SIM_$(1)_OBJS := $$(SIM_$(1)_DIR)/picotpu_sim.o $$(SIM_$(1)_DIR)/hbm2.o $$(SIM_$(1)_DIR)/glue.o
$$(SIM_$(1)_LIB): $$(SIM_$(1)_OBJS) $$(SIM_$(1)_DIR)/obj/Vmodel__ALL.a $(SIM_RT) $(SOC_FW)
	@rm -f $$@.tmp
	cp $$(SIM_$(1)_DIR)/obj/Vmodel__ALL.a $$@.tmp
	$(AR) rs $$@.tmp $$(SIM_$(1)_OBJS) $(SIM_BUILD)/vlrt/*.o 2>/dev/null
	@mv $$@.tmp $$@
$$(SIM_$(1)_SO): $$(SIM_$(1)_LIB)
	$(CXX) -shared -o $$@ -Wl,--whole-archive $$< -Wl,--no-whole-archive $(SIM_LDLIBS)
endef
$(foreach c,$(SIM_CONFIGS),$(eval $(call SIM_CONFIG,$(c))))

# Lint of the SoC top: the default configuration, the iCEBreaker's (SPRAM memory, 64-bit
# bus, UART link PHY) and the ULX3S's (SDRAM memory, 64-bit bus, UART link PHY).
$(eval $(call lint_config,soc_sim16,tpu_soc,$(SOC_SRCS),$(SOC_CFG_sim16)))
$(eval $(call lint_config,soc_icebreaker,tpu_soc,$(SOC_SRCS),$(SOC_CFG_icebreaker) LinkPhy=1 ClkHz=12000000 Baud=3000000))
$(eval $(call lint_config,soc_ulx3s,tpu_soc,$(SOC_SRCS),$(SOC_CFG_ulx3s) LinkPhy=1 ClkHz=50000000 Baud=3000000))

# End-to-end tests: tb_soc_<config> (tests/soc/tb_soc.c) with the link codec, progen and ref.
SOC_TB_SRCS := tests/soc/tb_soc.c tests/soc/linkcli.c tests/soc/progen.c host/src/ptpu_link.c host/src/ref/ptpu_ref.c \
               host/src/ptpu_dmafn.c host/src/ptpu_vpu.c host/src/ptpu_arith.c
SOC_TB_HDRS := tests/soc/progen.h tests/soc/linkcli.h host/src/ptpu_link.h host/src/ref/ptpu_ref.h host/src/ptpu_dmafn.h \
               host/src/ptpu_vpu.h host/src/ptpu_arith.h host/include/picotpu_isa.h sim/include/picotpu_sim.h
SOC_TB_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Isim/include -Ihost/include -Ihost/src \
                 -Ihost/src/ref -Itests/soc

define SOC_TB
build/sim/bin/tb_soc_$(1): $(SOC_TB_SRCS) $(SOC_TB_HDRS) $$(SIM_$(1)_LIB)
	@mkdir -p $$(@D)
	$(CC) $(SOC_TB_CFLAGS) -o $$@ $(SOC_TB_SRCS) $$(SIM_$(1)_LIB) $(SIM_LDLIBS)
endef
$(foreach c,$(SIM_CONFIGS),$(eval $(call SOC_TB,$(c))))

# make test: the sim16 library and its end-to-end test; the benchmark records simulator speed.
TB_PROGS += build/sim/bin/tb_soc_sim16
SOC_PROGS ?= 24
TEST_TARGETS += test-soc
.PHONY: test-soc bench-soc
test-soc: build/sim/bin/tb_soc_sim16 $(SOC_FW)
	@$(call run_test,soc-sim16,$< --progs $(SOC_PROGS) $(if $(SEED),--seed $(SEED)))

# The memory test with the seeds that once read bytes a posted MEM_WRITE had not yet
# written before a backdoor read (docs/soc.md, "Memory backdoor").
SOC_MEM_SEEDS := 110 3775815852 173322298
TEST_TARGETS += test-soc-mem-seeds
.PHONY: test-soc-mem-seeds
test-soc-mem-seeds: build/sim/bin/tb_soc_sim16 $(SOC_FW)
	@$(call run_test,soc-sim16-mem-seeds,sh -c 'for s in $(SOC_MEM_SEEDS); do $< --only mem --seed $$s || exit 1; done')

BENCH_TARGETS += bench-soc
bench-soc: build/sim/bin/tb_soc_sim16 $(SOC_FW)
	@out=$$($< --bench --cycles 1000000 --seed 1); echo "$$out"; \
	  v=$$(echo "$$out" | awk '/^BENCH soc.sim_cycles_per_s/ {print $$3}'); \
	  scripts/bench-record.sh soc.sim_cycles_per_s "$$v" cycles/s sim16 "$< --bench --cycles 1000000 --seed 1"
	@out=$$($< --only progs --progs 100 --seed 7 || true); echo "$$out" | grep -E '^(PASS|FAIL)'; \
	  p=$$(echo "$$out" | awk '/^DIFF programs/ {print $$3}'); m=$$(echo "$$out" | awk '/^DIFF programs/ {print $$5}'); \
	  scripts/bench-record.sh diff.programs "$$p" programs sim16 "$< --only progs --progs 100 --seed 7"; \
	  scripts/bench-record.sh diff.mismatches "$$m" programs sim16 "$< --only progs --progs 100 --seed 7"

# SPDX-License-Identifier: Apache-2.0
# tests/workloads/test.mk - real workloads (docs/workloads.md): the drivers in bench/
# (ResNet-50 v1.5, BERT-base matmuls, GEMM 1024^3), the report generator, `make bench`
# targets, and a fast subset in `make test` checked bit for bit against the naive kernels.
WL_BUILD := build/bench/bin
WL_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Ibench
WL_LIB := build/host/libpicotpu.a
WL_LDLIBS := -lz -lm -pthread -ldl
WL_DEPS := bench/rn50net.c bench/rn50net.h host/include/picotpu.h host/include/picotpu_model.h $(WL_LIB)

$(WL_BUILD)/resnet50: bench/resnet50.c $(WL_DEPS)
	@mkdir -p $(@D)
	$(CC) $(WL_CFLAGS) $< bench/rn50net.c -o $@ $(WL_LIB) $(WL_LDLIBS)

$(WL_BUILD)/bert: bench/bert.c host/include/picotpu.h host/src/ptpu_kernels.h $(WL_LIB)
	@mkdir -p $(@D)
	$(CC) $(WL_CFLAGS) $< -o $@ $(WL_LIB) $(WL_LDLIBS)

WL_BINS := $(WL_BUILD)/resnet50 $(WL_BUILD)/bert
TB_PROGS += $(WL_BINS)

# make test: two ResNet-50 layers (the 7x7/2 stem and the v1.5 stride-2 3x3 of stage 2, at a
# 56x56 input) and the BERT encoder matmuls at reduced size (sequence 32, hidden 128, 2 heads,
# FFN 256; int8 and bf16), on ref and on the RTL (sim16), bit for bit against the naive kernels.
WL_SEED = $(if $(SEED),--seed $(SEED))
WL_RN_SMALL := --size 56 --build-layers 17 --layers conv1,s2b0.c2
WL_BERT_SMALL := --seq 32 --hidden 128 --heads 2 --ffn 256
WL_SIM_DEPS := $(SIM_sim16_SO) $(SOC_FW)
WL_TESTS := test-workloads-resnet50 test-workloads-bert test-workloads-resnet50-sim \
            test-workloads-bert-sim
TEST_TARGETS += $(WL_TESTS)
.PHONY: $(WL_TESTS) check-workloads-sim
test-workloads-resnet50: $(WL_BUILD)/resnet50
	@$(call run_test,workloads_resnet50,$< --device ref:sim16 $(WL_RN_SMALL) $(WL_SEED))
test-workloads-bert: $(WL_BUILD)/bert
	@$(call run_test,workloads_bert,$< --device ref:sim16 $(WL_BERT_SMALL) $(WL_SEED))
test-workloads-resnet50-sim: $(WL_BUILD)/resnet50 $(WL_SIM_DEPS)
	@$(call run_test,workloads_resnet50_sim,$< --device sim:config=sim16 $(WL_RN_SMALL) $(WL_SEED))
test-workloads-bert-sim: $(WL_BUILD)/bert $(WL_SIM_DEPS)
	@$(call run_test,workloads_bert_sim,$< --device sim:config=sim16 $(WL_BERT_SMALL) $(WL_SEED))
check-workloads-sim: test-workloads-resnet50-sim test-workloads-bert-sim

# The benchmark library for long RTL runs: the sim16 SoC Verilated without --trace-fst (every
# signal then stays a local instead of a traced member) and compiled by clang with profile-guided
# optimization: built with -fprofile-generate, trained on the two ResNet-50 layers and the
# reduced BERT matmuls of make test (int8 and bf16), profiles merged by llvm-profdata, built
# again with -fprofile-use and ThinLTO.  The same RTL and parameters as build/sim/sim16, so the
# same cycles; bench/bench.sh loads it through PTPU_SIM_LIB for the *-sim benchmarks
# (docs/performance.md, "Simulator speed on the RTL").  SIM_FAST_OPT has -march=native: the
# library is for this machine, it is built where it runs.  clang runs this model about 17 %
# faster than gcc with the same options (session 11).  Verilated with SIM_FAST_VEXTRA (the
# controllers' 32-entry queue loops unrolled too).  Not in make test (two model builds);
# `make sim-fast`, and make bench builds it.
SIM_FAST_DIR ?= $(SIM_BUILD)/fast/sim16
SIM_FAST_CXX ?= clang++
SIM_FAST_PROFDATA ?= llvm-profdata
SIM_FAST_OPT ?= -O3 -march=native
SIM_FAST_LTO ?= -flto=thin
SIM_FAST_VEXTRA ?= --unroll-count 32
SIM_FAST_SO := $(SIM_FAST_DIR)/libpicotpu_sim.so
SIM_FAST_CXXFLAGS := $(filter-out -DVM_TRACE=1 -DVM_TRACE_FST=1,$(SIM_CXXFLAGS)) -DVM_TRACE=0 -DVM_TRACE_FST=0
SIM_FAST_OBJS := $(SIM_sim16_DIR)/picotpu_sim.o $(SIM_sim16_DIR)/hbm2.o
SIM_FAST_TRAIN := $(WL_BUILD)/resnet50 --device sim:config=sim16 $(WL_RN_SMALL) --seed 1 && \
                  $(WL_BUILD)/bert --device sim:config=sim16 $(WL_BERT_SMALL) --seed 1
SIM_FAST_GEN := $(SIM_FAST_OPT) -fprofile-generate=$(abspath $(SIM_FAST_DIR))/prof
SIM_FAST_USE := $(SIM_FAST_OPT) $(SIM_FAST_LTO) -fprofile-use=$(abspath $(SIM_FAST_DIR))/sim16.profdata \
                -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date
# sim_fast_model,OPT: the model archive compiled with OPT
sim_fast_model = $(MAKE) -s -C $(SIM_FAST_DIR)/obj -f Vmodel.mk VM_PARALLEL_BUILDS=1 CXX=$(SIM_FAST_CXX) \
  LINK=$(SIM_FAST_CXX) OPT_FAST="$(1)" OPT_SLOW=-O1 OPT_GLOBAL=-O1 Vmodel__ALL.a
# sim_fast_link,VARIANT,LDFLAGS: the model archive, glue and C parts into VARIANT/libpicotpu_sim.so
sim_fast_link = $(SIM_FAST_CXX) -shared -fuse-ld=lld -o $(SIM_FAST_DIR)/$(1)/libpicotpu_sim.so $(2) \
  $(SIM_FAST_DIR)/glue.o $(SIM_FAST_OBJS) -Wl,--whole-archive $(SIM_FAST_DIR)/obj/Vmodel__ALL.a \
  -Wl,--no-whole-archive $(SIM_RT) $(SIM_LDLIBS)
.PHONY: sim-fast
sim-fast: $(SIM_FAST_SO)
$(SIM_FAST_SO): $(SOC_SRCS) mk/configs.mk sim/picotpu_sim_glue.cpp sim/picotpu_sim_glue.h $(SIM_FAST_OBJS) \
                $(SIM_RT) $(SOC_FW) $(WL_BINS)
	@rm -rf $(SIM_FAST_DIR) && mkdir -p $(SIM_FAST_DIR)/obj $(SIM_FAST_DIR)/gen
	@date +%s > $(SIM_FAST_DIR)/build_start
	@echo "  VERILATE soc sim16 (benchmark library: no tracing, clang, profile-guided)"
	$(VERILATOR) --cc $(filter-out --trace-fst,$(SIM_VFLAGS)) $(SIM_FAST_VEXTRA) --top-module tpu_soc --prefix Vmodel \
	  --Mdir $(SIM_FAST_DIR)/obj $(call soc_sim_gflags,sim16) $(SOC_SRCS)
	@sim/tb/gen_ports.sh $(SIM_FAST_DIR)/obj/Vmodel.h > $(SIM_FAST_DIR)/obj/tb_ports.inc
	$(SIM_FAST_CXX) $(SIM_FAST_CXXFLAGS) -I$(SIM_FAST_DIR)/obj -Isim -Isim/tb -c sim/picotpu_sim_glue.cpp \
	  -o $(SIM_FAST_DIR)/glue.o
	@echo "  BUILD   instrumented (-fprofile-generate)"
	@$(call sim_fast_model,$(SIM_FAST_GEN))
	$(call sim_fast_link,gen,$(SIM_FAST_GEN))
	@echo "  TRAIN   $(SIM_FAST_TRAIN)"
	@PTPU_SIM_LIB=$(abspath $(SIM_FAST_DIR))/gen/libpicotpu_sim.so sh -c '$(SIM_FAST_TRAIN)' \
	  > $(SIM_FAST_DIR)/train.log 2>&1 || { tail -20 $(SIM_FAST_DIR)/train.log; exit 1; }
	@grep -q '^FAIL' $(SIM_FAST_DIR)/train.log && { grep '^FAIL' $(SIM_FAST_DIR)/train.log; exit 1; } || true
	$(SIM_FAST_PROFDATA) merge -o $(SIM_FAST_DIR)/sim16.profdata $(SIM_FAST_DIR)/prof/*.profraw
	@echo "  BUILD   optimized (-fprofile-use, ThinLTO)"
	@rm -f $(SIM_FAST_DIR)/obj/*.o $(SIM_FAST_DIR)/obj/Vmodel__ALL.a
	@$(call sim_fast_model,$(SIM_FAST_USE))
	$(call sim_fast_link,.,$(SIM_FAST_USE))
	@echo "  BUILT soc sim16 benchmark library in $$(( $$(date +%s) - $$(cat $(SIM_FAST_DIR)/build_start) )) s"

# make bench: the workloads (bench/bench.sh), then the report and plots (bench/report.py) from
# everything recorded so far.  bench-workloads-report runs last: BENCH_TARGETS run in order.
WL_BENCH := bench-workloads-resnet50 bench-workloads-bert bench-workloads-scaling \
            bench-workloads-resnet50-sim bench-workloads-bert-sim bench-workloads-fmnist-sim
BENCH_TARGETS += $(WL_BENCH) bench-workloads-report
.PHONY: $(WL_BENCH) bench-workloads-report bench-report
$(WL_BENCH): bench-workloads-%: $(WL_BINS) bench/bench.sh
	@bench/bench.sh $*
bench-workloads-fmnist-sim: $(FMNIST_BUILD)/eval
bench-workloads-resnet50-sim bench-workloads-bert-sim bench-workloads-fmnist-sim: $(SIM_FAST_SO)
bench-workloads-report:
	@scripts/bench-collect.sh build/bench/results.jsonl build/bench/results.json
	@python3 bench/report.py --dir build/bench
# the report alone, from the last `make bench`
bench-report:
	@python3 bench/report.py --dir build/bench

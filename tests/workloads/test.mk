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

# make bench: the workloads (bench/bench.sh), then the report and plots (bench/report.py) from
# everything recorded so far.  bench-workloads-report runs last: BENCH_TARGETS run in order.
WL_BENCH := bench-workloads-resnet50 bench-workloads-bert bench-workloads-scaling \
            bench-workloads-resnet50-sim bench-workloads-bert-sim bench-workloads-fmnist-sim
BENCH_TARGETS += $(WL_BENCH) bench-workloads-report
.PHONY: $(WL_BENCH) bench-workloads-report bench-report
$(WL_BENCH): bench-workloads-%: $(WL_BINS) bench/bench.sh
	@bench/bench.sh $*
bench-workloads-fmnist-sim: $(FMNIST_BUILD)/eval
bench-workloads-report:
	@scripts/bench-collect.sh build/bench/results.jsonl build/bench/results.json
	@python3 bench/report.py --dir build/bench
# the report alone, from the last `make bench`
bench-report:
	@python3 bench/report.py --dir build/bench

# SPDX-License-Identifier: Apache-2.0
# `make demo` (the top-level Makefile runs deps, then demo-run): the Fashion-MNIST CNN
# on the Verilated SoC through libpicotpu's sim backend (scripts/demo.sh), its
# benchmark figures, and the valgrind check of a demo run.  Paths are literal because
# this file is read before tests/host, tests/soc and tests/fmnist define them.
DEMO_IMAGES ?= 50
DEMO_OFFSET ?= 0
DEMO_SIM_SO := build/sim/sim16/libpicotpu_sim.so
DEMO_BINS := build/host/picotpu $(DEMO_SIM_SO) build/fw/ptpu_cp.bin build/fmnist/export

# `make test` builds the sim16 library for the sim backend tests (tests/host/test.mk).
TB_PROGS += $(DEMO_SIM_SO)

.PHONY: demo-build demo-run bench-demo
demo-build: $(DEMO_BINS)

demo-run: demo-build
	@scripts/demo.sh $(DEMO_IMAGES) $(DEMO_OFFSET)

# demo.accuracy, demo.cycles_per_image, demo.utilization: the demo's default images.
BENCH_TARGETS += bench-demo
DEMO_BENCH_CMD := scripts/demo.sh $(DEMO_IMAGES) $(DEMO_OFFSET)
bench-demo: demo-build
	@DEMO_JSON=build/demo/bench.json $(DEMO_BENCH_CMD) | tail -5
	@f() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
	  build/demo/bench.json "$$1"; }; \
	  scripts/bench-record.sh demo.accuracy "$$(f accuracy)" fraction 'sim16 images=$(DEMO_IMAGES)' '$(DEMO_BENCH_CMD)'; \
	  scripts/bench-record.sh demo.cycles_per_image "$$(f cycles_per_input)" cycles sim16 '$(DEMO_BENCH_CMD)'; \
	  scripts/bench-record.sh demo.utilization "$$(f utilization)" fraction sim16 '$(DEMO_BENCH_CMD)'

# Two simulated devices at once in one process (tests/demo/two_sims.c), under a time-out.
DEMO_TWO := build/demo/two_sims
TB_PROGS += $(DEMO_TWO)
$(DEMO_TWO): tests/demo/two_sims.c host/include/picotpu.h build/host/libpicotpu.a
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Ihost/include $< -o $@ build/host/libpicotpu.a \
	  -lz -lm -pthread -ldl
TEST_TARGETS += test-demo-two-sims
.PHONY: test-demo-two-sims
test-demo-two-sims: $(DEMO_TWO) $(DEMO_SIM_SO)
	@$(call run_test,demo_two_sims,timeout 600 $<)

# No definite or indirect leaks and no memory errors in a demo run under valgrind
# (docs/runtime.md): one image in `make test` (the SoC runs about 45 times slower under
# valgrind: ~1 minute of CPU), `make check-demo-valgrind DEMO_VG_IMAGES=N` for more.
VALGRIND ?= valgrind
DEMO_VG_IMAGES ?= 2
DEMO_VALGRIND := $(VALGRIND) --leak-check=full --errors-for-leak-kinds=definite,indirect \
                 --error-exitcode=1
TEST_TARGETS += test-demo-valgrind
.PHONY: test-demo-valgrind check-demo-valgrind
test-demo-valgrind: demo-build
	@$(call run_test,demo_valgrind,env DEMO_PICOTPU="$(DEMO_VALGRIND) build/host/picotpu" \
	  scripts/demo.sh 1 7)
check-demo-valgrind: demo-build
	@$(call run_test,demo_valgrind,env DEMO_PICOTPU="$(DEMO_VALGRIND) build/host/picotpu" \
	  scripts/demo.sh $(DEMO_VG_IMAGES) 0)

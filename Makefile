# SPDX-License-Identifier: Apache-2.0
# picotpu - an open, hackable TPU.  Thin front end; see `make help`.
.SHELLFLAGS := -eu -o pipefail -c
SHELL := /bin/bash
.DELETE_ON_ERROR:
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

VERILATOR ?= verilator
YOSYS ?= yosys
NEXTPNR_ICE40 ?= nextpnr-ice40
CC ?= gcc
CXX ?= g++
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# Every block registers its models, testbenches, lint configurations, tests
# and benchmarks from its own leaf makefile.
TB_MODELS :=
TB_PROGS :=
LINT_TARGETS :=
LINT_SLOW_TARGETS :=
TEST_TARGETS :=
# Long tests that need nothing from tests-build but the files in TEST_EARLY_DEPS (the
# board bitstreams, tests/boards/test.mk): `make test` starts them in a make of their own
# as soon as those are built, next to the build and test phases.
TEST_EARLY :=
BENCH_TARGETS :=
FW_TARGETS :=

include mk/tb.mk
include mk/lint.mk
include mk/run.mk
include mk/configs.mk
include $(sort $(wildcard fw/*.mk fw/lite/*.mk tests/*/test.mk))
include mk/board.mk

.PHONY: help deps lint lint-tested fw sim test demo bench clean tests-build spec spec-check
help:
	@echo "picotpu make targets:"
	@echo "  make deps     install every tool the project needs (Debian packages, PyPI)"
	@echo "  make demo     a Fashion-MNIST CNN on the simulated TPU (RTL): predictions, accuracy,"
	@echo "                cycles per image, MXU utilization (DEMO_IMAGES=N, default $(DEMO_IMAGES))"
	@echo "  make test     build and run every test; ends with 'N passed, N failed'"
	@echo "  make lint     verilator --lint-only -Wall and a Yosys read of every configuration"
	@echo "  make fw      build the RV32 firmware images"
	@echo "  make sim      build the Verilated models of every block and configuration"
	@echo "  make bench    run the benchmarks; figures in build/bench/results.json"
	@echo "  make spec     regenerate the files generated from spec/picotpu.toml"
	@echo "  make install  install libpicotpu, its headers, pkg-config file and CLI (PREFIX=/usr/local, DESTDIR)"
	@echo "  make bitstream BOARD=icebreaker|ulx3s   FPGA bitstream in build/boards/BOARD/ (Yosys, nextpnr);"
	@echo "                fails if the design does not fit or misses the board's clock (docs/boards.md)"
	@echo "  make flash BOARD=icebreaker|ulx3s       program the board (iceprog / openFPGALoader)"
	@echo "  make clean    remove build/"
	@echo "Options: WAVES=1 (FST traces in build/waves/), SEED=N (repeat a random run),"
	@echo "         JOBS=N (parallel builds, default $(JOBS))"

deps:
	@scripts/deps.sh

fw: $(FW_TARGETS)

sim: $(foreach m,$(TB_MODELS),$($(m)_LIB))

tests-build: $(TB_PROGS)

# `make test` lints every configuration it tests; `make lint` adds the
# benchmark-only ones (the 64 x 64 and 128 x 128 MXU).
# spec/picotpu.toml is the one source of truth for the ISA, registers and protocol.
spec:
	@scripts/gen-spec.py

spec-check:
	@scripts/gen-spec.py --check

lint: spec-check $(LINT_TARGETS) $(LINT_SLOW_TARGETS)
	@echo "lint: $(words $(LINT_TARGETS) $(LINT_SLOW_TARGETS)) configuration checks clean"

lint-tested: spec-check $(LINT_TARGETS)
	@echo "lint: $(words $(LINT_TARGETS)) configuration checks clean"

# Build everything first (in parallel), then run the tests, keeping going past
# failures so that the summary counts all of them.  The TEST_EARLY tests (the board
# builds: the iCEBreaker and ULX3S bitstreams, minutes of one core each) run in
# the background from the start, their output in build/test-logs/early.log and their PASS/FAIL lines in the
# results like every other test's.  The build and test phases run at nice 5, so that the
# board builds, the longest single jobs, keep a core of their own.
TEST_EARLY_LOG := build/test-logs/early.log
TEST_NICE := $(if $(strip $(TEST_EARLY)),nice -n 5)
test: deps
	@mkdir -p build/test-logs
	@rm -f $(TEST_RESULTS)
	@$(if $(strip $(TEST_EARLY_DEPS)),$(MAKE) --no-print-directory -j$(JOBS) $(TEST_EARLY_DEPS) || \
	  echo "FAIL build: a build step of the early tests failed (see the output above)" >> $(TEST_RESULTS),true)
	@early=; \
	if [ -n "$(strip $(TEST_EARLY))" ]; then \
	  echo "  EARLY $(strip $(TEST_EARLY)) (in the background: $(TEST_EARLY_LOG))"; \
	  $(MAKE) --no-print-directory -k -j$(JOBS) $(TEST_EARLY) > $(TEST_EARLY_LOG) 2>&1 & early=$$!; \
	fi; \
	$(TEST_NICE) $(MAKE) --no-print-directory -j$(JOBS) tests-build lint-tested || \
	  echo "FAIL build: a build or lint step failed (see the output above)" >> $(TEST_RESULTS); \
	$(TEST_NICE) $(MAKE) --no-print-directory -k -j$(JOBS) $(filter-out $(TEST_EARLY),$(TEST_TARGETS)) || \
	  echo "FAIL make: a test target failed to run (see the output above)" >> $(TEST_RESULTS); \
	if [ -n "$$early" ]; then \
	  echo "  waiting for $(strip $(TEST_EARLY)) ($(TEST_EARLY_LOG))"; \
	  wait $$early || echo "FAIL make: an early test target failed to run (see $(TEST_EARLY_LOG))" >> $(TEST_RESULTS); \
	  grep -E '^(PASS|FAIL) |^  \[' $(TEST_EARLY_LOG) || true; \
	fi
	@scripts/test-summary.sh $(TEST_RESULTS)

# deps, build (libpicotpu and its CLI, the firmware, the Verilated SoC), run:
# tests/demo/test.mk, scripts/demo.sh.
demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) demo-build
	@$(MAKE) --no-print-directory demo-run

bench: deps
	@mkdir -p build/bench
	@rm -f build/bench/results.jsonl
	@$(MAKE) --no-print-directory -j1 $(BENCH_TARGETS)
	@scripts/bench-collect.sh build/bench/results.jsonl build/bench/results.json

.PHONY: install
install: host-install

clean:
	rm -rf build

# SPDX-License-Identifier: Apache-2.0
# tests/boards/test.mk - FPGA board builds (mk/board.mk, docs/boards.md).
#
# make test: the error cases of `make bitstream` / `make flash`, the fit and timing checks
# on a small design, a full bitstream build of each board in BOARD_TESTS that checks it fits
# and meets its clock, and the synthesis of each board in BOARD_FIT_TESTS checked against
# the device's resources (Yosys only; scripts/board-pnr.py --fit-only).
# The boards' lint targets (lint-board-<board>) are in mk/board.mk, which this file precedes.
# Both full builds are in make test: the iCEBreaker's (about 4 min of one core) and the
# ULX3S's (about 21 min of one core: Yosys 4, YoWASP nextpnr on one thread; session 8 took
# it out when it ran CI past its 90 minutes on a slower machine, when make test took 50
# minutes; session 14 put it back: make deps + make test 22:41 in a clean clone here,
# docs/performance.md, Boards).  BOARD_TESTS=icebreaker
# leaves the ULX3S's synthesis and fit check alone (board-fit-ulx3s, Yosys only).
# Board builds run from the start of make test in the background (TEST_EARLY, Makefile).
BOARD_TESTS ?= icebreaker ulx3s
BOARD_FIT_TESTS ?= $(filter-out $(BOARD_TESTS),ulx3s)

TEST_TARGETS += test-board-errors test-board-pnr-check test-board-paths test-board-area test-board-congestion test-board-abc9w \
                $(addprefix test-board-,$(BOARD_TESTS)) \
                $(addprefix test-board-fit-,$(BOARD_FIT_TESTS))
TEST_EARLY += $(addprefix test-board-,$(BOARD_TESTS)) $(addprefix test-board-fit-,$(BOARD_FIT_TESTS))
# What the early board builds take from the rest of the tree: their firmware images, built
# before they start so that no two makes build the same file (constraints/*.mk; recursive,
# since mk/board.mk includes those after this file).
TEST_EARLY_DEPS = $(foreach b,$(BOARD_TESTS) $(BOARD_FIT_TESTS),$(or $(BOARD_$(b)_FW_HEX),$(BOARD_$(b)_FW)))
.PHONY: test-board-errors test-board-pnr-check test-board-paths test-board-area test-board-congestion test-board-abc9w bench-boards
test-board-errors:
	@$(call run_test,board-errors,tests/boards/errors-test.sh)

# The board tops' own blocks: reset synchroniser and LEDs (C testbenches on mk/tb.mk).
$(eval $(call tb_model,board_reset,tpu_board_reset,rtl/boards/tpu_board_reset.sv,))
$(eval $(call tb_prog,tb_board_reset,board_reset,tests/boards/tb_board_reset.c))
$(eval $(call tb_model,board_leds,tpu_board_leds,rtl/boards/tpu_board_leds.sv,-GClkHz=1000000 -GNumAct=2))
$(eval $(call tb_prog,tb_board_leds,board_leds,tests/boards/tb_board_leds.c))
TEST_TARGETS += test-board-leds
.PHONY: test-board-leds
test-board-leds: $(tb_board_reset_BIN) $(tb_board_leds_BIN)
	@$(call run_test,board-reset,$(tb_board_reset_BIN) $(if $(SEED),--seed $(SEED)))
	@$(call run_test,board-leds,$(tb_board_leds_BIN) $(if $(SEED),--seed $(SEED)))

# The fit and timing checks on a small design (seconds).
test-board-pnr-check:
	@$(call run_test,board-pnr-check,tests/boards/pnr-check-test.sh)

# scripts/board-paths.py (the pre-placement path estimate) on a small design (seconds).
test-board-paths:
	@$(call run_test,board-paths,tests/boards/paths-test.sh)

# tests/boards/block-area.py --script (a board's synth.ys with the hierarchy kept) on one MXU
# row (seconds).
test-board-area:
	@$(call run_test,board-area,tests/boards/area-test.sh)

# The ULX3S script's own ABC9 step (BOARD_ulx3s_ABC9_W) against synth_ecp5 -abc9 on a small
# design (seconds).
test-board-abc9w:
	@$(call run_test,board-abc9w,env MAKE="$(MAKE)" tests/boards/abc9w-test.sh)

# scripts/board-congestion.py (router2's heatmaps, BOARD_HEATMAP=1) on known heatmaps and on
# a real router2 run of a small ECP5 design (seconds).
test-board-congestion:
	@$(call run_test,board-congestion,env NEXTPNR_ECP5="$(NEXTPNR_ECP5)" tests/boards/congestion-test.sh)

# A static pattern rule: make skips implicit (pattern) rules for .PHONY targets, so a plain
# `test-board-%:` never ran for the boards in BOARD_TESTS ("Nothing to be done").
BOARD_TEST_ALL := $(sort $(BOARD_TESTS) icebreaker ulx3s)
.PHONY: $(addprefix test-board-,$(BOARD_TEST_ALL))
$(addprefix test-board-,$(BOARD_TEST_ALL)): test-board-%:
	@$(call run_test,board-$*,env MAKE="$(MAKE)" tests/boards/board-test.sh $*)

# The synthesis alone, checked against the device (the netlist make bitstream would place).
.PHONY: $(addprefix test-board-fit-,$(BOARD_TEST_ALL))
$(addprefix test-board-fit-,$(BOARD_TEST_ALL)): test-board-fit-%:
	@$(call run_test,board-fit-$*,sh -c '$(MAKE) --no-print-directory $(BOARD_DIR)/$*/$*.json && \
	  scripts/board-pnr.py --board $* --family $(BOARD_$*_FAMILY) --dir $(BOARD_DIR)/$* --fit-only')

# make bench-boards: resources, Fmax and peak GOPS of every board in BENCH_BOARDS that builds
# (a full build is long: BENCH_BOARDS= skips them in make bench).
BENCH_BOARDS ?= icebreaker ulx3s
BENCH_TARGETS += bench-boards
bench-boards:
	@for b in $(BENCH_BOARDS); do \
	  $(MAKE) --no-print-directory bitstream BOARD=$$b || { echo "bench-boards: $$b did not build"; continue; }; \
	  scripts/board-bench.py $$b build/boards/$$b/summary.json; \
	done

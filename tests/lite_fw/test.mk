# SPDX-License-Identifier: Apache-2.0
# tests/lite_fw/test.mk - the picotpu-lite firmware (fw/lite/) compiled for the host with
# C models of the UART and the XPU (tests/lite_fw/tb_litefw.c): random programs against
# the ref model and the link protocol's answers, with the command layer it shares with the
# full SoC's firmware (fw/src/cp/cp_serve.c).  Built twice: -O2 and ASan/UBSan.
LITEFW_SRCS := tests/lite_fw/tb_litefw.c fw/lite/lite_link.c fw/lite/lite_isa.c fw/src/cp/cp_serve.c \
               tests/soc/progen.c host/src/ptpu_link.c host/src/ref/ptpu_ref.c host/src/ptpu_dmafn.c \
               host/src/ptpu_vpu.c host/src/ptpu_arith.c
LITEFW_HDRS := fw/lite/lite_fw.h fw/lite/lite_hal.h fw/lite/lite_map.h fw/include/ptpu_cp.h \
               tests/soc/progen.h host/src/ptpu_link.h host/src/ref/ptpu_ref.h \
               host/src/ptpu_dmafn.h host/src/ptpu_vpu.h host/src/ptpu_arith.h host/include/picotpu_isa.h
LITEFW_CFLAGS := -std=gnu11 -g -Wall -Wextra -Werror -DLITE_NATIVE -Ifw/lite -Ihost/include -Ihost/src \
                 -Ihost/src/ref -Itests/soc -Ifw/include
LITEFW_SAN := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

build/lite_fw/tb_litefw: $(LITEFW_SRCS) $(LITEFW_HDRS) tests/lite_fw/test.mk
	@mkdir -p $(@D)
	$(CC) $(LITEFW_CFLAGS) -O2 -o $@ $(LITEFW_SRCS) -lz -lm
build/lite_fw/tb_litefw_asan: $(LITEFW_SRCS) $(LITEFW_HDRS) tests/lite_fw/test.mk
	@mkdir -p $(@D)
	$(CC) $(LITEFW_CFLAGS) $(LITEFW_SAN) -o $@ $(LITEFW_SRCS) -lz -lm
TB_PROGS += build/lite_fw/tb_litefw build/lite_fw/tb_litefw_asan

LITEFW_TESTS := test-litefw test-litefw-asan
TEST_TARGETS += $(LITEFW_TESTS)
.PHONY: $(LITEFW_TESTS)
test-litefw: build/lite_fw/tb_litefw
	@$(call run_test,litefw,$< --progs 500 $(if $(SEED),--seed $(SEED)))
test-litefw-asan: build/lite_fw/tb_litefw_asan
	@$(call run_test,litefw_asan,$< --progs 200 $(if $(SEED),--seed $(SEED)))

# On the RTL: the lite firmware in the Verilated tpu_lite_soc of tests/boardsoc
# (boardsoc_lite, at the board's clock and line rate) through its UART pins (tests/lite_fw/bench_litefw.c).
# bench-litefw: MEM_WRITE/MEM_READ efficiency against the line rate, device cycles per
# MATMUL row, ACTIVATE output, LOAD/STORE row.
ifdef boardsoc_lite_LIB
$(eval $(call tb_prog,bench_litefw,boardsoc_lite,tests/lite_fw/bench_litefw.c tests/soc/linkcli.c host/src/ptpu_link.c))
$(TB_BUILD)/bin$(TB_VARIANT)/bench_litefw: TB_PROG_CFLAGS := -Ihost/include -Ihost/src -Itests/soc \
  -DLITE_CLK_HZ=$(BOARDSOC_LITE_CLK) -DLITE_BAUD=$(BOARDSOC_LITE_BAUD)
$(TB_BUILD)/bin$(TB_VARIANT)/bench_litefw: tests/soc/linkcli.h host/src/ptpu_link.h tests/lite_fw/test.mk tests/boardsoc/test.mk
# test-litefw-rtl: the link's error paths on the RTL (real UART, the byte time-out on the
# real mtime): bad CRC, LEN too large, truncated frames, a gap below the time-out,
# STATUS/RESET while a program runs.  About 1 s.
TEST_TARGETS += test-litefw-rtl
.PHONY: test-litefw-rtl
test-litefw-rtl: $(bench_litefw_BIN) $(FW_BUILD)/ptpu_lite_rom.hex
	@$(call run_test,litefw-rtl,$< --test $(if $(SEED),--seed $(SEED)))
BENCH_TARGETS += bench-litefw
.PHONY: bench-litefw
bench-litefw: $(bench_litefw_BIN) $(FW_BUILD)/ptpu_lite_rom.hex
	@mkdir -p build/bench
	@$< --seed 1 | tee build/bench/litefw.log | grep -v '^BENCH '
	@grep '^BENCH ' build/bench/litefw.log | while read -r _ name value unit config; do \
	  scripts/bench-record.sh "$$name" "$$value" "$$unit" "$$config" "$(bench_litefw_BIN) --seed 1"; done
	@grep -q '^PASS ' build/bench/litefw.log
endif

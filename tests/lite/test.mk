# SPDX-License-Identifier: Apache-2.0
# tests/lite/test.mk - picotpu-lite (rtl/lite, docs/lite.md): C testbenches of its blocks
# against C models, and the lint of the lite SoC.
#
#   test-lite-xpu        tpu_lite_xpu with `*` products and with the iCE40 build's SB_MAC16
#                        pairs (-DTPU_ICE40, Yosys's model of the primitive), random W/ZP/ROW/
#                        MODE/X sequences, ACC read back through the window
#   test-lite-uart       tpu_lite_uart at bit times of 4, 8 (24 MHz / 3 Mbaud) and 13 cycles
#                        with 16/4-entry FIFOs: loopback, the line, overrun, framing errors

LITE_YOSYS_SHARE := $(shell $(or $(YOSYS),yosys)-config --datdir 2>/dev/null || echo /usr/share/yosys)
LITE_ICE40_CELLS := $(LITE_YOSYS_SHARE)/ice40/cells_sim.v
LITE_CPU_RTL := rtl/cpu/tpu_cpu_pkg.sv $(filter-out %_pkg.sv,$(sort $(wildcard rtl/cpu/*.sv)))
# Every source of the lite SoC (the board build and tests/boardsoc use the list too).
LITE_RTL := rtl/soc/tpu_isa_pkg.sv $(LITE_CPU_RTL) rtl/soc/tpu_soc_ram.sv rtl/soc/tpu_soc_platform.sv \
            rtl/link/tpu_uart_rx.sv rtl/link/tpu_uart_tx.sv $(sort $(wildcard rtl/lite/*.sv))
LITE_XPU_RTL := rtl/lite/tpu_lite_xpu.sv
LITE_UART_RTL := rtl/link/tpu_uart_rx.sv rtl/link/tpu_uart_tx.sv rtl/lite/tpu_lite_fifo.sv rtl/lite/tpu_lite_uart.sv

$(eval $(call tb_model,lite_xpu,tpu_lite_xpu,$(LITE_XPU_RTL),))
$(eval $(call tb_prog,tb_lite_xpu,lite_xpu,tests/lite/tb_lite_xpu.c))
$(eval $(call tb_model,lite_xpu_ice40,tpu_lite_xpu,tests/boards/cells.vlt $(LITE_ICE40_CELLS) $(LITE_XPU_RTL),-DTPU_ICE40 -DNO_ICE40_DEFAULT_ASSIGNMENTS))
$(eval $(call tb_prog,tb_lite_xpu_ice40,lite_xpu_ice40,tests/lite/tb_lite_xpu.c))

# UART models: CLK/BAUD pairs giving bit times of 4, 8 and 13 cycles.
LITE_UART_DIVS := 4 8 13
LITE_UART_CLK_4 := 12000000
LITE_UART_CLK_8 := 24000000
LITE_UART_CLK_13 := 39000000
define LITE_UART_MODEL
$(call tb_model,lite_uart_div$(1),tpu_lite_uart,$(LITE_UART_RTL),-GClkHz=$(LITE_UART_CLK_$(1)) -GBaud=3000000 -GRxDepth=16 -GTxDepth=4)
$(call tb_prog,tb_lite_uart_div$(1),lite_uart_div$(1),tests/lite/tb_lite_uart.c)
$(TB_BUILD)/bin$(TB_VARIANT)/tb_lite_uart_div$(1): TB_PROG_CFLAGS := -DUART_DIV=$(1) -DRX_DEPTH=16 -DTX_DEPTH=4
endef
$(foreach d,$(LITE_UART_DIVS),$(eval $(call LITE_UART_MODEL,$(d))))

TEST_TARGETS += test-lite-xpu test-lite-uart
.PHONY: test-lite-xpu test-lite-uart test-lite
test-lite-xpu: $(tb_lite_xpu_BIN) $(tb_lite_xpu_ice40_BIN)
	@$(call run_test,lite-xpu,$(tb_lite_xpu_BIN) $(if $(SEED),--seed $(SEED)))
	@$(call run_test,lite-xpu-ice40,$(tb_lite_xpu_ice40_BIN) $(if $(SEED),--seed $(SEED)))
test-lite-uart: $(foreach d,$(LITE_UART_DIVS),$(tb_lite_uart_div$(d)_BIN))
	@$(foreach d,$(LITE_UART_DIVS),$(call run_test,lite-uart-div$(d),$(tb_lite_uart_div$(d)_BIN) $(if $(SEED),--seed $(SEED)));)
test-lite: test-lite-xpu test-lite-uart

# Lint of the lite SoC as simulated (the board build's -DTPU_ICE40 view is lint-board-icebreaker).
$(eval $(call lint_config,lite_soc,tpu_lite_soc,$(LITE_RTL),))

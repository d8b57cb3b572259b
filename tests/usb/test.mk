# SPDX-License-Identifier: Apache-2.0
# tests/usb/test.mk - the usb backend (host/src/ptpu_backend_usb.c, libftdi1) against an
# emulated FTDI chip (sim/ftdi_emu/ftdi_emu.c, LD_PRELOADed in place of libusb-1.0) wired to
# the UART pins of a simulated SoC (sim16u: sim16 with the UART link PHY).

# sim16 with LinkPhy=1: 8 clock cycles per bit at 3 Mbaud (the ratio, not the clock, is
# what matters for the UART; a low ratio keeps the simulation of the line cheap).
USB_CLK_HZ := 24000000
USB_BAUD := 3000000
SOC_CFG_sim16u := $(SOC_CFG_sim16)
SIM_GFLAGS_sim16u := -GLinkPhy=1 -GClkHz=$(USB_CLK_HZ) -GBaud=$(USB_BAUD)
SIM_CDEFS_sim16u := -DPTPU_SIM_LINK_UART=1 -DPTPU_SIM_UART_CLK_HZ=$(USB_CLK_HZ)u -DPTPU_SIM_UART_BAUD=$(USB_BAUD)u
$(eval $(call SIM_CONFIG,sim16u))
# the UART model at the far end of the pins, linked into the sim16u library
$(SIM_sim16u_DIR)/uart_model.o: sim/uart_model.c sim/uart_model.h
	@mkdir -p $(@D)
	$(CC) $(SIM_CFLAGS) -c $< -o $@
$(SIM_sim16u_DIR)/picotpu_sim.o: sim/uart_model.h
$(SIM_sim16u_LIB): $(SIM_sim16u_DIR)/uart_model.o
SIM_sim16u_OBJS += $(SIM_sim16u_DIR)/uart_model.o

# The emulated FTDI chip: a libusb-1.0 for LD_PRELOAD (sim/ftdi_emu/ftdi_emu.c).
USB_BUILD := build/usb
USB_EMU := $(USB_BUILD)/libusb-emu.so
USB_FTDI_CFLAGS := $(shell pkg-config --cflags libusb-1.0 2>/dev/null || echo -I/usr/include/libusb-1.0)
$(USB_EMU): sim/ftdi_emu/ftdi_emu.c sim/include/picotpu_sim.h tests/usb/test.mk
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -Isim/include $(USB_FTDI_CFLAGS) \
	  -DEMU_SIM_LIB='"$(abspath $(SIM_sim16u_SO))"' -DEMU_CLK_HZ=$(USB_CLK_HZ) $< -o $@ -ldl

# The end-to-end test program (tests/usb/tb_usb.c), linked like any libpicotpu user.
USB_TB := $(USB_BUILD)/tb_usb
$(USB_TB): tests/usb/tb_usb.c tests/host/hostutil.h $(HOST_LIB) constraints/ulx3s.mk
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Itests/host -DULX3S_BAUD=$(BOARD_ulx3s_BAUD) $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)
# The emulated FT231X board is the ULX3S at its line rate (constraints/ulx3s.mk, 3 Mbaud, which
# the usb backend must open an FT231X at by default: test-usb fails if the two differ), its
# FPGA at the clock that gives the sim16u library's clocks per bit (sim/ftdi_emu: @HZ).
USB_FT231X_CLK_HZ := $(shell echo $$(( $(BOARD_ulx3s_BAUD) * $(USB_CLK_HZ) / $(USB_BAUD) )))
USB_ENV := LD_PRELOAD=$(abspath $(USB_EMU)) \
           PTPU_USB_EMU_BOARDS=ft2232h:PTPU-EMU-0,ft231x:PTPU-EMU-1@$(USB_FT231X_CLK_HZ)

# make test: the end-to-end test through the emulated chip, and the CLI's board listing
# with the emulated board and with none.  About 170 ms of simulated time, ~2 min of CPU.
TB_PROGS += $(USB_EMU) $(USB_TB) $(SIM_sim16u_SO) $(HOST_CLI)
TEST_TARGETS += test-usb test-usb-cli
.PHONY: test-usb test-usb-cli bench-usb check-usb-host
USB_SEED = $(if $(SEED),--seed $(SEED))
test-usb: $(USB_TB) $(USB_EMU) $(SIM_sim16u_SO) $(SOC_FW)
	@$(call run_test,usb,env $(USB_ENV) $(USB_TB) $(USB_SEED))
test-usb-cli: $(HOST_CLI) $(USB_EMU) $(SIM_sim16u_SO) $(SOC_FW)
	@$(call run_test,usb_cli,tests/usb/cli.sh $(HOST_CLI) $(abspath $(USB_EMU)))

# usb.emulated.efficiency: payload bytes per simulated second over the line rate (baud/10),
# 4 largest MEM_WRITEs (4092 data bytes) and 4 largest MEM_READs (4096).
BENCH_TARGETS += bench-usb
USB_BENCH_CMD := $(USB_TB) --bench --frames 4
bench-usb: $(USB_TB) $(USB_EMU) $(SIM_sim16u_SO) $(SOC_FW)
	@out=$$(env $(USB_ENV) $(USB_BENCH_CMD)); echo "$$out"; \
	  v=$$(echo "$$out" | awk '/^BENCH usb.emulated.efficiency/ {print $$3}'); \
	  scripts/bench-record.sh usb.emulated.efficiency "$$v" fraction \
	    'sim16u FT2232H emulated, 3 Mbaud, latency 1 ms, 4 x MEM_WRITE 4092 B + 4 x MEM_READ 4096 B' \
	    'LD_PRELOAD=build/usb/libusb-emu.so $(USB_BENCH_CMD)'

# The host ops test (tests/host/test_ops.c) against --device usb through the emulated chip:
# one iteration of every op (slow: every request waits at least one latency period).
check-usb-host: $(HOST_BUILD)/test_ops $(USB_EMU) $(SIM_sim16u_SO) $(SOC_FW)
	@$(call run_test,host_ops_usb,env $(USB_ENV) $(HOST_BUILD)/test_ops --device usb --iters 1 $(HOST_SEED))

# The UART model itself, back to back (no SoC).
USB_UART_TB := $(USB_BUILD)/tb_uart_model
$(USB_UART_TB): tests/usb/tb_uart_model.c sim/uart_model.c sim/uart_model.h tests/host/hostutil.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Isim -Itests/host $< sim/uart_model.c -o $@
TB_PROGS += $(USB_UART_TB)
TEST_TARGETS += test-usb-uart
.PHONY: test-usb-uart
test-usb-uart: $(USB_UART_TB)
	@$(call run_test,usb_uart_model,$< $(USB_SEED))

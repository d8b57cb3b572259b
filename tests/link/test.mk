# SPDX-License-Identifier: Apache-2.0
# tests/link/test.mk - link engine, UART, host frame codec: models, lint, tests, benchmark.
LINK_RTL := rtl/soc/tpu_isa_pkg.sv rtl/link/tpu_crc32.sv rtl/link/tpu_link_ram.sv \
            rtl/link/tpu_link_tx.sv rtl/link/tpu_link.sv
UART_RTL := rtl/link/tpu_uart_tx.sv rtl/link/tpu_uart_rx.sv
LINK_TB := tests/link/tb_link.c tests/link/link_model.c host/src/ptpu_link.c
LINK_TB_DEPS := tests/link/link_model.h host/src/ptpu_link.h host/include/picotpu_isa.h

# Test configurations: the simulation port (4 KB payloads, 32-byte buffer words,
# back-pressure) and the iCEBreaker board (256-byte payloads, 4-byte words, UART: no
# back-pressure).  Byte time-outs are shortened so that the tests run quickly.
LINK_CFG_a := MaxPayload=4096 MemKb=1024 BufBytes=32 MaxBurst=16 BackPressure=1 ByteTimeout=2000
LINK_CFG_b := MaxPayload=256 MemKb=128 BufBytes=4 MaxBurst=4 BackPressure=0 ByteTimeout=1000
LINK_REQS_a := 1500
LINK_REQS_b := 4000
LINK_CONFIGS := a b

define LINK_CONFIG
$(call tb_model,link_$(1),tpu_link,$(LINK_RTL),$(addprefix -G,$(LINK_CFG_$(1))))
$(call tb_prog,tb_link_$(1),link_$(1),$(LINK_TB))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_link_$(1): TB_PROG_CFLAGS := -Itests/link -Ihost/src -Ihost/include
$(TB_BUILD)/bin$(TB_VARIANT)/tb_link_$(1): $(LINK_TB_DEPS)
$(call lint_config,link_$(1),tpu_link,$(LINK_RTL),$(LINK_CFG_$(1)))
TEST_TARGETS += test-link-$(1)
.PHONY: test-link-$(1)
test-link-$(1): $$(tb_link_$(1)_BIN)
	@$$(call run_test,link-$(1),$$(tb_link_$(1)_BIN) $(LINK_CFG_$(1)) --requests $$(or $$(LINK_REQS),$(LINK_REQS_$(1))) $$(if $$(SEED),--seed $$(SEED)))
endef
$(foreach c,$(LINK_CONFIGS),$(eval $(call LINK_CONFIG,$(c))))

# Lint: the default parameters (sim16) and the iCEBreaker set with single-beat bursts.
$(eval $(call lint_config,link_default,tpu_link,$(LINK_RTL),))
$(eval $(call lint_config,link_ice,tpu_link,$(LINK_RTL),MaxPayload=256 MemKb=128 BufBytes=4 MaxBurst=1))

# Host frame codec against zlib, no RTL.
LINK_CODEC_BIN := $(TB_BUILD)/bin$(TB_VARIANT)/tb_link_codec
TB_PROGS += $(LINK_CODEC_BIN)
$(LINK_CODEC_BIN): tests/link/tb_link_codec.c host/src/ptpu_link.c $(LINK_TB_DEPS) $(TB_HARNESS)
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -Ihost/src -Ihost/include -o $@ tests/link/tb_link_codec.c host/src/ptpu_link.c -lz
TEST_TARGETS += test-link-codec
.PHONY: test-link-codec
test-link-codec: $(LINK_CODEC_BIN)
	@$(call run_test,link-codec,$(LINK_CODEC_BIN) $(if $(SEED),--seed $(SEED)))

.PHONY: test-link
test-link: $(addprefix test-link-,$(LINK_CONFIGS)) test-link-codec

# Throughput at the largest payload (configuration a): bytes per cycle of the byte port.
BENCH_TARGETS += bench-link
.PHONY: bench-link
bench-link: $(tb_link_a_BIN)
	@mkdir -p build/bench
	@$< $(LINK_CFG_a) --bench --seed 1 > build/bench/link.log
	@grep '^BENCH ' build/bench/link.log | while read -r _ name value unit config; do \
	  scripts/bench-record.sh "$$name" "$$value" "$$unit" "$$config" \
	    "build/tb/bin/tb_link_a $(LINK_CFG_a) --bench --seed 1"; done
	@grep -q '^PASS ' build/bench/link.log

# UART: transmitter/receiver pairs at several clock/baud ratios (tests/link/tpu_uart_loop.sv).
$(eval $(call tb_model,uart_loop,tpu_uart_loop,$(UART_RTL) tests/link/tpu_uart_loop.sv,))
$(eval $(call tb_prog,tb_uart,uart_loop,tests/link/tb_uart.c))
$(eval $(call lint_config,uart_tx,tpu_uart_tx,rtl/link/tpu_uart_tx.sv,))
$(eval $(call lint_config,uart_rx,tpu_uart_rx,rtl/link/tpu_uart_rx.sv,))
$(eval $(call lint_config,uart_rx_fast,tpu_uart_rx,rtl/link/tpu_uart_rx.sv,Div=4))
TEST_TARGETS += test-link-uart
.PHONY: test-link-uart
test-link-uart: $(tb_uart_BIN)
	@$(call run_test,link-uart,$(tb_uart_BIN) $(if $(SEED),--seed $(SEED)))
test-link: test-link-uart

# SPDX-License-Identifier: Apache-2.0
# tests/ram: the block-RAM buffers and FIFOs (tpu_core_ram, tpu_core_fifo, tpu_dma_fifo) in
# every configuration the SoCs use, side by side in one model, against C models.
RAM_RTL := rtl/soc/tpu_core_ram.sv rtl/soc/tpu_core_fifo.sv rtl/dma/tpu_dma_fifo.sv \
           tests/ram/tpu_ram_tb.sv
$(eval $(call tb_model,ram,tpu_ram_tb,$(RAM_RTL),))
$(eval $(call tb_prog,tb_ram,ram,tests/ram/tb_ram.c))

# RAM_CYCLES=N overrides the length of the random run (soak runs).
TEST_TARGETS += test-ram
.PHONY: test-ram
test-ram: $(tb_ram_BIN)
	@$(call run_test,ram,$< --cycles $(or $(RAM_CYCLES),100000) $(if $(SEED),--seed $(SEED)))

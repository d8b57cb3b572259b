# SPDX-License-Identifier: Apache-2.0
# tests/cpu/test.mk - the RV32 core: one Verilated model per configuration
# (RV32I, RV32IM), the platform testbench tb_cpu (every firmware image is a
# run-time argument), the ISA / trap / C-program images, lint, tests and
# benchmarks.

CPU_RTL := rtl/cpu/tpu_cpu_pkg.sv rtl/cpu/tpu_cpu_decode.sv rtl/cpu/tpu_cpu_alu.sv \
           rtl/cpu/tpu_cpu_shift.sv rtl/cpu/tpu_cpu_muldiv.sv rtl/cpu/tpu_cpu_regfile.sv \
           rtl/cpu/tpu_cpu_csr.sv rtl/cpu/tpu_cpu.sv
CPU_TB := tests/cpu/tb_cpu.c tests/cpu/rv32_model.c
CPU_TB_HDRS := tests/cpu/rv32_model.h tests/cpu/rv32_asm.h
CPU_FW := $(FW_BUILD)/cpu
# Random programs per configuration in `make test` (CPU_RANDOM_SCALE=N for
# N times more in a soak run).
CPU_RANDOM_N ?= 400

# name:EnableM:BootAddr:LutRam - every configuration the core is tested in:
# the iCE40 build (RV32I, block RAM), the ECP5 build (RV32IM, LUT RAM), and a
# boot address other than zero.
CPU_CONFIGS := rv32i:0:0:0 rv32im:1:0:1 rv32i-boot:0:256:0
cpu_f = $(word $(2),$(subst :, ,$(1)))
define cpu_config
$(eval $(call tb_model,cpu_$(call cpu_f,$(1),1),tpu_cpu,$(CPU_RTL),-GEnableM=$(call cpu_f,$(1),2) -GBootAddr=$(call cpu_f,$(1),3) -GLutRam=$(call cpu_f,$(1),4)))
$(eval $(call tb_prog,tb_cpu_$(call cpu_f,$(1),1),cpu_$(call cpu_f,$(1),1),$(CPU_TB)))
$(eval $(call lint_config,cpu_$(call cpu_f,$(1),1),tpu_cpu,$(CPU_RTL),EnableM=$(call cpu_f,$(1),2) BootAddr=$(call cpu_f,$(1),3) LutRam=$(call cpu_f,$(1),4)))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_cpu_$(call cpu_f,$(1),1): $(CPU_TB_HDRS)
$(TB_BUILD)/bin$(TB_VARIANT)/tb_cpu_$(call cpu_f,$(1),1): TB_PROG_CFLAGS := \
  -DTB_CPU_HAS_M=$(call cpu_f,$(1),2) -DTB_CPU_BOOT=$(call cpu_f,$(1),3) \
  -DTB_CPU_NAME=\"cpu-$(call cpu_f,$(1),1)\"
endef
$(foreach c,$(CPU_CONFIGS),$(eval $(call cpu_config,$(c))))
CPU_TB_I := $(tb_cpu_rv32i_BIN)
CPU_TB_IM := $(tb_cpu_rv32im_BIN)
CPU_TB_BOOT := $(tb_cpu_rv32i-boot_BIN)

# ---- test images (build/fw/cpu/...; `make fw` builds them too)
CPU_ASM_CFLAGS := -Itests/cpu/isa
CPU_ISA := isa_alu isa_imm isa_branch isa_jump isa_mem isa_csr
CPU_TRAP := trap_illegal trap_misaligned trap_ecall trap_fault trap_irq
$(foreach t,$(CPU_ISA),$(eval $(call fw_asm_image,cpu/$(t),rv32i,tests/cpu/isa/$(t).S tests/cpu/isa/isa_test.h,$(CPU_ASM_CFLAGS))))
$(foreach t,$(CPU_TRAP),$(eval $(call fw_asm_image,cpu/$(t),rv32i,tests/cpu/trap/$(t).S tests/cpu/isa/isa_test.h,$(CPU_ASM_CFLAGS))))
$(eval $(call fw_asm_image,cpu/isa_mul,rv32im,tests/cpu/isa/isa_mul.S tests/cpu/isa/isa_test.h,$(CPU_ASM_CFLAGS)))
$(eval $(call fw_asm_image,cpu/isa_no_m,rv32i,tests/cpu/isa/isa_no_m.S tests/cpu/isa/isa_test.h,$(CPU_ASM_CFLAGS)))
$(eval $(call fw_asm_image,cpu/boot_addr,rv32i,tests/cpu/isa/boot_addr.S tests/cpu/isa/isa_test.h,$(CPU_ASM_CFLAGS)))
$(eval $(call fw_image,cpu/crcsort-rv32i,rv32i,tests/cpu/prog/crcsort.c))
$(eval $(call fw_image,cpu/crcsort-rv32im,rv32im,tests/cpu/prog/crcsort.c))
$(eval $(call fw_image,cpu/platform,rv32i,tests/cpu/prog/platform.c))
$(eval $(call fw_image,cpu/unhandled,rv32i,tests/cpu/prog/unhandled.c))

# Images both configurations run (asm: checked against the model in every run).
CPU_COMMON := $(addprefix $(CPU_FW)/,$(addsuffix .bin,$(CPU_ISA) $(CPU_TRAP) platform)) \
              $(FW_BUILD)/hello.bin
CPU_IMGS_I := $(CPU_COMMON) $(CPU_FW)/isa_no_m.bin
CPU_IMGS_IM := $(CPU_COMMON) $(CPU_FW)/isa_mul.bin

# The C program's reference output, from the same source built for the host.
build/cpu/crcsort-host: tests/cpu/prog/crcsort.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<
build/cpu/crcsort.expected: build/cpu/crcsort-host
	$< > $@

CPU_SEED = $(if $(SEED),--seed $(SEED))

# ---- tests
CPU_TESTS := test-cpu-rv32i test-cpu-rv32i-bus test-cpu-rv32im test-cpu-rv32im-bus \
             test-cpu-rv32i-random test-cpu-rv32im-random test-cpu-crcsort test-cpu-unhandled \
             test-cpu-model test-cpu-boot
TEST_TARGETS += $(CPU_TESTS)
.PHONY: $(CPU_TESTS)

test-cpu-rv32i: $(CPU_TB_I) $(CPU_IMGS_I)
	@$(call run_test,cpu_rv32i,$(CPU_TB_I) $(CPU_SEED) --bus sram $(CPU_IMGS_I))
test-cpu-rv32i-bus: $(CPU_TB_I) $(CPU_IMGS_I)
	@$(call run_test,cpu_rv32i_bus,$(CPU_TB_I) $(CPU_SEED) --bus random $(CPU_IMGS_I))
test-cpu-rv32im: $(CPU_TB_IM) $(CPU_IMGS_IM)
	@$(call run_test,cpu_rv32im,$(CPU_TB_IM) $(CPU_SEED) --bus sram $(CPU_IMGS_IM))
test-cpu-rv32im-bus: $(CPU_TB_IM) $(CPU_IMGS_IM)
	@$(call run_test,cpu_rv32im_bus,$(CPU_TB_IM) $(CPU_SEED) --bus random $(CPU_IMGS_IM))
test-cpu-rv32i-random: $(CPU_TB_I)
	@$(call run_test,cpu_rv32i_random,$(CPU_TB_I) $(CPU_SEED) --random $(CPU_RANDOM_N))
test-cpu-rv32im-random: $(CPU_TB_IM)
	@$(call run_test,cpu_rv32im_random,$(CPU_TB_IM) $(CPU_SEED) --random $(CPU_RANDOM_N))
# -O2 C program on both configurations, output equal to the host build's.
test-cpu-crcsort: $(CPU_TB_I) $(CPU_TB_IM) $(CPU_FW)/crcsort-rv32i.bin $(CPU_FW)/crcsort-rv32im.bin \
                  build/cpu/crcsort.expected
	@$(call run_test,cpu_crcsort_rv32i,$(CPU_TB_I) $(CPU_SEED) --bus random \
	  --expect build/cpu/crcsort.expected $(CPU_FW)/crcsort-rv32i.bin)
	@$(call run_test,cpu_crcsort_rv32im,$(CPU_TB_IM) $(CPU_SEED) --bus random \
	  --expect build/cpu/crcsort.expected $(CPU_FW)/crcsort-rv32im.bin)
# An unhandled exception is reported on the console with its cause.
test-cpu-unhandled: $(CPU_TB_I) $(CPU_FW)/unhandled.bin
	@$(call run_test,cpu_unhandled,$(CPU_TB_I) $(CPU_SEED) --expect-exit 0x102 \
	  --expect-console "unhandled trap: illegal instruction (mcause 0x00000002) at mepc" \
	  $(CPU_FW)/unhandled.bin)
# The test programs themselves, on the instruction-set model alone.
test-cpu-model: $(CPU_TB_I) $(CPU_TB_IM) $(CPU_TB_BOOT) $(CPU_IMGS_I) $(CPU_IMGS_IM) \
                $(CPU_FW)/crcsort-rv32i.bin $(CPU_FW)/boot_addr.bin build/cpu/crcsort.expected
	@$(call run_test,cpu_model_rv32i,$(CPU_TB_I) --model $(CPU_IMGS_I))
	@$(call run_test,cpu_model_rv32im,$(CPU_TB_IM) --model $(CPU_IMGS_IM))
	@$(call run_test,cpu_model_crcsort,$(CPU_TB_I) --model --expect build/cpu/crcsort.expected \
	  $(CPU_FW)/crcsort-rv32i.bin)
	@$(call run_test,cpu_model_boot,$(CPU_TB_BOOT) --model $(CPU_FW)/boot_addr.bin)
# A boot address other than 0.
test-cpu-boot: $(CPU_TB_BOOT) $(CPU_FW)/boot_addr.bin
	@$(call run_test,cpu_boot,$(CPU_TB_BOOT) $(CPU_SEED) --bus random $(CPU_FW)/boot_addr.bin)

# ---- benchmarks (make bench): tests/cpu/bench.sh records the figures
BENCH_TARGETS += bench-cpu-cpi bench-cpu-speed bench-cpu-ice40 bench-cpu-ecp5
.PHONY: bench-cpu-cpi bench-cpu-speed bench-cpu-ice40 bench-cpu-ecp5
bench-cpu-cpi: $(CPU_TB_I) $(CPU_TB_IM) $(CPU_FW)/crcsort-rv32i.bin $(CPU_FW)/crcsort-rv32im.bin
	@tests/cpu/bench.sh cpi
bench-cpu-speed: $(CPU_TB_I) $(CPU_FW)/crcsort-rv32i.bin
	@tests/cpu/bench.sh speed
bench-cpu-ice40: $(CPU_RTL)
	@tests/cpu/bench.sh ice40
bench-cpu-ecp5: $(CPU_RTL)
	@tests/cpu/bench.sh ecp5

# SPDX-License-Identifier: Apache-2.0
# fw/fw.mk - RV32 firmware build: Debian's riscv64-unknown-elf-gcc for rv32
# with picolibc, our crt0 and linker script, .elf -> .bin -> .hex, a size
# report.  Other makefiles add images with
#
#   $(eval $(call fw_image,NAME,ARCH,SOURCES[,CFLAGS]))   C firmware (crt0, platform layer, picolibc)
#   $(eval $(call fw_asm_image,NAME,ARCH,SOURCES[,CFLAGS])) bare assembly (own _start, no libraries)
#
# Headers listed in SOURCES are dependencies only.
# ARCH is rv32i or rv32im.  Outputs: build/fw/NAME.elf, .bin (the memory image
# from address 0), .hex ($readmemh: one little-endian 32-bit word per line),
# .lst (disassembly, on request).  `make fw` builds every image; each link
# prints the image's size, `make fw-size` prints the table of all of them.

FW_CROSS ?= riscv64-unknown-elf-
FW_CC := $(FW_CROSS)gcc
FW_OBJCOPY := $(FW_CROSS)objcopy
FW_OBJDUMP := $(FW_CROSS)objdump
FW_SIZE := $(FW_CROSS)size
FW_BUILD := build/fw
FW_OPT ?= -O2

# -misa-spec=2.2: the CSR instructions without _zicsr in -march, which would
# make GCC 12 pick the rv64 multilib of picolibc and libgcc.
fw_arch_flags = -march=$(1) -mabi=ilp32 -misa-spec=2.2
FW_CFLAGS := --specs=picolibc.specs -ffreestanding -fno-common -ffunction-sections \
             -fdata-sections -Wall -Wextra -Werror -g -Ifw/include -Ihost/include
FW_LDFLAGS := -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Tfw/ld/sim.ld
# The ISA and MMIO map are host/include/picotpu_isa.h (generated from spec/picotpu.toml), one
# header for the firmware and the host.
FW_HDRS := $(wildcard fw/include/*.h) host/include/picotpu_isa.h
FW_LIB_SRCS := fw/src/crt0.S fw/src/trap_entry.S fw/src/platform.c fw/src/trap.c
FW_ARCHS := rv32i rv32im
FW_IMAGES :=

# The platform layer, compiled once per architecture.
define fw_lib
FW_LIB_$(1) := $$(patsubst fw/src/%,$(FW_BUILD)/lib/$(1)/%.o,$(FW_LIB_SRCS))
$(FW_BUILD)/lib/$(1)/%.o: fw/src/% $(FW_HDRS) fw/fw.mk
	@mkdir -p $$(@D)
	$(FW_CC) $(call fw_arch_flags,$(1)) $(FW_CFLAGS) $(FW_OPT) -c $$< -o $$@
endef
$(foreach a,$(FW_ARCHS),$(eval $(call fw_lib,$(a))))

# An image compiled for size (-Os among its CFLAGS) also links with -flto: the inlining
# across files that -Os gives up otherwise, e.g. between the command layer
# (fw/src/cp/cp_serve.c) and its port, which call each other through functions.
fw_lto = $(if $(filter -Os,$(1)),-flto)

fw_size_line = $(FW_SIZE) $(1) | awk 'NR==2 {printf "  SIZE %-40s text %6d  data %5d  bss %6d\n", "$(1)", $$1, $$2, $$3}'
fw_check_arch = $(if $(filter $(1),$(FW_ARCHS)),,$(error fw image $(2): unknown ARCH '$(1)' (use $(FW_ARCHS))))

define fw_image
$(call fw_check_arch,$(2),$(1))
FW_IMAGES += $(FW_BUILD)/$(1).elf
FW_TARGETS += $(FW_BUILD)/$(1).bin $(FW_BUILD)/$(1).hex
$(FW_BUILD)/$(1).elf: $(3) $$(FW_LIB_$(2)) fw/ld/sim.ld $(FW_HDRS) fw/fw.mk
	@mkdir -p $$(@D)
	$(FW_CC) $(call fw_arch_flags,$(2)) $(FW_CFLAGS) $(FW_OPT) $(4) $(call fw_lto,$(4)) \
	  $(FW_LDFLAGS) -o $$@ $(filter-out %.h,$(3)) $$(FW_LIB_$(2))
	@$$(call fw_size_line,$$@)
endef

define fw_asm_image
$(call fw_check_arch,$(2),$(1))
FW_IMAGES += $(FW_BUILD)/$(1).elf
FW_TARGETS += $(FW_BUILD)/$(1).bin $(FW_BUILD)/$(1).hex
$(FW_BUILD)/$(1).elf: $(3) fw/ld/sim.ld $(FW_HDRS) fw/fw.mk
	@mkdir -p $$(@D)
	$(FW_CC) $(call fw_arch_flags,$(2)) -nostdlib -nostartfiles -Wall -Wextra -Werror -g \
	  -Ifw/include -Ihost/include $(4) -Wl,--no-warn-rwx-segments -Tfw/ld/sim.ld -o $$@ $(filter-out %.h,$(3))
	@$$(call fw_size_line,$$@)
endef

$(FW_BUILD)/%.bin: $(FW_BUILD)/%.elf
	$(FW_OBJCOPY) -O binary $< $@

# od prints host-order words: this assumes a little-endian build machine,
# which is also the target's byte order.
$(FW_BUILD)/%.hex: $(FW_BUILD)/%.bin
	@{ echo "@00000000"; od -An -v -t x4 -w4 $< | tr -d ' '; } > $@

$(FW_BUILD)/%.lst: $(FW_BUILD)/%.elf
	$(FW_OBJDUMP) -d -S $< > $@

# The example firmware.
$(eval $(call fw_image,hello,rv32i,fw/apps/hello.c))

# Size table of every image.
.PHONY: fw-size
fw-size:
	@$(MAKE) --no-print-directory fw >/dev/null
	@echo "firmware sizes (bytes; text = code + read-only data):"
	@$(FW_SIZE) $(sort $(FW_IMAGES)) | sed 's/^/  /'

# SPDX-License-Identifier: Apache-2.0
# fw/lite/lite.mk - the picotpu-lite firmware (docs/firmware.md, "Lite firmware"):
# build/fw/ptpu_lite.elf/.bin/.hex, linked by fw/lite/lite.ld for the lite SoC's map
# (fw/lite/lite_map.h): code and data in the FwRomKb block RAM from 0, .bss and the stack
# in the top 4 KB of the SPRAM.  rv32im, -Os -flto; the link fails if the image is larger than
# LITE_ROM_KB.  build/fw/ptpu_lite_rom.hex is the $readmemh image padded to the ROM size.
#
# fw/src/cp/cp_serve.c is the command layer it shares with the full SoC's firmware
# (fw/fw_cp.mk); lite_link.c is its port.  The link, command and interpreter sources also
# build natively for the tests (tests/lite_fw/).
LITE_ROM_KB ?= 10
LITE_FW_SRCS := fw/lite/lite_link.c fw/lite/lite_isa.c fw/src/cp/cp_serve.c host/src/ptpu_dmafn.c \
                host/src/ptpu_vpu.c host/src/ptpu_arith.c
LITE_FW_HDRS := fw/lite/lite_fw.h fw/lite/lite_hal.h fw/lite/lite_map.h fw/include/ptpu_cp.h \
                host/include/picotpu_isa.h host/src/ptpu_dmafn.h host/src/ptpu_vpu.h \
                host/src/ptpu_arith.h
# -DPTPU_CRT0_BARE: fw/src/crt0.S without the platform layer (no constructors, exit() or
# trap dispatcher: a trap writes EXIT = 0x100 + mcause and halts).
LITE_FW_CFLAGS := -Os -flto -DPTPU_CRT0_BARE -Ifw/lite -Ihost/include -Ihost/src
LITE_FW_LDFLAGS := -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Tfw/lite/lite.ld \
                   -Wl,--defsym=__rom_size=$(LITE_ROM_KB)K

FW_IMAGES += $(FW_BUILD)/ptpu_lite.elf
FW_TARGETS += $(FW_BUILD)/ptpu_lite.bin $(FW_BUILD)/ptpu_lite.hex $(FW_BUILD)/ptpu_lite_rom.hex
$(FW_BUILD)/ptpu_lite.elf: fw/src/crt0.S fw/lite/lite_main.c $(LITE_FW_SRCS) $(LITE_FW_HDRS) fw/lite/lite.ld \
                           fw/lite/lite.mk fw/fw.mk
	@mkdir -p $(@D)
	$(FW_CC) $(call fw_arch_flags,rv32im) $(FW_CFLAGS) $(LITE_FW_CFLAGS) $(LITE_FW_LDFLAGS) -o $@ \
	  fw/src/crt0.S fw/lite/lite_main.c $(LITE_FW_SRCS)
	@$(call fw_size_line,$@)

# Every word of the ROM defined: the image, then zero words up to LITE_ROM_KB.
$(FW_BUILD)/ptpu_lite_rom.hex: $(FW_BUILD)/ptpu_lite.bin fw/lite/lite.mk
	@n=$$(stat -c %s $<); rom=$$(($(LITE_ROM_KB) * 1024)); \
	  if [ $$n -gt $$rom ]; then echo "ptpu_lite: $$n bytes, the ROM holds $$rom" >&2; exit 1; fi; \
	  { echo "@00000000"; { cat $<; head -c $$((rom - n)) /dev/zero; } | od -An -v -t x4 -w4 | tr -d ' '; } > $@
	@echo "  ROM  $@: $$(stat -c %s $<) of $$(($(LITE_ROM_KB) * 1024)) bytes used"

.PHONY: fw-lite
fw-lite: $(FW_BUILD)/ptpu_lite.bin $(FW_BUILD)/ptpu_lite.hex $(FW_BUILD)/ptpu_lite_rom.hex

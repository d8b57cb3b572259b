# SPDX-License-Identifier: Apache-2.0
# fw/fw_cp.mk - the command-processor firmware of the SoC (docs/firmware.md): build/fw/ptpu_cp.bin,
# loaded by the simulation library at run time (sim/include/picotpu_sim.h).
# It runs in the SoC's firmware RAM (tpu_soc FwRamKb, 16 KB) with a 2 KB stack.
# cp_serve.c is the command layer it shares with the lite firmware (fw/lite/lite.mk);
# cmdproc.c is its port to the SoC's mailbox and TPU registers.
FW_CP_RAM := 0x4000
FW_CP_FLAGS := -Wl,--defsym=__ram_size=$(FW_CP_RAM) -Wl,--defsym=__stack_size=0x800
FW_CP_SRCS := fw/src/cp/cmdproc.c fw/src/cp/cp_serve.c fw/include/ptpu_cp.h fw/include/ptpu_soc.h
$(eval $(call fw_image,ptpu_cp,rv32im,$(FW_CP_SRCS),$(FW_CP_FLAGS)))

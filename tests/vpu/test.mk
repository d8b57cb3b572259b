# SPDX-License-Identifier: Apache-2.0
# VPU: models per configuration, the testbench, lint and tests.
VPU_RTL := rtl/mxu/tpu_fp_pkg.sv rtl/mem/tpu_mem_cg.sv rtl/vpu/tpu_vpu_lane.sv rtl/vpu/tpu_vpu.sv
VPU_TB := tests/vpu/tb_vpu.c host/src/ptpu_vpu.c host/src/ptpu_arith.c
VPU_TB_DEPS := host/src/ptpu_vpu.h host/src/ptpu_arith.h host/include/picotpu_isa.h

# name:N:EnableBf16:Lanes - every configuration the VPU is tested in (sim16's
# unit, the iCEBreaker's, the ULX3S's with a quarter of the lanes, and a
# chunked bf16 one).  Lint also covers the ULX3S's at full width and one lane.
# name:...:SerialMul (optional) - v4is is the iCEBreaker's as its board build makes it
# (bit-serial multiply, TPU_ICE40), v8ls2 a chunked bf16 one with it.
# name:...:SerialMul:GateIdle (optional) - v16g and v8l2g with the simulation clock gate.
VPU_CONFIGS := v16:16:1:16 v4i:4:0:4 v16il4:16:0:4 v8l2:8:1:2 v4is:4:0:4:1 v8ls2:8:1:2:1 \
               v16g:16:1:16:0:1 v8l2g:8:1:2:0:1
VPU_LINT_ONLY := v16i:16:0:16 v4il1:4:0:1 v32:32:1:32

vpu_f = $(word $(2),$(subst :, ,$(1)))
vpu_params = N=$(call vpu_f,$(1),2) EnableBf16=$(call vpu_f,$(1),3) Lanes=$(call vpu_f,$(1),4) \
  SerialMul=$(or $(call vpu_f,$(1),5),0) GateIdle=$(or $(call vpu_f,$(1),6),0)
define vpu_config
$(eval $(call tb_model,vpu_$(call vpu_f,$(1),1),tpu_vpu,$(VPU_RTL),$(addprefix -G,$(call vpu_params,$(1)))))
$(eval $(call tb_prog,tb_vpu_$(call vpu_f,$(1),1),vpu_$(call vpu_f,$(1),1),$(VPU_TB)))
$(eval $(call lint_config,vpu_$(call vpu_f,$(1),1),tpu_vpu,$(VPU_RTL),$(call vpu_params,$(1))))
endef
$(foreach c,$(VPU_CONFIGS),$(eval $(call vpu_config,$(c))))
$(foreach c,$(VPU_LINT_ONLY),$(eval $(call lint_config,vpu_$(call vpu_f,$(c),1),tpu_vpu,$(VPU_RTL),$(call vpu_params,$(c)))))
$(foreach c,$(VPU_CONFIGS),$(eval $(tb_vpu_$(call vpu_f,$(c),1)_BIN): $(VPU_TB_DEPS)))
$(TB_BUILD)/bin$(TB_VARIANT)/tb_vpu_%: TB_PROG_CFLAGS := -Ihost/src -Ihost/include

VPU_TESTS := $(foreach c,$(VPU_CONFIGS),test-vpu-$(call vpu_f,$(c),1))
TEST_TARGETS += $(VPU_TESTS)
.PHONY: $(VPU_TESTS)
$(foreach c,$(VPU_CONFIGS),$(eval test-vpu-$(call vpu_f,$(c),1): $(tb_vpu_$(call vpu_f,$(c),1)_BIN)))
$(VPU_TESTS): test-vpu-%:
	@$(call run_test,vpu_$*,$< --bf16 $(call vpu_f,$(filter $*:%,$(VPU_CONFIGS)),3) \
	  $(if $(VPU_SCALE),--scale $(VPU_SCALE)) $(if $(SEED),--seed $(SEED)))

# The clock gate (GateIdle=1) changes no cycle: v16g and v8l2g print what v16 and v8l2 do.
VPU_GATE_PAIRS := v16:v16g v8l2:v8l2g
define vpu_gate_pair
TEST_TARGETS += test-vpu-gate-$(call vpu_f,$(1),1)
.PHONY: test-vpu-gate-$(call vpu_f,$(1),1)
test-vpu-gate-$(call vpu_f,$(1),1): $(tb_vpu_$(call vpu_f,$(1),1)_BIN) $(tb_vpu_$(call vpu_f,$(1),2)_BIN) scripts/gate-check.sh
	@$$(call run_test,vpu-gate-$(call vpu_f,$(1),1),scripts/gate-check.sh vpu-gate-$(call vpu_f,$(1),1) \
	  $(tb_vpu_$(call vpu_f,$(1),1)_BIN) $(tb_vpu_$(call vpu_f,$(1),2)_BIN) $(if $(SEED),$(SEED),random) --bf16 1)
endef
$(foreach p,$(VPU_GATE_PAIRS),$(eval $(call vpu_gate_pair,$(p))))

# The C model on its own, against the meaning of requantization and native
# float arithmetic (no Verilator).
VPU_MODEL_BIN := $(TB_BUILD)/bin/test_vpu_model
$(VPU_MODEL_BIN): tests/vpu/test_vpu_model.c host/src/ptpu_vpu.c host/src/ptpu_arith.c $(VPU_TB_DEPS)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/src -Ihost/include -o $@ \
	  tests/vpu/test_vpu_model.c host/src/ptpu_vpu.c host/src/ptpu_arith.c -lm
TB_PROGS += $(VPU_MODEL_BIN)
TEST_TARGETS += test-vpu-model
.PHONY: test-vpu-model
test-vpu-model: $(VPU_MODEL_BIN)
	@$(call run_test,vpu_model,$< $(if $(SEED),--seed $(SEED)))

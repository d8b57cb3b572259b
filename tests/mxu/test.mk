# SPDX-License-Identifier: Apache-2.0
# MXU: models per configuration, the testbench, lint, tests and benchmarks.
MXU_RTL := rtl/mxu/tpu_fp_pkg.sv rtl/mxu/tpu_mxu_row.sv rtl/mxu/tpu_mxu_array.sv rtl/mxu/tpu_acc.sv rtl/mxu/tpu_mxu.sv
MXU_TB := tests/mxu/tb_mxu.c host/src/ptpu_arith.c
# name:N:EnableBf16:AccRows:WideLanes - every configuration the MXU claims.
# Simulation builds use wide lanes; the int8-only FPGA builds and one narrow
# bf16 build check the exact-width datapath.
MXU_CONFIGS := n2:2:1:16:1 n3:3:1:16:1 n4:4:1:64:1 n8:8:1:64:1 n16:16:1:256:1 n32:32:1:256:1 \
               n4n:4:1:64:0 n4i:4:0:64:0 n8i:8:0:64:0 n16i:16:0:256:0
MXU_BIG := n64:64:1:256:1 n128:128:1:256:1

mxu_f = $(word $(2),$(subst :, ,$(1)))
# Loops with big bodies (the bf16 lanes) stay loops; the int8 lanes unroll.
# For the 16 x 16 array: a quarter of the C++ and the same speed (docs/mxu.md).
MXU_VFLAGS := --unroll-stmts 1500
define mxu_config
$(eval $(call tb_model,mxu_$(call mxu_f,$(1),1),tpu_mxu,$(MXU_RTL),-GN=$(call mxu_f,$(1),2) -GEnableBf16=$(call mxu_f,$(1),3) -GAccRows=$(call mxu_f,$(1),4) -GWideLanes=$(call mxu_f,$(1),5) $(MXU_VFLAGS)))
$(eval $(call tb_prog,tb_mxu_$(call mxu_f,$(1),1),mxu_$(call mxu_f,$(1),1),$(MXU_TB)))
$(eval $(call lint_config,mxu_$(call mxu_f,$(1),1),tpu_mxu,$(MXU_RTL),N=$(call mxu_f,$(1),2) EnableBf16=$(call mxu_f,$(1),3) AccRows=$(call mxu_f,$(1),4) WideLanes=$(call mxu_f,$(1),5)))
endef
$(foreach c,$(MXU_CONFIGS),$(eval $(call mxu_config,$(c))))
build/tb/bin/tb_mxu_%: TB_PROG_CFLAGS := -Ihost/src

# The iCEBreaker's array: 4 x 4 int8, exact-width lanes, pairs of PEs in hand-instantiated
# SB_MAC16 (Ice40Mac16 = 1) simulated with Yosys's model of the primitive (ice40/cells_sim.v;
# tests/boards/cells.vlt waives its lint).  Linted with the board (lint-board-icebreaker).
MXU_ICE40_CELLS := $(shell $(or $(YOSYS),yosys)-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v
$(eval $(call tb_model,mxu_n4m,tpu_mxu,tests/boards/cells.vlt $(MXU_ICE40_CELLS) $(MXU_RTL),-GN=4 -GEnableBf16=0 -GAccRows=64 -GWideLanes=0 -GIce40Mac16=1 -DNO_ICE40_DEFAULT_ASSIGNMENTS $(MXU_VFLAGS)))
$(eval $(call tb_prog,tb_mxu_n4m,mxu_n4m,$(MXU_TB)))

# Mixed PEs (DspPes): the first DspPes PEs, row by row, multiply with `*`, the others in
# logic (tpu_mxu_mul_logic); name:N:EnableBf16:AccRows:WideLanes:DspPes.  n16d is the 16 x 16
# ULX3S array that routed in session 19 (136 DSP PEs with 2 VPU lanes; row 8 split); n4d
# splits a row; n8d has the logic PEs in the int8 branch of the bf16 datapath with wide lanes.
MXU_DSP_CONFIGS := n4d:4:0:64:0:5 n8d:8:1:64:1:27 n16d:16:0:256:0:136
define mxu_dsp_config
$(eval $(call tb_model,mxu_$(call mxu_f,$(1),1),tpu_mxu,$(MXU_RTL),-GN=$(call mxu_f,$(1),2) -GEnableBf16=$(call mxu_f,$(1),3) -GAccRows=$(call mxu_f,$(1),4) -GWideLanes=$(call mxu_f,$(1),5) -GDspPes=$(call mxu_f,$(1),6) $(MXU_VFLAGS)))
$(eval $(call tb_prog,tb_mxu_$(call mxu_f,$(1),1),mxu_$(call mxu_f,$(1),1),$(MXU_TB)))
$(eval $(call lint_config,mxu_$(call mxu_f,$(1),1),tpu_mxu,$(MXU_RTL),N=$(call mxu_f,$(1),2) EnableBf16=$(call mxu_f,$(1),3) AccRows=$(call mxu_f,$(1),4) WideLanes=$(call mxu_f,$(1),5) DspPes=$(call mxu_f,$(1),6)))
endef
$(foreach c,$(MXU_DSP_CONFIGS),$(eval $(call mxu_dsp_config,$(c))))

# The ULX3S build's logic products (TPU_ECP5: CCU2C carry chains, tpu_mxu_mul_logic) with
# Yosys's model of the primitive (ecp5/cells_sim.v), 4 x 4 with 5 DSP PEs; linted with the
# board (lint-board-ulx3s).
MXU_YOSYS_SHARE := $(shell $(or $(YOSYS),yosys)-config --datdir 2>/dev/null || echo /usr/share/yosys)
$(eval $(call tb_model,mxu_n4e,tpu_mxu,tests/boards/cells.vlt $(MXU_YOSYS_SHARE)/ecp5/cells_sim.v $(MXU_RTL),-GN=4 -GEnableBf16=0 -GAccRows=64 -GWideLanes=0 -GDspPes=5 -DTPU_ECP5 -I$(MXU_YOSYS_SHARE)/ecp5 $(MXU_VFLAGS)))
$(eval $(call tb_prog,tb_mxu_n4e,mxu_n4e,$(MXU_TB)))

MXU_TESTS := $(foreach c,$(MXU_CONFIGS) $(MXU_DSP_CONFIGS),test-mxu-$(call mxu_f,$(c),1)) test-mxu-n4m test-mxu-n4e

# The logic product alone, every operand pair: generic and as the ULX3S builds it.
$(eval $(call tb_model,mul_check,tpu_mul_check,rtl/mxu/tpu_fp_pkg.sv rtl/mxu/tpu_mxu_row.sv tests/mxu/tpu_mul_check.sv,))
$(eval $(call tb_prog,tb_mul,mul_check,tests/mxu/tb_mul.c))
$(eval $(call tb_model,mul_check_e,tpu_mul_check,tests/boards/cells.vlt $(MXU_YOSYS_SHARE)/ecp5/cells_sim.v rtl/mxu/tpu_fp_pkg.sv rtl/mxu/tpu_mxu_row.sv tests/mxu/tpu_mul_check.sv,-DTPU_ECP5 -I$(MXU_YOSYS_SHARE)/ecp5))
$(eval $(call tb_prog,tb_mul_e,mul_check_e,tests/mxu/tb_mul.c))
TEST_TARGETS += test-mxu-mul test-mxu-mul-ecp5
.PHONY: test-mxu-mul test-mxu-mul-ecp5
test-mxu-mul: $(tb_mul_BIN)
	@$(call run_test,mxu_mul,$<)
test-mxu-mul-ecp5: $(tb_mul_e_BIN)
	@$(call run_test,mxu_mul_ecp5,$<)
TEST_TARGETS += $(MXU_TESTS)
.PHONY: $(MXU_TESTS)
$(MXU_TESTS): test-mxu-%: build/tb/bin/tb_mxu_%
	@$(call run_test,mxu_$*,$< $(if $(SEED),--seed $(SEED)))

# The floating-point functions on their own, millions of operands.
$(eval $(call tb_model,fp_check,tpu_fp_check,rtl/mxu/tpu_fp_pkg.sv tests/mxu/tpu_fp_check.sv,))
$(eval $(call tb_prog,tb_fp,fp_check,tests/mxu/tb_fp.c host/src/ptpu_arith.c))
build/tb/bin/tb_fp: TB_PROG_CFLAGS := -Ihost/src
TEST_TARGETS += test-fp
.PHONY: test-fp
test-fp: $(tb_fp_BIN)
	@$(call run_test,fp,$< $(if $(SEED),--seed $(SEED)))

# Benchmarks (make bench).  The 64 and 128 arrays are built and linted only
# there and by `make lint`, not by `make test`.
MXU_SAVED_PROGS := $(TB_PROGS)
MXU_SAVED_LINT := $(LINT_TARGETS)
$(foreach c,$(MXU_BIG),$(eval $(call mxu_config,$(c))))
LINT_SLOW_TARGETS += $(filter-out $(MXU_SAVED_LINT),$(LINT_TARGETS))
TB_PROGS := $(MXU_SAVED_PROGS)
LINT_TARGETS := $(MXU_SAVED_LINT)
BENCH_TARGETS += bench-mxu-util bench-mxu-speed bench-mxu-fpga
.PHONY: bench-mxu-util bench-mxu-speed bench-mxu-fpga
bench-mxu-util: build/tb/bin/tb_mxu_n4 build/tb/bin/tb_mxu_n8 build/tb/bin/tb_mxu_n16 build/tb/bin/tb_mxu_n32
	@tests/mxu/bench.sh util n4 n8 n16 n32
bench-mxu-speed: build/tb/bin/tb_mxu_n8 build/tb/bin/tb_mxu_n16 build/tb/bin/tb_mxu_n32 build/tb/bin/tb_mxu_n64 build/tb/bin/tb_mxu_n128
	@tests/mxu/bench.sh speed n8 n16 n32 n64 n128
bench-mxu-fpga:
	@tests/mxu/bench.sh fpga ice40:2 ice40:4 ecp5:4 ecp5:8 ecp5:16

# SPDX-License-Identifier: Apache-2.0
# mk/tb.mk - Verilate an RTL block into a static library with the tb C API
# (sim/tb/tb.h) and link C testbenches against it.
#
#   $(eval $(call tb_model,MODEL,TOP,SOURCES,VERILATOR_ARGS))
#       build/tb/MODEL/libtbm.a: TOP Verilated with VERILATOR_ARGS (-G...),
#       assertions on, tracing compiled in when WAVES=1.
#   $(eval $(call tb_prog,PROG,MODEL,C_SOURCES))
#       build/tb/bin/PROG: the C testbench linked with MODEL.
#
# A model is built once and shared by every program that links it.

VERILATOR ?= verilator
VERILATOR_ROOT ?= $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VINC := $(VERILATOR_ROOT)/include

TB_BUILD := build/tb
ifeq ($(WAVES),1)
TB_VARIANT := -waves
TB_TRACE := 1
TB_VTRACE := --trace-fst --trace-structs
else
TB_VARIANT :=
TB_TRACE := 0
TB_VTRACE :=
endif

# Verilator and C++ optimisation for models: the blueprint's settings.
TB_VFLAGS := -O3 --x-assign fast --x-initial fast --assert -Wall rtl/lint.vlt \
             --Wno-DECLFILENAME --Wno-UNUSEDPARAM
TB_OPT_FAST ?= -O2
TB_CXXDEFS := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=$(TB_TRACE) \
              -DVM_TRACE_FST=$(TB_TRACE) -DVM_TRACE_VCD=0
TB_CXXFLAGS := -I$(VINC) -I$(VINC)/vltstd $(TB_CXXDEFS) -faligned-new \
               -fcf-protection=none -Wno-bool-operation -Wno-sign-compare \
               -Wno-uninitialized -Wno-unused-but-set-variable \
               -Wno-unused-parameter -Wno-unused-variable -Wno-shadow
TB_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Isim/tb
TB_LDLIBS := -lz -pthread -latomic

# The Verilator runtime, compiled once per variant.
TB_RT_DIR := $(TB_BUILD)/vlrt$(TB_VARIANT)
TB_RT_SRCS := verilated.cpp verilated_threads.cpp $(if $(filter 1,$(TB_TRACE)),verilated_fst_c.cpp)
TB_RT := $(TB_RT_DIR)/libvlrt.a
TB_HARNESS := $(TB_RT_DIR)/tb.o

$(TB_RT): $(addprefix $(VINC)/,$(TB_RT_SRCS))
	@mkdir -p $(@D)
	cd $(@D) && for s in $(TB_RT_SRCS); do \
	  $(CXX) $(TB_CXXFLAGS) -O2 -c $(VINC)/$$s -o $${s%.cpp}.o; done
	$(AR) rcs $@ $(addprefix $(@D)/,$(TB_RT_SRCS:.cpp=.o))

$(TB_HARNESS): sim/tb/tb.c sim/tb/tb.h
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -c $< -o $@

define tb_model
$(1)_DIR := $(TB_BUILD)/$(1)$(TB_VARIANT)
$(1)_LIB := $(TB_BUILD)/$(1)$(TB_VARIANT)/libtbm.a
$(1)_SRCS := $(3)
TB_MODELS += $(1)

$(TB_BUILD)/$(1)$(TB_VARIANT)/libtbm.a: $(3) sim/tb/tb_glue.cpp sim/tb/tb.h sim/tb/gen_ports.sh mk/tb.mk rtl/lint.vlt
	@mkdir -p $$(@D)
	@echo "  VERILATE $(1) ($(2) $(4))"
	@date +%s > $$(@D)/build_start
	$(VERILATOR) --cc $(TB_VFLAGS) $(TB_VTRACE) --top-module $(2) --prefix Vmodel \
	  --Mdir $$(@D) $(4) $(3)
	@$$(MAKE) -s -C $$(@D) -f Vmodel.mk VM_PARALLEL_BUILDS=1 OPT_FAST="$(TB_OPT_FAST)" OPT_SLOW=-O1 \
	  OPT_GLOBAL=-O1 Vmodel__ALL.a
	@sim/tb/gen_ports.sh $$(@D)/Vmodel.h > $$(@D)/tb_ports.inc
	@$(CXX) $(TB_CXXFLAGS) -O2 -I$$(@D) -Isim/tb -c sim/tb/tb_glue.cpp -o $$(@D)/tb_glue.o
	@cp $$(@D)/Vmodel__ALL.a $$@.tmp && $(AR) rs $$@.tmp $$(@D)/tb_glue.o 2>/dev/null
	@mv $$@.tmp $$@
	@echo $$$$(( $$$$(date +%s) - $$$$(cat $$(@D)/build_start) )) > $$(@D)/build_seconds
	@echo "  BUILT $(1) in $$$$(cat $$(@D)/build_seconds) s"
endef

define tb_prog
$(1)_BIN := $(TB_BUILD)/bin$(TB_VARIANT)/$(1)
TB_PROGS += $(TB_BUILD)/bin$(TB_VARIANT)/$(1)

$(TB_BUILD)/bin$(TB_VARIANT)/$(1): $(3) $$($(2)_LIB) $(TB_RT) $(TB_HARNESS) $(TB_PROG_DEPS)
	@mkdir -p $$(@D)
	$(CC) $(TB_CFLAGS) $$(TB_PROG_CFLAGS) -o $$@ $(3) $(TB_HARNESS) $$($(2)_LIB) $(TB_RT) \
	  -lstdc++ -lm $(TB_LDLIBS)
endef

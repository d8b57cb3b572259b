# SPDX-License-Identifier: Apache-2.0
# mk/lint.mk - lint one configuration of a block with Verilator and Yosys.
#
#   $(eval $(call lint_config,NAME,TOP,SOURCES,PARAMS))
#       PARAMS is a list of Name=Value pairs; they become -GName=Value for
#       Verilator and -chparam Name Value for Yosys.  Adds lint-NAME to LINT_TARGETS.

LINT_VFLAGS := --lint-only -Wall rtl/lint.vlt
lint_gparams = $(addprefix -G,$(1))
lint_chparams = $(foreach p,$(1),-chparam $(word 1,$(subst =, ,$(p))) $(word 2,$(subst =, ,$(p))))

define lint_config
LINT_TARGETS += lint-$(1)
.PHONY: lint-$(1)
lint-$(1): build/lint/$(1).ok
build/lint/$(1).ok: $(3) mk/lint.mk rtl/lint.vlt
	@mkdir -p $$(@D)
	@echo "  LINT $(1)"
	@$(VERILATOR) $(LINT_VFLAGS) --top-module $(2) $(call lint_gparams,$(4)) $(3)
	@$(YOSYS) -q -l $$(@D)/$(1).yosys.log -p 'read_verilog -defer -sv -DSYNTHESIS $(3); hierarchy -check -top $(2) $(call lint_chparams,$(4)); proc; check -assert' >/dev/null
	@touch $$@
endef

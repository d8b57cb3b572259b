# SPDX-License-Identifier: Apache-2.0
# tests/spec/test.mk - the generated files agree with spec/picotpu.toml.
TEST_TARGETS += test-spec
.PHONY: test-spec
test-spec:
	@$(call run_test,spec-check,scripts/spec-check-test.sh)

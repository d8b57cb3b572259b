# SPDX-License-Identifier: Apache-2.0
# mk/run.mk - helpers for leaf makefiles to register tests and benchmarks.
#
#   $(call run_test,NAME,COMMAND...)     in a recipe: run one test program,
#       log to build/test-logs/NAME.log, append its PASS/FAIL lines to the results.
#   $(call bench_record,NAME,VALUE,UNIT,CONFIG,COMMAND) in a recipe: add one figure.

TEST_RESULTS := build/test-results.txt
run_test = scripts/run-test.sh $(TEST_RESULTS) $(1) $(2)
bench_record = scripts/bench-record.sh '$(1)' '$(2)' '$(3)' '$(4)' '$(5)'

# SPDX-License-Identifier: Apache-2.0
# Host runtime: libpicotpu, its tests (plain and under ASan+UBSan) and the CLI.
include host/host.mk

HOST_TEST_CFLAGS := $(HOST_CFLAGS) -Itests/host
HOST_TESTS := test_ops
HOST_TEST_BINS := $(addprefix $(HOST_BUILD)/,$(HOST_TESTS))
HOST_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HOST_SAN_BINS := $(addprefix $(HOST_BUILD)/san/,$(HOST_TESTS))

$(HOST_BUILD)/test_%: tests/host/test_%.c tests/host/hostutil.h $(HOST_LIB)
	$(HOST_CC) $(HOST_TEST_CFLAGS) $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)

# Sanitizer builds compile the library sources into the program.
$(HOST_BUILD)/san/test_%: tests/host/test_%.c tests/host/hostutil.h $(HOST_SRCS) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_TEST_CFLAGS) -O1 $(HOST_SAN_FLAGS) $< $(HOST_SRCS) -o $@ $(HOST_LDLIBS)

TB_PROGS += $(HOST_TEST_BINS) $(HOST_SAN_BINS) $(HOST_SO) $(HOST_PC) $(HOST_CLI)
.PHONY: test-host-ops test-host-ops-san
TEST_TARGETS += test-host-ops test-host-ops-san
test-host-ops: $(HOST_BUILD)/test_ops
	@$(call run_test,host_ops,$< --iters 400 $(if $(SEED),--seed $(SEED)))
test-host-ops-san: $(HOST_BUILD)/san/test_ops
	@$(call run_test,host_ops_san,$< --iters 60 $(if $(SEED),--seed $(SEED)))

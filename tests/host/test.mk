# SPDX-License-Identifier: Apache-2.0
# Host runtime: libpicotpu, its tests (plain and under ASan+UBSan) and the CLI.
include host/host.mk

HOST_TEST_CFLAGS := $(HOST_CFLAGS) -Itests/host
HOST_TESTS := test_ops test_model test_errors test_link test_bignet
HOST_TEST_BINS := $(addprefix $(HOST_BUILD)/,$(HOST_TESTS))
HOST_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HOST_SAN_BINS := $(addprefix $(HOST_BUILD)/san/,$(filter-out test_bignet,$(HOST_TESTS)))

$(HOST_BUILD)/test_%: tests/host/test_%.c tests/host/hostutil.h $(HOST_LIB)
	$(HOST_CC) $(HOST_TEST_CFLAGS) $< $(HOST_TEST_EXTRA_$*) -o $@ $(HOST_LIB) $(HOST_LDLIBS)
HOST_TEST_EXTRA_link := tests/host/fakedev.c
HOST_TEST_EXTRA_ops := tests/host/progcheck.c
$(HOST_BUILD)/test_ops $(HOST_BUILD)/san/test_ops: tests/host/progcheck.c tests/host/progcheck.h
$(HOST_BUILD)/test_link $(HOST_BUILD)/san/test_link: tests/host/fakedev.c tests/host/fakedev.h

# Sanitizer builds: the library compiled once with ASan + UBSan, the tests against it.
HOST_SAN_OBJS := $(patsubst host/src/%.c,$(HOST_BUILD)/san/obj/%.o,$(HOST_SRCS))
HOST_SAN_LIB := $(HOST_BUILD)/san/libpicotpu.a
$(HOST_BUILD)/san/obj/%.o: host/src/%.c $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -DPTPU_SIM_DIR='"$(abspath build/sim)"' -O1 $(HOST_SAN_FLAGS) -c $< -o $@
$(HOST_SAN_LIB): $(HOST_SAN_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
$(HOST_BUILD)/san/test_%: tests/host/test_%.c tests/host/hostutil.h $(HOST_SAN_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_TEST_CFLAGS) -O1 $(HOST_SAN_FLAGS) $< $(HOST_TEST_EXTRA_$*) -o $@ $(HOST_SAN_LIB) $(HOST_LDLIBS)

# A stand-in simulation library (tests/host/fakesim.c): the sim backend's path without the SoC.
HOST_FAKESIM := $(HOST_BUILD)/fakesim/libpicotpu_sim.so
$(HOST_FAKESIM): tests/host/fakesim.c tests/host/fakedev.c tests/host/fakedev.h $(HOST_SRCS) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_TEST_CFLAGS) -shared tests/host/fakesim.c tests/host/fakedev.c \
	  host/src/ptpu_link.c host/src/ref/ptpu_ref.c host/src/ptpu_dmafn.c host/src/ptpu_vpu.c \
	  host/src/ptpu_arith.c -o $@ -lz -lm

TB_PROGS += $(HOST_FAKESIM) $(HOST_TEST_BINS) $(HOST_SAN_BINS) $(HOST_SO) $(HOST_PC) $(HOST_CLI) $(HOST_EXAMPLE)
HOST_RUN_TESTS := test-host-ops test-host-ops-ib test-host-model test-host-errors test-host-link \
                  test-host-ops-fakesim test-host-bignet \
                  test-host-ops-san test-host-model-san test-host-errors-san test-host-link-san
.PHONY: $(HOST_RUN_TESTS)
TEST_TARGETS += $(HOST_RUN_TESTS)
HOST_SEED = $(if $(SEED),--seed $(SEED))
# thousands of random operations on sim16 and on the iCEBreaker's 4 x 4 int8 array
test-host-ops: $(HOST_BUILD)/test_ops
	@$(call run_test,host_ops,$< --iters 1500 $(HOST_SEED))
test-host-ops-ib: $(HOST_BUILD)/test_ops
	@$(call run_test,host_ops_ib,$< --device ref:config=icebreaker --iters 600 $(HOST_SEED))
test-host-model: $(HOST_BUILD)/test_model
	@$(call run_test,host_model,$< $(HOST_SEED))
test-host-errors: $(HOST_BUILD)/test_errors
	@$(call run_test,host_errors,$< $(HOST_SEED))
test-host-ops-san: $(HOST_BUILD)/san/test_ops
	@$(call run_test,host_ops_san,$< --iters 300 $(HOST_SEED))
test-host-model-san: $(HOST_BUILD)/san/test_model
	@$(call run_test,host_model_san,$< $(HOST_SEED))
test-host-errors-san: $(HOST_BUILD)/san/test_errors
	@$(call run_test,host_errors_san,$< $(HOST_SEED))
test-host-link: $(HOST_BUILD)/test_link
	@$(call run_test,host_link,$< --iters 40 $(HOST_SEED))
test-host-link-san: $(HOST_BUILD)/san/test_link
	@$(call run_test,host_link_san,$< --iters 10 $(HOST_SEED))
# the sim backend over the stand-in library (the link protocol, the backdoor off and on)
test-host-ops-fakesim: $(HOST_BUILD)/test_ops $(HOST_FAKESIM)
	@$(call run_test,host_ops_fakesim,env PTPU_SIM_LIB=$(HOST_FAKESIM) $< --device sim:backdoor=0 --iters 150 $(HOST_SEED))
# a ResNet-50-shaped network on ref (the sanitizer build of it is not run: too slow)
test-host-bignet: $(HOST_BUILD)/test_bignet
	@$(call run_test,host_bignet,$< $(HOST_SEED))
# On the RTL: the ops test through the sim backend on the Verilated SoC
# (build/sim/sim16/libpicotpu_sim.so, which tests/demo/test.mk adds to the `make test`
# build): in `make test` 40 iterations (about 200 programs, 550 checks, ~1 minute of CPU);
# `make check-host-sim` 100.
HOST_SIM_SO := build/sim/sim16/libpicotpu_sim.so
TEST_TARGETS += test-host-sim
.PHONY: test-host-sim check-host-sim
test-host-sim: $(HOST_BUILD)/test_ops $(HOST_SIM_SO)
	@$(call run_test,host_ops_sim,$< --device sim:config=sim16 --iters 40 $(HOST_SEED))
check-host-sim: $(HOST_BUILD)/test_ops $(HOST_SIM_SO)
	@$(call run_test,host_ops_sim,$< --device sim:config=sim16 --iters 100 $(HOST_SEED))

# SPDX-License-Identifier: Apache-2.0
# tests/workloads/test.mk - real workloads (docs/workloads.md): the drivers in bench/
# (ResNet-50 v1.5, BERT-base matmuls, GEMM 1024^3), the report generator, `make bench`
# targets, and a fast subset in `make test` checked bit for bit against the naive kernels.
WL_BUILD := build/bench/bin
WL_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Ibench
WL_LIB := build/host/libpicotpu.a
WL_LDLIBS := -lz -lm -pthread -ldl
WL_DEPS := bench/rn50net.c bench/rn50net.h host/include/picotpu.h host/include/picotpu_model.h $(WL_LIB)

$(WL_BUILD)/resnet50: bench/resnet50.c $(WL_DEPS)
	@mkdir -p $(@D)
	$(CC) $(WL_CFLAGS) $< bench/rn50net.c -o $@ $(WL_LIB) $(WL_LDLIBS)

$(WL_BUILD)/bert: bench/bert.c host/include/picotpu.h host/src/ptpu_kernels.h $(WL_LIB)
	@mkdir -p $(@D)
	$(CC) $(WL_CFLAGS) $< -o $@ $(WL_LIB) $(WL_LDLIBS)

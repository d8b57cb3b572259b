# SPDX-License-Identifier: Apache-2.0
# ref: the ISA model against naive kernels, directed faults, random programs
# (tests/soc/progen), each built twice: -O2 and -fsanitize=address,undefined.
REF_LIB_SRCS := host/src/ref/ptpu_ref.c host/src/ptpu_dmafn.c host/src/ptpu_vpu.c host/src/ptpu_arith.c
REF_HDRS := host/src/ref/ptpu_ref.h host/src/ptpu_dmafn.h host/src/ptpu_vpu.h host/src/ptpu_arith.h \
            host/include/picotpu_isa.h tests/ref/ref_prog.h
REF_CFLAGS := -std=gnu11 -g -Wall -Wextra -Werror -Ihost/include -Ihost/src -Ihost/src/ref -Itests/ref -Itests/dma
REF_SAN := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# tb_ref also checks LOAD/STORE against the DMA engines' model (tests/dma/dma_model.c).
REF_TB_SRCS := tests/ref/tb_ref.c tests/dma/dma_model.c
build/ref/tb_ref: $(REF_TB_SRCS) tests/dma/dma_model.h $(REF_LIB_SRCS) $(REF_HDRS)
	@mkdir -p $(@D)
	$(CC) $(REF_CFLAGS) -O2 -o $@ $(REF_TB_SRCS) $(REF_LIB_SRCS) -lm
build/ref/tb_ref_asan: $(REF_TB_SRCS) tests/dma/dma_model.h $(REF_LIB_SRCS) $(REF_HDRS)
	@mkdir -p $(@D)
	$(CC) $(REF_CFLAGS) $(REF_SAN) -o $@ $(REF_TB_SRCS) $(REF_LIB_SRCS) -lm
# tb_progen also runs the runtime's race checker (tests/host/progcheck.c) on every program.
PROGEN_SRCS := tests/soc/progen.c tests/host/progcheck.c
PROGEN_HDRS := tests/soc/progen.h tests/host/progcheck.h
build/ref/tb_progen: tests/ref/tb_progen.c $(PROGEN_SRCS) $(PROGEN_HDRS) $(REF_LIB_SRCS) $(REF_HDRS)
	@mkdir -p $(@D)
	$(CC) $(REF_CFLAGS) -Itests/soc -Itests/host -O2 -o $@ tests/ref/tb_progen.c $(PROGEN_SRCS) $(REF_LIB_SRCS) -lm
build/ref/tb_progen_asan: tests/ref/tb_progen.c $(PROGEN_SRCS) $(PROGEN_HDRS) $(REF_LIB_SRCS) $(REF_HDRS)
	@mkdir -p $(@D)
	$(CC) $(REF_CFLAGS) -Itests/soc -Itests/host $(REF_SAN) -o $@ tests/ref/tb_progen.c $(PROGEN_SRCS) $(REF_LIB_SRCS) -lm
TB_PROGS += build/ref/tb_ref build/ref/tb_ref_asan build/ref/tb_progen build/ref/tb_progen_asan

REF_TESTS := test-ref test-ref-asan test-ref-progen test-ref-progen-asan
TEST_TARGETS += $(REF_TESTS)
.PHONY: $(REF_TESTS)
test-ref: build/ref/tb_ref
	@$(call run_test,ref,$< --iters 400 $(if $(SEED),--seed $(SEED)))
test-ref-asan: build/ref/tb_ref_asan
	@$(call run_test,ref_asan,$< --iters 60 $(if $(SEED),--seed $(SEED)))
test-ref-progen: build/ref/tb_progen
	@$(call run_test,ref_progen,$< --iters 500 $(if $(SEED),--seed $(SEED)))
test-ref-progen-asan: build/ref/tb_progen_asan
	@$(call run_test,ref_progen_asan,$< --iters 60 $(if $(SEED),--seed $(SEED)))

# SPDX-License-Identifier: Apache-2.0
# Fashion-MNIST CNN (docs/fmnist.md): the training, evaluation and export
# tools, the tests of the committed model, and `make fmnist-model`, which
# regenerates the model (about 5 minutes of CPU time; no training in `make test`).
FMNIST_BUILD := build/fmnist
# libpicotpu (host/host.mk): the model builder, loader and naive kernels.
FMNIST_LIB := build/host/libpicotpu.a
FMNIST_CFLAGS := -std=gnu11 -O2 -ftree-vectorize -fvect-cost-model=dynamic -g \
                 -Wall -Wextra -Werror -Ihost/include -Ihost/src
FMNIST_LDLIBS := -lz -lm
FMNIST_SRCS := tools/fmnist/net.c tools/fmnist/data.c tools/fmnist/quant.c
FMNIST_DEPS := $(FMNIST_SRCS) tools/fmnist/fmnist.h host/include/picotpu.h \
               host/include/picotpu_model.h $(FMNIST_LIB)
FMNIST_MODEL := models/fmnist_cnn.ptm
FMNIST_FLOAT := models/fmnist_cnn.f32
# The committed model was made with exactly these arguments.
FMNIST_CALIB := 500
FMNIST_TRAIN_ARGS := --epochs 3 --batch 32 --lr 0.002 --seed 1 --calib $(FMNIST_CALIB)

FMNIST_BINS := $(FMNIST_BUILD)/train $(FMNIST_BUILD)/eval $(FMNIST_BUILD)/export \
               $(FMNIST_BUILD)/gradcheck
TB_PROGS += $(FMNIST_BINS)

$(FMNIST_BUILD)/train $(FMNIST_BUILD)/eval: $(FMNIST_BUILD)/%: tools/fmnist/%.c $(FMNIST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(FMNIST_CFLAGS) $< $(FMNIST_SRCS) -o $@ $(FMNIST_LIB) $(FMNIST_LDLIBS)

# The training tool in double precision, for the gradient check.
$(FMNIST_BUILD)/gradcheck: tools/fmnist/train.c $(FMNIST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(FMNIST_CFLAGS) -DFM_REAL=double $< $(FMNIST_SRCS) -o $@ $(FMNIST_LIB) $(FMNIST_LDLIBS)

$(FMNIST_BUILD)/export: tools/fmnist/export.c tools/fmnist/data.c tools/fmnist/fmnist.h
	@mkdir -p $(@D)
	$(CC) $(FMNIST_CFLAGS) $< tools/fmnist/data.c -o $@ $(FMNIST_LDLIBS)

# Regenerate the committed model: float training, calibration, quantization.
.PHONY: fmnist-model fmnist-requantize fmnist-eval fmnist-export
fmnist-model: $(FMNIST_BUILD)/train
	@mkdir -p models
	$(FMNIST_BUILD)/train $(FMNIST_TRAIN_ARGS) --float-out $(FMNIST_FLOAT) --out $(FMNIST_MODEL) \
	  | tee $(FMNIST_BUILD)/train.log

# Only the calibration and quantization (seconds), e.g. after a model-format change.
fmnist-requantize: $(FMNIST_BUILD)/train
	$(FMNIST_BUILD)/train --from $(FMNIST_FLOAT) --calib $(FMNIST_CALIB) --out $(FMNIST_MODEL)

# Float and int8 accuracy over the whole test set.
fmnist-eval: $(FMNIST_BUILD)/eval
	$(FMNIST_BUILD)/eval --model $(FMNIST_MODEL) --float $(FMNIST_FLOAT) --count 10000 \
	  --json $(FMNIST_BUILD)/accuracy.json

# Test images for the demo and `picotpu run` (raw int8 inputs and labels).
FMNIST_IMAGES := $(FMNIST_BUILD)/test_images.i8
FMNIST_LABELS := $(FMNIST_BUILD)/test_labels.u8
fmnist-export: $(FMNIST_IMAGES)
$(FMNIST_IMAGES): $(FMNIST_BUILD)/export
	$(FMNIST_BUILD)/export --count 10000 $(FMNIST_IMAGES) $(FMNIST_LABELS)
$(FMNIST_LABELS): $(FMNIST_IMAGES)

FMNIST_TESTS := test-fmnist-gradcheck test-fmnist-train test-fmnist-quantize test-fmnist-int8
TEST_TARGETS += $(FMNIST_TESTS)
.PHONY: $(FMNIST_TESTS)
# Backward pass against central differences (double precision), random parameters.
test-fmnist-gradcheck: $(FMNIST_BUILD)/gradcheck
	@$(call run_test,fmnist_gradcheck,$< --gradcheck $(if $(SEED),--seed $(SEED)))
# A short training run (2,000 images, one epoch) learns: >= 70 % on 1,000 test images.
test-fmnist-train: $(FMNIST_BUILD)/train
	@$(call run_test,fmnist_train,$< --train-count 2000 --epochs 1 --test-count 1000 \
	  --min-acc 70 $(if $(SEED),--seed $(SEED)))
# Calibration and quantization of the committed float parameters reproduce
# the committed model byte for byte.
test-fmnist-quantize: $(FMNIST_BUILD)/train
	@$(call run_test,fmnist_quantize,$< --from $(FMNIST_FLOAT) --calib $(FMNIST_CALIB) \
	  --out $(FMNIST_BUILD)/requant.ptm --expect $(FMNIST_MODEL))
# The committed model loads, its int8 accuracy on 500 test images through the
# naive kernels is within 2 points of the float network's, and the `ref`
# device computes the same logits, byte for byte.
test-fmnist-int8: $(FMNIST_BUILD)/eval
	@$(call run_test,fmnist_int8,$< --model $(FMNIST_MODEL) --float $(FMNIST_FLOAT) \
	  --count 500 --max-drop 2 --min-int8 85 --device ref)

# On the RTL (build/sim/sim16/libpicotpu_sim.so from `make sim`), outside
# `make test` (about 2.3 s of CPU per image): 20 images, logits identical to
# the naive kernels'.
.PHONY: check-fmnist-sim
check-fmnist-sim: $(FMNIST_BUILD)/eval
	@$(call run_test,fmnist_sim,$< --model $(FMNIST_MODEL) --float $(FMNIST_FLOAT) \
	  --count 20 --device sim)

# Figures for build/bench/results.json: the whole test set on `ref`.
BENCH_TARGETS += bench-fmnist
.PHONY: bench-fmnist
bench-fmnist: $(FMNIST_BUILD)/eval
	@tests/fmnist/bench.sh ref 10000

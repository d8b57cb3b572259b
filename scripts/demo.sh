#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make demo`: the trained Fashion-MNIST CNN (models/fmnist_cnn.ptm, docs/fmnist.md) on
# test images, on the simulated TPU: the Verilated SoC (sim16: RV32 command processor,
# link, 16x16 MXU, HBM2 memory system) driven through libpicotpu's `sim` backend.
#   scripts/demo.sh [IMAGES [OFFSET]]      (make demo DEMO_IMAGES=N DEMO_OFFSET=K)
# Prints each image's prediction and label, then the accuracy, cycles per image and MXU
# utilization; with DEMO_JSON=FILE also writes them as JSON.  Every output is checked
# against the naive C kernels (bit for bit): the last line is PASS or FAIL, and so is
# the exit code.  DEMO_DEVICE=URI runs elsewhere (ref: the ISA model, instantly).
set -eu -o pipefail
count=${1:-50} offset=${2:-0}
device=${DEMO_DEVICE:-sim:config=sim16}
dir=build/demo
mkdir -p "$dir"
images=$dir/images_${offset}_${count}.i8 labels=$dir/labels_${offset}_${count}.u8
[ -s "$images" ] && [ -s "$labels" ] ||
  build/fmnist/export --count "$count" --offset "$offset" "$images" "$labels" >/dev/null
classes="T-shirt/top,trouser,pullover,dress,coat,sandal,shirt,sneaker,bag,ankle boot"
echo "picotpu demo: Fashion-MNIST test images $offset..$((offset + count - 1)) through" \
     "models/fmnist_cnn.ptm (3 conv + 2 max pool + FC, int8)"
echo "device: $device (the RTL, cycle by cycle; about a second of CPU per image)"
# DEMO_PICOTPU: the CLI with a prefix, e.g. "valgrind ... build/host/picotpu"
rc=0
${DEMO_PICOTPU:-build/host/picotpu} --device "$device" classify models/fmnist_cnn.ptm "$images" \
  --labels "$labels" --classes "$classes" ${DEMO_JSON:+--json "$DEMO_JSON"} || rc=$?
if [ $rc -eq 0 ]; then
  echo "PASS demo: $count image(s) on $device, every output identical to the naive kernels"
else
  echo "FAIL demo: exit status $rc (an output differs from the naive kernels, or the run failed)"
fi
exit $rc

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fashion-MNIST figures (issue 7): float and int8 accuracy of the committed
# model over the whole test set, the int8 model run on the `ref` device and
# compared with the naive kernels, cycles per image and MXU utilization.
#   tests/fmnist/bench.sh [DEVICE [COUNT]]     (default: ref 10000)
# `tests/fmnist/bench.sh sim 500` adds fmnist.sim_agree (issue 7).
set -eu -o pipefail
rec=scripts/bench-record.sh
dev=${1:-ref} count=${2:-10000}
json=build/fmnist/bench-$dev.json
cmd="build/fmnist/eval --model models/fmnist_cnn.ptm --float models/fmnist_cnn.f32 --count $count --device $dev --json $json"
$cmd | tail -4
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$json" "$1"; }
$rec fmnist.accuracy.float "$(field float_accuracy)" fraction "images=$count" "$cmd"
$rec fmnist.accuracy.int8 "$(field int8_accuracy)" fraction "images=$count,naive" "$cmd"
$rec "fmnist.accuracy.$dev" "$(field device_accuracy)" fraction "images=$count" "$cmd"
$rec "fmnist.$dev.equal" "$(field device_equal)" fraction "images=$count" "$cmd"
# predictions equal to the naive kernels' (= ref's, which the ref run checks on all images)
if [ "$dev" = sim ]; then
  $rec fmnist.sim_agree "$(field device_agree)" fraction "images=$count" "$cmd"
fi
$rec "fmnist.cycles_per_image" "$(field cycles_per_image)" cycles "$dev" "$cmd"
$rec "fmnist.utilization" "$(field utilization)" fraction "$dev" "$cmd"

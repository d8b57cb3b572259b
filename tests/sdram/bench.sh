#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SDR SDRAM backend benchmarks: data-bus efficiency (16-bit words moved / cycles, i.e. a
# fraction of the 16 bit x ClkHz peak) per access pattern of one configuration, each
# figure recorded through scripts/bench-record.sh.
#   tests/sdram/bench.sh BIN CONFIG_LABEL PARAMS...
set -eu -o pipefail
rec=scripts/bench-record.sh
bin=$1 label=$2; shift 2
mkdir -p build/bench
log=build/bench/sdram-$(basename "$bin").log
: > "$log"
for pat in seq_read seq_write rand_read rand_mixed; do
  cmd="$bin $* --bench $pat --cycles 2000000 --seed 1"
  out=$($cmd | tee -a "$log")
  line=$(grep "^bench $pat " <<<"$out") || { echo "bench: $cmd failed (see $log)" >&2; exit 1; }
  grep -q ' violations 0$' <<<"$line" || { echo "bench: $cmd: timing violations (see $log)" >&2; exit 1; }
  $rec "mem.sdram.${pat}_efficiency" "$(awk '{print $4}' <<<"$line")" fraction "$label" "$cmd"
done

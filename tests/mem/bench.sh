#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Memory-system benchmarks: bandwidth efficiency per access pattern of one
# configuration, or the timing violations of a long random run.  Each figure goes
# to build/bench/results.jsonl through scripts/bench-record.sh.
#   tests/mem/bench.sh eff BIN CONFIG_LABEL PARAMS...
#   tests/mem/bench.sh violations BIN CONFIG_LABEL PARAMS...
set -eu -o pipefail
rec=scripts/bench-record.sh
what=$1 bin=$2 label=$3; shift 3
mkdir -p build/bench
log=build/bench/mem-$(basename "$bin").log
case $what in
eff)
  : > "$log"
  for pat in seq_read seq_write mixed rand64 rand1k; do
    cmd="$bin $* --bench $pat --seed 1"
    out=$($cmd | tee -a "$log")
    grep -q "^PASS $pat" <<<"$out" || { echo "bench: $cmd failed (see $log)" >&2; exit 1; }
    $rec "mem.$pat.efficiency" "$(sed -n "s/^mem\.$pat\.efficiency //p" <<<"$out")" fraction "$label" "$cmd"
  done ;;
violations)
  cmd="$bin $* --only random --bursts 200000 --keep-going --seed 1"
  out=$($cmd | tee "$log")
  $rec mem.timing_violations "$(sed -n 's/^mem\.timing_violations //p' <<<"$out")" count "$label" "$cmd"
  grep -q '^PASS random' <<<"$out" || { echo "bench: $cmd failed (see $log)" >&2; exit 1; } ;;
*)
  echo "usage: $0 eff|violations BIN CONFIG_LABEL PARAMS..." >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# MXU benchmarks: utilization on a long tile stream, simulator speed, build
# time of the big arrays, and FPGA resource estimates.  Each figure goes to
# build/bench/results.jsonl through scripts/bench-record.sh.
#   tests/mxu/bench.sh util|speed|fpga
set -eu -o pipefail
rec=scripts/bench-record.sh
what=$1; shift

field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d.get(sys.argv[2]); print("" if v is None else v)' "$1" "$2"; }

case $what in
util)
  for cfg in "$@"; do
    bin=build/tb/bin/tb_mxu_$cfg
    $bin --bench-util --seed 1 | grep '^BENCH mxu.utilization' |
    while read -r _ _ value m _; do
      $rec mxu.utilization "$value" fraction "$cfg,rows_per_tile=${m#M=}" "$bin --bench-util --seed 1"
    done
  done ;;
speed)
  for cfg in "$@"; do
    bin=build/tb/bin/tb_mxu_$cfg
    cmd="$bin --bench-speed --cycles 400000 --bf16-cycles 40000 --seed 1"
    out=$($cmd | grep '^BENCH')
    while read -r _ name value _; do
      dtype=${name##*.}
      $rec mxu.sim_cycles_per_s "$value" cycles/s "$cfg,$dtype" "$cmd"
    done <<<"$out"
    if [ -f build/tb/mxu_$cfg/build_seconds ]; then
      $rec mxu.build_s "$(cat build/tb/mxu_$cfg/build_seconds)" s "$cfg" "make $bin"
    fi
  done ;;
fpga)
  # name:family:N
  src="rtl/mxu/tpu_fp_pkg.sv rtl/mxu/tpu_mxu_row.sv rtl/mxu/tpu_mxu_array.sv rtl/mxu/tpu_acc.sv rtl/mxu/tpu_mxu.sv"
  mkdir -p build/bench/mxu
  for spec in "$@"; do
    IFS=: read -r fam n <<<"$spec"
    j=build/bench/mxu/$fam-n$n.json
    cmd="python3 scripts/fpga-estimate.py --family $fam --top tpu_mxu --param N=$n --param EnableBf16=0 --param AccRows=64 $src"
    $cmd > "$j"
    cfg="n${n}_int8only"
    if [ "$fam" = ice40 ]; then
      $rec mxu.ice40.lc "$(field "$j" lc)" LC "$cfg" "$cmd"
      $rec mxu.ice40.dsp "$(field "$j" dsp)" SB_MAC16 "$cfg" "$cmd"
      $rec mxu.ice40.ff "$(field "$j" ff)" FF "$cfg" "$cmd"
    else
      $rec mxu.ecp5.lut "$(field "$j" lut)" LUT4 "$cfg" "$cmd"
      $rec mxu.ecp5.mult18 "$(field "$j" dsp)" MULT18X18D "$cfg" "$cmd"
      $rec mxu.ecp5.ff "$(field "$j" ff)" FF "$cfg" "$cmd"
    fi
  done ;;
*) echo "usage: $0 util|speed|fpga ..." >&2; exit 2 ;;
esac

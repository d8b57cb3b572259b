#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cpu/bench.sh cpi|speed|ice40|ecp5 - the CPU's benchmark figures,
# recorded with scripts/bench-record.sh (make bench).
set -eu -o pipefail
cd "$(dirname "$0")/../.."
rec=scripts/bench-record.sh
fw=build/fw/cpu
rtl=(rtl/cpu/tpu_cpu_pkg.sv rtl/cpu/tpu_cpu_decode.sv rtl/cpu/tpu_cpu_alu.sv
     rtl/cpu/tpu_cpu_shift.sv rtl/cpu/tpu_cpu_muldiv.sv rtl/cpu/tpu_cpu_regfile.sv
     rtl/cpu/tpu_cpu_csr.sv rtl/cpu/tpu_cpu.sv)
est=(python3 scripts/fpga-estimate.py --top tpu_cpu --exclude-ports 'trace_.*' --pnr)
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
bench_line() { grep '^BENCH' | tail -1; }
kv() { sed -E "s/.* $1=([0-9.]+).*/\1/"; }

case ${1:-} in
cpi)
  for c in rv32i rv32im; do
    cmd="build/tb/bin/tb_cpu_$c --bench $fw/crcsort-$c.bin"
    line=$($cmd | bench_line)
    echo "  $c: $line"
    $rec cpu.cpi "$(kv cpi <<<"$line")" cycles/instruction \
      "$c, tests/cpu/prog/crcsort.c -O2, 1-cycle SRAM" "$cmd"
  done ;;
speed)
  # Three runs of the workload; the figure is the last (warm) one.
  cmd="build/tb/bin/tb_cpu_rv32i --bench $fw/crcsort-rv32i.bin $fw/crcsort-rv32i.bin $fw/crcsort-rv32i.bin"
  line=$($cmd | bench_line)
  echo "  $line"
  $rec cpu.sim_cycles_per_s "$(kv cycles_per_s <<<"$line")" cycles/s \
    "rv32i, Verilator -O3, crcsort, no co-simulation" "$cmd" ;;
ice40)
  json=$("${est[@]}" --family ice40 "${rtl[@]}")
  echo "  $json"
  cmd="python3 scripts/fpga-estimate.py --family ice40 --top tpu_cpu --exclude-ports 'trace_.*' --pnr rtl/cpu/*.sv"
  $rec cpu.ice40.lc "$(field "$json" lc)" "logic cells" \
    "rv32i, iCE40UP5K, nextpnr packing minus the wrapper" "$cmd"
  $rec cpu.ice40.fmax_mhz "$(field "$json" fmax_mhz)" MHz \
    "rv32i, iCE40UP5K-SG48, nextpnr-ice40 --seed 1" "$cmd" ;;
ecp5)
  for m in 0 1; do
    cfg=rv32i; [ $m = 1 ] && cfg=rv32im
    json=$("${est[@]}" --family ecp5 --param EnableM=$m --param LutRam=1 "${rtl[@]}")
    echo "  $json"
    cmd="python3 scripts/fpga-estimate.py --family ecp5 --top tpu_cpu --exclude-ports 'trace_.*' --pnr --param EnableM=$m --param LutRam=1 rtl/cpu/*.sv"
    $rec cpu.ecp5.lut "$(field "$json" comb)" LUT4 "$cfg, LFE5U-85F, LUT RAM register file, placed LUT4 sites minus the wrapper" "$cmd"
    $rec cpu.ecp5.fmax_mhz "$(field "$json" fmax_mhz)" MHz \
      "$cfg, LFE5U-85F-6 CABGA381, nextpnr-ecp5 --seed 1" "$cmd"
  done ;;
*)
  echo "usage: $0 cpi|speed|ice40|ecp5" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Workload benchmarks (docs/workloads.md): runs the drivers in build/bench/bin and
# records figures into build/bench/results.jsonl (scripts/bench-record.sh).
#   bench/bench.sh resnet50      ResNet-50 on ref:sim16, whole network, per-layer TSV
#   bench/bench.sh resnet50-sim  ResNet-50 on the RTL (sim16): the whole network (the layer
#                                subset with WL_SIM_FULL=0); equality, cycles, wall and CPU time
#   bench/bench.sh bert          BERT-base matmuls int8/bf16 and GEMM 1024^3 on ref:sim16
#   bench/bench.sh scaling       ResNet-50 on ref:sim32, sim128; layers on ulx3s, icebreaker
#   bench/bench.sh bert-sim      BERT-base matmuls int8/bf16 and GEMM 1024^3 on the RTL (sim16)
#   bench/bench.sh fmnist-sim    Fashion-MNIST, 500 test images on the RTL (tests/fmnist/bench.sh)
# Logs and TSV files in build/bench/.  WL_SIM_TIMEOUT (s, default 3600) bounds each RTL run,
# WL_SIM_FULL_TIMEOUT (s, default 10800) the whole-network ResNet-50 on the RTL.
set -eu -o pipefail
rec=scripts/bench-record.sh
out=build/bench
bin=build/bench/bin
mkdir -p "$out"
res() { awk -v k="$2" '$1 == "RESULT" && $2 == k { print $3; exit }' "$1"; }
simto=${WL_SIM_TIMEOUT:-3600}
simlib=build/sim/sim16/libpicotpu_sim.so
# The RTL runs use the benchmark library (no tracing, profile-guided; `make sim-fast`) when it
# is built, the test library otherwise (WL_SIM_FAST=0 forces the test library).
fastlib=build/sim/fast/sim16/libpicotpu_sim.so
simvar="test library"
if [ "${WL_SIM_FAST:-1}" = 1 ] && [ -f $fastlib ]; then
  export PTPU_SIM_LIB=$PWD/$fastlib
  simvar="benchmark library: no tracing, profile-guided"
fi
# Simulator speed depends on the host CPU (the same library ran the whole network in 44 s on
# one AMD EPYC and in 54-63 s on another, docs/performance.md): its figures name it.
host=$(awk -F': *' '/^model name/ && !m { m = $2 } /^cpu family/ && !f { f = $2 }
                   /^model[ \t]*:/ && !o { o = $2 }
                   END { printf "%s (family %s, model %s)", m, f, o }' /proc/cpuinfo 2>/dev/null || true)
simvar="$simvar; host CPU: ${host:-unknown}"
# no_rtl_lib: true (and says so) when neither RTL library is built
no_rtl_lib() {
  [ -f $simlib ] || [ -f "${PTPU_SIM_LIB:-}" ] && return 1
  echo "bench: no RTL library ($simlib: make sim; $fastlib: make sim-fast, unless WL_SIM_FAST=0): no RTL figures"
}

run() {   # run LOG CMD...: the command's output to LOG and a summary to stdout
  local log=$1; shift
  echo "  \$ $*"
  local rc=0
  "$@" > "$log" 2>&1 || rc=$?
  grep -E '^(PASS|FAIL)' "$log" || true
  return $rc
}

case ${1:-} in
resnet50)
  cmd="$bin/resnet50 --device ref:sim16 --tsv $out/resnet50-ref-sim16.tsv"
  run $out/resnet50-ref-sim16.log $cmd
  l=$out/resnet50-ref-sim16.log
  $rec resnet50.cycles "$(res $l cycles)" cycles "sim16, ref estimate, one program" "$cmd"
  $rec resnet50.utilization "$(res $l utilization)" fraction "sim16, ref estimate, MXU rows/cycles" "$cmd"
  $rec resnet50.mac_efficiency "$(res $l profile_mac_efficiency)" fraction "sim16, ref estimate, MACs/(N^2 cycles), op by op" "$cmd"
  $rec resnet50.macs "$(res $l macs)" MACs "224x224x3, batch 1" "$cmd"
  $rec resnet50.ref_wall_s "$(res $l load_s)" s "sim16, ref model (compile, upload, run)" "$cmd"
  $rec resnet50.ref_cycles_per_s "$(awk -v c="$(res $l cycles)" -v w="$(res $l load_s)" 'BEGIN { printf "%.0f", c / w }')" \
    cycles/s "sim16 ref model" "$cmd"
  $rec resnet50.host_equal "$(res $l equal)" bool "ref:sim16 logits = naive kernels" "$cmd"
  ;;
resnet50-sim)
  no_rtl_lib && exit 0
  if [ "${WL_SIM_FULL:-1}" = 1 ]; then
    # the whole network as one program (about 20 M cycles: tens of CPU minutes)
    cmd="$bin/resnet50 --device sim:config=sim16 --no-profile"
    l=$out/resnet50-sim-full.log
    run $l timeout ${WL_SIM_FULL_TIMEOUT:-10800} $cmd || true
    eq=$(res $l equal); eq=${eq:-0}
    if [ -n "$(res $l wall_s)" ]; then
      $rec resnet50.ref_equal "$eq" bool "sim16 RTL, whole network (logits = naive kernels = ref)" "$cmd"
    else   # the run did not complete: say why (the simulator's last message)
      why=$( { tr '\r' '\n' < $l | grep -oE '(picotpu_sim: |%Error: ).*'; tr '\r' '\n' < $l | grep -oE 'sim: the .*'; } | head -1 | cut -c1-160)
      $rec resnet50.ref_equal 0 bool "sim16 RTL, whole network: the run did not complete ($why)" "$cmd"
    fi
    if [ -n "$(res $l wall_s)" ]; then
      $rec resnet50.sim_wall_s "$(res $l wall_s)" s "sim16 RTL, whole network, model resident (backdoor), $simvar" "$cmd"
      $rec resnet50.sim_load_s "$(res $l load_s)" s "sim16 RTL, compile + backdoor upload" "$cmd"
      $rec resnet50.rtl_cycles "$(res $l cycles)" cycles "sim16 RTL, one program" "$cmd"
      $rec resnet50.rtl_utilization "$(res $l utilization)" fraction "sim16 RTL, one program" "$cmd"
      $rec resnet50.sim_cycles_per_s "$(res $l cycles_per_s)" cycles/s "sim16 (whole network), $simvar" "$cmd"
      $rec resnet50.sim_cpu_s "$(res $l cpu_s)" CPU-s "sim16 RTL, whole network, process CPU time, $simvar" "$cmd"
      $rec resnet50.sim_cycles_per_cpu_s "$(awk -v c="$(res $l cycles)" -v s="$(res $l cpu_s)" 'BEGIN { printf "%.0f", c / s }')" \
        cycles/CPU-s "sim16 (whole network, process CPU time), $simvar" "$cmd"
    fi
    exit 0
  fi
  cmd="$bin/resnet50 --device sim:config=sim16 --layers subset --tsv $out/resnet50-sim-sim16.tsv"
  l=$out/resnet50-sim-sim16.log
  run $l timeout $simto $cmd || true
  eq=$(res $l layers_equal); eq=${eq:-0}
  $rec resnet50.ref_equal "$eq" bool "sim16 RTL, layer subset (conv1 s2b0.c1 s2b0.c2 s2b0.proj s3b1.c2 s4b0.c3 fc) = naive kernels = ref" "$cmd"
  if [ "$eq" = 1 ] && [ -f $out/resnet50-ref-sim16.tsv ]; then
    # whole-network RTL wall time, extrapolated: the subset's RTL cycles per second and the
    # ratio of RTL to ref cycles on the subset, applied to the whole network's ref cycles
    read -r ratio cps ext_cyc ext_wall < <(python3 - "$out/resnet50-ref-sim16.tsv" "$out/resnet50-sim-sim16.tsv" <<'EOF'
import csv, sys
ref = {r["name"]: r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
rtl = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
rc = sum(int(r["cycles"]) for r in rtl); fc = sum(int(ref[r["name"]]["cycles"]) for r in rtl)
w = sum(float(r["wall_s"]) for r in rtl); tot = sum(int(r["cycles"]) for r in ref.values())
print(f"{rc / fc:.4f} {rc / w:.0f} {tot * rc / fc:.0f} {tot * rc / fc / (rc / w):.1f}")
EOF
)
    $rec resnet50.rtl_over_ref_cycles "$ratio" ratio "sim16, layer subset: RTL cycles / ref estimate" "$cmd"
    $rec resnet50.sim_cycles_per_s "$cps" cycles/s "sim16 (ResNet-50 layer subset)" "$cmd"
    $rec resnet50.sim_wall_s "$ext_wall" s "sim16 RTL, EXTRAPOLATED from the layer subset ($ext_cyc cycles at the subset's speed)" "$cmd"
    cs=$(res $l layers_cpu_s)
    if [ -n "$cs" ] && [ "$cs" != 0.000 ]; then
      $rec resnet50.sim_cycles_per_cpu_s "$(awk -v c="$(res $l layers_cycles)" -v s="$cs" 'BEGIN { printf "%.0f", c / s }')" \
        cycles/CPU-s "sim16 (ResNet-50 layer subset, process CPU time)" "$cmd"
    fi
  fi
  ;;
bert)
  cmd="$bin/bert --device ref:sim16 --gemm 1024 --tsv $out/bert-ref-sim16.tsv"
  l=$out/bert-ref-sim16.log
  run $l $cmd
  $rec bert.utilization "$(res $l int8_utilization)" fraction "int8, sim16, ref estimate, seq 128" "$cmd"
  $rec bert.utilization "$(res $l bf16_utilization)" fraction "bf16, sim16, ref estimate, seq 128" "$cmd"
  $rec bert.cycles "$(res $l int8_cycles)" cycles "int8, sim16, ref estimate, one encoder layer's matmuls" "$cmd"
  $rec bert.cycles "$(res $l bf16_cycles)" cycles "bf16, sim16, ref estimate, one encoder layer's matmuls" "$cmd"
  $rec gemm1024.utilization "$(res $l gemm_utilization)" fraction "int8 1024^3, sim16, ref estimate" "$cmd"
  $rec gemm1024.cycles "$(res $l gemm_cycles)" cycles "int8 1024^3, sim16, ref estimate" "$cmd"
  ;;
scaling)
  for c in sim32 sim128; do
    cmd="$bin/resnet50 --device ref:config=$c --no-profile"
    l=$out/resnet50-ref-$c.log
    run $l $cmd || true
    if [ "$(res $l equal)" = 1 ]; then
      $rec resnet50.cycles "$(res $l cycles)" cycles "$c, ref estimate, one program" "$cmd"
      $rec resnet50.utilization "$(res $l utilization)" fraction "$c, ref estimate" "$cmd"
      $rec resnet50.ref_cycles_per_s "$(awk -v c="$(res $l cycles)" -v w="$(res $l load_s)" 'BEGIN { printf "%.0f", c / w }')" \
        cycles/s "$c ref model" "$cmd"
    fi
  done
  for c in ulx3s icebreaker; do
    sz=224; [ $c = icebreaker ] && sz=32
    cmd="$bin/resnet50 --device ref:config=$c --size $sz --layers all --keep-going --tsv $out/resnet50-ref-$c.tsv"
    l=$out/resnet50-ref-$c.log
    run $l $cmd || true
    $rec resnet50.layers_fit "$(res $l layers)" layers "$c: conv/FC layers (of 54) that fit the device memory, input ${sz}x$sz" "$cmd"
    if [ "$(res $l layers)" != 0 ]; then
      $rec resnet50.layers_utilization "$(res $l layers_utilization)" fraction "$c, ref estimate, the layers that fit" "$cmd"
    fi
  done
  ;;
bert-sim)
  no_rtl_lib && exit 0
  # the whole encoder layer's matmuls (sequence 128), int8 and bf16, each checked bit for bit
  # against the naive kernels
  cmd="$bin/bert --device sim:config=sim16 --tsv $out/bert-sim-sim16.tsv"
  l=$out/bert-sim-sim16.log
  run $l timeout $simto $cmd || true
  for d in int8 bf16; do
    if [ -n "$(res $l ${d}_utilization)" ]; then
      $rec bert.utilization "$(res $l ${d}_utilization)" fraction "$d, sim16 RTL, seq 128, one encoder layer's matmuls" "$cmd"
      $rec bert.cycles "$(res $l ${d}_cycles)" cycles "$d, sim16 RTL, one encoder layer's matmuls" "$cmd"
    fi
  done
  $rec bert.rtl_equal "$(grep -q '^PASS bert' $l && echo 1 || echo 0)" bool "sim16 RTL, every matmul = naive kernels" "$cmd"
  cmd="$bin/bert --device sim:config=sim16 --dtype none --gemm 1024 --tsv $out/gemm-sim-sim16.tsv"
  l=$out/gemm-sim-sim16.log
  run $l timeout $simto $cmd || true
  if [ -n "$(res $l gemm_utilization)" ]; then
    $rec gemm1024.utilization "$(res $l gemm_utilization)" fraction "int8 1024^3, sim16 RTL" "$cmd"
    $rec gemm1024.cycles "$(res $l gemm_cycles)" cycles "int8 1024^3, sim16 RTL" "$cmd"
  fi
  ;;
fmnist-sim)
  no_rtl_lib && exit 0
  timeout $simto tests/fmnist/bench.sh sim 500 || echo "bench: fmnist on sim failed or timed out"
  ;;
*)
  echo "usage: $0 resnet50|resnet50-sim|bert|bert-sim|scaling|fmnist-sim" >&2; exit 2;;
esac

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reduced BERT matmuls (M = 128 as in BERT, N = 256: 16 output-channel tiles, each K-step
# as in the full matmul) and GEMMs of other shapes on ref:sim16 and on the RTL (sim16), with
# the counters that show where the RTL's cycles go (docs/performance.md, "BERT on the RTL").
# Not run by make test or make bench; about 2 CPU-minutes in all on the RTL.
# bf16 goes through `picotpu gemm ... bf16`: fp32 output.
#   bench/bert-rtl-probe.sh [M N K [bf16]]...   (default: the shapes of that section)
# chan = pseudo-channels the A rows of one K-step fall in: the row pitch is the runtime's
# (ptpu_gemm_lda: K * EW rounded up to 32 bytes, plus 256 when a multiple of 512 above 1 KB),
# the channel of address a is (a / 256) mod 8 (docs/memory.md).  PROBE_CLI=path runs another
# build of the CLI (e.g. one of an older commit, whose pitch is K * EW) on the same library.
# beats/c = (K / 16) * (M + 16 * EW) / RTL cycles: the 32-byte beats the loads delivered per
# cycle (N = 32 only: one A slice and 2 weight tiles per K-step); the MXU needs
# (M + 16 * EW) / (2 * M) of them.
set -eu -o pipefail
cli=${PROBE_CLI:-build/host/picotpu}
[ -x "$cli" ] && [ -f build/sim/sim16/libpicotpu_sim.so ] ||
  { echo "bert-rtl-probe: build $cli and build/sim/sim16/libpicotpu_sim.so first" >&2; exit 2; }
if [ $# -eq 0 ]; then   # the before/after table of docs/performance.md
  set -- "128 256 768" "128 256 3072" "128 256 768 bf16" "128 256 3072 bf16" "128 128 64" \
         "128 32 3072 bf16" "512 32 1024" "196 256 1024" "3136 128 256"
fi
one() {   # one DEVICE M N K [bf16]: "cycles rows util load_wait_mem compute_idle check"
  local dev=$1; shift
  nice "$cli" --device "$dev" gemm "$@" 2>&1 | awk '
    /identical \(0 of/ { ok = "same" } /differ\)/ && !/\(0 of/ { ok = "DIFFERS" }
    $1 == "CYCLES" { c = $2 } $1 == "MXU_ROWS" { r = $2 } $1 == "LOAD_WAIT_MEM" { l = $2 }
    $1 == "COMPUTE_IDLE" { i = $2 }
    END { printf "%s %s %.1f %s %s %s\n", c, r, c ? 100 * r / c : 0, l, i, ok ? ok : "FAIL" }'
}
printf "%-18s %4s | %8s %6s | %8s %6s %9s %9s %7s %8s | %s\n" "M N K dtype" chan \
       "ref cyc" "ref %" "RTL cyc" "RTL %" "load_mem" "cmp_idle" "RTL/ref" "beats/c" "check"
for shape in "$@"; do
  read -r m n k bf <<< "$shape"
  ew=1; [ "${bf:-}" = bf16 ] && ew=2
  p=$(( (k * ew + 31) / 32 * 32 )); [ $p -gt 1024 ] && [ $((p % 512)) = 0 ] && p=$((p + 256))   # ptpu_gemm_lda
  chan=$(awk -v m="$m" -v p=$p 'BEGIN { for (r = 0; r < m; r++) s[int(r * p / 256) % 8] = 1;
                                                  for (c in s) n++; print n }')
  read -r rc _ ru _ _ _ <<< "$(one ref:config=sim16 $shape)"
  read -r sc _ su sl si ok <<< "$(one sim:config=sim16 $shape)"
  rate=-
  [ "$n" = 32 ] && rate=$(awk -v m="$m" -v k="$k" -v e="$ew" -v c="$sc" \
                          'BEGIN { printf "%.3f", int(k / 16) * (m + 16 * e) / c }')
  printf "%-18s %4s | %8s %5s%% | %8s %5s%% %9s %9s %7.3f %8s | %s\n" "$m $n $k ${bf:-int8}" \
         "$chan" "$rc" "$ru" "$sc" "$su" "$sl" "$si" \
         "$(awk -v a="$sc" -v b="$rc" 'BEGIN { print a / b }')" "$rate" "$ok"
done

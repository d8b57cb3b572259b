#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gate.sh NAME PLAIN GATED SEED ARGS... : runs tb_mem on a configuration built without and
# with GateIdle=1 (tpu_mem_pch_ctrl's clock gate) with the same seed and arguments, and
# checks that both print the same lines (cycles, beats, refreshes, every test's result):
# the clock gate must not change a single cycle.
set -u -o pipefail
name=$1 plain=$2 gated=$3 seed=$4; shift 4
[ "$seed" = random ] && seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "# $name: seed=$seed (re-run with SEED=$seed)"
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
"$plain" "$@" --seed "$seed" > "$a" 2>&1; ra=$?
"$gated" "$@" GateIdle=1 --seed "$seed" > "$b" 2>&1; rb=$?
# Wall-clock times differ; everything else must not.
strip() { grep -v -E '^# tb_mem: [0-9.]+ s,' "$1" | sed -E 's/^# tb_mem: seed=.*//'; }
cat "$b"
if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
  echo "FAIL $name: tb_mem exited with $ra (plain) and $rb (gated), seed $seed"
elif ! diff <(strip "$a") <(strip "$b") > /dev/null; then
  diff <(strip "$a") <(strip "$b") | head -20
  echo "FAIL $name: the gated controllers differ from the plain ones (seed $seed)"
else
  echo "PASS $name: $(grep -c '^PASS' "$b") tests print the same cycles, beats and refreshes with and without the clock gate (seed $seed)"
fi

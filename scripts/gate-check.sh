#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gate-check.sh NAME PLAIN GATED SEED ARGS... : runs a testbench built without and with
# GateIdle=1 (the simulation clock gates, tpu_mem_cg) with the same seed and arguments, and
# checks that both print the same lines (cycles, beats, refreshes, every test's figures):
# a clock gate must not change a single cycle.  SEED "random" picks one and prints it.
set -u -o pipefail
name=$1 plain=$2 gated=$3 seed=$4; shift 4
[ "$seed" = random ] && seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "# $name: seed=$seed (re-run with SEED=$seed)"
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
"$plain" "$@" --seed "$seed" > "$a" 2>&1; ra=$?
"$gated" "$@" --seed "$seed" > "$b" 2>&1; rb=$?
# Wall-clock times differ; everything else must not.
strip() { grep -v -E '^# [a-z_]+: [0-9.]+ s,' "$1" | sed -E 's/^# ([a-z_]+): seed=.*//'; }
sed "s/^/# /" "$b"
if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
  echo "FAIL $name: the testbench exited with $ra (plain) and $rb (gated), seed $seed"
elif ! diff <(strip "$a") <(strip "$b") > /dev/null; then
  diff <(strip "$a") <(strip "$b") | head -20
  echo "FAIL $name: the gated controllers differ from the plain ones (seed $seed)"
else
  echo "PASS $name: $(grep -c '^PASS' "$b") tests print the same lines (cycles and results) with and without the clock gates (seed $seed)"
fi

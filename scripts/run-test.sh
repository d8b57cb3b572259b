#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-test.sh RESULTS NAME COMMAND... : runs one test program, keeps its log in
# build/test-logs/NAME.log, and appends its PASS/FAIL lines to RESULTS.  A
# program that exits non-zero without printing FAIL still counts as a failure.
set -u -o pipefail
results=$1 name=$2; shift 2
mkdir -p build/test-logs
log=build/test-logs/$name.log
start=$(date +%s.%N)
"$@" > "$log" 2>&1
rc=$?
secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}')
lines=$(grep -E '^(PASS|FAIL) ' "$log" || true)
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' <<<"$lines"; then
  lines+=$'\n'"FAIL $name: exited with status $rc (log: $log)"
fi
if [ -z "$lines" ]; then
  lines="FAIL $name: printed no PASS/FAIL line (log: $log)"
fi
lines=$(sed '/^$/d' <<<"$lines")
# One write per test keeps parallel runs from interleaving.
printf '%s\n' "$lines" >> "$results"
printf '%s\n' "$lines"
grep -q '^FAIL ' <<<"$lines" && { echo "  (log: $log, ${secs}s)"; grep -E '^# .*seed=' "$log" | head -3; }
echo "  [$name: ${secs}s]"
exit 0

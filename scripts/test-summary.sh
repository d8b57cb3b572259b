#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Counts the PASS/FAIL lines of a test run and prints the closing line.
set -u
f=$1
pass=0 fail=0
if [ -f "$f" ]; then
  pass=$(grep -c '^PASS ' "$f" || true)
  fail=$(grep -c '^FAIL ' "$f" || true)
fi
if [ "$fail" -gt 0 ]; then
  echo "Failures:"; grep '^FAIL ' "$f"
fi
if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
  echo "no test ran"; fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/area-test.sh: tests/boards/block-area.py --script on a board-style Yosys
# script (read, chparam, synth_ecp5 -abc9 -json, stat) of one MXU row with 4 PEs, 2 of them
# on DSPs and 2 in logic (-DTPU_ECP5): the ECP5 cells are counted without --arch (taken from
# synth_ecp5), the row's block holds 2 MULT18X18D, the 2 tpu_mxu_mul_logic blocks 36 CCU2C
# each (docs/mxu.md), the whole at least the row; the netlist is not written; the top comes
# from the script; a blackboxed module is listed with no cells and its cells are left out;
# --param beside --script and a script without a synth command are refused with a clear
# error.
set -u -o pipefail
dir=build/boards/area-check
rm -rf "$dir"; mkdir -p "$dir"
fail() { echo "FAIL board-area: $*"; exit 1; }
cat > "$dir/synth.ys" <<YS
read_verilog -sv -DSYNTHESIS -DTPU_ECP5 rtl/mxu/tpu_fp_pkg.sv rtl/mxu/tpu_mxu_row.sv
chparam -set N 4 -set EnableBf16 0 -set DspCols 2 tpu_mxu_row
synth_ecp5 -abc9 -top tpu_mxu_row -json $dir/row.json
tee -q -o $dir/flat.json stat -json
YS
out=$(tests/boards/block-area.py --script "$dir/synth.ys" --out "$dir" 2>&1) ||
  fail "block-area.py failed: $out"
echo "$out" | head -4 | sed 's/^/# /'
[ ! -e "$dir/row.json" ] || fail "the netlist was written (-json kept)"
grep -q -- '-noflatten' "$dir/area.ys" || fail "no -noflatten in $dir/area.ys"
grep -q -- '-abc9' "$dir/area.ys" || fail "the script's -abc9 was dropped"
whole=$(echo "$out" | grep '^tpu_mxu_row (whole)') || fail "no whole-design line"
mul=$(echo "$out" | grep '^tpu_mxu_mul_logic ') || fail "no tpu_mxu_mul_logic block: $out"
[ "$(echo "$mul" | awk '{print $2}')" -eq 2 ] || fail "tpu_mxu_mul_logic: not 2 instances: $mul"
[ "$(echo "$mul" | awk '{print $5}')" -eq 72 ] || fail "tpu_mxu_mul_logic: not 2 x 36 CCU2C: $mul"
[ "$(echo "$whole" | awk '{print $7}')" -eq 2 ] || fail "the row: not 2 MULT18X18D: $whole"
[ "$(echo "$whole" | awk '{print $6}')" -ge 72 ] || fail "the whole has fewer CCU2C than its blocks: $whole"
bb=$(tests/boards/block-area.py --arch ecp5 --script "$dir/synth.ys" --blackbox tpu_mxu_mul_logic \
  --out "$dir/bb" 2>&1) || fail "block-area.py --blackbox failed: $bb"
cc=$(echo "$whole" | awk '{print $6}')
cc_bb=$(echo "$bb" | grep '^tpu_mxu_row (whole)' | awk '{print $6}')
[ "$cc_bb" = "$((cc - 72))" ] || fail "with tpu_mxu_mul_logic blackboxed the row has $cc_bb CCU2C, not $cc - 72: $bb"
echo "$bb" | grep -q '^tpu_mxu_mul_logic (blackbox) *2 *0 *0 *0 *0 *0 *0$' ||
  fail "the blackbox is not listed with its 2 instances and no cells: $bb"
if bad=$(tests/boards/block-area.py --arch ecp5 --script "$dir/synth.ys" --param N=8 --out "$dir" 2>&1); then
  fail "--script with --param was accepted: $bad"
fi
echo "$bad" | grep -q "block-area: --script takes the sources" || fail "no clear error for --script with --param: $bad"
printf 'read_verilog x.sv\n' > "$dir/nosynth.ys"
if bad=$(tests/boards/block-area.py --arch ecp5 --script "$dir/nosynth.ys" --out "$dir" 2>&1); then
  fail "a script without synth was accepted: $bad"
fi
echo "$bad" | grep -q "block-area: .* has no synth_ecp5 or synth_ice40" || fail "no clear error: $bad"
echo "PASS board-area --script: 2 tpu_mxu_mul_logic x 36 CCU2C, 2 MULT18X18D in the row, -abc9 kept, the script's top, no netlist written, the ECP5 from the script, a blackbox listed with no cells; --param beside --script and a script without synth refused"

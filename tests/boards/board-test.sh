#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/board-test.sh BOARD: build BOARD's bitstream with `make bitstream` (which
# itself stops if the design does not fit or misses the stated clock), check what it left
# (the bitstream, the fit and timing figures in summary.json), then that `make flash`
# without a board connected ends with a clear error instead of hanging.
set -u -o pipefail
b=$1
dir=build/boards/$b
make=${MAKE:-make}
fail() { echo "FAIL board-$b: $*"; exit 1; }

start=$(date +%s)
$make --no-print-directory bitstream BOARD="$b" || fail "make bitstream BOARD=$b failed (see above)"
secs=$(( $(date +%s) - start ))
ext=bin; case $b in ulx3s*) ext=bit ;; esac
bit=$dir/$b.$ext
[ -s "$bit" ] || fail "no bitstream $bit"
python3 - "$dir/summary.json" <<'PY' || fail "summary check failed"
import json, sys
s = json.load(open(sys.argv[1]))
ok = True
for k, (used, avail) in s["utilization"].items():
    if used > avail:
        print(f"# {k}: {used} used of {avail}"); ok = False
if not s["fmax_mhz"] >= s["target_mhz"] > 0:
    print(f"# Fmax {s['fmax_mhz']} MHz below the target {s['target_mhz']} MHz"); ok = False
if s["macs"] <= 0:
    print("# no MACs"); ok = False
print(f"# {s['board']}: Fmax {s['fmax_mhz']} MHz, target {s['target_mhz']} MHz, "
      f"{s.get('lc', s.get('lut'))} {'LC' if 'lc' in s else 'LUT4'}, {s['ff']} FF, "
      f"{s['dsp']} DSP, {s['bram']} BRAM")
sys.exit(0 if ok else 1)
PY
echo "# bitstream build: ${secs}s"

# Flashing with no board must fail fast.  A real board on the bus would be flashed, so the
# check is skipped when an FTDI device of the boards' kind is present.
present=0
for d in /sys/bus/usb/devices/*; do
  [ -r "$d/idVendor" ] || continue
  if [ "$(cat "$d/idVendor")" = 0403 ] && grep -qE '^(6010|6015|6014)$' "$d/idProduct"; then present=1; fi
done
if [ $present = 1 ]; then
  echo "# an FTDI board is connected: the no-board flash check is skipped"
else
  out=$(timeout 120 $make --no-print-directory flash BOARD="$b" 2>&1); rc=$?
  echo "$out" | sed 's/^/# flash: /'
  [ $rc -eq 124 ] && fail "make flash BOARD=$b without a board hung (killed after 120 s)"
  [ $rc -ne 0 ] || fail "make flash BOARD=$b without a board succeeded"
  grep -q "flash $b: .* failed (is the board plugged in" <<<"$out" || fail "make flash BOARD=$b: no clear error"
fi
echo "PASS board-$b: bitstream $bit fits and meets its clock (${secs}s)"

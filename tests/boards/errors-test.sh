#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/boards/errors-test.sh: `make bitstream` / `make flash` with no BOARD, an unknown
# BOARD, a missing flash tool or a bad BOARD_<b>_ABC9_W (not a positive number, or on a board
# that is not an ECP5 synthesized with -abc9) stop at once with an error that says what to do.
set -u -o pipefail
make=${MAKE:-make}
n=0 bad=0
check() {  # check NAME EXPECTED-REGEX MAKE-ARGS...
  local name=$1 want=$2; shift 2
  local out rc
  out=$(timeout 60 $make --no-print-directory "$@" 2>&1); rc=$?
  n=$((n + 1))
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -qE "$want" <<<"$out"; then
    echo "# $name: make $* -> exit $rc:"; echo "$out" | sed 's/^/#   /' | head -5
    bad=$((bad + 1))
  fi
}
check no-board-bitstream "BOARD is not set.*icebreaker ulx3s" bitstream
check no-board-flash "BOARD is not set.*icebreaker ulx3s" flash
check unknown-board "unknown BOARD 'nosuch': the boards are icebreaker ulx3s" bitstream BOARD=nosuch
check unknown-board-flash "unknown BOARD 'nosuch'" flash BOARD=nosuch
check empty-board "BOARD is not set" bitstream BOARD=
check no-iceprog "flash icebreaker: '/nonexistent/iceprog' not found" flash BOARD=icebreaker ICEPROG=/nonexistent/iceprog
check no-openfpgaloader "flash ulx3s: '/nonexistent/ofl' not found" flash BOARD=ulx3s OPENFPGALOADER=/nonexistent/ofl
check abc9w-not-number "bitstream ulx3s: BOARD_ulx3s_ABC9_W='2.5ns': ABC9's wire delay in ps" bitstream BOARD=ulx3s BOARD_ulx3s_ABC9_W=2.5ns
check abc9w-zero "BOARD_ulx3s_ABC9_W='0': ABC9's wire delay in ps" bitstream BOARD=ulx3s BOARD_ulx3s_ABC9_W=0
check abc9w-no-abc9 "bitstream ulx3s: BOARD_ulx3s_ABC9_W needs an ECP5 board synthesized with -abc9" bitstream BOARD=ulx3s BOARD_ulx3s_SYNTH_OPTS=
check abc9w-ice40 "bitstream icebreaker: BOARD_icebreaker_ABC9_W needs an ECP5 board" bitstream BOARD=icebreaker BOARD_icebreaker_ABC9_W=5000
if [ $bad -eq 0 ]; then
  echo "PASS board-errors: $n error cases stop with a clear message"
else
  echo "FAIL board-errors: $bad of $n error cases did not stop with the expected message"
  exit 1
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli.sh PICOTPU EMU: `picotpu --device usb info` with the emulated board (it is listed
# and answers INFO) and with none (a clear error, exit status 1).
set -u -o pipefail
cli=$1 emu=$2
out=$(LD_PRELOAD=$emu PTPU_USB_EMU_BOARDS=ft2232h:CLI-TEST-7 "$cli" --device usb info 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -ne 0 ] || ! grep -q 'FT2232H 0403:6010 serial CLI-TEST-7' <<<"$out" ||
   ! grep -q 'configuration  sim16u' <<<"$out"; then
  echo "FAIL usb_cli: the emulated board is not listed or does not answer (exit $rc)"; exit 1
fi
out=$(LD_PRELOAD=$emu PTPU_USB_EMU_BOARDS=none "$cli" --device usb info 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -ne 1 ] || ! grep -q 'none found' <<<"$out" || ! grep -q 'NO_DEVICE' <<<"$out"; then
  echo "FAIL usb_cli: no board: exit $rc, expected 1 with 'none found' and NO_DEVICE"; exit 1
fi
echo "PASS usb_cli: board listed and answering; no board gives a clear error"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Turns the port declarations of a Verilated header (VL_IN8(&name,msb,lsb); ...)
# into the TB_PORT table that tb_glue.cpp compiles.
set -eu -o pipefail
sed -nE \
  -e 's/^ *VL_(IN|OUT|INOUT)(8|16|64)?\(&([A-Za-z0-9_]+),([0-9]+),([0-9]+)\);.*/\1 \3 \4 \5 N/p' \
  -e 's/^ *VL_(IN|OUT|INOUT)W\(&([A-Za-z0-9_]+),([0-9]+),([0-9]+),[0-9]+\);.*/\1 \2 \3 \4 W/p' \
  "$1" |
while read -r dir name msb lsb kind; do
  in=false; [ "$dir" = IN ] && in=true
  if [ "$kind" = W ]; then echo "TB_PORTW($name, $msb, $lsb, $in)"
  else echo "TB_PORT($name, $msb, $lsb, $in)"; fi
done

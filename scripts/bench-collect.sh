#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Turns the JSON lines written by bench-record.sh into one JSON list.
set -eu -o pipefail
in=$1 out=$2
{ echo "["; sed '$!s/$/,/' "$in" | sed 's/^/  /'; echo "]"; } > "$out"
echo "bench: $(wc -l < "$in") figures in $out"

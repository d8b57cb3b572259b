#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench-record.sh NAME VALUE UNIT CONFIG COMMAND: appends one figure to
# build/bench/results.jsonl (collected into results.json by make bench).
set -eu -o pipefail
[ $# -eq 5 ] || { echo "usage: $0 NAME VALUE UNIT CONFIG COMMAND" >&2; exit 2; }
esc() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' <<<"$1"; }
mkdir -p build/bench
case $2 in ''|*[!0-9.eE+-]*) echo "bench-record: $1: value '$2' is not a number" >&2; exit 1;; esac
printf '{"name": "%s", "value": %s, "unit": "%s", "config": "%s", "command": "%s"}\n' \
  "$(esc "$1")" "$2" "$(esc "$3")" "$(esc "$4")" "$(esc "$5")" >> build/bench/results.jsonl
printf '  %-28s %-14s %-10s %s\n' "$1" "$2" "$3" "$4"

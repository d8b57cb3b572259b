#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board-bench.py BOARD SUMMARY: record a board build's figures (scripts/board-pnr.py's
summary.json) with scripts/bench-record.sh as board.BOARD.* (make bench-boards)."""
import json
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: board-bench.py BOARD SUMMARY.json")
    b, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        s = json.load(f)
    cmd = f"make bitstream BOARD={b}"
    ice = s["family"] == "ice40"
    figures = [
        ("fmax_mhz", s["fmax_mhz"], "MHz"),
        ("target_mhz", s["target_mhz"], "MHz"),
        ("macs", s["macs"], "MACs"),
        ("peak_gops", s["peak_gops"], "GOPS"),
        ("lc", s["lc"], "LC") if ice else ("lut", s["lut"], "LUT4"),
        ("ff", s["ff"], "FF"),
        ("dsp", s["dsp"], "SB_MAC16" if ice else "MULT18X18D"),
        ("bram", s["bram"], "SB_RAM40_4K" if ice else "DP16KD"),
    ]
    if ice:
        figures.append(("spram", s["spram"], "SB_SPRAM256KA"))
    for name, value, unit in figures:
        subprocess.run(["scripts/bench-record.sh", f"board.{b}.{name}", str(value), unit, b, cmd],
                       check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

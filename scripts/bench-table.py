#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints build/bench/results.json as a Markdown table (name, config, value,
unit, command), grouped by the first part of the name."""
import json
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "build/bench/results.json"
with open(path) as f:
    rows = json.load(f)
group = None
for r in rows:
    g = r["name"].split(".")[0]
    if g != group:
        group = g
        print(f"\n### {g}\n")
        print("| figure | config | value | unit | command |")
        print("|---|---|---|---|---|")
    v = r["value"]
    if isinstance(v, float):
        v = f"{v:.4g}" if abs(v) < 1e6 else f"{v:.0f}"
    print(f"| `{r['name']}` | {r['config']} | {v} | {r['unit']} | `{r['command']}` |")

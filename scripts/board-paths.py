#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board-paths.py - the longest register-to-register paths of an ECP5 netlist, before placement.

nextpnr reports one critical path per clock, at the end of a place and route that takes the
ULX3S about 20 minutes.  This script reads the Yosys netlist of a board build
(build/boards/ulx3s/ulx3s.json, synth_ecp5) and estimates the delay of every path that ends
in a flip-flop, a block RAM or a LUT RAM write port, in seconds, so that all the paths over a
clock period can be seen at once and each change to the RTL checked after Yosys alone.

The delay model (docs/performance.md, Boards, has its calibration against nextpnr):
  - each net costs ROUTE ns (--route) plus FANOUT ns per doubling of its fanout
    (--fanout), except the dedicated wires: carry nets between CCU2C cells and the wide
    multiplexers' data inputs (LUT4 -> PFUMX -> L6MUX21);
  - cells cost their logic delays from the ECP5 speed-6 figures below (LUT4, PFUMX,
    L6MUX21, CCU2C, DPR16X4 read, MULT18X18D without registers); flip-flops and block RAM
    outputs start a path at their clock-to-out.
The figures are estimates: routing in a full, congested device varies by a factor of two
from net to net.  They rank the paths, and the calibration says how far to trust a sum.

Prints the N worst endpoints (--top), one line each with its estimated delay, levels of
logic, start and end, then, with --path K, the cells of the K worst paths, and the number of
endpoints over --period ns grouped by the endpoint's hierarchy (--depth levels).

Example:
  scripts/board-paths.py build/boards/ulx3s/ulx3s.json --period 33.3 --top 30 --path 3
"""
import argparse
import json
import math
import os
import re
import sys
import threading
from collections import Counter

# Cell delays, ns (nextpnr-ecp5 speed 6 timing data, rounded).
LUT = 0.24
MUX = 0.21           # PFUMX / L6MUX21, either input
CCU_IN_S = 0.40      # CCU2C A/B/C/D -> S
CCU_IN_CO = 0.35     # CCU2C A/B/C/D -> COUT
CCU_CI_CO = 0.06     # CIN -> COUT, per cell (two bits)
CCU_CI_S = 0.30      # CIN -> S
DPR_RD = 0.60        # DPR16X4 RAD -> DO
MULT = 5.0           # MULT18X18D A/B -> P, combinational
FF_CQ = 0.40
BRAM_CQ = 5.60       # DP16KD clock -> DO without the output register
FF_SETUP = 0.10


def arcs(cell):
    """(combinational arcs {in port: [out ports]}, start ports, end ports) of one cell."""
    t = cell["type"]
    pd = cell.get("port_directions", {})
    ins = [p for p, d in pd.items() if d == "input"]
    outs = [p for p, d in pd.items() if d == "output"]
    if t == "LUT4":
        return {p: [("Z", LUT)] for p in "ABCD"}, {}, []
    if t in ("PFUMX", "L6MUX21"):
        return {p: [("Z", MUX)] for p in ins}, {}, []
    if t == "CCU2C":
        a = {}
        for p in ("A0", "B0", "C0", "D0"):
            a[p] = [("S0", CCU_IN_S), ("S1", CCU_IN_S + CCU_CI_S), ("COUT", CCU_IN_CO)]
        for p in ("A1", "B1", "C1", "D1"):
            a[p] = [("S1", CCU_IN_S), ("COUT", CCU_IN_CO)]
        a["CIN"] = [("S0", CCU_CI_S), ("S1", CCU_CI_S), ("COUT", CCU_CI_CO)]
        return a, {}, []
    if t == "TRELLIS_FF":
        return {}, {"Q": FF_CQ}, ["DI", "CE", "LSR", "M"]
    if t == "TRELLIS_DPR16X4":  # LUT RAM, as synth_ecp5 names it
        return ({p: [("DO", DPR_RD)] for p in ins if p.startswith("RAD")},
                {}, [p for p in ins if p.startswith(("WAD", "DI", "WRE"))])
    if t == "DP16KD":
        return {}, {p: BRAM_CQ for p in outs}, [p for p in ins if not p.startswith("CLK")]
    if t == "MULT18X18D":
        prm = cell.get("parameters", {})
        regd = any(str(v).strip('"') not in ("NONE", "") and k.startswith("REG_")
                   for k, v in prm.items())
        if regd:
            return {}, {p: FF_CQ + MULT for p in outs}, [p for p in ins if not p.startswith("CLK")]
        return ({p: [(o, MULT) for o in outs] for p in ins if p[0] in "AB" and not p.startswith("CLK")},
                {}, [])
    # I/O, PLL, anything else: neither starts nor ends a timed path.
    return {}, {}, []


def bitlist(v):
    return v if isinstance(v, list) else [v]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("netlist", help="Yosys JSON of a synth_ecp5 run (flattened)")
    ap.add_argument("--top-module", help="module to analyse (default: the one with attribute top)")
    ap.add_argument("--route", type=float, default=1.15, help="ns per net (default 1.15)")
    ap.add_argument("--fanout", type=float, default=0.25,
                    help="ns per doubling of a net's fanout (default 0.25)")
    ap.add_argument("--period", type=float, default=33.3, help="clock period, ns (default 33.3)")
    ap.add_argument("--top", type=int, default=30, help="worst endpoints to list (default 30)")
    ap.add_argument("--path", type=int, default=0, help="print the cells of the K worst paths")
    ap.add_argument("--depth", type=int, default=5, help="hierarchy levels to group by (default 5)")
    ap.add_argument("--distinct", action="store_true",
                    help="list one endpoint per register (bits of one vector merged)")
    a = ap.parse_args()

    try:
        with open(a.netlist) as f:
            nl = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"board-paths: cannot read {a.netlist}: {e}")
    mods = nl.get("modules") if isinstance(nl, dict) else None
    if not isinstance(mods, dict):
        sys.exit(f"board-paths: {a.netlist} is not a Yosys JSON netlist (no modules)")
    top = a.top_module or next((m for m, v in mods.items() if v.get("attributes", {}).get("top")), None)
    if top is None or top not in mods:
        sys.exit("board-paths: no top module in " + a.netlist)
    m = mods[top]

    drv = {}           # bit -> (cell, port)
    sinks = Counter()  # bit -> number of cell inputs
    cells = m["cells"]
    info = {}
    for cn, c in cells.items():
        comb, starts, ends = arcs(c)
        info[cn] = (comb, starts, ends)
        for p, bits in c["connections"].items():
            d = c.get("port_directions", {}).get(p)
            for b in bitlist(bits):
                if isinstance(b, str):
                    continue
                if d == "output":
                    drv[b] = (cn, p)
                elif d == "input":
                    sinks[b] += 1

    def net_delay(b, into_port):
        src = drv.get(b)
        if src and src[1] == "COUT" and into_port == "CIN":
            return 0.0
        # The wide-multiplexer paths inside a slice (LUT4 -> PFUMX -> L6MUX21 -> L6MUX21)
        # are dedicated wires; only the select inputs are routed.
        if src and into_port in ("ALUT", "BLUT", "D0", "D1") and \
                cells[src[0]]["type"] in ("LUT4", "PFUMX", "L6MUX21"):
            return 0.0
        return a.route + a.fanout * math.log2(max(1, sinks[b]))

    memo = {}  # (cell, out port) -> (arrival at the output, previous (cell, port) or None, levels)

    def out_arrival(cn, port):
        key = (cn, port)
        if key in memo:
            return memo[key]
        comb, starts, _ = info[cn]
        if port in starts:
            memo[key] = (starts[port], None, 0)
            return memo[key]
        memo[key] = (0.0, None, 0)  # guard against loops
        best = (0.0, None, 0)
        c = cells[cn]
        for ip, outs in comb.items():
            dl = next((d for o, d in outs if o == port), None)
            if dl is None or ip not in c["connections"]:
                continue
            for b in bitlist(c["connections"][ip]):
                if isinstance(b, str) or b not in drv:
                    continue
                t, _, lv = out_arrival(*drv[b])
                t += net_delay(b, ip) + dl
                if t > best[0]:
                    best = (t, drv[b], lv + (0 if c["type"] == "CCU2C" and ip == "CIN" else 1))
        memo[key] = best
        return best

    def trace(cn, port):
        steps = []
        while True:
            t, prev, _ = memo[(cn, port)]
            steps.append((t, cn, port))
            if prev is None:
                break
            cn, port = prev
        return list(reversed(steps))

    def short(cn):
        return re.sub(r"_(TRELLIS_FF|LUT4|PFUMX|L6MUX21|CCU2C|DP16KD|MULT18X18D|DPR16X4)(_[A-Z0-9]+)*(_\d+)?$", "", cn)

    ends = []
    for cn, (_, _, eps) in info.items():
        c = cells[cn]
        for p in eps:
            for b in bitlist(c["connections"].get(p, [])):
                if isinstance(b, str) or b not in drv:
                    continue
                t, _, lv = out_arrival(*drv[b])
                t += net_delay(b, p) + FF_SETUP
                ends.append((t, lv, cn, p, drv[b]))
    ends.sort(key=lambda e: -e[0])

    def hier(cn, d):
        parts = short(cn).split(".")
        return ".".join(parts[:d]) if len(parts) > d else ".".join(parts[:-1]) or "(top)"

    print(f"board-paths: {len(ends)} endpoints in {top}; model {a.route} ns per net + "
          f"{a.fanout} ns per fanout doubling; period {a.period} ns")
    shown, seen = 0, set()
    listed = []
    for e in ends:
        if shown >= a.top:
            break
        t, lv, cn, p, src = e
        path = trace(*src)
        key = (short(path[0][1]), short(cn)) if a.distinct else (cn, p)
        if key in seen:
            continue
        seen.add(key)
        shown += 1
        listed.append(e)
        print(f"{t:7.2f} ns {lv:3d} lv  {short(path[0][1])}.{path[0][2]} -> {short(cn)}.{p}")
    for k, (t, lv, cn, p, src) in enumerate(listed[:a.path]):
        print(f"\npath {k + 1}: {t:.2f} ns, {lv} levels")
        for at, pc, pp in trace(*src):
            print(f"  {at:7.2f}  {cells[pc]['type']:<11} {pp:<5} {short(pc)}")
        print(f"  {t:7.2f}  {cells[cn]['type']:<11} {p:<5} {short(cn)}")
    over = Counter()
    for t, lv, cn, p, src in ends:
        if t > a.period:
            over[(hier(cn, a.depth), short(cn).split(".")[-1])] += 1
    print(f"\nendpoints over {a.period} ns: {sum(over.values())} of {len(ends)}")
    for (h, r), n in over.most_common(40):
        print(f"  {n:6d}  {h}: {r}")
    hist = Counter(int(e[0] // 5) * 5 for e in ends)
    print("\nendpoints by estimated delay:")
    for lo in sorted(hist, reverse=True)[:10]:
        print(f"  {lo:3d}-{lo + 5:<3d} ns  {hist[lo]}")


if __name__ == "__main__":
    # The arrival times recurse along each combinational path: a thread with a large stack
    # (and a recursion limit to match) takes the longest chains of a full device.
    # SystemExit in the thread ends only the thread: its code is passed on here.
    status = [1]

    def run():
        try:
            main()
            status[0] = 0
        except SystemExit as e:
            status[0] = e.code
        except BrokenPipeError:  # output cut short by its reader (| head)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            status[0] = 0
    sys.setrecursionlimit(1000000)
    threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    sys.exit(status[0])

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board-congestion.py - where nextpnr's router2 could not route an ECP5 build, from its heatmaps.

With --router2-heatmap PREFIX (make bitstream BOARD=ulx3s BOARD_HEATMAP=1 sets it, writing
build/boards/<board>/heatmap/h), router2 writes after each iteration i:
  PREFIX_congestion_by_net_<i>.csv         net,count: the overused wires each net uses
  PREFIX_congestion_by_coordinate_<i>.csv  one line per tile row y, one value per column x
  PREFIX_congestion_by_wiretype_<i>.csv    wire type,count per bound
A wire used by two nets counts once for each, so a net's count is its share of the conflicts,
and the sum over nets is about twice the "overused" figure of the log.

This script prints:
  - the trajectory: for every iteration, the conflicts summed over nets and the nets
    involved (a routing that converges falls to 0; one that plateaus or rises will not);
  - at one iteration (--iter; default the one with the fewest conflicts, the router's best):
    the nets with the most conflicts, each with its fanout, the cell ports it drives and the
    hierarchy of its loads when the netlist is given (--netlist: the Yosys JSON or nextpnr's
    --write JSON); high-fanout selects, enables and resets show up here;
  - the hottest tiles and, with --placed (nextpnr --write JSON, whose cells carry their
    NEXTPNR_BEL), the hierarchy of the cells on each tile and its eight neighbours.

Example:
  scripts/board-congestion.py build/boards/ulx3s/heatmap/h --netlist build/boards/ulx3s/ulx3s.json
"""
import argparse
import collections
import csv
import glob
import json
import os
import re
import sys


def fail(msg):
    print(f"board-congestion: {msg}", file=sys.stderr)
    sys.exit(1)


def iterations(prefix):
    """{iteration: by-net CSV path} of every iteration router2 wrote."""
    its = {}
    for p in glob.glob(glob.escape(prefix) + "_congestion_by_net_*.csv"):
        m = re.search(r"_congestion_by_net_(\d+)\.csv$", p)
        if m:
            its[int(m.group(1))] = p
    return its


def read_by_net(path):
    """{net: count}.  Net names may hold commas; the count is after the last one."""
    counts = {}
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            name, sep, val = line.rpartition(",")
            if not sep or not val.strip().isdigit():
                fail(f"{path}:{ln}: not 'net,count': {line[:80]}")
            counts[name] = counts.get(name, 0) + int(val)
    return counts


def read_grid(path):
    """{(x, y): count} of the non-zero tiles."""
    grid = {}
    with open(path) as f:
        for y, row in enumerate(csv.reader(f)):
            for x, v in enumerate(row):
                v = v.strip()
                if not v:
                    continue
                try:
                    n = float(v)
                except ValueError:
                    fail(f"{path}: row {y}, column {x}: not a number: {v[:20]}")
                if n:
                    grid[(x, y)] = n
    return grid


def read_wiretypes(path):
    """[(wire type, overused wires, wires in use, wires)], the most overused first.  The file
    has one column per number of nets bound to a wire (bound=0, bound=1, ...)."""
    rows = []
    with open(path) as f:
        r = csv.reader(f)
        head = next(r, [])
        nb = [int(h.split("=")[1]) if h.startswith("bound=") else None for h in head]
        for row in r:
            if not row:
                continue
            over = used = tot = 0
            for k, v in zip(nb[1:], row[1:]):
                if k is None or not v.strip().isdigit():
                    continue
                tot += int(v)
                used += int(v) if k >= 1 else 0
                over += int(v) if k >= 2 else 0
            rows.append((row[0], over, used, tot))
    return sorted(rows, key=lambda t: (-t[1], t[0]))


def top_module(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    mods = d.get("modules") if isinstance(d, dict) else None
    if not isinstance(mods, dict) or not mods:
        fail(f"{path}: no modules: not a Yosys or nextpnr JSON netlist")
    tops = [m for m in mods.values() if str(m.get("attributes", {}).get("top", "0")).strip("0")]
    return tops[0] if tops else next(iter(mods.values()))


def hier(name, depth):
    """The first depth levels of a flattened cell name (a.b.c_LUT4_Z -> a.b)."""
    parts = name.lstrip("\\$").split(".")
    return ".".join(parts[:min(depth, len(parts) - 1)]) or "(top)"


def net_bits(mod):
    """{net name or name[i]: bit}, as router2 names nets (a bit of a bus as name[i])."""
    bits = {}
    for name, n in mod.get("netnames", {}).items():
        b = n.get("bits", [])
        if len(b) == 1:
            bits[name] = b[0]
        for i, bit in enumerate(b):
            bits[f"{name}[{i}]"] = bit
    return bits


def loads(mod, want, depth):
    """{bit: (fanout, Counter of cell.port, Counter of hierarchy, driver type)} for bits in want."""
    info = {b: [0, collections.Counter(), collections.Counter(), "?"] for b in want}
    for cname, c in mod.get("cells", {}).items():
        dirs = c.get("port_directions", {})
        for port, conn in c.get("connections", {}).items():
            for b in conn:
                if b not in info:
                    continue
                if dirs.get(port) == "output":
                    info[b][3] = f"{c.get('type')}.{port}"
                else:
                    info[b][0] += 1
                    info[b][1][f"{c.get('type')}.{port}"] += 1
                    info[b][2][hier(cname, depth)] += 1
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("prefix", help="the --router2-heatmap prefix (e.g. build/boards/ulx3s/heatmap/h)")
    ap.add_argument("--iter", type=int, help="iteration to detail (default: the fewest conflicts)")
    ap.add_argument("--netlist", help="Yosys or nextpnr JSON: fanout and loads of the nets listed")
    ap.add_argument("--placed", help="nextpnr --write JSON: the cells on the hottest tiles")
    ap.add_argument("--top", type=int, default=20, help="nets and tiles to list (default 20)")
    ap.add_argument("--depth", type=int, default=5, help="hierarchy levels to group by (default 5)")
    a = ap.parse_args()

    its = iterations(a.prefix)
    if not its:
        fail(f"no {a.prefix}_congestion_by_net_<i>.csv: was nextpnr run with "
             f"--router router2 --router2-heatmap {a.prefix}?")
    by_it, totals = {}, {}
    print("iteration  conflicts  nets")
    for i in sorted(its):
        by_it[i] = read_by_net(its[i])
        totals[i] = sum(by_it[i].values())
        print(f"{i:9d}  {totals[i]:9d}  {len(by_it[i]):4d}")
    it = a.iter if a.iter is not None else min(sorted(totals), key=totals.get)
    if it not in by_it:
        fail(f"no iteration {it}: the heatmaps have {min(its)}..{max(its)}")
    counts, total = by_it[it], totals[it]
    print(f"\niteration {it}: {total} conflicts on {len(counts)} nets")
    if not counts:
        print("no congestion: every wire has at most one net")
        return
    worst = sorted(counts, key=lambda n: (-counts[n], n))[:a.top]
    share = sum(counts[n] for n in worst)
    print(f"the {len(worst)} nets below hold {share} ({100.0 * share / total:.0f} %)")

    info = {}
    bits = {}
    if a.netlist:
        mod = top_module(a.netlist)
        allbits = net_bits(mod)
        bits = {n: allbits[n] for n in worst if n in allbits}
        info = loads(mod, set(bits.values()), a.depth)
        print(f"{'conflicts':>9}  {'fanout':>6}  net / driver -> loads / load hierarchy")
    else:
        print(f"{'conflicts':>9}  net")
    for n in worst:
        if a.netlist and n in bits:
            fan, ports, hs, drv = info[bits[n]]
            pl = ", ".join(f"{p} {k}" for p, k in ports.most_common(3))
            hl = ", ".join(f"{h} {k}" for h, k in hs.most_common(3))
            print(f"{counts[n]:9d}  {fan:6d}  {n[:110]}\n{'':19}{drv} -> {pl}\n{'':19}{hl}")
        elif a.netlist:
            print(f"{counts[n]:9d}  {'?':>6}  {n[:110]} (not in the netlist)")
        else:
            print(f"{counts[n]:9d}  {n[:110]}")

    gpath = f"{a.prefix}_congestion_by_coordinate_{it}.csv"
    if os.path.exists(gpath):
        grid = read_grid(gpath)
        hot = sorted(grid.items(), key=lambda kv: (-kv[1], kv[0]))[:a.top]
        tiles = {}
        if a.placed:
            tiles = collections.defaultdict(collections.Counter)
            for cname, c in top_module(a.placed).get("cells", {}).items():
                m = re.match(r"X(\d+)/Y(\d+)/", str(c.get("attributes", {}).get("NEXTPNR_BEL", "")))
                if m:
                    tiles[(int(m.group(1)), int(m.group(2)))][hier(cname, a.depth)] += 1
        print(f"\nhottest tiles of {len(grid)} with conflicts (x, y: count"
              f"{'; cells on the tile and its neighbours' if a.placed else ''})")
        agg = collections.Counter()
        for (x, y), v in hot:
            line = f"  X{x} Y{y}: {v:g}"
            if a.placed:
                near = collections.Counter()
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        near.update(tiles.get((x + dx, y + dy), {}))
                agg.update(near)
                line += "; " + ", ".join(f"{h} {k}" for h, k in near.most_common(3))
            print(line)
        if a.placed and agg:
            print("cells around the hottest tiles, by hierarchy:")
            for h, k in agg.most_common(10):
                print(f"  {k:6d} {h}")
    wpath = f"{a.prefix}_congestion_by_wiretype_{it}.csv"
    if os.path.exists(wpath):
        rows = [r for r in read_wiretypes(wpath) if r[1]]
        if rows:
            print("\noverused wires by type (overused / in use / all):")
            for t, over, used, tot in rows[:8]:
                print(f"  {t:20s} {over:6d} / {used:7d} / {tot:7d}")


if __name__ == "__main__":
    main()

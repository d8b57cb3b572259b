#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board-pnr.py - run nextpnr for a board build and fail loudly unless the design fits
and meets its clock.

  scripts/board-pnr.py --board B --family ice40|ecp5 --dir DIR --target-mhz F --macs M \\
      --out FILE [--route-stall N] -- NEXTPNR ARGS...

Runs the nextpnr command in DIR (it must be given --timing-allow-fail and --report
report.json, so that a slow design still gets a report to read).  With --route-stall N it
follows router2's iterations in nextpnr's log (-l) and stops nextpnr, failing the build,
once the overused-wire count has reached no new low in N iterations: a design that does
not route ends with that message instead of running for hours.  Then:
  - Yosys's cell counts (DIR/stat.json) exceed the device: "does NOT FIT" at once.
  - nextpnr failed: if its log says the device is too small, "does NOT FIT" and the
    numbers; otherwise the tail of the log.  Exit 1.
  - any clock's achieved frequency below its constraint, or the system clock's
    constraint below F (by more than the 0.005 MHz that F, given to 0.01 MHz, rounds):
    "misses timing" with the figures.  Exit 1.
  - else writes DIR/summary.json (resources from nextpnr's report and Yosys's
    DIR/stat.json, Fmax, target, MACs, peak GOPS) and prints a summary.
On failure the output FILE is removed, so make cannot take a stale one.

  scripts/board-pnr.py --board B --family F --dir DIR --fit-only

checks only Yosys's cell counts (DIR/stat.json) against the device and prints a PASS or
FAIL line (make test's board-fit-B: the synthesis of a board whose place and route is too
long for make test).
"""
import argparse
import json
import os
import re
import subprocess
import sys

DEVICES = {"ice40": "iCE40UP5K-SG48", "ecp5": "LFE5U-85F-6BG381C"}
# What the device has of each Yosys cell kind (cells() below): a design with more cannot
# fit whatever the placer does (each LUT4 and each flip-flop needs its own logic cell /
# slice half), so the check stops before a long nextpnr run.
CAPACITY = {"ice40": {"lut": 5280, "ff": 5280, "dsp": 8, "bram": 30, "spram": 4},
            "ecp5": {"lut": 83640, "ff": 83640, "dsp": 156, "bram": 208}}
FIT_WORDS = ("design uses", "unable to place", "not enough", "too many", "exceeds", "no more",
             "cannot be placed", "failed to place")


def cells(family, stat_path):
    """Cell counts of the synthesized top (Yosys stat -json)."""
    try:
        with open(stat_path) as f:
            text = f.read()
        stat = json.loads(text[text.index("{"):])
    except (OSError, ValueError):
        return {}
    by_type = {}
    design = stat.get("design") or {}
    src = design.get("num_cells_by_type")
    if src is None:  # older Yosys: sum the modules
        src = {}
        for m in stat.get("modules", {}).values():
            for t, n in m.get("num_cells_by_type", {}).items():
                src[t] = src.get(t, 0) + n
    by_type.update(src)

    def count(pred):
        return sum(n for t, n in by_type.items() if pred(t))
    if family == "ice40":
        return {"lut": count(lambda t: t == "SB_LUT4"),
                "ff": count(lambda t: t.startswith("SB_DFF")),
                "carry": count(lambda t: t == "SB_CARRY"),
                "dsp": count(lambda t: t == "SB_MAC16"),
                "bram": count(lambda t: t.startswith("SB_RAM40_4K")),
                "spram": count(lambda t: t == "SB_SPRAM256KA")}
    return {"lut": count(lambda t: t == "LUT4") + 2 * count(lambda t: t == "TRELLIS_DPR16X4"),
            "ff": count(lambda t: t == "TRELLIS_FF"),
            "carry": count(lambda t: t == "CCU2C"),
            "dsp": count(lambda t: t.startswith("MULT18X18")),
            "bram": count(lambda t: t == "DP16KD"),
            "lutram": count(lambda t: t == "TRELLIS_DPR16X4")}


def over_capacity(family, c):
    """The cell kinds of c (cells()) beyond the device's, as "kind used/available"."""
    return [f"{k} {c.get(k, 0)}/{n}" for k, n in CAPACITY[family].items() if c.get(k, 0) > n]


def fit_only(a):
    """--fit-only: Yosys's cell counts against the device, without nextpnr."""
    c = cells(a.family, os.path.join(a.dir, "stat.json"))
    if not c:
        print(f"FAIL board-fit-{a.board}: no Yosys cell counts in {a.dir}/stat.json")
        return 1
    cap = CAPACITY[a.family]
    print(f"# {a.board}: Yosys cells: " + ", ".join(
        f"{k} {v}" + (f"/{cap[k]}" if k in cap else "") for k, v in c.items()))
    if c["lut"] == 0 or c["ff"] == 0:
        print(f"FAIL board-fit-{a.board}: no {a.family} LUTs or flip-flops in {a.dir}/stat.json "
              f"(another family's netlist, or an empty design)")
        return 1
    over = over_capacity(a.family, c)
    if over:
        print(f"FAIL board-fit-{a.board}: the design does NOT FIT the {DEVICES[a.family]} "
              f"(Yosys cell counts): {', '.join(over)}")
        return 1
    print(f"PASS board-fit-{a.board}: the synthesized design fits the {DEVICES[a.family]} "
          f"(LUT4 {c['lut']}/{cap['lut']}, FF {c['ff']}/{cap['ff']}, DSP {c['dsp']}/{cap['dsp']}, "
          f"BRAM {c['bram']}/{cap['bram']})")
    return 0


ROUTER2_ITER = re.compile(r"\biter=(\d+)\b.*\boverused=(\d+)\b")


def log_path(d, cmd):
    """nextpnr's log file (its -l argument), or None."""
    for i, x in enumerate(cmd[:-1]):
        if x in ("-l", "--log"):
            return os.path.join(d, cmd[i + 1])
    return None


class RouterWatch:
    """Follows router2's iterations ("iter=N wires=W overused=O ...") in nextpnr's log and
    says when the overused-wire count has not reached a new low for `stall` iterations: a
    router that has stopped converging, which would otherwise run for hours."""

    def __init__(self, stall):
        self.stall = stall
        self.best = self.best_iter = None
        self.pending = ""

    def feed(self, text):
        """Takes more of the log; returns a message once the router has stalled."""
        lines = (self.pending + text).split("\n")
        self.pending = lines.pop()
        for line in lines:
            m = ROUTER2_ITER.search(line)
            if not m:
                continue
            it, over = int(m.group(1)), int(m.group(2))
            # iteration 1 starts over (a second router run in the same log)
            if self.best is None or it == 1 or over < self.best:
                self.best, self.best_iter = over, it
            if it - self.best_iter >= self.stall:
                return (f"the router does not converge: {over} overused wires at iteration "
                        f"{it}, none below {self.best} (iteration {self.best_iter}) in the "
                        f"{it - self.best_iter} iterations since; stopped")
        return None


def watch_router(proc, path, stall, poll=1.0):
    """Waits for nextpnr; with stall > 0 kills it (and its process group) when router2
    stalls.  Returns the stall message, or None when nextpnr ended by itself."""
    if not stall or not path:
        proc.wait()
        return None
    w = RouterWatch(stall)
    pos = 0
    while True:
        try:
            proc.wait(timeout=poll)
            done = True
        except subprocess.TimeoutExpired:
            done = False
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                f.seek(pos)
                text = f.read()
                pos = f.tell()
            msg = w.feed(text)
            if msg and not done:
                try:
                    os.killpg(proc.pid, 9)
                except ProcessLookupError:
                    pass
                proc.wait()
                return msg
        if done:
            return None


def main():
    ap = argparse.ArgumentParser(description="nextpnr for a board, with fit and timing checks")
    ap.add_argument("--board", required=True)
    ap.add_argument("--family", required=True, choices=sorted(DEVICES))
    ap.add_argument("--dir", required=True)
    ap.add_argument("--fit-only", action="store_true",
                    help="check Yosys's cell counts (DIR/stat.json) against the device; no nextpnr")
    ap.add_argument("--target-mhz", type=float)
    ap.add_argument("--macs", type=int)
    ap.add_argument("--out", help="nextpnr's output file, relative to --dir")
    ap.add_argument("--route-stall", type=int, default=0, metavar="N",
                    help="stop nextpnr when router2's overused wires reach no new low in N "
                         "iterations (0: never)")
    split = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
    a = ap.parse_args(sys.argv[1:split])
    if a.fit_only:
        return fit_only(a)
    if a.route_stall < 0:
        sys.exit(f"board-pnr: --route-stall {a.route_stall}: must be 0 (never) or more")
    if split == len(sys.argv) or a.target_mhz is None or a.macs is None or a.out is None:
        sys.exit("board-pnr: usage: board-pnr.py --board B --family F --dir D --target-mhz F "
                 "--macs M --out FILE -- NEXTPNR ARGS...  (or --fit-only)")
    cmd = sys.argv[split + 1:]
    b = a.board
    out = os.path.join(a.dir, a.out)
    report = os.path.join(a.dir, "report.json")
    for p in (out, report, os.path.join(a.dir, "summary.json"), os.path.join(a.dir, "summary.txt")):
        if os.path.exists(p):
            os.remove(p)

    def fail(msg):
        if os.path.exists(out):
            os.remove(out)
        print(f"bitstream {b}: {msg}", file=sys.stderr)
        sys.exit(1)

    c = cells(a.family, os.path.join(a.dir, "stat.json"))
    over = over_capacity(a.family, c)
    if over:
        print(f"  {b}: Yosys cells: " + ", ".join(f"{k} {v}" for k, v in c.items()))
        fail(f"the design does NOT FIT the {DEVICES[a.family]} (Yosys cell counts, before "
             f"place and route): {', '.join(over)}")

    with open(os.path.join(a.dir, "pnr.out"), "w") as log:
        try:
            proc = subprocess.Popen(cmd, cwd=a.dir, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        except FileNotFoundError:
            fail(f"{cmd[0]} not found (run `make deps`)")
        stalled = watch_router(proc, log_path(a.dir, cmd), a.route_stall)
        if stalled:
            fail(stalled + f" (log {a.dir}/pnr.log; docs/boards.md, \"When a build does not "
                 f"route\")")
    text = ""
    for name in ("pnr.log", "pnr.out"):
        p = os.path.join(a.dir, name)
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                text += f.read()
    if proc.returncode != 0 or not os.path.exists(report):
        c = cells(a.family, os.path.join(a.dir, "stat.json"))
        if c:
            print(f"  {b}: Yosys cells: " + ", ".join(f"{k} {v}" for k, v in c.items()))
        # nextpnr prints the device utilisation before it tries to place: name every
        # resource that is over.
        over = [f"{k} {u}/{n}" for k, u, n in
                re.findall(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%$", text, re.M) if int(u) > int(n)]
        if over:
            fail(f"the design does NOT FIT the {DEVICES[a.family]}: {', '.join(over)} "
                 f"(log {a.dir}/pnr.log)")
        for line in text.splitlines():
            if "ERROR" in line and any(w in line.lower() for w in FIT_WORDS):
                fail(f"the design does NOT FIT the {DEVICES[a.family]}: {line.strip()} "
                     f"(log {a.dir}/pnr.log)")
        tail = "\n".join(l for l in text.splitlines() if "ERROR" in l or "error" in l)[-2000:]
        fail(f"nextpnr failed (exit {proc.returncode}, log {a.dir}/pnr.log)\n{tail}")

    with open(report) as f:
        rep = json.load(f)
    util = {k: v for k, v in rep.get("utilization", {}).items()}
    over = [f"{k} {v['used']}/{v['available']}" for k, v in util.items() if v["used"] > v["available"]]
    if over:
        fail(f"the design does NOT FIT the {DEVICES[a.family]}: {', '.join(over)}")
    clocks = rep.get("fmax", {})
    if not clocks:
        fail(f"nextpnr reported no clock (log {a.dir}/pnr.log)")
    bad = []
    sysclk = None
    for name, v in clocks.items():
        ach, con = v.get("achieved", 0.0), v.get("constraint", 0.0)
        if ach < con:
            bad.append(f"{name} reaches {ach:.2f} MHz, needs {con:.2f} MHz")
        # The system clock is the fastest-constrained one (PLL outputs derived from the
        # board oscillator, or nextpnr's --freq).
        if sysclk is None or con > clocks[sysclk].get("constraint", 0.0):
            sysclk = name
    fmax = clocks[sysclk]["achieved"]
    con = clocks[sysclk]["constraint"]
    # The stated clock is given to 0.01 MHz (a PLL's 25 x 11 / 7 = 39.2857 MHz is stated
    # 39.29): a constraint that rounds to it, or above, meets it.
    if con + 0.005 < a.target_mhz:
        bad.append(f"the system clock {sysclk} is constrained to {con:.2f} MHz, "
                   f"below the stated {a.target_mhz:g} MHz")
    res = {"board": b, "family": a.family, "device": DEVICES[a.family],
           "target_mhz": a.target_mhz, "fmax_mhz": round(fmax, 2), "clock": sysclk,
           "macs": a.macs, "peak_gops": round(2 * a.macs * a.target_mhz / 1000.0, 3),
           "utilization": {k: [v["used"], v["available"]] for k, v in util.items()}}
    res.update(cells(a.family, os.path.join(a.dir, "stat.json")))
    if a.family == "ice40":
        res["lc"] = util.get("ICESTORM_LC", {}).get("used", 0)
        res["lc_available"] = util.get("ICESTORM_LC", {}).get("available", 0)
    else:
        res["comb"] = util.get("TRELLIS_COMB", {}).get("used", 0)
    with open(os.path.join(a.dir, "summary.json"), "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    used = ", ".join(f"{k} {v['used']}/{v['available']}" for k, v in sorted(util.items())
                     if v["used"])
    print(f"  {b}: {used}")
    print(f"  {b}: {sysclk} Fmax {fmax:.2f} MHz, target {a.target_mhz:g} MHz; "
          f"{a.macs} MACs, {res['peak_gops']} GOPS peak")
    with open(os.path.join(a.dir, "summary.txt"), "w") as f:
        f.write(f"Fmax {fmax:.2f} MHz at a {a.target_mhz:g} MHz target\n")
    if bad:
        fail("the design misses timing: " + "; ".join(bad) + f" (log {a.dir}/pnr.log)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

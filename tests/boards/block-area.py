#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""block-area.py - iCE40 or ECP5 resources of every block of a board's SoC (docs/performance.md, Boards).

Synthesizes a board top (default icebreaker_top in the icebreaker configuration; it builds
picotpu-lite unless given --param Lite=0, the full SoC) with
Yosys `synth_ice40 -dsp -noflatten` (--arch ecp5: `synth_ecp5 -noflatten`), so that each
module keeps its own cells, and prints per block (the module with everything below it, as
many instances as the design has) SB_LUT4, flip-flops, SB_CARRY, SB_MAC16, SB_RAM40_4K and
SB_SPRAM256KA; on the ECP5 LUT4, TRELLIS_FF, CCU2C, MULT18X18D, DP16KD/PDPW16KD and
TRELLIS_DPR16X4 (LUT RAM) in the same columns.

--script SYNTH_YS takes a board's own Yosys script (build/boards/<board>/synth.ys, mk/board.mk)
instead of --param/--define/sources (giving those too is an error): the same sources,
parameters, top, architecture and synthesis steps (the ULX3S's ABC9 with its wire delay),
with -noflatten added to each synth_ice40 / synth_ecp5 and the netlist not written.

--blackbox MOD (repeatable) leaves a module out (listed with its instances, no cells):
e.g. memories that are being rewritten, or whose flip-flop mapping would take Yosys most of
an hour.

Without hierarchy flattening nothing propagates across module ports (tied-off inputs,
unused outputs), so the figures are a little above those of the flattened build.

Examples:
  tests/boards/block-area.py --blackbox tpu_core_ram --blackbox tpu_core_fifo \\
      --out build/boards/area
  make build/boards/ulx3s/synth.ys build/boards/ulx3s/fw.hex
  tests/boards/block-area.py --script build/boards/ulx3s/synth.ys \\
      --out build/boards/ulx3s-area
"""
import argparse
import json
import os
import re
import subprocess
import sys

FF_PREFIX = "SB_DFF"
KINDS = ("lut", "ff", "carry", "mac16", "ebr", "spram")


def cell_kind_ecp5(t):
    if t == "LUT4":
        return "lut"
    if t == "TRELLIS_FF":
        return "ff"
    if t == "CCU2C":
        return "carry"
    if t in ("MULT18X18D", "ALU54B"):
        return "mac16"
    if t in ("DP16KD", "PDPW16KD"):
        return "ebr"
    if t == "TRELLIS_DPR16X4":
        return "spram"
    return None


def cell_kind(t):
    if t == "SB_LUT4":
        return "lut"
    if t.startswith(FF_PREFIX):
        return "ff"
    if t == "SB_CARRY":
        return "carry"
    if t == "SB_MAC16":
        return "mac16"
    if t.startswith("SB_RAM40_4K"):
        return "ebr"
    if t == "SB_SPRAM256KA":
        return "spram"
    return None


def base_name(m):
    # $paramod$<hash>\tpu_x  or  $paramod\tpu_x\P=V...  or  tpu_x
    m = m.lstrip("\\")
    if m.startswith("$paramod"):
        parts = m.split("\\")
        return parts[1] if len(parts) > 1 else m
    return m


def script_noflatten(path, stat, blackbox, top):
    """A board's synth.ys with -noflatten on each synth command, no netlist written, the
    blackboxes before the first synth command and the stat JSON at the end; the top that
    the script synthesizes (its first -top) and its architecture."""
    try:
        with open(path) as f:
            lines = [ln.rstrip("\n") for ln in f if ln.strip()]
    except OSError as e:
        sys.exit(f"block-area: cannot read the script {path}: {e.strerror}")
    out = []
    script_top = None
    arch = None
    for ln in lines:
        w = ln.split()
        if w[0] in ("synth_ecp5", "synth_ice40"):
            if "-top" in w[:-1]:
                script_top = script_top or w[w.index("-top") + 1]
            if script_top is None:
                sys.exit(f"block-area: {path}: {w[0]} has no -top")
            if arch is None and blackbox:
                out.append(f"hierarchy -top {top or script_top}")
                out += [f"blackbox *{b}" for b in blackbox]
            arch = arch or w[0][len("synth_"):]
            w = [x for i, x in enumerate(w) if x != "-json" and (i == 0 or w[i - 1] != "-json")]
            ln = " ".join(w[:1] + ["-noflatten"] + w[1:])
        elif w[0] == "tee" or w[0] == "stat" or w[0].startswith("write_"):
            continue
        out.append(ln)
    if script_top is None:
        sys.exit(f"block-area: {path} has no synth_ecp5 or synth_ice40 command")
    out.append(f"tee -q -o {stat} stat -json")
    return out, script_top, arch


def run_yosys(a, ys):
    ysf = os.path.join(a.out, "area.ys")
    with open(ysf, "w") as f:
        f.write("\n".join(ys) + "\n")
    r = subprocess.run([a.yosys, "-q", "-l", os.path.join(a.out, "area.log"), "-s", ysf],
                       stdout=subprocess.DEVNULL)
    if r.returncode:
        sys.exit(f"block-area: Yosys failed (log {a.out}/area.log)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", help="the top module (default: the script's, else icebreaker_top)")
    ap.add_argument("--arch", choices=("ice40", "ecp5"),
                    help="the cell library (default: the script's synth command, else ice40)")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE on the top")
    ap.add_argument("--define", action="append", default=[], help="Verilog define (e.g. TPU_ICE40)")
    ap.add_argument("--blackbox", action="append", default=[], help="module left out")
    ap.add_argument("--out", default="build/boards/area")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yosys"))
    ap.add_argument("--json", help="reuse an existing stat JSON instead of synthesizing")
    ap.add_argument("--script", help="a board's synth.ys to synthesize with, hierarchy kept")
    ap.add_argument("srcs", nargs="*")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    stat = a.json or os.path.join(a.out, "stat.json")
    if a.script and (a.param or a.define or a.srcs):
        sys.exit("block-area: --script takes the sources, defines and parameters from the script: "
                 "drop --param, --define and the source files")
    if a.script:
        ys, script_top, script_arch = script_noflatten(a.script, stat, a.blackbox, a.top)
        a.top = a.top or script_top
        a.arch = a.arch or script_arch
        if not a.json:
            run_yosys(a, ys)
    a.top = a.top or "icebreaker_top"
    a.arch = a.arch or "ice40"
    if not a.script and not a.json:
        if not a.srcs:
            sys.exit("block-area: no sources")
        chp = " ".join(f"-set {p.split('=', 1)[0]} {p.split('=', 1)[1]}" for p in a.param)
        defs = "".join(f" -D{d}" for d in a.define)
        ys = [] if a.arch == "ice40" else ["read_verilog -lib -specify +/ecp5/cells_sim.v +/ecp5/cells_bb.v"]
        ys.append(f"read_verilog -sv -DSYNTHESIS{defs} {' '.join(a.srcs)}")
        if chp:
            ys.append(f"chparam {chp} {a.top}")
        ys.append(f"hierarchy -top {a.top}")
        for b in a.blackbox:
            # derived modules ($paramod...\b) and the plain one
            ys.append(f"blackbox *{b}")
        synth = "synth_ice40 -dsp" if a.arch == "ice40" else "synth_ecp5"
        ys.append(f"{synth} -noflatten -top {a.top}")
        ys.append(f"tee -q -o {stat} stat -json")
        run_yosys(a, ys)

    with open(stat) as f:
        txt = f.read()
    # Yosys 0.23 writes the design hierarchy as plain text into the "design" part of the
    # JSON: keep the "modules" part, which closes with the first line "   }," after it.
    txt = txt[txt.index("{"):]
    end = txt.index("\n   },", txt.index('"modules"'))
    doc = json.loads(txt[:end] + "\n   }\n}")
    # plain module names are "\\name" in "modules" but "name" as cell types
    mods = {m.lstrip("\\"): d for m, d in doc["modules"].items()}
    kind = cell_kind if a.arch == "ice40" else cell_kind_ecp5
    own = {}
    subs = {}
    for m, d in mods.items():
        c = dict.fromkeys(KINDS, 0)
        s = []
        for t, n in d.get("num_cells_by_type", {}).items():
            k = kind(t)
            if k:
                c[k] += n
            elif t.lstrip("\\") in mods or t in mods:
                s += [t if t in mods else t.lstrip("\\")] * n
            elif base_name(t) in a.blackbox:
                s += [base_name(t)] * n       # a blackbox: listed, with no cells
        own[m] = c
        subs[m] = s

    memo = {}

    def total(m):
        if m in memo:
            return memo[m]
        c = dict(own.get(m, dict.fromkeys(KINDS, 0)))
        for s in subs.get(m, []):
            t = total(s)
            for k in KINDS:
                c[k] += t[k]
        memo[m] = c
        return c

    # instances per base name, each with its subtree (every instance counted)
    agg = {}
    inst = {}

    def walk(m):
        for s in subs.get(m, []):
            b = base_name(s)
            t = total(s)
            a2 = agg.setdefault(b, dict.fromkeys(KINDS, 0))
            for k in KINDS:
                a2[k] += t[k]
            inst[b] = inst.get(b, 0) + 1
            walk(s)

    tops = [m for m in mods if base_name(m) == a.top]
    top = tops[0]
    walk(top)
    tt = total(top)
    rows = sorted(agg.items(), key=lambda kv: -(kv[1]["lut"] + kv[1]["ff"]))
    if a.arch == "ice40":
        hdr = f"{'block (with its submodules)':34s} {'inst':>4s} {'LUT4':>7s} {'FF':>7s} {'CARRY':>6s} {'MAC16':>5s} {'EBR':>4s} {'SPRAM':>5s}"
    else:
        hdr = f"{'block (with its submodules)':34s} {'inst':>4s} {'LUT4':>7s} {'FF':>7s} {'CCU2C':>6s} {'MULT':>5s} {'BRAM':>4s} {'DPR16':>5s}"
    print(hdr)
    print(f"{a.top + ' (whole)':34s} {1:4d} " + " ".join(f"{tt[k]:{w}d}" for k, w in zip(KINDS, (7, 7, 6, 5, 4, 5))))
    for b, c in rows:
        bb = " (blackbox)" if b in a.blackbox else ""
        print(f"{b + bb:34s} {inst[b]:4d} " + " ".join(f"{c[k]:{w}d}" for k, w in zip(KINDS, (7, 7, 6, 5, 4, 5))))
    with open(os.path.join(a.out, "blocks.json"), "w") as f:
        json.dump({"top": tt, "blocks": agg, "instances": inst}, f, indent=1)


if __name__ == "__main__":
    main()

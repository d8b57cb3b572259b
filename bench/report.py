#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark report (docs/workloads.md): build/bench/report.md and PNG plots made
with gnuplot from build/bench/results.json and the per-layer / per-matmul TSV files
that the workload drivers write (build/bench/*.tsv).

    bench/report.py [--dir build/bench] [--img DIR]

Plots: resnet50_util.png (per-layer MXU utilization and MAC efficiency of ResNet-50
on sim16), roofline.png (ops per byte against achieved ops per cycle, with the MXU
peak and the memory roofs of sim16), simspeed.png (simulated cycles per second per
model and configuration)."""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

# memory roofs per configuration (bytes per cycle): HBM2 pseudo-channels x 16 (docs/memory.md),
# and one 256-bit DMA read port (docs/dma.md)
CONFIGS = {  # name: N, pseudo-channels
    "sim16": (16, 8), "sim32": (32, 8), "sim128": (128, 16), "ulx3s": (8, 0), "icebreaker": (4, 0)}
GOALS = {"resnet50.utilization": 0.85, "gemm1024.utilization": 0.97, "bert.utilization": 0.95,
         "resnet50.sim_wall_s": 60}


def tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}" if abs(v) < 1e6 else f"{v:,.0f}"
    if isinstance(v, int) and abs(v) >= 10000:
        return f"{v:,}"
    return str(v)


def gnuplot(script, out):
    if not shutil.which("gnuplot"):
        print(f"report: gnuplot not found, {out} not made", file=sys.stderr)
        return False
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode or not os.path.exists(out):
        print(f"report: gnuplot failed for {out}: {r.stderr}", file=sys.stderr)
        return False
    return True


def plot_layers(layers, d, img):
    rows = [l for l in layers if l["kind"] in ("conv", "fc")]
    if not rows:
        return None
    dat = os.path.join(d, "resnet50_util.dat")
    with open(dat, "w") as f:
        for i, l in enumerate(rows):
            f.write(f'{i} "{l["name"]}" {100 * float(l["util"]):.2f} {100 * float(l["mac_eff"]):.2f}\n')
    out = os.path.join(img, "resnet50_util.png")
    ok = gnuplot(f"""set terminal pngcairo size 1400,480 font ",9"
set output "{out}"
set title "ResNet-50 v1.5 int8 on sim16: per-layer MXU utilization (conv and FC layers)"
set ylabel "%"
set yrange [0:105]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by 90 right font ",7"
set key outside top center horizontal
set grid ytics
plot "{dat}" using 3:xtic(2) title "MXU rows / cycles" lc rgb "#3060c0", \\
     "" using 4 title "MACs / (N^2 cycles)" lc rgb "#e08020", \\
     85 with lines dt 2 lc rgb "black" title "goal 85 %"
""", out)
    return out if ok else None


def plot_roofline(layers, bert, n, pch, d, img):
    pts = os.path.join(d, "roofline.dat")
    have = False
    with open(pts, "w") as f:
        f.write("# ResNet-50 layers\n")
        for l in layers:
            by = int(l["bytes_read"]) + int(l["bytes_written"])
            if l["kind"] in ("conv", "fc") and by and int(l["cycles"]):
                f.write(f'{2 * int(l["macs"]) / by:.4g} {2 * int(l["macs"]) / int(l["cycles"]):.4g}\n')
                have = True
        f.write("\n\n# BERT matmuls and GEMM\n")
        for b in bert:
            by = int(b["bytes_read"]) + int(b["bytes_written"])
            macs = int(b["M"]) * int(b["N"]) * int(b["K"])
            if by and int(b["cycles"]):
                f.write(f'{2 * macs / by:.4g} {2 * macs / int(b["cycles"]):.4g} {b["dtype"]}\n')
                have = True
    if not have:
        return None
    peak = 2 * n * n
    hbm = 16 * pch
    out = os.path.join(img, "roofline.png")
    ok = gnuplot(f"""set terminal pngcairo size 900,600 font ",10"
set output "{out}"
set title "Roofline, sim16 (ref cycle estimate): N = {n}, {pch} HBM2 pseudo-channels"
set logscale xy
set xlabel "operational intensity (ops per byte of device-memory traffic)"
set ylabel "ops per cycle (2 x MACs)"
set xrange [0.5:2000]
set yrange [1:{peak * 3}]
set grid
set key bottom right
plot x < {peak}.0/{hbm} ? {hbm}*x : {peak} with lines lw 2 lc rgb "black" title "MXU peak {peak} / HBM2 {hbm} B/cycle", \\
     x < {peak}/32.0 ? 32*x : 1/0 with lines dt 2 lw 2 lc rgb "gray40" title "one DMA read port, 32 B/cycle", \\
     "{pts}" index 0 using 1:2 with points pt 7 ps 0.8 lc rgb "#3060c0" title "ResNet-50 layers", \\
     "{pts}" index 1 using 1:2 with points pt 5 ps 1.0 lc rgb "#e08020" title "BERT matmuls, GEMM 1024^3"
""", out)
    return out if ok else None


def plot_speed(results, d, img):
    bars = []
    for r in results:
        nm, cfg = r["name"], str(r["config"])
        if nm == "mxu.sim_cycles_per_s" and cfg.endswith(",int8"):
            bars.append((f"MXU alone {cfg.split(',')[0]}", r["value"]))
        elif nm == "soc.sim_cycles_per_s":
            bars.append((f"SoC {cfg} (random programs)", r["value"]))
        elif nm == "resnet50.sim_cycles_per_s":
            bars.append((f"SoC {cfg.split(' ')[0]} (ResNet-50 layers)", r["value"]))
        elif nm == "resnet50.ref_cycles_per_s":
            bars.append((f"ref model {cfg.split(' ')[0]}", r["value"]))
    if not bars:
        return None
    dat = os.path.join(d, "simspeed.dat")
    with open(dat, "w") as f:
        for i, (k, v) in enumerate(bars):
            f.write(f'{i} "{k}" {v}\n')
    out = os.path.join(img, "simspeed.png")
    ok = gnuplot(f"""set terminal pngcairo size 1000,520 font ",10"
set output "{out}"
set title "Simulator speed (simulated cycles per wall-clock second; loaded 2-core machine)"
set logscale y
set ylabel "cycles / s"
set style fill solid 0.8 border -1
set boxwidth 0.7
set xrange [-0.6:{len(bars) - 0.4}]
set yrange [1000:*]
set xtics rotate by 30 right
set grid ytics
set bmargin 9
plot "{dat}" using 1:3:xtic(2) with boxes lc rgb "#3060c0" notitle
""", out)
    return out if ok else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="build/bench")
    ap.add_argument("--img", default=None, help="where the PNGs go (default: --dir)")
    a = ap.parse_args()
    d, img = a.dir, a.img or a.dir
    os.makedirs(img, exist_ok=True)
    rpath = os.path.join(d, "results.json")
    results = json.load(open(rpath)) if os.path.exists(rpath) else []
    layers = tsv(os.path.join(d, "resnet50-ref-sim16.tsv"))
    rtl = tsv(os.path.join(d, "resnet50-sim-sim16.tsv"))
    bert = tsv(os.path.join(d, "bert-ref-sim16.tsv"))
    n, pch = CONFIGS["sim16"]
    p1 = plot_layers(layers, d, img)
    p2 = plot_roofline(layers, bert, n, pch, d, img)
    p3 = plot_speed(results, d, img)

    L = ["# picotpu benchmark report", "",
         f"From `{rpath}` ({len(results)} figures) and the drivers' TSV files in `{d}/`; "
         "made by `make bench` (bench/report.py).  Cycle figures marked *ref* are the ref "
         "model's estimate, *RTL* the Verilated SoC's counters.", ""]
    L += ["## Headline figures", "", "| figure | config | value | goal |", "|---|---|---|---|"]
    for r in results:
        base = r["name"]
        if base.split(".")[0] in ("resnet50", "bert", "gemm1024", "fmnist"):
            g = GOALS.get(base)
            gs = "" if g is None else (f"< {g} s" if base.endswith("_s") else f">= {g:.0%}")
            L.append(f"| `{base}` | {r['config']} | {fmt(r['value'])} {r['unit']} | {gs} |")
    L.append("")
    if layers:
        L += ["## ResNet-50 v1.5 per layer (sim16, ref estimate)", "",
              "MXU = MXU rows / cycles; MACs = MACs / (N^2 x cycles); stalls in cycles "
              "(counters of docs/isa.md: queue waits for tokens (tok), memory (mem), weights (wt), compute idle).",
              "", "| # | layer | in | out | kernel | MACs | cycles | MXU | MACs | "
              "load tok | compute tok | store tok | load mem | store mem | compute wt | compute idle |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        tc = tm = tr = 0
        for l in layers:
            tc += int(l["cycles"]); tm += int(l["macs"]); tr += int(l["mxu_rows"])
            L.append(f"| {l['layer']} | {l['name']} | {l['in']} | {l['out']} | {l['k']}x{l['k']}/{l['s']} | "
                     f"{int(l['macs']):,} | {int(l['cycles']):,} | {100 * float(l['util']):.1f} % | "
                     f"{100 * float(l['mac_eff']):.1f} % | {l['load_wait_token']} | {l['compute_wait_token']} | "
                     f"{l['store_wait_token']} | {l['load_wait_mem']} | {l['store_wait_mem']} | "
                     f"{l['compute_wait_weights']} | {l['compute_idle']} |")
        L += ["", f"Total (op by op): {tc:,} cycles, {tm:,} MACs, MXU utilization "
              f"{100 * tr / tc:.1f} %, MAC efficiency {100 * tm / (n * n * tc):.1f} %.", ""]
    if rtl:
        refc = {l["name"]: int(l["cycles"]) for l in layers}
        L += ["## ResNet-50 layers on the RTL (sim16)", "",
              "Each layer a model of its own, outputs identical to the naive kernels.", "",
              "| # | layer | in | out | kernel | cycles (RTL) | cycles (ref) | RTL/ref | MXU (RTL) | wall s | cycles/s |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
        for l in rtl:
            w = float(l["wall_s"])
            c = int(l["cycles"])
            rc = refc.get(l["name"], 0)
            L.append(f"| {l['layer']} | {l['name']} | {l['in']} | {l['out']} | {l['k']}x{l['k']}/{l['s']} | "
                     f"{c:,} | {rc:,} | {c / rc if rc else 0:.3f} | {100 * float(l['util']):.1f} % | {w:.1f} | "
                     f"{c / w if w else 0:,.0f} |")
        L.append("")
    if bert:
        L += ["## BERT-base encoder matmuls (sequence 128) and GEMM 1024^3 (sim16, ref estimate)", "",
              "| dtype | matmul | M x N x K | count | cycles (each) | MXU |", "|---|---|---|---|---|---|"]
        for b in bert:
            L.append(f"| {b['dtype']} | {b['name']} | {b['M']} x {b['N']} x {b['K']} | {b['count']} | "
                     f"{int(b['cycles']):,} | {100 * float(b['util']):.1f} % |")
        L.append("")
    L += ["## Plots", ""]
    for p, t in ((p1, "ResNet-50 per-layer utilization"), (p2, "roofline"), (p3, "simulator speed")):
        if p:
            L.append(f"![{t}]({os.path.relpath(p, d)})")
    L += ["", "## All figures", ""]
    group = None
    for r in results:
        g = r["name"].split(".")[0]
        if g != group:
            group = g
            L += ["", f"### {g}", "", "| figure | config | value | unit | command |", "|---|---|---|---|---|"]
        L.append(f"| `{r['name']}` | {r['config']} | {fmt(r['value'])} | {r['unit']} | `{r['command']}` |")
    out = os.path.join(d, "report.md")
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"report: {out}, plots: {', '.join(p for p in (p1, p2, p3) if p) or 'none'}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ram-area.py: what each buffer and FIFO of tpu_core/tpu_dma maps to on the two FPGAs.

Synthesizes every configuration of tpu_core_ram, tpu_core_fifo and tpu_dma_fifo that
the ulx3s (ECP5, synth_ecp5) and icebreaker (iCE40, synth_ice40) SoCs instantiate, each
alone, and prints LUTs, flip-flops, LUT RAM and block RAMs per instance and in total.

  scripts/ram-area.py [--rtl DIR] [--board ulx3s|icebreaker] [--jobs N] [--exclude REGEX]

--rtl points at another tree (e.g. an older commit unpacked with git archive) to
measure the same instances before a change.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import tempfile

# (count, module, parameters) per board: `yosys hierarchy` of tpu_core with the board's
# parameters (mk/configs.mk) lists exactly these.
INSTANCES = {
    "ulx3s": [
        (1, "tpu_core_ram", {"Rows": 1024, "Width": 128, "NumWrite": 2, "NumRead": 2}),  # UB
        (1, "tpu_core_ram", {"Rows": 256, "Width": 128, "NumWrite": 1, "NumRead": 1}),   # WB
        (1, "tpu_core_ram", {"Rows": 64, "Width": 512, "NumWrite": 1, "NumRead": 1}),    # VP
        (3, "tpu_core_fifo", {"Width": 288, "Depth": 8}),   # instruction queues
        (1, "tpu_core_fifo", {"Width": 257, "Depth": 8}),   # fetch buffer
        (1, "tpu_core_fifo", {"Width": 288, "Depth": 4}),   # LOADs in flight
        (2, "tpu_core_fifo", {"Width": 65, "Depth": 4}),    # load status, store wait
        (1, "tpu_core_fifo", {"Width": 514, "Depth": 4}),   # ACC rows
        (1, "tpu_dma_fifo", {"Width": 65, "Depth": 128}),   # read buffer
        (1, "tpu_dma_fifo", {"Width": 69, "Depth": 128}),   # row queue
        (1, "tpu_dma_fifo", {"Width": 73, "Depth": 64}),    # write buffer
        (1, "tpu_dma_fifo", {"Width": 37, "Depth": 2}),     # AR queue
        (1, "tpu_dma_fifo", {"Width": 37, "Depth": 4}),     # B records
    ],
    "icebreaker": [
        (1, "tpu_core_ram", {"Rows": 256, "Width": 32, "NumWrite": 2, "NumRead": 2}),
        (1, "tpu_core_ram", {"Rows": 64, "Width": 32, "NumWrite": 1, "NumRead": 1}),
        (1, "tpu_core_ram", {"Rows": 16, "Width": 128, "NumWrite": 1, "NumRead": 1}),
        (3, "tpu_core_fifo", {"Width": 288, "Depth": 8}),
        (1, "tpu_core_fifo", {"Width": 257, "Depth": 8}),
        (1, "tpu_core_fifo", {"Width": 288, "Depth": 4}),
        (2, "tpu_core_fifo", {"Width": 65, "Depth": 4}),
        (1, "tpu_core_fifo", {"Width": 130, "Depth": 4}),
        (1, "tpu_dma_fifo", {"Width": 65, "Depth": 128}),
        (1, "tpu_dma_fifo", {"Width": 63, "Depth": 128}),
        (1, "tpu_dma_fifo", {"Width": 73, "Depth": 64}),
        (1, "tpu_dma_fifo", {"Width": 37, "Depth": 2}),
        (1, "tpu_dma_fifo", {"Width": 37, "Depth": 4}),
    ],
}
FILES = {"tpu_core_ram": "rtl/soc/tpu_core_ram.sv", "tpu_core_fifo": "rtl/soc/tpu_core_fifo.sv",
         "tpu_dma_fifo": "rtl/dma/tpu_dma_fifo.sv rtl/soc/tpu_core_fifo.sv"}


# A tpu_core_ram with one write or read port is wrapped with the other port tied off, as
# tpu_core instantiates it (so a version without NumWrite/NumRead is measured fairly).
RAM_WRAP = """
module ram_wrap #(parameter int Rows = 16, parameter int Width = 8, parameter int NumWrite = 2,
                  parameter int NumRead = 2) (
  input wire clk_i, input wire we0_i, input wire [15:0] waddr0_i, input wire [Width-1:0] wdata0_i,
  input wire we1_i, input wire [15:0] waddr1_i, input wire [Width-1:0] wdata1_i,
  input wire [15:0] ra0_i, input wire [15:0] ra1_i, output wire [Width-1:0] rdata0_o,
  output wire [Width-1:0] rdata1_o);
  tpu_core_ram #(.Rows(Rows), .Width(Width)%s) u_ram (
    .clk_i(clk_i), .we0_i(we0_i), .waddr0_i(waddr0_i), .wdata0_i(wdata0_i),
    .we1_i(NumWrite > 1 ? we1_i : 1'b0), .waddr1_i(NumWrite > 1 ? waddr1_i : 16'd0),
    .wdata1_i(NumWrite > 1 ? wdata1_i : {Width{1'b0}}),
    .%s0_i(ra0_i), .rdata0_o(rdata0_o), .%s1_i(NumRead > 1 ? ra1_i : 16'd0),
    .rdata1_o(rdata1_o));
endmodule
"""


def synth(rtl, board, module, params):
    chp = " ".join(f"-chparam {k} {v}" for k, v in params.items())
    cmd = "synth_ecp5" if board == "ulx3s" else "synth_ice40"
    src = " ".join(os.path.join(rtl, f) for f in FILES[module].split())
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "stat.json")
        top = module
        if module == "tpu_core_ram":
            new = "NumWrite" in open(src).read()
            wrap = os.path.join(d, "ram_wrap.sv")
            with open(wrap, "w") as f:
                f.write(RAM_WRAP % ((", .NumWrite(NumWrite), .NumRead(NumRead)", "rnext", "rnext")
                                    if new else ("", "raddr", "raddr")))
            src += " " + wrap
            top = "ram_wrap"
        script = (f"read_verilog -defer -sv -DSYNTHESIS {src}; "
                  f"hierarchy -top {top} {chp}; {cmd} -top {top}; "
                  f"tee -q -o {js} stat -json")
        subprocess.run(["yosys", "-q", "-p", script], check=True, stdout=subprocess.DEVNULL)
        with open(js) as f:
            cells = json.load(f)["design"]["num_cells_by_type"]
    if board == "ulx3s":
        # As scripts/board-pnr.py counts them: a LUT-RAM cell as two LUT4.
        lut = cells.get("LUT4", 0) + 2 * cells.get("TRELLIS_DPR16X4", 0)
        ff = cells.get("TRELLIS_FF", 0)
        lutram = cells.get("TRELLIS_DPR16X4", 0)
        bram = cells.get("DP16KD", 0)
    else:
        lut = cells.get("SB_LUT4", 0)
        ff = sum(v for k, v in cells.items() if k.startswith("SB_DFF"))
        lutram = 0
        bram = cells.get("SB_RAM40_4K", 0)
    return {"lut": lut, "ff": ff, "lutram": lutram, "bram": bram}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtl", default=".")
    ap.add_argument("--board", choices=sorted(INSTANCES), action="append")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--exclude", default=None,
                    help="skip instances whose 'module Name=value ...' matches this regex")
    a = ap.parse_args()
    for board in a.board or ["ulx3s", "icebreaker"]:
        insts = [i for i in INSTANCES[board] if not a.exclude or not re.search(
            a.exclude, i[1] + " " + " ".join(f"{k}={v}" for k, v in i[2].items()))]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            res = list(ex.map(lambda i: synth(a.rtl, board, i[1], i[2]), insts))
        bname = "DP16KD" if board == "ulx3s" else "SB_RAM40_4K"
        print(f"# {board}: per instance (x count), LUT4 (ECP5: with DPR16X4 as 2), FF, "
              f"{'DPR16X4 ' if board == 'ulx3s' else ''}{bname}")
        tot = {"lut": 0, "ff": 0, "lutram": 0, "bram": 0}
        for (n, mod, par), r in zip(insts, res):
            desc = mod + " " + " ".join(f"{k}={v}" for k, v in par.items())
            ram = f" {r['lutram']:5d}" if board == "ulx3s" else ""
            print(f"{board:10s} {desc:55s} x{n} {r['lut']:7d} {r['ff']:7d}{ram} {r['bram']:4d}")
            for k in tot:
                tot[k] += n * r[k]
        ram = f" {tot['lutram']:5d}" if board == "ulx3s" else ""
        print(f"{board:10s} {'total':55s}    {tot['lut']:7d} {tot['ff']:7d}{ram} {tot['bram']:4d}")


if __name__ == "__main__":
    main()

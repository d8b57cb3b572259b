#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen-spec.py - generate the Verilog package, the firmware and host headers, the
configuration make fragment and the reference tables of docs/isa.md from
spec/picotpu.toml (the one source of truth).

  scripts/gen-spec.py            write every generated file that changed
  scripts/gen-spec.py --check    exit 1, naming each stale file, if one is out of date
"""
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "picotpu.toml"
DOC_MARK = "<!-- Generated from spec/picotpu.toml by scripts/gen-spec.py: do not edit below. -->"


def camel(name):
    return "".join(p.capitalize() for p in re.split(r"[_\s]+", name.lower()) if p)


def upper(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name).upper()


# Memory kinds of a configuration: the tpu_soc MemBackend values (tpu_mem_pkg::Backend*).
MEM_KINDS = {"hbm2": 0, "spram": 1, "sdram": 2}


def check_spec(s):
    """Catch the mistakes a hand-edited spec invites: overlaps, duplicates, overflow."""
    errs = []
    for c in s["config"]:
        if c.get("mem") not in MEM_KINDS:
            errs.append(f"config {c['name']}: mem must be one of {', '.join(MEM_KINDS)}")
        elif (c["mem"] == "hbm2") != (c["pch"] > 0):
            errs.append(f"config {c['name']}: mem = \"hbm2\" exactly when pch > 0")
        if c.get("bus_bits") not in (64, 128, 256) or (c.get("mem") == "hbm2" and c["bus_bits"] != 256):
            errs.append(f"config {c['name']}: bus_bits must be 64, 128 or 256 (256 with hbm2)")
        lanes = c.get("vpu_lanes", c["n"])
        # type(), not isinstance(): a TOML boolean is an int in Python.
        if type(lanes) is not int or lanes < 1 or c["n"] % lanes:
            errs.append(f"config {c['name']}: vpu_lanes must divide n ({c['n']})")
    formats = {}
    for f in s["field"]:
        formats.setdefault(f["format"], []).append(f)
        if f["word"] >= s["meta"]["instr_bytes"] // 4 or f["lsb"] + f["width"] > 32:
            errs.append(f"field {f['format']}.{f['name']} does not fit its word")
    common = formats.get("common", [])
    for fmt, fields in formats.items():
        used = {}
        for f in fields + ([] if fmt == "common" else common):
            for b in range(f["lsb"], f["lsb"] + f["width"]):
                key = (f["word"], b)
                if key in used:
                    errs.append(f"{fmt}: {f['name']} overlaps {used[key]} at word {key[0]} bit {b}")
                used[key] = f["name"]
    for group in ("opcode", "fault", "status", "packet", "host_error", "buffer"):
        vals = [x["value"] for x in s[group]]
        names = [x["name"] for x in s[group]]
        if len(set(vals)) != len(vals) or len(set(names)) != len(names):
            errs.append(f"duplicate value or name in [[{group}]]")
    for e in s["enum"]:
        if len({v[1] for v in e["values"]}) != len(e["values"]):
            errs.append(f"duplicate value in enum {e['name']}")
    for b in s["mmio_block"]:
        offs = [r[1] for r in b["regs"]]
        if len(set(offs)) != len(offs):
            errs.append(f"duplicate register offset in {b['name']}")
    if errs:
        sys.exit("spec/picotpu.toml: " + "; ".join(errs))


def sv_package(s):
    m = s["meta"]
    o = ["// SPDX-License-Identifier: Apache-2.0",
         "// tpu_isa_pkg: ISA, fault codes, MMIO map and link protocol constants of picotpu.",
         "// Generated from spec/picotpu.toml by scripts/gen-spec.py: do not edit.",
         "`default_nettype none", "", "package tpu_isa_pkg;", ""]
    o.append(f"  localparam int InstrBits = {m['instr_bytes'] * 8};")
    o.append(f"  localparam logic [31:0] RtlVersion = 32'h{m['rtl_version']:08x};")
    o.append(f"  localparam int IsaVersion = {m['isa_version']};")
    o.append(f"  localparam int ProtocolVersion = {m['protocol_version']};")
    o.append("")
    o.append("  // Opcodes")
    for op in s["opcode"]:
        o.append(f"  localparam logic [3:0] Op{camel(op['name'])} = 4'd{op['value']};  // {op['queue']}")
    o.append("")
    o.append("  // Instruction fields: bit position in the instruction (32*word + lsb) and width")
    for f in s["field"]:
        n = camel(f["format"]) + camel(f["name"])
        o.append(f"  localparam int {n}Lsb = {32 * f['word'] + f['lsb']};")
        o.append(f"  localparam int {n}W = {f['width']};")
    o.append("")
    o.append("  // Buffers")
    for b in s["buffer"]:
        o.append(f"  localparam logic [1:0] Buf{camel(b['name'])} = 2'd{b['value']};")
    for e in s["enum"]:
        o.append(f"  // enum {e['name']}")
        for v in e["values"]:
            o.append(f"  localparam int {camel(e['name'])}{camel(v[0])} = {v[1]};")
    o.append("")
    o.append("  // Fault codes")
    for f in s["fault"]:
        o.append(f"  localparam logic [3:0] Fault{camel(f['name'])} = 4'd{f['value']};")
    o.append("")
    o.append("  // Performance counters (index)")
    for i, c in enumerate(s["counter"]):
        o.append(f"  localparam int Cnt{camel(c['name'])} = {i};")
    o.append(f"  localparam int NumCounters = {len(s['counter'])};")
    o.append("")
    o.append("  // MMIO: page bases and register offsets")
    for b in s["mmio_block"]:
        o.append(f"  localparam logic [31:0] Mmio{camel(b['name'])}Base = 32'h{b['base']:08x};")
        for r in b["regs"]:
            o.append(f"  localparam logic [11:0] {camel(b['name'])}{camel(r[0])} = 12'h{r[1]:03x};")
    o.append("")
    o.append("  // Link protocol")
    lk = s["link"]
    o.append(f"  localparam logic [7:0] LinkSync = 8'h{lk['sync']:02x};")
    o.append(f"  localparam int LinkHeaderBytes = {lk['header_bytes']};")
    o.append(f"  localparam int LinkCrcBytes = {lk['crc_bytes']};")
    o.append(f"  localparam logic [7:0] LinkResponseBit = 8'h{lk['response_bit']:02x};")
    o.append(f"  localparam int MailboxBytes = {lk['mailbox_bytes']};")
    o.append(f"  localparam int ByteTimeoutCycles = {lk['byte_timeout_cycles']};")
    for p in s["packet"]:
        o.append(f"  localparam logic [7:0] Pkt{camel(p['name'])} = 8'h{p['value']:02x};")
    for st in s["status"]:
        o.append(f"  localparam logic [7:0] Status{camel(st['name'])} = 8'd{st['value']};")
    o += ["", "endpackage", "", "`default_nettype wire", ""]
    return "\n".join(o)


def c_header(s, guard, what):
    m = s["meta"]
    o = ["/* SPDX-License-Identifier: Apache-2.0 */",
         f"/* {what}: ISA, fault codes, MMIO map, link protocol, error codes and",
         " * configurations of picotpu.  Generated from spec/picotpu.toml by",
         " * scripts/gen-spec.py: do not edit. */",
         f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>", ""]
    o.append(f"#define PTPU_INSTR_BYTES {m['instr_bytes']}")
    o.append(f"#define PTPU_INSTR_WORDS {m['instr_bytes'] // 4}")
    o.append(f"#define PTPU_RTL_VERSION 0x{m['rtl_version']:08x}u")
    o.append(f"#define PTPU_ISA_VERSION {m['isa_version']}")
    o.append(f"#define PTPU_PROTOCOL_VERSION {m['protocol_version']}")
    o.append("#define PTPU_ID_MAGIC 0x50545055u /* 'PTPU' */")
    o.append("")
    o.append("/* Opcodes */")
    for op in s["opcode"]:
        o.append(f"#define PTPU_OP_{upper(op['name'])} {op['value']}")
    o.append("")
    o.append("/* Instruction fields as (word, lsb, width, signed): pass to ptpu_field_get/set. */")
    for f in s["field"]:
        n = f"PTPU_F_{upper(f['format'])}_{upper(f['name'])}"
        o.append(f"#define {n} {f['word']}, {f['lsb']}, {f['width']}, {1 if f.get('signed') else 0}")
    o.append("")
    o.append("""static inline int32_t ptpu_field_get(const uint32_t *insn, int word, int lsb, int width,
                                     int is_signed)
{
    uint32_t v = insn[word] >> lsb;
    if (width < 32)
        v &= (1u << width) - 1u;
    if (is_signed && width < 32 && (v >> (width - 1)) & 1u)
        v |= ~((1u << width) - 1u);
    return (int32_t)v;
}

/* Returns 0, or -1 when the value does not fit the field (the field is then unchanged). */
static inline int ptpu_field_set(uint32_t *insn, int word, int lsb, int width, int is_signed,
                                 int64_t value)
{
    int64_t lo = is_signed ? -((int64_t)1 << (width - 1)) : 0;
    int64_t hi = is_signed ? ((int64_t)1 << (width - 1)) - 1 : ((int64_t)1 << width) - 1;
    if (value < lo || value > hi)
        return -1;
    uint32_t mask = width < 32 ? ((1u << width) - 1u) << lsb : 0xffffffffu;
    insn[word] = (insn[word] & ~mask) | (((uint32_t)value << lsb) & mask);
    return 0;
}""")
    o.append("")
    o.append("/* Buffers */")
    for b in s["buffer"]:
        o.append(f"#define PTPU_BUF_{upper(b['name'])} {b['value']}")
    for e in s["enum"]:
        o.append(f"/* {e['name']} */")
        for v in e["values"]:
            o.append(f"#define PTPU_{upper(e['name'])}_{upper(v[0])} {v[1]}")
    o.append("")
    def xlist(macro, items, prefix_val=lambda x: x["value"]):
        o.append(f"#define {macro}(X) \\")
        for i, it in enumerate(items):
            doc = it.get("doc", "").replace('"', "'")
            end = " \\" if i + 1 < len(items) else ""
            o.append(f"    X({upper(it['name'])}, {prefix_val(it)}, \"{doc}\"){end}")
    o.append("/* Fault codes: X(name, value, description) */")
    xlist("PTPU_FAULT_LIST", s["fault"])
    for f in s["fault"]:
        o.append(f"#define PTPU_FAULT_{upper(f['name'])} {f['value']}")
    o.append("")
    o.append("/* Performance counters: X(name, index, description) */")
    cnts = [dict(c, value=i) for i, c in enumerate(s["counter"])]
    xlist("PTPU_COUNTER_LIST", cnts)
    for c in cnts:
        o.append(f"#define PTPU_CNT_{upper(c['name'])} {c['value']}")
    o.append(f"#define PTPU_NUM_COUNTERS {len(cnts)}")
    o.append("")
    o.append("/* MMIO (firmware view): absolute addresses */")
    for b in s["mmio_block"]:
        o.append(f"#define PTPU_MMIO_{upper(b['name'])}_BASE 0x{b['base']:08x}u")
        for r in b["regs"]:
            o.append(f"#define PTPU_{upper(b['name'])}_{upper(r[0])} 0x{b['base'] + r[1]:08x}u")
    o.append("")
    lk = s["link"]
    o.append("/* Link protocol */")
    o.append(f"#define PTPU_LINK_SYNC 0x{lk['sync']:02x}")
    o.append(f"#define PTPU_LINK_HEADER_BYTES {lk['header_bytes']}")
    o.append(f"#define PTPU_LINK_CRC_BYTES {lk['crc_bytes']}")
    o.append(f"#define PTPU_LINK_RESPONSE_BIT 0x{lk['response_bit']:02x}")
    o.append(f"#define PTPU_MAILBOX_BYTES {lk['mailbox_bytes']}")
    o.append(f"#define PTPU_BYTE_TIMEOUT_CYCLES {lk['byte_timeout_cycles']}")
    for p in s["packet"]:
        o.append(f"#define PTPU_PKT_{upper(p['name'])} 0x{p['value']:02x}")
    o.append("/* Status codes of error responses: X(name, value, description) */")
    xlist("PTPU_STATUS_LIST", s["status"])
    for st in s["status"]:
        o.append(f"#define PTPU_STATUS_{upper(st['name'])} {st['value']}")
    o.append("")
    o.append("/* Host error codes of libpicotpu: X(name, value, description) */")
    xlist("PTPU_ERROR_LIST", s["host_error"])
    o.append("")
    o.append("/* Named configurations: X(name, n, bf16, ub_rows, wb_rows, acc_rows, vp_rows, pch, mem_kb) */")
    o.append("#define PTPU_CONFIG_LIST(X) \\")
    for i, c in enumerate(s["config"]):
        end = " \\" if i + 1 < len(s["config"]) else ""
        o.append(f"    X({c['name']}, {c['n']}, {c['bf16']}, {c['ub_rows']}, {c['wb_rows']}, "
                 f"{c['acc_rows']}, {c['vp_rows']}, {c['pch']}, {c['mem_kb']}){end}")
    o += ["", "#endif", ""]
    return "\n".join(o)


def make_fragment(s):
    o = ["# SPDX-License-Identifier: Apache-2.0",
         "# mk/configs.mk - SoC parameters of each named configuration.",
         "# Generated from spec/picotpu.toml by scripts/gen-spec.py: do not edit.", ""]
    names = [c["name"] for c in s["config"]]
    o.append("SOC_CONFIGS := " + " ".join(names))
    for c in s["config"]:
        o.append(f"SOC_CFG_{c['name']} := N={c['n']} EnableBf16={c['bf16']} UbRows={c['ub_rows']} "
                 f"WbRows={c['wb_rows']} AccRows={c['acc_rows']} VpRows={c['vp_rows']} "
                 f"NumPch={c['pch']} MemKb={c['mem_kb']} MemBackend={MEM_KINDS[c['mem']]} "
                 f"MemDataWidth={c['bus_bits']}" + (f" VpuLanes={c['vpu_lanes']}" if "vpu_lanes" in c else ""))
    o.append("")
    return "\n".join(o)


def doc_tables(s):
    o = [DOC_MARK, "", "## Reference tables", ""]
    o += ["### Configurations", "", "| name | N | bf16 | UB rows | WB rows | ACC rows | VP rows | pseudo-channels | memory | bus bits | VPU lanes | use |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in s["config"]:
        mem = f"{c['mem_kb'] // 1024} MB" if c["mem_kb"] >= 1024 else f"{c['mem_kb']} KB"
        o.append(f"| `{c['name']}` | {c['n']} | {'yes' if c['bf16'] else 'no'} | {c['ub_rows']} | {c['wb_rows']} | "
                 f"{c['acc_rows']} | {c['vp_rows']} | {c['pch'] or c['mem'].upper()} | {mem} | {c['bus_bits']} | "
                 f"{c.get('vpu_lanes', c['n'])} | {c['doc']} |")
    o += ["", "### Buffers", "", "| buffer | value | row bytes | holds |", "|---|---|---|---|"]
    for b in s["buffer"]:
        o.append(f"| `{b['name']}` | {b['value']} | {b['row_bytes']} | {b['doc']} |")
    o += ["", "### Opcodes", "", "| opcode | value | queue | does |", "|---|---|---|---|"]
    for op in s["opcode"]:
        o.append(f"| `{op['name']}` | {op['value']} | {op['queue']} | {op['doc']} |")
    fmts = []
    for f in s["field"]:
        if f["format"] not in fmts:
            fmts.append(f["format"])
    used_by = {"common": "every instruction", "dma": "LOAD, STORE", "matmul": "MATMUL", "activate": "ACTIVATE"}
    for fmt in fmts:
        o += ["", f"### Fields: {fmt} ({used_by.get(fmt, fmt)})", "",
              "| field | word | bits | signed | meaning |", "|---|---|---|---|---|"]
        for f in sorted((x for x in s["field"] if x["format"] == fmt), key=lambda x: (x["word"], x["lsb"])):
            hi = f["lsb"] + f["width"] - 1
            bits = f"{hi}:{f['lsb']}" if f["width"] > 1 else f"{f['lsb']}"
            o.append(f"| `{f['name']}` | {f['word']} | {bits} | {'yes' if f.get('signed') else ''} | {f['doc']} |")
    for e in s["enum"]:
        o += ["", f"### Enumeration `{e['name']}`", "", "| name | value | meaning |", "|---|---|---|"]
        for v in e["values"]:
            o.append(f"| `{upper(e['name'])}_{v[0]}` | {v[1]} | {v[2]} |")
    o += ["", "### Fault codes", "", "| code | name | meaning |", "|---|---|---|"]
    for f in s["fault"]:
        o.append(f"| {f['value']} | `{f['name']}` | {f['doc']} |")
    o += ["", "### Performance counters", "", "| index | name | counts |", "|---|---|---|"]
    for i, c in enumerate(s["counter"]):
        o.append(f"| {i} | `{c['name']}` | {c['doc']} |")
    o += ["", "### Register map (firmware view)", ""]
    for b in s["mmio_block"]:
        o += [f"**{b['name']}** at `0x{b['base']:08x}`: {b['doc']}", "",
              "| offset | register | access | meaning |", "|---|---|---|---|"]
        for r in b["regs"]:
            o.append(f"| `0x{r[1]:03x}` | `{r[0]}` | {r[2]} | {r[3]} |")
        o.append("")
    lk = s["link"]
    o += ["### Link packets", "",
          f"Sync byte `0x{lk['sync']:02x}`, header {lk['header_bytes']} bytes, CRC {lk['crc_bytes']} bytes, "
          f"mailbox payloads up to {lk['mailbox_bytes']} bytes; {lk['doc']}.", "",
          "| type | value | served by | request payload | response payload |", "|---|---|---|---|---|"]
    for p in s["packet"]:
        o.append(f"| `{p['name']}` | `0x{p['value']:02x}` | {p['by']} | {p['request']} | {p['response']} |")
    o += ["", "### Status codes (error responses)", "", "| code | name | meaning |", "|---|---|---|"]
    for st in s["status"]:
        o.append(f"| {st['value']} | `{st['name']}` | {st['doc']} |")
    o += ["", "### Host error codes (libpicotpu)", "", "| code | name | meaning |", "|---|---|---|"]
    for e in s["host_error"]:
        o.append(f"| {e['value']} | `PTPU_ERR_{e['name']}` | {e['doc']} |")
    o.append("")
    return "\n".join(o)


def main():
    check = "--check" in sys.argv[1:]
    with open(SPEC, "rb") as fh:
        s = tomllib.load(fh)
    check_spec(s)
    outputs = {
        ROOT / "rtl/soc/tpu_isa_pkg.sv": sv_package(s),
        ROOT / "host/include/picotpu_isa.h": c_header(s, "PICOTPU_ISA_H", "picotpu_isa.h"),
        ROOT / "mk/configs.mk": make_fragment(s),
    }
    doc = ROOT / "docs/isa.md"
    text = doc.read_text()
    head = text.split(DOC_MARK)[0].rstrip("\n") + "\n\n"
    outputs[doc] = head + doc_tables(s)
    stale = []
    for path, content in outputs.items():
        old = path.read_text() if path.exists() else None
        if old != content:
            stale.append(path.relative_to(ROOT))
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content)
    if check and stale:
        for p in stale:
            print(f"spec-check: {p} is stale; run scripts/gen-spec.py", file=sys.stderr)
        sys.exit(1)
    if not check:
        for p in stale:
            print(f"gen-spec: wrote {p}")


if __name__ == "__main__":
    main()

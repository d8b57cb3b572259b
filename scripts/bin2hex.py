#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bin2hex.py - a firmware .bin as the $readmemh image of the SoC's firmware RAM.

One little-endian 32-bit word per line, padded with zero words to the size of the
RAM (tpu_soc FwRamKb), so that every word of the block RAM has a defined initial
value.  Stops with an error if the image does not fit.

  scripts/bin2hex.py --ram-kb 8 build/fw/ptpu_cp.bin build/boards/icebreaker/fw.hex
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ram-kb", type=int, required=True, help="firmware RAM size in KB")
    ap.add_argument("bin", help="firmware image (objcopy -O binary), loaded at address 0")
    ap.add_argument("hex", help="output, one 32-bit word per line")
    a = ap.parse_args()
    with open(a.bin, "rb") as f:
        data = f.read()
    ram = a.ram_kb * 1024
    if a.ram_kb <= 0 or ram & (ram - 1):
        sys.exit(f"bin2hex: --ram-kb {a.ram_kb} is not a power of two")
    if len(data) > ram:
        sys.exit(f"bin2hex: {a.bin} is {len(data)} bytes, the firmware RAM holds {ram}")
    used = len(data)
    data += bytes(ram - used)
    with open(a.hex, "w") as f:
        f.write(f"// {a.bin}: {used} bytes in a {ram}-byte RAM (scripts/bin2hex.py)\n")
        for i in range(0, ram, 4):
            f.write(f"{int.from_bytes(data[i:i + 4], 'little'):08x}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

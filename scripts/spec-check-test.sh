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
echo "PASS spec-check: generated files match spec/picotpu.toml; a stale copy is detected"

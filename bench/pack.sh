#!/usr/bin/env bash
# Builds what bench/device.sh needs on the GPU machine: out/bench (bench/build.sh)
# and a stripped, xz-compressed tritium binary in out/tools (the device tool
# carries at most 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
bash bench/build.sh
mkdir -p out/tools
strip -o out/tools/tritium target/release/tritium
xz -T0 -6 -f out/tools/tritium

#!/usr/bin/env bash
# What the GPU machine runs (device tool, carrying out/bench and out/tools):
# the kernel harness, then the compile-time comparison with the tritium
# binary built here (out/tools/tritium.xz, made by bench/pack.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}; mkdir -p "$out"
PYTHONUNBUFFERED=1 python3 bench/harness.py --out "$out" ${HARNESS_ARGS:-}
if [ -f out/tools/tritium.xz ] && [ -z "${SKIP_COMPILE_TIME:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('out/tools/tritium.xz'), open('/tmp/tritium','wb'))"
  chmod +x /tmp/tritium
  python3 bench/compile_time.py --tritium /tmp/tritium --repeat 5 2> "$out/compile_time.json" | tee "$out/compile_time.md"
fi

#!/usr/bin/env bash
# Builds the ConSan GPU check's PTX here (no GPU needed): each kernel with and
# without the concurrency sanitizer, into out/consan/<kernel>[.consan]/.
# Then on the GPU machine: python3 bench/consan/run.py (carry out/consan).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${TT_OPT_DIR:-target/debug}
out=out/consan
rm -rf "$out" && mkdir -p "$out"
for kernel in ws_race ws_synced; do
  "$bin/tritium" compile "bench/consan/$kernel.ttgir" -o "$out/$kernel"
  "$bin/tritium" compile "bench/consan/$kernel.ttgir" --instrumentation-mode consan -o "$out/$kernel.consan"
done
ls "$out"

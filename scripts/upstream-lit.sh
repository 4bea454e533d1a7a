#!/usr/bin/env bash
# Upstream Triton 3.6's lit tests (../shared/upstream-tests/triton-3.6/test) through
# tt-opt, case by case: a per-file table (cases, passed, failed by reason) and a total.
# Blackwell-only and AMD RUN lines (and chunks for such targets) are listed as skipped.
#
#   scripts/upstream-lit.sh                # table
#   scripts/upstream-lit.sh -v             # and every failing case with its first error
#   scripts/upstream-lit.sh --check-floor  # fail when fewer cases pass than test/upstream/lit-floor.txt
#   scripts/upstream-lit.sh --parse        # input chunks upstream's parser reads and tt-opt does not
#   scripts/upstream-lit.sh TritonGPU/coalesce.mlir   # one file (path under the upstream test folder)
#
# Says "skipped" and succeeds when ../shared is absent. Needs a built tt-opt
# (cargo build -p tt-opt; TT_OPT_DIR to use another).
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
for a in "$@"; do
  if [[ $a == --check-floor ]]; then args+=(--floor test/upstream/lit-floor.txt); else args+=("$a"); fi
done
exec python3 test/upstream/upstream_lit.py "${args[@]}"

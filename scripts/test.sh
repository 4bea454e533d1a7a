#!/usr/bin/env bash
# Runs every test, after the lints (cargo fmt --check, cargo clippy -D
# warnings): the pure-Rust layout tests and the integration binary (the lit
# suite under test/, corpus round trips, Rust API, malformed input, CSE/DCE,
# snapshots). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Lint first: formatting (rustfmt.toml) and clippy with warnings as errors.
# Index loops over several parallel register arrays read better than zips,
# so clippy's needless_range_loop is off.
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings -A clippy::needless_range_loop
cargo build -p tt-opt -p tritium
cargo test --workspace
# Upstream's own lit suite through tt-opt: fails when fewer cases pass than the
# committed floor (prints "skipped" when ../shared is absent).
scripts/upstream-lit.sh --check-floor
# Fuzz smoke (RELIABILITY.md, "Fuzzing"): 90 s of mutated corpus and regression IR through
# tt-opt's parser, the TTIR -> TTGIR pipeline and `tritium compile`; a crash, an internal
# error (exit 2) or a timeout fails. A fixed seed, so that a failure reproduces with the same
# command; `scripts/fuzz.sh --mutation SECONDS SEED` explores others, `scripts/fuzz.sh` runs
# the libFuzzer targets (not in CI: their build takes ~30 minutes).
scripts/fuzz.sh --mutation 90 1129
# The Python package, the Triton plug-in and the C API (CPU side).
scripts/test_python.sh
# The workload kernels (bench/workloads: LLM training and serving kernels): every one upstream's
# frontend compiles (CPU), Tritium compiles from its TTIR and TTGIR, ptxas included (~2 minutes).
if .tools/venv/bin/python -c "import triton" 2>/dev/null; then
  .tools/venv/bin/python bench/workloads/check.py compile --out target/workloads > target/workloads.log 2>&1 ||
    { grep -v ": ttir ok | ttgir ok" target/workloads.log | tail -40; exit 1; }
  tail -1 target/workloads.log
else
  echo "workloads: skipped (no triton in .tools/venv)"
fi

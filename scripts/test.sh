#!/usr/bin/env bash
# Runs every test: the pure-Rust layout tests and the integration binary (the
# lit suite under test/, corpus round trips, Rust API, malformed input,
# CSE/DCE). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build -p tt-opt -p tritium
cargo test --workspace
# Upstream's own lit suite through tt-opt: fails when fewer cases pass than the
# committed floor (prints "skipped" when ../shared is absent).
scripts/upstream-lit.sh --check-floor
# The Python package, the Triton plug-in and the C API (CPU side).
scripts/test_python.sh

#!/usr/bin/env bash
# Runs every test: the pure-Rust layout tests and the integration binary (the
# lit suite under test/, corpus round trips, Rust API, malformed input,
# CSE/DCE). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build -p tt-opt -p tritium
cargo test --workspace
# The Python package, the Triton plug-in and the C API (CPU side).
scripts/test_python.sh

#!/usr/bin/env bash
# Tests of the Python package (python/), the Triton plug-in and the C API
# (capi/, and the Rust embedding example), on the CPU: builds the abi3 wheel with maturin and installs it in
# .tools/venv, builds libtritium.so and the C example, then runs
# python/tests/test_tritium.py (identical PTX through `tritium compile`, the
# C API, tritium.compile and the plug-in; errors; fallback; the .pth hook).
# Installs maturin and triton==3.6.0 in .tools/venv when missing (idempotent);
# without triton the plug-in tests say SKIP. Needs target/debug/tritium.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.tools/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# `python -m pip`, not bin/pip: a copied venv's scripts point at the original.
py="$venv/bin/python"
if ! "$py" -c "import maturin" 2>/dev/null; then
  "$py" -m pip install -q --disable-pip-version-check "maturin==1.16.0"
fi
if ! "$py" -c "import triton" 2>/dev/null; then
  "$py" -m pip install -q --disable-pip-version-check "triton==3.6.0" ||
    echo "test_python: triton==3.6.0 could not be installed; the plug-in tests will be skipped"
fi
"$py" -m maturin build -q -m python/Cargo.toml --interpreter "$py" --out target/wheels
"$py" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall target/wheels/tritium-*-cp39-abi3-*.whl
cargo build -q -p tritium -p tritium-capi
cargo build -q -p tritium-capi --example embed
mkdir -p target/capi
cc -std=c99 -Wall -Werror -Icapi/include capi/examples/compile.c -Ltarget/debug -ltritium \
  -Wl,-rpath,"$PWD/target/debug" -o target/capi/compile
source scripts/cuda-tools.sh
# Triton's cubin stage runs Triton's bundled ptxas (TRITON_PTXAS_PATH overrides it).
"$py" python/tests/test_tritium.py target/debug/tritium target/capi/compile target/debug/examples/embed
# The GPU harness's CPU-side logic (case lists, small racecheck shapes, summaries), with torch and
# the CUDA bindings mocked (it imports the kernels' triton.jit sources: needs triton).
if "$py" -c "import triton" 2>/dev/null; then
  "$py" bench/harness_cpu_check.py > /dev/null
else
  echo "test_python: bench/harness_cpu_check.py skipped (no triton)"
fi

#!/usr/bin/env bash
# Packs the tritium wheel for the GPU machine (the device tool carries at most
# 64 MiB): the wheel's files, native library stripped, as an xz tar to extract
# into site-packages there (out/py/tritium-site.tar.xz), plus upstream's Python
# tests and tutorials (from ../shared) under out/py/. Builds the wheel first
# (maturin, release profile) unless WHEEL names one.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.tools/venv/bin/python
if [ -z "${WHEEL:-}" ]; then
  # The release profile: test_core.py compiles thousands of kernels (pyproject.toml says dev for CI).
  "$py" -m maturin build -q --release -m python/Cargo.toml --interpreter "$py" --out target/wheels-release
  WHEEL=$(ls -t target/wheels-release/tritium-*-cp39-abi3-*.whl | head -1)
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
"$py" -m zipfile -e "$WHEEL" "$stage"
find "$stage" -name "*.so" -exec strip --strip-unneeded {} \;
# What pip would do with the wheel's data: tritium.pth goes to site-packages itself.
for data in "$stage"/*.data/purelib; do
  [ -d "$data" ] && cp -r "$data"/. "$stage"/ && rm -rf "$(dirname "$data")"
done
mkdir -p out/py
tar -C "$stage" -cJf out/py/tritium-site.tar.xz .
shared=../shared/upstream-tests/triton-3.6/python
if [ -d "$shared" ]; then
  chmod -R u+w out/py/test out/py/tutorials 2>/dev/null || true
  rm -rf out/py/test out/py/tutorials
  mkdir -p out/py/test/unit/language
  cp "$shared"/test/conftest.py out/py/test/
  cp "$shared"/test/unit/language/*.py out/py/test/unit/language/ 2>/dev/null || true
  cp -r "$shared"/tutorials out/py/tutorials && chmod -R u+w out/py/tutorials
fi
ls -la out/py/tritium-site.tar.xz

#!/usr/bin/env bash
# Installs what Tritium needs on Debian 12 and is missing: LLVM/MLIR 22 from
# Debian's packages (static libraries, mlir-tblgen, lit, FileCheck), CMake,
# Ninja and lld; and, in a virtual environment under .tools/ (pip), CUDA's
# ptxas and libdevice, which check and complete the PTX Tritium emits.
# Idempotent: when everything is there it returns in a second.
# Needs the machine's Rust toolchain (cargo) already installed.
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libclang-22-dev clang-22 lld-22
  libpolly-22-dev libzstd-dev libz3-dev libxml2-dev zlib1g-dev cmake ninja-build python3 python3-venv
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

command -v cargo >/dev/null || { echo "setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }
# The lints of scripts/test.sh need rustfmt and clippy (rustup's default
# profile has them; a minimal one does not).
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi
test -x /usr/lib/llvm-22/bin/mlir-tblgen || { echo "setup: MLIR 22 is not where expected" >&2; exit 1; }
# ptxas (assembles Tritium's PTX in the tests), libdevice, and nvdisasm (the
# tests look for Hopper's tensor-core instructions in the SASS), from NVIDIA's
# wheels: no GPU or CUDA install needed.
cd "$(dirname "$0")/.."
venv=.tools/venv
if ! compgen -G "$venv/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas" >/dev/null ||
   ! compgen -G "$venv/lib/python3*/site-packages/nvidia/cu13/bin/nvdisasm" >/dev/null; then
  echo "setup: installing ptxas, libdevice and nvdisasm (NVIDIA's wheels) into $venv"
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "nvidia-cuda-nvcc-cu12==12.9.86" "nvidia-cuda-nvdisasm==13.5.37"
fi
echo "setup: ok"

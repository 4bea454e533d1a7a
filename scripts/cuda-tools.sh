# Sourced by the scripts: exports PTXAS and LIBDEVICE from the wheel that
# scripts/setup.sh installs under .tools/ (unless they are already set).
for nvcc in "$(dirname "${BASH_SOURCE[0]}")"/../.tools/venv/lib/python3*/site-packages/nvidia/cuda_nvcc; do
  [ -d "$nvcc" ] || continue
  nvcc=$(cd "$nvcc" && pwd)
  export PTXAS=${PTXAS:-$nvcc/bin/ptxas}
  export LIBDEVICE=${LIBDEVICE:-$nvcc/nvvm/libdevice/libdevice.10.bc}
done

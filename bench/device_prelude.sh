# Sourced by the bench/gpu_*.sh scripts on the GPU machine, from the repository root: installs
# the packed wheel (out/py/tritium-site.tar.xz, made by bench/pack_wheel.sh) into site-packages
# and, where it was carried, unpacks the harness's bundles (out/bench.tar.xz, bench/build.sh).
SP=$(python3 -c 'import site; print(site.getsitepackages()[0])')
tar -C "$SP" -xJf out/py/tritium-site.tar.xz
if [ -f out/bench.tar.xz ]; then
  rm -rf out/bench && tar -C out -xJf out/bench.tar.xz
fi

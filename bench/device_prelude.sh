# Sourced by the bench/gpu_*.sh scripts on the GPU machine, from the repository root: installs
# the packed wheel (out/py/tritium-site.tar.xz, made by bench/pack_wheel.sh) into site-packages
# and, where it was carried, unpacks the harness's bundles (out/bench.tar.xz, bench/build.sh).
SP=$(python3 -c 'import site; print(site.getsitepackages()[0])')
tar -C "$SP" -xJf out/py/tritium-site.tar.xz
if [ -f out/bench.tar.xz ]; then
  rm -rf out/bench && tar -C out -xJf out/bench.tar.xz
fi

# harness_run NAME LIMIT [FILTER]: bench/harness.py (the cases FILTER matches, or all) with its
# results in $OUT/NAME and its output in $OUT/NAME.log, stopped after LIMIT seconds; prints its
# exit status. HARNESS_ARGS: more arguments for the harness (e.g. --variant NAME).
harness_run() {
  mkdir -p "$OUT/$1"
  timeout "$2" python3 bench/harness.py ${3:+--filter "$3"} $HARNESS_ARGS --out "$OUT/$1" > "$OUT/$1.log" 2>&1
  echo "$1 rc=$?"
}

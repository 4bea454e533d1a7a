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

# summary NAME: one line per row of $OUT/NAME.log: case, shape, every timed column / upstream's PTX
# column (Triton's JIT, Tritium, variants), and the columns whose result was wrong.
summary() {
  python3 - "$OUT/$1.log" <<'PY'
import json, sys
for r in (json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")):
    u = r.get("triton_ptx_ms")
    if not u:
        print(r["kernel"], r["shape"], r.get("error", "no upstream time")); continue
    cells = [f"{k[:-3]}={r[k] / u:.3f}" for k in r if k.endswith("_ms") and k not in ("triton_ptx_ms", "torch_ms") and not k.endswith("_sustain_ms") and r.get(k)]
    bad = [k[:-3] for k in r if k.endswith("_ok") and not r[k]]
    print(f"{r['kernel']:44s} {r['shape']:18s} " + " ".join(cells) + (f"  WRONG {bad}" if bad else ""))
PY
}

# upstream_tests FILE:TIMEOUT...: each file of upstream's unit/language tests (out/py/test, from
# bench/pack_wheel.sh) through the plug-in, stopped after TIMEOUT s; results in $OUT/FILE, its
# summary (counts, top failure causes) in $OUT/FILE-summary.log, whose head is printed.
upstream_tests() {
  for t in "$@"; do
    CAUSES=20 PYTEST_TIMEOUT=${t#*:} bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/${t%%:*}.py \
      $OUT/${t%%:*} > $OUT/${t%%:*}-summary.log 2>&1
    echo "== ${t%%:*}"; head -8 $OUT/${t%%:*}-summary.log
  done
}

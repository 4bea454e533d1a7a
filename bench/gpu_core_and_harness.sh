# On the GPU machine, carrying out/py (bench/pack_wheel.sh) and out/bench.tar.xz (bench/build.sh,
# then tar -C out -cJf out/bench.tar.xz bench): test_core through the plug-in while initcheck runs; then the harness.
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
mkdir -p out/san
(for t in cuda90 cuda80; do OUT=out/san/init-$t timeout 250 bash bench/sanitize.sh --tools initcheck --targets $t > out/san/init-$t.txt 2>&1; echo "exit $?" >> out/san/init-$t.txt; done) &
echo "===== test_core"
CAUSES=25 PYTEST_TIMEOUT=240 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_core.py /tmp/core > $OUT/core-summary.log 2>&1
head -40 $OUT/core-summary.log
wait
for t in cuda90 cuda80; do tail -3 out/san/init-$t.txt; tail -3 out/san/init-$t/sanitize.md; done
tar -C out -czf $OUT/san.tar.gz san
echo "===== harness"
mkdir -p $OUT/sm90
timeout 200 python3 bench/harness.py --out $OUT/sm90 --filter 'tma|desc|attn|fp8|matmul_ref|persistent' > $OUT/harness.log 2>&1; echo rc=$?
grep -v "^#" $OUT/harness.log | tail -45

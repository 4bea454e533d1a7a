# On the GPU machine, carrying out/py (bench/pack_wheel.sh) and out/ws (the bundles of
# test/fixtures/warp_specialize/gpu_check*.py): warp-specialized attention and matmul bundles, then upstream's
# Hopper tests through the plug-in (descriptors made in loops, membar's mbarrier filter).
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
echo "===== attention (ws)"; timeout 150 python3 test/fixtures/warp_specialize/gpu_check_attention.py out/ws > $OUT/attn.log 2>&1; echo rc=$?; tail -25 $OUT/attn.log
echo "===== matmul (ws)"; timeout 90 python3 test/fixtures/warp_specialize/gpu_check.py out/ws > $OUT/wsmm.log 2>&1; echo rc=$?; tail -12 $OUT/wsmm.log
for spec in test_tensor_descriptor:230 test_warp_specialization:80 test_pipeliner:60; do
  f=${spec%%:*}; t=${spec##*:}
  echo "===== $f (limit $t s)"
  CAUSES=25 PYTEST_TIMEOUT=$t bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/$f.py /tmp/$f > $OUT/$f-summary.log 2>&1
  head -30 $OUT/$f-summary.log
done

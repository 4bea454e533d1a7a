#!/usr/bin/env bash
# Device calls of session 12: is the gap on the last rows above 1.00 LLVM 22.1.8's new straight-line
# strength reduction (SLSR, llvm-project #169614, relanded 2025-11-26, after upstream 3.6's LLVM
# 49d5bb0)? Experiment columns, all from Tritium's own LLVM IR of upstream's TTGIR except up22:
#   noslsr: Debian's llc 22.1.8 with SLSR disabled (--debug-counter=slsr-counter=100000000);
#   tri49:  upstream's bundled LLVM (49d5bb0, old SLSR; triton's llvm.translate_to_asm);
#   up22:   upstream's own LLVM IR through Debian's llc 22.1.8 (bench/upstream_ir_llc.py).
# PART=1: the wgmma kernels with the three columns, then the rows of interest re-timed.
# PART=2: nostm: Tritium with the convert-layout planner's stmatrix candidates left out (a one-off
#         build whose transfer.rs plan_whole skipped candidates with `write.mode` set: upstream's
#         st.shared + ldmatrix epilogue instead), on the kernels whose PTX it changes; the tut03 rows
#         re-timed. The rule kept from it: stmatrix only where it saves wavefronts (fd16fdc).
# PART=3: the whole harness (after the session's two changes: that rule, and each global-scratch
#         allocation's own copy of program * size); rows not correct or above 1.00 listed.
# PART=4: tma_matmul (the one row above 1.05 there, 1.054 at 8192^3; 0.985-1.003 on another machine)
#         and matmul_ref_s3 run back to back for SUSTAIN_MS per column with nvidia-smi sampling the SM
#         clock and power; then upstream's tests through the plug-in (wheel from bench/pack_wheel.sh):
#         test_core, test_matmul, test_tensor_descriptor, test_warp_specialization.
# PART=5: the same sustained timing with the column wait0 (Tritium's PTX with every
#         `wgmma.wait_group 1` made 0, as ptxas serializes upstream's tma_matmul: C7515), for
#         tma_matmul, matmul_ref_s3 and persist_tma_matmul_f16 (made here with sed, see session 11).
# PART=6: wait0 on the other wgmma kernels, by warpgroups resident per SM (CTAs by shared memory
#         and ptxas's registers x warpgroups per CTA): 4 (tma_matmul, device_desc_matmul, matmul_bf16,
#         matmul_grouped_f16) against 2 (matmul_tf32, tut08, tut03 128x128 and 64x256).
# PART=7: after the rule ops/wgmma.rs keeps from PART=4-6 (wgmma.wait_group 0 from 4 resident
#         warpgroups per SM): the kernels whose PTX it changes (out/bench/tritium and tritium-ttir
#         rebuilt for them), timed twice.
# PART=8: upstream's tests through the plug-in after all three changes (wheel rebuilt):
#         test_matmul, test_pipeliner, test_conversions.
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh; python3 bench/llvm_variants.py;
#         python3 bench/upstream_ir_llc.py tut03_matmul_64x256x32_s4w4 persist_device_desc_matmul_f16
#         tut03_matmul_128x128x32_s4w4_leaky_relu; tar -C out -cJf out/bench.tar.xz bench
# There:  PART=1 bash bench/gpu_session12.sh (carry out/py, out/bench.tar.xz; move
#         test/fixtures/corpus/ir aside for the call)
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
sustain_summary() {  # NAME: per row, the interleaved ratio, then each column's sustained time, MHz, W
  python3 - "$OUT/$1.log" <<'PY'
import json, sys
for r in (json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")):
    cells = [f"{who}: {r[who + '_sustain_ms']:.4f} ms {r.get(who + '_sm_mhz', 0):.0f} MHz {r.get(who + '_watts', 0):.0f} W"
             for who in ("tritium", "triton_ptx", "variant_wait0") if r.get(who + "_sustain_ms")]
    ratio = r["tritium_ms"] / r["triton_ptx_ms"] if r.get("tritium_ms") and r.get("triton_ptx_ms") else 0
    print(f"{r['kernel']:14s} {r['shape']:10s} interleaved {ratio:.3f} | " + " | ".join(cells), r.get("error", ""))
PY
}
WGMMA='^(tma_matmul|device_desc_matmul|batched_desc|matmul_(ref|bf16|fp8|tf32|grouped|i8)|persist_|ws_|tut03_|tut08|tut09|attn_fwd_tma|early_return_(dot|moe))'
if [ "${PART:-1}" = 1 ]; then
  HARNESS_ARGS="--variant noslsr --variant tri49 --variant up22" harness_run slsr 420 "$WGMMA"; head -1 $OUT/slsr.log; summary slsr
  HARNESS_ARGS="--variant noslsr --variant tri49 --variant up22" harness_run slsr_re 120 '^(tma_matmul|tut03_matmul_(64x256|128x128x32_s4w4_leaky))'; summary slsr_re
fi
if [ "${PART}" = 2 ]; then
  HARNESS_ARGS="--variant nostm" harness_run nostm 300 '^(matmul_(fp8|ref)|tut03_|tut08|tut09_persistent_128x256|transpose_3d)'; head -1 $OUT/nostm.log; summary nostm
  HARNESS_ARGS="--variant nostm" harness_run nostm_re 100 '^tut03_matmul_(64x256|128x128x32_s4w4)'; summary nostm_re
fi
if [ "${PART}" = 3 ]; then
  harness_run harness90 ${LIMIT:-470}; head -1 $OUT/harness90.log
  echo "===== rows not correct, or ratio above 1.00"; summary harness90 | awk '/WRONG|error/ || / tritium=1\.(00[1-9]|0[1-9]|[1-9])/'
  grep -c '^{' $OUT/harness90.log; tail -6 $OUT/harness90.log
fi
if [ "${PART}" = 4 ]; then
  SUSTAIN_MS=${SUSTAIN_MS:-3000} LAUNCHERS=tritium,triton_ptx harness_run sustain 150 '^(tma_matmul|matmul_ref_s3)'
  sustain_summary sustain
  CAUSES=20 PYTEST_TIMEOUT=200 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_core.py $OUT/core > $OUT/core-summary.log 2>&1
  echo "== test_core"; head -12 $OUT/core-summary.log
  upstream_tests test_matmul:100 test_tensor_descriptor:100 test_warp_specialization:100
fi
if [ "${PART}" = 5 ]; then
  SUSTAIN_MS=${SUSTAIN_MS:-3000} LAUNCHERS=tritium,triton_ptx,variant_wait0 HARNESS_ARGS="--variant wait0" \
    harness_run wait0 150 '^(tma_matmul|matmul_ref_s3|persist_tma_matmul_f16)'
  summary wait0; sustain_summary wait0
fi
if [ "${PART}" = 6 ]; then
  SUSTAIN_MS=${SUSTAIN_MS:-2000} LAUNCHERS=tritium,triton_ptx,variant_wait0 HARNESS_ARGS="--variant wait0" \
    harness_run wait0b 240 '^(tma_matmul|device_desc_matmul|matmul_(bf16|grouped_f16|tf32)|tut08|tut03_matmul_(128x128x32_s4w4 |64x256))'
  summary wait0b; sustain_summary wait0b
fi
if [ "${PART}" = 7 ]; then
  for i in 1 2; do
    harness_run waitrule$i 120 '^(tma_matmul|device_desc_matmul|matmul_(bf16|grouped_f16|tf32)|early_return_(dot|moe))'; summary waitrule$i
  done
fi
if [ "${PART}" = 8 ]; then
  upstream_tests test_matmul:90 test_pipeliner:50 test_conversions:50
fi

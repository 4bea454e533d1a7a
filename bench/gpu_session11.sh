#!/usr/bin/env bash
# Device calls of session 11: the harness's PTX columns assembled by the ptxas Triton ships (as
# upstream's JIT and Tritium's plug-in run them; before, the driver's PTX JIT), and the wgmma
# wait experiment: Tritium's PTX with every in-loop `wgmma.wait_group 1` made `0` as a fourth
# column (out/bench/wait0, made here by the sed below before packing).
# PART=1: the wgmma kernels of the harness (matmuls, persistent, warp-specialized, TMA attention)
#         with the wait0 column; then the rows above 1.00 re-timed.
# PART=2: the same rows with DRIVER_JIT=1 (the driver's PTX JIT, the harness's old way).
# PART=3: the whole harness (SASS from Triton's ptxas); the rows above 1.00 listed.
# PART=4: the rows PART=3 found above 1.00 among the matmuls and attention, timed RETIMES times
#         (default 2), after the PTX launcher loads kernels as Triton's launcher does (carveout).
# PART=5: tut03_matmul_64x256 and tma_matmul with two experiment columns: wait0 (above) and uorder,
#         Tritium's PTX with each run of 8 B-tile cp.async copies issued in upstream's order
#         (rows 0,2,4,6,1,3,5,7; made by bench/ptx_reorder_copies.py), each case timed twice.
# PART=6 (not run yet): the column up22, upstream's own LLVM IR through Debian's llc 22 (made here by
#         `python3 bench/upstream_ir_llc.py tut03_matmul_64x256x32_s4w4 persist_device_desc_matmul_f16
#         tut03_matmul_128x128x32_s4w4_leaky_relu` before packing): is the gap LLVM 22.1.8's codegen?
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh      (out/bench)
#         mkdir -p out/bench/wait0/cuda90; for f in out/bench/tritium/cuda90/*.ptx; do
#           grep -q 'wgmma.wait_group.sync.aligned 1' $f && sed 's/wgmma.wait_group.sync.aligned 1;/wgmma.wait_group.sync.aligned 0;/' \
#             $f > out/bench/wait0/cuda90/$(basename $f); done
#         tar -C out -cJf out/bench.tar.xz bench; bash bench/pack_wheel.sh   (out/py)
# There:  PART=1 bash bench/gpu_session11.sh   (carry out/py, out/bench.tar.xz; move
#         test/fixtures/corpus/ir aside for the call: the device tool carries 64 MiB)
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
WGMMA='^(tma_matmul|device_desc_matmul|batched_desc|matmul_(ref|bf16|fp8|tf32|grouped)|persist_|ws_|tut03_|tut08|tut09|attn_fwd_tma|early_return_(dot|moe))'
if [ "${PART:-1}" = 1 ]; then
  HARNESS_ARGS="--variant wait0" harness_run wgmma 400 "$WGMMA"; head -1 $OUT/wgmma.log; summary wgmma
  HARNESS_ARGS="--variant wait0" harness_run retime 150 '^(tma_matmul|tut03_matmul_64x256|ws_|persist_tma_matmul_f16)'; summary retime
elif [ "${PART}" = 4 ]; then
  for i in $(seq 1 ${RETIMES:-2}); do
    harness_run noisy$i 200 '^(tma_matmul|persist_device_desc|persist_tma_matmul_f16|tut03_matmul_(64x256|128x128x32_s4w4 |64x32)|matmul_(ref_s4|bf16)|ws_(device|persistent)_desc_matmul |ws_device_desc_matmul_128|attn_fwd_tma_d64|attn_fwd_d64|attn_ref_d128 )'
    summary noisy$i
  done
elif [ "${PART}" = 5 ]; then
  for i in 1 2; do
    HARNESS_ARGS="--variant wait0 --variant uorder" harness_run order$i 120 '^(tut03_matmul_64x256|tma_matmul)'; summary order$i
  done
elif [ "${PART}" = 6 ]; then
  for i in 1 2; do
    HARNESS_ARGS="--variant up22" harness_run up22_$i 150 '^(tut03_matmul_64x256|persist_device_desc|tut03_matmul_128x128x32_s4w4_leaky)'
    summary up22_$i
  done
elif [ "${PART}" = 3 ]; then
  harness_run harness90 ${LIMIT:-560}; head -1 $OUT/harness90.log
  echo "===== rows not correct, or ratio above 1.00"; summary harness90 | awk '/WRONG|error/ || / tritium=1\.(00[1-9]|0[1-9]|[1-9])/'
  grep -c '^{' $OUT/harness90.log; tail -6 $OUT/harness90.log
else
  export DRIVER_JIT=1
  HARNESS_ARGS="--variant wait0" harness_run driverjit 300 '^(tma_matmul|tut03_matmul_64x256|ws_(device|persistent)|persist_tma_matmul_f16|matmul_fp8_e4m3$)'; head -1 $OUT/driverjit.log; summary driverjit
fi

// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm --convert-nv-gpu-to-llvm | FileCheck %s
// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm | FileCheck %s --check-prefix=NVG

// A scalar atomic add of zero with relaxed or acquire ordering only reads:
// it becomes a load with that ordering and scope (upstream's promotion to
// ld.acquire); with release semantics, or adding anything else, it stays an
// atomic. The lowering makes the load an nvg.ld_acquire, as upstream's does;
// convert-nv-gpu-to-llvm makes it PTX.
// NVG-LABEL: llvm.func @poll
// NVG: nvg.ld_acquire acquire, gpu
// NVG: nvg.ld_acquire relaxed, sys
// NVG-NOT: nvg.ld_acquire
// CHECK-LABEL: llvm.func @poll
// CHECK: "mov.u32 $0, 0x0;\0A\09@$2 ld.global.gpu.acquire.b32 $0, [ $1 + 0 ];", "=r,l,b"
// CHECK: "mov.u32 $0, 0x0;\0A\09@$2 ld.global.sys.relaxed.b32 $0, [ $1 + 0 ];", "=r,l,b"
// CHECK: atom.global.gpu.acq_rel.add.f32
// CHECK: atom.global.cta.acquire.add.u32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @poll(%flag: !tt.ptr<f32>, %count: !tt.ptr<i32>, %out: !tt.ptr<f32>, %out_i: !tt.ptr<i32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %zero_i = arith.constant 0 : i32
    %one_i = arith.constant 1 : i32
    %yes = arith.constant true
    %a = tt.atomic_rmw fadd, acquire, gpu, %flag, %zero, %yes : (!tt.ptr<f32>, f32, i1) -> f32
    %b = tt.atomic_rmw add, relaxed, sys, %count, %zero_i, %yes : (!tt.ptr<i32>, i32, i1) -> i32
    %c = tt.atomic_rmw fadd, acq_rel, gpu, %flag, %zero, %yes : (!tt.ptr<f32>, f32, i1) -> f32
    %d = tt.atomic_rmw add, acquire, cta, %count, %one_i, %yes : (!tt.ptr<i32>, i32, i1) -> i32
    %s1 = arith.addf %a, %c : f32
    %s2 = arith.addi %b, %d : i32
    tt.store %out, %s1 : !tt.ptr<f32>
    tt.store %out_i, %s2 : !tt.ptr<i32>
    tt.return
  }
}

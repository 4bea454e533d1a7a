// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm='ptx-version=80' | FileCheck %s --check-prefix=PTX80

// Instructions newer than the PTX version asked for are not used: vector
// atomics need PTX 8.1, so with ptx-version=80 contiguous f16 adds go in
// pairs (f16x2) as before sm_90.
// CHECK-LABEL: llvm.func @add_halves
// CHECK: atom.global.gpu.relaxed.add.noftz.v4.f16
// CHECK-NOT: f16x2
// PTX80-LABEL: llvm.func @add_halves
// PTX80-COUNT-2: atom.global.gpu.relaxed.add.noftz.f16x2
// PTX80-NOT: .v4.f16
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @add_halves(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: tensor<512xf16, #blocked>) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #blocked>
    %pa = tt.addptr %ps, %range : tensor<512x!tt.ptr<f16>, #blocked>, tensor<512xi32, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pa, %v : (tensor<512x!tt.ptr<f16>, #blocked>, tensor<512xf16, #blocked>) -> tensor<512xf16, #blocked>
    tt.return
  }
}

// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=80' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// cp.async copies into shared memory: the copy is a cp.async of 16 bytes per
// thread (all of them read: src-size = cp-size), the commit and the wait are NVVM's ops (LLVM prints them as
// upstream's PTX has them, `cp.async.wait_group \t2;`), and the wait is
// followed by the barrier that makes the other threads' copies visible.
// CHECK: llvm.func @copy_then_wait
// CHECK: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, 0x10;"
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 2
// CHECK: nvvm.barrier0
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_then_wait(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %buffer = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %token = ttg.async_copy_global_to_local %xa, %buffer : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
    %group = ttg.async_commit_group tokens %token
    %done = ttg.async_wait %group {num = 2 : i32}
    %v = ttg.local_load %buffer token %done : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %v : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

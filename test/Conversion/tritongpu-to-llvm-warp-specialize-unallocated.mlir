// RUN: not tt-opt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm 2>&1 | FileCheck %s

// A ttg.warp_specialize before tritongpu-allocate-warp-groups (no
// warpGroupStartIds): its partitions are lowered as long as none needs its
// thread or warp ids, as upstream's lowering does (it asks for them only
// where an op uses them); one that does is a located error.

// CHECK: warp-specialize-unallocated.mlir:[[# @LINE + 4]]:5: error: 'ttg.warp_specialize': a partition uses thread or warp ids, which need warpGroupStartIds: run tritongpu-allocate-warp-groups first
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @ids_needed(%p: !tt.ptr<i32>) {
    ttg.warp_specialize(%p)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<i32>) num_warps(2) {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
      %s = tt.splat %q : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
      %a = tt.addptr %s, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
      tt.store %a, %r : tensor<64x!tt.ptr<i32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<i32>) -> ()
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @no_ids_needed
// CHECK: ttg.warp_specialize(%{{.*}})
// CHECK: partition0(%[[P:.*]]: !llvm.ptr<1>)
// CHECK-NOT: nvvm.read.ptx.sreg.tid.x
// CHECK: ld.global{{.*}}%[[P]]
// CHECK: ttg.warp_return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @no_ids_needed(%p: !tt.ptr<i32>) {
    ttg.warp_specialize(%p)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<i32>) num_warps(2) {
      %s = tt.splat %q : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
      %v = tt.load %s : tensor<64x!tt.ptr<i32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<i32>) -> ()
    tt.return
  }
}

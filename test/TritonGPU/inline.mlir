// RUN: tt-opt --inline %s | FileCheck %s

// The ttg and ttng dialects let MLIR's inliner inline functions holding their
// ops, also into the partitions of ttg.warp_specialize.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @caller
  tt.func public @caller(%buf: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: ttng.init_barrier
    tt.call @make_barrier() : () -> ()
    // CHECK-NEXT: ttg.warp_specialize
    ttg.warp_specialize(%buf)
    default {
      ttg.warp_yield
    }
    // CHECK: partition0(%[[ARG:.*]]: !ttg.memdesc
    partition0(%arg: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(1) {
      // CHECK-NEXT: ttng.init_barrier %[[ARG]], 2
      // CHECK-NEXT: ttg.warp_return
      tt.call @init_barrier(%arg) : (!ttg.memdesc<1xi64, #shared, #smem, mutable>) -> ()
      ttg.warp_return
    } : (!ttg.memdesc<1xi64, #shared, #smem, mutable>) -> ()
    tt.return
  }

  tt.func private @make_barrier() {
    %0 = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.init_barrier %0, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }

  tt.func private @init_barrier(%buf: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
    ttng.init_barrier %buf, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

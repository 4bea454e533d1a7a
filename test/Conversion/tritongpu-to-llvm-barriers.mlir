// RUN: tt-opt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// mbarrier and bulk-copy bookkeeping ops as upstream lowers them: PTX
// without results is an inline asm of type !llvm.void (upstream's PTX
// builder); a wait whose predicate is the constant true waits
// unconditionally; cp.async's arrive on a barrier and the bulk group's wait
// and commit are NVVM's ops.

// CHECK-LABEL: llvm.func @barrier_lifetime
// CHECK: "@$0 mbarrier.init.shared::cta.b64 [$1], 2;", "b,r" %{{.+}}, %{{.+}} : (i1, !llvm.ptr<3>) -> !llvm.void
// CHECK: waitLoop:
// CHECK-NOT: skipWait
// CHECK-SAME: "r,r" %{{.+}}, %arg1 : (!llvm.ptr<3>, i32) -> !llvm.void
// CHECK: @!$2 bra.uni skipWait
// CHECK-SAME: "r,r,b" %{{.+}}, %arg1, %arg2
// CHECK: nvvm.cp.async.mbarrier.arrive %{{.+}} : !llvm.ptr<3>
// CHECK: nvvm.cp.async.mbarrier.arrive %{{.+}} {noinc = true} : !llvm.ptr<3>
// CHECK: "@$0 mbarrier.inval.shared::cta.b64 [$1];"
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @barrier_lifetime(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %phase: i32, %p: i1) {
    %yes = arith.constant true
    ttng.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %yes : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %p : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @bulk_store_wait
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bulk_store_wait() {
    ttng.async_tma_store_wait {pendings = 1 : i32}
    tt.return
  }
}

// -----

// A kernel's `!tt.ptr<i8>` marked `tt.nv_tma_desc = 1` is a host-side
// tensormap passed by value, like a `!tt.tensordesc`.
// CHECK-LABEL: llvm.func @marked_descriptor
// CHECK-SAME: (%arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg1: !llvm.ptr<1>,
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @marked_descriptor(%desc: !tt.ptr<i8, 0> {tt.nv_tma_desc = 1 : i32}, %out: !tt.ptr<f32>) {
    tt.return
  }
}

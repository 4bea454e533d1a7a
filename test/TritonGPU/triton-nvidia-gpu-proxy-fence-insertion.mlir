// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -triton-nvidia-gpu-proxy-fence-insertion | FileCheck %s
// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -triton-nvidia-gpu-proxy-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=AMPERE

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // A buffer written by threads, then reused by a TMA load in a loop: the
  // fence goes before the load, inside the loop (the store is too). A
  // second load into the same bytes right after needs none; a load into
  // bytes nobody touched needs none.
  // CHECK-LABEL: @reuse_in_loop
  // AMPERE-NOT: ttng.fence_async_shared {bCluster = false}
  // CHECK: scf.for
  // CHECK:   ttg.local_store
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @reuse_in_loop(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %value: tensor<64x64xf16, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %other = ttg.local_alloc {allocation.offset = 9216 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      ttg.local_store %value, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %other, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // A read in one branch of an scf.if is pending after it; a fence
  // already there clears what is pending.
  // CHECK-LABEL: @branch_then_fence
  // CHECK: scf.if
  // CHECK:   ttg.local_load
  // CHECK: }
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: "use"
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = true}
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local
  tt.func @branch_then_fence(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %cond: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    scf.if %cond {
      %v = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
      "use"(%v) : (tensor<64x64xf16, #blocked>) -> ()
    }
    ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %w = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    "use"(%w) : (tensor<64x64xf16, #blocked>) -> ()
    ttng.fence_async_shared {bCluster = true}
    ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

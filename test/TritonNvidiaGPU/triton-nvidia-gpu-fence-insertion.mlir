// RUN: tt-opt %s --triton-nvidia-gpu-fence-insertion=compute-capability=90 | FileCheck %s
// RUN: tt-opt %s --triton-nvidia-gpu-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=AMPERE
// (Expected output checked against upstream Triton 3.6's pass on this file.)

// AMPERE-NOT: ttng.fence_async_shared

// A written in the loop: the fence stays in the loop, right before the dot.
// CHECK-LABEL: tt.func public @written_in_loop
// CHECK: scf.for
// CHECK-NEXT: ttg.local_alloc %arg0
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot

// A by local_alloc, B by local_store, both before the loop: one fence,
// hoisted before the loop (the second dot's fence is a duplicate).
// CHECK-LABEL: tt.func public @written_before_loop
// CHECK: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttng.warp_group_dot
// CHECK-NEXT: ttng.warp_group_dot

// Filled by async copies (already the async proxy): no fence.
// CHECK-LABEL: tt.func public @copied_asynchronously
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
//
// Blackwell's MMA reads shared memory through the async proxy too.
// CHECK-LABEL: tt.func public @mmav5_operand_written_by_threads
// CHECK: ttg.local_alloc %arg0
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.tc_gen5_mma
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @written_in_loop(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #blocked>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %bs = ttg.local_alloc %b : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %as = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
  tt.func public @written_before_loop(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #blocked>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %as = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %bs = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    ttg.local_store %b, %bs : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      %e = ttng.warp_group_dot %as, %bs, %d {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %e : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
  tt.func public @copied_asynchronously(%pa: tensor<64x32x!tt.ptr<f16>, #blocked>, %pb: tensor<32x64x!tt.ptr<f16>, #blocked>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %as = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %bs = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %pa, %as : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %pb, %bs : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared1, #smem, mutable>
    %t2 = ttg.async_commit_group tokens %t0, %t1
    %t3 = ttg.async_wait %t2 {num = 0 : i32}
    %d = ttng.warp_group_dot %as, %bs, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
  tt.func public @mmav5_operand_written_by_threads(%a: tensor<64x32xf16, #blocked>, %bs: !ttg.memdesc<32x64xf16, #shared1, #smem>, %acc: !ttg.memdesc<64x64xf32, #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %as = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    ttng.tc_gen5_mma %as, %bs, %acc, %true, %true : !ttg.memdesc<64x32xf16, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared1, #smem>, !ttg.memdesc<64x64xf32, #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>, #ttng.tensor_memory, mutable>
    tt.return
  }
}

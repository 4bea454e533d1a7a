// RUN: tt-opt %s --tritongpu-coalesce-async-copy | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked_f16 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[$CLIPPED:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: @clip_int8
// CHECK: [[SRC:%.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<64x128x!tt.ptr<i8>, #[[$CLIPPED]]>
// CHECK-NEXT: [[MASK:%.*]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<64x128xi1, #[[$CLIPPED]]>
// CHECK-NEXT: [[OTHER:%.*]] = ttg.convert_layout %cst : {{.*}} -> tensor<64x128xi8, #[[$CLIPPED]]>
// The contiguity falls to 1, as upstream's (see the pass).
// CHECK-NEXT: ttg.async_copy_global_to_local [[SRC]], %{{.*}} mask [[MASK]] other [[OTHER]] : tensor<64x128x!tt.ptr<i8>, #[[$CLIPPED]]>
// An int8 tile with 16 contiguous bytes per thread into a swizzled buffer
// whose vectors are 8 wide: source, mask and other go to 8 per thread.
tt.func @clip_int8(%src: tensor<64x128x!tt.ptr<i8>, #blocked>, %buf: !ttg.memdesc<2x64x128xi8, #shared, #smem, mutable>, %mask: tensor<64x128xi1, #blocked>) {
  %c0 = arith.constant 0 : i32
  %other = arith.constant dense<0> : tensor<64x128xi8, #blocked>
  %view = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x128xi8, #shared, #smem, mutable> -> !ttg.memdesc<64x128xi8, #shared, #smem, mutable>
  %t = ttg.async_copy_global_to_local %src, %view mask %mask other %other {contiguity = 16 : i32} : tensor<64x128x!tt.ptr<i8>, #blocked> -> <64x128xi8, #shared, #smem, mutable>
  tt.return
}

// CHECK-LABEL: @f16_already_matching
// CHECK-NOT: ttg.convert_layout
// CHECK: ttg.async_copy_global_to_local %arg0, %arg1 {contiguity = 8 : i32}
// 8 halves per thread, vectors of 8 in shared memory: one copy each already.
tt.func @f16_already_matching(%src: tensor<64x64x!tt.ptr<f16>, #blocked_f16>, %view: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
  %t = ttg.async_copy_global_to_local %src, %view {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked_f16> -> <64x64xf16, #shared, #smem, mutable>
  tt.return
}

// CHECK-LABEL: @nvmma_destination
// CHECK-NOT: ttg.convert_layout
// CHECK: ttg.async_copy_global_to_local %arg0, %arg1 {contiguity = 16 : i32}
// An NVMMA-shared buffer (not swizzled_shared): left alone.
tt.func @nvmma_destination(%src: tensor<64x128x!tt.ptr<i8>, #blocked>, %view: !ttg.memdesc<64x128xi8, #nvmma, #smem, mutable>) {
  %t = ttg.async_copy_global_to_local %src, %view {contiguity = 16 : i32} : tensor<64x128x!tt.ptr<i8>, #blocked> -> <64x128xi8, #nvmma, #smem, mutable>
  tt.return
}
}

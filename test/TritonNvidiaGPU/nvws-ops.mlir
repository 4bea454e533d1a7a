// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// (Types after `:` print without their dialect prefix, as upstream prints them.)
// Round trips of the nvws dialect (upstream's warp-specialization IR: arefs,
// tokens, warp groups), which Tritium parses, verifies and prints only.

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: tt.func @arefs
tt.func @arefs(%i: i32, %desc: !tt.tensordesc<tensor<64x32xf16, #nvmma>>) {
  %a = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>
  %b = ttg.local_alloc : () -> !ttg.memdesc<2x32xi32, #bar, #smem, mutable>
  // CHECK: %[[R:.*]] = nvws.aref.create %{{.*}}, %{{.*}} : <[!ttg.memdesc<2x64x32xf16, #{{.*}}, #smem, mutable>, !ttg.memdesc<2x32xi32, #{{.*}}, #smem, mutable>]>
  %r = nvws.aref.create %a, %b : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x32xi32, #bar, #smem, mutable>]>
  // CHECK: %{{.*}}, %{{.*}} = nvws.aref.put.enter %[[R]][%{{.*}}, %{{.*}}] : <{{.*}}> -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>, !ttg.memdesc<32xi32, #{{.*}}, #smem, mutable>, !ttg.async.token
  %p:3 = nvws.aref.put.enter %r[%i, %i] : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x32xi32, #bar, #smem, mutable>]> -> !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<32xi32, #bar, #smem, mutable>, !ttg.async.token
  // CHECK: nvws.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] 4096 %{{.*}} : !tt.tensordesc<tensor<64x32xf16, #{{.*}}>>, i32, i32, !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>
  nvws.descriptor_load %desc[%i, %i] 4096 %p#0 : !tt.tensordesc<tensor<64x32xf16, #nvmma>>, i32, i32, !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>
  // CHECK: nvws.aref.put.exit %[[R]][%{{.*}}], %{{.*}} [#nvws.async_op<tma_load>, #nvws.async_op<none>] : <{{.*}}>, !ttg.async.token
  nvws.aref.put.exit %r[%i], %p#2 [#nvws.async_op<tma_load>, #nvws.async_op<none>] : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x32xi32, #bar, #smem, mutable>]>, !ttg.async.token
  // CHECK: %{{.*}}, %{{.*}} = nvws.aref.get.enter %[[R]] : <{{.*}}> -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>, !ttg.memdesc<32xi32, #{{.*}}, #smem, mutable>, !ttg.async.token
  %g:3 = nvws.aref.get.enter %r : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x32xi32, #bar, #smem, mutable>]> -> !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<32xi32, #bar, #smem, mutable>, !ttg.async.token
  // CHECK: nvws.aref.buffer %[[R]][%{{.*}}], %{{.*}} : <{{.*}}>, !ttg.async.token -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>, !ttg.memdesc<32xi32, #{{.*}}, #smem, mutable>
  %bufs:2 = nvws.aref.buffer %r[%i], %g#2 : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x32xi32, #bar, #smem, mutable>]>, !ttg.async.token -> !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<32xi32, #bar, #smem, mutable>
  // CHECK: nvws.aref.get.exit %[[R]], %{{.*}} [#nvws.async_op<wgmma>] : <{{.*}}>, !ttg.async.token
  nvws.aref.get.exit %r, %g#2 [#nvws.async_op<wgmma>] : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x32xi32, #bar, #smem, mutable>]>, !ttg.async.token
  tt.return
}

// CHECK-LABEL: tt.func @tokens
tt.func @tokens(%i: i32, %phase: i1) {
  // CHECK: %[[T:.*]] = nvws.create_token {loadType = 1 : i32, numBuffers = 3 : i32} : tensor<3x!nvws.token>
  %t = nvws.create_token {loadType = 1 : i32, numBuffers = 3 : i32} : tensor<3x!nvws.token>
  // CHECK: nvws.producer_acquire %[[T]], %{{.*}}, %{{.*}} : tensor<3x!nvws.token>, i32, i1
  nvws.producer_acquire %t, %i, %phase : tensor<3x!nvws.token>, i32, i1
  // CHECK: nvws.producer_commit %[[T]], %{{.*}} : tensor<3x!nvws.token>, i32
  nvws.producer_commit %t, %i : tensor<3x!nvws.token>, i32
  // CHECK: nvws.consumer_wait %[[T]], %{{.*}}, %{{.*}} : tensor<3x!nvws.token>, i32, i1
  nvws.consumer_wait %t, %i, %phase : tensor<3x!nvws.token>, i32, i1
  // CHECK: nvws.consumer_release %[[T]], %{{.*}} : tensor<3x!nvws.token>, i32
  nvws.consumer_release %t, %i : tensor<3x!nvws.token>, i32
  tt.return
}

// CHECK-LABEL: tt.func @warp_groups
tt.func @warp_groups() {
  // CHECK: nvws.warp_group
  // CHECK-NEXT: partition0 num_warps(4) {
  // CHECK: nvws.warp_group.return
  // CHECK: partition1 num_warps(8) {
  nvws.warp_group
  partition0 num_warps(4) {
    nvws.warp_group.return
  }
  partition1 num_warps(8) {
    nvws.warp_group.return
  }
  tt.return
}

}

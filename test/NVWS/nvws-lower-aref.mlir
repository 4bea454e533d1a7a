// RUN: tt-opt %s -split-input-file --allow-unregistered-dialect --nvws-lower-aref=num-stages=2 --verify-diagnostics | FileCheck %s

// A TMA producer (partition 1) and a generic-proxy consumer (partition 0).
// The one-slot buffer becomes num-stages (2) deep; empty and full barriers
// (one arrival each: one consumer, one producer partition) are made before
// the aref and freed after the loop. The put waits on empty[stage], expects
// the load's bytes on full[stage] and copies asynchronously into slice
// `stage`; the get waits on full[stage], reads its slice, fences (TMA will
// overwrite what it read) and arrives on empty[stage].
// CHECK-LABEL: @tma_producer
// CHECK: [[BUF:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK: [[EMPTY:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
// CHECK-COUNT-2: ttng.init_barrier {{.*}}, 1
// CHECK: [[FULL:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
// CHECK-COUNT-2: ttng.init_barrier {{.*}}, 1
// CHECK: scf.for
// CHECK: [[PSTAGE:%.*]] = arith.select {{.*}} {ttg.partition = array<i32: 1>}
// CHECK: [[PPHASE:%.*]] = arith.select {{.*}} {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[E:%.*]] = ttg.memdesc_index [[EMPTY]][[[PSTAGE]]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: ttng.wait_barrier [[E]], [[PPHASE]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[SLOT:%.*]] = ttg.memdesc_index [[BUF]][[[PSTAGE]]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[F:%.*]] = ttg.memdesc_index [[FULL]][[[PSTAGE]]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[TRUE:%.*]] = arith.constant {ttg.partition = array<i32: 1>} true
// CHECK-NEXT: ttng.barrier_expect [[F]], 8192 {ttg.partition = array<i32: 1>}, [[TRUE]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg2, {{.*}}] [[SLOT]], [[F]], [[TRUE]] {ttg.partition = array<i32: 1>}
// CHECK: [[CSTAGE:%.*]] = arith.select {{.*}} {ttg.partition = array<i32: 0>}
// CHECK: [[CPHASE:%.*]] = arith.select {{.*}} {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[F:%.*]] = ttg.memdesc_index [[FULL]][[[CSTAGE]]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: ttng.wait_barrier [[F]], [[CPHASE]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[SLOT:%.*]] = ttg.memdesc_index [[BUF]][[[CSTAGE]]] {ttg.partition = array<i32: 0>} : {{.*}} -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: [[V:%.*]] = ttg.local_load [[SLOT]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false, ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[E:%.*]] = ttg.memdesc_index [[EMPTY]][[[CSTAGE]]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: ttng.arrive_barrier [[E]], 1 {ttg.partition = array<i32: 0>}
// CHECK-NEXT: "use"([[V]])
// CHECK-NOT: nvws.
// CHECK-COUNT-2: ttng.inval_barrier
// CHECK: ttg.local_dealloc [[EMPTY]]
// CHECK-COUNT-2: ttng.inval_barrier
// CHECK: ttg.local_dealloc [[FULL]]
// CHECK: ttg.local_dealloc [[BUF]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tma_producer(%desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
    %aref = nvws.aref.create %buf : <[!ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>]>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %b, %t = nvws.aref.put.enter %aref {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>]> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 1x64x64>, !ttg.async.token
      nvws.descriptor_load %desc[%i, %c0] 8192 %b {ttg.partition = array<i32: 1>} : !tt.tensordesc<tensor<64x64xf16, #shared>>, i32, i32, !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 1x64x64>
      nvws.aref.put.exit %aref, %t [#nvws.async_op<tma_load>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>]>, !ttg.async.token
      %g, %u = nvws.aref.get.enter %aref {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>]> -> !ttg.memdesc<64x64xf16, #shared, #smem, 1x64x64>, !ttg.async.token
      %v = ttg.local_load %g {ttg.partition = array<i32: 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, 1x64x64> -> tensor<64x64xf16, #blocked>
      nvws.aref.get.exit %aref, %u [#nvws.async_op<none>] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>]>, !ttg.async.token
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<64x64xf16, #blocked>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.warp_specialize.tag = 0 : i32}
    ttg.local_dealloc %buf : !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Tensor-memory arefs hand data to tcgen05 MMAs: Blackwell only.
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tensor_memory(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttng.tmem_alloc : () -> !ttg.memdesc<1x128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // expected-error @below {{arefs over tensor memory are Blackwell-only}}
    %aref = nvws.aref.create %buf : <[!ttg.memdesc<1x128x128xf32, #tmem, #ttng.tensor_memory, mutable>]>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %b, %t = nvws.aref.put.enter %aref {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x128x128xf32, #tmem, #ttng.tensor_memory, mutable>]> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token
      nvws.aref.put.exit %aref, %t [#nvws.async_op<none>] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x128x128xf32, #tmem, #ttng.tensor_memory, mutable>]>, !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 0>, ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

// Two TMA-fed arefs whose consumer reads both at one op (an MMA) are
// combined first: one wait and one expect (of both loads' bytes) per
// side, both copies arriving on the same full barrier.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @combined
  // CHECK: [[A:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16
  // CHECK: [[B:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16
  // CHECK: [[EMPTY:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK: [[FULL:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK-NOT: ttg.local_alloc
  // CHECK: scf.for
  // CHECK-COUNT-1: ttng.wait_barrier
  // CHECK: ttng.barrier_expect {{.*}}, 32768
  // CHECK: ttng.async_tma_copy_global_to_local %arg0{{.*}}, [[F:%[0-9]+]],
  // CHECK: ttng.async_tma_copy_global_to_local %arg1{{.*}}, [[F]],
  // CHECK-COUNT-1: ttng.wait_barrier
  // CHECK-NOT: ttng.wait_barrier
  // CHECK: ttng.tc_gen5_mma
  // CHECK-COUNT-1: ttng.arrive_barrier
  // CHECK-NOT: ttng.arrive_barrier
  // CHECK: scf.yield
  tt.func @combined(%da: !tt.tensordesc<tensor<128x64xf16, #shared>>, %db: !tt.tensordesc<tensor<64x128xf16, #shared>>, %n: i32,
                    %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %a = ttg.local_alloc : () -> !ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>
    %ra = nvws.aref.create %a : <[!ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>]>
    %b = ttg.local_alloc : () -> !ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>
    %rb = nvws.aref.create %b : <[!ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>]>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %pa, %ta = nvws.aref.put.enter %ra {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>]> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.async.token
      nvws.descriptor_load %da[%i, %c0] 16384 %pa {ttg.partition = array<i32: 1>} : !tt.tensordesc<tensor<128x64xf16, #shared>>, i32, i32, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      nvws.aref.put.exit %ra, %ta [#nvws.async_op<tma_load>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>]>, !ttg.async.token
      %pb, %tb = nvws.aref.put.enter %rb {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>]> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.async.token
      nvws.descriptor_load %db[%c0, %i] 16384 %pb {ttg.partition = array<i32: 1>} : !tt.tensordesc<tensor<64x128xf16, #shared>>, i32, i32, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
      nvws.aref.put.exit %rb, %tb [#nvws.async_op<tma_load>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>]>, !ttg.async.token
      %ga, %ua = nvws.aref.get.enter %ra {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>]> -> !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.async.token
      %gb, %ub = nvws.aref.get.enter %rb {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>]> -> !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.async.token
      ttng.tc_gen5_mma %ga, %gb, %acc, %true, %true, %bar[%true] {is_async, ttg.partition = array<i32: 0>} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
      nvws.aref.get.exit %rb, %ub [#nvws.async_op<none>] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>]>, !ttg.async.token
      nvws.aref.get.exit %ra, %ua [#nvws.async_op<none>] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>]>, !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

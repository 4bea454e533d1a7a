// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect --nvws-insert-aref --verify-diagnostics | FileCheck %s

// Partition 0 makes a tensor, a scalar and a shared-memory copy of the
// tensor; partition 1 reads the copy and the scalar, partition 2 the tensor
// and what partition 1 loaded. Each value crossing partitions gets an aref
// (a one-slot buffer made before the loop): the producer puts right after
// making it (before the local_alloc, which the aref buffer replaces), each
// consumer gets before its first use and exits after its read. The
// loop-carried scalar is only used where it is made: no aref.
// CHECK-LABEL: @mixed
// CHECK: [[B_ALLOC:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x8xf32, #shared, #smem, mutable>
// CHECK-NEXT: [[A_ALLOC:%.*]] = nvws.aref.create [[B_ALLOC]]
// CHECK-NEXT: ttg.local_alloc : () -> !ttg.memdesc<1x8xf32, #shared, #smem, mutable>
// CHECK-NEXT: [[A_MAKE:%.*]] = nvws.aref.create
// CHECK-NEXT: ttg.local_alloc : () -> !ttg.memdesc<1x1xi32, #shared, #smem, mutable>
// CHECK-NEXT: [[A_SCALAR:%.*]] = nvws.aref.create
// CHECK-NEXT: ttg.local_alloc : () -> !ttg.memdesc<1x8xf32, #shared, #smem, mutable>
// CHECK-NEXT: [[A_LOADED:%.*]] = nvws.aref.create
// CHECK: scf.for
// CHECK-NEXT: [[T:%.*]] = "make"()
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.put.enter [[A_MAKE]] {ttg.partition = array<i32: 0>} {{.*}} -> !ttg.memdesc<8xf32, #shared, #smem, mutable, 1x8>, !ttg.async.token
// CHECK-NEXT: ttg.local_store [[T]], [[BUF]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: nvws.aref.put.exit [[A_MAKE]], [[TOK]] [#nvws.async_op<none>] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[S:%.*]] = arith.addi
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.put.enter [[A_SCALAR]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[SPLAT:%.*]] = tt.splat [[S]] {ttg.partition = array<i32: 0>} : i32 -> tensor<1xi32, #blocked>
// CHECK-NEXT: ttg.local_store [[SPLAT]], [[BUF]]
// CHECK-NEXT: nvws.aref.put.exit [[A_SCALAR]], [[TOK]]
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.put.enter [[A_ALLOC]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: ttg.local_store [[T]], [[BUF]]
// CHECK-NEXT: nvws.aref.put.exit [[A_ALLOC]], [[TOK]]
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.get.enter [[A_ALLOC]] {ttg.partition = array<i32: 1>} {{.*}} -> !ttg.memdesc<8xf32, #shared, #smem, 1x8>, !ttg.async.token
// CHECK-NEXT: [[V:%.*]] = ttg.local_load [[BUF]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[BUF2:%.*]], [[TOK2:%.*]] = nvws.aref.put.enter [[A_LOADED]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: ttg.local_store [[V]], [[BUF2]]
// CHECK-NEXT: nvws.aref.put.exit [[A_LOADED]], [[TOK2]]
// CHECK-NEXT: nvws.aref.get.exit [[A_ALLOC]], [[TOK]] [#nvws.async_op<none>] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.get.enter [[A_SCALAR]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[ONE:%.*]] = ttg.local_load [[BUF]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: nvws.aref.get.exit [[A_SCALAR]], [[TOK]]
// CHECK-NEXT: [[SCALAR:%.*]] = tt.unsplat [[ONE]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: "use_scalar"([[SCALAR]])
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.get.enter [[A_MAKE]] {ttg.partition = array<i32: 2>}
// CHECK-NEXT: [[T2:%.*]] = ttg.local_load [[BUF]]
// CHECK-NEXT: nvws.aref.get.exit [[A_MAKE]], [[TOK]]
// CHECK-NEXT: [[BUF:%.*]], [[TOK:%.*]] = nvws.aref.get.enter [[A_LOADED]] {ttg.partition = array<i32: 2>}
// CHECK-NEXT: [[V2:%.*]] = ttg.local_load [[BUF]]
// CHECK-NEXT: nvws.aref.get.exit [[A_LOADED]], [[TOK]]
// CHECK-NEXT: "use_tensor"([[V2]], [[T2]])
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @mixed(%n: i32, %x: tensor<8xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %t = "make"() {ttg.partition = array<i32: 0>} : () -> tensor<8xf32, #blocked>
      %s = arith.addi %acc, %c1 {ttg.partition = array<i32: 0>} : i32
      %buf = ttg.local_alloc %t {ttg.partition = array<i32: 0>} : (tensor<8xf32, #blocked>) -> !ttg.memdesc<8xf32, #shared, #smem>
      %v = ttg.local_load %buf {ttg.partition = array<i32: 1>} : !ttg.memdesc<8xf32, #shared, #smem> -> tensor<8xf32, #blocked>
      "use_scalar"(%s) {ttg.partition = array<i32: 1>} : (i32) -> ()
      "use_tensor"(%v, %t) {ttg.partition = array<i32: 2>} : (tensor<8xf32, #blocked>, tensor<8xf32, #blocked>) -> ()
      scf.yield {ttg.partition = array<i32: 0, 1, 2>} %s : i32
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1, 2>, ttg.partition.outputs = [array<i32: 0>], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

// With a schedule (tt.scheduled_max_stage), the put takes the producer's
// stage and cluster, the get.enter those of the first use in the consumer
// partition and the get.exit those of the last one, in pipeline order
// (stage, then cluster), not block order.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @scheduled
  // CHECK: nvws.aref.put.enter {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 0>}
  // CHECK: ttg.local_store {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 0>}
  // CHECK: nvws.aref.put.exit {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 0>}
  // CHECK: nvws.aref.get.enter {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 1>}
  // CHECK: ttg.local_load {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 1>}
  // CHECK: nvws.aref.get.exit {{.*}} [#nvws.async_op<none>] {loop.cluster = 2 : i32, loop.stage = 2 : i32, ttg.partition = array<i32: 1>}
  tt.func @scheduled(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %t = "make"() {loop.cluster = 0 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 0>} : () -> tensor<8xf32, #blocked>
      "late"(%t) {loop.cluster = 2 : i32, loop.stage = 2 : i32, ttg.partition = array<i32: 1>} : (tensor<8xf32, #blocked>) -> ()
      "early"(%t) {loop.cluster = 1 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 1>} : (tensor<8xf32, #blocked>) -> ()
    } {tt.scheduled_max_stage = 2 : i32, tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

// A global load straight into shared memory would need cp.async handshakes,
// which upstream does not support either.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @cp_async(%n: i32, %p: tensor<8x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %t = tt.load %p {ttg.partition = array<i32: 0>} : tensor<8x!tt.ptr<f32>, #blocked>
      // expected-error @below {{a global load into shared memory (cp.async) cannot be passed through an aref}}
      %buf = ttg.local_alloc %t {ttg.partition = array<i32: 0>} : (tensor<8xf32, #blocked>) -> !ttg.memdesc<8xf32, #shared, #smem>
      %v = ttg.local_load %buf {ttg.partition = array<i32: 1>} : !ttg.memdesc<8xf32, #shared, #smem> -> tensor<8xf32, #blocked>
      "use"(%v) {ttg.partition = array<i32: 1>} : (tensor<8xf32, #blocked>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

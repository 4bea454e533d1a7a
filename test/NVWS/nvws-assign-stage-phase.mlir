// RUN: tt-opt %s -split-input-file --allow-unregistered-dialect --nvws-assign-stage-phase -cse --verify-diagnostics | FileCheck %s

// A producer in partition 1 (inside an scf.if without else) and a consumer
// in partition 2 of a 2-deep aref. Stages start at depth-1 = 1, the
// producer's phase at 0 and the consumer's at 1; each enter advances its
// counter (wrapping to stage 0 flips the phase). The loop carries both
// counters (the outputs say which partition computes each), the if returns
// the producer's (its new else yields them unchanged), and the exit and
// buffer ops take the stage of the enter op whose token they use.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @loop_with_if
  // CHECK-DAG: [[C0:%.*]] = arith.constant 0 : i32
  // CHECK-DAG: [[C1:%.*]] = arith.constant 1 : i32
  // CHECK: [[AREF:%.*]] = nvws.aref.create
  // CHECK: [[R:%.*]]:4 = scf.for {{.*}} iter_args([[PS:%.*]] = [[C1]], [[PP:%.*]] = [[C0]], [[CS:%.*]] = [[C1]], [[CP:%.*]] = [[C1]])
  // CHECK: [[IF:%.*]]:2 = scf.if %arg1 -> (i32, i32) {
  // CHECK:   [[ONE:%.*]] = arith.constant {ttg.partition = array<i32: 1>} 1 : i32
  // CHECK:   [[NEXT:%.*]] = arith.addi [[PS]], [[ONE]] {ttg.partition = array<i32: 1>}
  // CHECK:   [[DEPTH:%.*]] = arith.constant {ttg.partition = array<i32: 1>} 2 : i32
  // CHECK:   [[WRAP:%.*]] = arith.cmpi eq, [[NEXT]], [[DEPTH]]
  // CHECK:   [[ZERO:%.*]] = arith.constant {ttg.partition = array<i32: 1>} 0 : i32
  // CHECK:   [[S:%.*]] = arith.select [[WRAP]], [[ZERO]], [[NEXT]]
  // CHECK:   [[FLIP:%.*]] = arith.xori [[PP]], [[ONE]]
  // CHECK:   [[P:%.*]] = arith.select [[WRAP]], [[FLIP]], [[PP]]
  // CHECK:   {{.*}}, [[T:%.*]] = nvws.aref.put.enter [[AREF]][[[S]], [[P]]]
  // CHECK:   nvws.aref.put.exit [[AREF]][[[S]]], [[T]]
  // CHECK:   scf.yield {ttg.partition = array<i32: 1>} [[S]], [[P]]
  // CHECK: } else {
  // CHECK:   scf.yield {ttg.partition = array<i32: 1>} [[PS]], [[PP]]
  // CHECK: } {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>]}
  // CHECK: [[CNEXT:%.*]] = arith.addi [[CS]], {{.*}} {ttg.partition = array<i32: 2>}
  // CHECK: [[CSEL:%.*]] = arith.select {{.*}}, {{.*}}, [[CNEXT]] {ttg.partition = array<i32: 2>}
  // CHECK: [[CFLIP:%.*]] = arith.xori [[CP]]
  // CHECK: [[CPSEL:%.*]] = arith.select {{.*}}, [[CFLIP]], [[CP]]
  // CHECK: {{.*}}, [[CT:%.*]] = nvws.aref.get.enter [[AREF]][[[CSEL]], [[CPSEL]]]
  // CHECK: nvws.aref.buffer [[AREF]][[[CSEL]]], [[CT]]
  // CHECK: nvws.aref.get.exit [[AREF]][[[CSEL]]], [[CT]]
  // CHECK: scf.yield {ttg.partition = array<i32: 1, 2>} [[IF]]#0, [[IF]]#1, [[CSEL]], [[CPSEL]]
  // CHECK: } {ttg.partition = array<i32: 1, 2>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>, array<i32: 2>, array<i32: 2>], ttg.warp_specialize.tag = 0 : i32}
  tt.func @loop_with_if(%n: i32, %cond: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x8xi32, #shared, #smem, mutable>
    %aref = nvws.aref.create %buf : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]>
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.if %cond {
        %b, %t = nvws.aref.put.enter %aref {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]> -> !ttg.memdesc<8xi32, #shared, #smem, mutable>, !ttg.async.token
        nvws.aref.put.exit %aref, %t [#nvws.async_op<none>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]>, !ttg.async.token
      } {ttg.partition = array<i32: 1>}
      %b2, %t2 = nvws.aref.get.enter %aref {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]> -> !ttg.memdesc<8xi32, #shared, #smem, mutable>, !ttg.async.token
      %v = nvws.aref.buffer %aref, %t2 {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]>, !ttg.async.token -> !ttg.memdesc<8xi32, #shared, #smem, mutable>
      nvws.aref.get.exit %aref, %t2 [#nvws.async_op<none>] {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]>, !ttg.async.token
    } {ttg.partition = array<i32: 1, 2>, ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

// A scalar the warp-specialized loop computes in partition 1 and the code
// after it reads: the default partition (0) computes it too, along with what
// it depends on in the loop.
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @scalar_result
  // CHECK: arith.muli {{.*}} {ttg.partition = array<i32: 0, 1>}
  // CHECK: arith.addi {{.*}} {ttg.partition = array<i32: 0, 1>}
  // CHECK: "use"({{.*}}) {ttg.partition = array<i32: 2>}
  // CHECK: scf.yield {ttg.partition = array<i32: 0, 1, 2>}
  // CHECK: } {tt.warp_specialize, ttg.partition = array<i32: 0, 1, 2>, ttg.partition.outputs = [array<i32: 0, 1>]}
  tt.func @scalar_result(%n: i32, %k: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %m = arith.muli %i, %k {ttg.partition = array<i32: 1>} : i32
      %s = arith.addi %acc, %m {ttg.partition = array<i32: 1>} : i32
      "use"(%i) {ttg.partition = array<i32: 2>} : (i32) -> ()
      scf.yield {ttg.partition = array<i32: 1, 2>} %s : i32
    } {tt.warp_specialize, ttg.partition = array<i32: 1, 2>, ttg.partition.outputs = [array<i32: 1>]}
    tt.return %r : i32
  }
}

// -----

// Threading a counter through a loop needs the loop's partitions.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @loop_without_partition(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x8xi32, #shared, #smem, mutable>
    %aref = nvws.aref.create %buf : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]>
    // expected-error @below {{scf.for using an aref without ttg.partition}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %b, %t = nvws.aref.put.enter %aref : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]> -> !ttg.memdesc<8xi32, #shared, #smem, mutable>, !ttg.async.token
      nvws.aref.put.exit %aref, %t [#nvws.async_op<none>] : <[!ttg.memdesc<2x8xi32, #shared, #smem, mutable>]>, !ttg.async.token
    }
    tt.return
  }
}

// RUN: tt-opt %s -allow-unregistered-dialect -triton-test-loop-peeling | FileCheck %s

// Two loop-carried values, an index loop: the loop stops a step earlier and
// the last iteration runs after it, on the loop's results, when the loop
// runs at all. Unmarked loops stay.
// CHECK-LABEL: @two_carried
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index)
// CHECK: %[[SHORTER:.*]] = arith.subi %[[UB]], %[[STEP]] : index
// CHECK: %[[LOOP:.*]]:2 = scf.for %{{.*}} = %[[LB]] to %[[SHORTER]] step %[[STEP]]
// CHECK: } {__test_peel_epilogue}
// CHECK: %[[RANGE:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[RANGE1:.*]] = arith.subi %[[RANGE]], %[[ONE]] : index
// CHECK: %[[STEPS:.*]] = arith.divsi %[[RANGE1]], %[[STEP]] : index
// CHECK: %[[DELTA:.*]] = arith.muli %[[STEPS]], %[[STEP]] : index
// CHECK: %[[LAST:.*]] = arith.addi %[[DELTA]], %[[LB]] : index
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : index
// CHECK: %[[PEELED:.*]]:2 = scf.if %[[RUNS]] -> (f32, i32) {
// CHECK:   %[[X:.*]] = "step"(%[[LAST]], %[[LOOP]]#0) : (index, f32) -> f32
// CHECK:   %[[N:.*]] = arith.addi %[[LOOP]]#1, %{{.*}} : i32
// CHECK:   scf.yield %[[X]], %[[N]] : f32, i32
// CHECK: } else {
// CHECK:   scf.yield %[[LOOP]]#0, %[[LOOP]]#1 : f32, i32
// CHECK: }
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: "use"(%[[PEELED]]#0, %[[PEELED]]#1)
tt.func @two_carried(%lb : index, %ub : index, %step : index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%x = %zero, %n = %c0) -> (f32, i32) {
    %y = "step"(%i, %x) : (index, f32) -> f32
    %m = arith.addi %n, %c1 : i32
    scf.yield %y, %m : f32, i32
  } {__test_peel_epilogue}
  scf.for %j = %lb to %ub step %step {
    "other"(%j) : (index) -> ()
  }
  "use"(%r#0, %r#1) : (f32, i32) -> ()
  tt.return
}

// A loop nested in another, with no results: the peeled copy is inside the
// outer loop.
// CHECK-LABEL: @nested
// CHECK: scf.for %[[I:.*]] =
// CHECK:   scf.for %{{.*}} = %[[I]] to
// CHECK:     "body"
// CHECK:   scf.if
// CHECK:     "body"
// CHECK:   }
// CHECK: }
tt.func @nested(%n : i32, %step : i32) {
  %c0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %step : i32 {
    scf.for %j = %i to %n step %step : i32 {
      "body"(%j) : (i32) -> ()
    } {__test_peel_epilogue}
  }
  tt.return
}

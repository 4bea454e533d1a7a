// RUN: tt-opt %s --split-input-file --tritongpu-fuse-nested-loops | FileCheck %s
// RUN: tt-opt %s --split-input-file --tritongpu-fuse-nested-loops --canonicalize --cse | FileCheck %s --check-prefix=CLEAN
// CHECK-LABEL: @flatten_versioned
// CHECK: [[LEN_J:%.*]] = arith.ceildivsi
// CHECK: [[EMPTY:%.*]] = arith.cmpi eq, [[LEN_J]]
// CHECK: scf.if [[EMPTY]] {
// The copy without the inner loop stores the accumulator's initial value.
// CHECK:   scf.for
// CHECK-NOT: scf.for
// CHECK:     tt.store {{.*}}, %cst
// CHECK:   } {tt.flatten}
// CHECK: } else {
// CHECK:   [[TOTAL:%.*]] = scf.for {{.*}} iter_args([[SUM:%.*]] = {{.*}}) -> (i32)
// CHECK-NEXT: scf.yield [[SUM]]
// CHECK:   scf.for [[T_IV:%.*]] = {{.*}} to [[TOTAL]] step {{.*}} iter_args([[T:%arg[0-9]+]] = %{{[^,]*}}, [[I:%arg[0-9]+]] = %{{[^,]*}},
// CHECK:     [[PROLOGUE:%.*]]:5 = scf.if
// CHECK-NEXT:  [[NEXT_I:%.*]] = arith.addi [[I]]
// CHECK-NEXT:  arith.muli [[NEXT_I]]
// The body needs no guard: the inner loop runs at least once here.
// CHECK:     %true = arith.constant true
// CHECK-NEXT: [[BODY:%.*]]:2 = scf.if %true -> (i32, f32) {
// CHECK:       tt.load
// CHECK:       arith.addf %arg
// CHECK:     [[EPILOGUE:%.*]] = scf.if {{.*}} -> (f32) {
// CHECK:       tt.store {{.*}}, [[BODY]]#1
// CHECK-NEXT:  scf.yield %cst : f32
// CHECK:     } else {
// CHECK-NEXT:  scf.yield [[BODY]]#1 : f32
// CHECK:     arith.select
// CHECK:     scf.yield {{.*}}, [[EPILOGUE]], {{.*}}
// CHECK-NOT: tt.flatten

// After clean-up: one loop of tiles x max(1, k) iterations.
// CLEAN-LABEL: @flatten_versioned
// CLEAN: } else {
// CLEAN-NEXT: [[LEN:%.*]] = arith.maxsi %arg1, %c1_i32
// CLEAN-NEXT: [[TOTAL:%.*]] = arith.muli %arg0, [[LEN]]
// CLEAN-NEXT: scf.for %{{.*}} = %c0_i32 to [[TOTAL]] step %c1_i32
// CLEAN: tt.load
// CLEAN: scf.if
// CLEAN-NEXT: tt.addptr
// CLEAN-NEXT: tt.store
// Flattened persistent-style nest: the inner loop's bounds are invariant, so
// the nest is versioned on an empty inner loop and fused in the else branch.
tt.func @flatten_versioned(%tiles: i32, %k: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  scf.for %tile = %c0 to %tiles step %c1 : i32 {
    %base = arith.muli %tile, %k : i32
    %acc = scf.for %j = %c0 to %k step %c1 iter_args(%a = %zero) -> (f32) : i32 {
      %idx = arith.addi %base, %j : i32
      %ptr = tt.addptr %p, %idx : !tt.ptr<f32>, i32
      %v = tt.load %ptr : !tt.ptr<f32>
      %s = arith.addf %a, %v : f32
      scf.yield %s : f32
    }
    %out = tt.addptr %p, %tile : !tt.ptr<f32>, i32
    tt.store %out, %acc : !tt.ptr<f32>
  } {tt.flatten}
  tt.return
}

// -----

// CHECK-LABEL: @flatten_assumed
// CHECK: llvm.intr.assume
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %true = arith.constant true
// CHECK-NEXT: scf.if %true
// CHECK: } {tt.num_stages = 2 : i32}
// An assumption that the inner loop runs: no versioning, its body runs
// unguarded.
tt.func @flatten_assumed(%tiles: i32, %k: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %positive = arith.cmpi sgt, %k, %c0 : i32
  llvm.intr.assume %positive : i1
  scf.for %tile = %c0 to %tiles step %c1 : i32 {
    scf.for %j = %c0 to %k step %c1 : i32 {
      %idx = arith.addi %tile, %j : i32
      %ptr = tt.addptr %p, %idx : !tt.ptr<f32>, i32
      %v = tt.load %ptr : !tt.ptr<f32>
      tt.store %ptr, %v : !tt.ptr<f32>
    }
  } {tt.flatten, tt.num_stages = 2 : i32}
  tt.return
}

// -----

// CHECK-LABEL: @always_fuse_two_loops
// The second loop's length is counted per outer iteration first.
// CHECK: [[TOTAL:%.*]] = scf.for [[I:%.*]] = {{.*}} iter_args([[SUM:%.*]] = {{.*}})
// CHECK-NEXT: [[UB:%.*]] = arith.addi [[I]], %c1_i64
// CHECK-NEXT: arith.subi [[UB]]
// CHECK-NEXT: [[LEN:%.*]] = arith.ceildivsi
// CHECK: [[CLAMPED:%.*]] = arith.maxsi %{{.*}}, [[LEN]]
// CHECK-NEXT: [[ACC:%.*]] = arith.addi [[SUM]], [[CLAMPED]]
// CHECK-NEXT: scf.yield [[ACC]]
// CHECK: scf.for {{.*}} to [[TOTAL]]
// The first prologue steps i and computes the second loop's length from it.
// CHECK: scf.if
// CHECK-NEXT: [[NEXT_I:%.*]] = arith.addi
// CHECK-NEXT: arith.addi [[NEXT_I]], %c1_i64
// CHECK: scf.if
// CHECK: tt.store
// CHECK: scf.if
// CHECK: scf.if
// CHECK: tt.store
// CHECK-NOT: ttg.always-fuse
// Two inner loops, the second with bounds from the outer induction
// variable: fused when asked to (ttg.always-fuse).
tt.func @always_fuse_two_loops(%n: i64, %m: i64, %p: !tt.ptr<i64>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    scf.for %j = %c0 to %m step %c1 : i64 {
      %ptr = tt.addptr %p, %j : !tt.ptr<i64>, i64
      tt.store %ptr, %i : !tt.ptr<i64>
    }
    %ub = arith.addi %i, %c1 : i64
    scf.for %j = %c0 to %ub step %c1 : i64 {
      %ptr = tt.addptr %p, %i : !tt.ptr<i64>, i64
      tt.store %ptr, %j : !tt.ptr<i64>
    }
  } {"ttg.always-fuse"}
  tt.return
}

// -----

// CHECK-LABEL: @flatten_two_inner_loops
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {tt.flatten}
// Not a simple nest (two inner loops): tt.flatten alone does not fuse it.
tt.func @flatten_two_inner_loops(%n: i32, %p: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %n step %c1 : i32 {
      %ptr = tt.addptr %p, %j : !tt.ptr<i32>, i32
      tt.store %ptr, %i : !tt.ptr<i32>
    }
    scf.for %j = %c0 to %n step %c1 : i32 {
      %ptr = tt.addptr %p, %i : !tt.ptr<i32>, i32
      tt.store %ptr, %j : !tt.ptr<i32>
    }
  } {tt.flatten}
  tt.return
}

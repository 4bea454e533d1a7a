// RUN: tt-opt %s -split-input-file -verify-diagnostics --triton-rewrite-tensor-descriptor-to-pointer --canonicalize --cse | FileCheck %s --implicit-check-not=tensordesc

// A descriptor carried by a loop and chosen by an scf.if: its six values
// (pointer, shape, strides, NaN padding) flow instead. Loads are masked on
// both dimensions; stores too.
// CHECK-LABEL: @loop_and_if
// CHECK-SAME: %[[BASE:[^:]*]]: !tt.ptr<f16>, %[[OTHER:[^:]*]]: !tt.ptr<f16>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[STRIDE:[^:]*]]: i64, %[[C:[^:]*]]: i1
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-DAG: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[LOOP:.*]]:7 = scf.for %[[I:.*]] = {{.*}} iter_args(%[[P:[^ ]*]] = %[[BASE]], %[[S0:[^ ]*]] = %[[M64]], %[[S1:[^ ]*]] = %[[N64]], %[[T0:[^ ]*]] = %[[STRIDE]], %[[T1:[^ ]*]] = %{{.*}}, %[[PAD:[^ ]*]] = %[[FALSE]], %{{.*}} = %{{.*}}) -> (!tt.ptr<f16>, i64, i64, i64, i64, i1, tensor<16x32xf16>)
// CHECK:   tt.splat %[[P]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK:   tt.splat %[[T0]] : i64 -> tensor<16x1xi64>
// CHECK:   tt.splat %[[S0]] : i64 -> tensor<16x1xi64>
// CHECK:   tt.splat %[[S1]] : i64 -> tensor<1x32xi64>
// CHECK:   %[[FILL:.*]] = arith.select %[[PAD]], %{{.*}}, %{{.*}} : tensor<16x32xf16>
// CHECK:   tt.load %{{.*}}, %{{.*}}, %[[FILL]] : tensor<16x32x!tt.ptr<f16>>
// CHECK:   arith.select %[[C]], %[[OTHER]], %[[P]] : !tt.ptr<f16>
// CHECK:   scf.yield
// CHECK: tt.splat %[[LOOP]]#0
// CHECK: tt.store %{{.*}}, %[[LOOP]]#6, %{{.*}} : tensor<16x32x!tt.ptr<f16>>
module {
  tt.func public @loop_and_if(%base: !tt.ptr<f16>, %other: !tt.ptr<f16>, %m: i32, %n: i32, %stride: i64, %c: i1) -> tensor<16x32xf16> {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %zero = arith.constant dense<0.0> : tensor<16x32xf16>
    %d0 = tt.make_tensor_descriptor %base, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<16x32xf16>>
    %d1 = tt.make_tensor_descriptor %other, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<16x32xf16>>
    %r:2 = scf.for %i = %c0 to %m step %c16 iter_args(%d = %d0, %acc = %zero) -> (!tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>) : i32 {
      %x = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
      %s = arith.addf %acc, %x : tensor<16x32xf16>
      %next = scf.if %c -> !tt.tensordesc<tensor<16x32xf16>> {
        scf.yield %d1 : !tt.tensordesc<tensor<16x32xf16>>
      } else {
        scf.yield %d : !tt.tensordesc<tensor<16x32xf16>>
      }
      scf.yield %next, %s : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
    }
    tt.descriptor_store %r#0[%c0, %c0], %r#1 : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
    tt.return %r#1 : tensor<16x32xf16>
  }
}

// -----

// Gathers and scatters: the row offsets are a column of the pointer grid;
// a reduction becomes a release atomic (signless integers compare signed).
// CHECK-LABEL: @gather_scatter_reduce
// CHECK-SAME: %[[BASE:[^:]*]]: !tt.ptr<i32>, %[[ROWS:[^:]*]]: tensor<8xi32>
// CHECK: %[[COLUMN:.*]] = tt.expand_dims %[[ROWS]] {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
// CHECK: arith.extsi %[[COLUMN]] : tensor<8x1xi32> to tensor<8x1xi64>
// CHECK: tt.addptr
// CHECK: %[[PTRS:.*]] = tt.addptr
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<8x32xi1>
// CHECK: %[[ROWS_LOADED:.*]] = tt.load %[[PTRS]], %[[MASK]], %{{.*}} : tensor<8x32x!tt.ptr<i32>>
// CHECK: tt.store %[[PTRS]], %[[ROWS_LOADED]], %[[MASK]]
// CHECK: tt.atomic_rmw max, release, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x32x!tt.ptr<i32>>, tensor<1x32xi32>, tensor<1x32xi1>) -> tensor<1x32xi32>
module {
  tt.func public @gather_scatter_reduce(%base: !tt.ptr<i32>, %rows: tensor<8xi32>, %y: i32, %w: tensor<1x32xi32>) {
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %c64 = arith.constant 64 : i32
    %d = tt.make_tensor_descriptor %base, [%c64, %c64], [%c64_i64, %c1_i64] : <i32>, <tensor<1x32xi32>>
    %g = tt.descriptor_gather %d[%rows, %y] : (!tt.tensordesc<tensor<1x32xi32>>, tensor<8xi32>, i32) -> tensor<8x32xi32>
    tt.descriptor_scatter %d[%rows, %y], %g : !tt.tensordesc<tensor<1x32xi32>>, tensor<8xi32>, i32, tensor<8x32xi32>
    tt.descriptor_reduce max, %d[%y, %y], %w : !tt.tensordesc<tensor<1x32xi32>>, tensor<1x32xi32>
    tt.return
  }
}

// -----

// Across calls: a descriptor argument or result becomes its values, and the
// other arguments keep their attributes.
// CHECK-LABEL: tt.func private @pass_through
// CHECK-SAME: (%[[P:[^:]*]]: !tt.ptr<f32>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i1, %{{.*}}: i32 {tt.divisibility = 16 : i32}) -> (!tt.ptr<f32>, i64, i64, i64, i64, i1)
// CHECK-LABEL: tt.func public @caller
// CHECK: %[[R:.*]]:6 = tt.call @pass_through(%{{.*}}) : (!tt.ptr<f32>, i64, i64, i64, i64, i1, i32) -> (!tt.ptr<f32>, i64, i64, i64, i64, i1)
// CHECK: tt.splat %[[R]]#0 : !tt.ptr<f32> -> tensor<4x4x!tt.ptr<f32>>
module {
  tt.func private @pass_through(%d: !tt.tensordesc<tensor<4x4xf32>>, %k: i32 {tt.divisibility = 16 : i32}) -> !tt.tensordesc<tensor<4x4xf32>> {
    tt.return %d : !tt.tensordesc<tensor<4x4xf32>>
  }
  tt.func public @caller(%base: !tt.ptr<f32>, %k: i32) -> tensor<4x4xf32> {
    %c8 = arith.constant 8 : i32
    %c1_i64 = arith.constant 1 : i64
    %c8_i64 = arith.constant 8 : i64
    %d = tt.make_tensor_descriptor %base, [%c8, %c8], [%c8_i64, %c1_i64] : <f32>, <tensor<4x4xf32>>
    %e = tt.call @pass_through(%d, %k) : (!tt.tensordesc<tensor<4x4xf32>>, i32) -> !tt.tensordesc<tensor<4x4xf32>>
    %x = tt.descriptor_load %e[%k, %k] : !tt.tensordesc<tensor<4x4xf32>> -> tensor<4x4xf32>
    tt.return %x : tensor<4x4xf32>
  }
}

// -----

// Descriptors through ops this pass has no rule for are refused.
module {
  tt.func public @unsupported(%d: !tt.tensordesc<tensor<4x4xf32>>, %e: !tt.tensordesc<tensor<4x4xf32>>, %c: i1) {
    // expected-error @+1 {{tensor descriptors through 'arith.select' cannot be rewritten into pointers}}
    %s = arith.select %c, %d, %e : !tt.tensordesc<tensor<4x4xf32>>
    tt.return
  }
}

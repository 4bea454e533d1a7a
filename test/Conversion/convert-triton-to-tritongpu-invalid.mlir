// RUN: tt-opt %s -split-input-file -verify-diagnostics --convert-triton-to-tritongpu='target=cuda:90'
// RUN: not tt-opt %s --convert-triton-to-tritongpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tt-opt %s --convert-triton-to-tritongpu='target=cuda:90 num-warps=3' 2>&1 | FileCheck %s --check-prefix=WARPS

// TARGET: error: 'convert-triton-to-tritongpu' requires 'target' option to be set
// WARPS: error: 'num-warps' must be a positive power of two, got 3

// Ops on tensors that upstream has no conversion for are errors, as there.
module {
  tt.func @negf(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x!tt.ptr<f32>>
    // expected-error @+1 {{failed to legalize operation 'arith.negf'}}
    %y = arith.negf %x : tensor<32xf32>
    tt.store %p, %y : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

module {
  tt.func @tanh(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x!tt.ptr<f32>>
    // expected-error @+1 {{failed to legalize operation 'math.tanh'}}
    %y = math.tanh %x : tensor<32xf32>
    tt.store %p, %y : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// scf.execute_region is illegal whatever its types.
module {
  tt.func @execute_region(%n: i32) -> i32 {
    // expected-error @+1 {{failed to legalize operation 'scf.execute_region'}}
    %r = scf.execute_region -> i32 {
      scf.yield %n : i32
    }
    tt.return %r : i32
  }
}

// -----

// Without enable-source-remat, a retyped value cannot feed an op the pass
// leaves alone.
module {
  tt.func @no_remat(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x!tt.ptr<f32>>
    // expected-error @+1 {{failed to legalize unresolved materialization}}
    %y = arith.addf %x, %x : tensor<32xf32>
    %z = ttg.convert_layout %y : tensor<32xf32> -> tensor<32xf32>
    tt.store %p, %z : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Tensors need a static shape of rank 1 or more to get a layout.
module {
  tt.func @scalar_tensor(%io: !tt.ptr<f32>) {
    // expected-error @+1 {{cannot give a layout to tensor<!tt.ptr<f32>>}}
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<!tt.ptr<f32>>
    %x = tt.load %p : tensor<!tt.ptr<f32>>
    tt.return
  }
}

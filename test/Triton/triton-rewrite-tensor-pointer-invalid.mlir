// RUN: tt-opt %s -split-input-file --triton-rewrite-tensor-pointer --verify-diagnostics

// Block pointers through scf.while are not supported (upstream aborts).
tt.func @while_loop(%a: !tt.ptr<f32>, %n: i64, %c: i1) {
  %one = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  // expected-error @+1 {{block pointers through 'scf.while' are not supported (only scf.for and scf.if)}}
  %r = scf.while (%q = %p) : (!tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>> {
    scf.condition(%c) %q : !tt.ptr<tensor<16xf32>>
  } do {
  ^bb0(%q: !tt.ptr<tensor<16xf32>>):
    scf.yield %q : !tt.ptr<tensor<16xf32>>
  }
  tt.return
}

// -----

// A block pointer that is a function argument has no tt.make_tensor_ptr.
tt.func @argument(%p: !tt.ptr<tensor<16xf32>>) -> tensor<16xf32> {
  // expected-error @+1 {{block pointer not made by tt.make_tensor_ptr in this function}}
  %v = tt.load %p : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A block pointer returned from the function cannot be rewritten.
tt.func @returned(%a: !tt.ptr<f32>, %n: i64) -> !tt.ptr<tensor<16xf32>> {
  %one = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{a block pointer is used by an op this pass cannot rewrite}}
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  tt.return %p : !tt.ptr<tensor<16xf32>>
}

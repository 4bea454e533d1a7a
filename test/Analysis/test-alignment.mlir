// RUN: tt-opt %s -split-input-file --test-print-alignment -verify-diagnostics -o /dev/null
// RUN: tt-opt %s -split-input-file --test-print-alignment 2>/dev/null | FileCheck %s

// Integer constants are zero-extended (i8 -1 is 255); 0 is divisible by
// anything (2^62); splats are constant over their whole shape; other
// constants are unknown.
tt.func @constants() {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = 48}}
  %c48 = arith.constant 48 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %zero = arith.constant 0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = 255}}
  %minus_one = arith.constant -1 : i8
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1}}
  %true = arith.constant true
  // expected-remark @below {{contiguity = [1, 1], divisibility = [32, 32], constancy = [64, 8], constant_value = 96}}
  %splat = arith.constant dense<96> : tensor<64x8xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %float = arith.constant dense<1.000000e+00> : tensor<64xf32>
  tt.return
}

// -----

// make_range starting at 0 is divisible by 2^30 (upstream computes on 32
// bits); adding or subtracting a constant keeps runs, dividing a run by a
// power of two makes it constant in blocks, a remainder makes runs of the
// divisor's alignment.
tt.func @ranges_and_arithmetic() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [64], constancy = [1], constant_value = <none>}}
  %from_64 = tt.make_range {end = 96 : i32, start = 64 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant_value = 4}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = 3}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4], constancy = [1], constant_value = <none>}}
  %shifted = arith.addi %range, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4], constancy = [1], constant_value = <none>}}
  %back = arith.subi %shifted, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %negated = arith.subi %c4, %range : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %scaled = arith.muli %range, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4], constant_value = <none>}}
  %quarter = arith.divsi %range, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1], constant_value = <none>}}
  %wrapped = arith.remsi %range, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %odd = arith.remsi %range, %c3 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128], constant_value = 2}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %doubled = arith.shli %range, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %halved = arith.shrsi %scaled, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %masked = arith.andi %range, %c3 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = 7}}
  %folded = arith.xori %c4, %c3 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4], constancy = [1], constant_value = <none>}}
  %smaller = arith.minsi %range, %shifted : tensor<128xi32>
  tt.return
}

// -----

// A run compared with an aligned constant gives the same answer over
// aligned blocks; selects keep what both sides share.
tt.func @comparisons_and_selects(%n: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>}}
  %limit = tt.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %below = arith.cmpi slt, %range, %limit : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %equal = arith.cmpi eq, %range, %limit : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant_value = 0}}
  %c0 = arith.constant dense<0> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %chosen = arith.select %below, %range, %c0 : tensor<128xi1>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %flag = arith.cmpi sgt, %n, %n : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %either = arith.select %flag, %range, %range : tensor<128xi32>
  tt.return
}

// -----

// A row-major tile of f16 pointers: the rows are 8 elements (16 bytes)
// apart, the columns contiguous.
tt.func @shapes(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1], constant_value = <none>}}
  %column = tt.expand_dims %range {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], constant_value = <none>}}
  %row = tt.expand_dims %range {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [64, 1], constant_value = <none>}}
  %strides = tt.splat %stride : i32 -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [1, 1], constant_value = <none>}}
  %row_starts = arith.muli %column, %strides : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [1, 64], constant_value = <none>}}
  %rows = tt.broadcast %row_starts : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [64, 1], constant_value = <none>}}
  %columns = tt.broadcast %row : tensor<1x64xi32> -> tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 8], constancy = [1, 1], constant_value = <none>}}
  %offsets = arith.addi %rows, %columns : tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 64], constant_value = <none>}}
  %bases = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1], constant_value = <none>}}
  %pointers = tt.addptr %bases, %offsets : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [16, 2], constancy = [1, 1], constant_value = <none>}}
  %transposed = tt.trans %pointers {order = array<i32: 1, 0>} : tensor<64x64x!tt.ptr<f16>> -> tensor<64x64x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1], constant_value = <none>}}
  %values = tt.load %pointers : tensor<64x64x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [64, 64], constant_value = <none>}}
  %repeated = tt.load %bases : tensor<64x64x!tt.ptr<f16>>
  tt.return
}

// -----

// tt.contiguity / tt.divisibility / tt.constancy on arguments and ops
// override what the analysis derives.
tt.func @hints(%offsets: tensor<128xi32> {tt.contiguity = 128 : i32, tt.divisibility = 128 : i32}, %x: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
  %hinted = arith.addi %x, %x {tt.divisibility = 64 : i32} : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %pid = tt.get_program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %multiple = arith.muli %pid, %x {tt.divisibility = dense<16> : tensor<1xi32>} : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant_value = <none>}}
  %sum = arith.addi %offsets, %offsets : tensor<128xi32>
  tt.return
}

// -----

// The induction variable is divisible like its lower bound and step;
// loop-carried values join the initial and the yielded values.
tt.func @loops(%n: i32, %base: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = 8}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32], constant_value = <none>}}
  %bases = tt.splat %base : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant_value = <none>}}
  %start = tt.addptr %bases, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant_value = <none>}}
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
  %end:2 = scf.for %i = %c0 to %n step %c32 iter_args(%pointers = %start, %offset = %c0) -> (tensor<32x!tt.ptr<f32>>, i32) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [32], constant_value = <none>}}
    %starts = tt.splat %i : i32 -> tensor<32xi32>
    // expected-remark @below {{contiguity = [32], divisibility = [32], constancy = [1], constant_value = <none>}}
    %block = arith.addi %starts, %range : tensor<32xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32], constant_value = 8}}
    %steps = tt.splat %c8 : i32 -> tensor<32xi32>
    // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant_value = <none>}}
    %next = tt.addptr %pointers, %steps : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
    %next_offset = arith.addi %offset, %c8 : i32
    scf.yield %next, %next_offset : tensor<32x!tt.ptr<f32>>, i32
  }
  tt.return
}

// -----

// scf.if joins both branches, or takes the only one a constant condition
// allows (the other is not analyzed); scf.while joins the initial and the
// yielded values.
tt.func @branches(%flag: i1, %x: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = 8}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
  %joined = scf.if %flag -> (i32) {
    scf.yield %c64 : i32
  } else {
    scf.yield %c8 : i32
  }
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %false = arith.constant false
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %taken = scf.if %false -> (i32) {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
    %never = arith.addi %x, %c8 : i32
    scf.yield %never : i32
  } else {
    scf.yield %x : i32
  }
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
  %last = scf.while (%v = %c64) : (i32) -> i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
    %more = arith.cmpi slt, %v, %x : i32
    scf.condition(%more) %v : i32
  } do {
  ^bb0(%w: i32):
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>}}
    %w2 = arith.addi %w, %c8 : i32
    scf.yield %w2 : i32
  }
  tt.return
}

// -----

// Callees are analyzed after their callers, from what holds at every call
// site (written as argument attributes, as upstream does).
// CHECK-LABEL: tt.func private @callee
// CHECK-SAME: %arg0: i32 {tt.constancy = 1 : i64, tt.contiguity = 1 : i64, tt.divisibility = 16 : i64}
// CHECK-SAME: %arg1: tensor<64xi32> {tt.constancy = 1 : i64, tt.contiguity = 64 : i64, tt.divisibility = 1073741824 : i64}
tt.func private @callee(%a: i32, %b: tensor<64xi32>) -> i32 {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %r = arith.addi %a, %a : i32
  tt.return %r : i32
}

tt.func @caller(%x: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %first = tt.call @callee(%c32, %range) : (i32, tensor<64xi32>) -> i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %second = tt.call @callee(%x, %range) : (i32, tensor<64xi32>) -> i32
  tt.return
}

// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=4' | FileCheck %s

// The CHECK lines are upstream Triton 3.6's output for each case
// (convert-triton-to-tritongpu run through libtriton), printed by tt-opt.
// Inputs are canonical TTIR, as the pass gets in the pipeline: upstream's
// conversion driver folds ops before converting them, which Tritium does not.

// Elementwise ops, splats, ranges, loads and stores: the default layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @elementwise
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG2:%[A-Za-z0-9_]+]]: i32) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : i32 -> tensor<256xi32, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = arith.cmpi slt, [[V0]], [[V1]] : tensor<256xi32, #blocked>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.addptr [[V3]], [[V0]] : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.load [[V4]], [[V2]], [[CST]] evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = math.exp2 [[V5]] : tensor<256xf32, #blocked>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.clampf [[V6]], [[CST]], [[V5]], propagateNan = none : tensor<256xf32, #blocked>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.precise_sqrt [[V7]] : tensor<256xf32, #blocked>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.precise_divf [[V8]], [[V5]] : tensor<256xf32, #blocked>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = arith.maxnumf [[V9]], [[CST]] : tensor<256xf32, #blocked>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.fp_to_fp [[V10]], rounding = rtne : tensor<256xf32, #blocked> -> tensor<256xf16, #blocked>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = tt.addptr [[V12]], [[V0]] : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
// CHECK-NEXT: tt.store [[V13]], [[V11]], [[V2]] : tensor<256x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func public @elementwise(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f16>, %n: i32) {
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %bound = tt.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %range, %bound : tensor<256xi32>
    %base = tt.splat %in : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %range : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %x = tt.load %ptrs, %mask, %zero evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
    %e = math.exp2 %x : tensor<256xf32>
    %c = tt.clampf %e, %zero, %x, propagateNan = none : tensor<256xf32>
    %s = tt.precise_sqrt %c : tensor<256xf32>
    %d = tt.precise_divf %s, %x : tensor<256xf32>
    %m = arith.maxnumf %d, %zero : tensor<256xf32>
    %h = tt.fp_to_fp %m, rounding = rtne : tensor<256xf32> -> tensor<256xf16>
    %obase = tt.splat %out : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
    %optrs = tt.addptr %obase, %range : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    tt.store %optrs, %h, %mask : tensor<256x!tt.ptr<f16>>
    tt.return
  }
}

// -----

// Constants: splat and non-splat dense tensors keep their elements; scalars
// stay as they are.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @constants
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<i32>, [[ARG1:%[A-Za-z0-9_]+]]: i32) {
// CHECK-NEXT: [[C1_I32:%[A-Za-z0-9_]+]] = arith.constant 1 : i32
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<7> : tensor<4x8xi32, #blocked>
// CHECK-NEXT: [[CST_0:%[A-Za-z0-9_]+]] = arith.constant dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32, #blocked1>
// CHECK-NEXT: [[CST_1:%[A-Za-z0-9_]+]] = arith.constant dense<[true, false, true, false]> : tensor<4xi1, #blocked2>
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked2>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<4xi32, #blocked2> -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked3}>>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.expand_dims [[V1]] {axis = 1 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked3}>> -> tensor<4x1xi32, #blocked3>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<4x1xi32, #blocked3> -> tensor<4x1xi32, #blocked4>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.broadcast [[V3]] : tensor<4x1xi32, #blocked4> -> tensor<4x8xi32, #blocked4>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<4x8xi32, #blocked4> -> tensor<4x8xi32, #blocked>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.addi [[V5]], [[CST]] : tensor<4x8xi32, #blocked>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = arith.addi [[ARG1]], [[C1_I32]] : i32
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.splat [[V7]] : i32 -> tensor<4x8xi32, #blocked>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = arith.minsi [[V6]], [[V8]] : tensor<4x8xi32, #blocked>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<i32> -> tensor<4x8x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: tt.store [[V10]], [[V9]] : tensor<4x8x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<i32> -> tensor<4x2x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: tt.store [[V11]], [[CST_0]] : tensor<4x2x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #blocked2>
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = tt.addptr [[V12]], [[V0]] : tensor<4x!tt.ptr<i32>, #blocked2>, tensor<4xi32, #blocked2>
// CHECK-NEXT: tt.store [[V13]], [[V0]], [[CST_1]] : tensor<4x!tt.ptr<i32>, #blocked2>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @constants(%out: !tt.ptr<i32>, %n: i32) {
    %c1 = arith.constant 1 : i32
    %splat = arith.constant dense<7> : tensor<4x8xi32>
    %steps = arith.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>
    %flags = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %col = tt.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %b = tt.broadcast %col : tensor<4x1xi32> -> tensor<4x8xi32>
    %sum = arith.addi %b, %splat : tensor<4x8xi32>
    %nn = arith.addi %n, %c1 : i32
    %bound = tt.splat %nn : i32 -> tensor<4x8xi32>
    %capped = arith.minsi %sum, %bound : tensor<4x8xi32>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<4x8x!tt.ptr<i32>>
    tt.store %p, %capped : tensor<4x8x!tt.ptr<i32>>
    %p2 = tt.splat %out : !tt.ptr<i32> -> tensor<4x2x!tt.ptr<i32>>
    tt.store %p2, %steps : tensor<4x2x!tt.ptr<i32>>
    %p1 = tt.splat %out : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %q1 = tt.addptr %p1, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    tt.store %q1, %r, %flags : tensor<4x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// expand_dims takes a slice of a column-major layout and gives that layout
// to its result; broadcast keeps its source's layout; users convert back to
// the default layout, one conversion per value.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [0, 1, 2]}>
// CHECK-NEXT: #blocked6 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @expand_broadcast_3d
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.expand_dims [[V1]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xi32, #blocked1>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<16x1xi32, #blocked1> -> tensor<16x1xi32, #blocked2>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.expand_dims [[V4]] {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x16xi32, #blocked3>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V5]] : tensor<1x16xi32, #blocked3> -> tensor<1x16xi32, #blocked4>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.broadcast [[V3]] : tensor<16x1xi32, #blocked2> -> tensor<16x16xi32, #blocked2>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<16x16xi32, #blocked2> -> tensor<16x16xi32, #blocked4>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.broadcast [[V6]] : tensor<1x16xi32, #blocked4> -> tensor<16x16xi32, #blocked4>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = arith.addi [[V8]], [[V9]] : tensor<16x16xi32, #blocked4>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V10]] : tensor<16x16xi32, #blocked4> -> tensor<16x16xi32, #ttg.slice<{dim = 0, parent = #blocked5}>>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.expand_dims [[V11]] {axis = 0 : i32} : tensor<16x16xi32, #ttg.slice<{dim = 0, parent = #blocked5}>> -> tensor<1x16x16xi32, #blocked5>
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<1x16x16xi32, #blocked5> -> tensor<1x16x16xi32, #blocked6>
// CHECK-NEXT: [[V14:%[A-Za-z0-9_]+]] = tt.broadcast [[V13]] : tensor<1x16x16xi32, #blocked6> -> tensor<4x16x16xi32, #blocked6>
// CHECK-NEXT: [[V15:%[A-Za-z0-9_]+]] = arith.sitofp [[V14]] : tensor<4x16x16xi32, #blocked6> to tensor<4x16x16xf32, #blocked6>
// CHECK-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<4x16x16x!tt.ptr<f32>, #blocked6>
// CHECK-NEXT: [[V17:%[A-Za-z0-9_]+]] = tt.addptr [[V16]], [[V14]] : tensor<4x16x16x!tt.ptr<f32>, #blocked6>, tensor<4x16x16xi32, #blocked6>
// CHECK-NEXT: tt.store [[V17]], [[V15]] : tensor<4x16x16x!tt.ptr<f32>, #blocked6>
// CHECK-NEXT: [[V18:%[A-Za-z0-9_]+]] = arith.muli [[V8]], [[V9]] : tensor<16x16xi32, #blocked4>
// CHECK-NEXT: [[V19:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #blocked4>
// CHECK-NEXT: [[V20:%[A-Za-z0-9_]+]] = tt.addptr [[V19]], [[V18]] : tensor<16x16x!tt.ptr<f32>, #blocked4>, tensor<16x16xi32, #blocked4>
// CHECK-NEXT: [[V21:%[A-Za-z0-9_]+]] = arith.sitofp [[V18]] : tensor<16x16xi32, #blocked4> to tensor<16x16xf32, #blocked4>
// CHECK-NEXT: tt.store [[V20]], [[V21]] : tensor<16x16x!tt.ptr<f32>, #blocked4>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @expand_broadcast_3d(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %row = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %col = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %rows = tt.broadcast %row : tensor<16x1xi32> -> tensor<16x16xi32>
    %cols = tt.broadcast %col : tensor<1x16xi32> -> tensor<16x16xi32>
    %idx = arith.addi %rows, %cols : tensor<16x16xi32>
    %idx3 = tt.expand_dims %idx {axis = 0 : i32} : tensor<16x16xi32> -> tensor<1x16x16xi32>
    %wide = tt.broadcast %idx3 : tensor<1x16x16xi32> -> tensor<4x16x16xi32>
    %f = arith.sitofp %wide : tensor<4x16x16xi32> to tensor<4x16x16xf32>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<4x16x16x!tt.ptr<f32>>
    %q = tt.addptr %p, %wide : tensor<4x16x16x!tt.ptr<f32>>, tensor<4x16x16xi32>
    tt.store %q, %f : tensor<4x16x16x!tt.ptr<f32>>
    %again = arith.muli %rows, %cols : tensor<16x16xi32>
    %p2 = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %q2 = tt.addptr %p2, %again : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %f2 = arith.sitofp %again : tensor<16x16xi32> to tensor<16x16xf32>
    tt.store %q2, %f2 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Reductions: a slice of the operand's layout, converted back to the
// default layout for their users; a 1-D reduction gives a scalar; the
// conversions of a multi-result reduce are inserted right after it, the
// last one made first.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [0, 1, 2]}>
// CHECK-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [2, 1, 2], order = [2, 1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @reductions
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG2:%[A-Za-z0-9_]+]]: !tt.ptr<i32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<8x32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<8x32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked1>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64xi32, #blocked1> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.expand_dims [[V3]] {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<1x64xi32, #blocked2> -> tensor<1x64xi32, #blocked3>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V5]] : tensor<1x64xi32, #blocked3> -> tensor<1x64xi32, #ttg.slice<{dim = 0, parent = #blocked4}>>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.expand_dims [[V6]] {axis = 0 : i32} : tensor<1x64xi32, #ttg.slice<{dim = 0, parent = #blocked4}>> -> tensor<1x1x64xi32, #blocked4>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<1x1x64xi32, #blocked4> -> tensor<1x1x64xi32, #blocked5>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.broadcast [[V8]] : tensor<1x1x64xi32, #blocked5> -> tensor<8x32x64xi32, #blocked5>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V9]] : tensor<8x32x64xi32, #blocked5> -> tensor<8x32x64xi32, #blocked>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = "tt.reduce"([[V1]]) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// CHECK-NEXT: [[V24:%[A-Za-z0-9_]+]] = arith.addf [[ARG3]], [[ARG4]] : f32
// CHECK-NEXT: tt.reduce.return [[V24]] : f32
// CHECK-NEXT: }) : (tensor<8x32x64xf32, #blocked>) -> tensor<8x64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V11]] : tensor<8x64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<8x64xf32, #blocked3>
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = "tt.reduce"([[V10]]) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG3]]: i32, [[ARG4]]: i32):
// CHECK-NEXT: [[V24]] = arith.maxsi [[ARG3]], [[ARG4]] : i32
// CHECK-NEXT: tt.reduce.return [[V24]] : i32
// CHECK-NEXT: }) : (tensor<8x32x64xi32, #blocked>) -> tensor<8x64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: [[V14:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V13]] : tensor<8x64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<8x64xi32, #blocked3>
// CHECK-NEXT: [[V15:%[A-Za-z0-9_]+]]:2 = "tt.reduce"([[V12]], [[V14]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: i32, [[ARG5:%[A-Za-z0-9_]+]]: f32, [[ARG6:%[A-Za-z0-9_]+]]: i32):
// CHECK-NEXT: [[V24]] = arith.cmpf ogt, [[ARG3]], [[ARG5]] : f32
// CHECK-NEXT: [[V25:%[A-Za-z0-9_]+]] = arith.select [[V24]], [[ARG3]], [[ARG5]] : f32
// CHECK-NEXT: [[V26:%[A-Za-z0-9_]+]] = arith.select [[V24]], [[ARG4]], [[ARG6]] : i32
// CHECK-NEXT: tt.reduce.return [[V25]], [[V26]] : f32, i32
// CHECK-NEXT: }) : (tensor<8x64xf32, #blocked3>, tensor<8x64xi32, #blocked3>) -> (tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked3}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>)
// CHECK-NEXT: [[V16:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V15]]#1 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<64xi32, #blocked1>
// CHECK-NEXT: [[V17:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V15]]#0 : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<64xf32, #blocked1>
// CHECK-NEXT: [[V18:%[A-Za-z0-9_]+]] = "tt.reduce"([[V17]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: f32):
// CHECK-NEXT: [[V24]] = arith.maxnumf [[ARG3]], [[ARG4]] : f32
// CHECK-NEXT: tt.reduce.return [[V24]] : f32
// CHECK-NEXT: }) : (tensor<64xf32, #blocked1>) -> f32
// CHECK-NEXT: [[V19:%[A-Za-z0-9_]+]] = tt.splat [[V18]] : f32 -> tensor<64xf32, #blocked1>
// CHECK-NEXT: [[V20:%[A-Za-z0-9_]+]] = arith.divf [[V17]], [[V19]] : tensor<64xf32, #blocked1>
// CHECK-NEXT: [[V21:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: [[V22:%[A-Za-z0-9_]+]] = tt.addptr [[V21]], [[V2]] : tensor<64x!tt.ptr<f32>, #blocked1>, tensor<64xi32, #blocked1>
// CHECK-NEXT: tt.store [[V22]], [[V20]] : tensor<64x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: [[V23:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: tt.store [[V23]], [[V16]] : tensor<64x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @reductions(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %idx_out: !tt.ptr<i32>) {
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<8x32x64x!tt.ptr<f32>>
    %x = tt.load %p : tensor<8x32x64x!tt.ptr<f32>>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %r3 = tt.expand_dims %r2 {axis = 0 : i32} : tensor<1x64xi32> -> tensor<1x1x64xi32>
    %i = tt.broadcast %r3 : tensor<1x1x64xi32> -> tensor<8x32x64xi32>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %v = arith.addf %a, %b : f32
      tt.reduce.return %v : f32
    }) : (tensor<8x32x64xf32>) -> tensor<8x64xf32>
    %ii = "tt.reduce"(%i) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %v = arith.maxsi %a, %b : i32
      tt.reduce.return %v : i32
    }) : (tensor<8x32x64xi32>) -> tensor<8x64xi32>
    %m:2 = "tt.reduce"(%s, %ii) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %v = arith.select %gt, %a, %b : f32
      %vi = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %v, %vi : f32, i32
    }) : (tensor<8x64xf32>, tensor<8x64xi32>) -> (tensor<64xf32>, tensor<64xi32>)
    %total = "tt.reduce"(%m#0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %v = arith.maxnumf %a, %b : f32
      tt.reduce.return %v : f32
    }) : (tensor<64xf32>) -> f32
    %t = tt.splat %total : f32 -> tensor<64xf32>
    %scaled = arith.divf %m#0, %t : tensor<64xf32>
    %o = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %op = tt.addptr %o, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %op, %scaled : tensor<64x!tt.ptr<f32>>
    %io = tt.splat %idx_out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    tt.store %io, %m#1 : tensor<64x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// scan keeps its operand's layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @scan
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<16x128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = "tt.scan"([[V1]]) <{axis = 1 : i32, reverse = true}> ({
// CHECK-NEXT: ^bb0([[ARG1:%[A-Za-z0-9_]+]]: f32, [[ARG2:%[A-Za-z0-9_]+]]: f32):
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = arith.addf [[ARG1]], [[ARG2]] : f32
// CHECK-NEXT: tt.scan.return [[V3]] : f32
// CHECK-NEXT: }) : (tensor<16x128xf32, #blocked>) -> tensor<16x128xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V2]] : tensor<16x128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @scan(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>>
    %x = tt.load %p : tensor<16x128x!tt.ptr<f32>>
    %c = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.scan.return %s : f32
    }) : (tensor<16x128xf32>) -> tensor<16x128xf32>
    tt.store %p, %c : tensor<16x128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// trans permutes the layout of its source with the dims; join appends a
// register dim of two; split takes its source in a layout holding both
// halves in one thread.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-NEXT: #blocked6 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked7 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [32, 1, 1], warpsPerCTA = [1, 1, 4], order = [0, 2, 1]}>
// CHECK-NEXT: #blocked8 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [2, 2, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @trans_join_split
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.trans [[V1]] {order = array<i32: 1, 0>} : tensor<32x64xf32, #blocked> -> tensor<64x32xf32, #blocked1>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #blocked2>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.join [[V3]], [[V3]] : tensor<64x32xf32, #blocked2> -> tensor<64x32x2xf32, #blocked3>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<64x32x2xf32, #blocked3> -> tensor<64x32x2xf32, #blocked4>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V5]] : tensor<64x32x2xf32, #blocked4> -> tensor<64x32x2xf32, #blocked3>
// CHECK-NEXT: [[OUTLHS:%[A-Za-z0-9_]+]], [[OUTRHS:%[A-Za-z0-9_]+]] = tt.split [[V6]] : tensor<64x32x2xf32, #blocked3> -> tensor<64x32xf32, #blocked2>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = arith.addf [[OUTLHS]], [[OUTRHS]] : tensor<64x32xf32, #blocked2>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.trans [[V7]] {order = array<i32: 1, 0>} : tensor<64x32xf32, #blocked2> -> tensor<32x64xf32, #blocked5>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<32x64xf32, #blocked5> -> tensor<32x64xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V9]] : tensor<32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<2x8x32x!tt.ptr<f32>, #blocked6>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.load [[V10]] : tensor<2x8x32x!tt.ptr<f32>, #blocked6>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.trans [[V11]] {order = array<i32: 2, 0, 1>} : tensor<2x8x32xf32, #blocked6> -> tensor<32x2x8xf32, #blocked7>
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<32x2x8xf32, #blocked7> -> tensor<32x2x8xf32, #blocked8>
// CHECK-NEXT: [[V14:%[A-Za-z0-9_]+]] = math.sqrt [[V13]] : tensor<32x2x8xf32, #blocked8>
// CHECK-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x2x8x!tt.ptr<f32>, #blocked8>
// CHECK-NEXT: tt.store [[V15]], [[V14]] : tensor<32x2x8x!tt.ptr<f32>, #blocked8>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @trans_join_split(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x64x!tt.ptr<f32>>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    %j = tt.join %t, %t : tensor<64x32xf32> -> tensor<64x32x2xf32>
    %lhs, %rhs = tt.split %j : tensor<64x32x2xf32> -> tensor<64x32xf32>
    %s = arith.addf %lhs, %rhs : tensor<64x32xf32>
    %back = tt.trans %s {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
    tt.store %p, %back : tensor<32x64x!tt.ptr<f32>>
    %p3 = tt.splat %io : !tt.ptr<f32> -> tensor<2x8x32x!tt.ptr<f32>>
    %y = tt.load %p3 : tensor<2x8x32x!tt.ptr<f32>>
    %t3 = tt.trans %y {order = array<i32: 2, 0, 1>} : tensor<2x8x32xf32> -> tensor<32x2x8xf32>
    %z = math.sqrt %t3 : tensor<32x2x8xf32>
    %p4 = tt.splat %io : !tt.ptr<f32> -> tensor<32x2x8x!tt.ptr<f32>>
    tt.store %p4, %z : tensor<32x2x8x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// reshape and cat: reshape takes the default layouts of both shapes; cat
// gives each thread room for its elements of both operands.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @reshape_cat
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<i32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.reshape [[V0]] : tensor<512xi32, #blocked> -> tensor<16x32xi32, #blocked1>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.reshape [[V0]] allow_reorder : tensor<512xi32, #blocked> -> tensor<32x16xi32, #blocked2>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.trans [[V2]] {order = array<i32: 1, 0>} : tensor<32x16xi32, #blocked2> -> tensor<16x32xi32, #blocked3>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<16x32xi32, #blocked3> -> tensor<16x32xi32, #blocked1>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.cat [[V1]], [[V4]] : tensor<16x32xi32, #blocked1> -> tensor<32x32xi32, #blocked1>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: tt.store [[V6]], [[V5]] : tensor<32x32x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.cat [[V7]], [[V7]] : tensor<32xi32, #blocked> -> tensor<64xi32, #blocked4>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<64xi32, #blocked4> -> tensor<64xi32, #blocked>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: tt.store [[V10]], [[V9]] : tensor<64x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @reshape_cat(%io: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %m = tt.reshape %r : tensor<512xi32> -> tensor<16x32xi32>
    %l = tt.reshape %r allow_reorder : tensor<512xi32> -> tensor<32x16xi32>
    %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<32x16xi32> -> tensor<16x32xi32>
    %c = tt.cat %m, %t : tensor<16x32xi32> -> tensor<32x32xi32>
    %p = tt.splat %io : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>>
    tt.store %p, %c : tensor<32x32x!tt.ptr<i32>>
    %small = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c1 = tt.cat %small, %small : tensor<32xi32> -> tensor<64xi32>
    %p1 = tt.splat %io : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    tt.store %p1, %c1 : tensor<64x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// gather and histogram take the default layouts.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @gather_histogram
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<i32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x16x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<i32> -> tensor<64x16x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V2]] : tensor<64x16x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.gather [[V1]][[[V3]]] {axis = 0 : i32} : (tensor<32x16xf32, #blocked>, tensor<64x16xi32, #blocked>) -> tensor<64x16xf32, #blocked>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = arith.fptosi [[V4]] : tensor<64x16xf32, #blocked> to tensor<64x16xi32, #blocked>
// CHECK-NEXT: tt.store [[V2]], [[V5]] : tensor<64x16x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked1>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.histogram [[V6]] : tensor<1024xi32, #blocked1> -> tensor<64xi32, #blocked1>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: tt.store [[V8]], [[V7]] : tensor<64x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @gather_histogram(%src: !tt.ptr<f32>, %out: !tt.ptr<i32>) {
    %p = tt.splat %src : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x16x!tt.ptr<f32>>
    %ip = tt.splat %out : !tt.ptr<i32> -> tensor<64x16x!tt.ptr<i32>>
    %idx = tt.load %ip : tensor<64x16x!tt.ptr<i32>>
    %g = tt.gather %x[%idx] {axis = 0 : i32} : (tensor<32x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
    %gi = arith.fptosi %g : tensor<64x16xf32> to tensor<64x16xi32>
    tt.store %ip, %gi : tensor<64x16x!tt.ptr<i32>>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %h = tt.histogram %r : tensor<1024xi32> -> tensor<64xi32>
    %hp = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    tt.store %hp, %h : tensor<64x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// Atomics take the default layouts of their operands and results.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @atomics
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<i32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.addptr [[V1]], [[V0]] : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<true> : tensor<128xi1, #blocked>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.atomic_rmw add, acq_rel, gpu, [[V2]], [[V0]], [[CST]] : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.atomic_cas acq_rel, gpu, [[V2]], [[V3]], [[V0]] : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.sitofp [[V4]] : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.atomic_rmw fadd, relaxed, sys, [[V5]], [[V6]] : (tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
// CHECK-NEXT: [[C1_I32:%[A-Za-z0-9_]+]] = arith.constant 1 : i32
// CHECK-NEXT: [[TRUE:%[A-Za-z0-9_]+]] = arith.constant true
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.atomic_rmw exch, release, cta, [[ARG0]], [[C1_I32]], [[TRUE]] : (!tt.ptr<i32>, i32, i1) -> i32
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.splat [[V8]] : i32 -> tensor<128xi32, #blocked>
// CHECK-NEXT: tt.store [[V2]], [[V9]] : tensor<128x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @atomics(%ptr: !tt.ptr<i32>, %fptr: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %p = tt.splat %ptr : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    %mask = arith.constant dense<true> : tensor<128xi1>
    %old = tt.atomic_rmw add, acq_rel, gpu, %q, %r, %mask : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> tensor<128xi32>
    %cas = tt.atomic_cas acq_rel, gpu, %q, %old, %r : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
    %fp = tt.splat %fptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %f = arith.sitofp %cas : tensor<128xi32> to tensor<128xf32>
    %fmax = tt.atomic_rmw fadd, relaxed, sys, %fp, %f : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %one = tt.atomic_rmw exch, release, cta, %ptr, %c1, %true : (!tt.ptr<i32>, i32, i1) -> i32
    %s = tt.splat %one : i32 -> tensor<128xi32>
    tt.store %q, %s : tensor<128x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// dot: A and B are converted to dot operands of the result's layout, C is
// converted to it (even when it is in that layout already), and the users
// convert the result back.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked6 = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @dots
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<128x32x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<128x64x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.load [[V1]] : tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #blocked1>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST]] : tensor<128x32xf32, #blocked1> -> tensor<128x32xf32, #blocked2>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.dot [[V5]], [[V6]], [[V7]], inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<128x32xf32, #blocked2>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<128x32xf32, #blocked2> -> tensor<128x32xf32, #blocked1>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V9]] : tensor<128x32xf32, #blocked1> -> tensor<128x32xf32, #blocked2>
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = tt.dot [[V10]], [[V11]], [[V12]] : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<128x32xf32, #blocked2>
// CHECK-NEXT: [[V14:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V13]] : tensor<128x32xf32, #blocked2> -> tensor<128x32xf32, #blocked1>
// CHECK-NEXT: tt.store [[V2]], [[V14]] : tensor<128x32x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>, #blocked3>
// CHECK-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.load [[V15]] : tensor<16x16x!tt.ptr<f16>, #blocked3>
// CHECK-NEXT: [[CST_0:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked3>
// CHECK-NEXT: [[V17:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V16]] : tensor<16x16xf16, #blocked3> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>>
// CHECK-NEXT: [[V18:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V16]] : tensor<16x16xf16, #blocked3> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>>
// CHECK-NEXT: [[V19:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST_0]] : tensor<16x16xf32, #blocked3> -> tensor<16x16xf32, #blocked3>
// CHECK-NEXT: [[V20:%[A-Za-z0-9_]+]] = tt.dot [[V17]], [[V18]], [[V19]] : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>> -> tensor<16x16xf32, #blocked3>
// CHECK-NEXT: [[V21:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #blocked3>
// CHECK-NEXT: tt.store [[V21]], [[V20]] : tensor<16x16x!tt.ptr<f32>, #blocked3>
// CHECK-NEXT: [[V22:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<2x32x16x!tt.ptr<f16>, #blocked4>
// CHECK-NEXT: [[V23:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<2x16x64x!tt.ptr<f16>, #blocked5>
// CHECK-NEXT: [[V24:%[A-Za-z0-9_]+]] = tt.load [[V22]] : tensor<2x32x16x!tt.ptr<f16>, #blocked4>
// CHECK-NEXT: [[V25:%[A-Za-z0-9_]+]] = tt.load [[V23]] : tensor<2x16x64x!tt.ptr<f16>, #blocked5>
// CHECK-NEXT: [[CST_1:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<2x32x64xf32, #blocked5>
// CHECK-NEXT: [[V26:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V24]] : tensor<2x32x16xf16, #blocked4> -> tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked6}>>
// CHECK-NEXT: [[V27:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V25]] : tensor<2x16x64xf16, #blocked5> -> tensor<2x16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked6}>>
// CHECK-NEXT: [[V28:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST_1]] : tensor<2x32x64xf32, #blocked5> -> tensor<2x32x64xf32, #blocked6>
// CHECK-NEXT: [[V29:%[A-Za-z0-9_]+]] = tt.dot [[V26]], [[V27]], [[V28]] : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked6}>> * tensor<2x16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked6}>> -> tensor<2x32x64xf32, #blocked6>
// CHECK-NEXT: [[V30:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V29]] : tensor<2x32x64xf32, #blocked6> -> tensor<2x32x64xf32, #blocked5>
// CHECK-NEXT: [[V31:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<2x32x64x!tt.ptr<f32>, #blocked5>
// CHECK-NEXT: tt.store [[V31]], [[V30]] : tensor<2x32x64x!tt.ptr<f32>, #blocked5>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @dots(%a_ptr: !tt.ptr<f16>, %c_ptr: !tt.ptr<f32>) {
    %pa = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %pb = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pc = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<128x32x!tt.ptr<f32>>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>>
    %b = tt.load %pb : tensor<64x32x!tt.ptr<f16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x32xf32>
    %d = tt.dot %a, %b, %zero, inputPrecision = tf32 : tensor<128x64xf16> * tensor<64x32xf16> -> tensor<128x32xf32>
    %e = tt.dot %a, %b, %d, inputPrecision = ieee {maxNumImpreciseAcc = 0 : i32} : tensor<128x64xf16> * tensor<64x32xf16> -> tensor<128x32xf32>
    tt.store %pc, %e : tensor<128x32x!tt.ptr<f32>>
    %ps = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %s = tt.load %ps : tensor<16x16x!tt.ptr<f16>>
    %z16 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %sd = tt.dot %s, %s, %z16 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %pcs = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    tt.store %pcs, %sd : tensor<16x16x!tt.ptr<f32>>
    %pa3 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<2x32x16x!tt.ptr<f16>>
    %pb3 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<2x16x64x!tt.ptr<f16>>
    %a3 = tt.load %pa3 : tensor<2x32x16x!tt.ptr<f16>>
    %b3 = tt.load %pb3 : tensor<2x16x64x!tt.ptr<f16>>
    %z3 = arith.constant dense<0.000000e+00> : tensor<2x32x64xf32>
    %d3 = tt.dot %a3, %b3, %z3 : tensor<2x32x16xf16> * tensor<2x16x64xf16> -> tensor<2x32x64xf32>
    %pc3 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<2x32x64x!tt.ptr<f32>>
    tt.store %pc3, %d3 : tensor<2x32x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Loops: iter args, results and yields take the default layouts; values
// made outside the loop are converted once, right after their definition.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @loops
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: i32, [[ARG2:%[A-Za-z0-9_]+]]: i1) {
// CHECK-NEXT: [[C0_I32:%[A-Za-z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT: [[C1_I32:%[A-Za-z0-9_]+]] = arith.constant 1 : i32
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = "tt.reduce"([[V1]]) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = arith.addf [[ARG3]], [[ARG4]] : f32
// CHECK-NEXT: tt.reduce.return [[V8]] : f32
// CHECK-NEXT: }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64xf32, #blocked1>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = scf.for [[ARG3]] = [[C0_I32]] to [[ARG1]] step [[C1_I32]] iter_args([[ARG4]] = [[CST]]) -> (tensor<64xf32, #blocked1>)  : i32 {
// CHECK-NEXT: [[V8]] = arith.addf [[ARG4]], [[V3]] : tensor<64xf32, #blocked1>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = "tt.reduce"([[V1]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG5:%[A-Za-z0-9_]+]]: f32, [[ARG6:%[A-Za-z0-9_]+]]: f32):
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = arith.maxnumf [[ARG5]], [[ARG6]] : f32
// CHECK-NEXT: tt.reduce.return [[V12]] : f32
// CHECK-NEXT: }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V9]] : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<64xf32, #blocked1>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = arith.addf [[V8]], [[V10]] : tensor<64xf32, #blocked1>
// CHECK-NEXT: scf.yield [[V11]] : tensor<64xf32, #blocked1>
// CHECK-NEXT: }
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]]:2 = scf.while ([[ARG3]] = [[C0_I32]], [[ARG4]] = [[V4]]) : (i32, tensor<64xf32, #blocked1>) -> (i32, tensor<64xf32, #blocked1>) {
// CHECK-NEXT: [[V8]] = arith.cmpi slt, [[ARG3]], [[ARG1]] : i32
// CHECK-NEXT: scf.condition([[V8]]) [[ARG3]], [[ARG4]] : i32, tensor<64xf32, #blocked1>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0([[ARG3]]: i32, [[ARG4]]: tensor<64xf32, #blocked1>):
// CHECK-NEXT: [[V8]] = arith.addi [[ARG3]], [[C1_I32]] : i32
// CHECK-NEXT: [[V9]] = arith.mulf [[ARG4]], [[V3]] : tensor<64xf32, #blocked1>
// CHECK-NEXT: scf.yield [[V8]], [[V9]] : i32, tensor<64xf32, #blocked1>
// CHECK-NEXT: }
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = scf.if [[ARG2]] -> (tensor<64xf32, #blocked1>) {
// CHECK-NEXT: scf.yield [[V5]]#1 : tensor<64xf32, #blocked1>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield [[V3]] : tensor<64xf32, #blocked1>
// CHECK-NEXT: }
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: tt.store [[V7]], [[V6]] : tensor<64x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @loops(%io: !tt.ptr<f32>, %n: i32, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %x = tt.load %p : tensor<64x64x!tt.ptr<f32>>
    %rows = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero) -> (tensor<64xf32>) : i32 {
      %next = arith.addf %sum, %rows : tensor<64xf32>
      %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %v = arith.maxnumf %a, %b : f32
        tt.reduce.return %v : f32
      }) : (tensor<64x64xf32>) -> tensor<64xf32>
      %both = arith.addf %next, %m : tensor<64xf32>
      scf.yield %both : tensor<64xf32>
    }
    %w:2 = scf.while (%i = %c0, %v = %acc) : (i32, tensor<64xf32>) -> (i32, tensor<64xf32>) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i, %v : i32, tensor<64xf32>
    } do {
    ^bb0(%i: i32, %v: tensor<64xf32>):
      %i1 = arith.addi %i, %c1 : i32
      %v1 = arith.mulf %v, %rows : tensor<64xf32>
      scf.yield %i1, %v1 : i32, tensor<64xf32>
    }
    %sel = scf.if %flag -> (tensor<64xf32>) {
      scf.yield %w#1 : tensor<64xf32>
    } else {
      scf.yield %rows : tensor<64xf32>
    }
    %p1 = tt.splat %io : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    tt.store %p1, %sel : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Unstructured control flow: block arguments take the default layouts.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @branches
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: i1) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: cf.cond_br [[ARG1]], ^bb1([[V1]] : tensor<32xf32, #blocked>), ^bb2([[V1]], [[V1]] : tensor<32xf32, #blocked>, tensor<32xf32, #blocked>)
// CHECK-NEXT: ^bb1([[V2:%[A-Za-z0-9_]+]]: tensor<32xf32, #blocked>):  // pred: ^bb0
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = arith.addf [[V2]], [[V2]] : tensor<32xf32, #blocked>
// CHECK-NEXT: cf.br ^bb2([[V3]], [[V2]] : tensor<32xf32, #blocked>, tensor<32xf32, #blocked>)
// CHECK-NEXT: ^bb2([[V4:%[A-Za-z0-9_]+]]: tensor<32xf32, #blocked>, [[V5:%[A-Za-z0-9_]+]]: tensor<32xf32, #blocked>):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.mulf [[V4]], [[V5]] : tensor<32xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V6]] : tensor<32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @branches(%io: !tt.ptr<f32>, %flag: i1) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x!tt.ptr<f32>>
    cf.cond_br %flag, ^bb1(%x : tensor<32xf32>), ^bb2(%x, %x : tensor<32xf32>, tensor<32xf32>)
  ^bb1(%a: tensor<32xf32>):
    %d = arith.addf %a, %a : tensor<32xf32>
    cf.br ^bb2(%d, %a : tensor<32xf32>, tensor<32xf32>)
  ^bb2(%b: tensor<32xf32>, %c: tensor<32xf32>):
    %e = arith.mulf %b, %c : tensor<32xf32>
    tt.store %p, %e : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Calls between functions with scalar signatures; the bodies are converted.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func private @fill
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: f32) attributes {noinline = true} {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : f32 -> tensor<256xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V1]] : tensor<256x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func private @first
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) -> f32 attributes {noinline = true} {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<256x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = "tt.reduce"([[V1]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG1:%[A-Za-z0-9_]+]]: f32, [[ARG2:%[A-Za-z0-9_]+]]: f32):
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = arith.minnumf [[ARG1]], [[ARG2]] : f32
// CHECK-NEXT: tt.reduce.return [[V3]] : f32
// CHECK-NEXT: }) : (tensor<256xf32, #blocked>) -> f32
// CHECK-NEXT: tt.return [[V2]] : f32
// CHECK-NEXT: }
// CHECK-LABEL: tt.func public @caller
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.call @first([[ARG0]]) : (!tt.ptr<f32>) -> f32
// CHECK-NEXT: tt.call @fill([[ARG0]], [[V0]]) : (!tt.ptr<f32>, f32) -> ()
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func private @fill(%ptr: !tt.ptr<f32>, %v: f32) attributes {noinline = true} {
    %p = tt.splat %ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %s = tt.splat %v : f32 -> tensor<256xf32>
    tt.store %p, %s : tensor<256x!tt.ptr<f32>>
    tt.return
  }
  tt.func private @first(%ptr: !tt.ptr<f32>) -> f32 attributes {noinline = true} {
    %p = tt.splat %ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %x = tt.load %p : tensor<256x!tt.ptr<f32>>
    %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %v = arith.minnumf %a, %b : f32
      tt.reduce.return %v : f32
    }) : (tensor<256xf32>) -> f32
    tt.return %m : f32
  }
  tt.func public @caller(%ptr: !tt.ptr<f32>) {
    %m = tt.call @first(%ptr) : (!tt.ptr<f32>) -> f32
    tt.call @fill(%ptr, %m) : (!tt.ptr<f32>, f32) -> ()
    tt.return
  }
}

// -----

// Block pointers: the pointee tensor gets the default layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @block_pointers
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: i64, [[ARG2:%[A-Za-z0-9_]+]]: i64, [[ARG3:%[A-Za-z0-9_]+]]: i32) {
// CHECK-NEXT: [[C1_I64:%[A-Za-z0-9_]+]] = arith.constant 1 : i64
// CHECK-NEXT: [[C0_I32:%[A-Za-z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_tensor_ptr [[ARG0]], [[[ARG1]], [[ARG2]]], [[[ARG2]], [[C1_I64]]], [[[C0_I32]], [[C0_I32]]] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.advance [[V0]], [[[ARG3]], [[C0_I32]]] : <tensor<64x32xf16, #blocked>>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.load [[V1]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = arith.addf [[V2]], [[V2]] : tensor<64x32xf16, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V3]] {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @block_pointers(%base: !tt.ptr<f16>, %m: i64, %n: i64, %i: i32) {
    %c1 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %bp = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    %next = tt.advance %bp, [%i, %c0] : <tensor<64x32xf16>>
    %x = tt.load %next {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    %y = arith.addf %x, %x : tensor<64x32xf16>
    tt.store %bp, %y {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16>>
    tt.return
  }
}

// -----

// Tensor descriptors: the descriptor type stays, loaded tiles get the
// default layout, the row offsets of gather/scatter a layout with four
// consecutive offsets per thread.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @descriptors
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<bf16>, [[ARG1:%[A-Za-z0-9_]+]]: i32, [[ARG2:%[A-Za-z0-9_]+]]: i32, [[ARG3:%[A-Za-z0-9_]+]]: i32, [[ARG4:%[A-Za-z0-9_]+]]: i32) {
// CHECK-NEXT: [[C1_I64:%[A-Za-z0-9_]+]] = arith.constant 1 : i64
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = arith.extsi [[ARG2]] : i32 to i64
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.make_tensor_descriptor [[ARG0]], [[[ARG1]], [[ARG2]]], [[[V0]], [[C1_I64]]] : <bf16>, <tensor<64x128xbf16>>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.descriptor_load [[V1]][[[ARG3]], [[ARG4]]] : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16, #blocked>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = arith.addf [[V2]], [[V2]] : tensor<64x128xbf16, #blocked>
// CHECK-NEXT: tt.descriptor_store [[V1]][[[ARG3]], [[ARG4]]], [[V3]] : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16, #blocked>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.make_tensor_descriptor [[ARG0]], [[[ARG1]], [[ARG2]]], [[[V0]], [[C1_I64]]] : <bf16>, <tensor<1x128xbf16>>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked1>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V5]] : tensor<32xi32, #blocked1> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.descriptor_gather [[V4]][[[V6]], [[ARG4]]] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>, i32) -> tensor<32x128xbf16, #blocked>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V5]] : tensor<32xi32, #blocked1> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
// CHECK-NEXT: tt.descriptor_scatter [[V4]][[[V8]], [[ARG4]]], [[V7]] : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>, i32, tensor<32x128xbf16, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @descriptors(%base: !tt.ptr<bf16>, %m: i32, %n: i32, %i: i32, %j: i32) {
    %c1 = arith.constant 1 : i64
    %sm = arith.extsi %n : i32 to i64
    %d = tt.make_tensor_descriptor %base, [%m, %n], [%sm, %c1] : <bf16>, <tensor<64x128xbf16>>
    %tile = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16>
    %twice = arith.addf %tile, %tile : tensor<64x128xbf16>
    tt.descriptor_store %d[%i, %j], %twice : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
    %g = tt.make_tensor_descriptor %base, [%m, %n], [%sm, %c1] : <bf16>, <tensor<1x128xbf16>>
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %gtile = tt.descriptor_gather %g[%rows, %j] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
    tt.descriptor_scatter %g[%rows, %j], %gtile : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
    tt.return
  }
}

// -----

// External code, inline assembly, map_elementwise, printing and assertions.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @external
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: i32) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.extern_elementwise [[V1]], [[V1]] {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]]:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true} [[V2]], [[V1]] : tensor<64xf32, #blocked>, tensor<64xf32, #blocked> -> tensor<64xi32, #blocked>, tensor<64xi32, #blocked>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.mulhiui [[V3]]#0, [[V3]]#1 : tensor<64xi32, #blocked>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.bitcast [[V4]] : tensor<64xi32, #blocked> -> tensor<64xf32, #blocked>
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = "tt.map_elementwise"([[V5]], [[V4]]) <{pack = 1 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG2:%[A-Za-z0-9_]+]]: f32, [[ARG3:%[A-Za-z0-9_]+]]: i32):
// CHECK-NEXT: [[V13:%[A-Za-z0-9_]+]] = arith.sitofp [[ARG3]] : i32 to f32
// CHECK-NEXT: [[V14:%[A-Za-z0-9_]+]] = arith.addf [[ARG2]], [[V13]] : f32
// CHECK-NEXT: tt.map_elementwise.return [[V14]] : f32
// CHECK-NEXT: }) : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64xf32, #blocked>
// CHECK-NEXT: [[V7:%[A-Za-z0-9_]+]] = arith.cmpf oge, [[V6]], [[CST]] : tensor<64xf32, #blocked>
// CHECK-NEXT: tt.assert [[V7]], "must be positive" : tensor<64xi1, #blocked>
// CHECK-NEXT: tt.print ": x = " {hex = false, isSigned = array<i32: 0>} : [[V6]] : tensor<64xf32, #blocked>
// CHECK-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.ptr_to_int [[V0]] : tensor<64x!tt.ptr<f32>, #blocked> -> tensor<64xi64, #blocked>
// CHECK-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.int_to_ptr [[V8]] : tensor<64xi64, #blocked> -> tensor<64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.store [[V9]], [[V6]] : tensor<64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : i32 -> tensor<1x1xi32, #blocked1>
// CHECK-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.unsplat [[V10]] : tensor<1x1xi32, #blocked1>
// CHECK-NEXT: [[V12:%[A-Za-z0-9_]+]] = ub.poison : tensor<64xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V12]] : tensor<64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
module {
  tt.func @external(%io: !tt.ptr<f32>, %s: i32) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %x = tt.load %p : tensor<64x!tt.ptr<f32>>
    %pow = tt.extern_elementwise %x, %x {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %bits:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true} %pow, %x : tensor<64xf32>, tensor<64xf32> -> tensor<64xi32>, tensor<64xi32>
    %hi = tt.mulhiui %bits#0, %bits#1 : tensor<64xi32>
    %f = tt.bitcast %hi : tensor<64xi32> -> tensor<64xf32>
    %mapped = "tt.map_elementwise"(%f, %hi) <{pack = 1 : i32}> ({
    ^bb0(%a: f32, %b: i32):
      %fb = arith.sitofp %b : i32 to f32
      %sum = arith.addf %a, %fb : f32
      tt.map_elementwise.return %sum : f32
    }) : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %pos = arith.cmpf oge, %mapped, %zero : tensor<64xf32>
    tt.assert %pos, "must be positive" : tensor<64xi1>
    tt.print ": x = " {hex = false, isSigned = array<i32: 0>} : %mapped : tensor<64xf32>
    %ints = tt.ptr_to_int %p : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
    %ptrs = tt.int_to_ptr %ints : tensor<64xi64> -> tensor<64x!tt.ptr<f32>>
    tt.store %ptrs, %mapped : tensor<64x!tt.ptr<f32>>
    %one = tt.splat %s : i32 -> tensor<1x1xi32>
    %back = tt.unsplat %one : tensor<1x1xi32>
    %poison = ub.poison : tensor<64xf32>
    tt.store %p, %poison : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}

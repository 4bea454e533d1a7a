// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=4 enable-source-remat=true' | FileCheck %s
// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=4 num-ctas=2 enable-source-remat=true' | FileCheck %s --check-prefix=CTA2

// Cases upstream Triton 3.6 cannot convert, so the CHECK lines are
// Tritium's own: functions with tensors in their signatures (upstream keeps
// the function type and fails), join and split with several CTAs (upstream
// aborts building their CGA layouts), and source rematerialization (which
// upstream's Python bindings cannot turn on).

// Tensors in signatures get the default layouts, in the function type, on
// the entry block, and through calls and returns.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func private @scale
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: tensor<128xf32, #blocked>, [[ARG1:%[A-Za-z0-9_]+]]: f32) -> tensor<128xf32, #blocked> attributes {noinline = true} {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : f32 -> tensor<128xf32, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = arith.mulf [[ARG0]], [[V0]] : tensor<128xf32, #blocked>
// CHECK-NEXT: tt.return [[V1]] : tensor<128xf32, #blocked>
// CHECK-NEXT: }
// CHECK-LABEL: tt.func public @caller
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<128x32x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<128x32x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = "tt.reduce"([[V1]]) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0([[ARG1:%[A-Za-z0-9_]+]]: f32, [[ARG2:%[A-Za-z0-9_]+]]: f32):
// CHECK-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.addf [[ARG1]], [[ARG2]] : f32
// CHECK-NEXT: tt.reduce.return [[V6]] : f32
// CHECK-NEXT: }) : (tensor<128x32xf32, #blocked1>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<128xf32, #blocked>
// CHECK-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.call @scale([[V3]], [[CST]]) : (tensor<128xf32, #blocked>, f32) -> tensor<128xf32, #blocked>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.store [[V5]], [[V4]] : tensor<128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }

// CTA2: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1]]}>
// CTA2-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CTA2-LABEL: tt.func private @scale
// CTA2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: tensor<128xf32, #blocked>, [[ARG1:%[A-Za-z0-9_]+]]: f32) -> tensor<128xf32, #blocked> attributes {noinline = true} {
// CTA2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : f32 -> tensor<128xf32, #blocked>
// CTA2-NEXT: [[V1:%[A-Za-z0-9_]+]] = arith.mulf [[ARG0]], [[V0]] : tensor<128xf32, #blocked>
// CTA2-NEXT: tt.return [[V1]] : tensor<128xf32, #blocked>
// CTA2-NEXT: }
// CTA2-LABEL: tt.func public @caller
// CTA2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CTA2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<128x32x!tt.ptr<f32>, #blocked1>
// CTA2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<128x32x!tt.ptr<f32>, #blocked1>
// CTA2-NEXT: [[V2:%[A-Za-z0-9_]+]] = "tt.reduce"([[V1]]) <{axis = 1 : i32}> ({
// CTA2-NEXT: ^bb0([[ARG1:%[A-Za-z0-9_]+]]: f32, [[ARG2:%[A-Za-z0-9_]+]]: f32):
// CTA2-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.addf [[ARG1]], [[ARG2]] : f32
// CTA2-NEXT: tt.reduce.return [[V6]] : f32
// CTA2-NEXT: }) : (tensor<128x32xf32, #blocked1>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CTA2-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<128xf32, #blocked>
// CTA2-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CTA2-NEXT: [[V4:%[A-Za-z0-9_]+]] = tt.call @scale([[V3]], [[CST]]) : (tensor<128xf32, #blocked>, f32) -> tensor<128xf32, #blocked>
// CTA2-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: tt.store [[V5]], [[V4]] : tensor<128x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: tt.return
// CTA2-NEXT: }
module {
  tt.func private @scale(%x: tensor<128xf32>, %s: f32) -> tensor<128xf32> attributes {noinline = true} {
    %sp = tt.splat %s : f32 -> tensor<128xf32>
    %y = arith.mulf %x, %sp : tensor<128xf32>
    tt.return %y : tensor<128xf32>
  }
  tt.func public @caller(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<128x32x!tt.ptr<f32>>
    %x = tt.load %p : tensor<128x32x!tt.ptr<f32>>
    %rows = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128x32xf32>) -> tensor<128xf32>
    %c = arith.constant 2.000000e+00 : f32
    %y = tt.call @scale(%rows, %c) : (tensor<128xf32>, f32) -> tensor<128xf32>
    %q = tt.splat %io : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    tt.store %q, %y : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// join and split with two CTAs: the CGA layout gains or loses the pair dim.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @join_split
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.join [[V1]], [[V1]] : tensor<32x64xf32, #blocked> -> tensor<32x64x2xf32, #blocked1>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<32x64x2xf32, #blocked1> -> tensor<32x64x2xf32, #blocked2>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64x2xf32, #blocked2> -> tensor<32x64x2xf32, #blocked1>
// CHECK-NEXT: [[OUTLHS:%[A-Za-z0-9_]+]], [[OUTRHS:%[A-Za-z0-9_]+]] = tt.split [[V4]] : tensor<32x64x2xf32, #blocked1> -> tensor<32x64xf32, #blocked>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = arith.addf [[OUTLHS]], [[OUTRHS]] : tensor<32x64xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V5]] : tensor<32x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }

// CTA2: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0], CGALayout = {{\[\[}}1, 0, 0]]}>
// CTA2-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [1, 4, 1], order = [2, 1, 0], CGALayout = {{\[\[}}1, 0, 0]]}>
// CTA2-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CTA2-LABEL: tt.func @join_split
// CTA2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CTA2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x64x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.join [[V1]], [[V1]] : tensor<32x64xf32, #blocked> -> tensor<32x64x2xf32, #blocked1>
// CTA2-NEXT: [[V3:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<32x64x2xf32, #blocked1> -> tensor<32x64x2xf32, #blocked2>
// CTA2-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64x2xf32, #blocked2> -> tensor<32x64x2xf32, #blocked1>
// CTA2-NEXT: [[OUTLHS:%[A-Za-z0-9_]+]], [[OUTRHS:%[A-Za-z0-9_]+]] = tt.split [[V4]] : tensor<32x64x2xf32, #blocked1> -> tensor<32x64xf32, #blocked>
// CTA2-NEXT: [[V5:%[A-Za-z0-9_]+]] = arith.addf [[OUTLHS]], [[OUTRHS]] : tensor<32x64xf32, #blocked>
// CTA2-NEXT: tt.store [[V0]], [[V5]] : tensor<32x64x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: tt.return
// CTA2-NEXT: }
module {
  tt.func @join_split(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x64x!tt.ptr<f32>>
    %j = tt.join %x, %x : tensor<32x64xf32> -> tensor<32x64x2xf32>
    %lhs, %rhs = tt.split %j : tensor<32x64x2xf32> -> tensor<32x64xf32>
    %s = arith.addf %lhs, %rhs : tensor<32x64xf32>
    tt.store %p, %s : tensor<32x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// An op the pass leaves alone (here a ttg op) keeps the type it used; with
// enable-source-remat, a cast back to it follows the retyped value.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @remat
// CHECK-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CHECK-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: [[V2:%[A-Za-z0-9_]+]] = arith.addf [[V1]], [[V1]] : tensor<32xf32, #blocked>
// CHECK-NEXT: [[V3:%[A-Za-z0-9_]+]] = builtin.unrealized_conversion_cast [[V2]] : tensor<32xf32, #blocked> to tensor<32xf32>
// CHECK-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32xf32> -> tensor<32xf32>
// CHECK-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<32xf32> -> tensor<32xf32, #blocked>
// CHECK-NEXT: tt.store [[V0]], [[V5]] : tensor<32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }

// CTA2: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1]]}>
// CTA2-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CTA2-LABEL: tt.func @remat
// CTA2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CTA2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<32x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: [[V2:%[A-Za-z0-9_]+]] = arith.addf [[V1]], [[V1]] : tensor<32xf32, #blocked>
// CTA2-NEXT: [[V3:%[A-Za-z0-9_]+]] = builtin.unrealized_conversion_cast [[V2]] : tensor<32xf32, #blocked> to tensor<32xf32>
// CTA2-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32xf32> -> tensor<32xf32>
// CTA2-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V4]] : tensor<32xf32> -> tensor<32xf32, #blocked>
// CTA2-NEXT: tt.store [[V0]], [[V5]] : tensor<32x!tt.ptr<f32>, #blocked>
// CTA2-NEXT: tt.return
// CTA2-NEXT: }
module {
  tt.func @remat(%io: !tt.ptr<f32>) {
    %p = tt.splat %io : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %x = tt.load %p : tensor<32x!tt.ptr<f32>>
    %y = arith.addf %x, %x : tensor<32xf32>
    %z = ttg.convert_layout %y : tensor<32xf32> -> tensor<32xf32>
    tt.store %p, %z : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}

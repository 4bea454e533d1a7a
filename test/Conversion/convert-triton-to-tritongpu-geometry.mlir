// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=1' | FileCheck %s --check-prefix=W1
// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=2' | FileCheck %s --check-prefix=W2
// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:80 num-warps=8' | FileCheck %s --check-prefix=W8
// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=4 num-ctas=2' | FileCheck %s --check-prefix=CTA2
// RUN: tt-opt %s -split-input-file --convert-triton-to-tritongpu='target=hip:gfx942 num-warps=4 threads-per-warp=64' | FileCheck %s --check-prefix=T64

// How the layouts depend on the geometry options: warps per CTA, CTAs per
// cluster (the CGA layout of blocked layouts) and threads per warp. The
// CHECK lines are upstream Triton 3.6's output for each case
// (convert-triton-to-tritongpu run through libtriton), printed by tt-opt.

// A row-wise softmax over a 2-D tile: expand_dims, broadcast, reduce.
// W1: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// W1-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
// W1-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
// W1-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// W1-LABEL: tt.func public @softmax_rows
// W1-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG2:%[A-Za-z0-9_]+]]: i32) {
// W1-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
// W1-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// W1-NEXT: [[V2:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W1-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.expand_dims [[V2]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xi32, #blocked1>
// W1-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<16x1xi32, #blocked1> -> tensor<16x1xi32, #blocked2>
// W1-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : i32 -> tensor<16x1xi32, #blocked2>
// W1-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.muli [[V4]], [[V5]] : tensor<16x1xi32, #blocked2>
// W1-NEXT: [[V7:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V1]] : tensor<128xi32, #blocked> -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
// W1-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.expand_dims [[V7]] {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x128xi32, #blocked3>
// W1-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<1x128xi32, #blocked3> -> tensor<1x128xi32, #blocked4>
// W1-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.broadcast [[V6]] : tensor<16x1xi32, #blocked2> -> tensor<16x128xi32, #blocked2>
// W1-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V10]] : tensor<16x128xi32, #blocked2> -> tensor<16x128xi32, #blocked4>
// W1-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.broadcast [[V9]] : tensor<1x128xi32, #blocked4> -> tensor<16x128xi32, #blocked4>
// W1-NEXT: [[V13:%[A-Za-z0-9_]+]] = arith.addi [[V11]], [[V12]] : tensor<16x128xi32, #blocked4>
// W1-NEXT: [[V14:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// W1-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.addptr [[V14]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// W1-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.load [[V15]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// W1-NEXT: [[V17:%[A-Za-z0-9_]+]] = "tt.reduce"([[V16]]) <{axis = 1 : i32}> ({
// W1-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// W1-NEXT: [[V36:%[A-Za-z0-9_]+]] = arith.maxnumf [[ARG3]], [[ARG4]] : f32
// W1-NEXT: tt.reduce.return [[V36]] : f32
// W1-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// W1-NEXT: [[V18:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V17]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// W1-NEXT: [[V19:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V18]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W1-NEXT: [[V20:%[A-Za-z0-9_]+]] = tt.expand_dims [[V19]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// W1-NEXT: [[V21:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V20]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// W1-NEXT: [[V22:%[A-Za-z0-9_]+]] = tt.broadcast [[V21]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// W1-NEXT: [[V23:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V22]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// W1-NEXT: [[V24:%[A-Za-z0-9_]+]] = arith.subf [[V16]], [[V23]] : tensor<16x128xf32, #blocked4>
// W1-NEXT: [[V25:%[A-Za-z0-9_]+]] = math.exp [[V24]] : tensor<16x128xf32, #blocked4>
// W1-NEXT: [[V26:%[A-Za-z0-9_]+]] = "tt.reduce"([[V25]]) <{axis = 1 : i32}> ({
// W1-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: f32):
// W1-NEXT: [[V36]] = arith.addf [[ARG3]], [[ARG4]] : f32
// W1-NEXT: tt.reduce.return [[V36]] : f32
// W1-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// W1-NEXT: [[V27:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V26]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// W1-NEXT: [[V28:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V27]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W1-NEXT: [[V29:%[A-Za-z0-9_]+]] = tt.expand_dims [[V28]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// W1-NEXT: [[V30:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V29]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// W1-NEXT: [[V31:%[A-Za-z0-9_]+]] = tt.broadcast [[V30]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// W1-NEXT: [[V32:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V31]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// W1-NEXT: [[V33:%[A-Za-z0-9_]+]] = arith.divf [[V25]], [[V32]] : tensor<16x128xf32, #blocked4>
// W1-NEXT: [[V34:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// W1-NEXT: [[V35:%[A-Za-z0-9_]+]] = tt.addptr [[V34]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// W1-NEXT: tt.store [[V35]], [[V33]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// W1-NEXT: tt.return
// W1-NEXT: }

// W2: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// W2-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
// W2-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
// W2-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [0, 1]}>
// W2-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
// W2-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// W2-LABEL: tt.func public @softmax_rows
// W2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG2:%[A-Za-z0-9_]+]]: i32) {
// W2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
// W2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// W2-NEXT: [[V2:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W2-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.expand_dims [[V2]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xi32, #blocked1>
// W2-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<16x1xi32, #blocked1> -> tensor<16x1xi32, #blocked2>
// W2-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : i32 -> tensor<16x1xi32, #blocked2>
// W2-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.muli [[V4]], [[V5]] : tensor<16x1xi32, #blocked2>
// W2-NEXT: [[V7:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V1]] : tensor<128xi32, #blocked> -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
// W2-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.expand_dims [[V7]] {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x128xi32, #blocked3>
// W2-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<1x128xi32, #blocked3> -> tensor<1x128xi32, #blocked4>
// W2-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.broadcast [[V6]] : tensor<16x1xi32, #blocked2> -> tensor<16x128xi32, #blocked2>
// W2-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V10]] : tensor<16x128xi32, #blocked2> -> tensor<16x128xi32, #blocked4>
// W2-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.broadcast [[V9]] : tensor<1x128xi32, #blocked4> -> tensor<16x128xi32, #blocked4>
// W2-NEXT: [[V13:%[A-Za-z0-9_]+]] = arith.addi [[V11]], [[V12]] : tensor<16x128xi32, #blocked4>
// W2-NEXT: [[V14:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// W2-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.addptr [[V14]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// W2-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.load [[V15]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// W2-NEXT: [[V17:%[A-Za-z0-9_]+]] = "tt.reduce"([[V16]]) <{axis = 1 : i32}> ({
// W2-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// W2-NEXT: [[V36:%[A-Za-z0-9_]+]] = arith.maxnumf [[ARG3]], [[ARG4]] : f32
// W2-NEXT: tt.reduce.return [[V36]] : f32
// W2-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// W2-NEXT: [[V18:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V17]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// W2-NEXT: [[V19:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V18]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W2-NEXT: [[V20:%[A-Za-z0-9_]+]] = tt.expand_dims [[V19]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// W2-NEXT: [[V21:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V20]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// W2-NEXT: [[V22:%[A-Za-z0-9_]+]] = tt.broadcast [[V21]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// W2-NEXT: [[V23:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V22]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// W2-NEXT: [[V24:%[A-Za-z0-9_]+]] = arith.subf [[V16]], [[V23]] : tensor<16x128xf32, #blocked4>
// W2-NEXT: [[V25:%[A-Za-z0-9_]+]] = math.exp [[V24]] : tensor<16x128xf32, #blocked4>
// W2-NEXT: [[V26:%[A-Za-z0-9_]+]] = "tt.reduce"([[V25]]) <{axis = 1 : i32}> ({
// W2-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: f32):
// W2-NEXT: [[V36]] = arith.addf [[ARG3]], [[ARG4]] : f32
// W2-NEXT: tt.reduce.return [[V36]] : f32
// W2-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// W2-NEXT: [[V27:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V26]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// W2-NEXT: [[V28:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V27]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W2-NEXT: [[V29:%[A-Za-z0-9_]+]] = tt.expand_dims [[V28]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// W2-NEXT: [[V30:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V29]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// W2-NEXT: [[V31:%[A-Za-z0-9_]+]] = tt.broadcast [[V30]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// W2-NEXT: [[V32:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V31]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// W2-NEXT: [[V33:%[A-Za-z0-9_]+]] = arith.divf [[V25]], [[V32]] : tensor<16x128xf32, #blocked4>
// W2-NEXT: [[V34:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// W2-NEXT: [[V35:%[A-Za-z0-9_]+]] = tt.addptr [[V34]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// W2-NEXT: tt.store [[V35]], [[V33]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// W2-NEXT: tt.return
// W2-NEXT: }

// W8: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [0, 1]}>
// W8-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [0, 1]}>
// W8-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// W8-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// W8-LABEL: tt.func public @softmax_rows
// W8-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG2:%[A-Za-z0-9_]+]]: i32) {
// W8-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
// W8-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// W8-NEXT: [[V2:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W8-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.expand_dims [[V2]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xi32, #blocked1>
// W8-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<16x1xi32, #blocked1> -> tensor<16x1xi32, #blocked2>
// W8-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : i32 -> tensor<16x1xi32, #blocked2>
// W8-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.muli [[V4]], [[V5]] : tensor<16x1xi32, #blocked2>
// W8-NEXT: [[V7:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V1]] : tensor<128xi32, #blocked> -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
// W8-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.expand_dims [[V7]] {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x128xi32, #blocked3>
// W8-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<1x128xi32, #blocked3> -> tensor<1x128xi32, #blocked4>
// W8-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.broadcast [[V6]] : tensor<16x1xi32, #blocked2> -> tensor<16x128xi32, #blocked2>
// W8-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V10]] : tensor<16x128xi32, #blocked2> -> tensor<16x128xi32, #blocked4>
// W8-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.broadcast [[V9]] : tensor<1x128xi32, #blocked4> -> tensor<16x128xi32, #blocked4>
// W8-NEXT: [[V13:%[A-Za-z0-9_]+]] = arith.addi [[V11]], [[V12]] : tensor<16x128xi32, #blocked4>
// W8-NEXT: [[V14:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// W8-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.addptr [[V14]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// W8-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.load [[V15]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// W8-NEXT: [[V17:%[A-Za-z0-9_]+]] = "tt.reduce"([[V16]]) <{axis = 1 : i32}> ({
// W8-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// W8-NEXT: [[V36:%[A-Za-z0-9_]+]] = arith.maxnumf [[ARG3]], [[ARG4]] : f32
// W8-NEXT: tt.reduce.return [[V36]] : f32
// W8-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// W8-NEXT: [[V18:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V17]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// W8-NEXT: [[V19:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V18]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W8-NEXT: [[V20:%[A-Za-z0-9_]+]] = tt.expand_dims [[V19]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// W8-NEXT: [[V21:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V20]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// W8-NEXT: [[V22:%[A-Za-z0-9_]+]] = tt.broadcast [[V21]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// W8-NEXT: [[V23:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V22]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// W8-NEXT: [[V24:%[A-Za-z0-9_]+]] = arith.subf [[V16]], [[V23]] : tensor<16x128xf32, #blocked4>
// W8-NEXT: [[V25:%[A-Za-z0-9_]+]] = math.exp [[V24]] : tensor<16x128xf32, #blocked4>
// W8-NEXT: [[V26:%[A-Za-z0-9_]+]] = "tt.reduce"([[V25]]) <{axis = 1 : i32}> ({
// W8-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: f32):
// W8-NEXT: [[V36]] = arith.addf [[ARG3]], [[ARG4]] : f32
// W8-NEXT: tt.reduce.return [[V36]] : f32
// W8-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// W8-NEXT: [[V27:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V26]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// W8-NEXT: [[V28:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V27]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// W8-NEXT: [[V29:%[A-Za-z0-9_]+]] = tt.expand_dims [[V28]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// W8-NEXT: [[V30:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V29]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// W8-NEXT: [[V31:%[A-Za-z0-9_]+]] = tt.broadcast [[V30]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// W8-NEXT: [[V32:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V31]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// W8-NEXT: [[V33:%[A-Za-z0-9_]+]] = arith.divf [[V25]], [[V32]] : tensor<16x128xf32, #blocked4>
// W8-NEXT: [[V34:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// W8-NEXT: [[V35:%[A-Za-z0-9_]+]] = tt.addptr [[V34]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// W8-NEXT: tt.store [[V35]], [[V33]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// W8-NEXT: tt.return
// W8-NEXT: }

// CTA2: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1]]}>
// CTA2-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1], CGALayout = {{\[\[}}0, 1]]}>
// CTA2-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = {{\[\[}}0, 1]]}>
// CTA2-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CTA2-LABEL: tt.func public @softmax_rows
// CTA2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG2:%[A-Za-z0-9_]+]]: i32) {
// CTA2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
// CTA2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// CTA2-NEXT: [[V2:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CTA2-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.expand_dims [[V2]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xi32, #blocked1>
// CTA2-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<16x1xi32, #blocked1> -> tensor<16x1xi32, #blocked2>
// CTA2-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : i32 -> tensor<16x1xi32, #blocked2>
// CTA2-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.muli [[V4]], [[V5]] : tensor<16x1xi32, #blocked2>
// CTA2-NEXT: [[V7:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V1]] : tensor<128xi32, #blocked> -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
// CTA2-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.expand_dims [[V7]] {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x128xi32, #blocked3>
// CTA2-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<1x128xi32, #blocked3> -> tensor<1x128xi32, #blocked4>
// CTA2-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.broadcast [[V6]] : tensor<16x1xi32, #blocked2> -> tensor<16x128xi32, #blocked2>
// CTA2-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V10]] : tensor<16x128xi32, #blocked2> -> tensor<16x128xi32, #blocked5>
// CTA2-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.broadcast [[V9]] : tensor<1x128xi32, #blocked4> -> tensor<16x128xi32, #blocked4>
// CTA2-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<16x128xi32, #blocked4> -> tensor<16x128xi32, #blocked5>
// CTA2-NEXT: [[V14:%[A-Za-z0-9_]+]] = arith.addi [[V11]], [[V13]] : tensor<16x128xi32, #blocked5>
// CTA2-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked5>
// CTA2-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.addptr [[V15]], [[V14]] : tensor<16x128x!tt.ptr<f32>, #blocked5>, tensor<16x128xi32, #blocked5>
// CTA2-NEXT: [[V17:%[A-Za-z0-9_]+]] = tt.load [[V16]] : tensor<16x128x!tt.ptr<f32>, #blocked5>
// CTA2-NEXT: [[V18:%[A-Za-z0-9_]+]] = "tt.reduce"([[V17]]) <{axis = 1 : i32}> ({
// CTA2-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// CTA2-NEXT: [[V37:%[A-Za-z0-9_]+]] = arith.maxnumf [[ARG3]], [[ARG4]] : f32
// CTA2-NEXT: tt.reduce.return [[V37]] : f32
// CTA2-NEXT: }) : (tensor<16x128xf32, #blocked5>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked5}>>
// CTA2-NEXT: [[V19:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V18]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked5}>> -> tensor<16xf32, #blocked>
// CTA2-NEXT: [[V20:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V19]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CTA2-NEXT: [[V21:%[A-Za-z0-9_]+]] = tt.expand_dims [[V20]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// CTA2-NEXT: [[V22:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V21]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// CTA2-NEXT: [[V23:%[A-Za-z0-9_]+]] = tt.broadcast [[V22]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// CTA2-NEXT: [[V24:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V23]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked5>
// CTA2-NEXT: [[V25:%[A-Za-z0-9_]+]] = arith.subf [[V17]], [[V24]] : tensor<16x128xf32, #blocked5>
// CTA2-NEXT: [[V26:%[A-Za-z0-9_]+]] = math.exp [[V25]] : tensor<16x128xf32, #blocked5>
// CTA2-NEXT: [[V27:%[A-Za-z0-9_]+]] = "tt.reduce"([[V26]]) <{axis = 1 : i32}> ({
// CTA2-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: f32):
// CTA2-NEXT: [[V37]] = arith.addf [[ARG3]], [[ARG4]] : f32
// CTA2-NEXT: tt.reduce.return [[V37]] : f32
// CTA2-NEXT: }) : (tensor<16x128xf32, #blocked5>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked5}>>
// CTA2-NEXT: [[V28:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V27]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked5}>> -> tensor<16xf32, #blocked>
// CTA2-NEXT: [[V29:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V28]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CTA2-NEXT: [[V30:%[A-Za-z0-9_]+]] = tt.expand_dims [[V29]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// CTA2-NEXT: [[V31:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V30]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// CTA2-NEXT: [[V32:%[A-Za-z0-9_]+]] = tt.broadcast [[V31]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// CTA2-NEXT: [[V33:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V32]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked5>
// CTA2-NEXT: [[V34:%[A-Za-z0-9_]+]] = arith.divf [[V26]], [[V33]] : tensor<16x128xf32, #blocked5>
// CTA2-NEXT: [[V35:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked5>
// CTA2-NEXT: [[V36:%[A-Za-z0-9_]+]] = tt.addptr [[V35]], [[V14]] : tensor<16x128x!tt.ptr<f32>, #blocked5>, tensor<16x128xi32, #blocked5>
// CTA2-NEXT: tt.store [[V36]], [[V34]] : tensor<16x128x!tt.ptr<f32>, #blocked5>
// CTA2-NEXT: tt.return
// CTA2-NEXT: }

// T64: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// T64-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// T64-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// T64-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [1, 4], order = [0, 1]}>
// T64-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>
// T64-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
// T64-LABEL: tt.func public @softmax_rows
// T64-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>, [[ARG2:%[A-Za-z0-9_]+]]: i32) {
// T64-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
// T64-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// T64-NEXT: [[V2:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V0]] : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// T64-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.expand_dims [[V2]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xi32, #blocked1>
// T64-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<16x1xi32, #blocked1> -> tensor<16x1xi32, #blocked2>
// T64-NEXT: [[V5:%[A-Za-z0-9_]+]] = tt.splat [[ARG2]] : i32 -> tensor<16x1xi32, #blocked2>
// T64-NEXT: [[V6:%[A-Za-z0-9_]+]] = arith.muli [[V4]], [[V5]] : tensor<16x1xi32, #blocked2>
// T64-NEXT: [[V7:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V1]] : tensor<128xi32, #blocked> -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
// T64-NEXT: [[V8:%[A-Za-z0-9_]+]] = tt.expand_dims [[V7]] {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x128xi32, #blocked3>
// T64-NEXT: [[V9:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V8]] : tensor<1x128xi32, #blocked3> -> tensor<1x128xi32, #blocked4>
// T64-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.broadcast [[V6]] : tensor<16x1xi32, #blocked2> -> tensor<16x128xi32, #blocked2>
// T64-NEXT: [[V11:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V10]] : tensor<16x128xi32, #blocked2> -> tensor<16x128xi32, #blocked4>
// T64-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.broadcast [[V9]] : tensor<1x128xi32, #blocked4> -> tensor<16x128xi32, #blocked4>
// T64-NEXT: [[V13:%[A-Za-z0-9_]+]] = arith.addi [[V11]], [[V12]] : tensor<16x128xi32, #blocked4>
// T64-NEXT: [[V14:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// T64-NEXT: [[V15:%[A-Za-z0-9_]+]] = tt.addptr [[V14]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// T64-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.load [[V15]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// T64-NEXT: [[V17:%[A-Za-z0-9_]+]] = "tt.reduce"([[V16]]) <{axis = 1 : i32}> ({
// T64-NEXT: ^bb0([[ARG3:%[A-Za-z0-9_]+]]: f32, [[ARG4:%[A-Za-z0-9_]+]]: f32):
// T64-NEXT: [[V36:%[A-Za-z0-9_]+]] = arith.maxnumf [[ARG3]], [[ARG4]] : f32
// T64-NEXT: tt.reduce.return [[V36]] : f32
// T64-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// T64-NEXT: [[V18:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V17]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// T64-NEXT: [[V19:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V18]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// T64-NEXT: [[V20:%[A-Za-z0-9_]+]] = tt.expand_dims [[V19]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// T64-NEXT: [[V21:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V20]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// T64-NEXT: [[V22:%[A-Za-z0-9_]+]] = tt.broadcast [[V21]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// T64-NEXT: [[V23:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V22]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// T64-NEXT: [[V24:%[A-Za-z0-9_]+]] = arith.subf [[V16]], [[V23]] : tensor<16x128xf32, #blocked4>
// T64-NEXT: [[V25:%[A-Za-z0-9_]+]] = math.exp [[V24]] : tensor<16x128xf32, #blocked4>
// T64-NEXT: [[V26:%[A-Za-z0-9_]+]] = "tt.reduce"([[V25]]) <{axis = 1 : i32}> ({
// T64-NEXT: ^bb0([[ARG3]]: f32, [[ARG4]]: f32):
// T64-NEXT: [[V36]] = arith.addf [[ARG3]], [[ARG4]] : f32
// T64-NEXT: tt.reduce.return [[V36]] : f32
// T64-NEXT: }) : (tensor<16x128xf32, #blocked4>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>>
// T64-NEXT: [[V27:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V26]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<16xf32, #blocked>
// T64-NEXT: [[V28:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V27]] : tensor<16xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// T64-NEXT: [[V29:%[A-Za-z0-9_]+]] = tt.expand_dims [[V28]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<16x1xf32, #blocked1>
// T64-NEXT: [[V30:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V29]] : tensor<16x1xf32, #blocked1> -> tensor<16x1xf32, #blocked2>
// T64-NEXT: [[V31:%[A-Za-z0-9_]+]] = tt.broadcast [[V30]] : tensor<16x1xf32, #blocked2> -> tensor<16x128xf32, #blocked2>
// T64-NEXT: [[V32:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V31]] : tensor<16x128xf32, #blocked2> -> tensor<16x128xf32, #blocked4>
// T64-NEXT: [[V33:%[A-Za-z0-9_]+]] = arith.divf [[V25]], [[V32]] : tensor<16x128xf32, #blocked4>
// T64-NEXT: [[V34:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>, #blocked4>
// T64-NEXT: [[V35:%[A-Za-z0-9_]+]] = tt.addptr [[V34]], [[V13]] : tensor<16x128x!tt.ptr<f32>, #blocked4>, tensor<16x128xi32, #blocked4>
// T64-NEXT: tt.store [[V35]], [[V33]] : tensor<16x128x!tt.ptr<f32>, #blocked4>
// T64-NEXT: tt.return
// T64-NEXT: }
module {
  tt.func public @softmax_rows(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %stride: i32) {
    %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %s = tt.splat %stride : i32 -> tensor<16x1xi32>
    %ro = arith.muli %r, %s : tensor<16x1xi32>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x128xi32>
    %cb = tt.broadcast %c : tensor<1x128xi32> -> tensor<16x128xi32>
    %off = arith.addi %rb, %cb : tensor<16x128xi32>
    %base = tt.splat %in : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %off : tensor<16x128x!tt.ptr<f32>>, tensor<16x128xi32>
    %x = tt.load %ptrs : tensor<16x128x!tt.ptr<f32>>
    %max = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<16x128xf32>) -> tensor<16xf32>
    %me = tt.expand_dims %max {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %mb = tt.broadcast %me : tensor<16x1xf32> -> tensor<16x128xf32>
    %d = arith.subf %x, %mb : tensor<16x128xf32>
    %e = math.exp %d : tensor<16x128xf32>
    %sum = "tt.reduce"(%e) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x128xf32>) -> tensor<16xf32>
    %se = tt.expand_dims %sum {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %sb = tt.broadcast %se : tensor<16x1xf32> -> tensor<16x128xf32>
    %y = arith.divf %e, %sb : tensor<16x128xf32>
    %obase = tt.splat %out : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>>
    %optrs = tt.addptr %obase, %off : tensor<16x128x!tt.ptr<f32>>, tensor<16x128xi32>
    tt.store %optrs, %y : tensor<16x128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A matmul step and a 3-D transpose.
// W1: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
// W1-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 1, 1], order = [1, 0, 2]}>
// W1-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 8, 4], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
// W1-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// W1-LABEL: tt.func @matmul_trans
// W1-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// W1-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
// W1-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
// W1-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x32x!tt.ptr<f16>, #blocked>
// W1-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V1]] : tensor<32x64x!tt.ptr<f16>, #blocked>
// W1-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
// W1-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
// W1-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
// W1-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// W1-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.dot [[V4]], [[V5]], [[V6]] : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
// W1-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
// W1-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
// W1-NEXT: tt.store [[V9]], [[V8]] : tensor<64x64x!tt.ptr<f32>, #blocked>
// W1-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<4x8x64x!tt.ptr<f32>, #blocked2>
// W1-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.load [[V10]] : tensor<4x8x64x!tt.ptr<f32>, #blocked2>
// W1-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.trans [[V11]] {order = array<i32: 1, 2, 0>} : tensor<4x8x64xf32, #blocked2> -> tensor<8x64x4xf32, #blocked3>
// W1-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<8x64x4xf32, #blocked3> -> tensor<8x64x4xf32, #blocked4>
// W1-NEXT: [[V14:%[A-Za-z0-9_]+]] = "tt.reduce"([[V13]]) <{axis = 2 : i32}> ({
// W1-NEXT: ^bb0([[ARG2:%[A-Za-z0-9_]+]]: f32, [[ARG3:%[A-Za-z0-9_]+]]: f32):
// W1-NEXT: [[V17:%[A-Za-z0-9_]+]] = arith.addf [[ARG2]], [[ARG3]] : f32
// W1-NEXT: tt.reduce.return [[V17]] : f32
// W1-NEXT: }) : (tensor<8x64x4xf32, #blocked4>) -> tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked4}>>
// W1-NEXT: [[V15:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V14]] : tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked4}>> -> tensor<8x64xf32, #blocked>
// W1-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #blocked>
// W1-NEXT: tt.store [[V16]], [[V15]] : tensor<8x64x!tt.ptr<f32>, #blocked>
// W1-NEXT: tt.return
// W1-NEXT: }

// W2: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]}>
// W2-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
// W2-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
// W2-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 2], order = [2, 1, 0]}>
// W2-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 2, 1], order = [1, 0, 2]}>
// W2-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 8, 4], warpsPerCTA = [1, 2, 1], order = [2, 1, 0]}>
// W2-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// W2-LABEL: tt.func @matmul_trans
// W2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// W2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
// W2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
// W2-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x32x!tt.ptr<f16>, #blocked>
// W2-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V1]] : tensor<32x64x!tt.ptr<f16>, #blocked1>
// W2-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
// W2-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// W2-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// W2-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST]] : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked2>
// W2-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.dot [[V4]], [[V5]], [[V6]] : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
// W2-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked1>
// W2-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
// W2-NEXT: tt.store [[V9]], [[V8]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
// W2-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// W2-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.load [[V10]] : tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// W2-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.trans [[V11]] {order = array<i32: 1, 2, 0>} : tensor<4x8x64xf32, #blocked3> -> tensor<8x64x4xf32, #blocked4>
// W2-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<8x64x4xf32, #blocked4> -> tensor<8x64x4xf32, #blocked5>
// W2-NEXT: [[V14:%[A-Za-z0-9_]+]] = "tt.reduce"([[V13]]) <{axis = 2 : i32}> ({
// W2-NEXT: ^bb0([[ARG2:%[A-Za-z0-9_]+]]: f32, [[ARG3:%[A-Za-z0-9_]+]]: f32):
// W2-NEXT: [[V17:%[A-Za-z0-9_]+]] = arith.addf [[ARG2]], [[ARG3]] : f32
// W2-NEXT: tt.reduce.return [[V17]] : f32
// W2-NEXT: }) : (tensor<8x64x4xf32, #blocked5>) -> tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>>
// W2-NEXT: [[V15:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V14]] : tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>> -> tensor<8x64xf32, #blocked1>
// W2-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #blocked1>
// W2-NEXT: tt.store [[V16]], [[V15]] : tensor<8x64x!tt.ptr<f32>, #blocked1>
// W2-NEXT: tt.return
// W2-NEXT: }

// W8: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
// W8-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 2], order = [2, 1, 0]}>
// W8-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 2, 1], order = [1, 0, 2]}>
// W8-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 8, 4], warpsPerCTA = [1, 8, 1], order = [2, 1, 0]}>
// W8-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// W8-LABEL: tt.func @matmul_trans
// W8-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// W8-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
// W8-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
// W8-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x32x!tt.ptr<f16>, #blocked>
// W8-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V1]] : tensor<32x64x!tt.ptr<f16>, #blocked1>
// W8-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
// W8-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// W8-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// W8-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST]] : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked2>
// W8-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.dot [[V4]], [[V5]], [[V6]] : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
// W8-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked1>
// W8-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
// W8-NEXT: tt.store [[V9]], [[V8]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
// W8-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// W8-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.load [[V10]] : tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// W8-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.trans [[V11]] {order = array<i32: 1, 2, 0>} : tensor<4x8x64xf32, #blocked3> -> tensor<8x64x4xf32, #blocked4>
// W8-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<8x64x4xf32, #blocked4> -> tensor<8x64x4xf32, #blocked5>
// W8-NEXT: [[V14:%[A-Za-z0-9_]+]] = "tt.reduce"([[V13]]) <{axis = 2 : i32}> ({
// W8-NEXT: ^bb0([[ARG2:%[A-Za-z0-9_]+]]: f32, [[ARG3:%[A-Za-z0-9_]+]]: f32):
// W8-NEXT: [[V17:%[A-Za-z0-9_]+]] = arith.addf [[ARG2]], [[ARG3]] : f32
// W8-NEXT: tt.reduce.return [[V17]] : f32
// W8-NEXT: }) : (tensor<8x64x4xf32, #blocked5>) -> tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>>
// W8-NEXT: [[V15:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V14]] : tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>> -> tensor<8x64xf32, #blocked1>
// W8-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #blocked1>
// W8-NEXT: tt.store [[V16]], [[V15]] : tensor<8x64x!tt.ptr<f32>, #blocked1>
// W8-NEXT: tt.return
// W8-NEXT: }

// CTA2: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [2, 1, 0], CGALayout = {{\[\[}}1, 0, 0]]}>
// CTA2-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [1, 0, 2], CGALayout = {{\[\[}}0, 0, 1]]}>
// CTA2-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 8, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0], CGALayout = {{\[\[}}1, 0, 0]]}>
// CTA2-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CTA2-LABEL: tt.func @matmul_trans
// CTA2-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// CTA2-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
// CTA2-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
// CTA2-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x32x!tt.ptr<f16>, #blocked>
// CTA2-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V1]] : tensor<32x64x!tt.ptr<f16>, #blocked1>
// CTA2-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
// CTA2-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CTA2-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CTA2-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST]] : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked2>
// CTA2-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.dot [[V4]], [[V5]], [[V6]] : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
// CTA2-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked1>
// CTA2-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
// CTA2-NEXT: tt.store [[V9]], [[V8]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
// CTA2-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// CTA2-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.load [[V10]] : tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// CTA2-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.trans [[V11]] {order = array<i32: 1, 2, 0>} : tensor<4x8x64xf32, #blocked3> -> tensor<8x64x4xf32, #blocked4>
// CTA2-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<8x64x4xf32, #blocked4> -> tensor<8x64x4xf32, #blocked5>
// CTA2-NEXT: [[V14:%[A-Za-z0-9_]+]] = "tt.reduce"([[V13]]) <{axis = 2 : i32}> ({
// CTA2-NEXT: ^bb0([[ARG2:%[A-Za-z0-9_]+]]: f32, [[ARG3:%[A-Za-z0-9_]+]]: f32):
// CTA2-NEXT: [[V17:%[A-Za-z0-9_]+]] = arith.addf [[ARG2]], [[ARG3]] : f32
// CTA2-NEXT: tt.reduce.return [[V17]] : f32
// CTA2-NEXT: }) : (tensor<8x64x4xf32, #blocked5>) -> tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>>
// CTA2-NEXT: [[V15:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V14]] : tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>> -> tensor<8x64xf32, #blocked1>
// CTA2-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #blocked1>
// CTA2-NEXT: tt.store [[V16]], [[V15]] : tensor<8x64x!tt.ptr<f32>, #blocked1>
// CTA2-NEXT: tt.return
// CTA2-NEXT: }

// T64: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// T64-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
// T64-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// T64-NEXT: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 64], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// T64-NEXT: #blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 64, 1], warpsPerCTA = [4, 1, 1], order = [1, 0, 2]}>
// T64-NEXT: #blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// T64-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
// T64-LABEL: tt.func @matmul_trans
// T64-SAME: ([[ARG0:%[A-Za-z0-9_]+]]: !tt.ptr<f16>, [[ARG1:%[A-Za-z0-9_]+]]: !tt.ptr<f32>) {
// T64-NEXT: [[V0:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
// T64-NEXT: [[V1:%[A-Za-z0-9_]+]] = tt.splat [[ARG0]] : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
// T64-NEXT: [[V2:%[A-Za-z0-9_]+]] = tt.load [[V0]] : tensor<64x32x!tt.ptr<f16>, #blocked>
// T64-NEXT: [[V3:%[A-Za-z0-9_]+]] = tt.load [[V1]] : tensor<32x64x!tt.ptr<f16>, #blocked1>
// T64-NEXT: [[CST:%[A-Za-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
// T64-NEXT: [[V4:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V2]] : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// T64-NEXT: [[V5:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V3]] : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// T64-NEXT: [[V6:%[A-Za-z0-9_]+]] = ttg.convert_layout [[CST]] : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked2>
// T64-NEXT: [[V7:%[A-Za-z0-9_]+]] = tt.dot [[V4]], [[V5]], [[V6]] : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
// T64-NEXT: [[V8:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V7]] : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked1>
// T64-NEXT: [[V9:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
// T64-NEXT: tt.store [[V9]], [[V8]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
// T64-NEXT: [[V10:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// T64-NEXT: [[V11:%[A-Za-z0-9_]+]] = tt.load [[V10]] : tensor<4x8x64x!tt.ptr<f32>, #blocked3>
// T64-NEXT: [[V12:%[A-Za-z0-9_]+]] = tt.trans [[V11]] {order = array<i32: 1, 2, 0>} : tensor<4x8x64xf32, #blocked3> -> tensor<8x64x4xf32, #blocked4>
// T64-NEXT: [[V13:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V12]] : tensor<8x64x4xf32, #blocked4> -> tensor<8x64x4xf32, #blocked5>
// T64-NEXT: [[V14:%[A-Za-z0-9_]+]] = "tt.reduce"([[V13]]) <{axis = 2 : i32}> ({
// T64-NEXT: ^bb0([[ARG2:%[A-Za-z0-9_]+]]: f32, [[ARG3:%[A-Za-z0-9_]+]]: f32):
// T64-NEXT: [[V17:%[A-Za-z0-9_]+]] = arith.addf [[ARG2]], [[ARG3]] : f32
// T64-NEXT: tt.reduce.return [[V17]] : f32
// T64-NEXT: }) : (tensor<8x64x4xf32, #blocked5>) -> tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>>
// T64-NEXT: [[V15:%[A-Za-z0-9_]+]] = ttg.convert_layout [[V14]] : tensor<8x64xf32, #ttg.slice<{dim = 2, parent = #blocked5}>> -> tensor<8x64xf32, #blocked1>
// T64-NEXT: [[V16:%[A-Za-z0-9_]+]] = tt.splat [[ARG1]] : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #blocked1>
// T64-NEXT: tt.store [[V16]], [[V15]] : tensor<8x64x!tt.ptr<f32>, #blocked1>
// T64-NEXT: tt.return
// T64-NEXT: }
module {
  tt.func @matmul_trans(%a_ptr: !tt.ptr<f16>, %c_ptr: !tt.ptr<f32>) {
    %pa = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pb = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pc = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    tt.store %pc, %d : tensor<64x64x!tt.ptr<f32>>
    %p3 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<4x8x64x!tt.ptr<f32>>
    %x3 = tt.load %p3 : tensor<4x8x64x!tt.ptr<f32>>
    %t3 = tt.trans %x3 {order = array<i32: 1, 2, 0>} : tensor<4x8x64xf32> -> tensor<8x64x4xf32>
    %r3 = "tt.reduce"(%t3) <{axis = 2 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tt.reduce.return %w : f32
    }) : (tensor<8x64x4xf32>) -> tensor<8x64xf32>
    %q = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
    tt.store %q, %r3 : tensor<8x64x!tt.ptr<f32>>
    tt.return
  }
}

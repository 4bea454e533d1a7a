// f64 tt.dot through mma.sync (upstream Triton 3.6's TTGIR of a 32x32x32 f64
// dot, 4 warps of 16x16 accumulator tiles each, K = 32). Each warp has two
// 16x8 tiles, and K is two tiles of 16 k: sm_90 uses mma.sync.m16n8k16.f64
// (4 per warp, as upstream); sm_80 four pairs of m8n8k4 per m16n8k16 (32).
// Each thread holds A's k = t, t + 4, t + 8, t + 12 of a K tile: a lowering
// that uses only some of them (once, only k = t and t + 8) gives fewer
// instructions and wrong sums.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/sm90.mlir -o %t/sm90 && FileCheck %s --check-prefix=SM90 --input-file %t/sm90/dot_kernel.ptx
// RUN: tritium compile %t/sm80.mlir -o %t/sm80 && FileCheck %s --check-prefix=SM80 --input-file %t/sm80/dot_kernel.ptx
// RUN: FileCheck %s --check-prefix=ORDER --input-file %t/sm90/dot_kernel.ptx

// SM90-NOT: m8n8k4
// SM90-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}}, {%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}}, {%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}}
// SM90-NOT: mma.sync
// SM80-NOT: m16n8k16
// SM80-COUNT-32: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
// SM80-NOT: mma.sync

// The instructions in upstream's order, K outermost: the two tiles of the
// first K step (one A fragment, two B), then the second K step's.
// ORDER: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {{[{][^}]*[}]}}, [[A0:[{][^}]*[}]]], {{[{][^}]*[}]}}
// ORDER-NOT: mma.sync
// ORDER: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {{[{][^}]*[}]}}, [[A0]], {{[{][^}]*[}]}}
// ORDER-NOT: mma.sync
// ORDER: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {{[{][^}]*[}]}}, [[A1:[{][^}]*[}]]], {{[{][^}]*[}]}}
// ORDER-NOT: mma.sync
// ORDER: mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {{[{][^}]*[}]}}, [[A1]], {{[{][^}]*[}]}}

//--- sm90.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_kernel(%X: !tt.ptr<f64>, %Y: !tt.ptr<f64>, %Z: !tt.ptr<f64>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x32xf64, #mma>
    %x = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %x_1 = tt.expand_dims %x {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %x_2 = arith.muli %x_1, %cst : tensor<32x1xi32, #blocked>
    %x_3 = tt.splat %X : !tt.ptr<f64> -> tensor<32x1x!tt.ptr<f64>, #blocked>
    %x_4 = tt.addptr %x_3, %x_2 : tensor<32x1x!tt.ptr<f64>, #blocked>, tensor<32x1xi32, #blocked>
    %x_5 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %x_6 = tt.expand_dims %x_5 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %x_7 = tt.broadcast %x_4 : tensor<32x1x!tt.ptr<f64>, #blocked> -> tensor<32x32x!tt.ptr<f64>, #blocked>
    %x_8 = tt.broadcast %x_6 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %x_9 = tt.addptr %x_7, %x_8 : tensor<32x32x!tt.ptr<f64>, #blocked>, tensor<32x32xi32, #blocked>
    %x_10 = tt.load %x_9 : tensor<32x32x!tt.ptr<f64>, #blocked>
    %x_11 = ttg.local_alloc %x_10 : (tensor<32x32xf64, #blocked>) -> !ttg.memdesc<32x32xf64, #shared, #smem>
    %y = tt.splat %Y : !tt.ptr<f64> -> tensor<32x1x!tt.ptr<f64>, #blocked>
    %y_12 = tt.addptr %y, %x_2 : tensor<32x1x!tt.ptr<f64>, #blocked>, tensor<32x1xi32, #blocked>
    %y_13 = tt.broadcast %y_12 : tensor<32x1x!tt.ptr<f64>, #blocked> -> tensor<32x32x!tt.ptr<f64>, #blocked>
    %y_14 = tt.addptr %y_13, %x_8 : tensor<32x32x!tt.ptr<f64>, #blocked>, tensor<32x32xi32, #blocked>
    %y_15 = tt.load %y_14 : tensor<32x32x!tt.ptr<f64>, #blocked>
    %y_16 = ttg.local_alloc %y_15 : (tensor<32x32xf64, #blocked>) -> !ttg.memdesc<32x32xf64, #shared1, #smem>
    %x_17 = ttg.local_load %x_11 : !ttg.memdesc<32x32xf64, #shared, #smem> -> tensor<32x32xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %y_18 = ttg.local_load %y_16 : !ttg.memdesc<32x32xf64, #shared1, #smem> -> tensor<32x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %z = tt.dot %x_17, %y_18, %cst_0, inputPrecision = tf32 : tensor<32x32xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf64, #mma>
    %0 = tt.splat %Z : !tt.ptr<f64> -> tensor<32x1x!tt.ptr<f64>, #blocked>
    %1 = tt.addptr %0, %x_2 : tensor<32x1x!tt.ptr<f64>, #blocked>, tensor<32x1xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<32x1x!tt.ptr<f64>, #blocked> -> tensor<32x32x!tt.ptr<f64>, #blocked>
    %3 = tt.addptr %2, %x_8 : tensor<32x32x!tt.ptr<f64>, #blocked>, tensor<32x32xi32, #blocked>
    %4 = ttg.convert_layout %z : tensor<32x32xf64, #mma> -> tensor<32x32xf64, #blocked>
    tt.store %3, %4 : tensor<32x32x!tt.ptr<f64>, #blocked>
    tt.return
  }
}

//--- sm80.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_kernel(%X: !tt.ptr<f64>, %Y: !tt.ptr<f64>, %Z: !tt.ptr<f64>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x32xf64, #mma>
    %x = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %x_1 = tt.expand_dims %x {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %x_2 = arith.muli %x_1, %cst : tensor<32x1xi32, #blocked>
    %x_3 = tt.splat %X : !tt.ptr<f64> -> tensor<32x1x!tt.ptr<f64>, #blocked>
    %x_4 = tt.addptr %x_3, %x_2 : tensor<32x1x!tt.ptr<f64>, #blocked>, tensor<32x1xi32, #blocked>
    %x_5 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %x_6 = tt.expand_dims %x_5 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %x_7 = tt.broadcast %x_4 : tensor<32x1x!tt.ptr<f64>, #blocked> -> tensor<32x32x!tt.ptr<f64>, #blocked>
    %x_8 = tt.broadcast %x_6 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %x_9 = tt.addptr %x_7, %x_8 : tensor<32x32x!tt.ptr<f64>, #blocked>, tensor<32x32xi32, #blocked>
    %x_10 = tt.load %x_9 : tensor<32x32x!tt.ptr<f64>, #blocked>
    %x_11 = ttg.local_alloc %x_10 : (tensor<32x32xf64, #blocked>) -> !ttg.memdesc<32x32xf64, #shared, #smem>
    %y = tt.splat %Y : !tt.ptr<f64> -> tensor<32x1x!tt.ptr<f64>, #blocked>
    %y_12 = tt.addptr %y, %x_2 : tensor<32x1x!tt.ptr<f64>, #blocked>, tensor<32x1xi32, #blocked>
    %y_13 = tt.broadcast %y_12 : tensor<32x1x!tt.ptr<f64>, #blocked> -> tensor<32x32x!tt.ptr<f64>, #blocked>
    %y_14 = tt.addptr %y_13, %x_8 : tensor<32x32x!tt.ptr<f64>, #blocked>, tensor<32x32xi32, #blocked>
    %y_15 = tt.load %y_14 : tensor<32x32x!tt.ptr<f64>, #blocked>
    %y_16 = ttg.local_alloc %y_15 : (tensor<32x32xf64, #blocked>) -> !ttg.memdesc<32x32xf64, #shared1, #smem>
    %x_17 = ttg.local_load %x_11 : !ttg.memdesc<32x32xf64, #shared, #smem> -> tensor<32x32xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %y_18 = ttg.local_load %y_16 : !ttg.memdesc<32x32xf64, #shared1, #smem> -> tensor<32x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %z = tt.dot %x_17, %y_18, %cst_0, inputPrecision = tf32 : tensor<32x32xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf64, #mma>
    %0 = tt.splat %Z : !tt.ptr<f64> -> tensor<32x1x!tt.ptr<f64>, #blocked>
    %1 = tt.addptr %0, %x_2 : tensor<32x1x!tt.ptr<f64>, #blocked>, tensor<32x1xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<32x1x!tt.ptr<f64>, #blocked> -> tensor<32x32x!tt.ptr<f64>, #blocked>
    %3 = tt.addptr %2, %x_8 : tensor<32x32x!tt.ptr<f64>, #blocked>, tensor<32x32xi32, #blocked>
    %4 = ttg.convert_layout %z : tensor<32x32xf64, #mma> -> tensor<32x32xf64, #blocked>
    tt.store %3, %4 : tensor<32x32x!tt.ptr<f64>, #blocked>
    tt.return
  }
}

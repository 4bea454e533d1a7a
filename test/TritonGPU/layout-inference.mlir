// RUN: tt-opt --split-input-file %s | FileCheck %s

// Results of tt.trans, tt.split and tt.join whose layouts are those the ops'
// inference gives, or equivalent to them (the same linear layout).

#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#pairT = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
// #pairT written as a linear layout.
#pairTLinear = #ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [], block = []}>
// The pairs of #pair, one per register.
#pairLinear = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @equivalent_layouts
  tt.func @equivalent_layouts(%x: tensor<32x2xf32, #pair>, %l: tensor<32x2xf32, #pairLinear>, %r: tensor<32xf32, #row>) {
    // CHECK: tt.trans %{{.*}} -> tensor<2x32xf32, #blocked{{[0-9]*}}>
    %t0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x2xf32, #pair> -> tensor<2x32xf32, #pairT>
    // CHECK: tt.trans %{{.*}} -> tensor<2x32xf32, #linear{{[0-9]*}}>
    %t1 = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x2xf32, #pair> -> tensor<2x32xf32, #pairTLinear>
    // CHECK: tt.split %{{.*}} -> tensor<32xf32, #blocked{{[0-9]*}}>
    %a, %b = tt.split %x : tensor<32x2xf32, #pair> -> tensor<32xf32, #row>
    // CHECK: tt.split %{{.*}} : tensor<32x2xf32, #linear{{[0-9]*}}> -> tensor<32xf32, #blocked{{[0-9]*}}>
    %c, %d = tt.split %l : tensor<32x2xf32, #pairLinear> -> tensor<32xf32, #row>
    // CHECK: tt.join %{{.*}} -> tensor<32x2xf32, #blocked{{[0-9]*}}>
    %j0 = tt.join %r, %r : tensor<32xf32, #row> -> tensor<32x2xf32, #pair>
    // CHECK: tt.join %{{.*}} -> tensor<32x2xf32, #linear{{[0-9]*}}>
    %j1 = tt.join %r, %r : tensor<32xf32, #row> -> tensor<32x2xf32, #pairLinear>
    tt.return
  }
}

// -----

// A 3-d transposition permutes every parameter of a blocked layout.
#b3 = #ttg.blocked<{sizePerThread = [1, 2, 4], threadsPerWarp = [4, 8, 1], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
#b3T = #ttg.blocked<{sizePerThread = [4, 1, 2], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 1, 2], order = [0, 2, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @trans_3d
  tt.func @trans_3d(%x: tensor<8x32x16xf16, #b3>) {
    // CHECK: tt.trans %{{.*}} {order = array<i32: 2, 0, 1>}
    %t = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<8x32x16xf16, #b3> -> tensor<16x8x32xf16, #b3T>
    tt.return
  }
}

// -----

// Subslices that start at whole swizzling patterns: rows by 8 (the phase
// repeats every 8 rows), columns anywhere.
#swizzled = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @subslice_whole_patterns
  tt.func @subslice_whole_patterns(%m: !ttg.memdesc<16x16xf32, #swizzled, #smem, mutable>) {
    // CHECK: ttg.memdesc_subslice %{{.*}}[8, 0]
    %rows = ttg.memdesc_subslice %m [8, 0] : !ttg.memdesc<16x16xf32, #swizzled, #smem, mutable> -> !ttg.memdesc<8x16xf32, #swizzled, #smem, mutable, 16x16>
    // CHECK: ttg.memdesc_subslice %{{.*}}[0, 8]
    %cols = ttg.memdesc_subslice %m [0, 8] : !ttg.memdesc<16x16xf32, #swizzled, #smem, mutable> -> !ttg.memdesc<16x8xf32, #swizzled, #smem, mutable, 16x16>
    // A slice of a slice is checked against the allocation's layout.
    // CHECK: ttg.memdesc_subslice %{{.*}}[0, 4]
    %sub = ttg.memdesc_subslice %cols [0, 4] : !ttg.memdesc<16x8xf32, #swizzled, #smem, mutable, 16x16> -> !ttg.memdesc<16x4xf32, #swizzled, #smem, mutable, 16x16>
    tt.return
  }
}

// -----

// ttg.memdesc_trans: a swizzled layout inverts its order, an NVMMA layout
// flips `transposed`, a view of a larger allocation permutes the allocation.
#sw = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#swT = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @memdesc_trans_layouts
  tt.func @memdesc_trans_layouts(%s: !ttg.memdesc<32x64xf16, #sw, #smem>, %n: !ttg.memdesc<64x128xf16, #nv, #smem, mutable>, %b: !ttg.memdesc<64x128xf16, #sw, #smem, mutable>) {
    // CHECK: ttg.memdesc_trans %{{.*}} -> !ttg.memdesc<64x32xf16, #shared{{[0-9]*}}, #smem>
    %0 = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #sw, #smem> -> !ttg.memdesc<64x32xf16, #swT, #smem>
    // CHECK: ttg.memdesc_trans %{{.*}} -> !ttg.memdesc<128x64xf16, #shared{{[0-9]*}}, #smem, mutable>
    %1 = ttg.memdesc_trans %n {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, #nv, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvT, #smem, mutable>
    %v = ttg.memdesc_subslice %b [32, 0] : !ttg.memdesc<64x128xf16, #sw, #smem, mutable> -> !ttg.memdesc<32x128xf16, #sw, #smem, mutable, 64x128>
    // CHECK: ttg.memdesc_trans %{{.*}} -> !ttg.memdesc<128x32xf16, #shared{{[0-9]*}}, #smem, mutable, 128x64>
    %2 = ttg.memdesc_trans %v {order = array<i32: 1, 0>} : !ttg.memdesc<32x128xf16, #sw, #smem, mutable, 64x128> -> !ttg.memdesc<128x32xf16, #swT, #smem, mutable, 128x64>
    tt.return
  }
}

// -----

// ttg.fp4_to_fp: the packed source holds half the elements per thread along
// the axis; when the result's order does not put the axis first, the source
// layout is compared as a linear layout.
#packed = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#unpacked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @fp4_to_fp_linear_rule
  tt.func @fp4_to_fp_linear_rule(%x: tensor<32x1xi8, #packed>) {
    // CHECK: ttg.fp4_to_fp %{{.*}} {axis = 1 : i32}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<32x1xi8, #packed> -> tensor<32x2xbf16, #unpacked>
    tt.return
  }
}

// RUN: tt-opt %s -split-input-file --tritongpu-optimize-dot-operands | FileCheck %s
// RUN: tt-opt %s -split-input-file --tritongpu-optimize-dot-operands=hoist-layout-conversion=false | FileCheck %s

// The CHECK lines are upstream Triton 3.6's output for these inputs (its pass run
// through libtriton, printed by tt-opt).

// sm_80: B of an mma.sync dot transposed in registers (convert(trans(x))): x goes to shared memory in the swizzled layout of the transposed operand, and the operand is loaded through a transposed view.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK: #shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @transposed_b
// CHECK: %0 = ttg.local_alloc %arg1 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared1, #smem>
// CHECK: %2 = ttg.local_load %1 : !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %3 = tt.dot %arg0, %2, %arg2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %x: tensor<64x32xf16, #blocked>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    %b = ttg.convert_layout %t : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// sm_80: the same with a conversion before the transpose: the stored layout follows the data's layout before that conversion; A (opIdx 0) transposed, 8-bit.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>
// CHECK: #shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [0, 1]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @transposed_a_i8
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<64x64xi8, #blocked>) -> !ttg.memdesc<64x64xi8, #shared, #smem>
// CHECK: %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xi8, #shared, #smem> -> !ttg.memdesc<64x64xi8, #shared1, #smem>
// CHECK: %2 = ttg.local_load %1 : !ttg.memdesc<64x64xi8, #shared1, #smem> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %3 = tt.dot %2, %arg1, %arg2 : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xi32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_a_i8(%x: tensor<64x64xi8, #blocked>, %b: tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %c: tensor<64x64xi32, #mma>) -> tensor<64x64xi32, #mma> {
    %x2 = ttg.convert_layout %x : tensor<64x64xi8, #blocked> -> tensor<64x64xi8, #blocked2>
    %t = tt.trans %x2 {order = array<i32: 1, 0>} : tensor<64x64xi8, #blocked2> -> tensor<64x64xi8, #blocked1>
    %a = ttg.convert_layout %t : tensor<64x64xi8, #blocked1> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %d = tt.dot %a, %b, %c : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xi32, #mma>
    tt.return %d : tensor<64x64xi32, #mma>
  }
}

// -----

// FMA dot (blocked parent): the transposed operand goes through shared memory unswizzled.
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @transposed_b_fma
// CHECK: %0 = ttg.local_alloc %arg1 : (tensor<32x16xf32, #blocked1>) -> !ttg.memdesc<32x16xf32, #shared, #smem>
// CHECK: %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<32x16xf32, #shared, #smem> -> !ttg.memdesc<16x32xf32, #shared1, #smem>
// CHECK: %2 = ttg.local_load %1 : !ttg.memdesc<16x32xf32, #shared1, #smem> -> tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %3 = tt.dot %arg0, %2, %arg2 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b_fma(%a: tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>, %x: tensor<32x16xf32, #blocked>, %c: tensor<32x32xf32, #blocked2>) -> tensor<32x32xf32, #blocked2> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x16xf32, #blocked> -> tensor<16x32xf32, #blocked1>
    %b = ttg.convert_layout %t : tensor<16x32xf32, #blocked1> -> tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
    %d = tt.dot %a, %b, %c : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<32x32xf32, #blocked2>
    tt.return %d : tensor<32x32xf32, #blocked2>
  }
}

// -----

// A transposed operand also used elsewhere stays in registers.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @transposed_b_two_uses
// CHECK: %0 = tt.trans %arg1 {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
// CHECK: %1 = ttg.convert_layout %0 : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %2 = tt.dot %arg0, %1, %arg2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %3 = tt.dot %arg0, %1, %2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b_two_uses(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %x: tensor<64x32xf16, #blocked>, %c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    %b = ttg.convert_layout %t : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %e = tt.dot %a, %b, %d : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d, %e : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
  }
}

// -----

// sm_90: a transposed B stored for a wgmma: stored untransposed and read through a transposed view (wgmma reads either major-ness).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @wgmma_transposed_b
// CHECK: %0 = ttg.local_alloc %arg1 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared1, #smem>
// CHECK: %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #shared1, #smem> -> !ttg.memdesc<32x64xf16, #shared2, #smem>
// CHECK: %2 = ttng.warp_group_dot %arg0, %1, %arg2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared2, #smem> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_transposed_b(%a: !ttg.memdesc<64x32xf16, #shared, #smem>, %x: tensor<64x32xf16, #blocked>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    %b = ttg.local_alloc %t : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// sm_90: a conversion between the transpose and the allocation is folded first, then the transpose becomes a view as well.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @wgmma_transposed_converted_b
// CHECK: %0 = ttg.local_alloc %arg1 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared1, #smem>
// CHECK: %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #shared1, #smem> -> !ttg.memdesc<32x64xf16, #shared2, #smem>
// CHECK: %2 = ttng.warp_group_dot %arg0, %1, %arg2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared2, #smem> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_transposed_converted_b(%a: !ttg.memdesc<64x32xf16, #shared, #smem>, %x: tensor<64x32xf16, #blocked>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    %t2 = ttg.convert_layout %t : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #blocked2>
    %b = ttg.local_alloc %t2 : (tensor<32x64xf16, #blocked2>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// sm_90: an allocation of a transpose read by something else than a wgmma stays.
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @transposed_alloc_loaded
// CHECK: %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
// CHECK: %1 = ttg.local_alloc %0 : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
// CHECK: %2 = ttg.local_load %1 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_alloc_loaded(%x: tensor<64x32xf16, #blocked>) -> tensor<32x64xf16, #blocked1> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    %b = ttg.local_alloc %t : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    %l = ttg.local_load %b : !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<32x64xf16, #blocked1>
    tt.return %l : tensor<32x64xf16, #blocked1>
  }
}

// -----

// An NVMMA allocation of a reshape that keeps the contiguous dim: stored unreshaped and viewed through memdesc_reshape.
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @reshaped
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<4x16x64xf16, #blocked>) -> !ttg.memdesc<4x16x64xf16, #shared1, #smem>
// CHECK: %1 = ttg.memdesc_reshape %0 : !ttg.memdesc<4x16x64xf16, #shared1, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
#blocked = #ttg.blocked<{sizePerThread = [1, 4, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshaped(%x: tensor<4x16x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem> {
    %r = tt.reshape %x : tensor<4x16x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %b = ttg.local_alloc %r : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return %b : !ttg.memdesc<64x64xf16, #shared, #smem>
  }
}

// -----

// A reshape that changes the contiguous dim keeps its allocation.
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @reshaped_inner
// CHECK: %0 = tt.reshape %arg0 : tensor<64x2x32xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK: %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [8, 1, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshaped_inner(%x: tensor<64x2x32xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem> {
    %r = tt.reshape %x : tensor<64x2x32xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %b = ttg.local_alloc %r : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return %b : !ttg.memdesc<64x64xf16, #shared, #smem>
  }
}

// -----

// Blackwell's MMA reads transposed operands as wgmma does: the transpose
// moves into shared memory.
// CHECK-LABEL: tt.func @mmav5_transposed_operand
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>}
// CHECK-NEXT: ttng.tc_gen5_mma %[[T]]
#bt = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#ba = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mmav5_transposed_operand(%t: tensor<64x128xf16, #bt>, %b: !ttg.memdesc<64x64xf16, #nvt, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %a = tt.trans %t {order = array<i32: 1, 0>} : tensor<64x128xf16, #bt> -> tensor<128x64xf16, #ba>
    %as = ttg.local_alloc %a : (tensor<128x64xf16, #ba>) -> !ttg.memdesc<128x64xf16, #nvt, #ttg.shared_memory>
    ttng.tc_gen5_mma %as, %b, %d, %true, %true : !ttg.memdesc<128x64xf16, #nvt, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nvt, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }
}

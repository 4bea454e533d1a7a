// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm | FileCheck %s

// ttg.fp4_to_fp places each upcast value by its coordinate. Layouts that
// upstream's remove-layout-conversions propagates backwards from a dot
// operand can put the result's nibble bit after other register bits (here
// last): result registers 0-3 hold the low nibbles of bytes 0-3 (elements
// 0, 2, 4, 6) and registers 4-7 the high nibbles. Once the lowering required
// the nibble bit first and rejected upstream's TTGIR of an mxfp4 GEMM on sm_90.
// CHECK-LABEL: llvm.func internal @nibble_bit_last
// CHECK: %[[ASM:.*]] = llvm.inline_asm
// CHECK-DAG: %[[W0:.*]] = llvm.extractvalue %[[ASM]][0]
// CHECK-DAG: %[[W1:.*]] = llvm.extractvalue %[[ASM]][1]
// CHECK-DAG: %[[B0LO:.*]] = llvm.extractelement %[[W0]][%[[C0:.*]] : i32]
// CHECK-DAG: %[[B0HI:.*]] = llvm.extractelement %[[W0]][%[[C1:.*]] : i32]
// CHECK-DAG: %[[B1LO:.*]] = llvm.extractelement %[[W1]][%[[C0]] : i32]
// CHECK: llvm.insertvalue %[[B0LO]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[B1LO]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[B0HI]], %{{.*}}[4]
#bytes = #ttg.linear<{register = [[1], [2]], lane = [[0], [0], [0], [0], [0]], warp = [], block = []}>
#values = #ttg.linear<{register = [[2], [4], [1]], lane = [[0], [0], [0], [0], [0]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @nibble_bit_last(%x: tensor<4xi8, #bytes>) -> tensor<8xbf16, #values> {
    %0 = ttg.fp4_to_fp %x {axis = 0 : i32} : tensor<4xi8, #bytes> -> tensor<8xbf16, #values>
    tt.return %0 : tensor<8xbf16, #values>
  }
}

// -----

// With the nibble bit first (a blocked layout with sizePerThread doubled),
// each byte's two values are consecutive registers.
// CHECK-LABEL: llvm.func internal @nibble_bit_first
// CHECK: %[[ASM:.*]] = llvm.inline_asm
// CHECK: %[[W0:.*]] = llvm.extractvalue %[[ASM]][0]
// CHECK: %[[B0LO:.*]] = llvm.extractelement %[[W0]][%{{.*}} : i32]
// CHECK-NEXT: %[[B0HI:.*]] = llvm.extractelement %[[W0]][%{{.*}} : i32]
// CHECK: llvm.insertvalue %[[B0LO]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[B0HI]], %{{.*}}[1]
#in = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#out = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @nibble_bit_first(%x: tensor<4x32xi8, #in>) -> tensor<4x64xf16, #out> {
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<4x32xi8, #in> -> tensor<4x64xf16, #out>
    tt.return %0 : tensor<4x64xf16, #out>
  }
}

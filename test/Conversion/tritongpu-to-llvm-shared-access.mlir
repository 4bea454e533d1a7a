// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm | FileCheck %s

// Shared-memory accesses are integer vectors, as upstream's storeDShared /
// loadDShared make them: floats as the integers of their bits, one element
// as a one-element vector, and more than four elements under 32 bits as
// 32-bit words (PTX has no v8).

// Eight bf16 read at once: four 32-bit words.
// CHECK-LABEL: llvm.func @bf16_rows
// CHECK: nvvm.stmatrix
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.bitcast %{{.+}} : vector<4xi32> to vector<8xbf16>
#src = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_rows(%x: tensor<8x16xbf16, #src>, %out: tensor<8x16x!tt.ptr<bf16>, #dst>) {
    %y = ttg.convert_layout %x : tensor<8x16xbf16, #src> -> tensor<8x16xbf16, #dst>
    tt.store %out, %y : tensor<8x16x!tt.ptr<bf16>, #dst>
    tt.return
  }
}

// -----

// Eight bytes per access: two 32-bit words.
// CHECK-LABEL: llvm.func @byte_rows
// CHECK: llvm.bitcast %{{.+}} : vector<4xi8> to i32
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
#src = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @byte_rows(%x: tensor<8x32xi8, #src>, %out: tensor<8x32x!tt.ptr<i8>, #dst>) {
    %y = ttg.convert_layout %x : tensor<8x32xi8, #src> -> tensor<8x32xi8, #dst>
    tt.store %out, %y : tensor<8x32x!tt.ptr<i8>, #dst>
    tt.return
  }
}

// -----

// f32 written one at a time, read four at a time.
// CHECK-LABEL: llvm.func @f32_scalars
// CHECK: llvm.bitcast %{{.+}} : f32 to i32
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<3>
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
#src = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f32_scalars(%x: tensor<128xf32, #src>, %out: tensor<128x!tt.ptr<f32>, #dst>) {
    %y = ttg.convert_layout %x : tensor<128xf32, #src> -> tensor<128xf32, #dst>
    tt.store %out, %y : tensor<128x!tt.ptr<f32>, #dst>
    tt.return
  }
}

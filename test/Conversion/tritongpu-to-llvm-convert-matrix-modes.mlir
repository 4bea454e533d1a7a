// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// ldmatrix moves 16-byte rows whatever the element size: for 32-bit
// elements each lane's b32 is one element (lanes 0-1 walk a row, lanes 2-4
// pick it). One warp, a row of 32 f32 per thread to 4x8 blocks: in rounds
// (upstream's scratch holds an eighth of the tensor), each a 16-byte store
// of the rows, a warp barrier, and an ldmatrix.x4 reading the blocks, as
// upstream does.
// CHECK-LABEL: llvm.func @f32_rows_to_blocks
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.ldmatrix %{{.*}} {{.*}}num = 4 : i32{{.*}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.bar.warp.sync
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.ldmatrix %{{.*}} {{.*}}num = 4 : i32{{.*}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: llvm.load {{.*}}!llvm.ptr<3>
// CHECK: llvm.return
#rows = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocks = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @f32_rows_to_blocks(%x: tensor<32x32xf32, #rows>, %p: tensor<32x32x!tt.ptr<f32>, #blocks>) {
    %y = ttg.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #blocks>
    tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #blocks>
    tt.return
  }
}

// -----

// 8-bit elements: each lane's b32 is four elements (two register bits walk
// its bytes, lanes 0-1 the row's words). A row of 64 i8 per thread to 4x16
// blocks: 16-byte stores, ldmatrix.x4 reads.
// CHECK-LABEL: llvm.func @i8_rows_to_blocks
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.ldmatrix %{{.*}} {{.*}}num = 4 : i32{{.*}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: llvm.load {{.*}}!llvm.ptr<3>
// CHECK: llvm.return
#rows = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocks = #ttg.blocked<{sizePerThread = [4, 16], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @i8_rows_to_blocks(%x: tensor<32x64xi8, #rows>, %p: tensor<32x64x!tt.ptr<i8>, #blocks>) {
    %y = ttg.convert_layout %x : tensor<32x64xi8, #rows> -> tensor<32x64xi8, #blocks>
    tt.store %p, %y : tensor<32x64x!tt.ptr<i8>, #blocks>
    tt.return
  }
}

// -----

// Where the other side cannot move whole 16-byte rows, no matrix: an fp8
// transpose writes bytes, so it reads with ld.shared as upstream does.
// CHECK-LABEL: llvm.func @fp8_transpose
// CHECK-NOT: nvvm.ldmatrix
// CHECK: llvm.return
#t0 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t1 = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @fp8_transpose(%x: tensor<128x128xf8E5M2, #t0>, %p: tensor<128x128x!tt.ptr<f8E5M2>, #t1>) {
    %y = ttg.convert_layout %x : tensor<128x128xf8E5M2, #t0> -> tensor<128x128xf8E5M2, #t1>
    tt.store %p, %y : tensor<128x128x!tt.ptr<f8E5M2>, #t1>
    tt.return
  }
}

// -----

// The sm_80 matmul epilogue: the f32 accumulator narrowed to f16, then to
// the store's layout. A narrowed element is made alone, so a 16-byte store
// may pair any two of them in a word (one cvt.rn.f16x2.f32 each): the
// accumulator's rows r and r + 8 go out as 16-byte vectors and come back
// with ldmatrix.trans, as upstream (not 4-byte stores of the f16 pairs the
// accumulator holds side by side, four times the instructions).
// CHECK-LABEL: llvm.func @narrowed_accumulator_to_rows
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.ldmatrix %{{.*}} {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-NOT: llvm.store %{{.*}}, %{{.*}} {alignment = {{[1248]}} : i64} : {{.*}}, !llvm.ptr<3>
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
#store = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80"} {
  tt.func public @narrowed_accumulator_to_rows(%acc: tensor<128x256xf32, #mma>, %p: tensor<128x256x!tt.ptr<f16>, #store>) {
    %h = arith.truncf %acc : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
    %y = ttg.convert_layout %h : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #store>
    tt.store %p, %y : tensor<128x256x!tt.ptr<f16>, #store>
    tt.return
  }
}

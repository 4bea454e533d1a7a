// A tile's row offsets times a runtime stride: after O3 the row indices are
// `or disjoint` (the first row is a multiple of the tile height), which
// LLVM 22's straight-line strength reduction does not reuse a basis
// through; Tritium hands NVPTX the 32-bit disjoint ors as `add nuw nsw`, so
// each row's offset is the previous one plus the stride (one mul.lo per
// thread's row block, then adds), as upstream's LLVM strength-reduces them.
// Before: one mul.lo.s32 per row.
// REQUIRES: tritium
// RUN: rm -rf %t && tritium compile %s --target cuda:90 --num-warps 4 --emit-llvm -o %t
// RUN: FileCheck %s --check-prefix=LLVM < %t/fill_rows.ll
// RUN: FileCheck %s --check-prefix=PTX < %t/fill_rows.ptx
// LLVM-NOT: or disjoint i32
// PTX: mul.lo.s32 [[ROW0:%r[0-9]+]], %r{{[0-9]+}}, [[N:%r[0-9]+]];
// PTX: add.s32 [[ROW1:%r[0-9]+]], [[ROW0]], [[STEP:%r[0-9]+]];
// PTX-NEXT: add.s32 {{%r[0-9]+}}, [[ROW1]], [[STEP]];
module {
  tt.func public @fill_rows(%Y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N: i32 {tt.divisibility = 16 : i32}, %value: f32) {
    %c64_i32 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %first = arith.muli %pid, %c64_i32 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %firsts = tt.splat %first : i32 -> tensor<64xi32>
    %rows = arith.addi %firsts, %range : tensor<64xi32>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %strides = tt.splat %N : i32 -> tensor<64x1xi32>
    %offsets = arith.muli %rows2, %strides : tensor<64x1xi32>
    %base = tt.splat %Y : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
    %rowptrs = tt.addptr %base, %offsets : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
    %rowptrs2 = tt.broadcast %rowptrs : tensor<64x1x!tt.ptr<f32>> -> tensor<64x64x!tt.ptr<f32>>
    %cols2 = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %ptrs = tt.addptr %rowptrs2, %cols2 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %values = tt.splat %value : f32 -> tensor<64x64xf32>
    tt.store %ptrs, %values : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}

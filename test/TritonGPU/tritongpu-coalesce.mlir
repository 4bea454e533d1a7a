// RUN: tt-opt %s -split-input-file --tritongpu-coalesce | FileCheck %s

// 1-D f32 accesses behind a mask: 16-byte aligned and contiguous, so four
// elements (128 bits) per thread, for the loads and the store alike.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @add_vectors
// CHECK: %9 = ttg.convert_layout %8 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %10 = ttg.convert_layout %6 : tensor<1024xi1, #blocked> -> tensor<1024xi1, #blocked1>
// CHECK-NEXT: %11 = tt.load %9, %10 : tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %12 = ttg.convert_layout %11 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
// CHECK: %15 = ttg.convert_layout %14 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %16 = ttg.convert_layout %6 : tensor<1024xi1, #blocked> -> tensor<1024xi1, #blocked1>
// CHECK-NEXT: %17 = tt.load %15, %16 : tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %18 = ttg.convert_layout %17 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
// CHECK: %22 = ttg.convert_layout %21 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %23 = ttg.convert_layout %19 : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
// CHECK-NEXT: %24 = ttg.convert_layout %6 : tensor<1024xi1, #blocked> -> tensor<1024xi1, #blocked1>
// CHECK-NEXT: tt.store %22, %23, %24 : tensor<1024x!tt.ptr<f32>, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @add_vectors(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %starts = tt.splat %start : i32 -> tensor<1024xi32, #blocked>
    %offsets = arith.addi %starts, %range : tensor<1024xi32, #blocked>
    %limit = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offsets, %limit : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %x_ptrs = tt.addptr %xs, %offsets : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %a = tt.load %x_ptrs, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %y_ptrs = tt.addptr %ys, %offsets : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %b = tt.load %y_ptrs, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    %sum = arith.addf %a, %b : tensor<1024xf32, #blocked>
    %outs = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %out_ptrs = tt.addptr %outs, %offsets : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %out_ptrs, %sum, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Without a divisibility hint on the base pointer only single elements are
// known to be aligned.
// CHECK-LABEL: tt.func public @unaligned_base
// CHECK: %3 = ttg.convert_layout %2 : tensor<512x!tt.ptr<f32>, #blocked> -> tensor<512x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %4 = tt.load %3 : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %5 = ttg.convert_layout %2 : tensor<512x!tt.ptr<f32>, #blocked> -> tensor<512x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %6 = ttg.convert_layout %4 : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked>
// CHECK-NEXT: tt.store %5, %6 : tensor<512x!tt.ptr<f32>, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unaligned_base(%x: !tt.ptr<f32>) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %xs, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %ptrs : tensor<512x!tt.ptr<f32>, #blocked>
    tt.store %ptrs, %v : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// 256 f16 elements over 128 threads: two per thread, although 16 bytes
// would allow eight.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @small_tensor
// CHECK: %3 = ttg.convert_layout %2 : tensor<256x!tt.ptr<f16>, #blocked> -> tensor<256x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %4 = tt.load %3 : tensor<256x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %5 = ttg.convert_layout %4 : tensor<256xf16, #blocked1> -> tensor<256xf16, #blocked>
// CHECK-NEXT: %6 = ttg.convert_layout %2 : tensor<256x!tt.ptr<f16>, #blocked> -> tensor<256x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %7 = ttg.convert_layout %5 : tensor<256xf16, #blocked> -> tensor<256xf16, #blocked1>
// CHECK-NEXT: tt.store %6, %7 : tensor<256x!tt.ptr<f16>, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @small_tensor(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %xs, %range : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %ptrs : tensor<256x!tt.ptr<f16>, #blocked>
    tt.store %ptrs, %v : tensor<256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A row-major 2-D tile (rows strided by a multiple of 16 elements): the
// columns are contiguous, so dim 1 comes first and holds eight f16 (16
// bytes) per thread.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @row_major_tile
// CHECK: %11 = ttg.convert_layout %10 : tensor<64x64x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %12 = tt.load %11 : tensor<64x64x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %13 = ttg.convert_layout %12 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.slice<{dim = 1, parent = #blocked}>
#col = #ttg.slice<{dim = 0, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_major_tile(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #col>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #row> -> tensor<64x1xi32, #blocked>
    %strides = tt.splat %stride : i32 -> tensor<64x1xi32, #blocked>
    %row_offsets = arith.muli %rows2, %strides : tensor<64x1xi32, #blocked>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #col> -> tensor<1x64xi32, #blocked>
    %row_offsets_b = tt.broadcast %row_offsets : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cols_b = tt.broadcast %cols2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %offsets = arith.addi %row_offsets_b, %cols_b : tensor<64x64xi32, #blocked>
    %bases = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %bases, %offsets : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %v = tt.load %ptrs : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// The same tile stored column-major (columns strided): dim 0 is the
// contiguous one.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @column_major_tile
// CHECK: %11 = ttg.convert_layout %10 : tensor<64x32x!tt.ptr<f32>, #blocked> -> tensor<64x32x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %12 = ttg.convert_layout %arg2 : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked1>
// CHECK-NEXT: tt.store %11, %12 : tensor<64x32x!tt.ptr<f32>, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.slice<{dim = 1, parent = #blocked}>
#col = #ttg.slice<{dim = 0, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @column_major_tile(%base: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %value: tensor<64x32xf32, #blocked>) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #col>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #row> -> tensor<64x1xi32, #blocked>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #col> -> tensor<1x32xi32, #blocked>
    %strides = tt.splat %stride : i32 -> tensor<1x32xi32, #blocked>
    %col_offsets = arith.muli %cols2, %strides : tensor<1x32xi32, #blocked>
    %rows_b = tt.broadcast %rows2 : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %col_offsets_b = tt.broadcast %col_offsets : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %offsets = arith.addi %rows_b, %col_offsets_b : tensor<64x32xi32, #blocked>
    %bases = tt.splat %base : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %bases, %offsets : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    tt.store %ptrs, %value : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A masked load with a default value of 64-bit elements: two per thread
// (128 bits); mask and default are converted along with the pointers.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: tt.func public @masked_i64
// CHECK: %5 = ttg.convert_layout %4 : tensor<512x!tt.ptr<i64>, #blocked> -> tensor<512x!tt.ptr<i64>, #blocked1>
// CHECK-NEXT: %6 = ttg.convert_layout %2 : tensor<512xi1, #blocked> -> tensor<512xi1, #blocked1>
// CHECK-NEXT: %7 = ttg.convert_layout %cst : tensor<512xi64, #blocked> -> tensor<512xi64, #blocked1>
// CHECK-NEXT: %8 = tt.load %5, %6, %7 : tensor<512x!tt.ptr<i64>, #blocked1>
// CHECK-NEXT: %9 = ttg.convert_layout %8 : tensor<512xi64, #blocked1> -> tensor<512xi64, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @masked_i64(%x: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<512xi64, #blocked> {
    %zero = arith.constant dense<0> : tensor<512xi64, #blocked>
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %limit = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %range, %limit : tensor<512xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<i64> -> tensor<512x!tt.ptr<i64>, #blocked>
    %ptrs = tt.addptr %xs, %range : tensor<512x!tt.ptr<i64>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %ptrs, %mask, %zero : tensor<512x!tt.ptr<i64>, #blocked>
    tt.return %v : tensor<512xi64, #blocked>
  }
}

// -----

// Loop-carried pointers advanced by a multiple of 16 elements keep their
// alignment; a stride of 4 elements would lower it.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @loop_carried
// CHECK: %6 = ttg.convert_layout %arg4 : tensor<1024x!tt.ptr<f16>, #blocked> -> tensor<1024x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %7 = tt.load %6 : tensor<1024x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %8 = ttg.convert_layout %7 : tensor<1024xf16, #blocked1> -> tensor<1024xf16, #blocked>
// CHECK-NEXT: %9 = ttg.convert_layout %arg5 : tensor<1024x!tt.ptr<f16>, #blocked> -> tensor<1024x!tt.ptr<f16>, #blocked2>
// CHECK-NEXT: %10 = ttg.convert_layout %8 : tensor<1024xf16, #blocked> -> tensor<1024xf16, #blocked2>
// CHECK-NEXT: tt.store %9, %10 : tensor<1024x!tt.ptr<f16>, #blocked2>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop_carried(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step16 = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %step4 = arith.constant dense<4> : tensor<1024xi32, #blocked>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %x_ptrs = tt.addptr %xs, %range : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %y_ptrs = tt.addptr %ys, %range : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %end:2 = scf.for %i = %c0 to %n step %c1 iter_args(%xp = %x_ptrs, %yp = %y_ptrs) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %xp : tensor<1024x!tt.ptr<f16>, #blocked>
      tt.store %yp, %v : tensor<1024x!tt.ptr<f16>, #blocked>
      %next_x = tt.addptr %xp, %step16 : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %next_y = tt.addptr %yp, %step4 : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %next_x, %next_y : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// Offsets computed from the induction variable: its divisibility is that of
// the lower bound and the step (here 256 elements).
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @induction_offsets
// CHECK: %6 = ttg.convert_layout %5 : tensor<256x!tt.ptr<bf16>, #blocked> -> tensor<256x!tt.ptr<bf16>, #blocked1>
// CHECK-NEXT: %7 = tt.load %6 : tensor<256x!tt.ptr<bf16>, #blocked1>
// CHECK-NEXT: %8 = ttg.convert_layout %7 : tensor<256xbf16, #blocked1> -> tensor<256xbf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @induction_offsets(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<256xbf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xbf16, #blocked>
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<256x!tt.ptr<bf16>, #blocked>
    %acc = scf.for %i = %c0 to %n step %c256 iter_args(%sum = %zero) -> (tensor<256xbf16, #blocked>) : i32 {
      %starts = tt.splat %i : i32 -> tensor<256xi32, #blocked>
      %offsets = arith.addi %starts, %range : tensor<256xi32, #blocked>
      %ptrs = tt.addptr %xs, %offsets : tensor<256x!tt.ptr<bf16>, #blocked>, tensor<256xi32, #blocked>
      %v = tt.load %ptrs : tensor<256x!tt.ptr<bf16>, #blocked>
      %next = arith.addf %sum, %v : tensor<256xbf16, #blocked>
      scf.yield %next : tensor<256xbf16, #blocked>
    }
    tt.return %acc : tensor<256xbf16, #blocked>
  }
}

// -----

// Accesses connected through their values share the widest vector proven
// for pointers of the same shape and order: the load through poorly
// aligned pointers takes the width of the aligned store it feeds.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @shared_width
// CHECK: %3 = ttg.convert_layout %2 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %4 = tt.load %3 : tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %5 = ttg.convert_layout %4 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
// CHECK: %8 = ttg.convert_layout %7 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %9 = ttg.convert_layout %5 : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
// CHECK-NEXT: tt.store %8, %9 : tensor<1024x!tt.ptr<f32>, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_width(%src: !tt.ptr<f32> {tt.divisibility = 4 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %srcs = tt.splat %src : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %src_ptrs = tt.addptr %srcs, %range : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %src_ptrs : tensor<1024x!tt.ptr<f32>, #blocked>
    %dsts = tt.splat %dst : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %dst_ptrs = tt.addptr %dsts, %range : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %dst_ptrs, %v : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Atomics are coalesced like stores.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @atomics
// CHECK: %3 = ttg.convert_layout %2 : tensor<512x!tt.ptr<f32>, #blocked> -> tensor<512x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %4 = ttg.convert_layout %arg2 : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
// CHECK-NEXT: %5 = tt.atomic_rmw fadd, relaxed, gpu, %3, %4 : (tensor<512x!tt.ptr<f32>, #blocked1>, tensor<512xf32, #blocked1>) -> tensor<512xf32, #blocked1>
// CHECK-NEXT: %6 = ttg.convert_layout %5 : tensor<512xf32, #blocked1> -> tensor<512xf32, #blocked>
// CHECK: %9 = ttg.convert_layout %8 : tensor<512x!tt.ptr<i32>, #blocked> -> tensor<512x!tt.ptr<i32>, #blocked1>
// CHECK-NEXT: %10 = ttg.convert_layout %arg3 : tensor<512xi32, #blocked> -> tensor<512xi32, #blocked1>
// CHECK-NEXT: %11 = ttg.convert_layout %arg3 : tensor<512xi32, #blocked> -> tensor<512xi32, #blocked1>
// CHECK-NEXT: %12 = tt.atomic_cas acq_rel, gpu, %9, %10, %11 : (tensor<512x!tt.ptr<i32>, #blocked1>, tensor<512xi32, #blocked1>, tensor<512xi32, #blocked1>) -> tensor<512xi32, #blocked1>
// CHECK-NEXT: %13 = ttg.convert_layout %12 : tensor<512xi32, #blocked1> -> tensor<512xi32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @atomics(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %v: tensor<512xf32, #blocked>, %c: tensor<512xi32, #blocked>) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %x_ptrs = tt.addptr %xs, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %x_ptrs, %v : (tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked>
    %ys = tt.splat %y : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %y_ptrs = tt.addptr %ys, %range : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    %prev = tt.atomic_cas acq_rel, gpu, %y_ptrs, %c, %c : (tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>, tensor<512xi32, #blocked>) -> tensor<512xi32, #blocked>
    tt.return
  }
}

// -----

// Tensor-descriptor accesses get 16 bytes per thread along the last dim,
// whatever their current layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @descriptors
// CHECK-NEXT: %0 = tt.descriptor_load %arg0[%arg2, %arg2] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: %1 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT: %2 = ttg.convert_layout %1 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tt.descriptor_store %arg1[%arg2, %arg2], %2 : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptors(%in: !tt.tensordesc<tensor<64x64xf16>>, %out: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
    %v = tt.descriptor_load %in[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %out[%i, %i], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// A function's own ttg.num-warps wins over the module's.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: tt.func public @function_warps
// CHECK: %3 = ttg.convert_layout %2 : tensor<256x!tt.ptr<f32>, #blocked> -> tensor<256x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %4 = tt.load %3 : tensor<256x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %5 = ttg.convert_layout %4 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @function_warps(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {"ttg.num-warps" = 2 : i32} {
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %xs, %range : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %ptrs : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Offsets chosen by an scf.if: the join of both branches (contiguous in
// runs of 64, aligned to 8 elements).
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @branch_join
// CHECK: %4 = ttg.convert_layout %3 : tensor<1024x!tt.ptr<i8>, #blocked> -> tensor<1024x!tt.ptr<i8>, #blocked1>
// CHECK-NEXT: %5 = tt.load %4 : tensor<1024x!tt.ptr<i8>, #blocked1>
// CHECK-NEXT: %6 = ttg.convert_layout %5 : tensor<1024xi8, #blocked1> -> tensor<1024xi8, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @branch_join(%x: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %flag: i1) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %offsets = scf.if %flag -> (tensor<1024xi32, #blocked>) {
      scf.yield %range : tensor<1024xi32, #blocked>
    } else {
      %c8 = arith.constant dense<8> : tensor<1024xi32, #blocked>
      %c64 = arith.constant dense<64> : tensor<1024xi32, #blocked>
      %blocks = arith.remsi %range, %c64 : tensor<1024xi32, #blocked>
      %shifted = arith.addi %blocks, %c8 : tensor<1024xi32, #blocked>
      scf.yield %shifted : tensor<1024xi32, #blocked>
    }
    %xs = tt.splat %x : !tt.ptr<i8> -> tensor<1024x!tt.ptr<i8>, #blocked>
    %ptrs = tt.addptr %xs, %offsets : tensor<1024x!tt.ptr<i8>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %ptrs : tensor<1024x!tt.ptr<i8>, #blocked>
    tt.return
  }
}

// -----

// A pointer offset carried through scf.while: the join of the initial
// offset and the yielded ones (multiples of 64 elements).
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @while_loop
// CHECK: %12 = ttg.convert_layout %11 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %13 = tt.load %12 : tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %14 = ttg.convert_layout %13 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
// CHECK: %6 = ttg.convert_layout %5 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %7 = tt.load %6 : tensor<1024x!tt.ptr<f32>, #blocked1>
// CHECK-NEXT: %8 = ttg.convert_layout %7 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @while_loop(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %r = scf.while (%off = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %off, %n : i32
      scf.condition(%c) %off : i32
    } do {
    ^bb0(%o: i32):
      %os = tt.splat %o : i32 -> tensor<1024xi32, #blocked>
      %offs = arith.addi %os, %range : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked>
      %o2 = arith.addi %o, %c64 : i32
      scf.yield %o2 : i32
    }
    %rs = tt.splat %r : i32 -> tensor<1024xi32, #blocked>
    %offs2 = arith.addi %rs, %range : tensor<1024xi32, #blocked>
    %p2 = tt.addptr %xs, %offs2 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v2 = tt.load %p2 : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// An async copy to shared memory: the pointers and the mask are
// converted, the token result keeps its type.
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @async_copy
// CHECK: %1 = ttg.convert_layout %arg0 : tensor<64x64x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: %2 = ttg.convert_layout %arg1 : tensor<64x64xi1, #blocked> -> tensor<64x64xi1, #blocked1>
// CHECK-NEXT: %3 = ttg.async_copy_global_to_local %1, %0 mask %2 : tensor<64x64x!tt.ptr<f16>, #blocked1> -> <64x64xf16, #shared, #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @async_copy(%ptrs: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %mask: tensor<64x64xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %tok = ttg.async_copy_global_to_local %ptrs, %buf mask %mask : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

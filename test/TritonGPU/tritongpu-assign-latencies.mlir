// RUN: tt-opt %s -split-input-file --tritongpu-assign-latencies=num-stages=3 | FileCheck %s

// The CHECK lines are upstream Triton 3.6's output for these inputs (its pass run
// through libtriton, printed by tt-opt).

// mma.sync matmul with 3 stages: both operand loads get latency 2.
// CHECK-LABEL: tt.func @matmul
// CHECK: %11 = tt.load %arg4 {tt.latency = 2 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
// CHECK: %13 = tt.load %arg5 {tt.latency = 2 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>
#AL = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#BL = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#C = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#A = #ttg.dot_op<{opIdx = 0, parent = #C, kWidth = 2}>
#B = #ttg.dot_op<{opIdx = 1, parent = #C, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @matmul(%a : !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b : !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n : i32) -> tensor<64x64xf32, #C> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c_init = arith.constant dense<0.00e+00> : tensor<64x64xf32, #C>
    %a_step = arith.constant dense<32> : tensor<64x32xi32, #AL>
    %b_step = arith.constant dense<2048> : tensor<32x64xi32, #BL>
    %ar = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #AL}>>
    %ar2 = tt.expand_dims %ar {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #AL}>> -> tensor<1x32xi32, #AL>
    %ar3 = tt.broadcast %ar2 : tensor<1x32xi32, #AL> -> tensor<64x32xi32, #AL>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #AL>
    %a_init = tt.addptr %as, %ar3 : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<64x32xi32, #AL>
    %br = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #BL}>>
    %br2 = tt.expand_dims %br {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #BL}>> -> tensor<1x64xi32, #BL>
    %br3 = tt.broadcast %br2 : tensor<1x64xi32, #BL> -> tensor<32x64xi32, #BL>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #BL>
    %b_init = tt.addptr %bs, %br3 : tensor<32x64x!tt.ptr<f16>, #BL>, tensor<32x64xi32, #BL>
    %loop:3 = scf.for %iv = %c0 to %n step %c1 iter_args(%a_ptr = %a_init, %b_ptr = %b_init, %acc = %c_init) -> (tensor<64x32x!tt.ptr<f16>, #AL>, tensor<32x64x!tt.ptr<f16>, #BL>, tensor<64x64xf32, #C>) : i32 {
      %a_ = tt.load %a_ptr : tensor<64x32x!tt.ptr<f16>, #AL>
      %a_op = ttg.convert_layout %a_ : tensor<64x32xf16, #AL> -> tensor<64x32xf16, #A>
      %b_ = tt.load %b_ptr : tensor<32x64x!tt.ptr<f16>, #BL>
      %b_op = ttg.convert_layout %b_ : tensor<32x64xf16, #BL> -> tensor<32x64xf16, #B>
      %d = tt.dot %a_op, %b_op, %acc : tensor<64x32xf16, #A> * tensor<32x64xf16, #B> -> tensor<64x64xf32, #C>
      %a_next = tt.addptr %a_ptr, %a_step : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<64x32xi32, #AL>
      %b_next = tt.addptr %b_ptr, %b_step : tensor<32x64x!tt.ptr<f16>, #BL>, tensor<32x64xi32, #BL>
      scf.yield %a_next, %b_next, %d : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<32x64x!tt.ptr<f16>, #BL>, tensor<64x64xf32, #C>
    }
    tt.return %loop#2 : tensor<64x64xf32, #C>
  }
}

// -----

// Indirect load: the index load feeds the address of a dot operand load; with
// 3 stages the chain of two loads gets latency 1 each.
// CHECK-LABEL: tt.func @indirect
// CHECK: %14 = tt.load %arg5 {tt.latency = 1 : i32} : tensor<64x!tt.ptr<i32>, #blocked2>
// CHECK: %20 = tt.load %19 {tt.latency = 1 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK: %22 = tt.load %arg6 {tt.latency = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked>
#AL = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#BL = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#IL = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#C = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#A = #ttg.dot_op<{opIdx = 0, parent = #C, kWidth = 2}>
#B = #ttg.dot_op<{opIdx = 1, parent = #C, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indirect(%a : !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b : !tt.ptr<f16> {tt.divisibility = 16 : i32}, %idx : !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n : i32) -> tensor<64x64xf32, #C> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c_init = arith.constant dense<0.00e+00> : tensor<64x64xf32, #C>
    %b_step = arith.constant dense<2048> : tensor<32x64xi32, #BL>
    %ar = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #AL}>>
    %ar2 = tt.expand_dims %ar {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #AL}>> -> tensor<1x32xi32, #AL>
    %ar3 = tt.broadcast %ar2 : tensor<1x32xi32, #AL> -> tensor<64x32xi32, #AL>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #AL>
    %a_init = tt.addptr %as, %ar3 : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<64x32xi32, #AL>
    %br = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #BL}>>
    %br2 = tt.expand_dims %br {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #BL}>> -> tensor<1x64xi32, #BL>
    %br3 = tt.broadcast %br2 : tensor<1x64xi32, #BL> -> tensor<32x64xi32, #BL>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #BL>
    %b_init = tt.addptr %bs, %br3 : tensor<32x64x!tt.ptr<f16>, #BL>, tensor<32x64xi32, #BL>
    %ir = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #IL>
    %is = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #IL>
    %i_init = tt.addptr %is, %ir : tensor<64x!tt.ptr<i32>, #IL>, tensor<64xi32, #IL>
    %i_step = arith.constant dense<64> : tensor<64xi32, #IL>
    %stride = arith.constant dense<4096> : tensor<64x1xi32, #AL>
    %loop:3 = scf.for %iv = %c0 to %n step %c1 iter_args(%i_ptr = %i_init, %b_ptr = %b_init, %acc = %c_init) -> (tensor<64x!tt.ptr<i32>, #IL>, tensor<32x64x!tt.ptr<f16>, #BL>, tensor<64x64xf32, #C>) : i32 {
      %ix = tt.load %i_ptr : tensor<64x!tt.ptr<i32>, #IL>
      %ix1 = ttg.convert_layout %ix : tensor<64xi32, #IL> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #AL}>>
      %ix2 = tt.expand_dims %ix1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #AL}>> -> tensor<64x1xi32, #AL>
      %ix4 = arith.muli %ix2, %stride : tensor<64x1xi32, #AL>
      %ix3 = tt.broadcast %ix4 : tensor<64x1xi32, #AL> -> tensor<64x32xi32, #AL>
      %a_ptr = tt.addptr %a_init, %ix3 : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<64x32xi32, #AL>
      %a_ = tt.load %a_ptr : tensor<64x32x!tt.ptr<f16>, #AL>
      %a_op = ttg.convert_layout %a_ : tensor<64x32xf16, #AL> -> tensor<64x32xf16, #A>
      %b_ = tt.load %b_ptr : tensor<32x64x!tt.ptr<f16>, #BL>
      %b_op = ttg.convert_layout %b_ : tensor<32x64xf16, #BL> -> tensor<32x64xf16, #B>
      %d = tt.dot %a_op, %b_op, %acc : tensor<64x32xf16, #A> * tensor<32x64xf16, #B> -> tensor<64x64xf32, #C>
      %i_next = tt.addptr %i_ptr, %i_step : tensor<64x!tt.ptr<i32>, #IL>, tensor<64xi32, #IL>
      %b_next = tt.addptr %b_ptr, %b_step : tensor<32x64x!tt.ptr<f16>, #BL>, tensor<32x64xi32, #BL>
      scf.yield %i_next, %b_next, %d : tensor<64x!tt.ptr<i32>, #IL>, tensor<32x64x!tt.ptr<f16>, #BL>, tensor<64x64xf32, #C>
    }
    tt.return %loop#2 : tensor<64x64xf32, #C>
  }
}

// -----

// A loop marked tt.num_stages without dot pipelines all its loads, the
// scalar one included.
// CHECK-LABEL: tt.func @nodot
// CHECK: %8 = tt.load %7 {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK: %10 = tt.load %9 {tt.latency = 2 : i32} : !tt.ptr<f32>
#BL = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nodot(%x : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n : i32) -> (tensor<512xf32, #BL>, f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %zero = arith.constant dense<0.0> : tensor<512xf32, #BL>
    %fz = arith.constant 0.0 : f32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #BL>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #BL>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #BL>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %sacc = %fz) -> (tensor<512xf32, #BL>, f32) : i32 {
      %off = arith.muli %i, %c512 : i32
      %offs = tt.splat %off : i32 -> tensor<512xi32, #BL>
      %o = arith.addi %offs, %r : tensor<512xi32, #BL>
      %xp = tt.addptr %xs, %o : tensor<512x!tt.ptr<f32>, #BL>, tensor<512xi32, #BL>
      %xv = tt.load %xp : tensor<512x!tt.ptr<f32>, #BL>
      %sp = tt.addptr %s, %i : !tt.ptr<f32>, i32
      %sv = tt.load %sp : !tt.ptr<f32>
      %sv2 = arith.addf %sacc, %sv : f32
      %svs = tt.splat %sv : f32 -> tensor<512xf32, #BL>
      %m = arith.mulf %xv, %svs : tensor<512xf32, #BL>
      %a2 = arith.addf %acc, %m : tensor<512xf32, #BL>
      %yp = tt.addptr %ys, %o : tensor<512x!tt.ptr<f32>, #BL>, tensor<512xi32, #BL>
      tt.store %yp, %m : tensor<512x!tt.ptr<f32>, #BL>
      scf.yield %a2, %sv2 : tensor<512xf32, #BL>, f32
    } {tt.num_stages = 3 : i32}
    tt.return %res#0, %res#1 : tensor<512xf32, #BL>, f32
  }
}

// -----

// Latencies given on the loop's ops are kept as they are.
// CHECK-LABEL: tt.func @user_latency
// CHECK: %8 = tt.load %7 {tt.latency = 1 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK: %10 = tt.load %9 : !tt.ptr<f32>
#BL = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @user_latency(%x : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n : i32) -> (tensor<512xf32, #BL>, f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %zero = arith.constant dense<0.0> : tensor<512xf32, #BL>
    %fz = arith.constant 0.0 : f32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #BL>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #BL>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #BL>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %sacc = %fz) -> (tensor<512xf32, #BL>, f32) : i32 {
      %off = arith.muli %i, %c512 : i32
      %offs = tt.splat %off : i32 -> tensor<512xi32, #BL>
      %o = arith.addi %offs, %r : tensor<512xi32, #BL>
      %xp = tt.addptr %xs, %o : tensor<512x!tt.ptr<f32>, #BL>, tensor<512xi32, #BL>
      %xv = tt.load %xp {tt.latency = 1 : i32} : tensor<512x!tt.ptr<f32>, #BL>
      %sp = tt.addptr %s, %i : !tt.ptr<f32>, i32
      %sv = tt.load %sp : !tt.ptr<f32>
      %sv2 = arith.addf %sacc, %sv : f32
      %svs = tt.splat %sv : f32 -> tensor<512xf32, #BL>
      %m = arith.mulf %xv, %svs : tensor<512xf32, #BL>
      %a2 = arith.addf %acc, %m : tensor<512xf32, #BL>
      %yp = tt.addptr %ys, %o : tensor<512x!tt.ptr<f32>, #BL>, tensor<512xi32, #BL>
      tt.store %yp, %m : tensor<512x!tt.ptr<f32>, #BL>
      scf.yield %a2, %sv2 : tensor<512xf32, #BL>, f32
    } {tt.num_stages = 3 : i32}
    tt.return %res#0, %res#1 : tensor<512xf32, #BL>, f32
  }
}

// -----

// Outer loops are not pipelined, their innermost loops are.
// CHECK-LABEL: tt.func @nested
// CHECK: %3:2 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst, %arg6 = %cst_0) -> (tensor<512xf32, #blocked>, f32)  : i32 {
// CHECK: %4:2 = scf.for %arg7 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg8 = %arg5, %arg9 = %arg6) -> (tensor<512xf32, #blocked>, f32)  : i32 {
// CHECK: %9 = tt.load %8 {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK: %11 = tt.load %10 {tt.latency = 2 : i32} : !tt.ptr<f32>
#BL = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nested(%x : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n : i32) -> (tensor<512xf32, #BL>, f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %zero = arith.constant dense<0.0> : tensor<512xf32, #BL>
    %fz = arith.constant 0.0 : f32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #BL>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #BL>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #BL>
    %outer:2 = scf.for %j = %c0 to %n step %c1 iter_args(%oacc = %zero, %osacc = %fz) -> (tensor<512xf32, #BL>, f32) : i32 {
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %oacc, %sacc = %osacc) -> (tensor<512xf32, #BL>, f32) : i32 {
      %off = arith.muli %i, %c512 : i32
      %offs = tt.splat %off : i32 -> tensor<512xi32, #BL>
      %o = arith.addi %offs, %r : tensor<512xi32, #BL>
      %xp = tt.addptr %xs, %o : tensor<512x!tt.ptr<f32>, #BL>, tensor<512xi32, #BL>
      %xv = tt.load %xp : tensor<512x!tt.ptr<f32>, #BL>
      %sp = tt.addptr %s, %i : !tt.ptr<f32>, i32
      %sv = tt.load %sp : !tt.ptr<f32>
      %sv2 = arith.addf %sacc, %sv : f32
      %svs = tt.splat %sv : f32 -> tensor<512xf32, #BL>
      %m = arith.mulf %xv, %svs : tensor<512xf32, #BL>
      %a2 = arith.addf %acc, %m : tensor<512xf32, #BL>
      %yp = tt.addptr %ys, %o : tensor<512x!tt.ptr<f32>, #BL>, tensor<512xi32, #BL>
      tt.store %yp, %m : tensor<512x!tt.ptr<f32>, #BL>
      scf.yield %a2, %sv2 : tensor<512xf32, #BL>, f32
    } {tt.num_stages = 3 : i32}
    scf.yield %res#0, %res#1 : tensor<512xf32, #BL>, f32
    }
    tt.return %outer#0, %outer#1 : tensor<512xf32, #BL>, f32
  }
}

// -----

// Loads narrower than 32 bits per thread, and loops with tt.num_stages = 1,
// are left alone.
// CHECK-LABEL: tt.func @not_pipelined
// CHECK: %9 = tt.load %8 : tensor<128x!tt.ptr<i8>, #blocked>
// CHECK: %9 = tt.load %8 : tensor<128x!tt.ptr<f32>, #blocked>
#BL = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_pipelined(%x : !tt.ptr<i8> {tt.divisibility = 16 : i32}, %y : !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n : i32) -> (tensor<128xi8, #BL>, tensor<128xf32, #BL>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0> : tensor<128xi8, #BL>
    %fzero = arith.constant dense<0.0> : tensor<128xf32, #BL>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #BL>
    %xs = tt.splat %x : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #BL>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #BL>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xi8, #BL>) : i32 {
      %off = arith.muli %i, %c128 : i32
      %offs = tt.splat %off : i32 -> tensor<128xi32, #BL>
      %o = arith.addi %offs, %r : tensor<128xi32, #BL>
      %xp = tt.addptr %xs, %o : tensor<128x!tt.ptr<i8>, #BL>, tensor<128xi32, #BL>
      %xv = tt.load %xp : tensor<128x!tt.ptr<i8>, #BL>
      %a = arith.addi %acc, %xv : tensor<128xi8, #BL>
      scf.yield %a : tensor<128xi8, #BL>
    } {tt.num_stages = 3 : i32}
    %res2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %fzero) -> (tensor<128xf32, #BL>) : i32 {
      %off = arith.muli %i, %c128 : i32
      %offs = tt.splat %off : i32 -> tensor<128xi32, #BL>
      %o = arith.addi %offs, %r : tensor<128xi32, #BL>
      %yp = tt.addptr %ys, %o : tensor<128x!tt.ptr<f32>, #BL>, tensor<128xi32, #BL>
      %yv = tt.load %yp : tensor<128x!tt.ptr<f32>, #BL>
      %a = arith.addf %acc, %yv : tensor<128xf32, #BL>
      scf.yield %a : tensor<128xf32, #BL>
    } {tt.num_stages = 1 : i32}
    tt.return %res, %res2 : tensor<128xi8, #BL>, tensor<128xf32, #BL>
  }
}

// -----

// A loop marked tt.num_stages pipelines the loads no dot uses as well, even
// when it holds a dot (4 stages: every load gets latency 3).
// CHECK-LABEL: tt.func @dot_and_other_load
// CHECK: %1 = tt.load %arg5 {tt.latency = 3 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
// CHECK: %3 = tt.load %arg6 {tt.latency = 3 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>
// CHECK: %6 = tt.load %arg5 {tt.latency = 3 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
#AL = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#BL = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#C = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#A = #ttg.dot_op<{opIdx = 0, parent = #C, kWidth = 2}>
#B = #ttg.dot_op<{opIdx = 1, parent = #C, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_and_other_load(%a_init : tensor<64x32x!tt.ptr<f16>, #AL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
                              %b_init : tensor<32x64x!tt.ptr<f16>, #BL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
                              %out : tensor<64x32x!tt.ptr<f16>, #AL>, %n : i32) -> tensor<64x64xf32, #C> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c_init = arith.constant dense<0.00e+00> : tensor<64x64xf32, #C>
    %a_step = arith.constant dense<32> : tensor<64x32xi32, #AL>
    %b_step = arith.constant dense<2048> : tensor<32x64xi32, #BL>
    %loop:3 = scf.for %iv = %c0 to %n step %c1 iter_args(%a_ptr = %a_init, %b_ptr = %b_init, %acc = %c_init) -> (tensor<64x32x!tt.ptr<f16>, #AL>, tensor<32x64x!tt.ptr<f16>, #BL>, tensor<64x64xf32, #C>) : i32 {
      %a_ = tt.load %a_ptr : tensor<64x32x!tt.ptr<f16>, #AL>
      %a_op = ttg.convert_layout %a_ : tensor<64x32xf16, #AL> -> tensor<64x32xf16, #A>
      %b_ = tt.load %b_ptr : tensor<32x64x!tt.ptr<f16>, #BL>
      %b_op = ttg.convert_layout %b_ : tensor<32x64xf16, #BL> -> tensor<32x64xf16, #B>
      %d = tt.dot %a_op, %b_op, %acc : tensor<64x32xf16, #A> * tensor<32x64xf16, #B> -> tensor<64x64xf32, #C>
      %other = tt.load %a_ptr : tensor<64x32x!tt.ptr<f16>, #AL>
      tt.store %out, %other : tensor<64x32x!tt.ptr<f16>, #AL>
      %a_next = tt.addptr %a_ptr, %a_step : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<64x32xi32, #AL>
      %b_next = tt.addptr %b_ptr, %b_step : tensor<32x64x!tt.ptr<f16>, #BL>, tensor<32x64xi32, #BL>
      scf.yield %a_next, %b_next, %d : tensor<64x32x!tt.ptr<f16>, #AL>, tensor<32x64x!tt.ptr<f16>, #BL>, tensor<64x64xf32, #C>
    } {tt.num_stages = 4 : i32}
    tt.return %loop#2 : tensor<64x64xf32, #C>
  }
}

// -----

// Descriptor loads feeding a dot get the latency of other loads (2 with 3 stages).
// CHECK-LABEL: tt.func public @desc_dot
// CHECK: %22 = tt.descriptor_load %arg0[%2, %arg12] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<64x32xf16, #shared>> -> tensor<64x32xf16, #blocked1>
// CHECK: %24 = tt.descriptor_load %arg5[%arg12, %3] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>> -> tensor<32x64xf16, #blocked2>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @desc_dot(%arg0: !tt.tensordesc<tensor<64x32xf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<32x64xf16, #shared1>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg11: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c64_i32 : i32
    %3 = arith.muli %1, %c64_i32 : i32
    %4 = scf.for %arg12 = %c0_i32 to %arg11 step %c32_i32 iter_args(%arg13 = %cst_0) -> (tensor<64x64xf32, #mma>)  : i32 {
      %22 = tt.descriptor_load %arg0[%2, %arg12] : !tt.tensordesc<tensor<64x32xf16, #shared>> -> tensor<64x32xf16, #blocked1>
      %23 = ttg.local_alloc %22 : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %24 = tt.descriptor_load %arg5[%arg12, %3] : !tt.tensordesc<tensor<32x64xf16, #shared1>> -> tensor<32x64xf16, #blocked2>
      %25 = ttg.local_alloc %24 : (tensor<32x64xf16, #blocked2>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %26 = ttng.warp_group_dot %23, %25, %arg13 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %26 : tensor<64x64xf32, #mma>
    }
    %5 = arith.muli %0, %c64_i32 : i32
    %6 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.splat %5 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %9 = arith.addi %8, %6 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %10 = arith.muli %1, %c64_i32 : i32
    %11 = tt.splat %10 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %12 = arith.addi %11, %7 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %13 = tt.expand_dims %9 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %14 = arith.muli %13, %cst : tensor<64x1xi32, #blocked>
    %15 = tt.splat %arg10 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %16 = tt.addptr %15, %14 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %17 = tt.expand_dims %12 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %18 = tt.broadcast %16 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %19 = tt.broadcast %17 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %20 = tt.addptr %18, %19 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %21 = ttg.convert_layout %4 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %20, %21 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A loop of tt.num_stages = 3 pipelines its descriptor load without a dot too.
// CHECK-LABEL: tt.func public @desc_scale_rows
// CHECK: %5 = tt.descriptor_load %arg0[%4, %c0_i32] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<32x64xf32, #shared>> -> tensor<32x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @desc_scale_rows(%arg0: !tt.tensordesc<tensor<32x64xf32, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<32x64xf16, #shared1>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: i32, %arg11: f32) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %arg10 : i32
    %2 = tt.splat %arg11 : f32 -> tensor<32x64xf32, #blocked>
    scf.for %arg12 = %c0_i32 to %arg10 step %c1_i32  : i32 {
      %3 = arith.addi %1, %arg12 : i32
      %4 = arith.muli %3, %c32_i32 : i32
      %5 = tt.descriptor_load %arg0[%4, %c0_i32] : !tt.tensordesc<tensor<32x64xf32, #shared>> -> tensor<32x64xf32, #blocked>
      %6 = arith.mulf %5, %2 : tensor<32x64xf32, #blocked>
      %7 = arith.truncf %6 : tensor<32x64xf32, #blocked> to tensor<32x64xf16, #blocked>
      %8 = ttg.convert_layout %7 : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
      tt.descriptor_store %arg5[%4, %c0_i32], %8 : !tt.tensordesc<tensor<32x64xf16, #shared1>>, tensor<32x64xf16, #blocked1>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}

// -----

// Blackwell MMAs: operands loaded in the loop by pipelined loads, the
// accumulator in tensor memory allocated before the loop and reset by the
// use flag computed in the loop: the MMA overlaps itself (self latency 1)
// and its result's reader may lag one iteration (latency 1). With
// tt.disallow_acc_multi_buffer the reader may not (the accumulator is read
// in the loop, so lagging would need a second buffer).
// CHECK-LABEL: @mmav5_latencies
// CHECK: tt.load {{.*}}tt.latency = 2 : i32
// CHECK: tt.load {{.*}}tt.latency = 2 : i32
// CHECK: ttng.tc_gen5_mma {{.*}}tt.latency = 1 : i32, tt.self_latency = 1 : i32
// CHECK-LABEL: @mmav5_single_accumulator
// CHECK: ttng.tc_gen5_mma
// CHECK-NOT: tt.latency
// CHECK-SAME: tt.self_latency = 1 : i32
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @mmav5_latencies(%n: i32, %pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
                           %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
                           %zero: tensor<128x64xf32, #acc>, %out: tensor<128x64x!tt.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %acc = ttng.tmem_alloc %zero : (tensor<128x64xf32, #acc>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #ld>
      %b = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #ld>
      %sa = ttg.local_alloc %a : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>
      %sb = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>
      %first = arith.cmpi ne, %i, %c0 : i32
      ttng.tc_gen5_mma %sa, %sb, %acc, %first, %true : !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %r = ttng.tmem_load %acc : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      tt.store %out, %r : tensor<128x64x!tt.ptr<f32>, #acc>
    }
    tt.return
  }

  tt.func @mmav5_single_accumulator(%n: i32, %pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
                                    %sb: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>,
                                    %zero: tensor<128x64xf32, #acc>, %out: tensor<128x64x!tt.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %acc = ttng.tmem_alloc %zero : (tensor<128x64xf32, #acc>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #ld>
      %sa = ttg.local_alloc %a : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>
      %first = arith.cmpi ne, %i, %c0 : i32
      ttng.tc_gen5_mma %sa, %sb, %acc, %first, %true : !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %r = ttng.tmem_load %acc : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      tt.store %out, %r : tensor<128x64x!tt.ptr<f32>, #acc>
    } {tt.disallow_acc_multi_buffer}
    tt.return
  }
}

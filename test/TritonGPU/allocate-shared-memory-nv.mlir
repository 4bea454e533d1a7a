// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90 ptx-version=87' | FileCheck %s

// A buffer whose last use is before a conversion and a reduction: all three
// share offset 0. A 32x32 f32 conversion needs 4096 bytes of scratch, the
// reduction across 4 warps 32*4*4 bytes. (Expected offsets are upstream
// Triton 3.6's on the same input.)
// CHECK: ttg.shared = 4096 : i32
// CHECK-LABEL: tt.func public @scratch_and_buffers
// CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
// CHECK: {allocation.offset = 0 : i32} : (tensor<32x32xf32, #blocked>) -> tensor<32xf32
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scratch_and_buffers(%x: tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> {
    %buffer = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %loaded = ttg.local_load %buffer : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked>
    %moved = ttg.convert_layout %loaded : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %back = ttg.convert_layout %moved : tensor<32x32xf32, #blocked1> -> tensor<32x32xf32, #blocked>
    %sum = "tt.reduce"(%back) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %sum : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}

// -----

// A buffer live across a loop (4096..6144), a two-slot ring (0..4096) and the
// loop's conversion scratch, which must avoid both.
// CHECK: ttg.shared = 8192 : i32
// CHECK-LABEL: tt.func public @live_across
// CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 4096 : i32}
// CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 6144 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @live_across(%x: tensor<32x32xf16, #blocked>, %n: i32) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %keep = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<32x32xf16, #blocked>) : i32 {
      %slot = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      ttg.local_store %acc, %slot : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %v = ttg.local_load %slot : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked1>
      %w = ttg.convert_layout %v : tensor<32x32xf16, #blocked1> -> tensor<32x32xf16, #blocked>
      scf.yield %w : tensor<32x32xf16, #blocked>
    }
    %k = ttg.local_load %keep : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked>
    %s = arith.addf %r, %k : tensor<32x32xf16, #blocked>
    ttg.local_dealloc %ring : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    tt.return %s : tensor<32x32xf16, #blocked>
  }
}

// -----

// A scan along warps keeps, for every warp, the partial results of its
// non-axis elements in every block of the tensor: 4 warps x 4 non-axis lanes
// x 2 non-axis registers x 4 x 2 blocks = 256 elements, f32 + i32 (upstream
// Triton 3.6's size).
// CHECK: ttg.shared = 2048 : i32
// CHECK-LABEL: tt.func public @scan_across_warps
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<64x32xf32
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scan_across_warps(%x: tensor<64x32xf32, #blocked>, %i: tensor<64x32xi32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<64x32xi32, #blocked>) {
    %s:2 = "tt.scan"(%x, %i) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %c = arith.addf %a, %b : f32
      %ci = arith.addi %ai, %bi : i32
      tt.scan.return %c, %ci : f32, i32
    }) : (tensor<64x32xf32, #blocked>, tensor<64x32xi32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<64x32xi32, #blocked>)
    tt.return %s#0, %s#1 : tensor<64x32xf32, #blocked>, tensor<64x32xi32, #blocked>
  }
}

// -----

// A scan whose axis stays within a warp needs no scratch.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: tt.func public @scan_within_warps
// CHECK-NOT: allocation.offset
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scan_within_warps(%x: tensor<64x8xf16, #blocked>) -> tensor<64x8xf16, #blocked> {
    %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%a: f16, %b: f16):
      %c = arith.addf %a, %b : f16
      tt.scan.return %c : f16
    }) : (tensor<64x8xf16, #blocked>) -> tensor<64x8xf16, #blocked>
    tt.return %s : tensor<64x8xf16, #blocked>
  }
}

// -----

// A scalar atomic whose old value is used passes it from the thread that
// did the atomic to the others through one element of scratch; an unused
// one and a tensor atomic need none. The total is not rounded up.
// CHECK: ttg.shared = 8 : i32
// CHECK-LABEL: tt.func public @scalar_atomics
// CHECK: tt.atomic_cas {{.*}} {allocation.offset = 0 : i32}
// CHECK: tt.atomic_rmw exch
// CHECK-NOT: allocation.offset
// CHECK-SAME: -> i32
// CHECK: tt.atomic_rmw add, {{.*}} {allocation.offset = 0 : i32}
// CHECK: tt.atomic_rmw fadd
// CHECK-NOT: allocation.offset
// CHECK-SAME: -> tensor<512xf32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_atomics(%lock: !tt.ptr<i32>, %count: !tt.ptr<i64>, %p: tensor<512x!tt.ptr<f32>, #blocked>, %v: tensor<512xf32, #blocked>) -> (i32, i64, tensor<512xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    %true = arith.constant true
    %mask = arith.constant dense<true> : tensor<512xi1, #blocked>
    %old = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    %unused = tt.atomic_rmw exch, acq_rel, gpu, %lock, %c0, %true : (!tt.ptr<i32>, i32, i1) -> i32
    %n = tt.atomic_rmw add, relaxed, gpu, %count, %one, %true : (!tt.ptr<i64>, i64, i1) -> i64
    %t = tt.atomic_rmw fadd, relaxed, gpu, %p, %v, %mask : (tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xf32, #blocked>, tensor<512xi1, #blocked>) -> tensor<512xf32, #blocked>
    tt.return %old, %n, %t : i32, i64, tensor<512xf32, #blocked>
  }
}

// -----

// The sm_80 int8 matmul's epilogue: a 128x128 i32 accumulator (64 KiB) that
// both layouts hold partly in registers is converted in four rounds through
// 16 KiB of scratch, as upstream sizes it (tritium_layout::swizzling).
// CHECK: ttg.shared = 16384 : i32
// CHECK-LABEL: tt.func public @conversion_in_rounds
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @conversion_in_rounds(%acc: tensor<128x128xi32, #mma>) -> tensor<128x128xi32, #blocked2> {
    %0 = ttg.convert_layout %acc : tensor<128x128xi32, #mma> -> tensor<128x128xi32, #blocked2>
    tt.return %0 : tensor<128x128xi32, #blocked2>
  }
}

// -----

// A buffer an scf.if yields lives as long as the if's result: the buffer
// of the else branch is read after the if, so it cannot share bytes with
// the then branch's, whose result is read there too.
// CHECK-LABEL: tt.func @buffers_yielded_by_if
// CHECK: scf.if
// CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
// CHECK: } else {
// CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 4096 : i32}
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @buffers_yielded_by_if(%x: tensor<32x32xf32, #row>, %c: i1) -> tensor<32x32xf32, #row> {
    %b = scf.if %c -> (!ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>) {
      %t = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
      scf.yield %t : !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
    } else {
      %e = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
      scf.yield %e : !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
    }
    %v = ttg.local_load %b : !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory> -> tensor<32x32xf32, #row>
    tt.return %v : tensor<32x32xf32, #row>
  }
}

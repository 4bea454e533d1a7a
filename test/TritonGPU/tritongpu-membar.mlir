// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar | FileCheck %s

// Every op reuses offset 0, so each must wait for the previous one.
// CHECK-LABEL: tt.func public @scratch_and_buffers
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: "tt.reduce"
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

// In the loop: a barrier between the store and the load; none before the
// conversion, whose scratch overlaps nothing pending, and none before the
// store: the conversion's own barrier of the whole CTA (between its scratch
// writes and reads) already follows the previous iteration's load of the
// same slot. After the loop, the read of the buffer written before it needs
// one (the loop may not run).
// CHECK-LABEL: tt.func public @live_across
// CHECK: scf.for
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.convert_layout
// CHECK-NEXT: scf.yield
// CHECK: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NOT: ttg.local_barrier
// CHECK: tt.return
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

// Early returns leave cf branches between blocks: what a block's
// predecessors left pending reaches it. ^bb1's conversion uses the scratch
// the entry's conversion used, so it waits; ^bb2 is reached from the entry
// and from ^bb1, and its conversion waits for either. The return block
// ^bb3 touches no shared memory.
// CHECK-LABEL: tt.func public @across_blocks
// CHECK: ttg.convert_layout
// CHECK-NOT: ttg.local_barrier
// CHECK: cf.cond_br
// CHECK: ^bb1:
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK: ^bb2({{.*}}):
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.convert_layout
// CHECK: ^bb3:
// CHECK-NOT: ttg.local_barrier
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @across_blocks(%x: tensor<512xf32, #blocked>, %a: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %y = ttg.convert_layout %x : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    %c = arith.cmpi sgt, %a, %c0 : i32
    cf.cond_br %c, ^bb1, ^bb2(%y : tensor<512xf32, #blocked1>)
  ^bb1:
    %z = ttg.convert_layout %x : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    %d = arith.cmpi sgt, %a, %c0 : i32
    cf.cond_br %d, ^bb2(%z : tensor<512xf32, #blocked1>), ^bb3
  ^bb2(%v: tensor<512xf32, #blocked1>):
    %w = ttg.convert_layout %v : tensor<512xf32, #blocked1> -> tensor<512xf32, #blocked>
    tt.return
  ^bb3:
    tt.return
  }
}

// -----

// mbarriers and TMA copies (upstream's effects of the ttng ops): one thread
// initialises the mbarrier, so every thread waits before using it; the
// expect, the TMA load and the wait all touch the mbarrier but synchronise
// through it, so no barrier separates them (upstream's canSkipBarSync), while
// one separates the wait from the inval (no thread may still be waiting); the
// TMA store reads what all threads wrote with local_alloc, so a barrier comes
// after the fence and before it. Two inits of disjoint slices need none.
// CHECK-LABEL: tt.func public @tma_round_trip
// CHECK: ttng.init_barrier
// CHECK-NEXT: ttng.init_barrier
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.barrier_expect
// CHECK-NEXT: ttng.async_tma_copy_global_to_local
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.inval_barrier
// CHECK-NEXT: ttng.inval_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// CHECK-NEXT: ttng.async_tma_store_wait
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_round_trip(%in: !tt.tensordesc<tensor<64x64xf16, #shared>>, %out: !tt.tensordesc<tensor<64x64xf16, #shared>>, %x: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bars = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
    %bar = ttg.memdesc_index %bars[%c0] : !ttg.memdesc<2x1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %bar1 = ttg.memdesc_index %bars[%c1] : !ttg.memdesc<2x1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar1, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %in[%x, %x] %tile, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.inval_barrier %bar1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %v = ttg.local_load %tile : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %staged = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    ttng.fence_async_shared {bCluster = false}
    ttng.async_tma_copy_local_to_global %out[%x, %x] %staged : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}

// -----

// Warp specialization: each partition is walked on its own (its warps start
// after a barrier of all warps), so a partition's shared stores and its TMA
// store of them get a barrier between (a named barrier of the partition's
// warps once lowered); the default region continues from the state before
// the op (its load of the buffer stored before it waits).
// CHECK-LABEL: tt.func public @partition_epilogue
// CHECK: default {
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 8 : i32} {
  tt.func public @partition_epilogue(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %x: tensor<64x64xf16, #blocked>, %i: i32) {
    %buffer = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    ttg.warp_specialize(%d, %x, %i, %buffer) attributes {warpGroupStartIds = array<i32: 4>}
    default {
      %v = ttg.local_load %buffer : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
      ttg.warp_yield
    }
    partition0(%pd: !tt.tensordesc<tensor<64x64xf16, #shared>>, %px: tensor<64x64xf16, #blocked>, %pi: i32, %pb: !ttg.memdesc<64x64xf16, #shared, #smem>) num_warps(4) {
      %tile = ttg.local_alloc %px : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      ttng.fence_async_shared {bCluster = false}
      ttng.async_tma_copy_local_to_global %pd[%pi, %pi] %tile : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem>
      ttng.async_tma_store_wait {pendings = 0 : i32}
      ttg.warp_return
    } : (!tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>, i32, !ttg.memdesc<64x64xf16, #shared, #smem>) -> ()
    tt.return
  }
}

// -----

// A partition's captures are the buffers captured, and a loop's argument
// the buffers it takes (upstream's alias analysis): the waits on two
// different captured mbarrier arrays need no barrier between them (only
// the first one, after the waits of the previous iteration, gets one),
// also when one of them reaches its array through a loop argument.
// CHECK-LABEL: tt.func public @captured_barriers
// CHECK: partition0
// CHECK: scf.for
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttng.arrive_barrier
// CHECK: scf.for
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: scf.yield
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 8 : i32} {
  tt.func public @captured_barriers(%n: i32, %phase: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %full = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
    %empty = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
    ttg.warp_specialize(%n, %phase, %full, %empty) attributes {warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield
    }
    partition0(%pn: i32, %pp: i32, %pf: !ttg.memdesc<3x1xi64, #shared, #smem, mutable>, %pe: !ttg.memdesc<3x1xi64, #shared, #smem, mutable>) num_warps(4) {
      %z = arith.constant 0 : i32
      %o = arith.constant 1 : i32
      scf.for %i = %z to %pn step %o : i32 {
        %f = ttg.memdesc_index %pf[%i] : !ttg.memdesc<3x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
        %e = ttg.memdesc_index %pe[%i] : !ttg.memdesc<3x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
        ttng.wait_barrier %f, %pp : !ttg.memdesc<1xi64, #shared, #smem, mutable>
        ttng.wait_barrier %e, %pp : !ttg.memdesc<1xi64, #shared, #smem, mutable>
        ttng.arrive_barrier %e, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      }
      %first = ttg.memdesc_index %pf[%z] : !ttg.memdesc<3x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
      %last = scf.for %i = %z to %pn step %o iter_args(%b = %first) -> (!ttg.memdesc<1xi64, #shared, #smem, mutable>) : i32 {
        ttng.wait_barrier %b, %pp : !ttg.memdesc<1xi64, #shared, #smem, mutable>
        %e = ttg.memdesc_index %pe[%i] : !ttg.memdesc<3x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
        ttng.wait_barrier %e, %pp : !ttg.memdesc<1xi64, #shared, #smem, mutable>
        %next = ttg.memdesc_index %pf[%i] : !ttg.memdesc<3x1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
        scf.yield %next : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      }
      ttg.warp_return
    } : (i32, i32, !ttg.memdesc<3x1xi64, #shared, #smem, mutable>, !ttg.memdesc<3x1xi64, #shared, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

// Calls: a call stands for what its callee leaves pending (here the
// callee's conversion scratch, read last), at the call's place in the
// caller's shared memory: the caller's buffer read before the call, which
// the callee's scratch reuses, needs a barrier before the call; the
// caller's conversion after it, over the callee's scratch, one after it.
// CHECK-LABEL: tt.func @callee_converts
// CHECK-NOT: ttg.local_barrier
// CHECK: tt.return
// CHECK-LABEL: tt.func @caller
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: tt.call @callee_converts
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.convert_layout
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @callee_converts(%x: tensor<32x32xf32, #row>) {
    %y = ttg.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    tt.return
  }
  tt.func @caller(%x: tensor<32x32xf32, #row>) -> tensor<32x32xf32, #col> {
    %s = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
    %v = ttg.local_load %s : !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory> -> tensor<32x32xf32, #row>
    tt.call @callee_converts(%v) : (tensor<32x32xf32, #row>) -> ()
    %c = ttg.convert_layout %v : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    tt.return %c : tensor<32x32xf32, #col>
  }
}

// -----

// A scalar atomic whose old value every thread reads passes it through its
// scratch with a barrier of the whole CTA in between: that barrier also
// orders the buffer written before it, so the load after needs none.
// CHECK-LABEL: tt.func @atomic_orders_what_came_before
// CHECK: ttg.local_alloc
// CHECK-NEXT: tt.atomic_rmw
// CHECK-NEXT: ttg.local_load
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @atomic_orders_what_came_before(%x: tensor<32x32xf32, #row>, %p: !tt.ptr<i32>, %one: i32) -> (tensor<32x32xf32, #row>, i32) {
    %s = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
    %old = tt.atomic_rmw add, acq_rel, gpu, %p, %one : (!tt.ptr<i32>, i32) -> i32
    %v = ttg.local_load %s : !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory> -> tensor<32x32xf32, #row>
    tt.return %v, %old : tensor<32x32xf32, #row>, i32
  }
}

// -----

// A warp-specialized default region with branches: what follows the op
// continues from what the region's exits leave. One path reads the buffer
// with no barrier after, so the store after the op waits; a gpu.barrier
// counts as a barrier.
// CHECK-LABEL: tt.func @default_region_branches
// CHECK: ^bb1:
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: cf.br
// CHECK: } : () -> ()
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_store
#sw1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @default_region_branches(%x: tensor<2xi32>, %c: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2xi32, #sw1, #ttg.shared_memory, mutable>
    ttg.warp_specialize()
    default {
      %v = ttg.local_load %buf : !ttg.memdesc<2xi32, #sw1, #ttg.shared_memory, mutable> -> tensor<2xi32>
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      gpu.barrier
      cf.br ^bb2
    ^bb2:
      ttg.warp_yield
    } : () -> ()
    ttg.local_store %x, %buf : tensor<2xi32> -> !ttg.memdesc<2xi32, #sw1, #ttg.shared_memory, mutable>
    tt.return
  }
}

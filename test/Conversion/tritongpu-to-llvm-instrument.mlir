// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// Buffer addresses: shared memory's base plus each offset. Spread over the
// lanes (two elements per lane), a register's offset is picked by its
// coordinate; held whole by every thread, it is a constant.
#spread = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#whole = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @pointers
  // CHECK: %[[BASE:.*]] = llvm.ptrtoint %arg0 : !llvm.ptr<3> to i64
  // CHECK: llvm.select
  // CHECK: llvm.add %{{.*}}, %[[BASE]] : i64
  // CHECK: %[[BASE2:.*]] = llvm.ptrtoint %arg0 : !llvm.ptr<3> to i64
  // CHECK-NOT: llvm.select
  // CHECK: llvm.add %[[BASE2]], %{{.*}} : i64
  tt.func private @pointers() {
    %spread = tti.experimental_buffer_pointers [64, 128, 256, 512], shared_mem : tensor<128xi64, #spread>
    %whole = tti.experimental_buffer_pointers [0, 8, 16, 24], shared_mem : tensor<4xi64, #whole>
    tt.return
  }
}

// -----

// A buffer's address compares with those: the memdesc's address as i64.
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @address
  // CHECK: llvm.getelementptr
  // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  tt.func private @address() -> i64 {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #sw, #smem, mutable>
    %a = tti.experimental_memdesc_to_i64 %buf : !ttg.memdesc<16xf32, #sw, #smem, mutable>
    tt.return %a : i64
  }
}

// -----

// A scalar check: thread 0 reports a false condition with __assertfail;
// no CTA barrier after a scalar.
module attributes {"ttg.num-warps" = 1 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @scalar_check
  // CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: llvm.and %[[TRUE]], %arg0 : i1
  // CHECK: llvm.xor
  // CHECK: llvm.select
  // CHECK: llvm.call @__assertfail
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func private @scalar_check(%ok: i1) {
    tti.experimental_assert_in_thread %ok, "not ok" {check_any = false} : i1
    tt.return
  }
}

// -----

// The lock: thread 0 spins on a compare-and-swap, the CTA waits for it;
// the release waits for the CTA, then thread 0 swaps 0 back.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @critical_section
  // CHECK: llvm.cond_br
  // CHECK: llvm.inline_asm {{.*}}atom.global.acquire.gpu.cas.b32
  // CHECK: llvm.icmp "ne"
  // CHECK: llvm.cond_br
  // CHECK: nvvm.barrier0
  // CHECK: st.global.b32
  // CHECK: nvvm.barrier0
  // CHECK: llvm.inline_asm {{.*}}"@$1 atom.global.gpu.acq_rel.exch.b32 $0, [$2], $3;"
  tt.func private @critical_section(%lock: !tt.ptr<i32>, %p: !tt.ptr<f32>, %v: f32) {
    tti.experimental_lock_acquire %lock : !tt.ptr<i32>
    tt.store %p, %v : !tt.ptr<f32>
    tti.experimental_lock_release %lock : !tt.ptr<i32>
    tt.return
  }
}

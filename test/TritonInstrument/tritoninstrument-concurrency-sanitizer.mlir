// RUN: tt-opt %s -split-input-file -tritoninstrument-concurrency-sanitizer -verify-diagnostics | FileCheck %s

// A triple-buffered ring and two barriers, each indexed: every buffer and
// every barrier gets its own entry (offset + i * sub-buffer bytes), the
// buffer list padded with 0 to a power of two. The state lives in global
// scratch, zeroed at the start of the kernel; its sizes follow the lists
// (4 buffers x 64 thread columns x 8 bytes of read visibility, 4 x 2 bytes
// of write tracking, ...).
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#sw1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK: #[[ONE_D:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
  // CHECK: #[[BARS:.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
  // CHECK: tt.func public @ring
  // CHECK: tti.experimental_buffer_pointers [1024, 3072, 5120, 0], shared_mem : tensor<4xi64, #[[ONE_D]]>
  // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 32 : i32} : !tt.ptr<i64>
  // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 2048 : i32} : !tt.ptr<i64>
  // CHECK: tti.experimental_buffer_pointers [16, 24], shared_mem : tensor<2xi64, #[[BARS]]>
  // CHECK: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 8 : i32} : !tt.ptr<i32>
  // CHECK: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 8 : i32} : !tt.ptr<i32>
  // CHECK: ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 8 : i32} : !tt.ptr<i8>
  // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 64 : i32} : !tt.ptr<i64>
  // The lock, released (zero) at the start.
  // CHECK: %[[LOCK:.*]] = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>
  // CHECK: tt.atomic_rmw exch, acq_rel, gpu, %[[LOCK]]
  tt.func public @ring(%x: tensor<64x16xf16>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<3x64x16xf16, #sw, #smem, mutable>
    %bars = ttg.local_alloc {allocation.offset = 16 : i32} : () -> !ttg.memdesc<2x1xi64, #sw1, #smem, mutable>
    %bar0 = ttg.memdesc_index %bars[%c0] : !ttg.memdesc<2x1xi64, #sw1, #smem, mutable> -> !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    %bar1 = ttg.memdesc_index %bars[%c1] : !ttg.memdesc<2x1xi64, #sw1, #smem, mutable> -> !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    // The barrier's state (count 2) is set in a critical section.
    // CHECK: tti.experimental_lock_acquire %[[LOCK]] :
    // CHECK-NEXT: arith.constant 2 : i32
    // CHECK-NEXT: tti.experimental_memdesc_to_i64
    // CHECK-NEXT: tt.call @__triton_consan_init_barrier_state_nw2_
    // CHECK-NEXT: tti.experimental_lock_release %[[LOCK]] :
    // CHECK-NEXT: ttng.init_barrier
    ttng.init_barrier %bar0, 2 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    ttng.init_barrier %bar1, 1 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    %slot = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<3x64x16xf16, #sw, #smem, mutable> -> !ttg.memdesc<64x16xf16, #sw, #smem, mutable>
    // A write checks the last write and all reads, then makes the writer
    // (thread 0 and its engines: mask 0x100010001) the only one seeing it.
    // CHECK: tti.experimental_lock_acquire
    // CHECK: tt.call @__triton_consan_verify_write_visibility_nw2_
    // CHECK-NEXT: tti.experimental_assert_in_thread %{{.*}}, "Buffer being accessed has outstanding writes."
    // CHECK: tt.call @__triton_consan_verify_read_visibility_nw2_
    // CHECK-NEXT: tti.experimental_assert_in_thread %{{.*}}, "Buffer being accessed has outstanding reads"
    // CHECK: arith.constant 4295032833 : i64
    // CHECK: tt.call @__triton_consan_set_write_visibility_nw2_
    // CHECK: tt.call @__triton_consan_clear_write_tracking_nw2_
    // CHECK: tt.call @__triton_consan_clear_read_visibility_nw2_
    // CHECK: tt.call @__triton_consan_clear_read_tracking_nw2_
    // CHECK-NEXT: tti.experimental_lock_release
    // CHECK-NEXT: ttg.local_store
    ttg.local_store %x, %slot : tensor<64x16xf16> -> !ttg.memdesc<64x16xf16, #sw, #smem, mutable>
    // An arrive hands what this thread sees to the barrier and counts down.
    // CHECK: tt.call @__triton_consan_track_visible_writes_nw2_
    // CHECK: tt.call @__triton_consan_track_visible_reads_nw2_
    // CHECK: tt.call @__triton_consan_verify_barrier_arrive_nw2_
    // CHECK-NEXT: tti.experimental_assert_in_thread %{{.*}}, "Barrier arrive underflow: current count would become negative"
    // CHECK: tt.call @__triton_consan_update_barrier_state_nw2_
    // CHECK-NEXT: tti.experimental_lock_release
    // CHECK-NEXT: ttng.arrive_barrier
    ttng.arrive_barrier %bar0, 1 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    // An unpredicated wait: marks the thread waiting (deadlock check) in its
    // own critical section before it, then takes over the barrier's
    // accesses after it.
    // CHECK: tti.experimental_lock_acquire %[[LOCK]] :
    // CHECK: tt.call @__triton_consan_set_waiting_nw2_
    // CHECK: arith.constant 1 : i32
    // CHECK: tt.call @__triton_consan_check_all_active_waiting_nw2_
    // CHECK-NEXT: tti.experimental_assert_in_thread %{{.*}}, "Deadlock detected: all active threads are waiting on mbarriers"
    // CHECK-NEXT: tti.experimental_lock_release %[[LOCK]] :
    // CHECK-NEXT: ttng.wait_barrier
    // CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK]] :
    // CHECK: tt.call @__triton_consan_transfer_visible_writes_nw2_
    // CHECK: tt.call @__triton_consan_transfer_visible_reads_nw2_
    // CHECK: tt.call @__triton_consan_clear_waiting_nw2_
    // CHECK-NEXT: tti.experimental_lock_release
    ttng.wait_barrier %bar0, %c0 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    // A read only checks the last write, then joins the readers.
    // CHECK: tt.call @__triton_consan_verify_write_visibility_nw2_
    // CHECK-NOT: verify_read_visibility
    // CHECK: tt.call @__triton_consan_set_read_visibility_nw2_
    // CHECK-NEXT: tti.experimental_lock_release
    // CHECK-NEXT: ttg.local_load
    %y = ttg.local_load %slot : !ttg.memdesc<64x16xf16, #sw, #smem, mutable> -> tensor<64x16xf16>
    tt.return
  }
}

// -----

// The helpers are private functions made once per name and types, here
// with two warps: a check returns its verdict for the assert at the call.
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK: tt.func private @__triton_consan_verify_write_visibility_nw2_{{.*}}(%{{.*}}: i64, %{{.*}}: i1, %{{.*}}: i32, %{{.*}}: tensor<1xi64, #{{.*}}>, %{{.*}}: !tt.ptr<i64>) -> tensor<1xi1, #{{.*}}> attributes {"ttg.num-warps" = 2 : i32}
  // CHECK: tt.load
  // CHECK: tt.return %{{.*}} : tensor<1xi1,
  // CHECK-LABEL: tt.func public @no_barriers
  // Without barriers nothing can make an access visible to another
  // thread: reads and writes are checked, nothing is recorded.
  // CHECK-COUNT-2: tt.call @__triton_consan_verify_write_visibility_nw2_
  // CHECK-NOT: set_write_visibility
  // CHECK-NOT: set_read_visibility
  // CHECK: tt.return
  tt.func public @no_barriers(%x: tensor<8x8xf32>) {
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<8x8xf32, #sw, #smem, mutable>
    ttg.local_store %x, %buf : tensor<8x8xf32> -> !ttg.memdesc<8x8xf32, #sw, #smem, mutable>
    %y = ttg.local_load %buf : !ttg.memdesc<8x8xf32, #sw, #smem, mutable> -> tensor<8x8xf32>
    tt.return
  }
}

// -----

// An access nested in a loop of partition 1 (thread 2: bit 2 and its
// engines' bits 18 and 34) is its partition's: the helpers it calls are
// made for the partition's warps (1), with its copy of the buffer list.
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#sw1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90", "ttg.total-num-warps" = 6 : i32} {
  // CHECK-LABEL: tt.func public @nested_in_partition
  // CHECK: ttg.warp_specialize(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}})
  // CHECK: partition1(
  // CHECK: tti.experimental_buffer_pointers [0], shared_mem : tensor<1xi64, #{{.*}}>
  // CHECK: scf.for
  // CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_
  // CHECK: arith.constant 17180131332 : i64
  // CHECK: tt.call @__triton_consan_set_read_visibility_nw1_
  tt.func public @nested_in_partition(%n: i32) {
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32xf32, #sw1, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 128 : i32} : () -> !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    ttg.warp_specialize(%buf, %n) attributes {warpGroupStartIds = array<i32: 4, 5>}
    default {
      ttg.warp_yield
    }
    partition0(%b0: !ttg.memdesc<32xf32, #sw1, #smem, mutable>, %n0: i32) num_warps(1) {
      ttg.warp_return
    }
    partition1(%b1: !ttg.memdesc<32xf32, #sw1, #smem, mutable>, %n1: i32) num_warps(1) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %i = %c0 to %n1 step %c1 : i32 {
        %v = ttg.local_load %b1 : !ttg.memdesc<32xf32, #sw1, #smem, mutable> -> tensor<32xf32>
      }
      ttg.warp_return
    } : (!ttg.memdesc<32xf32, #sw1, #smem, mutable>, i32) -> ()
    tt.return
  }
}

// -----

// An allocation indexed and also used whole: which buffer an access
// touches is unknown, so it is left out (with a warning).
#sw1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func public @mixed_use
  // CHECK-NOT: experimental_buffer_pointers
  tt.func public @mixed_use() {
    %c0 = arith.constant 0 : i32
    // expected-warning@+1 {{Allocation is used in an inconsistent way, cannot instrument}}
    %all = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x32xf32, #sw1, #smem, mutable>
    %one = ttg.memdesc_index %all[%c0] : !ttg.memdesc<2x32xf32, #sw1, #smem, mutable> -> !ttg.memdesc<32xf32, #sw1, #smem, mutable>
    %v = ttg.local_load %all : !ttg.memdesc<2x32xf32, #sw1, #smem, mutable> -> tensor<2x32xf32>
    tt.return
  }
}

// -----

// The sanitizer keys buffers by their offsets: it runs after shared memory
// is allocated.
#sw1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @not_allocated() {
    // expected-error@+1 {{the concurrency sanitizer runs after shared memory allocation: no allocation.offset}}
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32xf32, #sw1, #smem, mutable>
    tt.return
  }
}

// -----

// expected-error@+1 {{the concurrency sanitizer needs exactly one public function (the kernel)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @first() {
    tt.return
  }
  tt.func public @second() {
    tt.return
  }
}

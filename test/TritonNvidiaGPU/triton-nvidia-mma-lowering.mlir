// RUN: tt-opt %s -split-input-file -verify-diagnostics --triton-nvidia-mma-lowering | FileCheck %s

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // A synchronous MMA waits for its own mbarrier, under its predicate.
  // CHECK-LABEL: @sync_mma
  // CHECK-SAME: %{{[^:]*}}: !ttg.memdesc<128x64xf16, {{.*}}>, %{{[^:]*}}: !ttg.memdesc<64x128xf16, {{.*}}>, %{{[^:]*}}: !ttg.memdesc<128x128xf32, {{.*}}>, %[[PRED:[^:]*]]: i1
  // CHECK-DAG: %[[TRUE:.*]] = arith.constant true
  // CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
  // CHECK: ttng.init_barrier %[[BAR]], 1
  // CHECK: ttng.tc_gen5_mma {{.*}}, %[[PRED]], %[[BAR]][%[[TRUE]]] {is_async}
  // CHECK: ttng.wait_barrier %[[BAR]], %[[ZERO]], %[[PRED]]
  // CHECK: ttng.inval_barrier %[[BAR]]
  tt.func @sync_mma(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x128xf16, #nvmma, #smem>, %c: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %pred: i1) {
    %true = arith.constant true
    ttng.tc_gen5_mma %a, %b, %c, %true, %pred : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }

  // Commits after an MMA that always runs become its barriers, with the
  // pure ops computing their operands moved above it; a commit after an
  // op with effects stays.
  // CHECK-LABEL: @merge
  // CHECK-SAME: %[[BARS:[^:]*]]: !ttg.memdesc<2x1xi64
  // CHECK: %[[ONE:.*]] = ttg.memdesc_index %[[BARS]]
  // CHECK: %[[TWO:.*]] = ttg.memdesc_index %[[BARS]]
  // CHECK: ttng.tc_gen5_mma {{.*}}, %[[ONE]][%{{.*}}], %[[TWO]][%{{.*}}] {is_async}
  // CHECK-NEXT: ttng.wait_barrier
  // CHECK-NEXT: ttng.tc_gen5_commit
  tt.func @merge(%bars: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x128xf16, #nvmma, #smem>, %c: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    ttng.tc_gen5_mma %a, %b, %c, %true, %true {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %one = ttg.memdesc_index %bars[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %one : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %two = ttg.memdesc_index %bars[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %two, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %one, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %two : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#scales = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @scales_in_shared(%a: !ttg.memdesc<128x128xf8E5M2, #shared, #smem>, %b: !ttg.memdesc<128x64xf8E5M2, #shared, #smem>, %c: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %sa: !ttg.memdesc<128x4xi8, #scales, #smem>, %sb: !ttg.memdesc<64x4xi8, #scales, #smem>) {
    %true = arith.constant true
    // expected-error @+1 {{has its scales in shared memory}}
    ttng.tc_gen5_mma_scaled %a, %b, %c, %sa, %sb, %true, %true lhs = e5m2 rhs = e5m2 {is_async} : !ttg.memdesc<128x128xf8E5M2, #shared, #smem>, !ttg.memdesc<128x64xf8E5M2, #shared, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #scales, #smem>, !ttg.memdesc<64x4xi8, #scales, #smem>
    tt.return
  }
}

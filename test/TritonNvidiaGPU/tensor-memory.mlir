// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of Blackwell's tensor-memory attributes and of the tmem_* and
// tcgen05 ops (syntax and verifiers only: nothing lowers them yet). As
// upstream, tensor-memory layouts print as #tmem and #tmem_scales aliases.

// CHECK-DAG: #[[$TMEM:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-DAG: #[[$TMEM2:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2, CTASplitM = 2, twoCTAs = true>
// CHECK-DAG: #[[$SCALES:tmem_scales[0-9]*]] = #ttng.tensor_memory_scales_encoding<>
// CHECK-DAG: #[[$SCALES2:tmem_scales[0-9]*]] = #ttng.tensor_memory_scales_encoding<CTASplitN = 2>


#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked_s = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma32 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem2 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2, CTASplitM = 2, twoCTAs = true>
#scales = #ttng.tensor_memory_scales_encoding<>
#scales2 = #ttng.tensor_memory_scales_encoding<CTASplitN = 2>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:100"} {

// CHECK-LABEL: tt.func @tmem
tt.func @tmem(%t: tensor<128x128xf32, #blocked>, %pred: i1) -> tensor<128x128xf32, #blocked> {
  // CHECK: %[[A:.*]], %[[TOK:.*]] = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>, !ttg.async.token)
  %a, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
  // CHECK: ttng.tmem_alloc %{{.*}} : (tensor<128x128xf32, #{{.*}}>) -> !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory>
  %b = ttng.tmem_alloc %t : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  // CHECK: %[[TOK2:.*]] = ttng.tmem_store %{{.*}}, %[[A]][%[[TOK]]], %{{.*}} : tensor<128x128xf32, #{{.*}}> -> !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>
  %tok2 = ttng.tmem_store %t, %a[%tok], %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK: ttng.tmem_store %{{.*}}, %[[A]], %{{.*}} : tensor<128x128xf32, #{{.*}}> -> !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>
  ttng.tmem_store %t, %a, %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK: ttng.tmem_load %[[A]][%[[TOK2]]] : !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #{{.*}}>
  %r, %tok3 = ttng.tmem_load %a[%tok2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
  // CHECK: ttng.tmem_load %{{.*}}[] : !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory> -> tensor<128x128xf32, #{{.*}}>
  %r2, %tok4 = ttng.tmem_load %b[] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xf32, #blocked>
  // CHECK: ttng.tmem_subslice %[[A]] {N = 64 : i32} : !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #[[$TMEM]], #ttng.tensor_memory, mutable, 128x128>
  %s = ttng.tmem_subslice %a {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>
  tt.return %r : tensor<128x128xf32, #blocked>
}

// CHECK-LABEL: tt.func @tcgen05
tt.func @tcgen05(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x128xf16, #nvmma, #smem>,
                 %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %pred: i1,
                 %as: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %bs: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>,
                 %src: !ttg.memdesc<128x128xf32, #nvmma32, #smem>, %ssrc: !ttg.memdesc<128x4xi8, #plain, #smem>) {
  %d, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
  // CHECK: %[[T1:.*]] = ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %[[D:.*]][%{{.*}}], %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, #{{.*}}, #smem>, !ttg.memdesc<64x128xf16, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>
  %t1 = ttng.tc_gen5_mma %a, %b, %d[%tok], %pred, %pred : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK: ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %[[D]], %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] {is_async} : !ttg.memdesc<128x64xf16, #{{.*}}, #smem>, !ttg.memdesc<64x128xf16, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
  ttng.tc_gen5_mma %a, %b, %d, %pred, %pred, %bar[%pred] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.tc_gen5_mma_scaled %{{.*}}, %{{.*}}, %[[D]][], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} lhs = e4m3 rhs = e5m2 : !ttg.memdesc<128x64xf16, #{{.*}}, #smem>, !ttg.memdesc<64x128xf16, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #[[$SCALES]], #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #[[$SCALES]], #ttng.tensor_memory>
  %t2 = ttng.tc_gen5_mma_scaled %a, %b, %d[], %as, %bs, %pred, %pred lhs = e4m3 rhs = e5m2 : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>
  // CHECK: ttng.tc_gen5_commit %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
  ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.tc_gen5_commit %{{.*}}, %{{.*}} {two_ctas} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
  ttng.tc_gen5_commit %bar, %pred {two_ctas} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.tmem_copy %{{.*}}, %[[D]] : !ttg.memdesc<128x128xf32, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>
  ttng.tmem_copy %src, %d : !ttg.memdesc<128x128xf32, #nvmma32, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  %sc = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #scales2, #ttng.tensor_memory, mutable>
  // CHECK: ttng.tmem_copy %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x4xi8, #{{.*}}, #smem>, !ttg.memdesc<128x4xi8, #[[$SCALES2]], #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
  ttng.tmem_copy %ssrc, %sc, %bar : !ttg.memdesc<128x4xi8, #plain, #smem>, !ttg.memdesc<128x4xi8, #scales2, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf16, #[[$TMEM2]], #ttng.tensor_memory, mutable>
  %t3 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf16, #tmem2, #ttng.tensor_memory, mutable>
  tt.return
}

}

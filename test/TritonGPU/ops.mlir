// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of every ttg op, in each of its optional forms.

// CHECK-DAG: #[[$BLOCKED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$BLOCKED1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$BLOCKED_FP4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$BLOCKED_FP4_1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$BLOCKED_2W:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-DAG: #[[$BLOCKED_1W:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: #[[$MMA:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[$SHARED:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[$SHARED3D:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
// CHECK-DAG: #[[$SHARED_T:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-DAG: #[[$NVMMA:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$NVMMA_R3:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked_fp4 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked_fp4_1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked_2w = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#blocked_1w = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared3d = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#shared_t = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_r3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#smem = #ttg.shared_memory

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: tt.func @convert_layout
tt.func @convert_layout(%x: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #mma> {
  // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #[[$BLOCKED]]> -> tensor<64x64xf16, #[[$BLOCKED1]]>
  %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
  // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #[[$BLOCKED1]]> -> tensor<64x64xf16, #[[$MMA]]>
  %1 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #mma>
  // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32} : tensor<64x64xf16, #[[$BLOCKED]]> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>>
  %2 = ttg.convert_layout %x {allocation.offset = 0 : i32} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  tt.return %1 : tensor<64x64xf16, #mma>
}

// CHECK-LABEL: tt.func @async_copies
tt.func @async_copies(%ptrs: tensor<64x64x!tt.ptr<f16>, #blocked>, %mask: tensor<64x64xi1, #blocked>, %other: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
  // CHECK: %[[T0:.*]] = ttg.async_copy_global_to_local %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$BLOCKED]]> -> <64x64xf16, #[[$SHARED]], #smem, mutable>
  %0 = ttg.async_copy_global_to_local %ptrs, %buf : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$BLOCKED]]> -> <64x64xf16, #[[$SHARED]], #smem, mutable>
  %1 = ttg.async_copy_global_to_local %ptrs, %buf mask %mask : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} other %{{.*}} cacheModifier = cg evictionPolicy = evict_first {contiguity = 8 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #[[$BLOCKED]]> -> <64x64xf16, #[[$SHARED]], #smem, mutable>
  %2 = ttg.async_copy_global_to_local %ptrs, %buf mask %mask other %other cacheModifier = cg evictionPolicy = evict_first {contiguity = 8 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} evictionPolicy = evict_last : tensor<64x64x!tt.ptr<f16>, #[[$BLOCKED]]> -> <64x64xf16, #[[$SHARED]], #smem, mutable>
  %3 = ttg.async_copy_global_to_local %ptrs, %buf evictionPolicy = evict_last : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.async_commit_group{{$}}
  %4 = ttg.async_commit_group
  // CHECK: ttg.async_commit_group tokens %[[T0]]{{$}}
  %5 = ttg.async_commit_group tokens %0
  // CHECK: ttg.async_commit_group tokens %{{.*}}, %{{.*}}{{$}}
  %6 = ttg.async_commit_group tokens %1, %2
  // CHECK: ttg.async_wait {num = 0 : i32}
  %7 = ttg.async_wait {num = 0 : i32}
  // CHECK: ttg.async_wait %{{.*}}, %{{.*}} {num = 1 : i32}
  %8 = ttg.async_wait %5, %6 {num = 1 : i32}
  // CHECK: ttg.local_load %{{.*}} token %{{.*}} : !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem, mutable> -> tensor<64x64xf16, #[[$BLOCKED]]>
  %9 = ttg.local_load %buf token %8 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
  tt.return
}

// CHECK-LABEL: tt.func @shared_memory
tt.func @shared_memory(%x: tensor<64x64xf16, #blocked>, %i: i32) {
  // CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #[[$SHARED]], #smem, mutable>
  %0 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.local_alloc {alignment = 128 : i32} : () -> !ttg.memdesc<64x64xf16, #[[$NVMMA]], #smem, mutable>
  %1 = ttg.local_alloc {alignment = 128 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #[[$BLOCKED]]>) -> !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem>
  %2 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #[[$BLOCKED]]>) -> !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem, mutable>
  %3 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.memdesc_index %[[A]][%{{.*}}] : !ttg.memdesc<3x64x64xf16, #[[$SHARED]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem, mutable>
  %4 = ttg.memdesc_index %0[%i] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.memdesc_subslice %{{.*}}[0, 32] : !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem, mutable> -> !ttg.memdesc<64x32xf16, #[[$SHARED]], #smem, mutable, 64x64>
  %5 = ttg.memdesc_subslice %4[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
  %b4 = ttg.local_alloc : () -> !ttg.memdesc<4x64x64xf16, #shared3d, #smem, mutable>
  // CHECK: ttg.memdesc_subslice %{{.*}}[2, 0, 0] : !ttg.memdesc<4x64x64xf16, #[[$SHARED3D]], #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #[[$SHARED3D]], #smem, mutable, 4x64x64>
  %6 = ttg.memdesc_subslice %b4[2, 0, 0] : !ttg.memdesc<4x64x64xf16, #shared3d, #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #shared3d, #smem, mutable, 4x64x64>
  // CHECK: ttg.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem> -> !ttg.memdesc<64x64xf16, #[[$SHARED_T]], #smem>
  %7 = ttg.memdesc_trans %2 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared_t, #smem>
  // CHECK: ttg.memdesc_reshape %{{.*}} : !ttg.memdesc<64x64xf16, #[[$NVMMA]], #smem, mutable> -> !ttg.memdesc<1x64x64xf16, #[[$NVMMA_R3]], #smem, mutable>
  %8 = ttg.memdesc_reshape %1 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<1x64x64xf16, #nvmma_r3, #smem, mutable>
  // CHECK: ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<64x64xf16, #[[$NVMMA]], #smem, mutable> -> !ttg.memdesc<32x64xi32, #[[$NVMMA]], #smem, mutable>
  %9 = ttg.memdesc_reinterpret %1 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<32x64xi32, #nvmma, #smem, mutable>
  // CHECK: ttg.local_store %{{.*}}, %{{.*}} : tensor<64x64xf16, #[[$BLOCKED]]> -> !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem, mutable>
  ttg.local_store %x, %4 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem, mutable> -> tensor<64x64xf16, #[[$BLOCKED1]]>
  %10 = ttg.local_load %4 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked1>
  // CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf16, #[[$SHARED]], #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[$MMA]], kWidth = 2}>>
  %11 = ttg.local_load %2 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  // CHECK: ttg.local_barrier{{$}}
  ttg.local_barrier
  // CHECK: ttg.local_dealloc %[[A]] : !ttg.memdesc<3x64x64xf16, #[[$SHARED]], #smem, mutable>
  ttg.local_dealloc %0 : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
  tt.return
}

// CHECK-LABEL: tt.func @pipelining
tt.func @pipelining(%iv: i32, %ub: i32, %step: i32, %ivx: index, %ptr: !tt.ptr<f32>) -> f32 {
  // CHECK: ttg.predicate_stage %{{.*}}, %{{.*}}, %{{.*}} maxStage 3 stage 1 : i32 -> i1
  %0 = ttg.predicate_stage %iv, %ub, %step maxStage 3 stage 1 : i32 -> i1
  // CHECK: ttg.predicate_stage %{{.*}}, %{{.*}}, %{{.*}} maxStage 2 stage 0 : index -> i1
  %1 = ttg.predicate_stage %ivx, %ivx, %ivx maxStage 2 stage 0 : index -> i1
  // CHECK: "ttg.mask"(%{{.*}}) ({
  // CHECK: ttg.mask.return %{{.*}} : f32
  // CHECK: }) : (i1) -> f32
  %2 = "ttg.mask"(%0) ({
    %v = tt.load %ptr : !tt.ptr<f32>
    ttg.mask.return %v : f32
  }) : (i1) -> f32
  // Two results. (A ttg.mask.return of no values prints as `ttg.mask.return  :`,
  // which does not parse, in Triton 3.6 as here.)
  // CHECK: "ttg.mask"(%{{.*}}) ({
  // CHECK: ttg.mask.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: }) : (i1) -> (f32, i32)
  %3:2 = "ttg.mask"(%1) ({
    tt.store %ptr, %2 : !tt.ptr<f32>
    ttg.mask.return %2, %iv : f32, i32
  }) : (i1) -> (f32, i32)
  tt.return %2 : f32
}

// CHECK-LABEL: tt.func @other_ops
tt.func @other_ops(%packed: tensor<64x32xi8, #blocked>, %packed1: tensor<32x64xi8, #blocked1>) {
  // CHECK: ttg.fp4_to_fp %{{.*}} {axis = 1 : i32} : tensor<64x32xi8, #[[$BLOCKED]]> -> tensor<64x64xbf16, #[[$BLOCKED_FP4]]>
  %0 = ttg.fp4_to_fp %packed {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked_fp4>
  // CHECK: ttg.fp4_to_fp %{{.*}} {axis = 0 : i32} : tensor<32x64xi8, #[[$BLOCKED1]]> -> tensor<64x64xf16, #[[$BLOCKED_FP4_1]]>
  %1 = ttg.fp4_to_fp %packed1 {axis = 0 : i32} : tensor<32x64xi8, #blocked1> -> tensor<64x64xf16, #blocked_fp4_1>
  // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
  %2 = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
  // CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 4096 : i32, third_party_allocation} : !tt.ptr<f32>
  %3 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 4096 : i32, third_party_allocation} : !tt.ptr<f32>
  tt.return
}

// CHECK-LABEL: tt.func @warp_specialize_default_only
tt.func @warp_specialize_default_only() {
  // CHECK: ttg.warp_specialize()
  // CHECK-NEXT: default {
  // CHECK-NEXT: ttg.warp_yield{{$}}
  // CHECK-NEXT: } : () -> ()
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  } : () -> ()
  tt.return
}

// CHECK-LABEL: tt.func @warp_specialize
tt.func @warp_specialize(%a: i32, %b: !tt.ptr<f32>, %c: f32) -> (f32, i32) {
  // CHECK: %{{.*}}:2 = ttg.warp_specialize(%{{.*}}, %{{.*}}) attributes {actualRegisters = array<i32: 240, 40, 40, 40>, requestedRegisters = array<i32: 40, 40, 40>, warpGroupStartIds = array<i32: 4, 6, 7>}
  // CHECK-NEXT: default {
  // CHECK-NEXT: ttg.warp_yield %{{.*}}, %{{.*}} : f32, i32
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0(%{{.*}}: i32, %{{.*}}: !tt.ptr<f32>) num_warps(2) {
  // CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[$BLOCKED_2W]]>
  // CHECK: ttg.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1(%{{.*}}: i32, %{{.*}}: !tt.ptr<f32>) num_warps(1) {
  // CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[$BLOCKED_1W]]>
  // CHECK: ttg.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition2(%{{.*}}: i32, %{{.*}}: !tt.ptr<f32>) num_warps(1) {
  // CHECK-NEXT: ttg.warp_return
  // CHECK-NEXT: } : (i32, !tt.ptr<f32>) -> (f32, i32)
  %0:2 = ttg.warp_specialize(%a, %b) attributes {warpGroupStartIds = array<i32: 4, 6, 7>, requestedRegisters = array<i32: 40, 40, 40>, actualRegisters = array<i32: 240, 40, 40, 40>}
  default {
    ttg.warp_yield %c, %a : f32, i32
  }
  partition0(%x: i32, %p: !tt.ptr<f32>) num_warps(2) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked_2w>
    %s = tt.splat %x : i32 -> tensor<128xi32, #blocked_2w>
    %t = arith.addi %r, %s : tensor<128xi32, #blocked_2w>
    ttg.warp_return
  }
  partition1(%x: i32, %p: !tt.ptr<f32>) num_warps(1) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked_1w>
    %v = tt.load %p : !tt.ptr<f32>
    tt.store %p, %v : !tt.ptr<f32>
    ttg.warp_return
  }
  partition2(%x: i32, %p: !tt.ptr<f32>) num_warps(1) {
    ttg.warp_return
  } : (i32, !tt.ptr<f32>) -> (f32, i32)
  tt.return %0#0, %0#1 : f32, i32
}

// The generic form spells out the ttg.warp_specialize.partitions op that holds
// the partition regions; the custom form leaves it implicit.
// CHECK-LABEL: tt.func @warp_specialize_generic
// CHECK: ttg.warp_specialize(%{{.*}})
// CHECK-NEXT: default {
// CHECK-NEXT: ttg.warp_yield{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%{{.*}}: i32) num_warps(4) {
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: } : (i32) -> ()
tt.func @warp_specialize_generic(%a: i32) {
  "ttg.warp_specialize"(%a) ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() ({
    ^bb0(%x: i32):
      "ttg.warp_return"() : () -> ()
    }) : () -> ()
  }) {partitionNumWarps = array<i32: 4>} : (i32) -> ()
  tt.return
}

// A function of its own warp count.
// CHECK-LABEL: tt.func @function_num_warps
// CHECK-SAME: attributes {"ttg.num-warps" = 2 : i32}
tt.func @function_num_warps() attributes {"ttg.num-warps" = 2 : i32} {
  // CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[$BLOCKED_2W]]>
  %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked_2w>
  tt.return
}

}

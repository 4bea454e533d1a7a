// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of every ttng op, in each of its optional forms.

// CHECK-DAG: #[[$BLOCKED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$MMA:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[$NVMMA:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$NVMMA_T:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-DAG: #[[$BAR:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: tt.func @fences
tt.func @fences() {
  // CHECK: ttng.fence_async_shared {bCluster = false}
  ttng.fence_async_shared {bCluster = false}
  // CHECK: ttng.fence_async_shared {bCluster = true}
  ttng.fence_async_shared {bCluster = true}
  // CHECK: ttng.cluster_arrive {relaxed = false}
  ttng.cluster_arrive {relaxed = false}
  // CHECK: ttng.cluster_arrive {relaxed = true}
  ttng.cluster_arrive {relaxed = true}
  // CHECK: ttng.cluster_wait{{$}}
  ttng.cluster_wait
  tt.return
}

// CHECK-LABEL: tt.func @wgmma
tt.func @wgmma(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>,
               %b: !ttg.memdesc<64x64xf16, #nvmma_t, #smem>,
               %ar: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
               %c: tensor<128x64xf32, #mma>, %useC: i1) -> tensor<128x64xf32, #mma> {
  // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem> * !ttg.memdesc<64x64xf16, #[[$NVMMA_T]], #smem> -> tensor<128x64xf32, #[[$MMA]]>
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma_t, #smem> -> tensor<128x64xf32, #mma>
  // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem> * !ttg.memdesc<64x64xf16, #[[$NVMMA_T]], #smem> -> tensor<128x64xf32, #[[$MMA]]>
  %1 = ttng.warp_group_dot %a, %b, %0, %useC {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma_t, #smem> -> tensor<128x64xf32, #mma>
  // Operand A in registers.
  // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {isAsync = true} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>> * !ttg.memdesc<64x64xf16, #[[$NVMMA_T]], #smem> -> tensor<128x64xf32, #[[$MMA]]>
  %2 = ttng.warp_group_dot %ar, %b, %1 {isAsync = true} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #nvmma_t, #smem> -> tensor<128x64xf32, #mma>
  // CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32} : tensor<128x64xf32, #[[$MMA]]>
  %3 = ttng.warp_group_dot_wait %2 {pendings = 0 : i32} : tensor<128x64xf32, #mma>
  // CHECK: ttng.warp_group_dot_wait %{{.*}}, %{{.*}}, %{{.*}} {pendings = 1 : i32} : tensor<128x64xf32, #[[$MMA]]>, !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem>, !ttg.memdesc<64x64xf16, #[[$NVMMA_T]], #smem>
  %4:3 = ttng.warp_group_dot_wait %3, %a, %b {pendings = 1 : i32} : tensor<128x64xf32, #mma>, !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x64xf16, #nvmma_t, #smem>
  tt.return %4#0 : tensor<128x64xf32, #mma>
}

// CHECK-LABEL: tt.func @barriers
tt.func @barriers(%pred: i1, %phase: i32, %dep: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) {
  // CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.init_barrier %[[BAR]], 1 : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.barrier_expect %[[BAR]], 16384, %{{.*}} : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.arrive_barrier %[[BAR]], 1 : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.arrive_barrier %[[BAR]], 2, %{{.*}} : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.arrive_barrier %bar, 2, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.wait_barrier %[[BAR]], %{{.*}} : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.wait_barrier %[[BAR]], %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.wait_barrier %bar, %phase, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.wait_barrier %[[BAR]], %{{.*}} deps %{{.*}} : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>, !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.wait_barrier %bar, %phase deps %dep : !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.wait_barrier %[[BAR]], %{{.*}}, %{{.*}} deps %{{.*}}, %[[BAR]] : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>, !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>, !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.wait_barrier %bar, %phase, %pred deps %dep, %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.async_copy_mbarrier_arrive %[[BAR]] : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.async_copy_mbarrier_arrive %[[BAR]] {noIncrement} : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: ttng.inval_barrier %[[BAR]] : !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>
  ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  tt.return
}

// CHECK-LABEL: tt.func @tma
tt.func @tma(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>,
             %gdesc: !tt.tensordesc<tensor<1x64xf16, #nvmma>>,
             %i: i32, %j: i32, %pred: i1, %rows: tensor<32xi32, #blocked>,
             %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>,
             %gbuf: !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>,
             %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
  // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #[[$NVMMA]]>>, !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable> -> !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.async_tma_copy_global_to_local %desc[%i, %j] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : !tt.tensordesc<tensor<128x64xf16, #[[$NVMMA]]>>, !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable> -> !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.async_tma_copy_global_to_local %desc[%i, %j] %buf, %bar, %pred cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #[[$NVMMA]]>>, !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.async_tma_copy_local_to_global %desc[%i, %j] %buf : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.async_tma_reduce add, %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #[[$NVMMA]]>>, !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.async_tma_reduce add, %desc[%i, %j] %buf : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.async_tma_reduce max, %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #[[$NVMMA]]>>, !ttg.memdesc<128x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.async_tma_reduce max, %desc[%i, %j] %buf : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.async_tma_gather %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<1x64xf16, #[[$NVMMA]]>>, tensor<32xi32, #[[$BLOCKED]]>, i32, !ttg.memdesc<1xi64, #[[$BAR]], #smem, mutable>, !ttg.memdesc<32x64xf16, #[[$NVMMA]], #smem, mutable>, i1
  ttng.async_tma_gather %gdesc[%rows, %j] %gbuf, %bar, %pred : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>, i1
  // CHECK: ttng.async_tma_scatter %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<1x64xf16, #[[$NVMMA]]>>, tensor<32xi32, #[[$BLOCKED]]>, i32, !ttg.memdesc<32x64xf16, #[[$NVMMA]], #smem, mutable>
  ttng.async_tma_scatter %gdesc[%rows, %j] %gbuf : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>
  // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
  ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK: ttng.async_tma_store_wait {pendings = 2 : i32}
  ttng.async_tma_store_wait {pendings = 2 : i32}
  tt.return
}

// CHECK-LABEL: tt.func @tensormaps
tt.func @tensormaps(%desc_ptr: !tt.ptr<i8>, %global: !tt.ptr<f16>, %box0: i32, %box1: i32, %dim0: i32, %dim1: i32, %stride: i64, %one: i32) -> !tt.tensordesc<tensor<128x64xf16, #nvmma>> {
  // CHECK: ttng.tensormap_create %{{.*}}, %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}], [%{{.*}}, %{{.*}}] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
  ttng.tensormap_create %desc_ptr, %global, [%box0, %box1], [%dim0, %dim1], [%stride], [%one, %one] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
  // CHECK: ttng.tensormap_create %{{.*}}, %{{.*}}, [%{{.*}}], [%{{.*}}], [], [%{{.*}}] {elem_type = 1 : i32, fill_mode = 1 : i32, interleave_layout = 2 : i32, swizzle_mode = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32) -> ()
  ttng.tensormap_create %desc_ptr, %global, [%box0], [%dim0], [], [%one] {elem_type = 1 : i32, fill_mode = 1 : i32, interleave_layout = 2 : i32, swizzle_mode = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32) -> ()
  // CHECK: ttng.tensormap_fenceproxy_acquire %{{.*}} : !tt.ptr<i8>
  ttng.tensormap_fenceproxy_acquire %desc_ptr : !tt.ptr<i8>
  // CHECK: ttng.reinterpret_tensor_descriptor %{{.*}} : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #[[$NVMMA]]>>
  %0 = ttng.reinterpret_tensor_descriptor %desc_ptr : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #nvmma>>
  tt.return %0 : !tt.tensordesc<tensor<128x64xf16, #nvmma>>
}

}

// TMA on sm_90 through `tritium compile`: a host-side descriptor parameter is
// a by-value 128-byte CUtensorMap (.param .align 64 .b8 [128]); the copies
// are cp.async.bulk.tensor completing on an mbarrier (loads) or in a bulk
// group (stores); a 64x64 f32 store with a 128-byte swizzle is two 64x32
// boxes; the json's tensordesc_meta tells the launcher each CUtensorMap's
// box, swizzle and element type (upstream's metadata).
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/copy.mlir -o %t/out
// RUN: FileCheck %s --check-prefix=PTX < %t/out/tma_copy.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/out/tma_copy.json
// RUN: not tritium compile %t/cache-modifier.mlir -o %t/bad 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: not tritium compile %t/device-side.mlir -o %t/bad 2>&1 | FileCheck %s --check-prefix=DEVICE

// PTX: .param .align 64 .b8 tma_copy_param_0[128],
// PTX-NEXT: .param .u32 tma_copy_param_1,
// PTX: .param .align 64 .b8 tma_copy_param_2[128]
// PTX: mbarrier.init.shared::cta.b64 [{{%r[0-9]+}}], 1;
// PTX: mbarrier.arrive.expect_tx.shared.b64 _, [{{%r[0-9]+}}], 8192;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}];
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: mbarrier.inval.shared::cta.b64
// PTX: fence.proxy.async.shared::cta;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX-NOT: cp.async.bulk.tensor
// PTX: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;

// JSON: "tensordesc_meta": [{"swizzle": 3, "elem_size": 2, "elem_type": 6, "block_size": [64, 64], "fp4_padded": false}, {"swizzle": 3, "elem_size": 4, "elem_type": 7, "block_size": [64, 32], "fp4_padded": false}]

// DEVICE: device-side.mlir:4:10: error: 'ttg.global_scratch_alloc': device-side tensor descriptors (tt.make_tensor_descriptor) are not supported by the lowering yet

// CACHE: cache-modifier.mlir:9:5: error: 'ttng.async_tma_copy_global_to_local': TMA copies with a cache modifier are not supported yet

//--- copy.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_copy(%in: !tt.tensordesc<tensor<64x64xf16, #shared>>, %m: i32, %out: !tt.tensordesc<tensor<64x64xf32, #shared2>>) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %pm = tt.get_program_id x : i32
    %row = arith.muli %pm, %m : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %in[%row, %c0_i32] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0_i32 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %y = arith.extf %x : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
    %s = ttg.local_alloc %y : (tensor<64x64xf32, #blocked>) -> !ttg.memdesc<64x64xf32, #shared2, #smem>
    ttng.fence_async_shared {bCluster = false}
    ttng.async_tma_copy_local_to_global %out[%row, %c0_i32] %s : !tt.tensordesc<tensor<64x64xf32, #shared2>>, !ttg.memdesc<64x64xf32, #shared2, #smem>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}
//--- cache-modifier.mlir
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%in: !tt.tensordesc<tensor<64x64xf16, #shared>>, %c: i32) {
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %in[%c, %c] %buf, %bar, %true cacheModifier = ca : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}
//--- device-side.mlir
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f16>) {
    %0 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_fenceproxy_acquire %0 : !tt.ptr<i8>
    tt.return
  }
}

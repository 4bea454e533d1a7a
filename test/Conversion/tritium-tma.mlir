// TMA on sm_90 through `tritium compile`: a host-side descriptor parameter is
// a by-value 128-byte CUtensorMap (.param .align 64 .b8 [128]); the copies
// are cp.async.bulk.tensor completing on an mbarrier (loads) or in a bulk
// group (stores); a 64x64 f32 store with a 128-byte swizzle is two 64x32
// boxes, which warps 0 and 1 store in one round (one instruction, a lane
// picked by elect.sync, the box chosen by the warp id's bit 0); the json's tensordesc_meta tells the launcher each CUtensorMap's
// box, swizzle and element type (upstream's metadata).
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/copy.mlir -o %t/out
// RUN: FileCheck %s --check-prefix=PTX < %t/out/tma_copy.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/out/tma_copy.json
// RUN: not tritium compile %t/cache-modifier.mlir -o %t/bad 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: not tritium compile %t/coordinate-count.mlir -o %t/bad 2>&1 | FileCheck %s --check-prefix=COORDS
// RUN: tritium compile %t/device-side.mlir -o %t/device
// RUN: FileCheck %s --check-prefix=DEVICE < %t/device/kernel.ptx
// RUN: FileCheck %s --check-prefix=DEVICE-JSON < %t/device/kernel.json
// RUN: tritium compile %t/device-side.mlir --triton-abi -o %t/device-abi
// RUN: FileCheck %s --check-prefix=DEVICE-ABI < %t/device-abi/kernel.ptx

// PTX: .param .align 64 .b8 tma_copy_param_0[128],
// PTX-NEXT: .param .u32 tma_copy_param_1,
// PTX: .param .align 64 .b8 tma_copy_param_2[128]
// PTX: mbarrier.init.shared::cta.b64 [{{%r[0-9]+}}], 1;
// PTX: mbarrier.arrive.expect_tx.shared.b64 _, [{{%r[0-9]+}}], 8192;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}];
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: mbarrier.inval.shared::cta.b64
// PTX: fence.proxy.async.shared::cta;
// PTX: elect.sync
// PTX: setp.lt.u32 {{%p[0-9]+}}, {{%r[0-9]+}}, 64;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX-NOT: cp.async.bulk.tensor
// PTX: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;

// JSON: "tensordesc_meta": [{"swizzle": 3, "elem_size": 2, "elem_type": 6, "block_size": [64, 64], "fp4_padded": false}, {"swizzle": 3, "elem_size": 4, "elem_type": 7, "block_size": [64, 32], "fp4_padded": false}]

// A device-side descriptor: its tensormap lives in the program's global
// scratch (a trailing global_scratch parameter; program linear id times the
// 128 bytes a program needs), is built in shared memory with
// tensormap.replace by thread 0, copied out and released by the first warp,
// acquired, and then used as the descriptor of the copy.
// DEVICE: .param .u64 .ptr .global .align 1 kernel_param_2
// DEVICE-NEXT: )
// DEVICE: mov.u32 {{%r[0-9]+}}, %ctaid.z;
// DEVICE: shl.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 7;
// DEVICE: st.shared.b32 [{{%r[0-9]+}}], 0;
// DEVICE: bar.warp.sync -1;
// DEVICE: tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ {{%r[0-9]+}} + 0 ], {{%rd[0-9]+}};
// DEVICE: tensormap.replace.tile.rank.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x1;
// DEVICE: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x0, {{%r[0-9]+}};
// DEVICE: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x1, {{%r[0-9]+}};
// DEVICE: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x0, {{%r[0-9]+}};
// DEVICE: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x1, {{%r[0-9]+}};
// DEVICE: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [ {{%r[0-9]+}} + 0 ], 0x0, {{%rd[0-9]+}};
// DEVICE-NOT: global_stride
// DEVICE: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x1, {{%r[0-9]+}};
// DEVICE: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x6;
// DEVICE: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [ {{%r[0-9]+}} + 0 ], 0x3;
// DEVICE: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ [[TMAP:%rd[0-9]+]] + 0 ], [ {{%r[0-9]+}} + 0 ], 0x80;
// DEVICE: fence.proxy.tensormap::generic.acquire.gpu [ [[TMAP]] + 0 ], 0x80;
// DEVICE: bar.sync 0;
// DEVICE: cvta.global.u64 [[GENERIC:%rd[0-9]+]], [[TMAP]];
// DEVICE: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [[[GENERIC]], {{{%r[0-9]+}}, {{%r[0-9]+}}}]

// DEVICE-JSON: {"name": "global_scratch", "type": "!llvm.ptr<1>"}
// DEVICE-JSON: "tensordesc_meta": [],
// DEVICE-JSON-NEXT: "global_scratch_size": 128,
// DEVICE-JSON-NEXT: "global_scratch_align": 128

// With Triton's ABI the global scratch is the first of the two trailing pointers.
// DEVICE-ABI: .param .u64 .ptr .global .align 1 kernel_param_2,
// DEVICE-ABI-NEXT: .param .u64 .ptr .global .align 1 kernel_param_3
// DEVICE-ABI: ld.param.b64 {{%rd[0-9]+}}, [kernel_param_2];

// CACHE: cache-modifier.mlir:9:5: error: 'ttng.async_tma_copy_global_to_local': TMA copies with a cache modifier are not supported yet

// As upstream, the verifier accepts 1 to 5 coordinates for any descriptor
// (upstream's TritonNvidiaGPU/tma_lowering.mlir loads a 2-D descriptor with
// three); the lowering refuses a count other than the descriptor's rank.
// COORDS: coordinate-count.mlir:9:5: error: 'ttng.async_tma_copy_global_to_local': has 3 coordinates for a descriptor of rank 2; a TMA copy needs one per dimension

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
//--- coordinate-count.mlir
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%in: !tt.tensordesc<tensor<64x64xf16, #shared>>, %c: i32) {
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %in[%c, %c, %c] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}
//--- device-side.mlir
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f16>, %n: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128_i64 = arith.constant 128 : i64
    %0 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %0, %p, [%c64, %c64], [%n, %n], [%c128_i64], [%c1, %c1] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %0 : !tt.ptr<i8>
    %desc = ttng.reinterpret_tensor_descriptor %0 : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    tt.return
  }
}

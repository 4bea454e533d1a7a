// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm='compute-capability=90' -verify-diagnostics | FileCheck %s
// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm='compute-capability=90' --convert-nv-gpu-to-llvm -verify-diagnostics | FileCheck %s --check-prefix=ASM

// Hopper's lowering in upstream's forms: wgmma as nvg ops on LLVM values
// (convert-nv-gpu-to-llvm makes them inline PTX, as Tritium's pipeline runs
// it right after the lowering), stmatrix for 8- and 32-bit elements, and a
// tensor cast to the struct of its registers.

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#a_smem = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#b_smem = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#b_k16 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 16}>
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // Two K steps of one 64x32 tile: the first without C (a zero
  // accumulator: scale-d 0), the second reading the first's result; then
  // the commit and, the dot being synchronous, a wait on its registers.
  // CHECK-LABEL: @dot_shared
  // CHECK: nvvm.wgmma.fence.aligned
  // CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 32 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: nvvm.wgmma.commit.group.sync.aligned
  // CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: llvm.return
  // ASM-LABEL: @dot_shared
  // ASM: "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, $16, $17, 0, 1, 1, 0, 0;"
  // ASM: "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, $32, $33, $34, 1, 1, 0, 0;"
  // ASM: wgmma.wait_group.sync.aligned 0;
  // ASM: llvm.return
  tt.func @dot_shared(%a: !ttg.memdesc<64x32xf16, #a_smem, #smem>, %b: !ttg.memdesc<32x32xf16, #b_smem, #smem>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %d = ttng.warp_group_dot %a, %b, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #a_smem, #smem> * !ttg.memdesc<32x32xf16, #b_smem, #smem> -> tensor<64x32xf32, #mma>
    tt.return
  }

  // A in registers: a struct of its four b32 fragment registers; an
  // asynchronous dot has no wait.
  // CHECK-LABEL: @dot_registers
  // CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)
  // CHECK: nvvm.wgmma.commit.group.sync.aligned
  // CHECK-NOT: nvg.wgmma_wait_group
  // CHECK: llvm.return
  // ASM-LABEL: @dot_registers
  // ASM: "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, {$32,$33,$34,$35}, $36, $37, 1, 1, 0;"
  tt.func @dot_registers(%a: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: !ttg.memdesc<16x32xf16, #b_k16, #smem>, %c: tensor<64x32xf32, #mma>) {
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<16x32xf16, #b_k16, #smem> -> tensor<64x32xf32, #mma>
    tt.return
  }

  // A wait on a tensor of one register per thread: a one-field struct.
  // CHECK-LABEL: @wait_one
  // CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32} : !llvm.struct<(f32)>
  // ASM-LABEL: @wait_one
  // ASM: "// wait for regs: $0\0A\09wgmma.wait_group.sync.aligned 0;", "=f,0" %{{.*}} : (f32) -> f32
  tt.func @wait_one(%x: tensor<128xf32, #one>) {
    %y = ttng.warp_group_dot_wait %x {pendings = 0 : i32} : tensor<128xf32, #one>
    tt.return
  }
}

// -----

// stmatrix moves 16-byte rows whatever the element size: four 8-bit
// elements, or one 32-bit element, to a thread's b32 of a row.
#bytes = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0], [0, 16]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 32]], block = []}>
#words = #ttg.linear<{register = [[0, 4], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = [[0, 8], [0, 16]], block = []}>
#row_major = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @store_bytes
  // CHECK-COUNT-4: llvm.bitcast %{{.*}} : vector<4xi8> to i32
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func @store_bytes(%x: tensor<32x64xf8E4M3FN, #bytes>) {
    %buffer = ttg.local_alloc : () -> !ttg.memdesc<32x64xf8E4M3FN, #row_major, #smem, mutable>
    ttg.local_store %x, %buffer : tensor<32x64xf8E4M3FN, #bytes> -> !ttg.memdesc<32x64xf8E4M3FN, #row_major, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: @store_words
  // CHECK-COUNT-2: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func @store_words(%x: tensor<32x32xf32, #words>) {
    %buffer = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #row_major, #smem, mutable>
    ttg.local_store %x, %buffer : tensor<32x32xf32, #words> -> !ttg.memdesc<32x32xf32, #row_major, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  // A tensor cast to an LLVM struct (how a test hands a tensor to llvm
  // ops): the struct of the thread's registers, in register order.
  // CHECK-LABEL: @cast_to_struct
  // CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  // CHECK: %[[S0:.*]] = llvm.insertvalue %{{.*}}, %[[U]][0]
  // CHECK: %[[S1:.*]] = llvm.insertvalue %{{.*}}, %[[S0]][1]
  // CHECK: llvm.store volatile %[[S1]], %{{.*}} : !llvm.struct<(f32, f32)>, !llvm.ptr
  tt.func @cast_to_struct(%p: !llvm.ptr, %x: tensor<64xf32, #blocked>) {
    %s = builtin.unrealized_conversion_cast %x : tensor<64xf32, #blocked> to !llvm.struct<(f32, f32)>
    llvm.store volatile %s, %p : !llvm.struct<(f32, f32)>, !llvm.ptr
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  // A struct that is not the thread's registers is an error at the cast.
  tt.func @cast_mismatch(%p: !llvm.ptr, %x: tensor<64xf32, #blocked>) {
    // expected-error @+1 {{but the lowering passes tensor<64xf32}}
    %s = builtin.unrealized_conversion_cast %x : tensor<64xf32, #blocked> to !llvm.struct<(f32)>
    llvm.store volatile %s, %p : !llvm.struct<(f32)>, !llvm.ptr
    tt.return
  }
}

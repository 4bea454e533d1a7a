// RUN: tt-opt --split-input-file --verify-diagnostics %s

// Verifier diagnostics of ttng ops.

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @wgmma_shapes(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<32x64xf16, #nvmma, #smem>, %c: tensor<128x64xf32, #mma>) {
  // expected-error @+1 {{do not multiply into}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<32x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @wgmma_accumulator_layout(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %c: tensor<128x64xf32, #blocked>) {
  // expected-error @+1 {{accumulator must have an nvidia_mma version 3 layout}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #blocked>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @wgmma_bit_widths(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x64xf8E4M3FN, #nvmma8, #smem>, %c: tensor<128x64xf32, #mma>) {
  // expected-error @+1 {{element types of A and B must have the same bit width}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #nvmma8, #smem> -> tensor<128x64xf32, #mma>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @wgmma_register_operand(%a: tensor<128x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %c: tensor<128x64xf32, #mma>) {
  // expected-error @+1 {{WGMMA A operand must have NVMMA shared or dot layout}}
  %0 = ttng.warp_group_dot %a, %b, %c : tensor<128x64xf16, #blocked> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<128x64xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @wgmma_wait_nothing() {
  // expected-error @+1 {{needs at least one value to wait for}}
  "ttng.warp_group_dot_wait"() <{pendings = 0 : i32}> : () -> ()
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @wgmma_wait_types(%c: tensor<128x64xf32, #mma>) {
  // expected-error @+1 {{failed to verify that all of {inputs, outputs} have same type}}
  %0 = "ttng.warp_group_dot_wait"(%c) <{pendings = 0 : i32}> : (tensor<128x64xf32, #mma>) -> tensor<128x64xf16, #mma>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @init_barrier_type(%bar: !ttg.memdesc<1xi32, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @inval_barrier_size(%bar: !ttg.memdesc<2xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.inval_barrier %bar : !ttg.memdesc<2xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @barrier_expect_type(%bar: !ttg.memdesc<1xf64, #shared, #smem, mutable>, %pred: i1) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xf64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @wait_barrier_type(%bar: !ttg.memdesc<4xi64, #shared, #smem, mutable>, %phase: i32) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.wait_barrier %bar, %phase : !ttg.memdesc<4xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @arrive_barrier_count(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{arrival count must be at least 1}}
  ttng.arrive_barrier %bar, 0 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @tma_load_coordinates(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %i: i32, %pred: i1,
                              %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_copy_global_to_local %desc[%i, %i, %i, %i, %i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @tma_load_immutable(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %i: i32, %pred: i1,
                            %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{Cannot store into immutable memory}}
  ttng.async_tma_copy_global_to_local %desc[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_load_barrier(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %i: i32, %pred: i1,
                          %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.async_tma_copy_global_to_local %desc[%i, %i] %buf, %buf, %pred : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
  tt.return
}

// -----

tt.func @tensormap_rank(%p: !tt.ptr<i8>, %g: !tt.ptr<f16>, %d: i32, %s: i64) {
  // expected-error @+1 {{TMA descriptors have rank 1 to 5, got 6}}
  ttng.tensormap_create %p, %g, [%d, %d, %d, %d, %d, %d], [%d, %d, %d, %d, %d, %d], [%s, %s, %s, %s, %s], [%d, %d, %d, %d, %d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i64, i64, i64, i64, i64, i32, i32, i32, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_strides(%p: !tt.ptr<i8>, %g: !tt.ptr<f16>, %d: i32, %s: i64) {
  // expected-error @+1 {{needs rank box_dim, global_dim and element_stride values and rank-1 global strides}}
  ttng.tensormap_create %p, %g, [%d, %d], [%d, %d], [%s, %s], [%d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i64, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_elem_type(%p: !tt.ptr<i8>, %g: !tt.ptr<f16>, %d: i32) {
  // expected-error @+1 {{attribute 'elem_type' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative whose maximum value is 15}}
  ttng.tensormap_create %p, %g, [%d], [%d], [], [%d] {elem_type = 16 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @reinterpret_descriptor_result(%p: !tt.ptr<i8>) {
  // expected-error @+1 {{result #0 must be descriptor of a tensor in global memory}}
  %0 = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.ptr<f16>
  tt.return
}

// -----

// expected-error @+1 {{blockM must be 64 or 128 but got 32}}
#tmem = #ttng.tensor_memory_encoding<blockM = 32, blockN = 128, colStride = 1>

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// expected-error @+1 {{the allocation shape must be at least 128x128. Got 64, 128}}
tt.func @tmem_too_small(%m: !ttg.memdesc<64x128xf32, #tmem, #ttng.tensor_memory>) {
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
// expected-error @+1 {{bitwidth * colStride must be less than or equal to 32. Got 32 and 2}}
tt.func @tmem_col_stride(%m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tc_gen5_mma_dtypes(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x128xf16, #nvmma, #smem>, %pred: i1) {
  %d = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xi32, #tmem, #ttng.tensor_memory, mutable>
  // expected-error @+1 {{unsupported accumulator dtype for operand types 'f16' and 'f16', accumulator dtype is 'i32' but must be one of ['f16', 'f32']}}
  ttng.tc_gen5_mma %a, %b, %d, %pred, %pred : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xi32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tc_gen5_mma_shapes(%a: !ttg.memdesc<128x32xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x128xf16, #nvmma, #smem>, %pred: i1) {
  %d = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // expected-error @+1 {{expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  ttng.tc_gen5_mma %a, %b, %d, %pred, %pred : !ttg.memdesc<128x32xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @tc_gen5_mma_sync_barrier(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>, %b: !ttg.memdesc<64x128xf16, #nvmma, #smem>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %pred: i1) {
  %d = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  // expected-error @+1 {{The op is synchronous but a barrier is present.}}
  ttng.tc_gen5_mma %a, %b, %d, %pred, %pred, %bar[%pred] : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @tmem_store_immutable(%t: tensor<128x128xf32, #blocked>, %pred: i1) {
  %m = ttng.tmem_alloc %t : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  // expected-error @+1 {{Cannot store into an immutable alloc}}
  ttng.tmem_store %t, %m, %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  tt.return
}
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
tt.func @tmem_subslice_block(%m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{The destination must have the same block size and CTASplit size as the source.}}
  %s = ttng.tmem_subslice %m {N = 0 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> !ttg.memdesc<128x64xf32, #tmem64, #ttng.tensor_memory, 128x128>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @aref_enter_shape(%i: i32) {
  %a = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>
  %r = nvws.aref.create %a : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>]>
  // expected-error @+1 {{Dimensions don't match}}
  %p:2 = nvws.aref.put.enter %r[%i, %i] : !nvws.aref<[!ttg.memdesc<2x64x32xf16, #nvmma, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nvmma, #smem, mutable>, !ttg.async.token
  tt.return
}

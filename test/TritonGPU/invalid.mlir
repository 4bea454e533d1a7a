// RUN: tt-opt --split-input-file --verify-diagnostics %s

// Diagnostics of the ttg layout attributes, !ttg.memdesc, the checks every op
// makes of the layouts of its tensors, and the ttg op verifiers.

// expected-error @+1 {{unexpected key 'sizePerWarp' in layout}}
#blocked = #ttg.blocked<{sizePerWarp = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{missing 'order' in layout}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>

// -----

// expected-error @+1 {{sizePerThread entries must be powers of two, got 3}}
#blocked = #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{warpsPerCTA entries must be powers of two, got 0}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [0], order = [0]}>

// -----

// expected-error @+1 {{order must be a permutation of [0, 2)}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>

// -----

// expected-error @+1 {{threadsPerWarp has 1 entries for rank 2}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{'sizePerThread' must be an array of non-negative integers}}
#blocked = #ttg.blocked<{sizePerThread = [-1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{blocked layout must have rank at least 1}}
#blocked = #ttg.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>

// -----

// expected-error @+1 {{every basis of 'CGALayout' must have 2 entries}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1]]}>

// -----

// expected-error @+1 {{CGALayout basis entries must be 0 or powers of two, got 3}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[3, 0]]}>

// -----

// expected-error @+1 {{parent layout must have at least rank >= 2}}
#slice = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>

// -----

// expected-error @+1 {{slice dim=2 must be less than the parent rank=2}}
#slice = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>

// -----

// expected-error @+1 {{'parent' must be a distributed layout}}
#slice = #ttg.slice<{dim = 0, parent = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{ttg.dot_op opIdx parameter can be 0 or 1, got: 2}}
#dot = #ttg.dot_op<{opIdx = 2, parent = #blocked}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout}}
#dot = #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent}}
#dot = #ttg.dot_op<{opIdx = 0, parent = #mma}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @+1 {{ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent}}
#dot = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// -----

#linear = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
// expected-error @+1 {{the parent of a dot_op layout must be an nvidia_mma or blocked layout}}
#dot = #ttg.dot_op<{opIdx = 0, parent = #linear}>

// -----

// expected-error @+1 {{nvidia_mma versionMajor must be 1, 2 (mma.sync) or 3 (wgmma), got 4}}
#mma = #ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>

// -----

// expected-error @+1 {{wgmma (version 3) instrShape must be [16, N, K] with N a multiple of 8 up to 256}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 12, 16]}>

// -----

// expected-error @+1 {{wgmma (version 3) layouts have rank 2}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [1, 4, 1], instrShape = [16, 64, 16]}>

// -----

// expected-error @+1 {{nvidia_mma warpsPerCTA must have 2 or 3 entries}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4], instrShape = [16, 8]}>

// -----

// expected-error @+1 {{'lane' must be an array of non-negative integers}}
#linear = #ttg.linear<{register = [], lane = [[1], [-2], [4], [8], [16]], warp = [], block = []}>

// -----

// expected-error @+1 {{every basis of 'warp' must have 2 entries}}
#linear = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[8]], block = []}>

// -----

// expected-error @+1 {{a linear layout needs at least one basis to know its rank}}
#linear = #ttg.linear<{register = [], lane = [], warp = [], block = []}>

// -----

// expected-error @+1 {{register basis #0 does not}}
#linear = #ttg.linear<{register = [[1, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>

// -----

// expected-error @+1 {{unexpected key 'offset' in layout}}
#linear = #ttg.linear<{register = [[0, 1]], offset = [[1, 0]]}>

// -----

// expected-error @+1 {{vec, perPhase and maxPhase must be at least 1}}
#shared = #ttg.swizzled_shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [1, 0]}>

// -----

// expected-error @+1 {{order must be a permutation of [0, 2)}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 0]}>

// -----

// expected-error @+1 {{swizzlingByteWidth must be 0, 32, 64 or 128, got 16}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @+1 {{elementBitWidth must be 4, 8, 16, 32 or 64, got 12}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 12}>

// -----

// expected-error @+1 {{'transposed' must be true or false}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16}>

// -----

// expected-error @+1 {{'rank' disagrees with the rank of 'CGALayout'}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3, CGALayout = [[1, 0]]}>

// -----

// expected-error @+1 {{rank 0 memdesc is not allowed}}
!memdesc = !ttg.memdesc<i64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{memdesc shape 64, 64 exceeds its alloc shape 2, 32, 64}}
!memdesc = !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory, mutable, 2x32x64>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{memdesc alloc shape must have at least the rank of its shape}}
!memdesc = !ttg.memdesc<2x64x64xf16, #shared, #ttg.shared_memory, 64x64>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{memdesc dimensions after the first must be powers of two}}
!memdesc = !ttg.memdesc<64x48xf16, #shared, #ttg.shared_memory>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{memdesc layout must be a shared-memory layout}}
!memdesc = !ttg.memdesc<64x64xf16, #blocked, #ttg.shared_memory>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{rank must be equal to or one less than the shape size. Got 1 and 3}}
!memdesc = !ttg.memdesc<2x64x64xf16, #shared, #ttg.shared_memory>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{memdesc of a shared-memory layout must be in #ttg.shared_memory}}
!memdesc = !ttg.memdesc<64x64xf16, #shared, 3 : i32>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{expected ','}}
!memdesc = !ttg.memdesc<64x64xf16, #shared>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @layout_rank(%x: f32) {
  // expected-error @+1 {{result #0: Layout has rank 2, but the tensor it's attached to has rank 1.}}
  %0 = tt.splat %x : f32 -> tensor<128xf32, #blocked>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @tensor_of_shared_layout(%x: f32) {
  // expected-error @+1 {{Non-distributed layout is not allowed in tensor type.}}
  %0 = tt.splat %x : f32 -> tensor<128xf32, #shared>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @module_warps() {
  // expected-error @+1 {{Layout has 8 warps per CTA, but the context requires 4 warps per CTA.}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @function_warps() attributes {"ttg.num-warps" = 8 : i32} {
  // expected-error @+1 {{Layout has 4 warps per CTA, but the context requires 8 warps per CTA.}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @partition_warps() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    // expected-error @+1 {{Layout has 4 warps per CTA, but the context requires 2 warps per CTA.}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    ttg.warp_return
  } : () -> ()
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @module_lanes() {
  // expected-error @+1 {{Layout has 64 threads per warp, but the module specifies 32 threads per warp.}}
  %0 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @module_ctas() {
  // expected-error @+1 {{Layout has 2 CTAs per CGA, but the context requires 1 CTAs per CGA.}}
  %0 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
  tt.return
}
}

// -----

#linear = #ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [[64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @linear_warps() {
  // expected-error @+1 {{Layout has 2 warps per CTA, but the context requires 4 warps per CTA.}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #linear>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @expand_dims_layout(%x: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
  // expected-error @+1 {{must be the slice along the axis of the result layout}}
  %0 = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked1>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @reduce_result_layout(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{result layout must be the slice along axis 1 of the operand layout}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @dot_operand_layout(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{does not match opIdx 0 of the accumulator layout}}
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @dot_missing_layout(%a: tensor<64x32xf16>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{mismatching encoding between A and B operands}}
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @convert_layout_shape(%x: tensor<64x64xf16, #blocked>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x32xf16, #blocked>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_immutable_uninitialized() {
  // expected-error @+1 {{an allocation without an initial value must be mutable}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @alloc_initial_value(%x: tensor<64x64xf16, #blocked>) {
  // expected-error @+1 {{op initial value 'tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' does not match buffer}}
  %0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @store_immutable(%x: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{cannot store into immutable memory}}
  ttg.local_store %x, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @load_shape(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{does not match buffer}}
  %0 = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<32x64xf16, #blocked>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_result_shape(%buf: !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{result shape must equal to srcShape[1:]}}
  %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_alloc_shape(%buf: !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{alloc shape must match shape for both result and src}}
  %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_mutability(%buf: !ttg.memdesc<3x64x64xf16, #shared, #smem>, %i: i32) {
  // expected-error @+1 {{cannot make immutable memory mutable}}
  %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_out_of_bounds(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{subslice along dimension 1 is out of bounds}}
  %0 = ttg.memdesc_subslice %buf[0, 48] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared, #smem, 64x64>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_offsets(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{offsets must have the same rank as input}}
  %0 = ttg.memdesc_subslice %buf[0] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared, #smem, 64x64>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_element_type(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{result element type must match desc element type}}
  %0 = ttg.memdesc_subslice %buf[0, 0] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf32, #shared, #smem, 64x64>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @trans_not_a_permutation(%buf: !ttg.memdesc<64x32xf16, #shared, #smem>) {
  // expected-error @+1 {{order must be a permutation}}
  %0 = ttg.memdesc_trans %buf {order = array<i32: 0, 0>} : !ttg.memdesc<64x32xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// The result rank is checked before the result shape is read.
tt.func @trans_result_rank(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{result must have the rank of the source}}
  %0 = ttg.memdesc_trans %buf {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64xf16, #shared1, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @reshape_elements(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{requires the same number of elements in source and result}}
  %0 = ttg.memdesc_reshape %buf : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared, #smem>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @async_copy_immutable(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{cannot copy into immutable memory}}
  %0 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @async_copy_mask(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>,
                         %m: tensor<64x64xi8, #blocked>) { // expected-note {{prior use here}}
  // expected-error @+1 {{expects different type than prior uses}}
  %0 = ttg.async_copy_global_to_local %p, %buf mask %m : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @async_copy_shape(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{does not match destination}}
  %0 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
tt.func @fp4_shape(%x: tensor<64x32xi8, #blocked>) {
  // expected-error @+1 {{result must have twice as many elements as the source along axis 1}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x32xbf16, #blocked>
  tt.return
}
}

// -----

tt.func @ws_partition_arguments(%a: i32) {
  // expected-error @+1 {{partition region #0 has 0 arguments but expected 1}}
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @ws_partition_argument_type(%a: i32) {
  // expected-error @+1 {{partition region #0 argument #0 has type 'i64' but corresponding capture has type 'i32'}}
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%x: i64) num_warps(4) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @ws_partition_warps() {
  // expected-error @+1 {{partition #0 number of warps (3) must be a power of 2}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(3) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @ws_start_ids() {
  // expected-error @+1 {{has 1 warp group start IDs but expected 2}}
  ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    ttg.warp_return
  }
  partition1() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @ws_nested() {
  ttg.warp_specialize()
  default {
    // expected-error @+1 {{cannot be nested inside another `ttg.warp_specialize` op}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    ttg.warp_yield
  } : () -> ()
  tt.return
}

// -----

tt.func @ws_partition_count() {
  // expected-error @+1 {{has 0 partitions but `partitionNumWarps` has 1 elements}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() : () -> ()
  }) {partitionNumWarps = array<i32: 1>} : () -> ()
  tt.return
}

// -----

tt.func @ws_holder() {
  // expected-error @+1 {{expected to find only a `ttg.warp_specialize.partitions` op inside its second region}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_yield"() : () -> ()
  }) {partitionNumWarps = array<i32>} : () -> ()
  tt.return
}

// -----

tt.func @ws_yield_types(%a: i32, %b: i64) {
  %0 = ttg.warp_specialize()
  default {
    // expected-error @+1 {{operand #0 has type 'i64' but parent op expected 'i32'}}
    ttg.warp_yield %b : i64
  } : () -> i32
  tt.return
}

// -----

tt.func @ws_partition_terminator() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    // expected-error @+1 {{block with no terminator}}
    %c = arith.constant 1 : i32
  } : () -> ()
  tt.return
}

// -----

tt.func @predicate_stage_types(%a: i32, %b: i64) {
  // expected-error @+1 {{failed to verify that all of {iv, ub, step} have same type}}
  %0 = "ttg.predicate_stage"(%a, %b, %a) <{maxStage = 2 : i32, stage = 0 : i32}> : (i32, i64, i32) -> i1
  tt.return
}

// -----

// expected-error @+1 {{After removing the zero bases the layout must be bijective}}
#shared = #ttg.shared_linear<{offset = [[0, 1], [0, 1]]}, alignment = 16>

// -----

// expected-error @+1 {{alignment must be specified outside of the linear layout braces}}
#shared = #ttg.shared_linear<{offset = [[0, 1]], alignment = 16}>

// -----

// expected-error @+1 {{interval values must all be power of two}}
#shared = #ttg.padded_shared<[3:+2] {order = [1, 0], shape = [16, 16]}>

// -----

// expected-error @+1 {{Each offset basis must move in at most one dimension.}}
#shared = #ttg.padded_shared<[2:+1] {offset = [[1, 1]], block = []}>

// -----

// expected-error @+1 {{Broadcasting is not supported.}}
#shared = #ttg.padded_shared<[2:+1] {offset = [[1, 0], [0, 0]], block = []}>

// -----

#shared = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 16]}>
// expected-error @+1 {{Mismatch in expected shape for dimension 0. Expected: 32, got: 16}}
tt.func @padded_shape(%a: !ttg.memdesc<32x16xf16, #shared, #ttg.shared_memory>) {
  tt.return
}

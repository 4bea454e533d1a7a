// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-nvidia-optimize-descriptor-encoding | FileCheck %s

// Each descriptor gets the shared encoding its TMA copies use: the nvmma
// buffer a load feeds (%a: 64-byte swizzle), else the default nvmma layout of
// the shape (%b: f32, 128-byte swizzle; %c: 16 bytes per row, no swizzle);
// a descriptor carried by scf.for (%d) has one encoding across init, iter
// arg and result. The kernel's signature follows. (Same output as upstream
// Triton 3.6's pass on this input.)

// CHECK-DAG: #[[FEED:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[F32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[NARROW:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[F16:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: tt.func public @encodings(%{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[FEED]]>>, %{{.*}}: !tt.tensordesc<tensor<64x64xf32, #[[F32]]>>, %{{.*}}: !tt.tensordesc<tensor<16x8xf16, #[[NARROW]]>>, %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[F16]]>>, %{{.*}}: i32, %{{.*}}: i32)
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[FEED]]>> -> tensor<64x64xf16, #blocked>
// CHECK: tt.descriptor_store %{{.*}} : !tt.tensordesc<tensor<64x64xf32, #[[F32]]>>, tensor<64x64xf32, #blocked>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!tt.tensordesc<tensor<64x64xf16, #[[F16]]>>)
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[F16]]>>
// CHECK: scf.yield %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[F16]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @encodings(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf32>>, %c: !tt.tensordesc<tensor<16x8xf16>>, %d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %s = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %y = arith.extf %x : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
    tt.descriptor_store %b[%i, %i], %y : !tt.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32, #blocked>
    %z = tt.descriptor_load %c[%i, %i] : !tt.tensordesc<tensor<16x8xf16>> -> tensor<16x8xf16, #blocked1>
    tt.descriptor_store %c[%i, %c0], %z : !tt.tensordesc<tensor<16x8xf16>>, tensor<16x8xf16, #blocked1>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%desc = %d) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %w = tt.descriptor_load %desc[%k, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      tt.descriptor_store %desc[%i, %k], %w : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
      scf.yield %desc : !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
}

// -----

// A descriptor carried by scf.while has one encoding across the init, the
// before region's argument, scf.condition, the after region's argument, its
// yield and the result: here the 64-byte swizzle of the buffer the load in
// the after region feeds.
// CHECK: #[[WFEED:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: tt.func public @through_while(%{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>>
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>>) -> !tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>>
// CHECK: scf.condition(%{{.*}}) %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>>
// CHECK: ^bb0(%{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>>):
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>> -> tensor<64x64xf16, #blocked>
// CHECK: scf.yield %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[WFEED]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @through_while(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %c: i1) {
    %r = scf.while (%w = %d) : (!tt.tensordesc<tensor<64x64xf16>>) -> !tt.tensordesc<tensor<64x64xf16>> {
      scf.condition(%c) %w : !tt.tensordesc<tensor<64x64xf16>>
    } do {
    ^bb0(%x: !tt.tensordesc<tensor<64x64xf16>>):
      %v = tt.descriptor_load %x[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %s = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      scf.yield %x : !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
}

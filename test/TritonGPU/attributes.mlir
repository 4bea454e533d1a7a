// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of every ttg layout attribute and of the !ttg.memdesc and
// !ttg.async.token types. Layouts that have an alias (#blocked, #mma,
// #shared, #linear, #smem) print as the alias; slice and dot_op print inline.

// CHECK-DAG: #[[$B1D:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B2D:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$B3D:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 2], order = [2, 0, 1]}>
// CHECK-DAG: #[[$BCGA:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #[[$BCGA4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}0, 1], [0, 0]]}>
// CHECK-DAG: #[[$MMA2:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[$MMA2B:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2, 2], instrShape = [1, 16, 8]}>
// CHECK-DAG: #[[$MMA3:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[$MMACGA:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {{\[\[}}1, 0]], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[$LIN:linear[0-9]*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2]], lane = {{\[\[}}0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}8, 0], [16, 0]], block = []}>
// CHECK-DAG: #[[$LINBCAST:linear[0-9]*]] = #ttg.linear<{register = [], lane = {{\[\[}}1], [2], [4], [8], [16]], warp = {{\[\[}}0], [0]], block = []}>
// CHECK-DAG: #[[$LINXOR:linear[0-9]*]] = #ttg.linear<{register = {{\[\[}}0, 2]], lane = {{\[\[}}0, 1], [0, 3], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}8, 0], [16, 0]], block = []}>
// CHECK-DAG: #[[$SW:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[$SW1D:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #[[$SWCGA:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], CGALayout = {{\[\[}}0, 1]]}>
// CHECK-DAG: #[[$NV:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$NVT:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-DAG: #[[$NV0:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[$NVR3:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-DAG: #[[$NVDEF:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$NVFP4:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
// CHECK-DAG: #[[$NVCGA:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #[[$NVCGA3:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1, 0]]}>
// CHECK-DAG: #smem = #ttg.shared_memory

#blocked1d = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// The keys of a layout may come in any order; an empty CGALayout is a single CTA.
#blocked3d = #ttg.blocked<{order = [2, 0, 1], warpsPerCTA = [1, 2, 2], threadsPerWarp = [2, 4, 4], sizePerThread = [1, 1, 2], CGALayout = []}>
#blocked_cga = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#blocked_cga4 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1], [0, 0]]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma2_batched = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2, 2], instrShape = [1, 16, 8]}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#mma_cga = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0]], instrShape = [16, 64, 16]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
// A zero basis broadcasts: warps 0..3 hold the same elements.
#linear_bcast = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[0], [0]], block = []}>
// Bases need not be powers of two: lane 2 holds column 3 (a swizzle).
#linear_xor = #ttg.linear<{register = [[0, 2]], lane = [[0, 1], [0, 3], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#swizzled1d = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#swizzled_cga = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], CGALayout = [[0, 1]]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#nvmma_0 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32, rank = 2}>
#nvmma_r3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// transposed is false unless given.
#nvmma_default = #ttg.nvmma_shared<{swizzlingByteWidth = 64, elementBitWidth = 16}>
#nvmma_fp4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
#nvmma_cga = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#nvmma_cga3 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, rank = 3, CGALayout = [[0, 1, 0]]}>
#smem = #ttg.shared_memory

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: tt.func @blocked
// CHECK-SAME: tensor<512xf32, #[[$B1D]]>
// CHECK-SAME: tensor<32x64xf16, #[[$B2D]]>
// CHECK-SAME: tensor<2x8x16xi32, #[[$B3D]]>
tt.func @blocked(%a: tensor<512xf32, #blocked1d>, %b: tensor<32x64xf16, #blocked2d>, %c: tensor<2x8x16xi32, #blocked3d>) {
  tt.return
}

// CHECK-LABEL: tt.func @slices
// CHECK-SAME: tensor<32xf16, #ttg.slice<{dim = 0, parent = #[[$B2D]]}>>
// CHECK-SAME: tensor<64xf16, #ttg.slice<{dim = 1, parent = #[[$B2D]]}>>
// CHECK-SAME: tensor<8x16xi32, #ttg.slice<{dim = 0, parent = #[[$B3D]]}>>
// CHECK-SAME: tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 0, parent = #[[$B3D]]}>}>>
// CHECK-SAME: tensor<128xf32, #ttg.slice<{dim = 1, parent = #[[$MMA3]]}>>
// CHECK-SAME: tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[$LIN]]}>>
tt.func @slices(%a: tensor<32xf16, #ttg.slice<{dim = 0, parent = #blocked2d}>>,
                %b: tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2d}>>,
                %c: tensor<8x16xi32, #ttg.slice<{dim = 0, parent = #blocked3d}>>,
                %d: tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 0, parent = #blocked3d}>}>>,
                %e: tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma3}>>,
                %f: tensor<32xf32, #ttg.slice<{dim = 0, parent = #linear}>>) {
  tt.return
}

// CHECK-LABEL: tt.func @mma_and_dot_operands
// CHECK-SAME: tensor<64x64xf32, #[[$MMA2]]>
// CHECK-SAME: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA2]], kWidth = 2}>>
// CHECK-SAME: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[$MMA2]], kWidth = 2}>>
// CHECK-SAME: tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA2]], kWidth = 4}>>
// CHECK-SAME: tensor<2x64x64xf32, #[[$MMA2B]]>
// CHECK-SAME: tensor<128x128xf32, #[[$MMA3]]>
// CHECK-SAME: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA3]], kWidth = 2}>>
// CHECK-SAME: tensor<32x64xf32, #ttg.dot_op<{opIdx = 0, parent = #[[$B2D]]}>>
// CHECK-SAME: tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #[[$B2D]]}>>
tt.func @mma_and_dot_operands(%acc2: tensor<64x64xf32, #mma2>,
                              %a2: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>,
                              %b2: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>>,
                              %a8: tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 4}>>,
                              %accb: tensor<2x64x64xf32, #mma2_batched>,
                              %acc3: tensor<128x128xf32, #mma3>,
                              %a3: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma3, kWidth = 2}>>,
                              %fa: tensor<32x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2d}>>,
                              %fb: tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2d}>>) {
  tt.return
}

// CHECK-LABEL: tt.func @linear
// CHECK-SAME: tensor<32x16xf32, #[[$LIN]]>
// CHECK-SAME: tensor<32xi32, #[[$LINBCAST]]>
// CHECK-SAME: tensor<32x4xf16, #[[$LINXOR]]>
tt.func @linear(%a: tensor<32x16xf32, #linear>, %b: tensor<32xi32, #linear_bcast>, %c: tensor<32x4xf16, #linear_xor>) {
  tt.return
}

// CHECK-LABEL: tt.func @shared_layouts
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[$SW]], #smem>
// CHECK-SAME: !ttg.memdesc<1xi64, #[[$SW1D]], #smem, mutable>
// CHECK-SAME: !ttg.memdesc<128x64xf16, #[[$NV]], #smem>
// CHECK-SAME: !ttg.memdesc<64x128xf8E4M3FN, #[[$NVT]], #smem>
// CHECK-SAME: !ttg.memdesc<16x16xf32, #[[$NV0]], #smem>
// CHECK-SAME: !ttg.memdesc<2x64x64xf16, #[[$NVR3]], #smem, mutable>
// CHECK-SAME: !ttg.memdesc<128x64xi8, #[[$NVFP4]], #smem>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[$NVDEF]], #smem>
tt.func @shared_layouts(%a: !ttg.memdesc<64x64xf16, #swizzled, #smem>,
                        %b: !ttg.memdesc<1xi64, #swizzled1d, #smem, mutable>,
                        %c: !ttg.memdesc<128x64xf16, #nvmma, #smem>,
                        %d: !ttg.memdesc<64x128xf8E4M3FN, #nvmma_t, #smem>,
                        %e: !ttg.memdesc<16x16xf32, #nvmma_0, #smem>,
                        %f: !ttg.memdesc<2x64x64xf16, #nvmma_r3, #smem, mutable>,
                        %g: !ttg.memdesc<128x64xi8, #nvmma_fp4, #smem>,
                        %h: !ttg.memdesc<64x64xf16, #nvmma_default, #smem>) {
  tt.return
}

// CHECK-LABEL: tt.func @memdesc_forms
// CHECK-SAME: !ttg.memdesc<3x64x64xf16, #[[$NV]], #smem, mutable>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[$NV]], #smem, mutable, 3x64x64>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[$NV]], #smem, 3x64x64>
// CHECK-SAME: !ttg.memdesc<32x64xf16, #[[$SW]], #smem, mutable, 64x64>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[$NV]], #smem, mutable>
// CHECK-SAME: !ttg.memdesc<2x64x64xf16, #[[$NVR3]], #smem, mutable, 4x2x64x64>
// CHECK-SAME: !ttg.async.token
tt.func @memdesc_forms(%a: !ttg.memdesc<3x64x64xf16, #nvmma, #smem, mutable>,
                       %b: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 3x64x64>,
                       %c: !ttg.memdesc<64x64xf16, #nvmma, #smem, 3x64x64>,
                       %d: !ttg.memdesc<32x64xf16, #swizzled, #smem, mutable, 64x64>,
                       %e: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable, 64x64>,
                       %f: !ttg.memdesc<2x64x64xf16, #nvmma_r3, #smem, mutable, 4x2x64x64>,
                       %t: !ttg.async.token) {
  tt.return
}

// Layouts in the other places they appear: results, tensor descriptors,
// element types of pointers.
// CHECK-LABEL: tt.func @layouts_in_ops
// CHECK-SAME: !tt.tensordesc<tensor<64x64xf16, #[[$NV]]>>) -> tensor<64x64xf16, #[[$B2D]]>
tt.func @layouts_in_ops(%p: !tt.ptr<f16>, %d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>) -> tensor<64x64xf16, #blocked2d> {
  // CHECK: tt.splat %{{.*}} : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #[[$B2D]]>
  %0 = tt.splat %p : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2d>
  // CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[$B2D]]>
  %1 = tt.load %0 : tensor<64x64x!tt.ptr<f16>, #blocked2d>
  // CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[$B2D]]}>>
  %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2d}>>
  // CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[$B2D]]}>> -> tensor<64x1xi32, #[[$B2D]]>
  %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2d}>> -> tensor<64x1xi32, #blocked2d>
  tt.return %1 : tensor<64x64xf16, #blocked2d>
}

}

// Multi-CTA layouts need a module of as many CTAs as their CGALayout spreads over.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 2 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: tt.func @two_ctas
// CHECK-SAME: tensor<128x64xf16, #[[$BCGA]]>
// CHECK-SAME: tensor<128x64xf32, #[[$MMACGA]]>
// CHECK-SAME: tensor<128xf32, #ttg.slice<{dim = 1, parent = #[[$MMACGA]]}>>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[$SWCGA]], #smem>
// CHECK-SAME: !ttg.memdesc<128x64xf16, #[[$NVCGA]], #smem>
// CHECK-SAME: !ttg.memdesc<2x128x64xf16, #[[$NVCGA3]], #smem>
tt.func @two_ctas(%a: tensor<128x64xf16, #blocked_cga>,
                  %b: tensor<128x64xf32, #mma_cga>,
                  %c: tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma_cga}>>,
                  %d: !ttg.memdesc<64x64xf16, #swizzled_cga, #smem>,
                  %e: !ttg.memdesc<128x64xf16, #nvmma_cga, #smem>,
                  %f: !ttg.memdesc<2x128x64xf16, #nvmma_cga3, #smem>) {
  tt.return
}

}

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 4 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: tt.func @four_ctas
// CHECK-SAME: tensor<64x64xf16, #[[$BCGA4]]>
tt.func @four_ctas(%a: tensor<64x64xf16, #blocked_cga4>) {
  tt.return
}

}

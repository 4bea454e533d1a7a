// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of AMD's MFMA and WMMA layouts, which upstream registers in the
// ttg dialect on every target: Tritium parses, verifies and prints them as
// upstream does (defaults omitted), without layout algebra or lowering.
// Also the nvidia_mma default versionMinor = 0 and nvmma_shared's
// elementBitWidth = 0 ("from the element type") that upstream's tests use.
// (A missing elementBitWidth parses as 0; upstream reads garbage then.)

// CHECK-DAG: #[[$MFMA:mma[0-9]*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK-DAG: #[[$MFMA2:mma[0-9]*]] = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>
// CHECK-DAG: #[[$WMMA:mma[0-9]*]] = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>
// CHECK-DAG: #[[$WMMA3:mma[0-9]*]] = #ttg.amd_wmma<{version = 3, isTranspose = true, warpsPerCTA = [4, 1], instrShape = [16, 16, 32]}>
// CHECK-DAG: #[[$MMA:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[$NVMMA:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>

#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#mfma2 = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>
#wmma = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], instrShape = [16, 16, 16]}>
#wmma3 = #ttg.amd_wmma<{version = 3, isTranspose = true, warpsPerCTA = [4, 1], instrShape = [16, 16, 32]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>
#smem = #ttg.shared_memory

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @amd
tt.func @amd(%a: tensor<64x64xf32, #mfma>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>>,
             %c: tensor<64x64xf32, #mfma2>, %d: tensor<64x64xf32, #wmma>, %e: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #wmma, kWidth = 8}>>,
             %f: tensor<64x64xf32, #wmma3>, %g: tensor<64xf32, #ttg.slice<{dim = 1, parent = #mfma}>>) {
  // CHECK: tensor<64x64xf32, #[[$MFMA]]>
  // CHECK-SAME: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MFMA]], kWidth = 4}>>
  // CHECK-SAME: tensor<64x64xf32, #[[$MFMA2]]>
  // CHECK-SAME: tensor<64x64xf32, #[[$WMMA]]>
  // CHECK-SAME: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[$WMMA]], kWidth = 8}>>
  // CHECK-SAME: tensor<64x64xf32, #[[$WMMA3]]>
  // CHECK-SAME: tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[$MFMA]]}>>
  tt.return
}

// CHECK-LABEL: tt.func @defaults
tt.func @defaults(%a: tensor<64x64xf32, #mma>, %b: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
  // CHECK: tensor<64x64xf32, #[[$MMA]]>, %{{.*}}: !ttg.memdesc<64x64xf16, #[[$NVMMA]], #smem>
  tt.return
}
}

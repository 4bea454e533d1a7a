// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of #ttg.shared_linear (a shared-memory layout given by its
// linear-layout bases), parsed, verified and printed as upstream does; an
// empty `block` is not printed.

// CHECK-DAG: #[[$SL:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 4], [4, 8], [8, 0]]}, alignment = 512>
// CHECK-DAG: #[[$SLB:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [1, 0]], block = {{\[\[}}2, 0]]}, alignment = 16>
// CHECK-DAG: #[[$SL4:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 0], [1, 0]]}, alignment = 16>

#sl = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 4], [4, 8], [8, 0]]}, alignment = 512>
#slb = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[2, 0]]}, alignment = 16>
#sl_bcast = #ttg.shared_linear<{offset = [[0, 1], [0, 0], [1, 0]], block = []}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @shared_linear
// CHECK-SAME: !ttg.memdesc<16x16xf32, #[[$SL]], #smem>, %{{.*}}: !ttg.memdesc<4x2xf16, #[[$SLB]], #smem>, %{{.*}}: !ttg.memdesc<2x2xf16, #[[$SL4]], #smem>
tt.func @shared_linear(%a: !ttg.memdesc<16x16xf32, #sl, #smem>, %b: !ttg.memdesc<4x2xf16, #slb, #smem>, %c: !ttg.memdesc<2x2xf16, #sl_bcast, #smem>) {
  tt.return
}
}

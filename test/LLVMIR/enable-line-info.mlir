// RUN: tt-opt %s --enable-line-info --mlir-print-debuginfo | FileCheck %s
// A defined function gets a subprogram in a compile unit of its own (line
// tables only), fused into its location; ops inlined from another function
// (call-site locations) get lexical blocks of it for each file of their call
// chain; declarations get nothing.


module {
  // CHECK: llvm.func @__nv_expf(f32) -> f32 loc([[DECL:#loc[0-9]*]])
  llvm.func @__nv_expf(f32) -> f32 loc(#decl)

  // CHECK: llvm.func @kernel
  llvm.func @kernel(%x: f32) -> f32 {
    // CHECK: llvm.fadd {{.*}} loc([[PLAIN:#loc[0-9]*]])
    %0 = llvm.fadd %x, %x : f32 loc(#plain)
    // CHECK: llvm.fmul {{.*}} loc([[INLINED:#loc[0-9]*]])
    %1 = llvm.fmul %0, %0 : f32 loc(#inlined)
    llvm.return %1 : f32 loc(#plain)
  } loc(#kernel)
}
#decl = loc("/src/project/kernels.py":1:0)
#kernel = loc("/src/project/kernels.py":9:0)
#plain = loc("/src/project/kernels.py":10:5)
#callee = loc("/src/project/lib/helpers.py":3:12)
#caller = loc("/src/project/kernels.py":11:8)
#inlined = loc(callsite(#callee at #caller))
// CHECK-DAG: [[FILE:#di_file[0-9]*]] = #llvm.di_file<"kernels.py" in "/src/project">
// CHECK-DAG: [[HELPERS:#di_file[0-9]*]] = #llvm.di_file<"helpers.py" in "/src/project/lib">
// CHECK-DAG: [[UNIT:#di_compile_unit[0-9]*]] = #llvm.di_compile_unit<id = distinct[{{[0-9]+}}]<>, sourceLanguage = DW_LANG_C, file = [[FILE]], producer = "triton", isOptimized = true, emissionKind = LineTablesOnly>
// CHECK-DAG: [[SP:#di_subprogram[0-9]*]] = #llvm.di_subprogram<id = distinct[{{[0-9]+}}]<>, compileUnit = [[UNIT]], scope = [[FILE]], name = "kernel", linkageName = "kernel", file = [[FILE]], line = 9, scopeLine = 9, subprogramFlags = "Definition|Optimized", type = #di_subroutine_type>
// CHECK-DAG: [[BLOCK_HELPERS:#di_lexical_block_file[0-9]*]] = #llvm.di_lexical_block_file<scope = [[SP]], file = [[HELPERS]], discriminator = 0>
// CHECK-DAG: [[BLOCK_KERNEL:#di_lexical_block_file[0-9]*]] = #llvm.di_lexical_block_file<scope = [[SP]], file = [[FILE]], discriminator = 0>
// CHECK-DAG: [[DECL]] = loc("/src/project/kernels.py":1:0)
// CHECK-DAG: [[PLAIN]] = loc("/src/project/kernels.py":10:5)
// CHECK-DAG: [[INLINED]] = loc(callsite([[CALLEE:#loc[0-9]*]] at [[CALLER:#loc[0-9]*]]))
// CHECK-DAG: [[CALLEE]] = loc(fused<[[BLOCK_HELPERS]]>[
// CHECK-DAG: [[CALLER]] = loc(fused<[[BLOCK_KERNEL]]>[
// CHECK-DAG: loc(fused<[[SP]]>[

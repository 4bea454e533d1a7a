// Source variables for cuda-gdb, as upstream's LLVM_EXTRACT_DI_LOCAL_VARIABLES=1
// gives them: with --debug-variables the values of named locations (the
// frontend's `loc("y"(...))`) are described as DILocalVariables of the
// kernel's subprogram in a compile unit of full debug information, their names
// reach the PTX's DWARF, and `.target` keeps `debug` (ptxas keeps the
// variables). Without it: line tables only and `.target` without `debug`.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/kernel.mlir --target cuda:90 --debug-variables --emit-llvm -o %t/vars
// RUN: FileCheck %s --check-prefix=PTX < %t/vars/add_one.ptx
// RUN: FileCheck %s --check-prefix=LL < %t/vars/add_one.ll
// RUN: tritium compile %t/kernel.mlir --target cuda:90 --emit-llvm -o %t/plain
// RUN: FileCheck %s --check-prefix=PLAIN-PTX < %t/plain/add_one.ptx
// RUN: FileCheck %s --check-prefix=PLAIN-LL < %t/plain/add_one.ll
// RUN: tritium compile %t/kernel.mlir --target cuda:90 --debug-variables --no-line-info --emit-llvm -o %t/nolines
// RUN: FileCheck %s --check-prefix=LL < %t/nolines/add_one.ll

// PTX: .target sm_90a, debug
// PTX: .section .debug_info
// PLAIN-PTX: .target sm_90a{{$}}

// LL-DAG: !DILocalVariable(name: "y", scope: [[SP:![0-9]+]], file: {{![0-9]+}}, type: [[FLOAT:![0-9]+]])
// LL-DAG: [[SP]] = distinct !DISubprogram(name: "add_one", {{.*}}unit: [[CU:![0-9]+]]
// LL-DAG: [[CU]] = distinct !DICompileUnit({{.*}}emissionKind: FullDebug
// LL-DAG: [[FLOAT]] = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
// PLAIN-LL-NOT: DILocalVariable
// PLAIN-LL: emissionKind: LineTablesOnly
// PLAIN-LL-NOT: DILocalVariable

//--- kernel.mlir
module {
  tt.func public @add_one(%data: !tt.ptr<f32>) {
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32> loc(#add)
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32> loc(#load)
    %base = tt.splat %data : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>> loc(#load)
    %pointers = tt.addptr %base, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc(#load)
    %x = tt.load %pointers : tensor<128x!tt.ptr<f32>> loc(#load)
    %y = arith.addf %x, %one : tensor<128xf32> loc(#y)
    tt.store %pointers, %y : tensor<128x!tt.ptr<f32>> loc(#store)
    tt.return loc(#store)
  } loc(#kernel)
}
#kernel = loc("/src/project/kernels.py":1:0)
#load = loc("/src/project/kernels.py":2:8)
#add = loc("/src/project/kernels.py":3:14)
#y = loc("y"(#add))
#store = loc("/src/project/kernels.py":4:4)

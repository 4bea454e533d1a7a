// Line tables and reproducers, as upstream writes them: the PTX has `.file`
// and `.loc` directives from the IR's locations (and `.target` without
// `debug`, so that ptxas still optimises) unless --no-line-info (upstream's
// TRITON_DISABLE_LINE_INFO); --reproducer PREFIX (upstream's
// TRITON_REPRODUCER_PATH) writes each stage's last pipeline and its input in
// MLIR's reproducer format, which tt-opt --run-reproducer replays.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/kernel.mlir --target cuda:90 --reproducer %t/repro -o %t/lines
// RUN: FileCheck %s --check-prefix=LINES < %t/lines/add_one.ptx
// RUN: tritium compile %t/kernel.mlir --target cuda:90 --no-line-info -o %t/nolines
// RUN: FileCheck %s --check-prefix=NOLINES < %t/nolines/add_one.ptx
// RUN: FileCheck %s --check-prefix=REPRO-TTGIR < %t/repro.make_ttgir.repro.mlir
// RUN: FileCheck %s --check-prefix=REPRO-LLIR < %t/repro.make_llir.repro.mlir
// RUN: tt-opt %t/repro.make_llir.repro.mlir --run-reproducer | FileCheck %s --check-prefix=REPLAYED

// LINES: .target sm_90a{{$}}
// LINES: .visible .entry add_one(
// LINES: .loc 1 3 14
// LINES: add.f32
// LINES: .loc 1 4 4
// LINES: st.global
// LINES: .file 1 "/src/project/kernels.py"
// NOLINES: .target sm_90a{{$}}
// NOLINES-NOT: .loc
// NOLINES-NOT: .file

// REPRO-TTGIR: tt.func public @add_one
// REPRO-TTGIR: mlir_reproducer: {
// REPRO-TTGIR-NEXT: pipeline: "builtin.module({{.*}}tritongpu-coalesce
// REPRO-LLIR: ttg.num-warps
// REPRO-LLIR: mlir_reproducer: {
// REPRO-LLIR-NEXT: pipeline: "builtin.module(convert-triton-gpu-to-llvm{{.*}}enable-line-info)"
// REPLAYED: llvm.func @add_one(

//--- kernel.mlir
module {
  tt.func public @add_one(%data: !tt.ptr<f32>) {
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32> loc(#add)
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32> loc(#load)
    %base = tt.splat %data : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>> loc(#load)
    %pointers = tt.addptr %base, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc(#load)
    %x = tt.load %pointers : tensor<128x!tt.ptr<f32>> loc(#load)
    %y = arith.addf %x, %one : tensor<128xf32> loc(#add)
    tt.store %pointers, %y : tensor<128x!tt.ptr<f32>> loc(#store)
    tt.return loc(#store)
  } loc(#kernel)
}
#kernel = loc("/src/project/kernels.py":1:0)
#load = loc("/src/project/kernels.py":2:8)
#add = loc("/src/project/kernels.py":3:14)
#store = loc("/src/project/kernels.py":4:4)

// Upstream's code-generation options: maxnreg (.maxnreg on the kernel),
// enable_fp_fusion (multiply-adds fuse into fma unless it is off) and
// enable_reflect_ftz (f32 exp2 flushes denormals unless it is off; libdevice
// gets nvvm-reflect-ftz), as upstream's test_core.py checks them in the PTX.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/mul_add.mlir -o %t/fused
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/mul_add.ptx
// RUN: tritium compile %t/mul_add.mlir --no-fp-fusion -o %t/unfused
// RUN: FileCheck %s --check-prefix=UNFUSED < %t/unfused/mul_add.ptx
// RUN: tritium compile %t/exp2.mlir --emit-llvm -o %t/ftz
// RUN: FileCheck %s --check-prefix=FTZ < %t/ftz/exp2.ptx
// RUN: FileCheck %s --check-prefix=FTZ-FLAG < %t/ftz/exp2.ll
// RUN: tritium compile %t/exp2.mlir --no-reflect-ftz --emit-llvm -o %t/noftz
// RUN: FileCheck %s --check-prefix=NOFTZ < %t/noftz/exp2.ptx
// RUN: FileCheck %s --check-prefix=NOFTZ-FLAG < %t/noftz/exp2.ll
// RUN: tritium compile %t/mul_add.mlir --maxnreg 42 -o %t/limited
// RUN: FileCheck %s --check-prefix=LIMITED < %t/limited/mul_add.ptx

// FUSED: fma.rn.f32
// UNFUSED-NOT: fma.rn
// UNFUSED: mul.rn.f32
// UNFUSED-NOT: fma.rn
// FTZ: ex2.approx.ftz.f32
// FTZ-FLAG: !"nvvm-reflect-ftz", i32 1
// NOFTZ-NOT: ex2.approx.ftz
// NOFTZ: ex2.approx.f32
// NOFTZ-FLAG-NOT: nvvm-reflect-ftz
// LIMITED: .visible .entry mul_add(
// LIMITED: .maxnreg 42

//--- mul_add.mlir
module {
  tt.func public @mul_add(%data: !tt.ptr<f32>) {
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32>
    %scale = arith.constant dense<1.500000e+00> : tensor<128xf32>
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %base = tt.splat %data : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pointers = tt.addptr %base, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %pointers : tensor<128x!tt.ptr<f32>>
    %product = arith.mulf %x, %scale : tensor<128xf32>
    %sum = arith.addf %product, %one : tensor<128xf32>
    tt.store %pointers, %sum : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

//--- exp2.mlir
module {
  tt.func public @exp2(%data: !tt.ptr<f32>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %base = tt.splat %data : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pointers = tt.addptr %base, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %pointers : tensor<128x!tt.ptr<f32>>
    %y = math.exp2 %x : tensor<128xf32>
    tt.store %pointers, %y : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// ub.poison (what Triton's frontend gives a function that returns nothing
// on some path) lowers to LLVM's poison, scalar or in every register of a
// tensor.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/scalar.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=SCALAR < %t/out/poison_scalar.ll
// RUN: tritium compile %t/tensor.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=TENSOR < %t/out/poison_tensor.ll

// SCALAR-LABEL: define ptx_kernel void @poison_scalar(
// SCALAR: st.global.b32 {{.*}}(i32 poison, ptr addrspace(1) %0,
// TENSOR-LABEL: define ptx_kernel void @poison_tensor(
// TENSOR: st.global.b32 {{.*}}(i32 poison, ptr addrspace(1)

//--- scalar.mlir
module {
  tt.func public @poison_scalar(%out: !tt.ptr<i32>) {
    %0 = ub.poison : i32
    tt.store %out, %0 : !tt.ptr<i32>
    tt.return
  }
}

//--- tensor.mlir
module {
  tt.func public @poison_tensor(%out: !tt.ptr<f32>) {
    %0 = ub.poison : tensor<128xf32>
    %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %2 = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %3 = tt.addptr %2, %1 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %3, %0 : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

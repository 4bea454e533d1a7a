// RUN: tt-opt %s --llvm-optimize-for-nvvm-target | FileCheck %s

// MLIR's own pass, registered under its flag for upstream's lowering tests:
// an f16 division goes through f32 with an approximate reciprocal.
// CHECK-LABEL: @half_division
// CHECK-NOT: llvm.fdiv %{{.*}} : f16
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: nvvm.rcp.approx.ftz.f
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
llvm.func @half_division(%a: f16, %b: f16) -> f16 {
  %q = llvm.fdiv %a, %b : f16
  llvm.return %q : f16
}

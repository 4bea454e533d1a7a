// The f32 fast paths and tt.mulhiui lower to NVVM intrinsics, as upstream's
// lowering (or the libdevice function it calls) does: LLVM knows them to be
// pure, where a side-effecting inline asm would stop it from merging,
// hoisting and scheduling them (the philox rounds of tl.rand kept extra
// mul.hi and registers). With enable_fp_fusion every multiply and add of the
// module is contractable, the lowering's own and libdevice's included, as
// upstream's AllowFPOpFusion = Fast makes them; without it none is.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/exp_mulhi.mlir --emit-llvm -o %t/fused
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/exp_mulhi.ll
// RUN: FileCheck %s --check-prefix=PTX < %t/fused/exp_mulhi.ptx
// RUN: tritium compile %t/exp_mulhi.mlir --emit-llvm --no-fp-fusion -o %t/unfused
// RUN: FileCheck %s --check-prefix=UNFUSED < %t/unfused/exp_mulhi.ll

// FUSED-NOT: asm sideeffect "ex2
// FUSED-NOT: asm sideeffect "div
// FUSED-NOT: asm sideeffect "mul.hi
// FUSED: fmul contract float %{{.*}}, 0x3FF7154760000000
// FUSED: call float @llvm.nvvm.ex2.approx.f32(
// FUSED: call float @llvm.nvvm.div.full(
// FUSED: call float @llvm.nvvm.sqrt.approx.ftz.f(
// FUSED: call float @llvm.nvvm.rsqrt.approx.ftz.f(
// FUSED: call i32 @llvm.nvvm.mulhi.ui(
// FUSED: call i64 @llvm.nvvm.mulhi.ull(
// PTX: ex2.approx.f32
// PTX: div.full.f32
// PTX: mul.hi.u32
// PTX: mul.hi.u64
// UNFUSED-NOT: contract
// UNFUSED: fmul float %{{.*}}, 0x3FF7154760000000

//--- exp_mulhi.mlir
module {
  tt.func public @exp_mulhi(%data: !tt.ptr<f32>, %bits: !tt.ptr<i32>, %wide: !tt.ptr<i64>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %base = tt.splat %data : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pointers = tt.addptr %base, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %pointers : tensor<128x!tt.ptr<f32>>
    %e = math.exp %x : tensor<128xf32>
    %q = arith.divf %e, %x : tensor<128xf32>
    %s = math.sqrt %q : tensor<128xf32>
    %r = math.rsqrt %s : tensor<128xf32>
    tt.store %pointers, %r : tensor<128x!tt.ptr<f32>>
    %ibase = tt.splat %bits : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %ipointers = tt.addptr %ibase, %range : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    %k = tt.load %ipointers : tensor<128x!tt.ptr<i32>>
    %h = tt.mulhiui %k, %range : tensor<128xi32>
    tt.store %ipointers, %h : tensor<128x!tt.ptr<i32>>
    %wbase = tt.splat %wide : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>>
    %wpointers = tt.addptr %wbase, %range : tensor<128x!tt.ptr<i64>>, tensor<128xi32>
    %w = tt.load %wpointers : tensor<128x!tt.ptr<i64>>
    %wh = tt.mulhiui %w, %w : tensor<128xi64>
    tt.store %wpointers, %wh : tensor<128x!tt.ptr<i64>>
    tt.return
  }
}

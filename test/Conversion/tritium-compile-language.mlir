// The lowering of the language beyond the corpus's ops: unstructured
// control flow (early returns), llvm.intr.assume, gpu.barrier, packed and
// multi-result inline asm, tt.cat, tt.map_elementwise, and selects of whole
// tensors on one condition. (The kernels of test/fixtures/corpus's
// language_cases.py go through ptxas in the lowering test.)
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/early-return.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=CF < %t/out/early_return.ll
// RUN: tritium compile %t/intrinsics.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=INTR < %t/out/intrinsics.ll
// RUN: tritium compile %t/inline-asm.mlir -o %t/out
// RUN: FileCheck %s --check-prefix=ASM < %t/out/inline_asm.ptx
// RUN: tritium compile %t/inline-asm-pad.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=PAD < %t/out/inline_asm_pad.ll
// RUN: tritium compile %t/cat.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=CAT < %t/out/cat.ll
// RUN: tritium compile %t/map.mlir --emit-llvm -o %t/out
// RUN: FileCheck %s --check-prefix=MAP < %t/out/map.ll

// Each block of the kernel is a block of the function; the tensor passed to
// ^bb2 arrives as its four registers (block arguments become phis, of the
// registers' bits after LLVM's optimisation, which, with the generic cost
// model upstream's O3 uses too, the SLP vectoriser makes one phi of a
// vector), stored as one vector.
// CF-LABEL: define ptx_kernel void @early_return(
// CF: br i1
// CF: ret void
// CF: phi <4 x i32>
// CF-COUNT-4: extractelement <4 x i32>
// CF-NEXT: st.global.v4.b32

//--- early-return.mlir
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @early_return(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %a: i32) {
    %c0 = arith.constant 0 : i32
    %c10 = arith.constant 10 : i32
    %two = arith.constant dense<2.0> : tensor<512xf32, #blocked>
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ptrs0 = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ptrs0, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %ptrs : tensor<512x!tt.ptr<f32>, #blocked>
    %c = arith.cmpi sgt, %a, %c0 : i32
    cf.cond_br %c, ^bb1, ^bb2(%x : tensor<512xf32, #blocked>)
  ^bb1:
    %d = arith.cmpi sgt, %a, %c10 : i32
    cf.cond_br %d, ^bb3, ^bb4
  ^bb3:
    tt.return
  ^bb4:
    %y = arith.mulf %x, %two : tensor<512xf32, #blocked>
    cf.br ^bb2(%y : tensor<512xf32, #blocked>)
  ^bb2(%v: tensor<512xf32, #blocked>):
    tt.store %ptrs, %v : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// tl.assume stays an assumption; tl.debug_barrier is a CTA barrier.
// INTR-LABEL: define ptx_kernel void @intrinsics(
// INTR: call void @llvm.assume(i1
// INTR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)

//--- intrinsics.mlir
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @intrinsics(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi sgt, %n, %c0 : i32
    llvm.intr.assume %c : i1
    gpu.barrier
    tt.store %p, %n : !tt.ptr<i32>
    tt.return
  }
}

// Each thread holds 4 bytes: one asm with them in one 32-bit register; one
// asm per element with two results; 2 f16 per thread: one asm, each result
// an f16x2 register.
// ASM: and.b32 {{.*}}0x1F1F1F1F
// ASM-NOT: and.b32 {{.*}}0x1F1F1F1F
// ASM: sub.u32
// ASM: add.u32
// ASM: add.rn.f16x2
// ASM-NOT: add.rn.f16x2

//--- inline-asm.mlir
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @inline_asm(%p: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %h: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ptrs0 = tt.splat %p : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>, #blocked>
    %ptrs = tt.addptr %ptrs0, %offs : tensor<512x!tt.ptr<i8>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %ptrs : tensor<512x!tt.ptr<i8>, #blocked>
    %y = tt.elementwise_inline_asm "and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<512xi8, #blocked> -> tensor<512xi8, #blocked>
    tt.store %ptrs, %y : tensor<512x!tt.ptr<i8>, #blocked>
    %offs1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
    %qs0 = tt.splat %q : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked1>
    %qs = tt.addptr %qs0, %offs1 : tensor<128x!tt.ptr<i32>, #blocked1>, tensor<128xi32, #blocked1>
    %a = tt.load %qs : tensor<128x!tt.ptr<i32>, #blocked1>
    %d:2 = tt.elementwise_inline_asm "sub.u32 $0, $2, $3; add.u32 $1, $2, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true} %a, %a : tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1>
    %s = arith.addi %d#0, %d#1 : tensor<128xi32, #blocked1>
    tt.store %qs, %s : tensor<128x!tt.ptr<i32>, #blocked1>
    %offs2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked1>
    %hs0 = tt.splat %h : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked1>
    %hs = tt.addptr %hs0, %offs2 : tensor<256x!tt.ptr<f16>, #blocked1>, tensor<256xi32, #blocked1>
    %f = tt.load %hs : tensor<256x!tt.ptr<f16>, #blocked1>
    %g:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; add.rn.f16x2 $1, $2, $2;" {constraints = "=r,=r,r", packed_element = 2 : i32, pure = true} %f : tensor<256xf16, #blocked1> -> tensor<256xf16, #blocked1>, tensor<256xf16, #blocked1>
    %t = arith.addf %g#0, %g#1 : tensor<256xf16, #blocked1>
    tt.store %hs, %t : tensor<256x!tt.ptr<f16>, #blocked1>
    tt.return
  }
}

// tt.cat: the result's registers are the first operand's, then the
// second's: one 4-register load, its registers stored twice (8 per thread).
// CAT-LABEL: define ptx_kernel void @cat(
// CAT: ld.global.v4.b32
// CAT-NOT: ld.global
// CAT-COUNT-2: st.global.v4.b32

// A thread with fewer elements than packed_element (here 1 of 4, as the
// fp8e4b15 -> f16 conversion upstream's frontend writes as inline asm meets
// with one element per thread) runs the asm once on operands padded with
// undef, and keeps the first result: upstream pads the same way.
// PAD-LABEL: define ptx_kernel void @inline_asm_pad(
// PAD: insertelement <4 x i8> <i8 poison, i8 undef, i8 undef, i8 undef>
// PAD: asm "prmt.b32 $0, 0, $2, 0x5746; shl.b32 $1, $0, 7;", "=r,=r,r"(<4 x i8>
// PAD-NOT: asm "prmt
// PAD: extractelement <2 x i16> %{{.*}}, i64 0
// PAD: st.global.b16

//--- inline-asm-pad.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @inline_asm_pad(%p: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %h: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ptrs0 = tt.splat %p : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #blocked>
    %ptrs = tt.addptr %ptrs0, %offs : tensor<128x!tt.ptr<i8>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %ptrs : tensor<128x!tt.ptr<i8>, #blocked>
    %y = tt.elementwise_inline_asm "prmt.b32 $0, 0, $2, 0x5746; shl.b32 $1, $0, 7;" {constraints = "=r,=r,r", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #blocked> -> tensor<128xf16, #blocked>
    %hs0 = tt.splat %h : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #blocked>
    %hs = tt.addptr %hs0, %offs : tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xi32, #blocked>
    tt.store %hs, %y : tensor<128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

//--- cat.mlir
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cat(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ptrs0 = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ptrs0, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %ptrs : tensor<512x!tt.ptr<f32>, #blocked>
    %z = tt.cat %x, %x : tensor<512xf32, #blocked> -> tensor<1024xf32, #blocked1>
    %offs1 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked1>
    %qs0 = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %qs = tt.addptr %qs0, %offs1 : tensor<1024x!tt.ptr<f32>, #blocked1>, tensor<1024xi32, #blocked1>
    tt.store %qs, %z : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// tt.map_elementwise: the region (with branches) runs per element, inside
// the function; a select picks whole tensors on one scalar condition.
// (LLVM folds the two-register function into compares and selects.)
// MAP-LABEL: define ptx_kernel void @map(
// MAP: ld.global.v2.b32
// MAP: [[BIG:%.*]] = icmp sgt i32 %1, 0
// MAP-NEXT: select i1 [[BIG]]
// MAP-NEXT: select i1 [[BIG]]
// MAP-NEXT: st.global.v2.b32

//--- map.mlir
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @map(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cm1 = arith.constant -1 : i32
    %offs = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ptrs0 = tt.splat %p : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #blocked>
    %ptrs = tt.addptr %ptrs0, %offs : tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    %x = tt.load %ptrs : tensor<256x!tt.ptr<i32>, #blocked>
    %s = "tt.map_elementwise"(%x, %offs) <{pack = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      cf.cond_br %lt, ^bb2(%cm1 : i32), ^bb1
    ^bb1:
      %eq = arith.cmpi eq, %a, %b : i32
      cf.cond_br %eq, ^bb2(%c0 : i32), ^bb2(%c1 : i32)
    ^bb2(%r: i32):
      tt.map_elementwise.return %r : i32
    }) : (tensor<256xi32, #blocked>, tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked>
    %big = arith.cmpi sgt, %n, %c0 : i32
    %chosen = arith.select %big, %s, %x : tensor<256xi32, #blocked>
    tt.store %ptrs, %chosen : tensor<256x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

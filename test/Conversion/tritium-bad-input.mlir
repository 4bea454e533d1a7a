// Bad input of every class RELIABILITY.md lists, and what Tritium answers: a
// diagnostic (located where there is IR) and exit code 1; an internal error (a
// panic in a pass, pattern or the lowering, provoked on purpose) is exit code 2
// and writes nothing. Never a crash.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: not tritium 2>&1 | FileCheck %s --check-prefix=NOCMD
// RUN: not tritium build %t/scalar.mlir 2>&1 | FileCheck %s --check-prefix=BADCMD
// RUN: not tritium compile -o %t/out 2>&1 | FileCheck %s --check-prefix=NOINPUT
// RUN: not tritium compile %t/does-not-exist.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tritium compile %t/scalar.mlir --fast -o %t/out 2>&1 | FileCheck %s --check-prefix=UNKOPT
// RUN: not tritium compile %t/scalar.mlir --num-warps 2>&1 | FileCheck %s --check-prefix=NOVALUE
// RUN: not tritium compile %t/scalar.mlir --num-warps four -o %t/out 2>&1 | FileCheck %s --check-prefix=NOTNUM
// RUN: not tritium compile %t/scalar.mlir --num-stages -1 -o %t/out 2>&1 | FileCheck %s --check-prefix=NEGNUM
// RUN: not tritium compile %t/scalar.mlir --num-warps 3 -o %t/out 2>&1 | FileCheck %s --check-prefix=WARPS3
// RUN: not tritium compile %t/scalar.mlir --num-warps 64 -o %t/out 2>&1 | FileCheck %s --check-prefix=WARPS64
// RUN: not tritium compile %t/scalar.mlir --num-ctas 0 -o %t/out 2>&1 | FileCheck %s --check-prefix=CTAS0
// RUN: tritium compile %t/scalar.mlir --num-ctas 2 -o %t/out 2>&1 | FileCheck %s --check-prefix=CTAS2
// RUN: not tritium compile %t/scalar.mlir --target cuda:75 -o %t/out 2>&1 | FileCheck %s --check-prefix=T75
// RUN: not tritium compile %t/scalar.mlir --target cuda:100 -o %t/out 2>&1 | FileCheck %s --check-prefix=T100
// RUN: not tritium compile %t/scalar.mlir --target cuda:85 -o %t/out 2>&1 | FileCheck %s --check-prefix=T85
// RUN: not tritium compile %t/scalar.mlir --target hip:gfx942 -o %t/out 2>&1 | FileCheck %s --check-prefix=THIP
// RUN: touch %t/a-file && not tritium compile %t/scalar.mlir -o %t/a-file 2>&1 | FileCheck %s --check-prefix=OUTFILE
// RUN: not tritium compile %t/empty.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tritium compile %t/unknown-op.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=UNKNOWNOP
// RUN: not tritium compile %t/not-power-of-two.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not tritium compile %t/two-kernels.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not tritium compile %t/private-only.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=PRIVATE
// RUN: not tritium compile %t/recursive.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RUN: tritium compile %t/f64-dot.mlir -o %t/f64-dot
// RUN: tritium compile %t/early-return.mlir -o %t/early-return
// RUN: not tritium compile %t/target-75.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=ATTR75
// RUN: not tritium compile %t/target-100.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=ATTR100
// RUN: not tritium compile %t/target-not-a-string.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=ATTRINT
// RUN: not tritium compile %t/warps-mismatch.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=WARPSMISMATCH
// RUN: not tritium compile %t/warps-zero.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=WARPSZERO
// RUN: not tritium compile %t/threads-per-warp-64.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=TPW64
// RUN: not tritium compile %t/ctas-zero.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=CTASZERO
// RUN: not tritium compile %t/no-layout.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// RUN: not tritium compile %t/preset-shared.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not tritium compile %t/shared-over-sm90.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=SMEM90
// RUN: not tritium compile %t/shared-over-sm86.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=SMEM86
// RUN: tritium compile %t/shared-fits-sm90.mlir -o %t/fits && cat %t/fits/too_much_shared.json | FileCheck %s --check-prefix=SMEMFITS
// RUN: bash -c 'tritium compile %t/scalar.mlir --test-internal-error=pass -o %t/ice; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ICEPASS
// RUN: bash -c 'tritium compile %t/scalar.mlir --test-internal-error=pattern -o %t/ice; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ICEPATTERN
// RUN: bash -c 'tritium compile %t/scalar.mlir --test-internal-error=lowering -o %t/ice; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ICELOWER
// RUN: bash -c 'tt-opt %t/scalar.mlir --test-tritium-internal-error > %t/ice.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OPTICE
// RUN: not tt-opt %t/scalar.mlir --no-such-pass 2>&1 | FileCheck %s --check-prefix=OPTFLAG
// RUN: not tt-opt %t/scalar.mlir --pass-pipeline='builtin.module(nope)' 2>&1 | FileCheck %s --check-prefix=OPTPIPE
// RUN: not tt-opt %t/scalar.mlir --allocate-shared-memory-nv='compute-capability=abc' 2>&1 | FileCheck %s --check-prefix=OPTOPTION
// RUN: not tt-opt %t/scalar.mlir --tritium-ttgir-pipeline='num-warps=3' 2>&1 | FileCheck %s --check-prefix=OPTWARPS
// RUN: not tt-opt %t/scalar.mlir --tritium-ttgir-pipeline='target=cuda:75' 2>&1 | FileCheck %s --check-prefix=OPTTARGET
// RUN: printf '\377\376\000binary' > %t/binary.mlir && not tritium compile %t/binary.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: tritium compile %t/huge-copy.mlir -o %t/huge && grep -c 'ld.global.v4.b32' %t/huge/huge_copy.ptx | FileCheck %s --check-prefix=HUGE
// RUN: not ls %t/out %t/ice

// NOCMD: usage: tritium compile
// BADCMD: error: unknown command 'build'
// NOINPUT: error: no input file
// MISSING: error: cannot read {{.*}}does-not-exist.mlir
// UNKOPT: error: unknown option '--fast'
// NOVALUE: error: --num-warps needs a value
// NOTNUM: error: --num-warps must be a number, got 'four'
// NEGNUM: error: --num-stages must be a number, got '-1'
// WARPS3: error: --num-warps must be a power of two from 1 to 32, got 3
// WARPS64: error: --num-warps must be a power of two from 1 to 32, got 64
// CTAS0: error: --num-ctas must be a power of two from 1 to 16, got 0
// CTAS2: warning: num_ctas=2: Tritium runs each program on the first CTA of its cluster
// T75: error: target 'cuda:75' is older than sm_80, which Tritium does not support
// T100: error: target 'cuda:100' is newer than sm_90, which Tritium does not support yet
// T85: error: target 'cuda:85' is no known GPU
// THIP: error: unknown target 'hip:gfx942'
// OUTFILE: error: cannot write the bundle to {{.*}}a-file
// EMPTY: empty.mlir:0:0: error: 'builtin.module': expected one public tt.func (the kernel), found 0
// UNKNOWNOP: unknown-op.mlir:2:3: error: Dialect `foo' not found for custom op 'foo.bar'
// VERIFY: not-power-of-two.mlir:3:10: error: 'tt.make_range' op has a tensor of 100 elements; the number of elements must be a power of two
// TWO: two-kernels.mlir:1:1: error: 'builtin.module': expected one public tt.func (the kernel), found 2
// PRIVATE: private-only.mlir:1:1: error: 'builtin.module': expected one public tt.func (the kernel), found 0
// RECURSIVE: recursive.mlir:2:3: error: recursive calls are not supported
// f64-dot.mlir (f64 tt.dot, mma.sync m8n8k4) and early-return.mlir (cf.cond_br)
// were unsupported features once; they compile now.
// ATTR75: target-75.mlir:2:1: error: ttg.target: target 'cuda:75' is older than sm_80
// ATTR100: target-100.mlir:2:1: error: ttg.target: target 'cuda:100' is newer than sm_90
// ATTRINT: target-not-a-string.mlir:2:1: error: ttg.target: unknown target '90 : i64'
// WARPSMISMATCH: warps-mismatch.mlir:4:10: error: 'tt.make_range' op result #0: {{.*}}Layout has 4 warps per CTA, but the context requires 8 warps per CTA.
// WARPSZERO: warps-zero.mlir:4:10: error: {{.*}} but the context requires 0 warps per CTA.
// TPW64: threads-per-warp-64.mlir:4:10: error: {{.*}}Layout has 32 threads per warp, but the module specifies 64 threads per warp.
// CTASZERO: ctas-zero.mlir:4:10: error: {{.*}}Layout has 1 CTAs per CGA, but the context requires 0 CTAs per CGA.
// NOLAYOUT: no-layout.mlir:3:10: error: 'tt.make_range': tensor<128xi32> has no layout; run the TTGIR passes first
// PRESET: preset-shared.mlir:2:1: error: the kernel needs 300000 bytes of shared memory (ttg.shared), more than the 232448 bytes a CTA can have on sm_90
// SMEM90: shared-over-sm90.mlir:8:10: error: the kernel needs 262144 bytes (256.0 KiB) of shared memory, more than the 232448 bytes (227.0 KiB) a CTA can have on sm_90; alive together here: 'ttg.local_alloc' at {{.*}}shared-over-sm90.mlir:7:10: 131072 bytes (128.0 KiB), 'ttg.local_alloc' at {{.*}}shared-over-sm90.mlir:8:10: 131072 bytes (128.0 KiB)
// SMEM86: shared-over-sm86.mlir:8:10: error: the kernel needs 131072 bytes (128.0 KiB) of shared memory, more than the 101376 bytes (99.0 KiB) a CTA can have on sm_86
// SMEMFITS: "shared": 131072
// ICEPASS: scalar.mlir:1:1: error: internal error in pass 'test-tritium-internal-error': test-tritium-internal-error: the pass panicked on purpose at {{.*}}test_internal_error.rs:{{[0-9]+}}
// ICEPASS: error: internal compiler error (a bug in Tritium); nothing was written.
// ICEPASS: exit=2
// ICEPATTERN: error: internal error in a rewrite pattern on 'tt.func': test-tritium-internal-error: a pattern panicked on purpose
// ICEPATTERN: error: internal error in pass 'test-tritium-internal-error': a rewrite pattern panicked
// ICEPATTERN: exit=2
// ICELOWER: scalar.mlir:1:1: error: internal error in pass 'convert-triton-gpu-to-llvm': the lowering panicked on purpose
// ICELOWER: exit=2
// OPTICE: error: internal error in pass 'test-tritium-internal-error'
// OPTICE: exit=2
// OPTFLAG: Unknown command line argument '--no-such-pass'
// OPTPIPE: 'nope' does not refer to a registered pass or pass pipeline
// OPTOPTION: 'abc' value invalid
// OPTWARPS: scalar.mlir:1:1: error: num-warps must be a power of two from 1 to 32, got 3
// OPTTARGET: scalar.mlir:1:1: error: compute capability 75 is older than sm_80
// BINARY: error: cannot read {{.*}}binary.mlir: stream did not contain valid UTF-8
// A 1,048,576-element copy with 4 warps (8,192 elements per thread) compiles in bounded time.
// HUGE: 2048

//--- huge-copy.mlir
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @huge_copy(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1048576 : i32, start = 0 : i32} : tensor<1048576xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1048576x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<1048576x!tt.ptr<f32>, #blocked>, tensor<1048576xi32, #blocked>
    %v = tt.load %a : tensor<1048576x!tt.ptr<f32>, #blocked>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<1048576x!tt.ptr<f32>, #blocked>
    %b = tt.addptr %qs, %r : tensor<1048576x!tt.ptr<f32>, #blocked>, tensor<1048576xi32, #blocked>
    tt.store %b, %v : tensor<1048576x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- scalar.mlir
module {
  tt.func public @k(%p: !tt.ptr<f32>, %x: f32) {
    tt.store %p, %x : !tt.ptr<f32>
    tt.return
  }
}
//--- empty.mlir

//--- unknown-op.mlir
module {
  foo.bar
}
//--- not-power-of-two.mlir
module {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 100 : i32, start = 0 : i32} : tensor<100xi32>
    tt.return
  }
}
//--- two-kernels.mlir
module {
  tt.func public @a(%p: !tt.ptr<f32>) {
    tt.return
  }
  tt.func public @b(%p: !tt.ptr<f32>) {
    tt.return
  }
}
//--- private-only.mlir
module {
  tt.func private @helper(%p: !tt.ptr<f32>) {
    tt.return
  }
}
//--- recursive.mlir
module {
  tt.func public @k(%p: !tt.ptr<f32>) {
    tt.call @k(%p) : (!tt.ptr<f32>) -> ()
    tt.return
  }
}
//--- f64-dot.mlir
module {
  tt.func public @k(%p: !tt.ptr<f64>) {
    %a = arith.constant dense<1.0> : tensor<16x16xf64>
    %c = arith.constant dense<0.0> : tensor<16x16xf64>
    %d = tt.dot %a, %a, %c : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %f = tt.broadcast %e : tensor<16x1xi32> -> tensor<16x16xi32>
    %ps = tt.splat %p : !tt.ptr<f64> -> tensor<16x16x!tt.ptr<f64>>
    %pa = tt.addptr %ps, %f : tensor<16x16x!tt.ptr<f64>>, tensor<16x16xi32>
    tt.store %pa, %d : tensor<16x16x!tt.ptr<f64>>
    tt.return
  }
}
//--- target-75.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- target-100.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- target-not-a-string.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = 90, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- warps-mismatch.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- warps-zero.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 0 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- threads-per-warp-64.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- ctas-zero.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 0 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- no-layout.mlir
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
//--- preset-shared.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.shared" = 300000 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- shared-over-sm90.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @too_much_shared(%p: !tt.ptr<f16>) {
    %c = arith.constant dense<1.0> : tensor<256x256xf16, #blocked>
    %a = ttg.local_alloc %c : (tensor<256x256xf16, #blocked>) -> !ttg.memdesc<256x256xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc %c : (tensor<256x256xf16, #blocked>) -> !ttg.memdesc<256x256xf16, #shared, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<256x256xf16, #shared, #smem, mutable> -> tensor<256x256xf16, #blocked>
    %y = ttg.local_load %b : !ttg.memdesc<256x256xf16, #shared, #smem, mutable> -> tensor<256x256xf16, #blocked>
    %s = arith.addf %x, %y : tensor<256x256xf16, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<256x256x!tt.ptr<f16>, #blocked>
    tt.store %ps, %s : tensor<256x256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
//--- shared-over-sm86.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:86", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @too_much_shared(%p: !tt.ptr<f16>) {
    %c = arith.constant dense<1.0> : tensor<128x256xf16, #blocked>
    %a = ttg.local_alloc %c : (tensor<128x256xf16, #blocked>) -> !ttg.memdesc<128x256xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc %c : (tensor<128x256xf16, #blocked>) -> !ttg.memdesc<128x256xf16, #shared, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<128x256xf16, #shared, #smem, mutable> -> tensor<128x256xf16, #blocked>
    %y = ttg.local_load %b : !ttg.memdesc<128x256xf16, #shared, #smem, mutable> -> tensor<128x256xf16, #blocked>
    %s = arith.addf %x, %y : tensor<128x256xf16, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<128x256x!tt.ptr<f16>, #blocked>
    tt.store %ps, %s : tensor<128x256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
//--- shared-fits-sm90.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @too_much_shared(%p: !tt.ptr<f16>) {
    %c = arith.constant dense<1.0> : tensor<128x256xf16, #blocked>
    %a = ttg.local_alloc %c : (tensor<128x256xf16, #blocked>) -> !ttg.memdesc<128x256xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc %c : (tensor<128x256xf16, #blocked>) -> !ttg.memdesc<128x256xf16, #shared, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<128x256xf16, #shared, #smem, mutable> -> tensor<128x256xf16, #blocked>
    %y = ttg.local_load %b : !ttg.memdesc<128x256xf16, #shared, #smem, mutable> -> tensor<128x256xf16, #blocked>
    %s = arith.addf %x, %y : tensor<128x256xf16, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<128x256x!tt.ptr<f16>, #blocked>
    tt.store %ps, %s : tensor<128x256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
//--- early-return.mlir
module {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %b = arith.cmpi eq, %n, %c0 : i32
    cf.cond_br %b, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    %v = arith.constant 1.0 : f32
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}

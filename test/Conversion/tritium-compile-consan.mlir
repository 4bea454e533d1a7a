// A kernel instrumented by the concurrency sanitizer, through `tritium
// compile`: the helpers stay functions the kernel calls, the state is in
// the kernel's global scratch (a trailing parameter), and the checks end
// in __assertfail.
// REQUIRES: tritium
// RUN: rm -rf %t && mkdir -p %t
// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90 ptx-version=87' -tritoninstrument-concurrency-sanitizer -o %t/k.mlir
// RUN: tritium compile %t/k.mlir -o %t/out && FileCheck %s --input-file %t/out/stage.ptx
// RUN: FileCheck %s --check-prefix=JSON --input-file %t/out/stage.json
// The same through the compile option (upstream's instrumentation_mode):
// RUN: tritium compile %s --instrumentation-mode consan -o %t/flag && FileCheck %s --input-file %t/flag/stage.ptx
// RUN: tritium compile %s -o %t/plain && FileCheck %s --check-prefix=PLAIN --input-file %t/plain/stage.ptx
// RUN: not tritium compile %s --instrumentation-mode tsan -o %t/bad 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK: .extern .func __assertfail
// CHECK: .func {{.*}}__triton_consan_verify_write_visibility_nw4_
// CHECK: .visible .entry stage(
// CHECK: atom.global.acquire.gpu.cas.b32
// CHECK: call{{.*}}__triton_consan_set_write_visibility_nw4_
// CHECK: atom.global.gpu.acq_rel.exch.b32
// CHECK: call{{.*}}__assertfail
// JSON: "name": "global_scratch"
// JSON: "global_scratch_size": {{[1-9][0-9]*}}
// PLAIN-NOT: __triton_consan_
// UNKNOWN: error: --instrumentation-mode: unknown instrumentation mode 'tsan' (known: consan)

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#sw1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @stage(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %x = arith.constant dense<1.0> : tensor<16x16xf32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, #sw, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    ttg.local_store %x, %buf : tensor<16x16xf32, #blocked> -> !ttg.memdesc<16x16xf32, #sw, #smem, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    %c0 = arith.constant 0 : i32
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #sw1, #smem, mutable>
    %y = ttg.local_load %buf : !ttg.memdesc<16x16xf32, #sw, #smem, mutable> -> tensor<16x16xf32, #blocked>
    %s = "tt.reduce"(%y) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x16xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %q = tt.addptr %p, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %q, %s : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

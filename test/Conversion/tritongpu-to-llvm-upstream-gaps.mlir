// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm='compute-capability=90' | FileCheck %s

// Lowerings that upstream's tritongpu_to_llvm*.mlir showed missing or
// different (issue 9).

// clampf(x, 0 - limit, limit) on Hopper: one min.xorsign.abs per element.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @symmetric_clamp
  // CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.fmin.xorsign.abs.f"
  // CHECK-NOT: llvm.intr.minnum
  tt.func public @symmetric_clamp(%x: tensor<64xf32, #blocked>, %limit: tensor<64xf32, #blocked>, %out: tensor<64x!tt.ptr<f32>, #blocked>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32, #blocked>
    %low = arith.subf %zero, %limit : tensor<64xf32, #blocked>
    %clamped = tt.clampf %x, %low, %limit, propagateNan = none : tensor<64xf32, #blocked>
    tt.store %out, %clamped : tensor<64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A conversion in which each warp reads back only what it wrote syncs the
// warp, not the CTA.
#blocked0 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [0, 1]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @warp_local_conversion
  // CHECK: llvm.store
  // CHECK: nvvm.bar.warp.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.load
  tt.func public @warp_local_conversion(%x: tensor<16x16xi32, #blocked0>, %out: tensor<16x16x!tt.ptr<i32>, #blocked1>) {
    %converted = ttg.convert_layout %x : tensor<16x16xi32, #blocked0> -> tensor<16x16xi32, #blocked1>
    tt.store %out, %converted : tensor<16x16x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}

// -----

// A non-splat constant every thread holds whole: one constant per register,
// in the order of the register's coordinates.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @constant_array
  // CHECK-DAG: llvm.mlir.constant(7 : i32)
  // CHECK-DAG: llvm.mlir.constant(5 : i32)
  // CHECK-DAG: llvm.mlir.constant(3 : i32)
  // CHECK-DAG: llvm.mlir.constant(1 : i32)
  // CHECK: st.global.v4.b32
  tt.func public @constant_array(%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %values = arith.constant dense<[1, 3, 5, 7]> : tensor<4xi32, #blocked>
    %offsets = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked>
    %base = tt.splat %out : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #blocked>
    %pointers = tt.addptr %base, %offsets : tensor<4x!tt.ptr<i32>, #blocked>, tensor<4xi32, #blocked>
    tt.store %pointers, %values : tensor<4x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// memdesc_reinterpret: the same bytes from the same address.
#shared0 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @reinterpret
  // CHECK: llvm.store {{.*}} : vector<1xi64>, !llvm.ptr<3>
  // CHECK: {{nvvm.ldmatrix|llvm.load}}
  tt.func public @reinterpret(%x: tensor<32xi64, #blocked>, %out: tensor<64x!tt.ptr<i32>, #blocked>) {
    %buffer = ttg.local_alloc %x : (tensor<32xi64, #blocked>) -> !ttg.memdesc<32xi64, #shared0, #smem, mutable>
    %words = ttg.memdesc_reinterpret %buffer : !ttg.memdesc<32xi64, #shared0, #smem, mutable> -> !ttg.memdesc<64xi32, #shared0, #smem, mutable>
    %loaded = ttg.local_load %words : !ttg.memdesc<64xi32, #shared0, #smem, mutable> -> tensor<64xi32, #blocked>
    tt.store %out, %loaded : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// i8 -> bf16 four at a time (no cvt from s8 to bf16): on Hopper by bit
// tricks and one bf16x2 subtraction per pair.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @int8_to_bf16
  // CHECK-NOT: llvm.sitofp
  // CHECK: llvm.inline_asm asm_dialect = att "{{.*}}sub.bf16x2 $0{{.*}}sub.bf16x2 $1{{.*}}", "=r,=r,r" {{.*}} : (i32) -> !llvm.struct<(vector<2xbf16>, vector<2xbf16>)>
  // CHECK-NOT: llvm.sitofp
  tt.func public @int8_to_bf16(%x: tensor<128xi8, #blocked>, %out: tensor<128x!tt.ptr<bf16>, #blocked>) {
    %y = arith.sitofp %x : tensor<128xi8, #blocked> to tensor<128xbf16, #blocked>
    tt.store %out, %y : tensor<128x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}

// -----

// An integer sum over all 32 lanes: one redux.sync instead of five
// butterfly shuffles (i8 widened to 32 bits and back).
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @warp_sum
  // CHECK: llvm.zext {{.*}} : i8 to i32
  // CHECK: nvvm.redux.sync  add
  // CHECK-NOT: shfl.sync.bfly
  // CHECK: llvm.trunc {{.*}} : i32 to i8
  tt.func public @warp_sum(%x: tensor<64xi8, #blocked>, %out: !tt.ptr<i8>) {
    %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i8, %b: i8):
      %c = arith.addi %a, %b : i8
      tt.reduce.return %c : i8
    }) : (tensor<64xi8, #blocked>) -> i8
    tt.store %out, %sum : !tt.ptr<i8>
    tt.return
  }
}

// -----

// fp8 operands into f32 (sm_89+): mma.sync m16n8k32, A and B each e4m3 or
// e5m2. A K of 16, shallower than the instruction, is padded with zero bytes.
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#dot_a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
#dot_b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @fp8_mma
  // CHECK-COUNT-2: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
  // CHECK-NOT: mma.sync
  // CHECK-LABEL: @fp8_mma_shallow_k
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i8) : i8
  // CHECK: llvm.insertelement %[[ZERO]]
  // CHECK-COUNT-2: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
  // CHECK-NOT: mma.sync
  tt.func public @fp8_mma(%a: tensor<16x32xf8E4M3FN, #dot_a>, %b: tensor<32x16xf8E5M2, #dot_b>, %out: tensor<16x16x!tt.ptr<f32>, #mma>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %zero : tensor<16x32xf8E4M3FN, #dot_a> * tensor<32x16xf8E5M2, #dot_b> -> tensor<16x16xf32, #mma>
    tt.store %out, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
  tt.func public @fp8_mma_shallow_k(%a: tensor<16x16xf8E5M2, #dot_a>, %b: tensor<16x16xf8E5M2, #dot_b>, %out: tensor<16x16x!tt.ptr<f32>, #mma>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %zero : tensor<16x16xf8E5M2, #dot_a> * tensor<16x16xf8E5M2, #dot_b> -> tensor<16x16xf32, #mma>
    tt.store %out, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// builtin.unrealized_conversion_cast between a tensor and the struct of its
// registers (how upstream's tests hand tensors to llvm ops): the struct is
// built from, or taken apart into, the registers.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @tensor_casts
  // CHECK: %[[A:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i32, i32)>
  // CHECK: %[[B:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i32, i32)>
  // CHECK: %[[S:.*]] = llvm.add %[[A]], %[[A]] : i32
  // CHECK: %[[T:.*]] = llvm.add %[[B]], %[[B]] : i32
  // CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  // CHECK: %[[V:.*]] = llvm.insertvalue %[[S]], %[[U]][0]
  // CHECK: %[[W:.*]] = llvm.insertvalue %[[T]], %[[V]][1]
  // CHECK: llvm.store volatile %[[W]], %{{.*}} : !llvm.struct<(i32, i32)>, !llvm.ptr
  tt.func public @tensor_casts(%in: !llvm.struct<(i32, i32)>, %ptr: !llvm.ptr) {
    %x = builtin.unrealized_conversion_cast %in : !llvm.struct<(i32, i32)> to tensor<64xi32, #blocked>
    %y = arith.addi %x, %x : tensor<64xi32, #blocked>
    %z = builtin.unrealized_conversion_cast %y : tensor<64xi32, #blocked> to !llvm.struct<(i32, i32)>
    llvm.store volatile %z, %ptr : !llvm.struct<(i32, i32)>, !llvm.ptr
    tt.return
  }
}

// -----

// Across warps, as upstream's accumulatePartialReductions: after the
// partials (8 slots, one per warp) are stored, thread t loads partial
// t mod 8, a butterfly over 8 lanes (xor 4, 2, 1) combines both operands,
// the thread of partial 0 (tid & 255 == 0) writes the result over it, and
// after a second barrier every thread loads it. The combiner is not a single
// commutative op, so only lane 0 of each warp stores its warp's partial.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @argmax_across_warps
  // CHECK-DAG: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK-DAG: %[[C255:.*]] = llvm.mlir.constant(255 : i32)
  // CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32)
  // CHECK: %[[LANE0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[LANE0]]
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[LANE0]]
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: %[[WRITER:.*]] = llvm.and %[[TID]], %[[C255]]
  // CHECK-NEXT: %[[WRITES:.*]] = llvm.icmp "eq" %[[WRITER]]
  // CHECK-NEXT: %[[INDEX:.*]] = llvm.and %[[TID]], %[[C7]]
  // CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: %[[I:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[V4:.*]] = nvvm.shfl.sync  bfly %{{.*}}, %[[V]], %[[C4]], %{{.*}} : f32 -> f32
  // CHECK-NEXT: %[[I4:.*]] = nvvm.shfl.sync  bfly %{{.*}}, %[[I]], %[[C4]], %{{.*}} : i32 -> i32
  // CHECK-NEXT: %[[GT:.*]] = llvm.fcmp "ogt" %[[V]], %[[V4]]
  // CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C2]]
  // CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C1]]
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITES]]
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITES]]
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: llvm.return
  tt.func public @argmax_across_warps(%x: tensor<1024xf32, #blocked>, %i: tensor<1024xi32, #blocked>, %out: !tt.ptr<i32>) {
    %r:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %v = arith.select %gt, %a, %b : f32
      %vi = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %v, %vi : f32, i32
    }) : (tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked>) -> (f32, i32)
    tt.store %out, %r#1 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// More partials than threads (128 columns x 4 slots, 128 threads): four
// rounds, thread t taking partials t, t + 128, t + 256 and t + 384, each
// combined over 4 lanes (xor 2, 1) and written by the lanes of slot 0
// (tid & 3 == 0); each thread then loads its 8 columns' sums.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @column_sums_across_warps
  // CHECK-DAG: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32)
  // CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32)
  // CHECK-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : i32)
  // CHECK-DAG: %[[C384:.*]] = llvm.mlir.constant(384 : i32)
  // CHECK: nvvm.barrier0
  // CHECK-NEXT: %[[WRITER:.*]] = llvm.and %[[TID]], %[[C3]]
  // CHECK-NEXT: %[[WRITES:.*]] = llvm.icmp "eq" %[[WRITER]]
  // CHECK: %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[TID]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK-NEXT: %[[X0:.*]] = llvm.load %[[P0]]
  // CHECK-NEXT: %[[S0:.*]] = nvvm.shfl.sync  bfly %{{.*}}, %[[X0]]
  // CHECK-NEXT: %[[Y0:.*]] = llvm.fadd %[[X0]], %[[S0]]
  // CHECK-NEXT: %[[T0:.*]] = nvvm.shfl.sync  bfly %{{.*}}, %[[Y0]]
  // CHECK-NEXT: llvm.fadd %[[Y0]], %[[T0]]
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITES]]
  // CHECK: llvm.add %[[TID]], %[[C128]]
  // CHECK: nvvm.shfl.sync  bfly
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITES]]
  // CHECK: llvm.add %[[TID]], %[[C256]]
  // CHECK: nvvm.shfl.sync  bfly
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITES]]
  // CHECK: llvm.add %[[TID]], %[[C384]]
  // CHECK: nvvm.shfl.sync  bfly
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITES]]
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: llvm.return
  tt.func public @column_sums_across_warps(%x: tensor<32x128xf32, #blocked>, %out: tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %out, %s : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

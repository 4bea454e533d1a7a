// Inline-asm constraint strings as upstream's test_core.py writes them, which
// the constraint check of fuzz finding 8 (tritium-fuzz-findings.mlir) refused
// in session 5: spaces after the commas (test_inline_asm: "=r,r, r, r") and an
// i8 result in a 32-bit register class (test_inline_asm_with_pointers:
// "=r,l,l"; LLVM truncates). A value wider than its class is still an error.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/spaces.mlir -o %t/spaces
// RUN: FileCheck %s --check-prefix=SPACES < %t/spaces/k.ptx
// RUN: tritium compile %t/byte-in-r.mlir -o %t/byte
// RUN: FileCheck %s --check-prefix=BYTE < %t/byte/k.ptx
// RUN: not tritium compile %t/wide-in-r.mlir -o %t/wide 2>&1 | FileCheck %s --check-prefix=WIDE

// SPACES: shf.l.wrap.b32
// BYTE: ld.global.b8
// BYTE: st.global.b8
// WIDE: wide-in-r.mlir:6:10: error: 'tt.elementwise_inline_asm': constraints "=r,r": output 0 is a 64-bit register, 'r' names 32-bit ones

//--- spaces.mlir
module {
  tt.func public @k(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    %x = tt.load %a : tensor<128x!tt.ptr<i32>>
    %y = tt.elementwise_inline_asm "shf.l.wrap.b32 $0, $1, $2, $3;" {constraints = "=r,r, r, r", packed_element = 1 : i32, pure = true} %x, %x, %r : tensor<128xi32>, tensor<128xi32>, tensor<128xi32> -> tensor<128xi32>
    tt.store %a, %y : tensor<128x!tt.ptr<i32>>
    tt.return
  }
}
//--- byte-in-r.mlir
module {
  tt.func public @k(%p: !tt.ptr<i8>, %q: !tt.ptr<i8>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<i8>>, tensor<128xi32>
    %t = tt.splat %q : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>>
    %b = tt.addptr %t, %r : tensor<128x!tt.ptr<i8>>, tensor<128xi32>
    %y = tt.elementwise_inline_asm "ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;" {constraints = "=r,l,l", packed_element = 1 : i32, pure = false} %a, %b : tensor<128x!tt.ptr<i8>>, tensor<128x!tt.ptr<i8>> -> tensor<128xi8>
    tt.return
  }
}
//--- wide-in-r.mlir
module {
  tt.func public @k(%p: !tt.ptr<i64>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<i64>>, tensor<128xi32>
    %y = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %r : tensor<128xi32> -> tensor<128xi64>
    tt.store %a, %y : tensor<128x!tt.ptr<i64>>
    tt.return
  }
}

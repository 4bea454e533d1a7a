// RUN: tt-opt %s --mlir-print-debuginfo --mlir-use-nameloc-as-prefix --enable-line-info='variables=true' --extract-variable-info | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo --extract-variable-info | FileCheck %s --check-prefix=ALONE
// An op whose location names a source variable is followed by
// llvm.intr.dbg.value of its first result (at the name's child location), a
// variable of the function's subprogram typed after the result (bool, int,
// float, vector; unknown_type for pointers and bf16, as upstream); ops without
// results or without a name get none. Without enable-line-info first the
// function gets a subprogram in a compile unit of full debug information.

// CHECK-DAG: #[[INT:di_basic_type[0-9]*]] = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
// CHECK-DAG: #[[BOOL:di_basic_type[0-9]*]] = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "bool", sizeInBits = 1, encoding = DW_ATE_boolean>
// CHECK-DAG: #[[UNKNOWN:di_basic_type[0-9]*]] = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "unknown_type", encoding = DW_ATE_signed>
// CHECK-DAG: #[[FLOAT:di_basic_type[0-9]*]] = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "float", sizeInBits = 32, encoding = DW_ATE_float>
// CHECK-DAG: #[[VECTOR:di_basic_type[0-9]*]] = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "vector", sizeInBits = 64, encoding = DW_ATE_float>
// CHECK-DAG: #[[UNKNOWN_FILE:di_file[0-9]*]] = #llvm.di_file<"<unknown>" in "">
// CHECK-DAG: #[[CU:di_compile_unit[0-9]*]] = #llvm.di_compile_unit<{{.*}}emissionKind = Full>
// CHECK-DAG: #[[SP:di_subprogram[0-9]*]] = #llvm.di_subprogram<{{.*}}compileUnit = #[[CU]]{{.*}}name = "add_kernel"
// CHECK-DAG: #[[PID:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "pid", file = #[[UNKNOWN_FILE]], type = #[[INT]]>
// CHECK-DAG: #[[START:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "block_start", file = #[[UNKNOWN_FILE]], type = #[[INT]]>
// CHECK-DAG: #[[MASK:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "mask", file = #[[UNKNOWN_FILE]], type = #[[BOOL]]>
// CHECK-DAG: #[[PTR:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "x_ptr", file = #[[UNKNOWN_FILE]], type = #[[UNKNOWN]]>
// CHECK-DAG: #[[X:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "x", file = #[[UNKNOWN_FILE]], type = #[[FLOAT]]>
// CHECK-DAG: #[[V:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "v", file = #[[UNKNOWN_FILE]], type = #[[VECTOR]]>
// CHECK-DAG: #[[H:di_local_variable[0-9]*]] = #llvm.di_local_variable<scope = #[[SP]], name = "h", file = #[[UNKNOWN_FILE]], type = #[[UNKNOWN]]>

module {
  // CHECK: llvm.func @add_kernel
  llvm.func @add_kernel(%arg0: !llvm.ptr<1>, %arg3: i32) {
    // CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32)
    // CHECK-NEXT: %pid = nvvm.read.ptx.sreg.ctaid.x
    // CHECK-NEXT: llvm.intr.dbg.value #[[PID]] = %pid : i32
    // CHECK-NEXT: %block_start = llvm.mul
    // CHECK-NEXT: llvm.intr.dbg.value #[[START]] = %block_start : i32
    // CHECK-NEXT: %mask = llvm.icmp
    // CHECK-NEXT: llvm.intr.dbg.value #[[MASK]] = %mask : i1
    // CHECK-NEXT: %x_ptr = llvm.getelementptr
    // CHECK-NEXT: llvm.intr.dbg.value #[[PTR]] = %x_ptr : !llvm.ptr<1>
    // CHECK-NEXT: %x = llvm.load
    // CHECK-NEXT: llvm.intr.dbg.value #[[X]] = %x : f32
    // CHECK-NEXT: %v = llvm.load
    // CHECK-NEXT: llvm.intr.dbg.value #[[V]] = %v : vector<4xf16>
    // CHECK-NEXT: %h = llvm.load
    // CHECK-NEXT: llvm.intr.dbg.value #[[H]] = %h : bf16
    // CHECK-NEXT: llvm.fadd
    // CHECK-NEXT: llvm.store
    // CHECK-NEXT: llvm.return
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32 loc(#pid)
    %block_start = llvm.mul %pid, %c3 : i32 loc(#block_start)
    %mask = llvm.icmp "slt" %block_start, %arg3 : i32 loc(#mask)
    %p = llvm.getelementptr %arg0[%block_start] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32 loc(#x_ptr)
    %x = llvm.load %p : !llvm.ptr<1> -> f32 loc(#x)
    %v = llvm.load %p : !llvm.ptr<1> -> vector<4xf16> loc(#v)
    %h = llvm.load %p : !llvm.ptr<1> -> bf16 loc(#h)
    %unnamed = llvm.fadd %x, %x : f32 loc(#line47)
    llvm.store %unnamed, %p : f32, !llvm.ptr<1> loc(#stored)
    llvm.return
  } loc(#kernel)
}
#kernel = loc("/src/01-vector-add.py":30:0)
#line39 = loc("/src/01-vector-add.py":39:10)
#line44 = loc("/src/01-vector-add.py":44:18)
#line47 = loc("/src/01-vector-add.py":47:11)
#pid = loc("pid"(#line39))
#block_start = loc("block_start"(#line44))
#mask = loc("mask"(#line47))
#x_ptr = loc("x_ptr"(#line47))
#x = loc("x"(#line47))
#v = loc("v"(#line47))
#h = loc("h"(#line47))
#stored = loc("stored"(#line47))
// ALONE: #llvm.di_compile_unit<{{.*}}emissionKind = Full>
// ALONE: llvm.intr.dbg.value

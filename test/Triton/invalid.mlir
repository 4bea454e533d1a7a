// RUN: tt-opt --split-input-file --verify-diagnostics %s

// Verifier and parser diagnostics of tt ops and types.

tt.func @load_mask_not_i1(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi32>) { // expected-note {{prior use here}}
  // expected-error @+1 {{expects different type than prior uses}}
  %0 = tt.load %p, %m : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_from_non_pointer(%x: tensor<128xf32>) {
  // expected-error @+1 {{'ptr' must be ptr or ranked tensor of ptr values}}
  %0 = tt.load %x : tensor<128xf32>
  tt.return
}

// -----

tt.func @load_other_wrong_type(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf16>) { // expected-note {{prior use here}}
  // expected-error @+1 {{expects different type than prior uses}}
  %0 = tt.load %p, %m, %o : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_mask_shape(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{failed to verify that mask type matches ptr type}}
  %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @store_value_wrong_type(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf16>) { // expected-note {{prior use here}}
  // expected-error @+1 {{expects different type than prior uses}}
  tt.store %p, %v : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @store_value_shape(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<64xf32>) {
  // expected-error @+1 {{failed to verify that value type matches ptr type}}
  "tt.store"(%p, %v) : (tensor<128x!tt.ptr<f32>>, tensor<64xf32>) -> ()
  tt.return
}

// -----

tt.func @addptr_float_offset(%p: !tt.ptr<f32>, %o: f32) {
  // expected-error @+1 {{operand #1 must be}}
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, f32
  tt.return
}

// -----

tt.func @addptr_shape_mismatch(%p: tensor<64x!tt.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = tt.addptr %p, %o : tensor<64x!tt.ptr<f32>>, tensor<32xi32>
  tt.return
}

// -----

tt.func @atomic_rmw_mask_type(%p: tensor<64x!tt.ptr<f32>>, %v: tensor<64xf32>, %m: tensor<64xi32>) {
  // expected-error @+1 {{operand #2 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v, %m : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<128xf32>) {
  // expected-error @+1 {{Cannot bitcast data-type of size}}
  %0 = tt.bitcast %x : tensor<128xf32> -> tensor<128xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_narrowing_without_rounding(%x: tensor<128xf32>) {
  // expected-error @+1 {{Rounding mode is required for FP downcast}}
  %0 = tt.fp_to_fp %x : tensor<128xf32> -> tensor<128xf16>
  tt.return
}

// -----

tt.func @unsplat_many_elements(%x: tensor<128xf32>) {
  // expected-error @+1 {{source tensor must have exactly one element}}
  %0 = tt.unsplat %x : tensor<128xf32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%x: tensor<32xf32>) {
  // expected-error @+1 {{result shape must be the source shape with a 1 inserted at axis 0}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<32xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a tensor of rank 1}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  tt.return
}

// -----

tt.func @broadcast_non_unit_dim(%x: tensor<2x32xf32>) {
  // expected-error @+1 {{Different dimensions at index 0 between source and result.  Broadcast requires the source dimension to be 1.}}
  %0 = tt.broadcast %x : tensor<2x32xf32> -> tensor<4x32xf32>
  tt.return
}

// -----

tt.func @reshape_element_count(%x: tensor<32x16xf32>) {
  // expected-error @+1 {{number of src and dst elements of reshape must be the same}}
  %0 = tt.reshape %x : tensor<32x16xf32> -> tensor<256xf32>
  tt.return
}

// -----

tt.func @join_result_shape(%x: tensor<32xf32>) {
  // expected-error @+1 {{result shape must be (}}
  %0 = tt.join %x, %x : tensor<32xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @split_last_dim(%x: tensor<32x4xf32>) {
  // expected-error @+2 {{last dimension of input tensor must be 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<32x4xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @cat_operand_types(%x: tensor<32xf32>, %y: tensor<32xf16>) {
  // expected-error @+1 {{requires all operands to have the same type}}
  %0 = "tt.cat"(%x, %y) : (tensor<32xf32>, tensor<32xf16>) -> tensor<64xf32>
  tt.return
}

// -----

tt.func @trans_not_a_permutation(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, 2)}}
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<16x32xf32> -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @trans_order_size(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{order has 3 entries for a rank-2 value}}
  %0 = tt.trans %x {order = array<i32: 2, 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @trans_result_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{result shape must be the source shape permuted by order}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

// The result rank is checked before the result shape is read.
tt.func @trans_result_rank(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{result must have the rank of the source}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<512xf32>
  tt.return
}

// -----

tt.func @make_range_size(%x: i32) {
  // expected-error @+1 {{number of elements in returned tensor, 32, must match size of range [0, 16), which has 16 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<32xi32>
  tt.return
}

// -----

tt.func @make_range_empty(%x: i32) {
  // expected-error @+1 {{start must be less than end (16 and 16)}}
  %0 = tt.make_range {end = 16 : i32, start = 16 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @make_range_rank(%x: i32) {
  // expected-error @+1 {{return type must be a 1D tensor}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  tt.return
}

// -----

tt.func @make_range_element_type(%x: i32) {
  // expected-error @+1 {{returned tensor must have i32 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func @dot_k_mismatch(%a: tensor<64x32xf16>, %b: tensor<16x128xf16>, %c: tensor<64x128xf32>) {
  // expected-error @+1 {{expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand (32 and 16)}}
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<16x128xf16> -> tensor<64x128xf32>
  tt.return
}

// -----

tt.func @dot_accumulator_shape(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{accumulator shape must be M x N of A and B}}
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @dot_operand_bit_widths(%a: tensor<64x32xf16>, %b: tensor<32x128xf32>, %c: tensor<64x128xf32>) {
  // expected-error @+1 {{element types of operands A and B must have same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x128xf32> -> tensor<64x128xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<64xf16>, %b: tensor<64xf16>, %c: tensor<64xf32>) {
  // expected-error @+1 {{requires operands of rank 2 (or 3 with a batch dimension)}}
  %0 = tt.dot %a, %b, %c : tensor<64xf16> * tensor<64xf16> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @reduce_combiner_arity(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{combiner must take 2 arguments, two per operand}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_combiner_argument_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{combiner argument #1 has type 'i32', expected 'f32'}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: i32):
    tt.reduce.return %a : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_combiner_return(%x: tensor<16x32xf32>, %y: tensor<16x32xi32>) {
  // expected-error @+1 {{combiner must return one value of each operand's element type}}
  %0:2 = "tt.reduce"(%x, %y) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tt.reduce.return %a : f32
  }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = "tt.reduce"(%x) <{axis = 2 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_result_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{result type 'tensor<32xf32>' must be the operand type without dimension 1}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16x32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @reduce_1d_result(%x: tensor<32xf32>) {
  // expected-error @+1 {{reducing a 1-D tensor gives a scalar of type 'f32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<32xf32>) -> tensor<1xf32>
  tt.return
}

// -----

tt.func @reduce_result_count(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) {
  // expected-error @+1 {{requires one result per operand}}
  %0 = "tt.reduce"(%x, %y) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @scan_combiner_return(%x: tensor<16x32xf32>, %c: i32) {
  // expected-error @+1 {{combiner must return one value of each operand's element type}}
  %0 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %c : i32
  }) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @map_elementwise_arguments(%x: tensor<16xf32>) {
  // expected-error @+1 {{region has wrong number of arguments: 1, expected 2}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_elementwise_pack(%x: tensor<16xf32>) {
  // expected-error @+1 {{pack must be at least 1}}
  %0 = "tt.map_elementwise"(%x) <{pack = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_elementwise_return(%x: tensor<16xf32>) {
  // expected-error @+3 {{region return does not match map_elementwise result}}
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<16xf32>) -> tensor<16xi32>
  tt.return
}

// -----

tt.func @inline_asm_packed_element(%x: tensor<128xi8>) {
  // expected-error @+1 {{packed_element must be at least 1}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : tensor<128xi8> -> tensor<128xi8>
  tt.return
}

// -----

tt.func @inline_asm_shapes(%x: tensor<128xi8>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xi8> -> tensor<64xi8>
  tt.return
}

// -----

tt.func @gather_ranks(%src: tensor<128xf32>, %idx: tensor<64x4xi32>) {
  // expected-error @+1 {{input and indices ranks must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128xf32>, tensor<64x4xi32>) -> tensor<64x4xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<128x4xf32>, %idx: tensor<64x4xi32>) {
  // expected-error @+1 {{gather dimension must be less than the input rank}}
  %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<128x4xf32>, tensor<64x4xi32>) -> tensor<64x4xf32>
  tt.return
}

// -----

tt.func @gather_indices_too_large(%src: tensor<128x4xf32>, %idx: tensor<64x8xi32>) {
  // expected-error @+1 {{indices dimension 1 must match the corresponding input dimension}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128x4xf32>, tensor<64x8xi32>) -> tensor<64x8xf32>
  tt.return
}

// -----

tt.func @descriptor_store_block(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %t: tensor<32x64xf16>) {
  // expected-error @+1 {{tensor descriptor block and tensor types must match}}
  tt.descriptor_store %d[%i, %i], %t : !tt.tensordesc<tensor<64x64xf16>>, tensor<32x64xf16>
  tt.return
}

// -----

tt.func @descriptor_reduce_element_type(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %t: tensor<64x64xbf16>) {
  // expected-error @+1 {{tensor descriptor block and tensor types must match: 'tensor<64x64xbf16>' and block 'tensor<64x64xf16>'}}
  tt.descriptor_reduce add, %d[%i, %i], %t : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xbf16>
  tt.return
}

// -----

tt.func @descriptor_gather_rows(%d: !tt.tensordesc<tensor<2x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{block must have exactly 1 row}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<2x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @descriptor_scatter_tile(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32, %t: tensor<16x128xbf16>) {
  // expected-error @+1 {{result tensor}}
  tt.descriptor_scatter %d[%x, %y], %t : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<16x128xbf16>
  tt.return
}

// -----

tt.func @return_type(%x: i32) -> f32 {
  // expected-error @+1 {{type of return operand 0 ('i32') doesn't match function result type ('f32') in function @return_type}}
  tt.return %x : i32
}

// -----

tt.func @return_count(%x: i32) -> (i32, i32) {
  // expected-error @+1 {{has 1 operands, but the enclosing function (return_count) returns 2}}
  tt.return %x : i32
}

// -----

tt.func @call_unknown(%x: i32) {
  // expected-error @+1 {{'nowhere' does not reference a valid function}}
  tt.call @nowhere(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func private @callee(i32) -> f32

tt.func @call_operand_type(%x: i64) {
  // expected-error @+1 {{operand #0 has type 'i64' but the callee takes 'i32'}}
  %0 = tt.call @callee(%x) : (i64) -> f32
  tt.return
}

// -----

tt.func @tensor_not_power_of_two(%x: f32) {
  // expected-error @+1 {{has a tensor of 48 elements; the number of elements must be a power of two}}
  %0 = tt.splat %x : f32 -> tensor<48xf32>
  tt.return
}

// -----

tt.func @tensor_too_large(%x: f32) {
  // expected-error @+1 {{has a tensor of 2097152 elements; at most 1048576 are allowed}}
  %0 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

tt.func @pointer_address_space(%p: !tt.ptr<f32, x>) { // expected-error {{expected integer value}}
  tt.return
}

// -----

tt.func @assert_condition_type(%c: tensor<32xi32>) {
  // expected-error @+1 {{operand #0 must be}}
  tt.assert %c, "must be i1" : tensor<32xi32>
  tt.return
}

// -----

tt.func @program_id_axis() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %0 = tt.get_program_id w : i32
  tt.return
}

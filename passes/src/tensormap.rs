//! Writing the 128-byte TMA descriptor (tensormap) of a device-side
//! `tt.make_tensor_descriptor` into global memory (upstream `createTMADesc`,
//! TMAUtilities.cpp). Two passes do it: triton-nvidia-tma-lowering, for a
//! descriptor of its own scratch slot, and the pipeliner, for descriptors
//! made in a pipelined loop, which rotate over several slots.
use crate::ir::{create, element_bits, int_attribute, tensor_parts};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, Operation, OperationRef, Type, Value, ValueLike,
};
use tritium_dialects::views::MakeTensorDescOp;
use tritium_dialects::{access::OpAccess, types};

/// The size and alignment of a tensormap in global memory, in bytes
/// (upstream `TMA_SIZE_BYTES` and `TMA_ALIGN`).
pub const TMA_SIZE_BYTES: i64 = 128;
pub const TMA_ALIGN: i64 = 128;

/// The TMA element-type code (device numbering) of an element type.
fn tma_element_type(element: Type) -> Option<i64> {
    let text = element.to_string();
    Some(match text.as_str() {
        "bf16" => 10,
        "f16" => 6,
        "f32" => 7,
        "f64" => 9,
        // Integers by size; 32- and 64-bit signed ones have their own codes.
        _ => match (element_bits(element), text.starts_with("si")) {
            (8, _) => 0,
            (16, _) => 1,
            (32, false) => 2,
            (32, true) => 3,
            (64, false) => 4,
            (64, true) => 5,
            _ => return None,
        },
    })
}

/// What the tensormap of a `tt.make_tensor_descriptor` holds besides its
/// operands: checked before anything is built.
pub struct Tensormap {
    /// The box (the block each copy moves), outermost dim first.
    boxed: Vec<i64>,
    swizzle: u32,
    element_type: i64,
    element_bytes: i64,
    fill_mode: i64,
}

impl Tensormap {
    /// The tensormap of `make`, or why it has none.
    pub fn of(make: &OperationRef) -> Result<Self, String> {
        let result = make.result_at(0).map_err(|_| "a descriptor without a result".to_string())?;
        let block = types::tensor_descriptor_block(result.r#type()).ok_or("a result that is no tensor descriptor")?;
        let Some((block_shape, element, Some(encoding))) = tensor_parts(block) else {
            return Err("a descriptor block without a shared layout".into());
        };
        let layout = tritium_dialects::layout::layout_of(encoding).map_err(|e| e.to_string())?;
        let (boxed, swizzle) = tritium_layout::kinds::tma_box(&block_shape, &layout).map_err(|e| e.to_string())?;
        let element_type =
            tma_element_type(element).ok_or_else(|| format!("no TMA element type for {element} elements"))?;
        let rank = block_shape.len();
        // (base, shape..., strides...)
        if rank == 0 || make.operand_count() != 1 + 2 * rank {
            return Err("a descriptor whose shape and strides do not match its block's rank".into());
        }
        // `padding` is tt's PaddingOption (1 zero, 2 NaN); the tensormap's
        // fill mode is 1 for NaN ("OOB NaN request fill"), else 0.
        const PAD_NAN: i64 = 2;
        let fill_mode = i64::from(int_attribute(make, "padding") == Some(PAD_NAN));
        let element_bytes = i64::from(element_bits(element)) / 8;
        Ok(Tensormap { boxed, swizzle, element_type, element_bytes, fill_mode })
    }

    /// Emits, through `insert`, the `ttng.tensormap_create` that writes this
    /// tensormap of `make` into the 128 bytes at `pointer` (a
    /// `!tt.ptr<i8>`), with the constants and byte strides it takes, in
    /// upstream's order. Fences and the descriptor value are the caller's.
    pub fn write<'c, 'a>(
        &self,
        make: &OperationRef<'c, 'a>,
        pointer: Value<'c, 'a>,
        insert: &mut dyn FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
    ) {
        let rank = self.boxed.len();
        let base = MakeTensorDescOp::of(*make).expect("a tt.make_tensor_descriptor").base();
        let shape: Vec<Value> = (0..rank).map(|i| make.operand_at(1 + i).unwrap()).collect();
        let strides: Vec<Value> = (0..rank).map(|i| make.operand_at(1 + rank + i).unwrap()).collect();
        let context_ref = make.context();
        let context = unsafe { context_ref.to_ref() };
        let location = make.location();
        let i32_type: Type = IntegerType::new(context, 32).into();
        let i64_type: Type = IntegerType::new(context, 64).into();
        let i32_attr = |v: i64| -> Attribute { IntegerAttribute::new(i32_type, v).into() };
        let constant = |value: i64, ty: Type<'c>, insert: &mut dyn FnMut(Operation<'c>) -> OperationRef<'c, 'a>| {
            let attribute = IntegerAttribute::new(ty, value).into();
            let op = insert(create("arith.constant", location, &[], &[ty], &[("value", attribute)]));
            Value::from(op.result(0).unwrap())
        };
        // Innermost dim first, as the tensormap takes them.
        let box_dims: Vec<Value> = (0..rank).rev().map(|d| constant(self.boxed[d], i32_type, insert)).collect();
        let element_bytes = constant(self.element_bytes, i64_type, insert);
        let global_dims: Vec<Value> = shape.iter().rev().copied().collect();
        // One constant 1 serves every dim's element stride.
        let one = constant(1, i32_type, insert);
        let element_strides = vec![one; rank];
        let mut global_strides = Vec::new();
        for d in (0..rank - 1).rev() {
            let bytes = create("arith.muli", location, &[strides[d], element_bytes], &[i64_type], &[]);
            global_strides.push(insert(bytes).result(0).unwrap().into());
        }
        let mut operands = vec![pointer, base];
        operands.extend(&box_dims);
        operands.extend(&global_dims);
        operands.extend(&global_strides);
        operands.extend(&element_strides);
        let segments =
            DenseI32ArrayAttribute::new(context, &[1, 1, rank as i32, rank as i32, rank as i32 - 1, rank as i32]);
        insert(create(
            "ttng.tensormap_create",
            location,
            &operands,
            &[],
            &[
                ("elem_type", i32_attr(self.element_type)),
                ("interleave_layout", i32_attr(0)),
                ("swizzle_mode", i32_attr(i64::from(self.swizzle))),
                ("fill_mode", i32_attr(self.fill_mode)),
                ("operandSegmentSizes", segments.into()),
            ],
        ));
    }
}

/// The `!tt.ptr<i8>` type of tensormap pointers.
pub fn i8_pointer<'c>(context: &'c melior::Context) -> Option<Type<'c>> {
    Type::parse(context, "!tt.ptr<i8>")
}

//! `tt.dot_scaled` before Blackwell (upstream `DecomposeScaledBlocked` and
//! `transposeDots`): a scaled dot becomes an ordinary `tt.dot` of 16-bit
//! operands, which `BlockedToMMA` then moves onto the tensor cores.
//!
//! Each operand is upcast to the compute type (bf16, or f16 when an operand
//! is f16): e2m1 with `ttg.fp4_to_fp` along K, fp8 with `tt.fp_to_fp`. Its
//! e8m0 scale (one byte per 32 elements of K) becomes the float `2^(s-127)`
//! by shifting the byte into the exponent field (of a bf16, or of an f32
//! truncated to f16), is broadcast over its 32 elements (expand_dims,
//! broadcast, trans, reshape) and multiplied in; a scale of 0xff (NaN) makes
//! the elements NaN unless `fastMath`. A dot with only B scaled is first
//! transposed (`(B^T A^T)^T`), so that the scaled operand is A, as upstream.
use crate::ir::{create, name_of, tensor_parts, tensor_type};
use melior::ir::{
    attribute::{DenseElementsAttribute, DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, Location, OperationRef, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    rewrite::{Pattern, Rewriter},
    target::{lookup_num_warps, ModuleConfig},
};
use tritium_layout::{default_blocked, infer, DotOperand, Layout, Slice};

/// `tt.dot_scaled`'s element types (upstream `ScaleDotElemType`).
const E2M1: i64 = 4;
const FP16: i64 = 6;

pub static DECOMPOSE_SCALED_BLOCKED: Pattern = Pattern { root: "tt.dot_scaled", benefit: 1, rewrite: decompose };

fn decompose(op: OperationRef, rewriter: &Rewriter) -> bool {
    match try_decompose(op, rewriter) {
        Ok(changed) => changed,
        Err(message) => {
            crate::pattern_driver::report_error(&op, message);
            false
        }
    }
}

struct Module {
    num_warps: u32,
    threads_per_warp: u32,
    num_ctas: u32,
}

/// The context of `location` as the `&Context` melior's constructors take
/// (one that does not dangle, unlike `ContextRef::to_ref` on a temporary).
use tritium_dialects::ir::context_of;

fn parse_type<'c>(location: Location<'c>, text: &str) -> Type<'c> {
    Type::parse(context_of(location), text).expect("a builtin type")
}

fn value_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    op.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

fn layout_of_value<'c>(value: Value<'c, '_>) -> Result<(Vec<i64>, Type<'c>, Layout), String> {
    let (shape, element, encoding) = tensor_parts(value.r#type()).ok_or("expected a tensor")?;
    let layout = layout_of(encoding.ok_or("expected a tensor with a layout")?).map_err(|e| e.to_string())?;
    Ok((shape, element, layout))
}

fn typed<'c>(location: Location<'c>, shape: &[i64], element: Type<'c>, layout: &Layout) -> Result<Type<'c>, String> {
    let attribute = attribute_of(layout, location).ok_or("invalid layout")?;
    Ok(tensor_type(shape, element, Some(attribute)))
}

/// Where new ops go: through the pattern driver's rewriter, or (outside
/// it) right before an op.
enum Insertion<'r, 'c, 'a> {
    Rewriter(&'r Rewriter),
    Before(OperationRef<'c, 'a>),
}

struct Builder<'r, 'c, 'a> {
    insertion: Insertion<'r, 'c, 'a>,
    location: Location<'c>,
    module: Module,
}

impl<'r, 'c, 'a> Builder<'r, 'c, 'a> {
    fn op(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Result<Value<'c, 'a>, String> {
        let operation = create(name, self.location, operands, &[result], attributes);
        let inserted: OperationRef<'c, 'a> = match &self.insertion {
            Insertion::Rewriter(rewriter) => rewriter.insert(operation),
            Insertion::Before(anchor) => {
                let block = anchor.block().ok_or("the op is not in a block")?;
                unsafe { OperationRef::from_raw(block.insert_operation_before(*anchor, operation).to_raw()) }
            }
        };
        value_of(inserted)
    }

    fn convert(&self, value: Value<'c, 'a>, layout: &Layout) -> Result<Value<'c, 'a>, String> {
        let (shape, element, _) = tensor_parts(value.r#type()).ok_or("expected a tensor")?;
        self.op("ttg.convert_layout", &[value], typed(self.location, &shape, element, layout)?, &[])
    }

    fn with_element(&self, name: &str, value: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
        let (shape, _, layout) = layout_of_value(value)?;
        self.op(name, &[value], typed(self.location, &shape, element, &layout)?, &[])
    }

    fn trans(&self, value: Value<'c, 'a>, order: &[usize]) -> Result<Value<'c, 'a>, String> {
        let (shape, element, layout) = layout_of_value(value)?;
        let result_layout = infer::transposed(&layout, &shape, order).map_err(|_| "cannot transpose the layout")?;
        let result_shape: Vec<i64> = order.iter().map(|&d| shape[d]).collect();
        let order: Vec<i32> = order.iter().map(|&d| d as i32).collect();
        let attribute = DenseI32ArrayAttribute::new(context_of(self.location), &order).into();
        self.op(
            "tt.trans",
            &[value],
            typed(self.location, &result_shape, element, &result_layout)?,
            &[("order", attribute)],
        )
    }

    /// `scale` (e8m0 bytes) as the floats 2^(s - 127) of `compute` (upstream `scaleTo16`).
    fn scale_to_16(&self, scale: Value<'c, 'a>, compute: &str) -> Result<Value<'c, 'a>, String> {
        let (shape, _, layout) = layout_of_value(scale)?;
        // bf16 holds every scale; for f16 the scale is made as an f32 first.
        let (large, bits, mantissa) = if compute == "f16" { ("f32", 32, 23) } else { ("bf16", 16, 7) };
        let int_type: Type = IntegerType::new(context_of(self.location), bits).into();
        let extended = self.op("arith.extui", &[scale], typed(self.location, &shape, int_type, &layout)?, &[])?;
        let shift_value = IntegerAttribute::new(int_type, mantissa).into();
        let shift = self.op("arith.constant", &[], int_type, &[("value", shift_value)])?;
        let shift = self.op("tt.splat", &[shift], typed(self.location, &shape, int_type, &layout)?, &[])?;
        let shifted = self.op("arith.shli", &[extended, shift], extended.r#type(), &[])?;
        let large_type = parse_type(self.location, large);
        let float = self.op("tt.bitcast", &[shifted], typed(self.location, &shape, large_type, &layout)?, &[])?;
        if large == compute {
            return Ok(float);
        }
        self.with_element("arith.truncf", float, parse_type(self.location, compute))
    }

    /// `scale` repeated over the 32 elements of `dim` it scales (upstream `broadcastScale`).
    fn broadcast_scale(&self, scale: Value<'c, 'a>, dim: usize) -> Result<Value<'c, 'a>, String> {
        let (shape, element, _) = layout_of_value(scale)?;
        let rank = shape.len();
        let mut expanded_shape = shape.clone();
        expanded_shape.push(1);
        let m = &self.module;
        let blocked =
            default_blocked(&expanded_shape, m.num_warps, m.threads_per_warp, m.num_ctas).map_err(|e| e.to_string())?;
        let slice = Layout::Slice(Slice { dim: rank as u32, parent: Box::new(Layout::Blocked(blocked.clone())) });
        let scale = self.convert(scale, &slice)?;
        let axis = IntegerAttribute::new(IntegerType::new(context_of(self.location), 32).into(), rank as i64).into();
        let expanded = self.op(
            "tt.expand_dims",
            &[scale],
            typed(self.location, &expanded_shape, element, &Layout::Blocked(blocked.clone()))?,
            &[("axis", axis)],
        )?;
        let mut broadcast_shape = shape.clone();
        broadcast_shape.push(32);
        let broadcast = self.op(
            "tt.broadcast",
            &[expanded],
            typed(self.location, &broadcast_shape, element, &Layout::Blocked(blocked))?,
            &[],
        )?;
        let mut order: Vec<usize> = (0..rank).collect();
        order.insert(dim + 1, rank);
        let transposed = self.trans(broadcast, &order)?;
        let (transposed_shape, _, transposed_layout) = layout_of_value(transposed)?;
        let mut reshaped_shape = shape.clone();
        reshaped_shape[dim] *= 32;
        let reshaped_layout = infer::reshaped(&transposed_shape, &transposed_layout, &reshaped_shape)
            .map_err(|_| "cannot reshape the scale's layout")?;
        self.op("tt.reshape", &[transposed], typed(self.location, &reshaped_shape, element, &reshaped_layout)?, &[])
    }
}

fn try_decompose(op: OperationRef, rewriter: &Rewriter) -> Result<bool, String> {
    let result = value_of(op)?;
    let (_, _, result_layout) = layout_of_value(result)?;
    if matches!(result_layout, Layout::NvidiaMma(_)) {
        return Ok(false);
    }
    let int = |name: &str| crate::ir::int_attribute(&op, name);
    let (a_kind, b_kind) = (int("a_elem_type").ok_or("no a_elem_type")?, int("b_elem_type").ok_or("no b_elem_type")?);
    let fast_math = op.attribute("fastMath").ok().is_some_and(|a| a.to_string() == "true");
    let compute = if a_kind == FP16 || b_kind == FP16 { "f16" } else { "bf16" };
    let config = ModuleConfig::of_enclosing(&op).map_err(|e| e.0)?;
    let module = Module {
        num_warps: lookup_num_warps(&op).map_err(|e| e.0)?.ok_or("no ttg.num-warps")?,
        threads_per_warp: config.threads_per_warp,
        num_ctas: config.num_ctas,
    };
    let (a, b, c, a_scale, b_scale) = operands(op)?;
    rewriter.set_insertion_point_before(&op);
    let builder = Builder { insertion: Insertion::Rewriter(rewriter), location: op.location(), module };
    let scaled_a = scale_operand(&builder, a, a_scale, 0, a_kind == E2M1, compute, fast_math)?;
    let scaled_a = builder.convert(scaled_a, &Layout::DotOperand(DotOperand::new(0, result_layout.clone(), 0)))?;
    let scaled_b = scale_operand(&builder, b, b_scale, 1, b_kind == E2M1, compute, fast_math)?;
    let scaled_b = builder.convert(scaled_b, &Layout::DotOperand(DotOperand::new(1, result_layout.clone(), 0)))?;
    let dot = builder.op("tt.dot", &[scaled_a, scaled_b, c], c.r#type(), &[])?;
    let back = create("ttg.convert_layout", op.location(), &[dot], &[result.r#type()], &[]);
    rewriter.replace_op_with_new(&op, back);
    Ok(true)
}

type Operands<'c, 'a> = (Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, Option<Value<'c, 'a>>, Option<Value<'c, 'a>>);

/// a, b, c and the optional scales (the op's operand segments).
fn operands<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Operands<'c, 'a>, String> {
    let attribute = op.attribute("operandSegmentSizes").map_err(|_| "no operandSegmentSizes")?;
    let segments: Vec<i32> =
        tritium_dialects::ir::dense_i32s(attribute).ok_or("operandSegmentSizes is not an array<i32>")?;
    let operand = |i: usize| op.operand_at(i).map_err(|e| e.to_string());
    let (a, b, c) = (operand(0)?, operand(1)?, operand(2)?);
    let a_scale = if segments.get(3) == Some(&1) { Some(operand(3)?) } else { None };
    let b_scale = if segments.get(4) == Some(&1) { Some(operand(3 + a_scale.is_some() as usize)?) } else { None };
    Ok((a, b, c, a_scale, b_scale))
}

/// Upstream `scaleArg` + `extendAndBroadcastScale` + `maskNan`.
fn scale_operand<'c, 'a>(
    builder: &Builder<'_, 'c, 'a>,
    value: Value<'c, 'a>,
    scale: Option<Value<'c, 'a>>,
    op_idx: usize,
    is_fp4: bool,
    compute: &str,
    fast_math: bool,
) -> Result<Value<'c, 'a>, String> {
    let location = builder.location;
    let compute_type = parse_type(location, compute);
    let (shape, _, layout) = layout_of_value(value)?;
    let rank = shape.len();
    let k_dim = if op_idx == 0 { rank - 1 } else { rank - 2 };
    let upcast = if is_fp4 {
        // Upstream's builder infers the layout from the result's shape.
        let mut result_shape = shape.clone();
        result_shape[k_dim] *= 2;
        let result_layout = infer::fp4_unpacked_result(&layout, &result_shape, k_dim)
            .map_err(|_| "cannot unpack fp4 in this layout")?;
        let axis = IntegerAttribute::new(IntegerType::new(context_of(location), 32).into(), k_dim as i64).into();
        builder.op(
            "ttg.fp4_to_fp",
            &[value],
            typed(location, &result_shape, compute_type, &result_layout)?,
            &[("axis", axis)],
        )?
    } else {
        builder.with_element("tt.fp_to_fp", value, compute_type)?
    };
    let Some(mut scale) = scale else { return Ok(upcast) };
    if op_idx == 1 {
        // B's scale comes as [N, K/32]: transpose it to B's [K/32, N].
        let mut order: Vec<usize> = (0..rank - 2).collect();
        order.extend([rank - 1, rank - 2]);
        scale = builder.trans(scale, &order)?;
    }
    let scale16 = builder.scale_to_16(scale, compute)?;
    let broadcast = builder.broadcast_scale(scale16, k_dim)?;
    let (upcast_shape, _, upcast_layout) = layout_of_value(upcast)?;
    let broadcast = builder.convert(broadcast, &upcast_layout)?;
    let scaled = builder.op("arith.mulf", &[upcast, broadcast], upcast.r#type(), &[])?;
    if fast_math {
        return Ok(scaled);
    }
    // Where the scale is 0xff (NaN), the elements are NaN.
    let (scale_shape, scale_element, scale_layout) = layout_of_value(scale)?;
    let scale_type = typed(location, &scale_shape, scale_element, &scale_layout)?;
    let all_ones = dense_splat(scale_type, IntegerAttribute::new(scale_element, -1).into());
    let ff = builder.op("arith.constant", &[], scale_type, &[("value", all_ones)])?;
    let i1: Type = IntegerType::new(context_of(location), 1).into();
    let predicate = IntegerAttribute::new(IntegerType::new(context_of(location), 64).into(), 0).into();
    let is_nan = builder.op(
        "arith.cmpi",
        &[scale, ff],
        typed(location, &scale_shape, i1, &scale_layout)?,
        &[("predicate", predicate)],
    )?;
    let condition = builder.broadcast_scale(is_nan, k_dim)?;
    let condition = builder.convert(condition, &upcast_layout)?;
    let nan = dense_splat(upcast.r#type(), FloatAttribute::new(context_of(location), compute_type, f64::NAN).into());
    let nan = builder.op("arith.constant", &[], upcast.r#type(), &[("value", nan)])?;
    let _ = upcast_shape;
    builder.op("arith.select", &[condition, nan, scaled], upcast.r#type(), &[])
}

fn dense_splat<'c>(ty: Type<'c>, element: Attribute<'c>) -> Attribute<'c> {
    DenseElementsAttribute::new(ty, &[element]).expect("a splat of the element type").into()
}

/// Upstream `transposeDots`: a dot scaling only B becomes the transpose of
/// the dot of the transposes, which scales A.
pub fn transpose_dots(module: OperationRef) -> Result<(), String> {
    let dots: Vec<OperationRef> = crate::ir::collect_ops(module, crate::ir::Order::Pre)
        .into_iter()
        .filter(|op| name_of(op) == "tt.dot_scaled")
        .collect();
    for op in dots {
        let (a, b, c, a_scale, b_scale) = operands(op)?;
        let (Some(b_scale), None) = (b_scale, a_scale) else { continue };
        let module = Module { num_warps: 0, threads_per_warp: 0, num_ctas: 0 };
        let builder = Builder { insertion: Insertion::Before(op), location: op.location(), module };
        let (a_t, b_t, c_t) = (builder.trans(a, &[1, 0])?, builder.trans(b, &[1, 0])?, builder.trans(c, &[1, 0])?);
        let attributes: Vec<(&str, Attribute)> = ["a_elem_type", "b_elem_type", "fastMath"]
            .iter()
            .filter_map(|name| op.attribute(name).ok().map(|a| (*name, a)))
            .collect();
        let swapped = [("a_elem_type", attributes[1].1), ("b_elem_type", attributes[0].1), attributes[2]];
        let segments = DenseI32ArrayAttribute::new(context_of(op.location()), &[1, 1, 1, 1, 0]).into();
        let mut all: Vec<(&str, Attribute)> = swapped.to_vec();
        all.push(("operandSegmentSizes", segments));
        let dot = builder.op("tt.dot_scaled", &[b_t, a_t, c_t, b_scale], c_t.r#type(), &all)?;
        let result = builder.trans(dot, &[1, 0])?;
        crate::ir::replace_all_uses(value_of(op)?, result);
        crate::ir::erase(op);
    }
    Ok(())
}

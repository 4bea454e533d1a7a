//! Splitting a register-operand wgmma along K (upstream `splitRSDot`): a
//! `warp_group_dot` whose A is in registers becomes one wgmma per K slice of
//! the instruction's size, chained through the accumulator, so that the
//! first slices run while the registers of the next are still being
//! produced. A is cut with `tt.reshape`, `tt.trans` and `tt.split` (whose
//! layouts are inferred as upstream's `DialectInferLayoutInterface` does
//! for non-blocked layouts: linear layouts), B with `ttg.memdesc_subslice`.
use super::builder::Builder;
use crate::ir::{erase, fail, int_attribute, replace_all_uses, tensor_parts, tensor_type};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    Attribute, OperationRef, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::WarpGroupDotOp;
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::PassFailed,
    types::MemDesc,
};
use tritium_layout::{
    standard_out_dims,
    utils::{reshape_layout, transpose_linear_layout},
    Dim, Layout, LinearLayout,
};

/// The wgmmas `dot` becomes (itself when it is not split).
pub fn split_rs_dot<'c, 'a>(dot: OperationRef<'c, 'a>) -> Result<Vec<OperationRef<'c, 'a>>, PassFailed> {
    let wgmma = WarpGroupDotOp::of(dot).ok_or_else(|| fail(&dot, "is no ttng.warp_group_dot"))?;
    let (a, b, c) = (wgmma.a(), wgmma.b(), wgmma.c());
    let Some((a_shape, _, _)) = tensor_parts(a.r#type()) else { return Ok(vec![dot]) };
    let original_k = *a_shape.last().unwrap();
    let result_type = dot.result_at(0).unwrap().r#type();
    let new_k = match tensor_parts(result_type).and_then(|(_, _, l)| l).and_then(|l| layout_of(l).ok()) {
        Some(Layout::NvidiaMma(mma)) => mma.instr_shape.get(2).map(|k| i64::from(*k)),
        _ => None,
    }
    .ok_or_else(|| fail(&dot, "a wgmma without an MMA v3 result layout"))?;
    let splits = original_k / new_k;
    if splits <= 1 {
        return Ok(vec![dot]);
    }
    let mut builder = Builder::before(dot);
    let lhs = split_lhs(&mut builder, &dot, a, new_k)?;
    let rhs = split_rhs(&mut builder, b, new_k)?;
    let mut use_c: Option<Value> = wgmma.use_c();
    let mut accumulator = c;
    let mut imprecise_left = int_attribute(&dot, "maxNumImpreciseAcc").unwrap_or(0);
    let i32_type = builder.integer_type(32);
    let mut dots = Vec::new();
    for (i, (l, r)) in lhs.into_iter().zip(rhs).enumerate() {
        if i > 0 {
            // The later slices add to what the first ones computed.
            let i1 = builder.integer_type(1);
            use_c = Some(builder.constant(1, i1));
        }
        // 2^30 keeps a slice from adding imprecise accumulations of its own.
        let take = imprecise_left.min(new_k);
        let imprecise = if take == new_k { 1 << 30 } else { take };
        imprecise_left -= take;
        let operands: Vec<Value> = [l, r, accumulator].into_iter().chain(use_c).collect();
        let mut attributes: Vec<(&str, Attribute)> = Vec::new();
        if let Ok(precision) = dot.attribute("inputPrecision") {
            attributes.push(("inputPrecision", precision));
        }
        attributes.push(("maxNumImpreciseAcc", IntegerAttribute::new(i32_type, imprecise).into()));
        if let Ok(is_async) = dot.attribute("isAsync") {
            attributes.push(("isAsync", is_async));
        }
        let new_dot = builder.create("ttng.warp_group_dot", &operands, &[result_type], &attributes);
        accumulator = new_dot.result_at(0).unwrap().into();
        dots.push(new_dot);
    }
    replace_all_uses(dot.result_at(0).unwrap().into(), accumulator);
    erase(dot);
    Ok(dots)
}

/// Upstream `splitLhs`: A (M x K) as `K / new_k` tensors of M x new_k in
/// A's layout.
fn split_lhs<'c, 'a>(
    builder: &mut Builder<'c, 'a>,
    dot: &OperationRef<'c, 'a>,
    lhs: Value<'c, 'a>,
    new_k: i64,
) -> Result<Vec<Value<'c, 'a>>, PassFailed> {
    let (shape, element, encoding) = tensor_parts(lhs.r#type()).unwrap();
    let encoding = encoding.ok_or_else(|| fail(dot, "a register operand without layout"))?;
    let layout = layout_of(encoding).map_err(|e| fail(dot, e.to_string()))?;
    let rank = shape.len();
    let splits = shape[rank - 1] / new_k;
    // K as 2 x .. x 2 x new_k.
    let mut reshaped_shape: Vec<i64> = shape[..rank - 1].to_vec();
    let mut n = 1;
    while n < splits {
        reshaped_shape.push(2);
        n *= 2;
    }
    reshaped_shape.push(new_k);
    let linear = |layout: &Layout, shape: &[i64]| layout.to_linear(shape).map_err(|e| fail(dot, e.to_string()));
    let as_u32 = |shape: &[i64]| shape.iter().map(|&d| d as u32).collect::<Vec<u32>>();
    let reshaped =
        reshape_layout(&linear(&layout, &shape)?, &as_u32(&reshaped_shape)).map_err(|e| fail(dot, e.to_string()))?;
    let mut value = builder.value(
        "tt.reshape",
        &[lhs],
        typed(dot, &reshaped_shape, element, &Layout::Linear(reshaped.clone()))?,
        &[],
    );
    // Split the slowest of the K dims first.
    let last = reshaped_shape.len() - 1;
    let mut order: Vec<usize> = (0..rank - 1).collect();
    order.push(last);
    order.extend((rank - 1..last).rev());
    let transposed = transpose_linear_layout(&reshaped, &order).map_err(|e| fail(dot, e.to_string()))?;
    let transposed_shape: Vec<i64> = order.iter().map(|&d| reshaped_shape[d]).collect();
    let order_attribute: Vec<i32> = order.iter().map(|&d| d as i32).collect();
    let context_ref = dot.context();
    let context = unsafe { context_ref.to_ref() };
    value = builder.value(
        "tt.trans",
        &[value],
        typed(dot, &transposed_shape, element, &Layout::Linear(transposed.clone()))?,
        &[("order", DenseI32ArrayAttribute::new(context, &order_attribute).into())],
    );
    let mut pieces = vec![(value, transposed, transposed_shape)];
    let mut n = 1;
    while n < splits {
        let mut next = Vec::new();
        for (piece, layout, shape) in pieces {
            let half_shape = shape[..shape.len() - 1].to_vec();
            let half = split_half(&layout, &shape).ok_or_else(|| fail(dot, "cannot split the operand's layout"))?;
            let half_type = typed(dot, &half_shape, element, &Layout::Linear(half.clone()))?;
            let split = builder.create("tt.split", &[piece], &[half_type, half_type], &[]);
            for index in 0..2 {
                next.push((split.result_at(index).unwrap().into(), half.clone(), half_shape.clone()));
            }
        }
        pieces = next;
        n *= 2;
    }
    // Back to A's layout, which by construction moves no data.
    let mut sliced_shape = shape.clone();
    sliced_shape[rank - 1] = new_k;
    let sliced_type = tensor_type(&sliced_shape, element, Some(encoding));
    Ok(pieces
        .into_iter()
        .map(|(piece, _, _)| builder.value("ttg.convert_layout", &[piece], sliced_type, &[]))
        .collect())
}

/// A tensor type with a layout.
fn typed<'c>(
    op: &OperationRef<'c, '_>,
    shape: &[i64],
    element: Type<'c>,
    layout: &Layout,
) -> Result<Type<'c>, PassFailed> {
    let attribute = attribute_of(layout, op.location()).ok_or(PassFailed)?;
    Ok(tensor_type(shape, element, Some(attribute)))
}

/// The layout of each half of `tt.split` of a tensor of `shape` whose last
/// dim (of size 2) is held in registers (upstream `inferSplitOpEncoding` for
/// linear layouts): the register basis along that dim goes, and the dim.
fn split_half(layout: &LinearLayout, shape: &[i64]) -> Option<LinearLayout> {
    let axis = shape.len().checked_sub(1)?;
    let halves = tritium_layout::infer::joined_on_axis(layout, false, axis).ok()?;
    let half_shape: Vec<(Dim, u32)> =
        standard_out_dims(axis).into_iter().zip(shape[..axis].iter().map(|&d| d as u32)).collect();
    halves.reshape_outs(&half_shape).ok()
}

/// Upstream `splitRhs`: B (K x N) as `K / new_k` read-only views of
/// new_k x N.
fn split_rhs<'c, 'a>(
    builder: &mut Builder<'c, 'a>,
    rhs: Value<'c, 'a>,
    new_k: i64,
) -> Result<Vec<Value<'c, 'a>>, PassFailed> {
    let memdesc = MemDesc::of(rhs.r#type()).ok_or(PassFailed)?;
    let rank = memdesc.shape.len();
    let k_dim = rank - 2;
    let splits = memdesc.shape[k_dim] / new_k;
    let mut shape = memdesc.shape.clone();
    shape[k_dim] = new_k;
    let view = MemDesc { shape, mutable: false, ..memdesc };
    let ty = view.to_type(builder.location).ok_or(PassFailed)?;
    let context_ref = builder.location.context();
    let context = unsafe { context_ref.to_ref() };
    let mut views = Vec::new();
    for i in 0..splits {
        let mut offsets = vec![0i32; rank];
        offsets[k_dim] = (i * new_k) as i32;
        let offsets = DenseI32ArrayAttribute::new(context, &offsets).into();
        views.push(builder.value("ttg.memdesc_subslice", &[rhs], ty, &[("offsets", offsets)]));
    }
    Ok(views)
}

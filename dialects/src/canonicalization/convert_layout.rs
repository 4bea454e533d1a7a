//! Folding `ttg.convert_layout` into its producers and consumers (upstream's
//! ConvertLayoutOp canonicalization patterns): a conversion is removed when
//! the op on the other side can produce or take the other layout directly.
use crate::access::{ranked_tensor, OpAccess};
use crate::{
    layout::layout_of,
    rewrite::{Pattern, Rewriter},
    types::static_shape,
};
use melior::ir::{
    attribute::Attribute,
    operation::{OperationBuilder, OperationLike},
    r#type::{RankedTensorType, ShapedTypeLike},
    AttributeLike, Identifier, OperationRef, Type, TypeLike, Value, ValueLike,
};
use tritium_layout::Layout;

pub static PATTERNS: &[Pattern] = &[
    Pattern { root: "ttg.convert_layout", benefit: 1, rewrite: convert_from_producer },
    Pattern { root: "tt.reshape", benefit: 1, rewrite: reshape_of_convert },
    Pattern { root: "tt.trans", benefit: 1, rewrite: trans_of_convert },
    Pattern { root: "tt.gather", benefit: 1, rewrite: gather_of_convert },
    Pattern { root: "tt.histogram", benefit: 1, rewrite: histogram_of_convert },
    Pattern { root: "ttg.local_alloc", benefit: 1, rewrite: alloc_of_convert },
    Pattern { root: "ttg.local_store", benefit: 1, rewrite: local_store_of_convert },
];

/// The name of an op, and the op defining a value, if any.
use crate::ir::{defining_op as producer, name_of as name};

/// The `ttg.convert_layout` defining operand `index` of `op`.
fn convert_operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<OperationRef<'c, 'a>> {
    producer(op.operand_at(index).ok()?).filter(|p| name(p) == "ttg.convert_layout")
}

fn encoding(ty: Type) -> Option<Attribute> {
    ranked_tensor(ty).ok()?.encoding()
}

fn layout(ty: Type) -> Option<Layout> {
    layout_of(encoding(ty)?).ok()
}

/// Two layouts of a tensor type are the same map from hardware to elements.
fn layouts_equal(shape: &[i64], a: &Layout, b: &Layout) -> bool {
    matches!((a.to_linear(shape), b.to_linear(shape)), (Ok(x), Ok(y)) if x == y)
}

/// A convert between layouts that are equal as linear layouts moves no data.
fn is_trivial_convert(convert: &OperationRef) -> bool {
    let (Ok(src), Ok(dst)) = (convert.operand_at(0), convert.result_at(0)) else { return false };
    match (layout(src.r#type()), layout(dst.r#type()), static_shape(src.r#type())) {
        (Some(a), Some(b), Some(shape)) => layouts_equal(&shape, &a, &b),
        _ => false,
    }
}

/// A reshape between these types moves data across threads: the replicated
/// elements differ, or each thread holds a different number of them.
fn is_expensive_view(src: Type, dst: Type) -> bool {
    let (Some(src_layout), Some(dst_layout), Some(src_shape), Some(dst_shape)) =
        (layout(src), layout(dst), static_shape(src), static_shape(dst))
    else {
        return true;
    };
    let (Ok(src_linear), Ok(dst_linear)) = (src_layout.to_linear(&src_shape), dst_layout.to_linear(&dst_shape)) else {
        return true;
    };
    if src_linear.free_variable_masks() != dst_linear.free_variable_masks() {
        return true;
    }
    src_layout.total_elems_per_thread(&src_shape).ok() != dst_layout.total_elems_per_thread(&dst_shape).ok()
}

fn is_dot_operand(ty: Type) -> bool {
    matches!(layout(ty), Some(Layout::DotOperand(_)))
}

fn build<'c>(
    kind: &str,
    like: &OperationRef<'c, '_>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(&str, Attribute<'c>)],
) -> melior::ir::Operation<'c> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = like.context();
    let context = unsafe { context_ref.to_ref() };
    let attributes: Vec<(Identifier, Attribute)> =
        attributes.iter().map(|(k, v)| (Identifier::new(context, k), *v)).collect();
    OperationBuilder::new(kind, like.location())
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .build()
        .expect("a registered op with valid parts")
}

/// The attribute `key` of `op`, if set, as a (key, value) pair to copy.
fn keep<'c>(op: &OperationRef<'c, '_>, key: &'static str) -> Option<(&'static str, Attribute<'c>)> {
    op.attribute(key).ok().map(|a| (key, a))
}

/// convert_layout(x) when its producer can make the new layout itself.
fn convert_from_producer(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(src), Ok(result)) = (op.operand_at(0), op.result_at(0)) else { return false };
    let (src_type, dst_type) = (src.r#type(), result.r#type());
    if src_type == dst_type {
        rewriter.replace_op_with_values(&op, &[src]);
        return true;
    }
    // Conversions from an mma accumulator to a dot operand stay: fused
    // attention relies on seeing them.
    if is_dot_operand(dst_type) && matches!(layout(src_type), Some(Layout::NvidiaMma(_))) {
        return false;
    }
    let Some(arg) = producer(src) else { return false };
    match name(&arg).as_str() {
        "tt.reshape" => {
            if arg.has_attribute("efficient_layout")
                || !arg.has_attribute("allow_reorder")
                || is_expensive_view(arg.operand_at(0).unwrap().r#type(), dst_type)
                || is_dot_operand(src_type)
                || is_dot_operand(dst_type)
            {
                return false;
            }
            // As upstream: the new reshape takes the old one's result.
            let attrs: Vec<_> = keep(&arg, "allow_reorder").into_iter().collect();
            rewriter.replace_op_with_new(&op, build("tt.reshape", &op, &[src], &[dst_type], &attrs));
            true
        }
        "tt.histogram" => {
            let operands: Vec<Value> = arg.operands().collect();
            rewriter.replace_op_with_new(&op, build("tt.histogram", &op, &operands, &[dst_type], &[]));
            true
        }
        "ttg.local_load" => {
            // Loads from shared memory produce any layout. The new load goes
            // where the old one was: memory may change between it and `op`.
            let operands: Vec<Value> = arg.operands().collect();
            rewriter.set_insertion_point_before(&arg);
            let load = rewriter.insert(build("ttg.local_load", &op, &operands, &[dst_type], &[]));
            rewriter.replace_op_with_op(&op, &load);
            true
        }
        "tt.cat" => {
            let (Some(target), Some(shape)) = (layout(dst_type), static_shape(dst_type)) else { return false };
            let Some(current) = layout(src_type) else { return false };
            match (target.total_elems_per_thread(&shape), current.total_elems_per_thread(&shape)) {
                (Ok(new), Ok(old)) if new >= old => {
                    let operands: Vec<Value> = arg.operands().collect();
                    rewriter.replace_op_with_new(&op, build("tt.cat", &op, &operands, &[dst_type], &[]));
                    true
                }
                _ => false,
            }
        }
        "ttg.convert_layout" => {
            let inner = arg.operand_at(0).unwrap();
            rewriter.replace_op_with_new(&op, build("ttg.convert_layout", &op, &[inner], &[dst_type], &[]));
            true
        }
        "tt.splat" => {
            let value = arg.operand_at(0).unwrap();
            rewriter.replace_op_with_new(&op, build("tt.splat", &op, &[value], &[dst_type], &[]));
            true
        }
        "tt.make_range" => {
            let attrs: Vec<_> = [keep(&arg, "start"), keep(&arg, "end")].into_iter().flatten().collect();
            rewriter.replace_op_with_new(&op, build("tt.make_range", &op, &[], &[dst_type], &attrs));
            true
        }
        "arith.constant" => {
            let Some(splat) = arg.attribute("value").ok().and_then(splat_element) else { return false };
            let value = unsafe {
                Attribute::from_raw(mlir_sys::mlirDenseElementsAttrSplatGet(dst_type.to_raw(), splat.to_raw()))
            };
            rewriter.replace_op_with_new(&op, build("arith.constant", &op, &[], &[dst_type], &[("value", value)]));
            true
        }
        _ => false,
    }
}

/// The element of a splat dense elements attribute.
use crate::ir::splat_value as splat_element;

/// reshape(convert(x)) -> reshape(x) when the convert is trivial, or the
/// reshape may reorder elements and is cheap from x's layout.
fn reshape_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(convert) = convert_operand(&op, 0) else { return false };
    let source = convert.operand_at(0).unwrap();
    let result_type = op.result_at(0).unwrap().r#type();
    let cheap = op.has_attribute("allow_reorder") && !is_expensive_view(source.r#type(), result_type);
    if !is_trivial_convert(&convert) && !cheap {
        return false;
    }
    let attrs: Vec<_> = [keep(&op, "allow_reorder"), keep(&op, "efficient_layout")].into_iter().flatten().collect();
    rewriter.replace_op_with_new(&op, build("tt.reshape", &op, &[source], &[result_type], &attrs));
    true
}

/// trans with the identity order is a (foldable) convert; trans(convert(x))
/// -> trans(x) when the convert is trivial.
fn trans_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    let result_type = op.result_at(0).unwrap().r#type();
    let order = op.attribute("order").ok().map(|a| a.to_string()).unwrap_or_default();
    let is_identity = order
        .trim_start_matches("array<i32")
        .trim_start_matches(':')
        .trim_end_matches('>')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
        .all(|(i, d)| d == i.to_string());
    if is_identity {
        let source = op.operand_at(0).unwrap();
        rewriter.replace_op_with_new(&op, build("ttg.convert_layout", &op, &[source], &[result_type], &[]));
        return true;
    }
    let Some(convert) = convert_operand(&op, 0).filter(is_trivial_convert) else { return false };
    let source = convert.operand_at(0).unwrap();
    let attrs: Vec<_> = keep(&op, "order").into_iter().collect();
    rewriter.replace_op_with_new(&op, build("tt.trans", &op, &[source], &[result_type], &attrs));
    true
}

/// gather(convert(src), idx) -> gather(src, idx) unless the gather's layout
/// was chosen on purpose: it goes through shared memory anyway.
fn gather_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    if op.has_attribute("efficient_layout") {
        return false;
    }
    let Some(convert) = convert_operand(&op, 0) else { return false };
    let (source, indices) = (convert.operand_at(0).unwrap(), op.operand_at(1).unwrap());
    let result_type = op.result_at(0).unwrap().r#type();
    let attrs: Vec<_> = keep(&op, "axis").into_iter().collect();
    rewriter.replace_op_with_new(&op, build("tt.gather", &op, &[source, indices], &[result_type], &attrs));
    true
}

/// histogram(convert(x)) -> histogram(x): input and output layouts are
/// independent. A mask follows the source to its layout.
fn histogram_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(convert) = convert_operand(&op, 0) else { return false };
    let source = convert.operand_at(0).unwrap();
    let result_type = op.result_at(0).unwrap().r#type();
    let mut operands = vec![source];
    if let Ok(mask) = op.operand_at(1) {
        let Some((shape, _, encoding)) = tensor_parts(source.r#type()) else { return false };
        // `to_ref` borrows the ContextRef: keep it alive in a local.
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let i1 = melior::ir::r#type::IntegerType::new(context, 1).into();
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        let mask_type: Type = RankedTensorType::new(&dims, i1, encoding).into();
        rewriter.set_insertion_point_before(&op);
        let converted = rewriter.insert(build("ttg.convert_layout", &op, &[mask], &[mask_type], &[]));
        operands.push(converted.result_at(0).unwrap().into());
    }
    rewriter.replace_op_with_new(&op, build("tt.histogram", &op, &operands, &[result_type], &[]));
    true
}

fn tensor_parts(ty: Type) -> Option<(Vec<i64>, Type, Option<Attribute>)> {
    let tensor = ranked_tensor(ty).ok()?;
    Some((static_shape(ty)?, tensor.element(), tensor.encoding()))
}

/// local_alloc(convert(x)) -> local_alloc(x): shared memory takes any layout.
fn alloc_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(convert) = convert_operand(&op, 0) else { return false };
    let source = convert.operand_at(0).unwrap();
    let result_type = op.result_at(0).unwrap().r#type();
    rewriter.replace_op_with_new(&op, build("ttg.local_alloc", &op, &[source], &[result_type], &[]));
    true
}

/// local_store(convert(x), dst) -> local_store(x, dst).
fn local_store_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(convert) = convert_operand(&op, 0) else { return false };
    let (source, destination) = (convert.operand_at(0).unwrap(), op.operand_at(1).unwrap());
    rewriter.replace_op_with_new(&op, build("ttg.local_store", &op, &[source, destination], &[], &[]));
    true
}

//! `triton-reorder-broadcast` (upstream ReorderBroadcast.cpp): moves splats
//! and broadcasts after the element-wise ops they feed, so that the work is
//! done on the small tensor (or the scalar) before it is replicated:
//!
//! - `elementwise(splat(a), splat(b), ...)` -> `splat(elementwise(a, b, ...))`;
//! - `elementwise(broadcast(a), splat(b), ...)` ->
//!   `broadcast(elementwise(a, splat(b)))`, when all broadcasts start from
//!   the same shape;
//!
//! together with the canonicalization patterns of `tt.broadcast` and
//! `tt.expand_dims`, which merge the broadcasts this brings together.
use crate::{
    greedy::{apply_with_folds, replace_all_uses_with},
    ir::{create, name_of, tensor_parts, tensor_type},
    op_traits::{is_memory_effect_free, ELEMENTWISE_OPS},
    ssa::defining_op,
};
use melior::ir::{
    attribute::DenseElementsAttribute, operation::OperationLike, Attribute, Identifier, OperationRef, Type, Value,
    ValueLike,
};
use std::sync::OnceLock;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{BroadcastOp, SplatOp};
use tritium_dialects::{
    canonicalization::patterns_of,
    pass::{PassDefinition, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-reorder-broadcast",
    description: "Move splats and broadcasts after the element-wise ops they feed",
    anchor: "builtin.module",
    options: &[],
    run,
};

/// Upstream's patterns on the `Elementwise` trait, one per element-wise op
/// (broadcasts first, as upstream adds them).
fn elementwise_patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let moves: [fn(OperationRef, &Rewriter) -> bool; 2] = [move_broadcast_after, move_splat_after];
        moves
            .iter()
            .flat_map(|rewrite| ELEMENTWISE_OPS.iter().map(|root| Pattern { root, benefit: 1, rewrite: *rewrite }))
            .collect()
    })
}

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let patterns: Vec<&'static Pattern> =
        patterns_of("tt.broadcast").chain(patterns_of("tt.expand_dims")).chain(elementwise_patterns().iter()).collect();
    apply_with_folds(module, &patterns)
}

/// A splat, or a constant splat (what upstream's `isSplat` accepts).
enum SplatLike<'c, 'a> {
    Splat(Value<'c, 'a>),
    Constant(Attribute<'c>),
}

fn splat_like<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<SplatLike<'c, 'a>> {
    match name_of(op).as_str() {
        "tt.splat" => Some(SplatLike::Splat(SplatOp::of(*op)?.src())),
        "arith.constant" => {
            let value = op.attribute("value").ok()?;
            tritium_dialects::ir::splat_value(value).map(SplatLike::Constant)
        }
        _ => None,
    }
}

/// The operands' defining ops; `None` if one is a block argument.
fn operand_producers<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Vec<OperationRef<'c, 'a>>> {
    op.operands().map(defining_op).collect()
}

/// `op` with other operands and result types, attributes kept.
fn clone_with<'c>(
    op: &OperationRef<'c, '_>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
) -> melior::ir::Operation<'c> {
    let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
    melior::ir::operation::OperationBuilder::new(&name_of(op), op.location())
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .build()
        .expect("a registered op with valid parts")
}

/// elementwise(splat(a), splat(b), ...) -> splat(elementwise(a, b, ...)).
fn move_splat_after(op: OperationRef, rewriter: &Rewriter) -> bool {
    if !is_memory_effect_free(&op) || op.operand_count() == 0 {
        return false;
    }
    let Some(producers) = operand_producers(&op) else { return false };
    let Some(splats) = producers.iter().map(splat_like).collect::<Option<Vec<_>>>() else { return false };
    let Some(result_types) = op.results().map(|r| tensor_parts(r.r#type())).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let location = op.location();
    rewriter.set_insertion_point_before(&op);
    let mut scalars: Vec<Value> = Vec::new();
    for (splat, operand) in splats.into_iter().zip(op.operands()) {
        scalars.push(match splat {
            SplatLike::Splat(source) => source,
            SplatLike::Constant(value) => {
                let element = tensor_parts(operand.r#type()).expect("a splat is a tensor").1;
                let constant =
                    rewriter.insert(create("arith.constant", location, &[], &[element], &[("value", value)]));
                constant.result_at(0).unwrap().into()
            }
        });
    }
    let scalar_types: Vec<Type> = result_types.iter().map(|(_, element, _)| *element).collect();
    let scalar_op = rewriter.insert(clone_with(&op, &scalars, &scalar_types));
    for (index, result) in op.results().enumerate() {
        let scalar = scalar_op.result_at(index).unwrap().into();
        let splat = rewriter.insert(create("tt.splat", location, &[scalar], &[result.r#type()], &[]));
        replace_all_uses_with(rewriter, result.into(), splat.result_at(0).unwrap().into());
    }
    true
}

/// elementwise(broadcast(a), splat(b), ...) -> broadcast(elementwise(a,
/// splat(b) of a's shape, ...)): every broadcast must start from the same
/// shape, and the other operands must be splats.
fn move_broadcast_after(op: OperationRef, rewriter: &Rewriter) -> bool {
    if !is_memory_effect_free(&op) {
        return false;
    }
    let Some(producers) = operand_producers(&op) else { return false };
    let mut source_shape: Option<Vec<i64>> = None;
    let mut source_type: Option<Type> = None;
    for producer in &producers {
        if let Some(broadcast) = BroadcastOp::of(*producer) {
            let source = broadcast.src().r#type();
            let Some((shape, _, _)) = tensor_parts(source) else { return false };
            match &source_shape {
                None => {
                    source_shape = Some(shape);
                    source_type = Some(source);
                }
                Some(seen) if *seen != shape => return false,
                Some(_) => {}
            }
        } else if splat_like(producer).is_none() {
            return false;
        }
    }
    let (Some(shape), Some(source_type)) = (source_shape, source_type) else { return false };
    let encoding = tensor_parts(source_type).and_then(|(_, _, encoding)| encoding);
    let Some(narrow_results) = op
        .results()
        .map(|r| tensor_parts(r.r#type()).map(|(_, element, _)| tensor_type(&shape, element, encoding)))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let location = op.location();
    rewriter.set_insertion_point_before(&op);
    let mut operands: Vec<Value> = Vec::new();
    for (producer, operand) in producers.iter().zip(op.operands()) {
        if let Some(broadcast) = BroadcastOp::of(*producer) {
            operands.push(broadcast.src());
            continue;
        }
        let element = tensor_parts(operand.r#type()).expect("a splat is a tensor").1;
        let narrow = tensor_type(&shape, element, encoding);
        let new_op = match splat_like(producer).expect("checked above") {
            SplatLike::Splat(source) => create("tt.splat", location, &[source], &[narrow], &[]),
            SplatLike::Constant(value) => {
                let splat: Attribute = DenseElementsAttribute::splat(narrow, value).into();
                create("arith.constant", location, &[], &[narrow], &[("value", splat)])
            }
        };
        operands.push(rewriter.insert(new_op).result_at(0).unwrap().into());
    }
    let narrow_op = rewriter.insert(clone_with(&op, &operands, &narrow_results));
    for (index, result) in op.results().enumerate() {
        let narrow = narrow_op.result_at(index).unwrap().into();
        let broadcast = rewriter.insert(create("tt.broadcast", location, &[narrow], &[result.r#type()], &[]));
        replace_all_uses_with(rewriter, result.into(), broadcast.result_at(0).unwrap().into());
    }
    true
}

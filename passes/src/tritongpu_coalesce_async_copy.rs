//! `tritongpu-coalesce-async-copy` (upstream CoalesceAsyncCopy.cpp): a
//! `ttg.async_copy_global_to_local` whose source layout gives each thread
//! more contiguous elements along the fastest dim than one copy can move
//! into the swizzled shared layout (e.g. an int8 operand upcast later: 16
//! bytes per thread, but shared `vec` 8) would issue several `cp.async` per
//! contiguous run, breaking coalescing. Its source (and mask and other) are
//! converted to a blocked layout whose size per thread along that dim is
//! what one copy moves (the length of the run where registers and shared
//! offsets are both consecutive).
//!
//! As upstream, the copy's `contiguity` then becomes 1: upstream asks its
//! axis analysis, computed before the rewrite, about the new conversion,
//! which the analysis has never seen, and gets the answer for unknown
//! values (alignment 1).
use crate::coalescing::{blocked_for_shape, Threads};
use crate::greedy::apply_with_folds;
use crate::ir::{create, tensor_parts, tensor_type};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, OperationRef, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::layout::{attribute_of, layout_of};
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::rewrite::{Pattern, Rewriter};
use tritium_dialects::target::{lookup_num_warps, ModuleConfig};
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::AsyncCopyGlobalToLocalOp;
use tritium_layout::Layout;

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-coalesce-async-copy",
    description: "Clip the size per thread of async copies' sources to what one copy into shared memory moves",
    anchor: "builtin.module",
    options: &[],
    run,
};

static CLIP_SIZE_PER_THREAD: Pattern = Pattern {
    root: "ttg.async_copy_global_to_local",
    benefit: 1,
    rewrite: |op, r| clip_size_per_thread(op, r).is_some(),
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    apply_with_folds(module, &[&CLIP_SIZE_PER_THREAD])
}

/// The operand positions of `op`'s mask and other, from its segment sizes
/// (operands: src, result buffer, mask?, other?).
fn mask_and_other(op: &OperationRef) -> (Option<usize>, Option<usize>) {
    let sizes: Vec<i32> = op
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .map(|a| (0..a.len()).filter_map(|i| a.element(i).ok()).collect())
        .unwrap_or_default();
    let has = |i: usize| sizes.get(i).copied().unwrap_or(0) == 1;
    let mask = has(2).then_some(2);
    let other = has(3).then_some(2 + usize::from(has(2)));
    (mask, other)
}

/// Upstream `ClipAsyncCopySizePerThread`; `None` when it does not apply.
fn clip_size_per_thread<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &Rewriter) -> Option<()> {
    let copy = AsyncCopyGlobalToLocalOp::of(op)?;
    let source = copy.src();
    let (shape, _, Some(encoding)) = tensor_parts(source.r#type())? else {
        return None;
    };
    let Layout::Blocked(blocked) = layout_of(encoding).ok()? else {
        return None;
    };
    // The buffer copied into (the operand upstream names `result`).
    let buffer = MemDesc::of(copy.result().r#type())?;
    let shared = layout_of(buffer.encoding).ok()?;
    if !matches!(shared, Layout::SwizzledShared(_)) {
        return None;
    }
    let registers = Layout::Blocked(blocked.clone());
    let copy_size =
        registers.to_linear(&shape).ok()?.invert_and_compose(&shared.to_linear(&buffer.shape).ok()?).ok()?;
    let copy_size = copy_size.num_consecutive_in_out();
    let mut contiguous = registers.contig_per_thread(&shape).ok()?;
    let fastest = *blocked.order.first()? as usize;
    if contiguous[fastest] <= copy_size {
        return None;
    }
    contiguous[fastest] = copy_size;
    let threads = Threads {
        num_warps: lookup_num_warps(&op).ok()??,
        threads_per_warp: ModuleConfig::of_enclosing(&op).ok()?.threads_per_warp,
    };
    let clipped = blocked_for_shape(&shape, contiguous, blocked.order.clone(), threads, blocked.cta.clone()).ok()?;
    let location = op.location();
    let clipped = attribute_of(&Layout::Blocked(clipped), location)?;

    rewriter.set_insertion_point_before(&op);
    let convert = |value: Value<'c, 'a>| -> Value<'c, 'a> {
        let (value_shape, element, _) = tensor_parts(value.r#type()).expect("a tensor operand");
        let converted = tensor_type(&value_shape, element, Some(clipped));
        rewriter
            .insert(create("ttg.convert_layout", location, &[value], &[converted], &[]))
            .result_at(0)
            .unwrap()
            .into()
    };
    let (mask, other) = mask_and_other(&op);
    let new_source = convert(source);
    let new_mask = mask.map(|i| convert(op.operand_at(i).unwrap()));
    let new_other = other.map(|i| convert(op.operand_at(i).unwrap()));
    let context_ref = location.context();
    let i32_type = IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
    let contiguity: Attribute = IntegerAttribute::new(i32_type, 1).into();
    rewriter.modify_in_place(&op, || {
        crate::ssa::set_operand(&op, 0, new_source);
        if let (Some(i), Some(v)) = (mask, new_mask) {
            crate::ssa::set_operand(&op, i, v);
        }
        if let (Some(i), Some(v)) = (other, new_other) {
            crate::ssa::set_operand(&op, i, v);
        }
        crate::ssa::set_attribute(&op, "contiguity", contiguity);
    });
    Some(())
}

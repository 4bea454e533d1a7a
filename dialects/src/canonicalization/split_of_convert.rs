//! split(convert_layout(x)) -> split(x) (upstream's CanonicalizeConvertFromSplit,
//! one of ConvertLayoutOp's patterns): when x's layout already splits into
//! the layout of the split's results, the conversion is not needed.
use super::support::{build, produced_by};
use crate::access::{ranked_tensor, OpAccess};
use crate::{
    layout::{attribute_of, layout_of},
    rewrite::{Pattern, Rewriter},
};
use melior::ir::{operation::OperationLike, Attribute, OperationRef, ValueLike};
use tritium_layout::{Blocked, CtaLayout, Layout};

pub static PATTERNS: &[Pattern] = &[Pattern { root: "tt.split", benefit: 1, rewrite: split_of_convert }];

/// The layout of the halves of a tensor of `layout` split along its last
/// dimension (upstream's `inferSplitOpEncoding`), for a blocked layout that
/// holds both elements of a pair in one thread. Upstream infers a linear
/// layout in the other cases; such a layout can only equal the split's
/// result layout when that is written as the same `#ttg.linear`, so those
/// cases are left alone here.
fn split_layout(layout: &Layout) -> Option<Layout> {
    let Layout::Blocked(blocked) = layout else { return None };
    let last = blocked.size_per_thread.len().checked_sub(1)?;
    let simple = blocked.size_per_thread[last] == 2
        && blocked.threads_per_warp[last] == 1
        && blocked.warps_per_cta[last] == 1
        && blocked.cta.ctas_per_cga().get(last) == Some(&1);
    // Several CTAs would need the CTA layout without its last dimension.
    if !simple || blocked.cta.num_ctas() != 1 {
        return None;
    }
    let drop_last = |v: &[u32]| v[..last].to_vec();
    Some(Layout::Blocked(Blocked {
        size_per_thread: drop_last(&blocked.size_per_thread),
        threads_per_warp: drop_last(&blocked.threads_per_warp),
        warps_per_cta: drop_last(&blocked.warps_per_cta),
        order: blocked.order.iter().copied().filter(|d| *d as usize != last).collect(),
        cta: CtaLayout::single_cta(last),
    }))
}

fn encoding<'c>(value: melior::ir::Value<'c, '_>) -> Option<Attribute<'c>> {
    ranked_tensor(value.r#type()).ok()?.encoding()
}

fn split_of_convert(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(convert) = op.operand_at(0).ok().and_then(|s| produced_by(s, "ttg.convert_layout")) else { return false };
    let source = convert.operand_at(0).unwrap();
    let (Some(source_encoding), Some(result_encoding)) = (encoding(source), encoding(op.result_at(0).unwrap().into()))
    else {
        return false;
    };
    let inferred = layout_of(source_encoding).ok().as_ref().and_then(split_layout);
    let Some(inferred) = inferred.and_then(|l| attribute_of(&l, op.location())) else { return false };
    if inferred != result_encoding {
        return false;
    }
    let types: Vec<_> = op.results().map(|r| r.r#type()).collect();
    rewriter.replace_op_with_new(&op, build("tt.split", op.location(), &[source], &types, &[]));
    true
}

//! `tt.trans` (upstream `inferTransOpEncoding`).
use super::{inverse_permutation, is_permutation, permuted, unsupported, InferError, InferResult};
use crate::kinds::{Blocked, CtaLayout, Layout, NvmmaShared, SwizzledShared};
use crate::utils::transpose_linear_layout;

/// A layout's dim order after a transposition: dim `d` becomes dim
/// `inverse[d]`.
fn renamed_order(order: &[u32], inverse: &[usize]) -> InferResult<Vec<u32>> {
    order
        .iter()
        .map(|&d| inverse.get(d as usize).map(|&i| i as u32).ok_or_else(|| unsupported("layout order out of range")))
        .collect()
}

fn transposed_cta(cta: &CtaLayout, order: &[usize]) -> InferResult<CtaLayout> {
    Ok(CtaLayout::from_linear(transpose_linear_layout(cta.linear_layout(), order)?)?)
}

/// The layout of `trans(x, order)` when `x` has `layout` and `shape`
/// (upstream `inferTransOpEncoding`): blocked and swizzled shared layouts
/// permute their parameters, an NVMMA shared layout flips `transposed` under
/// `[1, 0]`, anything else becomes the transposed linear layout.
pub fn transposed(layout: &Layout, shape: &[i64], order: &[usize]) -> InferResult<Layout> {
    if order.iter().enumerate().all(|(i, &o)| i == o) {
        return Ok(layout.clone());
    }
    if shape.len() != order.len() {
        return Err(InferError::Rejected(format!(
            "shape and order rank do not match: {} vs {}",
            shape.len(),
            order.len()
        )));
    }
    if !is_permutation(order) {
        return Err(unsupported("order is not a permutation"));
    }
    if layout.rank() != order.len() {
        return Err(InferError::Rejected(format!(
            "rank of encoding does not match order: {} vs {}",
            layout.rank(),
            order.len()
        )));
    }
    let inverse = inverse_permutation(order);
    match layout {
        Layout::Blocked(blocked) => {
            return Ok(Layout::Blocked(
                Blocked::new(
                    &permuted(&blocked.size_per_thread, order),
                    &permuted(&blocked.threads_per_warp, order),
                    &permuted(&blocked.warps_per_cta, order),
                    &renamed_order(&blocked.order, &inverse)?,
                )
                .with_cta(transposed_cta(&blocked.cta, order)?),
            ));
        }
        Layout::SwizzledShared(shared) => {
            return Ok(Layout::SwizzledShared(
                SwizzledShared::new(
                    shared.vec,
                    shared.per_phase,
                    shared.max_phase,
                    &renamed_order(&shared.order, &inverse)?,
                )
                .with_cta(transposed_cta(&shared.cta, order)?),
            ));
        }
        Layout::NvmmaShared(shared) if order == [1, 0] => {
            return Ok(Layout::NvmmaShared(
                NvmmaShared::new(
                    shared.swizzling_byte_width,
                    !shared.transposed,
                    shared.element_bit_width,
                    shared.fp4_padded,
                    shared.rank(),
                )
                .with_cta(transposed_cta(&shared.cta, order)?),
            ));
        }
        _ => {}
    }
    // Distributed layouts become `#ttg.linear`, shared ones a shared linear
    // layout (offset and block in-dims).
    let linear = layout.to_linear(shape)?;
    Ok(Layout::Linear(transpose_linear_layout(&linear, order)?))
}

#[cfg(test)]
mod tests {
    use super::super::equivalent;
    use super::*;
    use crate::NvidiaMma;

    #[test]
    fn transposing_a_blocked_layout_equals_transposing_its_linear_layout() {
        let source = Layout::Blocked(Blocked::new(&[1, 2, 4], &[4, 8, 1], &[1, 2, 2], &[2, 1, 0]));
        let (shape, order) = ([8, 32, 16], [2, 0, 1]);
        let by_rule = transposed(&source, &shape, &order).unwrap();
        assert!(matches!(by_rule, Layout::Blocked(_)));
        let by_linear = Layout::Linear(transpose_linear_layout(&source.to_linear(&shape).unwrap(), &order).unwrap());
        assert!(equivalent(&[16, 8, 32], &by_rule, &by_linear).unwrap());
    }

    #[test]
    fn transposing_twice_gives_back_an_equivalent_mma_layout() {
        let mma = Layout::NvidiaMma(NvidiaMma::new(2, 0, &[2, 2], &[16, 8]));
        let once = transposed(&mma, &[64, 32], &[1, 0]).unwrap();
        let twice = transposed(&once, &[32, 64], &[1, 0]).unwrap();
        assert!(equivalent(&[64, 32], &mma, &twice).unwrap());
    }

    #[test]
    fn nvmma_shared_transposition_flips_transposed() {
        let shared = Layout::NvmmaShared(NvmmaShared::new(128, false, 16, false, 2));
        let Layout::NvmmaShared(result) = transposed(&shared, &[64, 128], &[1, 0]).unwrap() else { panic!() };
        assert!(result.transposed);
    }
}

//! Layout inference for the ops that rename a tensor's elements without
//! moving them (`tt.trans`, `tt.reshape`, `tt.split`, `tt.join`,
//! `ttg.fp4_to_fp`): given the layout on one side, the layout on the other
//! side that makes the op a no-op. The ops' verifiers check results against
//! it and the layout propagation of `tritongpu-remove-layout-conversions`
//! moves layouts through the ops with it. Also the check of shared-memory
//! subslices against their swizzling.
//!
//! Upstream keeps the inference rules in the TritonGPU dialect's
//! `DialectInferLayoutInterface` (`inferTransOpEncoding`,
//! `inferReshapeOpEncoding`, `inferDefaultJoinOpEncoding`,
//! `inferSplitOpEncoding`, `inferFp4ToFpOpEncoding`) and compares an op's
//! layouts by their linear layouts (`areLayoutsEquivalent`). The rules here
//! follow those: the "legacy" kinds (blocked, swizzled/NVMMA shared, dot
//! operands) keep their kind where upstream keeps it, every other layout
//! becomes a linear one.
//!
//! A verifier must not reject valid IR because Tritium cannot compute
//! something: every function tells a rejection upstream would make
//! ([`InferError::Rejected`], with upstream's message) from a question this
//! crate cannot answer ([`InferError::Unsupported`]).
mod reshape;
mod split_join;
mod trans;

pub use reshape::reshaped;
pub use split_join::{fp4_packed_source, fp4_unpacked_result, joined, joined_on_axis, split_halves};
pub use trans::transposed;

use crate::dims::{standard_out_dims, Dim};
use crate::error::LayoutError;
use crate::kinds::Layout;

/// Why no layout could be inferred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InferError {
    /// The input is invalid; upstream rejects it with this message.
    Rejected(String),
    /// Tritium cannot compute this (a layout or shape the crate does not
    /// handle): no verdict either way.
    Unsupported(LayoutError),
}

impl From<LayoutError> for InferError {
    fn from(error: LayoutError) -> Self {
        InferError::Unsupported(error)
    }
}

pub type InferResult<T> = std::result::Result<T, InferError>;

fn unsupported(what: &str) -> InferError {
    InferError::Unsupported(LayoutError::InvalidParameter(what.to_string()))
}

/// `values` permuted by `order`: entry `i` of the result is `values[order[i]]`.
fn permuted<T: Copy>(values: &[T], order: &[usize]) -> Vec<T> {
    order.iter().map(|&i| values[i]).collect()
}

/// The inverse permutation of `order`: `inverse[order[i]] == i`.
pub fn inverse_permutation(order: &[usize]) -> Vec<usize> {
    let mut inverse = vec![0; order.len()];
    for (i, &o) in order.iter().enumerate() {
        inverse[o] = i;
    }
    inverse
}

fn is_permutation(order: &[usize]) -> bool {
    let mut seen = vec![false; order.len()];
    order.iter().all(|&o| o < seen.len() && !std::mem::replace(&mut seen[o], true))
}

/// `shape` as the `u32` sizes of linear layouts' out-dims.
fn shape_u32(shape: &[i64]) -> InferResult<Vec<u32>> {
    shape.iter().map(|&s| u32::try_from(s).map_err(|_| unsupported("shape out of range"))).collect()
}

/// Whether two layouts place the elements of a tensor of `shape` alike
/// (upstream `areLayoutsEquivalent`: equal linear layouts).
pub fn equivalent(shape: &[i64], a: &Layout, b: &Layout) -> Result<bool, LayoutError> {
    if a == b {
        return Ok(true);
    }
    Ok(a.to_linear(shape)? == b.to_linear(shape)?)
}

/// Whether a subslice of a shared allocation cuts through its swizzling
/// pattern (upstream `MemDescSubsliceOp::verify`): for each split dim `d`,
/// stepping by the slice's size along `d` (and every doubling of it up to
/// the source's size) must move by a power-of-two offset in memory, i.e. by
/// a single basis of the layout.
///
/// `alloc_shape` is the allocation's shape (the layout's), `src` and `dst`
/// the shapes of the sliced and the slice descriptor.
pub fn subslice_crosses_swizzling(
    layout: &Layout,
    alloc_shape: &[i64],
    src: &[i64],
    dst: &[i64],
) -> Result<bool, LayoutError> {
    let inverse = layout.to_linear(alloc_shape)?.invert()?;
    let axes = standard_out_dims(src.len());
    for (dim, (&src_size, &dst_size)) in src.iter().zip(dst).enumerate() {
        if src_size == dst_size {
            continue;
        }
        let mut step = dst_size;
        while step < src_size {
            let coordinates: Vec<(Dim, u32)> = axes
                .iter()
                .enumerate()
                .map(|(d, axis)| (axis.clone(), if d == dim { step as u32 } else { 0 }))
                .collect();
            let at = inverse.apply(&coordinates)?;
            let offset = at
                .iter()
                .find(|(d, _)| *d == Dim::Offset)
                .map(|(_, value)| *value)
                .ok_or_else(|| LayoutError::Dimension("shared layout without an offset dim".into()))?;
            if !offset.is_power_of_two() {
                return Ok(true);
            }
            step *= 2;
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::SwizzledShared;

    #[test]
    fn subslices_must_start_at_whole_swizzling_patterns() {
        let shared = Layout::SwizzledShared(SwizzledShared::new(2, 1, 8, &[1, 0]));
        let alloc = [16, 16];
        assert!(!subslice_crosses_swizzling(&shared, &alloc, &alloc, &[8, 16]).unwrap());
        assert!(!subslice_crosses_swizzling(&shared, &alloc, &alloc, &[16, 8]).unwrap());
        assert!(subslice_crosses_swizzling(&shared, &alloc, &alloc, &[4, 16]).unwrap());
    }
}

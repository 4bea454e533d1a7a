//! Layout helpers shared by the layout kinds (upstream
//! lib/Tools/LayoutUtils.cpp and parts of LinearLayoutConversions.cpp).

use crate::dims::{standard_out_dims, Dim};
use crate::error::{check_pow2, LayoutError, Result};
use crate::linear::LinearLayout;

/// A tensor shape keyed by output dimension.
pub type NamedShape = [(Dim, u64)];

fn lookup(shape: &NamedShape, dim: &Dim) -> Result<u64> {
    shape
        .iter()
        .find(|(d, _)| d == dim)
        .map(|(_, s)| *s)
        .ok_or_else(|| LayoutError::dim(format!("shape has no entry for out-dim '{dim}'")))
}

/// Shrinks every output dim larger than `shape` by zeroing its largest bases
/// until it fits; the zeroed inputs then broadcast (hold copies).  With
/// `broadcast_registers == false` the register bases that would be zeroed are
/// removed instead, so no register holds a duplicate.
///
/// Upstream sorts candidate bases with `llvm::sort` (unstable); for the small
/// lists that occur it behaves as an insertion sort, i.e. stably, which is what
/// the stable sort here reproduces.
pub fn ensure_layout_not_larger_than(
    layout: &LinearLayout,
    shape: &NamedShape,
    broadcast_registers: bool,
) -> Result<LinearLayout> {
    if shape.is_empty() {
        return Ok(layout.clone());
    }
    let mut in_dims = layout.in_dims().to_vec();
    let mut dropped_registers: Vec<usize> = Vec::new();
    for (out_idx, (out_dim, actual)) in layout.out_dims().iter().enumerate() {
        let desired = lookup(shape, out_dim)?;
        let mut actual = *actual as u64;
        if actual <= desired {
            continue;
        }
        check_pow2(&format!("shape of '{out_dim}'"), desired as i64)?;
        // (in-dim index, basis index, value), largest value first.
        let mut candidates: Vec<(usize, usize, u32)> = Vec::new();
        for (k, (_, bases)) in in_dims.iter().enumerate() {
            for (i, basis) in bases.iter().enumerate() {
                let value = basis[out_idx];
                if value == 0 {
                    continue;
                }
                if !value.is_power_of_two() {
                    return Err(LayoutError::algebra(format!(
                        "cannot shrink out-dim '{out_dim}': basis value {value} is not a power of two"
                    )));
                }
                candidates.push((k, i, value));
            }
        }
        candidates.sort_by_key(|c| std::cmp::Reverse(c.2));
        for (k, i, _) in candidates {
            if actual <= desired {
                break;
            }
            if !broadcast_registers && in_dims[k].0 == Dim::Register {
                if !dropped_registers.contains(&i) {
                    dropped_registers.push(i);
                }
            } else {
                in_dims[k].1[i][out_idx] = 0;
            }
            actual >>= 1;
        }
    }
    if !broadcast_registers {
        for (dim, bases) in &mut in_dims {
            if *dim == Dim::Register {
                let kept = bases
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !dropped_registers.contains(i))
                    .map(|(_, b)| b.clone())
                    .collect();
                *bases = kept;
            }
        }
    }
    let mut out_dims = layout.out_dims().to_vec();
    for (dim, size) in &mut out_dims {
        let desired = lookup(shape, dim)?;
        if (*size as u64) > desired {
            *size = desired as u32;
        }
    }
    LinearLayout::new(in_dims, out_dims, false)
}

/// Grows every output dim smaller than `shape` by appending identity bases
/// on the layout's first (most minor) input dim -- "register" for register
/// layouts, "offset" for shared ones -- i.e. by giving each thread more
/// repetitions of the tile.
pub fn ensure_layout_not_smaller_than(layout: &LinearLayout, shape: &NamedShape) -> Result<LinearLayout> {
    if shape.is_empty() {
        return Ok(layout.clone());
    }
    let Some((k_dim, _)) = layout.in_dims().first() else {
        return Err(LayoutError::dim("ensure_layout_not_smaller_than needs at least one in-dim"));
    };
    let k_dim = k_dim.clone();
    let mut ret = layout.clone();
    for (out_dim, actual) in layout.out_dims() {
        let desired = lookup(shape, out_dim)?;
        let actual = *actual as u64;
        if actual >= desired {
            continue;
        }
        if desired % actual != 0 {
            return Err(LayoutError::param(format!(
                "shape {desired} of '{out_dim}' is not a multiple of the layout size {actual}"
            )));
        }
        let factor = u32::try_from(desired / actual)
            .map_err(|_| LayoutError::TooLarge(format!("shape {desired} of '{out_dim}'")))?;
        ret = ret.product(&LinearLayout::identity_1d(factor, k_dim.clone(), out_dim.clone())?)?;
    }
    Ok(ret)
}

/// Pairs standard out dims with a shape: `[(dim0, shape[0]), ...]`.
pub fn standard_named_shape(shape: &[u64]) -> Vec<(Dim, u64)> {
    standard_out_dims(shape.len()).into_iter().zip(shape.iter().copied()).collect()
}

/// A 1D -> ND identity into `[dim0, dim1, ...]`, filling `order[0]` first:
/// equivalent to a flat identity of size `product(shape)` reshaped to
/// `permute(shape, order)`.  Output dims appear in `order`.
pub fn identity_standard_nd(in_dim: Dim, shape: &[u32], order: &[u32]) -> Result<LinearLayout> {
    if shape.len() != order.len() {
        return Err(LayoutError::rank("identity_standard_nd order", shape.len(), order.len()));
    }
    crate::error::check_permutation("order", order)?;
    let names = standard_out_dims(shape.len());
    let mut ret = LinearLayout::empty();
    for &dim in order {
        ret =
            ret.product(&LinearLayout::identity_1d(shape[dim as usize], in_dim.clone(), names[dim as usize].clone())?)?;
    }
    Ok(ret)
}

/// Removes output dim `dim{index}` of a layout whose out dims are the standard
/// `dim0..dimN`, renaming the later ones down (upstream `removeStandardDim`).
pub fn remove_standard_dim(layout: &LinearLayout, index: usize) -> Result<LinearLayout> {
    let rank = layout.num_out_dims();
    if index >= rank || layout.out_dim_names() != standard_out_dims(rank) {
        return Err(LayoutError::dim(format!(
            "remove_standard_dim({index}) needs out-dims dim0..dim{}",
            rank.saturating_sub(1)
        )));
    }
    let mut keep = standard_out_dims(rank);
    keep.remove(index);
    let sub = layout.sublayout(&layout.in_dim_names(), &keep)?;
    let out_dims = sub.out_dims().iter().enumerate().map(|(i, (_, size))| (Dim::Axis(i), *size)).collect();
    LinearLayout::new(sub.in_dims().to_vec(), out_dims, false)
}

/// Reshapes the outputs to `shape` treating the *last* dim as the most minor
/// (row-major), as tensor reshapes do (upstream `reshapeLayout`).
pub fn reshape_layout(layout: &LinearLayout, shape: &[u32]) -> Result<LinearLayout> {
    let mut src = layout.out_dim_names();
    src.reverse();
    let mut new_dims: Vec<(Dim, u32)> = standard_out_dims(shape.len()).into_iter().zip(shape.iter().copied()).collect();
    new_dims.reverse();
    layout.transpose_outs(&src)?.reshape_outs(&new_dims)?.transpose_outs(&standard_out_dims(shape.len()))
}

/// Permutes the components of every basis: new component `i` is old
/// component `order[i]`; output sizes are re-inferred (upstream
/// `transposeLinearLayout`).
pub fn transpose_linear_layout(layout: &LinearLayout, order: &[usize]) -> Result<LinearLayout> {
    if order.len() != layout.num_out_dims() {
        return Err(LayoutError::rank("transpose order", layout.num_out_dims(), order.len()));
    }
    let in_dims = layout
        .in_dims()
        .iter()
        .map(|(d, bases)| (d.clone(), bases.iter().map(|b| order.iter().map(|&i| b[i]).collect()).collect()))
        .collect();
    LinearLayout::with_inferred_sizes(in_dims, layout.out_dim_names())
}

/// `[rank-1, ..., 1, 0]`, with the first two swapped unless `row_major`
/// (upstream `getMatrixOrder`).
pub fn matrix_order(rank: usize, row_major: bool) -> Vec<u32> {
    let mut order: Vec<u32> = (0..rank as u32).rev().collect();
    if rank >= 2 && !row_major {
        order.swap(0, 1);
    }
    if rank < 2 {
        return vec![0; rank];
    }
    order
}

/// Order of a dot operand: k fastest when `k_contig` (upstream
/// `getOrderForDotOperand`).
pub fn order_for_dot_operand(op_idx: u32, rank: usize, k_contig: bool) -> Vec<u32> {
    let row_major = (op_idx != 0) != k_contig;
    matrix_order(rank, row_major)
}

/// Per-CTA shape for a split (upstream `getShapePerCTA`): the split vector is
/// padded with leading 1s or trimmed from the front to the shape's rank.
pub fn shape_per_cta(split_num: &[u32], shape: &[u64]) -> Vec<u64> {
    let rank = shape.len();
    let split: Vec<u64> = if split_num.len() <= rank {
        std::iter::repeat_n(1, rank - split_num.len()).chain(split_num.iter().map(|&s| s as u64)).collect()
    } else {
        split_num[split_num.len() - rank..].iter().map(|&s| s as u64).collect()
    };
    shape.iter().zip(split).map(|(&s, n)| s / s.min(n).max(1)).collect()
}

//! Queries on distributed layouts given as linear layouts (upstream
//! `LinearEncodingAttr`).  Upstream answers `getOrder`, `getThreadsPerWarp`,
//! `getSizePerThread`, ... for *every* distributed layout by converting it to a
//! linear layout first, so these functions are the single source of truth.

use crate::dims::{standard_out_dims, Dim};
use crate::error::{LayoutError, Result};
use crate::linear::LinearLayout;
use crate::utils::{ensure_layout_not_larger_than, ensure_layout_not_smaller_than};

/// Counts, per output dim, how many bases of `dim` move along it (as a power
/// of two).  Broadcast (all-zero) bases are skipped, or -- when
/// `skip_broadcast` is false -- counted towards the dim of the previous
/// non-zero basis (upstream `basesPerDimImpl`, used for CTAsPerCGA).
pub(crate) fn bases_per_dim(layout: &LinearLayout, dim: &Dim, skip_broadcast: bool) -> Vec<u32> {
    let rank = layout.num_out_dims();
    let mut ret = vec![1u32; rank];
    let Some(bases) = layout.bases(dim) else {
        return ret;
    };
    let mut last_non_zero = 0usize;
    for basis in bases {
        match basis.iter().position(|&v| v != 0) {
            Some(i) => {
                last_non_zero = i;
                ret[i] *= 2;
            }
            None if !skip_broadcast && rank > 0 => ret[last_non_zero] *= 2,
            None => {}
        }
    }
    ret
}

/// Order in which the bases of `dim` walk the output dims (first non-zero
/// component of each basis, deduplicated), completed with `default_order`
/// (upstream `orderPerDimImpl`).
pub(crate) fn order_per_dim(layout: &LinearLayout, dim: &Dim, default_order: &[u32]) -> Vec<u32> {
    let mut order: Vec<u32> = Vec::new();
    if let Some(bases) = layout.bases(dim) {
        for basis in bases {
            if let Some(i) = basis.iter().position(|&v| v != 0) {
                if !order.contains(&(i as u32)) {
                    order.push(i as u32);
                }
            }
        }
    }
    for &d in default_order {
        if !order.contains(&d) {
            order.push(d);
        }
    }
    order
}

/// A distributed layout given directly as a linear layout
/// `(register, lane, warp, block) -> (dim0, ..., dimN)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinearEncoding {
    layout: LinearLayout,
}

impl LinearEncoding {
    /// Validates like upstream's `LinearEncodingAttr::verify`: input dims are a
    /// prefix of [register, lane, warp, block], outputs are dim0.., every basis
    /// moves along at most one dim, and without its broadcast bases the layout
    /// is a bijection.
    pub fn new(layout: LinearLayout) -> Result<LinearEncoding> {
        let expected = [Dim::Register, Dim::Lane, Dim::Warp, Dim::Block];
        for (i, dim) in layout.in_dim_names().iter().enumerate() {
            if expected.get(i) != Some(dim) {
                return Err(LayoutError::dim(format!(
                    "a distributed linear layout needs in-dims [register, lane, warp, block], got {:?}",
                    layout.in_dim_names()
                )));
            }
        }
        if layout.out_dim_names() != standard_out_dims(layout.num_out_dims()) {
            return Err(LayoutError::dim(format!(
                "a distributed linear layout needs out-dims [dim0, dim1, ...], got {:?}",
                layout.out_dim_names()
            )));
        }
        for (dim, bases) in layout.in_dims() {
            if bases.iter().any(|b| b.iter().filter(|&&v| v != 0).count() > 1) {
                return Err(LayoutError::algebra(format!(
                    "in a distributed layout each basis must move in at most one dimension (in-dim '{dim}')"
                )));
            }
        }
        let mut without_broadcast = layout.clone();
        for dim in layout.in_dim_names() {
            without_broadcast = without_broadcast.remove_zero_bases_along_dim(&dim)?;
        }
        if !without_broadcast.is_invertible() {
            return Err(LayoutError::algebra("after removing the zero bases the layout must be bijective"));
        }
        Ok(LinearEncoding { layout })
    }

    /// Wraps a layout produced by this crate's own conversions (already valid).
    pub(crate) fn new_unchecked(layout: LinearLayout) -> LinearEncoding {
        LinearEncoding { layout }
    }

    pub fn linear_layout(&self) -> &LinearLayout {
        &self.layout
    }

    pub fn rank(&self) -> usize {
        self.layout.num_out_dims()
    }

    fn default_order(&self) -> Vec<u32> {
        (0..self.rank() as u32).rev().collect()
    }

    /// Dims in the order registers walk them, fastest first; dims registers
    /// never move along follow in `[rank-1, ..., 0]` order.
    pub fn order(&self) -> Vec<u32> {
        order_per_dim(&self.layout, &Dim::Register, &self.default_order())
    }

    /// Upstream returns `getOrder()` for the rep order of linear encodings.
    pub fn rep_order(&self) -> Vec<u32> {
        self.order()
    }

    pub fn thread_order(&self) -> Vec<u32> {
        order_per_dim(&self.layout, &Dim::Lane, &self.order())
    }

    pub fn warp_order(&self) -> Vec<u32> {
        order_per_dim(&self.layout, &Dim::Warp, &self.order())
    }

    pub fn threads_per_warp(&self) -> Vec<u32> {
        bases_per_dim(&self.layout, &Dim::Lane, true)
    }

    pub fn warps_per_cta(&self) -> Vec<u32> {
        bases_per_dim(&self.layout, &Dim::Warp, true)
    }

    /// CTAs holding distinct data along each dim.
    pub fn cta_split_num(&self) -> Vec<u32> {
        bases_per_dim(&self.layout, &Dim::Block, true)
    }

    pub fn ctas_per_cga(&self) -> Vec<u32> {
        bases_per_dim(&self.layout, &Dim::Block, false)
    }

    pub fn cta_order(&self) -> Vec<u32> {
        let default: Vec<u32> = (0..self.rank() as u32).collect();
        order_per_dim(&self.layout, &Dim::Block, &default)
    }

    /// Elements of one tile per thread along each dim (upstream
    /// `getSizePerThread`): the register bases without the trailing ones that
    /// only repeat the CTA tile.
    pub fn size_per_thread(&self) -> Vec<u32> {
        let split = self.cta_split_num();
        let mut cta_shape: Vec<u64> =
            self.layout.out_dims().iter().zip(&split).map(|((_, size), &n)| *size as u64 / n as u64).collect();
        let mut registers: Vec<Vec<u32>> = self.layout.bases(&Dim::Register).cloned().unwrap_or_default();
        let mut reverse_rep_order: Vec<usize> = Vec::new();
        while let Some(basis) = registers.last() {
            let Some(dim) = basis.iter().position(|&v| v != 0) else {
                break;
            };
            if !reverse_rep_order.contains(&dim) {
                reverse_rep_order.push(dim);
            }
            if reverse_rep_order.last() != Some(&dim) || 2 * basis[dim] as u64 != cta_shape[dim] {
                break;
            }
            cta_shape[dim] /= 2;
            registers.pop();
        }
        let trimmed = LinearLayout::new(vec![(Dim::Register, registers)], self.layout.out_dims().to_vec(), false);
        match trimmed {
            Ok(t) => bases_per_dim(&t, &Dim::Register, true),
            Err(_) => vec![1; self.rank()],
        }
    }

    /// Fits the layout to `shape` (upstream `LinearEncodingAttr::toLinearLayout`):
    /// registers repeat the tile when the shape is larger and broadcast
    /// registers are dropped when it is smaller.
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        if shape.len() != self.rank() {
            return Err(LayoutError::rank("shape of a linear layout", self.rank(), shape.len()));
        }
        let canonical = self.layout.out_dim_names();
        let rep_order = self.rep_order();
        let permuted: Vec<Dim> = rep_order.iter().map(|&d| canonical[d as usize].clone()).collect();
        let named: Vec<(Dim, u64)> =
            rep_order.iter().map(|&d| (canonical[d as usize].clone(), shape[d as usize])).collect();
        let ll = self.layout.transpose_outs(&permuted)?;
        let ll = ensure_layout_not_smaller_than(&ll, &named)?;
        let ll = ensure_layout_not_larger_than(&ll, &named, false)?;
        ll.transpose_outs(&canonical)
    }

    /// Elements per thread along each dim for a tensor of `shape`, counting
    /// broadcast registers (upstream `getElemsPerThread`).
    pub fn elems_per_thread(&self, shape: &[i64]) -> Result<Vec<u32>> {
        let fitted = self.to_linear(shape)?;
        Ok(bases_per_dim(&fitted, &Dim::Register, false))
    }

    pub fn total_elems_per_thread(&self, shape: &[i64]) -> Result<u64> {
        Ok(self.elems_per_thread(shape)?.iter().map(|&e| e as u64).product())
    }

    /// Contiguous elements per thread along each dim (upstream `getContigPerThread`).
    pub fn contig_per_thread(&self) -> Vec<u32> {
        self.contig(&Dim::Register, vec![1; self.rank()])
    }

    /// Contiguous elements per warp along each dim (upstream `getContigPerWarp`).
    pub fn contig_per_warp(&self) -> Vec<u32> {
        self.contig(&Dim::Lane, self.contig_per_thread())
    }

    fn contig(&self, dim: &Dim, mut contig: Vec<u32>) -> Vec<u32> {
        let bases = self.layout.bases(dim).cloned().unwrap_or_default();
        let rank = self.rank();
        let mut it = bases.iter().peekable();
        for d in self.order() {
            let d = d as usize;
            let mut expected = vec![0u32; rank];
            expected[d] = contig[d];
            while it.peek().is_some_and(|b| **b == expected) {
                contig[d] *= 2;
                expected[d] *= 2;
                it.next();
            }
        }
        contig
    }
}

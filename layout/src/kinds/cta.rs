//! The CTA (CGA) layout: how the CTAs of a cluster split a tensor.
//!
//! Triton 3.6 stores this as a linear layout from `block` to
//! `dim0..dim{rank-1}` (`CTAEncodingAttr`, later renamed `CGAEncodingAttr`);
//! the legacy triple (CTAsPerCGA, CTASplitNum, CTAOrder) is derived from it and
//! can be used to build one ([`CtaLayout::from_split_params`]).

use crate::dims::{standard_out_dims, Dim};
use crate::error::{check_permutation, check_pow2, LayoutError, Result};
use crate::kinds::linear_encoding::{bases_per_dim, order_per_dim};
use crate::linear::{Bases, LinearLayout};
use crate::utils::ensure_layout_not_larger_than;

/// How CTAs tile a tensor: a surjective linear layout `block -> dim0..dimN`.
/// Zero bases mean several CTAs hold the same data (broadcast).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CtaLayout {
    layout: LinearLayout,
}

impl CtaLayout {
    /// A single CTA (upstream `get1CTALayout`).
    pub fn single_cta(rank: usize) -> CtaLayout {
        let layout = LinearLayout::new(
            vec![(Dim::Block, Vec::new())],
            standard_out_dims(rank).into_iter().map(|d| (d, 1)).collect(),
            true,
        )
        .expect("a block dim with no bases and unit out-dims is always valid");
        CtaLayout { layout }
    }

    /// `num_ctas` CTAs splitting a 1-D tensor (upstream `get1DLayout`).
    pub fn one_d(num_ctas: u32) -> Result<CtaLayout> {
        CtaLayout::from_linear(LinearLayout::identity_1d(num_ctas, Dim::Block, Dim::Axis(0))?)
    }

    /// From the legacy parameters (upstream `fromSplitParams`): along each dim,
    /// `cta_split_num[d]` CTAs split the tensor and the remaining
    /// `ctas_per_cga[d] / cta_split_num[d]` hold copies; dims are filled in
    /// `cta_order`, most minor first.
    pub fn from_split_params(ctas_per_cga: &[u32], cta_split_num: &[u32], cta_order: &[u32]) -> Result<CtaLayout> {
        let rank = cta_order.len();
        if ctas_per_cga.len() != rank {
            return Err(LayoutError::rank("CTAsPerCGA", rank, ctas_per_cga.len()));
        }
        if cta_split_num.len() != rank {
            return Err(LayoutError::rank("CTASplitNum", rank, cta_split_num.len()));
        }
        check_permutation("CTAOrder", cta_order)?;
        let names = standard_out_dims(rank);
        let mut layout = LinearLayout::empty();
        for &dim in cta_order {
            let d = dim as usize;
            let (total, split) = (ctas_per_cga[d], cta_split_num[d]);
            check_pow2("CTAsPerCGA entry", total as i64)?;
            check_pow2("CTASplitNum entry", split as i64)?;
            if total % split != 0 {
                return Err(LayoutError::param(format!(
                    "CTAsPerCGA[{d}] = {total} is not a multiple of CTASplitNum[{d}] = {split}"
                )));
            }
            layout = (layout
                * LinearLayout::identity_1d(split, Dim::Block, names[d].clone())?
                * LinearLayout::zeros_1d(total / split, Dim::Block, names[d].clone(), 1)?)?;
        }
        if rank == 0 {
            return Ok(CtaLayout::single_cta(0));
        }
        CtaLayout::from_linear(layout.transpose_outs(&names)?)
    }

    /// From the `block` bases, one component per tensor dim; output sizes are
    /// inferred (this is how Gluon's `cga_layout` lists are interpreted).
    pub fn from_bases(bases: Bases, rank: usize) -> Result<CtaLayout> {
        CtaLayout::from_linear(LinearLayout::with_inferred_sizes(vec![(Dim::Block, bases)], standard_out_dims(rank))?)
    }

    /// From a layout `block -> dim0..dimN`; validated like upstream's verifier.
    pub fn from_linear(layout: LinearLayout) -> Result<CtaLayout> {
        if layout.in_dim_names() != [Dim::Block] {
            return Err(LayoutError::dim(format!(
                "a CTA layout must have exactly one input dimension named 'block', got {:?}",
                layout.in_dim_names()
            )));
        }
        if layout.out_dim_names() != standard_out_dims(layout.num_out_dims()) {
            return Err(LayoutError::dim(format!(
                "a CTA layout must have out-dims [dim0, dim1, ...], got {:?}",
                layout.out_dim_names()
            )));
        }
        Ok(CtaLayout { layout })
    }

    pub fn linear_layout(&self) -> &LinearLayout {
        &self.layout
    }

    /// The `block` bases.
    pub fn bases(&self) -> &Bases {
        &self.layout.in_dims()[0].1
    }

    pub fn rank(&self) -> usize {
        self.layout.num_out_dims()
    }

    pub fn num_ctas(&self) -> u64 {
        self.layout.in_dim_size(&Dim::Block)
    }

    /// CTAs along each dim, counting broadcast copies (upstream `getCTAsPerCGA`).
    pub fn ctas_per_cga(&self) -> Vec<u32> {
        bases_per_dim(&self.layout, &Dim::Block, false)
    }

    /// Distinct tensor pieces along each dim (upstream `getCTASplitNum`).
    pub fn cta_split_num(&self) -> Vec<u32> {
        bases_per_dim(&self.layout, &Dim::Block, true)
    }

    /// Dim order of the CTA ids, most minor first (upstream `getCTAOrder`).
    pub fn cta_order(&self) -> Vec<u32> {
        let default: Vec<u32> = (0..self.rank() as u32).collect();
        order_per_dim(&self.layout, &Dim::Block, &default)
    }

    /// The same CTA layout with component `k_dim` of every basis zeroed and
    /// that dim's size set to 1: operands of a dot broadcast along K.
    pub(crate) fn broadcast_along(&self, k_dim: usize) -> Result<CtaLayout> {
        if k_dim >= self.rank() {
            return Err(LayoutError::rank("CTA layout of a dot operand", k_dim + 1, self.rank()));
        }
        let bases = self.bases().iter().map(|b| {
            let mut b = b.clone();
            b[k_dim] = 0;
            b
        });
        let mut out_dims = self.layout.out_dims().to_vec();
        out_dims[k_dim].1 = 1;
        CtaLayout::from_linear(LinearLayout::new(vec![(Dim::Block, bases.collect())], out_dims, true)?)
    }

    /// The same CTA layout with tensor dim `dim` removed (for slice layouts).
    pub(crate) fn without_dim(&self, dim: usize) -> Result<CtaLayout> {
        CtaLayout::from_linear(crate::utils::remove_standard_dim(&self.layout, dim)?)
    }

    /// The same CTA layout with `extra` size-1 dims prepended.
    pub(crate) fn with_leading_dims(&self, extra: usize) -> Result<CtaLayout> {
        let rank = self.rank() + extra;
        let bases = self.bases().iter().map(|b| std::iter::repeat_n(0, extra).chain(b.iter().copied()).collect());
        CtaLayout::from_linear(LinearLayout::with_inferred_sizes(
            vec![(Dim::Block, bases.collect())],
            standard_out_dims(rank),
        )?)
    }
}

/// Upstream `combineCtaCgaWithShape`: combines the layout of one CTA (inputs
/// register/lane/warp, or offset) with the CTA layout and fits the result to
/// `shape` exactly -- tiles smaller than the per-CTA shape are repeated along
/// the CTA's most minor input dim, larger ones broadcast.
pub(crate) fn combine_cta_cga_with_shape(
    cta_layout: LinearLayout,
    cga: &CtaLayout,
    shape: &[u64],
) -> Result<LinearLayout> {
    let rank = shape.len();
    if cta_layout.num_out_dims() != rank {
        return Err(LayoutError::rank("CTA tile layout", rank, cta_layout.num_out_dims()));
    }
    if cga.rank() != rank {
        return Err(LayoutError::rank("CTA layout", rank, cga.rank()));
    }
    let names = standard_out_dims(rank);
    let labeled: Vec<(Dim, u64)> = names.iter().cloned().zip(shape.iter().copied()).collect();

    let cga_layout = ensure_layout_not_larger_than(cga.linear_layout(), &labeled, true)?
        .transpose_outs(&cta_layout.out_dim_names())?;

    let cta_shape: Vec<(Dim, u64)> = cta_layout
        .out_dim_names()
        .into_iter()
        .map(|d| {
            let size = labeled.iter().find(|(n, _)| *n == d).map_or(1, |(_, s)| *s);
            let per_cta = (size / cga_layout.out_dim_size(&d) as u64).max(1);
            (d, per_cta)
        })
        .collect();
    let cta_layout = crate::utils::ensure_layout_not_smaller_than(&cta_layout, &cta_shape)?;
    let cta_layout = ensure_layout_not_larger_than(&cta_layout, &cta_shape, true)?;

    let ret = cta_layout.product(&cga_layout)?.transpose_outs(&names)?;
    for (dim, size) in &labeled {
        if ret.out_dim_size(dim) as u64 != *size {
            return Err(LayoutError::algebra(format!(
                "layout covers {} elements along '{dim}' but the shape has {size}",
                ret.out_dim_size(dim)
            )));
        }
    }
    Ok(ret)
}

//! `#ttg.blocked`: each thread owns `size_per_thread` contiguous elements,
//! threads and warps tile the tensor in `order`.

use crate::dims::Dim;
use crate::error::{check_permutation, check_pow2, LayoutError, Result};
use crate::kinds::cta::{combine_cta_cga_with_shape, CtaLayout};
use crate::linear::LinearLayout;
use crate::utils::{identity_standard_nd, shape_per_cta};

/// Upstream `BlockedEncodingAttr` (all vectors have one entry per tensor dim;
/// `order` lists dims fastest-varying first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Blocked {
    pub size_per_thread: Vec<u32>,
    pub threads_per_warp: Vec<u32>,
    pub warps_per_cta: Vec<u32>,
    pub order: Vec<u32>,
    pub cta: CtaLayout,
}

impl Blocked {
    /// A blocked layout on a single CTA.
    pub fn new(size_per_thread: &[u32], threads_per_warp: &[u32], warps_per_cta: &[u32], order: &[u32]) -> Blocked {
        Blocked {
            size_per_thread: size_per_thread.to_vec(),
            threads_per_warp: threads_per_warp.to_vec(),
            warps_per_cta: warps_per_cta.to_vec(),
            order: order.to_vec(),
            cta: CtaLayout::single_cta(order.len()),
        }
    }

    pub fn with_cta(mut self, cta: CtaLayout) -> Blocked {
        self.cta = cta;
        self
    }

    pub fn rank(&self) -> usize {
        self.order.len()
    }

    /// Upstream's verifier: equal ranks, power-of-two sizes, `order` a permutation.
    pub fn validate(&self) -> Result<()> {
        let rank = self.order.len();
        for (what, v) in [
            ("sizePerThread", &self.size_per_thread),
            ("threadsPerWarp", &self.threads_per_warp),
            ("warpsPerCTA", &self.warps_per_cta),
        ] {
            if v.len() != rank {
                return Err(LayoutError::rank(what, rank, v.len()));
            }
            for &x in v {
                check_pow2(&format!("every element of {what}"), x as i64)?;
            }
        }
        if self.cta.rank() != rank {
            return Err(LayoutError::rank("CTA layout of a blocked layout", rank, self.cta.rank()));
        }
        check_permutation("order", &self.order)
    }

    /// The linear layout for a tensor of `shape` (upstream `toLinearLayout`).
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    /// Upstream `BlockedEncodingAttr::toLinearLayout`: registers, then lanes,
    /// then warps, each filling dims in `order`.
    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let cta_layout = (identity_standard_nd(Dim::Register, &self.size_per_thread, &self.order)?
            * identity_standard_nd(Dim::Lane, &self.threads_per_warp, &self.order)?
            * identity_standard_nd(Dim::Warp, &self.warps_per_cta, &self.order)?)?;
        combine_cta_cga_with_shape(cta_layout, &self.cta, shape)
    }
}

/// Upstream `getDefaultBlockedEncoding`: one element per thread, row-major
/// order, threads and warps spread from the fastest dim outwards and CTAs
/// from the slowest dim inwards.
pub fn default_blocked(shape: &[i64], num_warps: u32, threads_per_warp: u32, num_ctas: u32) -> Result<Blocked> {
    for &s in shape {
        if s <= 0 {
            return Err(LayoutError::param(format!("shape entries must be positive, got {s}")));
        }
    }
    let rank = shape.len();
    let order: Vec<u32> = (0..rank as u32).rev().collect();
    blocked_for_ctas(shape, &vec![1; rank], &order, num_warps, threads_per_warp, num_ctas)
}

/// Upstream's shape-taking `BlockedEncodingAttr::get(..., numCTAs)`: a
/// blocked layout with the given `size_per_thread` and `order` whose CTAs
/// split `shape` from the slowest dim inwards, as many as fit (leftovers
/// wrap around on the last dim), and whose lanes and warps then spread as
/// [`blocked_with_cta`] spreads them.
pub fn blocked_for_ctas(
    shape: &[i64],
    size_per_thread: &[u32],
    order: &[u32],
    num_warps: u32,
    threads_per_warp: u32,
    num_ctas: u32,
) -> Result<Blocked> {
    check_spread_arguments(shape, size_per_thread, order)?;
    check_pow2("num_ctas", num_ctas as i64)?;
    let rank = order.len();
    let mut ctas_per_cga = vec![1u32; rank];
    let mut remaining_ctas = num_ctas;
    for &i in order.iter().rev() {
        let i = i as usize;
        let fit = (extent(shape[i]) / size_per_thread[i] as u64).max(1);
        ctas_per_cga[i] = clamp(remaining_ctas as u64, 1, fit) as u32;
        remaining_ctas /= ctas_per_cga[i];
    }
    let cta_split_num = ctas_per_cga.clone();
    // Leftover CTAs wrap around on the last dim (upstream uses rank - 1 here,
    // not order[rank - 1]).
    ctas_per_cga[rank - 1] *= remaining_ctas;
    let cta = CtaLayout::from_split_params(&ctas_per_cga, &cta_split_num, order)?;
    blocked_with_cta(shape, size_per_thread, order, num_warps, threads_per_warp, cta)
}

/// Upstream's shape-taking `BlockedEncodingAttr::get(..., CTALayout)`: a
/// blocked layout with the given `size_per_thread`, `order` and CTA layout
/// whose lanes, then warps, go along the dims in `order` as far as the
/// per-CTA shape takes them, the rest on the slowest dim.
pub fn blocked_with_cta(
    shape: &[i64],
    size_per_thread: &[u32],
    order: &[u32],
    num_warps: u32,
    threads_per_warp: u32,
    cta: CtaLayout,
) -> Result<Blocked> {
    check_spread_arguments(shape, size_per_thread, order)?;
    check_pow2("num_warps", num_warps as i64)?;
    check_pow2("threads_per_warp", threads_per_warp as i64)?;
    let rank = order.len();
    let extents: Vec<u64> = shape.iter().map(|&s| extent(s)).collect();
    let per_cta = shape_per_cta(&cta.cta_split_num(), &extents);
    let mut tpw = vec![0u32; rank];
    let mut wpc = vec![0u32; rank];
    let mut remaining_lanes = threads_per_warp;
    let mut remaining_threads = num_warps as u64 * threads_per_warp as u64;
    let mut remaining_warps = num_warps;
    let mut prev_lanes = 1u32;
    let mut prev_warps = 1u32;
    for &i in &order[..rank - 1] {
        let i = i as usize;
        let threads_per_cta = clamp(remaining_threads, 1, (per_cta[i] / size_per_thread[i] as u64).max(1));
        tpw[i] = clamp(threads_per_cta, 1, remaining_lanes as u64) as u32;
        wpc[i] = clamp(threads_per_cta / tpw[i] as u64, 1, remaining_warps as u64) as u32;
        remaining_warps /= wpc[i];
        remaining_lanes /= tpw[i];
        remaining_threads /= threads_per_cta;
        prev_lanes *= tpw[i];
        prev_warps *= wpc[i];
    }
    let last = order[rank - 1] as usize;
    tpw[last] = threads_per_warp / prev_lanes;
    wpc[last] = num_warps / prev_warps;
    Ok(Blocked {
        size_per_thread: size_per_thread.to_vec(),
        threads_per_warp: tpw,
        warps_per_cta: wpc,
        order: order.to_vec(),
        cta,
    })
}

/// What spreading a tensor over threads needs: one size and one order entry
/// per dim, at least one dim, no empty thread and `order` a permutation.
fn check_spread_arguments(shape: &[i64], size_per_thread: &[u32], order: &[u32]) -> Result<()> {
    let rank = order.len();
    if rank == 0 {
        return Err(LayoutError::param("a blocked layout needs a shape of rank >= 1"));
    }
    if shape.len() != rank {
        return Err(LayoutError::rank("shape", rank, shape.len()));
    }
    if size_per_thread.len() != rank {
        return Err(LayoutError::rank("sizePerThread", rank, size_per_thread.len()));
    }
    if size_per_thread.contains(&0) {
        return Err(LayoutError::param("every element of sizePerThread must be positive"));
    }
    check_permutation("order", order)
}

/// A dim's size as the spreading counts it: an empty (or dynamic) dim
/// takes no more than a dim of one element.
fn extent(size: i64) -> u64 {
    size.max(1) as u64
}

/// `std::clamp` (which assumes `lo <= hi`; here `hi >= 1 = lo` always holds).
fn clamp(v: u64, lo: u64, hi: u64) -> u64 {
    v.max(lo).min(hi)
}

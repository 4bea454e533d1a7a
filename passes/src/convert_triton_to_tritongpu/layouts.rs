//! The layouts convert-triton-to-tritongpu gives tensors, as pure functions of
//! shapes, the pass options and source layouts. No MLIR here.
//!
//! Upstream spreads these rules over TritonGPUTypeConverter (the default
//! layout), the per-op patterns of TritonToTritonGPUPass.cpp (dot, expand_dims,
//! split, cat, descriptor gather/scatter) and the layout inference of the
//! TritonGPU dialect (trans, join, split results).
use tritium_layout::{blocked_for_ctas, default_blocked, Blocked, CtaLayout, Layout, Slice};

/// Layout rules fail with a message for the op being converted.
type Result<T> = std::result::Result<T, String>;

/// How the pass may spread a tensor: its `num-warps`, `threads-per-warp` and
/// `num-ctas` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub num_warps: u32,
    pub threads_per_warp: u32,
    pub num_ctas: u32,
}

impl Grid {
    /// The layout of every tensor no op rule says otherwise about (upstream
    /// `getDefaultBlockedEncoding`).
    pub fn default_layout(&self, shape: &[i64]) -> Result<Blocked> {
        default_blocked(shape, self.num_warps, self.threads_per_warp, self.num_ctas).map_err(|e| e.to_string())
    }

    /// A blocked layout with the given `size_per_thread` and `order`, CTAs,
    /// warps and lanes spread over `shape` as upstream's shape-taking
    /// `BlockedEncodingAttr::get` does (see [`blocked_for_ctas`]).
    pub fn blocked_for_shape(&self, shape: &[i64], size_per_thread: &[u32], order: &[u32]) -> Result<Blocked> {
        let blocked =
            blocked_for_ctas(shape, size_per_thread, order, self.num_warps, self.threads_per_warp, self.num_ctas)
                .map_err(|e| e.to_string())?;
        blocked.validate().map_err(|e| e.to_string())?;
        Ok(blocked)
    }

    /// The layout of a `tt.dot` result (and accumulator): row-major, with 2x2
    /// or 4x4 elements per thread in the two matrix dims once the tensor has
    /// at least 4 or 16 elements per thread.
    pub fn dot_result(&self, shape: &[i64]) -> Result<Blocked> {
        let rank = shape.len();
        if rank < 2 {
            return Err(String::from("a dot result needs rank >= 2"));
        }
        let elements: i64 = shape.iter().product();
        let per_thread = elements / i64::from(self.num_warps * self.threads_per_warp);
        let tile = match per_thread {
            16.. => 4,
            4.. => 2,
            _ => 1,
        };
        let mut size_per_thread = vec![1u32; rank];
        for dim in [rank - 2, rank - 1] {
            size_per_thread[dim] = tile.min(shape[dim].max(1) as u32);
        }
        let order: Vec<u32> = (0..rank as u32).rev().collect();
        self.blocked_for_shape(shape, &size_per_thread, &order)
    }

    /// The layout a `tt.split` source is converted to when it does not hold
    /// both halves of each pair in one thread: the default layout of one
    /// result with a fastest-varying dim of two elements appended.
    pub fn split_source(&self, result_shape: &[i64]) -> Result<Blocked> {
        let half = self.default_layout(result_shape)?;
        let rank = half.rank() + 1;
        let mut order = vec![(rank - 1) as u32];
        order.extend(&half.order);
        Ok(Blocked::new(
            &appended(&half.size_per_thread, 2),
            &appended(&half.threads_per_warp, 1),
            &appended(&half.warps_per_cta, 1),
            &order,
        )
        .with_cta(cta_with_unit_dim(&half.cta, half.rank())?))
    }

    /// The layout of the row offsets of `tt.descriptor_gather`/`_scatter`:
    /// TMA gather4/scatter4 need four consecutive offsets in one thread, so a
    /// slice of a layout that gives each thread 4 elements and broadcasts
    /// over warps.
    pub fn gather_offsets(&self) -> Slice {
        let parent = Blocked::new(&[1, 4], &[self.threads_per_warp, 1], &[1, self.num_warps], &[1, 0]);
        Slice::new(0, Layout::Blocked(parent))
    }
}

/// `tt.expand_dims` result: the source's layout with a unit dim inserted at
/// `axis`; its order is the identity (dim 0 fastest), as upstream builds it.
pub fn expand_dims(source: &Blocked, axis: usize) -> Result<Blocked> {
    if axis > source.rank() {
        return Err(format!("expand_dims axis {axis} is out of range"));
    }
    let inserted = |v: &[u32]| {
        let mut v = v.to_vec();
        v.insert(axis, 1);
        v
    };
    let order: Vec<u32> = (0..=source.rank() as u32).collect();
    Ok(Blocked::new(
        &inserted(&source.size_per_thread),
        &inserted(&source.threads_per_warp),
        &inserted(&source.warps_per_cta),
        &order,
    )
    .with_cta(cta_with_unit_dim(&source.cta, axis)?))
}

/// `tt.trans` result: the same threads hold the same elements, so every
/// per-dim property is permuted like the dims, and the order is renamed.
pub fn transpose(source: &Blocked, order: &[u32]) -> Result<Blocked> {
    let rank = source.rank();
    let mut seen = vec![false; rank];
    if order.len() != rank
        || order.iter().any(|&d| (d as usize) >= rank || std::mem::replace(&mut seen[d as usize], true))
    {
        return Err(format!("trans order {order:?} is not a permutation of rank {rank}"));
    }
    if order.iter().enumerate().all(|(i, &d)| i as u32 == d) {
        return Ok(source.clone());
    }
    let permuted = |v: &[u32]| order.iter().map(|&d| v[d as usize]).collect::<Vec<u32>>();
    // New dim i is old dim order[i]: rename the dims listed in the order.
    let mut new_index = vec![0u32; rank];
    for (new, &old) in order.iter().enumerate() {
        new_index[old as usize] = new as u32;
    }
    let new_order: Vec<u32> = source.order.iter().map(|&old| new_index[old as usize]).collect();
    let bases = source.cta.bases().iter().map(|b| permuted(b)).collect();
    Ok(Blocked::new(
        &permuted(&source.size_per_thread),
        &permuted(&source.threads_per_warp),
        &permuted(&source.warps_per_cta),
        &new_order,
    )
    .with_cta(CtaLayout::from_bases(bases, rank).map_err(|e| e.to_string())?))
}

/// `tt.join` result: the operands' layout with a new fastest dim of two
/// elements, both held by the same thread.
pub fn join(source: &Blocked) -> Result<Blocked> {
    let mut order = vec![source.rank() as u32];
    order.extend(&source.order);
    Ok(Blocked::new(
        &appended(&source.size_per_thread, 2),
        &appended(&source.threads_per_warp, 1),
        &appended(&source.warps_per_cta, 1),
        &order,
    )
    .with_cta(cta_with_unit_dim(&source.cta, source.rank())?))
}

/// Whether a `tt.split` source already holds both halves of each pair in one
/// thread with its last dim fastest (else the pass converts it first).
pub fn splits_in_registers(source: &Blocked) -> bool {
    let last = source.rank().saturating_sub(1) as u32;
    source.size_per_thread.last() == Some(&2) && source.order.first() == Some(&last)
}

/// `tt.split` results: the source's layout without its last dim, when that
/// dim lives in registers only (upstream's "simple split"); `None` otherwise.
pub fn split(source: &Blocked) -> Option<Blocked> {
    let rank = source.rank();
    let last = rank.checked_sub(1)?;
    let simple = source.size_per_thread[last] == 2
        && source.threads_per_warp[last] == 1
        && source.warps_per_cta[last] == 1
        && source.cta.ctas_per_cga().get(last) == Some(&1);
    if !simple {
        return None;
    }
    let order: Vec<u32> = source.order.iter().copied().filter(|&d| d as usize != last).collect();
    let bases = source.cta.bases().iter().map(|b| b[..last].to_vec()).collect();
    Some(
        Blocked::new(
            &source.size_per_thread[..last],
            &source.threads_per_warp[..last],
            &source.warps_per_cta[..last],
            &order,
        )
        .with_cta(CtaLayout::from_bases(bases, last).ok()?),
    )
}

/// `tt.cat` result: the default layout of the result, with more elements
/// per thread along its fastest dim when each thread must hold all of its
/// elements of both operands (rounded up to a power of two).
pub fn cat(result: &Blocked, lhs_elements: u64, rhs_elements: u64, result_elements: u64) -> Blocked {
    let needed = (lhs_elements + rhs_elements).next_power_of_two();
    let mut layout = result.clone();
    if let Some(&fastest) = result.order.first() {
        // Never below one (upstream's unsigned division could give zero, an
        // invalid layout, if the result had more elements than both operands).
        let factor = (needed / result_elements.max(1)).max(1);
        layout.size_per_thread[fastest as usize] *= factor as u32;
    }
    layout
}

/// `v` with `x` appended.
fn appended(v: &[u32], x: u32) -> Vec<u32> {
    let mut v = v.to_vec();
    v.push(x);
    v
}

/// `cta` with a dim of one CTA inserted at `axis`.
fn cta_with_unit_dim(cta: &CtaLayout, axis: usize) -> Result<CtaLayout> {
    let bases = cta
        .bases()
        .iter()
        .map(|b| {
            let mut b = b.clone();
            b.insert(axis, 0);
            b
        })
        .collect();
    CtaLayout::from_bases(bases, cta.rank() + 1).map_err(|e| e.to_string())
}

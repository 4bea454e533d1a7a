//! Classification of layout conversions (`ttg.convert_layout`), following
//! upstream lib/Analysis/Utility.cpp (`minimalCvtLayout`,
//! `cvtReordersRegisters`, `cvtNeedsWarpShuffle`, `cvtNeedsSharedMemory`,
//! `getWarpLayoutConvertDecomposition`) and `isConvertTrivial`.
//!
//! All functions take the *linear layouts of the tensors* (source and
//! destination on the same shape); [`classify_conversion`] does the
//! `to_linear` step for [`Layout`]s.

use crate::dims::Dim;
use crate::error::{LayoutError, Result};
use crate::kinds::Layout;
use crate::linear::LinearLayout;

/// How a conversion between two distributed layouts must be lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConversionKind {
    /// Both layouts are the same linear layout: nothing to do
    /// (upstream `isConvertTrivial`, folded away by canonicalisation).
    NoOp,
    /// Every thread already holds its destination elements; only the order of
    /// its registers changes (upstream `cvtReordersRegisters`).
    RegisterPermutation,
    /// Data moves between lanes of the same warp only and can be done with
    /// warp shuffles (upstream `cvtNeedsWarpShuffle`).
    WarpShuffle,
    /// Data crosses warps (or the warp-local permutation is too complex) and
    /// goes through shared memory scratch (upstream `cvtNeedsSharedMemory`).
    SharedMemory,
}

/// The smallest piece of `dst⁻¹ ∘ src` that is not the identity on the
/// slowest-moving common input dims (upstream `minimalCvtLayout`).
///
/// The result maps destination hardware locations to source hardware
/// locations.  Block, warp, lane and register dims are quotiented out in that
/// order for as long as the conversion is trivial on them: no block left means
/// no distributed shared memory, no warp left means a warp-local conversion,
/// no lane left means a register permutation.
pub fn minimal_cvt_layout(src: &LinearLayout, dst: &LinearLayout) -> Result<LinearLayout> {
    let src_dims = src.in_dim_names();
    let dst_dims = dst.in_dim_names();
    let common_suffix: Vec<Dim> =
        src_dims.iter().rev().zip(dst_dims.iter().rev()).take_while(|(s, d)| s == d).map(|(s, _)| s.clone()).collect();
    let mut comp = dst.invert_and_compose(src)?;
    for dim in common_suffix {
        match comp.quotient(&[dim]) {
            Some(q) => comp = q,
            None => break,
        }
    }
    Ok(comp)
}

/// Upstream `cvtReordersRegisters`.
pub fn cvt_reorders_registers(src: &LinearLayout, dst: &LinearLayout) -> Result<bool> {
    let outs = minimal_cvt_layout(src, dst)?.out_dim_names();
    Ok(outs.is_empty() || outs == [Dim::Register])
}

/// Upstream `cvtNeedsWarpShuffle`: warp-local (only register and lane dims
/// left) and decomposable with at most one register/lane transposition.
pub fn cvt_needs_warp_shuffle(src: &LinearLayout, dst: &LinearLayout) -> Result<bool> {
    let outs = minimal_cvt_layout(src, dst)?.out_dim_names();
    if outs != [Dim::Register, Dim::Lane] {
        return Ok(false);
    }
    Ok(warp_conversion_decomposition(src, dst)?.mixed_transpositions.len() < 2)
}

/// Upstream `cvtNeedsSharedMemory`.
pub fn cvt_needs_shared_memory(src: &LinearLayout, dst: &LinearLayout) -> Result<bool> {
    Ok(!cvt_reorders_registers(src, dst)? && !cvt_needs_warp_shuffle(src, dst)?)
}

/// Classifies a conversion given the tensors' linear layouts.
pub fn classify_linear_conversion(src: &LinearLayout, dst: &LinearLayout) -> Result<ConversionKind> {
    if src == dst {
        return Ok(ConversionKind::NoOp);
    }
    if cvt_reorders_registers(src, dst)? {
        return Ok(ConversionKind::RegisterPermutation);
    }
    if cvt_needs_warp_shuffle(src, dst)? {
        return Ok(ConversionKind::WarpShuffle);
    }
    Ok(ConversionKind::SharedMemory)
}

/// Classifies converting a tensor of `shape` from layout `src` to `dst`.
/// Both must be distributed layouts.
pub fn classify_conversion(src: &Layout, dst: &Layout, shape: &[i64]) -> Result<ConversionKind> {
    if !src.is_distributed() || !dst.is_distributed() {
        return Err(LayoutError::param("convert_layout classification needs two distributed layouts"));
    }
    classify_linear_conversion(&src.to_linear(shape)?, &dst.to_linear(shape)?)
}

/// Gluon's `is_convert_layout_trivial`: the conversion only permutes
/// registers (or is nothing at all).
pub fn is_convert_layout_trivial(src: &LinearLayout, dst: &LinearLayout) -> Result<bool> {
    if src == dst {
        return Ok(true);
    }
    let ins = minimal_cvt_layout(src, dst)?.in_dim_names();
    Ok(ins.is_empty() || ins == [Dim::Register])
}

/// Upstream `isCvtWarpSync`: every warp reads back only what it wrote when
/// the conversion goes through shared memory, so a warp barrier
/// (`bar.warp.sync`) can separate the writes from the reads instead of a
/// barrier of the whole CTA. That holds when the conversion maps each warp
/// to itself and nothing else across warps, and neither layout broadcasts
/// over warps (two warps holding one element would write one shared slot).
pub fn is_warp_synchronous_conversion(src: &LinearLayout, dst: &LinearLayout) -> bool {
    let Ok(conversion) = dst.invert_and_compose(src) else {
        return false;
    };
    conversion.is_trivial_over(&[Dim::Warp])
        && src.free_variable_mask(&Dim::Warp) == 0
        && dst.free_variable_mask(&Dim::Warp) == 0
}

/// A warp-local conversion written as a permutation of register and lane
/// index bits, factored as `P = P_mixed ∘ P_lane ∘ P_reg` (upstream
/// `DecomposedWarpConversion`, without the byte-permute selectors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpDecomposition {
    /// Permutation of register bits (`register -> register`).
    pub p_reg: LinearLayout,
    /// Permutation of lane bits (`lane -> lane`).
    pub p_lane: LinearLayout,
    /// Transpositions `(register bit, lane bit)` exchanging data between lanes.
    pub mixed_transpositions: Vec<(u32, u32)>,
}

/// Upstream `getWarpLayoutConvertDecomposition` (the cycle factorisation; the
/// instruction-selector post-processing does not change the number of mixed
/// transpositions and is not reproduced).
pub fn warp_conversion_decomposition(src: &LinearLayout, dst: &LinearLayout) -> Result<WarpDecomposition> {
    let (reg, lane) = (Dim::Register, Dim::Lane);
    // Broadcast registers would only inflate the instruction count.
    let src = src.remove_zero_bases_along_dim(&reg)?;
    let dst = dst.remove_zero_bases_along_dim(&reg)?;
    let n_reg = src.in_dim_size_log2(&reg).max(dst.in_dim_size_log2(&reg)) as usize;
    let n_lane = src.in_dim_size_log2(&lane).max(dst.in_dim_size_log2(&lane)) as usize;
    let in_names = [reg.clone(), lane.clone()];
    let out_names = src.out_dim_names();
    let mut s = src.sublayout(&in_names, &out_names)?;
    let mut t = dst.sublayout(&in_names, &out_names)?;

    // Pad both to equally many register and lane bits with zero bases so the
    // conversion is a permutation.
    let pad = |ll: &LinearLayout| -> Result<LinearLayout> {
        let in_dims = ll
            .in_dims()
            .iter()
            .map(|(d, bases)| {
                let target = if *d == Dim::Register { n_reg } else { n_lane };
                let mut bases = bases.clone();
                bases.resize(target.max(bases.len()), vec![0; out_names.len()]);
                (d.clone(), bases)
            })
            .collect();
        LinearLayout::new(in_dims, ll.out_dims().to_vec(), false)
    };
    s = pad(&s)?;
    t = pad(&t)?;

    // Skeleton of P from T⁻¹ ∘ S, then fill in the zero columns, preferring
    // fixed points.  Each P basis is [register component, lane component].
    let skeleton = s.invert_and_compose(&t)?;
    let mut p: Vec<Vec<Vec<u32>>> = in_names.iter().map(|d| skeleton.bases(d).cloned().unwrap_or_default()).collect();
    let s_flat = s.flatten_outs()?;
    let t_flat = t.flatten_outs()?;
    let mut src_free_zeros = Vec::new();
    let mut dst_free_zeros = Vec::new();
    for (dim_idx, dim) in in_names.iter().enumerate() {
        for (idx, p_basis) in p[dim_idx].iter_mut().enumerate() {
            let s_val = s_flat.basis(dim, idx).map_or(0, |b| b[0]);
            let t_val = t_flat.basis(dim, idx).map_or(0, |b| b[0]);
            match (s_val == 0, t_val == 0) {
                (true, true) => p_basis[dim_idx] = 1 << idx,
                (true, false) => src_free_zeros.push((dim_idx, idx)),
                (false, true) => dst_free_zeros.push((dim_idx, idx)),
                (false, false) => {}
            }
        }
    }
    for (&(src_dim, src_idx), &(dst_dim, dst_idx)) in src_free_zeros.iter().zip(&dst_free_zeros) {
        p[src_dim][src_idx][dst_dim] = 1 << dst_idx;
    }

    // Walk the cycles of P.  Runs of consecutive lane bits inside a mixed
    // cycle are sliced out as a transposition (r_i l_j):
    // (.. r_m l_j .. l_k r_i ..) = (r_i l_j) * (.. r_m r_i ..)(l_j .. l_k).
    let mut reg_bases = vec![0u32; n_reg];
    let mut lane_bases = vec![0u32; n_lane];
    let mut mixed = Vec::new();
    let flat_idx = |dim: usize, idx: usize| if dim == 0 { idx } else { n_reg + idx };
    let mut visited = vec![false; n_reg + n_lane];
    for start_dim in 0..2 {
        let size = if start_dim == 0 { n_reg } else { n_lane };
        for start in 0..size {
            if visited[flat_idx(start_dim, start)] {
                continue;
            }
            let (mut cur_dim, mut cur) = (start_dim, start);
            let (mut reg_start, mut lane_start, mut lane_end, mut reg_end) = (None, None, None, None);
            loop {
                visited[flat_idx(cur_dim, cur)] = true;
                let next_vec = p[cur_dim]
                    .get(cur)
                    .ok_or_else(|| LayoutError::algebra("warp decomposition: basis index out of range"))?;
                let (next_dim, next) = next_vec
                    .iter()
                    .enumerate()
                    .rfind(|(_, &v)| v != 0)
                    .map(|(d, &v)| (d, v.trailing_zeros() as usize))
                    .ok_or_else(|| {
                        LayoutError::algebra(
                            "warp decomposition: the conversion is not a permutation of register and lane bits",
                        )
                    })?;
                match (cur_dim, next_dim) {
                    (0, 0) => reg_bases[cur] = 1 << next,
                    (1, 1) => lane_bases[cur] = 1 << next,
                    (0, _) => {
                        reg_start = Some(cur);
                        lane_start = Some(next);
                    }
                    _ => {
                        reg_end = Some(next);
                        lane_end = Some(cur);
                    }
                }
                if let (Some(r_end), Some(r_start), Some(l_start), Some(l_end)) =
                    (reg_end, reg_start, lane_start, lane_end)
                {
                    reg_bases[r_start] = 1 << r_end;
                    lane_bases[l_end] = 1 << l_start;
                    mixed.push((r_end as u32, l_start as u32));
                    (reg_start, lane_start, lane_end, reg_end) = (None, None, None, None);
                }
                cur_dim = next_dim;
                cur = next;
                if flat_idx(cur_dim, cur) == flat_idx(start_dim, start) {
                    break;
                }
                if visited[flat_idx(cur_dim, cur)] {
                    return Err(LayoutError::algebra("warp decomposition: the conversion is not a permutation"));
                }
            }
        }
    }
    let p_reg = LinearLayout::new(
        vec![(reg.clone(), reg_bases.into_iter().map(|b| vec![b]).collect())],
        vec![(reg, 1u32 << n_reg)],
        false,
    )?;
    let p_lane = LinearLayout::new(
        vec![(lane.clone(), lane_bases.into_iter().map(|b| vec![b]).collect())],
        vec![(lane, 1u32 << n_lane)],
        false,
    )?;
    Ok(WarpDecomposition { p_reg, p_lane, mixed_transpositions: mixed })
}

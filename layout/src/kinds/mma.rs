//! `#ttg.nvidia_mma`: accumulator layout of NVIDIA tensor-core instructions
//! (version 2: `mma.sync` on Ampere/Turing; version 3: Hopper `wgmma`).

use crate::dims::{standard_out_dims, Dim};
use crate::error::{check_pow2, LayoutError, Result};
use crate::kinds::cta::{combine_cta_cga_with_shape, CtaLayout};
use crate::linear::LinearLayout;
use crate::utils::{identity_standard_nd, matrix_order};

/// Upstream `NvidiaMmaEncodingAttr`.  `instr_shape` is the tile shape for
/// version 2 (`[16, 8]`, or `[1, 16, 8]` with a batch dim) and `[M, N, K]` for
/// version 3.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NvidiaMma {
    pub version_major: u32,
    pub version_minor: u32,
    pub warps_per_cta: Vec<u32>,
    pub instr_shape: Vec<u32>,
    pub cta: CtaLayout,
}

impl NvidiaMma {
    /// An MMA layout on a single CTA.
    pub fn new(version_major: u32, version_minor: u32, warps_per_cta: &[u32], instr_shape: &[u32]) -> NvidiaMma {
        NvidiaMma {
            version_major,
            version_minor,
            warps_per_cta: warps_per_cta.to_vec(),
            instr_shape: instr_shape.to_vec(),
            cta: CtaLayout::single_cta(warps_per_cta.len()),
        }
    }

    pub fn with_cta(mut self, cta: CtaLayout) -> NvidiaMma {
        self.cta = cta;
        self
    }

    /// Turing is version 2.1; it shares the Ampere layout.
    pub fn is_ampere(&self) -> bool {
        self.version_major == 2
    }

    pub fn is_hopper(&self) -> bool {
        self.version_major == 3
    }

    pub fn rank(&self) -> usize {
        self.cta.rank()
    }

    /// Upstream `getRepOrder`: row-major.
    pub fn rep_order(&self) -> Vec<u32> {
        matrix_order(self.rank(), true)
    }

    pub fn validate(&self) -> Result<()> {
        let rank = self.cta.rank();
        if self.warps_per_cta.len() != rank {
            return Err(LayoutError::rank("warpsPerCTA of an MMA layout", rank, self.warps_per_cta.len()));
        }
        for &w in &self.warps_per_cta {
            check_pow2("every element of warpsPerCTA", w as i64)?;
        }
        if rank < 2 {
            return Err(LayoutError::param("an MMA layout needs rank >= 2"));
        }
        match self.version_major {
            2 if self.instr_shape.len() != rank => {
                Err(LayoutError::rank("instrShape of an MMA v2 layout", rank, self.instr_shape.len()))
            }
            3 if self.instr_shape.len() != 3 => {
                Err(LayoutError::rank("instrShape [M, N, K] of an MMA v3 layout", 3, self.instr_shape.len()))
            }
            3 if rank != 2 => Err(LayoutError::rank("MMA v3 layout", 2, rank)),
            2 | 3 => Ok(()),
            v => Err(LayoutError::param(format!("MMA version {v} has no linear layout (only 2 and 3)"))),
        }
    }

    /// The linear layout for a tensor of `shape` (upstream `toLinearLayout`).
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    /// Upstream `NvidiaMmaEncodingAttr::toLinearLayout`.
    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let rank = self.rank();
        let tile_shape: Vec<u32> =
            if self.is_ampere() { self.instr_shape.clone() } else { self.instr_shape[..2].to_vec() };
        // The accumulator is the A operand's layout with kWidth = 2.
        let order = matrix_order(rank, true);
        let mut cta_layout = nvidia_mma_tile(&tile_shape, 2, &order, &self.rep_order())?;
        let warp_order = matrix_order(rank, !self.is_hopper());
        let warps = identity_standard_nd(Dim::Warp, &self.warps_per_cta, &warp_order)?
            .transpose_outs(&cta_layout.out_dim_names())?;
        cta_layout = cta_layout.product(&warps)?;
        combine_cta_cga_with_shape(cta_layout, &self.cta, shape)
    }
}

/// The register/lane tile of one MMA instruction operand (upstream
/// `nvidiaMmaTile`): along the inner dim `k_width` registers then 4 lanes;
/// along the outer dim 8 lanes, then register repeats to fill the tile.
pub(crate) fn nvidia_mma_tile(
    tile_shape: &[u32],
    k_width: u32,
    order: &[u32],
    rep_order: &[u32],
) -> Result<LinearLayout> {
    let rank = rep_order.len();
    if rank < 2 || tile_shape.len() != rank || order.len() != rank {
        return Err(LayoutError::rank("MMA tile", rank, tile_shape.len()));
    }
    let names = standard_out_dims(rank);
    // A trivial layout that only fixes the output dim order to rep_order.
    let trivial = identity_standard_nd(Dim::Register, &vec![1; rank], rep_order)?;
    let inner = order[0] as usize;
    let outer = order[1] as usize;
    let m = tile_shape[outer];
    let n = tile_shape[inner];
    if !m.is_multiple_of(8) {
        return Err(LayoutError::param(format!("MMA tile rows ({m}) must be a multiple of 8")));
    }
    if k_width == 0 || !n.is_multiple_of(k_width * 4) {
        return Err(LayoutError::param(format!("MMA tile columns ({n}) must be a multiple of 4 * kWidth ({k_width})")));
    }
    trivial
        * LinearLayout::identity_1d(k_width, Dim::Register, names[inner].clone())?
        * LinearLayout::identity_1d(4, Dim::Lane, names[inner].clone())?
        * LinearLayout::identity_1d(8, Dim::Lane, names[outer].clone())?
        * LinearLayout::identity_1d(m / 8, Dim::Register, names[outer].clone())?
        * LinearLayout::identity_1d(n / (k_width * 4), Dim::Register, names[inner].clone())?
}

/// Lanes or warps of a dot operand (upstream `broadcastedDotOperandLayout`):
/// identity along every dim except `k_dim`, along which they broadcast, since
/// every warp computing a row (column) of C needs the whole K extent.
pub(crate) fn broadcasted_dot_operand_layout(
    shape: &[u32],
    order: &[u32],
    k_dim: usize,
    in_dim: Dim,
) -> Result<LinearLayout> {
    let names = standard_out_dims(shape.len());
    let mut layout = LinearLayout::empty();
    for &d in order {
        let d = d as usize;
        let part = if d == k_dim {
            LinearLayout::zeros_1d(shape[d], in_dim.clone(), names[d].clone(), 1)?
        } else {
            LinearLayout::identity_1d(shape[d], in_dim.clone(), names[d].clone())?
        };
        layout = layout.product(&part)?;
    }
    Ok(layout)
}

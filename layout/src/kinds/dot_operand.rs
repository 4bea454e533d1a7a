//! `#ttg.dot_op`: layout of an operand of a dot whose result has layout `parent`.

use crate::dims::Dim;
use crate::error::{LayoutError, Result};
use crate::kinds::cta::{combine_cta_cga_with_shape, CtaLayout};
use crate::kinds::mma::{broadcasted_dot_operand_layout, nvidia_mma_tile};
use crate::kinds::{Blocked, Layout, NvidiaMma};
use crate::linear::LinearLayout;
use crate::utils::{identity_standard_nd, matrix_order, order_for_dot_operand};

/// Upstream `DotOperandEncodingAttr`.  `op_idx` is 0 for A (`[.., M, K]`) and
/// 1 for B (`[.., K, N]`); `k_width` is the number of consecutive K elements a
/// thread holds (mandatory for MMA parents, 0 for a blocked/FMA parent).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DotOperand {
    pub op_idx: u32,
    pub parent: Box<Layout>,
    pub k_width: u32,
}

impl DotOperand {
    pub fn new(op_idx: u32, parent: Layout, k_width: u32) -> DotOperand {
        DotOperand { op_idx, parent: Box::new(parent), k_width }
    }

    pub fn rank(&self) -> usize {
        self.parent.rank()
    }

    /// The K dim of this operand (the last dim for A, the second to last for
    /// B); meaningful for rank >= 2, which `validate` enforces.
    pub fn k_dim(&self) -> usize {
        let rank = self.rank();
        if self.op_idx == 0 {
            rank.saturating_sub(1)
        } else {
            rank.saturating_sub(2)
        }
    }

    /// Upstream's verifier rules for the parents supported here.
    pub fn validate(&self) -> Result<()> {
        if self.op_idx > 1 {
            return Err(LayoutError::param(format!("dot_op opIdx can be 0 or 1, got {}", self.op_idx)));
        }
        if self.rank() < 2 {
            return Err(LayoutError::param("a dot operand needs rank >= 2"));
        }
        match self.parent.as_ref() {
            Layout::NvidiaMma(mma) => {
                mma.validate()?;
                if !(mma.is_ampere() || mma.is_hopper()) {
                    return Err(LayoutError::param("dot_op with an MMA parent needs MMA version 2 or 3"));
                }
                if self.k_width == 0 {
                    return Err(LayoutError::param("dot_op kWidth is mandatory for Ampere or Hopper MMA parents"));
                }
                if self.op_idx != 0 && mma.is_hopper() {
                    return Err(LayoutError::param(
                        "dot_op opIdx must be 0 for a Hopper MMA parent: wgmma takes only A from registers",
                    ));
                }
                Ok(())
            }
            Layout::Blocked(blocked) => {
                blocked.validate()?;
                if self.k_width != 0 {
                    return Err(LayoutError::param("dot_op kWidth is not supported with a blocked parent"));
                }
                Ok(())
            }
            _ => Err(LayoutError::param("dot_op parent must be an NVIDIA MMA or a blocked layout")),
        }
    }

    /// Upstream `DotOperandEncodingAttr::getCGALayout`: the parent's CTA
    /// layout, broadcast along K.
    pub fn cta_layout(&self) -> Result<CtaLayout> {
        if self.rank() < 2 {
            return Err(LayoutError::param("a dot operand needs rank >= 2"));
        }
        self.parent.cta_layout()?.broadcast_along(self.k_dim())
    }

    /// Upstream `getRepOrder`.
    pub fn rep_order(&self) -> Vec<u32> {
        match self.parent.as_ref() {
            Layout::Blocked(b) => b.order.clone(),
            _ => order_for_dot_operand(self.op_idx, self.rank(), true),
        }
    }

    /// The linear layout for a tensor of `shape` (upstream `toLinearLayout`).
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        if shape.len() != self.rank() {
            return Err(LayoutError::rank("shape of a dot operand", self.rank(), shape.len()));
        }
        match self.parent.as_ref() {
            Layout::NvidiaMma(mma) => self.mma_to_linear(mma, shape),
            Layout::Blocked(blocked) => self.fma_to_linear(blocked, shape),
            _ => Err(LayoutError::param("dot_op parent must be an NVIDIA MMA or a blocked layout")),
        }
    }

    /// Upstream `nvidiaDotToLinearLayout`.
    fn mma_to_linear(&self, mma: &NvidiaMma, shape: &[u64]) -> Result<LinearLayout> {
        let rank = shape.len();
        let is_a = self.op_idx == 0;
        let mut tile_shape = vec![1u32; rank];
        if is_a {
            tile_shape[rank - 2] = 16;
            tile_shape[rank - 1] = self.k_width * 8;
        } else {
            tile_shape[rank - 2] = self.k_width * 8;
            tile_shape[rank - 1] = 8;
        }
        let order = order_for_dot_operand(self.op_idx, rank, true);
        let mut cta_layout = nvidia_mma_tile(&tile_shape, self.k_width, &order, &self.rep_order())?;
        let warp_order = matrix_order(rank, !mma.is_hopper());
        let warps = broadcasted_dot_operand_layout(&mma.warps_per_cta, &warp_order, self.k_dim(), Dim::Warp)?
            .transpose_outs(&cta_layout.out_dim_names())?;
        cta_layout = cta_layout.product(&warps)?;
        combine_cta_cga_with_shape(cta_layout, &self.cta_layout()?, shape)
    }

    /// Upstream `fmaDotToLinearLayout`: each thread holds the whole K extent.
    fn fma_to_linear(&self, blocked: &Blocked, shape: &[u64]) -> Result<LinearLayout> {
        let k_dim = self.k_dim();
        let order = &blocked.order;
        let mut thread_size = blocked.size_per_thread.clone();
        thread_size[k_dim] =
            u32::try_from(shape[k_dim]).map_err(|_| LayoutError::TooLarge(format!("K extent {}", shape[k_dim])))?;
        let names = crate::dims::standard_out_dims(shape.len());
        let rep_names: Vec<Dim> = order.iter().map(|&d| names[d as usize].clone()).collect();
        let registers = identity_standard_nd(Dim::Register, &thread_size, order)?;
        let lanes = broadcasted_dot_operand_layout(&blocked.threads_per_warp, order, k_dim, Dim::Lane)?;
        let warps = broadcasted_dot_operand_layout(&blocked.warps_per_cta, order, k_dim, Dim::Warp)?;
        let cta_layout = (registers.transpose_outs(&rep_names)?
            * lanes.transpose_outs(&rep_names)?
            * warps.transpose_outs(&rep_names)?)?;
        combine_cta_cga_with_shape(cta_layout, &self.cta_layout()?, shape)
    }
}

//! Triton GPU layout kinds (the attributes of TritonGPUAttrDefs.td) and their
//! conversion to linear layouts.

mod blocked;
mod cta;
mod dot_operand;
pub mod linear_encoding;
mod mma;
mod shared;
mod slice;

pub use blocked::{blocked_for_ctas, blocked_with_cta, default_blocked, Blocked};
pub use cta::CtaLayout;
pub use dot_operand::DotOperand;
pub use linear_encoding::LinearEncoding;
pub use mma::NvidiaMma;
pub use shared::{NvmmaShared, SwizzledShared};
pub use slice::Slice;

use crate::dims::{standard_out_dims, Dim};
use crate::error::{check_pow2, LayoutError, Result};
use crate::linear::LinearLayout;
use crate::utils::{matrix_order, shape_per_cta};

/// Any layout a tensor or shared-memory descriptor can carry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    Blocked(Blocked),
    Slice(Slice),
    NvidiaMma(NvidiaMma),
    DotOperand(DotOperand),
    SwizzledShared(SwizzledShared),
    NvmmaShared(NvmmaShared),
    /// A layout given directly as a linear layout: distributed when its input
    /// dims are (register, lane, warp, block), shared when they are (offset,
    /// block).  Output dims must be `dim0..dimN`.
    Linear(LinearLayout),
}

impl From<Blocked> for Layout {
    fn from(l: Blocked) -> Layout {
        Layout::Blocked(l)
    }
}
impl From<Slice> for Layout {
    fn from(l: Slice) -> Layout {
        Layout::Slice(l)
    }
}
impl From<NvidiaMma> for Layout {
    fn from(l: NvidiaMma) -> Layout {
        Layout::NvidiaMma(l)
    }
}
impl From<DotOperand> for Layout {
    fn from(l: DotOperand) -> Layout {
        Layout::DotOperand(l)
    }
}
impl From<SwizzledShared> for Layout {
    fn from(l: SwizzledShared) -> Layout {
        Layout::SwizzledShared(l)
    }
}
impl From<NvmmaShared> for Layout {
    fn from(l: NvmmaShared) -> Layout {
        Layout::NvmmaShared(l)
    }
}
impl From<LinearLayout> for Layout {
    fn from(l: LinearLayout) -> Layout {
        Layout::Linear(l)
    }
}

fn is_shared_linear(ll: &LinearLayout) -> bool {
    ll.in_dims().first().is_some_and(|(d, _)| *d == Dim::Offset)
}

/// Validates a tensor shape and converts it to unsigned sizes.
pub(crate) fn check_shape(shape: &[i64]) -> Result<Vec<u64>> {
    shape
        .iter()
        .map(|&s| {
            check_pow2("every shape entry", s)?;
            Ok(s as u64)
        })
        .collect()
}

impl Layout {
    /// Distributed layouts spread a tensor over registers, lanes, warps and CTAs.
    pub fn is_distributed(&self) -> bool {
        match self {
            Layout::Blocked(_) | Layout::Slice(_) | Layout::NvidiaMma(_) | Layout::DotOperand(_) => true,
            Layout::SwizzledShared(_) | Layout::NvmmaShared(_) => false,
            Layout::Linear(ll) => !is_shared_linear(ll),
        }
    }

    pub fn is_shared(&self) -> bool {
        !self.is_distributed()
    }

    /// Tensor rank the layout describes.
    pub fn rank(&self) -> usize {
        match self {
            Layout::Blocked(l) => l.rank(),
            Layout::Slice(l) => l.rank(),
            Layout::NvidiaMma(l) => l.rank(),
            Layout::DotOperand(l) => l.rank(),
            Layout::SwizzledShared(l) => l.rank(),
            Layout::NvmmaShared(l) => l.rank(),
            Layout::Linear(ll) => ll.num_out_dims(),
        }
    }

    /// The linear layout of a tensor (or, for shared layouts, an allocation)
    /// of `shape`, matching upstream `toLinearLayout(shape, attr)`: the layout's
    /// tile is repeated over registers (offsets) when the shape is larger and
    /// broadcast when it is smaller, and split over CTAs by its CTA layout.
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&check_shape(shape)?)
    }

    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        // An NVMMA allocation may carry one extra leading (buffer) dim.
        let nvmma_buffer_dim = matches!(self, Layout::NvmmaShared(_)) && shape.len() == self.rank() + 1;
        if shape.len() != self.rank() && !nvmma_buffer_dim {
            return Err(LayoutError::rank("shape", self.rank(), shape.len()));
        }
        match self {
            Layout::Blocked(l) => l.to_linear_u64(shape),
            Layout::Slice(l) => l.to_linear_u64(shape),
            Layout::NvidiaMma(l) => l.to_linear_u64(shape),
            Layout::DotOperand(l) => l.to_linear_u64(shape),
            Layout::SwizzledShared(l) => l.to_linear_u64(shape),
            Layout::NvmmaShared(l) => l.to_linear_u64(shape),
            Layout::Linear(ll) if is_shared_linear(ll) => shared_linear_to_linear(ll, shape),
            Layout::Linear(ll) => LinearEncoding::new(ll.clone())?.to_linear_u64(shape),
        }
    }

    /// The layout's CTA layout (upstream `getCGALayout`).
    pub fn cta_layout(&self) -> Result<CtaLayout> {
        match self {
            Layout::Blocked(l) => Ok(l.cta.clone()),
            Layout::NvidiaMma(l) => Ok(l.cta.clone()),
            Layout::SwizzledShared(l) => Ok(l.cta.clone()),
            Layout::NvmmaShared(l) => Ok(l.cta.clone()),
            Layout::Slice(l) => {
                l.validate()?;
                l.parent.cta_layout()?.without_dim(l.dim as usize)
            }
            Layout::DotOperand(l) => l.cta_layout(),
            Layout::Linear(ll) => cta_layout_of_linear(ll),
        }
    }

    /// Upstream `getShapePerCTA(layout, shape)`.
    pub fn shape_per_cta(&self, shape: &[i64]) -> Result<Vec<i64>> {
        let shape = check_shape(shape)?;
        let per_cta = shape_per_cta(&self.cta_layout()?.cta_split_num(), &shape);
        Ok(per_cta.into_iter().map(|s| s as i64).collect())
    }

    /// Queries of a distributed layout at `shape` (upstream `toLinearEncoding`).
    pub fn linear_encoding(&self, shape: &[i64]) -> Result<LinearEncoding> {
        if !self.is_distributed() {
            return Err(LayoutError::param("linear encodings exist only for distributed layouts"));
        }
        Ok(LinearEncoding::new_unchecked(self.to_linear(shape)?))
    }

    /// Dim order, fastest first (upstream `getOrder`): for distributed layouts
    /// the order in which registers walk the tensor at this shape.
    pub fn order(&self, shape: &[i64]) -> Result<Vec<u32>> {
        match self {
            Layout::SwizzledShared(l) => Ok(l.order.clone()),
            Layout::NvmmaShared(l) => Ok(l.order(shape.len())),
            Layout::Linear(ll) if is_shared_linear(ll) => {
                let default: Vec<u32> = (0..ll.num_out_dims() as u32).rev().collect();
                Ok(linear_encoding::order_per_dim(ll, &Dim::Offset, &default))
            }
            _ => Ok(self.linear_encoding(shape)?.order()),
        }
    }

    /// Upstream `getThreadOrder`.
    pub fn thread_order(&self, shape: &[i64]) -> Result<Vec<u32>> {
        Ok(self.linear_encoding(shape)?.thread_order())
    }

    /// Upstream `getWarpOrder`.
    pub fn warp_order(&self, shape: &[i64]) -> Result<Vec<u32>> {
        Ok(self.linear_encoding(shape)?.warp_order())
    }

    /// Upstream `getThreadsPerWarp(layout, shape)`: lanes holding distinct data along each dim.
    pub fn threads_per_warp(&self, shape: &[i64]) -> Result<Vec<u32>> {
        Ok(self.linear_encoding(shape)?.threads_per_warp())
    }

    /// Upstream `getWarpsPerCTA(layout, shape)`: warps holding distinct data along each dim.
    pub fn warps_per_cta(&self, shape: &[i64]) -> Result<Vec<u32>> {
        Ok(self.linear_encoding(shape)?.warps_per_cta())
    }

    /// Upstream `LinearEncodingAttr::getSizePerThread` of the layout at `shape`.
    pub fn size_per_thread(&self, shape: &[i64]) -> Result<Vec<u32>> {
        Ok(self.linear_encoding(shape)?.size_per_thread())
    }

    /// Upstream `getElemsPerThread(layout, shape)`.
    pub fn elems_per_thread(&self, shape: &[i64]) -> Result<Vec<u32>> {
        self.linear_encoding(shape)?.elems_per_thread(shape)
    }

    /// Upstream `getTotalElemsPerThread(layout, shape)`.
    pub fn total_elems_per_thread(&self, shape: &[i64]) -> Result<u64> {
        self.linear_encoding(shape)?.total_elems_per_thread(shape)
    }

    /// Upstream `getContigPerThread` of a tensor of this layout and shape.
    pub fn contig_per_thread(&self, shape: &[i64]) -> Result<Vec<u32>> {
        Ok(self.linear_encoding(shape)?.contig_per_thread())
    }

    /// Upstream `getRepOrder`: the order in which repetitions of the layout's
    /// tile are laid out in registers.
    pub fn rep_order(&self) -> Result<Vec<u32>> {
        match self {
            Layout::Blocked(l) => Ok(l.order.clone()),
            Layout::NvidiaMma(l) => Ok(l.rep_order()),
            Layout::DotOperand(l) => Ok(l.rep_order()),
            Layout::Slice(l) => {
                l.validate()?;
                let parent = l.parent.rep_order()?;
                Ok(erase_order(&parent, l.dim))
            }
            Layout::Linear(ll) if !is_shared_linear(ll) => Ok(LinearEncoding::new(ll.clone())?.rep_order()),
            _ => Err(LayoutError::param("rep order exists only for distributed layouts")),
        }
    }
}

/// Removes `dim` from an order and renumbers the larger dims down.
fn erase_order(order: &[u32], dim: u32) -> Vec<u32> {
    order.iter().filter(|&&d| d != dim).map(|&d| if d > dim { d - 1 } else { d }).collect()
}

/// Upstream `SharedLinearEncodingAttr::toLinearLayout`: no broadcasting, the
/// shape must match exactly.
fn shared_linear_to_linear(ll: &LinearLayout, shape: &[u64]) -> Result<LinearLayout> {
    let names = ll.in_dim_names();
    let valid_ins =
        names.first() == Some(&Dim::Offset) && names.len() <= 2 && names.get(1).is_none_or(|d| *d == Dim::Block);
    if !valid_ins || ll.out_dim_names() != standard_out_dims(ll.num_out_dims()) {
        return Err(LayoutError::dim("a shared linear layout needs in-dims [offset, block] and out-dims [dim0, ...]"));
    }
    for ((dim, size), &want) in ll.out_dims().iter().zip(shape) {
        if *size as u64 != want {
            return Err(LayoutError::param(format!(
                "a shared linear layout does not broadcast: '{dim}' has size {size}, shape wants {want}"
            )));
        }
    }
    Ok(ll.clone())
}

/// The CTA layout of a layout given as a linear layout: its `block` bases
/// divided by the per-CTA extent (upstream `linearToCGAEncodingAttr`).
fn cta_layout_of_linear(ll: &LinearLayout) -> Result<CtaLayout> {
    let rank = ll.num_out_dims();
    let Some(block) = ll.bases(&Dim::Block) else {
        return Ok(CtaLayout::single_cta(rank));
    };
    let split = linear_encoding::bases_per_dim(ll, &Dim::Block, true);
    let bases = block
        .iter()
        .map(|b| b.iter().zip(ll.out_dims()).zip(&split).map(|((&v, (_, size)), &n)| v / (size / n).max(1)).collect())
        .collect();
    let out_dims = standard_out_dims(rank).into_iter().zip(split).collect();
    CtaLayout::from_linear(LinearLayout::new(vec![(Dim::Block, bases)], out_dims, false)?)
}

/// Row-major matrix order, re-exported for passes choosing layouts.
pub fn default_matrix_order(rank: usize) -> Vec<u32> {
    matrix_order(rank, true)
}

/// The TMA box of a buffer of `shape` with shared layout `encoding` (upstream's
/// `getTMABlockShape`, unpacked), and the swizzle mode of its descriptor (0:
/// none, 1: 32B, 2: 64B, 3: 128B); an error names what a TMA descriptor
/// cannot describe. The TMA lowering pass and the lowering both use it.
pub fn tma_box(shape: &[i64], encoding: &Layout) -> std::result::Result<(Vec<i64>, u32), String> {
    let mut boxed: Vec<i64> = shape.iter().map(|s| (*s).min(256)).collect();
    match encoding {
        Layout::NvmmaShared(nvmma) => {
            if nvmma.fp4_padded {
                return Err("TMA of fp4-padded buffers is not supported yet".into());
            }
            let swizzle = nvmma.swizzling_byte_width;
            if swizzle != 0 {
                let contiguous = if nvmma.transposed { 0 } else { boxed.len() - 1 };
                let row = (8 * swizzle as i64) / nvmma.element_bit_width as i64;
                if boxed[contiguous] < row {
                    return Err(format!(
                        "a {}-element contiguous dim is smaller than the {swizzle}-byte swizzle",
                        boxed[contiguous]
                    ));
                }
                boxed[contiguous] = row;
            }
            let mode = match swizzle {
                0 => 0,
                32 => 1,
                64 => 2,
                128 => 3,
                other => return Err(format!("swizzlingByteWidth {other} has no TMA swizzle mode")),
            };
            Ok((boxed, mode))
        }
        Layout::SwizzledShared(s) if s.vec == 1 && s.per_phase == 1 && s.max_phase == 1 => Ok((boxed, 0)),
        _ => Err("TMA needs an nvmma_shared or unswizzled swizzled_shared buffer".into()),
    }
}

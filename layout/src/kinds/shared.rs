//! Shared-memory layouts: linear layouts from `offset` (and `block`) to
//! tensor coordinates.

use crate::dims::{standard_out_dims, Dim};
use crate::error::{check_permutation, check_pow2, LayoutError, Result};
use crate::kinds::cta::{combine_cta_cga_with_shape, CtaLayout};
use crate::linear::LinearLayout;
use crate::utils::{
    ensure_layout_not_smaller_than, matrix_order, reshape_layout, shape_per_cta, transpose_linear_layout,
};

/// Upstream `SwizzledSharedEncodingAttr`: rows of the two fastest dims
/// (`order[0]` = columns, `order[1]` = rows) are XOR-swizzled in groups of
/// `vec` elements with phase `(row / per_phase) % max_phase`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledShared {
    pub vec: u32,
    pub per_phase: u32,
    pub max_phase: u32,
    pub order: Vec<u32>,
    pub cta: CtaLayout,
}

impl SwizzledShared {
    /// A swizzled layout on a single CTA.
    pub fn new(vec: u32, per_phase: u32, max_phase: u32, order: &[u32]) -> SwizzledShared {
        SwizzledShared { vec, per_phase, max_phase, order: order.to_vec(), cta: CtaLayout::single_cta(order.len()) }
    }

    pub fn with_cta(mut self, cta: CtaLayout) -> SwizzledShared {
        self.cta = cta;
        self
    }

    pub fn rank(&self) -> usize {
        self.order.len()
    }

    pub fn validate(&self) -> Result<()> {
        if self.order.len() != self.cta.rank() {
            return Err(LayoutError::rank(
                "order of a swizzled shared layout vs its CTA layout",
                self.cta.rank(),
                self.order.len(),
            ));
        }
        check_permutation("order", &self.order)?;
        // Upstream does not verify these, but 0 would divide by zero.
        if self.vec == 0 || self.per_phase == 0 || self.max_phase == 0 {
            return Err(LayoutError::param("vec, perPhase and maxPhase must be at least 1"));
        }
        Ok(())
    }

    /// The linear layout for a tensor of `shape` (upstream `toLinearLayout`).
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    /// Upstream `swizzledSharedToLinearLayout`.
    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        check_shared_shape(shape, self.rank())?;
        let per_cta = shape_per_cta(&self.cta.cta_split_num(), shape);
        let rank = shape.len();
        if rank == 0 {
            return Err(LayoutError::param("a swizzled shared layout needs rank >= 1"));
        }
        if rank == 1 {
            let tile = LinearLayout::identity_1d(to_u32(per_cta[0])?, Dim::Offset, Dim::Axis(0))?;
            return combine_cta_cga_with_shape(tile, &self.cta, shape);
        }
        let names = standard_out_dims(rank);
        let col_dim = self.order[0] as usize;
        let row_dim = self.order[1] as usize;
        let num_cols = to_u32(per_cta[col_dim])?;
        let num_rows = to_u32(per_cta[row_dim])?;
        // Bases are (row, col): columns first, then rows with their swizzle.
        let mut bases = Vec::new();
        let mut col = 1u32;
        while col < num_cols {
            bases.push(vec![0, col]);
            col *= 2;
        }
        let mut row = 1u32;
        while row < num_rows {
            let phase = (row / self.per_phase) % self.max_phase;
            let swizzle = ((self.vec as u64 * phase as u64) % num_cols as u64) as u32;
            bases.push(vec![row, swizzle]);
            row *= 2;
        }
        let mut tile = LinearLayout::with_inferred_sizes(
            vec![(Dim::Offset, bases)],
            vec![names[row_dim].clone(), names[col_dim].clone()],
        )?;
        for &d in &self.order[2..] {
            let d = d as usize;
            tile = tile.product(&LinearLayout::identity_1d(to_u32(per_cta[d])?, Dim::Offset, names[d].clone())?)?;
        }
        combine_cta_cga_with_shape(tile, &self.cta, shape)
    }
}

/// Upstream `NVMMASharedEncodingAttr`: the shared layout consumed by wgmma /
/// tcgen05 and TMA.  Core matrices of 8 rows by `swizzling_byte_width` bytes
/// are swizzled in 16-byte units; `transposed` makes the outermost dim the
/// contiguous one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NvmmaShared {
    pub swizzling_byte_width: u32,
    pub transposed: bool,
    pub element_bit_width: u32,
    pub fp4_padded: bool,
    pub cta: CtaLayout,
}

impl NvmmaShared {
    /// An NVMMA shared layout on a single CTA.
    pub fn new(
        swizzling_byte_width: u32,
        transposed: bool,
        element_bit_width: u32,
        fp4_padded: bool,
        rank: usize,
    ) -> NvmmaShared {
        NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded,
            cta: CtaLayout::single_cta(rank),
        }
    }

    pub fn with_cta(mut self, cta: CtaLayout) -> NvmmaShared {
        self.cta = cta;
        self
    }

    pub fn rank(&self) -> usize {
        self.cta.rank()
    }

    /// Elements per 16-byte swizzle unit.
    pub fn vec(&self) -> u32 {
        if self.swizzling_byte_width == 0 {
            1
        } else {
            128 / self.element_bit_width
        }
    }

    pub fn per_phase(&self) -> u32 {
        128u32.checked_div(self.swizzling_byte_width).unwrap_or(1)
    }

    pub fn max_phase(&self) -> u32 {
        if self.swizzling_byte_width == 0 {
            1
        } else {
            self.swizzling_byte_width / 16
        }
    }

    /// Required alignment of the allocation in bytes.
    pub fn alignment(&self) -> u32 {
        128 * self.max_phase()
    }

    /// Upstream `getOrder` for NVMMA shared layouts.
    pub fn order(&self, rank: usize) -> Vec<u32> {
        if rank == 1 {
            return vec![0];
        }
        matrix_order(rank, !self.transposed)
    }

    pub fn validate(&self) -> Result<()> {
        if ![0, 32, 64, 128].contains(&self.swizzling_byte_width) {
            return Err(LayoutError::param(format!(
                "swizzlingByteWidth must be 0, 32, 64 or 128, got {}",
                self.swizzling_byte_width
            )));
        }
        check_pow2("elementBitWidth", self.element_bit_width as i64)?;
        if self.element_bit_width > 128 {
            return Err(LayoutError::param(format!("elementBitWidth {} is larger than 128", self.element_bit_width)));
        }
        Ok(())
    }

    /// Upstream `getCoreMatrixLinearLayout`: one 8-row swizzle tile.
    fn core_matrix(&self) -> Result<LinearLayout> {
        let tile_rows = 8u32;
        let tile_cols = 8 * self.swizzling_byte_width.max(16) / self.element_bit_width;
        let (vec, per_phase, max_phase) = (self.vec(), self.per_phase(), self.max_phase());
        // fp4 padding: each 16 offsets hold 8 real and 8 padding elements; the
        // padding maps onto the same coordinates as the real ones.
        let packed = |c: u32| {
            if self.fp4_padded {
                c / 16 * 8 + c % 8
            } else {
                c
            }
        };
        let mut bases = Vec::new();
        let mut col = 1u32;
        while col < tile_cols {
            bases.push(vec![0, packed(col)]);
            col *= 2;
        }
        let mut row = 1u32;
        while row < tile_rows {
            bases.push(vec![row, packed(vec * ((row / per_phase) % max_phase))]);
            row *= 2;
        }
        LinearLayout::with_inferred_sizes(vec![(Dim::Offset, bases)], standard_out_dims(2))
    }

    /// Upstream `getTMABlockShape` (tiled mode, packed size): dims are capped
    /// at 256 and the contiguous dim is exactly one swizzle row.
    fn tma_block_shape(&self, per_cta: &[u64]) -> Result<Vec<u64>> {
        let mut block = per_cta.to_vec();
        let contig = if self.transposed { 0 } else { block.len() - 1 };
        if self.fp4_padded {
            block[contig] *= 2;
        }
        for size in &mut block {
            *size = (*size).min(256);
        }
        if self.swizzling_byte_width != 0 {
            let contig_size = (8 * self.swizzling_byte_width / self.element_bit_width) as u64;
            if block[contig] < contig_size {
                return Err(LayoutError::param(format!(
                    "block shape along the contiguous dimension {contig} is too small for the swizzle byte \
                     size {} in an NVMMA shared layout: got {} but expected at least {contig_size}",
                    self.swizzling_byte_width, block[contig]
                )));
            }
            block[contig] = contig_size;
        }
        if self.fp4_padded {
            block[contig] /= 2;
        }
        Ok(block)
    }

    /// The linear layout for a tensor of `shape` (upstream `toLinearLayout`).
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    /// Upstream `nvmmaSharedToLinearLayout` (TMA tiled mode, swizzle enabled).
    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let rank = shape.len();
        if rank == 0 {
            return Err(LayoutError::param("an NVMMA shared layout needs rank >= 1"));
        }
        check_shared_shape(shape, rank)?;
        // The memdesc may carry one extra leading (buffer) dim beyond the encoding's
        // rank; extend the CTA layout with trivial leading dims for it.
        let cta = match self.cta.rank() {
            r if r == rank => self.cta.clone(),
            r if r < rank => self.cta.with_leading_dims(rank - r)?,
            r => return Err(LayoutError::rank("shape of an NVMMA shared layout", r, rank)),
        };
        let per_cta = shape_per_cta(&cta.cta_split_num(), shape);
        let tma = self.tma_block_shape(&per_cta)?;
        let names = standard_out_dims(rank);
        let per_cta_named: Vec<(Dim, u64)> = names.iter().cloned().zip(per_cta.iter().copied()).collect();

        if self.swizzling_byte_width == 0 {
            let mut layout = LinearLayout::empty();
            for i in (0..rank).rev() {
                layout = layout.product(&LinearLayout::identity_1d(to_u32(tma[i])?, Dim::Offset, names[i].clone())?)?;
            }
            let layout = ensure_layout_not_smaller_than(&layout, &per_cta_named)?;
            return combine_cta_cga_with_shape(layout, &cta, shape);
        }
        if rank < 2 {
            return Err(LayoutError::param("a swizzled NVMMA shared layout needs rank >= 2"));
        }

        // Collapse the outer dims into one, build the 2D layout, reshape back.
        let mut collapsed = [tma[..rank - 1].iter().product::<u64>(), tma[rank - 1]];
        if self.transposed {
            collapsed.swap(0, 1);
        }
        let tile = self.core_matrix()?;
        let tile_rows = tile.out_dim_size(&Dim::Axis(0)) as u64;
        let tile_cols = tile.out_dim_size(&Dim::Axis(1)) as u64;
        let packing = if self.fp4_padded { 2 } else { 1 };
        if collapsed[1] * packing < tile_cols || collapsed[0] < tile_rows {
            return Err(LayoutError::param(format!(
                "illegal NVMMA shared layout: expected the collapsed per-CTA shape to be at least \
                 [{tile_rows}, {}], got [{}, {}]",
                tile_cols / packing,
                collapsed[0],
                collapsed[1]
            )));
        }
        let collapsed_named = [(Dim::Axis(0), collapsed[0]), (Dim::Axis(1), collapsed[1])];
        let layout = ensure_layout_not_smaller_than(&tile, &collapsed_named)?;

        let mut reshape_to: Vec<u32> = tma.iter().map(|&s| to_u32(s)).collect::<Result<_>>()?;
        if self.transposed {
            // The contiguous (outermost) dim moves to the innermost position.
            reshape_to.rotate_left(1);
        }
        let mut reshaped = reshape_layout(&layout, &reshape_to)?;
        if self.transposed {
            let order: Vec<usize> = std::iter::once(rank - 1).chain(0..rank - 1).collect();
            reshaped = transpose_linear_layout(&reshaped, &order)?;
        }
        let reshaped = ensure_layout_not_smaller_than(&reshaped, &per_cta_named)?;
        combine_cta_cga_with_shape(reshaped, &cta, shape)
    }
}

fn to_u32(v: u64) -> Result<u32> {
    u32::try_from(v).map_err(|_| LayoutError::TooLarge(format!("dimension of size {v}")))
}

/// Shared layouts need a power-of-two shape of the layout's rank.
fn check_shared_shape(shape: &[u64], rank: usize) -> Result<()> {
    if shape.len() != rank {
        return Err(LayoutError::rank("shape of a shared layout", rank, shape.len()));
    }
    for &s in shape {
        check_pow2("every shape entry", s as i64)?;
    }
    Ok(())
}

//! The GF(2) linear layout: a linear map from named input dimensions
//! (hardware locations: register, lane, warp, block, offset, ...) to named
//! output dimensions (logical tensor coordinates `dim0, dim1, ...`).
//!
//! Every input dimension of size `2^k` is described by `k` basis vectors:
//! `bases[in][i] = L(in = 2^i, all other inputs = 0)`.  Each basis vector has
//! one component per output dimension.  Every other value of `L` is the XOR of
//! the bases selected by the set bits of the input, which is what makes `L`
//! linear over GF(2).
//!
//! Dimension order matters only for reshapes and flattening; in both lists the
//! first dimension is the most minor one.  This mirrors upstream
//! `mlir::triton::LinearLayout` (include/triton/Tools/LinearLayout.h).

mod gf2;
mod ops;
mod solve;

use std::fmt;

use crate::dims::Dim;
use crate::error::{LayoutError, Result};

pub use gf2::Gf2Matrix;
pub use ops::supremum;
pub use solve::{divide_left, divide_right};

/// Basis vectors of one input dimension: `bases[i][j]` is the value of output
/// dimension `j` at input `2^i`.
pub type Bases = Vec<Vec<u32>>;

/// At most this many input bits and output bits in one layout.  Upstream packs
/// each matrix row/column into a `uint64_t` and asserts the same bound.
pub const MAX_BITS: u32 = 64;

/// A linear layout over GF(2).  See the module documentation.
///
/// Invariants (checked by every constructor):
/// - every basis has exactly one component per output dimension;
/// - output sizes are powers of two and every basis component is below the
///   size of its output dimension;
/// - dimension names are unique on each side;
/// - at most [`MAX_BITS`] input bits and output bits.
///
/// Surjectivity is not required in general; [`LinearLayout::is_surjective`]
/// reports it (upstream caches the GF(2) rank for the same purpose).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LinearLayout {
    in_dims: Vec<(Dim, Bases)>,
    out_dims: Vec<(Dim, u32)>,
    /// GF(2) rank of the basis matrix; derived from the two fields above.
    rank: u32,
}

impl LinearLayout {
    /// The layout with no dimensions; the identity of [`LinearLayout::product`].
    pub fn empty() -> LinearLayout {
        LinearLayout { in_dims: Vec::new(), out_dims: Vec::new(), rank: 0 }
    }

    /// Builds a layout from bases and explicit output sizes.
    ///
    /// With `require_surjective` the layout must reach every output value.
    pub fn new(
        in_dims: Vec<(Dim, Bases)>,
        out_dims: Vec<(Dim, u32)>,
        require_surjective: bool,
    ) -> Result<LinearLayout> {
        let mut layout = LinearLayout { in_dims, out_dims, rank: 0 };
        layout.check_invariants()?;
        layout.rank = layout.to_matrix().rank();
        if require_surjective && !layout.is_surjective() {
            return Err(LayoutError::algebra(format!(
                "layout is expected to be surjective, i.e. every out coordinate can be \
                 reached by some in coordinate, but it is not:{layout}"
            )));
        }
        Ok(layout)
    }

    /// Builds a surjective layout, inferring each output size as the smallest
    /// power of two strictly greater than the largest component (upstream's
    /// `LinearLayout(bases, outDimNames)` constructor, `NextPowerOf2` rule).
    pub fn with_inferred_sizes(in_dims: Vec<(Dim, Bases)>, out_names: Vec<Dim>) -> Result<LinearLayout> {
        let mut sizes = vec![1u64; out_names.len()];
        for (in_dim, bases) in &in_dims {
            for basis in bases {
                if basis.len() != out_names.len() {
                    return Err(LayoutError::dim(format!(
                        "basis of in-dim '{in_dim}' has {} components but there are {} out-dims",
                        basis.len(),
                        out_names.len()
                    )));
                }
                for (size, &b) in sizes.iter_mut().zip(basis) {
                    *size = (*size).max(next_power_of_two_above(b as u64));
                }
            }
        }
        let mut out_dims = Vec::with_capacity(out_names.len());
        for (name, size) in out_names.into_iter().zip(sizes) {
            let size = u32::try_from(size)
                .map_err(|_| LayoutError::TooLarge(format!("out-dim '{name}' would have size {size}")))?;
            out_dims.push((name, size));
        }
        LinearLayout::new(in_dims, out_dims, true)
    }

    /// `L(x) = stride * x` for `x` in `[0, size)`.  Size 0 gives the empty layout
    /// (as upstream).  Only a stride of 1 is surjective.
    pub fn strided_1d(size: u32, stride: u32, in_dim: impl Into<Dim>, out_dim: impl Into<Dim>) -> Result<LinearLayout> {
        if size == 0 {
            return Ok(LinearLayout::empty());
        }
        crate::error::check_pow2("strided_1d size", size as i64)?;
        let out_size = (size as u64) * (stride as u64);
        crate::error::check_pow2("strided_1d stride * size", out_size as i64)?;
        let out_size =
            u32::try_from(out_size).map_err(|_| LayoutError::TooLarge(format!("strided_1d output size {out_size}")))?;
        let bases = (0..size.trailing_zeros()).map(|i| vec![(1u32 << i) * stride]).collect();
        LinearLayout::new(vec![(in_dim.into(), bases)], vec![(out_dim.into(), out_size)], stride == 1)
    }

    /// The identity `L(x) = x` for `x` in `[0, size)`.
    pub fn identity_1d(size: u32, in_dim: impl Into<Dim>, out_dim: impl Into<Dim>) -> Result<LinearLayout> {
        LinearLayout::strided_1d(size, 1, in_dim, out_dim)
    }

    /// `L(x) = 0` for `x` in `[0, size)`, with an output dimension of
    /// `out_size` (surjective only when `out_size == 1`).
    pub fn zeros_1d(size: u32, in_dim: impl Into<Dim>, out_dim: impl Into<Dim>, out_size: u32) -> Result<LinearLayout> {
        if size == 0 {
            return Ok(LinearLayout::empty());
        }
        crate::error::check_pow2("zeros_1d size", size as i64)?;
        let bases = vec![vec![0u32]; size.trailing_zeros() as usize];
        LinearLayout::new(vec![(in_dim.into(), bases)], vec![(out_dim.into(), out_size)], out_size == 1)
    }

    fn check_invariants(&self) -> Result<()> {
        for (i, (name, _)) in self.in_dims.iter().enumerate() {
            if self.in_dims[..i].iter().any(|(n, _)| n == name) {
                return Err(LayoutError::dim(format!("duplicate in-dim '{name}'")));
            }
        }
        for (i, (name, size)) in self.out_dims.iter().enumerate() {
            if self.out_dims[..i].iter().any(|(n, _)| n == name) {
                return Err(LayoutError::dim(format!("duplicate out-dim '{name}'")));
            }
            crate::error::check_pow2(&format!("size of out-dim '{name}'"), *size as i64)?;
        }
        for (in_dim, bases) in &self.in_dims {
            for basis in bases {
                if basis.len() != self.out_dims.len() {
                    return Err(LayoutError::dim(format!(
                        "every basis must have one component per out-dim ({}), but a basis of \
                         in-dim '{in_dim}' has {}",
                        self.out_dims.len(),
                        basis.len()
                    )));
                }
                for (&b, (out_dim, size)) in basis.iter().zip(&self.out_dims) {
                    if b >= *size {
                        return Err(LayoutError::algebra(format!(
                            "basis component {b} of in-dim '{in_dim}' is not below the size {size} \
                             of out-dim '{out_dim}'"
                        )));
                    }
                }
            }
        }
        let in_bits = self.total_in_size_log2();
        let out_bits = self.total_out_size_log2();
        if in_bits > MAX_BITS || out_bits > MAX_BITS {
            return Err(LayoutError::TooLarge(format!(
                "{in_bits} input bits and {out_bits} output bits (at most {MAX_BITS} each)"
            )));
        }
        Ok(())
    }

    // ----- accessors -------------------------------------------------------

    /// Input dimensions with their bases, minor to major.
    pub fn in_dims(&self) -> &[(Dim, Bases)] {
        &self.in_dims
    }

    /// Output dimensions with their sizes, minor to major.
    pub fn out_dims(&self) -> &[(Dim, u32)] {
        &self.out_dims
    }

    pub fn in_dim_names(&self) -> Vec<Dim> {
        self.in_dims.iter().map(|(d, _)| d.clone()).collect()
    }

    pub fn out_dim_names(&self) -> Vec<Dim> {
        self.out_dims.iter().map(|(d, _)| d.clone()).collect()
    }

    pub fn num_in_dims(&self) -> usize {
        self.in_dims.len()
    }

    pub fn num_out_dims(&self) -> usize {
        self.out_dims.len()
    }

    pub fn has_in_dim(&self, dim: &Dim) -> bool {
        self.in_dims.iter().any(|(d, _)| d == dim)
    }

    pub fn has_out_dim(&self, dim: &Dim) -> bool {
        self.out_dims.iter().any(|(d, _)| d == dim)
    }

    /// Bases of `dim`, or `None` if it is not an input dimension.
    pub fn bases(&self, dim: &Dim) -> Option<&Bases> {
        self.in_dims.iter().find(|(d, _)| d == dim).map(|(_, b)| b)
    }

    pub(crate) fn bases_or_err(&self, dim: &Dim) -> Result<&Bases> {
        self.bases(dim).ok_or_else(|| LayoutError::dim(format!("'{dim}' is not an in-dim of the layout{self}")))
    }

    /// `L(dim = 2^pos)`.
    pub fn basis(&self, dim: &Dim, pos: usize) -> Option<&[u32]> {
        self.bases(dim)?.get(pos).map(|b| b.as_slice())
    }

    /// Position of an output dimension.
    pub fn out_dim_index(&self, dim: &Dim) -> Option<usize> {
        self.out_dims.iter().position(|(d, _)| d == dim)
    }

    pub(crate) fn out_index_or_err(&self, dim: &Dim) -> Result<usize> {
        self.out_dim_index(dim)
            .ok_or_else(|| LayoutError::dim(format!("'{dim}' is not an out-dim of the layout{self}")))
    }

    /// log2 of the size of an input dimension (its number of bases); 0 if absent.
    pub fn in_dim_size_log2(&self, dim: &Dim) -> u32 {
        self.bases(dim).map_or(0, |b| b.len() as u32)
    }

    /// Size of an input dimension; 1 if absent (absent dims behave as size 1).
    pub fn in_dim_size(&self, dim: &Dim) -> u64 {
        1u64 << self.in_dim_size_log2(dim)
    }

    /// log2 of the size of an output dimension; 0 if absent.
    pub fn out_dim_size_log2(&self, dim: &Dim) -> u32 {
        self.out_dim_size(dim).trailing_zeros()
    }

    /// Size of an output dimension; 1 if absent.
    pub fn out_dim_size(&self, dim: &Dim) -> u32 {
        self.out_dims.iter().find(|(d, _)| d == dim).map_or(1, |(_, s)| *s)
    }

    pub fn total_in_size_log2(&self) -> u32 {
        self.in_dims.iter().map(|(_, b)| b.len() as u32).sum()
    }

    pub fn total_out_size_log2(&self) -> u32 {
        self.out_dims.iter().map(|(_, s)| s.trailing_zeros()).sum()
    }

    /// Number of distinct inputs (may exceed `u32`, hence `u64`; saturates at 2^63).
    pub fn total_in_size(&self) -> u64 {
        1u64 << self.total_in_size_log2().min(63)
    }

    pub fn total_out_size(&self) -> u64 {
        1u64 << self.total_out_size_log2().min(63)
    }

    /// GF(2) rank of the layout's matrix.
    pub fn rank(&self) -> u32 {
        self.rank
    }

    /// Every output value is reached by some input.
    pub fn is_surjective(&self) -> bool {
        self.rank == self.total_out_size_log2()
    }

    /// No two inputs map to the same output.
    pub fn is_injective(&self) -> bool {
        self.rank == self.total_in_size_log2()
    }

    /// Surjective and as many inputs as outputs.
    pub fn is_invertible(&self) -> bool {
        self.is_surjective() && self.total_in_size_log2() == self.total_out_size_log2()
    }

    // ----- evaluation ------------------------------------------------------

    /// Computes `L(ins)`.  `ins` must name every input dimension exactly once
    /// (in any order); the result lists every output dimension in order.
    pub fn apply(&self, ins: &[(Dim, u32)]) -> Result<Vec<(Dim, u32)>> {
        if ins.len() != self.in_dims.len() {
            return Err(LayoutError::dim(format!(
                "apply needs a value for each of the {} in-dims, got {}",
                self.in_dims.len(),
                ins.len()
            )));
        }
        let mut out = vec![0u32; self.out_dims.len()];
        for (dim, value) in ins {
            let bases = self.bases_or_err(dim)?;
            if bases.len() < 32 && (*value as u64) >= (1u64 << bases.len()) {
                return Err(LayoutError::param(format!(
                    "input {value} is out of range for in-dim '{dim}' of size {}",
                    1u64 << bases.len()
                )));
            }
            for (bit, basis) in bases.iter().enumerate() {
                if (value >> bit) & 1 == 1 {
                    for (o, b) in out.iter_mut().zip(basis) {
                        *o ^= b;
                    }
                }
            }
        }
        Ok(self.out_dims.iter().map(|(d, _)| d.clone()).zip(out).collect())
    }

    /// Applies the layout to a flattened input (input dims concatenated, first
    /// dim in the low bits) and returns the flattened output (same packing).
    /// This is the matrix-vector product over GF(2).
    pub fn apply_flat(&self, input: u64) -> u64 {
        let mut shifts = Vec::with_capacity(self.out_dims.len());
        let mut acc = 0u32;
        for (_, size) in &self.out_dims {
            shifts.push(acc);
            acc += size.trailing_zeros();
        }
        let mut out = 0u64;
        let mut bit = 0u32;
        for (_, bases) in &self.in_dims {
            for basis in bases {
                if bit < 64 && (input >> bit) & 1 == 1 {
                    for (&b, &s) in basis.iter().zip(&shifts) {
                        out ^= (b as u64) << s;
                    }
                }
                bit += 1;
            }
        }
        out
    }

    /// The layout as a GF(2) matrix with one row per output bit and one column
    /// per input bit (column `c` is the c-th basis in flattened order).
    pub fn to_matrix(&self) -> Gf2Matrix {
        let num_cols = self.total_in_size_log2();
        let mut rows = Vec::with_capacity(self.total_out_size_log2() as usize);
        for (out_idx, (_, size)) in self.out_dims.iter().enumerate() {
            for bit in 0..size.trailing_zeros() {
                let mut row = 0u128;
                let mut col = 0u32;
                for (_, bases) in &self.in_dims {
                    for basis in bases {
                        if (basis[out_idx] >> bit) & 1 == 1 {
                            row |= 1u128 << col;
                        }
                        col += 1;
                    }
                }
                rows.push(row);
            }
        }
        Gf2Matrix::new(rows, num_cols)
    }

    /// Checks equality ignoring the sizes of the output dimensions.
    pub fn equal_ignoring_out_dim_sizes(&self, other: &LinearLayout) -> bool {
        self.in_dims == other.in_dims
            && self.out_dims.len() == other.out_dims.len()
            && self.out_dims.iter().zip(&other.out_dims).all(|((a, _), (b, _))| a == b)
    }

    /// Renders the layout like upstream's `toString()`.
    pub fn to_upstream_string(&self) -> String {
        self.to_string()
    }
}

/// Smallest power of two strictly greater than `x` (LLVM's `NextPowerOf2`).
fn next_power_of_two_above(x: u64) -> u64 {
    // Number of significant bits of x, as a power of two (x = 0 gives 1).
    1u64 << (64 - x.leading_zeros())
}

impl fmt::Display for LinearLayout {
    /// Upstream's textual form (including its leading newline), e.g.
    ///
    /// ```text
    ///
    ///  - register=1 -> (0, 1)
    ///    register=2 -> (0, 2)
    ///  - lane=1 -> (1, 0)
    /// where out dims are: [dim0 (size 2), dim1 (size 4)]
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let out_dims = self.out_dims.iter().map(|(d, s)| format!("{d} (size {s})")).collect::<Vec<_>>().join(", ");
        if self.in_dims.is_empty() {
            return if self.out_dims.is_empty() {
                write!(f, "\n(empty layout)")
            } else {
                write!(f, "\n(empty layout with out-dims [{out_dims}])")
            };
        }
        writeln!(f)?;
        for (dim, bases) in &self.in_dims {
            if bases.is_empty() {
                writeln!(f, " - {dim} is a size 1 dimension")?;
                continue;
            }
            for (i, basis) in bases.iter().enumerate() {
                let prefix = if i == 0 { " - " } else { "   " };
                let comps = basis.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
                writeln!(f, "{prefix}{dim}={} -> ({comps})", 1u64 << i)?;
            }
        }
        write!(f, "where out dims are: [{out_dims}]")
    }
}

impl fmt::Debug for LinearLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LinearLayout{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_power_of_two_above_matches_llvm() {
        let expected = [(0, 1), (1, 2), (2, 4), (3, 4), (4, 8), (7, 8), (8, 16)];
        for (x, want) in expected {
            assert_eq!(next_power_of_two_above(x), want, "x = {x}");
        }
    }
}

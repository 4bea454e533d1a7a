//! Linear-algebra operations: solving `A X = B` (the core of layout
//! conversions), inversion, free variables and division of layouts.

use super::{Bases, Gf2Matrix, LinearLayout};
use crate::dims::Dim;
use crate::error::{LayoutError, Result};

/// Solves `A X = B` for `X` over GF(2) and returns the minimum-norm solution
/// (free variables set to 0) as a layout from `B`'s inputs to `A`'s inputs.
///
/// `A` and `B` must list the same output dims in the same order, with `A`'s at
/// least as large, and `Im(B) ⊆ Im(A)`.  Mirrors upstream `lstsq`
/// (lib/Tools/LinearLayout.cpp): `[A | B]` is reduced to RREF, the pivot
/// columns of `A` give the basic variables, and the `B` part of each pivot row
/// gives the value of that variable.
fn lstsq(a: &LinearLayout, b: &LinearLayout) -> Result<LinearLayout> {
    let cols_a = a.total_in_size_log2();
    let cols_b = b.total_in_size_log2();
    let a_rows = a.to_matrix();
    let b_rows = b.to_matrix();

    // Place B's columns to the right of A's.  B may have fewer bits in some
    // output dims; its missing high rows are zero.
    let mut rows = Vec::with_capacity(a_rows.num_rows());
    let mut row_b = 0usize;
    for (dim, size) in a.out_dims() {
        let b_bits = b.out_dim_size_log2(dim);
        for r in 0..size.trailing_zeros() {
            let mut row = a_rows.rows()[rows.len()];
            if r < b_bits {
                row |= b_rows.rows()[row_b] << cols_a;
                row_b += 1;
            }
            rows.push(row);
        }
    }
    let mut combined = Gf2Matrix::new(rows, cols_a + cols_b);
    let pivots = combined.reduce();

    // Value of every A-column (input bit of A) as a bitmask over B's columns.
    let mut solution = vec![0u128; cols_a as usize];
    for (row, pivot) in combined.rows().iter().zip(pivots) {
        let Some(col) = pivot else { continue };
        if col >= cols_a {
            return Err(LayoutError::algebra(
                "invert_and_compose: the image of the layout is not contained in the image of the outer layout",
            ));
        }
        solution[col as usize] = row >> cols_a;
    }

    // Read off the flattened 1D -> 1D bases: basis c of B's (flattened) input
    // is the A-input whose bits are the variables set by B's column c.
    let flat_bases: Bases = (0..cols_b)
        .map(|c| {
            let value = (0..cols_a).fold(0u64, |acc, r| acc | ((((solution[r as usize] >> c) & 1) as u64) << r));
            vec![value as u32]
        })
        .collect();
    let in_name = a.in_dims().first().map(|(d, _)| d.clone()).unwrap_or(Dim::Register);
    let out_name = a.out_dims().first().map(|(d, _)| d.clone()).unwrap_or(Dim::Register);
    if cols_a > 31 {
        return Err(LayoutError::TooLarge(format!("invert_and_compose with 2^{cols_a} outer inputs")));
    }
    let flat = LinearLayout::new(vec![(in_name, flat_bases)], vec![(out_name, 1u32 << cols_a)], false)?;

    let ret_ins: Vec<(Dim, u64)> = b.in_dims().iter().map(|(d, bs)| (d.clone(), 1u64 << bs.len())).collect();
    let ret_outs: Vec<(Dim, u32)> = a.in_dims().iter().map(|(d, bs)| (d.clone(), 1u32 << bs.len())).collect();
    flat.reshape_ins(&ret_ins)?.reshape_outs(&ret_outs)
}

impl LinearLayout {
    /// Computes `C` with `outer(C(x)) = self(x)` for every `x`: it maps this
    /// layout's inputs to `outer`'s inputs holding the same tensor element.
    /// With registers `R` and shared memory `S`, `R.invert_and_compose(S)` maps
    /// (register, lane, warp) to the shared-memory offset to store into.
    ///
    /// Requirements: same output dim names (any order), `outer` at least as
    /// large in each, and `outer` covering `self`'s image.  Where several
    /// inputs of `outer` hold the element, the smallest solution is chosen,
    /// except that input dims on which both layouts agree exactly are mapped
    /// identically (upstream's broadcasting heuristic).
    pub fn invert_and_compose(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let out_names = self.out_dim_names();
        let a = outer.transpose_outs(&out_names).map_err(|_| {
            LayoutError::dim(format!(
                "invert_and_compose: out-dims {:?} and {:?} differ",
                out_names,
                outer.out_dim_names()
            ))
        })?;
        let b = self;
        for dim in &out_names {
            if a.out_dim_size(dim) < b.out_dim_size(dim) {
                return Err(LayoutError::algebra(format!(
                    "invert_and_compose: out-dim '{dim}' has size {} in the outer layout but {} here",
                    a.out_dim_size(dim),
                    b.out_dim_size(dim)
                )));
            }
        }

        // Dims on which both layouts agree are mapped as the identity rather
        // than collapsed onto the minimum-norm solution, so that e.g. equally
        // broadcast warps keep their own data.
        let mut identity_dims = Vec::new();
        for dim in a.in_dim_names() {
            if b.has_in_dim(&dim)
                && a.sublayout(std::slice::from_ref(&dim), &out_names)?
                    == b.sublayout(std::slice::from_ref(&dim), &out_names)?
            {
                identity_dims.push(dim);
            }
        }
        let a_rest: Vec<Dim> = a.in_dim_names().into_iter().filter(|d| !identity_dims.contains(d)).collect();
        let b_rest: Vec<Dim> = b.in_dim_names().into_iter().filter(|d| !identity_dims.contains(d)).collect();
        // Upstream asserts that both or neither side has dims left; its release
        // build simply solves the smaller system, which is also correct
        // (nothing left on `self`'s side gives an empty map; nothing left on
        // the outer side needs `self`'s rest to be zero), so do the same.
        let mut ret = if a_rest.is_empty() && b_rest.is_empty() {
            LinearLayout::empty()
        } else {
            match lstsq(&a.sublayout(&a_rest, &out_names)?, &b.sublayout(&b_rest, &out_names)?) {
                Ok(ret) => ret,
                // Upstream's FIXME: a dim kept as the identity may be needed to
                // reach the rest of `self`'s image, and upstream then asserts.
                // Solving the whole system instead is still a valid answer.
                Err(_) if !identity_dims.is_empty() => {
                    identity_dims.clear();
                    lstsq(&a, b)?
                }
                Err(e) => return Err(e),
            }
        };
        for dim in &identity_dims {
            let size =
                u32::try_from(a.in_dim_size(dim)).map_err(|_| LayoutError::TooLarge(format!("in-dim '{dim}'")))?;
            ret = ret.product(&LinearLayout::identity_1d(size, dim.clone(), dim.clone())?)?;
        }
        ret.transpose_ins(&b.in_dim_names())?.transpose_outs(&a.in_dim_names())
    }

    /// The inverse of an invertible layout.
    pub fn invert(&self) -> Result<LinearLayout> {
        if !self.is_invertible() {
            return Err(LayoutError::algebra(format!(
                "a layout must be surjective and square to be invertible:{self}"
            )));
        }
        self.pseudo_invert()
    }

    /// A right inverse `P` with `self(P(y)) = y` for every `y` (requires a
    /// surjective layout); equals the inverse when the layout is invertible.
    pub fn pseudo_invert(&self) -> Result<LinearLayout> {
        let mut identity = LinearLayout::empty();
        for (dim, size) in self.out_dims() {
            identity = identity.product(&LinearLayout::identity_1d(*size, dim.clone(), dim.clone())?)?;
        }
        identity.invert_and_compose(self)
    }

    /// For each input dim, a bitmask of its "free variables": input bits that
    /// are linearly dependent on earlier bits and so can change without
    /// changing the output.  All masks are 0 iff the layout is injective.
    pub fn free_variable_masks(&self) -> Vec<(Dim, u64)> {
        let mut matrix = self.to_matrix();
        let pivots = matrix.reduce();
        let mut basic = vec![false; self.total_in_size_log2() as usize];
        for col in pivots.into_iter().flatten() {
            basic[col as usize] = true;
        }
        let mut col = 0usize;
        self.in_dims()
            .iter()
            .map(|(dim, bases)| {
                let mut mask = 0u64;
                for i in 0..bases.len() {
                    if !basic[col] {
                        mask |= 1u64 << i;
                    }
                    col += 1;
                }
                (dim.clone(), mask)
            })
            .collect()
    }

    /// The free-variable mask of one input dim (0 if absent).
    pub fn free_variable_mask(&self, dim: &Dim) -> u64 {
        self.free_variable_masks().into_iter().find(|(d, _)| d == dim).map_or(0, |(_, m)| m)
    }
}

/// Finds `C` with `A = B * C` (upstream `divideLeft`), if it exists.  `C` has
/// the same dimensions as `A`.
pub fn divide_left(a: &LinearLayout, b: &LinearLayout) -> Result<Option<LinearLayout>> {
    if !dims_contained(a, b) {
        return Ok(None);
    }
    let Some(c_out_dims) = quotient_out_dims(a, b) else {
        return Ok(None);
    };
    let mut c_in_dims = Vec::new();
    for (in_dim, a_bases) in a.in_dims() {
        let in_b = b.in_dim_size_log2(in_dim) as usize;
        if in_b > a_bases.len() {
            return Ok(None);
        }
        // A's first bases must be B's (zero where B lacks the out dim).
        for (i, a_basis) in a_bases.iter().take(in_b).enumerate() {
            for (o, (out_dim, _)) in a.out_dims().iter().enumerate() {
                let expected = match (b.out_dim_index(out_dim), b.basis(in_dim, i)) {
                    (Some(j), Some(basis)) => basis[j],
                    _ => 0,
                };
                if a_basis[o] != expected {
                    return Ok(None);
                }
            }
        }
        // The rest, shifted down past B's range, are C's.
        let mut bases = Vec::new();
        for a_basis in &a_bases[in_b..] {
            let mut basis = Vec::with_capacity(a_basis.len());
            for (o, (out_dim, _)) in a.out_dims().iter().enumerate() {
                let shift = b.out_dim_size_log2(out_dim);
                let v = a_basis[o];
                if v & ((1u32 << shift) - 1) != 0 {
                    return Ok(None);
                }
                basis.push(v >> shift);
            }
            bases.push(basis);
        }
        c_in_dims.push((in_dim.clone(), bases));
    }
    // Components past C's out sizes mean A is not of the form B * C.
    let Ok(c) = LinearLayout::new(c_in_dims, c_out_dims, false) else {
        return Ok(None);
    };
    Ok((b.product(&c)? == *a).then_some(c))
}

/// Finds `C` with `A = C * B` (upstream `divideRight`), if it exists.
pub fn divide_right(a: &LinearLayout, b: &LinearLayout) -> Result<Option<LinearLayout>> {
    if !dims_contained(a, b) {
        return Ok(None);
    }
    let Some(c_out_dims) = quotient_out_dims(a, b) else {
        return Ok(None);
    };
    let mut c_in_dims = Vec::new();
    for (in_dim, a_bases) in a.in_dims() {
        let in_b = b.in_dim_size_log2(in_dim) as usize;
        if in_b > a_bases.len() {
            return Ok(None);
        }
        let in_c = a_bases.len() - in_b;
        // A's last bases must be B's shifted past C's range.
        for (j, a_basis) in a_bases[in_c..].iter().enumerate() {
            for (out_dim, _) in b.out_dims() {
                let o = a.out_index_or_err(out_dim)?;
                let shift = a.out_dim_size_log2(out_dim) - b.out_dim_size_log2(out_dim);
                let v = a_basis[o];
                if v & ((1u32 << shift) - 1) != 0 {
                    return Ok(None);
                }
                let expected = b.basis(in_dim, j).map_or(0, |basis| basis[b.out_index_or_err(out_dim).unwrap_or(0)]);
                if v >> shift != expected {
                    return Ok(None);
                }
            }
        }
        c_in_dims.push((in_dim.clone(), a_bases[..in_c].to_vec()));
    }
    let c = LinearLayout::new(c_in_dims, c_out_dims, false);
    // C's bases can exceed its (shrunk) out sizes when A is not of the form
    // C * B; that is "no quotient", not an error.
    let Ok(c) = c else { return Ok(None) };
    Ok((c.product(b)? == *a).then_some(c))
}

fn dims_contained(a: &LinearLayout, b: &LinearLayout) -> bool {
    b.in_dims().iter().all(|(d, _)| a.has_in_dim(d)) && b.out_dims().iter().all(|(d, _)| a.has_out_dim(d))
}

fn quotient_out_dims(a: &LinearLayout, b: &LinearLayout) -> Option<Vec<(Dim, u32)>> {
    a.out_dims()
        .iter()
        .map(|(d, size)| {
            let log2 = size.trailing_zeros().checked_sub(b.out_dim_size_log2(d))?;
            Some((d.clone(), 1u32 << log2))
        })
        .collect()
}

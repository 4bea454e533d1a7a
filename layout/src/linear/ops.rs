//! Structural operations on linear layouts: products, transposes, reshapes,
//! sub-layouts, composition and the queries built on them.

use std::ops::Mul;

use super::{Bases, LinearLayout};
use crate::dims::Dim;
use crate::error::{check_pow2, LayoutError, Result};

/// Least upper bound of two dimension orders: a list containing both that
/// keeps the relative order of each, preferring `x` first where ambiguous.
/// Upstream documents `[a, b]` vs `[b, a]` as having no supremum, but its
/// algorithm resolves such conflicts in favour of `x` (`[a, b]`); the error
/// branches below mirror its unreachable checks.
///
/// This is upstream's `supremum` (lib/Tools/LayoutUtils.cpp), step for step,
/// because the exact order it picks decides the dimension order of products.
pub fn supremum(x: &[Dim], y: &[Dim]) -> Result<Vec<Dim>> {
    let pos = |list: &[Dim], d: &Dim| list.iter().position(|e| e == d);
    let fail = || LayoutError::algebra(format!("supremum of dimension orders {x:?} and {y:?} does not exist"));
    let mut result: Vec<Dim> = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    loop {
        while i < x.len() && result.contains(&x[i]) {
            i += 1;
        }
        while j < y.len() && result.contains(&y[j]) {
            j += 1;
        }
        if i >= x.len() && j >= y.len() {
            break;
        }
        if i < x.len() && j < y.len() && x[i] == y[j] {
            if pos(y, &x[i]).is_some_and(|p| p < j) {
                return Err(fail());
            }
            result.push(x[i].clone());
            i += 1;
            j += 1;
            continue;
        }
        // Where (in the other list) the next candidate of each list sits, if it
        // is still ahead there; `None` means "only in its own list".
        let cand_x = (i < x.len()).then(|| pos(y, &x[i]).filter(|&p| p >= j)).flatten();
        let cand_y = (j < y.len()).then(|| pos(x, &y[j]).filter(|&p| p >= i)).flatten();
        if i < x.len() && cand_x.is_none() {
            result.push(x[i].clone());
            i += 1;
            continue;
        }
        if j < y.len() && cand_y.is_none() {
            result.push(y[j].clone());
            j += 1;
            continue;
        }
        if cand_x.unwrap_or(usize::MAX) <= cand_y.unwrap_or(usize::MAX) {
            if pos(y, &x[i]).is_some_and(|p| p < j) {
                return Err(fail());
            }
            result.push(x[i].clone());
            i += 1;
        } else {
            if pos(x, &y[j]).is_some_and(|p| p < i) {
                return Err(fail());
            }
            result.push(y[j].clone());
            j += 1;
        }
    }
    Ok(result)
}

fn same_set(a: &[Dim], b: &[Dim]) -> bool {
    a.len() == b.len() && a.iter().all(|d| b.contains(d)) && b.iter().all(|d| a.contains(d))
}

impl LinearLayout {
    /// Upstream's `operator*`: the direct sum of two layouts where `self` is
    /// the minor ("inner") part and `outer` the major part.  Shared input dims
    /// get `outer`'s bases appended after `self`'s, and shared output dims get
    /// `outer`'s values shifted above `self`'s range.
    ///
    /// `identity_1d(4, i, o).product(identity_1d(2, i, o)) == identity_1d(8, i, o)`.
    pub fn product(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let in_names = supremum(&self.in_dim_names(), &outer.in_dim_names())?;
        let out_names = supremum(&self.out_dim_names(), &outer.out_dim_names())?;

        let mut out_dims = Vec::with_capacity(out_names.len());
        for name in &out_names {
            let log2 = self.out_dim_size_log2(name) + outer.out_dim_size_log2(name);
            if log2 > 31 {
                return Err(LayoutError::TooLarge(format!("out-dim '{name}' would have size 2^{log2}")));
            }
            out_dims.push((name.clone(), 1u32 << log2));
        }

        let mut in_dims = Vec::with_capacity(in_names.len());
        for in_name in &in_names {
            let inner_bases = self.bases(in_name);
            let outer_bases = outer.bases(in_name);
            let inner_len = inner_bases.map_or(0, |b| b.len());
            let outer_len = outer_bases.map_or(0, |b| b.len());
            let mut bases = vec![vec![0u32; out_names.len()]; inner_len + outer_len];
            for (o, out_name) in out_names.iter().enumerate() {
                if let (Some(inner_bases), Some(idx)) = (inner_bases, self.out_dim_index(out_name)) {
                    for (i, basis) in inner_bases.iter().enumerate() {
                        bases[i][o] = basis[idx];
                    }
                }
                if let (Some(outer_bases), Some(idx)) = (outer_bases, outer.out_dim_index(out_name)) {
                    let shift = self.out_dim_size_log2(out_name);
                    for (i, basis) in outer_bases.iter().enumerate() {
                        bases[inner_len + i][o] = basis[idx] << shift;
                    }
                }
            }
            in_dims.push((in_name.clone(), bases));
        }
        LinearLayout::new(in_dims, out_dims, false)
    }

    /// Reorders the input dimensions (must be a permutation of the current ones).
    pub fn transpose_ins(&self, new_order: &[Dim]) -> Result<LinearLayout> {
        if !same_set(new_order, &self.in_dim_names()) {
            return Err(LayoutError::dim(format!(
                "transpose_ins: {new_order:?} is not a permutation of {:?}",
                self.in_dim_names()
            )));
        }
        let in_dims = new_order.iter().map(|d| (d.clone(), self.bases(d).cloned().unwrap_or_default())).collect();
        LinearLayout::new(in_dims, self.out_dims.clone(), false)
    }

    /// Reorders the output dimensions (must be a permutation of the current ones).
    pub fn transpose_outs(&self, new_order: &[Dim]) -> Result<LinearLayout> {
        if !same_set(new_order, &self.out_dim_names()) {
            return Err(LayoutError::dim(format!(
                "transpose_outs: {new_order:?} is not a permutation of {:?}",
                self.out_dim_names()
            )));
        }
        let perm: Vec<usize> = new_order.iter().map(|d| self.out_dim_index(d).unwrap_or(0)).collect();
        let in_dims = self
            .in_dims
            .iter()
            .map(|(d, bases)| (d.clone(), bases.iter().map(|b| perm.iter().map(|&p| b[p]).collect()).collect()))
            .collect();
        let out_dims = perm.iter().map(|&p| self.out_dims[p].clone()).collect();
        LinearLayout::new(in_dims, out_dims, false)
    }

    /// Flattens the inputs (first dim minor) and splits them again into
    /// `new_in_dims` (name, power-of-two size), minor first.
    pub fn reshape_ins(&self, new_in_dims: &[(Dim, u64)]) -> Result<LinearLayout> {
        let mut total_log2 = 0u32;
        for (name, size) in new_in_dims {
            check_pow2(&format!("size of in-dim '{name}'"), *size as i64)?;
            total_log2 += size.trailing_zeros();
        }
        if total_log2 != self.total_in_size_log2() {
            return Err(LayoutError::algebra(format!(
                "reshape_ins: total input size 2^{} does not match 2^{total_log2}",
                self.total_in_size_log2()
            )));
        }
        let mut flat = self.in_dims.iter().flat_map(|(_, b)| b.iter().cloned());
        let in_dims = new_in_dims
            .iter()
            .map(|(name, size)| (name.clone(), flat.by_ref().take(size.trailing_zeros() as usize).collect()))
            .collect();
        LinearLayout::new(in_dims, self.out_dims.clone(), false)
    }

    /// Flattens the outputs (first dim minor) and splits them again into
    /// `new_out_dims`, minor first.
    pub fn reshape_outs(&self, new_out_dims: &[(Dim, u32)]) -> Result<LinearLayout> {
        let mut total_log2 = 0u32;
        for (name, size) in new_out_dims {
            check_pow2(&format!("size of out-dim '{name}'"), *size as i64)?;
            total_log2 += size.trailing_zeros();
        }
        if total_log2 != self.total_out_size_log2() {
            return Err(LayoutError::algebra(format!(
                "reshape_outs: total output size 2^{} does not match 2^{total_log2}",
                self.total_out_size_log2()
            )));
        }
        let mut shifts = Vec::new();
        let mut acc = 0u32;
        for (_, size) in &self.out_dims {
            shifts.push(acc);
            acc += size.trailing_zeros();
        }
        let in_dims = self
            .in_dims
            .iter()
            .map(|(name, bases)| {
                let new_bases = bases
                    .iter()
                    .map(|basis| {
                        let mut flat: u64 = basis.iter().zip(&shifts).map(|(&b, &s)| (b as u64) << s).sum();
                        new_out_dims
                            .iter()
                            .map(|(_, size)| {
                                let component = flat % (*size as u64);
                                flat /= *size as u64;
                                component as u32
                            })
                            .collect()
                    })
                    .collect();
                (name.clone(), new_bases)
            })
            .collect();
        LinearLayout::new(in_dims, new_out_dims.to_vec(), false)
    }

    /// Reshapes to a single input dim named like the first one.
    pub fn flatten_ins(&self) -> Result<LinearLayout> {
        match self.in_dims.first() {
            None => self.reshape_ins(&[]),
            Some((name, _)) => self.reshape_ins(&[(name.clone(), self.total_in_size())]),
        }
    }

    /// Reshapes to a single output dim named like the first one.
    pub fn flatten_outs(&self) -> Result<LinearLayout> {
        match self.out_dims.first() {
            None => self.reshape_outs(&[]),
            Some((name, _)) => {
                let total = self.total_out_size_log2();
                if total > 31 {
                    return Err(LayoutError::TooLarge(format!("flattened output of 2^{total} elements")));
                }
                self.reshape_outs(&[(name.clone(), 1u32 << total)])
            }
        }
    }

    /// Keeps only the first `log2(new_size)` bases of `dim`.
    pub fn resize_in_dim(&self, dim: &Dim, new_size: u64) -> Result<LinearLayout> {
        check_pow2("resize_in_dim size", new_size as i64)?;
        let keep = new_size.trailing_zeros() as usize;
        if keep > self.bases_or_err(dim)?.len() {
            return Err(LayoutError::param(format!("resize_in_dim: cannot grow '{dim}' to {new_size}")));
        }
        let mut in_dims = self.in_dims.clone();
        for (d, bases) in &mut in_dims {
            if d == dim {
                bases.truncate(keep);
            }
        }
        LinearLayout::new(in_dims, self.out_dims.clone(), false)
    }

    /// Shrinks output `dim` to `new_size`, zeroing components that fall outside.
    ///
    /// (Upstream's version compares `outDim == outDim` with itself and so
    /// resizes every output dim; this implements the documented intent.)
    pub fn resize_out_dim(&self, dim: &Dim, new_size: u32) -> Result<LinearLayout> {
        check_pow2("resize_out_dim size", new_size as i64)?;
        let idx = self.out_index_or_err(dim)?;
        if new_size > self.out_dims[idx].1 {
            return Err(LayoutError::param(format!("resize_out_dim: cannot grow '{dim}' to {new_size}")));
        }
        let mut in_dims = self.in_dims.clone();
        for (_, bases) in &mut in_dims {
            for basis in bases {
                if basis[idx] >= new_size {
                    basis[idx] = 0;
                }
            }
        }
        let mut out_dims = self.out_dims.clone();
        out_dims[idx].1 = new_size;
        LinearLayout::new(in_dims, out_dims, false)
    }

    /// Places `other`'s input dims after `self`'s.  Both must have identical
    /// output dims (names, order and sizes) and disjoint input dims.
    pub fn concat_ins(&self, other: &LinearLayout) -> Result<LinearLayout> {
        if self.out_dims != other.out_dims {
            return Err(LayoutError::dim("concat_ins: layouts must have the same out-dims and sizes"));
        }
        let mut in_dims = self.in_dims.clone();
        in_dims.extend(other.in_dims.iter().cloned());
        LinearLayout::new(in_dims, self.out_dims.clone(), false)
    }

    /// Places `other`'s output dims after `self`'s.  Both must have identical
    /// input dims (names, order and sizes) and disjoint output dims.
    pub fn concat_outs(&self, other: &LinearLayout) -> Result<LinearLayout> {
        let same_ins = self.in_dims.len() == other.in_dims.len()
            && self.in_dims.iter().zip(&other.in_dims).all(|((a, ab), (b, bb))| a == b && ab.len() == bb.len());
        if !same_ins {
            return Err(LayoutError::dim("concat_outs: layouts must have the same in-dims and sizes"));
        }
        let in_dims = self
            .in_dims
            .iter()
            .zip(&other.in_dims)
            .map(|((name, lhs), (_, rhs))| {
                (name.clone(), lhs.iter().zip(rhs).map(|(l, r)| l.iter().chain(r).copied().collect()).collect())
            })
            .collect();
        let mut out_dims = self.out_dims.clone();
        out_dims.extend(other.out_dims.iter().cloned());
        LinearLayout::new(in_dims, out_dims, false)
    }

    /// The layout restricted to the given input dims (others are fixed to 0)
    /// and projected to the given output dims.  Sizes and the original order of
    /// dimensions are kept, whatever order the arguments use.
    pub fn sublayout(&self, in_names: &[Dim], out_names: &[Dim]) -> Result<LinearLayout> {
        for d in in_names {
            if !self.has_in_dim(d) {
                return Err(LayoutError::dim(format!("sublayout: '{d}' is not an in-dim")));
            }
        }
        for d in out_names {
            if !self.has_out_dim(d) {
                return Err(LayoutError::dim(format!("sublayout: '{d}' is not an out-dim")));
            }
        }
        let keep: Vec<usize> = (0..self.out_dims.len()).filter(|&i| out_names.contains(&self.out_dims[i].0)).collect();
        let in_dims = self
            .in_dims
            .iter()
            .filter(|(d, _)| in_names.contains(d))
            .map(|(d, bases)| (d.clone(), bases.iter().map(|b| keep.iter().map(|&i| b[i]).collect()).collect()))
            .collect();
        let out_dims = keep.iter().map(|&i| self.out_dims[i].clone()).collect();
        LinearLayout::new(in_dims, out_dims, false)
    }

    /// Whether the sub-layout on these dims maps everything to zero.
    pub fn sublayout_is_zero(&self, in_names: &[Dim], out_names: &[Dim]) -> Result<bool> {
        let sub = self.sublayout(in_names, out_names)?;
        Ok(sub.in_dims.iter().all(|(_, bases)| bases.iter().all(|b| b.iter().all(|&x| x == 0))))
    }

    /// Whether the layout acts as the identity on `dims`: each of them is both
    /// an input and an output of the same size mapped identically, no other
    /// input reaches them, and they reach no other output.
    pub fn is_trivial_over(&self, dims: &[Dim]) -> bool {
        if dims.iter().any(|d| !self.has_in_dim(d) && !self.has_out_dim(d)) {
            return false;
        }
        let remaining_ins: Vec<Dim> = self.in_dim_names().into_iter().filter(|d| !dims.contains(d)).collect();
        let remaining_outs: Vec<Dim> = self.out_dim_names().into_iter().filter(|d| !dims.contains(d)).collect();
        self.square_sublayout_is_identity(dims)
            && self.sublayout_is_zero(&remaining_ins, dims).unwrap_or(false)
            && self.sublayout_is_zero(dims, &remaining_outs).unwrap_or(false)
    }

    /// upstream `squareSublayoutIsIdentity`: the sub-layout `dims -> dims` is
    /// the identity once inputs and outputs are flattened.
    pub(crate) fn square_sublayout_is_identity(&self, dims: &[Dim]) -> bool {
        if dims.is_empty() {
            return true;
        }
        if dims.iter().any(|d| !self.has_in_dim(d) || !self.has_out_dim(d)) {
            return false;
        }
        if dims.iter().any(|d| self.in_dim_size(d) != self.out_dim_size(d) as u64) {
            return false;
        }
        let flat = match self.sublayout(dims, dims).and_then(|s| s.flatten_ins()).and_then(|s| s.flatten_outs()) {
            Ok(flat) => flat,
            Err(_) => return false,
        };
        flat.in_dims.first().is_none_or(|(_, bases)| bases.iter().enumerate().all(|(i, b)| b[0] as u64 == 1u64 << i))
    }

    /// If the layout is trivial over `dims`, the layout on the remaining dims.
    pub fn quotient(&self, dims: &[Dim]) -> Option<LinearLayout> {
        if !self.is_trivial_over(dims) {
            return None;
        }
        let ins: Vec<Dim> = self.in_dim_names().into_iter().filter(|d| !dims.contains(d)).collect();
        let outs: Vec<Dim> = self.out_dim_names().into_iter().filter(|d| !dims.contains(d)).collect();
        self.sublayout(&ins, &outs).ok()
    }

    /// `outer ∘ self`: first apply `self`, then `outer`.  `self`'s output dims
    /// must be `outer`'s input dims (any order) and no larger than them.
    pub fn compose(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        if !same_set(&self.out_dim_names(), &outer.in_dim_names()) {
            return Err(LayoutError::dim(format!(
                "compose: out-dims {:?} must be the in-dims {:?} of the outer layout",
                self.out_dim_names(),
                outer.in_dim_names()
            )));
        }
        for (d, size) in &self.out_dims {
            if *size as u64 > outer.in_dim_size(d) {
                return Err(LayoutError::algebra(format!(
                    "compose: out-dim '{d}' of size {size} is larger than the outer in-dim ({})",
                    outer.in_dim_size(d)
                )));
            }
        }
        let names = self.out_dim_names();
        let mut in_dims = Vec::with_capacity(self.in_dims.len());
        for (d, bases) in &self.in_dims {
            let mut new_bases = Vec::with_capacity(bases.len());
            for basis in bases {
                let ins: Vec<(Dim, u32)> = names.iter().cloned().zip(basis.iter().copied()).collect();
                new_bases.push(outer.apply(&ins)?.into_iter().map(|(_, v)| v).collect());
            }
            in_dims.push((d.clone(), new_bases));
        }
        LinearLayout::new(in_dims, outer.out_dims.clone(), false)
    }

    /// Removes an input dimension of size 1 (upstream `unsqueezeIn`).
    pub fn unsqueeze_in(&self, dim: &Dim) -> Result<LinearLayout> {
        if !self.bases_or_err(dim)?.is_empty() {
            return Err(LayoutError::param(format!("unsqueeze_in: in-dim '{dim}' does not have size 1")));
        }
        let in_dims = self.in_dims.iter().filter(|(d, _)| d != dim).cloned().collect();
        LinearLayout::new(in_dims, self.out_dims.clone(), false)
    }

    /// Removes an output dimension of size 1 (upstream `unsqueezeOut`).
    pub fn unsqueeze_out(&self, dim: &Dim) -> Result<LinearLayout> {
        let idx = self.out_index_or_err(dim)?;
        if self.out_dims[idx].1 != 1 {
            return Err(LayoutError::param(format!("unsqueeze_out: out-dim '{dim}' does not have size 1")));
        }
        let in_dims = self
            .in_dims
            .iter()
            .map(|(d, bases)| {
                (
                    d.clone(),
                    bases
                        .iter()
                        .map(|b| b.iter().enumerate().filter(|(i, _)| *i != idx).map(|(_, &x)| x).collect())
                        .collect(),
                )
            })
            .collect();
        let mut out_dims = self.out_dims.clone();
        out_dims.remove(idx);
        LinearLayout::new(in_dims, out_dims, false)
    }

    /// Drops the all-zero bases of `dim`, i.e. the broadcast along it.
    pub fn remove_zero_bases_along_dim(&self, dim: &Dim) -> Result<LinearLayout> {
        let in_dims: Vec<(Dim, Bases)> = self
            .in_dims
            .iter()
            .map(|(d, bases)| {
                if d == dim {
                    (d.clone(), bases.iter().filter(|b| b.iter().any(|&x| x != 0)).cloned().collect())
                } else {
                    (d.clone(), bases.clone())
                }
            })
            .collect();
        LinearLayout::new(in_dims, self.out_dims.clone(), false)
    }

    /// Number of consecutive values of the first input dim that map to
    /// consecutive values of the first output dim, i.e. the largest `V` with
    /// `L(a*V + v, rest) = L(a*V, rest) + (v, 0, ...)` for all `v < V`.
    /// This is the vectorisation width of register/offset layouts.
    pub fn num_consecutive_in_out(&self) -> u32 {
        let Some((_, first_bases)) = self.in_dims.first() else {
            return 1;
        };
        if self.out_dims.is_empty() {
            return 1;
        }
        let consec = first_bases
            .iter()
            .enumerate()
            .take_while(|(i, b)| b[0] as u64 == 1u64 << i && b[1..].iter().all(|&x| x == 0))
            .count() as u32;
        let mut other_bits = 0u32;
        for (k, (_, bases)) in self.in_dims.iter().enumerate() {
            for (i, basis) in bases.iter().enumerate() {
                if k != 0 || i as u32 >= consec {
                    other_bits |= basis[0];
                }
            }
        }
        let trailing_zeros = if other_bits != 0 { other_bits.trailing_zeros() } else { 31 };
        1u32 << consec.min(trailing_zeros)
    }
}

impl Mul<&LinearLayout> for &LinearLayout {
    type Output = Result<LinearLayout>;

    /// `inner * outer`, see [`LinearLayout::product`].
    fn mul(self, outer: &LinearLayout) -> Result<LinearLayout> {
        self.product(outer)
    }
}

impl Mul<LinearLayout> for LinearLayout {
    type Output = Result<LinearLayout>;

    fn mul(self, outer: LinearLayout) -> Result<LinearLayout> {
        self.product(&outer)
    }
}

/// Lets products chain without intermediate `?`: `(a * b * c)?`.
impl Mul<LinearLayout> for Result<LinearLayout> {
    type Output = Result<LinearLayout>;

    fn mul(self, outer: LinearLayout) -> Result<LinearLayout> {
        self?.product(&outer)
    }
}

impl Mul<Result<LinearLayout>> for LinearLayout {
    type Output = Result<LinearLayout>;

    fn mul(self, outer: Result<LinearLayout>) -> Result<LinearLayout> {
        self.product(&outer?)
    }
}

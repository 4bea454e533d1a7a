//! `#ttg.slice`: the parent layout with one tensor dim squeezed out.

use crate::dims::{standard_out_dims, Dim};
use crate::error::{LayoutError, Result};
use crate::kinds::Layout;
use crate::linear::LinearLayout;
use crate::utils::remove_standard_dim;

/// Upstream `SliceEncodingAttr`: a tensor of rank `r` laid out like the
/// rank-`r + 1` `parent` with `dim` of size 1, dropping that dim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slice {
    pub dim: u32,
    pub parent: Box<Layout>,
}

impl Slice {
    pub fn new(dim: u32, parent: Layout) -> Slice {
        Slice { dim, parent: Box::new(parent) }
    }

    pub fn rank(&self) -> usize {
        self.parent.rank().saturating_sub(1)
    }

    pub fn validate(&self) -> Result<()> {
        if !self.parent.is_distributed() {
            return Err(LayoutError::param("the parent of a slice layout must be a distributed layout"));
        }
        let rank = self.parent.rank();
        if rank <= 1 {
            return Err(LayoutError::param("the parent of a slice layout must have rank >= 2"));
        }
        if self.dim as usize >= rank {
            return Err(LayoutError::param(format!("slice dim={} must be less than the parent rank={rank}", self.dim)));
        }
        Ok(())
    }

    /// The linear layout for a tensor of `shape` (upstream `toLinearLayout`).
    pub fn to_linear(&self, shape: &[i64]) -> Result<LinearLayout> {
        self.to_linear_u64(&crate::kinds::check_shape(shape)?)
    }

    /// Upstream `SliceEncodingAttr::toLinearLayout`: the parent's layout for
    /// the shape with a 1 inserted at `dim`, minus that output dim, minus the
    /// register bases that became zero.
    pub(crate) fn to_linear_u64(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let dim = self.dim as usize;
        if shape.len() + 1 != self.parent.rank() {
            return Err(LayoutError::rank("shape of a slice layout", self.parent.rank() - 1, shape.len()));
        }
        let mut parent_shape = shape.to_vec();
        parent_shape.insert(dim, 1);
        let parent_ll = self.parent.to_linear_u64(&parent_shape)?;
        let sliced = remove_standard_dim(&parent_ll, dim)?;
        let in_dims = sliced
            .in_dims()
            .iter()
            .map(|(d, bases)| {
                if *d == Dim::Register {
                    (d.clone(), bases.iter().filter(|b| b.iter().any(|&v| v != 0)).cloned().collect())
                } else {
                    (d.clone(), bases.clone())
                }
            })
            .collect();
        LinearLayout::with_inferred_sizes(in_dims, standard_out_dims(shape.len()))
    }
}

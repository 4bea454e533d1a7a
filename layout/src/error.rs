//! The single error type of the crate.
//!
//! Upstream Triton asserts (or calls `report_fatal_error`) on malformed
//! layouts; here every such check becomes a `LayoutError` so that a compiler
//! pass can report the problem instead of aborting.

use std::fmt;

/// Why a layout could not be built or an operation could not be performed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// A size (dimension size, shape entry, layout parameter) that must be a
    /// power of two is not.
    NotPowerOfTwo { what: String, value: i64 },
    /// An `order` (or similar) vector is not a permutation of `0..rank`.
    NotAPermutation { what: String, order: Vec<u32> },
    /// Two things that must have the same rank do not.
    RankMismatch { what: String, expected: usize, got: usize },
    /// A named dimension is missing, duplicated or unexpected.
    Dimension(String),
    /// The layout would need more than 64 input or output bits.
    TooLarge(String),
    /// A parameter has an unsupported or out-of-range value.
    InvalidParameter(String),
    /// An algebraic precondition does not hold (e.g. not surjective, image not
    /// contained, supremum of dimension orders does not exist).
    Algebra(String),
}

impl LayoutError {
    pub(crate) fn param(msg: impl Into<String>) -> Self {
        LayoutError::InvalidParameter(msg.into())
    }

    pub(crate) fn algebra(msg: impl Into<String>) -> Self {
        LayoutError::Algebra(msg.into())
    }

    pub(crate) fn dim(msg: impl Into<String>) -> Self {
        LayoutError::Dimension(msg.into())
    }

    pub(crate) fn rank(what: impl Into<String>, expected: usize, got: usize) -> Self {
        LayoutError::RankMismatch { what: what.into(), expected, got }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::NotPowerOfTwo { what, value } => {
                write!(f, "{what} must be a power of two, got {value}")
            }
            LayoutError::NotAPermutation { what, order } => {
                write!(f, "{what} must be a permutation of 0..{}, got {order:?}", order.len())
            }
            LayoutError::RankMismatch { what, expected, got } => {
                write!(f, "rank mismatch for {what}: expected {expected}, got {got}")
            }
            LayoutError::Dimension(msg) => write!(f, "dimension error: {msg}"),
            LayoutError::TooLarge(msg) => write!(f, "layout too large: {msg}"),
            LayoutError::InvalidParameter(msg) => write!(f, "invalid parameter: {msg}"),
            LayoutError::Algebra(msg) => write!(f, "{msg}"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, LayoutError>;

/// Checks that `value` is a positive power of two.
pub(crate) fn check_pow2(what: &str, value: i64) -> Result<()> {
    if value > 0 && (value & (value - 1)) == 0 {
        Ok(())
    } else {
        Err(LayoutError::NotPowerOfTwo { what: what.to_string(), value })
    }
}

/// Checks that `order` is a permutation of `0..order.len()`.
pub(crate) fn check_permutation(what: &str, order: &[u32]) -> Result<()> {
    let mut seen = vec![false; order.len()];
    for &o in order {
        match seen.get_mut(o as usize) {
            Some(s) if !*s => *s = true,
            _ => return Err(LayoutError::NotAPermutation { what: what.to_string(), order: order.to_vec() }),
        }
    }
    Ok(())
}

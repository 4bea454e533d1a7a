//! Names of linear-layout dimensions.
//!
//! Upstream uses interned MLIR `StringAttr`s.  The names that matter to the
//! compiler get their own variants so that code can match on them; any other
//! name is kept verbatim.  Names are canonicalised on construction
//! (`Dim::from("lane") == Dim::Lane`, `Dim::from("dim2") == Dim::Axis(2)`), so
//! equality is always equality of the printed name.

use std::fmt;
use std::sync::Arc;

/// A dimension name of a [`crate::LinearLayout`] (input or output side).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    /// Registers of one thread (`"register"`).
    Register,
    /// Lanes (threads) of a warp (`"lane"`).
    Lane,
    /// Warps of a CTA (`"warp"`).
    Warp,
    /// CTAs (blocks) of a CGA (`"block"`).
    Block,
    /// Element offset of a shared-memory layout (`"offset"`).
    Offset,
    /// Logical tensor axis `i` (`"dim{i}"`), the output side of tensor layouts.
    Axis(usize),
    /// Any other name.
    Other(Arc<str>),
}

impl Dim {
    /// Builds a dimension from its textual name, canonicalising well-known names.
    pub fn named(name: &str) -> Dim {
        match name {
            "register" => Dim::Register,
            "lane" => Dim::Lane,
            "warp" => Dim::Warp,
            "block" => Dim::Block,
            "offset" => Dim::Offset,
            _ => match parse_axis(name) {
                Some(i) => Dim::Axis(i),
                None => Dim::Other(Arc::from(name)),
            },
        }
    }

    /// The textual name, as upstream would print it.
    pub fn name(&self) -> String {
        self.to_string()
    }
}

/// Recognises `dim{i}` exactly as it would be printed (no sign, no leading zeros).
fn parse_axis(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("dim")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

impl From<&str> for Dim {
    fn from(name: &str) -> Dim {
        Dim::named(name)
    }
}

impl From<String> for Dim {
    fn from(name: String) -> Dim {
        Dim::named(&name)
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Register => f.write_str("register"),
            Dim::Lane => f.write_str("lane"),
            Dim::Warp => f.write_str("warp"),
            Dim::Block => f.write_str("block"),
            Dim::Offset => f.write_str("offset"),
            Dim::Axis(i) => write!(f, "dim{i}"),
            Dim::Other(name) => f.write_str(name),
        }
    }
}

impl fmt::Debug for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// `[dim0, dim1, ..., dim{rank-1}]`: the output dims of every tensor layout.
pub fn standard_out_dims(rank: usize) -> Vec<Dim> {
    (0..rank).map(Dim::Axis).collect()
}

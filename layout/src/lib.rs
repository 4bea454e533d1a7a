//! Tritium's layout algebra: GF(2) linear layouts and the Triton GPU layout
//! kinds built on them, following Triton 3.6 (`LinearLayout.h`,
//! `LinearLayoutConversions.cpp`, `TritonGPUAttrDefs.td`,
//! `lib/Analysis/Utility.cpp`).
//!
//! - [`LinearLayout`]: the algebra (products, composition, inversion, ...).
//! - [`Layout`] and the kinds in [`kinds`]: blocked, slice, NVIDIA MMA, dot
//!   operand, swizzled/NVMMA shared and explicit linear layouts, each with
//!   `to_linear(shape)` matching upstream's `toLinearLayout`.
//! - [`infer`]: layout inference through `tt.trans`/`tt.reshape`/`tt.split`/`tt.join`
//!   and `ttg.fp4_to_fp`, for the ops' verifiers and the layout propagation, and
//!   the subslice swizzling check.
//! - [`convert`]: classification of layout conversions (no-op, register
//!   permutation, warp shuffle, shared memory).
//!
//! ```
//! use tritium_layout::{classify_conversion, Blocked, ConversionKind, Dim, Layout, NvidiaMma};
//!
//! let blocked = Layout::from(Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]));
//! let ll = blocked.to_linear(&[64, 64])?;
//! // Register 1 of lane 0, warp 0 holds element (0, 1).
//! let at = ll.apply(&[(Dim::Register, 1), (Dim::Lane, 0), (Dim::Warp, 0), (Dim::Block, 0)])?;
//! assert_eq!(at, vec![(Dim::Axis(0), 0), (Dim::Axis(1), 1)]);
//!
//! let mma = Layout::from(NvidiaMma::new(2, 0, &[4, 1], &[16, 8]));
//! assert_eq!(classify_conversion(&mma, &blocked, &[64, 64])?, ConversionKind::SharedMemory);
//! # Ok::<(), tritium_layout::LayoutError>(())
//! ```

pub mod convert;
pub mod dims;
pub mod error;
pub mod infer;
pub mod kinds;
pub mod linear;
pub mod shared_offsets;
pub mod swizzling;
pub mod utils;

pub use convert::{classify_conversion, minimal_cvt_layout, ConversionKind};
pub use dims::{standard_out_dims, Dim};
pub use error::{LayoutError, Result};
pub use kinds::{
    blocked_for_ctas, blocked_with_cta, default_blocked, Blocked, CtaLayout, DotOperand, Layout, NvidiaMma,
    NvmmaShared, Slice, SwizzledShared,
};
pub use linear::{Bases, LinearLayout};

//! The GPU a kernel is compiled for: [`tritium_dialects::target`], below
//! the passes and the lowering, re-exported here for the lowering's API.
pub use tritium_dialects::target::{ModuleConfig, Target, PTX_VERSION};

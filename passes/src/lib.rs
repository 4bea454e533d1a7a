//! Tritium's passes. Each lives in a file named after its flag; `registry`
//! lists them all, and is what tt-opt, pipelines and tests read.
pub mod analysis;
mod allocate_shared_memory_nv;
pub mod coalescing;
mod convert_triton_to_tritongpu;
pub mod ir;
pub mod pipeline;
pub mod registry;
mod test_print_alignment;
mod test_print_linear_layouts;
mod triton_nvidia_gpu_fence_insertion;
mod tritongpu_coalesce;
mod tritongpu_membar;
mod tritongpu_remove_layout_conversions;

pub use registry::{register_all, PASSES};

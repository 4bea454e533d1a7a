//! Tritium's passes. Each lives in a file named after its flag; `registry`
//! lists them all, and is what tt-opt, pipelines and tests read.
mod allocate_shared_memory_nv;
pub mod analysis;
pub mod coalescing;
mod convert_triton_to_tritongpu;
mod dot_operand_layouts;
mod greedy;
pub mod ir;
mod op_traits;
mod pattern_driver;
pub mod pipeline;
pub mod registry;
mod ssa;
mod test_print_alignment;
mod test_print_linear_layouts;
mod triton_combine;
mod triton_licm;
mod triton_nvidia_gpu_fence_insertion;
mod triton_loop_aware_cse;
mod triton_loop_unroll;
mod triton_reorder_broadcast;
mod triton_rewrite_tensor_pointer;
mod tritium_ttgir_pipeline;
mod tritongpu_accelerate_matmul;
mod tritongpu_assign_latencies;
mod tritongpu_coalesce;
mod tritongpu_f32_dot_tc;
mod tritongpu_membar;
mod tritongpu_optimize_dot_operands;
mod tritongpu_pipeline;
mod tritongpu_optimize_thread_locality;
mod tritongpu_reduce_data_duplication;
mod tritongpu_remove_layout_conversions;
mod tritongpu_reorder_instructions;
mod tritongpu_schedule_loops;

pub use registry::{register_all, PASSES};

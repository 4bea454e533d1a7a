//! Every pass of Tritium, by flag. Adding a pass is one file plus one line here.
use std::sync::Once;
use tritium_dialects::pass::{register, PassDefinition};

pub static PASSES: &[&PassDefinition] = &[
    &crate::convert_triton_to_tritongpu::PASS,
    &crate::test_print_linear_layouts::PASS,
    &crate::test_print_alignment::PASS,
    &crate::tritongpu_coalesce::PASS,
    &crate::allocate_shared_memory::PASS,
    &crate::allocate_shared_memory_nv::PASS,
    &crate::tritongpu_membar::PASS,
    &crate::test_print_membar::PASS,
    &crate::tritongpu_global_scratch_memory_allocation::PASS,
    &crate::triton_nvidia_gpu_fence_insertion::PASS,
    &crate::tritongpu_remove_layout_conversions::PASS,
    &crate::tritongpu_accelerate_matmul::PASS,
    &crate::tritongpu_f32_dot_tc::PASS,
    &crate::tritongpu_optimize_dot_operands::PASS,
    &crate::triton_combine::PASS,
    &crate::triton_reorder_broadcast::PASS,
    &crate::triton_licm::PASS,
    &crate::triton_loop_aware_cse::PASS,
    &crate::triton_rewrite_tensor_pointer::PASS,
    &crate::triton_loop_unroll::PASS,
    &crate::tritongpu_reduce_data_duplication::PASS,
    &crate::tritongpu_reorder_instructions::PASS,
    &crate::tritongpu_optimize_thread_locality::PASS,
    &crate::tritongpu_assign_latencies::PASS,
    &crate::tritongpu_schedule_loops::PASS,
    &crate::tritongpu_pipeline::PASS,
    &crate::tritongpu_test_pipeline_lower_loop::PASS,
    &crate::triton_nvidia_optimize_descriptor_encoding::PASS,
    &crate::triton_nvidia_tma_lowering::PASS,
    &crate::tritium_ttgir_pipeline::PASS,
    &crate::tritium_warn_unspecialized_loops::PASS,
    &crate::tritongpu_allocate_warp_groups::PASS,
    &crate::nvgpu_warp_specialization::PASS,
    &crate::nvgpu_warp_specialization::code_partition::PASS,
    &crate::nvgpu_warp_specialization::lower_token::PASS,
    &crate::nvgpu_warp_specialization::data_partition::PASS,
    &crate::nvgpu_warp_specialization::task_partition::PASS,
    &crate::nvgpu_warp_specialization::task_id_propagation::PASS,
    &crate::tritongpu_fuse_nested_loops::PASS,
    &crate::tritongpu_combine_tensor_select_and_if::PASS,
    &crate::tritongpu_prefetch::PASS,
    &crate::tritongpu_coalesce_async_copy::PASS,
    &crate::triton_test_loop_peeling::PASS,
    &crate::triton_nvidia_gpu_proxy_fence_insertion::PASS,
    &crate::triton_rewrite_tensor_descriptor_to_pointer::PASS,
    &crate::test_print_alias::PASS,
    &crate::tritongpu_optimize_accumulator_init::PASS,
    &crate::test_print_allocation::PASS,
    &crate::triton_nvidia_mma_lowering::PASS,
    &crate::tritoninstrument_concurrency_sanitizer::PASS,
    &crate::nvws_lower_warp_group::PASS,
    &crate::nvws_assign_stage_phase::PASS,
    &crate::nvws_insert_aref::PASS,
    &crate::nvws_lower_aref::PASS,
];

/// Registers every pass in MLIR's pass registry (and the upstream passes
/// Tritium's pipelines use). Safe to call more than once.
pub fn register_all() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        tritium_dialects::register_upstream_passes();
        for pass in PASSES {
            register(pass);
        }
        // Test only (not in PASSES, so in no pipeline): what a bug looks like.
        register(&crate::test_internal_error::PASS);
    });
}

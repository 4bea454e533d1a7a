//! The one place that says which function lowers which op: [`LOWERINGS`],
//! keyed by the op's registered name, sorted so that a lookup is a binary
//! search; then [`PREFIX_RULES`] for the dialects whose ops are lowered by one
//! generic rule. To lower a new op, write its function in the family's module
//! (`ops/<family>.rs`, signature [`LowerFn`]) and add one line here.
//!
//! Lookup order ([`lowering_of`]): an exact entry first, so that an op of a
//! prefix dialect may have its own function (`arith.constant`: fp8 constants
//! differ from the element-wise rule); else the first prefix rule that
//! matches; else none, and the caller reports the op as not supported yet.
use super::{
    atomic, control_flow, convert, debug, dot, elementwise, fp8, gather, grid, histogram, inline_asm, instrument, llvm,
    memory, reduce, scan, shape, shared, tma, warp_specialize, wgmma,
};
use crate::{
    emit::{Lowering, Result},
    function_abi,
};
use melior::ir::OperationRef;

/// Lowers one op: reads its operands' registers from the lowering, emits
/// LLVM/NVVM ops at the builder's cursor and records its results' registers.
pub type LowerFn = for<'c, 'o> fn(&mut Lowering<'c>, OperationRef<'c, 'o>) -> Result<()>;

/// Op name -> its lowering, sorted by name (checked by a test).
pub static LOWERINGS: &[(&str, LowerFn)] = &[
    ("arith.constant", elementwise::lower_constant),
    ("builtin.unrealized_conversion_cast", llvm::lower_unrealized_cast),
    ("cf.br", control_flow::lower_br),
    ("cf.cond_br", control_flow::lower_cond_br),
    ("gpu.barrier", llvm::lower_gpu_barrier),
    ("scf.condition", control_flow::lower_condition),
    ("scf.for", control_flow::lower_for),
    ("scf.if", control_flow::lower_if),
    ("scf.while", control_flow::lower_while),
    ("scf.yield", control_flow::lower_yield),
    ("tt.addptr", memory::lower_addptr),
    ("tt.assert", debug::lower_assert),
    ("tt.atomic_cas", atomic::lower_cas),
    ("tt.atomic_rmw", atomic::lower_rmw),
    ("tt.bitcast", elementwise::lower),
    ("tt.broadcast", shape::lower_broadcast),
    ("tt.call", function_abi::lower_call),
    ("tt.cat", shape::lower_cat),
    ("tt.clampf", elementwise::lower),
    ("tt.dot", dot::lower),
    ("tt.elementwise_inline_asm", inline_asm::lower),
    ("tt.expand_dims", shape::lower_expand_dims),
    ("tt.extern_elementwise", elementwise::lower),
    ("tt.fp_to_fp", fp8::lower_fp_to_fp),
    ("tt.gather", gather::lower),
    ("tt.get_num_programs", grid::lower_get_num_programs),
    ("tt.get_program_id", grid::lower_get_program_id),
    ("tt.histogram", histogram::lower),
    ("tt.int_to_ptr", elementwise::lower),
    ("tt.join", shape::lower_join),
    ("tt.load", memory::lower_load),
    ("tt.make_range", shape::lower_make_range),
    ("tt.map_elementwise", control_flow::lower_map_elementwise),
    ("tt.map_elementwise.return", control_flow::lower_map_elementwise_return),
    ("tt.mulhiui", elementwise::lower),
    ("tt.precise_divf", elementwise::lower),
    ("tt.precise_sqrt", elementwise::lower),
    ("tt.print", debug::lower_print),
    ("tt.ptr_to_int", elementwise::lower),
    ("tt.reduce", reduce::lower_reduce),
    ("tt.reshape", shape::lower_reshape),
    ("tt.return", function_abi::lower_return),
    ("tt.scan", scan::lower),
    ("tt.splat", shape::lower_splat),
    ("tt.split", shape::lower_split),
    ("tt.store", memory::lower_store),
    ("tt.trans", shape::lower_trans),
    ("tt.unsplat", shape::lower_unsplat),
    ("ttg.async_commit_group", shared::lower_async_commit_group),
    ("ttg.async_copy_global_to_local", shared::lower_async_copy_global_to_local),
    ("ttg.async_wait", shared::lower_async_wait),
    ("ttg.convert_layout", convert::lower),
    ("ttg.fp4_to_fp", fp8::lower_fp4_to_fp),
    ("ttg.global_scratch_alloc", tma::lower_global_scratch_alloc),
    ("ttg.local_alloc", shared::lower_local_alloc),
    ("ttg.local_barrier", shared::lower_local_barrier),
    ("ttg.local_dealloc", shared::lower_local_dealloc),
    ("ttg.local_load", shared::lower_local_load),
    ("ttg.local_store", shared::lower_local_store),
    ("ttg.memdesc_index", shared::lower_memdesc_index),
    ("ttg.memdesc_reinterpret", shared::lower_memdesc_trans),
    ("ttg.memdesc_reshape", shared::lower_memdesc_trans),
    ("ttg.memdesc_subslice", shared::lower_memdesc_subslice),
    ("ttg.memdesc_trans", shared::lower_memdesc_trans),
    ("ttg.warp_return", lower_warp_return),
    ("ttg.warp_specialize", lower_warp_specialize),
    ("ttg.warp_yield", lower_warp_yield),
    ("tti.experimental_assert_in_thread", instrument::lower_assert_in_thread),
    ("tti.experimental_buffer_pointers", instrument::lower_buffer_pointers),
    ("tti.experimental_lock_acquire", instrument::lower_lock_acquire),
    ("tti.experimental_lock_release", instrument::lower_lock_release),
    ("tti.experimental_memdesc_to_i64", instrument::lower_memdesc_to_i64),
    ("ttng.arrive_barrier", tma::lower_arrive_barrier),
    ("ttng.async_copy_mbarrier_arrive", tma::lower_async_copy_mbarrier_arrive),
    ("ttng.async_tma_copy_global_to_local", tma::lower_async_tma_copy_global_to_local),
    ("ttng.async_tma_copy_local_to_global", tma::lower_async_tma_copy_local_to_global),
    ("ttng.async_tma_reduce", tma::lower_async_tma_reduce),
    ("ttng.async_tma_store_wait", tma::lower_async_tma_store_wait),
    ("ttng.barrier_expect", tma::lower_barrier_expect),
    ("ttng.fence_async_shared", wgmma::lower_fence_async_shared),
    ("ttng.init_barrier", tma::lower_init_barrier),
    ("ttng.inval_barrier", tma::lower_inval_barrier),
    ("ttng.reinterpret_tensor_descriptor", tma::lower_reinterpret_tensor_descriptor),
    ("ttng.tensormap_create", tma::lower_tensormap_create),
    ("ttng.tensormap_fenceproxy_acquire", tma::lower_tensormap_fenceproxy_acquire),
    ("ttng.wait_barrier", tma::lower_wait_barrier),
    ("ttng.warp_group_dot", wgmma::lower_warp_group_dot),
    ("ttng.warp_group_dot_wait", wgmma::lower_warp_group_dot_wait),
    ("ub.poison", elementwise::lower_poison),
];

/// Dialect prefix -> the generic lowering of its ops without an entry in
/// [`LOWERINGS`]:
/// - `arith.*`, `math.*`: element-wise, one scalar op (or libdevice call,
///   or PTX instruction) per register, chosen by the op's name in
///   [`elementwise::lower`];
/// - `llvm.*`: the scalar llvm ops upstream's TTIR carries as they are
///   (`llvm.intr.assume`), copied with lowered operands by [`llvm::lower`].
pub static PREFIX_RULES: &[(&str, LowerFn)] =
    &[("arith.", elementwise::lower), ("llvm.", llvm::lower), ("math.", elementwise::lower)];

/// The function that lowers the op named `name`; None when the lowering
/// does not support it.
pub fn lowering_of(name: &str) -> Option<LowerFn> {
    rule_of(name).map(|(_, lower)| *lower)
}

/// The entry of [`LOWERINGS`] or [`PREFIX_RULES`] that applies to `name`.
fn rule_of(name: &str) -> Option<&'static (&'static str, LowerFn)> {
    match LOWERINGS.binary_search_by(|(entry, _)| (*entry).cmp(name)) {
        Ok(index) => Some(&LOWERINGS[index]),
        Err(_) => PREFIX_RULES.iter().find(|(prefix, _)| name.starts_with(prefix)),
    }
}

// `ops/warp_specialize.rs` keeps one entry point for its three ops (its
// owner is changing it); these name the op for it.
fn lower_warp_specialize<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    warp_specialize::lower(l, op, "ttg.warp_specialize")
}

fn lower_warp_yield<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    warp_specialize::lower(l, op, "ttg.warp_yield")
}

fn lower_warp_return<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    warp_specialize::lower(l, op, "ttg.warp_return")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every op the lowering dispatched to a function before the table (the
    /// arms of the former `match` in `ops/mod.rs`, 2026-11-25), and those
    /// added since (`ttg.memdesc_reshape`, `ttng.async_tma_reduce`,
    /// `ttg.memdesc_reinterpret`, the `tti` ops).
    const LOWERED_BEFORE_THE_TABLE: &[&str] = &[
        "tti.experimental_assert_in_thread",
        "tti.experimental_buffer_pointers",
        "tti.experimental_lock_acquire",
        "tti.experimental_lock_release",
        "tti.experimental_memdesc_to_i64",
        "ttg.memdesc_reshape",
        "ttg.memdesc_reinterpret",
        "ttng.async_tma_reduce",
        "tt.return",
        "tt.call",
        "tt.get_program_id",
        "tt.get_num_programs",
        "tt.make_range",
        "tt.splat",
        "tt.broadcast",
        "tt.expand_dims",
        "tt.reshape",
        "tt.trans",
        "tt.join",
        "tt.split",
        "tt.unsplat",
        "tt.cat",
        "tt.addptr",
        "tt.load",
        "tt.store",
        "tt.atomic_rmw",
        "tt.atomic_cas",
        "tt.reduce",
        "tt.scan",
        "tt.gather",
        "tt.histogram",
        "tt.print",
        "tt.assert",
        "tt.dot",
        "ttg.convert_layout",
        "scf.for",
        "scf.if",
        "scf.while",
        "scf.yield",
        "scf.condition",
        "cf.br",
        "cf.cond_br",
        "tt.map_elementwise",
        "tt.map_elementwise.return",
        "ttg.local_alloc",
        "ttg.local_load",
        "ttg.local_store",
        "ttg.local_dealloc",
        "ttg.memdesc_index",
        "ttg.memdesc_subslice",
        "ttg.memdesc_trans",
        "ttg.local_barrier",
        "ttg.async_copy_global_to_local",
        "ttg.async_commit_group",
        "ttg.async_wait",
        "ttng.warp_group_dot",
        "ttng.warp_group_dot_wait",
        "ttng.fence_async_shared",
        // The ttng barrier/TMA/tensormap ops the TMA family lowered (the
        // others matching its former name test were errors there too).
        "ttng.init_barrier",
        "ttng.inval_barrier",
        "ttng.barrier_expect",
        "ttng.arrive_barrier",
        "ttng.wait_barrier",
        "ttng.async_tma_copy_global_to_local",
        "ttng.async_tma_copy_local_to_global",
        "ttng.async_tma_store_wait",
        "ttg.global_scratch_alloc",
        "ttng.tensormap_create",
        "ttng.tensormap_fenceproxy_acquire",
        "ttng.reinterpret_tensor_descriptor",
        "ttg.warp_specialize",
        "ttg.warp_yield",
        "ttg.warp_return",
        "tt.fp_to_fp",
        "ttg.fp4_to_fp",
        "arith.constant",
        "gpu.barrier",
        "tt.elementwise_inline_asm",
        "tt.precise_sqrt",
        "tt.precise_divf",
        "tt.clampf",
        "tt.mulhiui",
        "tt.bitcast",
        "tt.extern_elementwise",
        "tt.int_to_ptr",
        "tt.ptr_to_int",
        "ub.poison",
        "ttng.async_copy_mbarrier_arrive",
        "builtin.unrealized_conversion_cast",
    ];

    #[test]
    fn entries_are_sorted_and_unique() {
        for pair in LOWERINGS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} must come before {} (and only once)", pair[1].0, pair[0].0);
        }
    }

    #[test]
    fn every_op_lowered_before_has_a_lowering() {
        for name in LOWERED_BEFORE_THE_TABLE {
            assert!(LOWERINGS.iter().any(|(entry, _)| entry == name), "{name} has no entry");
            assert!(lowering_of(name).is_some(), "{name} is not found");
        }
        // The table holds nothing else: a new entry is added to the list
        // above as well, so that removing one is seen.
        for (entry, _) in LOWERINGS {
            assert!(LOWERED_BEFORE_THE_TABLE.contains(entry), "{entry} is not in the list of lowered ops");
        }
    }

    #[test]
    fn prefix_dialects_fall_back_to_their_rule() {
        let rule = |name: &str| rule_of(name).map(|(key, _)| *key);
        for name in ["arith.addf", "arith.select", "arith.cmpi"] {
            assert_eq!(rule(name), Some("arith."), "{name}");
        }
        for name in ["math.exp2", "math.fma"] {
            assert_eq!(rule(name), Some("math."), "{name}");
        }
        assert_eq!(rule("llvm.intr.assume"), Some("llvm."));
        // An exact entry wins over its dialect's rule.
        assert_eq!(rule("arith.constant"), Some("arith.constant"));
    }

    #[test]
    fn unsupported_ops_have_no_lowering() {
        for name in [
            "ttng.cluster_wait",
            "ttng.async_tma_gather",
            "tt.descriptor_load",
            "tt",
            "",
            "arith",
            "scf.forall",
            "tt.dot_scaled",
        ] {
            assert!(lowering_of(name).is_none(), "{name}");
        }
    }
}

//! What MLIR's C API cannot tell about an op, for passes that follow
//! upstream's use of op traits and interfaces: the `Elementwise` trait,
//! memory effects (`isMemoryEffectFree`, `getEffectsRecursively`) and
//! speculatability (`isSpeculatable`). The facts are tables, by op name, of
//! what the ODS declares: Tritium's (`dialects/td`, which follows Triton's)
//! and MLIR's arith, math, scf and cf. An op missing from them is treated as
//! upstream treats an op without the interfaces: effects unknown, not
//! speculatable.
use crate::ir::{is_set, name_of};
use melior::ir::{operation::OperationLike, OperationRef, Value};
use tritium_dialects::access::{integer_attribute, OpAccess};
use tritium_dialects::ir::ops_in_regions;
use tritium_dialects::views::{DivIOp, ForOp};

/// Every op with the `Elementwise` trait: MLIR 22's arith ops but
/// `arith.constant`, every math op (both `ElementwiseMappable`), and Triton's
/// element-wise ops. Passes with patterns on the trait root one pattern at
/// each of these ops, as MLIR expands a trait pattern to the registered ops
/// that have the trait.
pub const ELEMENTWISE_OPS: &[&str] = &[
    "arith.addi",
    "arith.addui_extended",
    "arith.subi",
    "arith.muli",
    "arith.mulsi_extended",
    "arith.mului_extended",
    "arith.divui",
    "arith.divsi",
    "arith.ceildivui",
    "arith.ceildivsi",
    "arith.floordivsi",
    "arith.remui",
    "arith.remsi",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.shli",
    "arith.shrui",
    "arith.shrsi",
    "arith.negf",
    "arith.addf",
    "arith.subf",
    "arith.maximumf",
    "arith.maxnumf",
    "arith.maxsi",
    "arith.maxui",
    "arith.minimumf",
    "arith.minnumf",
    "arith.minsi",
    "arith.minui",
    "arith.mulf",
    "arith.divf",
    "arith.remf",
    "arith.extui",
    "arith.extsi",
    "arith.extf",
    "arith.scaling_extf",
    "arith.trunci",
    "arith.truncf",
    "arith.scaling_truncf",
    "arith.uitofp",
    "arith.sitofp",
    "arith.fptoui",
    "arith.fptosi",
    "arith.index_cast",
    "arith.index_castui",
    "arith.bitcast",
    "arith.cmpi",
    "arith.cmpf",
    "arith.select",
    "math.absf",
    "math.absi",
    "math.acosh",
    "math.asin",
    "math.asinh",
    "math.atan",
    "math.atanh",
    "math.atan2",
    "math.cbrt",
    "math.ceil",
    "math.clampf",
    "math.copysign",
    "math.cos",
    "math.acos",
    "math.cosh",
    "math.sin",
    "math.sinh",
    "math.sincos",
    "math.ctlz",
    "math.cttz",
    "math.ctpop",
    "math.erf",
    "math.erfc",
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.floor",
    "math.fma",
    "math.ipowi",
    "math.isfinite",
    "math.isinf",
    "math.isnan",
    "math.isnormal",
    "math.log",
    "math.log10",
    "math.log1p",
    "math.log2",
    "math.powf",
    "math.rsqrt",
    "math.sqrt",
    "math.tan",
    "math.tanh",
    "math.roundeven",
    "math.round",
    "math.trunc",
    "math.fpowi",
    "tt.int_to_ptr",
    "tt.ptr_to_int",
    "tt.bitcast",
    "tt.fp_to_fp",
    "tt.clampf",
    "tt.precise_sqrt",
    "tt.precise_divf",
    "tt.mulhiui",
    "tt.addptr",
    "tt.extern_elementwise",
    "tt.elementwise_inline_asm",
];

/// Ops declared `Pure` (no memory effects, always speculatable), beyond the
/// element-wise ones, math and arith (see [`own_effects`]).
const PURE: &[&str] = &[
    "tt.advance",
    "tt.splat",
    "tt.unsplat",
    "tt.expand_dims",
    "tt.reshape",
    "tt.broadcast",
    "tt.trans",
    "tt.get_program_id",
    "tt.get_num_programs",
    "tt.dot",
    "tt.dot_scaled",
    "tt.reduce",
    "tt.reduce.return",
    "tt.scan",
    "tt.scan.return",
    "tt.map_elementwise.return",
    "tt.make_range",
    "tt.histogram",
    "tt.gather",
    "tt.make_tensor_ptr",
    "tt.make_tensor_descriptor",
    "tt.return",
    "ttg.convert_layout",
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
    "ttg.predicate_stage",
    "ttg.mask.return",
    "ttg.fp4_to_fp",
    "ttg.warp_yield",
    "ttg.warp_return",
    "ttng.reinterpret_tensor_descriptor",
    "scf.yield",
    "scf.condition",
    "cf.br",
    "cf.cond_br",
];

/// Ops declared `NoMemoryEffect` without being speculatable.
const NO_MEMORY_EFFECT: &[&str] = &["tt.cat", "tt.join", "tt.split"];

/// Ops whose only memory effects are reads.
const READ_ONLY: &[&str] = &["ttg.local_load", "tt.descriptor_load", "tt.descriptor_gather", "ttng.warp_group_dot"];

/// Ops that allocate or free memory, and nothing else.
const ALLOCATE_OR_FREE: &[&str] = &["ttg.local_dealloc", "ttg.global_scratch_alloc"];

/// Ops whose declared effects include writes.
const WRITES: &[&str] = &[
    "tt.store",
    "tt.atomic_rmw",
    "tt.atomic_cas",
    "tt.print",
    "tt.assert",
    "tt.descriptor_store",
    "tt.descriptor_reduce",
    "tt.descriptor_scatter",
    "ttg.async_copy_global_to_local",
    "ttg.local_store",
    "ttng.init_barrier",
    "ttng.inval_barrier",
    "ttng.barrier_expect",
    "ttng.wait_barrier",
    "ttng.arrive_barrier",
    "ttng.async_copy_mbarrier_arrive",
    "ttng.async_tma_copy_global_to_local",
    "ttng.async_tma_copy_local_to_global",
    "ttng.async_tma_reduce",
    "ttng.async_tma_gather",
    "ttng.async_tma_scatter",
    "ttng.tensormap_create",
    "ttng.tensormap_fenceproxy_acquire",
];

/// Ops with `RecursiveMemoryEffects`: their effects are those of the ops
/// they hold.
const RECURSIVE_EFFECTS: &[&str] = &[
    "scf.for",
    "scf.if",
    "scf.while",
    "scf.execute_region",
    "scf.index_switch",
    "tt.map_elementwise",
    "ttg.warp_specialize",
    "ttg.warp_specialize.partitions",
];

/// The kinds of memory effects an op has (as its `MemoryEffectOpInterface`
/// reports them), or a set of ops has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    pub read: bool,
    /// Allocations and frees.
    pub allocate_or_free: bool,
    pub write: bool,
}

impl Effects {
    const NONE: Effects = Effects { read: false, allocate_or_free: false, write: false };
    const READ: Effects = Effects { read: true, allocate_or_free: false, write: false };
    const ALLOCATE_OR_FREE: Effects = Effects { read: false, allocate_or_free: true, write: false };
    const WRITE: Effects = Effects { read: false, allocate_or_free: false, write: true };

    fn union(self, other: Effects) -> Effects {
        Effects {
            read: self.read || other.read,
            allocate_or_free: self.allocate_or_free || other.allocate_or_free,
            write: self.write || other.write,
        }
    }

    /// No effects at all, or only reads.
    pub fn at_most_reads(self) -> bool {
        !self.allocate_or_free && !self.write
    }
}

/// Upstream's `Elementwise` trait.
pub fn is_elementwise(op: &OperationRef) -> bool {
    has_elementwise_trait(&name_of(op))
}

/// Whether ops named `name` have the `Elementwise` trait.
pub fn has_elementwise_trait(name: &str) -> bool {
    ELEMENTWISE_OPS.contains(&name)
}

/// MLIR's `isPure`: speculatable and free of memory effects.
pub fn is_pure(op: &OperationRef) -> bool {
    is_speculatable(op) && is_memory_effect_free(op)
}

/// Whether the op's own effects are reads and nothing else (MLIR's
/// `hasSingleEffect<MemoryEffects::Read>`).
pub fn has_only_read_effects(op: &OperationRef) -> bool {
    own_effects(op) == Some(Effects::READ)
}

/// Ops implementing upstream's `DotOpInterface`.
pub fn is_dot_interface(op: &OperationRef) -> bool {
    has_dot_interface(&name_of(op))
}

/// Whether ops named `name` implement upstream's `DotOpInterface`.
pub fn has_dot_interface(name: &str) -> bool {
    matches!(name, "tt.dot" | "tt.dot_scaled" | "ttng.warp_group_dot" | "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled")
}

/// Whether the op has `RecursiveMemoryEffects`.
fn has_recursive_effects(name: &str) -> bool {
    RECURSIVE_EFFECTS.contains(&name)
}

/// The op's own effects; `None` when it neither declares effects nor has
/// recursive ones (MLIR then knows nothing about it).
fn own_effects(op: &OperationRef) -> Option<Effects> {
    let name = name_of(op);
    let name = name.as_str();
    match name {
        // Impure external code may read and write anything.
        "tt.extern_elementwise" | "tt.elementwise_inline_asm" => {
            return Some(if is_set(op.attribute("pure").ok()) {
                Effects::NONE
            } else {
                Effects::WRITE.union(Effects::READ)
            });
        }
        // A volatile load is modelled as a write, so that it stays in place.
        "tt.load" => {
            return Some(if is_set(op.attribute("isVolatile").ok()) {
                Effects::WRITE.union(Effects::READ)
            } else {
                Effects::READ
            });
        }
        "ttg.local_alloc" => return Some(local_alloc_effects(op)),
        _ => {}
    }
    if name.starts_with("arith.")
        || name.starts_with("math.")
        || ELEMENTWISE_OPS.contains(&name)
        || PURE.contains(&name)
        || NO_MEMORY_EFFECT.contains(&name)
        || has_recursive_effects(name)
    {
        return Some(Effects::NONE);
    }
    if READ_ONLY.contains(&name) {
        return Some(Effects::READ);
    }
    if ALLOCATE_OR_FREE.contains(&name) {
        return Some(Effects::ALLOCATE_OR_FREE);
    }
    WRITES.contains(&name).then_some(Effects::WRITE)
}

/// An immutable allocation has no effects until shared memory is assigned
/// (so that CSE and DCE apply to it early), as upstream's `getEffects`;
/// otherwise it allocates, and writes its initial value if it has one.
fn local_alloc_effects(op: &OperationRef) -> Effects {
    let mutable = op
        .result_at(0)
        .ok()
        .and_then(|r| tritium_dialects::types::MemDesc::of(melior::ir::ValueLike::r#type(&r)))
        .is_none_or(|m| m.mutable);
    if !mutable && !op.has_attribute("allocation.offset") {
        return Effects::NONE;
    }
    if op.operand_count() > 0 {
        Effects::ALLOCATE_OR_FREE.union(Effects::WRITE)
    } else {
        Effects::ALLOCATE_OR_FREE
    }
}

/// MLIR's `isMemoryEffectFree`: no effects of its own nor, for ops with
/// recursive effects, of the ops inside.
pub fn is_memory_effect_free(op: &OperationRef) -> bool {
    if own_effects(op) != Some(Effects::NONE) {
        return false;
    }
    !has_recursive_effects(&name_of(op)) || ops_in_regions(op).iter().all(is_memory_effect_free)
}

/// The effects of `op` and, through ops with recursive effects, of the ops
/// inside it (MLIR's `getEffectsRecursively`); `None` when some op's effects
/// are unknown.
pub fn effects_recursively(op: &OperationRef) -> Option<Effects> {
    let mut all = Effects::NONE;
    let mut worklist = vec![*op];
    while let Some(op) = worklist.pop() {
        let recursive = has_recursive_effects(&name_of(&op));
        if recursive {
            worklist.extend(ops_in_regions(&op));
        }
        match own_effects(&op) {
            Some(effects) => all = all.union(effects),
            None if recursive => {}
            None => return None,
        }
    }
    Some(all)
}

/// MLIR's `isSpeculatable`: executing the op where it would not have run
/// cannot fault or fail to terminate.
pub fn is_speculatable(op: &OperationRef) -> bool {
    let name = name_of(op);
    let name = name.as_str();
    match name {
        "arith.divui" | "arith.ceildivui" => divisor_is_nonzero_constant(op, false),
        "arith.divsi" | "arith.ceildivsi" => divisor_is_nonzero_constant(op, true),
        "tt.extern_elementwise" | "tt.elementwise_inline_asm" => is_set(op.attribute("pure").ok()),
        // A loop by steps of one terminates; its body decides the rest.
        "scf.for" => {
            ForOp::of(*op).and_then(|lp| constant_integer(lp.step())) == Some(1)
                && ops_in_regions(op).iter().all(is_speculatable)
        }
        "scf.if" | "ttg.warp_specialize" | "ttg.warp_specialize.partitions" => {
            ops_in_regions(op).iter().all(is_speculatable)
        }
        _ => {
            name.starts_with("arith.")
                || name.starts_with("math.")
                || ELEMENTWISE_OPS.contains(&name)
                || PURE.contains(&name)
        }
    }
}

/// Division by a constant that is not zero (and, signed, not -1) cannot
/// trap (upstream asks integer range analysis; for a divisor that is not a
/// constant it knows no more than this).
fn divisor_is_nonzero_constant(op: &OperationRef, signed: bool) -> bool {
    match DivIOp::of(*op).and_then(|div| constant_integer(div.rhs())) {
        Some(0) => false,
        Some(-1) => !signed,
        Some(_) => true,
        None => false,
    }
}

/// The value of an integer constant, scalar or splat.
pub fn constant_integer(value: Value) -> Option<i64> {
    let producer = crate::ssa::defining_op(value)?;
    if name_of(&producer) != "arith.constant" {
        return None;
    }
    let attribute = producer.attribute("value").ok()?;
    let element = tritium_dialects::ir::scalar_of(attribute);
    integer_attribute(element).ok().map(|i| i.value())
}

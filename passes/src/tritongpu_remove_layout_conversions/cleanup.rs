//! The clean-ups between and after the phases, as upstream: MLIR's greedy
//! driver (folding, dead code removal) with the canonicalization patterns of
//! `ttg.convert_layout` (fold conversions into their producers, cancel round
//! trips), and at the end also those of `scf.for` and `scf.if` and Triton's
//! dead loop argument elimination.
//!
//! The conversion patterns are Rust patterns of the dialects crate, reached
//! through the canonicalizer: its `enable-patterns` filter selects patterns
//! by debug name, and the Rust patterns, unlike MLIR's C++ ones, have none,
//! so an empty name in the filter selects exactly them. MLIR's scf patterns
//! are selected by their names. The driver runs bottom-up, as upstream's
//! `applyPatternsGreedily`.
use super::ir::{body, defining_op, is_ancestor, op_name, operands, parent_op_of_value, results, terminator};
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value, ValueLike};
use std::collections::HashSet;
use tritium_dialects::access::{block_argument_at, OpAccess};
use tritium_dialects::canonicalization::with_patterns_of;
use tritium_dialects::ir::{apply_patterns_greedily, run_pipeline_on, PipelineFailure};
use tritium_dialects::rewrite::{Pattern, Rewriter};
use tritium_dialects::views::IfOp;

/// Runs `canonicalize` on `module` with only the patterns named in
/// `pattern_names` (and the unnamed, i.e. Rust, patterns).
fn canonicalize_with(module: OperationRef, pattern_names: &[&str]) -> Result<(), String> {
    // The trailing comma adds the empty name: `{,}` alone selects the Rust
    // patterns only (`{}` would select every pattern).
    let names = format!("{},", pattern_names.join(","));
    let pipeline = format!("builtin.module(canonicalize{{enable-patterns={{{names}}} top-down=false}})");
    // Of the Rust patterns, only the conversion's (and the folds), as
    // upstream collects `ConvertLayoutOp`'s patterns alone: not, e.g., the
    // load's that drops an all-true mask.
    with_patterns_of(&["ttg.convert_layout"], || run_pipeline_on(module, &pipeline)).map_err(|failure| match failure {
        PipelineFailure::Parse => format!("cannot build the pipeline '{pipeline}'"),
        PipelineFailure::Run => "the clean-up patterns failed".to_string(),
    })
}

/// The canonicalization patterns of `scf.for` and `scf.if` in MLIR 22 (the
/// generic region-branch ones are shared with other control flow ops).
pub(crate) const LOOP_AND_IF_PATTERNS: &[&str] = &[
    "(anonymous namespace)::SimplifyTrivialLoops",
    "(anonymous namespace)::ForOpTensorCastFolder",
    "(anonymous namespace)::CombineIfs",
    "(anonymous namespace)::CombineNestedIfs",
    "(anonymous namespace)::ConditionPropagation",
    "(anonymous namespace)::ConvertTrivialIfToSelect",
    "(anonymous namespace)::RemoveEmptyElseBranch",
    "(anonymous namespace)::RemoveStaticCondition",
    "(anonymous namespace)::ReplaceIfYieldWithConditionOrValue",
    "(anonymous namespace)::MakeRegionBranchOpSuccessorInputsDead",
    "(anonymous namespace)::RemoveDeadRegionBranchOpSuccessorInputs",
    "(anonymous namespace)::RemoveDuplicateSuccessorInputUses",
];

/// Folds the conversions the rewrites made redundant.
pub(super) fn canonicalize(module: OperationRef) -> Result<(), String> {
    canonicalize_with(module, &[])
}

/// The final clean-up: dead loop arguments, unused loop and if results,
/// redundant conversions. (Upstream runs all these patterns in one greedy
/// run; the dead-argument pattern is Rust and runs on its own, alternating
/// with the others until it finds nothing.)
pub(super) fn final_cleanup(module: OperationRef) -> Result<(), String> {
    loop {
        canonicalize_with(module, LOOP_AND_IF_PATTERNS)?;
        if !apply_greedily(module, &DEAD_LOOP_ARGUMENTS)? {
            return Ok(());
        }
    }
}

thread_local! {
    /// Whether a Rust pattern of the current greedy run changed the IR.
    static CHANGED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Applies `pattern` (with folding and dead-code removal) until nothing
/// changes; `true` if the pattern applied.
pub(crate) fn apply_greedily(module: OperationRef, pattern: &'static Pattern) -> Result<bool, String> {
    CHANGED.with(|c| c.set(false));
    let converged = apply_patterns_greedily(module, &[pattern]);
    if !converged {
        return Err("the clean-up patterns did not converge".into());
    }
    Ok(CHANGED.with(|c| c.get()))
}

/// Triton's `ForOpDeadArgElimination`: an iter_arg whose value is never
/// needed (its result is unused and only feeds itself and side-effect-free
/// ops) yields its own argument, so the loop canonicalization drops it.
pub(crate) static DEAD_LOOP_ARGUMENTS: Pattern =
    Pattern { root: "scf.for", benefit: 1, rewrite: eliminate_dead_loop_arguments };

fn value_key(value: Value) -> usize {
    super::ir::value_key(value)
}

/// Values of a loop found to be needed, and those still to follow.
struct Liveness<'c, 'a> {
    for_op: OperationRef<'c, 'a>,
    alive: HashSet<usize>,
    queue: Vec<Value<'c, 'a>>,
}

impl<'c, 'a> Liveness<'c, 'a> {
    /// Marks `value` needed; only values defined inside the loop count.
    fn mark(&mut self, value: Value<'c, 'a>) {
        if parent_op_of_value(value).is_some_and(|p| is_ancestor(&self.for_op, p))
            && self.alive.insert(value_key(value))
        {
            self.queue.push(value);
        }
    }
}

fn eliminate_dead_loop_arguments(for_op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Some(block), Some(yield_op)) = (body(&for_op, 0), terminator(&for_op, 0)) else { return false };
    let yielded = operands(&yield_op);
    let mut live = Liveness { for_op, alive: HashSet::new(), queue: Vec::new() };
    for (index, result) in results(&for_op).into_iter().enumerate() {
        if super::ir::has_uses(result) {
            if let Some(&value) = yielded.get(index) {
                live.mark(value);
            }
        }
    }
    if live.alive.len() == for_op.result_count() {
        return false;
    }
    // Ops with side effects keep their operands alive.
    for op in crate::ir::collect_ops(for_op, crate::ir::Order::Post) {
        let name = op_name(&op);
        if name != "scf.yield" && name != "scf.for" && !would_be_trivially_dead(&op) {
            for operand in operands(&op) {
                live.mark(operand);
            }
        }
    }
    while let Some(value) = live.queue.pop() {
        if let Some(definition) = defining_op(value) {
            match op_name(&definition).as_str() {
                "scf.for" => {
                    let Some(index) = super::ir::result_number(value) else { continue };
                    if let Ok(init) = definition.operand_at(3 + index) {
                        live.mark(init);
                    }
                    if let Some(value) = terminator(&definition, 0).and_then(|y| y.operand_at(index).ok()) {
                        live.mark(value);
                    }
                }
                "scf.if" => {
                    let Some(index) = super::ir::result_number(value) else { continue };
                    if let Some(if_op) = IfOp::of(definition) {
                        live.mark(if_op.condition());
                    }
                    for branch in 0..2 {
                        if let Some(value) = terminator(&definition, branch).and_then(|y| y.operand_at(index).ok()) {
                            live.mark(value);
                        }
                    }
                }
                // Not supported upstream either.
                "scf.while" => return false,
                _ => {
                    for operand in operands(&definition) {
                        live.mark(operand);
                    }
                }
            }
            continue;
        }
        // A live loop argument keeps its yielded value and init alive.
        let Some((owner, number)) = super::ir::argument_owner(value) else { continue };
        let Some(parent) = owner.parent_operation().filter(|p| op_name(p) == "scf.for") else { continue };
        if number == 0 {
            continue;
        }
        if let Some(value) = terminator(&parent, 0).and_then(|y| y.operand_at(number - 1).ok()) {
            live.mark(value);
        }
        if let Ok(init) = parent.operand_at(3 + number - 1) {
            live.mark(init);
        }
    }
    let alive = live.alive;
    let mut dead = Vec::new();
    for (index, &value) in yielded.iter().enumerate() {
        if alive.contains(&value_key(value)) {
            continue;
        }
        let Ok(argument) = block_argument_at(block, index + 1) else { continue };
        if value == Value::from(argument) {
            continue;
        }
        // A value from outside the loop is what the loop returns after one
        // iteration or more, the init after none: only when both are the
        // same can the operand go.
        let defined_inside = parent_op_of_value(value).is_some_and(|p| is_ancestor(&for_op, p));
        if !defined_inside && for_op.operand_at(3 + index).ok() != Some(value) {
            continue;
        }
        dead.push(index);
    }
    if dead.is_empty() {
        return false;
    }
    rewriter.modify_in_place(&for_op, || {
        for index in dead {
            if let Ok(argument) = block_argument_at(block, index + 1) {
                super::ir::set_operand(&yield_op, index, argument.into());
            }
        }
    });
    CHANGED.with(|c| c.set(true));
    true
}

/// MLIR's `wouldOpBeTriviallyDead`: the op has no effects but reads and
/// allocations of its own results (nested ops included), so removing it
/// unused changes nothing. The C API does not expose memory effects; this
/// follows the effects Triton's and MLIR's ops declare.
fn would_be_trivially_dead(op: &OperationRef) -> bool {
    let name = op_name(op);
    let dialect = name.split('.').next().unwrap_or("");
    match name.as_str() {
        "tt.store"
        | "tt.atomic_rmw"
        | "tt.atomic_cas"
        | "tt.print"
        | "tt.assert"
        | "tt.call"
        | "tt.descriptor_store"
        | "tt.descriptor_reduce"
        | "tt.descriptor_scatter"
        | "ttg.local_store"
        | "ttg.local_dealloc"
        | "ttg.async_copy_global_to_local"
        | "ttg.async_commit_group"
        | "ttg.async_wait"
        | "ttg.local_barrier"
        | "ttng.warp_group_dot_wait" => false,
        "tt.load" => !crate::ir::is_set(op.attribute("isVolatile").ok()),
        "tt.extern_elementwise" | "tt.elementwise_inline_asm" => super::ops::is_memory_effect_free_elementwise(op),
        "ttg.local_alloc" => {
            let mutable = op
                .result_at(0)
                .ok()
                .and_then(|r| tritium_dialects::types::MemDesc::of(r.r#type()))
                .is_some_and(|m| m.mutable);
            !(mutable && op.operand_count() > 0)
        }
        // Ops with recursive effects: dead when everything inside is.
        "scf.for" | "scf.if" | "scf.while" | "tt.reduce" | "tt.scan" | "tt.map_elementwise" => {
            op.regions().all(|region| {
                let mut block = region.first_block();
                while let Some(b) = block {
                    for nested in super::ir::block_ops(&b) {
                        let nested_name = op_name(&nested);
                        if !nested_name.ends_with("yield")
                            && !nested_name.ends_with(".return")
                            && !nested_name.ends_with("condition")
                            && !would_be_trivially_dead(&nested)
                        {
                            return false;
                        }
                    }
                    block = b.next_in_region();
                }
                true
            })
        }
        _ if dialect == "ttng" => matches!(name.as_str(), "ttng.warp_group_dot" | "ttng.reinterpret_tensor_descriptor"),
        _ => matches!(dialect, "arith" | "math" | "tt" | "ttg"),
    }
}

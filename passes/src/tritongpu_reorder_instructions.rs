//! `tritongpu-reorder-instructions` (upstream ReorderInstructions.cpp): moves
//! ops to where they cost fewer registers or less shared memory, in five
//! sweeps:
//!
//! 1. a layout conversion sinks past the `ttg.local_dealloc`s before its
//!    first use (the scratch it needs can reuse freed memory);
//! 2. an op that makes a tensor larger in registers (a `ttg.local_load`, a
//!    conversion to a dot operand) with a single user in another loop moves
//!    to that user;
//! 3. a `ttg.local_alloc` moves right after the op that produces its value
//!    (not after constants and splats: that would only hold shared memory
//!    longer);
//! 4. a transpose (`tt.trans`, `ttg.memdesc_trans`) moves right after the op
//!    that produces its source;
//! 5. the load of a dot's B operand from shared memory moves after that of
//!    its A operand, when no write can happen in between.
use crate::{
    ir::{collect_ops, name_of, tensor_parts, Order},
    op_traits::effects_recursively,
    ssa::{ancestor_in_block, defining_op, move_before, uses},
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{DotOp, LocalAllocOp, SrcOp};
use tritium_dialects::{
    layout::layout_of,
    pass::{PassDefinition, PassOptions, PassResult},
};
use tritium_layout::Layout;

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-reorder-instructions",
    description: "Move conversions, shared-memory loads and allocations, and transposes to cheaper places",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    for op in ops_named(module, &["ttg.convert_layout"]) {
        sink_past_deallocs(op);
    }
    let moves: Vec<(OperationRef, OperationRef)> = collect_ops(module, Order::Post)
        .into_iter()
        .filter_map(|op| user_in_other_loop(&op).map(|user| (op, user)))
        .collect();
    for (op, user) in moves {
        move_before(&op, &user);
    }
    for op in ops_named(module, &["ttg.local_alloc"]) {
        let producer = LocalAllocOp::of(op).and_then(|alloc| alloc.src()).and_then(defining_op);
        if let Some(producer) = producer.filter(|p| !matches!(name_of(p).as_str(), "arith.constant" | "tt.splat")) {
            move_after(&op, &producer);
        }
    }
    for op in ops_named(module, &["tt.trans", "ttg.memdesc_trans"]) {
        if let Some(producer) = SrcOp::of(op).and_then(|transpose| defining_op(transpose.src())) {
            move_after(&op, &producer);
        }
    }
    for op in ops_named(module, &["ttg.local_load"]) {
        if let Some(a_load) = load_of_a_operand_to_follow(&op) {
            move_after(&op, &a_load);
        }
    }
    Ok(())
}

/// The ops named one of `names` in `module`, in program order (a snapshot).
fn ops_named<'c, 'a>(module: OperationRef<'c, 'a>, names: &[&str]) -> Vec<OperationRef<'c, 'a>> {
    collect_ops(module, Order::Post).into_iter().filter(|op| names.contains(&name_of(op).as_str())).collect()
}

use tritium_dialects::ir::move_after;

/// The first op of `op`'s block that is or contains a user of `op`.
fn first_use<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let block = op.block()?;
    op.results()
        .flat_map(|r| uses(r.into()))
        .filter_map(|u| ancestor_in_block(&block, u.owner))
        .reduce(|first, other| if other.is_before_in_block(first) { other } else { first })
}

/// Moves a conversion after the last `ttg.local_dealloc` that comes before
/// its first use in its block.
fn sink_past_deallocs(op: OperationRef) {
    let first = first_use(&op);
    let mut last_dealloc = None;
    let mut next = op.next_in_block();
    while let Some(current) = next {
        if Some(current) == first {
            break;
        }
        if name_of(&current) == "ttg.local_dealloc" {
            last_dealloc = Some(current);
        }
        next = current.next_in_block();
    }
    if let Some(dealloc) = last_dealloc {
        move_after(&op, &dealloc);
    }
}

/// The nearest `scf.for` around `op`.
fn enclosing_loop<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    std::iter::successors(op.parent_operation(), |p| p.parent_operation()).find(|p| name_of(p) == "scf.for")
}

/// Whether the op's result needs more registers than its inputs: a load
/// from shared memory, a conversion to a dot operand.
fn increases_register_pressure(op: &OperationRef) -> bool {
    match name_of(op).as_str() {
        "ttg.local_load" => true,
        "ttg.convert_layout" => {
            let encoding = op.result_at(0).ok().and_then(|r| tensor_parts(r.r#type())).and_then(|(_, _, e)| e);
            encoding.and_then(|e| layout_of(e).ok()).is_some_and(|l| matches!(l, Layout::DotOperand(_)))
        }
        _ => false,
    }
}

/// The single user of such an op when it is in another loop than the op.
fn user_in_other_loop<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    if !increases_register_pressure(op) {
        return None;
    }
    let all: Vec<_> = op.results().flat_map(|r| uses(r.into())).collect();
    let [single] = all.as_slice() else { return None };
    (enclosing_loop(&single.owner) != enclosing_loop(op)).then_some(single.owner)
}

/// Whether the op's effects (with those of the ops it holds) are known and
/// include a write (MLIR's effects other than read, allocate and free).
fn writes_memory(op: &OperationRef) -> bool {
    effects_recursively(op).is_some_and(|e| e.write)
}

/// MLIR's dominance of `a` over `b` in structured control flow: `b` is, or
/// is inside, an op that `a` precedes in `a`'s block.
fn dominates(a: &OperationRef, b: OperationRef) -> bool {
    let Some(block) = a.block() else { return false };
    match ancestor_in_block(&block, b) {
        Some(ancestor) => ancestor == *a || a.is_before_in_block(ancestor),
        None => false,
    }
}

/// Whether an op between `start` and `end` (which `start` dominates) may
/// write memory; also when `end` is not below `start`'s block.
fn write_between(start: &OperationRef, end: OperationRef) -> bool {
    let Some(ancestor) = start.block().and_then(|b| ancestor_in_block(&b, end)) else { return true };
    let mut next = start.next_in_block();
    while let Some(op) = next {
        if writes_memory(&op) {
            return true;
        }
        if op == ancestor {
            return false;
        }
        next = op.next_in_block();
    }
    true
}

/// For the shared-memory load of a dot's B operand (its only use), the load
/// of the same dot's A operand, when B's load may move after it.
fn load_of_a_operand_to_follow<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let encoding = tensor_parts(op.result_at(0).ok()?.r#type())?.2?;
    let Layout::DotOperand(dot) = layout_of(encoding).ok()? else { return None };
    if dot.op_idx != 1 {
        return None;
    }
    let all = uses(op.result_at(0).ok()?.into());
    let [single] = all.as_slice() else { return None };
    if name_of(&single.owner) != "tt.dot" {
        return None;
    }
    let a_load = defining_op(DotOp::of(single.owner)?.a()).filter(|a| name_of(a) == "ttg.local_load")?;
    (dominates(op, a_load) && !write_between(op, a_load)).then_some(a_load)
}

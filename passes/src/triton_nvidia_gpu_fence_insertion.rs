//! `triton-nvidia-gpu-fence-insertion`: on Hopper, shared memory written by
//! threads (the generic proxy: `ttg.local_alloc` of a value, `ttg.local_store`)
//! is not visible to wgmma (the async proxy) without `fence.proxy.async`.
//! Before every dot reading a shared-memory operand that such a write may
//! have produced, this inserts `ttng.fence_async_shared {bCluster = false}`;
//! out of every enclosing loop that contains none of those writes; and not
//! at all right after an identical fence.
//!
//! An operand is traced back through the ops defining it (views, loop-carried
//! arguments of `scf.for`, both the initial value and the yielded one, and a
//! `ttg.warp_specialize` partition's arguments to the captured values). A
//! block argument of any other op is taken as a possible write, as upstream.
use crate::{
    ir::{collect_ops, create, name_of, Order},
    ssa::{argument_owner, defining_op, is_ancestor, move_before, op_key, users, value_key, Key},
};
use melior::ir::{attribute::BoolAttribute, operation::OperationLike, BlockLike, OperationRef, Value, ValueLike};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};
use tritium_dialects::views::DotLikeOp;

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-nvidia-gpu-fence-insertion",
    description: "Insert fence.proxy.async between generic-proxy shared-memory writes and wgmma reads",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "compute-capability",
        description: "Target compute capability (fences are needed from 90 on)",
        kind: OptionKind::Int,
        default: "90",
    }],
    run,
};

/// Views: same bytes as their source.
const VIEWS: &[&str] = &[
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
];

const FENCE: &str = "ttng.fence_async_shared";

fn is_memdesc(value: Value) -> bool {
    value.r#type().to_string().starts_with("!ttg.memdesc")
}

fn is_loop(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "scf.for" | "scf.while" | "scf.parallel")
}

/// The ops through which threads may have written the bytes `operand` reads.
fn register_to_shared_writes<'c, 'a>(operand: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut visited = HashSet::new();
    let mut found = Vec::new();
    trace(operand, &mut visited, &mut found);
    found
}

fn push<'c, 'a>(found: &mut Vec<OperationRef<'c, 'a>>, op: OperationRef<'c, 'a>) {
    if !found.iter().any(|f| op_key(f) == op_key(&op)) {
        found.push(op);
    }
}

fn trace<'c, 'a>(value: Value<'c, 'a>, visited: &mut HashSet<Key>, found: &mut Vec<OperationRef<'c, 'a>>) {
    if !visited.insert(value_key(value)) || !is_memdesc(value) {
        return;
    }
    if let Some(op) = defining_op(value) {
        if name_of(&op) == "ttg.local_alloc" {
            if op.operand_count() > 0 {
                push(found, op);
            }
            // A store into the buffer, possibly through a chain of single-use views.
            for user in users(op.result_at(0).unwrap().into()) {
                let mut user = user;
                loop {
                    let single = VIEWS
                        .contains(&name_of(&user).as_str())
                        .then(|| users(user.result_at(0).unwrap().into()))
                        .filter(|u| u.len() == 1);
                    match single {
                        Some(next) => user = next[0],
                        None => break,
                    }
                }
                if name_of(&user) == "ttg.local_store" {
                    push(found, user);
                    return;
                }
            }
        }
        for operand in op.operands() {
            trace(operand, visited, found);
        }
        return;
    }
    // A loop's or a partition's argument: what flows into it.
    if let Some(incoming) = tritium_dialects::ir::incoming_values(value) {
        for v in incoming {
            trace(v, visited, found);
        }
        return;
    }
    if let Some(owner) = argument_owner(value).and_then(|block| block.parent_operation()) {
        push(found, owner);
    }
}

/// The op before `op` in its block (the C API has no getter for it).
fn previous_in_block<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op.block()?.first_operation()?;
    if current == *op {
        return None;
    }
    while let Some(next) = current.next_in_block() {
        if next == *op {
            return Some(current);
        }
        current = next;
    }
    None
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let capability = options.int("compute-capability");
    if capability < 90 {
        return Ok(());
    }
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    for dot in collect_ops(module, Order::Pre) {
        // The dots whose operands may live in shared memory (upstream's
        // `DotOpInterface`, Blackwell's MMAs included).
        let Some(operands) = DotLikeOp::of(dot) else { continue };
        let writes_a = register_to_shared_writes(operands.a());
        let writes_b = register_to_shared_writes(operands.b());
        if writes_a.is_empty() && writes_b.is_empty() {
            continue;
        }
        let block = dot.block().expect("a dot in a block");
        let fence = create(FENCE, dot.location(), &[], &[], &[("bCluster", BoolAttribute::new(context, false).into())]);
        let fence = block.insert_operation_before(dot, fence);
        // Hoist out of loops that do not write the operands themselves.
        let mut parent = fence.parent_operation();
        while let Some(loop_op) = parent.filter(is_loop) {
            let inside = |writes: &[OperationRef]| writes.iter().any(|w| is_ancestor(&loop_op, *w));
            if inside(&writes_a) || inside(&writes_b) {
                break;
            }
            move_before(&fence, &loop_op);
            parent = fence.parent_operation();
        }
        let redundant = previous_in_block(&fence).is_some_and(|previous| {
            name_of(&previous) == FENCE
                && previous.attribute("bCluster").map(|a| a.to_string()).ok()
                    == fence.attribute("bCluster").map(|a| a.to_string()).ok()
        });
        if redundant {
            crate::ir::erase(fence);
        }
    }
    Ok(())
}

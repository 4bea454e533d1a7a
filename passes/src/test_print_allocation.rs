//! `test-print-allocation`: upstream's test pass for its shared-memory
//! allocation, printing Tritium's (`allocate-shared-memory-nv`'s plan, for
//! the module's target) as remarks, without changing the IR. For every
//! function: its name; at each op, `scratch offset = O, size = S` for its
//! scratch (`virtual offset = ...` for the memory of a function a `tt.call`
//! calls), and `offset = O, size = S` for the buffer it allocates; then the
//! function's `size = TOTAL`.
//!
//! The offsets are Tritium's (first fit by size over liveness in program
//! order), which differ from upstream's interference-graph allocation in
//! some programs; the option `get-scratch-size-function=ValidConstant`
//! gives every op except calls 128 bytes of scratch, as upstream's test
//! hook does.
use crate::allocate_shared_memory_nv::{plan_module, Purpose};
use crate::analysis::scratch::scratch_bytes;
use crate::ir::{collect_ops, fail, name_of, Order};
use melior::ir::{operation::OperationLike, OperationRef};
use std::collections::HashMap;
use tritium_dialects::ir::op_key;
use tritium_dialects::pass::{emit_remark, OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "test-print-allocation",
    description: "Print the shared-memory allocation as remarks (upstream's test flag)",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "get-scratch-size-function",
        description: "Scratch sizes: None (the ops' own) or ValidConstant (128 bytes for every op)",
        kind: OptionKind::String,
        default: "None",
    }],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let capability = tritium_dialects::target::module_capability(&module).unwrap_or(80);
    let constant = match options.string("get-scratch-size-function") {
        "None" => false,
        "ValidConstant" => true,
        other => return Err(fail(&module, format!("unknown get-scratch-size-function '{other}'"))),
    };
    let scratch = |op: &OperationRef| if constant { 128 } else { scratch_bytes(op, capability) };
    let plan = plan_module(module, &scratch, None, capability)?;
    let mut by_op: HashMap<usize, Vec<usize>> = HashMap::new();
    for (index, placement) in plan.placements.iter().enumerate() {
        by_op.entry(op_key(&placement.op)).or_default().push(index);
    }
    for function in collect_ops(module, Order::Pre) {
        if name_of(&function) != "tt.func" {
            continue;
        }
        let name = function.attribute("sym_name").ok().and_then(tritium_dialects::access::string_attribute_value);
        emit_remark(function.location(), &name.unwrap_or_default());
        let mut ops = vec![function];
        ops.extend(collect_ops(function, Order::Pre));
        for op in ops {
            let placements = by_op.get(&op_key(&op)).map(Vec::as_slice).unwrap_or_default();
            // Scratch first, then the buffer, as upstream prints them.
            let mut placements: Vec<_> = placements.iter().map(|i| &plan.placements[*i]).collect();
            placements.sort_by_key(|p| p.purpose == Purpose::Buffer);
            for placement in placements {
                let kind = match placement.purpose {
                    Purpose::Scratch => "scratch ",
                    Purpose::Callee => "virtual ",
                    Purpose::Buffer => "",
                };
                emit_remark(op.location(), &format!("{kind}offset = {}, size = {}", placement.offset, placement.size));
            }
        }
        let total = plan.function_totals.get(&op_key(&function)).copied().unwrap_or(0);
        emit_remark(function.location(), &format!("size = {total}"));
    }
    Ok(())
}

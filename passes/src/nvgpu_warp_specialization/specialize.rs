#![allow(dead_code)] // called by the code partition (being ported)
//! The last step of upstream's Hopper code partition (its `specializeRegion`,
//! WSSpecialize.cpp): the ops of the function body that carry an
//! `async_task_id` become a `ttg.warp_specialize` placed before the
//! `tt.return`. The smallest task id (the producer, 0) gets the default
//! region, every further task a partition of 4 warps; each region receives
//! its own copy of every op carrying its id (an `scf.for` with the iteration
//! arguments its task uses, an `scf.if` with the results its task defines,
//! a `tt.reduce` whole), the copies labelled with that one id. Values the
//! partitions use from outside become captures (constants are cloned into
//! each partition instead), and the original ops are erased.
use super::task_ids::{get_async_task_ids, get_nested_async_task_ids, has_async_task_id, AsyncTaskId, ASYNC_TASK_ID};
use crate::ir::{collect_ops, name_of, Order};
use crate::ssa::{clone_with, defining_op, insert_before, uses, ValueMap};
use melior::ir::{
    attribute::DenseI32ArrayAttribute, operation::OperationBuilder, operation::OperationLike, Block, BlockLike,
    BlockRef, Identifier, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{
    argument_number, argument_owner, context_of, dense_i32_array, escaping_use, set_attribute, set_operand,
    set_operands,
};
use tritium_dialects::views::IfOp;

/// Registers upstream asks for a consumer partition when the caller asks for
/// none (its `scanRegUsage` does not scan yet).
const DEFAULT_REGISTERS: i32 = 232;

/// Where new ops go: the end of a block, or before an op.
type At<'c, 'a> = tritium_dialects::ir::InsertionPoint<'c, 'a>;

fn set_task(op: &OperationRef, task: AsyncTaskId) {
    set_attribute(op, ASYNC_TASK_ID, dense_i32_array(op.location(), &[task]));
}

fn is_for(op: &OperationRef) -> bool {
    name_of(op) == "scf.for"
}

/// The init value of iteration argument `index` of `for_op`.
fn init_arg<'c, 'a>(for_op: &OperationRef<'c, 'a>, index: usize) -> Result<Value<'c, 'a>, String> {
    for_op.operand(3 + index).map_err(|_| format!("scf.for has no iteration argument #{index}"))
}

/// The iteration argument behind block argument `arg` (its number less the
/// induction variable) of `for_op`'s body, and its init value.
fn init_of_block_arg<'c, 'a>(for_op: &OperationRef<'c, 'a>, arg: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let number = argument_number(arg).expect("a block argument");
    if number == 0 {
        return Err("the induction variable has no init value".into());
    }
    init_arg(for_op, number - 1)
}

/// The iteration arguments of `for_op` (by position) that task `task` needs:
/// those some op of the task uses (through nested loops' iteration
/// arguments), as upstream's `collectBlockArgsForTask`.
fn block_args_for_task(for_op: &OperationRef, task: AsyncTaskId) -> Result<Vec<usize>, String> {
    fn dfs<'c, 'a>(
        nested_for: &OperationRef<'c, 'a>,
        arg: Value<'c, 'a>,
        index: usize,
        task: AsyncTaskId,
        found: &mut Vec<usize>,
    ) -> Result<(), String> {
        let is_block_arg = argument_owner(arg).is_some();
        for user in uses(arg).into_iter().map(|u| u.owner) {
            if !has_async_task_id(&user, task) {
                continue;
            }
            let name = name_of(&user);
            if name == "scf.yield" {
                if user.parent_operation().is_some_and(|p| name_of(&p) == "scf.if") && is_block_arg {
                    let init = init_of_block_arg(nested_for, arg)?;
                    match defining_op(init) {
                        Some(def) => {
                            if has_async_task_id(&def, task) {
                                if !found.contains(&index) {
                                    found.push(index);
                                }
                                return Ok(());
                            }
                        }
                        None => return Err("initial value should have a defining op".into()),
                    }
                }
                continue;
            }
            if name == "scf.for" {
                if is_block_arg {
                    let init = init_of_block_arg(nested_for, arg)?;
                    match defining_op(init) {
                        Some(def) => {
                            if has_async_task_id(&def, task) {
                                if !found.contains(&index) {
                                    found.push(index);
                                }
                                return Ok(());
                            }
                        }
                        None => {
                            // The real users are in the nested loop.
                            let inits: Vec<Value> = user.operands().skip(3).collect();
                            if let Some(position) = inits.iter().position(|v| *v == arg) {
                                let body = user.region_at(0).unwrap().first_block().unwrap();
                                let nested_arg: Value = body.argument(position + 1).unwrap().into();
                                dfs(&user, nested_arg, index, task, found)?;
                            }
                        }
                    }
                }
                continue;
            }
            if user.regions().next().is_none() {
                if !found.contains(&index) {
                    found.push(index);
                }
                return Ok(());
            }
            // Upstream looks for `arg` among the user's own region arguments,
            // which never holds it: a user with regions does not count.
        }
        Ok(())
    }
    let mut found = Vec::new();
    let body = for_op.region_at(0).unwrap().first_block().unwrap();
    for i in 1..body.argument_count() {
        dfs(for_op, body.argument(i).unwrap().into(), i - 1, task, &mut found)?;
    }
    for i in 0..for_op.result_count() {
        dfs(for_op, for_op.result(i).unwrap().into(), i, task, &mut found)?;
    }
    found.sort();
    Ok(found)
}

/// A copy of `op` for task `task` at `at` (upstream's `SpecializeOp`), or
/// nothing when the op is not the task's.
fn specialize_op<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    map: &mut ValueMap,
    at: At<'c, 'a>,
    task: AsyncTaskId,
) -> Result<Option<OperationRef<'c, 'a>>, String> {
    let name = name_of(op);
    // A yield may lack task ids: it is shared by every task.
    if !has_async_task_id(op, task) && name != "scf.yield" {
        return Ok(None);
    }
    if op.regions().next().is_none() {
        let new_op = at.insert(clone_with(op, map));
        set_task(&new_op, task);
        for i in 0..op.result_count() {
            map.map(op.result(i).unwrap().into(), new_op.result(i).unwrap().into());
        }
        return Ok(Some(new_op));
    }
    match name.as_str() {
        "scf.if" => specialize_if(op, map, at, task).map(Some),
        "scf.for" => specialize_for(op, map, at, task).map(Some),
        "tt.reduce" => {
            let new_op = at.insert(clone_with(op, map));
            set_task(&new_op, task);
            for inner in collect_ops(new_op, Order::Post) {
                set_task(&inner, task);
            }
            for i in 0..op.result_count() {
                map.map(op.result(i).unwrap().into(), new_op.result(i).unwrap().into());
            }
            Ok(Some(new_op))
        }
        _ => Err(format!("unexpected op with regions: {name}")),
    }
}

/// Upstream's `SpecializeIfOp`: the `scf.if` with the results whose yielded
/// value (in the then block) the task defines.
fn specialize_if<'c, 'a>(
    if_op: &OperationRef<'c, 'a>,
    map: &mut ValueMap,
    at: At<'c, 'a>,
    task: AsyncTaskId,
) -> Result<OperationRef<'c, 'a>, String> {
    let then_block = if_op.region_at(0).unwrap().first_block().ok_or("scf.if without a then block")?;
    let else_block = if_op.region_at(1).unwrap().first_block();
    let mut kept: Vec<usize> = Vec::new();
    if if_op.result_count() > 0 {
        let then_yield = then_block.terminator().ok_or("scf.if then block without a yield")?;
        for (index, value) in then_yield.operands().enumerate() {
            match defining_op(value) {
                Some(def) => {
                    if has_async_task_id(&def, task) {
                        kept.push(index);
                    }
                }
                None => {
                    let owner = argument_owner(value).and_then(|b| b.parent_operation());
                    match owner {
                        Some(for_op) if is_for(&for_op) => {
                            let init = init_of_block_arg(&for_op, value)?;
                            match defining_op(init) {
                                Some(def) => {
                                    if has_async_task_id(&def, task) {
                                        kept.push(index);
                                    }
                                }
                                None => return Err("initial value should have a defining op".into()),
                            }
                        }
                        _ => return Err("unexpected block argument owner".into()),
                    }
                }
            }
        }
    }
    let result_types: Vec<Type> = kept.iter().map(|&i| if_op.result(i).unwrap().r#type()).collect();
    let context = context_of(if_op.location());
    let then_region = Region::new();
    then_region.append_block(Block::new(&[]));
    let else_region = Region::new();
    if else_block.is_some() {
        else_region.append_block(Block::new(&[]));
    }
    let condition = map.lookup(IfOp::of(*if_op).ok_or("not an scf.if")?.condition());
    let new_if = OperationBuilder::new("scf.if", if_op.location())
        .add_operands(&[condition])
        .add_results(&result_types)
        .add_regions([then_region, else_region])
        .add_attributes(&[(Identifier::new(context, ASYNC_TASK_ID), dense_i32_array(if_op.location(), &[task]))])
        .build()
        .map_err(|e| format!("scf.if: {e}"))?;
    let new_if = at.insert(new_if);

    let all_results = if_op.result_count();
    let mut fill = |old_block: BlockRef<'c, 'a>, region: usize| -> Result<(), String> {
        let new_block = new_if.region_at(region).unwrap().first_block().unwrap();
        let mut next = old_block.first_operation();
        while let Some(op) = next {
            specialize_op(&op, map, At::End(new_block), task)?;
            next = op.next_in_block();
        }
        if kept.len() < all_results {
            let yield_op = new_block.terminator().ok_or("scf.if block without a yield")?;
            let operands: Vec<Value> = kept.iter().map(|&i| yield_op.operand(i).unwrap()).collect();
            let new_yield = At::Before(yield_op).insert(
                OperationBuilder::new("scf.yield", yield_op.location())
                    .add_operands(&operands)
                    .add_attributes(&[(
                        Identifier::new(context, ASYNC_TASK_ID),
                        dense_i32_array(yield_op.location(), &[task]),
                    )])
                    .build()
                    .map_err(|e| format!("scf.yield: {e}"))?,
            );
            let _ = new_yield;
            crate::ir::erase(yield_op);
        }
        Ok(())
    };
    fill(then_block, 0)?;
    if let Some(else_block) = else_block {
        fill(else_block, 1)?;
    }
    for (new_index, &old_index) in kept.iter().enumerate() {
        map.map(if_op.result(old_index).unwrap().into(), new_if.result(new_index).unwrap().into());
    }
    Ok(new_if)
}

/// Upstream's `SpecializeForOp`: the loop with the iteration arguments the
/// task needs, its body the task's ops.
fn specialize_for<'c, 'a>(
    for_op: &OperationRef<'c, 'a>,
    map: &mut ValueMap,
    at: At<'c, 'a>,
    task: AsyncTaskId,
) -> Result<OperationRef<'c, 'a>, String> {
    let used = block_args_for_task(for_op, task)?;
    let mut operands: Vec<Value> = (0..3).map(|i| map.lookup(for_op.operand(i).unwrap())).collect();
    for &i in &used {
        operands.push(map.lookup(init_arg(for_op, i)?));
    }
    let location = for_op.location();
    let context = context_of(location);
    let old_body = for_op.region_at(0).unwrap().first_block().unwrap();
    let mut block_types: Vec<(Type, melior::ir::Location)> = vec![(operands[0].r#type(), location)];
    for value in &operands[3..] {
        block_types.push((value.r#type(), tritium_dialects::ir::location_of(*value)));
    }
    let region = Region::new();
    region.append_block(Block::new(&block_types));
    let result_types: Vec<Type> = operands[3..].iter().map(|v| v.r#type()).collect();
    let mut attributes = vec![(Identifier::new(context, ASYNC_TASK_ID), dense_i32_array(location, &[task]))];
    if let Ok(schedule) = for_op.attribute("tt.loop_schedule") {
        attributes.push((Identifier::new(context, "tt.loop_schedule"), schedule));
    }
    let new_for = OperationBuilder::new("scf.for", location)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_regions([region])
        .add_attributes(&attributes)
        .build()
        .map_err(|e| format!("scf.for: {e}"))?;
    let new_for = at.insert(new_for);
    let new_body = new_for.region_at(0).unwrap().first_block().unwrap();
    map.map(old_body.argument(0).unwrap().into(), new_body.argument(0).unwrap().into());
    for (k, &i) in used.iter().enumerate() {
        map.map(old_body.argument(i + 1).unwrap().into(), new_body.argument(k + 1).unwrap().into());
    }
    let old_yield = old_body.terminator().ok_or("scf.for body without a yield")?;
    let mut next = old_body.first_operation();
    while let Some(op) = next {
        if op == old_yield {
            break;
        }
        specialize_op(&op, map, At::End(new_body), task)?;
        next = op.next_in_block();
    }
    let yielded: Vec<Value> = used.iter().map(|&i| map.lookup(old_yield.operand(i).unwrap())).collect();
    let new_yield = OperationBuilder::new("scf.yield", old_yield.location())
        .add_operands(&yielded)
        .add_attributes(&[(Identifier::new(context, ASYNC_TASK_ID), dense_i32_array(location, &[task]))])
        .build()
        .map_err(|e| format!("scf.yield: {e}"))?;
    new_body.append_operation(new_yield);
    for (k, &i) in used.iter().enumerate() {
        map.map(for_op.result(i).unwrap().into(), new_for.result(k).unwrap().into());
    }
    Ok(new_for)
}

/// Whether `op` is inside `ancestor` (at any depth, not `ancestor` itself).
fn is_inside(op: OperationRef, ancestor: &OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(p) = current {
        if p == *ancestor {
            return true;
        }
        current = p.parent_operation();
    }
    false
}

/// Whether `value` is defined inside `op` (a result of a nested op or an
/// argument of a nested block).
fn defined_inside(value: Value, op: &OperationRef) -> bool {
    match defining_op(value) {
        Some(def) => is_inside(def, op),
        None => argument_owner(value)
            .and_then(|b| b.parent_operation())
            .is_some_and(|owner| owner == *op || is_inside(owner, op)),
    }
}

/// Replaces the uses of `old` by ops inside `region_op`'s region `index` with `new`.
fn replace_uses_in_region<'c, 'a>(
    old: Value<'c, 'a>,
    new: Value<'c, 'a>,
    region_op: &OperationRef<'c, 'a>,
    index: usize,
) {
    let region = region_op.region_at(index).unwrap();
    for u in uses(old) {
        let mut current = Some(u.owner);
        let mut inside = false;
        while let Some(op) = current {
            let Some(block) = op.block() else { break };
            if block.parent_region().is_some_and(|r| r == region) {
                inside = true;
                break;
            }
            current = block.parent_operation();
        }
        if inside {
            set_operand(&u.owner, u.index, new);
        }
    }
}

/// MLIR's `ConstantLike` trait, for the ops this IR holds.
fn is_constant_like(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "arith.constant" | "ub.poison")
}

/// Upstream's `specializeRegion`: the function's task-labelled ops become a
/// `ttg.warp_specialize` (default region: the first task; one 4-warp
/// partition per further task, asking for `requested_registers`, 232 when 0).
pub fn specialize_region(function: OperationRef, requested_registers: u32) -> Result<(), String> {
    let body = function.region_at(0).map_err(|_| "tt.func without a body")?;
    let mut op_list: Vec<OperationRef> = Vec::new();
    let mut last_block = None;
    let mut block = body.first_block();
    while let Some(b) = block {
        let mut next = b.first_operation();
        while let Some(op) = next {
            if !get_async_task_ids(&op).is_empty() {
                op_list.push(op);
            }
            next = op.next_in_block();
        }
        last_block = Some(b);
        block = b.next_in_region();
    }
    let last_block = last_block.ok_or("tt.func without a block")?;
    let return_op = last_block
        .terminator()
        .filter(|t| name_of(t) == "tt.return")
        .ok_or("the function does not end in tt.return")?;
    if op_list.is_empty() {
        return Err("no op carries an async_task_id".into());
    }
    let tasks = get_nested_async_task_ids(&function);
    let partitions = tasks.len() - 1;
    let partition_warps: Vec<i32> = tasks.iter().filter(|&&t| t != 0).map(|_| 4).collect();
    let location = op_list[0].location();
    let context = context_of(location);

    // The op: a default region and `partitions` partition regions, each one block.
    let default_region = Region::new();
    default_region.append_block(Block::new(&[]));
    let mut partition_regions = Vec::new();
    for _ in 0..partitions {
        let region = Region::new();
        region.append_block(Block::new(&[]));
        partition_regions.push(region);
    }
    let holder_op = OperationBuilder::new("ttg.warp_specialize.partitions", location)
        .add_regions_vec(partition_regions)
        .build()
        .map_err(|e| format!("ttg.warp_specialize.partitions: {e}"))?;
    let holder = Region::new();
    holder.append_block(Block::new(&[])).append_operation(holder_op);
    let ws = OperationBuilder::new("ttg.warp_specialize", location)
        .add_attributes(&[(
            Identifier::new(context, "partitionNumWarps"),
            DenseI32ArrayAttribute::new(context, &partition_warps).into(),
        )])
        .add_regions([default_region, holder])
        .build()
        .map_err(|e| format!("ttg.warp_specialize: {e}"))?;
    let ws = insert_before(&return_op, ws);
    let holder_op = ws.region_at(1).unwrap().first_block().unwrap().first_operation().unwrap();

    // The default region: the first task.
    {
        let block = ws.region_at(0).unwrap().first_block().unwrap();
        let mut map = ValueMap::default();
        for op in &op_list {
            specialize_op(op, &mut map, At::End(block), tasks[0])?;
        }
        block.append_operation(crate::ir::create("ttg.warp_yield", function.location(), &[], &[], &[]));
    }
    let mut registers = Vec::new();
    for (index, &task) in tasks.iter().enumerate().skip(1) {
        let block = holder_op.region_at(index - 1).unwrap().first_block().unwrap();
        let mut map = ValueMap::default();
        for op in &op_list {
            specialize_op(op, &mut map, At::End(block), task)?;
        }
        block.append_operation(crate::ir::create("ttg.warp_return", function.location(), &[], &[], &[]));
        registers.push(if requested_registers == 0 { DEFAULT_REGISTERS } else { requested_registers as i32 });
    }
    set_attribute(&ws, "requestedRegisters", DenseI32ArrayAttribute::new(context, &registers).into());

    // The captures (the same for every partition): what the partitions use
    // from outside, in a post-order walk.
    let mut captures: Vec<Value> = Vec::new();
    for op in collect_ops(holder_op, Order::Post).into_iter().chain(std::iter::once(holder_op)) {
        for value in op.operands() {
            if !defined_inside(value, &ws) && !captures.contains(&value) {
                captures.push(value);
            }
        }
    }
    let mut ws_operands: Vec<Value> = Vec::new();
    for capture in captures {
        if let Some(def) = defining_op(capture).filter(is_constant_like) {
            // Constants are made again at the start of each partition.
            for index in 0..partitions {
                let block = holder_op.region_at(index).unwrap().first_block().unwrap();
                let copy = tritium_dialects::ir::clone_op(&def);
                let copy = match block.first_operation() {
                    Some(first) => block.insert_operation_before(first, copy),
                    None => block.append_operation(copy),
                };
                replace_uses_in_region(capture, copy.result(0).unwrap().into(), &holder_op, index);
            }
            continue;
        }
        // Upstream warns here ("FIXME: capturing tensor values into warp
        // partitions is not supported") for every captured tensor of NVWS
        // tokens, i.e. on every kernel; the token lowering that follows
        // replaces them by barriers, so Tritium says nothing.
        ws_operands.push(capture);
        for index in 0..partitions {
            let block = holder_op.region_at(index).unwrap().first_block().unwrap();
            let argument: Value = block.add_argument(capture.r#type(), tritium_dialects::ir::location_of(capture));
            replace_uses_in_region(capture, argument, &holder_op, index);
        }
    }
    set_operands(&ws, &ws_operands);

    // The originals go, last first.
    for op in op_list.iter().rev() {
        if let Some(what) = escaping_use(op) {
            return Err(format!("an op being specialized is still used: {what}"));
        }
        crate::ir::erase(*op);
    }
    Ok(())
}

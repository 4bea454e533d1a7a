//! Accumulation counters (upstream's WSBuffer.cpp and the counter helpers of
//! CodePartitionUtility.cpp): every `scf.for` / `scf.if` that holds a
//! channel, and every loop around one, carries an i64 count of the times a
//! channel's buffer was filled; buffer index and phase derive from it.
use super::super::task_ids::get_nested_async_task_ids;
use super::build::{is_proper_ancestor, parent_of_type, Builder};
use crate::ir::{erase, name_of, replace_all_uses};
use crate::ssa::{block_ops, op_key, set_operands};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Block, BlockLike, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::ir::take_region_body;

pub(super) type Regions<'c, 'a> = Vec<OperationRef<'c, 'a>>;

fn is_for(op: &OperationRef) -> bool {
    name_of(op) == "scf.for"
}
fn is_if(op: &OperationRef) -> bool {
    name_of(op) == "scf.if"
}

fn body<'c, 'a>(op: &OperationRef<'c, 'a>) -> melior::ir::BlockRef<'c, 'a> {
    op.region(0).unwrap().first_block().unwrap()
}

fn terminator<'c, 'a>(block: &melior::ir::BlockRef<'c, 'a>) -> OperationRef<'c, 'a> {
    block.terminator().expect("block with a terminator")
}

/// Upstream's `collectRegionsWithChannels`: the `scf.for`/`scf.if` directly
/// holding each channel's consumer.
pub(super) fn regions_with_channels<'c, 'a>(dst_ops: &[OperationRef<'c, 'a>]) -> Regions<'c, 'a> {
    let mut regions: Regions = Vec::new();
    for dst in dst_ops {
        if let Some(parent) = dst.parent_operation() {
            if (is_for(&parent) || is_if(&parent)) && !regions.contains(&parent) {
                regions.push(parent);
            }
        }
    }
    regions
}

/// Upstream's `getAccumCnts`: the counters `ctrl` carries (one per region
/// with channels it is or holds).
pub(super) fn accum_cnts(ctrl: &OperationRef, regions: &Regions) -> usize {
    regions.iter().filter(|op| *op == ctrl || ((is_for(ctrl) || is_if(ctrl)) && is_proper_ancestor(ctrl, op))).count()
}

fn enclosing_a_channel(ctrl: &OperationRef, regions: &Regions) -> bool {
    accum_cnts(ctrl, regions) > 0
}

/// Preorder walk of `root` (itself first).
fn walk_pre<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = vec![root];
    ops.extend(crate::ir::collect_ops(root, crate::ir::Order::Pre));
    ops
}

/// Upstream's `getAccumArgIdx`: the position of `ctrl`'s counter among
/// those of `parent_for`.
pub(super) fn accum_arg_idx(parent_for: OperationRef, ctrl: &OperationRef, regions: &Regions) -> Result<usize, String> {
    let mut pre_order = 0;
    let mut found = None;
    for sub in walk_pre(parent_for) {
        if sub == *ctrl {
            found = Some(pre_order);
        }
        if regions.contains(&sub) {
            pre_order += 1;
        }
    }
    found.ok_or_else(|| "code partition: region not found for its accumulation count".to_string())
}

fn pre_order_regions<'c, 'a>(ctrl: OperationRef<'c, 'a>, regions: &Regions) -> Vec<OperationRef<'c, 'a>> {
    walk_pre(ctrl).into_iter().filter(|op| (is_for(op) || is_if(op)) && regions.contains(op)).collect()
}

/// Upstream's `getAccumCount`: the counter of the region holding `op`, an
/// argument of its enclosing loop.
pub(super) fn accum_count<'c, 'a>(
    op: OperationRef<'c, 'a>,
    regions: &Regions<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let parent_for = parent_of_type(op, "scf.for").ok_or("code partition: channel outside a loop")?;
    let parent = op.parent_operation().unwrap();
    let args = body(&parent_for).argument_count();
    let counts = accum_cnts(&parent_for, regions);
    let index = accum_arg_idx(parent_for, &parent, regions)?;
    Ok(body(&parent_for).argument(args - counts + index).map_err(|e| e.to_string())?.into())
}

/// Upstream's `getBufferIdxAndPhase` of a count: (count mod N as i32,
/// (count / N) & 1 as i1).
pub(super) fn buffer_idx_and_phase<'c, 'a>(
    b: &Builder<'c, 'a>,
    count: Value<'c, 'a>,
    num_buffers: u32,
) -> (Value<'c, 'a>, Value<'c, 'a>) {
    let i64 = b.int_type(64);
    let n = b.constant(num_buffers as i64, 32);
    let n = b.value("arith.extsi", &[n], i64);
    let quotient = b.value("arith.divui", &[count, n], i64);
    let product = b.value("arith.muli", &[quotient, n], i64);
    let index = b.value("arith.subi", &[count, product], i64);
    let index = b.value("arith.trunci", &[index], b.int_type(32));
    let one = b.constant(1, 64);
    let parity = b.value("arith.andi", &[quotient, one], i64);
    let phase = b.value("arith.trunci", &[parity], b.int_type(1));
    (index, phase)
}

/// Upstream's `getBufferIdxAndPhase` of an op in a loop.
pub(super) fn buffer_idx_and_phase_of<'c, 'a>(
    b: &Builder<'c, 'a>,
    op: OperationRef<'c, 'a>,
    num_buffers: u32,
    regions: &Regions<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let count = accum_count(op, regions)?;
    Ok(buffer_idx_and_phase(b, count, num_buffers))
}

/// Upstream's `getBarrierForPipelineStage`: the barrier of one stage.
pub(super) fn barrier_for_stage<'c, 'a>(
    b: &Builder<'c, 'a>,
    barriers: Value<'c, 'a>,
    index: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let alloc = tritium_dialects::types::MemDesc::of(barriers.r#type()).ok_or("barrier buffer expected")?;
    let one = tritium_dialects::types::MemDesc {
        shape: vec![1],
        element_type: IntegerType::new(b.context(), 64).into(),
        encoding: alloc.encoding,
        memory_space: alloc.memory_space,
        mutable: true,
        alloc_shape: vec![1],
    };
    let ty = one.to_type(b.location).ok_or("barrier type")?;
    Ok(b.value("ttg.memdesc_index", &[barriers, index], ty))
}

fn replace_in<'c, 'a>(list: &mut [OperationRef<'c, 'a>], old: usize, new: OperationRef<'c, 'a>) {
    for entry in list.iter_mut() {
        if op_key(entry) == old {
            *entry = new;
        }
    }
}

/// Upstream's `createNewLoop`: `for_op` again with the counters appended to
/// its iteration arguments (yielded unchanged for now).
fn create_new_loop<'c, 'a>(for_op: OperationRef<'c, 'a>, initial: &[Value<'c, 'a>]) -> OperationRef<'c, 'a> {
    let block = body(&for_op);
    let location = for_op.location();
    let i64: Type = IntegerType::new(tritium_dialects::ir::context_of(location), 64).into();
    for _ in initial {
        block.add_argument(i64, location);
    }
    let yield_op = terminator(&block);
    let mut operands: Vec<Value> = (0..yield_op.operand_count()).map(|i| yield_op.operand(i).unwrap()).collect();
    let count = block.argument_count();
    for i in 0..initial.len() {
        operands.push(block.argument(count - initial.len() + i).unwrap().into());
    }
    set_operands(&yield_op, &operands);

    let mut loop_operands: Vec<Value> = (0..for_op.operand_count()).map(|i| for_op.operand(i).unwrap()).collect();
    loop_operands.extend_from_slice(initial);
    let result_types: Vec<Type> = loop_operands[3..].iter().map(|v| v.r#type()).collect();
    let operation = OperationBuilder::new("scf.for", location)
        .add_operands(&loop_operands)
        .add_results(&result_types)
        .add_regions([Region::new()])
        .build()
        .expect("scf.for");
    let b = Builder { at: super::build::At::Before(for_op), ids: get_nested_async_task_ids(&for_op), location };
    let new_for = b.insert(operation);
    take_region_body(&new_for, &for_op, 0);
    for i in 0..for_op.result_count() {
        replace_all_uses(for_op.result(i).unwrap().into(), new_for.result(i).unwrap().into());
    }
    erase(for_op);
    new_for
}

fn regions_ops_of_block<'c, 'a>(block: &melior::ir::BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    block_ops(block).into_iter().filter(|op| is_for(op) || is_if(op)).collect()
}

/// Upstream's `updateAccumLoopCount`: rewrites the loops and ifs of
/// `op_list` (updated in place with the new ops).
fn update_accum_loop_count<'c, 'a>(
    op_list: &mut Vec<OperationRef<'c, 'a>>,
    top_ops: &mut Vec<OperationRef<'c, 'a>>,
    regions: &mut Regions<'c, 'a>,
    prev: Option<Value<'c, 'a>>,
) -> Result<Option<Value<'c, 'a>>, String> {
    let mut prev = prev;
    let mut old_to_new: Vec<(usize, OperationRef<'c, 'a>)> = Vec::new();
    for op in op_list.clone() {
        if is_for(&op) {
            let key = op_key(&op);
            let new_for = create_new_loop_wrapper(op, top_ops, regions, prev)?;
            old_to_new.push((key, new_for));
        } else if is_if(&op) {
            if enclosing_a_channel(&op, regions) {
                let key = op_key(&op);
                let new_if = rewrite_if_op(op, top_ops, regions, prev)?;
                old_to_new.push((key, new_if));
                let results = new_if.result_count();
                prev = Some(new_if.result(results - 1).unwrap().into());
            } else {
                let inner: Vec<OperationRef> =
                    crate::ir::collect_ops(op, crate::ir::Order::Pre).into_iter().filter(is_for).collect();
                for inner_for in inner {
                    let key = op_key(&inner_for);
                    let new_for = create_new_loop_wrapper(inner_for, top_ops, regions, prev)?;
                    old_to_new.push((key, new_for));
                }
            }
        }
    }
    for entry in op_list.iter_mut() {
        if let Some((_, new)) = old_to_new.iter().find(|(k, _)| *k == op_key(entry)) {
            *entry = *new;
        }
    }
    Ok(prev)
}

/// Upstream's `createNewLoopWrapper`.
fn create_new_loop_wrapper<'c, 'a>(
    for_op: OperationRef<'c, 'a>,
    top_ops: &mut Vec<OperationRef<'c, 'a>>,
    regions: &mut Regions<'c, 'a>,
    prev: Option<Value<'c, 'a>>,
) -> Result<OperationRef<'c, 'a>, String> {
    let parent_for = parent_of_type(for_op, "scf.for");
    let (mut parent_args, mut parent_counts, mut arg_id) = (0, 0, 0);
    if let Some(parent) = parent_for {
        parent_args = body(&parent).argument_count();
        parent_counts = accum_cnts(&parent, regions);
    }
    let pre_order = pre_order_regions(for_op, regions);
    let counts = pre_order.len();
    if let (Some(parent), Some(first)) = (parent_for, pre_order.first()) {
        arg_id = accum_arg_idx(parent, first, regions)?;
    }
    let mut initial = Vec::new();
    for i in 0..counts {
        let start: Value = match parent_for {
            Some(parent) => body(&parent).argument(parent_args - parent_counts + arg_id + i).unwrap().into(),
            None => {
                let mut b = Builder::new(for_op.location(), super::build::At::Before(for_op));
                b.ids = get_nested_async_task_ids(&for_op);
                b.constant(0, 64)
            }
        };
        initial.push(start);
    }
    let old_key = op_key(&for_op);
    let new_for = create_new_loop(for_op, &initial);
    replace_in(top_ops, old_key, new_for);
    replace_in(regions, old_key, new_for);

    let new_body = body(&new_for);
    let mut op_list = regions_ops_of_block(&new_body);
    update_accum_loop_count(&mut op_list, top_ops, regions, prev)?;

    let yield_op = terminator(&new_body);
    let args = new_body.argument_count();
    if initial.is_empty() {
        return Ok(new_for);
    }
    let mut arg_id = args - initial.len();
    if regions.contains(&new_for) {
        let arg: Value = new_body.argument(arg_id).unwrap().into();
        let mut b = Builder::new(new_for.location(), super::build::At::Before(yield_op));
        b.ids = get_nested_async_task_ids(&new_for);
        let one = b.constant(1, 64);
        let end = b.value("arith.addi", &[arg, one], b.int_type(64));
        replace_uses_in(&yield_op, arg, end);
        arg_id += 1;
    }
    for op in &op_list {
        if !enclosing_a_channel(op, regions) {
            continue;
        }
        let results = op.result_count();
        let counts = accum_cnts(op, regions);
        for i in 0..counts {
            let arg: Value = new_body.argument(arg_id).unwrap().into();
            let end: Value = op.result(results - counts + i).unwrap().into();
            replace_uses_in(&yield_op, arg, end);
            arg_id += 1;
        }
    }
    Ok(new_for)
}

/// MLIR's `op->replaceUsesOfWith(from, to)`.
fn replace_uses_in<'c, 'a>(op: &OperationRef<'c, 'a>, from: Value<'c, 'a>, to: Value<'c, 'a>) {
    for i in 0..op.operand_count() {
        if op.operand(i).unwrap() == from {
            crate::ssa::set_operand(op, i, to);
        }
    }
}

/// Upstream's `rewriteIfOp`: the `scf.if` again with its counters as
/// results (then: advanced, else: unchanged).
fn rewrite_if_op<'c, 'a>(
    if_op: OperationRef<'c, 'a>,
    top_ops: &mut Vec<OperationRef<'c, 'a>>,
    regions: &mut Regions<'c, 'a>,
    prev: Option<Value<'c, 'a>>,
) -> Result<OperationRef<'c, 'a>, String> {
    let location = if_op.location();
    let ids = get_nested_async_task_ids(&if_op);
    let counts = accum_cnts(&if_op, regions);
    let context = tritium_dialects::ir::context_of(location);
    let i64: Type = IntegerType::new(context, 64).into();
    let mut result_types: Vec<Type> = if_op.results().map(|r| r.r#type()).collect();
    result_types.extend(std::iter::repeat_n(i64, counts));
    let operation = OperationBuilder::new("scf.if", location)
        .add_operands(&[tritium_dialects::views::IfOp::of(if_op).expect("an scf.if").condition()])
        .add_results(&result_types)
        .add_regions([Region::new(), Region::new()])
        .build()
        .expect("scf.if");
    let mut if_builder = Builder::new(location, super::build::At::Before(if_op));
    if_builder.ids = ids.clone();
    let new_if = if_builder.insert(operation);
    take_region_body(&new_if, &if_op, 0);
    let then_block = body(&new_if);
    let mut op_list = regions_ops_of_block(&then_block);

    let old_key = op_key(&if_op);
    replace_in(regions, old_key, new_if);

    update_accum_loop_count(&mut op_list, top_ops, regions, prev)?;

    let then_yield = terminator(&then_block);
    let mut then_operands: Vec<Value> =
        (0..then_yield.operand_count()).map(|i| then_yield.operand(i).unwrap()).collect();

    let else_has_block = if_op.region(1).unwrap().first_block().is_some();
    if else_has_block {
        take_region_body(&new_if, &if_op, 1);
        let else_block = new_if.region(1).unwrap().first_block().unwrap();
        for op in regions_ops_of_block(&else_block) {
            if enclosing_a_channel(&op, regions) {
                return Err("code partition: channels in an else region are not supported".into());
            }
        }
    } else {
        let block = new_if.region(1).unwrap().append_block(Block::new(&[]));
        block.append_operation(crate::ir::create("scf.yield", location, &[], &[], &[]));
    }
    let else_block = new_if.region(1).unwrap().first_block().unwrap();
    let else_yield = terminator(&else_block);
    let mut else_operands: Vec<Value> =
        (0..else_yield.operand_count()).map(|i| else_yield.operand(i).unwrap()).collect();
    let mut else_builder = Builder::new(location, super::build::At::Before(else_yield));
    // Upstream reads them from the old op, whose regions are gone by now.
    else_builder.ids = get_nested_async_task_ids(&if_op);
    if_builder.set_before(then_yield);

    let parent_for = parent_of_type(new_if, "scf.for");
    let (mut parent_args, mut parent_counts) = (0, 0);
    if let Some(parent) = parent_for {
        parent_args = body(&parent).argument_count();
        parent_counts = accum_cnts(&parent, regions);
    }
    if regions.contains(&new_if) {
        let (end, end_else) = match parent_for {
            Some(parent) => {
                let arg_id = accum_arg_idx(parent, &new_if, regions)?;
                let arg: Value = body(&parent).argument(parent_args - parent_counts + arg_id).unwrap().into();
                let one = if_builder.constant(1, 64);
                (if_builder.value("arith.addi", &[arg, one], i64), arg)
            }
            None => (if_builder.constant(1, 64), else_builder.constant(0, 64)),
        };
        then_operands.push(end);
        else_operands.push(end_else);
    }
    for op in &op_list {
        if !enclosing_a_channel(op, regions) {
            continue;
        }
        let pre_order = pre_order_regions(*op, regions);
        let results = op.result_count();
        let t_counts = pre_order.len();
        let mut arg_id = 0;
        if let (Some(parent), Some(first)) = (parent_for, pre_order.first()) {
            arg_id = accum_arg_idx(parent, first, regions)?;
        }
        for i in 0..t_counts {
            then_operands.push(op.result(results - t_counts + i).unwrap().into());
            let else_value = match parent_for {
                Some(parent) => body(&parent).argument(parent_args - parent_counts + arg_id + i).unwrap().into(),
                None => else_builder.constant(0, 64),
            };
            else_operands.push(else_value);
        }
    }
    for (yield_op, operands) in [(then_yield, then_operands), (else_yield, else_operands)] {
        let b = Builder { at: super::build::At::Before(yield_op), ids: ids.clone(), location };
        b.op("scf.yield", &operands, &[], &[]);
        erase(yield_op);
    }
    for i in 0..if_op.result_count() {
        replace_all_uses(if_op.result(i).unwrap().into(), new_if.result(i).unwrap().into());
    }
    erase(if_op);
    Ok(new_if)
}

/// Upstream's `appendAccumCntsForOps`.
pub(super) fn append_accum_cnts_for_ops<'c, 'a>(
    top_ops: &mut Vec<OperationRef<'c, 'a>>,
    regions: &mut Regions<'c, 'a>,
) -> Result<(), String> {
    let mut op_list: Vec<OperationRef> = top_ops.iter().copied().filter(|op| is_for(op) || is_if(op)).collect();
    update_accum_loop_count(&mut op_list, top_ops, regions, None)?;
    Ok(())
}

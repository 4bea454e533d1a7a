//! Channels between a producer task and its consumer tasks (upstream's
//! `collectAsyncChannels`, `groupChannels`, `reorderProducerOps`,
//! `getTaskTopRegion`): a value produced by a load or a dot in one task and
//! used by ops of other tasks.
use super::super::task_ids::{get_async_task_ids, AsyncTaskId};
use super::build::{parent_of_type, properly_dominates};
use crate::ir::{collect_ops, int_attribute, name_of, Order};
use crate::ssa::{defining_op, move_before, op_key, uses};
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};
use tritium_dialects::ir::move_after;

pub(super) struct Channel<'c, 'a> {
    pub producer: AsyncTaskId,
    pub consumers: Vec<AsyncTaskId>,
    /// The consumer op and the operand that carries the value.
    pub op: OperationRef<'c, 'a>,
    pub operand: usize,
    pub num_buffers: u32,
}

impl<'c, 'a> Channel<'c, 'a> {
    pub fn dst_op(&self) -> OperationRef<'c, 'a> {
        self.op
    }
    pub fn src_operand(&self) -> Value<'c, 'a> {
        self.op.operand(self.operand).expect("channel operand")
    }
    /// The op defining the carried value now (it changes as producers are
    /// lowered, as upstream's does).
    pub fn src_op(&self) -> OperationRef<'c, 'a> {
        defining_op(self.src_operand()).expect("channel value defined by an op")
    }
}

fn is_dot(op: &OperationRef) -> bool {
    matches!(
        name_of(op).as_str(),
        "tt.dot" | "tt.dot_scaled" | "ttng.warp_group_dot" | "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled"
    )
}

pub(super) fn is_dot_op(op: &OperationRef) -> bool {
    is_dot(op)
}

/// The users of `root`, through `scf.yield`s to the results they feed, each
/// with the (first) operand index that takes the value, each pair once.
fn transitive_users<'c, 'a>(root: Value<'c, 'a>, users: &mut Vec<(OperationRef<'c, 'a>, usize)>) {
    for u in uses(root) {
        let user = u.owner;
        if name_of(&user) == "scf.yield" {
            for index in 0..user.operand_count() {
                if user.operand(index).unwrap() == root {
                    let parent = user.parent_operation().expect("yield in an op");
                    transitive_users(parent.result(index).unwrap().into(), users);
                }
            }
        } else {
            let index = (0..user.operand_count()).find(|&i| user.operand(i).unwrap() == root).unwrap();
            if !users.iter().any(|(o, i)| *o == user && *i == index) {
                users.push((user, index));
            }
        }
    }
}

pub(super) fn transitive_users_of<'c, 'a>(root: Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut users = Vec::new();
    transitive_users(root, &mut users);
    users
}

fn create_channels<'c, 'a>(op: OperationRef<'c, 'a>, channels: &mut Vec<Channel<'c, 'a>>, num_buffers: u32) {
    let producer = get_async_task_ids(&op)[0];
    for result in op.results() {
        let result: Value = result.into();
        if !crate::ssa::has_uses(result) {
            continue;
        }
        for (user, operand) in transitive_users_of(result) {
            if user == op {
                continue;
            }
            if op.block() != user.block() {
                if !properly_dominates(&op.parent_operation().unwrap(), &user) {
                    continue;
                }
            } else if !properly_dominates(&op, &user) {
                continue;
            }
            let mut consumers = get_async_task_ids(&user);
            if consumers.is_empty() {
                continue;
            }
            consumers.retain(|&t| t != producer);
            if !consumers.is_empty() {
                channels.push(Channel { producer, consumers, op: user, operand, num_buffers });
            }
        }
    }
}

/// Upstream's `collectAsyncChannels`.
pub(super) fn collect_async_channels<'c, 'a>(
    function: OperationRef<'c, 'a>,
    num_buffers: u32,
) -> Result<Vec<Channel<'c, 'a>>, String> {
    let mut channels = Vec::new();
    for op in collect_ops(function, Order::Post) {
        let name = name_of(&op);
        if !(name == "tt.load" || name == "tt.descriptor_load" || is_dot(&op)) {
            continue;
        }
        if get_async_task_ids(&op).len() != 1 {
            continue;
        }
        if name.starts_with("ttng.tc_gen5") {
            return Err("code partition of tcgen5 MMA (TMEM channels) is not supported on Hopper".into());
        }
        let mut producer_buffers = num_buffers;
        if let Some(lp) = parent_of_type(op, "scf.for") {
            if let Some(stages) = int_attribute(&lp, "tt.num_stages") {
                producer_buffers = stages as u32;
            }
        }
        create_channels(op, &mut channels, producer_buffers);
    }
    Ok(channels)
}

/// The ops that really read a consumer: a `local_alloc`'s users, through
/// transposes of it; any other op itself.
pub(super) fn actual_consumers<'c, 'a>(consumer: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    if name_of(&consumer) != "ttg.local_alloc" {
        return vec![consumer];
    }
    let mut found: Vec<OperationRef> = Vec::new();
    let push = |op: OperationRef<'c, 'a>, found: &mut Vec<OperationRef<'c, 'a>>| {
        if !found.contains(&op) {
            found.push(op);
        }
    };
    let is_trans = |op: &OperationRef| matches!(name_of(op).as_str(), "tt.trans" | "ttg.memdesc_trans");
    for user in crate::ssa::users(consumer.result(0).unwrap().into()) {
        if is_trans(&user) {
            let mut visited: Vec<OperationRef> = Vec::new();
            let mut stack = vec![user];
            while let Some(t) = stack.pop() {
                visited.push(t);
                if is_trans(&t) {
                    for r in t.results() {
                        for u in crate::ssa::users(r.into()) {
                            if !visited.contains(&u) {
                                stack.push(u);
                            }
                        }
                    }
                } else {
                    push(t, &mut found);
                }
            }
        } else {
            push(user, &mut found);
        }
    }
    found
}

pub(super) fn unique_actual_consumer<'c, 'a>(consumer: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    let consumers = actual_consumers(consumer);
    if consumers.len() == 1 {
        consumers[0]
    } else {
        consumer
    }
}

/// Channel groups: by producer op (a buffer each) and by consumer (a set of
/// tokens each), keyed by their first channel; `ordered` lists the channels
/// that opened a consumer entry, in channel order. Upstream keeps the groups
/// in pointer-keyed maps; here they keep the order they were formed in.
pub(super) struct Groups {
    pub by_producer: Vec<(usize, Vec<usize>)>,
    pub by_consumer: Vec<(usize, Vec<usize>)>,
    pub ordered: Vec<usize>,
}

impl Groups {
    pub fn producer_group(&self, key: usize) -> Option<&Vec<usize>> {
        self.by_producer.iter().find(|(k, _)| *k == key).map(|(_, g)| g)
    }
    pub fn consumer_group(&self, key: usize) -> Option<&Vec<usize>> {
        self.by_consumer.iter().find(|(k, _)| *k == key).map(|(_, g)| g)
    }
}

/// Upstream's `groupChannels`.
pub(super) fn group_channels(channels: &[Channel]) -> Groups {
    let mut producer_groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (index, c) in channels.iter().enumerate() {
        let key = op_key(&c.src_op());
        match producer_groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(index),
            None => producer_groups.push((key, vec![index])),
        }
    }
    let can_merge = |c1: &Channel, c2: &Channel| -> bool {
        if c1.src_op().block() != c2.src_op().block() {
            return false;
        }
        let (dst1, dst2) = (c1.dst_op(), c2.dst_op());
        if dst1 == dst2 {
            return true;
        }
        if get_async_task_ids(&c1.src_op()) != get_async_task_ids(&c2.src_op()) {
            return false;
        }
        if get_async_task_ids(&dst1) != get_async_task_ids(&dst2) {
            return false;
        }
        let (u1, u2) = (unique_actual_consumer(dst1), unique_actual_consumer(dst2));
        u1 == u2 && u1.block() == dst1.block()
    };
    let mut consumer_groups: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut ordered = Vec::new();
    for (index, c) in channels.iter().enumerate() {
        let mut merged = false;
        for (_, group) in consumer_groups.iter_mut() {
            if !group.is_empty() && can_merge(c, &channels[group[0]]) {
                group.push(index);
                merged = true;
                break;
            }
        }
        if !merged {
            let key = op_key(&c.dst_op());
            match consumer_groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => g.push(index),
                None => {
                    ordered.push(index);
                    consumer_groups.push((key, vec![index]));
                }
            }
        }
    }
    // Program order of the producers within each consumer group.
    for (_, group) in consumer_groups.iter_mut() {
        let block = channels[group[0]].src_op().block().unwrap();
        let position = |op: OperationRef| -> usize {
            let mut i = 0;
            let mut cur = block.first_operation();
            while let Some(o) = cur {
                if o == op {
                    return i;
                }
                i += 1;
                cur = o.next_in_block();
            }
            0
        };
        group.sort_by_key(|&c| position(channels[c].src_op()));
    }
    Groups {
        by_producer: producer_groups.into_iter().map(|(_, g)| (g[0], g)).collect(),
        by_consumer: consumer_groups.into_iter().map(|(_, g)| (g[0], g)).collect(),
        ordered,
    }
}

/// MLIR's `getBackwardSlice` (block arguments omitted), in topological
/// order, without `op` itself.
fn backward_slice<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    fn visit<'c, 'a>(op: OperationRef<'c, 'a>, slice: &mut Vec<OperationRef<'c, 'a>>, seen: &mut Vec<usize>) {
        seen.push(op_key(&op));
        for index in 0..op.operand_count() {
            if let Some(def) = defining_op(op.operand(index).unwrap()) {
                if !seen.contains(&op_key(&def)) {
                    visit(def, slice, seen);
                }
            }
        }
        slice.push(op);
    }
    let mut slice = Vec::new();
    let mut seen = Vec::new();
    visit(op, &mut slice, &mut seen);
    slice.pop();
    slice
}

/// Upstream's `reorderProducerOps`: producers interleaved by their first
/// consumer task, their backward slices moved close to them.
pub(super) fn reorder_producer_ops(channels: &[Channel]) {
    if channels.len() <= 1 {
        return;
    }
    let block = channels[0].src_op().block();
    if channels.iter().any(|c| c.src_op().block() != block) {
        return;
    }
    let mut groups: std::collections::BTreeMap<AsyncTaskId, Vec<usize>> = Default::default();
    for (index, c) in channels.iter().enumerate() {
        groups.entry(c.consumers[0]).or_default().push(index);
    }
    if groups.len() <= 1 {
        return;
    }
    for group in groups.values_mut() {
        group.sort_by_key(|&c| channels[c].consumers.len());
    }
    let mut current = channels[0].src_op();
    for group in groups.values() {
        for &c in group {
            let src = channels[c].src_op();
            if src != current {
                move_after(&src, &current);
            }
            current = src;
        }
    }
    for group in groups.values().rev() {
        for &c in group.iter().rev() {
            let src = channels[c].src_op();
            for op in backward_slice(src) {
                if op.block() == block {
                    move_before(&op, &src);
                }
            }
        }
    }
}

/// Upstream's `getTaskTopRegion`: the ops of the function body with regions
/// and several tasks that hold both ends of a channel.
pub(super) fn task_top_regions<'c, 'a>(
    function: OperationRef<'c, 'a>,
    channels: &[Channel<'c, 'a>],
) -> Vec<OperationRef<'c, 'a>> {
    let top = |mut op: OperationRef<'c, 'a>| -> OperationRef<'c, 'a> {
        while let Some(parent) = op.parent_operation() {
            if name_of(&parent) == "tt.func" {
                break;
            }
            op = parent;
        }
        op
    };
    let mut result = Vec::new();
    let body = function.region(0).unwrap().first_block().unwrap();
    for op in crate::ssa::block_ops(&body) {
        if op.region_count() == 0 || get_async_task_ids(&op).len() == 1 {
            continue;
        }
        if channels.iter().any(|c| top(c.src_op()) == op && top(c.dst_op()) == op) {
            result.push(op);
        }
    }
    result
}

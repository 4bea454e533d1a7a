//! The coarse schedule of a loop (upstream `CoarseSchedule`): each op of the
//! loop body gets a pipeline stage (the iteration, counted back from the
//! last, it runs in) and a cluster (its place among the ops of a stage:
//! clusters are ordered, ops within a cluster keep their program order).
//!
//! On the IR the schedule is the attributes `loop.stage` and `loop.cluster`
//! on the ops and `tt.scheduled_max_stage` on the loop; cluster attributes
//! are the clusters' positions.
use super::loops::{body, body_ops, nested_operands, yield_of};
use crate::ssa::{argument_number, argument_owner, defining_op, op_key, Key};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, OperationRef, Value,
};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::OpAccess;

pub const STAGE: &str = "loop.stage";
pub const CLUSTER: &str = "loop.cluster";
pub const MAX_STAGE: &str = "tt.scheduled_max_stage";

/// A cluster: an identity that keeps its place in the ordered cluster list
/// while clusters are inserted around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cluster(u32);

#[derive(Default)]
pub struct Schedule {
    num_stages: i64,
    /// The clusters, in order.
    clusters: Vec<Cluster>,
    next_cluster: u32,
    ops: HashMap<Key, (i64, Cluster)>,
}

impl Schedule {
    pub fn new(num_stages: i64) -> Self {
        Self { num_stages, ..Self::default() }
    }

    pub fn num_stages(&self) -> i64 {
        self.num_stages
    }

    // Clusters.

    fn fresh_cluster(&mut self) -> Cluster {
        self.next_cluster += 1;
        Cluster(self.next_cluster)
    }

    pub fn new_cluster_at_back(&mut self) -> Cluster {
        let cluster = self.fresh_cluster();
        self.clusters.push(cluster);
        cluster
    }

    pub fn new_cluster_at_front(&mut self) -> Cluster {
        let cluster = self.fresh_cluster();
        self.clusters.insert(0, cluster);
        cluster
    }

    pub fn new_cluster_before(&mut self, before: Cluster) -> Cluster {
        let cluster = self.fresh_cluster();
        let position = self.position(before);
        self.clusters.insert(position, cluster);
        cluster
    }

    pub fn first_cluster(&self) -> Option<Cluster> {
        self.clusters.first().copied()
    }

    /// The place of `cluster` in the list (its id on the IR).
    pub fn position(&self, cluster: Cluster) -> usize {
        self.clusters.iter().position(|c| *c == cluster).expect("a cluster of this schedule")
    }

    pub fn is_cluster_before(&self, a: Cluster, b: Cluster) -> bool {
        a != b && self.position(a) < self.position(b)
    }

    // Ops.

    pub fn get(&self, op: &OperationRef) -> Option<(i64, Cluster)> {
        self.ops.get(&op_key(op)).copied()
    }

    pub fn contains(&self, op: &OperationRef) -> bool {
        self.ops.contains_key(&op_key(op))
    }

    pub fn insert(&mut self, op: &OperationRef, stage: i64, cluster: Cluster) {
        self.insert_key(op_key(op), stage, cluster);
    }

    pub fn insert_key(&mut self, key: Key, stage: i64, cluster: Cluster) {
        self.num_stages = self.num_stages.max(stage + 1);
        self.ops.insert(key, (stage, cluster));
    }

    /// Adds the ops a builder created with a stage and cluster.
    pub fn absorb(&mut self, created: Vec<(Key, i64, Cluster)>) {
        for (key, stage, cluster) in created {
            self.insert_key(key, stage, cluster);
        }
    }

    pub fn insert_if_absent(&mut self, op: &OperationRef, stage: i64, cluster: Cluster) -> bool {
        if self.contains(op) {
            return false;
        }
        self.insert(op, stage, cluster);
        true
    }

    pub fn erase(&mut self, op: &OperationRef) {
        self.ops.remove(&op_key(op));
    }

    /// Schedules `op` at (`stage`, `cluster`) unless it already is as early:
    /// at an earlier stage, or the same stage and an earlier cluster.
    pub fn insert_minimum(&mut self, op: &OperationRef, stage: i64, cluster: Cluster) -> bool {
        let Some((existing_stage, existing_cluster)) = self.get(op) else {
            self.insert(op, stage, cluster);
            return true;
        };
        if stage < existing_stage {
            self.insert(op, stage, cluster);
            return true;
        }
        if stage > existing_stage || !self.is_cluster_before(cluster, existing_cluster) {
            return false;
        }
        self.insert(op, stage, cluster);
        true
    }

    /// Schedules the ops of the loop body that `op` depends on at (`stage`,
    /// `cluster`), transitively. With `include_arg`, a loop-carried operand
    /// leads to the op yielding it; with `insert_if_earlier`, ops already
    /// scheduled move when this is earlier.
    pub fn insert_deps_of_op(
        &mut self,
        op: &OperationRef,
        stage: i64,
        cluster: Cluster,
        include_arg: bool,
        insert_if_earlier: bool,
    ) -> bool {
        let Some(block) = op.block() else { return false };
        let mut inserted = false;
        for operand in nested_operands(op) {
            let mut value = operand;
            let mut seen: HashSet<usize> = HashSet::new();
            while include_arg && argument_owner(value).is_some() {
                if !seen.insert(crate::ssa::value_key(value)) {
                    break;
                }
                let number = argument_number(value).unwrap_or(0);
                if number > 0 && argument_owner(value) == Some(block) {
                    let Some(terminator) = block.terminator() else { break };
                    value = terminator.operand_at(number - 1).expect("a yielded value per iter_arg");
                    continue;
                }
                break;
            }
            let Some(producer) = defining_op(value) else { continue };
            if producer.block() != Some(block) {
                continue;
            }
            let added = if insert_if_earlier {
                self.insert_minimum(&producer, stage, cluster)
            } else {
                self.insert_if_absent(&producer, stage, cluster)
            };
            if added {
                inserted = true;
                self.insert_deps_of_op(&producer, stage, cluster, include_arg, insert_if_earlier);
            }
        }
        inserted
    }

    /// The scheduled ops of the body of `lp` by cluster, in program order
    /// within a cluster (upstream `getOpsInOrder`).
    pub fn ops_in_order<'c, 'a>(&self, lp: &OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, i64, Cluster)> {
        let mut by_cluster: Vec<Vec<(OperationRef, i64, Cluster)>> = vec![Vec::new(); self.clusters.len()];
        for op in body_ops(lp) {
            if let Some((stage, cluster)) = self.get(&op) {
                by_cluster[self.position(cluster)].push((op, stage, cluster));
            }
        }
        by_cluster.into_iter().flatten().collect()
    }

    /// Renumbers the stages from 0 and drops the stages nothing uses at
    /// either end (upstream `shrinkToFit`).
    pub fn shrink_to_fit(&mut self) {
        let Some(min) = self.ops.values().map(|(stage, _)| *stage).min() else { return };
        let max = self.ops.values().map(|(stage, _)| *stage).max().unwrap_or(min);
        for (stage, _) in self.ops.values_mut() {
            *stage -= min;
        }
        self.num_stages = max - min + 1;
    }

    /// Writes the schedule on the IR (upstream `serialize`).
    pub fn serialize(&self, lp: &OperationRef) {
        let context_ref = lp.context();
        let i32_type = IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
        let int = |value: i64| IntegerAttribute::new(i32_type, value).into();
        for (op, stage, cluster) in self.ops_in_order(lp) {
            crate::ssa::set_attribute(&op, STAGE, int(stage));
            crate::ssa::set_attribute(&op, CLUSTER, int(self.position(cluster) as i64));
        }
        let existing = crate::ir::int_attribute(lp, MAX_STAGE).unwrap_or(i64::MIN);
        crate::ssa::set_attribute(lp, MAX_STAGE, int((self.num_stages - 1).max(existing)));
    }

    /// Reads the schedule of `lp` from the IR; `None` when `lp` has none
    /// (upstream `deSerialize`): one cluster per id from the smallest to the
    /// largest in use.
    pub fn deserialize(lp: &OperationRef) -> Option<Self> {
        let max_stage = crate::ir::int_attribute(lp, MAX_STAGE)?;
        let mut schedule = Schedule::new(max_stage + 1);
        let ops = body_ops(lp);
        let stage_cluster =
            |op: &OperationRef| Some((crate::ir::int_attribute(op, STAGE)?, crate::ir::int_attribute(op, CLUSTER)?));
        let ids: Vec<i64> = ops.iter().filter_map(stage_cluster).map(|(_, c)| c).collect();
        let mut by_id = HashMap::new();
        if let (Some(min), Some(max)) = (ids.iter().min(), ids.iter().max()) {
            for id in *min..=*max {
                by_id.insert(id, schedule.new_cluster_at_back());
            }
        }
        for op in &ops {
            if let Some((stage, id)) = stage_cluster(op) {
                schedule.insert(op, stage, by_id[&id]);
            }
        }
        Some(schedule)
    }
}

/// The value `lp` yields for its iter_arg `argument` (block argument
/// number `argument` > 0 of the body).
pub fn yielded_for_argument<'c, 'a>(lp: &OperationRef<'c, 'a>, argument: usize) -> Option<Value<'c, 'a>> {
    yield_of(lp)?.operand_at(argument - 1).ok()
}

/// Whether `value` is an iter_arg (not the induction variable) of the body of
/// `lp`.
pub fn is_iter_arg_of(value: Value, lp: &OperationRef) -> bool {
    argument_owner(value).is_some_and(|b| Some(b) == body(lp)) && argument_number(value).is_some_and(|n| n > 0)
}

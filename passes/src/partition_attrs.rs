//! The warp-specialization partition attributes on ops (upstream's
//! `getPartitionIds`, `setPartition`, `getPartitionOutputs`,
//! `setPartitionOutputs`, stage/cluster and tag helpers):
//!
//! - `ttg.partition = array<i32: ...>`: the partitions an op runs in.
//! - `ttg.partition.outputs = [array<i32: ...>, ...]`: for ops with regions,
//!   the partitions that use each result.
//! - `loop.stage` / `loop.cluster`: the op's place in a pipelined loop.
//! - `ttg.warp_specialize.tag`: which warp-specialized loop an op came from.
//!
//! Id sets are `BTreeSet`s: upstream sorts the ids whenever it writes them.
use crate::ir::int_attribute;
use melior::ir::{
    attribute::{ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, OperationRef, RegionLike,
};
use std::collections::BTreeSet;
use tritium_dialects::ir::{array_elements, context_of, dense_i32_array, dense_i32s, set_attribute};

pub const PARTITION: &str = "ttg.partition";
pub const PARTITION_OUTPUTS: &str = "ttg.partition.outputs";
pub const WARP_SPECIALIZE_TAG: &str = "ttg.warp_specialize.tag";
/// The attribute of a loop that is to be warp-specialized.
pub const WARP_SPECIALIZE: &str = "tt.warp_specialize";
const LOOP_STAGE: &str = "loop.stage";
const LOOP_CLUSTER: &str = "loop.cluster";

pub type Ids = BTreeSet<i32>;

pub fn has_partition(op: &OperationRef) -> bool {
    op.attribute(PARTITION).is_ok()
}

/// The partitions of `op`; `None` when it has no (valid) `ttg.partition`.
pub fn partition_ids(op: &OperationRef) -> Option<Ids> {
    Some(dense_i32s(op.attribute(PARTITION).ok()?)?.into_iter().collect())
}

/// Sets `ttg.partition` on `op` and on the terminators of its regions' blocks.
pub fn set_partition(op: &OperationRef, ids: &Ids) {
    let values: Vec<i32> = ids.iter().copied().collect();
    let attribute = dense_i32_array(op.location(), &values);
    set_attribute(op, PARTITION, attribute);
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            if let Some(terminator) = b.terminator() {
                set_attribute(&terminator, PARTITION, attribute);
            }
            block = b.next_in_region();
        }
    }
}

/// The partitions using each result of `op` (empty for an op without
/// results); `None` when an op with results has no valid attribute.
pub fn partition_outputs(op: &OperationRef) -> Option<Vec<Ids>> {
    if op.result_count() == 0 {
        return Some(Vec::new());
    }
    let elements = array_elements(op.attribute(PARTITION_OUTPUTS).ok()?)?;
    elements.into_iter().map(|e| dense_i32s(e).map(|ids| ids.into_iter().collect())).collect()
}

/// Sets `ttg.partition.outputs` (removes it for an empty list).
pub fn set_partition_outputs(op: &OperationRef, outputs: &[Ids]) {
    if outputs.is_empty() {
        tritium_dialects::ir::remove_attribute(op, PARTITION_OUTPUTS);
        return;
    }
    let location = op.location();
    let arrays: Vec<Attribute> =
        outputs.iter().map(|ids| dense_i32_array(location, &ids.iter().copied().collect::<Vec<_>>())).collect();
    set_attribute(op, PARTITION_OUTPUTS, ArrayAttribute::new(context_of(location), &arrays).into());
}

/// `loop.stage` and `loop.cluster` of `op`, when it has both.
pub fn stage_cluster(op: &OperationRef) -> Option<(i64, i64)> {
    Some((int_attribute(op, LOOP_STAGE)?, int_attribute(op, LOOP_CLUSTER)?))
}

fn set_i32(op: &OperationRef, name: &str, value: i64) {
    let context = context_of(op.location());
    set_attribute(op, name, IntegerAttribute::new(IntegerType::new(context, 32).into(), value).into());
}

/// What upstream's `createInto` gives a new op: the partitions (and then
/// the stage and cluster) of the op it is made for, and its tag.
#[derive(Clone, Default)]
pub struct Placement {
    pub partitions: Option<Ids>,
    pub stage_cluster: Option<(i64, i64)>,
    pub tag: Option<i64>,
}

impl Placement {
    /// The placement of ops made for `op`.
    pub fn of(op: &OperationRef) -> Self {
        Placement {
            partitions: partition_ids(op),
            stage_cluster: stage_cluster(op),
            tag: int_attribute(op, WARP_SPECIALIZE_TAG),
        }
    }

    pub fn apply(&self, op: &OperationRef) {
        if let Some(ids) = &self.partitions {
            set_partition(op, ids);
            if let Some((stage, cluster)) = self.stage_cluster {
                set_i32(op, LOOP_STAGE, stage);
                set_i32(op, LOOP_CLUSTER, cluster);
            }
        }
        if let Some(tag) = self.tag {
            set_i32(op, WARP_SPECIALIZE_TAG, tag);
        }
    }
}

/// Whether `op` is an `scf.for` of a warp-specialized loop nest (it carries
/// `ttg.warp_specialize.tag`).
pub fn has_warp_specialize_tag(op: &OperationRef) -> bool {
    op.attribute(WARP_SPECIALIZE_TAG).is_ok()
}

//! Data partition of upstream's Hopper warp specialization (its
//! `doDataPartition`, test flag `nvgpu-test-ws-data-partition`): when the
//! consumer side of the kernel runs on several warp groups (a dot carrying
//! more than one async task id), every op that touches the dot's tile is
//! split into one slice per consumer group, along M (rows) when each slice
//! keeps at least 64 of them, else along N (at least 128 columns). Each
//! slice keeps the async task id of its group (and the producer's, 0, for
//! the loads feeding it).
//!
//! Steps, as upstream:
//! 1. the partition scheme: from each dot, the closure of ops to slice,
//!    backwards through the operands (flipping the dimension through
//!    transposes, following loop-carried values to their inits and
//!    yields) and forwards through the users; an op met along two
//!    dimensions is duplicated when it can be (constants and shared-memory
//!    allocations, "rematerialized"), else the partition fails;
//! 2. slicing, group by group, in the scheme's order: each op is cloned
//!    with its operands' slices and its result type cut along the dimension
//!    (descriptor loads and stores move their coordinate, ranges start at
//!    the slice, loops and ifs get one more carried value per slice);
//! 3. the originals, no longer used, are erased, then dead loop arguments
//!    and the loop and if canonicalizations clean up; last, the task ids of
//!    constants and yields are made to cover their users and operands.
use super::task_ids::{add_async_task_ids, get_async_task_ids, set_async_task_ids, AsyncTaskId};
use crate::ir::{collect_ops, create, fail, int_attribute, name_of, Order};
use crate::op_traits::is_elementwise;
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, Location, OperationRef,
    RegionLike, Type, Value, ValueLike,
};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::{block_argument_at, OpAccess};
use tritium_dialects::ir::{
    argument_number, argument_owner, defining_op, dense_i32_array, erase, has_uses, insert_before, op_key,
    replace_all_uses, set_attribute, set_operands, set_type, unit_attribute, users, value_key, ValueMap,
};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};
use tritium_dialects::types::{pointer_parts, static_shape, tensor_descriptor, tensor_descriptor_block, MemDesc};
use tritium_dialects::views::{DescriptorOp, DescriptorStoreOp, DotLikeOp, IfOp, SrcOp};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-test-ws-data-partition",
    description: "Test the data partition of the Hopper warp specialization (upstream's doDataPartition)",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-warp-groups",
        description: "Number of warp groups (the producer and the consumers)",
        kind: OptionKind::Int,
        default: "0",
    }],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let groups = options.int("num-warp-groups");
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "tt.func").collect();
    for function in functions {
        // As upstream's test pass: with one consumer group, nothing to do.
        if groups > 2 {
            match do_data_partition(function, (groups - 1) as u32) {
                Ok(true) => {}
                Ok(false) => return Err(fail(&function, "data partition failed")),
                Err(reason) => return Err(fail(&function, format!("data partition failed: {reason}"))),
            }
        }
    }
    Ok(())
}

/// Upstream's `noOpPartitionDim`: the op is duplicated, not cut.
const NO_DIM: u32 = u32::MAX - 2;

const TO_BE_REMOVED: &str = "to_be_removed";

fn key(op: &OperationRef) -> usize {
    op_key(op)
}

/// An ordered set of ops (upstream's `SetVector<Operation *>`).
#[derive(Clone, Default)]
struct OpSet<'c, 'a> {
    list: Vec<OperationRef<'c, 'a>>,
    keys: HashSet<usize>,
}

impl<'c, 'a> OpSet<'c, 'a> {
    fn insert(&mut self, op: OperationRef<'c, 'a>) -> bool {
        if self.keys.insert(key(&op)) {
            self.list.push(op);
            true
        } else {
            false
        }
    }

    fn contains(&self, op: &OperationRef) -> bool {
        self.keys.contains(&key(op))
    }

    fn remove(&mut self, op: &OperationRef) {
        if self.keys.remove(&key(op)) {
            self.list.retain(|o| o != op);
        }
    }
}

/// Upstream's `DataPartitionScheme`.
#[derive(Clone, Default)]
struct Scheme<'c, 'a> {
    num_partitions: u32,
    /// The ops to slice, in the order they are sliced.
    ops: OpSet<'c, 'a>,
    /// Dimension each op is cut along (for a dot, 0 is M, 1 is N).
    dims: HashMap<usize, u32>,
    /// For a dot, the operand cut along its dimension.
    dot_operand: HashMap<usize, u32>,
    /// Ops duplicated, one copy per dimension.
    rematerialized: Vec<(OperationRef<'c, 'a>, Vec<u32>)>,
    /// Ops not to cut (their duplicates are).
    skipped: HashSet<usize>,
}

impl<'c, 'a> Scheme<'c, 'a> {
    /// The op's dimension, 0 recorded when it has none (as upstream's
    /// `DenseMap::operator[]`).
    fn dim_of(&mut self, op: &OperationRef) -> u32 {
        *self.dims.entry(key(op)).or_insert(0)
    }

    fn dot_operand_of(&mut self, op: &OperationRef) -> u32 {
        *self.dot_operand.entry(key(op)).or_insert(0)
    }

    fn append(&mut self, other: &Scheme<'c, 'a>) {
        for op in &other.ops.list {
            self.ops.insert(*op);
        }
        for (k, d) in &other.dims {
            self.dims.entry(*k).or_insert(*d);
        }
        for (k, d) in &other.dot_operand {
            self.dot_operand.entry(*k).or_insert(*d);
        }
        for (op, dims) in &other.rematerialized {
            if !self.rematerialized.iter().any(|(o, _)| o == op) {
                self.rematerialized.push((*op, dims.clone()));
            }
        }
        self.skipped.extend(other.skipped.iter().copied());
    }

    fn flip(&self, dim: u32) -> u32 {
        if dim == NO_DIM {
            dim
        } else {
            self.num_partitions.wrapping_sub(1).wrapping_sub(dim)
        }
    }

    fn rematerialized_index(&self, op: &OperationRef) -> Option<usize> {
        self.rematerialized.iter().position(|(o, _)| o == op)
    }

    fn is_partitioned(&self, op: &OperationRef) -> bool {
        self.dims.contains_key(&key(op)) || self.rematerialized_index(op).is_some()
    }

    fn undo_partition(&mut self, op: &OperationRef<'c, 'a>) {
        if self.dims.remove(&key(op)).is_some() {
            self.ops.remove(op);
            self.skipped.insert(key(op));
        }
    }
}

fn insert_dim(dims: &mut Vec<u32>, dim: u32) {
    if !dims.contains(&dim) {
        dims.push(dim);
    }
}

/// Upstream's `getShape`: of a memdesc, a tensor, a tensor descriptor's
/// block, a pointer's pointee; empty for anything else.
fn shape_of(ty: Type) -> Vec<i64> {
    if let Some(memdesc) = MemDesc::of(ty) {
        return memdesc.shape;
    }
    if let Some(shape) = static_shape(ty) {
        return shape;
    }
    if let Some(block) = tensor_descriptor_block(ty) {
        return static_shape(block).unwrap_or_default();
    }
    if let Some((pointee, _)) = pointer_parts(ty) {
        return shape_of(pointee);
    }
    Vec::new()
}

fn need_to_slice(v: Value, dim: u32, size: u32) -> bool {
    if dim == NO_DIM {
        return true;
    }
    let shape = shape_of(v.r#type());
    shape.len() > dim as usize && shape[dim as usize] > size as i64
}

fn is_control_flow(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "tt.return" | "tt.func" | "scf.yield" | "scf.for" | "scf.if")
}

fn is_trans(name: &str) -> bool {
    name == "tt.trans" || name == "ttg.memdesc_trans"
}

fn operands<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..op.operand_count()).filter_map(|i| op.operand_at(i).ok()).collect()
}

fn results<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..op.result_count()).filter_map(|i| op.result(i).ok().map(Into::into)).collect()
}

fn result0<'c, 'a>(op: &OperationRef<'c, 'a>) -> Value<'c, 'a> {
    op.result(0).expect("a result").into()
}

fn terminator<'c, 'a>(op: &OperationRef<'c, 'a>, region: usize) -> Option<OperationRef<'c, 'a>> {
    op.region_at(region).ok()?.first_block()?.terminator()
}

/// MLIR's `getBackwardSlice` (default options) of `op`, as a set: the ops
/// its operands come from, transitively, through the ops owning the block
/// arguments met (when they hold a single block), up to the function.
fn backward_slice<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    fn visit<'c, 'a>(op: OperationRef<'c, 'a>, seen: &mut HashSet<usize>, out: &mut Vec<OperationRef<'c, 'a>>) {
        if name_of(&op) == "tt.func" {
            return;
        }
        for operand in operands(&op) {
            if let Some(def) = defining_op(operand) {
                if seen.insert(key(&def)) {
                    visit(def, seen, out);
                }
            } else if let Some(parent) = argument_owner(operand).and_then(|b| b.parent_operation()) {
                let single_block = parent.region_count() == 1
                    && parent
                        .region_at(0)
                        .ok()
                        .and_then(|r| r.first_block())
                        .is_some_and(|b| b.next_in_region().is_none());
                if single_block && seen.insert(key(&parent)) {
                    visit(parent, seen, out);
                }
            }
        }
        out.push(op);
    }
    let mut seen = HashSet::new();
    seen.insert(key(&op));
    let mut out = Vec::new();
    visit(op, &mut seen, &mut out);
    out.retain(|o| *o != op);
    out
}

/// MLIR's `getForwardSlice` of a value: the ops using it, transitively
/// (with the ops nested in them), in topological order.
fn forward_slice<'c, 'a>(root: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    fn visit<'c, 'a>(op: OperationRef<'c, 'a>, seen: &mut HashSet<usize>, out: &mut Vec<OperationRef<'c, 'a>>) {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for nested in tritium_dialects::ir::block_ops(&b) {
                    if seen.insert(key(&nested)) {
                        visit(nested, seen, out);
                    }
                }
                block = b.next_in_region();
            }
        }
        for result in results(&op) {
            for user in users(result) {
                if seen.insert(key(&user)) {
                    visit(user, seen, out);
                }
            }
        }
        out.push(op);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for user in users(root) {
        if seen.insert(key(&user)) {
            visit(user, &mut seen, &mut out);
        }
    }
    out.reverse();
    out
}

/// Whether everything `v` flows into ends in an atomic store (a dot cut
/// along K then computes a partial result each consumer adds).
fn only_used_by_atomic_store(v: Value) -> bool {
    let mut slice = forward_slice(v);
    let Some(position) =
        slice.iter().position(|o| matches!(name_of(o).as_str(), "tt.atomic_rmw" | "tt.descriptor_reduce"))
    else {
        return false;
    };
    let atomic = slice.remove(position);
    let mut queue = vec![atomic];
    while let Some(op) = queue.pop() {
        for operand in operands(&op) {
            if let Some(def) = defining_op(operand) {
                if let Some(i) = slice.iter().position(|o| *o == def) {
                    slice.remove(i);
                    queue.push(def);
                }
            }
        }
    }
    slice.is_empty()
}

/// Upstream's `rematerializeOp`: duplicates an op met along a second
/// dimension, if it is a constant or a shared-memory allocation.
fn rematerialize<'c, 'a>(op: OperationRef<'c, 'a>, scheme: &mut Scheme<'c, 'a>, dim: u32) -> bool {
    if let Some(i) = scheme.rematerialized_index(&op) {
        insert_dim(&mut scheme.rematerialized[i].1, dim);
        return true;
    }
    let name = name_of(&op);
    if name == "ttg.local_alloc" || name == "arith.constant" {
        let existing = scheme.dim_of(&op);
        let mut dims = Vec::new();
        insert_dim(&mut dims, existing);
        insert_dim(&mut dims, dim);
        scheme.rematerialized.push((op, dims));
        for dep in backward_slice(op) {
            scheme.undo_partition(&dep);
        }
        return true;
    }
    false
}

const BACKWARD_THROUGH: &[&str] = &[
    "arith.constant",
    "arith.extsi",
    "arith.extui",
    "arith.extf",
    "tt.broadcast",
    "tt.expand_dims",
    "tt.make_range",
    "tt.splat",
    "ttg.convert_layout",
    "ttg.local_alloc",
    "tt.load",
    "tt.trans",
    "ttg.memdesc_trans",
    "tt.atomic_rmw",
    "tt.addptr",
    "tt.descriptor_load",
    "ttng.tmem_alloc",
    "ttng.tmem_load",
    "tt.fp_to_fp",
];

const HOPPER_ONLY: &str = "tensor memory and tcgen05 MMAs are not supported on Hopper";

/// Upstream's `getBackwardSliceToPartition`.
fn backward<'c, 'a>(v: Value<'c, 'a>, scheme: &mut Scheme<'c, 'a>, dim: u32) -> Result<bool, String> {
    let mut dim = dim;
    if !need_to_slice(v, dim, scheme.num_partitions) {
        return Ok(true);
    }
    if let Some(op) = defining_op(v) {
        if !scheme.ops.insert(op) {
            if !is_control_flow(&op) && scheme.dim_of(&op) != dim && !rematerialize(op, scheme, dim) {
                return Ok(false);
            }
            return Ok(true);
        }
        scheme.dims.insert(key(&op), dim);
        let name = name_of(&op);
        if is_trans(&name) {
            dim = scheme.flip(dim);
        }
        if name == "tt.expand_dims" {
            let axis = int_attribute(&op, "axis").unwrap_or(0) as u32;
            if axis < dim {
                dim = dim.wrapping_sub(1);
            }
        }
        if is_elementwise(&op) || BACKWARD_THROUGH.contains(&name.as_str()) {
            for operand in operands(&op) {
                if !backward(operand, scheme, dim)? {
                    return Ok(false);
                }
            }
        } else if name == "ttng.warp_group_dot" {
            let first = op.operand_at(if dim == 0 { 0 } else { 1 }).map_err(|e| e.to_string())?;
            if !backward(first, scheme, dim)? {
                return Ok(false);
            }
            let c = DotLikeOp::of(op).ok_or("not a dot")?.accumulator();
            if !backward(c, scheme, dim)? {
                return Ok(false);
            }
            scheme.dot_operand.insert(key(&op), if dim == 0 { 0 } else { 1 });
        } else if name == "ttng.tc_gen5_mma" || name.starts_with("ttng.tmem") {
            return Err(HOPPER_ONLY.into());
        } else if name == "ttng.reinterpret_tensor_descriptor" || name == "tt.make_tensor_descriptor" {
            return Ok(true);
        } else if name == "scf.if" {
            let index = results(&op).iter().position(|r| *r == v).unwrap_or(0);
            let (Some(then_yield), Some(else_yield)) = (terminator(&op, 0), terminator(&op, 1)) else {
                return Err("an scf.if result without an else branch".into());
            };
            scheme.ops.insert(then_yield);
            scheme.dims.insert(key(&then_yield), dim);
            scheme.ops.insert(else_yield);
            scheme.dims.insert(key(&else_yield), dim);
            let then_value = then_yield.operand_at(index).map_err(|e| e.to_string())?;
            let else_value = else_yield.operand_at(index).map_err(|e| e.to_string())?;
            // As upstream (a slice of the then value that succeeds fails the partition).
            if backward(then_value, scheme, dim)? {
                return Ok(false);
            }
            if !backward(else_value, scheme, dim)? {
                return Ok(false);
            }
        } else {
            return Err(format!("unexpected op '{name}' in the slice to partition"));
        }
    } else {
        let (Some(block), Some(number)) = (argument_owner(v), argument_number(v)) else { return Ok(true) };
        if let Some(for_op) = block.parent_operation().filter(|p| name_of(p) == "scf.for") {
            if number == 0 {
                return Ok(true);
            }
            let init = for_op.operand_at(3 + number - 1).map_err(|e| e.to_string())?;
            if !backward(init, scheme, dim)? {
                return Ok(false);
            }
            let yielded = terminator(&for_op, 0)
                .and_then(|y| y.operand_at(number - 1).ok())
                .ok_or("a loop without its yielded value")?;
            if !backward(yielded, scheme, dim)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Upstream's `getForwardSliceToPartition`.
fn forward<'c, 'a>(
    v: Value<'c, 'a>,
    scheme: &mut Scheme<'c, 'a>,
    dim: u32,
    seen: &mut HashSet<usize>,
) -> Result<bool, String> {
    if !seen.insert(value_key(v)) {
        return Ok(true);
    }
    if !need_to_slice(v, dim, scheme.num_partitions) {
        return Ok(true);
    }
    let original = dim;
    for user in users(v) {
        let mut dim = original;
        let name = name_of(&user);
        if is_trans(&name) {
            dim = scheme.flip(dim);
        }
        if !scheme.ops.insert(user) {
            if !is_control_flow(&user) && scheme.dim_of(&user) != dim {
                return Ok(false);
            }
            // A yield is partitioned once for each of its operands.
            if name != "scf.yield" {
                continue;
            }
        }
        scheme.dims.insert(key(&user), dim);
        if name == "ttng.warp_group_dot" {
            let dot = DotLikeOp::of(user).ok_or("not a dot")?;
            let (a, b) = (dot.a(), dot.b());
            if (dim == 0 && v == b) || (dim == 1 && v == a) {
                // Cut along K: fine when the partial results are added
                // atomically; the users of the dot are then duplicated.
                if only_used_by_atomic_store(result0(&user)) {
                    scheme.dot_operand.insert(key(&user), if v == a { 0 } else { 1 });
                    dim = NO_DIM;
                } else {
                    return Ok(false);
                }
            } else {
                scheme.dot_operand.insert(key(&user), if dim == 0 { 0 } else { 1 });
            }
        }
        for result in results(&user) {
            if !forward(result, scheme, dim, seen)? {
                return Ok(false);
            }
        }
        if name == "scf.yield" {
            let Some(parent) = user.parent_operation() else { continue };
            for (number, operand) in operands(&user).into_iter().enumerate() {
                if operand == v {
                    scheme.ops.insert(parent);
                    let result = parent.result(number).map_err(|e| e.to_string())?;
                    if !forward(result.into(), scheme, dim, seen)? {
                        return Ok(false);
                    }
                }
            }
        }
    }
    Ok(true)
}

/// Upstream's `getSliceToPartition`: the closure of ops around `root`.
fn slice_to_partition<'c, 'a>(root: Value<'c, 'a>, scheme: &mut Scheme<'c, 'a>, dim: u32) -> Result<bool, String> {
    if !backward(root, scheme, dim)? {
        return Ok(false);
    }
    let mut forward_scheme = scheme.clone();
    let mut seen = HashSet::new();
    let forward_success = forward(root, &mut forward_scheme, dim, &mut seen)?;
    scheme.append(&forward_scheme);
    if !forward_success {
        return Ok(false);
    }
    for op in forward_scheme.ops.list.clone() {
        let dim = scheme.dim_of(&op);
        if dim == NO_DIM {
            continue;
        }
        let name = name_of(&op);
        if is_elementwise(&op) || matches!(name.as_str(), "tt.store" | "tt.descriptor_store" | "tt.atomic_rmw") {
            for operand in operands(&op) {
                if !backward(operand, scheme, dim)? {
                    return Ok(false);
                }
            }
        } else if name == "ttng.warp_group_dot" {
            let index = scheme.dot_operand_of(&op);
            let operand = op.operand_at(index as usize).map_err(|e| e.to_string())?;
            if !backward(operand, scheme, dim)? {
                return Ok(false);
            }
            let accumulator = DotLikeOp::of(op).ok_or("not a dot")?.accumulator();
            if (dim == 0 && index == 0) || (dim == 1 && index == 1) {
                if !backward(accumulator, scheme, dim)? {
                    return Ok(false);
                }
            } else {
                let other = op.operand_at(1 - index as usize).map_err(|e| e.to_string())?;
                if !backward(other, scheme, 1u32.wrapping_sub(dim))? {
                    return Ok(false);
                }
                if !backward(accumulator, scheme, NO_DIM)? {
                    return Ok(false);
                }
            }
        } else if name == "ttng.tc_gen5_mma" {
            return Err(HOPPER_ONLY.into());
        }
    }
    Ok(true)
}

/// Upstream's `computePartitionScheme`: `false` when the dots of several
/// consumer groups cannot be partitioned.
fn compute_partition_scheme<'c, 'a>(
    function: OperationRef<'c, 'a>,
    scheme: &mut Scheme<'c, 'a>,
) -> Result<bool, String> {
    let mut dots = Vec::new();
    for op in collect_ops(function, Order::Post) {
        if get_async_task_ids(&op).len() > 1 {
            match name_of(&op).as_str() {
                "ttng.warp_group_dot" => dots.push(op),
                "ttng.tc_gen5_mma" => return Err(HOPPER_ONLY.into()),
                _ => {}
            }
        }
    }
    if dots.is_empty() {
        return Ok(true);
    }
    for op in dots {
        if scheme.is_partitioned(&op) || scheme.skipped.contains(&key(&op)) {
            continue;
        }
        let accumulator = result0(&op);
        // One CTA per CGA on Hopper here: the shape per CTA is the shape.
        let shape = shape_of(accumulator.r#type());
        if shape.len() != 2 {
            return Ok(false);
        }
        let ids = get_async_task_ids(&op);
        let slice_m = shape[0] / ids.len() as i64;
        let slice_n = shape[1] / ids.len() as i64;
        let mut partition_dims = Vec::new();
        if slice_m >= 64 {
            partition_dims.push(0);
        }
        if slice_n >= 128 {
            partition_dims.push(1);
        }
        if partition_dims.is_empty() {
            return Ok(false);
        }
        if scheme.num_partitions == 0 {
            scheme.num_partitions = ids.len() as u32;
        } else if scheme.num_partitions != ids.len() as u32 {
            return Ok(false);
        }
        let mut success = false;
        for dim in partition_dims {
            let mut trial = scheme.clone();
            if slice_to_partition(accumulator, &mut trial, dim)? {
                success = true;
                *scheme = trial;
                break;
            }
        }
        if !success {
            return Ok(false);
        }
    }
    Ok(!scheme.ops.list.is_empty())
}

fn i32_type(location: Location) -> Type {
    IntegerType::new(tritium_dialects::ir::context_of(location), 32).into()
}

/// `ty` with dimension `dim` divided by `parts` (memdescs, tensors and
/// tensor descriptors; other types unchanged).
fn sliced_type<'c>(ty: Type<'c>, dim: u32, parts: u32, location: Location<'c>) -> Result<Type<'c>, String> {
    let cut = |shape: &mut Vec<i64>| -> Result<(), String> {
        let d = shape.get_mut(dim as usize).ok_or("a dimension out of range")?;
        *d /= parts as i64;
        Ok(())
    };
    if let Some(mut memdesc) = MemDesc::of(ty) {
        cut(&mut memdesc.shape)?;
        memdesc.alloc_shape = memdesc.shape.clone();
        return memdesc.to_type(location).ok_or_else(|| "an invalid sliced memdesc type".to_string());
    }
    if let Some((mut shape, element, layout)) = crate::ir::tensor_parts(ty) {
        cut(&mut shape)?;
        return Ok(crate::ir::tensor_type(&shape, element, layout));
    }
    if let Some(block) = tensor_descriptor_block(ty) {
        let (mut shape, element, layout) = crate::ir::tensor_parts(block).ok_or("a descriptor without a block")?;
        cut(&mut shape)?;
        return tensor_descriptor(crate::ir::tensor_type(&shape, element, layout))
            .ok_or_else(|| "an invalid tensor descriptor".to_string());
    }
    Ok(ty)
}

/// Upstream's `IRMapping`s of one consumer group's slicing.
#[derive(Default)]
struct Mapping<'c, 'a> {
    values: ValueMap,
    ops: HashMap<usize, OperationRef<'c, 'a>>,
    /// The new ops (upstream's reverse mapping, only asked about ops).
    new_ops: HashSet<usize>,
}

impl<'c, 'a> Mapping<'c, 'a> {
    fn lookup(&self, v: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
        self.values.contains(v).then(|| self.values.lookup(v))
    }

    fn map_op(&mut self, old: OperationRef<'c, 'a>, new: OperationRef<'c, 'a>) {
        self.ops.insert(key(&old), new);
        self.new_ops.insert(key(&new));
    }

    /// What MLIR's clone records: every result of `old` maps to `new`'s.
    fn map_results(&mut self, old: &OperationRef<'c, 'a>, new: &OperationRef<'c, 'a>) {
        for (o, n) in results(old).into_iter().zip(results(new)) {
            self.values.map(o, n);
        }
    }
}

/// Upstream's `rewriteRematerializedOps`: one copy of each duplicated op per
/// further dimension, its users along that dimension switched to it.
fn rewrite_rematerialized<'c, 'a>(scheme: &mut Scheme<'c, 'a>) -> Result<(), String> {
    for (old, dims) in scheme.rematerialized.clone() {
        let ids = get_async_task_ids(&old);
        for &dim in dims.iter().skip(1) {
            let name = name_of(&old);
            let location = old.location();
            let new = if name == "ttg.local_alloc" {
                let ty = sliced_type(result0(&old).r#type(), dim, scheme.num_partitions, location)?;
                let rank = shape_of(ty).len();
                let view = create(
                    "ttg.memdesc_subslice",
                    location,
                    &[result0(&old)],
                    &[ty],
                    &[("offsets", dense_i32_array(location, &vec![0; rank]))],
                );
                insert_before(&old, view)
            } else if name == "arith.constant" {
                insert_before(&old, tritium_dialects::ir::clone_op(&old))
            } else {
                return Err(format!("cannot duplicate '{name}'"));
            };
            set_async_task_ids(&new, &ids);
            scheme.ops.insert(new);
            scheme.dims.insert(key(&new), dim);
            let old_value = result0(&old);
            for u in tritium_dialects::ir::uses(old_value) {
                // As upstream, the new view itself is among the users (its
                // operand then becomes its own result: upstream's bug, kept).
                let user = u.owner;
                let mut user_dim = scheme.dim_of(&user);
                let user_name = name_of(&user);
                if is_trans(&user_name) {
                    user_dim = scheme.flip(user_dim);
                } else if user_name == "ttng.warp_group_dot" {
                    let index = scheme.dot_operand_of(&user);
                    if (user_dim == 0 && index == 1) || (user_dim == 1 && index == 0) {
                        user_dim = NO_DIM;
                    }
                }
                if user_dim == dim {
                    tritium_dialects::ir::set_operand(&user, u.index, result0(&new));
                }
            }
        }
    }
    Ok(())
}

fn slice_value<'c, 'a>(
    v: Value<'c, 'a>,
    offset: u32,
    mapping: &mut Mapping<'c, 'a>,
    scheme: &mut Scheme<'c, 'a>,
) -> Result<Option<OperationRef<'c, 'a>>, String> {
    if let Some(op) = defining_op(v) {
        return slice_op(op, offset, mapping, scheme).map(Some);
    }
    match argument_owner(v).and_then(|b| b.parent_operation()) {
        Some(owner) => slice_op(owner, offset, mapping, scheme).map(Some),
        None => Ok(None),
    }
}

/// Upstream's `sliceOp`: the slice `offset` of `op` (its operands sliced
/// first), or `op` itself when it is not to be sliced.
fn slice_op<'c, 'a>(
    op: OperationRef<'c, 'a>,
    offset: u32,
    mapping: &mut Mapping<'c, 'a>,
    scheme: &mut Scheme<'c, 'a>,
) -> Result<OperationRef<'c, 'a>, String> {
    if !scheme.ops.contains(&op) {
        return Ok(op);
    }
    if let Some(new) = mapping.ops.get(&key(&op)) {
        return Ok(*new);
    }
    if mapping.new_ops.contains(&key(&op)) {
        return Ok(op);
    }
    let dim = scheme.dim_of(&op);
    let parts = scheme.num_partitions;
    let ids = get_async_task_ids(&op);
    let slice_ids: Vec<AsyncTaskId> = if ids.len() == parts as usize {
        vec![ids[offset as usize]]
    } else if ids.len() == 1 {
        vec![ids[0]]
    } else if ids.len() > parts as usize {
        vec![ids[0], ids[offset as usize + 1]]
    } else {
        return Err(format!("'{}' has {} task ids for {} partitions", name_of(&op), ids.len(), parts));
    };
    let name = name_of(&op);
    let location = op.location();

    // Clones `op` before itself with the mapped operands, its first result
    // cut along `dim` unless it keeps its shape.
    let clone_and_retype = |op: OperationRef<'c, 'a>,
                            mapping: &mut Mapping<'c, 'a>,
                            scheme: &mut Scheme<'c, 'a>|
     -> Result<OperationRef<'c, 'a>, String> {
        let new = insert_before(&op, tritium_dialects::ir::clone_with(&op, &mapping.values));
        mapping.map_results(&op, &new);
        set_async_task_ids(&new, &slice_ids);
        mapping.map_op(op, new);
        if op.result_count() > 0 {
            let v = result0(&op);
            let new_v = result0(&new);
            let mut retype = dim != NO_DIM;
            if retype && name_of(&op) == "ttng.warp_group_dot" {
                let index = scheme.dot_operand_of(&op);
                if (dim == 0 && index == 1) || (dim == 1 && index == 0) {
                    retype = false;
                }
            }
            if retype {
                if let Some(m) = MemDesc::of(v.r#type()) {
                    if m.encoding.to_string().starts_with("#ttng.tensor_memory") {
                        return Err(HOPPER_ONLY.into());
                    }
                }
                set_type(new_v, sliced_type(v.r#type(), dim, parts, op.location())?);
            }
            mapping.values.map(v, new_v);
        }
        Ok(new)
    };

    let new: OperationRef<'c, 'a>;
    if dim == NO_DIM
        || is_elementwise(&op)
        || matches!(
            name.as_str(),
            "ttg.convert_layout"
                | "tt.broadcast"
                | "tt.splat"
                | "tt.expand_dims"
                | "tt.fp_to_fp"
                | "tt.atomic_rmw"
                | "ttg.local_alloc"
        )
    {
        for operand in operands(&op) {
            slice_value(operand, offset, mapping, scheme)?;
        }
        new = clone_and_retype(op, mapping, scheme)?;
    } else if name.starts_with("ttng.tmem") || name == "ttng.tc_gen5_mma" {
        return Err(HOPPER_ONLY.into());
    } else if name == "arith.constant" {
        let value = op.attribute("value").map_err(|e| e.to_string())?;
        let splat = tritium_dialects::ir::splat_value(value).ok_or("a constant to slice that is not a splat")?;
        let ty = sliced_type(result0(&op).r#type(), dim, parts, location)?;
        let attribute = tritium_dialects::ir::splat_attribute(ty, splat);
        new = insert_before(&op, create("arith.constant", location, &[], &[ty], &[("value", attribute)]));
        // The original ids: folding may merge the constants of the groups.
        set_async_task_ids(&new, &ids);
        mapping.values.map(result0(&op), result0(&new));
    } else if name == "tt.make_range" {
        let start = int_attribute(&op, "start").unwrap_or(0);
        let end = int_attribute(&op, "end").unwrap_or(0);
        let size = (end - start) / parts as i64;
        let new_start = start + offset as i64 * size;
        let i32 = i32_type(location);
        let (_, _, layout) = crate::ir::tensor_parts(result0(&op).r#type()).ok_or("a range that is not a tensor")?;
        let ty = crate::ir::tensor_type(&[size], i32, layout);
        new = insert_before(
            &op,
            create(
                "tt.make_range",
                location,
                &[],
                &[ty],
                &[
                    ("start", IntegerAttribute::new(i32, new_start).into()),
                    ("end", IntegerAttribute::new(i32, new_start + size).into()),
                ],
            ),
        );
        set_async_task_ids(&new, &slice_ids);
        mapping.values.map(result0(&op), result0(&new));
    } else if name == "tt.store" || name == "tt.load" {
        for operand in operands(&op) {
            slice_value(operand, offset, mapping, scheme)?;
        }
        new = clone_and_retype(op, mapping, scheme)?;
    } else if name == "tt.descriptor_load" || name == "tt.descriptor_store" {
        let desc = DescriptorOp::of(op).ok_or("not a descriptor op")?.desc();
        slice_value(desc, offset, mapping, scheme)?;
        let (first_index, shape) = if name == "tt.descriptor_load" {
            (1, shape_of(result0(&op).r#type()))
        } else {
            (2, shape_of(DescriptorStoreOp::of(op).ok_or("not a descriptor store")?.src().r#type()))
        };
        let coordinate = op.operand_at(first_index + dim as usize).map_err(|e| e.to_string())?;
        if offset != 0 {
            let def = defining_op(coordinate).ok_or("a descriptor coordinate that is a block argument")?;
            let next = def.next_in_block().ok_or("a coordinate defined by a terminator")?;
            let i32 = i32_type(location);
            let amount = offset as i64 * shape[dim as usize] / parts as i64;
            let constant = insert_before(
                &next,
                create(
                    "arith.constant",
                    location,
                    &[],
                    &[i32],
                    &[("value", IntegerAttribute::new(i32, amount).into())],
                ),
            );
            set_async_task_ids(&constant, &slice_ids);
            let add =
                insert_before(&next, create("arith.addi", location, &[coordinate, result0(&constant)], &[i32], &[]));
            set_async_task_ids(&add, &slice_ids);
            mapping.values.map(coordinate, result0(&add));
        }
        new = clone_and_retype(op, mapping, scheme)?;
    } else if name == "tt.make_tensor_descriptor" || name == "ttng.reinterpret_tensor_descriptor" {
        new = clone_and_retype(op, mapping, scheme)?;
    } else if is_trans(&name) {
        slice_value(SrcOp::of(op).ok_or("a transposition without a source")?.src(), offset, mapping, scheme)?;
        let v = result0(&op);
        let ty = sliced_type(v.r#type(), dim, parts, location)?;
        new = insert_before(&op, tritium_dialects::ir::clone_with(&op, &mapping.values));
        mapping.map_results(&op, &new);
        set_async_task_ids(&new, &slice_ids);
        set_type(result0(&new), ty);
        mapping.values.map(v, result0(&new));
    } else if name == "ttng.warp_group_dot" {
        let index = scheme.dot_operand_of(&op);
        slice_value(op.operand_at(index as usize).map_err(|e| e.to_string())?, offset, mapping, scheme)?;
        if (dim == 0 && index == 1) || (dim == 1 && index == 0) {
            slice_value(op.operand_at(1 - index as usize).map_err(|e| e.to_string())?, offset, mapping, scheme)?;
        }
        slice_value(DotLikeOp::of(op).ok_or("not a dot")?.accumulator(), offset, mapping, scheme)?;
        new = clone_and_retype(op, mapping, scheme)?;
    } else if name == "scf.for" {
        new = slice_for(op, offset, mapping, scheme, &slice_ids)?;
    } else if name == "scf.if" {
        new = slice_if(op, offset, mapping, scheme)?;
    } else if name == "scf.yield" {
        let count = op.operand_count();
        for i in 0..count {
            let operand = op.operand_at(i).map_err(|e| e.to_string())?;
            slice_value(operand, offset, mapping, scheme)?;
            if let Some(new_v) = mapping.lookup(operand) {
                let mut all = operands(&op);
                all.push(new_v);
                set_operands(&op, &all);
            }
        }
        new = op;
    } else if name == "tt.reduce" {
        for operand in operands(&op) {
            slice_value(operand, offset, mapping, scheme)?;
        }
        new = clone_and_retype(op, mapping, scheme)?;
        set_async_task_ids(&new, &slice_ids);
        for nested in collect_ops(new, Order::Post) {
            set_async_task_ids(&nested, &slice_ids);
        }
    } else {
        return Err(format!("cannot slice '{name}'"));
    }
    mapping.map_op(op, new);
    Ok(new)
}

/// The `scf.for` case of [`slice_op`]: one more carried value per sliced
/// init, the body moved into a new loop.
fn slice_for<'c, 'a>(
    op: OperationRef<'c, 'a>,
    offset: u32,
    mapping: &mut Mapping<'c, 'a>,
    scheme: &mut Scheme<'c, 'a>,
    slice_ids: &[AsyncTaskId],
) -> Result<OperationRef<'c, 'a>, String> {
    let location = op.location();
    let all = operands(&op);
    let inits: Vec<Value> = all[3..].to_vec();
    let mut new_inits = inits.clone();
    let mut new_indices: Vec<(usize, usize)> = Vec::new();
    let body = op.region_at(0).map_err(|e| e.to_string())?.first_block().ok_or("a loop without a body")?;
    for (i, init) in inits.iter().enumerate() {
        slice_value(*init, offset, mapping, scheme)?;
        let new_init = if let Some(block) = argument_owner(*init) {
            // As upstream: the argument of the entry block of the region
            // that holds the init's block, at the init's position (the init
            // itself).
            let number = argument_number(*init).unwrap_or(0);
            let entry = block.parent_region().and_then(|r| r.first_block()).unwrap_or(block);
            block_argument_at(entry, number).ok().map(Value::from)
        } else {
            mapping.lookup(*init)
        };
        if let Some(new_init) = new_init {
            new_inits.push(new_init);
            body.add_argument(new_init.r#type(), location);
            new_indices.push((i, new_inits.len() - 1));
        }
    }
    let mut new_operands = all[..3].to_vec();
    new_operands.extend(new_inits.iter().copied());
    let types: Vec<Type> = new_inits.iter().map(|v| v.r#type()).collect();
    let new_for = {
        let context = tritium_dialects::ir::context_of(location);
        let operation = melior::ir::operation::OperationBuilder::new("scf.for", location)
            .add_operands(&new_operands)
            .add_results(&types)
            .add_regions([melior::ir::Region::new()])
            .build()
            .map_err(|e| e.to_string())?;
        let _ = context;
        insert_before(&op, operation)
    };
    set_async_task_ids(&new_for, slice_ids);
    copy_attributes(&op, &new_for);
    scheme.ops.insert(new_for);
    tritium_dialects::ir::take_region_body(&new_for, &op, 0).ok_or("cannot move the loop body")?;
    for (old, new) in results(&op).into_iter().zip(results(&new_for)) {
        replace_all_uses(old, new);
    }
    set_attribute(&op, TO_BE_REMOVED, unit_attribute(location));
    let new_body = new_for.region_at(0).map_err(|e| e.to_string())?.first_block().ok_or("no body")?;
    for (from, to) in new_indices {
        let v = new_for.result(from).map_err(|e| e.to_string())?;
        let new_v = new_for.result(to).map_err(|e| e.to_string())?;
        mapping.values.map(v.into(), new_v.into());
        let argument = block_argument_at(new_body, from + 1).map_err(|e| e.to_string())?;
        let new_argument = block_argument_at(new_body, to + 1).map_err(|e| e.to_string())?;
        mapping.values.map(argument.into(), new_argument.into());
    }
    Ok(new_for)
}

/// Replaces the attributes of `to` with those of `from` (`setAttrs`).
fn copy_attributes(from: &OperationRef, to: &OperationRef) {
    let name_of_attribute =
        |identifier: &melior::ir::Identifier| identifier.as_string_ref().as_str().unwrap_or("").to_string();
    let names: Vec<String> = to.attributes().map(|(name, _)| name_of_attribute(&name)).collect();
    for name in names {
        tritium_dialects::ir::remove_attribute(to, &name);
    }
    for (name, attribute) in from.attributes() {
        set_attribute(to, &name_of_attribute(&name), attribute);
    }
}

/// The `scf.if` case of [`slice_op`]: the yields sliced, the regions moved
/// into an if with their new results.
fn slice_if<'c, 'a>(
    op: OperationRef<'c, 'a>,
    offset: u32,
    mapping: &mut Mapping<'c, 'a>,
    scheme: &mut Scheme<'c, 'a>,
) -> Result<OperationRef<'c, 'a>, String> {
    let location = op.location();
    let (Some(then_yield), Some(else_yield)) = (terminator(&op, 0), terminator(&op, 1)) else {
        return Err("an scf.if to slice without an else branch".into());
    };
    let new_then_yield = slice_op(then_yield, offset, mapping, scheme)?;
    slice_op(else_yield, offset, mapping, scheme)?;
    let types: Vec<Type> = operands(&then_yield).iter().map(|v| v.r#type()).collect();
    let condition = IfOp::of(op).ok_or("not an scf.if")?.condition();
    let operation = melior::ir::operation::OperationBuilder::new("scf.if", location)
        .add_operands(&[condition])
        .add_results(&types)
        .add_regions([melior::ir::Region::new(), melior::ir::Region::new()])
        .build()
        .map_err(|e| e.to_string())?;
    let new_if = insert_before(&op, operation);
    tritium_dialects::ir::take_region_body(&new_if, &op, 0).ok_or("cannot move the then branch")?;
    tritium_dialects::ir::take_region_body(&new_if, &op, 1).ok_or("cannot move the else branch")?;
    copy_attributes(&op, &new_if);
    scheme.ops.insert(new_if);
    set_attribute(&op, TO_BE_REMOVED, unit_attribute(location));
    for (old, new) in results(&op).into_iter().zip(results(&new_if)) {
        replace_all_uses(old, new);
    }
    let yielded = operands(&then_yield);
    for (index, v) in yielded.iter().enumerate() {
        if let Some(new_v) = mapping.lookup(*v) {
            let new_index = operands(&new_then_yield)
                .iter()
                .position(|o| *o == new_v)
                .ok_or("a sliced value missing from the yield")?;
            let result = new_if.result(index).map_err(|e| e.to_string())?;
            let sliced = new_if.result(new_index).map_err(|e| e.to_string())?;
            mapping.values.map(result.into(), sliced.into());
        }
    }
    Ok(new_if)
}

/// Upstream's `doDeepCleanup`: erases the sliced originals, then cleans up
/// dead loop arguments and the loops and ifs.
fn deep_cleanup(function: OperationRef, scheme: &mut Scheme) -> Result<bool, String> {
    loop {
        let mut to_delete = Vec::new();
        for op in collect_ops(function, Order::Post) {
            if name_of(&op) == "scf.yield" || !scheme.ops.contains(&op) {
                continue;
            }
            if results(&op).into_iter().all(|r| !has_uses(r)) {
                to_delete.push(op);
            }
        }
        if to_delete.is_empty() {
            return Ok(true);
        }
        for op in to_delete {
            scheme.ops.remove(&op);
            erase(op);
        }
        if !cleanup_loops_and_ifs(function)? {
            return Ok(false);
        }
    }
}

/// Triton's dead loop argument elimination with the canonicalization
/// patterns of `scf.for` and `scf.if`, folding and dead code removal, on
/// the function. Upstream's LLVM drops a loop's forwarded or dead carried
/// values (`ForOpIterArgsFolder`) and an if's unused results
/// (`RemoveUnusedResults`) by rebuilding the op, its new yield without the
/// old one's attributes (the task ids `fixTaskId` then recomputes); MLIR 22
/// replaced both with generic patterns that edit in place, so they are
/// Rust patterns here, as upstream's LLVM had them.
fn cleanup_loops_and_ifs(function: OperationRef) -> Result<bool, String> {
    use crate::tritongpu_remove_layout_conversions::cleanup;
    const GENERIC: &[&str] = &[
        "(anonymous namespace)::MakeRegionBranchOpSuccessorInputsDead",
        "(anonymous namespace)::RemoveDeadRegionBranchOpSuccessorInputs",
        "(anonymous namespace)::RemoveDuplicateSuccessorInputUses",
    ];
    let names: Vec<&str> = cleanup::LOOP_AND_IF_PATTERNS.iter().copied().filter(|n| !GENERIC.contains(n)).collect();
    loop {
        canonicalize_function(function, &names)?;
        REBUILT.with(|r| r.set(false));
        let converged = tritium_dialects::ir::apply_patterns_greedily(
            function,
            &[&cleanup::DEAD_LOOP_ARGUMENTS, &FOR_ITER_ARGS_FOLDER, &IF_UNUSED_RESULTS],
        );
        if !converged {
            return Ok(false);
        }
        if !REBUILT.with(|r| r.get()) {
            return Ok(true);
        }
    }
}

thread_local! {
    /// Whether a loop or if was rebuilt by the current greedy run (a dead
    /// loop argument found is always followed by its loop's rebuilding).
    static REBUILT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

static FOR_ITER_ARGS_FOLDER: tritium_dialects::rewrite::Pattern =
    tritium_dialects::rewrite::Pattern { root: "scf.for", benefit: 1, rewrite: fold_iter_args };

static IF_UNUSED_RESULTS: tritium_dialects::rewrite::Pattern =
    tritium_dialects::rewrite::Pattern { root: "scf.if", benefit: 1, rewrite: remove_unused_if_results };

/// LLVM's `ForOpIterArgsFolder` (before MLIR 22): drops the carried values
/// that are yielded unchanged, yielded as their init, or unused both inside
/// and after the loop, and merges those with the same init and yielded
/// value; the loop is rebuilt with its attributes, its yield without.
fn fold_iter_args(for_op: OperationRef, rewriter: &tritium_dialects::rewrite::Rewriter) -> bool {
    let Some(block) = for_op.region_at(0).ok().and_then(|r| r.first_block()) else { return false };
    let Some(yield_op) = block.terminator() else { return false };
    let all = operands(&for_op);
    if all.len() < 3 {
        return false;
    }
    let inits: Vec<Value> = all[3..].to_vec();
    let yielded = operands(&yield_op);
    let for_results = results(&for_op);
    let arguments: Vec<Value> =
        (1..block.argument_count()).filter_map(|i| block_argument_at(block, i).ok().map(Value::from)).collect();
    if arguments.len() != inits.len() || yielded.len() != inits.len() || for_results.len() != inits.len() {
        return false;
    }
    let mut canonicalize = false;
    let mut keep = Vec::new();
    // For each carried value: what its block argument becomes (None: the
    // new loop's argument) and what its result becomes (None: the new
    // loop's result).
    let mut transfer: Vec<Option<Value>> = Vec::new();
    let mut seen: Vec<((usize, usize), usize)> = Vec::new();
    for i in 0..inits.len() {
        let (init, arg, result, value) = (inits[i], arguments[i], for_results[i], yielded[i]);
        let forwarded = arg == value || init == value || (!has_uses(arg) && !has_uses(result));
        if forwarded {
            canonicalize = true;
            keep.push(false);
            transfer.push(Some(init));
            continue;
        }
        let pair = (value_key(init), value_key(value));
        if let Some(&(_, same)) = seen.iter().find(|(p, _)| *p == pair) {
            canonicalize = true;
            keep.push(false);
            replace_all_uses(arg, arguments[same]);
            replace_all_uses(result, for_results[same]);
            transfer.push(Some(init));
            continue;
        }
        seen.push((pair, i));
        keep.push(true);
        transfer.push(None);
    }
    if !canonicalize {
        return false;
    }
    let location = for_op.location();
    let mut new_operands = all[..3].to_vec();
    let kept_inits: Vec<Value> = (0..inits.len()).filter(|&i| keep[i]).map(|i| inits[i]).collect();
    new_operands.extend(kept_inits.iter().copied());
    let types: Vec<Type> = kept_inits.iter().map(|v| v.r#type()).collect();
    let Ok(operation) = melior::ir::operation::OperationBuilder::new("scf.for", location)
        .add_operands(&new_operands)
        .add_results(&types)
        .add_regions([melior::ir::Region::new()])
        .build()
    else {
        return false;
    };
    rewriter.set_insertion_point_before(&for_op);
    let new_for = rewriter.insert(operation);
    copy_attributes(&for_op, &new_for);
    tritium_dialects::ir::take_region_body(&new_for, &for_op, 0);
    // The dropped arguments take their replacements, then go.
    for i in (0..inits.len()).rev() {
        if let Some(value) = transfer[i] {
            replace_all_uses(arguments[i], value);
            tritium_dialects::ir::erase_block_argument(&block, i + 1);
        }
    }
    let filtered: Vec<Value> = (0..inits.len()).filter(|&i| keep[i]).map(|i| yielded[i]).collect();
    rewriter.set_insertion_point_before(&yield_op);
    rewriter.insert(create("scf.yield", yield_op.location(), &filtered, &[], &[]));
    rewriter.erase_op(&yield_op);
    let mut kept = 0;
    let mut replacements = Vec::new();
    for replacement in &transfer {
        match *replacement {
            Some(init) => replacements.push(init),
            None => {
                replacements.push(new_for.result(kept).expect("a kept result").into());
                kept += 1;
            }
        }
    }
    rewriter.replace_op_with_values(&for_op, &replacements);
    REBUILT.with(|r| r.set(true));
    true
}

/// LLVM's `RemoveUnusedResults` of `scf.if` (before MLIR 22): an if with
/// unused results is rebuilt without them (and without its attributes),
/// its yields edited in place.
fn remove_unused_if_results(if_op: OperationRef, rewriter: &tritium_dialects::rewrite::Rewriter) -> bool {
    let if_results = results(&if_op);
    let used: Vec<usize> = (0..if_results.len()).filter(|&i| has_uses(if_results[i])).collect();
    if used.len() == if_results.len() {
        return false;
    }
    let (Some(then_yield), Some(else_yield)) = (terminator(&if_op, 0), terminator(&if_op, 1)) else { return false };
    let Some(condition) = IfOp::of(if_op).map(|i| i.condition()) else { return false };
    let types: Vec<Type> = used.iter().map(|&i| if_results[i].r#type()).collect();
    let Ok(operation) = melior::ir::operation::OperationBuilder::new("scf.if", if_op.location())
        .add_operands(&[condition])
        .add_results(&types)
        .add_regions([melior::ir::Region::new(), melior::ir::Region::new()])
        .build()
    else {
        return false;
    };
    rewriter.set_insertion_point_before(&if_op);
    let new_if = rewriter.insert(operation);
    tritium_dialects::ir::take_region_body(&new_if, &if_op, 0);
    tritium_dialects::ir::take_region_body(&new_if, &if_op, 1);
    for yield_op in [then_yield, else_yield] {
        let kept: Vec<Value> = used.iter().filter_map(|&i| yield_op.operand_at(i).ok()).collect();
        rewriter.modify_in_place(&yield_op, || set_operands(&yield_op, &kept));
    }
    let mut replacements: Vec<Value> = if_results.clone();
    for (new_index, &i) in used.iter().enumerate() {
        replacements[i] = new_if.result(new_index).expect("a kept result").into();
    }
    // The unused results have no uses: any value replaces them.
    rewriter.replace_op_with_values(&if_op, &replacements);
    REBUILT.with(|r| r.set(true));
    true
}

/// Runs `canonicalize` with the named MLIR patterns (and the Rust folds) on
/// `function` alone, bottom-up as upstream's `applyPatternsGreedily`.
fn canonicalize_function(function: OperationRef, pattern_names: &[&str]) -> Result<(), String> {
    let names = format!("{},", pattern_names.join(","));
    let pipeline = format!("tt.func(canonicalize{{enable-patterns={{{names}}} top-down=false}})");
    tritium_dialects::canonicalization::with_patterns_of(&[], || {
        tritium_dialects::ir::run_pipeline_on_op(function, "tt.func", &pipeline).map_err(|failure| match failure {
            tritium_dialects::ir::PipelineFailure::Parse => format!("cannot build the pipeline '{pipeline}'"),
            tritium_dialects::ir::PipelineFailure::Run => "the clean-up patterns failed".to_string(),
        })
    })
}

fn contains_all(superset: &[AsyncTaskId], subset: &[AsyncTaskId]) -> bool {
    subset.iter().all(|id| superset.contains(id))
}

/// Upstream's `fixTaskId`: constants get the task ids of their users, and
/// yields and ifs those of the single-use values they take.
fn fix_task_ids(function: OperationRef) {
    loop {
        let mut changed = false;
        for op in collect_ops(function, Order::Post) {
            let name = name_of(&op);
            let control_flow = matches!(name.as_str(), "scf.yield" | "scf.for" | "scf.if");
            let ids = get_async_task_ids(&op);
            for operand in operands(&op) {
                let Some(def) = defining_op(operand) else { continue };
                let def_name = name_of(&def);
                if def_name == "tt.load" || def_name == "tt.descriptor_load" {
                    continue;
                }
                let def_ids = get_async_task_ids(&def);
                // Backwards: constants (arith ops) cover their users' ids.
                if !contains_all(&def_ids, &ids) {
                    if control_flow {
                        continue;
                    }
                    if def_name.starts_with("arith.") {
                        add_async_task_ids(&def, &ids);
                        changed = true;
                    }
                }
                // Forwards: a yield or if covers its single-use operands' ids.
                let one_use = tritium_dialects::ir::uses(operand).len() == 1;
                if one_use && !contains_all(&ids, &def_ids) && matches!(name.as_str(), "scf.yield" | "scf.if") {
                    add_async_task_ids(&op, &def_ids);
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

/// Upstream's `doDataPartition`: slices the ops of the dots of
/// `num_consumer_groups` consumer groups; `false` when they cannot be.
pub fn do_data_partition(function: OperationRef, num_consumer_groups: u32) -> Result<bool, String> {
    let mut scheme = Scheme::default();
    if !compute_partition_scheme(function, &mut scheme)? {
        return Ok(num_consumer_groups <= 1);
    }
    rewrite_rematerialized(&mut scheme)?;
    for offset in 0..scheme.num_partitions {
        let mut mapping = Mapping::default();
        let count = scheme.ops.list.len();
        for j in 0..count {
            let op = scheme.ops.list[j];
            slice_op(op, offset, &mut mapping, &mut scheme)?;
        }
        let removed: Vec<OperationRef> =
            scheme.ops.list.iter().copied().filter(|o| o.attribute(TO_BE_REMOVED).is_ok()).collect();
        for op in removed {
            scheme.ops.remove(&op);
            erase(op);
        }
    }
    if !deep_cleanup(function, &mut scheme)? {
        return Ok(false);
    }
    fix_task_ids(function);
    Ok(true)
}

//! Which loops the pass specializes, and how (the task partition: which ops
//! the producer runs, which the consumers run; the data partition, in
//! [`super::split`]: whether the consumer work splits by rows between two
//! warp groups).
//!
//! The task partition is one rule: the loop's descriptor loads (each stored
//! once to shared memory) go to the producer, everything else to the
//! consumers. The loop marked is either
//! - a *loop of dots* itself: its body holds scalar arithmetic, descriptor
//!   loads, one or more `ttng.warp_group_dot` and register-tensor math
//!   between them (a TMA matmul's K loop, tutorial 09's `matmul_kernel_tma`;
//!   an attention loop, tutorial 06's `_attn_fwd_inner`: QK^T, the online
//!   softmax, PV). It may carry tensors (accumulators, softmax statistics),
//!   which live in the consumers, and scalars, which both sides carry (the
//!   producer when its loads' coordinates need them);
//! - or a *persistent tile loop* (tutorial 09's
//!   `matmul_kernel_descriptor_persistent` with `flatten=False`): its body
//!   is scalar arithmetic (the tile's coordinates), one such loop of dots,
//!   and the tile's epilogue; it may carry scalars.
//!
//! What follows the marked loop (the epilogue) runs in the consumers; the
//! tensors they use from before the loop (splats, ranges, offsets: warp
//! groups cannot hand each other tensors) they compute again (the
//! *prologue*), and shared-memory tiles made before the loop (attention's Q)
//! they read in place.
use super::{name_of_op as name_of, value_key};
use crate::analysis::slice::users;
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Type, TypeLike, ValueLike};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::DescriptorLoadOp;

/// A loop feeding wgmma dots from TMA loads.
pub(super) struct KLoop<'c, 'a> {
    pub lp: OperationRef<'c, 'a>,
    pub body: BlockRef<'c, 'a>,
    /// (descriptor_load, its local_alloc) pairs, in order.
    pub loads: Vec<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)>,
    pub dots: Vec<OperationRef<'c, 'a>>,
}

impl KLoop<'_, '_> {
    /// Whether `op` is one of the producer's loads or their allocs.
    pub fn is_producer_op(&self, op: &OperationRef) -> bool {
        self.loads
            .iter()
            .any(|(load, alloc)| load.to_raw().ptr == op.to_raw().ptr || alloc.to_raw().ptr == op.to_raw().ptr)
    }
    /// Positions (among the iteration arguments) of the scalars the loop carries.
    pub fn scalar_iter_args(&self) -> Vec<usize> {
        (0..self.lp.result_count()).filter(|i| is_scalar_type(self.lp.result(*i).unwrap().r#type())).collect()
    }
}

/// How a marked loop is specialized.
pub(super) struct Plan<'c, 'a> {
    /// The loop marked `tt.warp_specialize` (at the kernel's top level).
    pub marked: OperationRef<'c, 'a>,
    pub kloop: KLoop<'c, 'a>,
    /// Tensor ops before the marked loop that the consumers compute again,
    /// in order.
    pub prologue: Vec<OperationRef<'c, 'a>>,
    /// Two consumer warp groups, each taking half of the tile's rows
    /// (upstream's data partition), or one taking it all.
    pub split: Option<RowSplit>,
}

impl Plan<'_, '_> {
    pub fn persistent(&self) -> bool {
        self.marked.to_raw().ptr != self.kloop.lp.to_raw().ptr
    }
    pub fn consumers(&self) -> usize {
        if self.split.is_some() {
            2
        } else {
            1
        }
    }
    /// Whether the original value `v` has half the rows in each consumer group.
    pub fn is_split(&self, v: melior::ir::Value) -> bool {
        self.split.as_ref().is_some_and(|s| s.values.contains(&value_key(v)))
    }
}

/// The row split of the data partition.
pub(super) struct RowSplit {
    /// Rows of the whole tile (the dots' first dim).
    pub rows: i64,
    /// The original values (tensors, shared-memory tiles) of which each
    /// group computes or reads its half of the rows.
    pub values: HashSet<usize>,
}

pub(super) fn is_scalar_op(op: &OperationRef) -> bool {
    let name = name_of(op);
    op.regions().next().is_none()
        && (name.starts_with("arith.") || name.starts_with("math."))
        && (0..op.result_count()).all(|i| is_scalar_type(op.result(i).unwrap().r#type()))
}

pub(super) fn is_scalar_type(ty: Type) -> bool {
    !ty.is_ranked_tensor() && MemDesc::of(ty).is_none()
}

fn same_block(op: &OperationRef, block: &BlockRef) -> bool {
    op.block().map(|b| b.to_raw().ptr) == Some(block.to_raw().ptr)
}

/// Register-tensor ops the consumers may run between the dots (besides
/// `arith`/`math`): no memory access, no control flow.
const TENSOR_MATH: &[&str] = &[
    "tt.splat",
    "tt.broadcast",
    "tt.expand_dims",
    "tt.reduce",
    "tt.make_range",
    "ttg.convert_layout",
    "tt.fp_to_fp",
    "tt.bitcast",
];

/// Pure tensor ops before the loop the consumers may compute again.
fn recomputable(op: &OperationRef) -> bool {
    let name = name_of(op);
    op.regions().next().is_none()
        && (name.starts_with("arith.")
            || name.starts_with("math.")
            || ["tt.splat", "tt.broadcast", "tt.expand_dims", "tt.make_range", "ttg.convert_layout", "tt.addptr"]
                .contains(&name.as_str()))
}

/// The loop of dots' parts, or why it is not one this pass handles.
fn analyze_kloop<'c, 'a>(lp: OperationRef<'c, 'a>, marked: &OperationRef<'c, 'a>) -> Result<KLoop<'c, 'a>, String> {
    let body = lp.region_at(0).ok().and_then(|r| r.first_block()).ok_or("the loop has no body")?;
    for i in 0..lp.result_count() {
        if MemDesc::of(lp.result(i).unwrap().r#type()).is_some() {
            return Err("the loop carries a shared-memory buffer".into());
        }
    }
    let mut loads = Vec::new();
    let mut dots = Vec::new();
    for op in crate::ssa::block_ops(&body) {
        let name = name_of(&op);
        match name.as_str() {
            "tt.descriptor_load" => {
                let result = op.result(0).unwrap();
                let [alloc] = users(result.into())[..] else {
                    return Err("a descriptor load is used other than by one ttg.local_alloc".into());
                };
                if name_of(&alloc) != "ttg.local_alloc" || !same_block(&alloc, &body) {
                    return Err("a descriptor load is used other than by one ttg.local_alloc".into());
                }
                let desc = DescriptorLoadOp::of(op).expect("a descriptor load").desc();
                if !crate::ssa::is_defined_outside(desc, marked) {
                    return Err("a descriptor is made inside the loop".into());
                }
                let memdesc =
                    MemDesc::of(alloc.result(0).unwrap().r#type()).ok_or("a local_alloc without a memdesc")?;
                if !memdesc.encoding.to_string().contains("nvmma_shared") {
                    return Err("a loaded tile is not stored in an NVMMA shared layout".into());
                }
                loads.push((op, alloc));
            }
            "ttng.warp_group_dot" => dots.push(op),
            "ttg.local_alloc" | "ttg.memdesc_trans" | "scf.yield" => {}
            _ if is_scalar_op(&op) => {}
            _ if op.regions().next().is_some() && name != "tt.reduce" => {
                return Err(format!("the loop body has '{name}' with regions"))
            }
            _ if name.starts_with("arith.") || name.starts_with("math.") || TENSOR_MATH.contains(&name.as_str()) => {}
            _ => {
                return Err(format!(
                    "the loop body has '{name}', which only scalar and register-tensor math, descriptor loads and wgmma dots may be yet"
                ))
            }
        }
    }
    if loads.is_empty() || dots.is_empty() {
        return Err("the loop body must hold descriptor loads and a ttng.warp_group_dot".into());
    }
    let kloop = KLoop { lp, body, loads, dots };
    producer_can_follow(&kloop)?;
    Ok(kloop)
}

/// The producer runs the loop's scalar arithmetic only: the loads'
/// coordinates and the scalars the loop carries must not depend on a
/// tensor.
fn producer_can_follow(k: &KLoop) -> Result<(), String> {
    let mut known: HashSet<usize> = HashSet::new();
    known.insert(value_key(k.body.argument(0).unwrap().into()));
    for i in k.scalar_iter_args() {
        known.insert(value_key(k.body.argument(i + 1).unwrap().into()));
    }
    let computable = |v: melior::ir::Value, known: &HashSet<usize>| {
        known.contains(&value_key(v)) || crate::ssa::is_defined_outside(v, &k.lp)
    };
    for op in crate::ssa::block_ops(&k.body) {
        if is_scalar_op(&op) {
            if (0..op.operand_count()).all(|i| computable(op.operand(i).unwrap(), &known)) {
                for r in 0..op.result_count() {
                    known.insert(value_key(op.result(r).unwrap().into()));
                }
            } else {
                return Err(format!("the loop's scalar '{}' depends on a tensor", name_of(&op)));
            }
        }
    }
    for (load, _) in &k.loads {
        if !(1..load.operand_count()).all(|i| computable(load.operand(i).unwrap(), &known)) {
            return Err("a descriptor load's coordinates depend on a tensor".into());
        }
    }
    let yield_op = k.body.terminator().ok_or("the loop has no yield")?;
    if !k.scalar_iter_args().iter().all(|i| computable(yield_op.operand(*i).unwrap(), &known)) {
        return Err("a scalar the loop carries depends on a tensor".into());
    }
    Ok(())
}

/// The plan for a marked loop at the kernel's top level, or why it cannot
/// be specialized.
pub(super) fn analyze<'c, 'a>(
    marked: OperationRef<'c, 'a>,
    function_entry: &BlockRef<'c, 'a>,
) -> Result<Plan<'c, 'a>, String> {
    if !same_block(&marked, function_entry) {
        return Err("only a loop at the top level of the kernel is specialized yet".into());
    }
    let body = marked.region_at(0).ok().and_then(|r| r.first_block()).ok_or("the loop has no body")?;
    let inner: Vec<OperationRef> =
        crate::ssa::block_ops(&body).into_iter().filter(|o| name_of(o) == "scf.for").collect();
    let kloop = match inner[..] {
        [] => analyze_kloop(marked, &marked)?,
        [inner] => {
            // A persistent tile loop: scalars before the K loop, the
            // epilogue after it, scalars carried.
            if (0..marked.result_count()).any(|i| !is_scalar_type(marked.result(i).unwrap().r#type())) {
                return Err("a persistent loop may carry scalars only".into());
            }
            let kloop = analyze_kloop(inner, &marked)?;
            let mut before = true;
            for op in crate::ssa::block_ops(&body) {
                if op.to_raw().ptr == inner.to_raw().ptr {
                    before = false;
                } else if op.regions().next().is_some() {
                    return Err(format!("the tile loop's body has '{}' with regions", name_of(&op)));
                } else if before && !is_scalar_op(&op) && name_of(&op) != "arith.constant" {
                    return Err(format!(
                        "the tile loop computes '{}' before its K loop, where only scalars are handled yet",
                        name_of(&op)
                    ));
                }
            }
            kloop
        }
        _ => return Err("the loop holds more than one loop".into()),
    };
    let mut plan = Plan { marked, kloop, prologue: Vec::new(), split: None };
    plan.prologue = prologue(&plan, function_entry)?;
    plan.split = super::split::row_split(&plan).ok();
    Ok(plan)
}

/// The ops the consumers run: everything in the marked loop (the loop ops
/// themselves included) but the producer's loads and their allocs, then the
/// ops after the marked loop (with what they hold), its `tt.return` left out.
pub(super) fn consumer_side_ops<'c, 'a>(plan: &Plan<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = vec![plan.marked];
    ops.extend(
        crate::ir::collect_ops(plan.marked, crate::ir::Order::Pre)
            .into_iter()
            .filter(|o| !plan.kloop.is_producer_op(o)),
    );
    let mut next = plan.marked.next_in_block();
    while let Some(op) = next {
        next = op.next_in_block();
        if name_of(&op) != "tt.return" {
            ops.push(op);
            ops.extend(crate::ir::collect_ops(op, crate::ir::Order::Pre));
        }
    }
    ops
}

/// The tensor ops before the marked loop whose results the consumers use
/// (through each other), in order: the consumers compute them again. Tensor
/// constants are made again by the consumers as they are; a tensor made
/// otherwise (a load) cannot be, and the loop is not specialized.
fn prologue<'c, 'a>(
    plan: &Plan<'c, 'a>,
    function_entry: &BlockRef<'c, 'a>,
) -> Result<Vec<OperationRef<'c, 'a>>, String> {
    let before: Vec<OperationRef> = crate::ssa::block_ops(function_entry)
        .into_iter()
        .take_while(|o| o.to_raw().ptr != plan.marked.to_raw().ptr)
        .collect();
    let position = |op: &OperationRef| before.iter().position(|o| o.to_raw().ptr == op.to_raw().ptr);
    let mut wanted: Vec<melior::ir::Value> = Vec::new();
    for op in consumer_side_ops(plan) {
        wanted.extend((0..op.operand_count()).map(|i| op.operand(i).unwrap()));
    }
    let mut chosen: HashSet<usize> = HashSet::new();
    while let Some(v) = wanted.pop() {
        if !v.r#type().is_ranked_tensor() {
            continue;
        }
        let Some(def) = crate::ssa::defining_op(v).filter(|d| position(d).is_some()) else { continue };
        if name_of(&def) == "arith.constant" || !chosen.insert(def.to_raw().ptr as usize) {
            continue;
        }
        if !recomputable(&def) {
            return Err(format!(
                "the consumer warps use a tensor made before the loop by '{}', which they cannot compute again",
                name_of(&def)
            ));
        }
        wanted.extend((0..def.operand_count()).map(|i| def.operand(i).unwrap()));
    }
    Ok(before.into_iter().filter(|o| chosen.contains(&(o.to_raw().ptr as usize))).collect())
}

/// The ops that run after the K loop in the consumers: the rest of the tile
/// loop's body (persistent shape) and the kernel's ops after the marked loop.
pub(super) fn epilogue<'c, 'a>(plan: &Plan<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut tail = |from: OperationRef<'c, 'a>| {
        let mut next = from.next_in_block();
        while let Some(op) = next {
            next = op.next_in_block();
            if !["tt.return", "scf.yield"].contains(&name_of(&op).as_str()) {
                ops.push(op);
            }
        }
    };
    if plan.persistent() {
        tail(plan.kloop.lp);
    }
    tail(plan.marked);
    ops
}

/// `tensor<RxC...>` with R = `rows` as `tensor<R/2xC...>`; None if the type
/// is not a tensor (or descriptor) of `rows` rows.
pub(super) fn halved_type_text(ty: &str, rows: i64) -> Option<String> {
    let start = ty.find("tensor<")? + "tensor<".len();
    let rest = &ty[start..];
    let dim_end = rest.find('x')?;
    if rest[..dim_end].parse::<i64>().ok()? != rows {
        return None;
    }
    Some(format!("{}{}{}", &ty[..start], rows / 2, &rest[dim_end..]))
}

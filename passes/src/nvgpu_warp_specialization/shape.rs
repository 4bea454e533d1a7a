//! Which loops the pass specializes, and how (the task partition: which ops
//! the producer runs, which the consumers run; the data partition: whether
//! the consumer work splits by rows between two warp groups).
//!
//! Two loop shapes:
//! - a *K loop* marked itself (tutorial 09's `matmul_kernel_tma`): its body
//!   is scalar arithmetic, descriptor loads each stored once to shared
//!   memory and one `ttng.warp_group_dot` accumulating into the loop's only
//!   value; what follows the loop (the epilogue) runs in the consumers;
//! - a *persistent tile loop* marked (tutorial 09's
//!   `matmul_kernel_descriptor_persistent` with `flatten=False`): its body
//!   is scalar arithmetic (the tile's coordinates), one such K loop, and the
//!   tile's epilogue; it may carry scalars (the epilogue's tile counter).
use super::{name_of_op as name_of, value_key};
use crate::analysis::slice::users;
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Type, TypeLike, ValueLike};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::types::MemDesc;

/// A loop over K feeding one wgmma dot from TMA loads.
pub(super) struct KLoop<'c, 'a> {
    pub lp: OperationRef<'c, 'a>,
    pub body: BlockRef<'c, 'a>,
    /// (descriptor_load, its local_alloc) pairs, in order.
    pub loads: Vec<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)>,
    pub dot: OperationRef<'c, 'a>,
}

/// How a marked loop is specialized.
pub(super) struct Plan<'c, 'a> {
    /// The loop marked `tt.warp_specialize` (at the kernel's top level).
    pub marked: OperationRef<'c, 'a>,
    pub kloop: KLoop<'c, 'a>,
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
}

/// The row split of the data partition.
#[derive(Clone, Copy)]
pub(super) struct RowSplit {
    /// Rows of the whole tile (the accumulator's first dim).
    pub rows: i64,
    /// Index in `KLoop::loads` of the dot's left operand (split by rows
    /// with a subslice; the right operand is read whole by both groups).
    pub lhs_load: usize,
}

fn is_scalar_op(op: &OperationRef) -> bool {
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

/// The K loop's parts, or why it is not one this pass handles.
fn analyze_kloop<'c, 'a>(lp: OperationRef<'c, 'a>, marked: &OperationRef<'c, 'a>) -> Result<KLoop<'c, 'a>, String> {
    if lp.result_count() != 1 {
        return Err("only a loop carrying one value (the dot's accumulator) is specialized yet".into());
    }
    let body = lp.region_at(0).ok().and_then(|r| r.first_block()).ok_or("the loop has no body")?;
    let accumulator = body.argument(1).map_err(|_| "the loop has no iteration argument")?;
    let mut loads = Vec::new();
    let mut views = HashSet::new(); // shared-memory values the dot may read
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
                if !crate::ssa::is_defined_outside(op.operand(0).unwrap(), marked) {
                    return Err("a descriptor is made inside the loop".into());
                }
                let memdesc =
                    MemDesc::of(alloc.result(0).unwrap().r#type()).ok_or("a local_alloc without a memdesc")?;
                if !memdesc.encoding.to_string().contains("nvmma_shared") {
                    return Err("a loaded tile is not stored in an NVMMA shared layout".into());
                }
                views.insert(value_key(alloc.result(0).unwrap().into()));
                loads.push((op, alloc));
            }
            "ttg.local_alloc" if op.operand_count() == 1 => {} // checked with its load
            "ttg.memdesc_trans" => {
                if !views.contains(&value_key(op.operand(0).unwrap())) {
                    return Err("a transposed view of something else than a loaded tile".into());
                }
                views.insert(value_key(op.result(0).unwrap().into()));
            }
            "ttng.warp_group_dot" => {
                let reads_tiles = (0..2).all(|i| views.contains(&value_key(op.operand(i).unwrap())));
                if !reads_tiles
                    || op.operand(2).unwrap().to_raw().ptr != accumulator.to_raw().ptr
                    || op.operand_count() != 3
                {
                    return Err("the dot must read loaded tiles and accumulate into the loop's value".into());
                }
                dots.push(op);
            }
            "scf.yield" => {
                let yielded = op.operand(0).unwrap();
                let from_dot = crate::ssa::defining_op(yielded).is_some_and(|d| name_of(&d) == "ttng.warp_group_dot");
                if !from_dot {
                    return Err("the loop must yield the dot's result".into());
                }
            }
            _ if is_scalar_op(&op) => {}
            _ => {
                return Err(format!(
                    "the loop body has '{name}', which only scalar arithmetic, descriptor loads and one dot may be yet"
                ))
            }
        }
    }
    let [dot] = dots[..] else {
        return Err("the loop body must hold descriptor loads and exactly one ttng.warp_group_dot".into());
    };
    if loads.is_empty() {
        return Err("the loop body must hold descriptor loads and exactly one ttng.warp_group_dot".into());
    }
    Ok(KLoop { lp, body, loads, dot })
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
    let mut plan = Plan { marked, kloop, split: None };
    plan.split = row_split(&plan).ok();
    Ok(plan)
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

/// Whether the consumers' work splits by rows between two warp groups, as
/// upstream's data partition does: a tile of at least 128 rows whose wgmma
/// layout puts the 4 warps along the rows, a left operand loaded untransposed,
/// an accumulator starting from a constant, and an epilogue that only
/// converts the tile and stores it through a device-side descriptor (whose
/// box can be halved; a host-side descriptor's box is fixed by the host).
fn row_split(plan: &Plan) -> Result<RowSplit, String> {
    let k = &plan.kloop;
    let accumulator = k.dot.result(0).unwrap().r#type().to_string();
    if !accumulator.contains("warpsPerCTA = [4, 1]") {
        return Err("the wgmma layout does not put the warps along the rows".into());
    }
    let rows: i64 =
        accumulator.trim_start_matches("tensor<").split('x').next().and_then(|d| d.parse().ok()).ok_or("no rows")?;
    if rows < 128 || rows % 128 != 0 {
        return Err("fewer than 128 rows".into());
    }
    let lhs = k.dot.operand(0).unwrap();
    let lhs_load = k
        .loads
        .iter()
        .position(|(_, alloc)| alloc.result(0).unwrap().to_raw().ptr == lhs.to_raw().ptr)
        .ok_or("the left operand is not a loaded tile")?;
    let init = k.lp.operand(3).unwrap();
    let constant = crate::ssa::defining_op(init).is_some_and(|d| name_of(&d) == "arith.constant");
    if !constant {
        return Err("the accumulator does not start from a constant".into());
    }
    // Follow the accumulator through the epilogue.
    let mut halved: HashSet<usize> = HashSet::new();
    halved.insert(value_key(k.lp.result(0).unwrap().into()));
    for op in epilogue(plan) {
        let name = name_of(&op);
        let operands: Vec<_> = (0..op.operand_count()).map(|i| op.operand(i).unwrap()).collect();
        let uses_halved = operands.iter().any(|v| halved.contains(&value_key(*v)));
        if !uses_halved {
            if (0..op.result_count()).all(|i| is_scalar_type(op.result(i).unwrap().r#type())) {
                continue;
            }
            return Err(format!("the epilogue computes '{name}' apart from the tile"));
        }
        match name.as_str() {
            "tt.descriptor_store" => {
                let made_on_device = crate::ssa::defining_op(operands[0]).is_some_and(|d| {
                    name_of(&d) == "tt.make_tensor_descriptor" && !crate::ssa::is_ancestor(&plan.marked, d)
                });
                if !made_on_device {
                    return Err("the tile is stored through a host-side descriptor".into());
                }
                if !halved.contains(&value_key(operands[1])) {
                    return Err("the descriptor store's coordinates depend on the tile".into());
                }
            }
            "ttg.convert_layout" | "tt.fp_to_fp" => {}
            _ if (name.starts_with("arith.") || name.starts_with("math.")) && op.regions().next().is_none() => {
                if operands.iter().any(|v| v.r#type().is_ranked_tensor() && !halved.contains(&value_key(*v))) {
                    return Err(format!("'{name}' mixes the tile with another tensor"));
                }
            }
            _ => return Err(format!("the epilogue has '{name}' on the tile")),
        }
        for i in 0..op.result_count() {
            let result = op.result(i).unwrap();
            if halved_type_text(&result.r#type().to_string(), rows).is_none() {
                return Err(format!("'{name}' does not keep the tile's rows"));
            }
            halved.insert(value_key(result.into()));
        }
    }
    Ok(RowSplit { rows, lhs_load })
}

//! The data partition: whether the consumers' work splits by rows between
//! two warp groups, as upstream's does, and which values it splits.
//!
//! The dots' results are split by rows (each group computes its half of
//! the tile: 64 of 128 rows, the wgmma layout putting the 4 warps along
//! them). Whatever shares those rows is split with them: the operands and
//! results of elementwise ops, an accumulator and what the loop carries for
//! it, a reduction along the columns and its row statistics, the left
//! operand of a dot (a subslice of its shared-memory tile), a tile's
//! epilogue down to its store (through a half-tile descriptor), the offsets
//! of a pointer store of row statistics. That is a union of values that
//! must agree (one union-find over the consumers' values), seeded by the
//! dots. Values a group cannot take half of (the right operand of a dot, a
//! transposed view, what an unknown op touches, a dimension of 1) must stay
//! whole; if the split reaches one, or a tile stored through a host-side
//! descriptor (whose box the host fixes), there is no split and one
//! consumer group takes the whole tile.
use super::{
    name_of_op as name_of,
    shape::{consumer_side_ops, Plan, RowSplit},
    value_key,
};
use crate::ir::int_attribute;
use melior::ir::{operation::OperationLike, BlockLike, RegionLike, TypeLike, Value, ValueLike};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::OpAccess;
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::DescriptorStoreOp;

/// Ops whose tensor operands and results all have the same shape.
fn is_elementwise(name: &str) -> bool {
    (name.starts_with("arith.") && name != "arith.constant")
        || name.starts_with("math.")
        || [
            "ttg.convert_layout",
            "tt.fp_to_fp",
            "tt.addptr",
            "tt.load",
            "tt.store",
            "tt.bitcast",
            "tt.clampf",
            "tt.precise_sqrt",
            "tt.precise_divf",
            "tt.mulhiui",
            "tt.int_to_ptr",
            "tt.ptr_to_int",
        ]
        .contains(&name)
}

fn is_shaped(v: Value) -> bool {
    v.r#type().is_ranked_tensor() || MemDesc::of(v.r#type()).is_some()
}

fn first_dim(v: Value) -> Option<i64> {
    if let Some(memdesc) = MemDesc::of(v.r#type()) {
        return memdesc.shape.first().copied();
    }
    let (shape, _, _) = crate::ir::tensor_parts(v.r#type())?;
    shape.first().copied()
}

/// Values that must share their split, and values that must stay whole.
#[derive(Default)]
struct Constraints<'c, 'a> {
    parent: HashMap<usize, usize>,
    values: HashMap<usize, Value<'c, 'a>>,
    whole: HashSet<usize>,
}

impl<'c, 'a> Constraints<'c, 'a> {
    fn add(&mut self, v: Value<'c, 'a>) -> usize {
        let k = value_key(v);
        self.values.entry(k).or_insert(v);
        self.parent.entry(k).or_insert(k);
        k
    }
    fn root(&mut self, k: usize) -> usize {
        let mut r = k;
        while self.parent[&r] != r {
            r = self.parent[&r];
        }
        self.parent.insert(k, r);
        r
    }
    fn link(&mut self, a: Value<'c, 'a>, b: Value<'c, 'a>) {
        if !is_shaped(a) || !is_shaped(b) {
            return;
        }
        let (ka, kb) = (self.add(a), self.add(b));
        let (ra, rb) = (self.root(ka), self.root(kb));
        self.parent.insert(ra, rb);
    }
    fn keep_whole(&mut self, v: Value<'c, 'a>) {
        if is_shaped(v) {
            let k = self.add(v);
            self.whole.insert(k);
        }
    }
}

/// The split of `plan`'s consumer work, or why there is none.
pub(super) fn row_split(plan: &Plan) -> Result<RowSplit, String> {
    let k = &plan.kloop;
    let mut rows = None;
    for dot in &k.dots {
        let result = dot.result(0).unwrap();
        if !result.r#type().to_string().contains("warpsPerCTA = [4, 1]") {
            return Err("the wgmma layout does not put the warps along the rows".into());
        }
        let dot_rows = first_dim(result.into()).ok_or("no rows")?;
        if rows.is_some_and(|r| r != dot_rows) {
            return Err("the dots have different numbers of rows".into());
        }
        rows = Some(dot_rows);
    }
    let rows = rows.ok_or("no dot")?;
    if rows < 128 || rows % 128 != 0 {
        return Err("fewer than 128 rows".into());
    }

    let mut c = Constraints::default();
    let mut stores = Vec::new();
    let ops: Vec<_> = plan.prologue.iter().copied().chain(consumer_side_ops(plan)).collect();
    for op in &ops {
        let name = name_of(op);
        let operands: Vec<Value> = (0..op.operand_count()).map(|i| op.operand(i).unwrap()).collect();
        let results: Vec<Value> = (0..op.result_count()).map(|i| op.result(i).unwrap().into()).collect();
        match name.as_str() {
            "scf.for" => {
                let body = op.region_at(0).unwrap().first_block().unwrap();
                let yield_op = body.terminator().unwrap();
                for (i, result) in results.iter().enumerate() {
                    c.link(*result, operands[3 + i]);
                    c.link(*result, body.argument(i + 1).unwrap().into());
                    c.link(*result, yield_op.operand(i).unwrap());
                }
            }
            "scf.yield" | "tt.reduce.return" => {}
            "tt.reduce" => {
                let along_rows = int_attribute(op, "axis") == Some(0);
                for (operand, result) in operands.iter().zip(&results) {
                    if along_rows {
                        c.keep_whole(*operand);
                    } else {
                        c.link(*operand, *result);
                    }
                }
            }
            "tt.expand_dims" => {
                if int_attribute(op, "axis") == Some(0) {
                    c.keep_whole(operands[0]);
                    c.keep_whole(results[0]);
                } else {
                    c.link(operands[0], results[0]);
                }
            }
            "tt.broadcast" => {
                if first_dim(operands[0]) == first_dim(results[0]) {
                    c.link(operands[0], results[0]);
                } else {
                    c.keep_whole(operands[0]);
                    c.add(results[0]);
                }
            }
            "tt.splat" | "tt.make_range" | "arith.constant" => {
                if let Some(r) = results.first().filter(|r| is_shaped(**r)) {
                    c.add(*r);
                }
            }
            "ttng.warp_group_dot" => {
                c.link(results[0], operands[0]);
                c.link(results[0], operands[2]);
                c.keep_whole(operands[1]);
            }
            "tt.descriptor_store" => {
                c.add(operands[1]);
                stores.push(*op);
            }
            _ if is_elementwise(&name) => {
                let shaped: Vec<Value> = operands.iter().chain(&results).copied().filter(|v| is_shaped(*v)).collect();
                for pair in shaped.windows(2) {
                    c.link(pair[0], pair[1]);
                }
            }
            _ => {
                for v in operands.iter().chain(&results) {
                    c.keep_whole(*v);
                }
            }
        }
    }

    let seeds: HashSet<usize> = k.dots.iter().map(|d| value_key(d.result(0).unwrap().into())).collect();
    let seed_roots: HashSet<usize> = seeds.iter().map(|s| c.root(*s)).collect();
    let keys: Vec<usize> = c.values.keys().copied().collect();
    let mut values = HashSet::new();
    for key in keys {
        if !seed_roots.contains(&c.root(key)) {
            continue;
        }
        let v = c.values[&key];
        if c.whole.contains(&key) {
            return Err("the split reaches a value that must stay whole".into());
        }
        if first_dim(v) != Some(rows) {
            return Err("the split reaches a value without the tile's rows".into());
        }
        if let Some(def) = crate::ssa::defining_op(v) {
            if name_of(&def) == "arith.constant" && !is_splat(&def) {
                return Err("the split reaches a constant that is not a splat".into());
            }
            let is_ring_tile = k.loads.iter().any(|(_, alloc)| alloc.to_raw().ptr == def.to_raw().ptr);
            let made_before = !crate::ssa::is_ancestor(&plan.marked, def);
            if MemDesc::of(v.r#type()).is_some() && !is_ring_tile && !made_before {
                return Err("the split reaches a shared-memory view".into());
            }
        }
        values.insert(key);
    }
    for store in stores {
        let store = DescriptorStoreOp::of(store).expect("a descriptor store");
        if !values.contains(&value_key(store.src())) {
            continue;
        }
        let made_on_device = crate::ssa::defining_op(store.desc())
            .is_some_and(|d| name_of(&d) == "tt.make_tensor_descriptor" && !crate::ssa::is_ancestor(&plan.marked, d));
        if !made_on_device {
            return Err("the tile is stored through a host-side descriptor".into());
        }
    }
    Ok(RowSplit { rows, values })
}

/// Whether a constant is one value everywhere (so that half of it is the
/// same value with half the rows).
fn is_splat(constant: &melior::ir::OperationRef) -> bool {
    constant.attribute("value").is_ok_and(|a| {
        let text = a.to_string();
        text.strip_prefix("dense<").is_some_and(|rest| !rest.starts_with('['))
    })
}

//! Layout attributes as `tritium_layout::Layout` values (cached: reading an
//! attribute goes through C++), and the transfer functions of ops: the
//! layout of an op's result given its operand's (`infer_dst_encoding`) and
//! back (`infer_src_encoding`), as upstream's `inferDstEncoding` and
//! `inferSrcEncoding` in TritonGPU/Transforms/Utility.cpp.
use super::ir::{attribute_key, dense_i32s, op_name, shape_of, Key};
use super::ops::{has_same_load_store_encoding, has_same_operands_and_result_encoding};
use crate::op_traits::has_elementwise_trait;
use melior::ir::{operation::OperationLike, Attribute, Location, OperationRef, ValueLike};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::layout::{attribute_of, layout_of};
use tritium_dialects::views::{JoinOp, SrcOp};
use tritium_layout::infer::{self, InferResult};
use tritium_layout::{Layout, Slice};

/// The layout an attribute denotes, if it is a ttg layout.
pub(super) fn layout(attribute: Attribute) -> Option<Layout> {
    layout_of(attribute).ok()
}

/// Upstream `getTotalElemsPerThread`.
pub(super) fn total_elems_per_thread(layout: &Layout, shape: &[i64]) -> Option<u64> {
    layout.total_elems_per_thread(shape).ok()
}

/// Reads and builds layout attributes, remembering both directions.
pub(super) struct Layouts<'c> {
    location: Location<'c>,
    read: HashMap<Key, Option<Layout>>,
    built: HashMap<Layout, Attribute<'c>>,
}

impl<'c> Layouts<'c> {
    /// `location` is where invalid layouts (a bug) would be reported.
    pub(super) fn new(location: Location<'c>) -> Self {
        Layouts { location, read: HashMap::new(), built: HashMap::new() }
    }

    pub(super) fn get(&mut self, attribute: Attribute<'c>) -> Option<Layout> {
        let entry = self.read.entry(attribute_key(attribute)).or_insert_with(|| layout(attribute));
        if let Some(layout) = entry {
            self.built.entry(layout.clone()).or_insert(attribute);
        }
        entry.clone()
    }

    /// The attribute of `layout` (the one the IR already uses, if any).
    pub(super) fn attribute(&mut self, layout: &Layout) -> Option<Attribute<'c>> {
        if let Some(attribute) = self.built.get(layout) {
            return Some(*attribute);
        }
        let attribute = attribute_of(layout, self.location)?;
        self.built.insert(layout.clone(), attribute);
        self.read.insert(attribute_key(attribute), Some(layout.clone()));
        Some(attribute)
    }

    pub(super) fn is_blocked(&mut self, attribute: Attribute<'c>) -> bool {
        matches!(self.get(attribute), Some(Layout::Blocked(_)))
    }

    fn slice_of(&mut self, dim: u32, parent: Attribute<'c>) -> Option<Attribute<'c>> {
        let parent = self.get(parent)?;
        if !parent.is_distributed() {
            return None;
        }
        self.attribute(&Layout::Slice(Slice { dim, parent: Box::new(parent) }))
    }

    /// The parent of a slice layout along `dim`.
    fn unsliced(&mut self, attribute: Attribute<'c>, dim: u32) -> Option<Attribute<'c>> {
        match self.get(attribute)? {
            Layout::Slice(slice) if slice.dim == dim => self.attribute(&slice.parent),
            _ => None,
        }
    }

    /// The attribute of what `rule` (one of `tritium_layout::infer`'s)
    /// makes of `attribute`'s layout. Only distributed layouts move through
    /// ops (tensors do not carry shared ones); where the rule finds no
    /// layout, nothing moves.
    fn map(
        &mut self,
        attribute: Attribute<'c>,
        rule: impl FnOnce(&Layout) -> InferResult<Layout>,
    ) -> Option<Attribute<'c>> {
        let layout = self.get(attribute)?;
        if !layout.is_distributed() {
            return None;
        }
        let result = rule(&layout).ok()?;
        self.attribute(&result)
    }

    /// The layout of `op`'s results when its operands have `encoding`
    /// (upstream `inferDstEncoding`); `None` where the op does not transfer
    /// layouts.
    pub(super) fn infer_dst_encoding(
        &mut self,
        op: &OperationRef<'c, '_>,
        encoding: Attribute<'c>,
    ) -> Option<Attribute<'c>> {
        let name = op_name(op);
        if name == "tt.scan" && !self.is_blocked(encoding) {
            return None;
        }
        if keeps_operand_encoding(&name) || name == "scf.for" {
            return Some(encoding);
        }
        match name.as_str() {
            "tt.reduce" => self.slice_of(axis(op)?, encoding),
            "tt.expand_dims" => self.unsliced(encoding, axis(op)?),
            "tt.join" => {
                let shape = source_shape(op)?;
                self.map(encoding, |l| infer::joined(l, &shape))
            }
            "tt.split" => {
                let shape = source_shape(op)?;
                self.map(encoding, |l| infer::split_halves(l, &shape))
            }
            "tt.trans" => {
                let (shape, order) = (source_shape(op)?, permutation(op)?);
                self.map(encoding, |l| infer::transposed(l, &shape, &order))
            }
            "tt.reshape" => {
                if crate::ir::is_set(op.attribute("allow_reorder").ok()) {
                    return None;
                }
                let (src, dst) = (source_shape(op)?, result_shape(op)?);
                self.map(encoding, |l| infer::reshaped(&src, l, &dst))
            }
            // The result follows the indices.
            "tt.gather" => Some(encoding),
            "ttg.fp4_to_fp" => {
                let (shape, axis) = (source_shape(op)?, axis(op)? as usize);
                self.map(encoding, |l| infer::fp4_unpacked_result(l, &shape, axis))
            }
            _ => None,
        }
    }

    /// The layout `op`'s operands need for its results to have `encoding`
    /// (upstream `inferSrcEncoding`).
    pub(super) fn infer_src_encoding(
        &mut self,
        op: &OperationRef<'c, '_>,
        encoding: Attribute<'c>,
    ) -> Option<Attribute<'c>> {
        let name = op_name(op);
        if name == "tt.scan" && !self.is_blocked(encoding) {
            return None;
        }
        if keeps_operand_encoding(&name) {
            return Some(encoding);
        }
        match name.as_str() {
            "tt.reduce" => self.unsliced(encoding, axis(op)?),
            "tt.expand_dims" => self.slice_of(axis(op)?, encoding),
            // A join is undone by a split and the other way round.
            "tt.join" => {
                let shape = result_shape(op)?;
                self.map(encoding, |l| infer::split_halves(l, &shape))
            }
            "tt.split" => {
                let shape = result_shape(op)?;
                self.map(encoding, |l| infer::joined(l, &shape))
            }
            "tt.trans" => {
                let (shape, order) = (result_shape(op)?, permutation(op)?);
                let inverse = infer::inverse_permutation(&order);
                self.map(encoding, |l| infer::transposed(l, &shape, &inverse))
            }
            "tt.reshape" => {
                if crate::ir::is_set(op.attribute("allow_reorder").ok()) {
                    return None;
                }
                let (src, dst) = (source_shape(op)?, result_shape(op)?);
                self.map(encoding, |l| infer::reshaped(&dst, l, &src))
            }
            "tt.gather" => Some(encoding),
            "ttg.fp4_to_fp" => {
                let (shape, axis) = (result_shape(op)?, axis(op)? as usize);
                self.map(encoding, |l| infer::fp4_packed_source(l, &shape, axis))
            }
            _ => None,
        }
    }
}

/// Ops whose operands and results share one layout, in both directions.
fn keeps_operand_encoding(name: &str) -> bool {
    has_same_operands_and_result_encoding(name)
        || has_same_load_store_encoding(name)
        || has_elementwise_trait(name)
        || matches!(name, "scf.while" | "scf.yield" | "scf.condition" | "ttng.warp_group_dot_wait")
}

fn axis(op: &OperationRef) -> Option<u32> {
    crate::ir::int_attribute(op, "axis").and_then(|a| u32::try_from(a).ok())
}

fn permutation(op: &OperationRef) -> Option<Vec<usize>> {
    dense_i32s(op.attribute("order").ok()?)?.into_iter().map(|d| usize::try_from(d).ok()).collect()
}

/// The shape of `op`'s source tensor: its `src`, or a join's `lhs` (the
/// `rhs` has the same).
fn source_shape(op: &OperationRef) -> Option<Vec<i64>> {
    let source = match JoinOp::of(*op) {
        Some(join) => join.lhs(),
        None => SrcOp::of(*op)?.src(),
    };
    shape_of(source.r#type())
}

fn result_shape(op: &OperationRef) -> Option<Vec<i64>> {
    shape_of(op.result_at(0).ok()?.r#type())
}

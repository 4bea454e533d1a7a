//! Shared-memory alias analysis (upstream's SharedMemoryAliasAnalysis): for
//! every memdesc value of a function, the `ttg.local_alloc`s whose buffer it
//! may be. An allocation is its own buffer; a view (memdesc_index,
//! subslice, trans, reshape, reinterpret) is its source's; values that flow
//! through control flow (scf.for iter_args and results, scf.if and
//! scf.while results, `cf` block arguments, warp-specialize captures and
//! default-region results) may be any of the values that reach them.
//! Anything else (function arguments, results of other ops, `ub.poison`)
//! is no known buffer.
//!
//! Computed as a fixed point over the function's ops in program order.
//! Unlike upstream's data-flow solver, every block is taken as reachable
//! (upstream skips code that constant propagation proves dead).
use crate::ir::{collect_ops, name_of, Order, MEMDESC_VIEWS};
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Value, ValueLike};
use std::collections::{BTreeSet, HashMap};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{block_arguments, dense_i32_attribute, value_key, Key};
use tritium_dialects::types::MemDesc;

/// The allocations each value may alias, by the allocation's result.
pub struct Aliases<'c, 'a> {
    sets: HashMap<Key, BTreeSet<Key>>,
    allocations: HashMap<Key, Value<'c, 'a>>,
}

impl<'c, 'a> Aliases<'c, 'a> {
    /// Runs the analysis over `function` (and every region in it).
    pub fn of(function: OperationRef<'c, 'a>) -> Self {
        let mut aliases = Aliases { sets: HashMap::new(), allocations: HashMap::new() };
        let ops = collect_ops(function, Order::Pre);
        loop {
            let mut changed = false;
            for op in &ops {
                changed |= aliases.visit(op);
            }
            if !changed {
                return aliases;
            }
        }
    }

    /// The allocations (their results) `value` may be, in no set order.
    pub fn allocations_of(&self, value: Value) -> Vec<Value<'c, 'a>> {
        self.sets
            .get(&value_key(value))
            .map(|set| set.iter().map(|key| self.allocations[key]).collect())
            .unwrap_or_default()
    }

    fn set_of(&self, value: Value) -> BTreeSet<Key> {
        self.sets.get(&value_key(value)).cloned().unwrap_or_default()
    }

    /// Adds what `from` may alias to `to`; says whether `to` grew.
    fn flow(&mut self, from: Value, to: Value) -> bool {
        let incoming = self.set_of(from);
        if incoming.is_empty() {
            return false;
        }
        let set = self.sets.entry(value_key(to)).or_default();
        let before = set.len();
        set.extend(incoming);
        set.len() != before
    }

    /// Flows `from[i]` into `to[i]` for each pair.
    fn flow_all(&mut self, from: &[Value<'c, 'a>], to: &[Value<'c, 'a>]) -> bool {
        let mut changed = false;
        for (f, t) in from.iter().zip(to) {
            changed |= self.flow(*f, *t);
        }
        changed
    }

    fn visit(&mut self, op: &OperationRef<'c, 'a>) -> bool {
        let name = name_of(op);
        let results: Vec<Value> = op.results().map(Into::into).collect();
        let operands: Vec<Value> = op.operands().collect();
        let region_block = |index: usize| op.region_at(index).ok().and_then(|r| r.first_block());
        let yielded = |block: Option<BlockRef<'c, 'a>>| -> Vec<Value<'c, 'a>> {
            block.and_then(|b| b.terminator()).map(|t| t.operands().collect()).unwrap_or_default()
        };
        match name.as_str() {
            "ttg.local_alloc" => {
                let result = results[0];
                if !in_shared_memory(result) || self.sets.contains_key(&value_key(result)) {
                    return false;
                }
                self.allocations.insert(value_key(result), result);
                self.sets.insert(value_key(result), BTreeSet::from([value_key(result)]));
                true
            }
            _ if MEMDESC_VIEWS.contains(&name.as_str()) => {
                !results.is_empty() && in_shared_memory(results[0]) && self.flow(operands[0], results[0])
            }
            "scf.for" => {
                // Iter_args and results: the inits and what the body yields.
                let inits = &operands[3..];
                let arguments = region_block(0).map(|b| block_arguments(&b)).unwrap_or_default();
                let carried = arguments.get(1..).unwrap_or_default().to_vec();
                let next = yielded(region_block(0));
                self.flow_all(inits, &carried)
                    | self.flow_all(&next, &carried)
                    | self.flow_all(inits, &results)
                    | self.flow_all(&next, &results)
            }
            "scf.if" => {
                let then_values = yielded(region_block(0));
                let else_values = yielded(region_block(1));
                self.flow_all(&then_values, &results) | self.flow_all(&else_values, &results)
            }
            "scf.while" => {
                // before(args) <- inits, after's yield; after(args) and results <- condition's values.
                let before = region_block(0).map(|b| block_arguments(&b)).unwrap_or_default();
                let after = region_block(1).map(|b| block_arguments(&b)).unwrap_or_default();
                let condition = yielded(region_block(0));
                let forwarded = condition.get(1..).unwrap_or_default().to_vec();
                let next = yielded(region_block(1));
                self.flow_all(&operands, &before)
                    | self.flow_all(&next, &before)
                    | self.flow_all(&forwarded, &after)
                    | self.flow_all(&forwarded, &results)
            }
            "ttg.warp_specialize" => {
                // Partitions take the captures; the results are the default region's.
                let mut changed = self.flow_all(&yielded(region_block(0)), &results);
                if let Some(partitions) = region_block(1).and_then(|b| b.first_operation()) {
                    for region in partitions.regions() {
                        if let Some(body) = region.first_block() {
                            changed |= self.flow_all(&operands, &block_arguments(&body));
                        }
                    }
                }
                changed
            }
            "cf.br" => match op.successor(0).ok() {
                Some(target) => self.flow_all(&operands, &block_arguments(&target)),
                None => false,
            },
            "cf.cond_br" => {
                // Operands: condition, the true target's, the false target's.
                let sizes = dense_i32_attribute(op, "operandSegmentSizes").unwrap_or_default();
                let (Some(&true_count), Some(&false_count)) = (sizes.get(1), sizes.get(2)) else { return false };
                let (true_count, false_count) = (true_count as usize, false_count as usize);
                let true_operands = operands[1..1 + true_count].to_vec();
                let false_operands = operands[1 + true_count..1 + true_count + false_count].to_vec();
                let mut changed = false;
                for (index, values) in [(0, true_operands), (1, false_operands)] {
                    if let Ok(target) = op.successor(index) {
                        changed |= self.flow_all(&values, &block_arguments(&target));
                    }
                }
                changed
            }
            _ => false,
        }
    }
}

/// Whether `value` is a memdesc of shared memory (the analysis leaves
/// tensor memory alone).
fn in_shared_memory(value: Value) -> bool {
    MemDesc::of(value.r#type()).is_some_and(|m| !m.memory_space.to_string().contains("tensor_memory"))
}

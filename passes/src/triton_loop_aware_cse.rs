//! `triton-loop-aware-cse` (upstream LoopAwareCSE.cpp): CSE that also merges
//! loop-carried values. Two iter_args of an `scf.for` are the same value when
//! they start from the same value and the values yielded for them are
//! computed the same way from equal values, assuming, to break the cycle,
//! that the two iter_args themselves are equal. Such iter_args are merged (the
//! later ones yield themselves and their results are replaced), then CSE and
//! `scf.for`'s canonicalization clean up.
use crate::{
    greedy::{apply_canonicalization_patterns, FOR_OP_PATTERNS},
    ir::{collect_ops, name_of, replace_all_uses, Order},
    op_traits::is_memory_effect_free,
    pattern_driver::run_pipeline,
    ssa::{argument_number, block_arguments, defining_op, entry_block, parent_block, result_number, set_operand},
};
use melior::ir::{
    operation::OperationLike, Attribute, BlockLike, BlockRef, Identifier, OperationRef, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-loop-aware-cse",
    description: "CSE that also merges equivalent loop-carried values of scf.for",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    // Loop-carried values are compared by identity outside the loop: plain
    // CSE first makes equal values outside loops identical.
    run_pipeline(module, "builtin.module(cse)")?;
    for op in collect_ops(module, Order::Post) {
        if name_of(&op) == "scf.for" {
            merge_equivalent_iter_args(op);
        }
    }
    run_pipeline(module, "builtin.module(cse)")?;
    apply_canonicalization_patterns(module, FOR_OP_PATTERNS, &[])
}

/// The parts of an `scf.for` the comparison reads.
struct Loop<'c, 'a> {
    body: BlockRef<'c, 'a>,
    induction: Value<'c, 'a>,
    inits: Vec<Value<'c, 'a>>,
    iter_args: Vec<Value<'c, 'a>>,
    yielded: Vec<Value<'c, 'a>>,
    /// Pairs of iter_args assumed equal while their equality is checked.
    assumed: Vec<(usize, usize)>,
}

impl<'c, 'a> Loop<'c, 'a> {
    fn of(op: &OperationRef<'c, 'a>) -> Option<Self> {
        let body = entry_block(op, 0)?;
        let arguments = block_arguments(&body);
        let (induction, iter_args) = arguments.split_first()?;
        let terminator = body.terminator()?;
        Some(Self {
            body,
            induction: *induction,
            inits: op.operands().skip(3).collect(),
            iter_args: iter_args.to_vec(),
            yielded: terminator.operands().collect(),
            assumed: Vec::new(),
        })
    }

    fn iter_args_equal(&mut self, i: usize, j: usize) -> bool {
        if i == j {
            return true;
        }
        if self.inits[i] != self.inits[j] {
            return false;
        }
        if self.assumed.contains(&(i, j)) {
            return true;
        }
        self.assumed.push((i, j));
        let equal = self.equal_in_loop(self.yielded[i], self.yielded[j]);
        self.assumed.pop();
        equal
    }

    fn equal_in_loop(&mut self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> bool {
        if a == b {
            return true;
        }
        if a.r#type() != b.r#type() {
            return false;
        }
        // Values from outside the loop body are equal only if identical.
        if parent_block(a) != Some(self.body) || parent_block(b) != Some(self.body) {
            return false;
        }
        if a.is_block_argument() != b.is_block_argument() || a == self.induction || b == self.induction {
            return false;
        }
        if let (Some(i), Some(j)) = (argument_number(a), argument_number(b)) {
            return self.iter_args_equal(i - 1, j - 1);
        }
        let (Some(a_op), Some(b_op)) = (defining_op(a), defining_op(b)) else { return false };
        if result_number(a) != result_number(b) {
            return false;
        }
        // Only ops without effects compute the same value twice.
        if !is_memory_effect_free(&a_op) || !is_memory_effect_free(&b_op) {
            return false;
        }
        if a_op.region_count() > 0 || b_op.region_count() > 0 {
            return false;
        }
        self.equivalent_ops(&a_op, &b_op)
    }

    /// MLIR's `OperationEquivalence::isEquivalentTo` ignoring locations, with
    /// operands compared by [`Self::equal_in_loop`].
    fn equivalent_ops(&mut self, a: &OperationRef<'c, 'a>, b: &OperationRef<'c, 'a>) -> bool {
        if a == b {
            return true;
        }
        if a.name() != b.name()
            || a.operand_count() != b.operand_count()
            || a.result_count() != b.result_count()
            || a.successor_count() != b.successor_count()
            || !same_attributes(a, b)
            || !a.results().map(|r| r.r#type()).eq(b.results().map(|r| r.r#type()))
        {
            return false;
        }
        let pairs: Vec<(Value, Value)> = a.operands().zip(b.operands()).collect();
        pairs.into_iter().all(|(x, y)| self.equal_in_loop(x, y))
    }
}

/// Whether two ops have the same attributes, inherent and discardable.
fn same_attributes<'c, 'a>(a: &OperationRef<'c, 'a>, b: &OperationRef<'c, 'a>) -> bool {
    let sorted = |op: &OperationRef<'c, 'a>| {
        let mut attributes: Vec<(String, Attribute<'c>)> = op
            .attributes()
            .map(|(name, value): (Identifier, _)| (tritium_dialects::access::identifier_text(name), value))
            .collect();
        attributes.sort_by(|x, y| x.0.cmp(&y.0));
        attributes
    };
    a.attribute_count() == b.attribute_count() && sorted(a) == sorted(b)
}

/// Merges the iter_args of `op` that always hold equal values.
fn merge_equivalent_iter_args(op: OperationRef) {
    let Some(mut lp) = Loop::of(&op) else { return };
    let count = lp.iter_args.len();
    // Union-find over iter_arg indices; every class is led by its smallest.
    let mut leader: Vec<usize> = (0..count).collect();
    fn find(leader: &mut [usize], i: usize) -> usize {
        let mut root = i;
        while leader[root] != root {
            root = leader[root];
        }
        leader[i] = root;
        root
    }
    for i in 0..count {
        for j in i + 1..count {
            if lp.iter_args_equal(i, j) {
                let (a, b) = (find(&mut leader, i), find(&mut leader, j));
                leader[a.max(b)] = a.min(b);
            }
        }
    }
    let Some(terminator) = lp.body.terminator() else { return };
    for j in 0..count {
        let first = find(&mut leader, j);
        if first == j {
            continue;
        }
        let (unique, other) = (lp.iter_args[first], lp.iter_args[j]);
        replace_all_uses(other, unique);
        // The merged iter_arg yields itself; the canonicalizer drops it.
        set_operand(&terminator, j, other);
        let (Ok(kept), Ok(dropped)) = (op.result_at(first), op.result_at(j)) else { continue };
        replace_all_uses(dropped.into(), kept.into());
    }
}

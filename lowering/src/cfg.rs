//! The blocks of a kernel with unstructured control flow. Upstream's TTIR
//! keeps an early `if cond: return` as `cf.cond_br`/`cf.br` between blocks of
//! the `tt.func`; each block becomes a block of the `llvm.func`, whose
//! arguments are the registers of the old block's arguments, flattened.
//! Blocks are lowered in reverse post-order, so that a value is lowered
//! before its uses (its block dominates theirs), and values the lowering
//! caches across ops are reused only in blocks their block dominates.
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, RegionLike, RegionRef};
use std::collections::HashMap;
use tritium_dialects::ir::handles::BlockHandle;

#[derive(Default)]
pub struct KernelBlocks {
    /// The kernel's reachable blocks in reverse post-order (entry first).
    pub order: Vec<BlockHandle>,
    index: HashMap<usize, usize>,
    /// The llvm block each kernel block is lowered into, and the register
    /// count of each of its arguments.
    pub lowered: Vec<(BlockHandle, Vec<usize>)>,
    /// `dominators[b][a]`: block `a` dominates block `b` (indices in `order`).
    dominators: Vec<Vec<bool>>,
    /// The block being lowered.
    pub current: usize,
}

fn successors(block: BlockRef) -> Vec<BlockHandle> {
    block.terminator().map(|t| t.successors().map(|s| s.to_raw()).collect()).unwrap_or_default()
}

impl KernelBlocks {
    /// A kernel of one block (what the analysis of an empty region gives too).
    pub fn single() -> KernelBlocks {
        KernelBlocks { dominators: vec![vec![true]], ..Default::default() }
    }

    pub fn of(region: RegionRef) -> KernelBlocks {
        let Some(entry) = region.first_block() else { return KernelBlocks::single() };
        // Post-order by an explicit DFS, then reversed.
        let mut post = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<(BlockHandle, usize)> = vec![(entry.to_raw(), 0)];
        seen.insert(entry.to_raw().ptr as usize);
        while let Some((block, next)) = stack.pop() {
            let succ = successors(unsafe { BlockRef::from_raw(block) });
            if next < succ.len() {
                stack.push((block, next + 1));
                let s = succ[next];
                if seen.insert(s.ptr as usize) {
                    stack.push((s, 0));
                }
            } else {
                post.push(block);
            }
        }
        post.reverse();
        let order = post;
        let index: HashMap<usize, usize> = order.iter().enumerate().map(|(i, b)| (b.ptr as usize, i)).collect();
        let n = order.len();
        let mut predecessors = vec![Vec::new(); n];
        for (i, block) in order.iter().enumerate() {
            for s in successors(unsafe { BlockRef::from_raw(*block) }) {
                predecessors[index[&(s.ptr as usize)]].push(i);
            }
        }
        // Iterative dominator sets: dom(b) = {b} + the meet of dom(p) over b's predecessors.
        let mut dominators = vec![vec![true; n]; n];
        dominators[0] = (0..n).map(|i| i == 0).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                let mut new = vec![true; n];
                for p in &predecessors[b] {
                    for (x, d) in new.iter_mut().zip(&dominators[*p]) {
                        *x &= *d;
                    }
                }
                new[b] = true;
                if new != dominators[b] {
                    dominators[b] = new;
                    changed = true;
                }
            }
        }
        KernelBlocks { order, index, lowered: Vec::new(), dominators, current: 0 }
    }

    /// Whether block `a` dominates block `b`.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.dominators.get(b).and_then(|d| d.get(a)).copied().unwrap_or(a == b)
    }

    /// The llvm block a kernel block is lowered into, with its arguments' register counts.
    pub fn lowered_block(&self, block: BlockHandle) -> Option<&(BlockHandle, Vec<usize>)> {
        self.index.get(&(block.ptr as usize)).and_then(|i| self.lowered.get(*i))
    }
}

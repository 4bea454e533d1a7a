//! Shared-memory offsets for buffers with live ranges, as upstream Triton's
//! `Allocation::computeOffsets` assigns them (lib/Analysis/Allocation.cpp):
//! the buffers, largest first (ties in the caller's order), get starting
//! offsets from the "triples" heuristic (Gergov's algorithm: each placed
//! buffer opens a slot above it for the part of the live range it shares
//! with the slot it took), then rounds of first-fit graph colouring move
//! every buffer that still overlaps another one (live at the same time, or
//! able to run at the same time) above the buffers it overlaps, until none
//! does. Kept free of MLIR so that it is tested in milliseconds; the pass
//! (allocate-shared-memory-nv) supplies live ranges and concurrency.

/// One buffer to place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedBuffer {
    pub size: usize,
    pub alignment: usize,
    /// Live range, half-open: [start, end).
    pub start: usize,
    pub end: usize,
    /// Buffers with the same `group` but a different `region` may be live at
    /// the same time whatever their ranges (regions of one
    /// `ttg.warp_specialize`: the group is the op, the region the one that
    /// directly holds the buffer's owner).
    pub concurrency: Option<(usize, usize)>,
}

fn intersects(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

fn align(offset: usize, alignment: usize) -> usize {
    offset.div_ceil(alignment.max(1)) * alignment.max(1)
}

/// The offsets of `buffers` (in their order) and the total size.
pub fn compute_offsets(buffers: &[SharedBuffer]) -> (Vec<usize>, usize) {
    let mut order: Vec<usize> = (0..buffers.len()).collect();
    // Stable: equal sizes keep the caller's order.
    order.sort_by_key(|&b| std::cmp::Reverse(buffers[b].size));
    let mut offsets = vec![0usize; buffers.len()];
    calculate_starts(buffers, &order, &mut offsets);
    let mut interference = interference_graph(buffers, &order, &offsets);
    loop {
        let total = colour(buffers, &order, &interference, &mut offsets);
        interference = interference_graph(buffers, &order, &offsets);
        if interference.iter().all(|n| n.is_empty()) {
            return (offsets, total);
        }
    }
}

/// Starting offsets: a multimap of free slots (offset -> live range), taken
/// lowest offset first (equal offsets in insertion order); a slot goes to the
/// first buffer whose range meets the slot's and no other open slot's.
fn calculate_starts(buffers: &[SharedBuffer], order: &[usize], offsets: &mut [usize]) {
    let mut slots: Vec<(usize, (usize, usize))> = vec![(0, (0, usize::MAX))];
    let mut pending: Vec<usize> = order.to_vec();
    while !pending.is_empty() {
        // The lowest offset, the first inserted among equal ones.
        let Some(first) = (0..slots.len()).min_by_key(|&i| (slots[i].0, i)) else {
            // No slot left (upstream reads past its map here): the colouring
            // rounds place what is left.
            break;
        };
        let (offset, range) = slots.remove(first);
        let chosen = pending.iter().position(|&b| {
            let live = (buffers[b].start, buffers[b].end);
            intersects(live, range) && slots.iter().all(|(_, other)| !intersects(*other, live))
        });
        let Some(index) = chosen else { continue };
        let b = pending.remove(index);
        let buffer = &buffers[b];
        let aligned = align(offset, buffer.alignment);
        offsets[b] = aligned;
        slots.push((aligned + buffer.size, (range.0.max(buffer.start), range.1.min(buffer.end))));
        if range.0 < buffer.start {
            slots.push((offset, (range.0, buffer.end)));
        }
        if buffer.end < range.1 {
            slots.push((offset, (buffer.start, range.1)));
        }
    }
}

/// For each buffer, the buffers whose bytes overlap its own while both may
/// be live (ranges meeting, or concurrent regions of one warp_specialize).
fn interference_graph(buffers: &[SharedBuffer], order: &[usize], offsets: &[usize]) -> Vec<Vec<usize>> {
    let mut graph = vec![Vec::new(); buffers.len()];
    for &x in order {
        for &y in order {
            if x == y {
                continue;
            }
            let (bx, by) = (&buffers[x], &buffers[y]);
            let bytes = intersects((offsets[x], offsets[x] + bx.size), (offsets[y], offsets[y] + by.size));
            let live = intersects((bx.start, bx.end), (by.start, by.end));
            let concurrent = matches!((bx.concurrency, by.concurrency),
                (Some((gx, rx)), Some((gy, ry))) if gx == gy && rx != ry);
            if bytes && (live || concurrent) {
                graph[x].push(y);
            }
        }
    }
    graph
}

/// One round of first-fit colouring: colour 0 stays, every other buffer
/// moves above the buffers it overlaps. Returns the total size.
fn colour(buffers: &[SharedBuffer], order: &[usize], graph: &[Vec<usize>], offsets: &mut [usize]) -> usize {
    let mut colours: Vec<Option<usize>> = vec![None; buffers.len()];
    if let Some(&first) = order.first() {
        colours[first] = Some(0);
    }
    for &x in order {
        let mut available = vec![true; buffers.len()];
        for &y in &graph[x] {
            if let Some(c) = colours[y] {
                available[c] = false;
            }
        }
        colours[x] = Some(available.iter().position(|&a| a).unwrap_or(buffers.len()));
    }
    let mut total = 0;
    for &x in order {
        let above = graph[x].iter().map(|&y| offsets[y] + buffers[y].size).max().unwrap_or(0);
        if colours[x] != Some(0) {
            offsets[x] = align(above, buffers[x].alignment);
        }
        total = total.max(offsets[x] + buffers[x].size);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(size: usize, start: usize, end: usize) -> SharedBuffer {
        SharedBuffer { size, alignment: 16, start, end, concurrency: None }
    }

    fn overlapping(buffers: &[SharedBuffer], offsets: &[usize]) -> bool {
        (0..buffers.len()).any(|x| {
            (0..buffers.len()).any(|y| {
                let (a, b) = (&buffers[x], &buffers[y]);
                x != y
                    && intersects((a.start, a.end), (b.start, b.end))
                    && intersects((offsets[x], offsets[x] + a.size), (offsets[y], offsets[y] + b.size))
            })
        })
    }

    #[test]
    fn disjoint_live_ranges_share_bytes() {
        let buffers = [buffer(1024, 0, 5), buffer(1024, 5, 9)];
        let (offsets, total) = compute_offsets(&buffers);
        assert_eq!(offsets, vec![0, 0]);
        assert_eq!(total, 1024);
    }

    #[test]
    fn live_together_stack_up_largest_first() {
        let buffers = [buffer(512, 0, 9), buffer(1024, 1, 9), buffer(256, 2, 9)];
        let (offsets, total) = compute_offsets(&buffers);
        assert_eq!(offsets, vec![1024, 0, 1536]);
        assert_eq!(total, 1792);
    }

    #[test]
    fn concurrent_regions_never_share() {
        let mut a = buffer(1024, 0, 3);
        let mut b = buffer(1024, 5, 9);
        a.concurrency = Some((7, 1));
        b.concurrency = Some((7, 2));
        let (offsets, total) = compute_offsets(&[a, b]);
        assert_ne!(offsets[0], offsets[1]);
        assert_eq!(total, 2048);
    }

    #[test]
    fn alignment_is_kept() {
        let mut big = buffer(100, 0, 9);
        big.alignment = 1;
        let mut aligned = buffer(64, 0, 9);
        aligned.alignment = 128;
        let (offsets, _) = compute_offsets(&[big, aligned]);
        assert_eq!(offsets, vec![0, 128]);
    }

    /// No two buffers live at the same time overlap, whatever the ranges.
    #[test]
    fn never_overlaps_on_pseudo_random_inputs() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..500 {
            let count = 1 + next(12);
            let buffers: Vec<SharedBuffer> = (0..count)
                .map(|_| {
                    let start = next(20);
                    SharedBuffer {
                        size: 16 * (1 + next(64)),
                        alignment: [1, 16, 128, 1024][next(4)],
                        start,
                        end: start + 1 + next(10),
                        concurrency: None,
                    }
                })
                .collect();
            let (offsets, total) = compute_offsets(&buffers);
            assert!(!overlapping(&buffers, &offsets), "{buffers:?} -> {offsets:?}");
            for (b, o) in buffers.iter().zip(&offsets) {
                assert_eq!(o % b.alignment, 0);
                assert!(o + b.size <= total);
            }
        }
    }
}

//! tt.scan (tl.cumsum, tl.cumprod, tl.associative_scan, any number of
//! operands, forward or reverse), as upstream's ScanOpToLLVM: an inclusive
//! scan of each thread's contiguous run along the axis, a Hillis-Steele scan
//! of the run totals across the lanes along the axis (`shfl.sync.up`), then
//! across the warps along the axis through the op's scratch in shared
//! memory (or, when one warp holds the axis, by carrying the total of each
//! tile of the layout to the next one with a shuffle).
//!
//! Positions along the axis come from the linear layout: a blocked layout
//! puts the axis's low bits in registers (a thread's run), then lanes, then
//! warps, then registers again (the layout's repetitions, "blocks"). The
//! combiner need not be commutative: earlier positions always come first.
//! A reverse scan is the same scan over mirrored positions (lanes shuffle
//! down instead of up, runs, warps and blocks are walked backwards), where
//! upstream flips the values around a forward scan with shuffles.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::{apply_linear, thread_linear, TensorLayout},
    ops::{
        reduce::combine,
        warp::{load_shared, representative, shuffle, store_shared, Shuffle},
    },
};
use melior::ir::{operation::OperationLike, BlockRef, OperationRef, RegionLike, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::ReductionOp;

/// Where the elements of the axis live, read off the layout.
struct ScanPlan {
    /// Lanes along the axis (`lanes`, a power of two) are the lane-id bits
    /// from `lane_shift` up.
    lanes: u32,
    lane_shift: u32,
    /// Warps along the axis, and each warp-id bit's contribution to the
    /// warp's index along the axis.
    warps: u32,
    warp_axis_values: Vec<u32>,
    /// Threads that scan different parts of the tensor (different positions
    /// off the axis): each lane and warp bit's contribution to the thread's
    /// index among them, and their count.
    parallel_lane_values: Vec<u32>,
    parallel_warp_values: Vec<u32>,
    parallel: u32,
    /// A thread's runs: registers in axis order; runs of one series (same
    /// place off the axis) are listed by block, in axis order.
    series: Vec<Vec<Vec<usize>>>,
    /// For each register, the register holding the same element that the
    /// scan computes (itself unless the layout repeats it).
    representative: Vec<usize>,
}

/// How a basis of the layout moves along the axis.
enum Step {
    Broadcast,
    Off,
    Along(u32),
}

fn step(basis: &[u32], axis: usize) -> std::result::Result<Step, String> {
    let along = basis[axis];
    let off = basis.iter().enumerate().any(|(d, x)| d != axis && *x != 0);
    match (along, off) {
        (0, false) => Ok(Step::Broadcast),
        (0, true) => Ok(Step::Off),
        (a, false) if a.is_power_of_two() => Ok(Step::Along(a)),
        _ => Err("the layout mixes the scan axis with other dimensions".into()),
    }
}

impl ScanPlan {
    fn new(layout: &TensorLayout, axis: usize) -> std::result::Result<ScanPlan, String> {
        let register_bases: Vec<Vec<u32>> =
            layout.linear.bases(&tritium_layout::Dim::Register).cloned().unwrap_or_default();
        // (axis value, kind: 0 register, 1 lane, 2 warp, bit)
        let mut along = Vec::new();
        let mut parallel_lane_values = vec![0; layout.lane_bases.len()];
        let mut parallel_warp_values = vec![0; layout.warp_bases.len()];
        let mut parallel_bits = 0u32;
        for (kind, bases) in [(0, &register_bases), (1, &layout.lane_bases), (2, &layout.warp_bases)] {
            for (bit, basis) in bases.iter().enumerate() {
                match step(basis, axis)? {
                    Step::Along(value) => along.push((value, kind, bit)),
                    Step::Off if kind == 1 => {
                        parallel_lane_values[bit] = 1 << parallel_bits;
                        parallel_bits += 1;
                    }
                    Step::Off if kind == 2 => {
                        parallel_warp_values[bit] = 1 << parallel_bits;
                        parallel_bits += 1;
                    }
                    _ => {}
                }
            }
        }
        along.sort();
        // The kinds in axis order must be registers, lanes, warps, registers.
        let kinds: Vec<u32> = along.iter().map(|(_, kind, _)| *kind).collect();
        let run = kinds.iter().take_while(|k| **k == 0).count();
        let lane_count = kinds[run..].iter().take_while(|k| **k == 1).count();
        let warp_count = kinds[run + lane_count..].iter().take_while(|k| **k == 2).count();
        if kinds[run + lane_count + warp_count..].iter().any(|k| *k != 0) {
            return Err("the layout does not order the scan axis as registers, lanes, warps, then repetitions".into());
        }
        let lane_bits: Vec<usize> = along[run..run + lane_count].iter().map(|(_, _, bit)| *bit).collect();
        let lane_shift = lane_bits.first().copied().unwrap_or(0) as u32;
        if lane_bits.iter().enumerate().any(|(i, bit)| *bit != lane_shift as usize + i) {
            return Err("the lanes along the scan axis are not consecutive lane-id bits".into());
        }
        let below_warps = (run + lane_count) as u32;
        let mut warp_axis_values = vec![0; layout.warp_bases.len()];
        for (value, _, bit) in &along[run + lane_count..run + lane_count + warp_count] {
            warp_axis_values[*bit] = value >> below_warps;
        }
        let blocks_shift = below_warps + warp_count as u32;

        // Group the registers into runs: same place off the axis, same block.
        let mut representative = Vec::with_capacity(layout.num_registers());
        let mut series_keys: Vec<Vec<u32>> = Vec::new();
        let mut series: Vec<Vec<Vec<(u32, usize)>>> = Vec::new();
        let blocks = 1usize << (kinds.len() - run - lane_count - warp_count);
        for (r, coords) in layout.register_coords.iter().enumerate() {
            let first = layout.register_coords.iter().position(|c| c == coords).unwrap_or(r);
            representative.push(first);
            if first != r {
                continue;
            }
            let position = coords[axis];
            let mut key = coords.clone();
            key[axis] = 0;
            let s = match series_keys.iter().position(|k| *k == key) {
                Some(s) => s,
                None => {
                    series_keys.push(key);
                    series.push(vec![Vec::new(); blocks]);
                    series.len() - 1
                }
            };
            let block = (position >> blocks_shift) as usize;
            let element = position & ((1 << run) - 1);
            series[s].get_mut(block).ok_or("a register lies outside the layout's blocks")?.push((element, r));
        }
        let series = series
            .into_iter()
            .map(|blocks| {
                blocks
                    .into_iter()
                    .map(|mut run_registers| {
                        run_registers.sort();
                        run_registers.into_iter().map(|(_, r)| r).collect::<Vec<usize>>()
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        if series.iter().flatten().any(|r| r.len() != 1 << run) {
            return Err("the registers of a thread do not form whole runs along the scan axis".into());
        }
        Ok(ScanPlan {
            lanes: 1 << lane_count,
            lane_shift,
            warps: 1 << warp_count,
            warp_axis_values,
            parallel_lane_values,
            parallel_warp_values,
            parallel: 1 << parallel_bits,
            series,
            representative,
        })
    }

    fn runs(&self) -> usize {
        self.series.iter().map(|s| s.len()).sum()
    }
}

/// Whether a combination applies: always, never, or where a predicate holds.
#[derive(Clone, Copy)]
enum When {
    Always,
    Never,
    Where(V),
}

impl When {
    fn or<'c>(self, l: &Lowering<'c>, other: When) -> When {
        match (self, other) {
            (When::Always, _) | (_, When::Always) => When::Always,
            (When::Never, x) | (x, When::Never) => x,
            (When::Where(a), When::Where(b)) => When::Where(l.b.or(a, b)),
        }
    }
}

/// The scan's combiner region, applied to scalars.
struct Combiner<'c, 'a> {
    block: BlockRef<'c, 'a>,
}

impl<'c, 'a> Combiner<'c, 'a> {
    fn apply(&self, l: &mut Lowering<'c>, earlier: &[V], later: &[V]) -> Result<Vec<V>> {
        combine(l, &self.block, earlier, later)
    }

    /// `earlier (+) later` where `when` holds, else `later`.
    fn apply_when(&self, l: &mut Lowering<'c>, when: When, earlier: Option<&[V]>, later: &[V]) -> Result<Vec<V>> {
        let (Some(earlier), false) = (earlier, matches!(when, When::Never)) else {
            return Ok(later.to_vec());
        };
        let combined = self.apply(l, earlier, later)?;
        Ok(match when {
            When::Where(p) => combined.iter().zip(later).map(|(c, x)| l.b.select(p, *c, *x)).collect(),
            _ => combined,
        })
    }
}

fn shuffle_all<'c>(l: &mut Lowering<'c>, op: &OperationRef, values: &[V], how: Shuffle) -> Result<Vec<V>> {
    values
        .iter()
        .map(|v| {
            shuffle(l, *v, how)
                .ok_or_else(|| LowerError::at(op, format!("cannot shuffle values of type {}", type_of(*v))))
        })
        .collect()
}

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let axis = crate::int_attribute(&op, "axis").unwrap_or(0) as usize;
    let reverse = op.attribute("reverse").is_ok_and(|a| a.to_string() == "true");
    let operands = op.operand_count();
    // The scanned tensors all have the first one's shape and layout.
    let first = crate::ops::view(op, ReductionOp::of)?.srcs()[0];
    let layout = l.tensor_layout(&op, first.r#type())?;
    let inputs: Vec<Vec<V>> = (0..operands).map(|i| l.operand(&op, i)).collect::<Result<_>>()?;
    let region = op.region_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let block = region.first_block().ok_or_else(|| LowerError::at(&op, "has no combiner"))?;
    let combiner = Combiner { block };
    let plan =
        ScanPlan::new(&layout, axis).map_err(|e| LowerError::at(&op, format!("unsupported scan layout: {e}")))?;

    // values[register][operand]
    let mut values: Vec<Vec<V>> = (0..layout.num_registers()).map(|r| inputs.iter().map(|x| x[r]).collect()).collect();
    // Positions run the other way in a reverse scan.
    let in_order = |registers: &[usize]| -> Vec<usize> {
        if reverse {
            registers.iter().rev().copied().collect()
        } else {
            registers.to_vec()
        }
    };

    // 1. Each run within its thread.
    for run in plan.series.iter().flatten() {
        let mut accumulated: Option<Vec<V>> = None;
        for r in in_order(run) {
            let next = match &accumulated {
                None => values[r].clone(),
                Some(a) => combiner.apply(l, a, &values[r])?,
            };
            values[r] = next.clone();
            accumulated = Some(next);
        }
    }

    // 2. The run totals across the lanes along the axis: afterwards each
    // lane holds the total of its run and of the runs of the lanes before it.
    let (lanes, shift) = (plan.lanes, plan.lane_shift);
    let lane = l.lane;
    let lane_index = l.in_prologue(|b| {
        let s = b.i32_const(shift as i64);
        let m = b.i32_const(lanes as i64 - 1);
        let moved = b.lshr(lane, s);
        let index = b.and(moved, m);
        if reverse {
            b.xor(index, m)
        } else {
            index
        }
    });
    let previous = |delta: u32| {
        if reverse {
            Shuffle::Down(delta << shift)
        } else {
            Shuffle::Up(delta << shift)
        }
    };
    let last = |run: &Vec<usize>| *in_order(run).last().expect("runs are not empty");
    let mut totals: Vec<Vec<Vec<V>>> = Vec::new();
    for series in &plan.series {
        let mut series_totals = Vec::new();
        for run in series {
            let mut total = values[last(run)].clone();
            let mut delta = 1;
            while delta < lanes {
                let incoming = shuffle_all(l, &op, &total, previous(delta))?;
                let has = l.in_prologue(|b| {
                    let d = b.i32_const(delta as i64);
                    b.icmp(9, lane_index, d) // uge
                });
                total = combiner.apply_when(l, When::Where(has), Some(&incoming), &total)?;
                delta *= 2;
            }
            series_totals.push(total);
        }
        totals.push(series_totals);
    }

    // 3. What comes before each run's lanes: earlier warps and blocks.
    let not_first_lane = l.in_prologue(|b| {
        let zero = b.i32_const(0);
        b.icmp(1, lane_index, zero) // ne
    });
    if plan.warps > 1 {
        across_warps(l, &op, &plan, &combiner, reverse, lane_index, not_first_lane, &mut values, &totals)?;
    } else {
        // One warp holds the axis: each block continues where the previous
        // one ended, whose total the last lane along the axis holds.
        let last_lane = l.in_prologue(|b| {
            let keep = b.i32_const(!((lanes as i64 - 1) << shift) & 31);
            let kept = b.and(lane, keep);
            let last = b.i32_const(if reverse { 0 } else { (lanes as i64 - 1) << shift });
            b.or(kept, last)
        });
        for (s, series) in plan.series.iter().enumerate() {
            let mut carry: Option<Vec<V>> = None;
            let count = series.len();
            for step in 0..count {
                let block = if reverse { count - 1 - step } else { step };
                let when = if carry.is_some() { When::Always } else { When::Never };
                let total = finish_run(
                    l,
                    &op,
                    &combiner,
                    &plan,
                    reverse,
                    not_first_lane,
                    &mut values,
                    &series[block],
                    &totals[s][block],
                    carry.as_deref(),
                    when,
                )?;
                if step + 1 < count {
                    carry = Some(if lanes > 1 { shuffle_all(l, &op, &total, Shuffle::Idx(last_lane))? } else { total });
                }
            }
        }
    }

    for i in 0..operands {
        let registers = plan.representative.iter().map(|r| values[*r][i]).collect();
        l.set_result(&op, i, registers);
    }
    Ok(())
}

/// Completes a run: `prefix` is what comes before the run's lanes (where
/// `when` says it exists) and `total` its lane-inclusive total. Returns the
/// run's total including the prefix.
#[allow(clippy::too_many_arguments)]
fn finish_run<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    combiner: &Combiner<'c, '_>,
    plan: &ScanPlan,
    reverse: bool,
    not_first_lane: V,
    values: &mut [Vec<V>],
    run: &[usize],
    total: &[V],
    prefix: Option<&[V]>,
    when: When,
) -> Result<Vec<V>> {
    let order: Vec<usize> = if reverse { run.iter().rev().copied().collect() } else { run.to_vec() };
    let total = combiner.apply_when(l, when, prefix, total)?;
    let (last, rest) = order.split_last().expect("runs are not empty");
    values[*last] = total.clone();
    if rest.is_empty() {
        return Ok(total);
    }
    // The prefix of this thread's run: the previous lane's total, or for the
    // first lane along the axis the prefix of the warp.
    let (before, before_when) = if plan.lanes > 1 {
        let how = if reverse { Shuffle::Down(1 << plan.lane_shift) } else { Shuffle::Up(1 << plan.lane_shift) };
        let from_previous = shuffle_all(l, op, &total, how)?;
        let before = match prefix {
            Some(prefix) if !matches!(when, When::Never) => {
                from_previous.iter().zip(prefix).map(|(a, p)| l.b.select(not_first_lane, *a, *p)).collect()
            }
            _ => from_previous,
        };
        (Some(before), When::Where(not_first_lane).or(l, when))
    } else {
        (prefix.map(|p| p.to_vec()), when)
    };
    for r in rest {
        values[*r] = combiner.apply_when(l, before_when, before.as_deref(), &values[*r])?;
    }
    Ok(total)
}

/// Several warps along the axis: the last lane along the axis of each warp
/// writes its runs' totals to scratch (upstream's layout: one slot per
/// parallel thread, warp and run), then every thread reads the totals of
/// the warps before its own, in every block up to its own.
#[allow(clippy::too_many_arguments)]
fn across_warps<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    plan: &ScanPlan,
    combiner: &Combiner<'c, '_>,
    reverse: bool,
    lane_index: V,
    not_first_lane: V,
    values: &mut [Vec<V>],
    totals: &[Vec<Vec<V>>],
) -> Result<()> {
    let scratch = tritium_passes::analysis::scratch::scan_scratch(op)
        .ok_or_else(|| LowerError::at(op, "a scan across warps without scratch (allocate-shared-memory-nv)"))?;
    let slots = plan.parallel as usize * plan.warps as usize * plan.runs();
    if slots > scratch.elements {
        return Err(LowerError::at(op, "the scan needs more scratch than upstream's size for this layout"));
    }
    let base = l.scratch_base(op)?;
    let element_types: Vec<_> = totals[0][0].iter().map(|v| type_of(*v)).collect();
    let arrays: Vec<V> = scratch
        .offsets
        .iter()
        .map(|offset| {
            let i8 = l.b.int_type(8);
            let offset = l.b.i32_const(*offset as i64);
            l.in_prologue(|b| b.gep(base, offset, i8))
        })
        .collect();

    let ids = l.ids();
    let (warps, lanes, parallel) = (plan.warps, plan.lanes, plan.parallel);
    let warp = l.warp;
    let warp_index = l.in_prologue(|b| {
        let index = apply_linear(b, warp, &plan.warp_axis_values);
        if reverse {
            let m = b.i32_const(warps as i64 - 1);
            b.xor(index, m)
        } else {
            index
        }
    });
    let parallel_index =
        l.in_prologue(|b| thread_linear(b, ids, &plan.parallel_lane_values, &plan.parallel_warp_values));
    let slot = |l: &mut Lowering<'c>, warp: V, run: usize| -> V {
        let scaled_warp = {
            let p = l.b.i32_const(parallel as i64);
            l.b.mul(warp, p)
        };
        let run_offset = l.b.i32_const((parallel as usize * warps as usize * run) as i64);
        let within = l.b.add(parallel_index, scaled_warp);
        l.b.add(within, run_offset)
    };

    // Writes: the last lane along the axis of one thread per element.
    let is_last = l.in_prologue(|b| {
        let last = b.i32_const(lanes as i64 - 1);
        b.icmp(0, lane_index, last)
    });
    let layout_owner = {
        let first = crate::ops::view(*op, ReductionOp::of)?.srcs()[0];
        let layout = l.tensor_layout(op, first.r#type())?;
        representative(l, &layout)
    };
    let writer = match layout_owner {
        Some(owner) => l.b.and(is_last, owner),
        None => is_last,
    };
    let mut run_ids = Vec::new();
    let mut next_run = 0;
    for series in totals {
        let mut ids = Vec::new();
        for total in series {
            let index = slot(l, warp_index, next_run);
            for (i, v) in total.iter().enumerate() {
                let address = l.b.gep(arrays[i], index, super::warp::stored_type(l, element_types[i]));
                store_shared(l, address, *v, Some(writer))
                    .ok_or_else(|| LowerError::at(op, format!("cannot keep {} in shared memory", element_types[i])))?;
            }
            ids.push(next_run);
            next_run += 1;
        }
        run_ids.push(ids);
    }
    l.b.barrier();

    // Reads: for each block in axis order, the totals of all warps.
    for (s, series) in plan.series.iter().enumerate() {
        let count = series.len();
        let mut carry: Option<Vec<V>> = None;
        for step in 0..count {
            let block = if reverse { count - 1 - step } else { step };
            // running = carry (+) w_0 (+) ... (+) w_j; `after_first` is the
            // prefix of the warps past the first one.
            let mut running = carry.clone();
            let mut after_first: Option<Vec<V>> = None;
            for j in 0..warps {
                let j_index = l.b.i32_const(j as i64);
                let index = slot(l, j_index, run_ids[s][block]);
                let partial: Vec<V> = (0..element_types.len())
                    .map(|i| {
                        let address = l.b.gep(arrays[i], index, super::warp::stored_type(l, element_types[i]));
                        load_shared(l, address, element_types[i])
                    })
                    .collect();
                let next = match &running {
                    None => partial,
                    Some(r) => combiner.apply(l, r, &partial)?,
                };
                running = Some(next.clone());
                if j + 1 < warps {
                    after_first = Some(match after_first {
                        None => next,
                        Some(previous) => {
                            let at_least = l.in_prologue(|b| {
                                let c = b.i32_const(j as i64 + 1);
                                b.icmp(9, warp_index, c) // uge
                            });
                            next.iter().zip(&previous).map(|(n, p)| l.b.select(at_least, *n, *p)).collect()
                        }
                    });
                }
            }
            let first_warp = l.in_prologue(|b| {
                let zero = b.i32_const(0);
                b.icmp(0, warp_index, zero)
            });
            let after_first = after_first.expect("several warps");
            let (prefix, when) = match &carry {
                Some(c) => {
                    let p: Vec<V> = c.iter().zip(&after_first).map(|(c, a)| l.b.select(first_warp, *c, *a)).collect();
                    (p, When::Always)
                }
                None => {
                    let not_first = l.in_prologue(|b| {
                        let zero = b.i32_const(0);
                        b.icmp(1, warp_index, zero)
                    });
                    (after_first, When::Where(not_first))
                }
            };
            finish_run(
                l,
                op,
                combiner,
                plan,
                reverse,
                not_first_lane,
                values,
                &series[block],
                &totals[s][block],
                Some(&prefix),
                when,
            )?;
            carry = running;
        }
    }
    Ok(())
}

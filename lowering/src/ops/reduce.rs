//! tt.reduce: combine within each thread, then across the lanes of a warp
//! with butterfly shuffles, then across warps through shared memory. Which
//! registers, lanes and warps hold elements along the axis is read off the
//! linear layout.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{ReductionOp, ReductionReturnOp};

/// Applies a combiner region (two sets of k scalars -> k scalars) by
/// lowering its ops inline.
pub fn combine<'c>(l: &mut Lowering<'c>, block: &BlockRef<'c, '_>, lhs: &[V], rhs: &[V]) -> Result<Vec<V>> {
    let k = lhs.len();
    for i in 0..k {
        l.set(block.argument(i).unwrap().to_raw(), vec![lhs[i]]);
        l.set(block.argument(k + i).unwrap().to_raw(), vec![rhs[i]]);
    }
    let mut next = block.first_operation();
    let mut results = None;
    while let Some(op) = next {
        let name = crate::ops::name_of(&op);
        if name.ends_with(".return") {
            results =
                Some((0..op.operand_count()).map(|i| l.operand(&op, i).map(|r| r[0])).collect::<Result<Vec<V>>>()?);
        } else {
            crate::ops::lower_op(l, op)?;
        }
        next = op.next_in_block();
    }
    results.ok_or_else(|| LowerError::at(&block.parent_operation().unwrap(), "combiner has no return"))
}

/// `shfl.sync.bfly` of any scalar up to 64 bits (`nvvm.shfl.sync`, as
/// upstream's shuffleXor).
pub fn shuffle_xor<'c>(l: &mut Lowering<'c>, v: V, mask: u32) -> Result<V> {
    crate::ops::warp::shuffle(l, v, crate::ops::warp::Shuffle::Xor(mask))
        .ok_or_else(|| LowerError::at_location(l.b.location, format!("cannot shuffle a value of type {}", type_of(v))))
}

pub fn lower_reduce<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let axis = crate::int_attribute(&op, "axis").unwrap_or(0) as usize;
    let k = op.operand_count();
    // The reduced tensors all have the first one's shape and layout.
    let first = crate::ops::view(op, ReductionOp::of)?.srcs()[0];
    let layout = l.tensor_layout(&op, first.r#type())?;
    let inputs: Vec<Vec<V>> = (0..k).map(|i| l.operand(&op, i)).collect::<Result<_>>()?;
    let region = op.region_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let block = region.first_block().ok_or_else(|| LowerError::at(&op, "has no combiner"))?;

    // 1. Within the thread: registers that differ only along the axis.
    let mut groups: Vec<(Vec<u32>, Vec<V>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (r, coords) in layout.register_coords.iter().enumerate() {
        if !seen.insert(coords.clone()) {
            continue; // a replicated register must not be counted twice
        }
        let mut key = coords.clone();
        key[axis] = 0;
        let values: Vec<V> = inputs.iter().map(|input| input[r]).collect();
        match groups.iter().position(|(g, _)| *g == key) {
            Some(g) => {
                let accumulated = groups[g].1.clone();
                groups[g].1 = combine(l, &block, &accumulated, &values)?;
            }
            None => groups.push((key, values)),
        }
    }

    // 2. Across lanes: one redux.sync where it applies, else a butterfly
    // over the lane bits that move along the axis, highest bit first and
    // one group after the other, as upstream: float sums then round as
    // upstream's do.
    if let Some(kind) = whole_warp_redux_kind(l, &op, &block, &layout, axis) {
        for group in groups.iter_mut() {
            group.1 = vec![redux_sync(l, group.1[0], kind)];
        }
    } else {
        let axis_lane_bits: Vec<usize> =
            layout.lane_bases.iter().enumerate().filter(|(_, b)| b[axis] != 0).map(|(bit, _)| bit).rev().collect();
        for group in groups.iter_mut() {
            for bit in &axis_lane_bits {
                let partner: Vec<V> = group.1.iter().map(|v| shuffle_xor(l, *v, 1 << bit)).collect::<Result<_>>()?;
                group.1 = combine(l, &block, &group.1.clone(), &partner)?;
            }
        }
    }

    // 3. Across warps, through shared memory.
    let axis_warp_bits: Vec<usize> =
        layout.warp_bases.iter().enumerate().filter(|(_, b)| b[axis] != 0).map(|(bit, _)| bit).collect();
    if !axis_warp_bits.is_empty() {
        across_warps(l, &op, &layout, axis, &axis_warp_bits, &block, &mut groups)?;
    }

    // 4. The result: a scalar for a 1-D operand, else the slice layout.
    if layout.rank() == 1 {
        for i in 0..k {
            l.set_result(&op, i, vec![groups[0].1[i]]);
        }
        return Ok(());
    }
    let result_layout = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let mut results: Vec<Vec<V>> = vec![Vec::new(); k];
    for coords in &result_layout.register_coords {
        let mut key = coords.clone();
        key.insert(axis, 0);
        let group = groups
            .iter()
            .find(|(g, _)| *g == key)
            .ok_or_else(|| LowerError::at(&op, "the result layout is not the slice of the operand layout"))?;
        for i in 0..k {
            results[i].push(group.1[i]);
        }
    }
    for (i, registers) in results.into_iter().enumerate() {
        l.set_result(&op, i, registers);
    }
    Ok(())
}

/// The `redux.sync` kind that reduces across the warp's 32 lanes at once,
/// as upstream does on sm_80+: one operand of at most 32 bits whose combiner
/// is a single integer add, min, max, and, or or xor of its two arguments,
/// over an axis that all lanes (and nothing else of theirs) step along.
fn whole_warp_redux_kind(
    l: &Lowering,
    op: &OperationRef,
    block: &BlockRef,
    layout: &TensorLayout,
    axis: usize,
) -> Option<&'static str> {
    if l.target.capability < 80 || op.operand_count() != 1 || layout.lane_bases.len() != 5 {
        return None;
    }
    let lanes_along_axis_only =
        layout.lane_bases.iter().all(|b| b.iter().enumerate().all(|(d, &x)| (d == axis) == (x != 0)));
    if !lanes_along_axis_only {
        return None;
    }
    let combiner = sole_binary_combiner(block)?;
    let width = combiner.result_at(0).ok()?.r#type().to_string();
    if !matches!(width.as_str(), "i1" | "i8" | "i16" | "i32") {
        return None;
    }
    Some(match crate::ops::name_of(&combiner).as_str() {
        "arith.addi" => "add",
        "arith.minsi" => "min",
        "arith.maxsi" => "max",
        "arith.minui" => "umin",
        "arith.maxui" => "umax",
        "arith.andi" => "and",
        "arith.ori" => "or",
        "arith.xori" => "xor",
        _ => return None,
    })
}

/// The combiner region's one op, when it is the whole region: an op of the
/// two arguments (each once) whose result the region returns.
fn sole_binary_combiner<'c, 'a>(block: &BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let combiner = block.first_operation()?;
    let returned = ReductionReturnOp::of(combiner.next_in_block()?)?;
    if block.argument_count() != 2 || returned.result().first() != Some(&combiner.result_at(0).ok()?.into()) {
        return None;
    }
    let arguments: [Value; 2] = [block.argument(0).ok()?.into(), block.argument(1).ok()?.into()];
    let operands: Vec<Value> = combiner.operands().collect();
    let reads_arguments = matches!(operands[..], [x, y] if x != y && arguments.contains(&x) && arguments.contains(&y));
    reads_arguments.then_some(combiner)
}

/// Whether the combiner is one commutative op of the two arguments (then
/// every lane of a butterfly ends with the same value, bit for bit).
fn commutative_combiner(block: &BlockRef) -> bool {
    sole_binary_combiner(block).is_some_and(|combiner| {
        matches!(
            crate::ops::name_of(&combiner).as_str(),
            "arith.addi"
                | "arith.addf"
                | "arith.muli"
                | "arith.mulf"
                | "arith.minsi"
                | "arith.maxsi"
                | "arith.minui"
                | "arith.maxui"
                | "arith.minnumf"
                | "arith.maxnumf"
                | "arith.minimumf"
                | "arith.maximumf"
                | "arith.andi"
                | "arith.ori"
                | "arith.xori"
        )
    })
}

/// The address of element `index` of the scratch array at byte `offset`.
fn scratch_element<'c>(l: &mut Lowering<'c>, base: V, offset: usize, index: V, ty: melior::ir::Type<'c>) -> V {
    let i8 = l.b.int_type(8);
    let array = l.b.i32_const(offset as i64);
    let array = l.b.gep(base, array, i8);
    l.b.gep(array, index, ty)
}

/// `redux.sync.<kind>` over all lanes of `v`, widened to 32 bits for it
/// (sign-extended for the signed min and max) and narrowed back.
fn redux_sync<'c>(l: &mut Lowering<'c>, v: V, kind: &str) -> V {
    let ty = type_of(v);
    let i32 = l.b.i32();
    let narrow = ty.to_string() != "i32";
    let extend = if matches!(kind, "min" | "max") { "arith.extsi" } else { "arith.extui" };
    let wide = if narrow { l.b.op1(extend, &[v], i32, &[]) } else { v };
    let all_lanes = l.b.i32_const(-1);
    let kind = melior::ir::Attribute::parse(l.context(), &format!("#nvvm<redux_kind {kind}>")).expect("redux kind");
    let reduced = l.b.op1("nvvm.redux.sync", &[wide, all_lanes], i32, &[("kind", kind)]);
    if narrow {
        l.b.op1("arith.trunci", &[reduced], ty, &[])
    } else {
        reduced
    }
}

/// Each warp writes its partial results to shared memory (one slot per warp
/// along the axis, output `o`'s slots at `o * slots ..`), then the slots of
/// each output are combined: where [`shared_butterfly_threads`] allows, as
/// upstream does, by the CTA's threads together (thread `t` takes the
/// elements `t`, `t + threads`, ..., a butterfly over the `slots` lanes that
/// hold one output's slots combines them, the lane of slot 0 writes the
/// result over it, and every thread reads its outputs' results back); else
/// every thread combines all slots of its own outputs.
fn across_warps<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    layout: &TensorLayout,
    axis: usize,
    axis_warp_bits: &[usize],
    block: &BlockRef<'c, '_>,
    groups: &mut [(Vec<u32>, Vec<V>)],
) -> Result<()> {
    // The same numbers allocate-shared-memory-nv sized this op's scratch with.
    let scratch = tritium_passes::analysis::scratch::reduce_scratch(op)
        .ok_or_else(|| LowerError::at(op, "reduction across warps without a scratch layout"))?;
    let slots = 1usize << axis_warp_bits.len();
    let outputs: usize =
        layout.shape.iter().enumerate().filter(|(d, _)| *d != axis).map(|(_, s)| *s as usize).product();
    if scratch.slots != slots || scratch.outputs != outputs || scratch.offsets.len() != groups[0].1.len() {
        return Err(LowerError::at(op, "reduction scratch disagrees with the allocation analysis"));
    }
    let element_types: Vec<_> = groups[0].1.iter().map(|v| type_of(*v)).collect();
    let offsets = scratch.offsets;

    // The slot of this warp: its warp-id bits along the axis, packed.
    let warp = l.warp;
    let slot = l.in_prologue(|b| {
        let mut slot: Option<V> = None;
        for (k, bit) in axis_warp_bits.iter().enumerate() {
            let shift = b.i32_const(*bit as i64);
            let one = b.i32_const(1);
            let moved = b.lshr(warp, shift);
            let masked = b.and(moved, one);
            let term = if k == 0 {
                masked
            } else {
                let s = b.i32_const(k as i64);
                b.shl(masked, s)
            };
            slot = Some(match slot {
                Some(acc) => b.or(acc, term),
                None => term,
            });
        }
        slot.unwrap()
    });

    // The output index of each group: its coordinates off the axis, row major,
    // plus this thread's lane and warp coordinates.
    let mut output_index = Vec::new();
    for (group_coords, _) in groups.iter() {
        let register = layout
            .register_coords
            .iter()
            .position(|c| {
                let mut key = c.clone();
                key[axis] = 0;
                key == *group_coords
            })
            .unwrap();
        output_index.push(super::warp::row_major_index_without(l, layout, register, Some(axis)));
    }

    // Barriers before the writes and after the reads are tritongpu-membar's.
    let base = l.scratch_base(op)?;
    // After a butterfly, the lanes along the axis hold the same partial only
    // if the combiner is commutative; otherwise only the lane whose axis
    // bits are zero (the one whose operands came in order) stores, as
    // upstream's storeWarpReduceToSharedMemory always does.
    let axis_lane_mask: i64 =
        layout.lane_bases.iter().enumerate().filter(|(_, b)| b[axis] != 0).map(|(bit, _)| 1i64 << bit).sum();
    let lane_writes = (axis_lane_mask != 0 && !commutative_combiner(block)).then(|| {
        let mask = l.b.i32_const(axis_lane_mask);
        let zero = l.b.i32_const(0);
        let masked = l.b.and(l.lane, mask);
        l.b.icmp(0, masked, zero)
    });
    for (g, (_, values)) in groups.iter().enumerate() {
        let slots_const = l.b.i32_const(slots as i64);
        let row = l.b.mul(output_index[g], slots_const);
        let index = l.b.add(row, slot);
        for (i, v) in values.iter().enumerate() {
            let address = scratch_element(l, base, offsets[i], index, element_types[i]);
            match lane_writes {
                Some(writes) => super::warp::store_shared(l, address, *v, Some(writes))
                    .ok_or_else(|| LowerError::at_location(l.b.location, "cannot store a reduction partial"))?,
                None => {
                    l.b.op("llvm.store", &[*v, address], &[], &[]);
                }
            }
        }
    }
    l.b.barrier();
    if let Some(threads) = shared_butterfly_threads(l, layout, slots, outputs, &element_types) {
        return combine_in_shared(
            l,
            block,
            base,
            &offsets,
            &element_types,
            slots,
            outputs,
            threads,
            &output_index,
            groups,
        );
    }
    for (g, group) in groups.iter_mut().enumerate() {
        let slots_const = l.b.i32_const(slots as i64);
        let row = l.b.mul(output_index[g], slots_const);
        let mut partials: Vec<Vec<V>> = Vec::with_capacity(slots);
        for s in 0..slots {
            let s = l.b.i32_const(s as i64);
            let index = l.b.add(row, s);
            let values: Vec<V> = (0..element_types.len())
                .map(|i| {
                    let address = scratch_element(l, base, offsets[i], index, element_types[i]);
                    l.b.op1("llvm.load", &[address], element_types[i], &[])
                })
                .collect();
            partials.push(values);
        }
        // Combined in upstream's order: its lanes hold one slot each and
        // halve the distance at each butterfly step (slot i with slot i + N,
        // N = slots / 2, ..., 1), so float results round as upstream's do.
        let mut distance = slots / 2;
        while distance > 0 {
            for i in 0..distance {
                partials[i] = combine(l, block, &partials[i], &partials[i + distance])?;
            }
            distance /= 2;
        }
        group.1 = partials.swap_remove(0);
    }
    Ok(())
}

/// The number of threads that combine a reduction's partials together in
/// shared memory ([`combine_in_shared`]), where that works as upstream's
/// `accumulatePartialReductions` has it: the slots of one output lie in
/// consecutive lanes of one warp (a power of two of them, at most a warp's
/// lanes), the threads running the op are the layout's (a power of two of
/// them, ids `0..threads`), the partials are a power of two (so that they
/// split evenly into rounds of `threads`, or fit in one), and every element
/// type goes through a predicated `st.shared`.
fn shared_butterfly_threads<'c>(
    l: &Lowering<'c>,
    layout: &TensorLayout,
    slots: usize,
    outputs: usize,
    element_types: &[melior::ir::Type<'c>],
) -> Option<usize> {
    let lanes = l.threads_per_warp as usize;
    let warps = l.num_warps as usize;
    let threads = lanes * warps;
    let elements = outputs * slots;
    let storable = element_types
        .iter()
        .all(|ty| matches!(super::warp::bit_width(super::warp::stored_type(l, *ty)), Some(8 | 16 | 32 | 64)));
    let fits = slots.is_power_of_two()
        && slots <= lanes
        && lanes.is_power_of_two()
        && threads.is_power_of_two()
        && elements.is_power_of_two()
        && 1usize << layout.lane_bases.len() == lanes
        && 1usize << layout.warp_bases.len() == warps;
    (fits && storable).then_some(threads)
}

/// The partials (`outputs * slots` per operand, stored and behind a
/// barrier) combined by all `threads` threads together: thread `t` loads
/// element `t + r * threads` in round `r` (where there are fewer elements
/// than threads, element `t mod elements`, which only the threads below the
/// count write back), a butterfly over the `slots` consecutive lanes holding
/// one output's slots combines them in the order the per-thread tree uses
/// (slot `i` with slot `i + N`, N = slots / 2, ..., 1: the lane of the lower
/// slot keeps its own value on the left), the lane of slot 0 stores the
/// result over slot 0; after a barrier, every thread loads its outputs'.
#[allow(clippy::too_many_arguments)]
fn combine_in_shared<'c>(
    l: &mut Lowering<'c>,
    block: &BlockRef<'c, '_>,
    base: V,
    offsets: &[usize],
    element_types: &[melior::ir::Type<'c>],
    slots: usize,
    outputs: usize,
    threads: usize,
    output_index: &[V],
    groups: &mut [(Vec<u32>, Vec<V>)],
) -> Result<()> {
    let elements = outputs * slots;
    let address =
        |l: &mut Lowering<'c>, i: usize, index: V| scratch_element(l, base, offsets[i], index, element_types[i]);
    let tid = l.tid;
    // The writers: the lanes of slot 0, and with fewer elements than
    // threads only those below the count (tid < elements, a power of two).
    let mut writer_bits = (slots - 1) as i64;
    if elements < threads {
        writer_bits |= (threads - 1) as i64 & !(elements as i64 - 1);
    }
    let writer_mask = l.b.i32_const(writer_bits);
    let zero = l.b.i32_const(0);
    let masked = l.b.and(tid, writer_mask);
    let writes = l.b.icmp(0, masked, zero);
    let first = if elements < threads {
        let last = l.b.i32_const(elements as i64 - 1);
        l.b.and(tid, last)
    } else {
        tid
    };
    for round in 0..elements.div_ceil(threads) {
        let index = if round == 0 {
            first
        } else {
            let step = l.b.i32_const((round * threads) as i64);
            l.b.add(first, step)
        };
        let mut acc: Vec<V> = (0..element_types.len())
            .map(|i| {
                let pointer = address(l, i, index);
                super::warp::load_shared(l, pointer, element_types[i])
            })
            .collect();
        let mut distance = slots / 2;
        while distance > 0 {
            let partner: Vec<V> = acc.iter().map(|v| shuffle_xor(l, *v, distance as u32)).collect::<Result<_>>()?;
            acc = combine(l, block, &acc, &partner)?;
            distance /= 2;
        }
        for (i, v) in acc.iter().enumerate() {
            let pointer = address(l, i, index);
            super::warp::store_shared(l, pointer, *v, Some(writes))
                .ok_or_else(|| LowerError::at_location(l.b.location, "cannot store a reduction partial"))?;
        }
    }
    // The second barrier is this op's own (tritongpu-membar's come before
    // the first writes and after these reads).
    l.b.barrier();
    let slots_const = l.b.i32_const(slots as i64);
    for (g, group) in groups.iter_mut().enumerate() {
        let index = l.b.mul(output_index[g], slots_const);
        group.1 = (0..element_types.len())
            .map(|i| {
                let pointer = address(l, i, index);
                super::warp::load_shared(l, pointer, element_types[i])
            })
            .collect();
    }
    Ok(())
}

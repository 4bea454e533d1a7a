//! tt.histogram, as upstream's HistogramOpToLLVM: within a warp, one ballot
//! per bit of the bin index and, for the bins this lane owns (the high bits
//! of the bin are the lane id), a popcount of the lanes whose value has the
//! bin's bits; then the warps add their counts into the op's scratch in
//! shared memory with atomics, and each thread reads its result elements.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    ops::warp::{ballot, bit_width, if_then},
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::HistogramOp;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let src = l.tensor_layout(&op, crate::ops::view(op, HistogramOp::of)?.src().r#type())?;
    let dst = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let values = l.operand(&op, 0)?;
    let masks = if op.operand_count() > 1 { Some(l.operand(&op, 1)?) } else { None };
    let bins = dst.shape.iter().product::<i64>() as u32;
    if !bins.is_power_of_two() || src.rank() != 1 {
        return Err(LowerError::at(&op, "histograms of 1-D tensors into a power of two of bins are supported"));
    }
    let bin_bits = bins.trailing_zeros();
    // The lane owns bins `lane << low_bits | k`, k < bins_per_lane.
    let lane_bits = bin_bits.min(5);
    let low_bits = bin_bits - lane_bits;
    let bins_per_lane = 1u32 << low_bits;
    let result_type = l.lower_type(op.result_at(0).unwrap().r#type());
    let result_bits =
        bit_width(result_type).ok_or_else(|| LowerError::at(&op, "the histogram must count in integers"))?;
    let i32 = l.b.i32();
    let lane = l.lane;

    // Lanes that repeat another lane's elements take no part.
    let free_lanes = src.free_lane_mask();
    let unique_lanes = (0..32u32).filter(|lane| lane & free_lanes == 0).fold(0u32, |m, lane| m | 1 << lane);
    // -1 where the lane-id bit is clear: `ballot ^ that` keeps the lanes
    // whose bit equals this lane's.
    let lane_complements: Vec<V> = (0..lane_bits)
        .map(|i| {
            l.in_prologue(|b| {
                let bit = b.i32_const(1 << i);
                let set = b.and(lane, bit);
                let shift = b.i32_const(i as i64);
                let one = b.lshr(set, shift);
                let minus_one = b.i32_const(-1);
                b.add(one, minus_one)
            })
        })
        .collect();

    let mut counts: Vec<Option<V>> = vec![None; bins_per_lane as usize];
    for (r, value) in values.iter().enumerate() {
        if src.is_duplicate_register(r) {
            continue;
        }
        let ty = type_of(*value);
        let ballots: Vec<V> = (0..bin_bits)
            .map(|j| {
                let bit = l.b.int(ty, 1 << j);
                let masked = l.b.and(*value, bit);
                let zero = l.b.int(ty, 0);
                let set = l.b.icmp(1, masked, zero);
                ballot(l, set)
            })
            .collect();
        let mut lanes = l.b.i32_const(unique_lanes as i64);
        for i in 0..lane_bits as usize {
            let matching = l.b.xor(ballots[low_bits as usize + i], lane_complements[i]);
            lanes = l.b.and(lanes, matching);
        }
        if let Some(masks) = &masks {
            let valid = ballot(l, masks[r]);
            lanes = l.b.and(lanes, valid);
        }
        for (k, count) in counts.iter_mut().enumerate() {
            let mut in_bin = lanes;
            for j in 0..low_bits as usize {
                let bin = if k >> j & 1 == 1 {
                    ballots[j]
                } else {
                    let all = l.b.i32_const(-1);
                    l.b.xor(ballots[j], all)
                };
                in_bin = l.b.and(in_bin, bin);
            }
            let here = l.b.op1("llvm.intr.ctpop", &[in_bin], i32, &[]);
            *count = Some(match count {
                Some(c) => l.b.add(*c, here),
                None => here,
            });
        }
    }

    // Across warps: zero the bins, add each warp's counts, read back.
    let base = l.scratch_base(&op)?;
    let threads = l.num_warps * l.threads_per_warp;
    let tid = l.tid;
    for i in 0..bins.div_ceil(threads) {
        let offset = l.b.i32_const((i * threads) as i64);
        let index = l.b.add(tid, offset);
        let bins_const = l.b.i32_const(bins as i64);
        let index = l.b.op1("arith.remui", &[index, bins_const], i32, &[]);
        let address = l.b.gep(base, index, result_type);
        let zero = l.b.int(result_type, 0);
        l.b.op("llvm.store", &[zero, address], &[], &[]);
    }
    l.b.barrier();
    // Warps that repeat another warp's elements, and lanes past the bins
    // (fewer bins than lanes), add nothing.
    let free_warps = src.free_warp_mask();
    let mut adds: Option<V> = None;
    if free_warps != 0 {
        let warp = l.warp;
        adds = Some(l.in_prologue(|b| {
            let m = b.i32_const(free_warps as i64);
            let repeated = b.and(warp, m);
            let zero = b.i32_const(0);
            b.icmp(0, repeated, zero)
        }));
    }
    if bins < l.threads_per_warp {
        let in_range = l.in_prologue(|b| {
            let n = b.i32_const(bins as i64);
            b.icmp(6, lane, n) // ult
        });
        adds = Some(match adds {
            Some(a) => l.b.and(a, in_range),
            None => in_range,
        });
    }
    let counts: Vec<V> = counts.into_iter().map(|c| c.unwrap_or_else(|| l.b.i32_const(0))).collect();
    let add_counts = |l: &mut Lowering<'c>| -> Result<Vec<V>> {
        let i64 = l.b.i64();
        for (k, count) in counts.iter().enumerate() {
            let per_lane = l.b.i32_const(bins_per_lane as i64);
            let first = l.b.mul(lane, per_lane);
            let k = l.b.i32_const(k as i64);
            let index = l.b.add(first, k);
            let address = l.b.gep(base, index, result_type);
            let count = match result_bits {
                32 => *count,
                b if b > 32 => l.b.op1("arith.extui", &[*count], result_type, &[]),
                _ => l.b.op1("arith.trunci", &[*count], result_type, &[]),
            };
            // atomicrmw add, monotonic (LLVM's numbering), as upstream.
            l.b.op1(
                "llvm.atomicrmw",
                &[address, count],
                result_type,
                &[("bin_op", l.b.int_attr(i64, 1)), ("ordering", l.b.int_attr(i64, 2))],
            );
        }
        Ok(Vec::new())
    };
    match adds {
        Some(condition) => {
            if_then(l, condition, &[], add_counts)?;
        }
        None => {
            add_counts(l)?;
        }
    }
    l.b.barrier();
    let result = (0..dst.num_registers())
        .map(|r| {
            let index = l.coordinate(&dst, r, 0);
            let address = l.b.gep(base, index, result_type);
            l.b.op1("llvm.load", &[address], result_type, &[])
        })
        .collect();
    l.set_result(&op, 0, result);
    Ok(())
}

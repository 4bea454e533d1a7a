//! ttg.convert_layout: nothing when both layouts put every element in the
//! same thread (registers are renamed); warp shuffles where the data stays
//! within warps and one register/lane transposition moves it (upstream's
//! `cvtNeedsWarpShuffle`, see `within_warp`); else a round trip through the op's
//! scratch in shared memory. The scratch's layout is chosen for the pair of
//! layouts (transfer::plan_conversion): vectorised, swizzled so that the
//! writes and the reads are free of bank conflicts, with ldmatrix/stmatrix
//! where they move more per instruction. Where both layouts hold some bits
//! of the tensor in registers, the tensor moves in rounds through a smaller
//! scratch, as upstream's (`transfer::Rounds`).
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    ops::{
        shape::register_map,
        shared::{load_registers, store_registers, stored_bytes},
    },
    transfer::{plan_conversion, Rounds},
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

mod within_warp;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::ConvertLayoutOp;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let src = l.tensor_layout(&op, crate::ops::view(op, ConvertLayoutOp::of)?.src().r#type())?;
    let dst = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let registers = l.operand(&op, 0)?;
    if let Ok(map) = register_map(&src, &dst, &|c: &[u32]| c.to_vec()) {
        l.set_result(&op, 0, map.iter().map(|r| registers[*r]).collect());
        return Ok(());
    }
    let element =
        *registers.first().map(|r| type_of(*r)).as_ref().ok_or_else(|| LowerError::at(&op, "empty tensor"))?;
    // Within a warp and cheap enough (upstream's test): shuffles, as upstream.
    let needs_shuffles = tritium_layout::convert::cvt_needs_warp_shuffle(&src.linear, &dst.linear)
        .map_err(|e| LowerError::at(&op, e.to_string()))?;
    if needs_shuffles && within_warp::supported(element) {
        let bits = crate::ops::warp::bit_width(element).unwrap_or(32);
        let plan = within_warp::Plan::new(&src.linear, &dst.linear, bits).map_err(|e| LowerError::at(&op, e))?;
        let moved = plan.run(&mut within_warp::Emitter::new(l, element), &registers);
        l.set_result(&op, 0, moved);
        return Ok(());
    }
    let base = l.scratch_base(&op)?;
    // The scratch holds the tensor, or one of the rounds it is moved in
    // (allocate-shared-memory-nv sizes it as upstream does).
    let numel: i64 = src.shape.iter().product();
    let bytes = numel * stored_bytes(element) as i64;
    let scratch = tritium_passes::analysis::scratch::scratch_bytes(&op, l.target.capability) as i64;
    if scratch <= 0 || bytes % scratch != 0 || !((bytes / scratch) as u64).is_power_of_two() {
        return Err(LowerError::at(
            &op,
            format!(
                "the conversion's scratch ({scratch} bytes) does not divide the tensor ({bytes} bytes) into rounds"
            ),
        ));
    }
    let rounds_log2 = (bytes / scratch).trailing_zeros();
    let plan =
        plan_conversion(&src, &dst, stored_bytes(element), l.target.capability, rounds_log2, narrowed_one_by_one(op))
            .map_err(|e| LowerError::at(&op, e))?;
    // Barriers around the whole op are tritongpu-membar's; these separate
    // the op's own writes from its reads, and each round from the next. Where
    // each warp reads back only what it wrote, the warp's own barrier is
    // enough (tritongpu-membar does not count on this op to sync the CTA).
    let warp_synchronous = tritium_layout::convert::is_warp_synchronous_conversion(&src.linear, &dst.linear);
    let barrier = |l: &mut Lowering<'c>| if warp_synchronous { l.b.warp_barrier() } else { l.b.barrier() };
    let mut result = vec![None; dst.num_registers()];
    for round in 0..plan.rounds.count() {
        if round > 0 {
            barrier(l);
        }
        let written: Vec<V> = Rounds::registers(&plan.rounds.src_bits, src.num_registers(), round)
            .into_iter()
            .map(|r| registers[r])
            .collect();
        store_registers(l, &plan.write_access, &plan.write, &written, base);
        barrier(l);
        let read = Rounds::registers(&plan.rounds.dst_bits, dst.num_registers(), round);
        let values = load_registers(l, &plan.read_access, &plan.read, read.len(), element, base)
            .ok_or_else(|| LowerError::at(&op, "the conversion's reads leave registers unread"))?;
        for (r, v) in read.into_iter().zip(values) {
            result[r] = Some(v);
        }
    }
    let result = result
        .into_iter()
        .collect::<Option<Vec<V>>>()
        .ok_or_else(|| LowerError::at(&op, "the conversion's rounds leave registers unread"))?;
    l.set_result(&op, 0, result);
    Ok(())
}

/// Whether the converted tensor comes straight from a float conversion of
/// f32 to 16 bits (`arith.truncf`, `tt.fp_to_fp`; the matmul epilogue's f32
/// accumulator to f16/bf16): each element is converted alone (LLVM packs any
/// two of them with one `cvt.rn.f16x2.f32`), so the scratch may pair them as
/// it likes. Not fp8 results: their conversions make pairs.
fn narrowed_one_by_one(op: OperationRef) -> bool {
    use tritium_passes::analysis::type_facts::{bit_width, element_type};
    let element_bits = |v: melior::ir::Value| bit_width(element_type(v.r#type()));
    op.operand(0).ok().and_then(tritium_passes::ssa::defining_op).is_some_and(|source| {
        matches!(tritium_passes::ir::name_of(&source).as_str(), "arith.truncf" | "tt.fp_to_fp")
            && matches!((source.operand(0), source.result(0)), (Ok(wide), Ok(narrow))
                if element_bits(wide) == Some(32) && element_bits(narrow.into()) == Some(16))
    })
}

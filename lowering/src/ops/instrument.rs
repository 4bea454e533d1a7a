//! The `tti` ops the concurrency sanitizer inserts (upstream's
//! InstrumentationToLLVM):
//! - `tti.experimental_buffer_pointers`: the addresses of the tracked
//!   buffers (offsets plus the base of shared or tensor memory);
//! - `tti.experimental_memdesc_to_i64`: a buffer's address, to compare with
//!   them (a memdesc is the address of its first element here);
//! - `tti.experimental_assert_in_thread`: `__assertfail` in thread 0 when
//!   any (or all, `check_any`) of the values it holds is false;
//! - `tti.experimental_lock_acquire` / `_release`: a spin lock in global
//!   memory around the sanitizer's updates of its state, taken by one thread
//!   for the CTA (or partition) and fenced by barriers.
use crate::{
    builder::{type_of, Cursor, V},
    emit::{LowerError, Lowering, Result},
    ops::{
        debug::assert_fail_if,
        warp::{first_thread, if_then},
    },
};
use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationBuilder, OperationLike},
    Block, BlockLike, BlockRef, OperationRef, Region, RegionLike, Type, TypeLike, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::AssertInThreadOp;

pub fn lower_buffer_pointers<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let offsets = crate::dense_i32_attribute(&op, "offsets").ok_or_else(|| LowerError::at(&op, "has no offsets"))?;
    // `MemType`: 0 shared memory, 1 tensor memory.
    let tensor_memory = crate::int_attribute(&op, "memType") == Some(1);
    let i64 = l.b.i64();
    let base = if tensor_memory {
        let pointer = l.b.ptr(6);
        let base = l.b.op1("nvg.tensor_memory_base", &[], pointer, &[]);
        l.b.op1("llvm.ptrtoint", &[base], i64, &[])
    } else {
        let shared = l.shared_base;
        l.b.op1("llvm.ptrtoint", &[shared], i64, &[])
    };
    let ty = op.result_at(0).unwrap().r#type();
    let layout = l.tensor_layout(&op, ty)?;
    let thread_local =
        [&layout.lane_bases, &layout.warp_bases].iter().all(|bases| bases.iter().flatten().all(|&b| b == 0));
    let mut registers = Vec::with_capacity(layout.num_registers());
    for r in 0..layout.num_registers() {
        let offset = if thread_local {
            // Every thread holds the whole list: each register's offset is
            // a constant.
            let index = layout.register_coords[r][0] as usize;
            l.b.int(i64, offsets.get(index).copied().unwrap_or(0) as i64)
        } else {
            // Else pick it by the register's (run-time) coordinate.
            let index = l.coordinate(&layout, r, 0);
            let mut offset = l.b.int(i64, 0);
            for (i, o) in offsets.iter().enumerate() {
                let position = l.b.i32_const(i as i64);
                let here = l.b.icmp(0, index, position);
                let candidate = l.b.int(i64, *o as i64);
                offset = l.b.select(here, candidate, offset);
            }
            offset
        };
        registers.push(l.b.add(offset, base));
    }
    l.set_result(&op, 0, registers);
    Ok(())
}

pub fn lower_memdesc_to_i64<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer = l.operand(&op, 0)?[0];
    let i64 = l.b.i64();
    let address = l.b.op1("llvm.ptrtoint", &[pointer], i64, &[]);
    l.set_result(&op, 0, vec![address]);
    Ok(())
}

pub fn lower_assert_in_thread<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let conditions = l.operand(&op, 0)?;
    let any = op.attribute("check_any").is_ok_and(|a| a.to_string() == "true");
    let message =
        op.attribute("message").ok().and_then(tritium_dialects::access::string_attribute_value).unwrap_or_default();
    let ty = type_of(*conditions.first().ok_or_else(|| LowerError::at(&op, "has no condition"))?);
    // Folded from its identity: false for "any", true for "all". The
    // constants are fresh ops here, in order, as upstream's.
    let identity = constant_here(l, ty, if any { 0 } else { 1 });
    let no = constant_here(l, ty, 0);
    // LLVM ops (not arith): the conversion folds arith ops with constants,
    // and the chain should read as upstream's.
    let mut holds = identity;
    for c in &conditions {
        holds = l.b.binary(if any { "llvm.or" } else { "llvm.and" }, holds, *c);
    }
    let yes = constant_here(l, ty, 1);
    let failed = l.b.binary("llvm.xor", holds, yes);
    // Reported once, by thread 0 (the sanitizer's tensors are the same in
    // every thread).
    let first = first_thread(l);
    let failed = l.b.select(first, failed, no);
    assert_fail_if(l, failed, &message, op.location())?;
    if crate::ops::view(op, AssertInThreadOp::of)?.condition().r#type().is_ranked_tensor() {
        // What follows may read the state in another layout: every thread
        // must be past the assert first.
        l.b.barrier();
    }
    Ok(())
}

/// An integer constant at the cursor (not shared with other uses).
fn constant_here<'c>(l: &mut Lowering<'c>, ty: Type<'c>, value: i64) -> V {
    let attribute = IntegerAttribute::new(ty, value).into();
    l.b.op1("llvm.mlir.constant", &[], ty, &[("value", attribute)])
}

pub fn lower_lock_acquire<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let lock = l.operand(&op, 0)?[0];
    let first = first_thread(l);
    let taker = if op.operand_count() > 1 {
        let pred = l.operand(&op, 1)?[0];
        l.b.and(first, pred)
    } else {
        first
    };
    // One thread spins on compare-and-swap 0 -> 1 until it gets the lock.
    if_then(l, taker, &[], |l| {
        spin_until_zero(l, |l| {
            let (zero, one, i32) = (l.b.i32_const(0), l.b.i32_const(1), l.b.i32());
            l.b.inline_asm(
                "\tatom.global.acquire.gpu.cas.b32 $0, [$1], $2, $3;",
                "=r,l,r,r",
                &[lock, zero, one],
                Some(i32),
            )
            .expect("the asm has a result")
        });
        Ok(Vec::new())
    })?;
    // The others wait for it.
    l.b.barrier();
    Ok(())
}

pub fn lower_lock_release<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let lock = l.operand(&op, 0)?[0];
    let release = |l: &mut Lowering<'c>| {
        // Every thread is done with the state before the lock is freed.
        l.b.barrier();
        let first = first_thread(l);
        let (zero, i32) = (l.b.i32_const(0), l.b.i32());
        l.b.inline_asm(
            "@$1 atom.global.gpu.acq_rel.exch.b32 $0, [$2], $3;",
            "=r,b,l,r",
            &[first, lock, zero],
            Some(i32),
        );
        Ok(Vec::new())
    };
    if op.operand_count() > 1 {
        let pred = l.operand(&op, 1)?[0];
        if_then(l, pred, &[], release)?;
    } else {
        release(l)?;
    }
    Ok(())
}

/// `do { old = attempt(); } while (old != 0)` as an `scf.while` at the
/// cursor.
fn spin_until_zero<'c>(l: &mut Lowering<'c>, attempt: impl FnOnce(&mut Lowering<'c>) -> V) {
    let location = l.b.location;
    let regions = [Region::new(), Region::new()];
    for region in &regions {
        region.append_block(Block::new(&[]));
    }
    let operation = OperationBuilder::new("scf.while", location).add_regions(regions).build().expect("scf.while");
    let new = match l.b.cursor {
        Cursor::End(block) => unsafe { BlockRef::from_raw(block) }.append_operation(operation),
        Cursor::Before(anchor) => {
            let anchor = unsafe { OperationRef::from_raw(anchor) };
            anchor.block().expect("anchored op is in a block").insert_operation_before(anchor, operation)
        }
    };
    let before = new.region_at(0).unwrap().first_block().unwrap();
    let after = new.region_at(1).unwrap().first_block().unwrap();
    let saved = l.b.cursor;
    l.b.cursor = Cursor::End(before.to_raw());
    let old = attempt(l);
    let zero = l.b.i32_const(0);
    let held = l.b.icmp(1, old, zero);
    l.b.op("scf.condition", &[held], &[], &[]);
    l.b.cursor = Cursor::End(after.to_raw());
    l.b.op("scf.yield", &[], &[], &[]);
    l.b.cursor = saved;
}

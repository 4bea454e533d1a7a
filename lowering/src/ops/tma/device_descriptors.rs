//! Device-side tensor descriptors (`tt.make_tensor_descriptor`), as
//! triton-nvidia-tma-lowering leaves them: each is a 128-byte tensormap in
//! the program's global scratch.
//!
//! - `ttg.global_scratch_alloc`: the kernel's global-scratch parameter plus
//!   `program * size + offset` (program = the CTA's linear id; size and
//!   offset from tritongpu-global-scratch-memory-allocation), as upstream;
//!   `program * size` goes through a `mov` of its own per allocation (see
//!   [`global_scratch_alloc`]).
//! - `ttng.tensormap_create`: the tensormap is built in shared memory (the
//!   op's 128-byte scratch): the first warp zeroes it, thread 0 sets each
//!   field with `tensormap.replace`, then the first warp copies it to global
//!   memory with `tensormap.cp_fenceproxy` (which releases it to the tensormap
//!   proxy).
//! - `ttng.tensormap_fenceproxy_acquire`: the first warp acquires the
//!   tensormap in the tensormap proxy (`fence.proxy.tensormap::generic.
//!   acquire`, followed by a bulk commit/wait as upstream works around a
//!   ptxas bug), then every thread waits for it (`bar.sync`).
//! - `ttng.reinterpret_tensor_descriptor`: the descriptor is the tensormap's
//!   generic address, as for a by-value parameter.
use super::first_thread;
use crate::{
    builder::V,
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{operation::OperationLike, OperationRef};
use tritium_passes::analysis::scratch::TENSORMAP_BYTES;

pub fn global_scratch_alloc<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let offset = crate::int_attribute(&op, "ttg.global_scratch_memory_offset").ok_or_else(|| {
        LowerError::at(&op, "has no ttg.global_scratch_memory_offset (run tritongpu-global-scratch-memory-allocation)")
    })?;
    let size = l.global_scratch_size;
    let base = l.global_scratch.ok_or_else(|| LowerError::at(&op, "the kernel has no global-scratch parameter"))?;
    let program = linear_program_id(l);
    let size = l.b.i32_const(size as i64);
    let start = l.b.mul(program, size);
    // Each allocation starts from its own copy of `program * size` (a `mov`,
    // free after ptxas), which LLVM cannot see through: otherwise LLVM 22's
    // straight-line strength reduction (slsr, redesigned after upstream
    // 3.6's LLVM) rewrites the second and later tensormaps' addresses as the
    // first one's plus a constant, and ptxas then keeps those addresses in
    // vector registers and moves them to uniform ones (R2UR) before every TMA
    // copy of the loop: persist_device_desc_matmul_f16 had 54 R2UR and 1176
    // SASS instructions (30 and 1136 without that rewrite) and ran 1.025-1.037x
    // upstream's time, 0.995 with the pass disabled (bench/gpu_session12.sh
    // PART=1, column noslsr).
    let start = l.b.inline_asm("mov.b32 $0, $1;", "=r,r", &[start], Some(l.b.int_type(32))).expect("one result");
    let offset = l.b.i32_const(offset);
    let at = l.b.add(start, offset);
    let i8 = l.b.int_type(8);
    let pointer = l.b.gep(base, at, i8);
    l.set_result(&op, 0, vec![pointer]);
    Ok(())
}

/// `(pid.z * npid.y + pid.y) * npid.x + pid.x` over the program ids (a
/// cluster's when the launch runs several CTAs per program, whose first CTA
/// alone runs the program: the launcher's scratch, sized per CTA, is then
/// more than enough).
fn linear_program_id<'c>(l: &mut Lowering<'c>) -> V {
    let mut linear = l.program_id(2, false);
    for axis in [1, 0] {
        let count = l.program_id(axis, true);
        let id = l.program_id(axis, false);
        let scaled = l.b.mul(linear, count);
        linear = l.b.add(scaled, id);
    }
    linear
}

/// `tid.x < threads per warp`: the warp that runs the warp-wide
/// (`.sync.aligned`) steps.
fn first_warp<'c>(l: &mut Lowering<'c>) -> V {
    let warp_size = l.b.i32_const(i64::from(l.threads_per_warp));
    l.b.icmp(6, l.tid, warp_size) // ult
}

pub fn tensormap_create<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    // Operands: descriptor pointer, global address, then rank box dims,
    // rank global dims, rank - 1 global strides (bytes), rank element strides.
    let n = op.operand_count();
    if n < 5 || (n - 1) % 4 != 0 {
        return Err(LowerError::at(&op, "has operands of no tensormap rank"));
    }
    let rank = (n - 1) / 4;
    let operand = |l: &Lowering<'c>, i: usize| l.operand(&op, i).map(|r| r[0]);
    let descriptor = operand(l, 0)?;
    let global_address = operand(l, 1)?;
    let field =
        |name: &str| crate::int_attribute(&op, name).ok_or_else(|| LowerError::at(&op, format!("has no {name}")));
    let (element_type, interleave, swizzle, fill) =
        (field("elem_type")?, field("interleave_layout")?, field("swizzle_mode")?, field("fill_mode")?);
    let smem = l.scratch_base(&op)?;

    // Zero the 128 bytes: one 32-bit word per lane of the first warp.
    let in_first_warp = first_warp(l);
    let i32 = l.b.i32();
    let word = l.b.gep(smem, l.tid, i32);
    l.b.inline_asm("@$0 st.shared.b32 [$1], 0;", "b,r", &[in_first_warp, word], None);
    l.b.inline_asm("bar.warp.sync -1;", "", &[], None);

    // Operands in upstream's order (the tensormap's address, the value,
    // the predicate) and its hexadecimal immediates.
    let first = first_thread(l);
    let replace = |l: &mut Lowering<'c>, field: &str, ordinal: Option<usize>, value: V, bits: u32| {
        let ordinal = ordinal.map(|i| format!("{i:#x}, ")).unwrap_or_default();
        let asm = format!("@$2 tensormap.replace.tile.{field}.shared::cta.b1024.b{bits} [ $0 + 0 ], {ordinal}$1;");
        let constraint = if bits == 64 { "l" } else { "r" };
        l.b.inline_asm(&asm, &format!("r,{constraint},b"), &[smem, value, first], None);
    };
    let immediate = |l: &mut Lowering<'c>, field: &str, value: i64| {
        let asm = format!("@$1 tensormap.replace.tile.{field}.shared::cta.b1024.b32 [ $0 + 0 ], {value:#x};");
        l.b.inline_asm(&asm, "r,b", &[smem, first], None);
    };
    replace(l, "global_address", None, global_address, 64);
    immediate(l, "rank", rank as i64 - 1);
    for i in 0..rank {
        let value = operand(l, 2 + i)?;
        replace(l, "box_dim", Some(i), value, 32);
    }
    for i in 0..rank {
        let value = operand(l, 2 + rank + i)?;
        replace(l, "global_dim", Some(i), value, 32);
    }
    for i in 0..rank - 1 {
        let value = operand(l, 2 + 2 * rank + i)?;
        replace(l, "global_stride", Some(i), value, 64);
    }
    for i in 0..rank {
        let value = operand(l, 1 + 3 * rank + i)?;
        replace(l, "element_stride", Some(i), value, 32);
    }
    immediate(l, "elemtype", element_type);
    immediate(l, "interleave_layout", interleave);
    immediate(l, "swizzle_mode", swizzle);
    immediate(l, "fill_mode", fill);

    // The first warp copies the tensormap out and releases it.
    let in_first_warp = first_warp(l);
    let asm = format!(
        "@$2 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ $0 + 0 ], [ $1 + 0 ], {TENSORMAP_BYTES:#x};"
    );
    l.b.inline_asm(&asm, "l,r,b", &[descriptor, smem, in_first_warp], None);
    Ok(())
}

pub fn fenceproxy_acquire<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let descriptor = l.operand(&op, 0)?[0];
    let in_first_warp = first_warp(l);
    let asm = format!(
        "@$1 fence.proxy.tensormap::generic.acquire.gpu [ $0 + 0 ], {TENSORMAP_BYTES:#x};\n\t\
         @$1 cp.async.bulk.commit_group;\n\t\
         @$1 cp.async.bulk.wait_group.read 0;"
    );
    l.b.inline_asm(&asm, "l,b", &[descriptor, in_first_warp], None);
    // One warp fenced; the others wait for it.
    l.b.barrier();
    Ok(())
}

pub fn reinterpret<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let raw = l.operand(&op, 0)?[0];
    let generic = l.b.ptr(0);
    let descriptor = l.b.op1("llvm.addrspacecast", &[raw], generic, &[]);
    l.set_result(&op, 0, vec![descriptor]);
    Ok(())
}

//! TMA (sm_90): tensor-descriptor copies between global and shared memory,
//! and the mbarriers they complete on.
//!
//! - `ttng.async_tma_copy_global_to_local`: `cp.async.bulk.tensor.Nd.
//!   shared::cluster.global.mbarrier::complete_tx::bytes`, one per TMA box of
//!   the destination buffer; completion is counted on the mbarrier.
//! - `ttng.async_tma_copy_local_to_global`: `cp.async.bulk.tensor.Nd.global.
//!   shared::cta.bulk_group`, one per box, then `cp.async.bulk.commit_group`;
//!   `ttng.async_tma_store_wait` is `cp.async.bulk.wait_group.read N`.
//! - `ttng.async_tma_reduce`: the same with `cp.reduce.async.bulk.tensor`
//!   and the reduction kind.
//! - `ttng.init_barrier` / `inval_barrier` / `barrier_expect` /
//!   `arrive_barrier` (thread 0 of the CTA) and `wait_barrier` (every thread
//!   spins on `mbarrier.try_wait.parity`).
//!
//! A TMA box is at most 256 elements along each dim and, with an NVMMA
//! swizzle, exactly one swizzle row (swizzle bytes) along the contiguous dim
//! (upstream `getTMABlockShape`). A buffer larger than one box takes several
//! copies, issued as upstream does: in rounds of one copy per warp, from a
//! lane `elect.sync` picks (see [`issue_rounds`]). The shared offset of each
//! box is the buffer's shared layout inverted at the box's origin.
//!
//! The descriptor (a `!tt.tensordesc` value) is the generic address of a
//! 128-byte CUtensorMap: for a kernel parameter, the by-value
//! `.param .align 64 .b8 [128]` (see [`parameter_abi`]); for a device-side
//! descriptor, the tensormap the kernel built in global scratch
//! (`device_descriptors`). For a parameter, the host fills the
//! CUtensorMap with the box shape, swizzle and element type that
//! [`descriptor_metadata`] writes into the bundle's json (upstream's
//! `tensordesc_meta`), since they must match the copies emitted here.
use crate::{
    builder::V,
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{operation::OperationLike, OperationRef, Type, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::WaitBarrierOp;
use tritium_dialects::{layout::layout_of, types, types::MemDesc};
use tritium_layout::{kinds::tma_box, Dim};

mod device_descriptors;

pub fn lower_init_barrier<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let count = crate::int_attribute(&op, "count").ok_or_else(|| LowerError::at(&op, "has no count"))?;
    let barrier = l.operand(&op, 0)?[0];
    let first = first_thread(l);
    l.b.inline_asm(&format!("@$0 mbarrier.init.shared::cta.b64 [$1], {count};"), "b,r", &[first, barrier], None);
    Ok(())
}

pub fn lower_inval_barrier<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let barrier = l.operand(&op, 0)?[0];
    let first = first_thread(l);
    l.b.inline_asm("@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r", &[first, barrier], None);
    Ok(())
}

pub fn lower_barrier_expect<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let size = crate::int_attribute(&op, "size").ok_or_else(|| LowerError::at(&op, "has no size"))?;
    let barrier = l.operand(&op, 0)?[0];
    let pred = l.operand(&op, 1)?[0];
    let first = first_thread(l);
    let pred = l.b.and(first, pred);
    l.b.inline_asm(
        &format!("@$0 mbarrier.arrive.expect_tx.shared.b64 _, [$1], {size};"),
        "b,r",
        &[pred, barrier],
        None,
    );
    Ok(())
}

pub fn lower_arrive_barrier<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let count = crate::int_attribute(&op, "count").unwrap_or(1);
    let barrier = l.operand(&op, 0)?[0];
    let mut pred = first_thread(l);
    if op.operand_count() > 1 {
        let given = l.operand(&op, 1)?[0];
        pred = l.b.and(pred, given);
    }
    let asm = format!("@$0 mbarrier.arrive.shared::cta.b64 _, [$1], {count};");
    l.b.inline_asm(&asm, "b,r", &[pred, barrier], None);
    Ok(())
}

pub fn lower_async_tma_store_wait<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pendings = crate::int_attribute(&op, "pendings").unwrap_or(0);
    // NVVM's op (`cp.async.bulk.wait_group.read N`), as upstream.
    let i32 = l.b.i32();
    let group = l.b.int_attr(i32, pendings);
    let read = melior::ir::Attribute::unit(l.context());
    l.b.op("nvvm.cp.async.bulk.wait_group", &[], &[], &[("group", group), ("read", read)]);
    Ok(())
}

/// `ttng.async_copy_mbarrier_arrive`: the barrier tracks this thread's
/// earlier cp.async copies (NVVM's op, as upstream); `noIncrement` leaves
/// the barrier's pending count as it is.
pub fn lower_async_copy_mbarrier_arrive<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let barrier = l.operand(&op, 0)?[0];
    let mut attributes = Vec::new();
    if op.attribute("noIncrement").is_ok() {
        let i1 = l.b.int_type(1);
        attributes.push(("noinc", l.b.int_attr(i1, 1)));
    }
    l.b.op("nvvm.cp.async.mbarrier.arrive", &[barrier], &[], &attributes);
    Ok(())
}

// Device-side descriptors (tt.make_tensor_descriptor, lowered by
// triton-nvidia-tma-lowering): a tensormap built in the program's global
// scratch, see `device_descriptors`.
pub use device_descriptors::{
    fenceproxy_acquire as lower_tensormap_fenceproxy_acquire, global_scratch_alloc as lower_global_scratch_alloc,
    reinterpret as lower_reinterpret_tensor_descriptor, tensormap_create as lower_tensormap_create,
};

/// `tid.x == 0`: the one thread that initialises and arrives on barriers.
fn first_thread<'c>(l: &mut Lowering<'c>) -> V {
    let zero = l.b.i32_const(0);
    l.b.icmp(0, l.tid, zero)
}

/// Every thread waits for the phase to complete. The spin loop is inside
/// the PTX so that the structured control flow around it stays as it is.
pub fn lower_wait_barrier<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let barrier = l.operand(&op, 0)?[0];
    let phase = l.operand(&op, 1)?[0];
    // A predicate that is the constant true is no predicate (upstream's
    // folding of `wait_barrier %b, %phase, %true`).
    let predicated = crate::ops::view(op, WaitBarrierOp::of)?.pred().is_some_and(|pred| !is_constant_true(pred));
    let body = "mbarrier.try_wait.parity.shared.b64 complete, [$0], $1;";
    if predicated {
        let pred = l.operand(&op, 2)?[0];
        let asm = format!(
            "{{\n.reg .pred complete;\n@!$2 bra.uni skipWait;\nwaitLoop:\n{body}\n@!complete bra.uni waitLoop;\nskipWait:\n}}"
        );
        l.b.inline_asm(&asm, "r,r,b", &[barrier, phase, pred], None);
    } else {
        let asm = format!("{{\n.reg .pred complete;\nwaitLoop:\n{body}\n@!complete bra.uni waitLoop;\n}}");
        l.b.inline_asm(&asm, "r,r", &[barrier, phase], None);
    }
    Ok(())
}

/// Whether `value` is `arith.constant true`.
fn is_constant_true(value: melior::ir::Value) -> bool {
    tritium_dialects::ir::values::defining_op(value).is_some_and(|def| {
        crate::ops::name_of(&def) == "arith.constant" && def.attribute("value").is_ok_and(|v| v.to_string() == "true")
    })
}

/// One TMA copy of a buffer: the box's origin in the block (coordinates
/// added to the op's) and its byte offset in the buffer.
struct Message {
    origin: Vec<i64>,
    byte_offset: i64,
}

/// The copies that move a whole buffer, in upstream's order (dim 0 varies
/// fastest).
fn messages(op: &OperationRef, memdesc_type: Type, coordinates: usize) -> Result<(Vec<Message>, MemDesc<'static>)> {
    let memdesc = MemDesc::of(memdesc_type).ok_or_else(|| LowerError::at(op, "expects a memdesc"))?;
    if memdesc.shape.len() > coordinates {
        return Err(LowerError::at(op, "has a buffer of higher rank than its coordinates"));
    }
    let memdesc: MemDesc<'static> = unsafe { std::mem::transmute(memdesc) };
    let encoding = layout_of(memdesc.encoding).map_err(|e| LowerError::at(op, e.to_string()))?;
    let shape = memdesc.shape.clone();
    let (boxed, _) = tma_box(&shape, &encoding).map_err(|e| LowerError::at(op, e))?;
    let shared = encoding.to_linear(&shape).map_err(|e| LowerError::at(op, e.to_string()))?;
    let inverse = shared.invert().map_err(|e| LowerError::at(op, e.to_string()))?;
    let element_bits = crate::ops::shared::element_bytes(memdesc.element_type) as i64 * 8;
    let counts: Vec<i64> = shape.iter().zip(&boxed).map(|(s, b)| s / b).collect();
    let total: i64 = counts.iter().product();
    let mut out = Vec::new();
    for index in 0..total {
        let mut rest = index;
        let mut origin = Vec::new();
        for (count, size) in counts.iter().zip(&boxed) {
            origin.push((rest % count) * size);
            rest /= count;
        }
        let coords: Vec<(Dim, u32)> = origin.iter().enumerate().map(|(d, o)| (Dim::Axis(d), *o as u32)).collect();
        let at = inverse.apply(&coords).map_err(|e| LowerError::at(op, e.to_string()))?;
        let offset = at.iter().find(|(d, _)| *d == Dim::Offset).map(|(_, v)| *v as i64).unwrap_or(0);
        out.push(Message { origin, byte_offset: offset * element_bits / 8 });
    }
    Ok((out, memdesc))
}

/// One copy as a warp issues it in a round: whether this thread issues it,
/// the box's origin (runtime offsets per buffer dim, added to the op's
/// coordinates) and its byte offset in the buffer.
struct IssuedCopy {
    issuing: V,
    origin: Vec<Option<V>>,
    byte_offset: Option<V>,
}

/// The copies of a buffer as upstream issues them: in rounds of `num_warps`
/// copies, warp `w` issuing copy `round * num_warps + w` from one lane that
/// `elect.sync` picks (which also tells ptxas that the copy is warp-uniform).
/// Each round is one instruction per thread, its box origin and offset
/// computed from the warp id: the copies are linear in their index over
/// GF(2) (copy `i` is the XOR of the copies of `i`'s bits, whose origins
/// occupy disjoint bits), so the warp's bits select basis copies.
fn issue_rounds<'c>(l: &mut Lowering<'c>, op: &OperationRef, messages: &[Message]) -> Result<Vec<IssuedCopy>> {
    let count = messages.len();
    let linear = count.is_power_of_two()
        && messages.iter().enumerate().all(|(index, message)| {
            let bases = (0..count.trailing_zeros()).filter(|b| index >> b & 1 == 1).map(|b| &messages[1 << b]);
            let mut expected = Message { origin: vec![0; message.origin.len()], byte_offset: 0 };
            for basis in bases {
                expected.byte_offset ^= basis.byte_offset;
                for (e, o) in expected.origin.iter_mut().zip(&basis.origin) {
                    *e ^= o;
                }
            }
            expected.origin == message.origin && expected.byte_offset == message.byte_offset
        });
    if !linear {
        return Err(LowerError::at(op, "the buffer's TMA boxes are not linear in their index"));
    }
    let i1 = l.b.int_type(1);
    let elected = l.b.op1("nvvm.elect.sync", &[], i1, &[]);
    let num_warps = l.num_warps as usize;
    let mut copies = Vec::new();
    for start in (0..count).step_by(num_warps) {
        let warps = (count - start).min(num_warps);
        let threads = l.b.i32_const((warps * l.threads_per_warp as usize) as i64);
        let in_warps = l.b.icmp(6, l.tid, threads); // ult
        let issuing = l.b.and(elected, in_warps);
        // Bit b of the warp id adds basis copy `1 << b` (none when one warp issues).
        let warp_bits: Vec<(usize, V)> = (0..warps.trailing_zeros() as usize)
            .map(|b| {
                let bit = l.b.i32_const(1 << b);
                let zero = l.b.i32_const(0);
                let masked = l.b.and(l.warp, bit);
                (b, l.b.icmp(1, masked, zero)) // ne
            })
            .collect();
        let value = |l: &mut Lowering<'c>, of: &dyn Fn(&Message) -> i64| -> Option<V> {
            let constant = of(&messages[start]);
            let mut value = (constant != 0).then(|| l.b.i32_const(constant));
            for (b, set) in &warp_bits {
                let basis = of(&messages[1 << b]);
                if basis == 0 {
                    continue;
                }
                let basis = l.b.i32_const(basis);
                let zero = l.b.i32_const(0);
                let part = l.b.select(*set, basis, zero);
                value = Some(match value {
                    Some(v) => l.b.xor(v, part),
                    None => part,
                });
            }
            value
        };
        let rank = messages[start].origin.len();
        let origin = (0..rank).map(|d| value(l, &|m: &Message| m.origin[d])).collect();
        let byte_offset = value(l, &|m: &Message| m.byte_offset);
        copies.push(IssuedCopy { issuing, origin, byte_offset });
    }
    Ok(copies)
}

/// The PTX coordinates of a copy: innermost dim first, as TMA takes them.
/// A rank-reducing copy (a `1x8x64` descriptor block into an `8x64`
/// buffer) has fewer buffer dims than coordinates: the box origin offsets
/// the innermost ones.
fn box_coordinates<'c>(l: &mut Lowering<'c>, coords: &[V], origin: &[Option<V>]) -> Vec<V> {
    let dropped = coords.len().saturating_sub(origin.len());
    (0..coords.len())
        .rev()
        .map(|d| match d.checked_sub(dropped).and_then(|b| origin[b]) {
            None => coords[d],
            Some(offset) => l.b.add(coords[d], offset),
        })
        .collect()
}

fn buffer_address<'c>(l: &mut Lowering<'c>, base: V, byte_offset: Option<V>) -> V {
    match byte_offset {
        None => base,
        Some(offset) => {
            let i8 = l.b.int_type(8);
            l.b.gep(base, offset, i8)
        }
    }
}

fn check_plain_access(op: &OperationRef) -> Result<()> {
    // tt's CacheModifier NONE and EvictionPolicy NORMAL are both 1.
    for (name, what) in [("cache", "a cache modifier"), ("evict", "an eviction policy")] {
        if crate::int_attribute(op, name).is_some_and(|v| v != 1) {
            return Err(LowerError::at(op, format!("TMA copies with {what} are not supported yet")));
        }
    }
    if op.attribute("isVolatile").is_ok_and(|v| v.to_string() == "true") {
        return Err(LowerError::at(op, "volatile TMA copies are not supported yet"));
    }
    Ok(())
}

/// The descriptor's block has as many dimensions as the copy has
/// coordinates. The op's verifier, as upstream's, only bounds their number
/// (1 to 5); a copy of another rank would name a tensormap of another
/// dimensionality than the descriptor's.
fn check_coordinate_count(op: &OperationRef, coordinates: usize) -> Result<()> {
    let descriptor = op.operand_at(0).map_err(|_| LowerError::at(op, "has no descriptor"))?.r#type();
    let rank = types::tensor_descriptor_block(descriptor)
        .and_then(|block| melior::ir::r#type::RankedTensorType::try_from(block).ok())
        .map(|block| melior::ir::r#type::ShapedTypeLike::rank(&block));
    match rank {
        Some(rank) if rank != coordinates => Err(LowerError::at(
            op,
            format!(
                "has {coordinates} coordinates for a descriptor of rank {rank}; a TMA copy needs one per dimension"
            ),
        )),
        _ => Ok(()),
    }
}

pub fn lower_async_tma_copy_global_to_local<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    check_plain_access(&op)?;
    let n = op.operand_count();
    let descriptor = l.operand(&op, 0)?[0];
    let coords: Vec<V> = (1..n - 3).map(|i| l.operand(&op, i).map(|r| r[0])).collect::<Result<_>>()?;
    let barrier = l.operand(&op, n - 3)?[0];
    let buffer = l.operand(&op, n - 2)?[0];
    let pred = l.operand(&op, n - 1)?[0];
    let rank = coords.len();
    check_coordinate_count(&op, rank)?;
    let (messages, _) = messages(&op, op.operand_at(n - 2).unwrap().r#type(), rank)?;
    for copy in issue_rounds(l, &op, &messages)? {
        let issuing = l.b.and(pred, copy.issuing);
        let destination = buffer_address(l, buffer, copy.byte_offset);
        let mut operands = vec![issuing, destination, descriptor];
        operands.extend(box_coordinates(l, &coords, &copy.origin));
        operands.push(barrier);
        let placeholders: Vec<String> = (0..rank).map(|i| format!("${}", 3 + i)).collect();
        let asm = format!(
            "@$0 cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {{{}}}], [${}];",
            placeholders.join(", "),
            3 + rank
        );
        let constraints = format!("b,r,l,{}r", "r,".repeat(rank));
        l.b.inline_asm(&asm, &constraints, &operands, None);
    }
    Ok(())
}

/// `ttng.async_tma_reduce`: the store's copies as `cp.reduce.async.bulk.
/// tensor` with the reduction kind (`add`, `min`, `max`, `inc`, `dec`,
/// `and`, `or`, `xor`: tt's DescriptorReduceKind), which the TMA unit
/// applies element-wise to global memory in the tensormap's element type.
pub fn lower_async_tma_reduce<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    const KINDS: [&str; 8] = ["add", "min", "max", "inc", "dec", "and", "or", "xor"];
    let kind = crate::int_attribute(&op, "kind")
        .and_then(|k| usize::try_from(k - 1).ok())
        .and_then(|k| KINDS.get(k))
        .ok_or_else(|| LowerError::at(&op, "has no known reduction kind"))?;
    // Operands: (desc, coords..., src), as the store's; the kind is an attribute.
    store_like(l, op, &format!("cp.reduce.async.bulk.tensor.{{rank}}d.global.shared::cta.{kind}.bulk_group"))
}

pub fn lower_async_tma_copy_local_to_global<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    store_like(l, op, "cp.async.bulk.tensor.{rank}d.global.shared::cta.bulk_group")
}

/// A TMA store-like op (descriptor, coordinates, shared source): one
/// `instruction` per box (`{rank}` in it is replaced by the rank), then a
/// bulk-group commit.
fn store_like<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, instruction: &str) -> Result<()> {
    let n = op.operand_count();
    let descriptor = l.operand(&op, 0)?[0];
    let coords: Vec<V> = (1..n - 1).map(|i| l.operand(&op, i).map(|r| r[0])).collect::<Result<_>>()?;
    let buffer = l.operand(&op, n - 1)?[0];
    let rank = coords.len();
    check_coordinate_count(&op, rank)?;
    let (messages, _) = messages(&op, op.operand_at(n - 1).unwrap().r#type(), rank)?;
    for copy in issue_rounds(l, &op, &messages)? {
        let source = buffer_address(l, buffer, copy.byte_offset);
        let mut operands = vec![copy.issuing, descriptor];
        operands.extend(box_coordinates(l, &coords, &copy.origin));
        operands.push(source);
        let placeholders: Vec<String> = (0..rank).map(|i| format!("${}", 2 + i)).collect();
        let asm = format!(
            "@$0 {} [$1, {{{}}}], [${}];",
            instruction.replace("{rank}", &rank.to_string()),
            placeholders.join(", "),
            2 + rank
        );
        let constraints = format!("b,l,{}r", "r,".repeat(rank));
        l.b.inline_asm(&asm, &constraints, &operands, None);
    }
    l.b.op("nvvm.cp.async.bulk.commit.group", &[], &[], &[]);
    Ok(())
}

/// How a kernel parameter of type `ty` is passed, when not as itself: a
/// `!tt.tensordesc` is a CUtensorMap by value (128 bytes, 64-aligned,
/// `.param` space, `nvvm.grid_constant` so that its address can be taken
/// without a copy), as upstream passes host-side descriptors. Returns the
/// LLVM type and the parameter's attribute dictionary.
pub fn parameter_abi(ty: Type) -> Option<(&'static str, &'static str)> {
    types::tensor_descriptor_block(ty)?;
    Some(by_value_descriptor_abi())
}

/// A CUtensorMap passed by value: its LLVM type and parameter attributes.
pub fn by_value_descriptor_abi() -> (&'static str, &'static str) {
    ("!llvm.ptr", "{llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant}")
}

/// What a launcher must put into the CUtensorMap of a host-side descriptor
/// parameter of type `ty` (upstream's `tensordesc_meta` entry, as JSON):
/// swizzle mode, element size and TMA element type, box shape.
pub fn descriptor_metadata(ty: Type) -> Option<std::result::Result<String, String>> {
    let block = types::tensor_descriptor_block(ty)?;
    Some((|| {
        let shape = types::static_shape(block).ok_or("the descriptor's block has no static shape")?;
        let text = block.to_string();
        let element = text
            .trim_start_matches("tensor<")
            .split(',')
            .next()
            .unwrap_or("")
            .rsplit('x')
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let encoding = melior::ir::r#type::RankedTensorType::try_from(block)
            .ok()
            .and_then(|t| t.encoding())
            .ok_or("the descriptor's block has no shared encoding (run triton-nvidia-optimize-descriptor-encoding)")?;
        let layout = layout_of(encoding).map_err(|e| e.to_string())?;
        let (boxed, swizzle) = tma_box(&shape, &layout)?;
        let (size, kind) = tma_element_type(&element).ok_or_else(|| format!("TMA does not move {element} elements"))?;
        let boxed: Vec<String> = boxed.iter().map(|b| b.to_string()).collect();
        Ok(format!(
            "{{\"swizzle\": {swizzle}, \"elem_size\": {size}, \"elem_type\": {kind}, \"block_size\": [{}], \"fp4_padded\": false}}",
            boxed.join(", ")
        ))
    })())
}

/// Bytes and TMA data-type code (the device-side numbering upstream's
/// metadata uses) of an element type.
pub fn tma_element_type(element: &str) -> Option<(u32, u32)> {
    // Descriptor blocks keep the frontend's signedness (`si32`, `ui8`).
    let signed = element.starts_with("si");
    let element = element.strip_prefix('s').or_else(|| element.strip_prefix('u')).unwrap_or(element);
    Some(match element {
        "f16" => (2, 6),
        "bf16" => (2, 10),
        "f32" => (4, 7),
        "f64" => (8, 9),
        "i8" | "i1" => (1, 0),
        _ if element.starts_with("f8") => (1, 0),
        "i16" => (2, 1),
        "i32" => (4, if signed { 3 } else { 2 }),
        "i64" => (8, if signed { 5 } else { 4 }),
        _ => return None,
    })
}

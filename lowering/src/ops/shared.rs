//! Shared-memory buffers: ttg.local_alloc / local_load / local_store and the
//! memdesc views (index, subslice, trans). A buffer is a pointer into the
//! kernel's shared memory; where each element of a tensor goes is the
//! buffer's shared layout inverted and composed with the tensor's layout.
//! Offsets come from allocate-shared-memory-nv (allocation.offset) and the
//! barriers between accesses from tritongpu-membar (ttg.local_barrier).
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::{thread_linear, xor_offset, SharedAccess, TensorLayout},
    transfer::{best_mode, canonical_mask, instructions, matrix_row_offsets, verify, Mode},
};
use melior::ir::{OperationRef, Type, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{AsyncCopyGlobalToLocalOp, LocalAllocOp, LocalLoadOp, LocalStoreOp, MemDescSubsliceOp};
use tritium_dialects::{layout::layout_of, types::MemDesc};
use tritium_layout::LinearLayout;

/// Bytes of one element in shared memory (i1 is stored as i8).
pub fn element_bytes(ty: Type) -> usize {
    match ty.to_string().as_str() {
        "f64" | "i64" => 8,
        "f16" | "bf16" | "i16" => 2,
        "i8" | "i1" | "f8E4M3FN" | "f8E5M2" | "f8E4M3FNUZ" | "f8E5M2FNUZ" => 1,
        _ if ty.to_string().starts_with("!tt.ptr") => 8,
        _ => 4,
    }
}

fn memdesc_layout(op: &OperationRef, ty: Type) -> Result<(MemDesc<'static>, LinearLayout)> {
    let memdesc = MemDesc::of(ty).ok_or_else(|| LowerError::at(op, format!("{ty} is not a memdesc")))?;
    let layout = layout_of(memdesc.encoding).map_err(|e| LowerError::at(op, e.to_string()))?;
    let linear = layout.to_linear(&memdesc.shape).map_err(|e| LowerError::at(op, e.to_string()))?;
    // The memdesc outlives nothing here; only shape and types are read.
    let memdesc: MemDesc<'static> = unsafe { std::mem::transmute(memdesc) };
    Ok((memdesc, linear))
}

/// Offsets of a tensor's registers in a buffer of `element_bytes`-byte
/// elements: the access (in elements) and this thread's byte offset (see
/// [`thread_offset`]).
fn access<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef,
    memdesc_type: Type<'c>,
    tensor: &TensorLayout,
    element_bytes: u32,
) -> Result<(SharedAccess, V)> {
    let (_, shared) = memdesc_layout(op, memdesc_type)?;
    let access = SharedAccess::new(&shared, tensor).map_err(|e| LowerError::at(op, e))?;
    let (base, _) = byte_offset(l, &access.lane_offsets, &access.warp_offsets, element_bytes);
    Ok((access, base))
}

/// How a register of type `element` is kept in shared memory: i1 as i8,
/// pointers as i64 (so that vectors of them are plain integer vectors).
pub(crate) fn stored_type<'c>(l: &Lowering<'c>, element: Type<'c>) -> Type<'c> {
    let text = element.to_string();
    if text == "i1" {
        l.b.int_type(8)
    } else if text.starts_with("!llvm.ptr") {
        l.b.i64()
    } else {
        element
    }
}

/// Bytes of a lowered register type in shared memory.
pub(crate) fn stored_bytes(element: Type) -> u32 {
    let text = element.to_string();
    match text.as_str() {
        "f64" | "i64" => 8,
        "f16" | "bf16" | "i16" => 2,
        "i8" | "i1" => 1,
        _ if text.starts_with("f8") => 1,
        _ if text.starts_with("!llvm.ptr") => 8,
        _ => 4,
    }
}

fn to_stored<'c>(l: &Lowering<'c>, v: V, stored: Type<'c>) -> V {
    let ty = type_of(v);
    if ty == stored {
        v
    } else if ty.to_string().starts_with("!llvm.ptr") {
        l.b.op1("llvm.ptrtoint", &[v], stored, &[])
    } else {
        l.b.op1("arith.extui", &[v], stored, &[])
    }
}

fn from_stored<'c>(l: &Lowering<'c>, v: V, element: Type<'c>) -> V {
    if type_of(v) == element {
        v
    } else if element.to_string().starts_with("!llvm.ptr") {
        l.b.op1("llvm.inttoptr", &[v], element, &[])
    } else {
        l.b.op1("arith.trunci", &[v], element, &[])
    }
}

/// This thread's part of the offsets `mode` addresses, in bytes of
/// `element_bytes`-byte elements: its own elements' for vectors, the rows
/// it gives the address of for matrices. Returns the offset and the bits
/// the thread ids can set in it.
///
/// Byte offsets (an i8 GEP), as upstream computes them: each lane and warp
/// bit's offset is scaled before the ids are masked and shifted into place,
/// so the scaling is in the shifts, not one shift of the sum. As element
/// offsets these terms shared subexpressions (`tid << 3`, `tid & 24`) with
/// the element coordinates the kernel computes from the same ids, which
/// LLVM then kept live across loops (matmul_naive_f16: 71 registers
/// against upstream's 64).
fn thread_offset<'c>(l: &mut Lowering<'c>, access: &SharedAccess, mode: &Mode, element_bytes: u32) -> (V, u32) {
    match matrix_row_offsets(access, mode) {
        Some((lanes, warps)) => byte_offset(l, &lanes, &warps, element_bytes),
        None => byte_offset(l, &access.lane_offsets, &access.warp_offsets, element_bytes),
    }
}

/// The thread's byte offset from the element offsets of its lane and warp
/// bits, and the bits the ids can set in it.
fn byte_offset<'c>(l: &mut Lowering<'c>, lanes: &[u32], warps: &[u32], element_bytes: u32) -> (V, u32) {
    let ids = l.ids();
    let lanes: Vec<u32> = lanes.iter().map(|v| v * element_bytes).collect();
    let warps: Vec<u32> = warps.iter().map(|v| v * element_bytes).collect();
    let mask = lanes.iter().chain(&warps).fold(0, |m, o| m | o);
    (l.in_prologue(|b| thread_linear(b, ids, &lanes, &warps)), mask)
}

/// The attributes of nvvm.ldmatrix / nvvm.stmatrix (as upstream, the NVVM
/// ops rather than inline asm: LLVM then folds constant address offsets
/// and schedules them as the shared-memory accesses they are).
fn matrix_attributes<'c>(l: &Lowering<'c>, trans: bool) -> Vec<(&'static str, melior::ir::Attribute<'c>)> {
    let parse = |text: &str| melior::ir::Attribute::parse(l.context(), text).expect("NVVM attribute syntax");
    vec![
        ("layout", parse(if trans { "#nvvm.mma_layout<col>" } else { "#nvvm.mma_layout<row>" })),
        ("shape", parse("#nvvm.ld_st_matrix_shape<m = 8, n = 8>")),
        ("eltType", parse("#nvvm.ld_st_matrix_elt_type<b16>")),
    ]
}

/// Writes `registers` (one thread's, in its layout's register order) into
/// the buffer at `pointer` with `mode`.
pub(crate) fn store_registers<'c>(
    l: &mut Lowering<'c>,
    access: &SharedAccess,
    mode: &Mode,
    registers: &[V],
    pointer: V,
) {
    let element = type_of(registers[0]);
    let stored = stored_type(l, element);
    let bytes = stored_bytes(element);
    let (thread, mask) = thread_offset(l, access, mode, bytes);
    let i8 = l.b.int_type(8);
    for instruction in instructions(access, mode) {
        let index = xor_offset(&mut l.b, thread, mask, access.register_offsets[instruction.base] * bytes);
        let address = l.b.gep(pointer, index, i8);
        let values: Vec<V> = instruction.registers.iter().map(|r| to_stored(l, registers[*r], stored)).collect();
        match mode {
            Mode::Vector { .. } => store_vector(l, &values, address, bytes * 8),
            Mode::Matrix { trans, word, .. } => {
                let per_word = 1 << word.len();
                let words: Vec<V> =
                    values.chunks(per_word).flat_map(|w| crate::ops::memory::pack(l, w, bytes * 8, 32)).collect();
                let mut operands = vec![address];
                operands.extend(&words);
                let attributes = matrix_attributes(l, *trans);
                l.b.op("nvvm.stmatrix", &operands, &[], &attributes);
            }
        }
    }
}

/// The words of a shared-memory access of `count` elements of `bits` bits,
/// as upstream's storeDShared/loadDShared shape it: integer vectors (a
/// scalar is a one-element vector), and more than four elements narrower
/// than 32 bits as 32-bit words (PTX has at most v4). Returns (words, bits
/// per word).
fn access_words(count: usize, bits: u32) -> (usize, u32) {
    if count > 4 && bits < 32 {
        (count * bits as usize / 32, 32)
    } else {
        (count, bits)
    }
}

/// `values` (of a stored type, `bits` wide) as the integer vector
/// `elements` of `lane` type.
fn int_vector<'c>(l: &mut Lowering<'c>, values: &[V], lane: Type<'c>) -> V {
    let vector_type = Type::vector(&[values.len() as u64], lane);
    let mut vector = l.b.op1("llvm.mlir.undef", &[], vector_type, &[]);
    for (i, v) in values.iter().enumerate() {
        let int = if type_of(*v) == lane { *v } else { l.b.op1("llvm.bitcast", &[*v], lane, &[]) };
        let position = l.b.i32_const(i as i64);
        vector = l.b.op1("llvm.insertelement", &[vector, int, position], vector_type, &[]);
    }
    vector
}

/// One vectorised store of `values` (a stored type of `bits` bits) at
/// `address`, aligned to its size.
fn store_vector<'c>(l: &mut Lowering<'c>, values: &[V], address: V, bits: u32) {
    let (words, word_bits) = access_words(values.len(), bits);
    let element_int = l.b.int_type(bits);
    let vector = if word_bits == bits {
        int_vector(l, values, element_int)
    } else {
        let i32 = l.b.i32();
        let per_word = values.len() / words;
        let packed: Vec<V> = values
            .chunks(per_word)
            .map(|chunk| {
                let vector = int_vector(l, chunk, element_int);
                l.b.op1("llvm.bitcast", &[vector], i32, &[])
            })
            .collect();
        int_vector(l, &packed, i32)
    };
    let alignment = l.b.int_attr(l.b.i64(), (values.len() as u32 * bits / 8) as i64);
    l.b.op("llvm.store", &[vector, address], &[], &[("alignment", alignment)]);
}

/// One vectorised load of `count` values of `stored` type (`bits` bits)
/// from `address`, the inverse of [`store_vector`]: the integer words
/// loaded, then seen as `count` values of `stored` type (one bitcast).
fn load_vector<'c>(l: &mut Lowering<'c>, address: V, count: usize, stored: Type<'c>, bits: u32) -> Vec<V> {
    let (words, word_bits) = access_words(count, bits);
    let word_type = l.b.int_type(word_bits);
    let loaded_type = Type::vector(&[words as u64], word_type);
    let alignment = l.b.int_attr(l.b.i64(), (count as u32 * bits / 8) as i64);
    let loaded = l.b.op1("llvm.load", &[address], loaded_type, &[("alignment", alignment)]);
    let values_type = Type::vector(&[count as u64], stored);
    let values = if values_type == loaded_type { loaded } else { l.b.op1("llvm.bitcast", &[loaded], values_type, &[]) };
    (0..count)
        .map(|i| {
            let position = l.b.i32_const(i as i64);
            l.b.op1("llvm.extractelement", &[values, position], stored, &[])
        })
        .collect()
}

/// Reads `count` registers of type `element` (in the layout's register
/// order) from the buffer at `pointer` with `mode`; `None` if `mode` leaves
/// a register unread (a bug of the caller's mode).
pub(crate) fn load_registers<'c>(
    l: &mut Lowering<'c>,
    access: &SharedAccess,
    mode: &Mode,
    count: usize,
    element: Type<'c>,
    pointer: V,
) -> Option<Vec<V>> {
    let stored = stored_type(l, element);
    let bytes = stored_bytes(element);
    let (thread, mask) = thread_offset(l, access, mode, bytes);
    let i8 = l.b.int_type(8);
    let mut loaded: Vec<Option<V>> = vec![None; count];
    for instruction in instructions(access, mode) {
        let index = xor_offset(&mut l.b, thread, mask, access.register_offsets[instruction.base] * bytes);
        let address = l.b.gep(pointer, index, i8);
        let values: Vec<V> = match mode {
            Mode::Vector { .. } => load_vector(l, address, instruction.registers.len(), stored, bytes * 8),
            Mode::Matrix { trans, word, .. } => {
                let count = instruction.registers.len() >> word.len();
                let i32_type = l.b.i32();
                let result_type = if count == 1 {
                    i32_type
                } else {
                    melior::dialect::llvm::r#type::r#struct(l.context(), &vec![i32_type; count], false)
                };
                let mut attributes = matrix_attributes(l, *trans);
                attributes.push(("num", l.b.int_attr(i32_type, count as i64)));
                let out = l.b.op1("nvvm.ldmatrix", &[address], result_type, &attributes);
                // Each b32 holds the elements of the thread's word, the first
                // in the low bits.
                (0..count)
                    .flat_map(|j| {
                        let matrix_word = if count == 1 {
                            out
                        } else {
                            let position = melior::ir::attribute::DenseI64ArrayAttribute::new(l.context(), &[j as i64]);
                            l.b.op1("llvm.extractvalue", &[out], i32_type, &[("position", position.into())])
                        };
                        crate::ops::memory::unpack(l, &[matrix_word], 32, bytes * 8, stored)
                    })
                    .collect()
            }
        };
        for (r, v) in instruction.registers.iter().zip(values) {
            loaded[*r] = Some(from_stored(l, v, element));
        }
    }
    // Registers that repeat an element take the register that was loaded.
    let canonical = canonical_mask(access);
    (0..count).map(|r| loaded.get(r & canonical).copied().flatten()).collect()
}

/// Writes a tensor's registers into the buffer at `pointer`.
fn write<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    registers: &[V],
    tensor_type: Type<'c>,
    memdesc_type: Type<'c>,
    pointer: V,
) -> Result<()> {
    let tensor = l.tensor_layout(op, tensor_type)?;
    let (_, shared) = memdesc_layout(op, memdesc_type)?;
    let access = SharedAccess::new(&shared, &tensor).map_err(|e| LowerError::at(op, e))?;
    let mode = best_mode(&access, stored_bytes(type_of(registers[0])), l.target.capability, true);
    verify(&access, &mode).map_err(|e| LowerError::at(op, format!("shared-memory store: {e}")))?;
    store_registers(l, &access, &mode, registers, pointer);
    Ok(())
}

/// Reads a tensor of `tensor_type` from the buffer at `pointer`.
fn read<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    tensor_type: Type<'c>,
    memdesc_type: Type<'c>,
    pointer: V,
) -> Result<Vec<V>> {
    let tensor = l.tensor_layout(op, tensor_type)?;
    let (_, shared) = memdesc_layout(op, memdesc_type)?;
    let access = SharedAccess::new(&shared, &tensor).map_err(|e| LowerError::at(op, e))?;
    let element = l.lower_type(tensor_type);
    let mode = best_mode(&access, stored_bytes(element), l.target.capability, false);
    verify(&access, &mode).map_err(|e| LowerError::at(op, format!("shared-memory load: {e}")))?;
    load_registers(l, &access, &mode, tensor.num_registers(), element, pointer)
        .ok_or_else(|| LowerError::at(op, "the shared-memory access leaves registers unread"))
}

pub fn lower_local_dealloc<'c>(_l: &mut Lowering<'c>, _op: OperationRef<'c, '_>) -> Result<()> {
    Ok(())
}

pub fn lower_local_barrier<'c>(l: &mut Lowering<'c>, _op: OperationRef<'c, '_>) -> Result<()> {
    l.b.barrier();
    Ok(())
}

pub fn lower_local_alloc<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let offset = crate::int_attribute(&op, "allocation.offset")
        .ok_or_else(|| LowerError::at(&op, "has no allocation.offset (allocate-shared-memory-nv)"))?;
    let (base, i8) = (l.shared_base, l.b.int_type(8));
    let pointer = l.in_prologue(|b| {
        let offset = b.i32_const(offset);
        b.gep(base, offset, i8)
    });
    let memdesc_type = op.result_at(0).unwrap().r#type();
    if let Some(src) = crate::ops::view(op, LocalAllocOp::of)?.src() {
        let registers = l.operand(&op, 0)?;
        write(l, &op, &registers, src.r#type(), memdesc_type, pointer)?;
    }
    l.set_result(&op, 0, vec![pointer]);
    Ok(())
}

pub fn lower_local_store<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let registers = l.operand(&op, 0)?;
    let pointer = l.operand(&op, 1)?[0];
    let store = crate::ops::view(op, LocalStoreOp::of)?;
    write(l, &op, &registers, store.src().r#type(), store.dst().r#type(), pointer)
}

pub fn lower_local_load<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer = l.operand(&op, 0)?[0];
    let src_type = crate::ops::view(op, LocalLoadOp::of)?.src().r#type();
    let registers = read(l, &op, op.result_at(0).unwrap().r#type(), src_type, pointer)?;
    l.set_result(&op, 0, registers);
    Ok(())
}

pub fn lower_memdesc_index<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer = l.operand(&op, 0)?[0];
    let index = l.operand(&op, 1)?[0];
    let (memdesc, _) = memdesc_layout(&op, op.result_at(0).unwrap().r#type())?;
    let slice: i64 = memdesc.shape.iter().product();
    let stride = l.b.i32_const(slice);
    let elements = l.b.mul(index, stride);
    let element = l.lower_type(memdesc.element_type);
    let stored = if element.to_string() == "i1" { l.b.int_type(8) } else { element };
    let address = l.b.gep(pointer, elements, stored);
    l.set_result(&op, 0, vec![address]);
    Ok(())
}

/// `ttg.memdesc_trans` and `ttg.memdesc_reshape`: a view of the same bytes;
/// the result type's layout describes the transposition or the new shape
/// (the verifier checked that it maps every element to the same offset).
/// `ttg.memdesc_reinterpret` too: the same bytes from the same start, read
/// with another shape, element type and layout (a memdesc is the address of
/// its first element here; subslices and indexing already moved it there).
pub fn lower_memdesc_trans<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer = l.operand(&op, 0)?[0];
    l.set_result(&op, 0, vec![pointer]);
    Ok(())
}

pub fn lower_memdesc_subslice<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer = l.operand(&op, 0)?[0];
    let offsets = crate::dense_i32_attribute(&op, "offsets").ok_or_else(|| LowerError::at(&op, "has no offsets"))?;
    let (memdesc, shared) = memdesc_layout(&op, crate::ops::view(op, MemDescSubsliceOp::of)?.src().r#type())?;
    // The element at the subslice's origin, through the source's layout.
    let coords: Vec<(tritium_layout::Dim, u32)> =
        offsets.iter().enumerate().map(|(d, o)| (tritium_layout::Dim::Axis(d), *o as u32)).collect();
    let inverse = shared.invert().map_err(|e| LowerError::at(&op, e.to_string()))?;
    let origin = inverse.apply(&coords).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let offset = origin.iter().find(|(d, _)| *d == tritium_layout::Dim::Offset).map(|(_, v)| *v).unwrap_or(0);
    let element = l.lower_type(memdesc.element_type);
    let stored = if element.to_string() == "i1" { l.b.int_type(8) } else { element };
    let offset = l.b.i32_const(offset as i64);
    let address = l.b.gep(pointer, offset, stored);
    l.set_result(&op, 0, vec![address]);
    Ok(())
}

pub fn lower_async_commit_group<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    // NVVM's op, as upstream: LLVM prints it as upstream's PTX does.
    l.b.op("nvvm.cp.async.commit.group", &[], &[], &[]);
    let token = l.b.i32_const(0);
    l.set_result(&op, 0, vec![token]);
    Ok(())
}

pub fn lower_async_wait<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pending = crate::int_attribute(&op, "num").unwrap_or(0);
    // The barrier that makes other threads' copies visible follows
    // (tritongpu-membar puts a ttg.local_barrier after every wait).
    let i32 = l.b.i32();
    let n = l.b.int_attr(i32, pending);
    l.b.op("nvvm.cp.async.wait.group", &[], &[], &[("n", n)]);
    let token = l.b.i32_const(0);
    l.set_result(&op, 0, vec![token]);
    Ok(())
}

/// cp.async of each thread's elements into the buffer, vectorised up to 16
/// bytes by the pointers' contiguity (or the op's `contiguity` hint, which
/// the pipeliner sets where it knows more than the axis analysis);
/// masked-off elements are zero-filled. Of threads holding the same
/// elements only one copies them.
pub fn lower_async_copy_global_to_local<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let copy = crate::ops::view(op, AsyncCopyGlobalToLocalOp::of)?;
    let (source_type, memdesc_type) = (copy.src().r#type(), copy.result().r#type());
    let pointers = l.operand(&op, 0)?;
    let buffer = l.operand(&op, 1)?[0];
    // Masked-off elements are zero-filled whatever `other` says: the
    // pipeliner selects `other` after the local_load, as upstream assumes.
    let masks = if copy.mask().is_some() { Some(l.operand(&op, 2)?) } else { None };
    let tensor = l.tensor_layout(&op, source_type)?;
    let (memdesc, _) = memdesc_layout(&op, memdesc_type)?;
    let bytes = element_bytes(memdesc.element_type);
    let (access, thread_offset) = access(l, &op, memdesc_type, &tensor, bytes as u32)?;
    let contiguity =
        l.axis_info.as_ref().map(|a| a.contiguity_of(copy.src(), (bytes * 8) as u32) as usize).unwrap_or(1);
    let mask_run = match (copy.mask(), l.axis_info.as_ref()) {
        (Some(mask), Some(a)) => a.mask_alignment(mask) as usize,
        (Some(_), None) => 1,
        (None, _) => usize::MAX,
    };
    let hint = crate::int_attribute(&op, "contiguity").unwrap_or(1).max(1) as usize;
    // cp.async moves 4, 8 or 16 bytes.
    let mut width = access.vector_width(contiguity.min(mask_run).max(hint).min(16 / bytes).max(1));
    while width * bytes < 4 && width < 16 / bytes {
        width *= 2;
    }
    if width * bytes < 4 {
        return Err(LowerError::at(&op, "cp.async needs at least 4 contiguous bytes"));
    }
    // Offsets are in bytes.
    let i8 = l.b.int_type(8);
    let thread_mask = access.thread_mask() * bytes as u32;
    let size = width * bytes;
    let cache = if size == 16 { "cg" } else { "ca" };
    let owner = crate::ops::memory::owner_predicate(l, tensor.free_lane_mask(), tensor.free_warp_mask());
    for start in (0..pointers.len()).step_by(width) {
        if tensor.is_duplicate_register(start) {
            continue;
        }
        let index = xor_offset(&mut l.b, thread_offset, thread_mask, access.register_offsets[start] * bytes as u32);
        let destination = l.b.gep(buffer, index, i8);
        let destination = to_shared_u32(l, destination);
        let mut operands = vec![destination, pointers[start]];
        let mut constraints = String::from("r,l");
        // The bytes read from global memory (`src-size`): all of them, or
        // none where the mask is off, which zero-fills the destination.
        let source_size = match &masks {
            Some(masks) => {
                let zero = l.b.i32_const(0);
                let full = l.b.i32_const(size as i64);
                operands.push(l.b.select(masks[start], full, zero));
                constraints += ",r";
                format!("${}", operands.len() - 1)
            }
            None => format!("{size:#x}"),
        };
        let predicate = match owner {
            Some(owner) => {
                operands.push(owner);
                constraints += ",b";
                format!("@${} ", operands.len() - 1)
            }
            None => String::new(),
        };
        l.b.inline_asm(
            &format!("{predicate}cp.async.{cache}.shared.global [ $0 + 0 ], [ $1 + 0 ], {size:#x}, {source_size};"),
            &constraints,
            &operands,
            None,
        );
    }
    let token = l.b.i32_const(0);
    l.set_result(&op, 0, vec![token]);
    Ok(())
}

/// A shared-memory pointer as the 32-bit address PTX's shared instructions take.
fn to_shared_u32<'c>(l: &mut Lowering<'c>, pointer: V) -> V {
    let i32 = l.b.i32();
    l.b.op1("llvm.ptrtoint", &[pointer], i32, &[])
}

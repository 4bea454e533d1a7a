//! Shared-memory buffers: ttg.local_alloc / local_load / local_store and the
//! memdesc views (index, subslice, trans). A buffer is a pointer into the
//! kernel's shared memory; where each element of a tensor goes is the
//! buffer's shared layout inverted and composed with the tensor's layout.
//! Offsets come from allocate-shared-memory-nv (allocation.offset) and the
//! barriers between accesses from tritongpu-membar (ttg.local_barrier).
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::{runtime_offset, SharedAccess, TensorLayout},
};
use melior::ir::{operation::OperationLike, OperationRef, Type, ValueLike};
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

/// Offsets of a tensor's registers in a buffer.
fn access<'c>(l: &mut Lowering<'c>, op: &OperationRef, memdesc_type: Type<'c>, tensor: &TensorLayout) -> Result<(SharedAccess, V)> {
    let (_, shared) = memdesc_layout(op, memdesc_type)?;
    let access = SharedAccess::new(&shared, tensor).map_err(|e| LowerError::at(op, e))?;
    let (lane, warp) = (l.lane, l.warp);
    let base = l.in_prologue(|b| runtime_offset(b, &access, lane, warp));
    Ok((access, base))
}

/// Writes a tensor's registers into the buffer at `pointer`.
fn write<'c>(l: &mut Lowering<'c>, op: &OperationRef<'c, '_>, registers: &[V], tensor_type: Type<'c>, memdesc_type: Type<'c>, pointer: V) -> Result<()> {
    let tensor = l.tensor_layout(op, tensor_type)?;
    let (access, thread_offset) = access(l, op, memdesc_type, &tensor)?;
    let element = type_of(registers[0]);
    let stored = if element.to_string() == "i1" { l.b.int_type(8) } else { element };
    let bytes = element_bytes(element);
    let width = access.vector_width(16 / bytes);
    for start in (0..registers.len()).step_by(width) {
        if (start..start + width).all(|r| tensor.is_duplicate_register(r)) {
            continue;
        }
        let constant = l.b.i32_const(access.register_offsets[start] as i64);
        let index = l.b.xor(thread_offset, constant);
        let address = l.b.gep(pointer, index, stored);
        let values: Vec<V> = registers[start..start + width]
            .iter()
            .map(|v| if stored == element { *v } else { l.b.op1("arith.extui", &[*v], stored, &[]) })
            .collect();
        if width == 1 {
            l.b.op("llvm.store", &[values[0], address], &[], &[("alignment", l.b.int_attr(l.b.i64(), bytes as i64))]);
        } else {
            let vector_type = Type::vector(&[width as u64], stored);
            let mut vector = l.b.op1("llvm.mlir.undef", &[], vector_type, &[]);
            for (i, v) in values.iter().enumerate() {
                let position = l.b.i32_const(i as i64);
                vector = l.b.op1("llvm.insertelement", &[vector, *v, position], vector_type, &[]);
            }
            let alignment = l.b.int_attr(l.b.i64(), (width * bytes) as i64);
            l.b.op("llvm.store", &[vector, address], &[], &[("alignment", alignment)]);
        }
    }
    Ok(())
}

/// Reads a tensor of `tensor_type` from the buffer at `pointer`.
fn read<'c>(l: &mut Lowering<'c>, op: &OperationRef<'c, '_>, tensor_type: Type<'c>, memdesc_type: Type<'c>, pointer: V) -> Result<Vec<V>> {
    let tensor = l.tensor_layout(op, tensor_type)?;
    let (access, thread_offset) = access(l, op, memdesc_type, &tensor)?;
    let element = l.lower_type(tensor_type);
    let stored = if element.to_string() == "i1" { l.b.int_type(8) } else { element };
    let bytes = element_bytes(element);
    let width = access.vector_width(16 / bytes);
    let mut registers = Vec::with_capacity(tensor.num_registers());
    for start in (0..tensor.num_registers()).step_by(width) {
        let constant = l.b.i32_const(access.register_offsets[start] as i64);
        let index = l.b.xor(thread_offset, constant);
        let address = l.b.gep(pointer, index, stored);
        let values: Vec<V> = if width == 1 {
            let alignment = l.b.int_attr(l.b.i64(), bytes as i64);
            vec![l.b.op1("llvm.load", &[address], stored, &[("alignment", alignment)])]
        } else {
            let vector_type = Type::vector(&[width as u64], stored);
            let alignment = l.b.int_attr(l.b.i64(), (width * bytes) as i64);
            let vector = l.b.op1("llvm.load", &[address], vector_type, &[("alignment", alignment)]);
            (0..width)
                .map(|i| {
                    let position = l.b.i32_const(i as i64);
                    l.b.op1("llvm.extractelement", &[vector, position], stored, &[])
                })
                .collect()
        };
        for v in values {
            registers.push(if stored == element { v } else { l.b.op1("arith.trunci", &[v], element, &[]) });
        }
    }
    Ok(registers)
}

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, name: &str) -> Result<()> {
    match name {
        "ttg.local_dealloc" => Ok(()),
        "ttg.local_barrier" => {
            l.b.barrier();
            Ok(())
        }
        "ttg.local_alloc" => {
            let offset = crate::int_attribute(&op, "allocation.offset")
                .ok_or_else(|| LowerError::at(&op, "has no allocation.offset (allocate-shared-memory-nv)"))?;
            let (base, i8) = (l.shared_base, l.b.int_type(8));
            let pointer = l.in_prologue(|b| {
                let offset = b.i32_const(offset as i64);
                b.gep(base, offset, i8)
            });
            let memdesc_type = op.result(0).unwrap().r#type();
            if op.operand_count() == 1 {
                let registers = l.operand(&op, 0)?;
                write(l, &op, &registers, op.operand(0).unwrap().r#type(), memdesc_type, pointer)?;
            }
            l.set_result(&op, 0, vec![pointer]);
            Ok(())
        }
        "ttg.local_store" => {
            let registers = l.operand(&op, 0)?;
            let pointer = l.operand(&op, 1)?[0];
            write(l, &op, &registers, op.operand(0).unwrap().r#type(), op.operand(1).unwrap().r#type(), pointer)
        }
        "ttg.local_load" => {
            let pointer = l.operand(&op, 0)?[0];
            let registers = read(l, &op, op.result(0).unwrap().r#type(), op.operand(0).unwrap().r#type(), pointer)?;
            l.set_result(&op, 0, registers);
            Ok(())
        }
        "ttg.memdesc_index" => {
            let pointer = l.operand(&op, 0)?[0];
            let index = l.operand(&op, 1)?[0];
            let (memdesc, _) = memdesc_layout(&op, op.result(0).unwrap().r#type())?;
            let slice: i64 = memdesc.shape.iter().product();
            let stride = l.b.i32_const(slice);
            let elements = l.b.mul(index, stride);
            let element = memdesc.element_type;
            let stored = if element.to_string() == "i1" { l.b.int_type(8) } else { element };
            let address = l.b.gep(pointer, elements, stored);
            l.set_result(&op, 0, vec![address]);
            Ok(())
        }
        "ttg.memdesc_trans" => {
            // A view: the result type's layout describes the transposition.
            let pointer = l.operand(&op, 0)?[0];
            l.set_result(&op, 0, vec![pointer]);
            Ok(())
        }
        "ttg.memdesc_subslice" => {
            let pointer = l.operand(&op, 0)?[0];
            let offsets = crate::dense_i32_attribute(&op, "offsets").ok_or_else(|| LowerError::at(&op, "has no offsets"))?;
            let (memdesc, shared) = memdesc_layout(&op, op.operand(0).unwrap().r#type())?;
            // The element at the subslice's origin, through the source's layout.
            let coords: Vec<(tritium_layout::Dim, u32)> =
                offsets.iter().enumerate().map(|(d, o)| (tritium_layout::Dim::Axis(d), *o as u32)).collect();
            let inverse = shared.invert().map_err(|e| LowerError::at(&op, e.to_string()))?;
            let origin = inverse.apply(&coords).map_err(|e| LowerError::at(&op, e.to_string()))?;
            let offset = origin.iter().find(|(d, _)| *d == tritium_layout::Dim::Offset).map(|(_, v)| *v).unwrap_or(0);
            let element = memdesc.element_type;
            let stored = if element.to_string() == "i1" { l.b.int_type(8) } else { element };
            let offset = l.b.i32_const(offset as i64);
            let address = l.b.gep(pointer, offset, stored);
            l.set_result(&op, 0, vec![address]);
            Ok(())
        }
        "ttg.async_copy_global_to_local" => async_copy(l, op),
        "ttg.async_commit_group" => {
            l.b.inline_asm("cp.async.commit_group;", "", &[], None);
            let token = l.b.i32_const(0);
            l.set_result(&op, 0, vec![token]);
            Ok(())
        }
        "ttg.async_wait" => {
            let pending = crate::int_attribute(&op, "num").unwrap_or(0);
            // The barrier that makes other threads' copies visible follows
            // (tritongpu-membar puts a ttg.local_barrier after every wait).
            l.b.inline_asm(&format!("cp.async.wait_group {pending};"), "", &[], None);
            let token = l.b.i32_const(0);
            l.set_result(&op, 0, vec![token]);
            Ok(())
        }
        _ => Err(LowerError::at(&op, "is not supported by the lowering yet")),
    }
}

/// cp.async of each thread's elements into the buffer, vectorised up to 16
/// bytes by the pointers' contiguity; masked-off elements are zero-filled.
fn async_copy<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let source_type = op.operand(0).unwrap().r#type();
    let memdesc_type = op.operand(1).unwrap().r#type();
    let pointers = l.operand(&op, 0)?;
    let buffer = l.operand(&op, 1)?[0];
    // Masked-off elements are zero-filled whatever `other` says: the
    // pipeliner selects `other` after the local_load, as upstream assumes.
    let masks = if op.operand_count() >= 3 { Some(l.operand(&op, 2)?) } else { None };
    let tensor = l.tensor_layout(&op, source_type)?;
    let (access, thread_offset) = access(l, &op, memdesc_type, &tensor)?;
    let (memdesc, _) = memdesc_layout(&op, memdesc_type)?;
    let bytes = element_bytes(memdesc.element_type);
    let contiguity = l
        .axis_info
        .as_ref()
        .map(|a| a.contiguity_of(op.operand(0).unwrap(), (bytes * 8) as u32) as usize)
        .unwrap_or(1);
    let mask_run = match (&masks, l.axis_info.as_ref()) {
        (Some(_), Some(a)) => a.mask_alignment(op.operand(2).unwrap()) as usize,
        (Some(_), None) => 1,
        (None, _) => usize::MAX,
    };
    // cp.async moves 4, 8 or 16 bytes.
    let mut width = access.vector_width(contiguity.min(mask_run).min(16 / bytes).max(1));
    while width * bytes < 4 && width < 16 / bytes {
        width *= 2;
    }
    if width * bytes < 4 {
        return Err(LowerError::at(&op, "cp.async needs at least 4 contiguous bytes"));
    }
    let i8 = l.b.int_type(8);
    let size = width * bytes;
    let cache = if size == 16 { "cg" } else { "ca" };
    for start in (0..pointers.len()).step_by(width) {
        if tensor.is_duplicate_register(start) {
            continue;
        }
        let constant = l.b.i32_const((access.register_offsets[start] as usize * bytes) as i64);
        let element_offset = l.b.i32_const(bytes as i64);
        let thread_bytes = l.b.mul(thread_offset, element_offset);
        let offset = l.b.xor(thread_bytes, constant);
        let destination = l.b.gep(buffer, offset, i8);
        match &masks {
            Some(masks) => {
                let zero = l.b.i32_const(0);
                let full = l.b.i32_const(size as i64);
                let source_size = l.b.select(masks[start], full, zero);
                let destination = to_shared_u32(l, destination);
                l.b.inline_asm(
                    &format!("cp.async.{cache}.shared.global [ $0 + 0 ], [ $1 + 0 ], {size}, $2;"),
                    "r,l,r",
                    &[destination, pointers[start], source_size],
                    None,
                );
            }
            None => {
                let destination = to_shared_u32(l, destination);
                l.b.inline_asm(
                    &format!("cp.async.{cache}.shared.global [ $0 + 0 ], [ $1 + 0 ], {size};"),
                    "r,l",
                    &[destination, pointers[start]],
                    None,
                );
            }
        }
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

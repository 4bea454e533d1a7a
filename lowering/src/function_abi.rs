//! How lowered functions pass values, as upstream Triton's lowering does
//! (FuncOpToLLVM, ControlFlowOpToLLVM): a tensor argument or result travels
//! as an `!llvm.struct` of the registers one thread holds of it, in register
//! order; a function with several results returns one struct of them.
//!
//! Kernels (public `tt.func`s) address shared memory through the module's
//! `global_smem` and, with `scratch-parameters`, take upstream's trailing
//! global- and profile-scratch pointers. Device functions (private
//! `tt.func`s, called with `tt.call`) always take three trailing parameters:
//! the base of their shared memory (`!llvm.ptr<3>`: the caller's base plus
//! the call's `allocation.offset`, so that the callee's buffers sit where
//! allocate-shared-memory-nv reserved them) and the two scratch pointers.
//! They are `noinline` and internal, so that each stays one PTX `.func`.
use crate::{
    builder::{Builder, V},
    emit::{distribute, LowerError, Lowering, Result},
    ops,
};
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, FlatSymbolRefAttribute},
    operation::OperationLike,
    r#type::ShapedTypeLike,
    Attribute, OperationRef, Type, TypeLike, ValueLike,
};
use tritium_dialects::{
    access::{ranked_tensor, OpAccess},
    types,
    views::UnrealizedConversionCastOp,
};

/// Whether `function` (a `tt.func`) is a kernel: upstream's rule, public
/// visibility (no `sym_visibility`, or `"public"`).
pub fn is_kernel(function: &OperationRef) -> bool {
    function.attribute("sym_visibility").map_or(true, |v| v.to_string() == "\"public\"")
}

/// Why a scalar kernel parameter of type `ty` cannot be passed, if it cannot:
/// a launcher passes integers of 1, 8, 16, 32 or 64 bits and f16, bf16, f32 or
/// f64 (Triton's signature types); PTX has no parameter of another width
/// (an `i33` would reach ptxas as `.param .u33`). Pointers, tensors,
/// descriptors and the rest are checked where they are lowered.
pub fn unsupported_kernel_parameter(ty: Type) -> Option<String> {
    use tritium_dialects::ir::types::{scalar_kind, ScalarKind};
    match scalar_kind(ty) {
        ScalarKind::Int(1 | 8 | 16 | 32 | 64) | ScalarKind::F16 | ScalarKind::BF16 | ScalarKind::F32 => None,
        ScalarKind::F64 | ScalarKind::NativeFp8 | ScalarKind::OtherFp8 => None,
        ScalarKind::Int(bits) => Some(format!(
            "a kernel parameter of type i{bits} cannot be passed by a launcher: kernel integers are 1, 8, 16, 32 or 64 bits"
        )),
        ScalarKind::Other if tritium_dialects::ir::types::is_float(ty) => Some(format!(
            "a kernel parameter of type {ty} cannot be passed by a launcher: kernel floats are f16, bf16, f32 or f64"
        )),
        ScalarKind::Other => None,
    }
}

/// The register type of one element of `ty` (a tensor's element, or a
/// scalar): `!tt.ptr` becomes `!llvm.ptr<space>`, fp8 its byte, `index` i32
/// (upstream lowers `index` to 32 bits).
pub fn register_type<'c>(b: &Builder<'c>, ty: Type<'c>) -> Type<'c> {
    let element = ranked_tensor(ty).map(|t| t.element()).unwrap_or(ty);
    match types::pointer_parts(element) {
        Some((_, address_space)) => b.ptr(address_space as u32),
        None if ops::fp8::is_fp8(element) => b.int_type(8),
        None if element.is_index() => b.i32(),
        None => element,
    }
}

/// The LLVM type a value of type `ty` crosses a call boundary as: a tensor
/// as the struct of its registers, a scalar as its register.
/// A shared-memory descriptor (`!ttg.memdesc`) as upstream's struct of its
/// base pointer and one i32 offset per dimension; Tritium folds offsets into
/// the pointer, so it passes zeros and reads only the pointer.
pub fn abi_type<'c>(b: &Builder<'c>, op: &OperationRef, ty: Type<'c>) -> Result<Type<'c>> {
    if let Some(memdesc) = types::MemDesc::of(ty) {
        let mut fields = vec![b.ptr(3)];
        fields.extend(std::iter::repeat_n(b.i32(), memdesc.shape.len()));
        return Ok(melior::dialect::llvm::r#type::r#struct(b.context, &fields, false));
    }
    if !ty.is_ranked_tensor() {
        return Ok(register_type(b, ty));
    }
    let registers = distribute(op, ty)?.num_registers();
    Ok(melior::dialect::llvm::r#type::r#struct(b.context, &vec![register_type(b, ty); registers], false))
}

/// The type a function with these results returns: nothing (None), the one
/// result's ABI type, or a struct of all of them.
pub fn packed_result_type<'c>(b: &Builder<'c>, op: &OperationRef, results: &[Type<'c>]) -> Result<Option<Type<'c>>> {
    let types = results.iter().map(|ty| abi_type(b, op, *ty)).collect::<Result<Vec<_>>>()?;
    Ok(match types.len() {
        0 => None,
        1 => Some(types[0]),
        _ => Some(melior::dialect::llvm::r#type::r#struct(b.context, &types, false)),
    })
}

fn position<'c>(b: &Builder<'c>, index: usize) -> Attribute<'c> {
    DenseI64ArrayAttribute::new(b.context, &[index as i64]).into()
}

/// Builds a struct of type `ty` from `fields`.
pub fn pack<'c>(b: &Builder<'c>, fields: &[V], ty: Type<'c>) -> V {
    let mut aggregate = b.op1("llvm.mlir.undef", &[], ty, &[]);
    for (i, field) in fields.iter().enumerate() {
        aggregate = b.op1("llvm.insertvalue", &[aggregate, *field], ty, &[("position", position(b, i))]);
    }
    aggregate
}

/// The fields of a struct value, given their types.
pub fn unpack<'c>(b: &Builder<'c>, aggregate: V, field_types: &[Type<'c>]) -> Vec<V> {
    field_types
        .iter()
        .enumerate()
        .map(|(i, ty)| b.op1("llvm.extractvalue", &[aggregate], *ty, &[("position", position(b, i))]))
        .collect()
}

/// The ABI value of an IR value of type `ty` held as `registers`.
fn to_abi<'c>(b: &mut Builder<'c>, op: &OperationRef, ty: Type<'c>, registers: &[V]) -> Result<V> {
    if let Some(memdesc) = types::MemDesc::of(ty) {
        let zero = b.i32_const(0);
        let mut fields = vec![registers[0]];
        fields.extend(std::iter::repeat_n(zero, memdesc.shape.len()));
        Ok(pack(b, &fields, abi_type(b, op, ty)?))
    } else if ty.is_ranked_tensor() {
        Ok(pack(b, registers, abi_type(b, op, ty)?))
    } else {
        Ok(registers[0])
    }
}

/// The registers of an IR value of type `ty` that arrived as `value`.
pub fn from_abi<'c>(b: &Builder<'c>, op: &OperationRef, ty: Type<'c>, value: V) -> Result<Vec<V>> {
    if types::MemDesc::of(ty).is_some() {
        return Ok(unpack(b, value, &[b.ptr(3)]));
    }
    if !ty.is_ranked_tensor() {
        return Ok(vec![value]);
    }
    let count = distribute(op, ty)?.num_registers();
    Ok(unpack(b, value, &vec![register_type(b, ty); count]))
}

/// What the function being lowered passes on to the functions it calls.
#[derive(Clone, Copy)]
pub struct FunctionAbi {
    pub kernel: bool,
    /// The global- and profile-scratch pointers it received, if any.
    pub scratch: Option<(V, V)>,
}

/// `tt.return`: a kernel returns nothing; a device function returns its
/// results in ABI form (packed into one struct when there are several).
pub fn lower_return<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    if l.abi.kernel {
        if op.operand_count() != 0 {
            return Err(LowerError::at(&op, "kernels return nothing"));
        }
        l.b.op("llvm.return", &[], &[], &[]);
        return Ok(());
    }
    let mut values = Vec::new();
    let mut types = Vec::new();
    for i in 0..op.operand_count() {
        let ty = op.operand_at(i).unwrap().r#type();
        let registers = l.operand(&op, i)?;
        values.push(to_abi(&mut l.b, &op, ty, &registers)?);
        types.push(ty);
    }
    let returned = match values.len() {
        0 => vec![],
        1 => values,
        _ => {
            let packed = packed_result_type(&l.b, &op, &types)?.expect("several results");
            vec![pack(&l.b, &values, packed)]
        }
    };
    l.b.op("llvm.return", &returned, &[], &[]);
    Ok(())
}

/// `tt.call`: an `llvm.call` with the arguments in ABI form, then the
/// callee's shared-memory base and the scratch pointers (null where this
/// function has none: Tritium's own kernel ABI takes no scratch pointers).
pub fn lower_call<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let callee = op
        .attribute("callee")
        .ok()
        .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
        .map(|a| a.value().to_string())
        .ok_or_else(|| LowerError::at(&op, "has no callee"))?;
    let mut arguments = Vec::new();
    for i in 0..op.operand_count() {
        let ty = op.operand_at(i).unwrap().r#type();
        let registers = l.operand(&op, i)?;
        arguments.push(to_abi(&mut l.b, &op, ty, &registers)?);
    }
    let shared = match crate::int_attribute(&op, "allocation.offset") {
        Some(_) => l.scratch_base(&op)?,
        None => l.shared_base,
    };
    let (global_scratch, profile_scratch) = match l.abi.scratch {
        Some(pointers) => pointers,
        None => {
            let null = l.b.op1("llvm.mlir.zero", &[], l.b.ptr(1), &[]);
            (null, null)
        }
    };
    arguments.extend([shared, global_scratch, profile_scratch]);

    let result_types: Vec<Type> = (0..op.result_count()).map(|i| op.result_at(i).unwrap().r#type()).collect();
    let packed = packed_result_type(&l.b, &op, &result_types)?;
    let callee_attribute = FlatSymbolRefAttribute::new(l.context(), &callee).into();
    let segments = l.attr_i32_array(&[arguments.len() as i32, 0]);
    let bundles = l.attr_i32_array(&[]);
    let attributes = [("callee", callee_attribute), ("operandSegmentSizes", segments), ("op_bundle_sizes", bundles)];
    let results = l.b.op("llvm.call", &arguments, packed.as_slice(), &attributes);
    let values = match result_types.len() {
        0 => vec![],
        1 => results,
        _ => {
            let field_types: Vec<Type> =
                result_types.iter().map(|ty| abi_type(&l.b, &op, *ty)).collect::<Result<_>>()?;
            unpack(&l.b, results[0], &field_types)
        }
    };
    for (i, (value, ty)) in values.into_iter().zip(&result_types).enumerate() {
        let registers = from_abi(&l.b, &op, *ty, value)?;
        l.set_result(&op, i, registers);
    }
    Ok(())
}

/// `builtin.unrealized_conversion_cast` between a value the lowering holds
/// as registers (a tensor, a shared-memory descriptor) and the LLVM type
/// upstream's type converter gives it (its ABI form, above): upstream's
/// tests hand tensors to llvm ops, and take them from llvm values, through
/// such casts, which its conversion framework then folds away. A cast
/// between a scalar and its register type passes the register on.
pub fn lower_unrealized_cast<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    if op.operand_count() != 1 || op.result_count() != 1 {
        return Err(LowerError::at(&op, "only casts of one value to one value are supported"));
    }
    let from = crate::ops::view(op, UnrealizedConversionCastOp::of)?.inputs()[0].r#type();
    let to = op.result_at(0).unwrap().r#type();
    let registers = l.operand(&op, 0)?;
    let held_as_registers = |ty: Type| ty.is_ranked_tensor() || types::MemDesc::of(ty).is_some();
    let mismatch = |expected: Type| {
        LowerError::at(&op, format!("casts {from} to {to}, but the lowering passes {from} as {expected}"))
    };
    let result = match (held_as_registers(from), held_as_registers(to)) {
        (true, false) => {
            let abi = abi_type(&l.b, &op, from)?;
            if abi != to {
                return Err(mismatch(abi));
            }
            vec![to_abi(&mut l.b, &op, from, &registers)?]
        }
        (false, true) => {
            let abi = abi_type(&l.b, &op, to)?;
            if registers.len() != 1 || crate::builder::type_of(registers[0]) != abi {
                return Err(LowerError::at(&op, format!("casts {from} to {to}, which the lowering passes as {abi}")));
            }
            from_abi(&l.b, &op, to, registers[0])?
        }
        (true, true) if from == to => registers,
        (false, false) if registers.len() == 1 && crate::builder::type_of(registers[0]) == to => registers,
        (false, false) => return Err(mismatch(crate::builder::type_of(registers[0]))),
        (true, true) => return Err(LowerError::at(&op, format!("casts {from} to another layout or type ({to})"))),
    };
    l.set_result(&op, 0, result);
    Ok(())
}

/// An op of a dialect nobody registered (only with
/// `-allow-unregistered-dialect`, as in upstream's tests, where such ops
/// stand for "some use"): kept, with each operand cast back to its type from
/// its lowered value and each result cast to its lowered form, which is what
/// upstream's partial conversion leaves around an op it has no pattern for.
pub fn keep_unregistered<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    if op.region_count() != 0 {
        return Err(LowerError::at(&op, "unregistered ops with regions are not supported"));
    }
    const CAST: &str = "builtin.unrealized_conversion_cast";
    let mut operands = Vec::new();
    for i in 0..op.operand_count() {
        let ty = op.operand_at(i).unwrap().r#type();
        let registers = l.operand(&op, i)?;
        let lowered = to_abi(&mut l.b, &op, ty, &registers)?;
        operands.push(if crate::builder::type_of(lowered) == ty {
            lowered
        } else {
            l.b.op1(CAST, &[lowered], ty, &[])
        });
    }
    let copy = l.b.insert(tritium_dialects::ir::clone_op(&op), l.b.cursor);
    for (i, v) in operands.iter().enumerate() {
        tritium_dialects::ir::set_operand(&copy, i, crate::builder::value(*v));
    }
    for i in 0..op.result_count() {
        let ty = op.result_at(i).unwrap().r#type();
        let result = copy.result_at(i).unwrap().to_raw();
        let abi = abi_type(&l.b, &op, ty)?;
        let lowered = if abi == ty { result } else { l.b.op1(CAST, &[result], abi, &[]) };
        let registers = from_abi(&l.b, &op, ty, lowered)?;
        l.set_result(&op, i, registers);
    }
    Ok(())
}

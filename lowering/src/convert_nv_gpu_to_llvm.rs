//! `convert-nv-gpu-to-llvm` (upstream's flag): lowers the `nvg` ops that
//! upstream's TTGIR lowering leaves in the LLVM dialect to NVVM ops and
//! inline PTX. Tritium's own lowering goes straight to NVVM and makes only
//! `nvg.ld_acquire` (as upstream's does; the compile pipeline runs this pass
//! after it); this pass also reads the rest of what upstream's lowering
//! produces (and its tests), with the same PTX Tritium's lowering writes for
//! the same work:
//!
//! - `nvg.cluster_id`: the CTA's rank in its cluster (`cluster.ctarank`).
//! - `nvg.warp_id`: `tid.x / 32` made uniform by a shuffle from lane 0,
//!   relative to the first thread of the warp-specialize partition it is in;
//!   0 where the code runs on a single warp.
//! - `nvg.wgmma`: one `wgmma.mma_async`, the accumulator tied to the result.
//! - `nvg.wgmma_wait_group`: `wgmma.wait_group`, passing the registers of
//!   its struct through the asm so that their later uses wait for it.
//! - `nvg.ld_acquire`: a (predicated) `ld.global.<scope>.<sem>`, zero where
//!   it is predicated off (the lowering makes it for atomic adds of zero).
//!
//! `nvg.tensor_memory_base` (Blackwell's tensor memory) is refused with a
//! diagnostic: Tritium targets sm_80 and sm_90 only.
//!
//! Constants go where MLIR's folder would put them: at the top of the
//! function body, or of the warp-specialize partition the op is in (a
//! partition becomes a function of its own later), one per value.
use crate::builder::{type_of, value, Builder, Cursor, V};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Type,
    ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{collect_ops, erase, llvm_struct_fields, name_of, replace_all_uses, Order};
use tritium_dialects::pass::{emit_error, PassDefinition, PassFailed, PassOptions, PassResult};
use tritium_dialects::views::{LoadAcquireOp, WgmmaOp, WgmmaWaitGroupOp};

pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-nv-gpu-to-llvm",
    description: "Lower the nvg ops (wgmma, warp and cluster ids, acquire loads) to NVVM and inline PTX",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn fail(op: &OperationRef, message: impl AsRef<str>) -> PassFailed {
    emit_error(op.location(), &format!("'{}' {}", name_of(op), message.as_ref()));
    PassFailed
}

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let context = tritium_dialects::ir::context_of(module.location());
    let mut constants = Constants::default();
    for op in collect_ops(module, Order::Pre) {
        let name = name_of(&op);
        if !name.starts_with("nvg.") {
            continue;
        }
        let mut b = Builder::new(context, op.location(), Cursor::Before(op.to_raw()));
        let result = match name.as_str() {
            "nvg.cluster_id" => b.special_register("cluster.ctarank"),
            "nvg.warp_id" => warp_id(&mut b, &mut constants, &op)?,
            "nvg.wgmma" => wgmma(&b, &op)?,
            "nvg.wgmma_wait_group" => wait_group(&b, &op)?,
            "nvg.ld_acquire" => load_acquire(&b, &op)?,
            "nvg.tensor_memory_base" => {
                return Err(fail(&op, "needs Blackwell's tensor memory, which Tritium does not target"))
            }
            _ => return Err(fail(&op, "has no lowering in convert-nv-gpu-to-llvm")),
        };
        replace_all_uses(op.result_at(0).unwrap().into(), value(result));
        let structs: Vec<V> = op
            .operands()
            .filter(|operand| llvm_struct_fields(operand.r#type()).is_some())
            .map(|operand| operand.to_raw())
            .collect();
        erase(op);
        for packed in structs {
            erase_dead_insert_chain(packed);
        }
    }
    Ok(())
}

/// `llvm.mlir.constant`s made by this pass, one per (block, type, value):
/// each at the top of the block that its uses' scope starts with.
#[derive(Default)]
struct Constants {
    made: HashMap<(usize, String, i64), V>,
}

impl Constants {
    fn get<'c>(&mut self, b: &Builder<'c>, scope: BlockRef<'c, '_>, ty: Type<'c>, number: i64) -> V {
        let key = (scope.to_raw().ptr as usize, ty.to_string(), number);
        if let Some(v) = self.made.get(&key) {
            return *v;
        }
        let cursor = match scope.first_operation() {
            Some(first) => Cursor::Before(first.to_raw()),
            None => Cursor::End(scope.to_raw()),
        };
        let attribute = IntegerAttribute::new(ty, number).into();
        let constant =
            tritium_dialects::ir::create("llvm.mlir.constant", b.location, &[], &[ty], &[("value", attribute)]);
        let v = b.insert(constant, cursor).result_at(0).unwrap().to_raw();
        self.made.insert(key, v);
        v
    }
}

/// The block constants for code in `op` go to: the entry block of the
/// warp-specialize partition or function it is in.
fn constant_scope<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    let mut block = op.block()?;
    loop {
        let parent = block.parent_operation()?;
        let parent_name = name_of(&parent);
        if parent_name == "ttg.warp_specialize.partitions" || parent_name.ends_with(".func") {
            return block.parent_region()?.first_block();
        }
        block = parent.block()?;
    }
}

/// The first thread of the warp-specialize partition `op` is in (its
/// `warpGroupStartIds` entry times the warp size); None outside partitions.
fn partition_start_thread(op: &OperationRef) -> Result<Option<i64>, PassFailed> {
    let mut current = *op;
    while let Some(parent) = current.parent_operation() {
        if name_of(&parent) == "ttg.warp_specialize.partitions" {
            let region = current.block().and_then(|b| b.parent_region());
            let index = parent.regions().position(|r| Some(r) == region).unwrap_or(0);
            let specialize = parent.parent_operation().ok_or_else(|| fail(op, "is in a partition without its op"))?;
            let starts = tritium_dialects::ir::dense_i32_attribute(&specialize, "warpGroupStartIds")
                .ok_or_else(|| fail(op, "needs warpGroupStartIds (run tritongpu-allocate-warp-groups first)"))?;
            let start =
                *starts.get(index).ok_or_else(|| fail(op, "is in a partition with no warpGroupStartIds entry"))?;
            let config =
                tritium_dialects::target::ModuleConfig::of_enclosing(op).map_err(|e| fail(op, e.to_string()))?;
            return Ok(Some(i64::from(start) * i64::from(config.threads_per_warp)));
        }
        current = parent;
    }
    Ok(None)
}

fn warp_id<'c>(b: &mut Builder<'c>, constants: &mut Constants, op: &OperationRef<'c, '_>) -> Result<V, PassFailed> {
    let scope = constant_scope(op).ok_or_else(|| fail(op, "is not in a function"))?;
    let i32 = b.i32();
    let warps = tritium_dialects::target::lookup_num_warps(op).map_err(|e| fail(op, e.to_string()))?;
    if warps == Some(1) {
        return Ok(constants.get(b, scope, i32, 0));
    }
    let mut tid = b.special_register("tid.x");
    if let Some(start) = partition_start_thread(op)? {
        let start = constants.get(b, scope, i32, start);
        tid = b.binary("llvm.sub", tid, start);
    }
    let warp_size = constants.get(b, scope, i32, 32);
    let warp = b.binary("llvm.udiv", tid, warp_size);
    // Uniform: every lane takes lane 0's value, so ptxas knows it is.
    let (all_lanes, lane_zero, clamp) =
        (constants.get(b, scope, i32, -1), constants.get(b, scope, i32, 0), constants.get(b, scope, i32, 31));
    let idx = melior::ir::Attribute::parse(b.context, "#nvvm<shfl_kind idx>").expect("shuffle kind");
    Ok(b.op1("nvvm.shfl.sync", &[all_lanes, warp, lane_zero, clamp], i32, &[("kind", idx)]))
}

/// The fields of the LLVM struct `ty`, or the type itself.
fn fields(ty: Type) -> Vec<Type> {
    llvm_struct_fields(ty).unwrap_or_else(|| vec![ty])
}

/// The values of a struct's fields (a non-struct is its own single field).
fn unpack(b: &Builder, v: V) -> Vec<V> {
    let ty = type_of(v);
    if let Some(inserted) = llvm_struct_fields(ty).and_then(|fields| inserted_fields(v, fields.len())) {
        return inserted;
    }
    match llvm_struct_fields(ty) {
        Some(fields) => fields
            .iter()
            .enumerate()
            .map(|(i, field)| {
                let position = melior::ir::attribute::DenseI64ArrayAttribute::new(b.context, &[i as i64]).into();
                b.op1("llvm.extractvalue", &[v], *field, &[("position", position)])
            })
            .collect(),
        None => vec![v],
    }
}

/// The fields of a struct built by a chain of `llvm.insertvalue`s that sets
/// every one of its `count` fields (the lowering packs an accumulator so), as
/// the values inserted: reading them directly leaves the chain dead (see
/// [`erase_dead_insert_chain`]). LLVM's IPSCCP tracks each field of each
/// struct in such a chain and revisits the chain's tail whenever a link
/// changes; for a wgmma's 128-float accumulator that was most of the whole
/// compile (batched_desc_matmul: 0.95 of 1.0 s of O3).
fn inserted_fields(v: V, count: usize) -> Option<Vec<V>> {
    let mut found: Vec<Option<V>> = vec![None; count];
    let mut missing = count;
    let mut current = value(v);
    while missing > 0 {
        let op = tritium_dialects::ir::defining_op(current)?;
        if name_of(&op) != "llvm.insertvalue" {
            return None;
        }
        let position = op.attribute("position").ok()?;
        let position = melior::ir::attribute::DenseI64ArrayAttribute::try_from(position).ok()?;
        if position.len() != 1 {
            return None;
        }
        let field = usize::try_from(position.element(0).ok()?).ok().filter(|f| *f < count)?;
        if found[field].is_none() {
            found[field] = Some(op.operand(1).ok()?.to_raw());
            missing -= 1;
        }
        current = op.operand(0).ok()?;
    }
    found.into_iter().collect()
}

/// Erases the `llvm.insertvalue` chain ending in `v` from its end back to
/// the first link something else still uses.
fn erase_dead_insert_chain(v: V) {
    let mut current = value(v);
    while !tritium_dialects::ir::has_uses(current) {
        let Some(op) = tritium_dialects::ir::defining_op(current) else { return };
        if name_of(&op) != "llvm.insertvalue" {
            return;
        }
        let Ok(previous) = op.operand(0) else { return };
        erase(op);
        current = previous;
    }
}

/// The PTX register class of a value of type `ty` as an asm output.
fn register_class(ty: Type) -> Option<&'static str> {
    let text = ty.to_string();
    Some(match text.as_str() {
        "f32" => "f",
        "f64" => "d",
        "i64" => "l",
        "i32" => "r",
        "i16" | "f16" | "bf16" => "h",
        _ if text.starts_with("!llvm.ptr") => "l",
        _ => return None,
    })
}

/// `$first,$first+1,...` for `count` operands.
fn operand_list(first: usize, count: usize) -> String {
    (first..first + count).map(|i| format!("${i}")).collect::<Vec<_>>().join(",")
}

fn wait_group<'c>(b: &Builder<'c>, op: &OperationRef<'c, '_>) -> Result<V, PassFailed> {
    let input = WgmmaWaitGroupOp::of(*op).ok_or_else(|| fail(op, "is no nvg.wgmma_wait_group"))?.input();
    let result_type = op.result_at(0).unwrap().r#type();
    let pendings = tritium_dialects::ir::int_attribute(op, "pendings").ok_or_else(|| fail(op, "has no pendings"))?;
    let outputs = fields(result_type);
    let mut constraints = Vec::new();
    for field in &outputs {
        let class =
            register_class(*field).ok_or_else(|| fail(op, format!("cannot pass a {field} through the wait")))?;
        constraints.push(format!("={class}"));
    }
    // Each input is tied to the output of the same position.
    let inputs = unpack(b, input.to_raw());
    constraints.extend((0..inputs.len()).map(|i| i.to_string()));
    let asm =
        format!("// wait for regs: {}\n\twgmma.wait_group.sync.aligned {pendings};", operand_list(0, outputs.len()));
    Ok(asm_into(b, &asm, &constraints.join(","), &inputs, result_type))
}

/// Inline asm whose outputs are the fields of `result_type` (a struct, or a
/// single value): an asm of one output returns that value itself (LLVM
/// refuses a one-field struct), which is then put into the struct.
fn asm_into<'c>(b: &Builder<'c>, asm: &str, constraints: &str, operands: &[V], result_type: Type<'c>) -> V {
    match llvm_struct_fields(result_type) {
        Some(fields) if fields.len() == 1 => {
            let single = b.inline_asm(asm, constraints, operands, Some(fields[0])).expect("a result");
            crate::function_abi::pack(b, &[single], result_type)
        }
        _ => b.inline_asm(asm, constraints, operands, Some(result_type)).expect("a result"),
    }
}

/// `nvg`'s wgmma element types, by their enum values.
const ELEMENT_TYPES: [&str; 8] = ["s8", "s32", "e4m3", "e5m2", "f16", "bf16", "tf32", "f32"];

fn enum_attribute(op: &OperationRef, name: &str) -> Result<i64, PassFailed> {
    tritium_dialects::ir::int_attribute(op, name).ok_or_else(|| fail(op, format!("has no {name}")))
}

fn wgmma<'c>(b: &Builder<'c>, op: &OperationRef<'c, '_>) -> Result<V, PassFailed> {
    let element = |name: &str| -> Result<&'static str, PassFailed> {
        let index = enum_attribute(op, name)?;
        ELEMENT_TYPES.get(index as usize).copied().ok_or_else(|| fail(op, format!("has an unknown {name} {index}")))
    };
    let (a_type, b_type, c_type) = (element("eltTypeA")?, element("eltTypeB")?, element("eltTypeC")?);
    // layoutA col / layoutB row: the operand is transposed (K-major is the default).
    let trans_a = enum_attribute(op, "layoutA")? == 1;
    let trans_b = enum_attribute(op, "layoutB")? == 0;
    let (m, n, k) = (enum_attribute(op, "m")?, enum_attribute(op, "n")?, enum_attribute(op, "k")?);
    let in_range = |top: i64| m == 64 && (8..=top).contains(&n) && n % 8 == 0;
    // The f16/bf16 forms take transpose flags; the others support K-major only.
    let half = matches!((a_type, b_type, c_type), ("f16", "f16", "f16" | "f32") | ("bf16", "bf16", "f32"))
        && k == 16
        && in_range(256);
    let fp8 = matches!(a_type, "e4m3" | "e5m2") && matches!(b_type, "e4m3" | "e5m2") && matches!(c_type, "f16" | "f32");
    let others = !trans_a
        && !trans_b
        && ((a_type == "tf32" && b_type == "tf32" && c_type == "f32" && k == 8 && in_range(256))
            || (fp8 && k == 32 && in_range(256))
            || (a_type == "s8" && b_type == "s8" && c_type == "s32" && k == 32 && in_range(224)));
    if !half && !others {
        return Err(fail(op, format!("has no wgmma form: m{m}n{n}k{k} {c_type} += {a_type} * {b_type}")));
    }
    let float = half || (others && a_type != "s8");

    let view = WgmmaOp::of(*op).ok_or_else(|| fail(op, "is no nvg.wgmma"))?;
    let (operand_a, operand_b, use_c, accumulator) = (view.op_a(), view.op_b(), view.use_c(), view.op_c());
    let result_type = op.result_at(0).unwrap().r#type();
    let outputs = fields(result_type);
    if llvm_struct_fields(operand_b.r#type()).is_some() {
        return Err(fail(op, "takes operand B from registers; wgmma reads it from shared memory only"));
    }
    let output_class = if outputs.first().is_some_and(|t| t.to_string() == "f32") { "=f" } else { "=r" };
    let mut constraints: Vec<String> = vec![output_class.to_string(); outputs.len()];
    let mut operands: Vec<V> = Vec::new();
    let mut args = format!("{{{}}}, ", operand_list(0, outputs.len()));
    let mut index = outputs.len();
    if let Some(c) = accumulator {
        let values = unpack(b, c.to_raw());
        constraints.extend((0..values.len()).map(|i| i.to_string()));
        index += values.len();
        operands.extend(values);
    }
    if llvm_struct_fields(operand_a.r#type()).is_some() {
        let values = unpack(b, operand_a.to_raw());
        args += &format!("{{{}}}, ", operand_list(index, values.len()));
        constraints.extend(std::iter::repeat_n("r".to_string(), values.len()));
        index += values.len();
        operands.extend(values);
    } else {
        args += &format!("${index}, ");
        constraints.push("l".into());
        index += 1;
        operands.push(operand_a.to_raw());
    }
    args += &format!("${index}, ");
    constraints.push("l".into());
    index += 1;
    operands.push(operand_b.to_raw());
    if accumulator.is_some() {
        args += &format!("${index}");
        constraints.push("b".into());
        operands.push(use_c.to_raw());
    } else {
        args += "0";
    }
    if float {
        args += ", 1, 1";
    }
    if half {
        if llvm_struct_fields(operand_a.r#type()).is_none() {
            args += &format!(", {}", trans_a as u32);
        }
        args += &format!(", {}", trans_b as u32);
    }
    let asm = format!("wgmma.mma_async.sync.aligned.m{m}n{n}k{k}.{c_type}.{a_type}.{b_type} {args};");
    Ok(asm_into(b, &asm, &constraints.join(","), &operands, result_type))
}

fn load_acquire<'c>(b: &Builder<'c>, op: &OperationRef<'c, '_>) -> Result<V, PassFailed> {
    let result_type = op.result_at(0).unwrap().r#type();
    let bits = tritium_dialects::ir::int_or_float_width(result_type).unwrap_or(64).max(8);
    let class = match bits {
        64 => "l",
        32 => "r",
        16 => "h",
        _ => "c",
    };
    // Enum values of nvg's MemSemantic and MemSyncScope.
    let semantic = match enum_attribute(op, "sem")? {
        1 => "relaxed",
        2 => "acquire",
        other => return Err(fail(op, format!("has a semantic ({other}) a load cannot have"))),
    };
    let scope = match enum_attribute(op, "scope")? {
        1 => "gpu",
        2 => "cta",
        3 => "sys",
        other => return Err(fail(op, format!("has an unknown scope {other}"))),
    };
    let load = LoadAcquireOp::of(*op).ok_or_else(|| fail(op, "is no nvg.ld_acquire"))?;
    let mask = load.mask().map(|mask| mask.to_raw());
    let predicate = if mask.is_some() { "@$2 " } else { "" };
    // The result starts at zero, so that a thread whose load is predicated
    // off reads 0 (upstream's PTXBuilder operand with `init`).
    let asm = format!("mov.u{bits} $0, 0x0;\n\t{predicate}ld.global.{scope}.{semantic}.b{bits} $0, [ $1 + 0 ];");
    let mut constraints = format!("={class},l");
    let mut operands = vec![load.addr().to_raw()];
    if let Some(mask) = mask {
        constraints += ",b";
        operands.push(mask);
    }
    let word = b.int_type(bits);
    let loaded = b.inline_asm(&asm, &constraints, &operands, Some(word)).expect("a result");
    Ok(if word == result_type { loaded } else { b.op1("llvm.bitcast", &[loaded], result_type, &[]) })
}

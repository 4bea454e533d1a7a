//! `convert-warp-specialize-to-llvm` (upstream's flag): the last step of a
//! warp-specialized kernel's lowering. Its input is a kernel already in the
//! LLVM/NVVM dialects that still holds `ttg.warp_specialize` ops (their
//! default region and partitions lowered, their captures LLVM values), as
//! upstream's `convert-triton-gpu-to-llvm` leaves it. The kernel is launched
//! with `ttg.total-num-warps` warps; this pass makes each warp find its work:
//!
//! - a header reads the warp id (`tid.x / 32`, made warp-uniform by a
//!   shuffle); warps below `ttg.num-warps` run the kernel's body (the
//!   "default" warps), the others enter a *switch loop*;
//! - the switch loop waits on the CTA-wide barrier 1, reads its warp's state
//!   byte from shared memory (the function's `allocation.offset`) and jumps
//!   to the partition that state names, or to the exit (`llvm.return`);
//! - at each `ttg.warp_specialize`, the default warps write every worker
//!   warp's state (from `warpGroupStartIds`), store the captures into the
//!   op's shared memory (a packed struct at its `allocation.offset`), and
//!   release the workers (barrier 1), wait until they read the captures
//!   (barrier 1 again), then run the default region; `ttg.warp_yield` waits
//!   for the partitions to end (barrier 1) and continues after the op;
//!   partitions load their captures, and `ttg.warp_return` syncs on barrier
//!   1 and goes back to the switch loop; at every `llvm.return` the default
//!   warps send the workers to the exit state;
//! - with `actualRegisters` (from `tritongpu-allocate-warp-groups`), each
//!   group moves its register budget with `setmaxnreg` (inc/dec) on entry
//!   and exit of its region, from the kernel's `ttg.maxnreg`;
//! - `nvvm.barrier0` (all threads) becomes a named barrier of the warps that
//!   run it: id 0 over the default warps outside partitions, id 2 + i over
//!   partition i's warps (`bar.warp.sync` for a one-warp partition).
//!
//! Captures computed from kernel arguments by a few pure ops are recomputed
//! inside each partition instead of going through shared memory.
use crate::builder::{Builder, Cursor, V};
use melior::{
    ir::{
        attribute::DenseI32ArrayAttribute,
        operation::{OperationBuilder, OperationLike},
        Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, RegionLike, Type, TypeLike, ValueLike,
    },
    Context,
};
use mlir_sys::{MlirBlock, MlirOperation};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{emit_error, OptionKind, PassDefinition, PassFailed, PassOption, PassOptions, PassResult};
use tritium_passes::ir::{collect_ops, name_of, Order};

pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-warp-specialize-to-llvm",
    description: "Lower ttg.warp_specialize in LLVM-dialect kernels: warp-id dispatch, switch loop, captures through \
                  shared memory, setmaxnreg and named barriers",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "max-captures-remat",
        description: "Most pure ops recomputed in a partition per capture instead of passing it through shared memory",
        kind: OptionKind::Int,
        default: "16",
    }],
    run,
};

/// Barrier 0 is the default warps' own, 1 the CTA-wide hand-off between the
/// default warps and the switch loop; partition i gets 2 + i.
const DEFAULT_BARRIER: i64 = 0;
const SWITCH_BARRIER: i64 = 1;
const RESERVED_BARRIERS: usize = 2;
const HARDWARE_BARRIERS: usize = 16;

fn fail(op: &OperationRef, message: impl AsRef<str>) -> PassFailed {
    emit_error(op.location(), message.as_ref());
    PassFailed
}

fn i32_array(op: &OperationRef, name: &str) -> Option<Vec<i32>> {
    crate::dense_i32_attribute(op, name)
}

/// Ops of a kernel's own making that the pass builds: LLVM-dialect only
/// (the pass runs after the conversion to LLVM).
struct Emit<'c> {
    b: Builder<'c>,
}

impl<'c> Emit<'c> {
    fn at(&mut self, cursor: Cursor) -> &mut Self {
        self.b.cursor = cursor;
        self
    }
    fn constant(&self, bits: u32, value: i64) -> V {
        let ty = self.b.int_type(bits);
        self.b.op1("llvm.mlir.constant", &[], ty, &[("value", self.b.int_attr(ty, value))])
    }
    fn binary(&self, name: &str, a: V, b: V) -> V {
        let ty = crate::builder::type_of(a);
        self.b.op1(name, &[a, b], ty, &[])
    }
    fn shared_base(&self, offset: i64) -> V {
        let ptr = self.b.ptr(3);
        let base = self.b.op1(
            "llvm.mlir.addressof",
            &[],
            ptr,
            &[(
                "global_name",
                melior::ir::attribute::FlatSymbolRefAttribute::new(self.b.context, "global_smem").into(),
            )],
        );
        if offset == 0 {
            return base;
        }
        self.gep_const(base, &[offset as i32], self.b.int_type(8))
    }
    fn gep_const(&self, base: V, indices: &[i32], element: Type<'c>) -> V {
        let ptr = self.b.ptr(3);
        self.b.op1(
            "llvm.getelementptr",
            &[base],
            ptr,
            &[
                ("rawConstantIndices", DenseI32ArrayAttribute::new(self.b.context, indices).into()),
                ("elem_type", self.b.type_attr(element)),
            ],
        )
    }
    fn gep_dynamic(&self, base: V, index: V, element: Type<'c>) -> V {
        let ptr = self.b.ptr(3);
        self.b.op1(
            "llvm.getelementptr",
            &[base, index],
            ptr,
            &[
                ("rawConstantIndices", DenseI32ArrayAttribute::new(self.b.context, &[i32::MIN]).into()),
                ("elem_type", self.b.type_attr(element)),
            ],
        )
    }
    fn store(&self, value: V, ptr: V) {
        let align = self.b.int_attr(self.b.i64(), 1);
        self.b.op("llvm.store", &[value, ptr], &[], &[("alignment", align)]);
    }
    fn load(&self, ty: Type<'c>, ptr: V) -> V {
        let align = self.b.int_attr(self.b.i64(), 1);
        self.b.op1("llvm.load", &[ptr], ty, &[("alignment", align)])
    }
    /// `barrier.sync id` over every thread of the CTA.
    fn all_barrier(&self, id: i64) {
        let id = self.constant(32, id);
        let segments = DenseI32ArrayAttribute::new(self.b.context, &[1, 0]).into();
        let bundles = DenseI32ArrayAttribute::new(self.b.context, &[]).into();
        self.b.op(
            "llvm.call_intrinsic",
            &[id],
            &[],
            &[
                ("intrin", self.b.str_attr("llvm.nvvm.barrier.cta.sync.all")),
                ("operandSegmentSizes", segments),
                ("op_bundle_sizes", bundles),
            ],
        );
    }
    /// `bar.sync id, threads` (a one-warp group: `bar.warp.sync -1`).
    fn named_barrier(&self, id: i64, threads: i64) {
        if threads == 32 {
            let mask = self.constant(32, -1);
            self.b.op("nvvm.bar.warp.sync", &[mask], &[], &[]);
            return;
        }
        let id = self.constant(32, id);
        let threads = self.constant(32, threads);
        let segments = DenseI32ArrayAttribute::new(self.b.context, &[1, 1, 0]).into();
        self.b.op("nvvm.barrier", &[id, threads], &[], &[("operandSegmentSizes", segments)]);
    }
    /// `setmaxnreg` from `current` to `target` registers per thread (at most 256).
    fn set_max_registers(&self, current: i64, target: i64) {
        let (current, target) = (current.min(256), target.min(256));
        let action = if target < current { "decrease" } else { "increase" };
        let action = Attribute::parse(self.b.context, &format!("#nvvm<action {action}>")).expect("nvvm action");
        let count = self.b.int_attr(self.b.i32(), target);
        self.b.op("nvvm.setmaxregister", &[], &[], &[("action", action), ("regCount", count)]);
    }
    fn branch(&self, dest: MlirBlock, operands: &[V], annotation: Option<Attribute<'c>>) {
        let dest = unsafe { BlockRef::from_raw(dest) };
        let operands: Vec<_> = operands.iter().map(|v| crate::builder::value(*v)).collect();
        let mut builder =
            OperationBuilder::new("llvm.br", self.b.location).add_operands(&operands).add_successors(&[&dest]);
        if let Some(annotation) = annotation {
            builder = builder.add_attributes(&[(Identifier::new(self.b.context, "loop_annotation"), annotation)]);
        }
        self.insert(builder.build().expect("llvm.br"));
    }
    fn insert(&self, operation: melior::ir::Operation<'c>) {
        unsafe {
            match self.b.cursor {
                Cursor::End(block) => {
                    BlockRef::from_raw(block).append_operation(operation);
                }
                Cursor::Before(op) => {
                    let op = OperationRef::from_raw(op);
                    op.block().expect("op in a block").insert_operation_before(op, operation);
                }
            }
        }
    }
}

/// Raw block helpers the C API has and melior does not wrap.
fn new_block(types: &[Type], location: Location) -> MlirBlock {
    let types: Vec<_> = types.iter().map(|t| t.to_raw()).collect();
    let locations: Vec<_> = types.iter().map(|_| location.to_raw()).collect();
    unsafe { mlir_sys::mlirBlockCreate(types.len() as isize, types.as_ptr(), locations.as_ptr()) }
}

fn block_ops(block: MlirBlock) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    let mut op = unsafe { mlir_sys::mlirBlockGetFirstOperation(block) };
    while !op.ptr.is_null() {
        out.push(op);
        op = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    }
    out
}

fn region_blocks(region: mlir_sys::MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    let mut block = unsafe { mlir_sys::mlirRegionGetFirstBlock(region) };
    while !block.ptr.is_null() {
        out.push(block);
        block = unsafe { mlir_sys::mlirBlockGetNextInRegion(block) };
    }
    out
}

fn op_ref<'c, 'a>(op: MlirOperation) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(op) }
}

/// Moves every block of `from` into `to`, right after `after`, in order.
fn splice_blocks(from: mlir_sys::MlirRegion, to: mlir_sys::MlirRegion, mut after: MlirBlock) -> Vec<MlirBlock> {
    let blocks = region_blocks(from);
    for block in &blocks {
        unsafe {
            mlir_sys::mlirBlockDetach(*block);
            mlir_sys::mlirRegionInsertOwnedBlockAfter(to, after, *block);
        }
        after = *block;
    }
    blocks
}

/// Replaces the arguments of `block` by `values` and removes them.
fn drop_arguments(block: MlirBlock, values: &[V]) {
    for (i, v) in values.iter().enumerate() {
        let arg = unsafe { mlir_sys::mlirBlockGetArgument(block, i as isize) };
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(arg, *v) };
    }
    for _ in 0..values.len() {
        unsafe { mlir_sys::mlirBlockEraseArgument(block, 0) };
    }
}

/// Ops that can be recomputed anywhere (no memory effects, no side effects).
fn is_rematerializable(name: &str) -> bool {
    // Special registers the same in every warp (ctaid, nctaid, ...); a thread,
    // lane or warp id differs between the default warps and a partition's.
    let uniform_register =
        name.starts_with("nvvm.read.ptx.sreg.") && !["tid", "laneid", "warpid"].iter().any(|id| name.contains(id));
    uniform_register
        || matches!(
            name,
            "llvm.mlir.constant"
                | "llvm.mlir.addressof"
                | "llvm.mlir.undef"
                | "llvm.mlir.poison"
                | "llvm.mlir.zero"
                | "llvm.getelementptr"
                | "llvm.add"
                | "llvm.sub"
                | "llvm.mul"
                | "llvm.udiv"
                | "llvm.sdiv"
                | "llvm.urem"
                | "llvm.srem"
                | "llvm.fadd"
                | "llvm.fsub"
                | "llvm.fmul"
                | "llvm.fdiv"
                | "llvm.fneg"
                | "llvm.fptrunc"
                | "llvm.fpext"
                | "llvm.sitofp"
                | "llvm.uitofp"
                | "llvm.fptosi"
                | "llvm.fptoui"
                | "llvm.and"
                | "llvm.or"
                | "llvm.xor"
                | "llvm.shl"
                | "llvm.lshr"
                | "llvm.ashr"
                | "llvm.icmp"
                | "llvm.select"
                | "llvm.zext"
                | "llvm.sext"
                | "llvm.trunc"
                | "llvm.bitcast"
                | "llvm.ptrtoint"
                | "llvm.inttoptr"
                | "llvm.addrspacecast"
                | "llvm.extractvalue"
                | "llvm.insertvalue"
        )
}

/// The pure ops `capture` is computed by from kernel arguments, in an order
/// that clones safely (definitions first); `None` if there are other inputs
/// or more than `limit` ops.
fn trivial_subcomputation(capture: V, function_entry: MlirBlock, limit: usize) -> Option<Vec<MlirOperation>> {
    let mut worklist = vec![capture];
    let mut seen = HashSet::new();
    let mut ops: Vec<MlirOperation> = Vec::new();
    while let Some(v) = worklist.pop() {
        if !seen.insert(v.ptr as usize) {
            continue;
        }
        let value = crate::builder::value(v);
        if unsafe { mlir_sys::mlirValueIsABlockArgument(v) } {
            if unsafe { mlir_sys::mlirBlockArgumentGetOwner(v) }.ptr == function_entry.ptr {
                continue;
            }
            return None;
        }
        let op = unsafe { mlir_sys::mlirOpResultGetOwner(value.to_raw()) };
        if !is_rematerializable(&name_of(&op_ref(op))) {
            return None;
        }
        if !ops.iter().any(|o| o.ptr == op.ptr) {
            ops.push(op);
        }
        for i in 0..unsafe { mlir_sys::mlirOperationGetNumOperands(op) } {
            worklist.push(unsafe { mlir_sys::mlirOperationGetOperand(op, i) });
        }
    }
    if ops.len() > limit {
        return None;
    }
    // Definitions before uses: an op found later in the walk is an input of
    // one found earlier.
    ops.reverse();
    let mut ordered: Vec<MlirOperation> = Vec::new();
    while !ops.is_empty() {
        let ready = ops
            .iter()
            .position(|op| {
                (0..unsafe { mlir_sys::mlirOperationGetNumOperands(*op) }).all(|i| {
                    let v = unsafe { mlir_sys::mlirOperationGetOperand(*op, i) };
                    if unsafe { mlir_sys::mlirValueIsABlockArgument(v) } {
                        return true;
                    }
                    let owner = unsafe { mlir_sys::mlirOpResultGetOwner(v) };
                    !ops.iter().any(|o| o.ptr == owner.ptr)
                })
            })
            .expect("pure subcomputations are acyclic");
        ordered.push(ops.remove(ready));
    }
    Some(ordered)
}

struct WarpSpecialize {
    op: MlirOperation,
    partition_num_warps: Vec<i32>,
    start_ids: Vec<i32>,
    actual_registers: Option<Vec<i32>>,
}

impl WarpSpecialize {
    fn partitions(&self) -> Vec<mlir_sys::MlirRegion> {
        let holder = unsafe { mlir_sys::mlirOperationGetRegion(self.op, 1) };
        let partitions_op = unsafe { mlir_sys::mlirBlockGetFirstOperation(mlir_sys::mlirRegionGetFirstBlock(holder)) };
        let n = unsafe { mlir_sys::mlirOperationGetNumRegions(partitions_op) };
        (0..n).map(|i| unsafe { mlir_sys::mlirOperationGetRegion(partitions_op, i) }).collect()
    }
    fn default_region(&self) -> mlir_sys::MlirRegion {
        unsafe { mlir_sys::mlirOperationGetRegion(self.op, 0) }
    }
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let limit = usize::try_from(options.int("max-captures-remat")).unwrap_or(16);
    let kernels: Vec<_> = module
        .region_at(0)
        .ok()
        .and_then(|r| r.first_block())
        .map(|b| {
            let mut out = Vec::new();
            let mut op = b.first_operation();
            while let Some(o) = op {
                if name_of(&o) == "llvm.func" && o.region_at(0).ok().and_then(|r| r.first_block()).is_some() {
                    out.push(o);
                }
                op = o.next_in_block();
            }
            out
        })
        .unwrap_or_default();
    for kernel in &kernels {
        for op in collect_ops(*kernel, Order::Pre) {
            if name_of(&op) == "ttg.warp_specialize" {
                convert_types(&op)?;
            }
        }
    }
    tritium_passes::pattern_driver::run_pipeline(module, "builtin.module(reconcile-unrealized-casts)")?;
    for kernel in kernels {
        lower_function(&module, kernel, limit)?;
    }
    Ok(())
}

/// The LLVM type of a Triton type the lowering left on a
/// `ttg.warp_specialize` (its captures, partition arguments, results), or
/// `None` when the type is already LLVM's.
fn llvm_type<'c>(context: &'c Context, ty: Type<'c>) -> Option<Type<'c>> {
    let (_, address_space) = tritium_dialects::types::pointer_parts(ty)?;
    Some(melior::dialect::llvm::r#type::pointer(context, address_space as u32))
}

/// An operand of Triton type is the cast of an LLVM value (the conversion's
/// `unrealized_conversion_cast`): that value replaces it.
fn converted_operand(op: &OperationRef, index: usize) -> Result<(), PassFailed> {
    let operand = op.operand(index).unwrap();
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    if llvm_type(context, operand.r#type()).is_none() {
        return Ok(());
    }
    let source = tritium_passes::ssa::defining_op(operand)
        .filter(|d| name_of(d) == "builtin.unrealized_conversion_cast" && d.operand_count() == 1)
        .map(|d| d.operand(0).unwrap());
    match source {
        Some(source) => {
            tritium_passes::ssa::set_operand(op, index, source);
            Ok(())
        }
        None => Err(fail(op, format!("operand {index} of type {} has no LLVM value to replace it", operand.r#type()))),
    }
}

/// Gives the op's captures, partition arguments, yielded values and results
/// their LLVM types; the casts left between the two type systems then fold
/// away (reconcile-unrealized-casts).
fn convert_types(op: &OperationRef) -> PassResult {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    for i in 0..op.operand_count() {
        converted_operand(op, i)?;
    }
    for r in 0..op.result_count() {
        let result = op.result(r).unwrap();
        if let Some(ty) = llvm_type(context, result.r#type()) {
            tritium_passes::ir::set_type(result.into(), ty);
        }
    }
    for nested in collect_ops(*op, Order::Pre) {
        match name_of(&nested).as_str() {
            "ttg.warp_yield" if nested.parent_operation().map(|p| p.to_raw().ptr) == Some(op.to_raw().ptr) => {
                for i in 0..nested.operand_count() {
                    converted_operand(&nested, i)?;
                }
            }
            "ttg.warp_specialize.partitions"
                if nested.parent_operation().map(|p| p.to_raw().ptr) == Some(op.to_raw().ptr) =>
            {
                for region in nested.regions() {
                    if let Some(block) = region.first_block() {
                        for i in 0..block.argument_count() {
                            let argument = block.argument(i).unwrap();
                            if let Some(ty) = llvm_type(context, argument.r#type()) {
                                tritium_passes::ir::set_type(argument.into(), ty);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn lower_function(module: &OperationRef, function: OperationRef, limit: usize) -> PassResult {
    let ws_ops: Vec<OperationRef> =
        collect_ops(function, Order::Pre).into_iter().filter(|op| name_of(op) == "ttg.warp_specialize").collect();
    if ws_ops.is_empty() {
        return Ok(());
    }
    let context_ref = function.context();
    let context: &Context = unsafe { context_ref.to_ref() };
    let location = function.location();
    let default_warps = crate::int_attribute(module, "ttg.num-warps").unwrap_or(4);
    let threads_per_warp = crate::int_attribute(module, "ttg.threads-per-warp").unwrap_or(32);
    let Some(total_warps) = crate::int_attribute(module, "ttg.total-num-warps") else {
        return Err(fail(
            module,
            "module missing 'ttg.total-num-warps' attribute (run tritongpu-allocate-warp-groups)",
        ));
    };
    let mut wss = Vec::new();
    for op in &ws_ops {
        let partition_num_warps = i32_array(op, "partitionNumWarps").unwrap_or_default();
        let Some(start_ids) = i32_array(op, "warpGroupStartIds") else {
            return Err(fail(op, "has no warpGroupStartIds (run tritongpu-allocate-warp-groups)"));
        };
        let ws = WarpSpecialize {
            op: op.to_raw(),
            partition_num_warps,
            start_ids,
            actual_registers: i32_array(op, "actualRegisters"),
        };
        if ws.partitions().len() + RESERVED_BARRIERS > HARDWARE_BARRIERS {
            return Err(fail(
                op,
                format!("cannot support more than {} partitions", HARDWARE_BARRIERS - RESERVED_BARRIERS),
            ));
        }
        if ws.partition_num_warps.len() != ws.partitions().len() || ws.start_ids.len() != ws.partitions().len() {
            return Err(fail(op, "partitionNumWarps and warpGroupStartIds must name every partition"));
        }
        for (start, n) in ws.start_ids.iter().zip(&ws.partition_num_warps) {
            if i64::from(*start) < default_warps || i64::from(start + n) > total_warps {
                return Err(fail(op, format!("partition warps {start}..{} lie outside the worker warps", start + n)));
            }
        }
        wss.push(ws);
    }
    let mut emit = Emit { b: Builder::new(context, location, Cursor::Before(function.to_raw())) };

    // Named barriers first, while the regions still tell who runs what.
    rewrite_barriers(&mut emit, function, &wss, default_warps * threads_per_warp, threads_per_warp);

    // Register budgets (from the kernel's ttg.maxnreg).
    let max_registers = crate::int_attribute(module, "ttg.maxnreg");
    let (mut low_registers, mut default_registers) = (-1, -1);
    if let Some(start) = max_registers {
        let workers = total_warps - default_warps;
        low_registers = 24;
        let extra = (start - low_registers) * workers / default_warps;
        default_registers = (start + extra) / 8 * 8;
        if default_registers > 256 {
            default_registers = 256;
            let give = (default_registers - start) * default_warps / workers;
            low_registers = (start - give) / 8 * 8;
        }
    }

    let function_body = function.region_at(0).unwrap().to_raw();
    let entry = unsafe { mlir_sys::mlirRegionGetFirstBlock(function_body) };
    elide_trivial_captures(&mut emit, &wss, entry, limit);

    // Header: warp id, default warps to the old entry, the others to the switch loop.
    let argument_count = unsafe { mlir_sys::mlirBlockGetNumArguments(entry) };
    let argument_types: Vec<Type> = (0..argument_count)
        .map(|i| unsafe { Type::from_raw(mlir_sys::mlirValueGetType(mlir_sys::mlirBlockGetArgument(entry, i))) })
        .collect();
    let header = new_block(&argument_types, location);
    let switch_loop = new_block(&[], location);
    unsafe {
        mlir_sys::mlirRegionInsertOwnedBlockBefore(function_body, entry, header);
        mlir_sys::mlirRegionInsertOwnedBlockAfter(function_body, header, switch_loop);
    }
    let i32 = emit.b.i32();
    let i8 = emit.b.int_type(8);
    emit.at(Cursor::End(header));
    let tid = emit.b.op1("nvvm.read.ptx.sreg.tid.x", &[], i32, &[]);
    let warp_size = emit.constant(32, threads_per_warp);
    let warp = emit.binary("llvm.udiv", tid, warp_size);
    let (all_lanes, zero, clamp) = (emit.constant(32, -1), emit.constant(32, 0), emit.constant(32, 31));
    let kind = Attribute::parse(context, "#nvvm<shfl_kind idx>").expect("shfl kind");
    let warp = emit.b.op1("nvvm.shfl.sync", &[all_lanes, warp, zero, clamp], i32, &[("kind", kind)]);
    let default_count = emit.constant(32, default_warps);
    let ult = emit.b.int_attr(emit.b.i64(), 6);
    let is_default = emit.b.op1("llvm.icmp", &[warp, default_count], emit.b.i1(), &[("predicate", ult)]);
    let (entry_ref, switch_ref) = unsafe { (BlockRef::from_raw(entry), BlockRef::from_raw(switch_loop)) };
    let segments = DenseI32ArrayAttribute::new(context, &[1, 0, 0]).into();
    emit.insert(
        OperationBuilder::new("llvm.cond_br", location)
            .add_operands(&[crate::builder::value(is_default)])
            .add_successors(&[&entry_ref, &switch_ref])
            .add_attributes(&[(Identifier::new(context, "operandSegmentSizes"), segments)])
            .build()
            .expect("llvm.cond_br"),
    );
    let header_arguments: Vec<V> =
        (0..argument_count).map(|i| unsafe { mlir_sys::mlirBlockGetArgument(header, i) }).collect();
    drop_arguments(entry, &header_arguments);
    if let Some(start) = max_registers {
        let first = block_ops(entry)[0];
        emit.at(Cursor::Before(first)).set_max_registers(start, default_registers);
    }

    // The switch loop.
    let function_offset = crate::int_attribute(&function, "allocation.offset").unwrap_or(0);
    emit.at(Cursor::End(switch_loop));
    if let Some(start) = max_registers {
        emit.set_max_registers(start, low_registers);
    }
    emit.all_barrier(SWITCH_BARRIER);
    let state_base = emit.shared_base(function_offset);
    let worker_warp = emit.binary("llvm.sub", warp, default_count);
    let state_ptr = emit.gep_dynamic(state_base, worker_warp, i8);
    let state = emit.load(i8, state_ptr);

    // Partitions: their blocks move into the function, right after the loop.
    let worker_warps = (total_warps - default_warps) as usize;
    let mut partition_blocks: Vec<MlirBlock> = Vec::new();
    let mut warp_states: Vec<Vec<i64>> = Vec::new();
    let mut next_state = 0i64;
    for ws in &wss {
        rewrite_partition_regions(&mut emit, ws, switch_loop, low_registers);
        let mut states = vec![-1i64; worker_warps];
        for (i, partition) in ws.partitions().into_iter().enumerate() {
            partition_blocks.push(unsafe { mlir_sys::mlirRegionGetFirstBlock(partition) });
            let start = (ws.start_ids[i] as i64 - default_warps) as usize;
            for s in &mut states[start..start + ws.partition_num_warps[i] as usize] {
                *s = next_state;
            }
            next_state += 1;
        }
        warp_states.push(states);
    }
    if next_state > 255 {
        return Err(fail(&function, "too many warp group partitions (at most 255)"));
    }
    let mut after = switch_loop;
    for ws in &wss {
        for partition in ws.partitions() {
            let moved = splice_blocks(partition, function_body, after);
            after = *moved.last().unwrap_or(&after);
        }
    }
    // Any other state: wait out the warp_specialize the warp has no part in.
    let idle = new_block(&[], location);
    unsafe { mlir_sys::mlirRegionInsertOwnedBlockAfter(function_body, switch_loop, idle) };
    emit.at(Cursor::End(idle));
    emit.all_barrier(SWITCH_BARRIER);
    emit.all_barrier(SWITCH_BARRIER);
    // LICM would hoist partition code out of the loop into long-lived registers.
    let no_licm = Attribute::parse(context, "#llvm.loop_annotation<licm = <disable = true>>").expect("loop annotation");
    emit.branch(switch_loop, &[], Some(no_licm));
    let exit = new_block(&[], location);
    unsafe { mlir_sys::mlirRegionInsertOwnedBlockAfter(function_body, idle, exit) };
    emit.at(Cursor::End(exit));
    emit.b.op("llvm.return", &[], &[], &[]);
    partition_blocks.push(exit);

    emit.at(Cursor::End(switch_loop));
    let case_values: Vec<String> = (0..=next_state).map(|s| s.to_string()).collect();
    let case_values =
        Attribute::parse(context, &format!("dense<[{}]> : vector<{}xi8>", case_values.join(", "), next_state + 1))
            .expect("case values");
    let case_segments = DenseI32ArrayAttribute::new(context, &vec![0; partition_blocks.len()]).into();
    let segments = DenseI32ArrayAttribute::new(context, &[1, 0, 0]).into();
    let idle_ref = unsafe { BlockRef::from_raw(idle) };
    let destination_refs: Vec<BlockRef> = partition_blocks.iter().map(|b| unsafe { BlockRef::from_raw(*b) }).collect();
    let mut successors: Vec<&melior::ir::Block> = vec![&idle_ref];
    successors.extend(destination_refs.iter().map(|r| &**r));
    emit.insert(
        OperationBuilder::new("llvm.switch", location)
            .add_operands(&[crate::builder::value(state)])
            .add_successors(&successors)
            .add_attributes(&[
                (Identifier::new(context, "case_values"), case_values),
                (Identifier::new(context, "case_operand_segments"), case_segments),
                (Identifier::new(context, "operandSegmentSizes"), segments),
            ])
            .build()
            .expect("llvm.switch"),
    );

    // The default warps around each warp_specialize.
    for (ws, states) in wss.iter().zip(&warp_states) {
        lower_default_side(&mut emit, ws, states, function_body, default_registers)?;
    }

    // Every return sends the workers to the exit.
    for op in collect_ops(function, Order::Pre) {
        if name_of(&op) != "llvm.return" || op.block().map(|b| b.to_raw().ptr) == Some(exit.ptr) {
            continue;
        }
        emit.at(Cursor::Before(op.to_raw()));
        let base = emit.shared_base(function_offset);
        let exit_state = emit.constant(8, next_state);
        for i in 0..worker_warps {
            let ptr = if i == 0 { base } else { emit.gep_const(base, &[i as i32], i8) };
            emit.store(exit_state, ptr);
        }
        emit.all_barrier(SWITCH_BARRIER);
    }
    Ok(())
}

/// `nvvm.barrier0` outside partitions syncs the default warps only (id 0);
/// inside partition i, that partition's warps (id 2 + i).
fn rewrite_barriers(
    emit: &mut Emit,
    function: OperationRef,
    wss: &[WarpSpecialize],
    default_threads: i64,
    threads_per_warp: i64,
) {
    let partition_ops: HashSet<usize> = wss
        .iter()
        .map(|ws| unsafe {
            mlir_sys::mlirBlockGetFirstOperation(mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(ws.op, 1)))
        }
        .ptr as usize)
        .collect();
    let inside_partition = |op: &OperationRef| {
        let mut parent = op.parent_operation();
        while let Some(p) = parent {
            if partition_ops.contains(&(p.to_raw().ptr as usize)) {
                return true;
            }
            parent = p.parent_operation();
        }
        false
    };
    for op in collect_ops(function, Order::Pre) {
        if name_of(&op) == "nvvm.barrier0" && !inside_partition(&op) {
            emit.at(Cursor::Before(op.to_raw())).named_barrier(DEFAULT_BARRIER, default_threads);
            unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
        }
    }
    for ws in wss {
        for (i, partition) in ws.partitions().into_iter().enumerate() {
            let threads = threads_per_warp * i64::from(ws.partition_num_warps[i]);
            for block in region_blocks(partition) {
                for op in block_ops(block) {
                    for nested in std::iter::once(op_ref(op)).chain(collect_ops(op_ref(op), Order::Pre)) {
                        if name_of(&nested) == "nvvm.barrier0" {
                            emit.at(Cursor::Before(nested.to_raw()))
                                .named_barrier((RESERVED_BARRIERS + i) as i64, threads);
                            unsafe { mlir_sys::mlirOperationDestroy(nested.to_raw()) };
                        }
                    }
                }
            }
        }
    }
}

/// Captures computed from kernel arguments by a few pure ops are recomputed
/// at the start of each partition, and stop being captures.
fn elide_trivial_captures(emit: &mut Emit, wss: &[WarpSpecialize], function_entry: MlirBlock, limit: usize) {
    for ws in wss {
        let count = unsafe { mlir_sys::mlirOperationGetNumOperands(ws.op) } as usize;
        let mut elided = Vec::new();
        for i in 0..count {
            let capture = unsafe { mlir_sys::mlirOperationGetOperand(ws.op, i as isize) };
            let Some(ops) = trivial_subcomputation(capture, function_entry, limit) else {
                continue;
            };
            elided.push(i);
            for partition in ws.partitions() {
                let block = unsafe { mlir_sys::mlirRegionGetFirstBlock(partition) };
                let first = block_ops(block)[0];
                let mut map = tritium_passes::ssa::ValueMap::default();
                let mut remat = capture;
                for op in &ops {
                    let clone = tritium_passes::ssa::clone_with(&op_ref(*op), &map);
                    emit.at(Cursor::Before(first));
                    let clone_ref = unsafe { OperationRef::from_raw(clone.to_raw()) };
                    emit.insert(clone);
                    for r in 0..clone_ref.result_count() {
                        let old = op_ref(*op).result(r).unwrap();
                        let new = clone_ref.result(r).unwrap();
                        map.map(old.into(), new.into());
                        if old.to_raw().ptr == capture.ptr {
                            remat = new.to_raw();
                        }
                    }
                }
                let arg = unsafe { mlir_sys::mlirBlockGetArgument(block, i as isize) };
                unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(arg, remat) };
            }
        }
        let kept: Vec<V> = (0..count)
            .filter(|i| !elided.contains(i))
            .map(|i| unsafe { mlir_sys::mlirOperationGetOperand(ws.op, i as isize) })
            .collect();
        unsafe { mlir_sys::mlirOperationSetOperands(ws.op, kept.len() as isize, kept.as_ptr()) };
        for i in elided.iter().rev() {
            for partition in ws.partitions() {
                unsafe { mlir_sys::mlirBlockEraseArgument(mlir_sys::mlirRegionGetFirstBlock(partition), *i as u32) };
            }
        }
    }
}

/// The packed struct the captures travel in, through shared memory.
fn capture_struct<'c>(context: &'c Context, types: &[Type<'c>]) -> Type<'c> {
    let fields: Vec<String> = types.iter().map(|t| t.to_string()).collect();
    Type::parse(context, &format!("!llvm.struct<packed ({})>", fields.join(", "))).expect("capture struct")
}

fn rewrite_partition_regions(emit: &mut Emit, ws: &WarpSpecialize, switch_loop: MlirBlock, low_registers: i64) {
    let context = emit.b.context;
    let offset = crate::int_attribute(&op_ref(ws.op), "allocation.offset").unwrap_or(0);
    for (i, partition) in ws.partitions().into_iter().enumerate() {
        let block = unsafe { mlir_sys::mlirRegionGetFirstBlock(partition) };
        let first = block_ops(block)[0];
        emit.at(Cursor::Before(first));
        if let Some(actual) = &ws.actual_registers {
            emit.set_max_registers(low_registers, i64::from(actual[i + 1]));
        }
        let n = unsafe { mlir_sys::mlirBlockGetNumArguments(block) };
        if n > 0 {
            let types: Vec<Type> = (0..n)
                .map(|j| unsafe {
                    Type::from_raw(mlir_sys::mlirValueGetType(mlir_sys::mlirBlockGetArgument(block, j)))
                })
                .collect();
            let layout = capture_struct(context, &types);
            let base = emit.shared_base(offset);
            let values: Vec<V> = types
                .iter()
                .enumerate()
                .map(|(j, ty)| {
                    let ptr = emit.gep_const(base, &[0, j as i32], layout);
                    emit.load(*ty, ptr)
                })
                .collect();
            drop_arguments(block, &values);
        }
        // The captures' shared memory is free again once every partition has read it.
        emit.all_barrier(SWITCH_BARRIER);
        for block in region_blocks(partition) {
            for op in block_ops(block) {
                for nested in std::iter::once(op_ref(op)).chain(collect_ops(op_ref(op), Order::Pre)) {
                    if name_of(&nested) == "ttg.warp_return" {
                        emit.at(Cursor::Before(nested.to_raw()));
                        emit.all_barrier(SWITCH_BARRIER);
                        if let Some(actual) = &ws.actual_registers {
                            emit.set_max_registers(i64::from(actual[i + 1]), low_registers);
                        }
                        emit.branch(switch_loop, &[], None);
                        unsafe { mlir_sys::mlirOperationDestroy(nested.to_raw()) };
                    }
                }
            }
        }
    }
}

/// Splits the block at the `ttg.warp_specialize`: before it the default warps
/// publish the states and captures and release the workers; the default
/// region runs inline; `ttg.warp_yield` waits for the workers and branches to
/// the rest of the block, whose arguments replace the op's results.
fn lower_default_side(
    emit: &mut Emit,
    ws: &WarpSpecialize,
    states: &[i64],
    function_body: mlir_sys::MlirRegion,
    default_registers: i64,
) -> PassResult {
    let context = emit.b.context;
    let op = op_ref(ws.op);
    let before = unsafe { mlir_sys::mlirOperationGetBlock(ws.op) };
    let result_types: Vec<Type> = (0..op.result_count()).map(|r| op.result(r).unwrap().r#type()).collect();
    let after = new_block(&result_types, op.location());
    unsafe { mlir_sys::mlirRegionInsertOwnedBlockAfter(function_body, before, after) };
    // Move what follows the op into `after`.
    let mut next = unsafe { mlir_sys::mlirOperationGetNextInBlock(ws.op) };
    while !next.ptr.is_null() {
        let following = unsafe { mlir_sys::mlirOperationGetNextInBlock(next) };
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(next);
            mlir_sys::mlirBlockAppendOwnedOperation(after, next);
        }
        next = following;
    }
    let i8 = emit.b.int_type(8);
    let function_offset = {
        let mut parent = op.parent_operation();
        while let Some(p) = parent {
            if name_of(&p) == "llvm.func" {
                break;
            }
            parent = p.parent_operation();
        }
        parent.and_then(|f| crate::int_attribute(&f, "allocation.offset")).unwrap_or(0)
    };
    emit.at(Cursor::Before(ws.op));
    let base = emit.shared_base(function_offset);
    for (i, state) in states.iter().enumerate() {
        let value = emit.constant(8, *state);
        let ptr = if i == 0 { base } else { emit.gep_const(base, &[i as i32], i8) };
        emit.store(value, ptr);
    }
    let captures: Vec<V> = (0..op.operand_count()).map(|i| op.operand(i).unwrap().to_raw()).collect();
    if !captures.is_empty() {
        let types: Vec<Type> = captures.iter().map(|v| crate::builder::type_of(*v)).collect();
        let layout = capture_struct(context, &types);
        let offset = crate::int_attribute(&op, "allocation.offset").unwrap_or(0);
        let capture_base = emit.shared_base(offset);
        for (i, v) in captures.iter().enumerate() {
            let ptr = emit.gep_const(capture_base, &[0, i as i32], layout);
            emit.store(*v, ptr);
        }
    }
    // Release the workers, then wait until they have read the captures.
    emit.all_barrier(SWITCH_BARRIER);
    if let Some(actual) = &ws.actual_registers {
        emit.set_max_registers(default_registers, i64::from(actual[0]));
    }
    emit.all_barrier(SWITCH_BARRIER);
    let default_region = ws.default_region();
    let default_entry = unsafe { mlir_sys::mlirRegionGetFirstBlock(default_region) };
    emit.branch(default_entry, &[], None);
    for block in region_blocks(default_region) {
        for inner in block_ops(block) {
            for nested in std::iter::once(op_ref(inner)).chain(collect_ops(op_ref(inner), Order::Pre)) {
                if name_of(&nested) == "ttg.warp_yield"
                    && nested.parent_operation().map(|p| p.to_raw().ptr) == Some(ws.op.ptr)
                {
                    let values: Vec<V> =
                        (0..nested.operand_count()).map(|i| nested.operand(i).unwrap().to_raw()).collect();
                    emit.at(Cursor::Before(nested.to_raw()));
                    emit.all_barrier(SWITCH_BARRIER);
                    if let Some(actual) = &ws.actual_registers {
                        emit.set_max_registers(i64::from(actual[0]), default_registers);
                    }
                    emit.branch(after, &values, None);
                    unsafe { mlir_sys::mlirOperationDestroy(nested.to_raw()) };
                }
            }
        }
    }
    splice_blocks(default_region, function_body, before);
    for r in 0..op.result_count() {
        let arg = unsafe { mlir_sys::mlirBlockGetArgument(after, r as isize) };
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(op.result(r).unwrap().to_raw(), arg) };
    }
    // The (now empty) op goes; its moved-out default region left an empty region.
    unsafe { mlir_sys::mlirOperationDestroy(ws.op) };
    Ok(())
}

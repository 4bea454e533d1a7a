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
use crate::builder::{value, Builder, Cursor, V};
use melior::{
    ir::{
        attribute::DenseI32ArrayAttribute,
        operation::{OperationBuilder, OperationLike},
        Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, RegionLike, RegionRef, Type,
        ValueLike,
    },
    Context,
};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{
    argument_owner, block_arguments, block_ops, clone_with, defining_op, erase, erase_block_argument, move_block_after,
    move_to_end, op_key, region_blocks, replace_all_uses, set_operands, value_key, ValueMap,
};
use tritium_dialects::pass::{emit_error, OptionKind, PassDefinition, PassFailed, PassOption, PassOptions, PassResult};
use tritium_dialects::target::ModuleConfig;
use tritium_dialects::views::UnrealizedConversionCastOp;
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
    fn branch(&self, dest: BlockRef, operands: &[V], annotation: Option<Attribute<'c>>) {
        let operands: Vec<_> = operands.iter().map(|v| value(*v)).collect();
        let mut builder =
            OperationBuilder::new("llvm.br", self.b.location).add_operands(&operands).add_successors(&[&dest]);
        if let Some(annotation) = annotation {
            builder = builder.add_attributes(&[(Identifier::new(self.b.context, "loop_annotation"), annotation)]);
        }
        self.insert(builder.build().expect("llvm.br"));
    }
    fn insert(&self, operation: melior::ir::Operation<'c>) -> OperationRef<'c, 'c> {
        self.b.insert(operation, self.b.cursor)
    }
}

/// A new block taking `types`, right after `after` in its region.
fn block_after<'c, 'a>(after: BlockRef<'c, 'a>, types: &[Type<'c>], location: Location<'c>) -> BlockRef<'c, 'a> {
    let region = after.parent_region().expect("a block of the function body");
    region.insert_block_after(after, Block::new(&types.iter().map(|t| (*t, location)).collect::<Vec<_>>()))
}

/// Moves every block of `from` right after `after` (in `after`'s region),
/// in order.
fn splice_blocks<'c, 'a>(from: RegionRef<'c, 'a>, mut after: BlockRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    let blocks = region_blocks(&from);
    for block in &blocks {
        move_block_after(*block, after);
        after = *block;
    }
    blocks
}

/// The entry block of `region` (every region of a lowered
/// `ttg.warp_specialize` has one).
fn entry_of<'c, 'a>(region: RegionRef<'c, 'a>) -> BlockRef<'c, 'a> {
    region.first_block().expect("a region of a lowered ttg.warp_specialize has a block")
}

/// Replaces the arguments of `block` by `values` and removes them.
fn drop_arguments(block: BlockRef, values: &[V]) {
    for (argument, v) in block_arguments(&block).into_iter().zip(values) {
        replace_all_uses(argument, value(*v));
    }
    for _ in 0..values.len() {
        erase_block_argument(&block, 0);
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
fn trivial_subcomputation<'c, 'a>(
    capture: V,
    function_entry: BlockRef,
    limit: usize,
) -> Option<Vec<OperationRef<'c, 'a>>> {
    let mut worklist = vec![value(capture)];
    let mut seen = HashSet::new();
    let mut ops: Vec<OperationRef> = Vec::new();
    while let Some(v) = worklist.pop() {
        if !seen.insert(value_key(v)) {
            continue;
        }
        let Some(op) = defining_op(v) else {
            if argument_owner(v).is_some_and(|owner| owner == function_entry) {
                continue;
            }
            return None;
        };
        if !is_rematerializable(&name_of(&op)) {
            return None;
        }
        if !ops.contains(&op) {
            ops.push(op);
        }
        worklist.extend(op.operands());
    }
    if ops.len() > limit {
        return None;
    }
    // Definitions before uses: an op found later in the walk is an input of
    // one found earlier.
    ops.reverse();
    let mut ordered = Vec::new();
    while !ops.is_empty() {
        let ready = ops
            .iter()
            .position(|op| !op.operands().any(|v| defining_op(v).is_some_and(|owner| ops.contains(&owner))))
            .expect("pure subcomputations are acyclic");
        ordered.push(ops.remove(ready));
    }
    Some(ordered)
}

struct WarpSpecialize<'c, 'a> {
    op: OperationRef<'c, 'a>,
    partition_num_warps: Vec<i32>,
    start_ids: Vec<i32>,
    actual_registers: Option<Vec<i32>>,
}

impl<'c, 'a> WarpSpecialize<'c, 'a> {
    /// The partition regions (of the `ttg.warp_specialize.partitions` op in
    /// region 1).
    fn partitions(&self) -> Vec<RegionRef<'c, 'a>> {
        let holder = self.op.region_at(1).ok().and_then(|r| r.first_block());
        holder.and_then(|b| b.first_operation()).map(|partitions| partitions.regions().collect()).unwrap_or_default()
    }
    fn default_region(&self) -> RegionRef<'c, 'a> {
        self.op.region_at(0).expect("ttg.warp_specialize has a default region")
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
        .and_then(UnrealizedConversionCastOp::of)
        .filter(|cast| cast.operand_count() == 1)
        .map(|cast| cast.inputs()[0]);
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
    let config = ModuleConfig::of(module).map_err(|e| fail(module, e.0))?;
    let default_warps = i64::from(config.num_warps().map_err(|e| fail(module, e.0))?);
    let threads_per_warp = i64::from(config.threads_per_warp);
    let Some(total_warps) = config.total_num_warps.map(i64::from) else {
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
            op: *op,
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

    let function_body = function.region_at(0).expect("a kernel with a body");
    let entry = function_body.first_block().expect("a kernel with a body");
    elide_trivial_captures(&mut emit, &wss, entry, limit);

    // Header: warp id, default warps to the old entry, the others to the switch loop.
    let argument_types: Vec<(Type, Location)> =
        block_arguments(&entry).iter().map(|argument| (argument.r#type(), location)).collect();
    let header = function_body.insert_block_before(entry, Block::new(&argument_types));
    let switch_loop = block_after(header, &[], location);
    let i32 = emit.b.i32();
    let i8 = emit.b.int_type(8);
    emit.at(Cursor::End(header.to_raw()));
    let tid = emit.b.op1("nvvm.read.ptx.sreg.tid.x", &[], i32, &[]);
    let warp_size = emit.constant(32, threads_per_warp);
    let warp = emit.binary("llvm.udiv", tid, warp_size);
    let (all_lanes, zero, clamp) = (emit.constant(32, -1), emit.constant(32, 0), emit.constant(32, 31));
    let kind = Attribute::parse(context, "#nvvm<shfl_kind idx>").expect("shfl kind");
    let warp = emit.b.op1("nvvm.shfl.sync", &[all_lanes, warp, zero, clamp], i32, &[("kind", kind)]);
    let default_count = emit.constant(32, default_warps);
    let ult = emit.b.int_attr(emit.b.i64(), 6);
    let is_default = emit.b.op1("llvm.icmp", &[warp, default_count], emit.b.i1(), &[("predicate", ult)]);
    let segments = DenseI32ArrayAttribute::new(context, &[1, 0, 0]).into();
    emit.insert(
        OperationBuilder::new("llvm.cond_br", location)
            .add_operands(&[value(is_default)])
            .add_successors(&[&entry, &switch_loop])
            .add_attributes(&[(Identifier::new(context, "operandSegmentSizes"), segments)])
            .build()
            .expect("llvm.cond_br"),
    );
    let header_arguments: Vec<V> = block_arguments(&header).iter().map(|argument| argument.to_raw()).collect();
    drop_arguments(entry, &header_arguments);
    if let Some(start) = max_registers {
        let first = block_ops(&entry)[0];
        emit.at(Cursor::Before(first.to_raw())).set_max_registers(start, default_registers);
    }

    // The switch loop.
    let function_offset = crate::int_attribute(&function, "allocation.offset").unwrap_or(0);
    emit.at(Cursor::End(switch_loop.to_raw()));
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
    let mut partition_blocks: Vec<BlockRef> = Vec::new();
    let mut warp_states: Vec<Vec<i64>> = Vec::new();
    let mut next_state = 0i64;
    for ws in &wss {
        rewrite_partition_regions(&mut emit, ws, switch_loop, low_registers);
        let mut states = vec![-1i64; worker_warps];
        for (i, partition) in ws.partitions().into_iter().enumerate() {
            partition_blocks.push(entry_of(partition));
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
            let moved = splice_blocks(partition, after);
            after = *moved.last().unwrap_or(&after);
        }
    }
    // Any other state: wait out the warp_specialize the warp has no part in.
    let idle = block_after(switch_loop, &[], location);
    emit.at(Cursor::End(idle.to_raw()));
    emit.all_barrier(SWITCH_BARRIER);
    emit.all_barrier(SWITCH_BARRIER);
    // LICM would hoist partition code out of the loop into long-lived registers.
    let no_licm = Attribute::parse(context, "#llvm.loop_annotation<licm = <disable = true>>").expect("loop annotation");
    emit.branch(switch_loop, &[], Some(no_licm));
    let exit = block_after(idle, &[], location);
    emit.at(Cursor::End(exit.to_raw()));
    emit.b.op("llvm.return", &[], &[], &[]);
    partition_blocks.push(exit);

    emit.at(Cursor::End(switch_loop.to_raw()));
    let case_values: Vec<String> = (0..=next_state).map(|s| s.to_string()).collect();
    let case_values =
        Attribute::parse(context, &format!("dense<[{}]> : vector<{}xi8>", case_values.join(", "), next_state + 1))
            .expect("case values");
    let case_segments = DenseI32ArrayAttribute::new(context, &vec![0; partition_blocks.len()]).into();
    let segments = DenseI32ArrayAttribute::new(context, &[1, 0, 0]).into();
    let mut successors: Vec<&Block> = vec![&idle];
    successors.extend(partition_blocks.iter().map(|block| &**block));
    emit.insert(
        OperationBuilder::new("llvm.switch", location)
            .add_operands(&[value(state)])
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
        lower_default_side(&mut emit, ws, states, default_registers)?;
    }

    // Every return sends the workers to the exit.
    for op in collect_ops(function, Order::Pre) {
        if name_of(&op) != "llvm.return" || op.block() == Some(exit) {
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
    // The `ttg.warp_specialize.partitions` ops.
    let partition_ops: HashSet<usize> = wss
        .iter()
        .filter_map(|ws| ws.op.region_at(1).ok()?.first_block()?.first_operation())
        .map(|partitions| op_key(&partitions))
        .collect();
    let inside_partition = |op: &OperationRef| {
        let mut parent = op.parent_operation();
        while let Some(p) = parent {
            if partition_ops.contains(&op_key(&p)) {
                return true;
            }
            parent = p.parent_operation();
        }
        false
    };
    for op in collect_ops(function, Order::Pre) {
        if name_of(&op) == "nvvm.barrier0" && !inside_partition(&op) {
            emit.at(Cursor::Before(op.to_raw())).named_barrier(DEFAULT_BARRIER, default_threads);
            erase(op);
        }
    }
    for ws in wss {
        for (i, partition) in ws.partitions().into_iter().enumerate() {
            let threads = threads_per_warp * i64::from(ws.partition_num_warps[i]);
            for block in region_blocks(&partition) {
                for op in block_ops(&block) {
                    for nested in std::iter::once(op).chain(collect_ops(op, Order::Pre)) {
                        if name_of(&nested) == "nvvm.barrier0" {
                            emit.at(Cursor::Before(nested.to_raw()))
                                .named_barrier((RESERVED_BARRIERS + i) as i64, threads);
                            erase(nested);
                        }
                    }
                }
            }
        }
    }
}

/// Captures computed from kernel arguments by a few pure ops are recomputed
/// at the start of each partition, and stop being captures.
fn elide_trivial_captures(emit: &mut Emit, wss: &[WarpSpecialize], function_entry: BlockRef, limit: usize) {
    for ws in wss {
        let captures: Vec<V> = ws.op.operands().map(|capture| capture.to_raw()).collect();
        let mut elided = Vec::new();
        for (i, capture) in captures.iter().enumerate() {
            let Some(ops) = trivial_subcomputation(*capture, function_entry, limit) else {
                continue;
            };
            elided.push(i);
            for partition in ws.partitions() {
                let block = entry_of(partition);
                let first = block_ops(&block)[0];
                let mut map = ValueMap::default();
                let mut remat = *capture;
                for op in &ops {
                    emit.at(Cursor::Before(first.to_raw()));
                    let clone = emit.insert(clone_with(op, &map));
                    for (old, new) in op.results().zip(clone.results()) {
                        map.map(old.into(), new.into());
                        if value_key(old.into()) == value_key(value(*capture)) {
                            remat = new.to_raw();
                        }
                    }
                }
                replace_all_uses(block_arguments(&block)[i], value(remat));
            }
        }
        let kept: Vec<_> =
            captures.iter().enumerate().filter(|(i, _)| !elided.contains(i)).map(|(_, v)| value(*v)).collect();
        set_operands(&ws.op, &kept);
        for i in elided.iter().rev() {
            for partition in ws.partitions() {
                erase_block_argument(&entry_of(partition), *i);
            }
        }
    }
}

/// The packed struct the captures travel in, through shared memory.
fn capture_struct<'c>(context: &'c Context, types: &[Type<'c>]) -> Type<'c> {
    let fields: Vec<String> = types.iter().map(|t| t.to_string()).collect();
    Type::parse(context, &format!("!llvm.struct<packed ({})>", fields.join(", "))).expect("capture struct")
}

fn rewrite_partition_regions(emit: &mut Emit, ws: &WarpSpecialize, switch_loop: BlockRef, low_registers: i64) {
    let context = emit.b.context;
    let offset = crate::int_attribute(&ws.op, "allocation.offset").unwrap_or(0);
    for (i, partition) in ws.partitions().into_iter().enumerate() {
        let block = entry_of(partition);
        let first = block_ops(&block)[0];
        emit.at(Cursor::Before(first.to_raw()));
        if let Some(actual) = &ws.actual_registers {
            emit.set_max_registers(low_registers, i64::from(actual[i + 1]));
        }
        let types: Vec<Type> = block_arguments(&block).iter().map(|argument| argument.r#type()).collect();
        if !types.is_empty() {
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
        for block in region_blocks(&partition) {
            for op in block_ops(&block) {
                for nested in std::iter::once(op).chain(collect_ops(op, Order::Pre)) {
                    if name_of(&nested) == "ttg.warp_return" {
                        emit.at(Cursor::Before(nested.to_raw()));
                        emit.all_barrier(SWITCH_BARRIER);
                        if let Some(actual) = &ws.actual_registers {
                            emit.set_max_registers(i64::from(actual[i + 1]), low_registers);
                        }
                        emit.branch(switch_loop, &[], None);
                        erase(nested);
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
fn lower_default_side(emit: &mut Emit, ws: &WarpSpecialize, states: &[i64], default_registers: i64) -> PassResult {
    let context = emit.b.context;
    let op = ws.op;
    let before = op.block().expect("a ttg.warp_specialize in a block");
    let result_types: Vec<Type> = op.results().map(|result| result.r#type()).collect();
    let after = block_after(before, &result_types, op.location());
    // Move what follows the op into `after`.
    let mut next = op.next_in_block();
    while let Some(following) = next {
        next = following.next_in_block();
        move_to_end(&following, &after);
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
    emit.at(Cursor::Before(op.to_raw()));
    let base = emit.shared_base(function_offset);
    for (i, state) in states.iter().enumerate() {
        let value = emit.constant(8, *state);
        let ptr = if i == 0 { base } else { emit.gep_const(base, &[i as i32], i8) };
        emit.store(value, ptr);
    }
    let captures: Vec<V> = op.operands().map(|capture| capture.to_raw()).collect();
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
    emit.branch(entry_of(default_region), &[], None);
    for block in region_blocks(&default_region) {
        for inner in block_ops(&block) {
            for nested in std::iter::once(inner).chain(collect_ops(inner, Order::Pre)) {
                if name_of(&nested) == "ttg.warp_yield" && nested.parent_operation() == Some(op) {
                    let values: Vec<V> = nested.operands().map(|v| v.to_raw()).collect();
                    emit.at(Cursor::Before(nested.to_raw()));
                    emit.all_barrier(SWITCH_BARRIER);
                    if let Some(actual) = &ws.actual_registers {
                        emit.set_max_registers(i64::from(actual[0]), default_registers);
                    }
                    emit.branch(after, &values, None);
                    erase(nested);
                }
            }
        }
    }
    splice_blocks(default_region, before);
    for (result, argument) in op.results().zip(block_arguments(&after)) {
        replace_all_uses(result.into(), argument);
    }
    // The (now empty) op goes; its moved-out default region left an empty region.
    erase(op);
    Ok(())
}

//! The lowering of one kernel: a `tt.func` of TritonGPU IR becomes an
//! `llvm.func` whose values are the registers of one thread. Every tensor
//! value maps to the list of its registers in the order of its layout's
//! `register` dimension; scalars map to one value.
use tritium_dialects::access::{OpAccess, ranked_tensor};
use crate::{
    builder::{Builder, Cursor, V},
    layout::{runtime_coords, TensorLayout, ThreadIds},
    ops,
    target::Target,
};
use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, ShapedTypeLike},
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type,
        TypeLike, ValueLike,
    },
    Context,
};
use mlir_sys::MlirOperation;
use std::{collections::HashMap, rc::Rc};
use tritium_dialects::{layout::layout_of, types};

/// A lowering failure, reported on the op that caused it.
#[derive(Debug)]
pub struct LowerError {
    pub location: String,
    pub message: String,
    raw_location: mlir_sys::MlirLocation,
}

impl LowerError {
    pub fn at(op: &OperationRef, message: impl Into<String>) -> LowerError {
        let name = op.name().as_string_ref().as_str().unwrap_or("?").to_string();
        LowerError {
            location: op.location().to_string(),
            message: format!("'{name}': {}", message.into()),
            raw_location: op.location().to_raw(),
        }
    }

    /// Emits the error as an MLIR diagnostic at the op's location.
    pub fn emit(&self) {
        let location = unsafe { Location::from_raw(self.raw_location) };
        tritium_dialects::pass::emit_error(location, &self.message);
    }
}

pub type Result<T> = std::result::Result<T, LowerError>;

fn key(v: V) -> usize {
    v.ptr as usize
}

/// A layout (its debug text) over a shape.
type LayoutKey = (String, Vec<i64>);
/// A layout over a shape, a register and a dimension.
type RegisterKey = (String, Vec<i64>, usize, usize);

pub struct Lowering<'c> {
    pub b: Builder<'c>,
    pub target: Target,
    pub num_warps: u32,
    values: HashMap<usize, Vec<V>>,
    layouts: HashMap<(String, Vec<i64>), Rc<TensorLayout>>,
    /// Per-thread coordinates, with the index of the kernel block they were
    /// computed in: a cached value is reused only where that block
    /// dominates the current one.
    thread_coords: HashMap<LayoutKey, (Rc<Vec<V>>, usize)>,
    register_coords: HashMap<RegisterKey, (V, usize)>,
    /// The kernel's blocks (unstructured control flow from early returns).
    pub cfg: crate::cfg::KernelBlocks,
    /// The llvm (or scf.execute_region) block each block of a region with
    /// branches (tt.map_elementwise's) is being lowered into, with its
    /// arguments' register counts.
    pub region_blocks: HashMap<usize, (mlir_sys::MlirBlock, Vec<usize>)>,
    /// Where per-thread values that later ops may share (layout coordinates,
    /// shared-memory offsets, predicates) go: right before the top-level op
    /// being lowered. They then dominate the rest of the function, and sit
    /// outside any loop containing their use (as LICM would put them), but
    /// are not computed before earlier loops, across which they would
    /// occupy registers (as hoisting them all to the entry block did).
    prologue: MlirOperation,
    pub tid: V,
    pub lane: V,
    pub warp: V,
    pub shared_base: V,
    /// Functions declared in the module (libdevice, ...).
    pub declared_functions: std::collections::HashSet<String>,
    /// The llvm.func being built; module-level declarations go before it.
    pub function_op: MlirOperation,
    /// Contiguity, divisibility and constancy of the kernel's values.
    pub axis_info: Option<tritium_passes::analysis::axis_info::ModuleAxisInfo>,
}

impl<'c> Lowering<'c> {
    /// Runs `f` with new ops going before the current top-level op (see
    /// `prologue`).
    pub fn in_prologue<R>(&mut self, f: impl FnOnce(&mut Builder<'c>) -> R) -> R {
        let saved = self.b.cursor;
        self.b.cursor = Cursor::Before(self.prologue);
        let result = f(&mut self.b);
        self.b.cursor = saved;
        result
    }

    pub fn ids(&self) -> ThreadIds {
        ThreadIds { tid: self.tid, warp: self.warp }
    }

    pub fn set(&mut self, old: V, registers: Vec<V>) {
        self.values.insert(key(old), registers);
    }

    pub fn get(&self, op: &OperationRef, old: V) -> Result<Vec<V>> {
        self.values
            .get(&key(old))
            .cloned()
            .ok_or_else(|| LowerError::at(op, "uses a value the lowering has not produced"))
    }

    pub fn operand(&self, op: &OperationRef, index: usize) -> Result<Vec<V>> {
        let operand = op.operand_at(index).map_err(|e| LowerError::at(op, e.to_string()))?;
        self.get(op, operand.to_raw())
    }

    pub fn set_result(&mut self, op: &OperationRef, index: usize, registers: Vec<V>) {
        let result = op.result_at(index).expect("result index in range").to_raw();
        self.set(result, registers);
    }

    /// The scalar type that stands for one element of `ty` (a tensor's
    /// element, `!tt.ptr` as `!llvm.ptr<addrspace>`).
    pub fn lower_type(&self, ty: Type<'c>) -> Type<'c> {
        let element = ranked_tensor(ty).map(|t| t.element()).unwrap_or(ty);
        match types::pointer_parts(element) {
            Some((_, address_space)) => self.b.ptr(address_space as u32),
            None if ops::fp8::is_fp8(element) => self.b.int_type(8), // fp8 lives in registers as its byte
            None => element,
        }
    }

    /// The distribution of a tensor type over the threads.
    pub fn tensor_layout(&mut self, op: &OperationRef, ty: Type<'c>) -> Result<Rc<TensorLayout>> {
        let tensor = ranked_tensor(ty).map_err(|_| LowerError::at(op, format!("{ty} is not a tensor")))?;
        let encoding = tensor
            .encoding()
            .ok_or_else(|| LowerError::at(op, format!("{ty} has no layout; run the TTGIR passes first")))?;
        let shape = types::static_shape(ty).ok_or_else(|| LowerError::at(op, "dynamic shapes are not supported"))?;
        let key = (encoding.to_string(), shape.clone());
        if let Some(layout) = self.layouts.get(&key) {
            return Ok(layout.clone());
        }
        let layout = layout_of(encoding).map_err(|e| LowerError::at(op, e.to_string()))?;
        if !layout.is_distributed() {
            return Err(LowerError::at(op, format!("{encoding} is not a distributed layout")));
        }
        let layout = Rc::new(TensorLayout::new(layout, &shape).map_err(|e| LowerError::at(op, e))?);
        self.layouts.insert(key, layout.clone());
        Ok(layout)
    }

    /// The coordinate along `dim` of register `register` of this thread.
    pub fn coordinate(&mut self, layout: &TensorLayout, register: usize, dim: usize) -> V {
        let layout_key = (format!("{:?}", layout.layout), layout.shape.clone());
        let full_key = (layout_key.0.clone(), layout_key.1.clone(), register, dim);
        let here = self.cfg.current;
        if let Some((v, block)) = self.register_coords.get(&full_key) {
            if self.cfg.dominates(*block, here) {
                return *v;
            }
        }
        let cached = self.thread_coords.get(&layout_key).filter(|(_, block)| self.cfg.dominates(*block, here));
        let thread = match cached {
            Some((coords, _)) => coords.clone(),
            None => {
                let ids = self.ids();
                let coords = Rc::new(self.in_prologue(|b| runtime_coords(b, layout, ids)));
                self.thread_coords.insert(layout_key, (coords.clone(), here));
                coords
            }
        };
        let constant = layout.register_coords[register][dim] as i64;
        let base = thread[dim];
        let v = self.in_prologue(|b| {
            if constant == 0 {
                base
            } else {
                let c = b.i32_const(constant);
                b.xor(base, c)
            }
        });
        self.register_coords.insert(full_key, (v, here));
        v
    }

    /// Lowers the kernel's body: each op with a placeholder before it that
    /// anchors the values it hoists (see `prologue`), removed afterwards.
    fn lower_top_level(&mut self, block: &melior::ir::BlockRef<'c, '_>) -> Result<()> {
        // Between ops (and after the last) the anchor is the entry block's
        // terminator, so that it never names a destroyed placeholder.
        let entry_terminator = self.prologue;
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.b.location = op.location();
            let i32 = self.b.i32();
            let placeholder = self.b.op_ref("llvm.mlir.undef", &[], &[i32], &[]).to_raw();
            self.prologue = placeholder;
            let result = ops::lower_op(self, op);
            self.prologue = entry_terminator;
            unsafe { mlir_sys::mlirOperationDestroy(placeholder) };
            result?;
            next = op.next_in_block();
        }
        Ok(())
    }

    /// Lowers the ops of `block` in order, at the current cursor.
    pub fn lower_block(&mut self, block: &melior::ir::BlockRef<'c, '_>) -> Result<()> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.b.location = op.location();
            ops::lower_op(self, op)?;
            next = op.next_in_block();
        }
        Ok(())
    }

    /// Start of `op`'s scratch (its allocation.offset).
    pub fn scratch_base(&mut self, op: &OperationRef) -> Result<V> {
        let offset = crate::int_attribute(op, "allocation.offset")
            .ok_or_else(|| LowerError::at(op, "needs shared memory but has no allocation.offset (allocate-shared-memory-nv)"))?;
        let base = self.shared_base;
        Ok(self.in_prologue(|b| {
            let i8 = b.int_type(8);
            let offset = b.i32_const(offset);
            b.gep(base, offset, i8)
        }))
    }

    pub fn context(&self) -> &'c Context {
        self.b.context
    }

    pub fn attr_i32_array(&self, values: &[i32]) -> Attribute<'c> {
        DenseI32ArrayAttribute::new(self.context(), values).into()
    }
}

/// What the kernel needs at launch.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub name: String,
    pub num_warps: u32,
    pub shared_bytes: usize,
    /// (name, type) of each parameter, in order.
    pub parameters: Vec<(String, String)>,
    /// For each `!tt.tensordesc` parameter, in order, what the launcher puts
    /// into its CUtensorMap (a JSON object, as upstream's `tensordesc_meta`).
    pub tensordesc_meta: Vec<String>,
}

/// The kernel ABI of one parameter: its LLVM type and parameter attributes.
/// Pointers are global addresses, scalars by value, tensor descriptors a
/// CUtensorMap by value (`ops::tma::parameter_abi`).
fn kernel_parameter<'c>(context: &'c Context, b: &Builder<'c>, ty: Type<'c>) -> std::result::Result<(Type<'c>, Attribute<'c>), String> {
    let empty = Attribute::parse(context, "{}").expect("empty dictionary");
    if let Some((lowered, attributes)) = ops::tma::parameter_abi(ty) {
        let lowered = Type::parse(context, lowered).ok_or("bad parameter type")?;
        let attributes = Attribute::parse(context, attributes).ok_or("bad parameter attributes")?;
        return Ok((lowered, attributes));
    }
    Ok(match types::pointer_parts(ty) {
        Some((_, space)) => (b.ptr(space as u32), empty),
        None => (ty, empty),
    })
}

/// `tensordesc_meta` of the kernel: one entry per tensor-descriptor parameter.
fn descriptor_metadata(function_type: &FunctionType) -> std::result::Result<Vec<String>, String> {
    (0..function_type.input_count()).filter_map(|i| ops::tma::descriptor_metadata(function_type.input(i).unwrap())).collect()
}

/// The kernel of a TTGIR module: its public `tt.func`, checked for what
/// the lowering supports, and what a launch needs to know of it.
pub struct Kernel<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub function_type: FunctionType<'c>,
    pub info: KernelInfo,
}

/// PTX's identifier syntax: `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+`.
fn is_ptx_identifier(name: &str) -> bool {
    let follows = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => chars.all(follows),
        Some('_' | '$' | '%') => name.len() > 1 && chars.all(follows),
        _ => false,
    }
}

/// Finds and checks the kernel of `module`. With `scratch_parameters`, its
/// parameters end with upstream Triton's global-scratch and profile-scratch
/// pointers.
pub fn find_kernel<'c, 'a>(module: &'a melior::ir::Module<'c>, scratch_parameters: bool) -> Result<Kernel<'c, 'a>> {
    let body = module.body();
    let module_op = module.as_operation();
    let num_warps = crate::module_int_attribute(&module_op, "ttg.num-warps").unwrap_or(4) as u32;
    let threads_per_warp = crate::module_int_attribute(&module_op, "ttg.threads-per-warp").unwrap_or(32);
    if threads_per_warp != 32 {
        return Err(LowerError::at(&module_op, "only 32 threads per warp are supported on NVIDIA GPUs"));
    }
    if crate::module_int_attribute(&module_op, "ttg.num-ctas").unwrap_or(1) != 1 {
        return Err(LowerError::at(&module_op, "kernels over several CTAs (num-ctas > 1) are not supported yet"));
    }
    let mut kernels = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        if name == "tt.func" {
            kernels.push(op);
        }
        next = op.next_in_block();
    }
    let [kernel] = kernels[..] else {
        return Err(LowerError::at(&module_op, format!("expected one tt.func (the kernel), found {}", kernels.len())));
    };
    if kernel.attribute("sym_visibility").is_ok_and(|v| v.to_string() != "\"public\"") {
        return Err(LowerError::at(&kernel, "the kernel must be a public tt.func"));
    }
    let function_type = kernel
        .attribute("function_type")
        .ok()
        .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .ok_or_else(|| LowerError::at(&kernel, "has no function type"))?;
    if function_type.result_count() != 0 {
        return Err(LowerError::at(&kernel, "a kernel returns nothing"));
    }
    let entry = kernel.region_at(0).ok().and_then(|r| r.first_block()).ok_or_else(|| LowerError::at(&kernel, "has no body"))?;
    let mut parameters = Vec::new();
    for i in 0..function_type.input_count() {
        let ty = function_type.input(i).unwrap();
        if ty.is_ranked_tensor() {
            return Err(LowerError::at(&kernel, "kernel parameters must be scalars or pointers"));
        }
        let name = entry
            .argument(i)
            .ok()
            .map(|a| a.location().to_string())
            .and_then(|l| l.split('"').nth(1).map(str::to_string))
            .unwrap_or_else(|| format!("arg{i}"));
        parameters.push((name, ty.to_string()));
    }
    if scratch_parameters {
        for name in ["global_scratch", "profile_scratch"] {
            parameters.push((name.to_string(), "!llvm.ptr<1>".to_string()));
        }
    }
    let name = kernel
        .attribute("sym_name")
        .ok()
        .and_then(tritium_dialects::access::string_attribute_value)
        .unwrap_or_else(|| "kernel".into());
    // The name becomes the PTX entry's: MLIR symbols may hold '.', PTX
    // identifiers may not (ptxas refused such PTX; a libFuzzer finding).
    if !is_ptx_identifier(&name) {
        return Err(LowerError::at(
            &kernel,
            format!("kernel name '{name}' is not a PTX identifier (a letter, or '_', '$' or '%' and more, then letters, digits, '_' and '$')"),
        ));
    }
    let shared_bytes = crate::module_int_attribute(&module_op, "ttg.shared").unwrap_or(0) as usize;
    let tensordesc_meta = descriptor_metadata(&function_type).map_err(|e| LowerError::at(&kernel, e))?;
    let info = KernelInfo { name, num_warps, shared_bytes, parameters, tensordesc_meta };
    Ok(Kernel { op: kernel, function_type, info })
}

/// Lowers the public `tt.func` of `module` into an `llvm.func` added to the
/// module (the tt.func is erased). Returns what a launch needs to know.
///
/// With `scratch_parameters`, the kernel takes upstream Triton's trailing
/// global-scratch and profile-scratch pointers (`!llvm.ptr<1>`) after its own
/// arguments, as Triton's launcher passes them; Tritium uses neither.
pub fn lower_kernel<'c>(
    context: &'c Context,
    module: &melior::ir::Module<'c>,
    target: Target,
    scratch_parameters: bool,
) -> Result<KernelInfo> {
    let Kernel { op: kernel, function_type, info } = find_kernel(module, scratch_parameters)?;
    let body = module.body();
    let module_op = module.as_operation();
    let num_warps = info.num_warps;

    // Vector widths of loads and stores come from the axis info of the TTGIR.
    let axis_info = tritium_passes::analysis::axis_info::ModuleAxisInfo::analyze(module_op)
        .map_err(|_| LowerError::at(&module_op, "the axis-info analysis failed"))?;
    let axis_info = Some(axis_info);

    // Shared memory: one extern array, its size given at launch.
    let location = Location::unknown(context);
    let b = Builder::new(context, location, Cursor::Before(kernel.to_raw()));
    let i8 = b.int_type(8);
    let array = melior::dialect::llvm::r#type::array(i8, 0);
    let global = OperationBuilder::new("llvm.mlir.global", location)
        .add_attributes(&[
            (Identifier::new(context, "global_type"), b.type_attr(array)),
            (Identifier::new(context, "sym_name"), b.str_attr("global_smem")),
            (
                Identifier::new(context, "linkage"),
                melior::dialect::llvm::attributes::linkage(context, melior::dialect::llvm::attributes::Linkage::External),
            ),
            (Identifier::new(context, "addr_space"), b.int_attr(b.i32(), 3)),
            (Identifier::new(context, "alignment"), b.int_attr(b.i64(), 16)),
        ])
        .add_regions([Region::new()])
        .build()
        .map_err(|e| LowerError::at(&kernel, e.to_string()))?;
    body.insert_operation_before(kernel, global);

    // The llvm.func and its two blocks: the prologue, then the body.
    let entry = kernel.region_at(0).ok().and_then(|r| r.first_block()).ok_or_else(|| LowerError::at(&kernel, "has no body"))?;
    let mut parameter_types: Vec<Type> = Vec::new();
    let mut parameter_attributes: Vec<Attribute> = Vec::new();
    for i in 0..function_type.input_count() {
        let (lowered, attributes) =
            kernel_parameter(context, &b, function_type.input(i).unwrap()).map_err(|e| LowerError::at(&kernel, e))?;
        parameter_types.push(lowered);
        parameter_attributes.push(attributes);
    }
    if scratch_parameters {
        parameter_types.extend([b.ptr(1), b.ptr(1)]);
        let empty = Attribute::parse(context, "{}").expect("empty dictionary");
        parameter_attributes.extend([empty, empty]);
    }
    let void = melior::dialect::llvm::r#type::void(context);
    let llvm_function_type = melior::dialect::llvm::r#type::function(void, &parameter_types, false);
    let region = Region::new();
    let prologue_block = Block::new(&parameter_types.iter().map(|t| (*t, location)).collect::<Vec<_>>());
    let body_block = Block::new(&[]);
    let prologue_ref = region.append_block(prologue_block);
    let body_ref = region.append_block(body_block);
    let branch = OperationBuilder::new("llvm.br", location)
        .add_successors(&[&body_ref])
        .add_operands(&[])
        .build()
        .expect("branch");
    let branch = prologue_ref.append_operation(branch);
    let kernel_name = info.name.clone();
    let threads = num_warps * 32;
    let unit = Attribute::unit(context);
    let function = OperationBuilder::new("llvm.func", location)
        .add_attributes(&[
            (Identifier::new(context, "sym_name"), StringAttribute::new(context, &kernel_name).into()),
            (Identifier::new(context, "function_type"), b.type_attr(llvm_function_type)),
            (Identifier::new(context, "nvvm.kernel"), unit),
            (Identifier::new(context, "nvvm.reqntid"), DenseI32ArrayAttribute::new(context, &[threads as i32]).into()),
            (Identifier::new(context, "arg_attrs"), ArrayAttribute::new(context, &parameter_attributes).into()),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| LowerError::at(&kernel, e.to_string()))?;
    let function = body.insert_operation_before(kernel, function);
    let function_body = function.region_at(0).unwrap();
    let prologue_block = function_body.first_block().unwrap();
    let body_block = prologue_block.next_in_region().unwrap();

    let mut b = Builder::new(context, location, Cursor::Before(branch.to_raw()));
    b.constant_anchor = Some(branch.to_raw());
    let tid = b.special_register("tid.x");
    let lane_mask = b.i32_const(31);
    let lane = b.and(tid, lane_mask);
    let five = b.i32_const(5);
    let warp = b.lshr(tid, five);
    // Every lane holds the same warp id, but ptxas cannot see it through
    // tid.x; broadcasting lane 0's value makes it uniform, so what depends
    // only on the warp (wgmma descriptors, warp slots) lives in uniform
    // registers instead of being recomputed per thread.
    let i32 = b.i32();
    let warp = b.inline_asm("shfl.sync.idx.b32 $0, $1, 0, 31, -1;", "=r,r", &[warp], Some(i32)).unwrap();
    let shared_type = b.ptr(3);
    let shared_base = b.op1(
        "llvm.mlir.addressof",
        &[],
        shared_type,
        &[("global_name", melior::ir::attribute::FlatSymbolRefAttribute::new(context, "global_smem").into())],
    );
    b.cursor = Cursor::End(body_block.to_raw());
    let mut lowering = Lowering {
        b,
        target,
        num_warps,
        values: HashMap::new(),
        layouts: HashMap::new(),
        thread_coords: HashMap::new(),
        register_coords: HashMap::new(),
        prologue: branch.to_raw(),
        tid,
        lane,
        warp,
        shared_base,
        declared_functions: Default::default(),
        function_op: function.to_raw(),
        axis_info,
        cfg: crate::cfg::KernelBlocks::of(kernel.region_at(0).unwrap()),
        region_blocks: HashMap::new(),
    };
    for i in 0..entry.argument_count() {
        let old = entry.argument(i).unwrap().to_raw();
        let new = prologue_block.argument(i).unwrap().to_raw();
        lowering.set(old, vec![new]);
    }
    // One llvm block per reachable block of the kernel: the entry's ops go
    // into the body block, the other blocks get their arguments' registers
    // as arguments.
    let mut lowered_blocks = vec![(body_block.to_raw(), Vec::new())];
    for block in lowering.cfg.order.clone().into_iter().skip(1) {
        let block = unsafe { melior::ir::BlockRef::from_raw(block) };
        let mut counts = Vec::new();
        let mut types = Vec::new();
        for i in 0..block.argument_count() {
            let ty = block.argument(i).unwrap().r#type();
            let count = if ty.is_ranked_tensor() { lowering.tensor_layout(&kernel, ty)?.num_registers() } else { 1 };
            counts.push(count);
            types.extend(std::iter::repeat_n((lowering.lower_type(ty), location), count));
        }
        let new = function_body.append_block(Block::new(&types));
        let mut next = 0;
        for (i, count) in counts.iter().enumerate() {
            let registers = (next..next + count).map(|j| new.argument(j).unwrap().to_raw()).collect();
            lowering.set(block.argument(i).unwrap().to_raw(), registers);
            next += count;
        }
        lowered_blocks.push((new.to_raw(), counts));
    }
    lowering.cfg.lowered = lowered_blocks.clone();
    for (index, block) in lowering.cfg.order.clone().into_iter().enumerate() {
        lowering.cfg.current = index;
        lowering.b.cursor = Cursor::End(lowered_blocks[index].0);
        lowering.lower_top_level(&unsafe { melior::ir::BlockRef::from_raw(block) })?;
    }
    // The tt.func is replaced by the llvm.func.
    unsafe { mlir_sys::mlirOperationDestroy(kernel.to_raw()) };
    Ok(info)
}

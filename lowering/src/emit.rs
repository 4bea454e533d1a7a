//! The lowering of one kernel: a `tt.func` of TritonGPU IR becomes an
//! `llvm.func` whose values are the registers of one thread. Every tensor
//! value maps to the list of its registers in the order of its layout's
//! `register` dimension; scalars map to one value.
use crate::{
    builder::{Builder, Cursor, V},
    function_abi,
    layout::{runtime_coords, TensorLayout, ThreadIds},
    ops,
    target::Target,
};
use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, ShapedTypeLike},
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike, ValueLike,
    },
    Context,
};
use std::{collections::HashMap, rc::Rc};
use tritium_dialects::access::{ranked_tensor, OpAccess};
use tritium_dialects::ir::handles::{BlockHandle, LocationHandle, OpHandle};
use tritium_dialects::{
    layout::layout_of,
    target::{ModuleConfig, THREADS_PER_WARP},
    types,
};

/// A lowering failure, reported on the op that caused it.
#[derive(Debug)]
pub struct LowerError {
    pub location: String,
    pub message: String,
    raw_location: LocationHandle,
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

    /// An error at `location` (an argument's, say), the message as given.
    pub fn at_location(location: melior::ir::Location, message: impl Into<String>) -> LowerError {
        LowerError { location: location.to_string(), message: message.into(), raw_location: location.to_raw() }
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
    /// f32 exp2 flushes denormals (upstream's enable_reflect_ftz).
    pub reflect_ftz: bool,
    /// f32 multiplies and adds may fuse (upstream's enable_fp_fusion).
    pub fp_fusion: bool,
    /// The PTX ISA version asked for (the pass's `ptx-version`): the
    /// instructions newer than it are not used.
    pub ptx_version: u32,
    pub num_warps: u32,
    /// CTAs of this kernel an SM can hold by shared memory and threads (0
    /// for warp-specialized kernels and device functions): see
    /// `ops::wgmma::lower_warp_group_dot_wait`.
    pub resident_ctas: u32,
    /// CTAs per cluster of the launch (see [`CTAS_PER_CLUSTER`]).
    pub ctas_per_cluster: u32,
    /// Threads per warp (`ttg.threads-per-warp`, 32 on NVIDIA GPUs).
    pub threads_per_warp: u32,
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
    pub region_blocks: HashMap<usize, (BlockHandle, Vec<usize>)>,
    /// Where per-thread values that later ops may share (layout coordinates,
    /// shared-memory offsets, predicates) go: right before the top-level op
    /// being lowered. They then dominate the rest of the function, and sit
    /// outside any loop containing their use (as LICM would put them), but
    /// are not computed before earlier loops, across which they would
    /// occupy registers (as hoisting them all to the entry block did).
    prologue: OpHandle,
    pub tid: V,
    pub lane: V,
    pub warp: V,
    pub shared_base: V,
    /// The kernel's global-scratch parameter, when it has one.
    pub global_scratch: Option<V>,
    /// Bytes of global scratch per program (`ttg.global_scratch_memory_size`).
    pub global_scratch_size: usize,
    /// Functions declared in the module (libdevice, ...).
    pub declared_functions: std::collections::HashSet<String>,
    /// The llvm.func being built; module-level declarations go before it.
    pub function_op: OpHandle,
    /// Contiguity, divisibility and constancy of the kernel's values.
    pub axis_info: Option<tritium_passes::analysis::axis_info::ModuleAxisInfo>,
    /// Kernel or device function, and the scratch pointers it hands on.
    pub abi: function_abi::FunctionAbi,
}

/// The distribution of a tensor type over the threads: which registers of
/// which thread hold which elements.
pub fn distribute(op: &OperationRef, ty: Type) -> Result<TensorLayout> {
    let tensor = ranked_tensor(ty).map_err(|_| LowerError::at(op, format!("{ty} is not a tensor")))?;
    let encoding = tensor
        .encoding()
        .ok_or_else(|| LowerError::at(op, format!("{ty} has no layout; run the TTGIR passes first")))?;
    let shape = types::static_shape(ty).ok_or_else(|| LowerError::at(op, "dynamic shapes are not supported"))?;
    let layout = layout_of(encoding).map_err(|e| LowerError::at(op, e.to_string()))?;
    if !layout.is_distributed() {
        return Err(LowerError::at(op, format!("{encoding} is not a distributed layout")));
    }
    TensorLayout::new(layout, &shape).map_err(|e| LowerError::at(op, e))
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
        // A tensor descriptor is the generic address of its CUtensorMap.
        if types::tensor_descriptor_block(ty).is_some() {
            return self.b.ptr(0);
        }
        let element = ranked_tensor(ty).map(|t| t.element()).unwrap_or(ty);
        match types::pointer_parts(element) {
            Some((_, address_space)) => self.b.ptr(address_space as u32),
            None if ops::fp8::is_fp8(element) => self.b.int_type(8), // fp8 lives in registers as its byte
            None => element,
        }
    }

    /// The program id along `axis` (0, 1, 2), or with `count` the number of
    /// programs: the CTA's, or its cluster's when the launch runs
    /// [`CTAS_PER_CLUSTER`] CTAs per program.
    pub fn program_id(&self, axis: usize, count: bool) -> V {
        let axis = ["x", "y", "z"][axis.min(2)];
        let register = match (self.ctas_per_cluster > 1, count) {
            (false, false) => "ctaid",
            (false, true) => "nctaid",
            (true, false) => "clusterid",
            (true, true) => "nclusterid",
        };
        self.b.special_register(&format!("{register}.{axis}"))
    }

    /// The distribution of a tensor type over the threads (cached).
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
        let layout = Rc::new(distribute(op, ty)?);
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
            tritium_dialects::ir::erase(unsafe { OperationRef::from_raw(placeholder) });
            result?;
            next = op.next_in_block();
        }
        Ok(())
    }

    /// Lowers `block` (a region isolated from above: a partition of
    /// `ttg.warp_specialize`) into `into`, as a function body of its own:
    /// constants, hoisted values and thread coordinates are made inside it,
    /// from `ids` (the thread and warp ids relative to the partition's first
    /// warp) and a shared-memory base of its own, over `num_warps` warps.
    /// Without `first_warp` (no `warpGroupStartIds` yet) the block may not
    /// use thread or warp ids, as upstream's lowering asks for them only
    /// where an op needs them: the error says so when one does.
    pub fn lower_isolated_block(
        &mut self,
        block: &melior::ir::BlockRef<'c, '_>,
        into: BlockHandle,
        first_warp: Option<i64>,
        num_warps: u32,
    ) -> Result<()> {
        let i32 = self.b.i32();
        let saved_cursor = self.b.cursor;
        self.b.cursor = Cursor::End(into);
        let anchor = self.b.op_ref("llvm.mlir.undef", &[], &[i32], &[]).to_raw();
        let saved_anchor = self.b.constant_anchor.replace(anchor);
        let saved_constants = self.b.swap_constants(HashMap::new());
        let saved_prologue = std::mem::replace(&mut self.prologue, anchor);
        let saved_thread_coords = std::mem::take(&mut self.thread_coords);
        let saved_register_coords = std::mem::take(&mut self.register_coords);
        let saved = (self.tid, self.lane, self.warp, self.shared_base, self.num_warps);

        self.b.cursor = Cursor::Before(anchor);
        let absolute = self.b.special_register("tid.x");
        let offset = self.b.i32_const(first_warp.unwrap_or(0) * i64::from(self.threads_per_warp));
        let relative = self.b.binary("arith.subi", absolute, offset);
        let tid = within_warps(&mut self.b, relative, num_warps, self.threads_per_warp);
        let (lane, warp) = lane_and_warp(&mut self.b, tid, self.threads_per_warp);
        let shared_type = self.b.ptr(3);
        let context = self.b.context;
        let shared_base = self.b.op1(
            "llvm.mlir.addressof",
            &[],
            shared_type,
            &[("global_name", melior::ir::attribute::FlatSymbolRefAttribute::new(context, "global_smem").into())],
        );
        (self.tid, self.lane, self.warp, self.shared_base, self.num_warps) = (tid, lane, warp, shared_base, num_warps);
        self.b.cursor = Cursor::End(into);
        let mut result = self.lower_top_level(block);
        if result.is_ok() && first_warp.is_none() && ids_are_used(tid, lane, warp) {
            let message = "a partition uses thread or warp ids, which need warpGroupStartIds: \
                           run tritongpu-allocate-warp-groups first";
            // At the ttg.warp_specialize (the block's region holder is its
            // partitions op).
            result = Err(match block.parent_operation().and_then(|holder| holder.parent_operation()) {
                Some(warp_specialize) => LowerError::at(&warp_specialize, message),
                None => LowerError::at_location(self.b.location, message),
            });
        }

        if result.is_ok() {
            erase_unused_ids(&[lane, warp, tid, shared_base]);
        }
        self.b.cursor = saved_cursor;
        self.b.constant_anchor = saved_anchor;
        self.b.swap_constants(saved_constants);
        self.prologue = saved_prologue;
        self.thread_coords = saved_thread_coords;
        self.register_coords = saved_register_coords;
        (self.tid, self.lane, self.warp, self.shared_base, self.num_warps) = saved;
        // The anchor only marked where hoisted values go.
        tritium_dialects::ir::erase(unsafe { OperationRef::from_raw(anchor) });
        result
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
        let offset = crate::int_attribute(op, "allocation.offset").ok_or_else(|| {
            LowerError::at(op, "needs shared memory but has no allocation.offset (allocate-shared-memory-nv)")
        })?;
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
    /// The warps a launch needs (those of warp-specialized partitions too).
    pub num_warps: u32,
    /// Threads per warp (`ttg.threads-per-warp`): a launch block is
    /// `num_warps * threads_per_warp` threads.
    pub threads_per_warp: u32,
    pub shared_bytes: usize,
    /// (name, type) of each parameter, in order.
    pub parameters: Vec<(String, String)>,
    /// For each `!tt.tensordesc` parameter, in order, what the launcher puts
    /// into its CUtensorMap (a JSON object, as upstream's `tensordesc_meta`).
    pub tensordesc_meta: Vec<String>,
    /// Global scratch memory per program, and its alignment: a launcher
    /// passes `global_scratch_size` x programs bytes in the `global_scratch`
    /// parameter (upstream's metadata of these names).
    pub global_scratch_size: usize,
    pub global_scratch_align: usize,
}

/// A kernel's tensor-descriptor parameter: a CUtensorMap by value, its LLVM
/// type and parameter attributes as `ops::tma::parameter_abi` spells them.
fn parse_parameter_abi<'c>(
    context: &'c Context,
    (lowered, attributes): (&str, &str),
) -> std::result::Result<(Type<'c>, Attribute<'c>), String> {
    let lowered = Type::parse(context, lowered).ok_or("bad parameter type")?;
    let attributes = Attribute::parse(context, attributes).ok_or("bad parameter attributes")?;
    Ok((lowered, attributes))
}

/// Whether argument `index` of a function carries `tt.nv_tma_desc = 1`.
fn has_tma_descriptor_attribute(function: &OperationRef, index: usize) -> bool {
    let Some(all) = function.attribute("arg_attrs").ok().and_then(tritium_dialects::ir::attributes::array_elements)
    else {
        return false;
    };
    all.get(index)
        .and_then(|a| melior::ir::attribute::DictionaryAttribute::try_from(*a).ok())
        .and_then(|d| d.element_by_name("tt.nv_tma_desc"))
        .and_then(|v| melior::ir::attribute::IntegerAttribute::try_from(v).ok())
        .is_some_and(|v| v.value() == 1)
}

/// `tensordesc_meta` of the kernel: one entry per tensor-descriptor parameter.
fn descriptor_metadata(function_type: &FunctionType) -> std::result::Result<Vec<String>, String> {
    (0..function_type.input_count())
        .filter_map(|i| ops::tma::descriptor_metadata(function_type.input(i).unwrap()))
        .collect()
}

/// Global scratch bytes per program and their alignment, as
/// tritongpu-global-scratch-memory-allocation left them on the module (none
/// when it did not run).
fn global_scratch(module: &OperationRef) -> (usize, usize) {
    let size = crate::int_attribute(module, "ttg.global_scratch_memory_size").unwrap_or(0);
    let align = crate::int_attribute(module, "ttg.global_scratch_memory_alignment").unwrap_or(1);
    (size.max(0) as usize, align.max(1) as usize)
}

/// The trailing pointer parameters: upstream Triton's two (global and
/// profile scratch) with its ABI, else the global-scratch one alone when the
/// kernel needs global scratch (device-side tensor descriptors).
fn scratch_parameter_names(triton_abi: bool, global_scratch_size: usize) -> &'static [&'static str] {
    match (triton_abi, global_scratch_size > 0) {
        (true, _) => &["global_scratch", "profile_scratch"],
        (false, true) => &["global_scratch"],
        (false, false) => &[],
    }
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
    let Warps { num_warps, threads_per_warp, total_num_warps } = check_module(&module_op)?;
    let mut kernels = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        // Private functions are the kernel's callees (the sanitizer's
        // helpers, calls left by noinline): lowered, not the kernel.
        let public = op.attribute("sym_visibility").map_or(true, |v| v.to_string() == "\"public\"");
        if name == "tt.func" {
            kernels.push((op, public));
        }
        next = op.next_in_block();
    }
    let publics: Vec<_> = kernels.iter().filter(|(_, public)| *public).map(|(op, _)| *op).collect();
    let kernel = match (&publics[..], &kernels[..]) {
        ([kernel], _) => *kernel,
        ([], [(only, _)]) => return Err(LowerError::at(only, "the kernel must be a public tt.func")),
        _ => {
            let message = format!("expected one public tt.func (the kernel), found {}", publics.len());
            return Err(LowerError::at(&module_op, message));
        }
    };
    let function_type = kernel
        .attribute("function_type")
        .ok()
        .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .ok_or_else(|| LowerError::at(&kernel, "has no function type"))?;
    if function_type.result_count() != 0 {
        return Err(LowerError::at(&kernel, "a kernel returns nothing"));
    }
    let entry =
        kernel.region_at(0).ok().and_then(|r| r.first_block()).ok_or_else(|| LowerError::at(&kernel, "has no body"))?;
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
    let (global_scratch_size, global_scratch_align) = global_scratch(&module_op);
    for name in scratch_parameter_names(scratch_parameters, global_scratch_size) {
        parameters.push((name.to_string(), "!llvm.ptr<1>".to_string()));
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
    let shared_bytes = crate::int_attribute(&module_op, "ttg.shared").unwrap_or(0) as usize;
    let tensordesc_meta = descriptor_metadata(&function_type).map_err(|e| LowerError::at(&kernel, e))?;
    // A warp-specialized kernel is launched with the warps of its partitions
    // too (tritongpu-allocate-warp-groups counts them).
    let launch_warps = total_num_warps.unwrap_or(num_warps);
    let info = KernelInfo {
        name,
        num_warps: launch_warps,
        threads_per_warp,
        shared_bytes,
        parameters,
        tensordesc_meta,
        global_scratch_size,
        global_scratch_align,
    };
    Ok(Kernel { op: kernel, function_type, info })
}

/// Erases the ops that made `values` (the thread, lane and warp ids and
/// the shared-memory base a function or partition starts with) where
/// nothing uses them, and then what made their operands, down to the
/// special-register read. Only for values whose builder is done: constants
/// erased here may be in its cache.
fn erase_unused_ids(values: &[V]) {
    use tritium_dialects::ir::{defining_op, erase, has_uses};
    let mut work: Vec<V> = values.to_vec();
    while let Some(v) = work.pop() {
        let value = crate::builder::value(v);
        // Values listed twice (or shared by two ids) are seen once.
        let Some(op) = defining_op(value) else { continue };
        if has_uses(value) || op.result_count() != 1 {
            continue;
        }
        let name = crate::ops::name_of(&op);
        let id_op = matches!(
            name.as_str(),
            "nvvm.read.ptx.sreg.tid.x"
                | "arith.andi"
                | "arith.shrui"
                | "arith.subi"
                | "nvvm.shfl.sync"
                | "arith.constant"
                | "llvm.mlir.addressof"
        );
        if !id_op {
            continue;
        }
        let operands: Vec<V> = op.operands().map(|o| o.to_raw()).collect();
        erase(op);
        work.extend(operands);
    }
}

/// Whether anything but [`lane_and_warp`]'s own ops uses the ids it made
/// from `tid`.
fn ids_are_used(tid: V, lane: V, warp: V) -> bool {
    use tritium_dialects::ir::{defining_op, has_uses, users};
    let value = crate::builder::value;
    if has_uses(value(lane)) || has_uses(value(warp)) {
        return true;
    }
    let raw = |op: Option<OperationRef>| op.map(|op| op.to_raw().ptr);
    let (lane_op, warp_op) = (raw(defining_op(value(lane))), raw(defining_op(value(warp))));
    users(value(tid)).iter().any(|user| {
        let only_warp =
            |r: melior::ir::operation::OperationResult| users(r.into()).iter().all(|u| Some(u.to_raw().ptr) == warp_op);
        Some(user.to_raw().ptr) != lane_op && !(user.result_count() > 0 && user.results().all(only_warp))
    })
}

/// `tid` masked to the threads of the `num_warps` warps that run the code
/// being lowered, as upstream's getThreadId: the value is unchanged (those
/// warps' ids are below the bound), but a warp-specialized kernel launches
/// more threads than its default region's warps (and a partition is a warp
/// group of its own), and only the mask tells LLVM and ptxas the range.
/// Without it ptxas compiled `@(tid.x == 0) mbarrier.init` in a
/// warp-specialized kernel as a branch and a fence per init (SASS of
/// ws_persistent_desc_matmul 1,560 instructions, 31 FENCE.VIEW.ASYNC.S;
/// with it 1,408 and 3, upstream's 1,392 and 3).
fn within_warps<'c>(b: &mut Builder<'c>, tid: V, num_warps: u32, threads_per_warp: u32) -> V {
    let threads = u64::from(num_warps) * u64::from(threads_per_warp);
    if !threads.is_power_of_two() {
        return tid;
    }
    let mask = b.i32_const(threads as i64 - 1);
    b.and(tid, mask)
}

/// The lane and warp ids of thread `tid` in warps of `threads_per_warp` (a
/// power of two) threads.
fn lane_and_warp<'c>(b: &mut Builder<'c>, tid: V, threads_per_warp: u32) -> (V, V) {
    let last_lane = i64::from(threads_per_warp - 1);
    let lane_mask = b.i32_const(last_lane);
    let lane = b.and(tid, lane_mask);
    let lane_bits = b.i32_const(i64::from(threads_per_warp.trailing_zeros()));
    let warp = b.lshr(tid, lane_bits);
    // Every lane holds the same warp id, but ptxas cannot see it through
    // tid.x; broadcasting lane 0's value makes it uniform, so what depends
    // only on the warp (wgmma descriptors, warp slots) lives in uniform
    // registers instead of being recomputed per thread.
    let i32 = b.i32();
    let (all_lanes, lane_zero, clamp) = (b.i32_const(-1), b.i32_const(0), b.i32_const(last_lane));
    let idx = Attribute::parse(b.context, "#nvvm<shfl_kind idx>").expect("shuffle kind");
    let warp = b.op1("nvvm.shfl.sync", &[all_lanes, warp, lane_zero, clamp], i32, &[("kind", idx)]);
    (lane, warp)
}

/// The warps of a module and their threads, as the lowering needs them.
#[derive(Clone, Copy)]
struct Warps {
    /// `ttg.num-warps`: the warps that run a kernel's body.
    num_warps: u32,
    /// `ttg.threads-per-warp` (32: checked).
    threads_per_warp: u32,
    /// `ttg.total-num-warps`: with warp-specialized partitions, the warps a
    /// launch needs.
    total_num_warps: Option<u32>,
}

/// Checks what the lowering needs of the module itself (its configuration,
/// [`ModuleConfig`]); returns its warps.
fn check_module(module_op: &OperationRef) -> Result<Warps> {
    let config = ModuleConfig::of(module_op).map_err(|e| LowerError::at(module_op, e.to_string()))?;
    if config.threads_per_warp != THREADS_PER_WARP {
        return Err(LowerError::at(module_op, "only 32 threads per warp are supported on NVIDIA GPUs"));
    }
    if config.num_ctas != 1 {
        return Err(LowerError::at(module_op, "kernels over several CTAs (num-ctas > 1) are not supported yet: layouts split over a cluster's CTAs are not lowered (compile the TTIR with num_ctas instead)"));
    }
    let num_warps = config.num_warps().map_err(|e| LowerError::at(module_op, e.to_string()))?;
    Ok(Warps { num_warps, threads_per_warp: config.threads_per_warp, total_num_warps: config.total_num_warps })
}

/// Lowers every `tt.func` of `module` (kernels and the device functions
/// they call, see [`function_abi`]) into an `llvm.func` (the tt.funcs are
/// erased), after one `global_smem` declaration for shared memory.
///
/// With `scratch_parameters`, kernels take upstream Triton's trailing
/// global-scratch and profile-scratch pointers (`!llvm.ptr<1>`) after their
/// own arguments, as Triton's launcher passes them; Tritium uses neither
/// but hands them on to the functions it calls.
pub fn lower_module<'c>(
    context: &'c Context,
    module: &melior::ir::Module<'c>,
    target: Target,
    options: ModuleOptions,
) -> Result<()> {
    let body = module.body();
    let module_op = module.as_operation();
    let warps = check_module(&module_op)?;
    let functions = tritium_passes::ir::module_functions(module_op);
    let Some(first) = functions.first() else { return Ok(()) };

    // Vector widths of loads and stores come from the axis info of the TTGIR.
    let axis_info = tritium_passes::analysis::axis_info::ModuleAxisInfo::analyze(module_op)
        .map_err(|_| LowerError::at(&module_op, "the axis-info analysis failed"))?;

    // Shared memory: one extern array, its size given at launch (unless the
    // module declares it already, as upstream's tests may).
    let location = Location::unknown(context);
    let b = Builder::new(context, location, Cursor::Before(first.to_raw()));
    if declares_global_smem(&module_op) {
        return lower_functions(context, functions, target, &module_op, warps, axis_info, options);
    }
    let i8 = b.int_type(8);
    let array = melior::dialect::llvm::r#type::array(i8, 0);
    let global = OperationBuilder::new("llvm.mlir.global", location)
        .add_attributes(&[
            (Identifier::new(context, "global_type"), b.type_attr(array)),
            (Identifier::new(context, "sym_name"), b.str_attr("global_smem")),
            (
                Identifier::new(context, "linkage"),
                melior::dialect::llvm::attributes::linkage(
                    context,
                    melior::dialect::llvm::attributes::Linkage::External,
                ),
            ),
            (Identifier::new(context, "addr_space"), b.int_attr(b.i32(), 3)),
            (Identifier::new(context, "alignment"), b.int_attr(b.i64(), 16)),
        ])
        .add_regions([Region::new()])
        .build()
        .map_err(|e| LowerError::at(first, e.to_string()))?;
    body.insert_operation_before(*first, global);
    lower_functions(context, functions, target, &module_op, warps, axis_info, options)
}

/// Whether the module has its `llvm.mlir.global @global_smem` already.
fn declares_global_smem(module: &OperationRef) -> bool {
    tritium_dialects::ir::ops_in_regions(module).iter().any(|op| {
        crate::ops::name_of(op) == "llvm.mlir.global"
            && op.attribute("sym_name").ok().and_then(tritium_dialects::access::string_attribute_value).as_deref()
                == Some("global_smem")
    })
}

/// Lowers the module's functions in order, each reusing what the previous
/// one declared.
fn lower_functions<'c>(
    context: &'c Context,
    functions: Vec<OperationRef<'c, '_>>,
    target: Target,
    module_op: &OperationRef,
    warps: Warps,
    axis_info: tritium_passes::analysis::axis_info::ModuleAxisInfo,
    options: ModuleOptions,
) -> Result<()> {
    let ModuleOptions { scratch_parameters, reflect_ftz, fp_fusion, ptx_version } = options;
    let module_op = *module_op;
    let facts = ModuleFacts {
        warps,
        max_registers: crate::int_attribute(&module_op, "ttg.maxnreg"),
        global_scratch_size: global_scratch(&module_op).0,
        reflect_ftz,
        fp_fusion,
        ptx_version,
        ctas_per_cluster: crate::int_attribute(&module_op, CTAS_PER_CLUSTER).map_or(1, |n| n.max(1) as u32),
        shared_bytes: crate::int_attribute(&module_op, "ttg.shared").unwrap_or(0).max(0) as usize,
    };
    let mut declared_functions = Default::default();
    let mut axis_info = Some(axis_info);
    for function in functions {
        let lowering =
            lower_function(context, function, target, &facts, scratch_parameters, declared_functions, axis_info)?;
        declared_functions = lowering.declared_functions;
        axis_info = lowering.axis_info;
    }
    Ok(())
}

/// How a module is lowered (the pass's options).
#[derive(Clone, Copy, Debug)]
pub struct ModuleOptions {
    /// Kernels take upstream Triton's trailing global and profile scratch
    /// pointers (Triton's launcher passes them).
    pub scratch_parameters: bool,
    /// f32 `exp2` flushes denormals (`ex2.approx.ftz`), as upstream with
    /// `enable_reflect_ftz` (its default).
    pub reflect_ftz: bool,
    /// f32 multiplies and adds may fuse into fma (`contract`), as upstream
    /// with `enable_fp_fusion` (its default).
    pub fp_fusion: bool,
    /// The PTX ISA version the code may use (upstream's `ptx-version`, as
    /// 87 for 8.7): instructions it lacks are not emitted.
    pub ptx_version: u32,
}

/// What every function's lowering reads off the module.
#[derive(Clone, Copy)]
struct ModuleFacts {
    /// The warps that run a kernel's body (`ttg.num-warps`), and their
    /// threads.
    warps: Warps,
    /// `ttg.maxnreg`: registers per thread (the kernel's `.maxnreg`).
    max_registers: Option<i64>,
    /// Global scratch bytes per program (device-side tensor descriptors).
    global_scratch_size: usize,
    reflect_ftz: bool,
    fp_fusion: bool,
    ptx_version: u32,
    /// `tritium.ctas-per-cluster`: the launch's CTAs per cluster (Triton's
    /// `num_ctas`), of which the first runs the program (see
    /// [`CTAS_PER_CLUSTER`]).
    ctas_per_cluster: u32,
    /// `ttg.shared`: the kernel's shared-memory bytes.
    shared_bytes: usize,
}

/// Module attribute of a kernel compiled from TTIR with `num_ctas > 1`:
/// Triton's launcher then launches `num_ctas` CTAs per program as one
/// thread-block cluster. Tritium has no layouts split over a cluster's CTAs
/// yet, so the TTGIR is made for one CTA, the program ids are the cluster's,
/// and CTAs other than the cluster's first exit at once: the same results as
/// upstream (Triton programs cannot see the cluster), without its splitting
/// of the work.
pub const CTAS_PER_CLUSTER: &str = "tritium.ctas-per-cluster";

/// Lowers one `tt.func` into an `llvm.func` inserted before it, and erases
/// it. Returns the finished lowering, whose module-wide state (declared
/// functions, axis info) the next function reuses.
fn lower_function<'c>(
    context: &'c Context,
    function_op: OperationRef<'c, '_>,
    target: Target,
    facts: &ModuleFacts,
    scratch_parameters: bool,
    declared_functions: std::collections::HashSet<String>,
    axis_info: Option<tritium_passes::analysis::axis_info::ModuleAxisInfo>,
) -> Result<Lowering<'c>> {
    let ModuleFacts {
        warps,
        max_registers,
        global_scratch_size,
        reflect_ftz,
        fp_fusion,
        ptx_version,
        ctas_per_cluster,
        shared_bytes,
    } = *facts;
    let Warps { num_warps, threads_per_warp, total_num_warps } = warps;
    let kernel = function_abi::is_kernel(&function_op);
    let function_type = function_op
        .attribute("function_type")
        .ok()
        .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .ok_or_else(|| LowerError::at(&function_op, "has no function type"))?;
    if kernel && function_type.result_count() != 0 {
        return Err(LowerError::at(&function_op, "a kernel returns nothing"));
    }
    let name = function_op
        .attribute("sym_name")
        .ok()
        .and_then(tritium_dialects::access::string_attribute_value)
        .unwrap_or_else(|| "kernel".into());
    let location = function_op.location();
    let body = function_op.block().ok_or_else(|| LowerError::at(&function_op, "is not in a module"))?;
    let entry = function_op
        .region_at(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| LowerError::at(&function_op, "has no body"))?;

    // The signature: the arguments in ABI form, then the trailing pointers.
    let b = Builder::new(context, location, Cursor::Before(function_op.to_raw()));
    let empty = Attribute::parse(context, "{}").expect("empty dictionary");
    let mut parameter_types: Vec<Type> = Vec::new();
    let mut parameter_attributes: Vec<Attribute> = Vec::new();
    for i in 0..function_type.input_count() {
        let ty = function_type.input(i).unwrap();
        if let Some(problem) = function_abi::unsupported_kernel_parameter(ty).filter(|_| kernel) {
            let at = entry.argument(i).map(|a| a.location()).unwrap_or(function_op.location());
            return Err(LowerError::at_location(at, format!("'tt.func': {problem}")));
        }
        let descriptor = if has_tma_descriptor_attribute(&function_op, i) {
            // A host-side tensormap passed through a `!tt.ptr<i8>` marked
            // `tt.nv_tma_desc = 1`: by value, as a `!tt.tensordesc` is.
            Some(ops::tma::by_value_descriptor_abi())
        } else {
            ops::tma::parameter_abi(ty)
        };
        let (lowered, attributes) = match descriptor.map(|abi| parse_parameter_abi(context, abi)).filter(|_| kernel) {
            Some(parameter) => parameter.map_err(|e| LowerError::at(&function_op, e))?,
            None => (function_abi::abi_type(&b, &function_op, ty)?, empty),
        };
        parameter_types.push(lowered);
        parameter_attributes.push(attributes);
    }
    let user_parameters = parameter_types.len();
    if !kernel {
        parameter_types.push(b.ptr(3));
        parameter_types.extend([b.ptr(1), b.ptr(1)]);
    } else {
        // Upstream Triton's two trailing pointers with its ABI, else the
        // global-scratch one alone when the kernel needs global scratch.
        for _ in scratch_parameter_names(scratch_parameters, global_scratch_size) {
            parameter_types.push(b.ptr(1));
        }
    }
    parameter_attributes.resize(parameter_types.len(), empty);
    let results: Vec<Type> = (0..function_type.result_count()).map(|i| function_type.result(i).unwrap()).collect();
    let result_type = function_abi::packed_result_type(&b, &function_op, &results)?
        .unwrap_or_else(|| melior::dialect::llvm::r#type::void(context));
    let llvm_function_type = melior::dialect::llvm::r#type::function(result_type, &parameter_types, false);

    // The llvm.func and its two blocks: the prologue, then the body.
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
    // A warp-specialized kernel is launched with the warps of its partitions
    // too (tritongpu-allocate-warp-groups counts them as ttg.total-num-warps).
    let launch_warps = if kernel { total_num_warps.unwrap_or(num_warps) } else { num_warps };
    let threads = launch_warps * threads_per_warp;
    let mut attributes = vec![
        (Identifier::new(context, "sym_name"), StringAttribute::new(context, &name).into()),
        (Identifier::new(context, "function_type"), b.type_attr(llvm_function_type)),
    ];
    if kernel {
        // `1 : ui1`, the value upstream gives it (translation reads only the name).
        let kernel_flag = b.int_attr(melior::ir::r#type::IntegerType::unsigned(context, 1).into(), 1);
        attributes.push((Identifier::new(context, "nvvm.kernel"), kernel_flag));
        // Warp specialization: the warp states' shared memory, and the
        // register budget ptxas needs to accept setmaxnreg (kernels only:
        // .maxnreg belongs on the .entry).
        if let Some(offset) = crate::int_attribute(&function_op, "allocation.offset") {
            attributes.push((Identifier::new(context, "allocation.offset"), b.int_attr(b.i32(), offset)));
        }
        if let Some(registers) = max_registers {
            attributes.push((Identifier::new(context, "nvvm.maxnreg"), b.int_attr(b.i32(), registers)));
        }
    } else {
        // One PTX .func per device function, as upstream: LLVM must not
        // inline it, and nothing outside the module calls it.
        let noinline = ArrayAttribute::new(context, &[b.str_attr("noinline")]).into();
        attributes.push((Identifier::new(context, "passthrough"), noinline));
        attributes.push((
            Identifier::new(context, "linkage"),
            melior::dialect::llvm::attributes::linkage(context, melior::dialect::llvm::attributes::Linkage::Internal),
        ));
    }
    attributes.extend([
        (Identifier::new(context, "nvvm.reqntid"), DenseI32ArrayAttribute::new(context, &[threads as i32]).into()),
        (Identifier::new(context, "arg_attrs"), ArrayAttribute::new(context, &parameter_attributes).into()),
    ]);
    let function = OperationBuilder::new("llvm.func", location)
        .add_attributes(&attributes)
        .add_regions([region])
        .build()
        .map_err(|e| LowerError::at(&function_op, e.to_string()))?;
    let function = body.insert_operation_before(function_op, function);
    let function_body = function.region_at(0).unwrap();
    let prologue_block = function_body.first_block().unwrap();
    let body_block = prologue_block.next_in_region().unwrap();
    let parameter = |i: usize| prologue_block.argument(i).unwrap().to_raw();

    let mut b = Builder::new(context, location, Cursor::Before(branch.to_raw()));
    b.constant_anchor = Some(branch.to_raw());
    if kernel && ctas_per_cluster > 1 {
        let rank = b.special_register("cluster.ctarank");
        b.inline_asm(
            "{\n.reg .pred not_first;\nsetp.ne.u32 not_first, $0, 0;\n@not_first exit;\n}",
            "r",
            &[rank],
            None,
        );
    }
    // Tensor arguments arrive as structs of their registers (taken apart
    // first, as upstream's lowering does).
    let mut arguments = Vec::new();
    for i in 0..entry.argument_count() {
        let ty = entry.argument(i).unwrap().r#type();
        arguments.push(function_abi::from_abi(&b, &function_op, ty, parameter(i))?);
    }
    let absolute = b.special_register("tid.x");
    // Only a warp-specialized kernel launches more warps than its body's
    // (elsewhere the mask would only cost an instruction: LLVM keeps it).
    let tid = if total_num_warps.is_some_and(|total| total > num_warps) {
        within_warps(&mut b, absolute, num_warps, threads_per_warp)
    } else {
        absolute
    };
    let (lane, warp) = lane_and_warp(&mut b, tid, threads_per_warp);
    let (shared_base, scratch) = if kernel {
        let shared_type = b.ptr(3);
        let global_smem = melior::ir::attribute::FlatSymbolRefAttribute::new(context, "global_smem").into();
        let base = b.op1("llvm.mlir.addressof", &[], shared_type, &[("global_name", global_smem)]);
        let scratch = scratch_parameters.then(|| (parameter(user_parameters), parameter(user_parameters + 1)));
        (base, scratch)
    } else {
        let base = parameter(user_parameters);
        (base, Some((parameter(user_parameters + 1), parameter(user_parameters + 2))))
    };
    b.cursor = Cursor::End(body_block.to_raw());
    let mut lowering = Lowering {
        b,
        target,
        reflect_ftz,
        fp_fusion,
        ptx_version,
        num_warps,
        resident_ctas: if kernel && total_num_warps.is_none_or(|total| total == num_warps) {
            target.resident_ctas(shared_bytes, num_warps * threads_per_warp)
        } else {
            0
        },
        ctas_per_cluster,
        threads_per_warp,
        values: HashMap::new(),
        layouts: HashMap::new(),
        thread_coords: HashMap::new(),
        register_coords: HashMap::new(),
        prologue: branch.to_raw(),
        tid,
        lane,
        warp,
        shared_base,
        global_scratch: (kernel && global_scratch_size > 0).then(|| parameter(user_parameters)),
        global_scratch_size,
        declared_functions,
        function_op: function.to_raw(),
        axis_info,
        cfg: crate::cfg::KernelBlocks::of(function_op.region_at(0).unwrap()),
        region_blocks: HashMap::new(),
        abi: function_abi::FunctionAbi { kernel, scratch },
    };
    for (i, registers) in arguments.into_iter().enumerate() {
        lowering.set(entry.argument(i).unwrap().to_raw(), registers);
    }
    // One llvm block per reachable block of the function: the entry's ops
    // go into the body block, the other blocks get their arguments'
    // registers as arguments.
    let mut lowered_blocks = vec![(body_block.to_raw(), Vec::new())];
    for block in lowering.cfg.order.clone().into_iter().skip(1) {
        let block = unsafe { melior::ir::BlockRef::from_raw(block) };
        let mut counts = Vec::new();
        let mut types = Vec::new();
        for i in 0..block.argument_count() {
            let ty = block.argument(i).unwrap().r#type();
            let count =
                if ty.is_ranked_tensor() { lowering.tensor_layout(&function_op, ty)?.num_registers() } else { 1 };
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
    // The ids no op asked for go (an unused warp-id shuffle would stay to
    // the PTX), as upstream makes them only where they are used.
    erase_unused_ids(&[lowering.lane, lowering.warp, lowering.tid, lowering.shared_base]);
    // The body block joins the prologue (only the prologue's branch leads
    // to it): one entry block, as upstream's lowering makes.
    tritium_dialects::ir::erase(unsafe { OperationRef::from_raw(branch.to_raw()) });
    tritium_dialects::ir::merge_block_into(body_block, prologue_block);
    // The tt.func is replaced by the llvm.func.
    tritium_dialects::ir::erase(function_op);
    Ok(lowering)
}

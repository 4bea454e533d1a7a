//! The sanitizer's state: which buffers and barriers it tracks (their
//! offsets in shared or tensor memory, found from the allocations), and the
//! tensors that describe them, created at the start of the kernel (global
//! scratch, zeroed) and handed to the partitions of warp_specialize ops.
use super::helpers::{NUM_THREADS, THREAD_COLUMNS};
use super::text::{Body, Ty, V};
use crate::ir::{collect_ops, fail, int_attribute, name_of, Order};
use melior::ir::{operation::OperationLike, BlockLike, Location, OperationRef, RegionLike, Value, ValueLike};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{block_ops, clone_with, context_of, insert_before, users, value_key, ValueMap};
use tritium_dialects::pass::{emit_warning, PassFailed};
use tritium_dialects::types::MemDesc;

pub const SHARED: usize = 0;
pub const TENSOR: usize = 1;
pub const MEMORY_NAMES: [&str; 2] = ["shared_mem", "tensor_mem"];

/// Kinds of asynchronous accesses completed by counting commit groups.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CommitKind {
    AsyncCopy = 0,
    Wgmma = 1,
    TmaStore = 2,
}

/// The offsets of the tracked buffers (per memory) and barriers, each list
/// padded with zeros to a power of two (tensor sizes must be).
#[derive(Default)]
pub struct Tracked {
    pub buffers: [Vec<i64>; 2],
    pub barriers: Vec<i64>,
}

/// One piece of state in one region: the value there (a tensor, or a
/// pointer to global scratch) and, for scratch, the tensor it holds.
#[derive(Clone)]
pub struct Aux<'c, 'a> {
    pub value: Value<'c, 'a>,
    pub ty: Ty,
}

/// The state as seen in one region: the kernel's body or a partition.
#[derive(Clone, Default)]
pub struct Scope<'c, 'a> {
    pub num_warps: i64,
    pub buffers: [Option<Aux<'c, 'a>>; 2],
    pub write_visibility: [Option<Aux<'c, 'a>>; 2],
    pub read_visibility: [Option<Aux<'c, 'a>>; 2],
    pub write_tracking: [Option<Aux<'c, 'a>>; 2],
    pub read_tracking: [Option<Aux<'c, 'a>>; 2],
    pub barriers: Option<Aux<'c, 'a>>,
    pub barrier_states: Option<Aux<'c, 'a>>,
    pub waiting: Option<Aux<'c, 'a>>,
    pub lock: Option<Aux<'c, 'a>>,
    pub commits: [Option<Aux<'c, 'a>>; 3],
}

/// Where a piece of state goes in a [`Scope`].
#[derive(Clone, Copy)]
enum Slot {
    Buffers(usize),
    WriteVisibility(usize),
    ReadVisibility(usize),
    WriteTracking(usize),
    ReadTracking(usize),
    Barriers,
    BarrierStates,
    Waiting,
    Lock,
    Commits(usize),
}

impl<'c, 'a> Scope<'c, 'a> {
    fn slot(&mut self, slot: Slot) -> &mut Option<Aux<'c, 'a>> {
        match slot {
            Slot::Buffers(m) => &mut self.buffers[m],
            Slot::WriteVisibility(m) => &mut self.write_visibility[m],
            Slot::ReadVisibility(m) => &mut self.read_visibility[m],
            Slot::WriteTracking(m) => &mut self.write_tracking[m],
            Slot::ReadTracking(m) => &mut self.read_tracking[m],
            Slot::Barriers => &mut self.barriers,
            Slot::BarrierStates => &mut self.barrier_states,
            Slot::Waiting => &mut self.waiting,
            Slot::Lock => &mut self.lock,
            Slot::Commits(k) => &mut self.commits[k],
        }
    }

    /// The visibility state of `memory` with the barriers' tracking of it:
    /// (visibility, tracking, true) for writes, then the same for reads;
    /// nothing unless all four are there.
    pub fn tracked_visibility(&self, memory: usize) -> Vec<(&Aux<'c, 'a>, &Aux<'c, 'a>, bool)> {
        match (
            &self.write_visibility[memory],
            &self.read_visibility[memory],
            &self.write_tracking[memory],
            &self.read_tracking[memory],
        ) {
            (Some(writes), Some(reads), Some(write_tracking), Some(read_tracking)) => {
                vec![(writes, write_tracking, true), (reads, read_tracking, false)]
            }
            _ => Vec::new(),
        }
    }
}

// ---- finding buffers and barriers -------------------------------------------

/// The tracked buffers and barriers of `module`: every `ttg.local_alloc`
/// (a barrier if an init_barrier uses it) and `ttng.tmem_alloc` that can be
/// instrumented, and for a multi-buffered one (indexed by memdesc_index)
/// each of its buffers.
pub fn find_tracked(module: OperationRef) -> Result<Tracked, PassFailed> {
    let mut buffers: [Vec<i64>; 2] = Default::default();
    let mut barriers = Vec::new();
    let ops = collect_ops(module, Order::Post);
    for op in ops.iter().filter(|op| name_of(op) == "ttg.local_alloc") {
        if !can_instrument(op) {
            continue;
        }
        let offset = int_attribute(op, "allocation.offset").ok_or_else(|| {
            fail(op, "the concurrency sanitizer runs after shared memory allocation: no allocation.offset")
        })?;
        let list = if is_barrier(op) { &mut barriers } else { &mut buffers[SHARED] };
        add(list, offset);
        if is_multi_buffered(result(op)) {
            let desc = memdesc(op)?;
            let bytes = crate::ir::element_bits(desc.element_type) as i64 / 8;
            let sub_buffer = desc.shape[1..].iter().product::<i64>() * bytes;
            for i in 1..desc.shape[0] {
                add(list, offset + i * sub_buffer);
            }
        }
    }
    for op in ops.iter().filter(|op| name_of(op) == "ttng.tmem_alloc") {
        if !can_instrument(op) {
            continue;
        }
        let (Some(column), Some(row)) =
            (int_attribute(op, "tensor_memory_col_offset"), int_attribute(op, "tensor_memory_row_offset"))
        else {
            return Err(fail(
                op,
                "the concurrency sanitizer runs after tensor memory allocation: no tensor memory offsets",
            ));
        };
        if is_multi_buffered(result(op)) {
            return Err(fail(
                op,
                "the concurrency sanitizer does not support multi-buffered tensor memory (Blackwell)",
            ));
        }
        add(&mut buffers[TENSOR], column | (row << 16));
    }
    for list in buffers.iter_mut().chain([&mut barriers]) {
        if !list.is_empty() {
            list.resize(list.len().next_power_of_two(), 0);
        }
    }
    Ok(Tracked { buffers, barriers })
}

/// Appends `offset` unless present (an ordered set).
fn add(list: &mut Vec<i64>, offset: i64) {
    if !list.contains(&offset) {
        list.push(offset);
    }
}

fn result<'c, 'a>(op: &OperationRef<'c, 'a>) -> Value<'c, 'a> {
    op.result(0).expect("an allocation has a result").into()
}

fn memdesc<'c>(op: &OperationRef<'c, '_>) -> Result<MemDesc<'c>, PassFailed> {
    MemDesc::of(result(op).r#type()).ok_or_else(|| fail(op, "expected a memdesc result"))
}

/// Whether the sanitizer can follow the allocation's buffers: not passed to
/// a call, and either never indexed or only indexed (and freed, and
/// captured by warp_specialize). Warns when not.
fn can_instrument(op: &OperationRef) -> bool {
    let users = users(result(op));
    let names: Vec<String> = users.iter().map(name_of).collect();
    if names.iter().any(|n| n == "tt.call") {
        emit_warning(op.location(), "Allocation is used in a function call, cannot instrument");
        return false;
    }
    if !names.iter().any(|n| n == "ttg.memdesc_index") {
        return true;
    }
    if names.iter().all(|n| ["ttg.memdesc_index", "ttg.local_dealloc", "ttg.warp_specialize"].contains(&n.as_str())) {
        return true;
    }
    emit_warning(op.location(), "Allocation is used in an inconsistent way, cannot instrument");
    false
}

/// Whether an init_barrier is reached from the allocation through uses.
fn is_barrier(op: &OperationRef) -> bool {
    let mut work = vec![*op];
    let mut seen = std::collections::HashSet::new();
    while let Some(op) = work.pop() {
        for index in 0..op.result_count() {
            for user in users(op.result(index).unwrap().into()) {
                if name_of(&user) == "ttng.init_barrier" {
                    return true;
                }
                if seen.insert(tritium_dialects::ir::op_key(&user)) {
                    work.push(user);
                }
            }
        }
    }
    false
}

/// Whether `value` is indexed as several buffers, here or in the
/// partitions it is captured by.
fn is_multi_buffered(value: Value) -> bool {
    for use_ in tritium_dialects::ir::uses(value) {
        let owner = use_.owner;
        match name_of(&owner).as_str() {
            "ttg.memdesc_index" => return true,
            "ttg.warp_specialize" => {
                for partition in partitions(&owner) {
                    let block = partition.first_block().expect("a partition has a body");
                    if let Ok(argument) = block.argument(use_.index) {
                        if is_multi_buffered(argument.into()) {
                            return true;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// The partition regions of a `ttg.warp_specialize`.
pub fn partitions<'c, 'a>(ws: &OperationRef<'c, 'a>) -> Vec<melior::ir::RegionRef<'c, 'a>> {
    let Some(holder) = ws.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()) else {
        return Vec::new();
    };
    (0..holder.region_count()).filter_map(|i| holder.region_at(i).ok()).collect()
}

// ---- creating the state ---------------------------------------------------

/// The code that creates the kernel's state, as text, and where each value
/// it returns goes.
struct Setup {
    body: Body,
    results: Vec<(V, Slot)>,
}

impl Setup {
    fn new() -> Setup {
        Setup { body: Body::new(), results: Vec::new() }
    }

    fn buffer_pointers(&mut self, offsets: &[i64], memory: usize, num_warps: i64, slot: Slot) {
        let ty = Ty::state(&[offsets.len() as i64], 64, num_warps);
        let list: Vec<String> = offsets.iter().map(i64::to_string).collect();
        let v = self.body.emit(
            format!("tti.experimental_buffer_pointers [{}], {} : {ty}", list.join(", "), MEMORY_NAMES[memory]),
            ty,
        );
        self.results.push((v, slot));
    }

    /// A zeroed tensor of `shape` in global scratch.
    fn zeroed(&mut self, shape: &[i64], bits: u32, num_warps: i64, slot: Slot) {
        let ty = Ty::state(shape, bits, num_warps);
        let zero = self.body.splat_constant(0, &ty);
        let bytes = (bits / 8) as i64;
        let pointer = self.body.emit(
            format!(
                "ttg.global_scratch_alloc {{alignment = {bytes} : i32, nbytes = {} : i32}} : {}",
                ty.elements() * bytes,
                ty.pointer_to()
            ),
            ty.pointer_to(),
        );
        self.body.store(&pointer, &zero);
        // The slot keeps the tensor's type; the value is the pointer.
        self.results.push((V { name: pointer.name, ty }, slot));
    }

    fn lock(&mut self) {
        let ty = Ty::scalar("i32");
        let pointer = self.body.emit(
            "ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>".into(),
            ty.pointer_to(),
        );
        let zero = self.body.int(0, 32);
        self.body.emit(
            format!("tt.atomic_rmw exch, acq_rel, gpu, {}, {} : (!tt.ptr<i32>, i32) -> i32", pointer.name, zero.name),
            ty.clone(),
        );
        self.results.push((V { name: pointer.name, ty }, Slot::Lock));
    }

    /// Parses the code and inserts it before `anchor`; fills `scope`.
    fn insert<'c, 'a>(
        self,
        anchor: OperationRef<'c, 'a>,
        num_ctas: i64,
        scope: &mut Scope<'c, 'a>,
    ) -> Result<(), PassFailed> {
        let returned: Vec<(String, String)> =
            self.results.iter().map(|(v, slot)| (v.name.clone(), slot_type(v, *slot))).collect();
        let function = format!(
            "tt.func private @consan_setup() -> ({}) {{\n{}\n  tt.return {} : {}\n}}",
            returned.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>().join(", "),
            self.body.text(),
            returned.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>().join(", "),
            returned.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>().join(", "),
        );
        let values = inline_text(anchor, &super::text::module_text(scope.num_warps, num_ctas, &function))?;
        for ((v, slot), value) in self.results.into_iter().zip(values) {
            *scope.slot(slot) = Some(Aux { value, ty: v.ty });
        }
        Ok(())
    }
}

/// The type a set-up value is returned as: the tensor itself for buffer
/// lists, else a pointer to its scratch.
fn slot_type(v: &V, slot: Slot) -> String {
    match slot {
        Slot::Buffers(_) | Slot::Barriers => v.ty.to_string(),
        _ => v.ty.pointer_to().to_string(),
    }
}

/// Parses `text` (a module holding one function whose body ends in a
/// `tt.return`), copies the function's ops before `anchor` and returns the
/// copies of the returned values.
pub fn inline_text<'c, 'a>(anchor: OperationRef<'c, 'a>, text: &str) -> Result<Vec<Value<'c, 'a>>, PassFailed> {
    let context = context_of(anchor.location());
    let parsed = tritium_dialects::io::parse_text(context, text)
        .ok_or_else(|| fail(&anchor, "internal error: the concurrency sanitizer made code that does not parse"))?;
    let function = parsed.body().first_operation().expect("the parsed function");
    let block = function.region(0).unwrap().first_block().unwrap();
    let mut map = ValueMap::default();
    let mut copies: HashMap<usize, Value<'c, 'a>> = HashMap::new();
    let mut returned = Vec::new();
    for op in block_ops(&block) {
        if name_of(&op) == "tt.return" {
            for index in 0..op.operand_count() {
                let operand = op.operand(index).unwrap();
                returned.push(*copies.get(&value_key(operand)).expect("a returned value made here"));
            }
            break;
        }
        let copy = insert_before(&anchor, clone_with(&op, &map));
        for index in 0..op.result_count() {
            let (old, new): (Value, Value) = (op.result(index).unwrap().into(), copy.result(index).unwrap().into());
            map.map(old, new);
            copies.insert(value_key(old), new);
        }
    }
    Ok(returned)
}

/// Creates the kernel's state at the start of `entry` (a `tt.func`).
pub fn create_kernel_state<'c, 'a>(
    entry: OperationRef<'c, 'a>,
    tracked: &Tracked,
    commit_kinds: &[CommitKind],
    num_warps: i64,
    num_ctas: i64,
) -> Result<Scope<'c, 'a>, PassFailed> {
    let mut setup = Setup::new();
    for memory in [SHARED, TENSOR] {
        let offsets = &tracked.buffers[memory];
        if offsets.is_empty() {
            continue;
        }
        let n = offsets.len() as i64;
        setup.buffer_pointers(offsets, memory, num_warps, Slot::Buffers(memory));
        setup.zeroed(&[n], 64, num_warps, Slot::WriteVisibility(memory));
        setup.zeroed(&[n, THREAD_COLUMNS], 64, num_warps, Slot::ReadVisibility(memory));
    }
    if !tracked.barriers.is_empty() {
        let k = tracked.barriers.len() as i64;
        setup.buffer_pointers(&tracked.barriers, SHARED, num_warps, Slot::Barriers);
        setup.zeroed(&[k], 32, num_warps, Slot::BarrierStates);
        setup.zeroed(&[k], 32, num_warps, Slot::Waiting);
        for memory in [SHARED, TENSOR] {
            let n = tracked.buffers[memory].len() as i64;
            if n > 0 {
                setup.zeroed(&[n, k], 8, num_warps, Slot::WriteTracking(memory));
                setup.zeroed(&[n, k], 64, num_warps, Slot::ReadTracking(memory));
            }
        }
    }
    setup.lock();
    let n = tracked.buffers[SHARED].len() as i64;
    if n > 0 {
        for kind in commit_kinds {
            // Commit counting is per base thread (engines act for them).
            setup.zeroed(&[n, NUM_THREADS], 8, num_warps, Slot::Commits(*kind as usize));
        }
    }
    let Some(anchor) = entry.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()) else {
        return Err(fail(&entry, "the concurrency sanitizer needs the kernel's body"));
    };
    let mut scope = Scope { num_warps, ..Scope::default() };
    setup.insert(anchor, num_ctas, &mut scope)?;
    Ok(scope)
}

/// Hands the kernel's state to the partitions of `ws`: buffer lists are
/// rebuilt in each partition (for its warps), everything else is a
/// pointer passed as a new capture.
pub fn pass_to_partitions<'c, 'a>(
    ws: OperationRef<'c, 'a>,
    kernel: &Scope<'c, 'a>,
    tracked: &Tracked,
    num_ctas: i64,
    scopes: &mut HashMap<usize, Scope<'c, 'a>>,
) -> Result<(), PassFailed> {
    let num_warps = crate::ir::dense_i32_attribute(&ws, "partitionNumWarps").unwrap_or_default();
    // The captures, in the order upstream appends them.
    let mut captured: Vec<(Slot, Aux)> = Vec::new();
    for memory in [SHARED, TENSOR] {
        for (slot, aux) in [
            (Slot::WriteVisibility(memory), &kernel.write_visibility[memory]),
            (Slot::ReadVisibility(memory), &kernel.read_visibility[memory]),
        ] {
            if let Some(aux) = aux {
                captured.push((slot, aux.clone()));
            }
        }
    }
    let mut rest = vec![(Slot::BarrierStates, &kernel.barrier_states), (Slot::Waiting, &kernel.waiting)];
    for memory in [SHARED, TENSOR] {
        rest.push((Slot::WriteTracking(memory), &kernel.write_tracking[memory]));
        rest.push((Slot::ReadTracking(memory), &kernel.read_tracking[memory]));
    }
    rest.push((Slot::Lock, &kernel.lock));
    for kind in 0..3 {
        rest.push((Slot::Commits(kind), &kernel.commits[kind]));
    }
    captured.extend(rest.into_iter().filter_map(|(slot, aux)| aux.clone().map(|a| (slot, a))));

    let mut operands: Vec<Value> = (0..ws.operand_count()).map(|i| ws.operand(i).unwrap()).collect();
    operands.extend(captured.iter().map(|(_, aux)| aux.value));
    tritium_dialects::ir::set_operands(&ws, &operands);
    for (index, partition) in partitions(&ws).into_iter().enumerate() {
        let warps = num_warps.get(index).copied().unwrap_or(1) as i64;
        let block = partition.first_block().expect("a partition has a body");
        let mut scope = Scope { num_warps: warps, ..Scope::default() };
        let location: Location = ws.location();
        for (slot, aux) in &captured {
            let argument = block.add_argument(aux.value.r#type(), location);
            // A tensor's layout follows the partition's warps.
            let ty = if aux.ty.is_tensor() { Ty::state(&aux.ty.shape, aux.ty.bits(), warps) } else { aux.ty.clone() };
            *scope.slot(*slot) = Some(Aux { value: argument, ty });
        }
        let mut setup = Setup::new();
        for memory in [SHARED, TENSOR] {
            if !tracked.buffers[memory].is_empty() {
                setup.buffer_pointers(&tracked.buffers[memory], memory, warps, Slot::Buffers(memory));
            }
        }
        if !tracked.barriers.is_empty() {
            setup.buffer_pointers(&tracked.barriers, SHARED, warps, Slot::Barriers);
        }
        if !setup.results.is_empty() {
            let anchor = block.first_operation().expect("a partition ends in a terminator");
            setup.insert(anchor, num_ctas, &mut scope)?;
        }
        scopes.insert(region_key(&partition), scope);
    }
    Ok(())
}

pub fn region_key<'c, 'a>(region: &impl RegionLike<'c, 'a>) -> usize {
    region.to_raw().ptr as usize
}

//! `nvgpu-warp-specialization` (upstream's flag; upstream's Hopper pass in
//! third_party/nvidia/hopper): a loop marked `tt.warp_specialize`
//! (`tl.range(..., warp_specialize=True)`) becomes a `ttg.warp_specialize`
//! whose default region (the kernel's 4 warps) is the *producer*, issuing
//! the loop's TMA loads into a ring of `num-stages` shared-memory buffers,
//! and whose partition (one more warp group) is the *consumer*, running the
//! wgmma dots and everything after the loop. They hand the buffers over
//! through mbarriers, as upstream's code partition does:
//!
//! - `full[s]` (count 1): the producer waits until `empty[s]` is released,
//!   sets the bytes to expect (`barrier_expect`) and issues the TMA copies of
//!   iteration i into buffer s = i mod S; the copies complete it;
//! - `empty[s]` (count 1): the consumer waits on `full[s]` (phase
//!   (i / S) mod 2), runs the dot on the buffers (synchronously: the wgmma
//!   has finished reading them), and arrives on `empty[s]`; the producer
//!   waits on it with the opposite phase, so the first S waits pass at once.
//!
//! Then the loops get `tt.num_stages = 0` (no software pipelining on top:
//! the ring is the pipeline), as upstream does.
//!
//! This is the core path of upstream's pass, for the loop shape of a TMA
//! matmul (tutorial 09's `matmul_kernel_tma`): one marked loop at the top
//! level of a 4-warp kernel, whose body is scalar arithmetic, descriptor
//! loads each stored once to shared memory (`ttg.local_alloc`, possibly
//! transposed as a view) and one `ttng.warp_group_dot` accumulating into the
//! loop's only value. Upstream goes further: it splits a 128-row tile
//! between two consumer groups (data partition) and specializes loops of
//! other shapes (attention). A loop it would specialize and this pass cannot
//! gets a located warning saying why, and is compiled unspecialized (the
//! results are the same). Loops upstream itself leaves alone (num_warps
//! other than 4, kernels with an `scf.if` else block, before sm_90) are left
//! to `tritium-warn-unspecialized-loops`, which says so.
use crate::{
    analysis::scratch::module_capability,
    ir::{collect_ops, create, enclosing_module, int_attribute, name_of, Order},
    ssa::{block_ops, clone_with, insert_before, set_attribute, ValueMap},
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike,
    Value, ValueLike,
};
use std::collections::HashSet;
use tritium_dialects::{
    access::OpAccess,
    pass::{emit_warning, OptionKind, PassDefinition, PassOption, PassOptions, PassResult},
    types::MemDesc,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-warp-specialization",
    description: "Split tt.warp_specialize loops into a TMA producer and a wgmma consumer warp group (sm_90)",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-stages",
        description: "Shared-memory buffers between the producer and the consumer",
        kind: OptionKind::Int,
        default: "3",
    }],
    run,
};

fn key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

fn value_key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// The loop's parts, once its shape is known to be the supported one.
struct MatmulLoop<'c, 'a> {
    lp: OperationRef<'c, 'a>,
    body: BlockRef<'c, 'a>,
    /// (descriptor_load, its local_alloc) pairs, in order.
    loads: Vec<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)>,
}

/// Why the loop cannot be specialized by this pass, or its parts.
fn analyze<'c, 'a>(lp: OperationRef<'c, 'a>, function_entry: &BlockRef<'c, 'a>) -> Result<MatmulLoop<'c, 'a>, String> {
    if lp.block().map(|b| b.to_raw().ptr) != Some(function_entry.to_raw().ptr) {
        return Err("only a loop at the top level of the kernel is specialized yet".into());
    }
    if lp.result_count() != 1 {
        return Err("only a loop carrying one value (the dot's accumulator) is specialized yet".into());
    }
    let body = lp.region_at(0).ok().and_then(|r| r.first_block()).ok_or("the loop has no body")?;
    let accumulator = body.argument(1).map_err(|_| "the loop has no iteration argument")?;
    let mut loads = Vec::new();
    let mut views = HashSet::new(); // shared-memory values the dot may read
    let mut dots = 0;
    for op in block_ops(&body) {
        let name = name_of(&op);
        match name.as_str() {
            "tt.descriptor_load" => {
                let result = op.result(0).unwrap();
                let users = crate::analysis::slice::users(result.into());
                let [alloc] = users[..] else {
                    return Err("a descriptor load is used other than by one ttg.local_alloc".into());
                };
                if name_of(&alloc) != "ttg.local_alloc"
                    || alloc.block().map(|b| b.to_raw().ptr) != Some(body.to_raw().ptr)
                {
                    return Err("a descriptor load is used other than by one ttg.local_alloc".into());
                }
                if !crate::ssa::is_defined_outside(op.operand(0).unwrap(), &lp) {
                    return Err("a descriptor is made inside the loop".into());
                }
                let memdesc =
                    MemDesc::of(alloc.result(0).unwrap().r#type()).ok_or("a local_alloc without a memdesc")?;
                if !memdesc.encoding.to_string().contains("nvmma_shared") {
                    return Err("a loaded tile is not stored in an NVMMA shared layout".into());
                }
                views.insert(value_key(alloc.result(0).unwrap().into()));
                loads.push((op, alloc));
            }
            "ttg.local_alloc" if op.operand_count() == 1 => {} // checked with its load
            "ttg.memdesc_trans" => {
                if !views.contains(&value_key(op.operand(0).unwrap())) {
                    return Err("a transposed view of something else than a loaded tile".into());
                }
                views.insert(value_key(op.result(0).unwrap().into()));
            }
            "ttng.warp_group_dot" => {
                dots += 1;
                let reads_tiles = (0..2).all(|i| views.contains(&value_key(op.operand(i).unwrap())));
                if !reads_tiles
                    || op.operand(2).unwrap().to_raw().ptr != accumulator.to_raw().ptr
                    || op.operand_count() != 3
                {
                    return Err("the dot must read loaded tiles and accumulate into the loop's value".into());
                }
            }
            "scf.yield" => {
                let yielded = op.operand(0).unwrap();
                let from_dot = crate::ssa::defining_op(yielded).is_some_and(|d| name_of(&d) == "ttng.warp_group_dot");
                if !from_dot {
                    return Err("the loop must yield the dot's result".into());
                }
            }
            _ => {
                let scalar = op.regions().next().is_none()
                    && (name.starts_with("arith.") || name.starts_with("math."))
                    && (0..op.result_count()).all(|i| {
                        let ty = op.result(i).unwrap().r#type();
                        !ty.is_ranked_tensor() && MemDesc::of(ty).is_none()
                    });
                if !scalar {
                    return Err(format!("the loop body has '{name}', which only scalar arithmetic, descriptor loads and one dot may be yet"));
                }
            }
        }
    }
    if dots != 1 || loads.is_empty() {
        return Err("the loop body must hold descriptor loads and exactly one ttng.warp_group_dot".into());
    }
    Ok(MatmulLoop { lp, body, loads })
}

/// Small IR-building helpers over one insertion point.
struct Build<'c> {
    context: &'c melior::Context,
    location: Location<'c>,
}

impl<'c> Build<'c> {
    fn i32_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 32).into()
    }
    fn i1_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 1).into()
    }
    fn int_attr(&self, ty: Type<'c>, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(ty, value).into()
    }
    fn ty(&self, text: &str) -> Type<'c> {
        Type::parse(self.context, text).unwrap_or_else(|| panic!("type {text}"))
    }
    /// Appends `name(operands) -> results` to `block` (or before `before`).
    fn op<'a>(
        &self,
        at: &At<'c, 'a>,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let operation = create(name, self.location, operands, results, attributes);
        match at {
            At::End(block) => block.append_operation(operation),
            At::Before(op) => insert_before(op, operation),
        }
    }
    fn value<'a>(&self, at: &At<'c, 'a>, name: &str, operands: &[Value<'c, '_>], result: Type<'c>) -> Value<'c, 'a> {
        self.op(at, name, operands, &[result], &[]).result(0).unwrap().into()
    }
    fn constant<'a>(&self, at: &At<'c, 'a>, ty: Type<'c>, value: i64) -> Value<'c, 'a> {
        self.op(at, "arith.constant", &[], &[ty], &[("value", self.int_attr(ty, value))]).result(0).unwrap().into()
    }
    /// `ttg.memdesc_index %source[%index]` as `result`.
    fn index<'a>(
        &self,
        at: &At<'c, 'a>,
        source: Value<'c, '_>,
        index: Value<'c, '_>,
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        self.value(at, "ttg.memdesc_index", &[source, index], result)
    }
    fn wait(&self, at: &At<'c, '_>, barrier: Value<'c, '_>, phase: Value<'c, '_>) {
        let segments = DenseI32ArrayAttribute::new(self.context, &[1, 1, 0, 0]).into();
        self.op(at, "ttng.wait_barrier", &[barrier, phase], &[], &[("operandSegmentSizes", segments)]);
    }
}

#[derive(Clone, Copy)]
enum At<'c, 'a> {
    End(BlockRef<'c, 'a>),
    Before(OperationRef<'c, 'a>),
}

/// Slot and phase of iteration counter `it` over `stages` buffers:
/// (it mod S, (it / S) mod 2).
fn slot_and_phase<'c, 'a>(
    b: &Build<'c>,
    at: &At<'c, 'a>,
    it: Value<'c, '_>,
    stages: i64,
) -> (Value<'c, 'a>, Value<'c, 'a>) {
    let i32 = b.i32_type();
    let s = b.constant(at, i32, stages);
    let one = b.constant(at, i32, 1);
    let slot = b.value(at, "arith.remui", &[it, s], i32);
    let round = b.value(at, "arith.divui", &[it, s], i32);
    let phase = b.value(at, "arith.andi", &[round, one], i32);
    (slot, phase)
}

fn specialize(m: &MatmulLoop, stages: i64) -> Result<(), String> {
    let lp = m.lp;
    let context_ref = lp.context();
    let context = unsafe { context_ref.to_ref() };
    let b = Build { context, location: lp.location() };
    let before = At::Before(lp);
    let i32 = b.i32_type();
    let function_entry = lp.block().unwrap();

    // What the consumer needs from before the loop: constants are made
    // again inside the partition, other values are captured (scalars,
    // pointers and descriptors only: a tensor cannot be captured).
    let after_loop: Vec<OperationRef> = {
        let mut ops = Vec::new();
        let mut next = lp.next_in_block();
        while let Some(op) = next {
            next = op.next_in_block();
            if name_of(&op) != "tt.return" {
                ops.push(op);
            }
        }
        ops
    };
    let earlier: HashSet<usize> =
        block_ops(&function_entry).iter().take_while(|o| key(o) != key(&lp)).map(key).collect();
    let outside = |v: Value| -> bool {
        match crate::ssa::defining_op(v) {
            Some(d) => earlier.contains(&key(&d)),
            None => crate::ssa::argument_owner(v).is_some_and(|o| o.to_raw().ptr == function_entry.to_raw().ptr),
        }
    };
    let load_keys: HashSet<usize> = m.loads.iter().map(|(l, _)| key(l)).collect();
    let mut captures: Vec<Value> = Vec::new();
    let mut constants: Vec<OperationRef> = Vec::new();
    let mut seen = HashSet::new();
    let mut used: Vec<Value> = (0..lp.operand_count()).map(|i| lp.operand(i).unwrap()).collect();
    for op in block_ops(&m.body).into_iter().chain(after_loop.iter().copied()) {
        if load_keys.contains(&key(&op)) {
            continue;
        }
        for inner in std::iter::once(op).chain(collect_ops(op, Order::Pre)) {
            used.extend((0..inner.operand_count()).map(|i| inner.operand(i).unwrap()));
        }
    }
    for v in used {
        if !outside(v) || !seen.insert(value_key(v)) {
            continue;
        }
        match crate::ssa::defining_op(v) {
            Some(d) if name_of(&d) == "arith.constant" => constants.push(d),
            _ if v.r#type().is_ranked_tensor() => return Err(
                "the code after the loop uses a tensor computed before it (it cannot be passed to the consumer warps)"
                    .into(),
            ),
            _ => captures.push(unsafe { Value::from_raw(v.to_raw()) }),
        }
    }

    // Buffers (one ring per load) and the full/empty barriers.
    let mut buffers = Vec::new();
    let mut bytes = 0i64;
    for (_, alloc) in &m.loads {
        let tile_type = alloc.result(0).unwrap().r#type();
        let memdesc = MemDesc::of(tile_type).unwrap();
        let shape: Vec<String> = memdesc.shape.iter().map(|d| d.to_string()).collect();
        let element = memdesc.element_type.to_string();
        let ring = b.ty(&format!(
            "!ttg.memdesc<{stages}x{}x{element}, {}, #ttg.shared_memory, mutable>",
            shape.join("x"),
            memdesc.encoding
        ));
        let slot_type = b.ty(&format!(
            "!ttg.memdesc<{}x{element}, {}, #ttg.shared_memory, mutable>",
            shape.join("x"),
            memdesc.encoding
        ));
        let buffer: Value = b.op(&before, "ttg.local_alloc", &[], &[ring], &[]).result(0).unwrap().into();
        bytes += memdesc.shape.iter().product::<i64>()
            * crate::analysis::scratch::element_bytes(memdesc.element_type) as i64;
        buffers.push((buffer, slot_type, tile_type));
    }
    let barrier_layout = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>";
    let barriers_type = b.ty(&format!("!ttg.memdesc<{stages}x1xi64, {barrier_layout}, #ttg.shared_memory, mutable>"));
    let barrier_type = b.ty(&format!("!ttg.memdesc<1xi64, {barrier_layout}, #ttg.shared_memory, mutable>"));
    let full: Value = b.op(&before, "ttg.local_alloc", &[], &[barriers_type], &[]).result(0).unwrap().into();
    let empty: Value = b.op(&before, "ttg.local_alloc", &[], &[barriers_type], &[]).result(0).unwrap().into();
    for s in 0..stages {
        let index = b.constant(&before, i32, s);
        for ring in [full, empty] {
            let barrier = b.index(&before, ring, index, barrier_type);
            b.op(&before, "ttng.init_barrier", &[barrier], &[], &[("count", b.int_attr(i32, 1))]);
        }
    }
    b.op(&before, "gpu.barrier", &[], &[], &[]);
    for (buffer, _, _) in &buffers {
        captures.push(*buffer);
    }
    captures.push(full);
    captures.push(empty);

    // The ttg.warp_specialize: default region (producer), one partition (consumer).
    let default_region = Region::new();
    let producer_block = default_region.append_block(Block::new(&[]));
    let partition_region = Region::new();
    let capture_types: Vec<(Type, Location)> = captures.iter().map(|v| (v.r#type(), b.location)).collect();
    let consumer_block = partition_region.append_block(Block::new(&capture_types));
    let partitions = OperationBuilder::new("ttg.warp_specialize.partitions", b.location)
        .add_regions([partition_region])
        .build()
        .unwrap();
    let holder = Region::new();
    holder.append_block(Block::new(&[])).append_operation(partitions);
    let ws = OperationBuilder::new("ttg.warp_specialize", b.location)
        .add_operands(&captures)
        // No requestedRegisters: with one consumer group the kernel has 8
        // warps, whose even share (256 registers) is already the most a
        // thread can have, so moving registers between the groups gains
        // nothing (upstream's 232-register consumers come with its data
        // partition into two consumer groups, 12 warps).
        .add_attributes(&[(
            Identifier::new(context, "partitionNumWarps"),
            DenseI32ArrayAttribute::new(context, &[4]).into(),
        )])
        .add_regions([default_region, holder])
        .build()
        .expect("ttg.warp_specialize");
    insert_before(&lp, ws);

    let no_pipelining = b.int_attr(i32, 0);
    build_producer(&b, m, &buffers, full, empty, stages, bytes, producer_block, no_pipelining);
    build_consumer(
        &b,
        m,
        &buffers,
        &captures,
        &constants,
        full,
        empty,
        stages,
        consumer_block,
        &after_loop,
        no_pipelining,
    );

    for op in after_loop.iter().rev() {
        unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
    }
    unsafe { mlir_sys::mlirOperationDestroy(lp.to_raw()) };
    Ok(())
}

/// A new `scf.for` like `old` (same bounds, mapped) carrying `inits`, at `at`;
/// returns it and its body block (induction variable mapped to the old one's).
fn new_loop<'c, 'a>(
    b: &Build<'c>,
    at: &At<'c, 'a>,
    old: &OperationRef<'c, '_>,
    map: &mut ValueMap,
    inits: &[Value<'c, '_>],
) -> (OperationRef<'c, 'a>, BlockRef<'c, 'a>) {
    let bounds: Vec<Value> = (0..3).map(|i| map.lookup(old.operand(i).unwrap())).collect();
    let induction = old.region_at(0).unwrap().first_block().unwrap().argument(0).unwrap();
    let mut block_types = vec![(induction.r#type(), b.location)];
    block_types.extend(inits.iter().map(|v| (v.r#type(), b.location)));
    let region = Region::new();
    region.append_block(Block::new(&block_types));
    let mut operands = bounds.clone();
    operands.extend_from_slice(inits);
    let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
    let operation = OperationBuilder::new("scf.for", b.location)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_regions([region])
        .build()
        .expect("scf.for");
    let lp = match at {
        At::End(block) => block.append_operation(operation),
        At::Before(op) => insert_before(op, operation),
    };
    let body = lp.region_at(0).unwrap().first_block().unwrap();
    map.map(induction.into(), body.argument(0).unwrap().into());
    (lp, body)
}

/// Clones the scalar arithmetic of the old body (the loads' coordinates and
/// anything else scalar) into `into`.
fn clone_scalars<'c>(m: &MatmulLoop<'c, '_>, into: &BlockRef<'c, '_>, map: &mut ValueMap) {
    for op in block_ops(&m.body) {
        let name = name_of(&op);
        if name.starts_with("arith.") || name.starts_with("math.") {
            let clone = into.append_operation(clone_with(&op, map));
            for r in 0..op.result_count() {
                map.map(op.result(r).unwrap().into(), clone.result(r).unwrap().into());
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn build_producer<'c>(
    b: &Build<'c>,
    m: &MatmulLoop<'c, '_>,
    buffers: &[(Value<'c, '_>, Type<'c>, Type<'c>)],
    full: Value<'c, '_>,
    empty: Value<'c, '_>,
    stages: i64,
    bytes: i64,
    block: BlockRef<'c, '_>,
    no_pipelining: Attribute<'c>,
) {
    let i32 = b.i32_type();
    let at = At::End(block);
    let zero = b.constant(&at, i32, 0);
    let mut map = ValueMap::default();
    let (lp, body) = new_loop(b, &at, &m.lp, &mut map, &[zero]);
    set_attribute(&lp, "tt.num_stages", no_pipelining);
    clone_scalars(m, &body, &mut map);
    let inside = At::End(body);
    let it = body.argument(1).unwrap().into();
    let (slot, phase) = slot_and_phase(b, &inside, it, stages);
    let one = b.constant(&inside, i32, 1);
    // The first round waits on the phase before the barrier's first: it passes.
    let released_phase = b.value(&inside, "arith.xori", &[phase, one], i32);
    let barrier_type = b.ty(&full.r#type().to_string().replacen(&format!("{stages}x1xi64"), "1xi64", 1));
    let empty_slot = b.index(&inside, empty, slot, barrier_type);
    b.wait(&inside, empty_slot, released_phase);
    let full_slot = b.index(&inside, full, slot, barrier_type);
    let yes = b.constant(&inside, b.i1_type(), 1);
    b.op(&inside, "ttng.barrier_expect", &[full_slot, yes], &[], &[("size", b.int_attr(i32, bytes))]);
    for ((load, _), (buffer, slot_type, _)) in m.loads.iter().zip(buffers) {
        let destination = b.index(&inside, *buffer, slot, *slot_type);
        let mut operands: Vec<Value> = vec![load.operand(0).unwrap()];
        operands.extend((1..load.operand_count()).map(|i| map.lookup(load.operand(i).unwrap())));
        operands.extend([full_slot, destination, yes]);
        b.op(&inside, "ttng.async_tma_copy_global_to_local", &operands, &[], &[]);
    }
    let next = b.value(&inside, "arith.addi", &[it, one], i32);
    b.op(&inside, "scf.yield", &[next], &[], &[]);
    b.op(&at, "ttg.warp_yield", &[], &[], &[]);
}

#[allow(clippy::too_many_arguments)]
fn build_consumer<'c>(
    b: &Build<'c>,
    m: &MatmulLoop<'c, '_>,
    buffers: &[(Value<'c, '_>, Type<'c>, Type<'c>)],
    captures: &[Value<'c, '_>],
    constants: &[OperationRef<'c, '_>],
    full: Value<'c, '_>,
    empty: Value<'c, '_>,
    stages: i64,
    block: BlockRef<'c, '_>,
    after_loop: &[OperationRef<'c, '_>],
    no_pipelining: Attribute<'c>,
) {
    let i32 = b.i32_type();
    let at = At::End(block);
    // Inside the (isolated) partition, the captures are its arguments.
    let mut map = ValueMap::default();
    for (i, v) in captures.iter().enumerate() {
        map.map(*v, block.argument(i).unwrap().into());
    }
    for constant in constants {
        let clone = block.append_operation(clone_with(constant, &map));
        map.map(constant.result(0).unwrap().into(), clone.result(0).unwrap().into());
    }
    let buffers: Vec<_> = buffers.iter().map(|(v, s, t)| (map.lookup(*v), *s, *t)).collect();
    let (full, empty) = (map.lookup(full), map.lookup(empty));
    let zero = b.constant(&at, i32, 0);
    let init = map.lookup(m.lp.operand(3).unwrap());
    let (lp, body) = new_loop(b, &at, &m.lp, &mut map, &[init, zero]);
    set_attribute(&lp, "tt.num_stages", no_pipelining);
    let old_body_accumulator = m.body.argument(1).unwrap();
    map.map(old_body_accumulator.into(), body.argument(1).unwrap().into());
    clone_scalars(m, &body, &mut map);
    let inside = At::End(body);
    let it = body.argument(2).unwrap().into();
    let (slot, phase) = slot_and_phase(b, &inside, it, stages);
    let barrier_type = b.ty(&full.r#type().to_string().replacen(&format!("{stages}x1xi64"), "1xi64", 1));
    let full_slot = b.index(&inside, full, slot, barrier_type);
    b.wait(&inside, full_slot, phase);
    for ((_, alloc), (buffer, _, tile_type)) in m.loads.iter().zip(&buffers) {
        let tile = b.index(&inside, *buffer, slot, *tile_type);
        map.map(alloc.result(0).unwrap().into(), tile);
    }
    let mut dot_result = None;
    for op in block_ops(&m.body) {
        let name = name_of(&op);
        if name == "ttg.memdesc_trans" || name == "ttng.warp_group_dot" {
            let clone = body.append_operation(clone_with(&op, &map));
            map.map(op.result(0).unwrap().into(), clone.result(0).unwrap().into());
            if name == "ttng.warp_group_dot" {
                dot_result = Some(clone.result(0).unwrap());
            }
        }
    }
    let empty_slot = b.index(&inside, empty, slot, barrier_type);
    b.op(&inside, "ttng.arrive_barrier", &[empty_slot], &[], &[("count", b.int_attr(i32, 1))]);
    let one = b.constant(&inside, i32, 1);
    let next = b.value(&inside, "arith.addi", &[it, one], i32);
    b.op(&inside, "scf.yield", &[dot_result.unwrap().into(), next], &[], &[]);
    map.map(m.lp.result(0).unwrap().into(), lp.result(0).unwrap().into());
    for op in after_loop {
        let clone = block.append_operation(clone_with(op, &map));
        for r in 0..op.result_count() {
            map.map(op.result(r).unwrap().into(), clone.result(r).unwrap().into());
        }
    }
    b.op(&at, "ttg.warp_return", &[], &[], &[]);
}

/// Why upstream itself would leave the kernel's loops unspecialized (the
/// warn pass reports those), if it would.
fn upstream_declines(module: &OperationRef, function: OperationRef) -> bool {
    if module_capability(module) / 10 != 9 || int_attribute(module, "ttg.num-warps") != Some(4) {
        return true;
    }
    collect_ops(function, Order::Pre).iter().any(|o| {
        name_of(o) == "scf.if"
            && o.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()).is_some()
    })
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let stages = options.int("num-stages").max(1);
    // The functions first: specializing destroys ops a lazy walk would visit.
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "tt.func").collect();
    for function in functions {
        let loops: Vec<OperationRef> = collect_ops(function, Order::Pre)
            .into_iter()
            .filter(|o| name_of(o) == "scf.for" && o.attribute("tt.warp_specialize").is_ok())
            .collect();
        if loops.is_empty() || upstream_declines(&module, function) {
            continue;
        }
        let entry = function.region_at(0).unwrap().first_block().unwrap();
        let decline = |lp: &OperationRef, reason: &str| {
            emit_warning(
                lp.location(),
                &format!("this loop asks for warp specialization (warp_specialize=True) but is compiled without it: {reason} (Tritium's nvgpu-warp-specialization handles the TMA-matmul loop shape only)"),
            );
            // Said once: the later warning pass need not repeat it.
            unsafe { mlir_sys::mlirOperationRemoveAttributeByName(lp.to_raw(), string_ref("tt.warp_specialize")) };
        };
        if loops.len() > 1 {
            for lp in &loops {
                decline(lp, "the kernel has more than one such loop");
            }
            continue;
        }
        match analyze(loops[0], &entry).and_then(|matmul| specialize(&matmul, stages)) {
            Ok(()) => {
                // As upstream: no software pipelining of any loop of the kernel on top.
                let context_ref = function.context();
                let context = unsafe { context_ref.to_ref() };
                let i32: Type = IntegerType::new(context, 32).into();
                for lp in collect_ops(function, Order::Pre).into_iter().filter(|o| name_of(o) == "scf.for") {
                    set_attribute(&lp, "tt.num_stages", IntegerAttribute::new(i32, 0).into());
                }
            }
            Err(reason) => decline(&loops[0], &reason),
        }
    }
    Ok(())
}

fn string_ref(text: &str) -> mlir_sys::MlirStringRef {
    mlir_sys::MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

//! The code partition: the marked loop becomes a `ttg.warp_specialize`
//! whose default region (the kernel's 4 warps) is the producer and whose
//! partitions (one warp group each) are the consumers; shared-memory rings
//! and mbarriers between them.
use super::{
    emit::{new_loop, slot_and_phase, At, Build},
    key, name_of_op as name_of,
    shape::{self, Plan},
    value_key,
};
use crate::{
    analysis::scratch::element_bytes,
    ir::{collect_ops, Order},
    ssa::{block_ops, clone_with, insert_before, set_attribute, ValueMap},
};
use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationBuilder, OperationLike},
    Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike,
    Value, ValueLike,
};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::handles::ValueHandle;
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::{DescriptorLoadOp, DescriptorStoreOp};

/// Registers each consumer warp group asks for when there are two (upstream's
/// choice: 2 x 4 x 232 + 4 x 40 threads' registers fill the 64K of an SM).
const CONSUMER_REGISTERS: i32 = 232;

/// A ring of `stages` buffers for one load: the ring, one slot's type
/// (mutable, as the producer's TMA writes it), and the tile type the
/// consumers read.
struct Ring<'c, 'a> {
    buffer: Value<'c, 'a>,
    slot_type: Type<'c>,
    tile_type: Type<'c>,
}

/// What both sides share: the rings and the barriers.
struct Channels<'c, 'a> {
    rings: Vec<Ring<'c, 'a>>,
    full: Value<'c, 'a>,
    empty: Value<'c, 'a>,
    barrier_type: Type<'c>,
    bytes: i64,
    stages: i64,
}

impl<'c, 'a> Channels<'c, 'a> {
    /// The same channels as seen through `map` (inside a partition).
    fn mapped(&self, map: &ValueMap) -> Channels<'c, 'a> {
        Channels {
            rings: self
                .rings
                .iter()
                .map(|r| Ring { buffer: map.lookup(r.buffer), slot_type: r.slot_type, tile_type: r.tile_type })
                .collect(),
            full: map.lookup(self.full),
            empty: map.lookup(self.empty),
            barrier_type: self.barrier_type,
            bytes: self.bytes,
            stages: self.stages,
        }
    }
}

fn ops_after<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = op.next_in_block();
    while let Some(o) = next {
        next = o.next_in_block();
        ops.push(o);
    }
    ops
}

pub(super) fn specialize(plan: &Plan, stages: i64) -> Result<(), String> {
    let lp = plan.marked;
    let context_ref = lp.context();
    let context = unsafe { context_ref.to_ref() };
    let b = Build { context, location: lp.location() };
    let before = At::Before(lp);
    let i32 = b.i32_type();
    let function_entry = lp.block().unwrap();

    // What the consumers use from before the loop: constants and the
    // prologue's tensors are made again inside the partitions, other values
    // are captured (scalars, pointers, descriptors, shared-memory tiles: a
    // tensor cannot be captured).
    let after_loop: Vec<OperationRef> = ops_after(lp).into_iter().filter(|o| name_of(o) != "tt.return").collect();
    let earlier: HashSet<usize> =
        block_ops(&function_entry).iter().take_while(|o| key(o) != key(&lp)).map(key).collect();
    let outside = |v: Value| -> bool {
        match crate::ssa::defining_op(v) {
            Some(d) => earlier.contains(&key(&d)),
            None => crate::ssa::argument_owner(v).is_some_and(|o| o.to_raw().ptr == function_entry.to_raw().ptr),
        }
    };
    let load_keys: HashSet<usize> = plan.kloop.loads.iter().map(|(l, _)| key(l)).collect();
    let mut used: Vec<Value> = (0..lp.operand_count()).map(|i| lp.operand(i).unwrap()).collect();
    let consumer_ops = collect_ops(lp, Order::Pre)
        .into_iter()
        .chain(after_loop.iter().flat_map(|op| std::iter::once(*op).chain(collect_ops(*op, Order::Pre))));
    for op in consumer_ops {
        if load_keys.contains(&key(&op)) {
            continue;
        }
        let store = DescriptorStoreOp::of(op).filter(|s| name_of(s) == "tt.descriptor_store");
        if let Some(store) = store.filter(|s| plan.is_split(s.src())) {
            // The consumers make their own half-tile descriptor.
            let made = crate::ssa::defining_op(store.desc()).unwrap();
            used.extend((0..made.operand_count()).map(|i| made.operand(i).unwrap()));
            used.push(store.src());
            used.extend(store.indices());
        } else {
            used.extend((0..op.operand_count()).map(|i| op.operand(i).unwrap()));
        }
    }
    for op in &plan.prologue {
        used.extend((0..op.operand_count()).map(|i| op.operand(i).unwrap()));
    }
    let prologue_keys: HashSet<usize> = plan.prologue.iter().map(key).collect();
    let mut captures: Vec<Value> = Vec::new();
    let mut constants: Vec<OperationRef> = Vec::new();
    let mut seen = HashSet::new();
    for v in used {
        if !outside(v) || !seen.insert(value_key(v)) {
            continue;
        }
        match crate::ssa::defining_op(v) {
            Some(d) if name_of(&d) == "arith.constant" => constants.push(d),
            Some(d) if prologue_keys.contains(&key(&d)) => {}
            _ if v.r#type().is_ranked_tensor() => return Err(
                "the code after the loop uses a tensor computed before it (it cannot be passed to the consumer warps)"
                    .into(),
            ),
            _ => captures.push(unsafe { Value::from_raw(v.to_raw()) }),
        }
    }

    // Buffers (one ring per load) and the full/empty barriers.
    let mut rings = Vec::new();
    let mut bytes = 0i64;
    for (_, alloc) in &plan.kloop.loads {
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
        bytes += memdesc.shape.iter().product::<i64>() * element_bytes(memdesc.element_type) as i64;
        rings.push(Ring { buffer, slot_type, tile_type });
    }
    let barrier_layout = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>";
    let barriers_type = b.ty(&format!("!ttg.memdesc<{stages}x1xi64, {barrier_layout}, #ttg.shared_memory, mutable>"));
    let barrier_type = b.ty(&format!("!ttg.memdesc<1xi64, {barrier_layout}, #ttg.shared_memory, mutable>"));
    let full: Value = b.op(&before, "ttg.local_alloc", &[], &[barriers_type], &[]).result(0).unwrap().into();
    let empty: Value = b.op(&before, "ttg.local_alloc", &[], &[barriers_type], &[]).result(0).unwrap().into();
    // `full[s]` completes with the producer's expect and the copies' bytes;
    // `empty[s]` when every consumer group has arrived (one thread each).
    let consumers = plan.consumers() as i64;
    for s in 0..stages {
        let index = b.constant(&before, i32, s);
        for (ring, count) in [(full, 1), (empty, consumers)] {
            let barrier = b.index(&before, ring, index, barrier_type);
            b.op(&before, "ttng.init_barrier", &[barrier], &[], &[("count", b.int_attr(i32, count))]);
        }
    }
    b.op(&before, "gpu.barrier", &[], &[], &[]);
    for ring in &rings {
        captures.push(ring.buffer);
    }
    captures.push(full);
    captures.push(empty);
    let channels = Channels { rings, full, empty, barrier_type, bytes, stages };

    // The ttg.warp_specialize: default region (producer), the consumers.
    let default_region = Region::new();
    let producer_block = default_region.append_block(Block::new(&[]));
    let capture_types: Vec<(Type, Location)> = captures.iter().map(|v| (v.r#type(), b.location)).collect();
    let mut partition_regions = Vec::new();
    let mut consumer_blocks = Vec::new();
    for _ in 0..consumers {
        let region = Region::new();
        consumer_blocks.push(region.append_block(Block::new(&capture_types)));
        partition_regions.push(region);
    }
    let builder = OperationBuilder::new("ttg.warp_specialize.partitions", b.location);
    let mut regions = partition_regions.into_iter();
    let builder = match (regions.next(), regions.next()) {
        (Some(first), None) => builder.add_regions([first]),
        (Some(first), Some(second)) => builder.add_regions([first, second]),
        _ => unreachable!("one or two consumer groups"),
    };
    let partitions = builder.build().unwrap();
    let holder = Region::new();
    holder.append_block(Block::new(&[])).append_operation(partitions);
    let warps = vec![4; consumers as usize];
    let mut attributes: Vec<(Identifier, Attribute)> =
        vec![(Identifier::new(context, "partitionNumWarps"), DenseI32ArrayAttribute::new(context, &warps).into())];
    // With one consumer group the kernel has 8 warps, whose even share (256
    // registers) is already the most a thread can have: moving registers
    // between the groups gains nothing. With two (12 warps), the consumers
    // take 232 each and the producer what is left (40).
    if consumers == 2 {
        attributes.push((
            Identifier::new(context, "requestedRegisters"),
            DenseI32ArrayAttribute::new(context, &[CONSUMER_REGISTERS; 2]).into(),
        ));
    }
    let ws = OperationBuilder::new("ttg.warp_specialize", b.location)
        .add_operands(&captures)
        .add_attributes(&attributes)
        .add_regions([default_region, holder])
        .build()
        .expect("ttg.warp_specialize");
    insert_before(&lp, ws);

    build_producer(&b, plan, &channels, producer_block);
    for (group, block) in consumer_blocks.into_iter().enumerate() {
        let consumer =
            Consumer { b: &b, plan, group: group as i64, descriptors: HashMap::new(), half_constants: HashMap::new() };
        consumer.build(&channels, &captures, &constants, block, &after_loop)?;
    }

    for op in after_loop.iter().rev() {
        crate::ir::erase(*op);
    }
    crate::ir::erase(lp);
    Ok(())
}

fn no_pipelining<'c>(b: &Build<'c>, lp: &OperationRef) {
    set_attribute(lp, "tt.num_stages", b.int_attr(b.i32_type(), 0));
}

/// Clones the ops of `ops` that are scalar arithmetic into `into`.
fn clone_scalars<'c>(ops: &[OperationRef<'c, '_>], into: &BlockRef<'c, '_>, map: &mut ValueMap) {
    for op in ops {
        let name = name_of(op);
        let scalar = (0..op.result_count()).all(|i| shape::is_scalar_type(op.result(i).unwrap().r#type()));
        if (name.starts_with("arith.") || name.starts_with("math.")) && scalar {
            let clone = into.append_operation(clone_with(op, map));
            for r in 0..op.result_count() {
                map.map(op.result(r).unwrap().into(), clone.result(r).unwrap().into());
            }
        }
    }
}

/// The ops of `block` before `op` and after it (its terminator left out).
fn split_at<'c, 'a>(
    block: &BlockRef<'c, 'a>,
    op: &OperationRef<'c, 'a>,
) -> (Vec<OperationRef<'c, 'a>>, Vec<OperationRef<'c, 'a>>) {
    let ops = block_ops(block);
    let at = ops.iter().position(|o| key(o) == key(op)).unwrap();
    let tail = ops[at + 1..].iter().copied().filter(|o| name_of(o) != "scf.yield").collect();
    (ops[..at].to_vec(), tail)
}

/// The marked tile loop again (persistent shape), carrying its scalars and
/// the ring's iteration counter `it`; `inner` emits the K loop in its body
/// and returns the counter after it; `rest` the ops after it.
#[allow(clippy::too_many_arguments)]
fn tile_loop<'c, 'a>(
    b: &Build<'c>,
    plan: &Plan<'c, '_>,
    at: &At<'c, 'a>,
    map: &mut ValueMap,
    it: Value<'c, '_>,
    mut head: impl FnMut(&[OperationRef<'c, '_>], &BlockRef<'c, 'a>, &mut ValueMap),
    mut inner: impl FnMut(&At<'c, 'a>, &mut ValueMap, Value<'c, 'a>) -> Result<Value<'c, 'a>, String>,
    mut rest: impl FnMut(&[OperationRef<'c, '_>], &BlockRef<'c, 'a>, &mut ValueMap) -> Result<(), String>,
) -> Result<OperationRef<'c, 'a>, String> {
    let old = plan.marked;
    let old_body = old.region_at(0).unwrap().first_block().unwrap();
    let mut inits: Vec<Value> = (3..old.operand_count()).map(|i| map.lookup(old.operand(i).unwrap())).collect();
    inits.push(it);
    let (lp, body) = new_loop(b, at, &old, map, &inits);
    no_pipelining(b, &lp);
    for i in 1..old_body.argument_count() {
        map.map(old_body.argument(i).unwrap().into(), body.argument(i).unwrap().into());
    }
    let (before, after) = split_at(&old_body, &plan.kloop.lp);
    head(&before, &body, map);
    let it_in: Value = body.argument(body.argument_count() - 1).unwrap().into();
    let it_out = inner(&At::End(body), map, it_in)?;
    rest(&after, &body, map)?;
    let yield_op = old_body.terminator().unwrap();
    let mut yielded: Vec<Value> =
        (0..yield_op.operand_count()).map(|i| map.lookup(yield_op.operand(i).unwrap())).collect();
    yielded.push(it_out);
    b.op(&At::End(body), "scf.yield", &yielded, &[], &[]);
    Ok(lp)
}

fn build_producer<'c>(b: &Build<'c>, plan: &Plan<'c, '_>, channels: &Channels<'c, '_>, block: BlockRef<'c, '_>) {
    let at = At::End(block);
    let zero = b.constant(&at, b.i32_type(), 0);
    let mut map = ValueMap::default();
    if plan.persistent() {
        tile_loop(
            b,
            plan,
            &at,
            &mut map,
            zero,
            |ops, body, map| clone_scalars(ops, body, map),
            |at, map, it| Ok(producer_kloop(b, plan, channels, at, map, it)),
            |ops, body, map| {
                clone_scalars(ops, body, map);
                Ok(())
            },
        )
        .expect("the producer's tile loop");
    } else {
        producer_kloop(b, plan, channels, &at, &mut map, zero);
    }
    b.op(&at, "ttg.warp_yield", &[], &[], &[]);
}

/// The producer's loop: per iteration, wait until the slot is released,
/// expect the tiles' bytes on `full[slot]` and issue their TMA copies. It
/// carries the counter and the scalars the original loop carries (the
/// loads' coordinates may follow them). Returns the counter after the loop.
fn producer_kloop<'c, 'a>(
    b: &Build<'c>,
    plan: &Plan<'c, '_>,
    channels: &Channels<'c, '_>,
    at: &At<'c, 'a>,
    map: &mut ValueMap,
    it: Value<'c, '_>,
) -> Value<'c, 'a> {
    let k = &plan.kloop;
    let i32 = b.i32_type();
    let scalars = k.scalar_iter_args();
    let mut inits = vec![it];
    inits.extend(scalars.iter().map(|i| map.lookup(k.lp.operand(3 + i).unwrap())));
    let (lp, body) = new_loop(b, at, &k.lp, map, &inits);
    no_pipelining(b, &lp);
    for (n, i) in scalars.iter().enumerate() {
        map.map(k.body.argument(1 + i).unwrap().into(), body.argument(2 + n).unwrap().into());
    }
    clone_scalars(&block_ops(&k.body), &body, map);
    let inside = At::End(body);
    let it = body.argument(1).unwrap().into();
    let (slot, phase) = slot_and_phase(b, &inside, it, channels.stages);
    let one = b.constant(&inside, i32, 1);
    // The first round waits on the phase before the barrier's first: it passes.
    let released_phase = b.value(&inside, "arith.xori", &[phase, one], i32);
    let empty_slot = b.index(&inside, channels.empty, slot, channels.barrier_type);
    b.wait(&inside, empty_slot, released_phase);
    let full_slot = b.index(&inside, channels.full, slot, channels.barrier_type);
    let yes = b.constant(&inside, b.i1_type(), 1);
    b.op(&inside, "ttng.barrier_expect", &[full_slot, yes], &[], &[("size", b.int_attr(i32, channels.bytes))]);
    for ((load, _), ring) in k.loads.iter().zip(&channels.rings) {
        let destination = b.index(&inside, ring.buffer, slot, ring.slot_type);
        let load = DescriptorLoadOp::of(*load).expect("the k-loop's loads are descriptor loads");
        let mut operands: Vec<Value> = vec![map.lookup(load.desc())];
        operands.extend(load.indices().into_iter().map(|i| map.lookup(i)));
        operands.extend([full_slot, destination, yes]);
        b.op(&inside, "ttng.async_tma_copy_global_to_local", &operands, &[], &[]);
    }
    let next = b.value(&inside, "arith.addi", &[it, one], i32);
    let yield_op = k.body.terminator().unwrap();
    let mut yielded = vec![next];
    yielded.extend(scalars.iter().map(|i| map.lookup(yield_op.operand(*i).unwrap())));
    b.op(&inside, "scf.yield", &yielded, &[], &[]);
    for (n, i) in scalars.iter().enumerate() {
        map.map(k.lp.result(*i).unwrap().into(), lp.result(1 + n).unwrap().into());
    }
    lp.result(0).unwrap().into()
}

/// One consumer warp group; with a row split, group g takes rows
/// [g * rows / 2, (g + 1) * rows / 2) of the tile.
struct Consumer<'b, 'c, 'p, 'q> {
    b: &'b Build<'c>,
    plan: &'p Plan<'c, 'q>,
    group: i64,
    /// Half-tile descriptors made in the partition, by the original's key.
    descriptors: HashMap<usize, ValueHandle>,
    /// Half-row splat constants made in the partition, by the original's
    /// key and the block they are made in.
    half_constants: HashMap<(usize, usize), ValueHandle>,
}

impl<'c> Consumer<'_, 'c, '_, '_> {
    fn rows(&self) -> i64 {
        self.plan.split.as_ref().map_or(0, |s| s.rows)
    }

    fn half(&self, ty: Type<'c>) -> Option<Type<'c>> {
        shape::halved_type_text(&ty.to_string(), self.plan.split.as_ref()?.rows).map(|t| self.b.ty(&t))
    }

    fn build(
        mut self,
        channels: &Channels<'c, '_>,
        captures: &[Value<'c, '_>],
        constants: &[OperationRef<'c, '_>],
        block: BlockRef<'c, '_>,
        after_loop: &[OperationRef<'c, '_>],
    ) -> Result<(), String> {
        let b = self.b;
        let plan = self.plan;
        let at = At::End(block);
        // Inside the (isolated) partition, the captures are its arguments.
        let mut map = ValueMap::default();
        for (i, v) in captures.iter().enumerate() {
            map.map(*v, block.argument(i).unwrap().into());
        }
        let mut cloned_constants = Vec::new();
        for constant in constants {
            let clone = block.append_operation(clone_with(constant, &map));
            map.map(constant.result(0).unwrap().into(), clone.result(0).unwrap().into());
            cloned_constants.push(clone);
        }
        // A shared-memory tile made before the loop (attention's Q): this
        // group's rows of it.
        for (i, v) in captures.iter().enumerate() {
            if plan.is_split(*v) {
                let rows = self.rows_of(&at, block.argument(i).unwrap().into(), self.rows());
                map.map(*v, rows);
            }
        }
        for op in &plan.prologue {
            self.clone_op(op, &block, &mut map)?;
        }
        let channels = channels.mapped(&map);
        if plan.split.is_some() {
            // The half-tile descriptors, made once (not per tile).
            for op in shape::epilogue(plan).iter().filter(|o| name_of(o) == "tt.descriptor_store") {
                let store = DescriptorStoreOp::of(*op).expect("a descriptor store");
                if plan.is_split(store.src()) {
                    self.half_descriptor(&at, store.desc(), &map)?;
                }
            }
        }
        let zero = b.constant(&at, b.i32_type(), 0);
        if plan.persistent() {
            let cell = std::cell::RefCell::new(&mut self);
            let tiles = tile_loop(
                b,
                plan,
                &at,
                &mut map,
                zero,
                |ops, body, map| {
                    for op in ops {
                        cell.borrow_mut().clone_op(op, body, map).expect("a scalar op");
                    }
                },
                |at, map, it| cell.borrow_mut().kloop(&channels, at, map, it),
                |ops, body, map| {
                    for op in ops {
                        cell.borrow_mut().clone_op(op, body, map)?;
                    }
                    Ok(())
                },
            )?;
            // The code after the loop may use what the tile loop carries.
            for r in 0..plan.marked.result_count() {
                map.map(plan.marked.result(r).unwrap().into(), tiles.result(r).unwrap().into());
            }
        } else {
            self.kloop(&channels, &at, &mut map, zero)?;
        }
        for op in after_loop {
            self.clone_op(op, &block, &mut map)?;
        }
        b.op(&at, "ttg.warp_return", &[], &[], &[]);
        for constant in cloned_constants {
            if !crate::ssa::has_uses(constant.result(0).unwrap().into()) {
                crate::ir::erase(constant);
            }
        }
        Ok(())
    }

    /// `original` as this group sees it at the end of `block`: a split
    /// constant made from before the loop becomes its half-row splat.
    fn operand<'a>(
        &mut self,
        at: &At<'c, 'a>,
        original: Value<'c, '_>,
        map: &ValueMap,
    ) -> Result<Value<'c, 'a>, String> {
        let from_constant = crate::ssa::defining_op(original).is_some_and(|d| name_of(&d) == "arith.constant");
        if self.plan.is_split(original) && from_constant {
            return self.half_constant(at, original);
        }
        Ok(unsafe { Value::from_raw(map.lookup(original).to_raw()) })
    }

    /// The consumer's loop: per iteration, wait until the slot is full, run
    /// the loop's ops but the loads on the slot's tiles (this group's rows
    /// of the split ones), release the slot. It carries what the original
    /// loop carries (this group's rows of it) and the counter. Maps the
    /// original loop's results; returns the counter after the loop.
    fn kloop<'a>(
        &mut self,
        channels: &Channels<'c, '_>,
        at: &At<'c, 'a>,
        map: &mut ValueMap,
        it: Value<'c, '_>,
    ) -> Result<Value<'c, 'a>, String> {
        let b = self.b;
        let k = &self.plan.kloop;
        let i32 = b.i32_type();
        let mut inits = Vec::new();
        for i in 3..k.lp.operand_count() {
            inits.push(self.operand(at, k.lp.operand(i).unwrap(), map)?);
        }
        inits.push(unsafe { Value::from_raw(it.to_raw()) });
        let (lp, body) = new_loop(b, at, &k.lp, map, &inits);
        no_pipelining(b, &lp);
        let carried = k.lp.result_count();
        for i in 0..carried {
            map.map(k.body.argument(1 + i).unwrap().into(), body.argument(1 + i).unwrap().into());
        }
        let ops = block_ops(&k.body);
        clone_scalars(&ops, &body, map);
        let inside = At::End(body);
        let it = body.argument(1 + carried).unwrap().into();
        let (slot, phase) = slot_and_phase(b, &inside, it, channels.stages);
        let full_slot = b.index(&inside, channels.full, slot, channels.barrier_type);
        b.wait(&inside, full_slot, phase);
        for ((_, alloc), ring) in k.loads.iter().zip(&channels.rings) {
            let mut tile = b.index(&inside, ring.buffer, slot, ring.tile_type);
            if self.plan.is_split(alloc.result(0).unwrap().into()) {
                tile = self.rows_of(&inside, tile, self.rows());
            }
            map.map(alloc.result(0).unwrap().into(), tile);
        }
        for op in &ops {
            if shape::is_scalar_op(op) || k.is_producer_op(op) || name_of(op) == "scf.yield" {
                continue;
            }
            self.clone_op(op, &body, map)?;
        }
        let empty_slot = b.index(&inside, channels.empty, slot, channels.barrier_type);
        b.op(&inside, "ttng.arrive_barrier", &[empty_slot], &[], &[("count", b.int_attr(i32, 1))]);
        let one = b.constant(&inside, i32, 1);
        let next = b.value(&inside, "arith.addi", &[it, one], i32);
        let yield_op = k.body.terminator().unwrap();
        let mut yielded: Vec<Value> = (0..carried).map(|i| map.lookup(yield_op.operand(i).unwrap())).collect();
        yielded.push(next);
        b.op(&inside, "scf.yield", &yielded, &[], &[]);
        for i in 0..carried {
            map.map(k.lp.result(i).unwrap().into(), lp.result(i).unwrap().into());
        }
        Ok(lp.result(carried).unwrap().into())
    }

    /// This group's rows of a shared-memory tile: `ttg.memdesc_subslice`.
    fn rows_of<'a>(&self, at: &At<'c, 'a>, tile: Value<'c, '_>, rows: i64) -> Value<'c, 'a> {
        let b = self.b;
        let memdesc = MemDesc::of(tile.r#type()).unwrap();
        let shape: Vec<String> = memdesc.shape.iter().map(|d| d.to_string()).collect();
        let mut half_shape = shape.clone();
        half_shape[0] = (rows / 2).to_string();
        let ty = b.ty(&format!(
            "!ttg.memdesc<{}x{}, {}, #ttg.shared_memory, {}>",
            half_shape.join("x"),
            memdesc.element_type,
            memdesc.encoding,
            shape.join("x")
        ));
        let offsets = [(self.group * rows / 2) as i32, 0];
        let offsets = DenseI32ArrayAttribute::new(b.context, &offsets[..memdesc.shape.len().min(2)]).into();
        b.op(at, "ttg.memdesc_subslice", &[tile], &[ty], &[("offsets", offsets)]).result(0).unwrap().into()
    }

    /// A split splat constant with half the rows, made once per block.
    fn half_constant<'a>(&mut self, at: &At<'c, 'a>, original: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let block = match at {
            At::End(block) => block.to_raw().ptr as usize,
            At::Before(op) => op.block().map_or(0, |b| b.to_raw().ptr as usize),
        };
        if let Some(made) = self.half_constants.get(&(value_key(original), block)) {
            return Ok(unsafe { Value::from_raw(*made) });
        }
        let b = self.b;
        let constant = crate::ssa::defining_op(original).ok_or("a split constant that is not one")?;
        let value = constant.attribute("value").map_err(|_| "a constant without a value")?;
        let half_type = self.half(original.r#type()).ok_or("a split constant without the tile's rows")?;
        let text =
            shape::halved_type_text(&value.to_string(), self.rows()).ok_or("a split constant that is not a splat")?;
        let half_value = Attribute::parse(b.context, &text).ok_or("a split constant that is not a splat")?;
        let result: Value =
            b.op(at, "arith.constant", &[], &[half_type], &[("value", half_value)]).result(0).unwrap().into();
        self.half_constants.insert((value_key(original), block), result.to_raw());
        Ok(unsafe { Value::from_raw(result.to_raw()) })
    }

    /// Clones an op the consumers run into `block`. With a row split, what
    /// the split reaches gets half the rows: split constants from before
    /// the loop as their half-row splats, ranges starting at this group's
    /// first row, descriptor stores of a split tile through a half-tile
    /// descriptor at this group's first row.
    fn clone_op(
        &mut self,
        op: &OperationRef<'c, '_>,
        block: &BlockRef<'c, '_>,
        map: &mut ValueMap,
    ) -> Result<(), String> {
        let plan = self.plan;
        let results_split = (0..op.result_count()).any(|r| plan.is_split(op.result(r).unwrap().into()));
        let at = At::End(*block);
        if name_of(op) == "arith.constant" && results_split {
            let half = self.half_constant(&at, op.result(0).unwrap().into())?;
            map.map(op.result(0).unwrap().into(), half);
            return Ok(());
        }
        for i in 0..op.operand_count() {
            let operand = op.operand(i).unwrap();
            let from_constant = crate::ssa::defining_op(operand)
                .is_some_and(|d| name_of(&d) == "arith.constant" && !crate::ssa::is_ancestor(op, d));
            if from_constant && plan.is_split(operand) {
                let half = self.half_constant(&at, operand)?;
                map.map(operand, half);
            }
        }
        let clone = block.append_operation(clone_with(op, map));
        let store = DescriptorStoreOp::of(*op).filter(|s| name_of(s) == "tt.descriptor_store");
        if let Some(store) = store.filter(|s| plan.is_split(s.src())) {
            let at = At::Before(clone);
            let descriptor = self.half_descriptor(&at, store.desc(), map)?;
            crate::ssa::set_operand(&clone, DescriptorStoreOp::DESC_INDEX, descriptor);
            if self.group > 0 {
                // The first coordinate is the row.
                let clone = DescriptorStoreOp::of(clone).expect("a clone of a descriptor store");
                let row = clone.indices()[0];
                let offset = self.b.constant(&at, row.r#type(), self.group * self.rows() / 2);
                let first_row = self.b.value(&at, "arith.addi", &[row, offset], row.r#type());
                crate::ssa::set_operand(&clone, DescriptorStoreOp::INDICES_INDEX, first_row);
            }
            return Ok(());
        }
        for r in 0..op.result_count() {
            let result: Value = clone.result(r).unwrap().into();
            if plan.is_split(op.result(r).unwrap().into()) {
                let half = self
                    .half(result.r#type())
                    .ok_or_else(|| format!("'{}' does not keep the tile's rows", name_of(op)))?;
                crate::ir::set_type(result, half);
            }
            map.map(op.result(r).unwrap().into(), result);
        }
        if name_of(op) == "tt.make_range" && results_split {
            let start = crate::ir::int_attribute(op, "start").unwrap_or(0) + self.group * self.rows() / 2;
            let i32 = self.b.i32_type();
            set_attribute(&clone, "start", self.b.int_attr(i32, start));
            set_attribute(&clone, "end", self.b.int_attr(i32, start + self.rows() / 2));
        }
        Ok(())
    }

    /// The device-side descriptor `original` again, with a box of half the
    /// rows (made once per partition).
    fn half_descriptor<'a>(
        &mut self,
        at: &At<'c, 'a>,
        original: Value<'c, '_>,
        map: &ValueMap,
    ) -> Result<Value<'c, 'a>, String> {
        if let Some(made) = self.descriptors.get(&value_key(original)) {
            return Ok(unsafe { Value::from_raw(*made) });
        }
        let make = crate::ssa::defining_op(original).ok_or("a descriptor argument")?;
        let clone = match at {
            At::Before(op) => insert_before(op, clone_with(&make, map)),
            At::End(block) => block.append_operation(clone_with(&make, map)),
        };
        let result: Value = clone.result(0).unwrap().into();
        let half = self.half(result.r#type()).ok_or("the descriptor's box is not the tile's")?;
        crate::ir::set_type(result, half);
        self.descriptors.insert(value_key(original), result.to_raw());
        Ok(result)
    }
}

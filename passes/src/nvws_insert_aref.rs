//! `nvws-insert-aref` (upstream's flag): in each `tt.warp_specialize` loop
//! whose ops carry partitions (`ttg.partition`), every value one partition
//! produces and another uses is passed through an aref, a one-slot
//! shared-memory buffer with put/get handshakes:
//!
//! - the producer, right after making the value (or, for a loop-carried
//!   value, at the top of the body), does `put.enter`, stores the value into
//!   the buffer (`ttg.local_store`; a TMA load lands there directly as
//!   `nvws.descriptor_load`; a `ttg.local_alloc` becomes a store) and
//!   `put.exit`;
//! - each consumer partition, before its first use, does `get.enter`, reads
//!   the buffer (`ttg.local_load`, `tt.unsplat` for scalars, or uses the
//!   buffer itself in place of a `ttg.local_alloc`) and `get.exit` after the
//!   read (or after its last use of the buffer), the exit listing the async
//!   kinds of the consumers (`wgmma`, `tc5mma`, else `none`).
//!
//! Scalars travel as one-element tensors. Enter and exit ops take the
//! stage/cluster of the uses they guard when the loop has a schedule.
//! Global loads feeding a shared buffer (cp.async producers) are refused, as
//! upstream does not support them either.
use crate::ir::{collect_ops, create, enclosing_int_attribute, enclosing_module, fail, module_functions, name_of};
use crate::ir::{tensor_parts, tensor_type, Order};
use crate::partition_attrs::{has_partition, partition_ids, partition_outputs, set_partition, stage_cluster, Ids};
use crate::partition_attrs::{Placement, WARP_SPECIALIZE};
use crate::ssa::{defining_op, uses, Use};
use crate::tritongpu_pipeline::loops::FIRST_INIT;
use crate::tritongpu_pipeline::schedule::Schedule;
use melior::ir::{
    attribute::{ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, BlockRef, Location, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use std::collections::{BTreeMap, HashSet};
use tritium_dialects::{
    ir::{
        ancestor_in_block, argument_number, block_arguments, block_ops, context_of, erase, insert_before, op_key,
        set_operand,
    },
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
    types::{shared_memory_space, MemDesc},
    views::{ArefCreateOp, LocalAllocOp},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvws-insert-aref",
    description: "Pass values between the partitions of warp-specialized loops through arefs (put/get handshakes \
                  on shared-memory buffers)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(root: OperationRef, _options: &PassOptions) -> PassResult {
    let module = enclosing_module(root).unwrap_or(root);
    for module in std::iter::once(module).chain(tritium_dialects::ir::nested_modules(module)) {
        for function in module_functions(module) {
            insert_in_function(function)?;
        }
    }
    Ok(())
}

/// A place in a pipelined loop: `loop.stage` and `loop.cluster`.
type StageCluster = Option<(i64, i64)>;

/// A value some partitions produce.
#[derive(Clone)]
struct Produced<'c, 'a> {
    partitions: Ids,
    value: Value<'c, 'a>,
}

/// Where the producer's put goes.
#[derive(Clone, Copy)]
enum PutAt<'c, 'a> {
    Before(OperationRef<'c, 'a>),
    After(OperationRef<'c, 'a>),
    /// At the top of a block (before its first op, which stays put).
    Top(BlockRef<'c, 'a>),
}

impl<'c, 'a> PutAt<'c, 'a> {
    /// The op the put ops go before, in order.
    fn anchor(self) -> Option<OperationRef<'c, 'a>> {
        match self {
            PutAt::Before(op) => Some(op),
            PutAt::After(op) => op.next_in_block(),
            PutAt::Top(block) => block.first_operation(),
        }
    }
}

fn insert_in_function(function: OperationRef) -> PassResult {
    let loops: Vec<_> = collect_ops(function, Order::Post)
        .into_iter()
        .filter(|op| name_of(op) == "scf.for" && op.attribute(WARP_SPECIALIZE).is_ok())
        .collect();
    for lp in loops {
        let mut pass = Insertion { lp, erased: HashSet::new() };
        pass.run()?;
    }
    Ok(())
}

struct Insertion<'c, 'a> {
    /// The warp-specialized loop.
    lp: OperationRef<'c, 'a>,
    /// Ops erased so far (the walks below go over snapshots).
    erased: HashSet<usize>,
}

impl<'c: 'a, 'a> Insertion<'c, 'a> {
    fn run(&mut self) -> PassResult {
        // Loop-carried values: the producer's value of this iteration goes
        // to the consumers of the next one (or the initial value to the
        // first).
        let mut fors: Vec<_> =
            collect_ops(self.lp, Order::Post).into_iter().filter(|op| name_of(op) == "scf.for").collect();
        fors.push(self.lp);
        for lp in fors {
            let body = lp.region(0).unwrap().first_block().unwrap();
            let arguments = block_arguments(&body);
            for argument in arguments.iter().skip(1) {
                if !is_tensor_or_scalar(argument.r#type()) {
                    continue;
                }
                let outputs =
                    partition_outputs(&lp).ok_or_else(|| fail(&lp, "scf.for without a valid ttg.partition.outputs"))?;
                let position = argument_number(*argument).unwrap() - 1;
                let partitions = outputs.get(position).cloned().unwrap_or_default();
                self.insert_arefs(&body, Produced { partitions, value: *argument }, PutAt::Top(body))?;
            }
        }

        // Shared-memory buffers first (a TMA load's alloc, or any
        // local_alloc), so that a TMA load read both from shared memory and
        // in registers goes through the buffer once.
        let memory_ops: Vec<_> = collect_ops(self.lp, Order::Post)
            .into_iter()
            .filter(|op| op.result_count() > 0 && name_of(op) == "ttg.local_alloc")
            .collect();
        for op in memory_ops {
            if self.erased.contains(&op_key(&op)) {
                continue;
            }
            let block = op.block().unwrap();
            for produced in produced_values(&op) {
                self.insert_arefs(&block, produced, PutAt::Before(op))?;
            }
        }

        for op in collect_ops(self.lp, Order::Post) {
            if self.erased.contains(&op_key(&op)) || is_blackwell_only(&op) {
                continue;
            }
            let block = op.block().unwrap();
            for produced in produced_values(&op) {
                self.insert_arefs(&block, produced, PutAt::After(op))?;
            }
        }
        Ok(())
    }

    /// Passes `produced` to its consumer partitions; `false` when none
    /// uses it.
    fn insert_arefs(
        &mut self,
        block: &BlockRef<'c, 'a>,
        produced: Produced<'c, 'a>,
        put_at: PutAt<'c, 'a>,
    ) -> PassResult {
        let mut results: BTreeMap<i32, Vec<Value<'c, 'a>>> = BTreeMap::new();
        let mut consumer_uses: BTreeMap<i32, Vec<Use<'c, 'a>>> = BTreeMap::new();
        let mut collect = |value: Value<'c, 'a>| {
            for value_use in uses(value) {
                if !has_partition(&value_use.owner) {
                    continue; // A use outside the warp-specialized code.
                }
                let Some(mut partitions) = use_partitions(&value_use) else { continue };
                partitions.retain(|p| !produced.partitions.contains(p));
                for partition in partitions {
                    let values = results.entry(partition).or_default();
                    if !values.contains(&value) {
                        values.push(value);
                    }
                    consumer_uses.entry(partition).or_default().push(value_use);
                }
            }
        };
        collect(produced.value);
        if let Some((alloc, _)) = tma_load_and_alloc(produced.value) {
            // The loaded tensor may also be read in registers.
            collect(LocalAllocOp::of(alloc).and_then(|a| a.src()).expect("an alloc of a load"));
        }
        if results.is_empty() {
            return Ok(());
        }

        let aref = self.create_aref(&produced)?;
        let stale = self.create_put(aref, &produced, put_at)?;
        for (partition, values) in &results {
            let uses_here = &consumer_uses[partition];
            let earliest = earliest_user(block, uses_here)
                .ok_or_else(|| fail(&self.lp, "a consumer outside the producer's block"))?;
            self.create_get(earliest, aref, values, *partition, uses_here)?;
        }
        for op in stale {
            self.erased.insert(op_key(&op));
            erase(op);
        }
        Ok(())
    }

    /// `ttg.local_alloc` of one slot for the value and `nvws.aref.create`
    /// over it, before the loop.
    fn create_aref(&self, produced: &Produced<'c, 'a>) -> Result<Value<'c, 'a>, PassFailed> {
        let value = produced.value;
        let location = value.location();
        let lp = self.lp;
        let memdesc = match defining_op(value) {
            Some(def) if name_of(&def) == "ttg.local_alloc" => {
                MemDesc::of(value.r#type()).ok_or_else(|| fail(&def, "local_alloc of no memdesc"))?
            }
            def if tensor_parts(value.r#type()).is_some() => {
                let encoding = match def {
                    Some(def) if crate::tritongpu_pipeline::tma::is_tma_load(&def) => {
                        crate::tritongpu_pipeline::tma::descriptor_encoding(&def)
                    }
                    Some(def) => crate::tritongpu_pipeline::shared::shared_encoding_of_load(&def),
                    None => crate::tritongpu_pipeline::shared::unswizzled_shared(value.r#type(), location),
                };
                let encoding = encoding.ok_or_else(|| fail(&lp, format!("no shared layout for {}", value.r#type())))?;
                buffer_of(value.r#type(), encoding, location)?
            }
            _ if is_scalar(value.r#type()) => {
                let tensor = one_element_tensor(&lp, value.r#type())?;
                let encoding = crate::tritongpu_pipeline::shared::unswizzled_shared(tensor, location)
                    .ok_or_else(|| fail(&lp, "no shared layout for a one-element tensor"))?;
                buffer_of(tensor, encoding, location)?
            }
            _ => return Err(fail(&lp, format!("cannot pass a value of type {} between partitions", value.r#type()))),
        };
        if memdesc.memory_space != shared_memory_space(context_of(location)) {
            return Err(fail(&lp, "arefs over tensor memory are Blackwell-only; Tritium does not insert them"));
        }
        let mut shape = vec![1];
        shape.extend_from_slice(&memdesc.shape);
        let slot = MemDesc { alloc_shape: shape.clone(), shape, mutable: true, ..memdesc };
        let slot_type = slot.to_type(location).ok_or_else(|| fail(&lp, "cannot build the aref buffer type"))?;
        let alloc = insert_before(&lp, create("ttg.local_alloc", location, &[], &[slot_type], &[]));
        let aref_type = Type::parse(context_of(location), &format!("!nvws.aref<[{slot_type}]>"))
            .ok_or_else(|| fail(&lp, "cannot build the aref type"))?;
        let aref = insert_before(
            &lp,
            create("nvws.aref.create", location, &[alloc.result(0).unwrap().into()], &[aref_type], &[]),
        );
        Ok(aref.result(0).unwrap().into())
    }

    /// The producer's `put.enter`, write and `put.exit`; returns the ops the
    /// write replaces (to erase once the consumers are rewired).
    fn create_put(
        &self,
        aref: Value<'c, 'a>,
        produced: &Produced<'c, 'a>,
        put_at: PutAt<'c, 'a>,
    ) -> Result<Vec<OperationRef<'c, 'a>>, PassFailed> {
        let value = produced.value;
        let location = value.location();
        let anchor = put_at.anchor().ok_or_else(|| fail(&self.lp, "nowhere to put the aref put"))?;
        let slot = slot_type(aref, true, location)?;
        let producer: Ids = produced.partitions.iter().next().copied().into_iter().collect();
        let placement =
            Placement { partitions: Some(producer.clone()), stage_cluster: producer_stage_cluster(value), tag: None };
        let place = |op: melior::ir::Operation<'c>| -> OperationRef<'c, 'a> {
            let op = insert_before(&anchor, op);
            placement.apply(&op);
            op
        };
        let token_type = tritium_dialects::types::async_token(context_of(location));
        let enter = place(create(
            "nvws.aref.put.enter",
            location,
            &[aref],
            &[slot, token_type],
            &[("operandSegmentSizes", tritium_dialects::ir::dense_i32_array(location, &[1, 0, 0]))],
        ));
        let buffer: Value = enter.result(0).unwrap().into();
        let token: Value = enter.result(1).unwrap().into();
        let mut kind = "none";
        let mut stale = Vec::new();
        let def = defining_op(value);
        if let Some((alloc, load)) = tma_load_and_alloc(value) {
            self.tma_load_into(&load, buffer, &producer, &anchor)?;
            kind = "tma_load";
            stale = vec![alloc, load];
        } else if let Some(alloc) = def.and_then(LocalAllocOp::of) {
            let def = alloc.op();
            if alloc.src().and_then(defining_op).is_some_and(|l| name_of(&l) == "tt.load" && same_partitions(&l, &def))
            {
                return Err(fail(&def, "a global load into shared memory (cp.async) cannot be passed through an aref"));
            }
            let source = alloc.src().ok_or_else(|| fail(&def, "a local_alloc without a value to pass"))?;
            place(create("ttg.local_store", location, &[source, buffer], &[], &[]));
            stale = vec![def];
        } else if tensor_parts(value.r#type()).is_some() {
            match def {
                Some(load) if crate::tritongpu_pipeline::tma::is_tma_load(&load) => {
                    self.tma_load_into(&load, buffer, &producer, &anchor)?;
                    kind = "tma_load";
                    stale = vec![load];
                }
                Some(load) if name_of(&load) == "tt.load" => {
                    return Err(fail(&load, "a global load (cp.async) cannot be passed through an aref"));
                }
                _ => {
                    place(create("ttg.local_store", location, &[value, buffer], &[], &[]));
                }
            }
        } else {
            let tensor = one_element_tensor(&self.lp, value.r#type())?;
            let splat: Value = place(create("tt.splat", location, &[value], &[tensor], &[])).result(0).unwrap().into();
            place(create("ttg.local_store", location, &[splat, buffer], &[], &[]));
        }
        place(create(
            "nvws.aref.put.exit",
            location,
            &[aref, token],
            &[],
            &[("async_ops", async_ops(location, &[kind])?)],
        ));
        Ok(stale)
    }

    /// The TMA load `load` as an `nvws.descriptor_load` into `buffer`.
    fn tma_load_into(
        &self,
        load: &OperationRef<'c, 'a>,
        buffer: Value<'c, 'a>,
        producer: &Ids,
        anchor: &OperationRef<'c, 'a>,
    ) -> PassResult {
        if name_of(load) != "tt.descriptor_load" {
            return Err(fail(load, "only tt.descriptor_load is passed through an aref (gathers are not yet)"));
        }
        let bytes = crate::tritongpu_pipeline::tma::tile_bytes(load)?;
        let location = load.location();
        let context = context_of(location);
        let mut operands: Vec<Value> = load.operands().collect();
        operands.push(buffer);
        let mut attributes: Vec<(String, Attribute)> = load
            .attributes()
            .map(|(name, value)| (name.as_string_ref().as_str().unwrap_or("").to_string(), value))
            .collect();
        attributes.retain(|(name, _)| name != "txCount");
        attributes.push(("txCount".into(), IntegerAttribute::new(IntegerType::new(context, 32).into(), bytes).into()));
        let attributes: Vec<(&str, Attribute)> = attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let new = insert_before(anchor, create("nvws.descriptor_load", location, &operands, &[], &attributes));
        set_partition(&new, producer);
        Ok(())
    }

    /// A consumer partition's `get.enter`, read and `get.exit`, before the
    /// earliest of its uses, which then read the buffer.
    fn create_get(
        &self,
        earliest: OperationRef<'c, 'a>,
        aref: Value<'c, 'a>,
        values: &[Value<'c, 'a>],
        partition: i32,
        consumer_uses: &[Use<'c, 'a>],
    ) -> PassResult {
        let location = values[0].location();
        let consumer: Ids = [partition].into_iter().collect();
        let schedule = Schedule::deserialize(&self.lp);
        let (enter_stage, exit_stage) = match &schedule {
            Some(schedule) => self.enter_exit_stage_clusters(values, partition, schedule)?,
            None => (None, None),
        };
        let at = |stage_cluster| Placement { partitions: Some(consumer.clone()), stage_cluster, tag: None };
        let token_type = tritium_dialects::types::async_token(context_of(location));
        let slot = slot_type(aref, false, location)?;
        let enter = insert_before(
            &earliest,
            create(
                "nvws.aref.get.enter",
                location,
                &[aref],
                &[slot, token_type],
                &[("operandSegmentSizes", tritium_dialects::ir::dense_i32_array(location, &[1, 0, 0]))],
            ),
        );
        at(enter_stage).apply(&enter);
        let buffer: Value = enter.result(0).unwrap().into();
        let token: Value = enter.result(1).unwrap().into();
        let consumers = transitive_consumers(values, &consumer);
        if consumers.is_empty() {
            return Err(fail(&enter, "an aref value without consumers in its partition"));
        }
        let kinds = consumer_kinds(&consumers);
        let mut last = enter;
        let mut exit_after: Option<OperationRef> = None;
        for value in values {
            match defining_op(*value).filter(|d| name_of(d) == "ttg.local_alloc") {
                Some(alloc) => {
                    // Users of the alloc read the aref buffer instead (views
                    // of it become immutable like it).
                    let allocated: Value = alloc.result(0).unwrap().into();
                    for alloc_use in uses(allocated) {
                        set_operand(&alloc_use.owner, alloc_use.index, buffer);
                    }
                    retype_views(buffer, &consumer)?;
                }
                None if tensor_parts(value.r#type()).is_some() => {
                    let load =
                        insert_after(&last, create("ttg.local_load", location, &[buffer], &[value.r#type()], &[]));
                    at(enter_stage).apply(&load);
                    last = load;
                    let loaded: Value = load.result(0).unwrap().into();
                    replace_consumer_uses(consumer_uses, *value, loaded);
                    if tritium_dialects::ir::uses(buffer).len() == 1 {
                        exit_after = Some(load);
                    }
                }
                None => {
                    let tensor = one_element_tensor(&self.lp, value.r#type())?;
                    let load = insert_after(&last, create("ttg.local_load", location, &[buffer], &[tensor], &[]));
                    at(enter_stage).apply(&load);
                    let scalar = insert_after(
                        &load,
                        create("tt.unsplat", location, &[load.result(0).unwrap().into()], &[value.r#type()], &[]),
                    );
                    at(enter_stage).apply(&scalar);
                    last = scalar;
                    for consumer_use in consumer_uses {
                        set_operand(&consumer_use.owner, consumer_use.index, scalar.result(0).unwrap().into());
                    }
                    exit_after = Some(load);
                }
            }
        }
        let exit_after = match exit_after {
            Some(op) => op,
            None => nearest_common_post_dominator(&consumers)
                .ok_or_else(|| fail(&enter, "the consumers of an aref value have no common post-dominator"))?,
        };
        let exit = insert_after(
            &exit_after,
            create("nvws.aref.get.exit", location, &[aref, token], &[], &[("async_ops", async_ops(location, &kinds)?)]),
        );
        at(exit_stage).apply(&exit);
        Ok(())
    }

    /// Upstream `getEnterAndExitStageClustersOfUses`: the stage/cluster of
    /// the first and the last use of the values in `partition` (for a
    /// loop-carried value, those of the op yielding it).
    fn enter_exit_stage_clusters(
        &self,
        values: &[Value<'c, 'a>],
        partition: i32,
        schedule: &Schedule,
    ) -> Result<(StageCluster, StageCluster), PassFailed> {
        let mut ops = Vec::new();
        for value in values {
            match defining_op(*value) {
                Some(op) => ops.push(op),
                None => {
                    // A loop-carried value: the consumers wait for what the
                    // producer yielded in the previous iteration.
                    let block = tritium_dialects::ir::argument_owner(*value).unwrap();
                    let position = argument_number(*value).unwrap() - 1;
                    let yielded = block.terminator().and_then(|t| t.operand(position).ok());
                    let stage_cluster = yielded.and_then(defining_op).and_then(|d| stage_cluster(&d));
                    return Ok((stage_cluster, stage_cluster));
                }
            }
        }
        let in_partition = |op: &OperationRef| partition_ids(op).is_some_and(|ids| ids.contains(&partition));
        let mut users = Vec::new();
        for op in &ops {
            for user in crate::tritongpu_pipeline::lower_loops::top_level_users_where(op, &self.lp, in_partition) {
                if !users.contains(&user) {
                    users.push(user);
                }
            }
        }
        let key = |op: &OperationRef| -> Result<(i64, usize), PassFailed> {
            let (stage, cluster) = schedule.get(op).ok_or_else(|| fail(op, "op user not found in the schedule"))?;
            Ok((stage, schedule.position(cluster)))
        };
        // Order in the pipelined loop: stage, then cluster, then place in
        // the body.
        let mut first: Option<(OperationRef, (i64, usize))> = None;
        let mut last: Option<(OperationRef, (i64, usize))> = None;
        for user in users {
            let k = key(&user)?;
            if first.is_none_or(|(f, fk)| k < fk || (k == fk && user.is_before_in_block(f))) {
                first = Some((user, k));
            }
            if last.is_none_or(|(l, lk)| k > lk || (k == lk && l.is_before_in_block(user))) {
                last = Some((user, k));
            }
        }
        let (first, last) = (first.map(|(op, _)| op), last.map(|(op, _)| op));
        let (Some(first), Some(last)) = (first, last) else {
            return Err(fail(&self.lp, "an aref value without scheduled uses in its consumer partition"));
        };
        Ok((stage_cluster(&first), stage_cluster(&last)))
    }
}

fn is_scalar(ty: Type) -> bool {
    ty.is_integer() || ty.is_float()
}

fn is_tensor_or_scalar(ty: Type) -> bool {
    tensor_parts(ty).is_some() || is_scalar(ty)
}

/// Tensor-memory ops, which upstream's walk leaves alone.
fn is_blackwell_only(op: &OperationRef) -> bool {
    matches!(
        name_of(op).as_str(),
        "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled" | "ttng.tmem_alloc" | "ttng.tmem_store"
    )
}

fn is_view(op: &OperationRef) -> bool {
    crate::ir::MEMDESC_VIEWS.contains(&name_of(op).as_str())
}

/// Upstream `replaceUsesAndPropagateType` after a buffer's users were
/// given `buffer`: the views of it (and theirs) take the types a view of
/// `buffer` has (its mutability, its allocation), and the partitions `ids`
/// of the consumer reading it; partitions of a `ttg.warp_specialize`
/// capturing it take its type.
fn retype_views(buffer: Value, ids: &Ids) -> PassResult {
    let Some(source) = MemDesc::of(buffer.r#type()) else { return Ok(()) };
    for buffer_use in uses(buffer) {
        let user = buffer_use.owner;
        let name = name_of(&user);
        if name == "ttg.warp_specialize" {
            if let Some(partitions) =
                user.region(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation())
            {
                for region in partitions.regions() {
                    if let Some(argument) = region.first_block().map(|b| block_arguments(&b)[buffer_use.index]) {
                        tritium_dialects::ir::set_type(argument, buffer.r#type());
                    }
                }
            }
            continue;
        }
        if !is_view(&user) {
            continue;
        }
        let result: Value = user.result(0).unwrap().into();
        let old = MemDesc::of(result.r#type()).ok_or_else(|| fail(&user, "a view of no memdesc"))?;
        let retyped = match name.as_str() {
            "ttg.memdesc_index" => MemDesc { mutable: source.mutable, alloc_shape: old.shape.clone(), ..old },
            "ttg.memdesc_subslice" => MemDesc { mutable: source.mutable, ..old },
            "ttg.memdesc_trans" => {
                let order = tritium_dialects::ir::dense_i32_attribute(&user, "order").unwrap_or_default();
                let batch = source.alloc_shape.len().saturating_sub(order.len());
                let mut alloc_shape = source.alloc_shape[..batch].to_vec();
                alloc_shape.extend(order.iter().map(|&d| source.alloc_shape[batch + d as usize]));
                MemDesc { mutable: source.mutable, alloc_shape, ..old }
            }
            "ttg.memdesc_reshape" => MemDesc { mutable: source.mutable, ..old },
            _ => return Err(fail(&user, format!("cannot retarget a {name} to an aref buffer"))),
        };
        let ty = retyped.to_type(user.location()).ok_or_else(|| fail(&user, "cannot build the view type"))?;
        tritium_dialects::ir::set_type(result, ty);
        set_partition(&user, ids);
        retype_views(result, ids)?;
    }
    Ok(())
}

fn same_partitions(a: &OperationRef, b: &OperationRef) -> bool {
    partition_ids(a) == partition_ids(b)
}

/// The values `op` produces with the partitions producing each (an op's own
/// partitions, or per result for ops with regions); tokens are not passed.
fn produced_values<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Produced<'c, 'a>> {
    let Some(ids) = partition_ids(op) else { return Vec::new() };
    let outputs =
        if op.region_count() == 0 { vec![ids; op.result_count()] } else { partition_outputs(op).unwrap_or_default() };
    let mut produced = Vec::new();
    for (i, partitions) in outputs.into_iter().enumerate().take(op.result_count()) {
        let value: Value = op.result(i).unwrap().into();
        if value.r#type() == tritium_dialects::types::async_token(context_of(op.location())) {
            continue;
        }
        produced.push(Produced { partitions, value });
    }
    produced
}

/// A `ttg.local_alloc` of a TMA load in the same partitions (upstream's
/// `isDescLoadAndAlloc`): the alloc and the load.
fn tma_load_and_alloc<'c, 'a>(value: Value<'c, 'a>) -> Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)> {
    let alloc = defining_op(value).and_then(LocalAllocOp::of)?;
    let load = defining_op(alloc.src()?)?;
    (crate::tritongpu_pipeline::tma::is_tma_load(&load) && same_partitions(&alloc, &load)).then_some((alloc.op(), load))
}

/// The stage/cluster of a produced value's producer (the load, for a load
/// into a local_alloc).
fn producer_stage_cluster(value: Value) -> Option<(i64, i64)> {
    let def = defining_op(value)?;
    if let Some(alloc) = LocalAllocOp::of(def) {
        if let Some(load) = alloc.src().and_then(defining_op) {
            let is_load = crate::tritongpu_pipeline::tma::is_tma_load(&load) || name_of(&load) == "tt.load";
            if is_load && same_partitions(&load, &def) {
                return stage_cluster(&load);
            }
        }
    }
    stage_cluster(&def)
}

/// The partitions a use belongs to: the user's, or for a yield (and a
/// loop's init operand) those of the matching result.
fn use_partitions(value_use: &Use) -> Option<Ids> {
    let owner = value_use.owner;
    match name_of(&owner).as_str() {
        "scf.yield" => partition_outputs(&owner.parent_operation()?)?.get(value_use.index).cloned(),
        "scf.for" if value_use.index >= FIRST_INIT => {
            partition_outputs(&owner)?.get(value_use.index - FIRST_INIT).cloned()
        }
        _ => partition_ids(&owner),
    }
}

/// The op of `block` holding the earliest of `uses`.
fn earliest_user<'c, 'a>(block: &BlockRef<'c, 'a>, value_uses: &[Use<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    let owners: Vec<OperationRef> = value_uses.iter().filter_map(|u| ancestor_in_block(block, u.owner)).collect();
    block_ops(block).into_iter().find(|op| owners.contains(op))
}

/// The ops in `partitions` that consume `values`, looking through ops
/// making memdescs (views, and what reads through them).
fn transitive_consumers<'c, 'a>(values: &[Value<'c, 'a>], partitions: &Ids) -> Vec<OperationRef<'c, 'a>> {
    fn from_op<'c, 'a>(op: &OperationRef<'c, 'a>, partitions: &Ids, out: &mut Vec<OperationRef<'c, 'a>>) {
        for result in op.results() {
            for value_use in uses(result.into()) {
                let user = value_use.owner;
                let makes_memdesc = user.results().any(|r| MemDesc::of(r.r#type()).is_some());
                if makes_memdesc {
                    from_op(&user, partitions, out);
                } else if use_partitions(&value_use).as_ref() == Some(partitions) && !out.contains(&user) {
                    out.push(user);
                }
            }
        }
    }
    let mut consumers = Vec::new();
    for value in values {
        match defining_op(*value) {
            Some(def) => from_op(&def, partitions, &mut consumers),
            None => {
                for value_use in uses(*value) {
                    if use_partitions(&value_use).as_ref() == Some(partitions) && !consumers.contains(&value_use.owner)
                    {
                        consumers.push(value_use.owner);
                    }
                }
            }
        }
    }
    consumers
}

/// The async kinds a `get.exit` waits for, one per kind of consumer.
fn consumer_kinds(consumers: &[OperationRef]) -> Vec<&'static str> {
    let mut kinds = Vec::new();
    for consumer in consumers {
        let kind = match name_of(consumer).as_str() {
            "ttng.warp_group_dot" => "wgmma",
            "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled" => "tc5mma",
            _ => "none",
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

fn async_ops<'c>(location: Location<'c>, kinds: &[&str]) -> Result<Attribute<'c>, PassFailed> {
    let context = context_of(location);
    let mut attributes = Vec::new();
    for kind in kinds {
        let attribute = Attribute::parse(context, &format!("#nvws.async_op<{kind}>")).ok_or_else(|| {
            tritium_dialects::pass::emit_error(location, &format!("unknown async op kind {kind}"));
            PassFailed
        })?;
        attributes.push(attribute);
    }
    Ok(ArrayAttribute::new(context, &attributes).into())
}

/// Replaces the operands of `uses` that still read `old` with `new`.
fn replace_consumer_uses<'c, 'a>(consumer_uses: &[Use<'c, 'a>], old: Value<'c, 'a>, new: Value<'c, 'a>) {
    for consumer_use in consumer_uses {
        if consumer_use.owner.operand(consumer_use.index).is_ok_and(|v| v == old) {
            set_operand(&consumer_use.owner, consumer_use.index, new);
        }
    }
}

/// The shared-memory buffer type holding a tensor of type `tensor`.
pub(crate) fn buffer_of<'c>(
    tensor: Type<'c>,
    encoding: Attribute<'c>,
    location: Location<'c>,
) -> Result<MemDesc<'c>, PassFailed> {
    let (shape, element, _) = tensor_parts(tensor).ok_or(PassFailed)?;
    Ok(MemDesc {
        alloc_shape: shape.clone(),
        shape,
        element_type: element,
        encoding,
        memory_space: shared_memory_space(context_of(location)),
        mutable: false,
    })
}

/// The type of one slot of `aref`'s buffer, as its enter ops return it.
fn slot_type<'c>(aref: Value<'c, '_>, mutable: bool, location: Location<'c>) -> Result<Type<'c>, PassFailed> {
    let alloc = defining_op(aref)
        .and_then(ArefCreateOp::of)
        .and_then(|create| create.buffers().first().copied())
        .ok_or(PassFailed)?;
    let buffer = MemDesc::of(alloc.r#type()).ok_or(PassFailed)?;
    let view = MemDesc { shape: buffer.shape[1..].to_vec(), mutable, ..buffer };
    view.to_type(location).ok_or(PassFailed)
}

/// `tensor<1 x ty>` in the default blocked layout of the module, how
/// scalars travel through shared memory.
fn one_element_tensor<'c>(lp: &OperationRef<'c, '_>, ty: Type<'c>) -> Result<Type<'c>, PassFailed> {
    let warps = enclosing_int_attribute(*lp, "ttg.num-warps").ok_or_else(|| fail(lp, "no ttg.num-warps"))?;
    let threads = enclosing_int_attribute(*lp, "ttg.threads-per-warp").unwrap_or(32);
    let ctas = enclosing_int_attribute(*lp, "ttg.num-ctas").unwrap_or(1);
    let blocked = tritium_layout::default_blocked(&[1], warps as u32, threads as u32, ctas as u32)
        .map_err(|e| fail(lp, e.to_string()))?;
    let layout = tritium_dialects::layout::attribute_of(&tritium_layout::Layout::Blocked(blocked), lp.location())
        .ok_or_else(|| fail(lp, "cannot build a blocked layout"))?;
    Ok(tensor_type(&[1], ty, Some(layout)))
}

fn insert_after<'c, 'a>(after: &OperationRef<'c, 'a>, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
    after.block().expect("an op in a block").insert_operation_after(*after, op)
}

/// The op after which all of `consumers` have run (MLIR's
/// `findNearestCommonPostDominator` for structured control flow): in the
/// innermost block holding them all, the last op holding one.
fn nearest_common_post_dominator<'c, 'a>(consumers: &[OperationRef<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    let first = *consumers.first()?;
    let mut block = first.block();
    while let Some(b) = block {
        let holders: Option<Vec<OperationRef>> = consumers.iter().map(|c| ancestor_in_block(&b, *c)).collect();
        if let Some(holders) = holders {
            return block_ops(&b).into_iter().rev().find(|op| holders.contains(op));
        }
        block = b.parent_operation().and_then(|op| op.block());
    }
    None
}

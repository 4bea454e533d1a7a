//! `nvws-lower-aref` (upstream's flag): lowers arefs to mbarriers.
//!
//! 1. Arefs whose producer loads by TMA get `num-stages` buffers (their
//!    one-slot allocations replaced by multi-buffered ones), so that loads
//!    run ahead of their consumers.
//! 2. `nvws-assign-stage-phase` gives every enter/exit op its stage and
//!    phase.
//! 3. Each aref becomes two arrays of `depth` mbarriers, allocated and
//!    initialized before it, invalidated and freed after its last use:
//!    "empty" (arrival count: one per consumer partition and async kind)
//!    and "full" (one per producer partition and kind). `put.enter` waits on
//!    empty[stage], `get.enter` on full[stage]; the exits arrive on the
//!    other one (TMA loads arrive by themselves: the put then expects their
//!    bytes on full[stage] and its `nvws.descriptor_load`s become
//!    `ttng.async_tma_copy_global_to_local`). Buffers become views of
//!    slice `stage`; tokens become `ub.poison`, hoisted to the top of the
//!    function. A generic-proxy consumer of TMA-loaded data fences first.
//!
//! The greedy driver's clean-up (dead ops erased, no folding) ends the
//! pass, as upstream's rewrite runs in it. Tensor-memory arefs and tcgen05
//! consumers (Blackwell) are refused with a diagnostic.
//!
//! Before all this, arefs whose consumers first read them at the same op
//! (several TMA loads feeding one op) are combined into one, so that one
//! barrier pair serves them (upstream's `combineArefs`).
use crate::ir::Order;
use crate::ir::{
    collect_ops, create, enclosing_int_attribute, enclosing_module, erase, fail, module_functions, name_of,
};
use crate::partition_attrs::{
    has_partition, partition_ids, stage_cluster, Placement, WARP_SPECIALIZE, WARP_SPECIALIZE_TAG,
};
use crate::ssa::{defining_op, uses};
use crate::tritongpu_pipeline::builder::Builder;
use melior::ir::{
    attribute::{BoolAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use std::collections::BTreeSet;
use tritium_dialects::{
    ir::{
        ancestor_in_block, array_elements, block_ops, context_of, dense_i32_array, int_attribute, move_before,
        replace_all_uses, set_type,
    },
    pass::{OptionKind, PassDefinition, PassFailed, PassOption, PassOptions, PassResult},
    types::{async_token, shared_memory_space, MemDesc},
    views::{ArefBufferOp, ArefCreateOp, ArefEnterOp, ArefExitOp},
};
use tritium_layout::{CtaLayout, Layout, SwizzledShared};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvws-lower-aref",
    description: "Lower nvws.aref ops to mbarrier waits and arrivals on multi-buffered shared memory",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-stages",
        description: "number of pipeline stages (buffers of arefs filled by TMA loads)",
        kind: OptionKind::Int,
        default: "3",
    }],
    run,
};

fn run(root: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(root).unwrap_or(root);
    let loops: Vec<_> = collect_ops(module, Order::Pre)
        .into_iter()
        .filter(|op| name_of(op) == "scf.for" && op.attribute(WARP_SPECIALIZE).is_ok())
        .collect();
    for lp in &loops {
        combine_arefs(lp)?;
    }
    // After combining, which erased arefs.
    let tma_fed: Vec<_> = collect_ops(module, Order::Pre)
        .into_iter()
        .filter(|op| name_of(op) == "nvws.aref.create" && is_fed_by_tma(op))
        .collect();
    multi_buffer(&tma_fed, options.int("num-stages"))?;

    crate::nvws_assign_stage_phase::assign_in_module(module)?;

    for aref in collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "nvws.aref.create") {
        lower_aref(aref)?;
    }
    for module in std::iter::once(module).chain(tritium_dialects::ir::nested_modules(module)) {
        for function in module_functions(module) {
            hoist_poisons(function);
        }
    }
    if !tritium_dialects::ir::erase_dead_ops_greedily(module) {
        return Err(fail(&module, "the clean-up after lowering arefs did not converge"));
    }
    Ok(())
}

/// The async kinds listed by an exit op (`none`, `tma_load`, `wgmma`, ...).
fn async_kinds(op: &OperationRef) -> Vec<String> {
    let Some(elements) = op.attribute("async_ops").ok().and_then(array_elements) else { return Vec::new() };
    elements
        .iter()
        .map(|e| e.to_string().trim_start_matches("#nvws.async_op<").trim_end_matches('>').to_string())
        .collect()
}

fn aref_users<'c, 'a>(aref: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut users: Vec<OperationRef> = Vec::new();
    for user in uses(aref.result(0).unwrap().into()).into_iter().map(|u| u.owner) {
        if !users.contains(&user) {
            users.push(user);
        }
    }
    users
}

/// Whether a `put.enter` of `aref` has its buffers filled by TMA loads.
fn is_fed_by_tma(aref: &OperationRef) -> bool {
    aref_users(aref)
        .iter()
        .filter(|u| name_of(u) == "nvws.aref.put.enter")
        .any(|put| put.results().any(|r| uses(r.into()).iter().any(|u| is_tma_load(&u.owner))))
}

fn is_tma_load(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "nvws.descriptor_load" | "nvws.descriptor_gather")
}

/// Upstream `combineArefs`: in a warp-specialized loop, the arefs whose
/// get.enters (of one partition) are first read by the same op and whose
/// producers share a partition become one aref over all their buffers, so
/// that one barrier pair (one wait, one arrival) serves them all.
fn combine_arefs(lp: &OperationRef) -> PassResult {
    let body = lp.region(0).unwrap().first_block().unwrap();
    let mut groups: Vec<((OperationRef, i32), Vec<OperationRef>)> = Vec::new();
    for get in collect_ops(*lp, Order::Pre).into_iter().filter(|op| name_of(op) == "nvws.aref.get.enter") {
        let Some(first_sink) = first_shared_memory_sink(&get).and_then(|op| ancestor_in_block(&body, op)) else {
            continue;
        };
        let ids = partition_ids(&get).ok_or_else(|| fail(&get, "aref get.enter without ttg.partition"))?;
        if ids.len() != 1 {
            return Err(fail(&get, "an aref op in several partitions"));
        }
        let key = (first_sink, *ids.first().unwrap());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, gets)) => gets.push(get),
            None => groups.push((key, vec![get])),
        }
    }
    for (_, gets) in groups.into_iter().filter(|(_, gets)| gets.len() > 1) {
        combine_group(&gets)?;
    }
    Ok(())
}

/// The ops of each kind using the arefs of a group.
#[derive(Default)]
struct ArefOps<'c, 'a> {
    put_enters: Vec<OperationRef<'c, 'a>>,
    put_exits: Vec<OperationRef<'c, 'a>>,
    get_exits: Vec<OperationRef<'c, 'a>>,
}

fn combine_group(gets: &[OperationRef]) -> PassResult {
    let arefs: Vec<OperationRef> =
        gets.iter().map(|g| defining_op(ArefEnterOp::of(*g).expect("a get.enter").aref()).unwrap()).collect();
    let mut ops = ArefOps::default();
    let mut producers = BTreeSet::new();
    for aref in &arefs {
        for user in aref_users(aref) {
            match name_of(&user).as_str() {
                "nvws.aref.put.enter" => {
                    producers.insert(partition_ids(&user).and_then(|ids| ids.first().copied()));
                    ops.put_enters.push(user);
                }
                "nvws.aref.put.exit" => ops.put_exits.push(user),
                "nvws.aref.get.exit" => ops.get_exits.push(user),
                _ => {}
            }
        }
    }
    // Producers in different partitions could not share a barrier.
    if producers.len() > 1 {
        return Ok(());
    }
    let buffers: Vec<Value> =
        arefs.iter().map(|a| ArefCreateOp::of(*a).expect("an aref.create").buffers()[0]).collect();
    let block = arefs[0].block().unwrap();
    let last_aref = block_ops(&block).into_iter().rev().find(|op| arefs.contains(op)).unwrap();
    let types: Vec<String> = buffers.iter().map(|b| b.r#type().to_string()).collect();
    let location = last_aref.location();
    let aref_type = Type::parse(context_of(location), &format!("!nvws.aref<[{}]>", types.join(", ")))
        .ok_or_else(|| fail(&last_aref, "cannot build the aref type"))?;
    let aref = tritium_dialects::ir::insert_before(
        &last_aref,
        create("nvws.aref.create", location, &buffers, &[aref_type], &[]),
    );
    let aref: Value = aref.result(0).unwrap().into();

    let put_exit = combine_enters_and_exits(&ops.put_enters, &ops.put_exits, aref, None)?;
    combine_enters_and_exits(gets, &ops.get_exits, aref, Some(put_exit))?;
    for op in
        ops.put_exits.into_iter().chain(ops.put_enters).chain(ops.get_exits).chain(gets.iter().copied()).chain(arefs)
    {
        erase(op);
    }
    Ok(())
}

/// One enter and one exit on the combined `aref` for `enters` and `exits`
/// (all in one block): the enter where the first enter was (or right after
/// `after`), the exit where the last exit was, listing every async kind of
/// the exits. Users of the old enters that came before the new enter move
/// after it. Returns the new exit.
fn combine_enters_and_exits<'c, 'a>(
    enters: &[OperationRef<'c, 'a>],
    exits: &[OperationRef<'c, 'a>],
    aref: Value<'c, 'a>,
    after: Option<OperationRef<'c, 'a>>,
) -> Result<OperationRef<'c, 'a>, PassFailed> {
    let block = enters[0].block().unwrap();
    let in_order = block_ops(&block);
    let first_enter = *in_order.iter().find(|op| enters.contains(op)).ok_or(PassFailed)?;
    let exit_block =
        exits.first().and_then(|e| e.block()).ok_or_else(|| fail(&first_enter, "aref enter without exit"))?;
    let last_exit = block_ops(&exit_block).into_iter().rev().find(|op| exits.contains(op)).ok_or(PassFailed)?;
    let mut kinds: Vec<Attribute> = Vec::new();
    for exit in exits {
        for kind in exit.attribute("async_ops").ok().and_then(array_elements).unwrap_or_default() {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    let aref_op = defining_op(aref).unwrap();
    let zero = Builder::after(aref_op).constant_i32(0);
    placement_of(&first_enter).apply(&defining_op(zero).unwrap());
    let mut result_types: Vec<Type> = enters.iter().map(|e| e.result(0).unwrap().r#type()).collect();
    result_types.push(async_token(context_of(first_enter.location())));
    let segments = dense_i32_array(first_enter.location(), &[1, 1, 1]);
    let mut enter_builder = match after {
        Some(op) => Builder::after(op),
        None => Builder::before(first_enter),
    };
    enter_builder.location = first_enter.location();
    let enter = enter_builder.create(
        &name_of(&first_enter),
        &[aref, zero, zero],
        &result_types,
        &[("operandSegmentSizes", segments)],
    );
    placement_of(&first_enter).apply(&enter);
    let token: Value = enter.result(enters.len()).unwrap().into();
    let context = context_of(first_enter.location());
    let mut exit_builder = Builder::before(last_exit);
    exit_builder.location = first_enter.location();
    let exit = exit_builder.create(
        &name_of(&last_exit),
        &[aref, token, zero],
        &[],
        &[("async_ops", melior::ir::attribute::ArrayAttribute::new(context, &kinds).into())],
    );
    placement_of(&last_exit).apply(&exit);
    for (index, old) in enters.iter().enumerate() {
        move_users_after(old, &enter);
        replace_all_uses(old.result(0).unwrap().into(), enter.result(index).unwrap().into());
    }
    Ok(exit)
}

/// Moves the users of `op` (their ops in `target`'s block) that come before
/// `target` right after it, and theirs after them in turn.
fn move_users_after(op: &OperationRef, target: &OperationRef) {
    let block = target.block().unwrap();
    for result in op.results() {
        for user in uses(result.into()).into_iter().map(|u| u.owner) {
            let Some(holder) = ancestor_in_block(&block, user) else { continue };
            if holder.is_before_in_block(*target) {
                tritium_dialects::ir::move_after(&holder, target);
                move_users_after(&holder, &holder);
            }
        }
    }
}

/// The first op (in program order, through views) reading the first buffer
/// of `get` from shared memory: a `ttg.local_load` or an MMA.
fn first_shared_memory_sink<'c, 'a>(get: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    fn sinks<'c, 'a>(value: Value<'c, 'a>, out: &mut Vec<OperationRef<'c, 'a>>) {
        for user in uses(value).into_iter().map(|u| u.owner) {
            match name_of(&user).as_str() {
                "ttg.local_load" | "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled" => out.push(user),
                name if crate::ir::MEMDESC_VIEWS.contains(&name) => sinks(user.result(0).unwrap().into(), out),
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    sinks(get.result(0).ok()?.into(), &mut found);
    let block = found.first()?.block()?;
    // Structured code: the sinks' nearest common dominator is the first op,
    // in the innermost block holding them all, that holds one.
    let mut holder_block = Some(block);
    while let Some(b) = holder_block {
        let holders: Option<Vec<OperationRef>> = found.iter().map(|s| ancestor_in_block(&b, *s)).collect();
        if let Some(holders) = holders {
            return block_ops(&b).into_iter().find(|op| holders.contains(op));
        }
        holder_block = b.parent_operation().and_then(|op| op.block());
    }
    None
}

/// Upstream `multiBufferAref`: the buffers of `arefs` (one-slot
/// allocations) become `num_stages`-deep allocations.
fn multi_buffer(arefs: &[OperationRef], num_stages: i64) -> PassResult {
    for aref in arefs {
        let buffers: Vec<Value> = aref.operands().collect();
        let allocs: Option<Vec<OperationRef>> =
            buffers.iter().map(|b| defining_op(*b).filter(|d| name_of(d) == "ttg.local_alloc")).collect();
        // Buffers from elsewhere (arguments, tensor memory) stay as they are.
        let Some(allocs) = allocs else { continue };
        let mut new_buffers = Vec::new();
        for (buffer, alloc) in buffers.iter().zip(&allocs) {
            let old = MemDesc::of(buffer.r#type()).ok_or_else(|| fail(alloc, "aref buffer is not a memdesc"))?;
            let mut shape = vec![num_stages];
            shape.extend_from_slice(&old.shape[1..]);
            let deeper = MemDesc { alloc_shape: shape.clone(), shape, mutable: true, ..old };
            let ty = deeper.to_type(alloc.location()).ok_or_else(|| fail(alloc, "cannot build the buffer type"))?;
            let new =
                tritium_dialects::ir::insert_before(aref, create("ttg.local_alloc", alloc.location(), &[], &[ty], &[]));
            let new: Value = new.result(0).unwrap().into();
            replace_all_uses(*buffer, new);
            new_buffers.push(new);
        }
        // The aref's type names its buffers' types.
        let types: Vec<String> = new_buffers.iter().map(|b| b.r#type().to_string()).collect();
        let aref_type = Type::parse(context_of(aref.location()), &format!("!nvws.aref<[{}]>", types.join(", ")))
            .ok_or_else(|| fail(aref, "cannot build the aref type"))?;
        set_type(aref.result(0).unwrap().into(), aref_type);
        for alloc in allocs {
            if !tritium_dialects::ir::has_uses(alloc.result(0).unwrap().into()) {
                erase(alloc);
            }
        }
    }
    Ok(())
}

/// Upstream `getArrivalCount`: the arrivals each barrier of an aref waits
/// for, `(empty, full)`: one per consumer (producer) partition and async
/// kind it lists; at least one.
fn arrival_counts(aref: &OperationRef) -> Result<(i64, i64), PassFailed> {
    let (mut empty, mut full) = (0, 0);
    let (mut producers, mut consumers) = (BTreeSet::new(), BTreeSet::new());
    for user in aref_users(aref) {
        let Some(ids) = partition_ids(&user) else { continue };
        if ids.len() != 1 {
            return Err(fail(&user, "an aref op in several partitions"));
        }
        let partition = *ids.first().unwrap();
        match name_of(&user).as_str() {
            "nvws.aref.put.exit" if producers.insert(partition) => full += async_kinds(&user).len() as i64,
            "nvws.aref.get.exit" if consumers.insert(partition) => empty += async_kinds(&user).len() as i64,
            _ => {}
        }
    }
    Ok((empty.max(1), full.max(1)))
}

/// What ops made for `op` carry (upstream `assignStageCluster`): its
/// partitions, tag and stage/cluster, when it has partitions.
fn placement_of(op: &OperationRef) -> Placement {
    if !has_partition(op) {
        return Placement::default();
    }
    Placement {
        partitions: partition_ids(op),
        stage_cluster: stage_cluster(op),
        tag: int_attribute(op, WARP_SPECIALIZE_TAG),
    }
}

/// A builder after `op` that places what it makes like `op`.
struct Placed<'c, 'a> {
    builder: Builder<'c, 'a>,
    placement: Placement,
}

impl<'c, 'a> Placed<'c, 'a> {
    fn after(op: &OperationRef<'c, 'a>) -> Self {
        Placed { builder: Builder::after(*op), placement: placement_of(op) }
    }

    fn create(
        &mut self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let op = self.builder.create(name, operands, results, attributes);
        self.placement.apply(&op);
        op
    }

    /// Slice `index` of the `N x ...` buffer `buffer`, as a mutable view.
    fn slice(&mut self, buffer: Value<'c, 'a>, index: Value<'c, 'a>) -> Result<Value<'c, 'a>, PassFailed> {
        let memdesc = MemDesc::of(buffer.r#type()).ok_or(PassFailed)?;
        let shape = memdesc.shape[1..].to_vec();
        let view = MemDesc { alloc_shape: shape.clone(), shape, mutable: true, ..memdesc };
        let ty = view.to_type(self.builder.location).ok_or(PassFailed)?;
        Ok(self.create("ttg.memdesc_index", &[buffer, index], &[ty], &[]).result(0).unwrap().into())
    }

    /// Slice `index` of a barrier array, with the array's mutability.
    fn barrier(&mut self, barriers: Value<'c, 'a>, index: Value<'c, 'a>) -> Result<Value<'c, 'a>, PassFailed> {
        let view = crate::tritongpu_pipeline::lower_loops::buffer_view(&mut self.builder, barriers, index)?;
        self.placement.apply(&defining_op(view).unwrap());
        Ok(view)
    }

    fn int_attr(&self, bits: u32, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.builder.integer_type(bits), value).into()
    }

    fn wait(&mut self, barrier: Value<'c, 'a>, phase: Value<'c, 'a>) {
        let segments = dense_i32_array(self.builder.location, &[1, 1, 0, 0]);
        self.create("ttng.wait_barrier", &[barrier, phase], &[], &[("operandSegmentSizes", segments)]);
    }

    fn fence(&mut self) {
        let context = context_of(self.builder.location);
        self.create("ttng.fence_async_shared", &[], &[], &[("bCluster", BoolAttribute::new(context, false).into())]);
    }
}

/// The barriers of an aref: empty and full, `depth` each.
struct Barriers<'c, 'a> {
    empty: Value<'c, 'a>,
    full: Value<'c, 'a>,
}

/// `count` mbarriers expecting `arrivals` arrivals each, allocated and
/// initialized at `before`, invalidated and freed at `after`.
fn create_barriers<'c, 'a>(
    before: &mut Builder<'c, 'a>,
    after: &mut Builder<'c, 'a>,
    aref: &OperationRef<'c, 'a>,
    count: i64,
    arrivals: i64,
) -> Result<Value<'c, 'a>, PassFailed> {
    let location = aref.location();
    let ctas = enclosing_int_attribute(*aref, "ttg.num-ctas").unwrap_or(1);
    if ctas != 1 {
        return Err(fail(aref, "aref barriers for several CTAs are not supported"));
    }
    let shared = SwizzledShared::new(1, 1, 1, &[0]).with_cta(CtaLayout::single_cta(1));
    let encoding =
        tritium_dialects::layout::attribute_of(&Layout::SwizzledShared(shared), location).ok_or(PassFailed)?;
    let context = context_of(location);
    let memdesc = MemDesc {
        shape: vec![count, 1],
        element_type: IntegerType::new(context, 64).into(),
        encoding,
        memory_space: shared_memory_space(context),
        mutable: true,
        alloc_shape: vec![count, 1],
    };
    let ty = memdesc.to_type(location).ok_or(PassFailed)?;
    let barriers = before.value("ttg.local_alloc", &[], ty, &[]);
    let arrivals_attr: Attribute = IntegerAttribute::new(IntegerType::new(context, 32).into(), arrivals).into();
    for index in 0..count {
        let index = before.constant_i32(index);
        let view = crate::tritongpu_pipeline::lower_loops::buffer_view(before, barriers, index)?;
        before.create("ttng.init_barrier", &[view], &[], &[("count", arrivals_attr)]);
    }
    for index in 0..count {
        let index = after.constant_i32(index);
        let view = crate::tritongpu_pipeline::lower_loops::buffer_view(after, barriers, index)?;
        after.create("ttng.inval_barrier", &[view], &[], &[]);
    }
    after.create("ttg.local_dealloc", &[barriers], &[], &[]);
    Ok(barriers)
}

fn lower_aref(aref: OperationRef) -> PassResult {
    let buffers: Vec<Value> = aref.operands().collect();
    let first = buffers.first().ok_or_else(|| fail(&aref, "nvws.aref.create without buffers"))?;
    let first = MemDesc::of(first.r#type()).ok_or_else(|| fail(&aref, "aref buffer is not a memdesc"))?;
    if first.memory_space != shared_memory_space(context_of(aref.location())) {
        return Err(fail(&aref, "arefs over tensor memory are Blackwell-only; Tritium does not lower them"));
    }
    let depth = *first.shape.first().ok_or_else(|| fail(&aref, "aref buffer of rank 0"))?;
    let users = aref_users(&aref);
    let (empty_count, full_count) = arrival_counts(&aref)?;

    let block = aref.block().unwrap();
    let last_user = block_ops(&block)
        .into_iter()
        .rev()
        .find(|op| users.iter().any(|u| ancestor_in_block(&block, *u) == Some(*op)))
        .unwrap_or(aref);
    let mut before = Builder::before(aref);
    let mut after = Builder::after(last_user);
    after.location = aref.location();
    let empty = create_barriers(&mut before, &mut after, &aref, depth, empty_count)?;
    let full = create_barriers(&mut before, &mut after, &aref, depth, full_count)?;
    let barriers = Barriers { empty, full };

    for user in &users {
        match name_of(user).as_str() {
            "nvws.aref.put.enter" => lower_put_enter(user, &buffers, &barriers)?,
            "nvws.aref.get.enter" => lower_get_enter(user, &buffers, &barriers)?,
            "nvws.aref.put.exit" => lower_exit(user, barriers.full, needs_fence_after_put(user))?,
            "nvws.aref.get.exit" => lower_exit(user, barriers.empty, needs_fence_after_get(user))?,
            "nvws.aref.buffer" => {
                let stage = stage_of(user)?;
                let mut placed = Placed::after(user);
                for (i, buffer) in buffers.iter().enumerate() {
                    let view = placed.slice(*buffer, stage)?;
                    replace_all_uses(user.result(i).unwrap().into(), view);
                }
            }
            name => return Err(fail(user, format!("{name} cannot use an aref"))),
        }
    }

    // Tokens are gone with the handshakes; what still carries them (loop
    // iter_args) gets a poison value.
    let poison = Builder::before(aref).value("ub.poison", &[], async_token(context_of(aref.location())), &[]);
    for user in &users {
        if name_of(user).ends_with(".enter") {
            replace_all_uses(user.result(user.result_count() - 1).unwrap().into(), poison);
        }
    }
    let (enters, others): (Vec<_>, Vec<_>) = users.into_iter().partition(|u| name_of(u).ends_with(".enter"));
    for op in others.into_iter().chain(enters) {
        erase(op);
    }
    erase(aref);
    Ok(())
}

fn stage_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, PassFailed> {
    let stage = if let Some(enter) = ArefEnterOp::of(*op) {
        enter.stage()
    } else if let Some(exit) = ArefExitOp::of(*op) {
        exit.stage()
    } else {
        ArefBufferOp::of(*op).and_then(|buffer| buffer.stage())
    };
    stage.ok_or_else(|| fail(op, "aref op without a stage (nvws-assign-stage-phase gives one)"))
}

fn lower_put_enter(op: &OperationRef, buffers: &[Value], barriers: &Barriers) -> PassResult {
    let stage = stage_of(op)?;
    let phase =
        ArefEnterOp::of(*op).and_then(|enter| enter.phase()).ok_or_else(|| fail(op, "aref enter without a phase"))?;
    let mut placed = Placed::after(op);
    let empty = placed.barrier(barriers.empty, stage)?;
    placed.wait(empty, phase);
    let mut views = Vec::new();
    for buffer in buffers {
        views.push(placed.slice(*buffer, stage)?);
    }
    let token: Value = op.result(op.result_count() - 1).unwrap().into();
    let exit = uses(token).into_iter().map(|u| u.owner).find(|u| name_of(u) == "nvws.aref.put.exit");
    if let Some(exit) = exit {
        let kinds = async_kinds(&exit);
        if kinds.iter().any(|k| k == "cp_async") {
            return Err(fail(&exit, "cp.async producers of arefs are not supported"));
        }
        if kinds.iter().any(|k| k == "tma_load") {
            let full = placed.barrier(barriers.full, stage)?;
            lower_tma_loads(op, full, &mut placed)?;
        }
    }
    for (i, view) in views.into_iter().enumerate() {
        replace_all_uses(op.result(i).unwrap().into(), view);
    }
    Ok(())
}

/// Upstream `lowerTMALoad`: the put expects the bytes of its TMA loads on
/// the full barrier, and the loads become asynchronous copies arriving on
/// it.
fn lower_tma_loads<'c, 'a>(put: &OperationRef<'c, 'a>, full: Value<'c, 'a>, placed: &mut Placed<'c, 'a>) -> PassResult {
    let mut loads = Vec::new();
    for i in 0..put.result_count() - 1 {
        for user in uses(put.result(i).unwrap().into()).into_iter().map(|u| u.owner) {
            if is_tma_load(&user) && !loads.contains(&user) {
                loads.push(user);
            }
        }
    }
    if loads.is_empty() {
        return Ok(());
    }
    let bytes: i64 = loads.iter().map(|l| int_attribute(l, "txCount").unwrap_or(0)).sum();
    let always = placed.builder.constant(1, placed.builder.integer_type(1));
    placed.placement.apply(&defining_op(always).unwrap());
    let size = placed.int_attr(32, bytes);
    placed.create("ttng.barrier_expect", &[full, always], &[], &[("size", size)]);
    for load in loads {
        let mut builder = Builder::before(load);
        let operands: Vec<Value> = load.operands().collect();
        // (desc, coordinates..., buffer) becomes (desc, coordinates...,
        // barrier, buffer, pred); a gather's coordinates are its row offsets
        // and column.
        let (buffer, coordinates) = operands.split_last().unwrap();
        let mut copy_operands = coordinates.to_vec();
        copy_operands.extend([full, *buffer, always]);
        let copy = if name_of(&load) == "nvws.descriptor_gather" {
            "ttng.async_tma_gather"
        } else {
            "ttng.async_tma_copy_global_to_local"
        };
        // Upstream leaves cache and eviction at their defaults.
        let new = builder.create(copy, &copy_operands, &[], &[]);
        placement_of(&load).apply(&new);
        erase(load);
    }
    Ok(())
}

fn lower_get_enter(op: &OperationRef, buffers: &[Value], barriers: &Barriers) -> PassResult {
    let stage = stage_of(op)?;
    let phase =
        ArefEnterOp::of(*op).and_then(|enter| enter.phase()).ok_or_else(|| fail(op, "aref enter without a phase"))?;
    let mut placed = Placed::after(op);
    let full = placed.barrier(barriers.full, stage)?;
    placed.wait(full, phase);
    for (i, buffer) in buffers.iter().enumerate() {
        let view = placed.slice(*buffer, stage)?;
        replace_all_uses(op.result(i).unwrap().into(), view);
        // The consumer's views of the buffer were immutable; the slice is
        // not.
        make_views_mutable(view);
    }
    Ok(())
}

fn make_views_mutable(value: Value) {
    for user in uses(value).into_iter().map(|u| u.owner) {
        if crate::ir::MEMDESC_VIEWS.contains(&name_of(&user).as_str()) {
            let result: Value = user.result(0).unwrap().into();
            if let Some(memdesc) = MemDesc::of(result.r#type()) {
                if let Some(ty) = (MemDesc { mutable: true, ..memdesc }).to_type(user.location()) {
                    set_type(result, ty);
                }
            }
            make_views_mutable(result);
        }
    }
}

/// A producer's exit fences generic-proxy writes (`none`) before a tcgen05
/// consumer reads them through the async proxy.
fn needs_fence_after_put(exit: &OperationRef) -> bool {
    let aref = ArefExitOp::of(*exit).expect("an aref exit").aref();
    async_kinds(exit).iter().any(|k| k == "none")
        && aref_users(&defining_op(aref).unwrap())
            .iter()
            .any(|u| name_of(u) == "nvws.aref.get.exit" && async_kinds(u).iter().any(|k| k == "tc5mma"))
}

/// A consumer's exit fences its generic-proxy reads before the producer's
/// TMA loads overwrite the buffer.
fn needs_fence_after_get(exit: &OperationRef) -> bool {
    let aref = ArefExitOp::of(*exit).expect("an aref exit").aref();
    async_kinds(exit).iter().any(|k| k == "none")
        && aref_users(&defining_op(aref).unwrap())
            .iter()
            .any(|u| name_of(u) == "nvws.aref.put.exit" && async_kinds(u).iter().any(|k| k == "tma_load"))
}

/// An exit: an arrival on `barriers[stage]` for each async kind it lists
/// (TMA loads arrive by themselves).
fn lower_exit(exit: &OperationRef, barriers: Value, fence: bool) -> PassResult {
    let stage = stage_of(exit)?;
    let mut placed = Placed::after(exit);
    if fence {
        placed.fence();
    }
    let barrier = placed.barrier(barriers, stage)?;
    for kind in async_kinds(exit) {
        match kind.as_str() {
            "none" | "wgmma" => {
                let one = placed.int_attr(32, 1);
                placed.create("ttng.arrive_barrier", &[barrier], &[], &[("count", one)]);
            }
            "tma_load" => {}
            "tc5mma" | "tmem_copy" => {
                return Err(fail(
                    exit,
                    "tcgen05 arrivals on aref barriers are Blackwell-only; Tritium does not lower them",
                ))
            }
            other => return Err(fail(exit, format!("cannot arrive on an aref barrier for async op {other}"))),
        }
    }
    Ok(())
}

/// Moves the `ub.poison`s of `function` to the top of its body: they carry
/// no partition, and later passes expect none inside partitions.
fn hoist_poisons(function: OperationRef) {
    let Some(entry) = function.region(0).ok().and_then(|r| r.first_block()) else { return };
    for poison in collect_ops(function, Order::Pre).into_iter().filter(|op| name_of(op) == "ub.poison") {
        if let Some(first) = entry.first_operation() {
            move_before(&poison, &first);
        }
    }
}

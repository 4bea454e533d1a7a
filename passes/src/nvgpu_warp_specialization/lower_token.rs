//! The token lowering of upstream's Hopper warp specialization (its
//! `doTokenLowering`, WSLowerToken.cpp), run after the code partition: each
//! `nvws.create_token` (one token per buffer) becomes two arrays of
//! mbarriers allocated and initialised before it, `full` (count 1 for TMA
//! loads, whose bytes complete it; 128 threads otherwise) and `empty` (count
//! 128: a consumer warp group's threads), followed by a `gpu.barrier`; its
//! users become barrier operations on the buffer's mbarrier, labelled with
//! the user's tasks:
//!
//! - `nvws.producer_acquire %t, %i, %phase`: wait on `empty[i]` with the
//!   phase flipped (the first round passes at once);
//! - `nvws.producer_commit %t, %i`: arrive on `full[i]`;
//! - `nvws.consumer_wait %t, %i, %phase`: wait on `full[i]`;
//! - `nvws.consumer_release %t, %i`: arrive on `empty[i]` (128 threads).
//!
//! A token captured by a `ttg.warp_specialize` is replaced among its
//! captures by the two arrays (appended, full then empty).
//!
//! Tritium's test flag `nvgpu-test-ws-lower-token` (upstream has none) runs
//! the step alone, for the step-by-step differential against upstream's
//! intermediate IR.
use super::task_ids::{get_async_task_ids, set_async_task_ids};
use crate::ir::{collect_ops, create, erase, fail, int_attribute, name_of, Order};
use crate::ssa::{insert_before, users, uses};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    BlockLike, Location, OperationRef, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{context_of, enclosing_named, erase_block_argument, set_operand, set_operands};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};
use tritium_dialects::views::TokenSyncOp;

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-test-ws-lower-token",
    description: "Tritium's test flag for upstream's token lowering step of nvgpu-warp-specialization (nvws tokens \
                  to mbarriers), alone",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-consumer-groups",
        description: "Consumer warp groups (unused by the lowering, as upstream)",
        kind: OptionKind::Int,
        default: "2",
    }],
    run,
};

fn run(root: OperationRef, options: &PassOptions) -> PassResult {
    let module = crate::ir::enclosing_module(root).unwrap_or(root);
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "tt.func").collect();
    for function in functions {
        do_token_lowering(function, options.int("num-consumer-groups").max(0) as u32)
            .map_err(|reason| fail(&function, reason))?;
    }
    Ok(())
}

/// Upstream's `TokenLoadType::TMALoadOp`.
const TMA_LOAD: i64 = 2;
/// Threads of a warp group (upstream's `THREADS_PER_TASK`).
const THREADS_PER_TASK: i32 = 128;

/// Upstream's `doTokenLowering`: lowers the tokens of the whole module that
/// holds `function` (as upstream does). `num_consumer_groups` is unused, as
/// upstream's.
pub fn do_token_lowering(function: OperationRef, _num_consumer_groups: u32) -> Result<(), String> {
    let module = function.parent_operation().and_then(|p| enclosing_named(p, "builtin.module")).unwrap_or(function);
    if int_attribute(&module, "ttg.num-ctas").is_some_and(|n| n != 1) {
        return Err("remote CTA is not supported yet (token lowering with more than one CTA)".into());
    }
    lower_token_operations(module)
}

struct Lowered<'c, 'a> {
    token: OperationRef<'c, 'a>,
    full: Value<'c, 'a>,
    empty: Value<'c, 'a>,
}

/// What a token lowers to, while its users are rewritten.
struct Barriers<'c, 'a> {
    full: Value<'c, 'a>,
    empty: Value<'c, 'a>,
    single: Type<'c>,
    load_type: i64,
    full_count: i32,
    empty_count: i32,
}

impl<'c, 'a> Barriers<'c, 'a> {
    fn i32_attr(&self, location: Location<'c>, value: i64) -> melior::ir::Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(context_of(location), 32).into(), value).into()
    }

    /// `memdesc_index` of `array` at `idx` before `user`, with its tasks.
    fn view(&self, array: Value<'c, 'a>, user: &OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let idx = TokenSyncOp::of(*user).ok_or_else(|| format!("{} is no token op", name_of(user)))?.idx();
        let view =
            insert_before(user, create("ttg.memdesc_index", user.location(), &[array, idx], &[self.single], &[]));
        set_async_task_ids(&view, &get_async_task_ids(user));
        Ok(view.result(0).unwrap().into())
    }

    /// `ttng.wait_barrier` on `barrier` with the user's phase (flipped for
    /// an empty barrier), as i32.
    fn wait(&self, user: &OperationRef<'c, 'a>, barrier: Value<'c, 'a>, flip: bool) -> Result<(), String> {
        let location = user.location();
        let context = context_of(location);
        let i1: Type = IntegerType::new(context, 1).into();
        let i32: Type = IntegerType::new(context, 32).into();
        let mut phase = TokenSyncOp::of(*user)
            .and_then(|t| t.phase())
            .ok_or_else(|| format!("{} without a phase", name_of(user)))?;
        if flip {
            let one = insert_before(
                user,
                create("arith.constant", location, &[], &[i1], &[("value", IntegerAttribute::new(i1, 1).into())]),
            );
            let xor = insert_before(
                user,
                create("arith.xori", location, &[phase, one.result(0).unwrap().into()], &[i1], &[]),
            );
            phase = xor.result(0).unwrap().into();
        }
        let ext = insert_before(user, create("arith.extui", location, &[phase], &[i32], &[]));
        let segments = DenseI32ArrayAttribute::new(context, &[1, 1, 0, 0]).into();
        let wait = insert_before(
            user,
            create(
                "ttng.wait_barrier",
                location,
                &[barrier, ext.result(0).unwrap().into()],
                &[],
                &[("operandSegmentSizes", segments)],
            ),
        );
        set_async_task_ids(&wait, &get_async_task_ids(user));
        Ok(())
    }

    fn arrive(&self, user: &OperationRef<'c, 'a>, barrier: Value<'c, 'a>, count: i32) {
        let location = user.location();
        let arrive = insert_before(
            user,
            create(
                "ttng.arrive_barrier",
                location,
                &[barrier],
                &[],
                &[("count", self.i32_attr(location, count as i64))],
            ),
        );
        set_async_task_ids(&arrive, &get_async_task_ids(user));
    }

    /// Rewrites one user of the token (upstream's `handleOneUser`); false
    /// when it is not a token op.
    fn handle(&self, user: &OperationRef<'c, 'a>, deprecated: &mut Vec<OperationRef<'c, 'a>>) -> Result<bool, String> {
        match name_of(user).as_str() {
            "nvws.producer_acquire" => {
                let empty = self.view(self.empty, user)?;
                self.wait(user, empty, true)?;
            }
            "nvws.producer_commit" => {
                let full = self.view(self.full, user)?;
                if self.load_type != TMA_LOAD {
                    return Err("producer_commit of a token not fed by TMA loads is not supported".into());
                }
                self.arrive(user, full, self.full_count);
            }
            "nvws.consumer_wait" => {
                let full = self.view(self.full, user)?;
                self.wait(user, full, false)?;
            }
            "nvws.consumer_release" => {
                let empty = self.view(self.empty, user)?;
                self.arrive(user, empty, self.empty_count);
            }
            _ => return Ok(false),
        }
        deprecated.push(*user);
        Ok(true)
    }
}

/// The partition regions' entry blocks of a `ttg.warp_specialize`.
fn partition_blocks<'c, 'a>(ws: &OperationRef<'c, 'a>) -> Vec<melior::ir::BlockRef<'c, 'a>> {
    let Some(holder) = ws.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()) else {
        return Vec::new();
    };
    holder.regions().filter_map(|r| r.first_block()).collect()
}

/// Replaces the uses of `old` inside `block`'s region with `new`.
fn replace_uses_in_block_region<'c, 'a>(old: Value<'c, 'a>, new: Value<'c, 'a>, block: &melior::ir::BlockRef<'c, 'a>) {
    let region = block.parent_region();
    for u in uses(old) {
        let mut current = Some(u.owner);
        while let Some(op) = current {
            let Some(b) = op.block() else { break };
            if b.parent_region() == region {
                set_operand(&u.owner, u.index, new);
                break;
            }
            current = b.parent_operation();
        }
    }
}

fn lower_token_operations(module: OperationRef) -> Result<(), String> {
    let tokens: Vec<OperationRef> =
        collect_ops(module, Order::Post).into_iter().filter(|o| name_of(o) == "nvws.create_token").collect();
    let mut deprecated: Vec<OperationRef> = Vec::new();
    let mut lowered: Vec<Lowered> = Vec::new();
    for token in tokens {
        let location = token.location();
        let context = context_of(location);
        let buffers = int_attribute(&token, "numBuffers").ok_or("nvws.create_token without numBuffers")?;
        let load_type = int_attribute(&token, "loadType").unwrap_or(0);
        let encoding = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>";
        let array_type =
            Type::parse(context, &format!("!ttg.memdesc<{buffers}x1xi64, {encoding}, #ttg.shared_memory, mutable>"))
                .ok_or("barrier array type")?;
        let single = Type::parse(context, &format!("!ttg.memdesc<1xi64, {encoding}, #ttg.shared_memory, mutable>"))
            .ok_or("barrier type")?;
        let alloc = || insert_before(&token, create("ttg.local_alloc", location, &[], &[array_type], &[]));
        let full: Value = alloc().result(0).unwrap().into();
        let empty: Value = alloc().result(0).unwrap().into();
        let full_count = if load_type == TMA_LOAD { 1 } else { THREADS_PER_TASK };
        let empty_count = THREADS_PER_TASK;
        let i32: Type = IntegerType::new(context, 32).into();
        let count_attr = |count: i32| -> melior::ir::Attribute { IntegerAttribute::new(i32, count as i64).into() };
        for i in 0..buffers {
            let idx = insert_before(
                &token,
                create("arith.constant", location, &[], &[i32], &[("value", IntegerAttribute::new(i32, i).into())]),
            );
            let idx: Value = idx.result(0).unwrap().into();
            let full_view = insert_before(&token, create("ttg.memdesc_index", location, &[full, idx], &[single], &[]));
            insert_before(
                &token,
                create(
                    "ttng.init_barrier",
                    location,
                    &[full_view.result(0).unwrap().into()],
                    &[],
                    &[("count", count_attr(full_count))],
                ),
            );
            let empty_view =
                insert_before(&token, create("ttg.memdesc_index", location, &[empty, idx], &[single], &[]));
            insert_before(
                &token,
                create(
                    "ttng.init_barrier",
                    location,
                    &[empty_view.result(0).unwrap().into()],
                    &[],
                    &[("count", count_attr(empty_count))],
                ),
            );
        }
        insert_before(&token, create("gpu.barrier", location, &[], &[], &[]));

        let barriers = Barriers { full, empty, single, load_type, full_count, empty_count };
        let result: Value = token.result(0).map_err(|_| "nvws.create_token without a result")?.into();
        for u in uses(result) {
            let user = u.owner;
            let handled = barriers.handle(&user, &mut deprecated)?;
            if name_of(&user) == "ttg.warp_specialize" {
                for block in partition_blocks(&user) {
                    let argument: Value = block.argument(u.index).map_err(|_| "missing capture argument")?.into();
                    for inner in users(argument) {
                        barriers.handle(&inner, &mut deprecated)?;
                    }
                }
            } else if !handled {
                return Err(format!("unexpected user of a token: {}", name_of(&user)));
            }
        }
        lowered.push(Lowered { token, full, empty });
    }
    for op in deprecated {
        erase(op);
    }
    for Lowered { token, full, empty } in lowered {
        let result: Value = token.result(0).unwrap().into();
        for u in uses(result) {
            let ws = u.owner;
            if name_of(&ws) != "ttg.warp_specialize" {
                continue;
            }
            let mut operands: Vec<Value> = ws.operands().collect();
            operands.remove(u.index);
            operands.push(full);
            operands.push(empty);
            set_operands(&ws, &operands);
            for block in partition_blocks(&ws) {
                let argument: Value = block.argument(u.index).unwrap().into();
                if let Some(user) = users(argument).first() {
                    return Err(format!("a captured token is still used by {}", name_of(user)));
                }
                erase_block_argument(&block, u.index);
                let full_arg: Value = block.add_argument(full.r#type(), location_of(full));
                replace_uses_in_block_region(full, full_arg, &block);
                let empty_arg: Value = block.add_argument(empty.r#type(), location_of(empty));
                replace_uses_in_block_region(empty, empty_arg, &block);
            }
        }
        if let Some(what) = tritium_dialects::ir::escaping_use(&token) {
            return Err(format!("a token is still used: {what}"));
        }
        erase(token);
    }
    Ok(())
}

fn location_of<'c>(value: Value<'c, '_>) -> Location<'c> {
    tritium_dialects::ir::location_of(value)
}

//! `allocate-shared-memory-nv`: gives every shared-memory buffer
//! (ttg.local_alloc) and every op's scratch (layout conversions and
//! reductions, scans and scalar atomics that go through shared memory, see
//! analysis::scratch) an offset, so that buffers alive at the same time
//! never overlap. Writes `allocation.offset` on those ops and the total,
//! `ttg.shared`, on the module, as upstream's pass of this name does. The
//! scratch sizes are those of Tritium's lowering; they are upstream's except
//! for a layout conversion, whose scratch holds the whole tensor where
//! upstream may move a large one through a smaller scratch in several rounds
//! (e.g. a 128x128 i32 mma accumulator to a blocked layout: 64 KiB here,
//! 32 KiB upstream).
//!
//! Liveness is over the ops in program order: a buffer lives from its
//! allocation to its last use, through views of it and to the end of any
//! loop it is used in but not allocated in; a scratch lives during its op.
//! Offsets come from upstream's algorithm (`tritium_layout::shared_offsets`:
//! largest first, the triples heuristic, then graph-colouring rounds).
use crate::{
    analysis::scratch::{element_bytes, scratch_bytes, warp_specialize_capture_alignment},
    ir::{collect_ops, fail, int_attribute, name_of, Order},
};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, operation::OperationMutLike, r#type::IntegerType, BlockLike,
    OperationRef, RegionLike, Value, ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::target::max_shared_bytes;
use tritium_dialects::{
    layout::{layout_of, padded_shared_intervals},
    pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult},
    types::MemDesc,
};
use tritium_layout::shared_offsets::{compute_offsets, SharedBuffer};
use tritium_layout::Layout;

pub static PASS: PassDefinition = PassDefinition {
    argument: "allocate-shared-memory-nv",
    description: "Assign shared-memory offsets to buffers and scratch by liveness (allocation.offset, ttg.shared)",
    anchor: "builtin.module",
    options: &[
        PassOption {
            name: "compute-capability",
            description: "Target compute capability",
            kind: OptionKind::Int,
            default: "80",
        },
        PassOption {
            name: "ptx-version",
            description: "PTX ISA version (the allocation does not depend on it)",
            kind: OptionKind::Int,
            default: tritium_dialects::target::PTX_VERSION_TEXT,
        },
    ],
    run,
};

#[derive(Debug, Clone)]
struct Request {
    op: usize,
    purpose: Purpose,
    size: usize,
    alignment: usize,
    start: usize,
    end: usize,
    /// The innermost `ttg.warp_specialize` the op is in and the region of
    /// it (or of an op inside it) that holds the op: requests in different
    /// regions of the same warp_specialize may run at the same time.
    concurrency: Option<(usize, usize)>,
}

/// `file:line:col` of an op's location (`loc("file":line:col)`, also inside
/// a named location), else the location as it prints.
fn position_text(op: &OperationRef) -> String {
    let text = op.location().to_string();
    let Some(start) = text.find('"') else { return text };
    let rest = &text[start + 1..];
    let Some(end) = rest.find('"') else { return text };
    let (file, after) = (&rest[..end], &rest[end + 1..]);
    let position: String = after.chars().take_while(|c| *c == ':' || c.is_ascii_digit()).collect();
    if position.starts_with(':') {
        format!("{file}{position}")
    } else {
        text
    }
}

/// Bytes as `N bytes (K KiB)`.
fn bytes_text(bytes: usize) -> String {
    format!("{bytes} bytes ({:.1} KiB)", bytes as f64 / 1024.0)
}

/// The error for an allocation of `total` bytes over `limit`: located at the
/// op whose buffer reaches the top, naming the buffers alive with it (the
/// ones that add up to the peak), largest first.
fn over_the_limit(
    ops: &[OperationRef],
    requests: &[Request],
    placed: &[(usize, usize)],
    total: usize,
    limit: usize,
    capability: u32,
) -> tritium_dialects::pass::PassFailed {
    let (top, _) =
        *placed.iter().find(|(r, offset)| offset + requests[*r].size == total).expect("a buffer ends at the top");
    let mut live: Vec<&Request> =
        requests.iter().filter(|other| other.start <= requests[top].end && requests[top].start <= other.end).collect();
    live.sort_by_key(|r| (std::cmp::Reverse(r.size), r.start));
    let listed: Vec<String> = live
        .iter()
        .take(8)
        .map(|r| format!("'{}' at {}: {}", name_of(&ops[r.op]), position_text(&ops[r.op]), bytes_text(r.size)))
        .collect();
    let more = if live.len() > 8 { format!(" and {} more", live.len() - 8) } else { String::new() };
    fail(
        &ops[requests[top].op],
        format!(
            "the kernel needs {} of shared memory, more than the {} a CTA can have on sm_{capability}; alive together here: {}{more}",
            bytes_text(total),
            bytes_text(limit),
            listed.join(", ")
        ),
    )
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let capability = u32::try_from(options.int("compute-capability")).unwrap_or(0);
    allocate_module(module, capability, Some(max_shared_bytes(capability)))
}

/// Allocates every function of `module` for a GPU of compute capability
/// `capability` (the scratch sizes depend on it), and writes the offsets
/// (`allocation.offset`) and the total (`ttg.shared`). Over `limit` bytes,
/// when given, the allocation fails with a located error naming the
/// buffers alive at the peak.
pub(crate) fn allocate_module(module: OperationRef, capability: u32, limit: Option<usize>) -> PassResult {
    let scratch = |op: &OperationRef| scratch_bytes(op, capability);
    let plan = plan_module(module, &scratch, limit, capability)?;
    let context = tritium_dialects::ir::context_of(module.location());
    let i32: melior::ir::Type = IntegerType::new(context, 32).into();
    for placement in &plan.placements {
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(placement.op.to_raw()) };
        op.set_discardable_attribute("allocation.offset", IntegerAttribute::new(i32, placement.offset as i64).into());
    }
    for (module, total) in &plan.module_totals {
        let mut module = unsafe { melior::ir::operation::OperationRefMut::from_raw(module.to_raw()) };
        module.set_discardable_attribute("ttg.shared", IntegerAttribute::new(i32, *total as i64).into());
    }
    Ok(())
}

/// What a placed byte range is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Purpose {
    /// A `ttg.local_alloc`'s buffer.
    Buffer,
    /// An op's scratch.
    Scratch,
    /// The shared memory of the function a `tt.call` calls.
    Callee,
}

/// One placed byte range: `size` bytes at `offset` from its function's base.
pub(crate) struct Placement<'c, 'a> {
    pub(crate) op: OperationRef<'c, 'a>,
    pub(crate) purpose: Purpose,
    pub(crate) offset: usize,
    pub(crate) size: usize,
}

/// The allocation of a module: every placement, each function's total (by
/// op key), and each module's total (the largest of its functions).
pub(crate) struct Plan<'c, 'a> {
    pub(crate) placements: Vec<Placement<'c, 'a>>,
    pub(crate) function_totals: HashMap<usize, usize>,
    pub(crate) module_totals: Vec<(OperationRef<'c, 'a>, usize)>,
}

/// Plans the allocation of every function of `module` (and of its nested
/// modules) with `scratch` giving each op's scratch bytes; writes nothing.
pub(crate) fn plan_module<'c, 'a>(
    module: OperationRef<'c, 'a>,
    scratch: &dyn Fn(&OperationRef) -> usize,
    limit: Option<usize>,
    capability: u32,
) -> Result<Plan<'c, 'a>, tritium_dialects::pass::PassFailed> {
    let mut plan = Plan { placements: Vec::new(), function_totals: HashMap::new(), module_totals: Vec::new() };
    plan_into(module, scratch, limit, capability, &mut plan)?;
    Ok(plan)
}

fn plan_into<'c, 'a>(
    module: OperationRef<'c, 'a>,
    scratch: &dyn Fn(&OperationRef) -> usize,
    limit: Option<usize>,
    capability: u32,
    plan: &mut Plan<'c, 'a>,
) -> PassResult {
    let nested = tritium_dialects::ir::nested_modules(module);
    for inner in &nested {
        plan_into(*inner, scratch, limit, capability, plan)?;
    }
    let order = crate::ir::module_functions(module);
    if !nested.is_empty() && order.is_empty() {
        return Ok(());
    }
    let mut functions = HashMap::new();
    for op in &order {
        let name = op.attribute("sym_name").ok().and_then(tritium_dialects::access::string_attribute_value);
        functions.insert(name.unwrap_or_default(), *op);
    }
    let mut allocator = Allocator {
        capability,
        scratch,
        limit,
        functions,
        done: HashMap::new(),
        visiting: Vec::new(),
        placements: Vec::new(),
    };
    // A module without tt.func (ops at module level, in tests) is one region.
    let roots = if order.is_empty() { vec![module] } else { order };
    let mut total = 0;
    for root in roots {
        total = total.max(allocator.allocate(root)?.size);
    }
    for (key, footprint) in &allocator.done {
        plan.function_totals.insert(*key, footprint.size);
    }
    plan.placements.append(&mut allocator.placements);
    plan.module_totals.push((module, total));
    Ok(())
}

/// The shared memory a function needs, from its start: its size and the
/// alignment its largest-aligned buffer needs.
#[derive(Clone, Copy)]
struct Footprint {
    size: usize,
    alignment: usize,
}

/// Allocates each function on its own, callees first, as upstream's
/// ModuleAllocation: offsets in a function are relative to its shared-memory
/// base, and a `tt.call` gets a buffer of its callee's footprint
/// (`allocation.offset` on the call: where the caller puts the callee's base).
struct Allocator<'c, 'a, 's> {
    capability: u32,
    /// Each op's scratch bytes.
    scratch: &'s dyn Fn(&OperationRef) -> usize,
    /// The most bytes a function may need, if checked.
    limit: Option<usize>,
    functions: HashMap<String, OperationRef<'c, 'a>>,
    done: HashMap<usize, Footprint>,
    /// Functions being allocated (the call stack), to refuse recursion.
    visiting: Vec<usize>,
    placements: Vec<Placement<'c, 'a>>,
}

impl<'c, 'a, 's> Allocator<'c, 'a, 's> {
    fn allocate(&mut self, root: OperationRef<'c, 'a>) -> Result<Footprint, tritium_dialects::pass::PassFailed> {
        if let Some(footprint) = self.done.get(&key(&root)) {
            return Ok(*footprint);
        }
        self.visiting.push(key(&root));
        let footprint = self.allocate_body(root);
        self.visiting.pop();
        let footprint = footprint?;
        self.done.insert(key(&root), footprint);
        Ok(footprint)
    }

    /// The footprint of the function a `tt.call` calls (allocated first).
    fn callee(&mut self, call: &OperationRef<'c, 'a>) -> Result<Footprint, tritium_dialects::pass::PassFailed> {
        let callee = call
            .attribute("callee")
            .ok()
            .map(|a| a.to_string().trim_start_matches('@').trim_matches('"').to_string())
            .and_then(|name| self.functions.get(&name).copied())
            .ok_or_else(|| fail(call, "calls a function that is not in the module"))?;
        if self.visiting.contains(&key(&callee)) {
            return Err(fail(call, "recursive calls are not supported"));
        }
        self.allocate(callee)
    }

    fn allocate_body(&mut self, root: OperationRef<'c, 'a>) -> Result<Footprint, tritium_dialects::pass::PassFailed> {
        let capability = self.capability;
        // The function itself first: a warp-specialized kernel keeps its
        // worker warps' states in shared memory for its whole body.
        let mut ops = vec![root];
        ops.extend(collect_ops(root, Order::Pre));
        let position: HashMap<usize, usize> = ops.iter().enumerate().map(|(i, op)| (key(op), i)).collect();
        // The last position inside each op (itself when it has no regions).
        let mut end = vec![0usize; ops.len()];
        for (i, op) in ops.iter().enumerate() {
            let nested = collect_ops(*op, Order::Pre);
            end[i] = nested.last().map_or(i, |last| position[&key(last)]);
        }

        let mut requests = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            let name = name_of(op);
            if name == "ttg.local_alloc" {
                let memdesc =
                    MemDesc::of(op.result_at(0).unwrap().r#type()).ok_or_else(|| fail(op, "allocates no memdesc"))?;
                let layout = layout_of(memdesc.encoding).ok();
                let size = buffer_bytes(&memdesc, layout.as_ref());
                let alignment = buffer_alignment(op, layout.as_ref());
                let last = last_use(*op, &position, &end, i);
                requests.push(Request {
                    op: i,
                    purpose: Purpose::Buffer,
                    size,
                    alignment,
                    start: i,
                    end: last,
                    concurrency: None,
                });
            }
            if name == "tt.call" {
                let callee = self.callee(op)?;
                if callee.size > 0 {
                    requests.push(Request {
                        op: i,
                        purpose: Purpose::Callee,
                        size: callee.size,
                        alignment: callee.alignment,
                        start: i,
                        end: end[i],
                        concurrency: None,
                    });
                }
            } else {
                let size = (self.scratch)(op);
                if size > 0 {
                    // tensormap.replace works on a 128-byte aligned tensormap.
                    let alignment = match name.as_str() {
                        "ttng.tensormap_create" => 128,
                        // A packed struct of the captures: their widest scalar.
                        "ttg.warp_specialize" => warp_specialize_capture_alignment(op),
                        // The worker warps' state bytes, read one byte at a time.
                        "tt.func" => 4,
                        _ => 16,
                    };
                    // A warp_specialize's captures are read at its start: the
                    // partitions load them and every warp passes a barrier before
                    // any region runs, so its regions' buffers may reuse the bytes.
                    let end = if name == "ttg.warp_specialize" { i } else { end[i] };
                    requests.push(Request {
                        op: i,
                        purpose: Purpose::Scratch,
                        size,
                        alignment,
                        start: i,
                        end,
                        concurrency: None,
                    });
                }
            }
        }
        // The default region and the partitions of a ttg.warp_specialize run at
        // the same time: as upstream, requests of ops in different regions of
        // the same (innermost) warp_specialize never share bytes, whatever
        // their live ranges; within one region, live ranges decide.
        for request in &mut requests {
            request.concurrency = concurrency_of(&ops[request.op]);
        }

        // Upstream's offsets (its computeOffsets): buffers in its order, the
        // explicit ones first, then the scratch, then the callees' shares,
        // each in program order; live ranges half-open.
        let mut upstream_order: Vec<usize> = Vec::new();
        for purpose in [Purpose::Buffer, Purpose::Scratch, Purpose::Callee] {
            upstream_order.extend((0..requests.len()).filter(|&r| requests[r].purpose == purpose));
        }
        let buffers: Vec<SharedBuffer> = upstream_order
            .iter()
            .map(|&r| {
                let request = &requests[r];
                SharedBuffer {
                    size: request.size,
                    alignment: request.alignment,
                    start: request.start,
                    end: request.end + 1,
                    concurrency: request.concurrency,
                }
            })
            .collect();
        let (offsets, total) = compute_offsets(&buffers);
        let placed: Vec<(usize, usize)> = upstream_order.iter().copied().zip(offsets).collect();

        if let Some(limit) = self.limit.filter(|&limit| total > limit) {
            return Err(over_the_limit(&ops, &requests, &placed, total, limit, capability));
        }

        for &(r, offset) in &placed {
            let request = &requests[r];
            let placement = Placement { op: ops[request.op], purpose: request.purpose, offset, size: request.size };
            self.placements.push(placement);
        }
        let alignment = requests.iter().map(|r| r.alignment).max().unwrap_or(16);
        Ok(Footprint { size: total, alignment })
    }
}

/// Bytes of a `ttg.local_alloc`'s buffer, as upstream counts them: its
/// elements (twice the shape's for fp4-padded nvmma tiles, which keep each
/// 4-bit pair in a byte of its own) plus a padded layout's padding.
fn buffer_bytes(memdesc: &MemDesc, layout: Option<&Layout>) -> usize {
    let mut elements: u64 = memdesc.alloc_shape.iter().map(|&d| d.max(0) as u64).product();
    if matches!(layout, Some(Layout::NvmmaShared(nvmma)) if nvmma.fp4_padded) {
        elements *= 2;
    }
    if let Some(intervals) = padded_shared_intervals(memdesc.encoding) {
        // `padding` elements after every `interval` ones, none after the last.
        let padding: u64 = intervals
            .iter()
            .filter(|(interval, _)| *interval > 0)
            .map(|&(interval, padding)| u64::from(padding) * (elements.saturating_sub(1) / u64::from(interval)))
            .sum();
        elements += padding;
    }
    elements as usize * element_bytes(memdesc.element_type)
}

/// Alignment of a `ttg.local_alloc`'s buffer, as upstream's
/// `getAlignmentOrDefault`: the op's `alignment` attribute, else the
/// encoding's: one whole swizzle pattern for nvmma tiles (128 bytes times
/// the pattern's phases, 1,024 for 128-byte swizzling: wgmma and TMA swizzle
/// by address bits), 16 bytes for any other layout.
fn buffer_alignment(op: &OperationRef, layout: Option<&Layout>) -> usize {
    if let Some(alignment) = int_attribute(op, "alignment").filter(|&a| a > 0) {
        return alignment as usize;
    }
    match layout {
        Some(Layout::NvmmaShared(nvmma)) => 128 * (nvmma.swizzling_byte_width as usize / 16).max(1),
        _ => 16,
    }
}

/// The innermost `ttg.warp_specialize` around `op` and the region holding
/// `op` (upstream compares the owners' parent regions), as keys. Upstream
/// allocates after convert-scf-to-cf, where the ops of scf regions sit in
/// blocks of the region around the scf op: that region is the one here.
fn concurrency_of(op: &OperationRef) -> Option<(usize, usize)> {
    let mut holder = *op;
    while let Some(parent) = holder.parent_operation().filter(|p| name_of(p).starts_with("scf.")) {
        holder = parent;
    }
    let region = holder.block()?.parent_region()?;
    let ws = tritium_dialects::ir::enclosing_named(op.parent_operation()?, "ttg.warp_specialize")?;
    Some((key(&ws), region.to_raw().ptr as usize))
}

fn key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The last position at which the buffer allocated by `alloc` (at `start`)
/// is used, following views, and covering whole loops it is used in.
fn last_use(alloc: OperationRef, position: &HashMap<usize, usize>, end: &[usize], start: usize) -> usize {
    let mut last = start;
    let mut pending: Vec<Value> = vec![alloc.result_at(0).unwrap().into()];
    let mut seen = std::collections::HashSet::new();
    while let Some(value) = pending.pop() {
        if !seen.insert(value.to_raw().ptr as usize) {
            continue;
        }
        for use_ in crate::ssa::uses(value) {
            let user = use_.owner;
            let Some(&at) = position.get(&key(&user)) else { continue };
            last = last.max(end[at]);
            // A use inside a loop that the allocation is outside of lasts the whole loop.
            let mut ancestor = user.parent_operation();
            while let Some(parent) = ancestor {
                let Some(&parent_at) = position.get(&key(&parent)) else { break };
                if parent_at < start && end[parent_at] >= start {
                    break; // the allocation is inside this op too
                }
                // And a use in a warp_specialize's default region lasts until its
                // partitions, which run at the same time, are done too.
                if matches!(name_of(&parent).as_str(), "scf.for" | "scf.while" | "ttg.warp_specialize") {
                    last = last.max(end[parent_at]);
                }
                ancestor = parent.parent_operation();
            }
            let user_name = name_of(&user);
            // Results that are views of the buffer (only memdescs can be:
            // the accumulator a warp_group_dot_wait returns is not).
            // warp_group_dot_wait passes its memdesc operands through.
            let passes_through = user_name == "ttng.warp_group_dot_wait" || user_name.starts_with("scf.");
            if crate::ir::MEMDESC_VIEWS.contains(&user_name.as_str()) || passes_through {
                for i in 0..user.result_count() {
                    let result = user.result_at(i).unwrap();
                    if MemDesc::of(result.r#type()).is_some() {
                        pending.push(result.into());
                    }
                }
            }
            // A buffer a region yields (or a while's condition forwards) is
            // the parent's result from then on, as upstream's alias
            // analysis follows region branches: an `scf.if` result read
            // after the if keeps both branches' buffers alive.
            let forwarded = match user_name.as_str() {
                "scf.yield" | "ttg.warp_yield" => Some(use_.index),
                "scf.condition" => use_.index.checked_sub(1),
                _ => None,
            };
            if let (Some(index), Some(parent)) = (forwarded, user.parent_operation()) {
                if let Ok(result) = parent.result_at(index) {
                    pending.push(result.into());
                }
            }
        }
    }
    last
}

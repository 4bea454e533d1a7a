//! Typed views of ops: an op of a known name with its operands by their ODS
//! names (`dot.c()`, upstream's `getC()`), in place of `operand_at(2)`.
//!
//! A view borrows the op (`OperationRef`) and derefs to it; `X::of(op)` is
//! the view when `op` is an `X` (by name), so that a match on a name and the
//! positions of its operands are written once, here. The ODS-generated
//! wrappers of [`crate::ops`] own their op and serve to build ops; these
//! serve to read them.
//!
//! Operands are declared by their ODS operand group: `name: N` a required
//! operand (a `Value`), `name: optional N` an optional one
//! (`Option<Value>`), `name: variadic N` a variadic group (`Vec<Value>`).
//! Group `N` is operand `N` unless the op has `operandSegmentSizes`, which
//! then says where each group starts. The IR is verified, so a required operand is there; a missing
//! one is a bug and panics (an internal-error diagnostic in a pass).
use melior::ir::{attribute::DenseI32ArrayAttribute, operation::OperationLike, OperationRef, Value};

/// The operands of group `group` of `op`; without segment sizes, a
/// `variadic` group takes every operand from `group` on.
fn operand_group<'c, 'a>(op: &OperationRef<'c, 'a>, group: usize, variadic: bool) -> Vec<Value<'c, 'a>> {
    let sizes = op.attribute("operandSegmentSizes").ok().and_then(|a| DenseI32ArrayAttribute::try_from(a).ok());
    let (start, count) = match sizes {
        Some(sizes) => {
            let size = |i: usize| sizes.element(i).map_or(0, |s| s.max(0) as usize);
            ((0..group).map(size).sum(), size(group))
        }
        None if variadic => (group, op.operand_count().saturating_sub(group)),
        None => (group, usize::from(group < op.operand_count())),
    };
    (start..start + count).filter_map(|i| op.operand(i).ok()).collect()
}

fn required<'c, 'a>(op: &OperationRef<'c, 'a>, group: usize, name: &str) -> Value<'c, 'a> {
    operand_group(op, group, false)
        .first()
        .copied()
        .unwrap_or_else(|| panic!("'{}' has no operand '{name}' (group {group})", crate::ir::name_of(op)))
}

fn optional<'c, 'a>(op: &OperationRef<'c, 'a>, group: usize) -> Option<Value<'c, 'a>> {
    operand_group(op, group, false).first().copied()
}

fn variadic<'c, 'a>(op: &OperationRef<'c, 'a>, group: usize) -> Vec<Value<'c, 'a>> {
    operand_group(op, group, true)
}

macro_rules! operand_accessor {
    ($operand:ident, $group:literal) => {
        pub fn $operand(&self) -> Value<'c, 'a> {
            required(&self.0, $group, stringify!($operand))
        }
    };
    ($operand:ident, optional $group:literal) => {
        pub fn $operand(&self) -> Option<Value<'c, 'a>> {
            optional(&self.0, $group)
        }
    };
    ($operand:ident, variadic $group:literal) => {
        pub fn $operand(&self) -> Vec<Value<'c, 'a>> {
            variadic(&self.0, $group)
        }
    };
}

macro_rules! views {
    ($(
        $(#[$doc:meta])*
        $view:ident = $($name:literal)|+ { $($operand:ident: $($kind:ident)? $group:literal),* $(,)? }
    )*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct $view<'c, 'a>(OperationRef<'c, 'a>);

        impl<'c, 'a> $view<'c, 'a> {
            /// The op names this view reads.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// `op` as this view, when it is one of [`Self::NAMES`].
            pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
                let name = op.name();
                let name = name.as_string_ref().as_str().ok()?;
                Self::NAMES.contains(&name).then_some(Self(op))
            }

            /// The op itself.
            pub fn op(&self) -> OperationRef<'c, 'a> {
                self.0
            }

            $(operand_accessor!($operand, $($kind)? $group);)*
        }

        impl<'c, 'a> std::ops::Deref for $view<'c, 'a> {
            type Target = OperationRef<'c, 'a>;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }
    )*};
}

views! {
    /// `tt.dot`: `d = a * b + c`.
    DotOp = "tt.dot" { a: 0, b: 1, c: 2 }
    /// `ttng.warp_group_dot`: `d = a * b + c` (c only where `use_c`).
    WarpGroupDotOp = "ttng.warp_group_dot" { a: 0, b: 1, c: 2, use_c: optional 3 }
    /// `tt.load`.
    LoadOp = "tt.load" { ptr: 0, mask: optional 1, other: optional 2 }
    /// `tt.store`.
    StoreOp = "tt.store" { ptr: 0, value: 1, mask: optional 2 }
    /// `tt.advance`: a block pointer moved by one offset per dimension.
    AdvanceOp = "tt.advance" { ptr: 0, offsets: variadic 1 }
    /// `tt.addptr`.
    AddPtrOp = "tt.addptr" { ptr: 0, offset: 1 }
    /// `tt.splat`.
    SplatOp = "tt.splat" { src: 0 }
    /// `tt.expand_dims`.
    ExpandDimsOp = "tt.expand_dims" { src: 0 }
    /// `tt.broadcast`.
    BroadcastOp = "tt.broadcast" { src: 0 }
    /// `tt.trans`.
    TransOp = "tt.trans" { src: 0 }
    /// `tt.reshape`.
    ReshapeOp = "tt.reshape" { src: 0 }
    /// `ttg.convert_layout`.
    ConvertLayoutOp = "ttg.convert_layout" { src: 0 }
    /// `ttg.memdesc_trans`.
    MemDescTransOp = "ttg.memdesc_trans" { src: 0 }
    /// `tt.reduce` and `tt.scan`.
    ReductionOp = "tt.reduce" | "tt.scan" { srcs: variadic 0 }
    /// `tt.gather`.
    GatherOp = "tt.gather" { src: 0, indices: 1 }
    /// `tt.atomic_rmw` and `tt.atomic_cas` (whose pointer comes first).
    AtomicOp = "tt.atomic_rmw" | "tt.atomic_cas" { ptr: 0 }
    /// `tt.make_tensor_descriptor` (then as many shapes as strides, one per
    /// dimension).
    MakeTensorDescOp = "tt.make_tensor_descriptor" { base: 0 }
    /// `tt.descriptor_load`.
    DescriptorLoadOp = "tt.descriptor_load" { desc: 0, indices: variadic 1 }
    /// `tt.descriptor_store` and `tt.descriptor_reduce`.
    DescriptorStoreOp = "tt.descriptor_store" | "tt.descriptor_reduce" { desc: 0, src: 1, indices: variadic 2 }
    /// `tt.descriptor_gather`.
    DescriptorGatherOp = "tt.descriptor_gather" { desc: 0, x_offsets: 1, y_offset: 2 }
    /// `tt.descriptor_scatter`.
    DescriptorScatterOp = "tt.descriptor_scatter" { desc: 0, x_offsets: 1, y_offset: 2, src: 3 }
    /// `ttg.local_alloc`, with the tensor it is initialised from, if any.
    LocalAllocOp = "ttg.local_alloc" { src: optional 0 }
    /// `ttg.memdesc_index`: buffer `index` of a multi-buffered `src`.
    MemDescIndexOp = "ttg.memdesc_index" { src: 0, index: 1 }
    /// `ttg.local_load`.
    LocalLoadOp = "ttg.local_load" { src: 0, token: optional 1 }
    /// `ttg.local_store`.
    LocalStoreOp = "ttg.local_store" { src: 0, dst: 1 }
    /// `ttg.mask`: its region runs where `pred` holds.
    MaskOp = "ttg.mask" { pred: 0 }
    /// `ttng.wait_barrier`.
    WaitBarrierOp = "ttng.wait_barrier" { alloc: 0, phase: 1, pred: optional 2, deps: variadic 3 }
    /// `tt.atomic_rmw`.
    AtomicRMWOp = "tt.atomic_rmw" { ptr: 0, val: 1, mask: optional 2 }
    /// `ttg.async_copy_global_to_local` (cp.async into `result`, a buffer).
    AsyncCopyGlobalToLocalOp = "ttg.async_copy_global_to_local" {
        src: 0, result: 1, mask: optional 2, other: optional 3
    }
    /// `ttng.tc_gen5_commit`.
    TcGen5CommitOp = "ttng.tc_gen5_commit" { barrier: 0, pred: optional 1 }
    /// `tt.fp_to_fp`.
    FpToFpOp = "tt.fp_to_fp" { src: 0 }
    /// `tt.assert`.
    AssertOp = "tt.assert" { condition: 0 }
    /// `arith.select`.
    SelectOp = "arith.select" { condition: 0, true_value: 1, false_value: 2 }
    /// `scf.for`.
    ForOp = "scf.for" { lower_bound: 0, upper_bound: 1, step: 2, init_args: variadic 3 }
    /// `scf.if`.
    IfOp = "scf.if" { condition: 0 }
    /// The NVWS token ops of upstream's Hopper warp specialization (buffer
    /// `idx` of `token`; the waits' `phase`).
    TokenSyncOp = "nvws.producer_acquire"
        | "nvws.producer_commit"
        | "nvws.consumer_wait"
        | "nvws.consumer_release" { token: 0, idx: 1, phase: optional 2 }
    /// `arith.cmpi` (`lhs <predicate> rhs`).
    CmpIOp = "arith.cmpi" { lhs: 0, rhs: 1 }
    /// Additions (`lhs + rhs`).
    AddOp = "arith.addi" | "arith.addf" { lhs: 0, rhs: 1 }
    /// Subtractions (`lhs - rhs`).
    SubOp = "arith.subi" | "arith.subf" { lhs: 0, rhs: 1 }
    /// Integer divisions (`lhs / rhs`), rounding down or up.
    DivIOp = "arith.divui" | "arith.divsi" | "arith.ceildivui" | "arith.ceildivsi" { lhs: 0, rhs: 1 }
    /// `builtin.unrealized_conversion_cast`.
    UnrealizedConversionCastOp = "builtin.unrealized_conversion_cast" { inputs: variadic 0 }
    /// `tt.join`: `lhs` and `rhs` side by side along a new minor dimension.
    JoinOp = "tt.join" { lhs: 0, rhs: 1 }
    /// `tt.split`.
    SplitOp = "tt.split" { src: 0 }
    /// `tt.histogram`.
    HistogramOp = "tt.histogram" { src: 0, mask: optional 1 }
    /// `tt.clampf`: `x` clamped to [`min`, `max`].
    ClampFOp = "tt.clampf" { x: 0, min: 1, max: 2 }
    /// `tt.reduce.return` and `tt.scan.return`: the combiner's results.
    ReductionReturnOp = "tt.reduce.return" | "tt.scan.return" { result: variadic 0 }
    /// `ttg.fp4_to_fp`.
    Fp4ToFpOp = "ttg.fp4_to_fp" { src: 0 }
    /// `ttg.memdesc_subslice`.
    MemDescSubsliceOp = "ttg.memdesc_subslice" { src: 0 }
    /// The memdesc views (upstream's `MemDescViewTrait`): the bytes of `src`,
    /// seen otherwise.
    MemDescViewOp = "ttg.memdesc_index"
        | "ttg.memdesc_subslice"
        | "ttg.memdesc_trans"
        | "ttg.memdesc_reshape"
        | "ttg.memdesc_reinterpret" { src: 0 }
    /// `ttg.async_wait`: waits for the copies of its tokens.
    AsyncWaitOp = "ttg.async_wait" { async_token: variadic 0 }
    /// `tti.experimental_assert_in_thread`.
    AssertInThreadOp = "tti.experimental_assert_in_thread" { condition: 0 }
    /// `nvg.wgmma`: `op_a * op_b`, plus `op_c` where `use_c`.
    WgmmaOp = "nvg.wgmma" { op_a: 0, op_b: 1, use_c: 2, op_c: optional 3 }
    /// `nvg.wgmma_wait_group`.
    WgmmaWaitGroupOp = "nvg.wgmma_wait_group" { input: 0 }
    /// `nvg.ld_acquire`.
    LoadAcquireOp = "nvg.ld_acquire" { addr: 0, mask: optional 1 }
    /// `nvws.aref.create`: an aref over `buffers`.
    ArefCreateOp = "nvws.aref.create" { buffers: variadic 0 }
    /// `nvws.aref.buffer`: the buffers of stage `stage` of `aref`.
    ArefBufferOp = "nvws.aref.buffer" { aref: 0, token: 1, stage: optional 2 }
    /// `nvws.aref.put.enter` and `nvws.aref.get.enter` (stage and phase
    /// both or neither; `operandSegmentSizes`).
    ArefEnterOp = "nvws.aref.put.enter" | "nvws.aref.get.enter" { aref: 0, stage: optional 1, phase: optional 2 }
    /// `nvws.aref.put.exit` and `nvws.aref.get.exit`.
    ArefExitOp = "nvws.aref.put.exit" | "nvws.aref.get.exit" { aref: 0, token: 1, stage: optional 2 }
    /// The ops of upstream's `DotOpInterface` (`getA()`, `getB()`); see also
    /// [`DotLikeOp::accumulator`].
    DotLikeOp = "tt.dot"
        | "tt.dot_scaled"
        | "ttng.warp_group_dot"
        | "ttng.tc_gen5_mma"
        | "ttng.tc_gen5_mma_scaled" { a: 0, b: 1 }
    /// The ops that read or write through a tensor descriptor `desc` (its
    /// first operand, upstream's `getDesc()`).
    DescriptorOp = "tt.descriptor_load"
        | "tt.descriptor_gather"
        | "tt.descriptor_store"
        | "tt.descriptor_reduce"
        | "tt.descriptor_scatter" { desc: 0 }
    /// Every op whose first operand is a required `src` (upstream's
    /// `getSrc()`): conversions, shape ops, memdesc views, shared and tensor
    /// memory accesses. For walks through chains of such ops, where the
    /// caller's match on names says which ones it walks through.
    SrcOp = "tt.bitcast"
        | "tt.int_to_ptr"
        | "tt.ptr_to_int"
        | "tt.fp_to_fp"
        | "tt.splat"
        | "tt.unsplat"
        | "tt.expand_dims"
        | "tt.reshape"
        | "tt.broadcast"
        | "tt.split"
        | "tt.trans"
        | "tt.histogram"
        | "tt.gather"
        | "ttg.convert_layout"
        | "ttg.async_copy_global_to_local"
        | "ttg.local_dealloc"
        | "ttg.local_load"
        | "ttg.local_store"
        | "ttg.memdesc_index"
        | "ttg.memdesc_subslice"
        | "ttg.memdesc_trans"
        | "ttg.memdesc_reshape"
        | "ttg.memdesc_reinterpret"
        | "ttg.fp4_to_fp"
        | "ttng.tmem_load"
        | "ttng.tmem_subslice"
        | "ttng.tmem_copy" { src: 0 }
}

impl<'c, 'a> DotLikeOp<'c, 'a> {
    /// The accumulator: `c` of `tt.dot`, `tt.dot_scaled` and
    /// `ttng.warp_group_dot`, `d` of the tcgen05 MMAs (their third operand
    /// group all).
    pub fn accumulator(&self) -> Value<'c, 'a> {
        required(&self.0, 2, "accumulator")
    }
}

impl DescriptorStoreOp<'_, '_> {
    /// The position of `desc` among the operands (the op has no operand
    /// segments, and each group before `indices` is one operand).
    pub const DESC_INDEX: usize = 0;
    /// The position of the first of `indices` among the operands.
    pub const INDICES_INDEX: usize = 2;
}

//! `tritongpu-accelerate-matmul` (upstream `AccelerateMatmul.cpp`): moves
//! every `tt.dot` the target's tensor cores can compute onto them.
//!
//! - sm_80 and later: `mma.sync` (MMA v2): the result gets an
//!   `#ttg.nvidia_mma` v2 layout and the operands `#ttg.dot_op` layouts of
//!   it, with `kWidth` from the width the operands were loaded with.
//! - sm_90: `wgmma` (MMA v3, `ttng.warp_group_dot`) when the shape and types
//!   allow (else v2, with a remark): B, and A when it comes from a load, are
//!   stored to shared memory (`ttg.local_alloc` in an `#ttg.nvmma_shared`
//!   layout); A computed in registers stays there in a `#ttg.dot_op` layout.
//! - Dots no instruction supports (f32 with ieee precision, ...) stay FMA
//!   dots; their operands are upcast to the result's type, and fp8 operands
//!   of `mma.sync` to f16 where the target has no fp8 `mma.sync`.
//!
//! The target is the module's `ttg.target` (`cuda:<capability>`). The
//! rewrite runs as a pattern in MLIR's greedy driver, as upstream's, so the
//! dot's old operand conversions are erased when dead. Blackwell's tcgen05
//! dots are not supported yet; `tt.dot_scaled` is decomposed into an
//! ordinary dot of upcast, scaled operands (scaled.rs), as upstream does
//! before Blackwell.
mod elements;
mod mixed_mode;
mod mma_choice;
mod operands;
mod scaled;
mod slices;

use crate::greedy::apply_with_folds;
use crate::ir::{create, fail, tensor_parts, tensor_type};
use crate::pattern_driver::report_error;
use elements::{element_bits, element_kind};
use melior::ir::{operation::OperationLike, Attribute, OperationRef, Value, ValueLike};
use mma_choice::{instr_shape, mma_version, warps_per_tile, Dot};
use operands::{comes_from_load_or_block_arg, convert_to_dot_operand, loaded_bit_width, shared_memory_operand};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::ScalarKind;
use tritium_dialects::target::lookup_num_warps;
use tritium_dialects::views::DotOp;
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::{emit_remark, PassDefinition, PassFailed, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
};
use tritium_layout::{Layout, NvidiaMma};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-accelerate-matmul",
    description: "Compute dots on the target's tensor cores (mma.sync, wgmma) where they can",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let capability = compute_capability(module)?;
    scaled::transpose_dots(module).map_err(|message| fail(&module, message))?;
    apply_with_folds(module, &[&BLOCKED_TO_MMA, &scaled::DECOMPOSE_SCALED_BLOCKED])?;
    mixed_mode::promote_unsupported_operands(module, capability)
}

/// The compute capability of the module's `ttg.target` (`cuda:90` -> 90).
fn compute_capability(module: OperationRef) -> Result<u32, PassFailed> {
    tritium_dialects::target::required_capability(&module).map_err(|e| fail(&module, e.0))
}

static BLOCKED_TO_MMA: Pattern = Pattern { root: "tt.dot", benefit: 1, rewrite: blocked_to_mma };

fn blocked_to_mma(dot: OperationRef, rewriter: &Rewriter) -> bool {
    match rewrite_for_tensor_cores(dot, rewriter) {
        Ok(changed) => changed,
        Err(message) => {
            report_error(&dot, message);
            false
        }
    }
}

/// Reads the parts of `op` the instruction choice needs.
fn read_dot<'c, 'a>(op: OperationRef<'c, 'a>, result_layout: &Layout) -> Result<Dot<'c, 'a>, String> {
    let operands = DotOp::of(op).ok_or("not a tt.dot")?;
    let (a, b) = (operands.a(), operands.b());
    let result_type = op.result_at(0).map_err(|e| e.to_string())?.r#type();
    let (shape, _, _) = tensor_parts(result_type).ok_or("dot results must be tensors")?;
    let (a_shape, _, _) = tensor_parts(a.r#type()).ok_or("dot operands must be tensors")?;
    if shape.len() < 2 {
        return Err("dot results must have rank 2 or 3".into());
    }
    let num_warps =
        lookup_num_warps(&op).map_err(|e| e.0)?.ok_or("the dot is not in a module or function with ttg.num-warps")?;
    Ok(Dot {
        op,
        a,
        b,
        a_type: a.r#type(),
        b_type: b.r#type(),
        a_shape,
        result_type,
        shape_per_cta: result_layout.shape_per_cta(&shape).map_err(|e| e.to_string())?,
        num_warps: i64::from(num_warps),
    })
}

/// Upstream's `BlockedToMMA` pattern: `Ok(false)` when the dot stays as it
/// is.
fn rewrite_for_tensor_cores(op: OperationRef, rewriter: &Rewriter) -> Result<bool, String> {
    let module = crate::ir::enclosing_module(op).ok_or("the dot is not in a module")?;
    let capability = compute_capability(module).map_err(|_| "invalid target".to_string())?;
    let Some((dot, version, mma)) = choose_mma(op, capability)? else { return Ok(false) };
    rewrite_onto_mma(rewriter, &dot, version, &mma)?;
    Ok(true)
}

/// The MMA version and result layout for the dot `op` on compute capability
/// `capability`, or `None` when it stays an FMA dot (or is one already
/// rewritten).
fn choose_mma<'c, 'a>(op: OperationRef<'c, 'a>, capability: u32) -> Result<Option<(Dot<'c, 'a>, u32, Layout)>, String> {
    if capability < 70 {
        return Ok(None);
    }
    if capability < 80 {
        emit_remark(
            op.location(),
            &format!("Dot op using MMA for compute capability {capability} has been deprecated. It falls back to the FMA path."),
        );
        return Ok(None);
    }
    let result_type = op.result_at(0).map_err(|e| e.to_string())?.r#type();
    let Some((_, _, Some(encoding))) = tensor_parts(result_type) else { return Ok(None) };
    let result_layout = layout_of(encoding).map_err(|e| e.to_string())?;
    if matches!(result_layout, Layout::NvidiaMma(_)) {
        return Ok(None);
    }
    let dot = read_dot(op, &result_layout)?;
    // f64 tensor cores are fast only on sm_80 and sm_90.
    let any_f64 = [dot.a_type, dot.b_type, dot.result_type].into_iter().any(|t| element_kind(t) == ScalarKind::F64);
    if any_f64 && capability != 80 && capability != 90 {
        return Ok(None);
    }
    let version = mma_version(capability, &dot)?;
    if version == 5 {
        return Err("Blackwell's tcgen05 MMA (MMA v5) is not supported yet".into());
    }
    if version != 2 && version != 3 {
        return Ok(None);
    }
    let instr = instr_shape(version, &dot.shape_per_cta, dot.a_type, dot.num_warps)?;
    let warps = warps_per_tile(&dot, version);
    let cta = result_layout.cta_layout().map_err(|e| e.to_string())?;
    // Minor version 1 is Turing's, which falls back to FMA above.
    let mma = Layout::NvidiaMma(NvidiaMma::new(version, 0, &warps, &instr).with_cta(cta));
    Ok(Some((dot, version, mma)))
}

/// Replaces `dot` with a dot of result layout `mma` (a `ttng.warp_group_dot`
/// for v3) between conversions of the accumulator to `mma` and of the
/// result back; the operands go to registers or shared memory as the
/// instruction takes them.
fn rewrite_onto_mma(rewriter: &Rewriter, dot: &Dot, version: u32, mma: &Layout) -> Result<(), String> {
    let op = dot.op;
    let (shape, result_element, _) = tensor_parts(dot.result_type).ok_or("dot results must be tensors")?;
    let mma_attribute = attribute_of(mma, op.location()).ok_or("invalid MMA layout")?;
    let new_result_type = tensor_type(&shape, result_element, Some(mma_attribute));
    rewriter.set_insertion_point_before(&op);
    let accumulator = DotOp::of(op).ok_or("not a tt.dot")?.c();
    let accumulator = rewriter.insert(create(
        "ttg.convert_layout",
        operands::location_of(accumulator),
        &[accumulator],
        &[new_result_type],
        &[],
    ));
    let accumulator: Value = accumulator.result_at(0).map_err(|e| e.to_string())?.into();
    let precision_attributes: Vec<(&str, Attribute)> = ["inputPrecision", "maxNumImpreciseAcc"]
        .into_iter()
        .filter_map(|name| op.attribute(name).ok().map(|a| (name, a)))
        .collect();
    let new_dot = if version == 3 {
        // wgmma transposes 16-bit operands in shared memory, other types
        // must be stored K-contiguous.
        let allow_transpose = matches!(element_kind(dot.a_type), ScalarKind::F16 | ScalarKind::BF16);
        let a = if comes_from_load_or_block_arg(dot.a) {
            shared_memory_operand(rewriter, &op, dot.a, 0, allow_transpose)?
        } else {
            convert_to_dot_operand(rewriter, dot.a, 0, element_bits(dot.a_type), mma)?
        };
        let b = shared_memory_operand(rewriter, &op, dot.b, 1, allow_transpose)?;
        create("ttng.warp_group_dot", op.location(), &[a, b, accumulator], &[new_result_type], &precision_attributes)
    } else {
        // kWidth from the narrowest width either operand was loaded with.
        let bits = loaded_bit_width(dot.a).min(loaded_bit_width(dot.b));
        let a = convert_to_dot_operand(rewriter, dot.a, 0, bits, mma)?;
        let b = convert_to_dot_operand(rewriter, dot.b, 1, bits, mma)?;
        create("tt.dot", op.location(), &[a, b, accumulator], &[new_result_type], &precision_attributes)
    };
    let new_dot = rewriter.insert(new_dot);
    let new_result: Value = new_dot.result_at(0).map_err(|e| e.to_string())?.into();
    let back = create("ttg.convert_layout", op.location(), &[new_result], &[dot.result_type], &[]);
    rewriter.replace_op_with_new(&op, back);
    Ok(())
}

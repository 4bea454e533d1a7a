//! Which tensor-core instruction a dot gets, and the parameters of its
//! `#ttg.nvidia_mma` layout (upstream `supportMMA`, `getMMAVersionSafe`,
//! `mmaVersionToInstrShape`, `warpsPerTileV2` / `V3`).
use super::elements::{element_bits, element_kind, is_mma_fp8};
use super::slices::{connected_slice, forward_slice};
use crate::ir::{int_attribute, name_of, tensor_parts};
use melior::ir::{operation::OperationLike, OperationRef, Type, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::ScalarKind;
use tritium_dialects::pass::emit_remark;

/// `tt.dot`'s `inputPrecision` for tf32 (the enum's value 0).
const TF32: i64 = 0;
/// `inputPrecision` when the attribute is absent (ieee).
const DEFAULT_PRECISION: i64 = 2;

/// Ops implementing upstream's `DotOpInterface`.
pub fn is_dot_like(op: &OperationRef) -> bool {
    matches!(
        name_of(op).as_str(),
        "tt.dot" | "tt.dot_scaled" | "ttng.warp_group_dot" | "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled"
    )
}

/// The pieces of a `tt.dot` the rules look at.
pub struct Dot<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub a: Value<'c, 'a>,
    pub b: Value<'c, 'a>,
    pub a_type: Type<'c>,
    pub b_type: Type<'c>,
    /// Shape of A.
    pub a_shape: Vec<i64>,
    pub result_type: Type<'c>,
    /// The result's shape within one CTA.
    pub shape_per_cta: Vec<i64>,
    pub num_warps: i64,
}

impl Dot<'_, '_> {
    pub fn input_precision(&self) -> i64 {
        int_attribute(&self.op, "inputPrecision").unwrap_or(DEFAULT_PRECISION)
    }

    fn max_num_imprecise_acc(&self) -> i64 {
        int_attribute(&self.op, "maxNumImpreciseAcc").unwrap_or(0)
    }

    fn rank(&self) -> usize {
        self.shape_per_cta.len()
    }

    /// (M, N) of the result within one CTA.
    fn m_n(&self) -> (i64, i64) {
        let rank = self.rank();
        (self.shape_per_cta[rank - 2], self.shape_per_cta[rank - 1])
    }
}

/// `DISABLE_MMA_V3` / `DISABLE_MMA_V5`, read as upstream's `getBoolEnv`.
fn disabled_by_environment(variable: &str) -> bool {
    std::env::var(variable).is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "on" | "yes" | "y"))
}

/// Whether MMA `version` can compute `dot` (upstream `supportMMA`).
pub fn supports_mma(dot: &Dot, version: u32) -> bool {
    let a = element_kind(dot.a_type);
    let b = element_kind(dot.b_type);
    let a_bits = i64::from(element_bits(dot.a_type).max(1));
    // The instruction's K: 256 bits of A.
    let k_too_small = dot.a_shape.last().is_some_and(|&k| k < 256 / a_bits);
    let (m, n) = dot.m_n();
    if version == 5 {
        let result = element_kind(dot.result_type);
        return !disabled_by_environment("DISABLE_MMA_V5")
            && !matches!(a, ScalarKind::Int(_))
            && !matches!(b, ScalarKind::Int(_))
            && !matches!(result, ScalarKind::Int(_))
            && dot.rank() == 2
            && matches!(dot.num_warps, 4 | 8)
            && !k_too_small
            && m % 64 == 0
            && n % 16 == 0;
    }
    if version == 3 {
        if disabled_by_environment("DISABLE_MMA_V3") || k_too_small || dot.rank() == 3 {
            return false;
        }
        let wgmma_type = matches!(
            a,
            ScalarKind::NativeFp8 | ScalarKind::Int(8) | ScalarKind::F16 | ScalarKind::BF16 | ScalarKind::F32
        );
        if !(dot.num_warps % 4 == 0 && m % 64 == 0 && n % 16 == 0 && wgmma_type) {
            return false;
        }
        // fp8 wgmma accumulates in f32 only every 32 products or more.
        if dot.max_num_imprecise_acc() < 32
            && a == ScalarKind::NativeFp8
            && element_kind(dot.result_type) == ScalarKind::F32
        {
            return false;
        }
    }
    if a == ScalarKind::F32 && b == ScalarKind::F32 {
        return dot.input_precision() == TF32 && version >= 2;
    }
    operand_supports_mma(dot.a_type, version) && operand_supports_mma(dot.b_type, version)
}

/// Element types tensor cores take (fp8 always, upcast where needed).
fn operand_supports_mma(ty: Type, version: u32) -> bool {
    is_mma_fp8(ty)
        || match element_kind(ty) {
            ScalarKind::F16 | ScalarKind::BF16 => true,
            ScalarKind::F32 | ScalarKind::F64 | ScalarKind::Int(8) => version >= 2,
            _ => false,
        }
}

/// The MMA version for `dot` on compute capability `capability`: the first
/// of the target's versions, in order of preference, that supports it; 0 for
/// none (FMA). Remarks say when a preferred version was passed over.
pub fn mma_version(capability: u32, dot: &Dot) -> Result<u32, String> {
    let preferred: &[u32] = match capability {
        0..75 => &[1],
        75..90 => &[2],
        90..100 => &[3, 2],
        100..110 => &[5, 2],
        110..130 => &[2],
        _ => return Err(format!("compute capability {capability} is not supported")),
    };
    for &version in preferred {
        if supports_mma(dot, version) {
            return Ok(version);
        }
        if version == 3 || version == 5 {
            emit_remark(
                dot.op.location(),
                &format!("MMA version {version} acceleration not applied due to unsupported shapes or data types."),
            );
        }
    }
    Ok(0)
}

/// The shape of one MMA instruction (upstream `mmaVersionToInstrShape`):
/// `[16, 8]` tiles for v2 (batch dims 1); for v3 `[16, N, K]` with K 256
/// bits of A and the largest N the type allows that divides the result's N
/// and leaves work for every warp.
pub fn instr_shape(version: u32, shape_per_cta: &[i64], a_type: Type, num_warps: i64) -> Result<Vec<u32>, String> {
    match version {
        2 => {
            let rank = shape_per_cta.len();
            let mut shape = vec![1; rank];
            shape[rank - 1] = 8;
            shape[rank - 2] = 16;
            Ok(shape)
        }
        3 => {
            let bits = element_bits(a_type);
            let (m_total, n_total) = (shape_per_cta[0], shape_per_cta[1]);
            if bits == 0 || m_total % 64 != 0 || n_total % 8 != 0 {
                return Err(format!("no wgmma instruction for a {m_total}x{n_total} result"));
            }
            let k = 256 / bits;
            let valid_n: Vec<u32> = match element_kind(a_type) {
                ScalarKind::NativeFp8 | ScalarKind::F16 | ScalarKind::BF16 | ScalarKind::F32 => {
                    (1..=32).rev().map(|i| 8 * i).collect()
                }
                ScalarKind::Int(8) => vec![224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8],
                _ => Vec::new(),
            };
            let m = 16;
            let m_warps = (m_total / i64::from(m)).max(1);
            let n_warps = (num_warps / m_warps).max(1);
            let max_n = (n_total / n_warps).max(8);
            valid_n
                .into_iter()
                .find(|&n| n_total % i64::from(n) == 0 && i64::from(n) <= max_n)
                .map(|n| vec![m, n, k])
                .ok_or_else(|| "no wgmma instruction for this element type".to_string())
        }
        v => Err(format!("MMA version {v} is not supported")),
    }
}

/// How the warps of a CTA tile the result (upstream `getWarpsPerTile`).
pub fn warps_per_tile(dot: &Dot, version: u32) -> Vec<u32> {
    let num_warps = dot.num_warps as u32;
    if version == 3 {
        warps_per_tile_v3(dot, num_warps)
    } else {
        warps_per_tile_v2(dot, num_warps)
    }
}

/// MMA v2: chained dots (flash attention) keep all warps along one dim so
/// that reductions of the result stay within a warp; other dots balance the
/// register tiles of A and B.
fn warps_per_tile_v2(dot: &Dot, num_warps: u32) -> Vec<u32> {
    let shape = &dot.shape_per_cta;
    if shape.len() == 3 {
        return vec![num_warps, 1, 1];
    }
    let region = parent_region(&dot.op);
    let same_region_not_trans = |op: &OperationRef| parent_region(op) == region && name_of(op) != "tt.trans";
    let mut has_chained_dot = false;
    for op in connected_slice(dot.op, same_region_not_trans) {
        if op == dot.op || !matches!(name_of(&op).as_str(), "tt.dot" | "tt.dot_scaled") {
            continue;
        }
        let Some(result) = op.result_at(0).ok() else { continue };
        let Some((other_shape, _, Some(encoding))) = tensor_parts(result.r#type()) else { continue };
        if other_shape.len() != shape.len() {
            continue;
        }
        // A chained dot rewritten already: use the same tiling.
        if let Ok(tritium_layout::Layout::NvidiaMma(mma)) = tritium_dialects::layout::layout_of(encoding) {
            return mma.warps_per_cta;
        }
        has_chained_dot = true;
    }
    if has_chained_dot {
        return if shape[0] >= shape[1] { vec![num_warps, 1] } else { vec![1, num_warps] };
    }
    // Registers per thread: repM * 4 * repK (A) + repN * 2 * repK (B) + the
    // result's; balance repM and repN, ties towards M (A tiles are larger).
    let mut warps = [1u32, 1];
    let mut reps = [(shape[0] + 15) / 16, (shape[1] + 7) / 8];
    while warps[0] * warps[1] < num_warps {
        if reps[0] >= reps[1] {
            warps[0] *= 2;
            // Spare warps (a single tile) go to M.
            if reps[0] != 1 {
                reps[0] /= 2;
            }
        } else {
            warps[1] *= 2;
            reps[1] /= 2;
        }
    }
    warps.to_vec()
}

/// The region `op` is in, as an identity.
fn parent_region(op: &OperationRef) -> Option<usize> {
    op.block().map(|block| tritium_dialects::ir::parent_region_key(&block))
}

/// MMA v3: warp groups of 4 warps along M; chained dots keep every warp
/// along M, others double along M while M has rows left, else along N.
fn warps_per_tile_v3(dot: &Dot, num_warps: u32) -> Vec<u32> {
    let chained = dot.op.result_at(0).is_ok_and(|d| forward_slice(d.into()).iter().any(is_dot_like));
    if chained {
        return vec![num_warps, 1];
    }
    let m = dot.shape_per_cta[0];
    let mut warps = [4u32, 1];
    while warps[0] * warps[1] < num_warps {
        if m > 16 * i64::from(warps[0]) {
            warps[0] *= 2;
        } else {
            warps[1] *= 2;
        }
    }
    warps.to_vec()
}

//! The layout questions of the ops' C++ verifiers, answered with the linear
//! layouts of `tritium-layout` (`tritium::checkLayouts` in `Dialects.h`):
//! whether `tt.trans` and `tt.split` results have the layout upstream's
//! inference gives (up to equivalence), whether `tt.join` operands have the
//! layout a split of its result gives, and whether a `ttg.memdesc_subslice`
//! cuts through its swizzling pattern.
//!
//! Whatever cannot be computed (a layout kind the crate does not read, a
//! shape that is not a power of two, a panic) is `UNKNOWN`, which the
//! verifiers accept: an inference Tritium lacks must not reject valid IR.
use crate::ffi;
use crate::layout::{attribute_of, layout_of};
use melior::ir::{Attribute, AttributeLike, Location};
use mlir_sys::{MlirAttribute, MlirLocation};
use std::ffi::CString;
use std::os::raw::c_int;
use std::sync::Once;
use tritium_layout::infer::{self, InferError};
use tritium_layout::Layout;

const QUERY_TRANS: c_int = 0;
const QUERY_SPLIT: c_int = 1;
const QUERY_JOIN: c_int = 2;
const QUERY_SUBSLICE: c_int = 3;
const QUERY_FP4_TO_FP: c_int = 4;

const COMPATIBLE: c_int = 0;
const INCOMPATIBLE: c_int = 1;
const REJECTED: c_int = 2;
const UNKNOWN: c_int = 3;

/// A verdict, with the inferred layout when it is not the op's.
enum Verdict {
    Compatible,
    /// The op's layout differs from this inferred one (`None`: from a
    /// missing layout, nothing to show).
    Incompatible(Option<Layout>),
    /// Upstream's rule rejects the input with this message (emitted unless
    /// empty).
    Rejected(String),
    Unknown,
}

impl From<InferError> for Verdict {
    fn from(error: InferError) -> Self {
        match error {
            InferError::Rejected(message) => Verdict::Rejected(message),
            InferError::Unsupported(_) => Verdict::Unknown,
        }
    }
}

/// Compares the layout `inferred` with the op's (`actual`, absent when the
/// op's type has none) over `shape`.
fn compare(inferred: Layout, actual: Option<Layout>, shape: &[i64]) -> Verdict {
    let Some(actual) = actual else {
        return Verdict::Incompatible(Some(inferred));
    };
    match infer::equivalent(shape, &inferred, &actual) {
        Ok(true) => Verdict::Compatible,
        Ok(false) => Verdict::Incompatible(Some(inferred)),
        Err(_) => Verdict::Unknown,
    }
}

fn permuted(shape: &[i64], order: &[usize]) -> Option<Vec<i64>> {
    order.iter().map(|&d| shape.get(d).copied()).collect()
}

/// One query: `source` is always a layout, `result` may be absent (the
/// C++ side passes null) or a layout Tritium does not read (`Err`).
fn answer(query: c_int, source: Layout, result: Option<Result<Layout, ()>>, shape: &[i64], extra: &[i64]) -> Verdict {
    let result = match result {
        None => None,
        Some(Ok(layout)) => Some(layout),
        Some(Err(())) => return Verdict::Unknown,
    };
    match query {
        QUERY_TRANS => {
            let Some(order) = extra.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<Vec<usize>>>() else {
                return Verdict::Unknown;
            };
            let Some(result_shape) = permuted(shape, &order) else { return Verdict::Unknown };
            match infer::transposed(&source, shape, &order) {
                Ok(inferred) => compare(inferred, result, &result_shape),
                Err(error) => error.into(),
            }
        }
        QUERY_SPLIT => match infer::split_halves(&source, shape) {
            Ok(inferred) => compare(inferred, result, &shape[..shape.len().saturating_sub(1)]),
            Err(error) => error.into(),
        },
        // `source` is the join's result layout, `result` its operands'.
        QUERY_JOIN => match infer::split_halves(&source, shape) {
            Ok(inferred) => match compare(inferred, result, &shape[..shape.len().saturating_sub(1)]) {
                // Upstream names no layout here.
                Verdict::Incompatible(_) => Verdict::Incompatible(None),
                verdict => verdict,
            },
            Err(error) => error.into(),
        },
        QUERY_SUBSLICE => {
            let rank = extra.len() / 2;
            if extra.len() != 2 * rank || shape.len() != rank {
                return Verdict::Unknown;
            }
            match infer::subslice_crosses_swizzling(&source, shape, &extra[..rank], &extra[rank..]) {
                Ok(true) => Verdict::Incompatible(None),
                Ok(false) => Verdict::Compatible,
                Err(_) => Verdict::Unknown,
            }
        }
        // `source` is the result layout, `result` the packed source's,
        // `shape` the result shape, `extra` the axis.
        QUERY_FP4_TO_FP => {
            let Some(axis) = extra.first().and_then(|&a| usize::try_from(a).ok()).filter(|&a| a < shape.len()) else {
                return Verdict::Unknown;
            };
            let mut packed_shape = shape.to_vec();
            packed_shape[axis] /= 2;
            match infer::fp4_packed_source(&source, shape, axis) {
                Ok(inferred) => match compare(inferred, result, &packed_shape) {
                    Verdict::Incompatible(_) => Verdict::Incompatible(None),
                    verdict => verdict,
                },
                // Upstream's verifier reports only that the inference failed.
                Err(InferError::Rejected(_)) => Verdict::Rejected(String::new()),
                Err(error) => error.into(),
            }
        }
        _ => Verdict::Unknown,
    }
}

/// # Safety
/// Called by C++ with live attributes (`result` may be null), `shape` and
/// `extra` pointing to `rank` and `extra_size` integers, and a writable
/// `inferred`.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn check(
    query: c_int,
    source: MlirAttribute,
    result: MlirAttribute,
    shape: *const i64,
    rank: isize,
    extra: *const i64,
    extra_size: isize,
    location: MlirLocation,
    inferred: *mut MlirAttribute,
) -> c_int {
    let run = || {
        // SAFETY: the caller passes live attributes and arrays of the given sizes.
        let slice = |data: *const i64, size: isize| {
            if data.is_null() || size <= 0 {
                &[][..]
            } else {
                unsafe { std::slice::from_raw_parts(data, size as usize) }
            }
        };
        let (shape, extra) = (slice(shape, rank), slice(extra, extra_size));
        let Some(source) = (unsafe { Attribute::from_option_raw(source) }) else { return UNKNOWN };
        let Ok(source) = layout_of(source) else { return UNKNOWN };
        let result = unsafe { Attribute::from_option_raw(result) }.map(|a| layout_of(a).map_err(|_| ()));
        let location = unsafe { Location::from_raw(location) };
        match answer(query, source, result, shape, extra) {
            Verdict::Compatible => COMPATIBLE,
            Verdict::Unknown => UNKNOWN,
            Verdict::Rejected(message) => {
                if !message.is_empty() {
                    let message = CString::new(message).unwrap_or_default();
                    // SAFETY: a live location and a NUL-terminated message.
                    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) };
                }
                REJECTED
            }
            Verdict::Incompatible(layout) => {
                // Shared linear layouts have no attribute Tritium builds.
                let layout = layout.filter(|l| !(matches!(l, Layout::Linear(_)) && l.is_shared()));
                if let Some(attribute) = layout.and_then(|l| attribute_of(&l, location)) {
                    // SAFETY: `inferred` is writable (the caller's contract).
                    unsafe { *inferred = attribute.to_raw() };
                }
                INCOMPATIBLE
            }
        }
    };
    // A bug here must not take the verifier (and the process) down.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or(UNKNOWN)
}

/// Gives the C++ verifiers their layout checker. Idempotent.
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe { ffi::tritiumSetLayoutChecker(check) });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tritium_layout::Blocked;

    fn blocked(spt: &[u32], tpw: &[u32], wpc: &[u32], order: &[u32]) -> Layout {
        Layout::Blocked(Blocked::new(spt, tpw, wpc, order))
    }

    #[test]
    fn transposed_blocked_must_permute_every_parameter() {
        let source = blocked(&[1, 2, 4], &[2, 4, 4], &[2, 4, 8], &[0, 1, 2]);
        let good = blocked(&[2, 1, 4], &[4, 2, 4], &[4, 2, 8], &[1, 0, 2]);
        let bad = blocked(&[1, 2, 4], &[4, 2, 4], &[4, 2, 8], &[1, 0, 2]);
        let shape = [16, 32, 64];
        assert!(matches!(answer(QUERY_TRANS, source.clone(), Some(Ok(good)), &shape, &[1, 0, 2]), Verdict::Compatible));
        assert!(matches!(
            answer(QUERY_TRANS, source, Some(Ok(bad)), &shape, &[1, 0, 2]),
            Verdict::Incompatible(Some(_))
        ));
    }

    #[test]
    fn unreadable_result_layouts_get_no_verdict() {
        let source = blocked(&[1, 2], &[32, 1], &[1, 1], &[1, 0]);
        assert!(matches!(answer(QUERY_SPLIT, source, Some(Err(())), &[32, 2], &[]), Verdict::Unknown));
    }

    #[test]
    fn split_needs_the_pair_in_registers() {
        let source = blocked(&[1, 1], &[16, 2], &[1, 1], &[1, 0]);
        assert!(matches!(answer(QUERY_SPLIT, source, None, &[16, 2], &[]), Verdict::Rejected(_)));
    }
}

//! Transfer functions of the axis-info analysis: how each op maps the
//! lattices of its operands to the lattice of its result (upstream's
//! `*AxisInfoVisitor` classes). Free of MLIR: an op is described by a
//! [`Rule`] carrying the few facts of it that matter (attributes, shapes).
use super::lattice::{
    divisibility_from_contiguity, gcd, gcd3, highest_pow2_divisor, highest_pow2_divisor_u32, multiply_divisor, AxisInfo,
};

/// `arith.cmpi` predicates, in the order of their enum values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicate {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl Predicate {
    /// From `arith.cmpi`'s `predicate` attribute value.
    pub fn from_value(value: i64) -> Option<Predicate> {
        use Predicate::*;
        [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge].get(usize::try_from(value).ok()?).copied()
    }

    fn holds(self, lhs: i64, rhs: i64) -> bool {
        use Predicate::*;
        let (ul, ur) = (lhs as u64, rhs as u64);
        match self {
            Eq => lhs == rhs,
            Ne => lhs != rhs,
            Slt => lhs < rhs,
            Sle => lhs <= rhs,
            Sgt => lhs > rhs,
            Sge => lhs >= rhs,
            Ult => ul < ur,
            Ule => ul <= ur,
            Ugt => ul > ur,
            Uge => ul >= ur,
        }
    }

    fn is_gt(self) -> bool {
        matches!(self, Predicate::Sgt | Predicate::Ugt)
    }
    fn is_ge(self) -> bool {
        matches!(self, Predicate::Sge | Predicate::Uge)
    }
    fn is_lt(self) -> bool {
        matches!(self, Predicate::Slt | Predicate::Ult)
    }
    fn is_le(self) -> bool {
        matches!(self, Predicate::Sle | Predicate::Ule)
    }
}

/// Elementwise integer ops with two operands that share the generic shape
/// of upstream's `BinaryOpVisitorImpl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    /// `tt.addptr`: an add whose offset counts elements of `element_bytes`.
    AddPtr {
        element_bytes: i64,
    },
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// An op as the analysis sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule<'a> {
    /// The result is the operand (integer casts, `ttg.convert_layout`,
    /// `tt.bitcast`).
    Forward,
    /// `tt.make_range` from `start` to `end`.
    MakeRange {
        start: u32,
        end: u32,
    },
    /// An integer constant (scalar, or a splat over the result shape), zero
    /// extended from its bit width.
    Constant {
        value: i64,
    },
    /// `ub.poison`: never read, so anything goes.
    Poison,
    Binary(Binary),
    /// `tt.splat` of a scalar.
    Splat,
    /// `tt.load` (operands: pointer, then optionally mask and other).
    Load,
    ExpandDims {
        axis: usize,
    },
    /// `tt.broadcast` from `operand_shape` to the result shape.
    Broadcast {
        operand_shape: &'a [i64],
    },
    Compare(Predicate),
    /// `arith.select`; `scalar_condition` when the condition is a single i1
    /// choosing a whole operand.
    Select {
        scalar_condition: bool,
    },
    Max,
    Min,
    /// `tt.trans`: result dim `d` is operand dim `order[d]`.
    Trans {
        order: &'a [usize],
    },
}

/// The result lattice of an op following `rule`, given the lattices of its
/// operands and its result shape (`None` for a scalar result). `None` when
/// nothing can be said, as when upstream's visitor gives up (the caller then
/// uses the pessimistic state) or when operands do not fit the rule.
pub fn transfer(rule: Rule, operands: &[AxisInfo], result_shape: Option<&[i64]>) -> Option<AxisInfo> {
    if let Some(shape) = result_shape {
        if shape.is_empty() {
            return None;
        }
    }
    match rule {
        Rule::Forward => operands.first().cloned(),
        Rule::MakeRange { start, end } => Some(AxisInfo::new(
            vec![i64::from(end) - i64::from(start)],
            vec![highest_pow2_divisor_u32(start)],
            vec![1],
            None,
        )),
        Rule::Constant { value } => Some(AxisInfo::known_constant(value, result_shape)),
        Rule::Poison => Some(AxisInfo::unconstrained(result_shape.map_or(1, <[i64]>::len))),
        Rule::Binary(op) => {
            let [lhs, rhs] = operands else { return None };
            (lhs.rank() == rhs.rank() && fits(lhs, result_shape)).then(|| binary(op, lhs, rhs, result_shape))
        }
        Rule::Splat => {
            let (operand, shape) = (operands.first()?, result_shape?);
            Some(AxisInfo::new(
                vec![1; shape.len()],
                vec![*operand.divisibility.first()?; shape.len()],
                shape.to_vec(),
                operand.constant,
            ))
        }
        Rule::Load => load(operands),
        Rule::ExpandDims { axis } => expand_dims(operands.first()?, axis),
        Rule::Broadcast { operand_shape } => broadcast(operands.first()?, operand_shape, result_shape?),
        Rule::Compare(predicate) => {
            let [lhs, rhs] = operands else { return None };
            let shape = result_shape?;
            (lhs.rank() == shape.len() && rhs.rank() == shape.len()).then(|| compare(predicate, lhs, rhs, shape))
        }
        Rule::Select { scalar_condition } => {
            let [condition, lhs, rhs] = operands else { return None };
            let consistent = lhs.rank() == rhs.rank()
                && fits(lhs, result_shape)
                && (scalar_condition || condition.rank() == lhs.rank());
            consistent.then(|| select(condition, lhs, rhs, scalar_condition, result_shape))
        }
        Rule::Max | Rule::Min => {
            let [lhs, rhs] = operands else { return None };
            (lhs.rank() == rhs.rank() && fits(lhs, result_shape))
                .then(|| max_min(rule == Rule::Max, lhs, rhs, result_shape))
        }
        Rule::Trans { order } => {
            let operand = operands.first()?;
            let mut sorted = order.to_vec();
            sorted.sort_unstable();
            if sorted != (0..operand.rank()).collect::<Vec<_>>() {
                return None;
            }
            let permute = |values: &[i64]| order.iter().map(|&d| values[d]).collect();
            Some(AxisInfo::new(
                permute(&operand.contiguity),
                permute(&operand.divisibility),
                permute(&operand.constancy),
                operand.constant,
            ))
        }
    }
}

/// Whether `info` has the rank of a result of `shape` (rank 1 for scalars).
fn fits(info: &AxisInfo, shape: Option<&[i64]>) -> bool {
    info.rank() == shape.map_or(1, <[i64]>::len)
}

fn is_full_run(values: &[i64], shape: &[i64], d: usize) -> bool {
    values[d] == shape[d]
}

fn binary(op: Binary, lhs: &AxisInfo, rhs: &AxisInfo, shape: Option<&[i64]>) -> AxisInfo {
    if let Some(value) = binary_constant(op, lhs, rhs) {
        return AxisInfo::known_constant(value, shape);
    }
    let rank = lhs.rank();
    AxisInfo::new(
        (0..rank).map(|d| binary_contiguity(op, lhs, rhs, shape, d)).collect(),
        (0..rank).map(|d| binary_divisibility(op, lhs, rhs, d)).collect(),
        (0..rank).map(|d| binary_constancy(op, lhs, rhs, shape, d)).collect(),
        None,
    )
}

fn binary_constant(op: Binary, lhs: &AxisInfo, rhs: &AxisInfo) -> Option<i64> {
    let (l, r) = (lhs.constant, rhs.constant);
    match op {
        // x * 0 is 0 whatever x is.
        Binary::Mul if l == Some(0) || r == Some(0) => return Some(l.zip(r).map_or(0, |(l, r)| l.wrapping_mul(r))),
        // x % 1 is 0 whatever x is.
        Binary::Rem if r == Some(1) && l.is_none() => return Some(0),
        _ => {}
    }
    let (l, r) = (l?, r?);
    match op {
        Binary::Add => Some(l.wrapping_add(r)),
        Binary::Sub => Some(l.wrapping_sub(r)),
        Binary::AddPtr { element_bytes } => Some(l.wrapping_add(r.wrapping_mul(element_bytes))),
        Binary::Mul => Some(l.wrapping_mul(r)),
        Binary::Div => l.checked_div(r),
        Binary::Rem => l.checked_rem(r),
        Binary::And => Some(l & r),
        Binary::Or => Some(l | r),
        Binary::Xor => Some(l ^ r),
        Binary::Shl => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
        Binary::Shr => u32::try_from(r).ok().and_then(|r| l.checked_shr(r)),
    }
}

fn binary_contiguity(op: Binary, lhs: &AxisInfo, rhs: &AxisInfo, shape: Option<&[i64]>, d: usize) -> i64 {
    match op {
        // Contiguity means increasing runs, so only a constant may be
        // subtracted.
        Binary::Sub => gcd(lhs.contiguity[d], rhs.constancy[d]),
        // A run plus a constant (on either side) stays a run.
        Binary::Add | Binary::AddPtr { .. } => {
            gcd(lhs.constancy[d], rhs.contiguity[d]).max(gcd(lhs.contiguity[d], rhs.constancy[d]))
        }
        Binary::Mul => {
            let lhs_run = if rhs.constant == Some(1) { lhs.contiguity[d] } else { 1 };
            let rhs_run = if lhs.constant == Some(1) { rhs.contiguity[d] } else { 1 };
            lhs_run.max(rhs_run)
        }
        Binary::Div => {
            if rhs.constant == Some(1) {
                lhs.contiguity[d]
            } else {
                1
            }
        }
        // A run [k*d, k*d + n) modulo a constant multiple of gcd-related
        // powers of two stays a run for gcd(run, divisibilities) elements.
        Binary::Rem => match shape {
            Some(shape) if is_full_run(&lhs.contiguity, shape, d) && is_full_run(&rhs.constancy, shape, d) => {
                gcd3(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d])
            }
            _ => 1,
        },
        Binary::Shl | Binary::Shr => {
            if rhs.constant == Some(0) {
                lhs.contiguity[d]
            } else {
                1
            }
        }
        Binary::And | Binary::Or | Binary::Xor => 1,
    }
}

/// A run of consecutive integers [2^n, 2^n + 1, ...] is only divisible as a
/// whole by 1 once it is scaled: its first element's divisibility does not
/// carry over.
fn run_divisibility(info: &AxisInfo, d: usize, scaled: bool) -> i64 {
    if info.contiguity[d] > 1 && scaled {
        1
    } else {
        info.divisibility[d]
    }
}

fn binary_divisibility(op: Binary, lhs: &AxisInfo, rhs: &AxisInfo, d: usize) -> i64 {
    match op {
        // k*a + p*b is a multiple of gcd(a, b).
        Binary::Add | Binary::Sub => gcd(lhs.divisibility[d], rhs.divisibility[d]),
        // The offset is in elements; the divisibility of a pointer in bytes.
        Binary::AddPtr { element_bytes } => {
            gcd(lhs.divisibility[d], multiply_divisor(rhs.divisibility[d], element_bytes))
        }
        Binary::Mul => multiply_divisor(
            run_divisibility(lhs, d, rhs.constant != Some(1)),
            run_divisibility(rhs, d, lhs.constant != Some(1)),
        ),
        Binary::Div => {
            if lhs.constant == Some(0) || rhs.constant == Some(1) {
                lhs.divisibility[d]
            } else {
                match rhs.constant {
                    Some(divisor) if divisor.unsigned_abs().is_power_of_two() && lhs.contiguity[d] == 1 => {
                        let divisor = i64::try_from(divisor.unsigned_abs()).unwrap_or(i64::MAX);
                        (lhs.divisibility[d] / divisor).max(1)
                    }
                    _ => 1,
                }
            }
        }
        // With a (partly) constant divisor, the remainder keeps the common
        // divisibility; with a varying one nothing is known
        // ([2, 2, 4, 4] % [0, 1, 2, 3] = [0, 0, 0, 1]).
        Binary::Rem => {
            if rhs.constancy[d] > 1 {
                gcd(lhs.divisibility[d], rhs.divisibility[d])
            } else {
                1
            }
        }
        Binary::Shl => {
            let shift = rhs.constant.unwrap_or(0);
            multiply_divisor(run_divisibility(lhs, d, shift != 0), power_of_two(shift))
        }
        Binary::Shr => match rhs.constant {
            None => 1,
            Some(shift) => {
                let shifted = run_divisibility(lhs, d, shift != 0);
                if (0..63).contains(&shift) {
                    (shifted / (1i64 << shift)).max(1)
                } else {
                    1
                }
            }
        },
        Binary::And | Binary::Or | Binary::Xor => 1,
    }
}

/// 2^shift, saturating (upstream computes `1ll << shift`).
fn power_of_two(shift: i64) -> i64 {
    match shift {
        0..=62 => 1i64 << shift,
        s if s > 62 => super::lattice::MAX_DIVISOR,
        _ => 1,
    }
}

fn binary_constancy(op: Binary, lhs: &AxisInfo, rhs: &AxisInfo, shape: Option<&[i64]>, d: usize) -> i64 {
    let common = gcd(lhs.constancy[d], rhs.constancy[d]);
    let Some(shape) = shape else { return common };
    match op {
        // A run divided by a constant power-of-two multiple is constant over
        // blocks of gcd(run, divisibilities): [8..16) / 4 = [2, 2, 2, 2, 3, ...].
        Binary::Div if is_full_run(&lhs.contiguity, shape, d) && is_full_run(&rhs.constancy, shape, d) => {
            common.max(gcd3(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        }
        // x % 1 == 0 everywhere.
        Binary::Rem if rhs.constant == Some(1) => shape[d],
        _ => common,
    }
}

fn load(operands: &[AxisInfo]) -> Option<AxisInfo> {
    let pointer = operands.first()?;
    let mask = operands.get(1);
    if mask.is_some_and(|m| m.rank() != pointer.rank()) {
        return None;
    }
    let rank = pointer.rank();
    // Loading from repeated pointers under a repeated mask repeats values.
    let constancy = (0..rank).map(|d| gcd(pointer.constancy[d], mask.map_or(0, |m| m.constancy[d]))).collect();
    Some(AxisInfo::new(vec![1; rank], vec![1; rank], constancy, None))
}

fn expand_dims(operand: &AxisInfo, axis: usize) -> Option<AxisInfo> {
    if axis > operand.rank() {
        return None;
    }
    // The new dim has size 1; its "run start" is any element, so its
    // divisibility is the gcd of what every element is known to be
    // divisible by.
    let divisibility = match operand.constant {
        Some(value) => highest_pow2_divisor(value),
        None => (0..operand.rank()).map(|d| run_divisibility(operand, d, true)).reduce(gcd).unwrap_or(1),
    };
    let insert = |values: &[i64], value: i64| {
        let mut values = values.to_vec();
        values.insert(axis, value);
        values
    };
    Some(AxisInfo::new(
        insert(&operand.contiguity, 1),
        insert(&operand.divisibility, divisibility),
        insert(&operand.constancy, 1),
        operand.constant,
    ))
}

fn broadcast(operand: &AxisInfo, operand_shape: &[i64], shape: &[i64]) -> Option<AxisInfo> {
    let rank = shape.len();
    if operand_shape.len() != rank || operand.rank() != rank {
        return None;
    }
    let broadcast_dim = |d: usize| operand_shape[d] == 1;
    Some(AxisInfo::new(
        (0..rank).map(|d| if broadcast_dim(d) { 1 } else { operand.contiguity[d] }).collect(),
        operand.divisibility.clone(),
        (0..rank).map(|d| if broadcast_dim(d) { shape[d] } else { operand.constancy[d] }).collect(),
        operand.constant,
    ))
}

fn compare(predicate: Predicate, lhs: &AxisInfo, rhs: &AxisInfo, shape: &[i64]) -> AxisInfo {
    let rank = shape.len();
    if let (Some(l), Some(r)) = (lhs.constant, rhs.constant) {
        let value = i64::from(predicate.holds(l, r));
        return AxisInfo::new(vec![1; rank], vec![1; rank], shape.to_vec(), Some(value));
    }
    let constancy = (0..rank)
        .map(|d| {
            let common = gcd(lhs.constancy[d], rhs.constancy[d]);
            // A constant against an aligned run gives the same answer over
            // the aligned blocks, for orders where only the block start can
            // differ (`4 4 4 4 <= 4 5 6 7` is all true).
            if (predicate.is_gt() || predicate.is_le()) && is_full_run(&lhs.constancy, shape, d) {
                common.max(gcd3(rhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
            } else if (predicate.is_lt() || predicate.is_ge()) && is_full_run(&rhs.constancy, shape, d) {
                common.max(gcd3(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
            } else {
                common
            }
        })
        .collect();
    AxisInfo::new(vec![1; rank], vec![1; rank], constancy, None)
}

fn select(condition: &AxisInfo, lhs: &AxisInfo, rhs: &AxisInfo, scalar: bool, shape: Option<&[i64]>) -> AxisInfo {
    match condition.constant {
        Some(0) => return rhs.clone(),
        Some(_) => return lhs.clone(),
        None => {}
    }
    let rank = lhs.rank();
    // A tensor condition switches between the operands every `constancy`
    // elements, which bounds the runs of the result.
    let switch = |d: usize| if scalar { 0 } else { condition.constancy[d] };
    let constant = lhs.constant.filter(|_| lhs.constant == rhs.constant);
    let constancy = match (constant, shape) {
        (Some(_), Some(shape)) => shape.to_vec(),
        (Some(_), None) => vec![1; rank],
        (None, _) => (0..rank).map(|d| gcd3(lhs.constancy[d], rhs.constancy[d], switch(d))).collect(),
    };
    AxisInfo::new(
        (0..rank).map(|d| gcd3(lhs.contiguity[d], rhs.contiguity[d], switch(d))).collect(),
        (0..rank).map(|d| divisibility_from_contiguity(lhs, rhs, d)).collect(),
        constancy,
        constant,
    )
}

fn max_min(is_max: bool, lhs: &AxisInfo, rhs: &AxisInfo, shape: Option<&[i64]>) -> AxisInfo {
    if let (Some(l), Some(r)) = (lhs.constant, rhs.constant) {
        let value = if is_max { l.max(r) } else { l.min(r) };
        return AxisInfo::known_constant(value, shape);
    }
    let rank = lhs.rank();
    AxisInfo::new(
        (0..rank).map(|d| gcd(lhs.contiguity[d], rhs.contiguity[d])).collect(),
        (0..rank).map(|d| divisibility_from_contiguity(lhs, rhs, d)).collect(),
        (0..rank).map(|d| gcd(lhs.constancy[d], rhs.constancy[d])).collect(),
        None,
    )
}

//! The axis-info lattice (upstream `AxisInfo`), free of MLIR so that it can be
//! tested on its own.
//!
//! Per dimension of a value (a scalar counts as rank 1):
//! - contiguity: length of the shortest run of consecutive integers
//!   (`[4, 5, 6, 7]` has 4);
//! - divisibility: largest power of two dividing the first element of every
//!   such run;
//! - constancy: length of the shortest run of repeated values;
//!
//! plus the value itself when the whole tensor is one known integer. All
//! three are powers of two in practice (tensor dims are), and the lattice
//! goes down by gcd: `join` keeps what holds for both inputs.
use std::fmt;

/// The largest divisibility: what "divisible by anything" saturates to, e.g.
/// for the constant 0 (upstream `highestPowOf2Divisor<int64_t>(0)`).
pub const MAX_DIVISOR: i64 = 1 << 62;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisInfo {
    pub contiguity: Vec<i64>,
    pub divisibility: Vec<i64>,
    pub constancy: Vec<i64>,
    /// The value of every element, when known.
    pub constant: Option<i64>,
}

impl AxisInfo {
    /// An info of `contiguity.len()` dims. The three vectors have one entry
    /// per dim.
    pub fn new(contiguity: Vec<i64>, divisibility: Vec<i64>, constancy: Vec<i64>, constant: Option<i64>) -> Self {
        debug_assert!(contiguity.len() == divisibility.len() && contiguity.len() == constancy.len());
        AxisInfo { contiguity, divisibility, constancy, constant }
    }

    /// Nothing known: every property 1 (upstream's pessimistic state).
    pub fn pessimistic(rank: usize) -> Self {
        AxisInfo::new(vec![1; rank], vec![1; rank], vec![1; rank], None)
    }

    /// Anything possible: every property at its maximum (poison values and
    /// warp-specialize partition arguments, which upstream treats as
    /// unconstrained).
    pub fn unconstrained(rank: usize) -> Self {
        AxisInfo::new(vec![MAX_DIVISOR; rank], vec![MAX_DIVISOR; rank], vec![MAX_DIVISOR; rank], None)
    }

    /// A known integer `value` over `shape` (`None` for a scalar).
    pub fn known_constant(value: i64, shape: Option<&[i64]>) -> Self {
        let rank = shape.map_or(1, <[i64]>::len);
        AxisInfo::new(
            vec![1; rank],
            vec![highest_pow2_divisor(value); rank],
            shape.map_or_else(|| vec![1; rank], <[i64]>::to_vec),
            Some(value),
        )
    }

    pub fn rank(&self) -> usize {
        self.contiguity.len()
    }

    /// What holds for both `self` and `other` (upstream `AxisInfo::join`).
    /// Both must have the same rank.
    pub fn join(&self, other: &AxisInfo) -> AxisInfo {
        let rank = self.rank().min(other.rank());
        AxisInfo::new(
            (0..rank).map(|d| gcd(self.contiguity[d], other.contiguity[d])).collect(),
            (0..rank).map(|d| divisibility_from_contiguity(self, other, d)).collect(),
            (0..rank).map(|d| gcd(self.constancy[d], other.constancy[d])).collect(),
            if self.constant == other.constant { self.constant } else { None },
        )
    }
}

/// Upstream's print format, e.g.
/// `contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>`.
impl fmt::Display for AxisInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |values: &[i64]| values.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        write!(
            f,
            "contiguity = [{}], divisibility = [{}], constancy = [{}], constant_value = ",
            list(&self.contiguity),
            list(&self.divisibility),
            list(&self.constancy)
        )?;
        match self.constant {
            Some(value) => write!(f, "{value}"),
            None => f.write_str("<none>"),
        }
    }
}

/// gcd where 0 means "no constraint" (so `gcd(0, x) = x`), as upstream's.
pub fn gcd(a: i64, b: i64) -> i64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Only gcd(i64::MIN, i64::MIN) overflows; no lattice value is negative.
    i64::try_from(a).unwrap_or(MAX_DIVISOR)
}

/// gcd of three values (see [`gcd`]).
pub fn gcd3(a: i64, b: i64, c: i64) -> i64 {
    gcd(gcd(a, b), c)
}

/// The largest power of two dividing `n`; [`MAX_DIVISOR`] for 0 (and for
/// `i64::MIN`, whose true answer does not fit).
pub fn highest_pow2_divisor(n: i64) -> i64 {
    if n == 0 || n == i64::MIN {
        return MAX_DIVISOR;
    }
    n & n.wrapping_neg()
}

/// As [`highest_pow2_divisor`] for a 32-bit value: upstream computes
/// `tt.make_range`'s divisibility on its `uint32` start, so 0 gives 2^30.
pub fn highest_pow2_divisor_u32(n: u32) -> i64 {
    if n == 0 {
        return 1 << 30;
    }
    i64::from(n & n.wrapping_neg())
}

/// `lhs * rhs`, saturating at [`MAX_DIVISOR`].
pub fn multiply_divisor(lhs: i64, rhs: i64) -> i64 {
    match lhs.checked_mul(rhs) {
        Some(product) if product <= MAX_DIVISOR => product,
        _ => MAX_DIVISOR,
    }
}

/// Divisibility of a value that is either `lhs` or `rhs` along `d` (joins,
/// selects, min/max). When the two have different contiguities the runs of
/// the result may start inside a run of one of them, so the contiguities
/// bound the divisibility too; an unresolved side (contiguity at the
/// maximum) does not count, as it will be resolved later.
pub fn divisibility_from_contiguity(lhs: &AxisInfo, rhs: &AxisInfo, d: usize) -> i64 {
    let (lc, rc) = (lhs.contiguity[d], rhs.contiguity[d]);
    let divisibility = gcd(lhs.divisibility[d], rhs.divisibility[d]);
    if lc == rc || lc == MAX_DIVISOR || rc == MAX_DIVISOR {
        divisibility
    } else {
        gcd3(divisibility, lc, rc)
    }
}

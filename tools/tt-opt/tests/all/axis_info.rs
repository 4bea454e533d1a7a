//! The axis-info lattice and transfer functions, without MLIR
//! (`tritium_passes::analysis::axis_info::{lattice, rules}`). The expected
//! values follow upstream's `AxisInfo.cpp` rules; the lit test
//! test/Analysis/test-alignment.mlir checks the same rules on IR.
use tritium_passes::analysis::axis_info::{
    lattice::{divisibility_from_contiguity, gcd, highest_pow2_divisor, multiply_divisor, MAX_DIVISOR},
    rules::{transfer, Binary, Predicate, Rule},
    AxisInfo,
};

fn info(contiguity: &[i64], divisibility: &[i64], constancy: &[i64]) -> AxisInfo {
    AxisInfo::new(contiguity.to_vec(), divisibility.to_vec(), constancy.to_vec(), None)
}

/// `[start, start + n)` as a make_range gives it.
fn range(start: u32, n: u32) -> AxisInfo {
    transfer(Rule::MakeRange { start, end: start + n }, &[], Some(&[n as i64])).unwrap()
}

fn splat(value: i64, n: i64) -> AxisInfo {
    AxisInfo::known_constant(value, Some(&[n]))
}

fn binary(op: Binary, lhs: &AxisInfo, rhs: &AxisInfo, shape: &[i64]) -> AxisInfo {
    transfer(Rule::Binary(op), &[lhs.clone(), rhs.clone()], Some(shape)).unwrap()
}

#[test]
fn gcd_treats_zero_as_no_constraint() {
    assert_eq!(gcd(0, 12), 12);
    assert_eq!(gcd(12, 0), 12);
    assert_eq!(gcd(12, 18), 6);
    assert_eq!(gcd(MAX_DIVISOR, 48), 16);
}

#[test]
fn highest_power_of_two_divisors() {
    assert_eq!(highest_pow2_divisor(48), 16);
    assert_eq!(highest_pow2_divisor(-4), 4);
    assert_eq!(highest_pow2_divisor(7), 1);
    assert_eq!(highest_pow2_divisor(0), MAX_DIVISOR);
    assert_eq!(highest_pow2_divisor(i64::MIN), MAX_DIVISOR);
}

#[test]
fn multiplied_divisors_saturate() {
    assert_eq!(multiply_divisor(16, 4), 64);
    assert_eq!(multiply_divisor(MAX_DIVISOR, 2), MAX_DIVISOR);
    assert_eq!(multiply_divisor(1 << 40, 1 << 40), MAX_DIVISOR);
}

#[test]
fn join_keeps_what_both_sides_share() {
    let a = AxisInfo::new(vec![8], vec![32], vec![1], Some(5));
    let b = AxisInfo::new(vec![8], vec![16], vec![2], Some(5));
    assert_eq!(a.join(&b), AxisInfo::new(vec![8], vec![16], vec![1], Some(5)));
    // Runs of different lengths: a run of the result may start inside a run
    // of either side, so the contiguities bound the divisibility.
    let c = info(&[2], &[64], &[1]);
    let d = info(&[4], &[64], &[1]);
    assert_eq!(divisibility_from_contiguity(&c, &d, 0), 2);
    assert_eq!(c.join(&d), info(&[2], &[2], &[1]));
    // An unresolved side does not count.
    assert_eq!(c.join(&AxisInfo::unconstrained(1)), info(&[2], &[64], &[1]));
}

#[test]
fn printed_like_upstream() {
    assert_eq!(
        range(0, 128).to_string(),
        "contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>"
    );
    assert_eq!(
        AxisInfo::known_constant(8, None).to_string(),
        "contiguity = [1], divisibility = [8], constancy = [1], constant_value = 8"
    );
}

#[test]
fn make_range_and_constants() {
    assert_eq!(range(0, 64), info(&[64], &[1 << 30], &[1]));
    assert_eq!(range(48, 16), info(&[16], &[16], &[1]));
    let tile = transfer(Rule::Constant { value: 24 }, &[], Some(&[4, 8])).unwrap();
    assert_eq!(tile, AxisInfo::new(vec![1, 1], vec![8, 8], vec![4, 8], Some(24)));
    let poison = transfer(Rule::Poison, &[], Some(&[4, 8])).unwrap();
    assert_eq!(poison, AxisInfo::unconstrained(2));
}

#[test]
fn sums_and_differences() {
    let r = range(0, 128);
    assert_eq!(binary(Binary::Add, &r, &splat(4, 128), &[128]), info(&[128], &[4], &[1]));
    assert_eq!(binary(Binary::Add, &splat(4, 128), &r, &[128]), info(&[128], &[4], &[1]));
    assert_eq!(binary(Binary::Sub, &r, &splat(4, 128), &[128]), info(&[128], &[4], &[1]));
    // A decreasing sequence is not contiguous.
    assert_eq!(binary(Binary::Sub, &splat(4, 128), &r, &[128]), info(&[1], &[4], &[1]));
    let known = binary(Binary::Add, &splat(4, 128), &splat(124, 128), &[128]);
    assert_eq!(known, splat(128, 128));
}

#[test]
fn pointer_offsets_count_elements() {
    let pointers = AxisInfo::new(vec![1], vec![16], vec![128], None);
    let f32_access = binary(Binary::AddPtr { element_bytes: 4 }, &pointers, &range(0, 128), &[128]);
    assert_eq!(f32_access, info(&[128], &[16], &[1]));
    let odd = binary(Binary::AddPtr { element_bytes: 2 }, &pointers, &splat(3, 128), &[128]);
    assert_eq!(odd, info(&[1], &[2], &[128]));
}

#[test]
fn products() {
    let r = range(0, 128);
    // Scaling a run keeps only the multiplier's divisibility.
    assert_eq!(binary(Binary::Mul, &r, &splat(8, 128), &[128]), info(&[1], &[8], &[1]));
    assert_eq!(binary(Binary::Mul, &r, &splat(1, 128), &[128]), info(&[128], &[1 << 30], &[1]));
    assert_eq!(binary(Binary::Mul, &r, &splat(0, 128), &[128]), splat(0, 128));
    let a = info(&[1], &[16], &[1]);
    let b = info(&[1], &[8], &[1]);
    assert_eq!(binary(Binary::Mul, &a, &b, &[128]), info(&[1], &[128], &[1]));
}

#[test]
fn quotients_and_remainders() {
    let r = range(0, 128);
    assert_eq!(binary(Binary::Div, &r, &splat(16, 128), &[128]), info(&[1], &[1], &[16]));
    assert_eq!(binary(Binary::Rem, &r, &splat(16, 128), &[128]), info(&[16], &[16], &[1]));
    assert_eq!(binary(Binary::Rem, &r, &splat(1, 128), &[128]), splat(0, 128));
    let multiples = info(&[1], &[64], &[1]);
    assert_eq!(binary(Binary::Div, &multiples, &splat(16, 128), &[128]), info(&[1], &[4], &[1]));
    let known = binary(Binary::Div, &splat(7, 128), &splat(2, 128), &[128]);
    assert_eq!(known, splat(3, 128));
    // A division by a known zero is not folded (and does not crash).
    let by_zero = binary(Binary::Div, &splat(7, 128), &splat(0, 128), &[128]);
    assert_eq!(by_zero.constant, None);
}

#[test]
fn shifts_and_bitwise_ops() {
    let r = range(0, 128);
    assert_eq!(binary(Binary::Shl, &r, &splat(3, 128), &[128]), info(&[1], &[8], &[1]));
    assert_eq!(binary(Binary::Shl, &r, &splat(0, 128), &[128]), r);
    let multiples = info(&[1], &[64], &[1]);
    assert_eq!(binary(Binary::Shr, &multiples, &splat(2, 128), &[128]), info(&[1], &[16], &[1]));
    assert_eq!(binary(Binary::Shr, &multiples, &splat(80, 128), &[128]), info(&[1], &[1], &[1]));
    assert_eq!(binary(Binary::And, &r, &splat(3, 128), &[128]), info(&[1], &[1], &[1]));
    assert_eq!(binary(Binary::Xor, &splat(6, 128), &splat(3, 128), &[128]), splat(5, 128));
}

#[test]
fn comparisons() {
    let r = range(0, 128);
    let limit = AxisInfo::new(vec![1], vec![16], vec![128], None);
    let compare = |p: Predicate, l: &AxisInfo, rhs: &AxisInfo| {
        transfer(Rule::Compare(p), &[l.clone(), rhs.clone()], Some(&[128])).unwrap()
    };
    // A run against an aligned bound flips at most at aligned blocks.
    assert_eq!(compare(Predicate::Slt, &r, &limit), info(&[1], &[1], &[16]));
    assert_eq!(compare(Predicate::Sgt, &limit, &r), info(&[1], &[1], &[16]));
    assert_eq!(compare(Predicate::Eq, &r, &limit), info(&[1], &[1], &[1]));
    let folded = compare(Predicate::Ult, &splat(-1, 128), &splat(1, 128));
    assert_eq!(folded, AxisInfo::new(vec![1], vec![1], vec![128], Some(0)));
    // Scalar comparisons are left unknown, as upstream does.
    assert_eq!(transfer(Rule::Compare(Predicate::Slt), &[r.clone(), r], None), None);
}

#[test]
fn selects_and_extrema() {
    let r = range(0, 128);
    let shifted = info(&[128], &[4], &[1]);
    let condition = info(&[1], &[1], &[32]);
    let select = |c: &AxisInfo, scalar: bool| {
        transfer(Rule::Select { scalar_condition: scalar }, &[c.clone(), r.clone(), shifted.clone()], Some(&[128]))
            .unwrap()
    };
    assert_eq!(select(&condition, false), info(&[32], &[4], &[1]));
    assert_eq!(select(&info(&[1], &[1], &[1]), true), info(&[128], &[4], &[1]));
    assert_eq!(select(&AxisInfo::known_constant(0, None), true), shifted);
    let max = transfer(Rule::Max, &[r.clone(), shifted.clone()], Some(&[128])).unwrap();
    assert_eq!(max, info(&[128], &[4], &[1]));
    let min = transfer(Rule::Min, &[splat(3, 128), splat(9, 128)], Some(&[128])).unwrap();
    assert_eq!(min, splat(3, 128));
}

#[test]
fn shape_ops() {
    let r = range(0, 64);
    let column = transfer(Rule::ExpandDims { axis: 1 }, std::slice::from_ref(&r), Some(&[64, 1])).unwrap();
    assert_eq!(column, info(&[64, 1], &[1 << 30, 1], &[1, 1]));
    let tiled = transfer(Rule::Broadcast { operand_shape: &[64, 1] }, &[column], Some(&[64, 32])).unwrap();
    assert_eq!(tiled, info(&[64, 1], &[1 << 30, 1], &[1, 32]));
    let transposed = transfer(Rule::Trans { order: &[1, 0] }, &[tiled], Some(&[32, 64])).unwrap();
    assert_eq!(transposed, info(&[1, 64], &[1, 1 << 30], &[32, 1]));
    let scalar = AxisInfo::new(vec![1], vec![16], vec![1], Some(32));
    let splatted = transfer(Rule::Splat, &[scalar], Some(&[4, 8])).unwrap();
    assert_eq!(splatted, AxisInfo::new(vec![1, 1], vec![16, 16], vec![4, 8], Some(32)));
    let pointers = info(&[1, 8], &[16, 16], &[4, 1]);
    let mask = info(&[1, 1], &[1, 1], &[2, 8]);
    let loaded = transfer(Rule::Load, &[pointers, mask], Some(&[4, 8])).unwrap();
    assert_eq!(loaded, info(&[1, 1], &[1, 1], &[2, 1]));
}

#[test]
fn operands_that_do_not_fit_give_nothing() {
    let one_d = range(0, 64);
    let two_d = info(&[1, 1], &[1, 1], &[1, 1]);
    assert_eq!(transfer(Rule::Binary(Binary::Add), &[one_d.clone(), two_d], Some(&[64])), None);
    assert_eq!(transfer(Rule::Trans { order: &[0, 0] }, std::slice::from_ref(&one_d), Some(&[64])), None);
    assert_eq!(transfer(Rule::ExpandDims { axis: 3 }, &[one_d], Some(&[64, 1])), None);
}

/// The queries memory passes make, which combine the lattice with the
/// value's layout (upstream `getContiguity`, `getAlignment`,
/// `getMaskAlignment`).
#[test]
fn layout_aware_queries() {
    use melior::ir::{operation::OperationLike, Value};
    use tritium_passes::{
        analysis::axis_info::ModuleAxisInfo,
        ir::{collect_ops, name_of, Order},
    };
    let source = r#"
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %limit = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %range, %limit : tensor<512xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #blocked>
    %pointers = tt.addptr %xs, %range : tensor<512x!tt.ptr<f16>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %pointers, %mask : tensor<512x!tt.ptr<f16>, #blocked>
    tt.return
  }
}"#;
    let context = crate::common::context();
    let module = tritium_dialects::io::parse_module(&context, source, "queries").unwrap();
    let axis = ModuleAxisInfo::analyze(module.as_operation()).unwrap();
    let ops = collect_ops(module.as_operation(), Order::Pre);
    let load = ops.iter().find(|op| name_of(op) == "tt.load").unwrap();
    let (pointers, mask): (Value, Value) = (load.operand(0).unwrap(), load.operand(1).unwrap());
    let range: Value = ops.iter().find(|op| name_of(op) == "tt.make_range").unwrap().result(0).unwrap().into();
    // 16-byte aligned f16 runs of 512: vectors of 8, of which the layout
    // gives each thread 4.
    assert_eq!(axis.alignment(pointers), 8);
    assert_eq!(axis.contiguity(pointers), 4);
    // Offsets count elements, not bytes.
    assert_eq!(axis.alignment_of(range, 16), 512);
    assert_eq!(axis.contiguity_of(range, 16), 4);
    // The bound is a multiple of 16: the mask flips only at 16-element blocks.
    assert_eq!(axis.mask_alignment(mask), 16);
}

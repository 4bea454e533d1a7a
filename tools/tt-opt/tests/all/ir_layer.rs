//! The IR-access layer (`tritium_dialects::ir`): its use-list, operand,
//! move/clone/erase and attribute functions on a small function, and the rule
//! that passes make no raw MLIR C API calls of their own.
use melior::ir::{operation::OperationLike, BlockLike, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir;

const SOURCE: &str = r#"
module {
  tt.func @f(%a: i32, %b: i32) -> i32 {
    %s = arith.addi %a, %b : i32
    %t = arith.muli %s, %s : i32
    %u = arith.subi %t, %a : i32
    tt.return %u : i32
  }
}"#;

#[test]
fn uses_operands_moves_clones_and_erasure() {
    let context = crate::common::context();
    let module = tritium_dialects::io::parse_module(&context, SOURCE, "ir_layer").unwrap();
    let ops = ir::collect_ops(module.as_operation(), ir::Order::Pre);
    let find = |name: &str| *ops.iter().find(|op| ir::name_of(op) == name).unwrap();
    let (function, add, mul, sub) = (find("tt.func"), find("arith.addi"), find("arith.muli"), find("arith.subi"));
    assert!(ir::module_functions(module.as_operation()) == vec![function]);

    let body = ir::entry_block(&function, 0).unwrap();
    let arguments = ir::block_arguments(&body);
    let (a, b) = (arguments[0], arguments[1]);
    assert!(ir::argument_owner(a) == Some(body));
    assert_eq!(ir::argument_number(b), Some(1));
    assert!(ir::argument_parent_op(a) == Some(function));
    assert!(ir::defining_op(a).is_none() && ir::is_block_argument(a));

    let s: Value = add.result_at(0).unwrap().into();
    assert!(ir::defining_op(s) == Some(add));
    // %s is used twice by the muli: two uses, one per operand.
    let mut indices: Vec<usize> = ir::uses(s).iter().inspect(|u| assert!(u.owner == mul)).map(|u| u.index).collect();
    indices.sort();
    assert_eq!(indices, vec![0, 1]);
    assert_eq!(ir::users(a).len(), 2);

    // Rewire the muli to %b * %s: %s keeps one use, %b gains one.
    ir::set_operand(&mul, 0, b);
    assert_eq!(ir::uses(s).len(), 1);
    let users_of_b = ir::users(b);
    assert!(users_of_b.len() == 2 && users_of_b.contains(&add) && users_of_b.contains(&mul));

    // Move the subi before the muli and back after it.
    ir::move_before(&sub, &mul);
    let names: Vec<String> = ir::block_ops(&body).iter().map(ir::name_of).collect();
    assert_eq!(names, ["arith.addi", "arith.subi", "arith.muli", "tt.return"]);
    ir::move_after(&sub, &mul);
    assert!(ir::block_ops(&body)[2] == sub);

    // A clone whose operand %s maps to %a; then replace the muli's result
    // with the clone's and erase the muli.
    let mut map = ir::ValueMap::default();
    map.map(s, a);
    let clone = ir::insert_before(&sub, ir::clone_with(&mul, &map));
    assert!(clone.operand_at(1).unwrap() == a);
    let t: Value = mul.result_at(0).unwrap().into();
    ir::replace_all_uses(t, clone.result_at(0).unwrap().into());
    assert!(!ir::has_uses(t));
    ir::erase(mul);
    assert_eq!(ir::block_ops(&body).len(), 4);

    // Discardable attributes.
    let unit = ir::unit_attribute(add.location());
    ir::set_attribute(&add, "tt.flag", unit);
    assert!(add.has_attribute("tt.flag"));
    assert!(ir::remove_attribute(&add, "tt.flag"));
    assert!(!ir::remove_attribute(&add, "tt.flag"));
    ir::set_attribute(&add, "tt.order", ir::dense_i32_array(add.location(), &[1, 0]));
    assert_eq!(ir::dense_i32_attribute(&add, "tt.order"), Some(vec![1, 0]));
    assert_eq!(ir::dense_i32_at(add.attribute("tt.order").unwrap(), 1), Some(0));
    assert_eq!(ir::integer_width(a.r#type()), Some(32));
    assert!(body.terminator().is_some_and(|t| ir::is_terminator(&t)));
    assert!(module.as_operation().verify());
}

const CONSTANTS_AND_BLOCKS: &str = r#"
module {
  llvm.func @g(%c: i1) -> !llvm.struct<(i32, f32)> {
    %z = arith.constant dense<0.0> : tensor<4xf32>
    %i = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %s = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    llvm.cond_br %c, ^a, ^b
  ^a:
    llvm.return %s : !llvm.struct<(i32, f32)>
  ^b:
    llvm.return %s : !llvm.struct<(i32, f32)>
  } loc("kernel.py":7:3)
}"#;

#[test]
fn constants_blocks_types_locations_and_module_views() {
    let context = crate::common::context();
    let module = tritium_dialects::io::parse_module(&context, CONSTANTS_AND_BLOCKS, "ir_layer").unwrap();
    let ops = ir::collect_ops(module.as_operation(), ir::Order::Pre);
    let result = |index: usize| -> Value { ops[index].result_at(0).unwrap().into() };
    // Zero constants, scalar or splat (upstream's isZero).
    assert!(ir::is_zero(result(1)) && ir::is_zero(result(2)) && !ir::is_zero(result(3)));
    assert!(ir::constant_attribute(result(4)).is_none());

    // The struct's fields.
    let fields = ir::llvm_struct_fields(result(4).r#type()).unwrap();
    assert_eq!(fields.len(), 2);
    assert_eq!(ir::type_dialect(result(4).r#type()), "llvm");
    assert_eq!(ir::type_dialect(fields[0]), "builtin");
    assert!(ir::llvm_struct_fields(fields[0]).is_none());
    assert_eq!(ir::shaped_element_or_self(result(1).r#type()).to_string(), "f32");

    // Blocks: moving ^b before ^a.
    let function = ops[0];
    let body = function.region(0).unwrap();
    let blocks = ir::region_blocks(&body);
    assert_eq!(blocks.len(), 3);
    ir::move_block_after(blocks[2], blocks[0]);
    assert!(ir::region_blocks(&body) == vec![blocks[0], blocks[2], blocks[1]]);
    assert!(module.as_operation().verify());

    // Where the function came from; a module view of the module op.
    assert_eq!(ir::file_and_line(function.location()), Some(("kernel.py".to_string(), 7)));
    assert!(ir::file_and_line(ops[1].location()).is_some_and(|(file, _)| file == "ir_layer"));
    assert!(ir::module_view(&module.as_operation()).is_some());
    assert!(ir::module_view(&function).is_none());
}

/// Everything outside `dialects` (passes, the lowering, the tools and their
/// tests, the Python and C bindings) reaches MLIR through
/// `tritium_dialects::ir` and melior, never through raw `mlir_sys` calls
/// (every file, no exceptions).
#[test]
fn passes_and_lowering_make_no_raw_mlir_calls() {
    let repo = crate::common::repo_root();
    let mut offenders = Vec::new();
    // Spelt in two pieces, so that this file does not name it.
    let raw = concat!("mlir", "_sys::");
    let mut stack = ["passes/src", "lowering/src", "tools", "python/src", "capi/src"].map(|d| repo.join(d)).to_vec();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
            continue;
        }
        let relative = path.strip_prefix(&repo).unwrap().to_string_lossy().into_owned();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        for (number, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
            if line.contains(raw) {
                offenders.push(format!("{relative}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "raw MLIR C API calls (add what is missing to tritium_dialects::ir):\n{}",
        offenders.join("\n")
    );
}

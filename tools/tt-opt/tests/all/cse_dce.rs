//! tt ops carry the right traits for upstream MLIR's generic transforms: on
//! every corpus kernel's TTIR, duplicating each side-effect-free tt op (one
//! copy used by half the users, one copy unused) and running upstream
//! `canonicalize,cse` gives exactly what the same passes give on the
//! original: duplicates merged, dead copies dropped. Loads and stores, which
//! touch memory, are never merged or dropped.
use crate::common::{context, corpus};
use melior::{
    ir::{operation::OperationLike, BlockLike, Module},
    pass::PassManager,
    utility::parse_pass_pipeline,
    Context,
};
use tritium_dialects::io::{parse_module, print, PrintOptions};
use tritium_dialects::ir::{clone_op, collect_ops, name_of, set_operand, uses, Order, Use};

const SIDE_EFFECT_FREE_TT_OPS: &[&str] = &[
    "tt.splat",
    "tt.make_range",
    "tt.addptr",
    "tt.broadcast",
    "tt.expand_dims",
    "tt.get_program_id",
    "tt.get_num_programs",
    "tt.reduce",
    "tt.dot",
    "tt.trans",
    "tt.reshape",
    "tt.bitcast",
    "tt.fp_to_fp",
    "tt.int_to_ptr",
    "tt.ptr_to_int",
    "tt.precise_sqrt",
    "tt.precise_divf",
    "tt.mulhiui",
    "tt.clampf",
];

/// Duplicates every side-effect-free tt op; returns how many were duplicated.
fn duplicate_pure_tt_ops(module: &Module) -> usize {
    let mut duplicated = 0;
    for op in collect_ops(module.as_operation(), Order::Pre) {
        if !SIDE_EFFECT_FREE_TT_OPS.contains(&name_of(&op).as_str()) {
            continue;
        }
        let block = op.block().expect("an op in a block");
        let used_copy = block.insert_operation_after(op, clone_op(&op));
        block.insert_operation_after(used_copy, clone_op(&op));
        for (result, copy) in op.results().zip(used_copy.results()) {
            for Use { owner, index } in uses(result.into()).into_iter().step_by(2) {
                set_operand(&owner, index, copy.into());
            }
        }
        duplicated += 1;
    }
    duplicated
}

fn count_ops(module: &Module) -> usize {
    collect_ops(module.as_operation(), Order::Pre).len()
}

fn canonicalize_cse(context: &Context, module: &mut Module) {
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), "builtin.module(canonicalize,cse)").unwrap();
    manager.run(module).expect("canonicalize,cse succeeds");
}

#[test]
fn canonicalize_and_cse_merge_duplicates_and_drop_dead_tt_ops() {
    let context = context();
    let mut checked = 0;
    for entry in corpus().into_iter().filter(|e| e.stage == "ttir") {
        let text = entry.text();
        let name = format!("{}/{}", entry.target, entry.kernel);
        let mut original = parse_module(&context, &text, &name).unwrap();
        let mut augmented = parse_module(&context, &text, &name).unwrap();
        let before = count_ops(&augmented);
        let duplicated = duplicate_pure_tt_ops(&augmented);
        assert!(duplicated > 0, "{name}: nothing to duplicate");
        assert!(count_ops(&augmented) >= before + 2 * duplicated, "{name}");
        assert!(augmented.as_operation().verify(), "{name}: augmented IR does not verify");

        canonicalize_cse(&context, &mut original);
        canonicalize_cse(&context, &mut augmented);
        let expected = print(&original.as_operation(), PrintOptions::default());
        let actual = print(&augmented.as_operation(), PrintOptions::default());
        assert_eq!(expected, actual, "{name}: duplicates survived canonicalize,cse");
        checked += 1;
    }
    // Every kernel of the corpus, for both targets (at least the shared corpus's 11).
    assert!(checked >= 22, "{checked} TTIR modules");
}

#[test]
fn cse_keeps_loads_that_a_store_separates() {
    let context = context();
    let source = r#"
tt.func @f(%p: !tt.ptr<f32>, %v: f32) -> (f32, f32) {
  %a = tt.load %p : !tt.ptr<f32>
  tt.store %p, %v : !tt.ptr<f32>
  %b = tt.load %p : !tt.ptr<f32>
  %unused = tt.load %p : !tt.ptr<f32>
  tt.return %a, %b : f32, f32
}"#;
    let mut module = parse_module(&context, source, "loads.mlir").unwrap();
    canonicalize_cse(&context, &mut module);
    let printed = print(&module.as_operation(), PrintOptions::default());
    // Both used loads stay (a store lies between them); the unused load is
    // side-effect free (reads only) and may go.
    assert_eq!(printed.matches("tt.load").count(), 2, "{printed}");
    assert_eq!(printed.matches("tt.store").count(), 1, "{printed}");
}

//! `convert-triton-to-tritongpu`: gives every tensor of a Triton (`tt`)
//! module a TritonGPU layout, and records the launch geometry on the module
//! (`ttg.num-warps`, `ttg.threads-per-warp`, `ttg.num-ctas`, `ttg.target`).
//!
//! Upstream (lib/Conversion/TritonToTritonGPU) is an MLIR dialect conversion:
//! a type converter that gives unlaid-out tensors the default blocked layout
//! for their shape, per-op patterns that pick other layouts where an op needs
//! them (dot operands, expand_dims sources, reduce results, ...), and
//! `ttg.convert_layout` materialized wherever a value produced in one layout
//! feeds an operand the type converter wants in another. The C API has no
//! dialect-conversion framework, so this pass replays that conversion
//! directly: it visits the ops in the order the conversion driver does
//! (pre-order), retypes values in place, and inserts the conversions exactly
//! where upstream's driver puts them, so that the output matches upstream's
//! text. The pieces:
//!
//! - [`layouts`]: the layout rules, pure functions over `tritium_layout`;
//! - `types`: the type converter (default layouts, legality of types);
//! - `driver`: the walk, legality of ops, operand remapping and the
//!   materialized conversions;
//! - `rules`: what each op's pattern does to its result types and operands.
mod driver;
mod layouts;
mod rules;
mod types;

use driver::Conversion;
use layouts::Grid;
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, OperationRef,
};
use tritium_dialects::pass::{emit_error, OptionKind, PassDefinition, PassFailed, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-triton-to-tritongpu",
    description: "Convert Triton to TritonGPU: give every tensor a layout",
    anchor: "builtin.module",
    options: &[
        PassOption {
            name: "target",
            description: "the GPU target, e.g., cuda:80, hip:gfx942",
            kind: OptionKind::String,
            default: "",
        },
        PassOption { name: "num-warps", description: "number of warps", kind: OptionKind::Int, default: "4" },
        PassOption {
            name: "threads-per-warp",
            description: "number of threads per warp",
            kind: OptionKind::Int,
            default: "32",
        },
        PassOption { name: "num-ctas", description: "number of ctas in a cga", kind: OptionKind::Int, default: "1" },
        PassOption {
            name: "enable-source-remat",
            description: "enable trivial source rematerialization",
            kind: OptionKind::Bool,
            default: "false",
        },
    ],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let target = options.string("target");
    if target.is_empty() {
        emit_error(module.location(), "'convert-triton-to-tritongpu' requires 'target' option to be set");
        return Err(PassFailed);
    }
    let grid = grid_of(module, options)?;
    set_module_attributes(module, &grid, target);
    Conversion::new(grid, options.bool("enable-source-remat")).run(module)
}

/// The geometry options, checked: layouts need powers of two.
fn grid_of(module: OperationRef, options: &PassOptions) -> Result<Grid, PassFailed> {
    let mut values = [0u32; 3];
    for (value, name) in values.iter_mut().zip(["num-warps", "threads-per-warp", "num-ctas"]) {
        let raw = options.int(name);
        match u32::try_from(raw) {
            Ok(v) if v.is_power_of_two() => *value = v,
            _ => {
                emit_error(module.location(), &format!("'{name}' must be a positive power of two, got {raw}"));
                return Err(PassFailed);
            }
        }
    }
    let [num_warps, threads_per_warp, num_ctas] = values;
    Ok(Grid { num_warps, threads_per_warp, num_ctas })
}

fn set_module_attributes(module: OperationRef, grid: &Grid, target: &str) {
    // SAFETY: `context_ref` (which `to_ref` borrows) and the context outlive its use.
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    let i32_type = IntegerType::new(context, 32).into();
    let int = |value: u32| -> Attribute { IntegerAttribute::new(i32_type, i64::from(value)).into() };
    let attributes = [
        ("ttg.num-warps", int(grid.num_warps)),
        ("ttg.threads-per-warp", int(grid.threads_per_warp)),
        ("ttg.num-ctas", int(grid.num_ctas)),
        ("ttg.target", StringAttribute::new(context, target).into()),
    ];
    for (name, value) in attributes {
        driver::set_attribute(module, name, value);
    }
}

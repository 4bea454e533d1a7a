//! `tritongpu-global-scratch-memory-allocation`: lays out each function's
//! global scratch (per-program global memory, e.g. the 128-byte tensormaps of
//! device-side tensor descriptors): every `ttg.global_scratch_alloc`, and
//! every `tt.call` of a function that needs scratch, gets the next offset
//! rounded up to its alignment (`ttg.global_scratch_memory_offset`), in
//! program order (nested ops first, as upstream walks them) and without
//! reuse; the function gets the total, rounded up to the largest alignment,
//! and that alignment (`ttg.global_scratch_memory_size` /
//! `ttg.global_scratch_memory_alignment`), and the module gets the kernel's.
//! As upstream's pass of this name: the launcher allocates `size` bytes for
//! every program of the grid, and the lowering adds `program * size` to the
//! kernel's global-scratch parameter.
use crate::ir::{collect_ops, fail, int_attribute, name_of, Order};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, operation::OperationMutLike, r#type::IntegerType,
    OperationRef,
};
use std::collections::HashMap;
use tritium_dialects::pass::{PassDefinition, PassFailed, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-global-scratch-memory-allocation",
    description: "Assign global scratch memory offsets (ttg.global_scratch_memory_offset/size/alignment)",
    anchor: "builtin.module",
    options: &[],
    run,
};

const OFFSET: &str = "ttg.global_scratch_memory_offset";
const SIZE: &str = "ttg.global_scratch_memory_size";
const ALIGNMENT: &str = "ttg.global_scratch_memory_alignment";

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let functions: HashMap<String, OperationRef> = crate::ir::module_functions(module)
        .into_iter()
        .map(|op| (symbol(&op, "sym_name").unwrap_or_default(), op))
        .collect();
    let mut kernels = Vec::new();
    let mut names: Vec<&String> = functions.keys().collect();
    names.sort();
    for name in names {
        let function = functions[name];
        allocate(function, &functions, &mut Vec::new())?;
        if function.attribute("sym_visibility").map_or(true, |v| v.to_string() == "\"public\"") {
            kernels.push(function);
        }
    }
    // The module's figures are its kernel's; a module without exactly one
    // kernel gets none (the lowering, which needs one, says what is wrong).
    if let [kernel] = kernels[..] {
        let (size, alignment) = (int_attribute(&kernel, SIZE).unwrap(), int_attribute(&kernel, ALIGNMENT).unwrap());
        set_i32(module, SIZE, size);
        set_i32(module, ALIGNMENT, alignment);
    }
    Ok(())
}

/// Lays out `function`'s scratch, after that of the functions it calls
/// (`stack`: the calls being followed, to refuse recursion).
fn allocate<'c, 'a>(
    function: OperationRef<'c, 'a>,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
    stack: &mut Vec<String>,
) -> PassResult {
    if int_attribute(&function, SIZE).is_some() {
        return Ok(());
    }
    let name = symbol(&function, "sym_name").unwrap_or_default();
    stack.push(name);
    let mut offset: i64 = 0;
    let mut largest: i64 = 1;
    for op in collect_ops(function, Order::Post) {
        let (bytes, alignment) = match name_of(&op).as_str() {
            "ttg.global_scratch_alloc" => {
                let bytes = int_attribute(&op, "nbytes").ok_or_else(|| fail(&op, "has no nbytes"))?;
                let alignment = int_attribute(&op, "alignment").ok_or_else(|| fail(&op, "has no alignment"))?;
                (bytes, alignment)
            }
            "tt.call" => {
                let callee_name = symbol(&op, "callee").ok_or_else(|| fail(&op, "has no callee"))?;
                let callee =
                    *functions.get(&callee_name).ok_or_else(|| fail(&op, "calls a function the module lacks"))?;
                if stack.contains(&callee_name) {
                    return Err(fail(&op, "recursive calls cannot have global scratch memory laid out"));
                }
                allocate(callee, functions, stack)?;
                (int_attribute(&callee, SIZE).unwrap_or(0), int_attribute(&callee, ALIGNMENT).unwrap_or(1))
            }
            _ => continue,
        };
        if bytes <= 0 {
            continue;
        }
        if alignment <= 0 || alignment & (alignment - 1) != 0 {
            return Err(fail(&op, format!("global scratch alignment {alignment} is not a power of two")));
        }
        offset = round_up(offset, alignment);
        set_i32(op, OFFSET, offset);
        offset = offset.checked_add(bytes).filter(|o| *o <= i32::MAX as i64).ok_or_else(|| too_large(&op))?;
        largest = largest.max(alignment);
    }
    stack.pop();
    set_i32(function, SIZE, round_up(offset, largest));
    set_i32(function, ALIGNMENT, largest);
    Ok(())
}

/// `value` rounded up to a multiple of `step` (> 0).
fn round_up(value: i64, step: i64) -> i64 {
    (value + step - 1) / step * step
}

fn too_large(op: &OperationRef) -> PassFailed {
    fail(op, "needs more than 2 GiB of global scratch memory per program")
}

/// A symbol-valued attribute (`sym_name`, `callee`) as plain text.
fn symbol(op: &OperationRef, name: &str) -> Option<String> {
    let text = op.attribute(name).ok()?.to_string();
    Some(text.trim_start_matches('@').trim_matches('"').to_string())
}

fn set_i32(op: OperationRef, name: &str, value: i64) {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let i32 = IntegerType::new(context, 32).into();
    let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
    op.set_discardable_attribute(name, IntegerAttribute::new(i32, value).into());
}

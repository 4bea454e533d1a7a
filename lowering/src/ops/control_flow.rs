//! scf.for, scf.if and scf.while over registers: loop-carried tensors become
//! their registers, flattened in order, and the bodies are lowered inside the
//! new ops. (Upstream's convert-scf-to-cf then turns them into branches.)
use crate::{
    builder::{type_of, Cursor, V},
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike, ValueLike,
};
use tritium_dialects::access::OpAccess;

pub fn lower_yield<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    terminator(l, op, "scf.yield")
}

pub fn lower_condition<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    terminator(l, op, "scf.condition")
}

pub fn lower_br<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    branch(l, op, Branch::Unconditional)
}

pub fn lower_cond_br<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    branch(l, op, Branch::Conditional)
}

/// The end of a `tt.map_elementwise` body: an `scf.yield` of its registers
/// from the `scf.execute_region` that [`lower_map_elementwise`] builds.
pub fn lower_map_elementwise_return<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let (flat, _) = flatten(l, &op, 0..op.operand_count())?;
    l.b.op("scf.yield", &flat, &[], &[]);
    Ok(())
}

/// `cf.br` or `cf.cond_br` (whose first operand is the condition).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branch {
    Unconditional,
    Conditional,
}

/// `cf.br`/`cf.cond_br` between the kernel's blocks (early returns): the
/// same branch between their llvm blocks, passing the operands' registers.
/// A successor's operands are as many as its arguments, in successor order
/// after the condition.
fn branch<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, kind: Branch) -> Result<()> {
    let mut next_operand = usize::from(kind == Branch::Conditional);
    let mut successors = Vec::new();
    let mut passed = Vec::new();
    for successor in op.successors() {
        let (block, _) = *l
            .cfg
            .lowered_block(successor.to_raw())
            .or_else(|| l.region_blocks.get(&(successor.to_raw().ptr as usize)))
            .ok_or_else(|| {
                LowerError::at(
                    &op,
                    "branches are only supported between blocks of the kernel and of tt.map_elementwise",
                )
            })?;
        let count = successor.argument_count();
        let (registers, _) = flatten(l, &op, next_operand..next_operand + count)?;
        next_operand += count;
        successors.push(block);
        passed.push(registers);
    }
    if next_operand != op.operand_count() {
        return Err(LowerError::at(&op, "operands do not match the successors' arguments"));
    }
    let location: Location = l.b.location;
    let successor_refs: Vec<BlockRef> = successors.iter().map(|b| unsafe { BlockRef::from_raw(*b) }).collect();
    let successor_refs: Vec<&Block> = successor_refs.iter().map(|b| &**b).collect();
    let mut operands: Vec<V> = Vec::new();
    let builder = if kind == Branch::Unconditional {
        operands.extend(&passed[0]);
        OperationBuilder::new("llvm.br", location)
    } else {
        operands.push(l.operand(&op, 0)?[0]);
        operands.extend(&passed[0]);
        operands.extend(&passed[1]);
        let segments = l.attr_i32_array(&[1, passed[0].len() as i32, passed[1].len() as i32]);
        OperationBuilder::new("llvm.cond_br", location)
            .add_attributes(&[(Identifier::new(l.context(), "operandSegmentSizes"), segments)])
    };
    let operands: Vec<_> = operands.iter().map(|v| crate::builder::value(*v)).collect();
    let operation = builder
        .add_operands(&operands)
        .add_successors(&successor_refs)
        .build()
        .map_err(|e| LowerError::at(&op, e.to_string()))?;
    match l.b.cursor {
        Cursor::End(block) => {
            unsafe { BlockRef::from_raw(block) }.append_operation(operation);
        }
        Cursor::Before(anchor) => {
            let anchor = unsafe { OperationRef::from_raw(anchor) };
            anchor.block().unwrap().insert_operation_before(anchor, operation);
        }
    }
    Ok(())
}

/// Registers of a range of operands, flattened, with their counts.
fn flatten<'c>(l: &Lowering<'c>, op: &OperationRef, operands: std::ops::Range<usize>) -> Result<(Vec<V>, Vec<usize>)> {
    let mut flat = Vec::new();
    let mut counts = Vec::new();
    for i in operands {
        let registers = l.operand(op, i)?;
        counts.push(registers.len());
        flat.extend(registers);
    }
    Ok((flat, counts))
}

fn unflatten(flat: &[V], counts: &[usize]) -> Vec<Vec<V>> {
    let mut out = Vec::new();
    let mut start = 0;
    for count in counts {
        out.push(flat[start..start + count].to_vec());
        start += count;
    }
    out
}

fn terminator<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, name: &str) -> Result<()> {
    let (flat, _) = flatten(l, &op, 0..op.operand_count())?;
    l.b.op(name, &flat, &[], &[]);
    Ok(())
}

/// Creates `name` with the given operands/results and regions whose entry
/// blocks take `region_arguments[i]`; returns the op.
fn build_with_regions<'c>(
    l: &Lowering<'c>,
    name: &str,
    operands: &[V],
    results: &[Type<'c>],
    region_arguments: &[Vec<Type<'c>>],
) -> OperationRef<'c, 'c> {
    let location: Location = l.b.location;
    let region = |arguments: &Vec<Type<'c>>| {
        let region = Region::new();
        region.append_block(Block::new(&arguments.iter().map(|t| (*t, location)).collect::<Vec<_>>()));
        region
    };
    let operands: Vec<_> = operands.iter().map(|v| crate::builder::value(*v)).collect();
    let builder = OperationBuilder::new(name, location).add_operands(&operands).add_results(results);
    let builder = match region_arguments {
        [a] => builder.add_regions([region(a)]),
        [a, b] => builder.add_regions([region(a), region(b)]),
        _ => unreachable!("scf ops have one or two regions"),
    };
    let operation = builder.build().expect("structured op");
    match l.b.cursor {
        Cursor::End(block) => unsafe { melior::ir::BlockRef::from_raw(block) }.append_operation(operation),
        Cursor::Before(anchor) => {
            let anchor = unsafe { OperationRef::from_raw(anchor) };
            anchor.block().unwrap().insert_operation_before(anchor, operation)
        }
    }
}

/// Lowers the old region's block into the new op's region `index`, with the
/// old block arguments bound to `arguments` (grouped per old argument).
fn lower_region_into<'c>(
    l: &mut Lowering<'c>,
    old: &OperationRef<'c, '_>,
    old_region: usize,
    new: &OperationRef<'c, 'c>,
    new_region: usize,
    arguments: &[Vec<V>],
) -> Result<()> {
    let old_block =
        old.region_at(old_region).unwrap().first_block().ok_or_else(|| LowerError::at(old, "empty region"))?;
    let new_block = new.region_at(new_region).unwrap().first_block().unwrap();
    for (i, registers) in arguments.iter().enumerate() {
        l.set(old_block.argument(i).unwrap().to_raw(), registers.clone());
    }
    let saved = l.b.cursor;
    l.b.cursor = Cursor::End(new_block.to_raw());
    let result = l.lower_block(&old_block);
    l.b.cursor = saved;
    result
}

fn block_arguments(new: &OperationRef, region: usize) -> Vec<V> {
    let block = new.region_at(region).unwrap().first_block().unwrap();
    (0..block.argument_count()).map(|i| block.argument(i).unwrap().to_raw()).collect()
}

/// The frontend's `llvm.loop_annotation` (`tl.range(..., disable_licm=True)`,
/// `tl.condition(..., disable_licm=True)`): convert-scf-to-cf puts it on the
/// loop's back edge, and LLVM reads it as `!llvm.loop` metadata.
fn keep_loop_annotation(old: &OperationRef, new: &OperationRef) {
    const LOOP_ANNOTATION: &str = "llvm.loop_annotation";
    if let Ok(annotation) = old.attribute(LOOP_ANNOTATION) {
        tritium_dialects::ir::set_attribute(new, LOOP_ANNOTATION, annotation);
    }
}

pub fn lower_for<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let bounds: Vec<V> = (0..3).map(|i| l.operand(&op, i).map(|r| r[0])).collect::<Result<_>>()?;
    let (inits, counts) = flatten(l, &op, 3..op.operand_count())?;
    let types: Vec<Type> = inits.iter().map(|v| type_of(*v)).collect();
    let induction_type = type_of(bounds[0]);
    let mut arguments = vec![induction_type];
    arguments.extend(types.iter().copied());
    let mut operands = bounds.clone();
    operands.extend(inits);
    let new = build_with_regions(l, "scf.for", &operands, &types, &[arguments]);
    keep_loop_annotation(&op, &new);
    let args = block_arguments(&new, 0);
    let mut grouped = vec![vec![args[0]]];
    grouped.extend(unflatten(&args[1..], &counts));
    lower_region_into(l, &op, 0, &new, 0, &grouped)?;
    let results: Vec<V> = (0..new.result_count()).map(|i| new.result_at(i).unwrap().to_raw()).collect();
    for (i, registers) in unflatten(&results, &counts).into_iter().enumerate() {
        l.set_result(&op, i, registers);
    }
    Ok(())
}

/// The register count and lowered element type of each result of `op`.
fn result_shapes<'c>(l: &mut Lowering<'c>, op: &OperationRef<'c, '_>) -> Result<(Vec<usize>, Vec<Type<'c>>)> {
    let mut counts = Vec::new();
    let mut types = Vec::new();
    for i in 0..op.result_count() {
        let ty = op.result_at(i).unwrap().r#type();
        let count = if ty.is_ranked_tensor() { l.tensor_layout(op, ty)?.num_registers() } else { 1 };
        counts.push(count);
        types.extend(std::iter::repeat_n(l.lower_type(ty), count));
    }
    Ok((counts, types))
}

pub fn lower_if<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let condition = l.operand(&op, 0)?[0];
    let (counts, types) = result_shapes(l, &op)?;
    let has_else = op.region_at(1).ok().and_then(|r| r.first_block()).is_some();
    let regions = vec![vec![], vec![]];
    let new = build_with_regions(l, "scf.if", &[condition], &types, &regions);
    lower_region_into(l, &op, 0, &new, 0, &[])?;
    if has_else {
        lower_region_into(l, &op, 1, &new, 1, &[])?;
    } else {
        // scf.if without results may omit `else`; keep an empty one that yields.
        let block = new.region_at(1).unwrap().first_block().unwrap();
        let saved = l.b.cursor;
        l.b.cursor = Cursor::End(block.to_raw());
        l.b.op("scf.yield", &[], &[], &[]);
        l.b.cursor = saved;
    }
    let results: Vec<V> = (0..new.result_count()).map(|i| new.result_at(i).unwrap().to_raw()).collect();
    for (i, registers) in unflatten(&results, &counts).into_iter().enumerate() {
        l.set_result(&op, i, registers);
    }
    Ok(())
}

pub fn lower_while<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let (inits, init_counts) = flatten(l, &op, 0..op.operand_count())?;
    let before_types: Vec<Type> = inits.iter().map(|v| type_of(*v)).collect();
    let (result_counts, result_types) = result_shapes(l, &op)?;
    let new = build_with_regions(l, "scf.while", &inits, &result_types, &[before_types, result_types.clone()]);
    keep_loop_annotation(&op, &new);
    let before_args = block_arguments(&new, 0);
    lower_region_into(l, &op, 0, &new, 0, &unflatten(&before_args, &init_counts))?;
    let after_args = block_arguments(&new, 1);
    lower_region_into(l, &op, 1, &new, 1, &unflatten(&after_args, &result_counts))?;
    let results: Vec<V> = (0..new.result_count()).map(|i| new.result_at(i).unwrap().to_raw()).collect();
    for (i, registers) in unflatten(&results, &result_counts).into_iter().enumerate() {
        l.set_result(&op, i, registers);
    }
    Ok(())
}

/// `tt.map_elementwise`: its region (a scalar function, with branches of
/// its own) runs once per `pack` elements of each thread, in register
/// order, as an `scf.execute_region` whose blocks are the region's; the
/// entry block's arguments are operand `i`'s element `j` at `i * pack + j`,
/// and `tt.map_elementwise.return` yields result `r`'s element `j` at
/// `r * pack + j` (the frontend's order).
pub fn lower_map_elementwise<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pack = crate::int_attribute(&op, "pack").unwrap_or(1).max(1) as usize;
    let (counts, _) = result_shapes(l, &op)?;
    let count = counts.first().copied().unwrap_or(1);
    if count % pack != 0 {
        return Err(LowerError::at(&op, format!("{count} elements per thread are not a multiple of pack {pack}")));
    }
    let mut operands = Vec::new();
    for i in 0..op.operand_count() {
        let registers = l.operand(&op, i)?;
        operands.push(match registers.len() {
            n if n == count => registers,
            1 => vec![registers[0]; count],
            _ => return Err(LowerError::at(&op, "operands and results are distributed differently")),
        });
    }
    let element_types: Vec<Type<'c>> = op.results().map(|r| l.lower_type(r.r#type())).collect();
    let region = op.region_at(0).map_err(|_| LowerError::at(&op, "has no body"))?;
    let blocks = crate::cfg::KernelBlocks::of(region);
    let Some(&entry) = blocks.order.first() else { return Err(LowerError::at(&op, "has an empty body")) };
    let entry = unsafe { BlockRef::from_raw(entry) };
    if entry.argument_count() != operands.len() * pack {
        return Err(LowerError::at(&op, "the body's arguments are not pack elements of each operand"));
    }
    let mut results: Vec<Vec<V>> = vec![Vec::with_capacity(count); element_types.len()];
    for start in (0..count).step_by(pack) {
        let result_types: Vec<Type<'c>> = element_types.iter().flat_map(|t| std::iter::repeat_n(*t, pack)).collect();
        let new = build_with_regions(l, "scf.execute_region", &[], &result_types, &[vec![]]);
        let new_region = new.region_at(0).unwrap();
        // The entry's arguments are the elements themselves.
        for (i, registers) in operands.iter().enumerate() {
            for j in 0..pack {
                l.set(entry.argument(i * pack + j).unwrap().to_raw(), vec![registers[start + j]]);
            }
        }
        let mut lowered = vec![new_region.first_block().unwrap().to_raw()];
        for block in blocks.order.iter().skip(1) {
            let block = unsafe { BlockRef::from_raw(*block) };
            let location: Location = l.b.location;
            let types: Vec<(Type, Location)> = (0..block.argument_count())
                .map(|i| (l.lower_type(block.argument(i).unwrap().r#type()), location))
                .collect();
            let new_block = new_region.append_block(Block::new(&types));
            for i in 0..block.argument_count() {
                l.set(block.argument(i).unwrap().to_raw(), vec![new_block.argument(i).unwrap().to_raw()]);
            }
            l.region_blocks.insert(block.to_raw().ptr as usize, (new_block.to_raw(), vec![1; block.argument_count()]));
            lowered.push(new_block.to_raw());
        }
        let saved = l.b.cursor;
        let mut outcome = Ok(());
        for (block, target) in blocks.order.iter().zip(&lowered) {
            l.b.cursor = Cursor::End(*target);
            outcome = l.lower_block(&unsafe { BlockRef::from_raw(*block) });
            if outcome.is_err() {
                break;
            }
        }
        l.b.cursor = saved;
        outcome?;
        for (r, registers) in results.iter_mut().enumerate() {
            for j in 0..pack {
                registers.push(new.result_at(r * pack + j).unwrap().to_raw());
            }
        }
    }
    for (r, registers) in results.into_iter().enumerate() {
        l.set_result(&op, r, registers);
    }
    Ok(())
}

//! The op builders generated from the ODS (`tritium_dialects::ops`) build
//! valid IR that prints as Triton's.
use crate::common::context;
use melior::{
    dialect::arith,
    ir::{
        attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType, RankedTensorType},
        Block, BlockLike, Location, Module, Region, RegionLike, Type,
    },
};
use tritium_dialects::{
    io::{print, PrintOptions},
    ops::{tt, with_operand_segments},
    types,
};

#[test]
fn builders_make_a_vector_add_kernel() {
    let context = context();
    let location = Location::unknown(&context);
    let module = Module::new(location);
    let f32 = Type::float32(&context);
    let i32 = IntegerType::new(&context, 32).into();
    let ptr = types::pointer(f32, 1);
    let block = Block::new(&[(ptr, location), (ptr, location), (i32, location)]);
    let x_ptr = block.argument(0).unwrap().into();
    let out_ptr = block.argument(1).unwrap().into();
    let n = block.argument(2).unwrap().into();
    let i32_tensor: Type = RankedTensorType::new(&[1024], i32, None).into();
    let ptr_tensor: Type = RankedTensorType::new(&[1024], ptr, None).into();
    let i32_attr = |v: i64| IntegerAttribute::new(i32, v);

    block.append_operation(tt::get_program_id(&context, i32, IntegerAttribute::new(i32, 0).into(), location).into());
    let range =
        block.append_operation(tt::make_range(&context, i32_tensor, i32_attr(0), i32_attr(1024), location).into());
    let splat_n = block.append_operation(tt::splat(&context, i32_tensor, n, location).into());
    let mask = block.append_operation(arith::cmpi(
        &context,
        arith::CmpiPredicate::Slt,
        range.result(0).unwrap().into(),
        splat_n.result(0).unwrap().into(),
        location,
    ));
    let base = block.append_operation(tt::splat(&context, ptr_tensor, x_ptr, location).into());
    let ptrs = block.append_operation(
        tt::addptr(&context, ptr_tensor, base.result(0).unwrap().into(), range.result(0).unwrap().into(), location)
            .into(),
    );
    let load = block.append_operation(with_operand_segments(
        tt::LoadOperation::builder(&context, location)
            .result(tensor_of(&context, f32))
            .ptr(ptrs.result(0).unwrap().into())
            .mask(mask.result(0).unwrap().into())
            .build()
            .into(),
        &[1, 1, 0],
    ));
    let out_base = block.append_operation(tt::splat(&context, ptr_tensor, out_ptr, location).into());
    let out_ptrs = block.append_operation(
        tt::addptr(&context, ptr_tensor, out_base.result(0).unwrap().into(), range.result(0).unwrap().into(), location)
            .into(),
    );
    block.append_operation(
        tt::StoreOperation::builder(&context, location)
            .ptr(out_ptrs.result(0).unwrap().into())
            .value(load.result(0).unwrap().into())
            .mask(mask.result(0).unwrap().into())
            .build()
            .into(),
    );
    block.append_operation(tt::r#return(&context, &[], location).into());

    let region = Region::new();
    region.append_block(block);
    let function_type = FunctionType::new(&context, &[ptr, ptr, i32], &[]);
    module.body().append_operation(
        tt::FuncOperation::builder(&context, location)
            .sym_name(StringAttribute::new(&context, "copy"))
            .function_type(TypeAttribute::new(function_type.into()))
            .body(region)
            .build()
            .into(),
    );
    assert!(module.as_operation().verify(), "{}", module.as_operation());
    let text = print(&module.as_operation(), PrintOptions::default());
    for expected in [
        "tt.func @copy(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32)",
        "tt.get_program_id x : i32",
        "tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>",
        "tt.addptr %4, %1 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>",
        "tt.load %5, %3 : tensor<1024x!tt.ptr<f32>>",
        "tt.store %8, %6, %3 : tensor<1024x!tt.ptr<f32>>",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in:\n{text}");
    }
}

fn tensor_of<'c>(_context: &'c melior::Context, element: Type<'c>) -> Type<'c> {
    RankedTensorType::new(&[1024], element, None).into()
}

//! The Rust API over Tritium's attributes and types: every layout in the
//! corpus reads as a `tritium_layout::Layout`, converts back to the same
//! attribute, and has a linear layout for its tensor's shape; layouts and
//! types built in Rust print as Triton prints them.
use crate::common::{context, distinct_corpus_files};
use melior::ir::{
    operation::OperationLike, r#type::RankedTensorType, Attribute, BlockLike, Location, OperationRef, RegionLike, Type,
    ValueLike,
};
use std::collections::BTreeSet;
use tritium_dialects::{
    io::parse_module,
    layout::{attribute_of, layout_of},
    types::{self, MemDesc},
};
use tritium_layout::{Blocked, DotOperand, Layout, NvidiaMma, NvmmaShared, Slice, SwizzledShared};

fn walk<'c, 'a>(op: OperationRef<'c, 'a>, f: &mut dyn FnMut(OperationRef<'c, 'a>)) {
    for r in 0..op.region_count() {
        let region = op.region(r).unwrap();
        let mut block = region.first_block();
        while let Some(b) = block {
            for i in 0..b.argument_count() {
                let _ = b.argument(i);
            }
            let mut next = b.first_operation();
            while let Some(inner) = next {
                f(inner);
                walk(inner, f);
                next = inner.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

#[test]
fn every_corpus_layout_converts_both_ways_and_has_a_linear_layout() {
    let context = context();
    let location = Location::unknown(&context);
    let mut tensor_types = BTreeSet::new();
    let mut memdesc_types = BTreeSet::new();
    for path in distinct_corpus_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let module = parse_module(&context, &text, "corpus").unwrap();
        walk(module.as_operation(), &mut |op| {
            for i in 0..op.result_count() {
                let ty = op.result(i).unwrap().r#type();
                if RankedTensorType::try_from(ty).is_ok_and(|t| t.encoding().is_some()) {
                    tensor_types.insert(ty.to_string());
                } else if MemDesc::of(ty).is_some() {
                    memdesc_types.insert(ty.to_string());
                }
            }
        });
    }
    assert!(tensor_types.len() > 100, "{}", tensor_types.len());
    let mut kinds = std::collections::HashSet::new();
    for text in &tensor_types {
        let ty = Type::parse(&context, text).unwrap();
        let encoding = RankedTensorType::try_from(ty).unwrap().encoding().unwrap();
        let layout = layout_of(encoding).unwrap_or_else(|e| panic!("{text}: {e}"));
        kinds.insert(std::mem::discriminant(&layout));
        let back = attribute_of(&layout, location).unwrap_or_else(|| panic!("{text}: cannot rebuild"));
        assert_eq!(back, encoding, "{text}");
        let shape = types::static_shape(ty).unwrap();
        let linear = layout.to_linear(&shape).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(linear.total_out_size(), shape.iter().product::<i64>() as u64, "{text}");
    }
    // blocked, slice, nvidia_mma and dot_op all occur in the corpus.
    assert!(kinds.len() >= 4, "{kinds:?}");
    for text in &memdesc_types {
        let ty = Type::parse(&context, text).unwrap();
        let memdesc = MemDesc::of(ty).unwrap();
        assert_eq!(memdesc.to_type(location), Some(ty), "{text}");
        let layout = layout_of(memdesc.encoding).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(layout.is_shared(), "{text}");
        assert_eq!(attribute_of(&layout, location), Some(memdesc.encoding), "{text}");
    }
}

#[test]
fn layouts_built_in_rust_print_as_triton_prints_them() {
    let context = context();
    let location = Location::unknown(&context);
    let show = |layout: Layout| attribute_of(&layout, location).unwrap().to_string();

    let blocked = Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]);
    assert_eq!(
        show(blocked.clone().into()),
        "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    );
    assert_eq!(
        show(Layout::Slice(Slice { dim: 1, parent: Box::new(blocked.clone().into()) })),
        "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>"
    );
    let mma = NvidiaMma::new(3, 0, &[4, 1], &[16, 64, 16]);
    assert_eq!(
        show(mma.clone().into()),
        "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"
    );
    assert_eq!(
        show(Layout::DotOperand(DotOperand::new(0, mma.into(), 2))),
        "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>"
    );
    assert_eq!(
        show(Layout::NvmmaShared(NvmmaShared::new(128, true, 16, false, 2))),
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>"
    );
    assert_eq!(
        show(Layout::NvmmaShared(NvmmaShared::new(64, false, 8, false, 3))),
        "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, rank = 3}>"
    );
    let swizzled = SwizzledShared {
        vec: 8,
        per_phase: 1,
        max_phase: 8,
        order: vec![1, 0],
        cta: tritium_layout::CtaLayout::single_cta(2),
    };
    assert_eq!(show(swizzled.into()), "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>");

    // A layout over two CTAs prints its CGA layout.
    let cta = tritium_layout::CtaLayout::from_split_params(&[2, 1], &[2, 1], &[1, 0]).unwrap();
    let two_ctas: Layout = blocked.with_cta(cta).into();
    let text = show(two_ctas.clone());
    assert!(text.ends_with("order = [1, 0], CGALayout = [[1, 0]]}>"), "{text}");
    let reparsed = Attribute::parse(&context, &text).unwrap();
    assert_eq!(layout_of(reparsed).unwrap(), two_ctas);
}

/// Invalid parameters built in Rust are rejected with a diagnostic, not a crash.
#[test]
fn invalid_layouts_built_in_rust_are_rejected() {
    let context = context();
    let errors = std::cell::RefCell::new(Vec::new());
    let id = context.attach_diagnostic_handler(|d| {
        errors.borrow_mut().push(d.to_string());
        true
    });
    let location = Location::unknown(&context);
    let not_a_permutation = Blocked::new(&[1, 1], &[4, 8], &[4, 1], &[0, 0]);
    assert_eq!(attribute_of(&not_a_permutation.into(), location), None);
    let bad_swizzle = NvmmaShared::new(96, false, 16, false, 2);
    assert_eq!(attribute_of(&bad_swizzle.into(), location), None);
    context.detach_diagnostic_handler(id);
    let errors = errors.into_inner();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("permutation"), "{errors:?}");
    assert!(errors[1].contains("swizzlingByteWidth"), "{errors:?}");
}

#[test]
fn pointer_memdesc_and_token_types() {
    let context = context();
    let location = Location::unknown(&context);
    let f16 = Type::float16(&context);
    let ptr = types::pointer(f16, 1);
    assert_eq!(ptr.to_string(), "!tt.ptr<f16>");
    assert_eq!(types::pointer(f16, 3).to_string(), "!tt.ptr<f16, 3>");
    assert_eq!(types::pointer_parts(ptr), Some((f16, 1)));
    assert_eq!(types::pointer_parts(f16), None);

    let block = Type::parse(&context, "tensor<64x64xf16>").unwrap();
    let desc = types::tensor_descriptor(block).unwrap();
    assert_eq!(desc.to_string(), "!tt.tensordesc<tensor<64x64xf16>>");
    assert_eq!(types::tensor_descriptor_block(desc), Some(block));
    assert_eq!(types::async_token(&context).to_string(), "!ttg.async.token");

    let shared = attribute_of(&NvmmaShared::new(128, false, 16, false, 2).into(), location).unwrap();
    let memdesc = MemDesc {
        shape: vec![64, 64],
        element_type: f16,
        encoding: shared,
        memory_space: types::shared_memory_space(&context),
        mutable: true,
        alloc_shape: vec![3, 64, 64],
    };
    let ty = memdesc.to_type(location).unwrap();
    assert_eq!(
        ty.to_string(),
        "!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable, 3x64x64>"
    );
    assert_eq!(MemDesc::of(ty), Some(memdesc.clone()));
    let errors = std::cell::RefCell::new(Vec::new());
    let id = context.attach_diagnostic_handler(|d| {
        errors.borrow_mut().push(d.to_string());
        true
    });
    let bad = MemDesc { shape: vec![128, 64], ..memdesc };
    assert_eq!(bad.to_type(location), None);
    context.detach_diagnostic_handler(id);
    assert_eq!(errors.into_inner(), vec!["memdesc shape 128, 64 exceeds its alloc shape 3, 64, 64".to_string()]);
}

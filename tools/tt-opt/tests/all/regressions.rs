//! Inputs that once crashed `tritium compile` (test/fixtures/regressions/,
//! each with a comment saying what broke): every one must now compile to PTX
//! that ptxas accepts. TTIR fixtures go through Tritium's pipeline for sm_90
//! with 4 warps, TTGIR fixtures are lowered as they are.
use crate::common::{context, repo_root};
use melior::ir::operation::OperationLike;
use std::process::Command;
use tritium_dialects::io::parse_module;
use tritium_lowering::{compile, CompileOptions};

fn compile_to_cubin(path: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let context = context();
    let mut module = parse_module(&context, &text, &path.display().to_string()).map_err(|e| e.join("; "))?;
    let bundle = compile(&context, &mut module, &CompileOptions::default())?;
    let directory =
        std::env::temp_dir().join(format!("tritium-regression-{}-{}", std::process::id(), bundle.info.name));
    std::fs::create_dir_all(&directory).map_err(|e| e.to_string())?;
    let ptx = directory.join("kernel.ptx");
    std::fs::write(&ptx, &bundle.ptx).map_err(|e| e.to_string())?;
    let output = Command::new(crate::lowering::ptxas())
        .arg(format!("-arch={}", bundle.target.cpu()))
        .arg(&ptx)
        .arg("-o")
        .arg(directory.join("kernel.cubin"))
        .output()
        .map_err(|e| format!("cannot run ptxas: {e}"))?;
    std::fs::remove_dir_all(&directory).ok();
    if !output.status.success() {
        return Err(format!("ptxas: {}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(())
}

#[test]
fn former_crashes_compile_to_ptx_that_ptxas_accepts() {
    let directory = repo_root().join("test/fixtures/regressions");
    let mut paths: Vec<_> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            // A panic here is the regression itself: report it as a failure of this fixture.
            match std::panic::catch_unwind(|| compile_to_cubin(path)) {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(format!("{name}: {e}")),
                Err(_) => Some(format!("{name}: panicked")),
            }
        })
        .collect();
    assert!(failures.is_empty(), "{} regression fixtures failed:\n{}", failures.len(), failures.join("\n"));
}

/// An LLVM-dialect module MLIR verifies but LLVM cannot translate (a GEP over
/// fp8 elements segfaulted inside `IRBuilder::CreateGEP`): `module_to_ptx`
/// must refuse it with the op's location instead.
#[test]
fn untranslatable_llvm_types_are_located_errors() {
    let cases = [
        (
            "gep",
            "llvm.func @k(%p: !llvm.ptr<1>, %i: i32) {\n  %q = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f8E4M3FN\n  llvm.return\n}",
            "attribute 'elem_type' names type f8E4M3FN",
        ),
        (
            "load",
            "llvm.func @k(%p: !llvm.ptr<1>) {\n  %v = llvm.load %p : !llvm.ptr<1> -> vector<4xf8E5M2>\n  llvm.return\n}",
            "result #0 has type vector<4xf8E5M2>",
        ),
    ];
    for (name, text, expected) in cases {
        let context = context();
        let module = parse_module(&context, text, name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(module.as_operation().verify(), "{name}: MLIR's verifier accepts it (that is the point)");
        let target = tritium_lowering::Target { capability: 90 };
        match tritium_lowering::ptx::module_to_ptx(&module, &target, None, false, &Default::default()) {
            Ok(_) => panic!("{name}: translated"),
            Err(message) => {
                assert!(message.contains(expected), "{name}: {message}");
                assert!(message.contains(&format!("{name}\":2:")), "{name}: not located at the op: {message}");
            }
        }
    }
}

//! Builds the dialects' C++ (ODS-generated code plus a little hand-written
//! C++, see the root CMakeLists.txt) into a static library and links it.
use std::{env, path::PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().to_path_buf();
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());

    for dir in ["dialects/td", "dialects/cpp"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    println!("cargo:rerun-if-changed={}", root.join("CMakeLists.txt").display());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let out = cmake::Config::new(&root)
        .generator("Ninja")
        .define("MLIR_DIR", format!("{prefix}/lib/cmake/mlir"))
        .define("LLVM_DIR", format!("{prefix}/lib/cmake/llvm"))
        // The C++ is small; optimise it whatever the cargo profile.
        .profile("Release")
        .build_target("TritiumDialects")
        .build();

    println!("cargo:rustc-link-search=native={}/build", out.display());
    println!("cargo:rustc-link-lib=static=TritiumDialects");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    // melior's dialect! macro reads the .td files through this variable.
    println!("cargo:rustc-env=TRITIUM_TD_DIR={}", root.join("dialects/td").display());
}

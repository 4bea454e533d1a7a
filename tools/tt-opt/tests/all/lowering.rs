//! Compiles every corpus kernel to PTX through the library API, from
//! upstream's TTGIR and from upstream's TTIR (Tritium's whole pipeline), and
//! assembles each PTX with ptxas. For the TTGIR inputs the launch metadata
//! must equal upstream's (shared-memory bytes, warps, name), and the matmul
//! instructions must be the target's tensor-core ones. Every kernel of the
//! manifest counts, except those in `test/fixtures/not-yet-lowered.tsv`.
use crate::common::{corpus, repo_root, CorpusEntry};
use std::{path::PathBuf, process::Command};
use tritium_dialects::io::parse_module;
use tritium_lowering::{compile, Bundle, CompileOptions, Target};

/// Corpus kernels the lowering cannot compile yet, with what it lacks
/// (test/fixtures/not-yet-lowered.tsv, which the scripts read too): they are
/// compiled all the same but not required to succeed, and the test fails once
/// one of them compiles for every target and stage, so that it leaves the list.
fn not_yet_lowered() -> Vec<(String, String)> {
    include_str!("../../../../test/fixtures/not-yet-lowered.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (kernel, reason) = l.split_once('\t').unwrap_or((l, ""));
            (kernel.to_string(), reason.to_string())
        })
        .collect()
}

/// ptxas: $PTXAS, else the one scripts/setup.sh installs under .tools/.
pub fn ptxas() -> PathBuf {
    cuda_tool("PTXAS", "cuda_nvcc/bin/ptxas")
}

/// libdevice.10.bc: $LIBDEVICE, else the one scripts/setup.sh installs under .tools/.
pub(crate) fn libdevice() -> PathBuf {
    cuda_tool("LIBDEVICE", "cuda_nvcc/nvvm/libdevice/libdevice.10.bc")
}

/// nvdisasm: $NVDISASM, else the one scripts/setup.sh installs under .tools/.
fn nvdisasm() -> PathBuf {
    cuda_tool("NVDISASM", "cu13/bin/nvdisasm")
}

fn cuda_tool(variable: &str, wheel_path: &str) -> PathBuf {
    if let Some(path) = std::env::var_os(variable) {
        return PathBuf::from(path);
    }
    let lib = repo_root().join(".tools/venv/lib");
    std::fs::read_dir(&lib)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("site-packages/nvidia").join(wheel_path))
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!("no {wheel_path}: run scripts/setup.sh (installs it under .tools/) or set {variable}")
        })
}

fn meta_field(entry: &CorpusEntry, key: &str) -> String {
    let meta = std::fs::read_to_string(
        repo_root().join(format!("test/fixtures/corpus/meta/{}/{}.json", entry.target, entry.kernel)),
    )
    .unwrap();
    let start = meta.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    meta[start..].trim_start().split([',', '\n']).next().unwrap().trim().trim_matches('"').to_string()
}

fn compile_entry(entry: &CorpusEntry) -> Result<Bundle, String> {
    let context = crate::common::context();
    let mut module = parse_module(&context, &entry.text(), "input").map_err(|e| e.join("; "))?;
    let options = CompileOptions {
        target: Target::parse(&format!("cuda:{}", entry.target.trim_start_matches("cuda")))?,
        num_warps: meta_field(entry, "num_warps").parse().unwrap(),
        num_ctas: meta_field(entry, "num_ctas").parse().unwrap(),
        num_stages: meta_field(entry, "num_stages").parse().unwrap(),
        // Tests check every pass's output, not only each stage's.
        verify_each_pass: true,
        // For the kernels calling libdevice (tutorial 07's asin).
        libdevice: Some(libdevice()),
        ..CompileOptions::default()
    };
    compile(&context, &mut module, &options)
}

/// Assembles the PTX with ptxas; returns the SASS (nvdisasm) when asked.
fn assemble(bundle: &Bundle, label: &str, disassemble: bool) -> Result<String, String> {
    let directory = std::env::temp_dir().join(format!("tritium-lowering-test-{}-{label}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let ptx = directory.join("kernel.ptx");
    std::fs::write(&ptx, &bundle.ptx).unwrap();
    let output = Command::new(ptxas())
        .arg(format!("-arch={}", bundle.target.cpu()))
        .arg(&ptx)
        .arg("-o")
        .arg(directory.join("kernel.cubin"))
        .output()
        .map_err(|e| format!("cannot run ptxas: {e}"))?;
    if !output.status.success() {
        std::fs::remove_dir_all(&directory).ok();
        return Err(format!("ptxas: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let mut sass = String::new();
    if disassemble {
        let output = Command::new(nvdisasm())
            .arg(directory.join("kernel.cubin"))
            .output()
            .map_err(|e| format!("cannot run nvdisasm: {e}"))?;
        sass = String::from_utf8_lossy(&output.stdout).into_owned();
    }
    std::fs::remove_dir_all(&directory).ok();
    Ok(sass)
}

/// Compiles one manifest entry and checks what it must have; the problems.
fn check_entry(entry: &CorpusEntry) -> Vec<String> {
    let label = format!("{}-{}-{}", entry.target, entry.kernel, entry.stage);
    let bundle = match compile_entry(entry) {
        Ok(b) => b,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    if bundle.info.name != meta_field(entry, "name") {
        problems.push(format!("kernel name {}", bundle.info.name));
    }
    if !bundle.ptx.contains(&format!(".entry {}(", bundle.info.name)) {
        problems.push("no .entry".into());
    }
    if entry.stage == "ttgir" {
        let upstream_shared: usize = meta_field(entry, "shared").parse().unwrap();
        if bundle.info.shared_bytes != upstream_shared {
            problems.push(format!("shared {} bytes, upstream {upstream_shared}", bundle.info.shared_bytes));
        }
    }
    let has_dot = ["matmul", "attn", "dot_scaled"].iter().any(|p| entry.kernel.starts_with(p));
    let hopper = entry.target == "cuda90";
    if has_dot {
        let instruction = if hopper { "wgmma.mma_async" } else { "mma.sync.aligned.m16n8k" };
        if !bundle.ptx.contains(instruction) {
            problems.push(format!("no {instruction}"));
        }
    }
    match assemble(&bundle, &label, has_dot && hopper) {
        // Hopper's tensor-core instructions in the machine code: HGMMA (f16,
        // bf16), IGMMA (i8), QGMMA (fp8).
        Ok(sass) if has_dot && hopper && !["HGMMA", "IGMMA", "QGMMA"].iter().any(|i| sass.contains(i)) => {
            problems.push("no HGMMA/IGMMA/QGMMA in the SASS".into())
        }
        Ok(_) => {}
        Err(e) => problems.push(e),
    }
    problems
}

#[test]
fn corpus_kernels_compile_to_ptx_that_ptxas_accepts() {
    let entries: Vec<CorpusEntry> = corpus().into_iter().filter(|e| e.stage == "ttgir" || e.stage == "ttir").collect();
    let not_yet_lowered = not_yet_lowered();
    let not_yet = |entry: &CorpusEntry| not_yet_lowered.iter().any(|(kernel, _)| *kernel == entry.kernel);
    for (kernel, _) in &not_yet_lowered {
        assert!(
            entries.iter().any(|e| e.kernel == *kernel),
            "not-yet-lowered.tsv names {kernel}, which is not in the corpus"
        );
    }
    let expected = entries.iter().filter(|e| !not_yet(e)).count();
    let mut failures = Vec::new();
    let mut compiled = 0;
    // Kernels of test/fixtures/not-yet-lowered.tsv -> their entries that compiled.
    let mut listed_compiled: std::collections::BTreeMap<&str, usize> = Default::default();
    for entry in &entries {
        let label = format!("{}-{}-{}", entry.target, entry.kernel, entry.stage);
        let problems = check_entry(entry);
        if not_yet(entry) {
            *listed_compiled.entry(entry.kernel.as_str()).or_default() += problems.is_empty() as usize;
        } else if problems.is_empty() {
            compiled += 1;
        } else {
            failures.push(format!("{label}: {}", problems.join("; ")));
        }
    }
    for (kernel, count) in &listed_compiled {
        if *count == entries.iter().filter(|e| e.kernel == *kernel).count() {
            failures.push(format!(
                "{kernel} compiles now for every target and stage: remove it from test/fixtures/not-yet-lowered.tsv"
            ));
        }
    }
    assert!(failures.is_empty(), "{} kernels failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(
        compiled, expected,
        "every (target, kernel, TTIR/TTGIR) entry of the manifest outside test/fixtures/not-yet-lowered.tsv"
    );
}

//! TMA kernels (test/fixtures/tma/: upstream Triton 3.6's TTIR and TTGIR of
//! the kernels in kernels.py, sm_90): each compiles to PTX that ptxas
//! accepts, whose SASS has the TMA instructions (UTMALDG for descriptor
//! loads, UTMASTG for stores, HGMMA for the matmuls), with upstream's
//! shared memory and `tensordesc_meta` (what the launcher puts into each
//! host-side CUtensorMap: it must match the copies the PTX issues).
use crate::common::{context, repo_root};
use crate::lowering::ptxas;
use melior::{pass::PassManager, utility::parse_pass_pipeline};
use std::{path::PathBuf, process::Command};
use tritium_dialects::io::{parse_module, print, PrintOptions};
use tritium_lowering::{compile, Bundle, CompileOptions, Target};

struct Case {
    kernel: &'static str,
    /// Stages that must compile: "ttgir" (upstream's, through Tritium's
    /// lowering) and/or "ttir" (through Tritium's own pipeline).
    stages: &'static [&'static str],
    /// SASS instructions that must be there.
    sass: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        kernel: "tma_copy",
        stages: &["ttgir", "ttir"],
        sass: &["UTMALDG.2D", "UTMASTG.2D", "SYNCS.ARRIVE.TRANS64"],
    },
    Case { kernel: "tma_matmul", stages: &["ttgir", "ttir"], sass: &["UTMALDG.2D", "UTMASTG.2D", "HGMMA"] },
    Case { kernel: "tma_store_epilogue", stages: &["ttgir", "ttir"], sass: &["UTMASTG.2D"] },
    // Device-side descriptors: tensormaps built in global scratch
    // (tensormap.replace, then cp_fenceproxy and the acquire fence: UTMACCTL).
    Case {
        kernel: "device_desc_matmul",
        stages: &["ttgir", "ttir"],
        sass: &["UTMALDG.2D", "UTMASTG.2D", "HGMMA", "UTMACCTL"],
    },
    // Reductions through descriptors (`desc.atomic_add` / `atomic_min`):
    // cp.reduce.async.bulk.tensor, a TMA store that reduces into global memory.
    Case { kernel: "tma_reduce", stages: &["ttgir", "ttir"], sass: &["UTMAREDG.2D.ADD"] },
    Case { kernel: "device_desc_reduce", stages: &["ttgir", "ttir"], sass: &["UTMAREDG.2D.MIN", "UTMACCTL"] },
    // Descriptors made inside the pipelined loop (a batch's, when its tile
    // starts): their tensormaps rotate over slots in global scratch (upstream's
    // global_scratch_size), the loads stay pipelined TMA copies.
    Case {
        kernel: "batched_desc_matmul",
        stages: &["ttgir", "ttir"],
        sass: &["UTMALDG.2D", "UTMASTG.2D", "HGMMA", "UTMACCTL"],
    },
];

pub(crate) fn nvdisasm() -> PathBuf {
    if let Some(path) = std::env::var_os("NVDISASM") {
        return PathBuf::from(path);
    }
    let lib = repo_root().join(".tools/venv/lib");
    std::fs::read_dir(&lib)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("site-packages/nvidia/cu13/bin/nvdisasm"))
        .find(|p| p.exists())
        .expect("no nvdisasm: run scripts/setup.sh or set NVDISASM")
}

/// Upstream's metadata of a kernel: the text of `"key": value` in
/// upstream_meta.json, whitespace removed.
fn upstream(kernel: &str, key: &str) -> String {
    let text = std::fs::read_to_string(repo_root().join("test/fixtures/tma/upstream_meta.json")).unwrap();
    let start = text.find(&format!("\"{kernel}\": {{")).unwrap();
    let rest = &text[start..];
    let at = rest.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
    let rest = &rest[at..];
    // A number, or a bracketed list (which may nest objects).
    let mut depth = 0;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' if depth > 0 => depth -= 1,
            ',' | '\n' | '}' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
        if depth == 0 && (c == ']' || c == '}') {
            end = i + 1;
            break;
        }
    }
    rest[..end].split_whitespace().collect()
}

fn compile_fixture(kernel: &str, stage: &str) -> Result<Bundle, String> {
    let path = repo_root().join(format!("test/fixtures/tma/{kernel}_sm90.{stage}"));
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let context = context();
    let mut module = parse_module(&context, &text, kernel).map_err(|e| e.join("; "))?;
    let options = CompileOptions {
        target: Target::parse("cuda:90")?,
        num_warps: upstream(kernel, "num_warps").parse().unwrap(),
        num_stages: upstream(kernel, "num_stages").parse().unwrap(),
        verify_each_pass: true,
        ..CompileOptions::default()
    };
    compile(&context, &mut module, &options)
}

pub(crate) fn sass_of(bundle: &Bundle, label: &str) -> Result<String, String> {
    let directory = std::env::temp_dir().join(format!("tritium-tma-{}-{label}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let ptx = directory.join("kernel.ptx");
    std::fs::write(&ptx, &bundle.ptx).unwrap();
    let cubin = directory.join("kernel.cubin");
    let output = Command::new(ptxas()).arg("-arch=sm_90a").arg(&ptx).arg("-o").arg(&cubin).output().unwrap();
    if !output.status.success() {
        return Err(format!("ptxas: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let output = Command::new(nvdisasm()).arg(&cubin).output().unwrap();
    std::fs::remove_dir_all(&directory).ok();
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn check(case: &Case, stage: &str) -> Vec<String> {
    let bundle = match compile_fixture(case.kernel, stage) {
        Ok(bundle) => bundle,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    let meta: String = format!("[{}]", bundle.info.tensordesc_meta.join(",")).split_whitespace().collect();
    let expected = upstream(case.kernel, "tensordesc_meta");
    if meta != expected {
        problems.push(format!("tensordesc_meta {meta}, upstream {expected}"));
    }
    // Per-program global scratch (device-side descriptors' tensormaps), and
    // the trailing parameter it comes in.
    for (key, ours) in [
        ("global_scratch_size", bundle.info.global_scratch_size),
        ("global_scratch_align", bundle.info.global_scratch_align),
    ] {
        let expected: usize = upstream(case.kernel, key).parse().unwrap();
        if ours != expected {
            problems.push(format!("{key} {ours}, upstream {expected}"));
        }
    }
    let has_scratch_parameter = bundle.info.parameters.last().is_some_and(|(name, _)| name == "global_scratch");
    if has_scratch_parameter != (bundle.info.global_scratch_size > 0) {
        problems.push("a global_scratch parameter without global scratch, or the other way round".into());
    }
    // From TTIR too: Tritium's pipeliner makes upstream's multi-buffered
    // TMA loads and asynchronous TMA stores.
    let shared: usize = upstream(case.kernel, "shared").parse().unwrap();
    if bundle.info.shared_bytes != shared {
        problems.push(format!("shared {} bytes, upstream {shared}", bundle.info.shared_bytes));
    }
    if !bundle.ptx.contains(".param .align 64 .b8") && !bundle.info.tensordesc_meta.is_empty() {
        problems.push("no by-value CUtensorMap parameter".into());
    }
    match sass_of(&bundle, &format!("{}-{stage}", case.kernel)) {
        Ok(sass) => {
            for instruction in case.sass {
                if !sass.contains(instruction) {
                    problems.push(format!("no {instruction} in the SASS"));
                }
            }
        }
        Err(e) => problems.push(e),
    }
    problems
}

/// Tritium's pipeline from upstream's TTIR gives upstream's TTGIR for these
/// kernels (software pipelining of the TMA loads and stores included): the
/// PTX from either is the same.
#[test]
fn tma_kernels_from_ttir_give_the_ptx_of_upstreams_ttgir() {
    let mut failures = Vec::new();
    for case in CASES.iter().filter(|c| c.stages.contains(&"ttir") && c.stages.contains(&"ttgir")) {
        match (compile_fixture(case.kernel, "ttir"), compile_fixture(case.kernel, "ttgir")) {
            (Ok(ttir), Ok(ttgir)) if ttir.ptx == ttgir.ptx => {}
            (Ok(_), Ok(_)) => failures.push(format!("{}: the PTX from TTIR differs", case.kernel)),
            (Err(e), _) | (_, Err(e)) => failures.push(format!("{}: {e}", case.kernel)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tma_kernels_compile_to_sass_with_tma_instructions() {
    let mut failures = Vec::new();
    for case in CASES {
        for stage in case.stages {
            let problems = check(case, stage);
            if !problems.is_empty() {
                failures.push(format!("{} ({stage}): {}", case.kernel, problems.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The CTA-wide barriers a TMA kernel needs, in its PTX read in order (the
/// fixtures' mbarrier setup is straight-line code before any loop): a
/// `bar.sync` between one thread's `mbarrier.init` and any use of the
/// mbarrier, between a wait on it and its `mbarrier.inval`, and between the
/// threads' shared stores and the TMA store that reads them. Without them
/// (tritongpu-membar ignoring the ttng ops) the kernels raced and faulted on
/// the H100 (CUDA_ERROR_LAUNCH_FAILED).
fn missing_barriers(ptx: &str) -> Vec<String> {
    let mut problems = Vec::new();
    // What happened since the last bar.sync.
    let (mut initialised, mut waited, mut stored) = (false, false, false);
    for line in ptx.lines().map(str::trim) {
        let instruction = line.trim_start_matches(|c: char| c == '@' || c == '%' || c == '!' || c.is_alphanumeric());
        let instruction = if line.starts_with('@') { instruction.trim() } else { line };
        if instruction.starts_with("bar.sync") {
            (initialised, waited, stored) = (false, false, false);
        } else if instruction.starts_with("mbarrier.init") {
            initialised = true;
        } else if instruction.starts_with("mbarrier.inval") && waited {
            problems.push("mbarrier.inval after a wait without bar.sync".to_string());
        } else if (instruction.starts_with("mbarrier.") || instruction.starts_with("cp.async.bulk.tensor"))
            && initialised
        {
            problems.push(format!("`{instruction}` after mbarrier.init without bar.sync"));
        } else if instruction.starts_with("st.shared") || instruction.starts_with("stmatrix") {
            stored = true;
        } else if (instruction.starts_with("cp.async.bulk.tensor")
            || instruction.starts_with("cp.reduce.async.bulk.tensor"))
            && instruction.contains(".global.shared")
            && stored
        {
            problems.push("TMA store or reduction after shared stores without bar.sync".to_string());
        }
        if instruction.starts_with("mbarrier.try_wait") {
            waited = true;
        }
    }
    problems
}

#[test]
fn tma_kernels_synchronise_their_mbarriers_and_stores() {
    let mut failures = Vec::new();
    for case in CASES {
        for stage in case.stages {
            match compile_fixture(case.kernel, stage) {
                Ok(bundle) => {
                    for problem in missing_barriers(&bundle.ptx) {
                        failures.push(format!("{} ({stage}): {problem}", case.kernel));
                    }
                }
                Err(e) => failures.push(format!("{} ({stage}): {e}", case.kernel)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Tritium's TMA passes on upstream's input of each (test/fixtures/tma/
/// passes/<kernel>/NN-<flag>.mlir) give upstream's output (the next dump),
/// both printed without locations.
#[test]
fn tma_passes_match_upstream() {
    let passes = [
        ("18-triton-nvidia-optimize-descriptor-encoding", "19-triton-loop-aware-cse"),
        ("38-triton-nvidia-tma-lowering", "39-tritongpu-remove-layout-conversions"),
    ];
    let kernels = [
        "tma_copy",
        "tma_matmul",
        "tma_store_epilogue",
        "device_desc_matmul",
        "tma_reduce",
        "device_desc_reduce",
        "batched_desc_matmul",
    ];
    let context = context();
    let mut failures = Vec::new();
    for kernel in kernels {
        for (input, output) in passes {
            let directory = repo_root().join(format!("test/fixtures/tma/passes/{kernel}"));
            let read = |name: &str| std::fs::read_to_string(directory.join(format!("{name}.mlir"))).unwrap();
            let flag = input.split_once('-').unwrap().1;
            let mut module = parse_module(&context, &read(input), "input").unwrap();
            let manager = PassManager::new(&context);
            parse_pass_pipeline(manager.as_operation_pass_manager(), &format!("builtin.module({flag})")).unwrap();
            if manager.run(&mut module).is_err() {
                failures.push(format!("{kernel} {flag}: the pass failed"));
                continue;
            }
            let ours = print(&module.as_operation(), PrintOptions::default());
            let expected = parse_module(&context, &read(output), "expected").unwrap();
            if ours != print(&expected.as_operation(), PrintOptions::default()) {
                failures.push(format!("{kernel} {flag}: differs from upstream"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! Determinism: the same input and options give byte-identical PTX in every
//! process, whatever the hash seeds (Rust's HashMap iteration order differs
//! from process to process), addresses (ASLR) and thread counts. Two child
//! processes compile every corpus entry (TTIR and TTGIR, sm_80 and sm_90)
//! at the same time, one on one thread, one on two threads with a context
//! each, and their PTX must be the same byte for byte.
use crate::common::{context, corpus, CorpusEntry};
use std::{path::Path, process::Command};
use tritium_dialects::io::parse_module;
use tritium_lowering::{compile, CompileOptions, Target};

/// Set in the child processes: where to write the PTX, and how many threads.
const OUT: &str = "TRITIUM_DETERMINISM_OUT";
const THREADS: &str = "TRITIUM_DETERMINISM_THREADS";

fn entries() -> Vec<CorpusEntry> {
    corpus().into_iter().filter(|e| e.stage == "ttgir" || e.stage == "ttir").collect()
}

fn label(entry: &CorpusEntry) -> String {
    format!("{}-{}-{}", entry.target, entry.kernel, entry.stage)
}

/// The PTX of one entry, or its error (which must be deterministic too).
fn compile_entry(entry: &CorpusEntry) -> String {
    let context = context();
    let mut module = match parse_module(&context, &entry.text(), "input") {
        Ok(module) => module,
        Err(e) => return format!("parse error: {}", e.join("; ")),
    };
    let meta = std::fs::read_to_string(
        entry.path.parent().unwrap().parent().unwrap().join(format!("meta/{}/{}.json", entry.target, entry.kernel)),
    )
    .unwrap_or_default();
    let field = |key: &str| -> u32 {
        let start = meta.find(&format!("\"{key}\": ")).map(|i| i + key.len() + 4);
        start.and_then(|s| meta[s..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()).unwrap_or(0)
    };
    let options = CompileOptions {
        target: Target::parse(&format!("cuda:{}", entry.target.trim_start_matches("cuda"))).unwrap(),
        num_warps: field("num_warps").max(1),
        num_ctas: field("num_ctas").max(1),
        num_stages: field("num_stages"),
        ..CompileOptions::default()
    };
    match compile(&context, &mut module, &options) {
        Ok(bundle) => bundle.ptx,
        Err(e) => format!("error: {e}"),
    }
}

/// Run only as a child of the test below (it reads its directory from $OUT).
#[test]
#[ignore]
fn compile_corpus_into_directory() {
    let Some(out) = std::env::var_os(OUT) else {
        return;
    };
    let threads: usize = std::env::var(THREADS).ok().and_then(|t| t.parse().ok()).unwrap_or(1);
    let entries = entries();
    let out = Path::new(&out);
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let entries = &entries;
            scope.spawn(move || {
                for entry in entries.iter().skip(worker).step_by(threads) {
                    std::fs::write(out.join(format!("{}.ptx", label(entry))), compile_entry(entry)).unwrap();
                }
            });
        }
    });
}

#[test]
fn corpus_ptx_is_byte_identical_across_processes_and_threads() {
    let root = std::env::temp_dir().join(format!("tritium-determinism-{}", std::process::id()));
    let children: Vec<_> = [1, 2]
        .iter()
        .map(|threads| {
            let directory = root.join(format!("threads{threads}"));
            std::fs::create_dir_all(&directory).unwrap();
            let child = Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "determinism::compile_corpus_into_directory",
                    "--ignored",
                    "--test-threads=1",
                    "--quiet",
                ])
                .env(OUT, &directory)
                .env(THREADS, threads.to_string())
                .spawn()
                .unwrap();
            (directory, child)
        })
        .collect();
    let mut directories = Vec::new();
    for (directory, mut child) in children {
        assert!(child.wait().unwrap().success(), "a child compile failed");
        directories.push(directory);
    }
    let entries = entries();
    let mut different = Vec::new();
    let mut compiled = 0;
    for entry in &entries {
        let name = format!("{}.ptx", label(entry));
        let [a, b] = [&directories[0], &directories[1]].map(|d| std::fs::read(d.join(&name)).unwrap_or_default());
        if a.is_empty() || a != b {
            different.push(name);
        } else if a.starts_with(b"//") {
            compiled += 1;
        }
    }
    std::fs::remove_dir_all(&root).ok();
    assert!(different.is_empty(), "PTX differs between two processes (or is missing) for:\n{}", different.join("\n"));
    assert!(compiled * 10 >= entries.len() * 9, "only {compiled} of {} entries compiled to PTX", entries.len());
    eprintln!(
        "determinism: {compiled} of {} corpus entries gave identical PTX in two processes (1 and 2 threads)",
        entries.len()
    );
}

//! Paths, the corpus fixture manifest, and a context with everything loaded.
use melior::Context;
use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

pub fn tt_opt() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tt-opt"))
}

pub fn context() -> Context {
    tritium_lowering::register_all_passes();
    tritium_dialects::create_context()
}

/// One row of test/fixtures/corpus/manifest.tsv: upstream Triton's IR of a
/// corpus kernel for a target at a stage (`ttir`, `ttgir`, or `NN-<pass>`,
/// the input of upstream pass NN).
#[derive(Clone, Debug)]
pub struct CorpusEntry {
    pub target: String,
    pub kernel: String,
    pub stage: String,
    pub path: PathBuf,
}

impl CorpusEntry {
    pub fn text(&self) -> String {
        std::fs::read_to_string(&self.path).unwrap()
    }
}

pub fn corpus() -> Vec<CorpusEntry> {
    let dir = repo_root().join("test/fixtures/corpus");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            CorpusEntry {
                target: f[0].into(),
                kernel: f[1].into(),
                stage: f[2].into(),
                path: dir.join("ir").join(format!("{}.mlir", f[3])),
            }
        })
        .collect()
}

/// The distinct IR files of the corpus.
pub fn distinct_corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = corpus().into_iter().map(|e| e.path).collect();
    files.sort();
    files.dedup();
    files
}

"""The corpus's manifest (test/fixtures/corpus/manifest.tsv): which IR file holds each kernel's IR
at each stage, per target. Identical IR is stored once, under test/fixtures/corpus/ir/<hash>.mlir.
Also where bench/build.sh finds the sm_90 TTGIR of the harness's other kernels (sm90_ttgir_sources)."""
import glob, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "test", "fixtures", "corpus")


def entries():
    """(target, kernel, stage, path of the IR file) of each line of the manifest."""
    with open(os.path.join(CORPUS, "manifest.tsv")) as manifest:
        for line in manifest:
            fields = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(fields) != 4:
                continue
            target, kernel, stage, ir = fields
            yield target, kernel, stage, os.path.join(CORPUS, "ir", ir + ".mlir")


def sm90_ttgir_sources():
    """Kernel name -> the TTGIR bench/build.sh compiles for out/bench/tritium/cuda90: the corpus's,
    test/fixtures/tma's, and bench/large_tiles' (upstream's TTGIR of them, which build.sh leaves in
    out/bench/upstream/cuda90)."""
    sources = {name: path for target, name, stage, path in entries() if target == "cuda90" and stage == "ttgir"}
    for path in glob.glob(os.path.join(ROOT, "test", "fixtures", "tma", "*_sm90.ttgir")):
        sources[os.path.basename(path)[:-len("_sm90.ttgir")]] = path
    for path in glob.glob(os.path.join(ROOT, "out", "bench", "upstream", "cuda90", "*.ttgir")):
        sources[os.path.basename(path)[:-len(".ttgir")]] = path
    return sources

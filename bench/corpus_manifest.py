"""The corpus's manifest (test/fixtures/corpus/manifest.tsv): which IR file holds each kernel's IR
at each stage, per target. Identical IR is stored once, under test/fixtures/corpus/ir/<hash>.mlir."""
import os

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

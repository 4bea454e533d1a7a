"""Upstream Triton 3.6's nvgpu-warp-specialization on the corpus kernels that
have a `tt.warp_specialize` loop, with its intermediate dumps: for each kernel
writes <out>/<kernel>/{0-input,1-task-partition,2-taskid-propagate,
3-data-partition,4-code-partition,5-output}.mlir, printed by upstream (no
locations); a step upstream ran twice (its retry with one warp group fewer
when the data partition fails) also has <name>.attempt1.mlir. Needs triton==3.6.0 (no GPU).

    .tools/venv/bin/python scripts/ws_reference.py out/ws-reference
"""
import os
import re
import subprocess
import sys
import json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = ["doTaskPartition", "doTaskIdPropagate", "doDataPartition", "doCodePartition"]
NAMES = ["1-task-partition", "2-taskid-propagate", "3-data-partition", "4-code-partition"]

CHILD = r'''
import sys
from triton._C.libtriton import ir, passes, nvidia
context = ir.context()
ir.load_dialects(context)
nvidia.load_dialects(context)
module = ir.parse_mlir_module(sys.argv[1], context)
module.context = context
pm = ir.pass_manager(context)
nvidia.passes.hopper.add_hopper_warpspec(pm, int(sys.argv[2]), True)
pm.run(module, "ws")
sys.stderr.flush()
print("// -----// WarpSpec output")
print(module.str(), flush=True) if hasattr(module, "str") else print(module, flush=True)
'''


def strip_locations(text):
    text = re.sub(r"^#loc.*\n", "", text, flags=re.M)
    return re.sub(r" loc\((?:[^()]|\([^()]*\))*\)", "", text)


def main():
    out = sys.argv[1]
    manifest = os.path.join(ROOT, "test/fixtures/corpus/manifest.tsv")
    for line in open(manifest):
        if line.startswith("#"):
            continue
        target, kernel, stage, ir_hash = line.split()
        if not stage.endswith("-nvgpu-warp-specialization"):
            continue
        path = os.path.join(ROOT, "test/fixtures/corpus/ir", ir_hash + ".mlir")
        text = open(path).read()
        if "tt.warp_specialize" not in text:
            continue
        meta = json.load(open(os.path.join(ROOT, f"test/fixtures/corpus/meta/{target}/{kernel}.json")))
        result = subprocess.run([sys.executable, "-c", CHILD, path, str(meta["num_stages"])],
                                capture_output=True, text=True)
        directory = os.path.join(out, kernel)
        os.makedirs(directory, exist_ok=True)
        open(os.path.join(directory, "0-input.mlir"), "w").write(strip_locations(text))
        dumps = re.split(r"^// -----// WarpSpec (?:internal IR Dump After: (\w+)|output)\n", result.stderr + result.stdout, flags=re.M)
        found = {}
        for i in range(1, len(dumps), 2):
            step = dumps[i] or "output"
            if step in found:
                # An earlier attempt (upstream retries with one warp group fewer
                # when the data partition fails): kept as <name>.attempt<N>.mlir.
                attempt = sum(1 for f in found if f.startswith(step + ".attempt")) + 1
                found[f"{step}.attempt{attempt}"] = found[step]
            found[step] = dumps[i + 1]
        for step, name in zip(STEPS + ["output"], NAMES + ["5-output"]):
            if step in found:
                open(os.path.join(directory, name + ".mlir"), "w").write(strip_locations(found[step]).strip() + "\n")
            for key in found:
                if key.startswith(step + ".attempt"):
                    attempt = key.split(".")[-1]
                    open(os.path.join(directory, f"{name}.{attempt}.mlir"), "w").write(
                        strip_locations(found[key]).strip() + "\n")
        print(kernel, "rc", result.returncode, "steps", sorted(found))


main()

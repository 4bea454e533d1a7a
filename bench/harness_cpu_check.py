"""CPU check of bench/harness.py (no GPU, no torch needed): torch and cuda-python stubbed with mocks, every
matmul/attention/big-tile case's make() runs (the library calls built and called on the stubs), a failing library call is
reported rather than raised, and the moonshot summary and the torch column are formatted from made-up rows.

    python3 bench/harness_cpu_check.py
"""
import sys, types, json, contextlib
from unittest import mock
torch = mock.MagicMock(name="torch")
sys.modules["torch"] = torch
for sub in ["nn", "nn.functional", "nn.attention"]:
    sys.modules["torch." + sub] = eval("torch." + sub)

def fake_tensor(*shape, **kw):
    shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], tuple) else shape
    t = mock.MagicMock(name=f"tensor{shape}")
    t.shape = shape
    t.stride.return_value = tuple(__import__("math").prod(shape[i + 1:]) for i in range(len(shape)))
    t.dim.return_value = len(shape); t.data_ptr.return_value = 0; t.element_size.return_value = 2; t.dtype.itemsize = 2
    t.to.side_effect = lambda *a, **kw: fake_tensor(*shape)
    t.view.side_effect = lambda *s: fake_tensor(*s)
    return t
torch.randn.side_effect = fake_tensor
torch.empty_like.side_effect = lambda t, **kw: fake_tensor(*t.shape)
torch.empty.side_effect = lambda *s, **kw: fake_tensor(*s)
torch.randint.side_effect = lambda lo, hi, shape, **kw: fake_tensor(*shape)
cuda = types.ModuleType("cuda"); bindings = types.ModuleType("cuda.bindings"); bindings.driver = mock.MagicMock()
cuda.bindings = bindings
sys.modules.update({"cuda": cuda, "cuda.bindings": bindings, "cuda.bindings.driver": bindings.driver})
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import harness as H

cases = H.case_list()
names = [(c[0], c[2]) for c in cases]
assert ("tma_matmul", "8192^3") in names and ("matmul_ref_s3", "8192^3") in names and ("matmul_fp8_e4m3", "8192^3") in names
# racecheck's cut-down cases: the same case names, no shape left at a 4096+ loop, still masked ones
small = H.case_list(small=True)
assert [c[0] for c in small] == [c[0] for c in cases]
small_names = [(c[0], c[2]) for c in small]
assert ("matmul_ref_s3", "512^3") in small_names and ("matmul_i8", "464^3 (masked)") in small_names
assert not any(("4096^3" in shape or "8192^3" in shape or "N4096" in shape or "S4096" in shape) for _, shape in small_names)
assert len(set(small_names)) == len(small_names)
print(len(cases), "cases; matmul/attention cases:", [n for n in names if "mat" in n[0] or "attn" in n[0]])

# error path of a library call: reported, not raised
row = {}
def boom(): raise RuntimeError("no e5m2 x e5m2 in cuBLASLt")
H.run_library_call(row, dict(key="torch", backend="cuBLASLt _scaled_mm", fn=boom), dict(ref=[None], tol=(0, 0)))
print(row); assert row["torch_error"].startswith("RuntimeError")
# the context is entered around the call
entered = []
@contextlib.contextmanager
def ctx():
    entered.append(1); yield
row = {}
H.run_library_call(row, dict(key="torch_cudnn", backend="SDPA cuDNN", fn=boom, context=ctx), dict(ref=[None], tol=(0, 0)))
assert entered and row["torch_cudnn_backend"] == "SDPA cuDNN" and "torch_cudnn_error" in row

f = 2 * 8192 ** 3 / 1e12
def r(kernel, shape, tag, t, ttir, lib, ok=True):
    d = dict(kernel=kernel, shape=shape, tritium_ms=t, tritium_ok=ok, tritium_tflops=f / (t * 1e-3),
             torch_ms=lib, torch_ok=True, torch_tflops=f / (lib * 1e-3), torch_backend="cuBLAS")
    if ttir:
        d.update(tritium_from_ttir_ms=ttir, tritium_from_ttir_ok=True, tritium_from_ttir_tflops=f / (ttir * 1e-3))
    if tag:
        d["moonshot"] = tag
    return d
rows = [r("matmul_ref_s3", "8192^3", "fp16", 1.80, 1.85, 1.70), r("tma_matmul", "8192^3", "fp16", 2.2, None, 1.75),
        r("matmul_ref_s4", "4096^3", "fp16", 0.2, None, 0.19), r("matmul_fp8_e4m3", "8192^3", "fp8", 1.30, 1.31, 1.0),
        r("matmul_fp8_e4m3", "8192^3", "fp8", 0.9, None, 1.0, ok=False)]
lines, result = H.moonshot_summary(rows)
print("\n".join(lines)); json.dumps(result)
assert result["fp16_met"] is False and result["fp8_met"] is True and result["fp16"]["kernel"] == "matmul_ref_s3"
assert abs(result["cublas_fp16"]["ms"] - 1.70) < 1e-9  # the fastest cuBLAS is the bar
lines, result = H.moonshot_summary([rows[0]])
print("\n".join(lines)); assert "fp8_met" not in result
lines, result = H.moonshot_summary([])
print("\n".join(lines))
print(H.library_cell(rows[0]), "|", H.library_cell(dict(torch_ms=1.0, torch_ok=True, torch_backend="SDPA flash", torch_cudnn_ms=0.9, torch_cudnn_ok=True)), "|", H.library_cell({}))
print("cpu checks ok")

# every make() on the stub: the code paths that build the library calls run
failed = []
big_tiles = ("masked_fill", "masked_axpy", "fill_constant")
assert sum(name.startswith(big_tiles) for name, *_ in cases) == 5
for name, kernel, shape, make in cases:
    if not ("mat" in name or "attn" in name or name.startswith(big_tiles) or name.startswith("tut")):
        continue
    try:
        c = make()
        for call in c.get("torch", []):
            assert call["key"] in ("torch", "torch_cudnn")
            call["fn"]()
            b = call["backend"]; b() if callable(b) else b
        print(name, shape, [(call["key"], call["backend"] if isinstance(call["backend"], str) else "fn") for call in c.get("torch", [])], c.get("moonshot"))
    except Exception as e:
        failed.append((name, shape, repr(e)))
print("failed:", failed)
assert not failed

# the tutorials' kernels (language_cases.py): every corpus kernel tut* has a case, and each case's args
# are as many as its TTIR's parameters (what the compiled kernel takes; unit strides and constexprs out)
import re
import corpus_manifest
ttir = {kernel: path for _, kernel, stage, path in corpus_manifest.entries() if kernel.startswith("tut") and stage == "ttir"}
tut_cases = [(name, shape, make) for name, _, shape, make in cases if name.startswith("tut")]
assert set(ttir) == {name for name, _, _ in tut_cases}, set(ttir) ^ {name for name, _, _ in tut_cases}
for name, shape, make in tut_cases:
    text = open(ttir[name]).read()
    header = re.search(r"tt\.func public @\w+\((.*?)\) attributes", text).group(1)
    params = re.findall(r"%\w+: (!tt\.ptr|i32|f32)", header)
    c = make()
    assert len(c["args"]) == len(params), (name, shape, len(c["args"]), len(params))
    for arg, param in zip(c["args"], params):  # pointers: tensors; f32: Python floats; i32: not floats
        scalar = isinstance(arg, (int, float))
        assert (param == "!tt.ptr") != scalar or param == "i32" and not isinstance(arg, float), (name, arg, param)
        assert (param == "f32") == isinstance(arg, float), (name, arg, param)
    assert len(c["out"]) == len(c["ref"]) and ("flops" in c or "bytes" in c), (name, shape)
print(len(tut_cases), "tutorial cases, args as the TTIR's parameters")

# timing: a case whose first timing is under GRAPH_TIMING_BELOW_MS is timed from CUDA graphs in
# every column (the first column decides for the case); a column that cannot be captured keeps
# do_bench's times and the row says which
bench_times = {"slow": 1.0, "fast": 0.005}
def fake_do_bench(fn, warmup=None, rep=None, return_mode=None):
    return bench_times[fn()]
def fake_graph(fn, rep=None, return_mode=None):
    if fn() == "uncapturable":
        raise RuntimeError("capture")
    return 0.004
with mock.patch.object(H.triton.testing, "do_bench", fake_do_bench), \
     mock.patch.object(H.triton.testing, "do_bench_cudagraph", fake_graph):
    row, c = {}, dict(bytes=1)
    H.time_into(row, "tritium", lambda: "fast", c)
    H.time_into(row, "triton_ptx", lambda: "slow", c)  # same case: graphs too
    assert row["tritium_ms"] == 0.004 and row["triton_ptx_ms"] == 0.004 and row["timing"] == "cuda graph", row
    row, c = {}, dict(bytes=1)
    H.time_into(row, "tritium", lambda: "slow", c)
    H.time_into(row, "triton_ptx", lambda: "fast", c)  # the first column decided: do_bench
    assert row["tritium_ms"] == 1.0 and row["triton_ptx_ms"] == 0.005 and "timing" not in row, row
    bench_times["uncapturable"] = 0.005
    row, c = {}, dict(bytes=1)
    H.time_into(row, "tritium", lambda: "fast", c)
    H.time_into(row, "torch", lambda: "uncapturable", c)
    assert row["torch_ms"] == 0.005 and row["timing"].endswith("except torch: RuntimeError"), row
# the compilers' columns: launches interleaved one by one, every column in every place of a round
# equally often, so that a drift (here every launch 1 ms longer than the one before) costs every
# column the same in mean and within one round in median
schedule = H.interleaved_schedule(3, 10)
assert len(schedule) == 36 and all(sorted(schedule[i:i + 3]) == [0, 1, 2] for i in range(0, 36, 3)), schedule
places = {(column, schedule.index(column, r * 3) - r * 3) for r in range(12) for column in range(3)}
assert places == {(column, place) for column in range(3) for place in range(3)}, places
launches = {column: [t for t, c in enumerate(schedule) if c == column] for column in range(3)}
assert len({sum(times) for times in launches.values()}) == 1, launches
import statistics
assert max(statistics.median(t) for t in launches.values()) - min(statistics.median(t) for t in launches.values()) < 3
print("timing: short cases from CUDA graphs, every column; launches of the columns interleaved")

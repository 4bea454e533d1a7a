"""CPU-side tests of the Python package, the C API and the Triton plug-in.

    python test_tritium.py TRITIUM_CLI C_EXAMPLE RUST_EXAMPLE

The same TTIR and options must give byte-identical PTX through `tritium
compile --triton-abi`, the Rust API (RUST_EXAMPLE, capi/examples/embed.rs),
the C API (C_EXAMPLE, capi/examples/compile.c), `tritium.compile` and the
Triton plug-in. Tests needing Triton are skipped, saying so, without it.
"""
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import warnings

# A fresh Triton cache: every compile below really runs the stages.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-test-cache-")

import tritium  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLI, C_EXAMPLE, RUST_EXAMPLE = sys.argv[1], sys.argv[2], sys.argv[3]
CORPUS = os.path.join(ROOT, "test", "fixtures", "corpus")


class Skip(Exception):
    pass


def corpus_ttir(kernel):
    with open(os.path.join(CORPUS, "manifest.tsv")) as manifest:
        for line in manifest:
            fields = line.rstrip("\n").split("\t")
            if fields[:3] == ["cuda90", kernel, "ttir"]:
                return os.path.join(CORPUS, "ir", fields[3] + ".mlir")
    raise AssertionError(f"no TTIR of {kernel} in the corpus")


def cli_ptx(path, num_warps, num_stages, flags=()):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([CLI, "compile", path, "--target", "cuda:90", "--num-warps", str(num_warps), "--num-stages",
                        str(num_stages), "--triton-abi", *flags, "-o", out], check=True)
        (ptx,) = [f for f in os.listdir(out) if f.endswith(".ptx")]
        return open(os.path.join(out, ptx)).read()


def example_ptx(example, path, num_warps, num_stages, flags=()):
    with tempfile.TemporaryDirectory() as out:
        target = os.path.join(out, "kernel.ptx")
        run = subprocess.run([example, path, target, str(num_warps), str(num_stages), "--triton-abi", *flags],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert '"name"' in run.stdout, run.stdout
        if example == C_EXAMPLE:
            assert f"tritium {tritium.VERSION}" in run.stdout, run.stdout
        return open(target).read()


def same_ptx_everywhere(path, num_warps, num_stages, expected=None):
    text = open(path).read()
    python = tritium.compile(text, num_warps=num_warps, num_stages=num_stages, triton_abi=True,
                             libdevice=os.environ.get("LIBDEVICE"))["ptx"]
    assert python == cli_ptx(path, num_warps, num_stages), "tritium.compile and tritium compile differ"
    assert python == example_ptx(C_EXAMPLE, path, num_warps, num_stages), "tritium.compile and the C API differ"
    assert python == example_ptx(RUST_EXAMPLE, path, num_warps, num_stages), "tritium.compile and the Rust API differ"
    if expected is not None:
        assert python == expected, "the plug-in's PTX differs from tritium.compile's"
    return python


def test_corpus_kernels_identical_through_cli_rust_c_python():
    for kernel, warps, stages in [("vector_add", 4, 3), ("softmax", 8, 3), ("matmul_ref_s3", 8, 3)]:
        ptx = same_ptx_everywhere(corpus_ttir(kernel), warps, stages)
        assert ".entry" in ptx


def test_codegen_options_identical_through_cli_c_python():
    # maxnreg, enable_fp_fusion=False, enable_reflect_ftz=False: each changes
    # the PTX, the same way through every entry point.
    # (The attention kernel: its exp2 is ex2.approx.ftz.f32 unless asked not to flush.)
    path = corpus_ttir("attn_fwd_d64")
    text = open(path).read()
    default = tritium.compile(text, num_warps=4, triton_abi=True)["ptx"]
    for cli_flags, c_flags, python_options in [
        (["--maxnreg", "128"], ["--maxnreg=128"], {"maxnreg": 128}),
        (["--no-fp-fusion"], ["--no-fp-fusion"], {"enable_fp_fusion": False}),
        (["--no-reflect-ftz"], ["--no-reflect-ftz"], {"enable_reflect_ftz": False}),
        (["--no-line-info"], ["--no-line-info"], {"line_info": False}),
        (["--debug-variables"], ["--debug-variables"], {"debug_variables": True}),
    ]:
        python = tritium.compile(text, num_warps=4, triton_abi=True, **python_options)["ptx"]
        assert python != default, python_options
        assert python == cli_ptx(path, 4, 3, cli_flags), cli_flags
        assert python == example_ptx(C_EXAMPLE, path, 4, 3, c_flags), c_flags
    assert ".maxnreg 128" in tritium.compile(text, num_warps=4, maxnreg=128)["ptx"]
    # Line tables by default, as upstream writes them.
    assert "\t.loc\t" in default and "\t.file\t" in default, default[:600]
    # ... without `debug` on the .target line (ptxas would not optimise).
    assert ".target sm_90a\n" in default, default[:600]
    assert "\t.loc\t" not in tritium.compile(text, num_warps=4, triton_abi=True, line_info=False)["ptx"]
    # Source variables (upstream's LLVM_EXTRACT_DI_LOCAL_VARIABLES): DWARF, and `debug` kept.
    with_variables = tritium.compile(text, num_warps=4, triton_abi=True, debug_variables=True)["ptx"]
    assert ".target sm_90a, debug\n" in with_variables and ".section\t.debug_info" in with_variables


def test_instrumentation_mode_identical_through_cli_c_python():
    # Upstream's instrumentation_mode="consan": the concurrency sanitizer's
    # helpers and checks, the same through every entry point; an unknown
    # mode is an error.
    path = os.path.join(ROOT, "test", "Conversion", "tritium-compile-consan.mlir")
    text = open(path).read()
    assert "__triton_consan_" not in tritium.compile(text, triton_abi=True)["ptx"]
    # The asserts name their file: the same name everywhere.
    python = tritium.compile(text, triton_abi=True, instrumentation_mode="consan", source_name=path)["ptx"]
    assert "__triton_consan_verify_write_visibility" in python and "__assertfail" in python, python[:600]
    assert python == cli_ptx(path, 4, 3, ["--instrumentation-mode", "consan"])
    assert python == example_ptx(C_EXAMPLE, path, 4, 3, ["--instrumentation-mode=consan"])
    try:
        tritium.compile(text, instrumentation_mode="tsan")
    except tritium.CompileError as error:
        assert "unknown instrumentation mode 'tsan'" in str(error), error
    else:
        raise AssertionError("an unknown instrumentation mode compiled")


def test_abi_scratch_parameters():
    text = open(corpus_ttir("vector_add")).read()
    plain = tritium.compile(text)
    triton = tritium.compile(text, triton_abi=True)
    user = len(plain["metadata"]["parameters"])
    assert len(triton["metadata"]["parameters"]) == user + 2
    assert triton["ptx"].count(".param") == plain["ptx"].count(".param") + 2
    assert [p["name"] for p in triton["metadata"]["parameters"][-2:]] == ["global_scratch", "profile_scratch"]


def test_bad_ttir_raises_located_error():
    good = open(corpus_ttir("vector_add")).read()
    bad = good.replace("tt.get_program_id x", "tt.get_program_id w", 1)
    assert bad != good
    try:
        tritium.compile(bad, source_name="broken.ttir")
    except tritium.CompileError as error:
        message = str(error)
        assert message.startswith("broken.ttir:") and ": error: " in message, message
        line = message.split(":")[1]
        assert line.isdigit(), message
    else:
        raise AssertionError("no exception for a bad TTIR")
    for bad_call in [lambda: tritium.compile("not mlir at all"), lambda: tritium.compile(good, target="cuda:12x"),
                     lambda: tritium.compile(good, num_warps=3)]:
        try:
            bad_call()
        except tritium.CompileError:
            pass
        else:
            raise AssertionError("no exception")


def test_scaled_dots_compile_in_process():
    # accelerate-matmul's scaled-dot decomposition once built types from a
    # dangling &Context: fine in `tritium compile`, a panic or a segfault of
    # the interpreter here (upstream's test_scaled_dot killed pytest workers).
    for kernel in ["dot_scaled_e4m3", "dot_scaled_e5m2", "dot_scaled_e2m1", "dot_scaled_e2m1_bf16"]:
        with open(corpus_ttir(kernel)) as f:
            text = f.read()
        for _ in range(2):
            result = tritium.compile(text, target="cuda:90", num_warps=4, num_stages=3, triton_abi=True)
            assert ".entry" in result["ptx"], kernel


def test_c_api_reports_diagnostics():
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, "bad.ttir")
        with open(path, "w") as f:
            f.write("module {\n  tt.func public @k() {\n    %0 = arith.addi : i32\n  }\n}\n")
        run = subprocess.run([C_EXAMPLE, path, os.path.join(out, "k.ptx")], capture_output=True, text=True)
        assert run.returncode == 1 and f"{path}:3:" in run.stderr and "error" in run.stderr, run.stderr


def test_repeated_and_threaded_compiles():
    text = open(corpus_ttir("softmax")).read()
    first = tritium.compile(text, num_warps=8)["ptx"]
    for _ in range(10):
        assert tritium.compile(text, num_warps=8)["ptx"] == first
    results, errors = [], []

    def worker():
        try:
            results.append(tritium.compile(text, num_warps=8)["ptx"])
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [first] * 4, errors


def need_triton():
    try:
        import triton  # noqa: F401
        from triton.backends.compiler import GPUTarget  # noqa: F401
    except Exception as e:
        raise Skip(f"triton is not importable ({e})")


def plugin_compile(name, **extra):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    sys.path.insert(0, HERE)
    import kernels
    fn, signature, constexprs, options = kernels.CASES[name]
    return triton.compile(ASTSource(fn, signature, constexprs), target=GPUTarget("cuda", 90, 32),
                          options={**options, **extra})


@contextlib.contextmanager
def plugin_with_knobs(**compilation):
    """The plug-in on and Triton's compilation knobs set as given (always_compile
    too: no kernel from the cache), all restored afterwards; yields the knobs."""
    import tritium.triton
    from triton import knobs
    settings = {"always_compile": True, **compilation}
    previous = {name: getattr(knobs.compilation, name) for name in settings}
    tritium.triton.enable()
    try:
        for name, value in settings.items():
            setattr(knobs.compilation, name, value)
        yield knobs.compilation
    finally:
        for name, value in previous.items():
            setattr(knobs.compilation, name, value)
        tritium.triton.disable()


def test_triton_plugin_tensor_descriptor_metadata():
    """Host-side descriptors: the launcher encodes each CUtensorMap from the
    kernel's tensordesc_meta (empty, it would pass pointer, shape and strides,
    which the kernel's by-value CUtensorMap parameter does not match).
    Device-side ones: the launcher allocates the global scratch the kernel
    builds its tensormaps in."""
    need_triton()
    import tritium.triton
    tritium.triton.enable()
    try:
        host = plugin_compile("tma_copy")
        assert host.metadata.tritium == tritium.VERSION
        meta = [dict(m) for m in host.metadata.tensordesc_meta]
        assert len(meta) == 2 and all(m["block_size"] == [64, 64] and m["swizzle"] == 3 for m in meta), meta
        assert ".param .align 64 .b8 tma_copy_kernel_param_0[128]" in host.asm["ptx"]
        device = plugin_compile("device_desc_copy")
        assert device.metadata.tritium == tritium.VERSION
        assert not device.metadata.tensordesc_meta
        # Two 128-byte tensormaps per program, 128-byte aligned.
        assert (device.metadata.global_scratch_size, device.metadata.global_scratch_align) == (256, 128)
        assert "tensormap.cp_fenceproxy.global.shared::cta" in device.asm["ptx"]
    finally:
        tritium.triton.disable()


def test_triton_plugin_ptx_is_tritiums_and_cubin_from_ptxas():
    need_triton()
    import tritium.triton
    tritium.triton.enable()
    try:
        for name in ["add", "softmax", "matmul"]:
            before = tritium.triton.stats["compiled"]
            kernel = plugin_compile(name)
            assert tritium.triton.stats["compiled"] == before + 1
            assert kernel.metadata.tritium == tritium.VERSION
            assert kernel.asm["cubin"][:4] == b"\x7fELF", "the cubin stage (ptxas) gave no ELF"
            assert kernel.metadata.global_scratch_size == 0 and kernel.metadata.profile_scratch_size == 0
            assert kernel.metadata.name == kernel.asm["ptx"].split(".visible .entry ")[1].split("(")[0]
            assert "ttg.num-warps" in kernel.asm["ttgir"]
            # The same TTIR through every other door gives the same PTX.
            libdevice = dict(kernel.metadata.extern_libs)["libdevice"]
            os.environ["LIBDEVICE"] = libdevice
            with tempfile.TemporaryDirectory() as out:
                path = os.path.join(out, f"{name}.ttir")
                with open(path, "w") as f:
                    f.write(kernel.asm["ttir"])
                same_ptx_everywhere(path, kernel.metadata.num_warps, kernel.metadata.num_stages,
                                    expected=kernel.asm["ptx"])
            # The launcher's shared memory and warps are Tritium's.
            direct = tritium.compile(kernel.asm["ttir"], num_warps=kernel.metadata.num_warps,
                                     num_stages=kernel.metadata.num_stages, triton_abi=True)["metadata"]
            assert (kernel.metadata.shared, kernel.metadata.num_warps) == (direct["shared"], direct["num_warps"])
            assert name != "matmul" or kernel.metadata.shared > 0
    finally:
        tritium.triton.disable()
    upstream = plugin_compile("add")
    assert not hasattr(upstream.metadata, "tritium"), "disable() did not give the compile back to upstream"


def test_triton_plugin_host_descriptors_get_upstreams_tensordesc_meta():
    # Triton's launcher builds a CUtensorMap per descriptor argument from
    # tensordesc_meta; without it, it passes pointer/shape/strides instead and
    # the kernel reads a garbage descriptor.
    need_triton()
    import tritium.triton
    upstream = plugin_compile("descriptor_copy")
    tritium.triton.enable()
    try:
        kernel = plugin_compile("descriptor_copy")
    finally:
        tritium.triton.disable()
    assert kernel.metadata.tritium == tritium.VERSION
    assert len(upstream.metadata.tensordesc_meta) == 2
    assert [dict(m) for m in kernel.metadata.tensordesc_meta] == [dict(m) for m in upstream.metadata.tensordesc_meta]
    assert "cp.async.bulk.tensor" in kernel.asm["ptx"]


def test_triton_plugin_cache_key_names_the_build():
    need_triton()
    import tritium.triton
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.backends.compiler import GPUTarget
    backend = CUDABackend(GPUTarget("cuda", 90, 32))
    plain = backend.hash()
    tritium.triton.enable()
    try:
        keyed = CUDABackend(GPUTarget("cuda", 90, 32)).hash()
    finally:
        tritium.triton.disable()
    build = tritium.triton.build_id()
    assert len(build) == 16 and keyed == f"{plain}-tritium-{tritium.VERSION}-{build}", keyed


def test_triton_plugin_codegen_options():
    # Upstream's maxnreg, enable_fp_fusion and enable_reflect_ftz, checked as
    # upstream's test_core.py checks them in the PTX.
    need_triton()
    import re
    import tritium.triton
    tritium.triton.enable()
    try:
        limited = plugin_compile("add", maxnreg=42).asm["ptx"]
        assert re.search(r"\.visible \.entry [^{;]*\.maxnreg 42", limited), limited[:600]
        fused = plugin_compile("mul_add").asm["ptx"]
        unfused = plugin_compile("mul_add", enable_fp_fusion=False).asm["ptx"]
        assert re.search(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32", fused), fused
        assert not re.search(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32", unfused), unfused
        flushed = plugin_compile("exp2").asm["ptx"]
        kept = plugin_compile("exp2", enable_reflect_ftz=False).asm["ptx"]
        assert "ex2.approx.ftz.f32" in flushed and "ex2.approx.ftz.f32" not in kept, kept
    finally:
        tritium.triton.disable()


def test_triton_plugin_line_info_from_triton_knob():
    # Upstream writes line tables (.file/.loc: the cubin maps SASS back to the
    # Python source) unless TRITON_DISABLE_LINE_INFO; the plug-in reads the knob.
    need_triton()
    import re
    with plugin_with_knobs(disable_line_info=False) as compilation:
        ptx = plugin_compile("add").asm["ptx"]
        assert re.search(r"\.file\s+1\s+\".*kernels\.py\"", ptx) and "\t.loc\t1 " in ptx, ptx[-1500:]
        compilation.disable_line_info = True
        ptx = plugin_compile("add").asm["ptx"]
        assert "\t.loc\t" not in ptx, ptx[:600]


def test_triton_plugin_debug_variables_from_triton_knob():
    # Upstream's LLVM_EXTRACT_DI_LOCAL_VARIABLES (knobs.compilation.dump_ir_extract_di_local_variables):
    # the kernel's source variables in the PTX's DWARF, `debug` on .target; the plug-in reads the knob.
    need_triton()
    import re
    with plugin_with_knobs(dump_ir_extract_di_local_variables=True) as compilation:
        kernel = plugin_compile("add")
        ptx = kernel.asm["ptx"]
        assert re.search(r"\.target sm_\d+a?, debug", ptx), ptx[:600]
        dwarf = bytes(int(b) for b in re.findall(r"\.b8\s+(\d+)", ptx))
        assert b"offsets" in dwarf and b"mask" in dwarf, kernel.asm["llir"][-2000:]
        compilation.dump_ir_extract_di_local_variables = False
        ptx = plugin_compile("add").asm["ptx"]
        assert ", debug" not in ptx.split("\n.address_size")[0], ptx[:600]


def test_triton_plugin_reproducer_path():
    # TRITON_REPRODUCER_PATH: upstream's stages write PATH.<stage>.repro.mlir;
    # the plug-in's make_ttgir and make_llir do too (make_ttir stays upstream's).
    need_triton()
    import re
    prefix = os.path.join(tempfile.mkdtemp(), "repro")
    os.environ["TRITON_REPRODUCER_PATH"] = prefix
    try:
        with plugin_with_knobs():
            plugin_compile("add")
        for stage, pass_name in [("make_ttgir", "tritongpu-coalesce"), ("make_llir", "convert-triton-gpu-to-llvm")]:
            text = open(f"{prefix}.{stage}.repro.mlir").read()
            assert re.search(r'mlir_reproducer: \{\s*pipeline: "builtin.module\(.*' + pass_name, text), text[-600:]
    finally:
        del os.environ["TRITON_REPRODUCER_PATH"]


def test_triton_plugin_consan_from_triton_knob():
    # Upstream's make_llir runs the concurrency sanitizer when Triton's knob
    # (TRITON_INSTRUMENTATION_MODE) says "consan"; the launcher copies the
    # knob into the options. The plug-in reads the knob, not the environment.
    need_triton()
    with plugin_with_knobs(instrumentation_mode="consan"):
        kernel = plugin_compile("matmul", instrumentation_mode="consan")
        assert hasattr(kernel.metadata, "tritium"), kernel.metadata
        assert "__triton_consan_" in kernel.asm["ptx"], kernel.asm["ptx"][:600]


def test_triton_plugin_unsupported_feature_and_fallback():
    need_triton()
    import tritium.triton
    tritium.triton.enable()
    try:
        for option, value in [("instrumentation_mode", "consan"), ("ptx_version", 80)]:
            try:
                plugin_compile("add", **{option: value})
            except tritium.CompileError as error:
                assert f"{option}=" in str(error), error
            else:
                raise AssertionError(f"an unsupported option compiled: {option}={value!r}")
        # The PTX version Tritium emits is no problem.
        assert hasattr(plugin_compile("add", ptx_version=tritium._native.PTX_VERSION).metadata, "tritium")
        os.environ["TRITIUM_FALLBACK"] = "1"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            kernel = plugin_compile("add", instrumentation_mode="consan")
        assert not hasattr(kernel.metadata, "tritium")
        assert any("upstream Triton compiles it" in str(w.message) for w in caught), [str(w.message) for w in caught]
    finally:
        os.environ.pop("TRITIUM_FALLBACK", None)
        tritium.triton.disable()


def test_triton_plugin_shared_memory_over_the_limit_is_out_of_resources():
    # As upstream's launcher says it, so that @triton.autotune skips the config.
    need_triton()
    import tritium.triton
    from triton.runtime.errors import OutOfResources
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    sys.path.insert(0, HERE)
    import kernels
    fn, signature, _, options = kernels.CASES["matmul"]
    # 256x256 operand tiles of f16: 128 KiB each in shared memory, more than sm_90's 227 KiB together.
    source = ASTSource(fn, signature, {"BM": 256, "BN": 256, "BK": 256})
    tritium.triton.enable()
    try:
        triton.compile(source, target=GPUTarget("cuda", 90, 32), options=options)
    except OutOfResources as error:
        assert "shared memory" in str(error), error
    else:
        raise AssertionError("a kernel over the shared-memory limit compiled")
    finally:
        tritium.triton.disable()


def test_pth_start_up_hook():
    need_triton()
    code = "import tritium.triton as t; print(t.enabled())"
    on = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TRITIUM": "1"}, capture_output=True, text=True)
    off = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TRITIUM": "0"}, capture_output=True,
                         text=True)
    assert on.stdout.strip() == "True", on.stdout + on.stderr
    assert off.stdout.strip() == "False", off.stdout + off.stderr


if __name__ == "__main__":
    failed = 0
    for name, test in [(n, f) for n, f in list(globals().items()) if n.startswith("test_")]:
        try:
            test()
            print(f"PASS {name}")
        except Skip as reason:
            print(f"SKIP {name}: {reason}")
        except Exception as error:
            failed += 1
            import traceback
            traceback.print_exc()
            print(f"FAIL {name}: {error!r}")
    sys.exit(1 if failed else 0)

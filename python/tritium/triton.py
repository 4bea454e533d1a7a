"""The Triton plug-in: Tritium compiles the kernels of `@triton.jit`.

Triton 3.6's NVIDIA backend calls `triton.knobs.runtime.add_stages_inspection_hook`
after setting up its stages; `enable()` installs a hook that replaces the
`ttgir`, `llir` and `ptx` stages with Tritium's (TTIR -> TTGIR -> LLVM IR ->
PTX, one in-process compile); Triton's frontend (`ttir`), ptxas (`cubin`),
cache and launcher stay Triton's. Kernels get upstream's launch ABI (trailing
global/profile scratch pointers), `metadata["tritium"]` carries Tritium's
version, and Triton's cache key includes it and a digest of the native
library (`build_id()`). A kernel Tritium cannot compile
raises `tritium.CompileError` naming what is unsupported; with
TRITIUM_FALLBACK=1 upstream compiles it instead, with a warning.
"""
import functools
import os
import re
import warnings

from . import CompileError, VERSION
from . import compile as _compile

__all__ = ["enable", "disable", "enabled", "stats"]

#: How many kernels Tritium compiled, and how many fell back to upstream, in this process.
stats = {"compiled": 0, "fallback": 0}

_state = {"enabled": False, "previous_hook": None, "original_hash": None}


def _fallback_allowed():
    return os.environ.get("TRITIUM_FALLBACK", "0") not in ("", "0")


def _line_info():
    # Upstream writes line tables unless TRITON_DISABLE_LINE_INFO (its make_llir's add_di_scope).
    from triton import knobs
    return not knobs.compilation.disable_line_info


def _debug_variables():
    # Upstream's LLVM_EXTRACT_DI_LOCAL_VARIABLES: source variables in the PTX for cuda-gdb.
    from triton import knobs
    return bool(knobs.compilation.dump_ir_extract_di_local_variables)


def _reproducer_path():
    # Upstream's pass managers write PATH.<stage>.repro.mlir before they run
    # when TRITON_REPRODUCER_PATH is set (an environment variable, not a knob).
    return os.environ.get("TRITON_REPRODUCER_PATH") or None


def _instrumentation_mode():
    """The instrumentation Tritium compiles in: as upstream's make_llir, the
    concurrency sanitizer when Triton's knob says "consan" (the knob reads
    TRITON_INSTRUMENTATION_MODE); other modes are not Tritium's to add."""
    from triton import knobs
    return "consan" if knobs.compilation.instrumentation_mode == "consan" else ""


def _unsupported_options(options):
    """Options Tritium does not implement: refusing them beats compiling something else."""
    problems = []
    mode = getattr(options, "instrumentation_mode", "")
    # The concurrency sanitizer runs where upstream's knob switches it on
    # (Triton's launcher copies the knob into the options).
    if mode and not (mode == "consan" and _instrumentation_mode() == "consan"):
        problems.append(f"instrumentation_mode={options.instrumentation_mode!r}")
    # Upstream emits the PTX ISA version asked for (and picks instructions by it); Tritium
    # emits one (that of the ptxas Triton 3.6 ships), so another is refused, not ignored.
    from ._native import PTX_VERSION
    ptx_version = getattr(options, "ptx_version", None)
    if ptx_version is not None and ptx_version != PTX_VERSION:
        problems.append(f"ptx_version={ptx_version} (Tritium emits PTX ISA {PTX_VERSION // 10}.{PTX_VERSION % 10})")
    return problems


class _Kernel:
    """The three stages of one compile, sharing Tritium's single TTIR -> PTX run."""

    def __init__(self, upstream, options, capability):
        self.upstream = upstream
        self.options = options
        self.capability = capability
        self.result = None
        self.ttgir = None
        self.fallback = False

    def _libdevice(self):
        return dict(self.options.extern_libs or ()).get("libdevice")

    def _run(self, text, name):
        problems = _unsupported_options(self.options)
        if problems:
            raise CompileError(f"{name}: error: Tritium does not support {'; '.join(problems)}")
        return _compile(text, target=f"cuda:{self.capability}", num_warps=self.options.num_warps,
                        num_stages=self.options.num_stages, num_ctas=self.options.num_ctas,
                        libdevice=self._libdevice(), triton_abi=True, keep_ttgir=True, keep_llvm_ir=True,
                        source_name=name, maxnreg=getattr(self.options, "maxnreg", None),
                        enable_fp_fusion=getattr(self.options, "enable_fp_fusion", True),
                        enable_reflect_ftz=getattr(self.options, "enable_reflect_ftz", True),
                        instrumentation_mode=_instrumentation_mode(),
                        line_info=_line_info(), reproducer=_reproducer_path(),
                        debug_variables=_debug_variables())

    def _report_warnings(self):
        # Warnings (e.g. a warp_specialize=True loop compiled unspecialized)
        # reach the user as Python warnings; remarks stay quiet.
        for text in self.result.get("warnings") or ():
            if ": warning: " in text:
                warnings.warn(f"Tritium: {text}", RuntimeWarning, stacklevel=3)

    def make_ttgir(self, src, metadata):
        text = str(src)
        try:
            self.result = self._run(text, "ttir")
        except CompileError as error:
            # Over the shared-memory limit: upstream finds that out when it loads
            # the kernel and raises OutOfResources, which the autotuner takes as
            # "skip this config"; raise the same, with the same figures.
            found = re.search(r"needs (\d+) bytes(?: \([^)]*\))? of shared memory(?: \(ttg\.shared\))?, more than the (\d+) bytes",
                              str(error))
            if found:
                from triton.runtime.errors import OutOfResources
                raise OutOfResources(int(found.group(1)), int(found.group(2)), "shared memory") from error
            if not _fallback_allowed():
                raise
            warnings.warn(f"Tritium could not compile this kernel, upstream Triton compiles it "
                          f"(TRITIUM_FALLBACK=1): {error}", RuntimeWarning, stacklevel=2)
            self.fallback = True
            stats["fallback"] += 1
            return self.upstream["ttgir"](src, metadata)
        self._report_warnings()
        # How the launcher turns each host-side tensor descriptor argument into
        # the CUtensorMap the kernel takes (swizzle, element type, box). An
        # empty list would make Triton's launcher pass the descriptor
        # decomposed into pointer, shape and strides instead.
        metadata["tensordesc_meta"] = self.result["metadata"].get("tensordesc_meta", [])
        self.ttgir = self.result["ttgir"] if self.result["ttgir"] is not None else text
        return self.ttgir

    def make_llir(self, src, metadata):
        if self.fallback:
            return self.upstream["llir"](src, metadata)
        if src is not self.ttgir:
            # TTGIR from elsewhere (TRITON_KERNEL_OVERRIDE, ir_override): compile it as it is.
            self.result = self._run(str(src), "override.ttgir")
            self._report_warnings()
        info = self.result["metadata"]
        metadata["shared"] = info["shared"]
        metadata["num_warps"] = info["num_warps"]
        metadata["tmem_size"] = 0
        # Global scratch (device-side tensor descriptors' tensormaps): the
        # launcher allocates size bytes per program and passes the pointer
        # (null when the size is 0). Tritium uses no profile scratch.
        metadata["global_scratch_size"] = info["global_scratch_size"]
        metadata["global_scratch_align"] = info["global_scratch_align"]
        metadata["profile_scratch_size"] = 0
        metadata["profile_scratch_align"] = 1
        self.llvm_ir = self.result["llvm_ir"] or ""
        return self.llvm_ir

    def make_ptx(self, src, metadata):
        if self.fallback:
            return self.upstream["ptx"](src, metadata)
        if src is not self.llvm_ir:
            raise CompileError("Tritium's plug-in cannot take LLVM IR from elsewhere (an llir override); "
                               "override the ttir or ttgir stage instead, or call tritium.triton.disable()")
        metadata["name"] = self.result["metadata"]["name"]
        metadata["tritium"] = VERSION
        stats["compiled"] += 1
        return self.result["ptx"]


def _hook(backend, stages, options, language, capability):
    previous = _state["previous_hook"]
    if previous is not None:
        previous(backend, stages, options, language, capability)
    from triton.backends.compiler import Language
    # NVIDIA only (the AMD backend passes no capability); Gluon kernels come
    # with their own TTGIR and stay upstream's.
    if capability is None or getattr(backend.target, "backend", None) != "cuda" or language != Language.TRITON:
        return
    kernel = _Kernel(dict(stages), options, capability)
    stages["ttgir"] = kernel.make_ttgir
    stages["llir"] = kernel.make_llir
    stages["ptx"] = kernel.make_ptx


@functools.lru_cache()
def build_id():
    """A digest of Tritium's native library: two builds of one version (a
    development tree) must not share Triton cache entries. Computed once per
    process, when Triton first asks for the backend's hash."""
    import hashlib
    from . import _native
    digest = hashlib.blake2b(digest_size=8)
    with open(_native.__file__, "rb") as library:
        for chunk in iter(lambda: library.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def enabled():
    return _state["enabled"]


def enable():
    """Makes Tritium the compiler of Triton's NVIDIA kernels in this process."""
    if _state["enabled"]:
        return
    import triton
    from triton.backends.nvidia.compiler import CUDABackend
    _state["previous_hook"] = triton.knobs.runtime.add_stages_inspection_hook
    triton.knobs.runtime.add_stages_inspection_hook = _hook
    # Kernels compiled by Tritium and by upstream must not share cache entries:
    # the backend's hash is part of every cache key (triton.compile and the JIT).
    original = CUDABackend.hash
    _state["original_hash"] = original

    @functools.lru_cache()
    def hash_with_tritium(self):
        return f"{original(self)}-tritium-{VERSION}-{build_id()}"

    CUDABackend.hash = hash_with_tritium
    _state["enabled"] = True


def disable():
    """Gives the compile back to upstream Triton."""
    if not _state["enabled"]:
        return
    import triton
    from triton.backends.nvidia.compiler import CUDABackend
    triton.knobs.runtime.add_stages_inspection_hook = _state["previous_hook"]
    CUDABackend.hash = _state["original_hash"]
    _state.update(enabled=False, previous_hook=None, original_hash=None)

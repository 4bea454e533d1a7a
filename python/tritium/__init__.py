"""Tritium, the Triton GPU compiler rebuilt in Rust on MLIR, in-process.

    import tritium
    out = tritium.compile(ttir_text, target="cuda:90", num_warps=4)
    out["ptx"], out["metadata"]       # PTX text; name, shared, num_warps, parameters, ...

`tritium.triton.enable()` makes Tritium the compiler behind `@triton.jit`
(or set TRITIUM=1 in the environment before Python starts).
"""
import json

from ._native import VERSION, CompileError
from . import _native

__version__ = VERSION
__all__ = ["compile", "CompileError", "VERSION", "__version__"]


def compile(source, target="cuda:90", num_warps=4, num_stages=3, num_ctas=1, libdevice=None, triton_abi=False,
            keep_ttgir=False, keep_llvm_ir=False, source_name="<string>", maxnreg=None, enable_fp_fusion=True,
            enable_reflect_ftz=True, instrumentation_mode="", line_info=True, reproducer=None,
            debug_variables=False):
    """Compiles Triton IR text (TTIR, or TTGIR, which keeps its own target and warps) to PTX.

    Returns a dict: "ptx" (str), "metadata" (dict: name, target, num_warps,
    threads_per_block, shared, parameters), "ttgir" (str, when keep_ttgir and
    the input was TTIR, else None), "llvm_ir" (str when keep_llvm_ir, else
    None), "warnings" (list of str). `triton_abi` gives the kernel upstream
    Triton's two trailing scratch-pointer parameters. `maxnreg`,
    `enable_fp_fusion` and `enable_reflect_ftz` are upstream's options, and so is
    `instrumentation_mode` ("consan": the concurrency sanitizer instruments the
    kernel; an unknown mode is a CompileError). `line_info` writes line tables
    (`.file`/`.loc`) into the PTX, as upstream does unless TRITON_DISABLE_LINE_INFO
    is set. `reproducer` (a path prefix, upstream's TRITON_REPRODUCER_PATH) writes
    each pass pipeline's input and the pipeline to PREFIX.make_ttgir.repro.mlir and
    PREFIX.make_llir.repro.mlir (`tt-opt FILE --run-reproducer` replays them). `debug_variables`
    (upstream's LLVM_EXTRACT_DI_LOCAL_VARIABLES) describes the kernel's source variables in the
    PTX's DWARF and keeps `debug` on its .target line, for cuda-gdb. Raises CompileError
    with the located diagnostics ("file:line:col: error: ...").
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be the IR's text (str), got {type(source).__name__}")
    ptx, metadata, ttgir, llvm_ir, warnings = _native.compile(
        source, target=target, num_warps=num_warps, num_stages=num_stages, num_ctas=num_ctas,
        libdevice=None if libdevice is None else str(libdevice), triton_abi=triton_abi, keep_ttgir=keep_ttgir,
        keep_llvm_ir=keep_llvm_ir, source_name=source_name, maxnreg=maxnreg, enable_fp_fusion=enable_fp_fusion,
        enable_reflect_ftz=enable_reflect_ftz, instrumentation_mode=instrumentation_mode, line_info=line_info,
        reproducer=None if reproducer is None else str(reproducer), debug_variables=debug_variables)
    return {"ptx": ptx, "metadata": json.loads(metadata), "ttgir": ttgir, "llvm_ir": llvm_ir, "warnings": warnings}

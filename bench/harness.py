#!/usr/bin/env python3
"""GPU harness: runs Tritium's kernels and upstream Triton's on the same inputs
in the same process, checks both against torch, and times them.

For each case it loads, with cuda-python, the PTX Tritium made
(out/bench/tritium/<target>/<kernel>.ptx + .json, see bench/build.sh) and the
PTX upstream Triton 3.6 made from the same TTIR (out/bench/upstream/...),
poisons the outputs, launches, compares with torch, and times both with
triton.testing.do_bench, next to upstream Triton's JIT on the Python kernel
(bench/kernels.py) with the same constexprs and num_warps.

Usage (on the GPU machine): python3 bench/harness.py [--out DIR] [--filter REGEX]
Environment: LAUNCHERS=a,b runs only those columns; DRIVER_JIT=1 loads PTX through the driver's
JIT; SUSTAIN_MS=N also runs each column back to back for N ms with nvidia-smi sampling the SM
clock and power (sustained_columns).
"""
import argparse, contextlib, ctypes, json, math, os, re, statistics, sys, time

import torch
import triton
from cuda.bindings import driver as cu

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels as K  # noqa: E402
from fp8_cases import fp8_cases, scaled_mm_call  # noqa: E402

def _load_fixture_kernels(module_name, *path):
    """A kernels module of the test fixtures (test/fixtures/tma/kernels.py is another module named kernels)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test", "fixtures", *path)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TK = _load_fixture_kernels("tma_kernels", "tma", "kernels.py")
# The Hopper kernels of the corpus: persistent TMA matmuls, warp-specialized matmuls, TMA attention.
HC = _load_fixture_kernels("hopper_cases", "corpus", "hopper_cases.py")
# The big-tile kernels (masked_fill, masked_axpy, fill_constant) whose TTIR bench/large_tiles holds.
LT = _load_fixture_kernels("large_tiles", os.pardir, os.pardir, "bench", "large_tiles", "gen.py")
# The corpus's kernels of upstream's tutorials without TMA (tut01-tut05, tut07-tut09, tut11), with the
# math of the tutorials; the corpus compiled them with the constexprs, warps and stages of its CASES.
LC = _load_fixture_kernels("language_cases", "corpus", "language_cases.py")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class I64(int):
    """An integer kernel argument passed as 64 bits (tensor-descriptor strides)."""


class TmaDesc:
    """A host-side tensor descriptor argument: a 2-D+ tensor whose CUtensorMap each launcher
    encodes from its own bundle's tensordesc_meta (box, swizzle, element type), as upstream's
    launcher does; passed by value (128 bytes)."""

    def __init__(self, tensor):
        self.tensor = tensor

    def encode(self, meta):
        t = self.tensor
        # Device-side TMA element type codes -> CUtensorMapDataType (upstream TMA_DTYPE_DEVICE_TO_HOST).
        host_type = {8: 10, 9: 8, 10: 9}.get(meta["elem_type"], meta["elem_type"])
        rank = t.dim()
        elem = meta["elem_size"]
        assert t.stride(-1) == 1
        dims = [cu.cuuint64_t(d) for d in reversed(t.shape)]
        strides = [cu.cuuint64_t(s * elem) for s in reversed(t.stride()[:-1])]
        box = [cu.cuuint32_t(b) for b in reversed(meta["block_size"])]
        ones = [cu.cuuint32_t(1)] * rank
        tmap = check(cu.cuTensorMapEncodeTiled(
            cu.CUtensorMapDataType(host_type), rank, t.data_ptr(), dims, strides, box, ones,
            cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE, cu.CUtensorMapSwizzle(meta["swizzle"]),
            cu.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
        words = tmap.opaque
        return (ctypes.c_uint64 * 16)(*[int(w) for w in words])


def check(result):
    err = result[0]
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"CUDA error {err}")
    return result[1:] if len(result) > 2 else (result[1] if len(result) == 2 else None)


# The SASS the columns run: by default each PTX file is assembled by the ptxas Triton ships and
# runs (triton.backends.nvidia, with the options of its make_cubin: -lineinfo, the target's
# sm_XXa), as upstream's JIT and Tritium's Triton plug-in both do; DRIVER_JIT=1 hands the PTX to
# the driver instead (cuModuleLoadData on PTX: the driver's own PTX compiler, a different ptxas
# release, which is not what a Triton user runs).
def module_image(ptx_path):
    with open(ptx_path, "rb") as f:
        ptx = f.read()
    if os.environ.get("DRIVER_JIT") == "1":
        return ptx + b"\0"
    import subprocess, tempfile
    from triton.backends.nvidia.compiler import get_ptxas
    # For this GPU (sm_80 PTX runs on an H100 as the driver would JIT it: assembled for sm_90).
    major, minor = torch.cuda.get_device_capability()
    ptx_target = re.search(rb"^\.target\s+(sm_\w+)", ptx, re.M).group(1).decode()
    arch = f"sm_{major}{minor}" + ("a" if ptx_target.endswith("a") else "")
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, "kernel.cubin")
        subprocess.run([get_ptxas(major * 10 + minor).path, "-lineinfo", f"--gpu-name={arch}", ptx_path, "-o", cubin],
                       check=True, capture_output=True)
        with open(cubin, "rb") as f:
            return f.read()


def sass_source():
    """Which compiler made the PTX columns' SASS, and the driver's version (for the log)."""
    driver = check(cu.cuDriverGetVersion())
    if os.environ.get("DRIVER_JIT") == "1":
        return f"the driver's PTX JIT (CUDA driver {driver // 1000}.{driver % 1000 // 10})"
    import subprocess
    from triton.backends.nvidia.compiler import get_ptxas
    major, minor = torch.cuda.get_device_capability()
    ptxas = get_ptxas(major * 10 + minor).path
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    return f"{ptxas} ({version}); CUDA driver {driver // 1000}.{driver % 1000 // 10}"


class PtxKernel:
    """A kernel loaded from PTX, launched with cuLaunchKernel."""

    def __init__(self, ptx_path, name, num_warps, shared, extra_null_args=0, tensordesc_meta=None,
                 global_scratch_size=0):
        self.tensordesc_meta = tensordesc_meta or []
        # Bytes of global scratch per program (device-side descriptors' tensormaps): the
        # kernel takes a buffer of that many bytes per program in its global-scratch
        # parameter (the first of upstream's two trailing pointers; Tritium's own last one).
        self.global_scratch_size = global_scratch_size or 0
        self._scratch = None
        self.module = check(cu.cuModuleLoadData(module_image(ptx_path)))
        self.function = check(cu.cuModuleGetFunction(self.module, name.encode()))
        self.threads = num_warps * 32
        self.shared = shared
        self.extra = extra_null_args
        # Programmatic dependent launch (a case's launch_pdl, as upstream's launch_pdl=True):
        # cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION.
        self.launch_pdl = False
        if shared > 48 * 1024:
            # As Triton's launcher loads a kernel (driver.c loadBinary), which upstream's JIT and
            # Tritium's plug-in both use: prefer shared memory over L1 (the carveout decides how many
            # CTAs of a 98 KiB kernel fit on an SM) and allow all the dynamic shared memory the
            # device has. Setting only the kernel's own size left the carveout to the driver: the same
            # SASS then timed 1.86 ms and 2.26 ms in one run (tma_matmul 8192^3, session 11).
            device = torch.cuda.current_device()
            optin = check(cu.cuDeviceGetAttribute(
                cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device))
            static = check(cu.cuFuncGetAttribute(cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                                 self.function))
            check(cu.cuFuncSetCacheConfig(self.function, cu.CUfunc_cache.CU_FUNC_CACHE_PREFER_SHARED))
            check(cu.cuFuncSetAttribute(self.function,
                  cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - static))

    @classmethod
    def from_bundle(cls, ptx_path, meta, extra_null_args=0, tensordesc_meta=None):
        """The kernel of a bundle (its PTX and json): the json gives the name, warps, shared
        memory, descriptors and global scratch, so that every launcher passes the parameters
        the kernel declares (a missing scratch pointer fails the launch with INVALID_VALUE)."""
        return cls(ptx_path, meta["name"], meta["num_warps"], meta["shared"], extra_null_args=extra_null_args,
                   tensordesc_meta=tensordesc_meta if tensordesc_meta is not None else meta.get("tensordesc_meta"),
                   global_scratch_size=meta.get("global_scratch_size"))

    def __call__(self, grid, args):
        if any(isinstance(a, TmaDesc) for a in args):
            return self.launch_with_descriptors(grid, args)
        values, types = [], []
        for a in args:
            if isinstance(a, torch.Tensor):
                values.append(a.data_ptr()); types.append(ctypes.c_void_p)
            elif isinstance(a, float):
                values.append(a); types.append(ctypes.c_float)
            else:
                values.append(a); types.append(ctypes.c_int32)
        for pointer in self.trailing_pointers(grid):  # global (and upstream's profile) scratch
            values.append(pointer); types.append(ctypes.c_void_p)
        grid = tuple(grid) + (1,) * (3 - len(grid))
        stream = torch.cuda.current_stream().cuda_stream
        if self.launch_pdl:
            return self.launch_programmatic(grid, stream, (tuple(values), tuple(types)))
        check(cu.cuLaunchKernel(self.function, *grid, self.threads, 1, 1, self.shared, stream,
                                (tuple(values), tuple(types)), 0))

    def launch_programmatic(self, grid, stream, params):
        """A launch with programmatic stream serialization, as upstream's launcher makes for
        launch_pdl=True: the grid may start while the stream's previous kernel still runs, and its
        griddepcontrol.wait waits for that kernel (launched plainly, griddepcontrol is a no-op)."""
        config = cu.CUlaunchConfig()
        config.gridDimX, config.gridDimY, config.gridDimZ = grid
        config.blockDimX, config.blockDimY, config.blockDimZ = self.threads, 1, 1
        config.sharedMemBytes = self.shared
        config.hStream = cu.CUstream(stream)
        attr = cu.CUlaunchAttribute()
        attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        attr.value.programmaticStreamSerializationAllowed = 1
        config.attrs = [attr]
        config.numAttrs = 1
        check(cu.cuLaunchKernelEx(config, self.function, params, 0))

    def trailing_pointers(self, grid):
        """The pointers after the kernel's own arguments: upstream's two scratch pointers
        (null unless the kernel needs global scratch), or Tritium's global-scratch one."""
        pointers = [0] * self.extra
        if self.global_scratch_size:
            programs = math.prod(grid)
            if self._scratch is None or self._scratch.numel() < self.global_scratch_size * programs:
                self._scratch = torch.empty(self.global_scratch_size * programs, dtype=torch.uint8, device="cuda")
            if pointers:
                pointers[0] = self._scratch.data_ptr()
            else:
                pointers = [self._scratch.data_ptr()]
        return pointers

    def launch_with_descriptors(self, grid, args):
        """Kernel parameters as a void** array (CUtensorMaps are 128-byte structs by value)."""
        if len(self.tensordesc_meta) != sum(isinstance(a, TmaDesc) for a in args):
            raise RuntimeError("the bundle's tensordesc_meta does not match the descriptor arguments")
        held, metas = [], iter(self.tensordesc_meta)
        for a in args:
            if isinstance(a, TmaDesc):
                held.append(a.encode(next(metas)))
            elif isinstance(a, torch.Tensor):
                held.append(ctypes.c_void_p(a.data_ptr()))
            elif isinstance(a, float):
                held.append(ctypes.c_float(a))
            elif isinstance(a, I64):
                held.append(ctypes.c_int64(a))
            else:
                held.append(ctypes.c_int32(a))
        for pointer in self.trailing_pointers(grid):
            held.append(ctypes.c_void_p(pointer))
        pointers = (ctypes.c_void_p * len(held))(*[ctypes.addressof(h) for h in held])
        self._held = (held, pointers)  # alive until the launch has read them
        grid = tuple(grid) + (1,) * (3 - len(grid))
        stream = torch.cuda.current_stream().cuda_stream
        check(cu.cuLaunchKernel(self.function, *grid, self.threads, 1, 1, self.shared, stream,
                                ctypes.addressof(pointers), 0))


def cdiv(a, b):
    return (a + b - 1) // b


def philox_rounds(c0, c1, c2, c3, k0, k1, rounds=10):
    """Philox 4x32 as triton.language.random.philox_impl computes it, on 32-bit words held in wider
    integers (Python ints, or torch int64 tensors, whose products wrap but keep the high word in
    bits 32-63): counter (c0, c1, c2, c3), key (k0, k1)."""
    low = 0xFFFFFFFF
    for _ in range(rounds):
        product_a, product_b = c0 * 0xD2511F53, c2 * 0xCD9E8D57
        c0, c2 = ((product_b >> 32) & low) ^ c1 ^ k0, ((product_a >> 32) & low) ^ c3 ^ k1
        c1, c3 = product_b & low, product_a & low
        k0, k1 = (k0 + 0x9E3779B9) & low, (k1 + 0xBB67AE85) & low
    return c0, c1, c2, c3


# torch's numbering of its attention backends (at::SDPBackend), for _fused_sdp_choice's answer.
SDP_BACKENDS = {-1: "none", 0: "math", 1: "flash", 2: "efficient", 3: "cuDNN", 4: "overrideable"}


def sdpa_calls(q, k, v, causal, scale):
    """torch's own attention on the same q, k, v (fp16, [Z, H, N, D]): F.scaled_dot_product_attention
    with the backend torch chooses (its choice named through torch._fused_sdp_choice, the function
    the dispatcher asks, when this torch has it), then with cuDNN's forced (reported as torch_cudnn;
    '-' where this torch or cuDNN has none for the shape)."""
    import torch.nn.functional as F

    def attend():
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)

    def chosen_backend():
        try:
            return "SDPA " + SDP_BACKENDS.get(int(torch._fused_sdp_choice(q, k, v, None, 0.0, causal, scale=scale)), "?")
        except Exception:
            return "SDPA"
    calls = [dict(key="torch", backend=chosen_backend, fn=attend)]
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        calls.append(dict(key="torch_cudnn", backend="SDPA cuDNN", fn=attend,
                          context=lambda: sdpa_kernel(SDPBackend.CUDNN_ATTENTION)))
    except (ImportError, AttributeError):
        pass
    return calls


def case_list(small=False):
    """(case name, corpus kernel, shape text, make(inputs), grid, args, outputs, reference, tolerance, bytes)

    A case may also give `torch`: torch's own library calls on the same inputs (dicts: key, the
    prefix of the row's keys, "torch" or "torch_cudnn"; backend, a name or a function giving it;
    fn, which returns the output to compare with the first reference; context, optional, a
    function giving the context manager the call runs in), `moonshot`: "fp16" or "fp8" for
    the matmuls the moonshot summary compares, and `launch_pdl`: the PTX launchers launch with
    programmatic dependent launch (PtxKernel.launch_programmatic; the JIT's jit_opts say launch_pdl too).

    small: the loops' trip counts cut down (K, sequence lengths, the rows of a persistent
    program) for compute-sanitizer's racecheck, whose cost grows with every shared-memory
    access of a program; `dim(big, little)` gives each such size, and shapes stay masked
    where the big one is."""
    dev = "cuda"
    cases = []

    def dim(big, little):
        return little if small else big

    def cublas(a, b, like, backend="cuBLAS"):
        """torch's own matmul of the same operands (cuBLAS), into an output allocated once."""
        out = torch.empty(like.shape, device=dev, dtype=like.dtype)
        return dict(key="torch", backend=backend, fn=lambda: torch.matmul(a, b, out=out))

    def vector_add(n, kernel, tiles):
        x = torch.randn(n, device=dev); y = torch.randn(n, device=dev); out = torch.empty(n, device=dev)
        block = 1024 * tiles
        return dict(args=[x, y, out, n], out=[out], ref=[x + y], grid=(cdiv(n, block),),
                    constexprs=dict(BLOCK=1024, **({"TILES": tiles} if tiles > 1 else {})),
                    tol=(0, 0), bytes=3 * 4 * n, jit=getattr(K, kernel))
    cases.append(("vector_add", "vector_add", "n=67108864", lambda: vector_add(1 << 26, "vector_add", 1)))
    cases.append(("vector_add", "vector_add", "n=98432", lambda: vector_add(98432, "vector_add", 1)))
    cases.append(("vector_add_2tiles", "vector_add_2tiles", "n=67108864", lambda: vector_add(1 << 26, "vector_add_2tiles", 2)))

    def softmax(rows, cols, block, persistent):
        x = torch.randn(rows, cols, device=dev); out = torch.empty_like(x)
        ref = torch.softmax(x.double(), dim=-1).float()
        if persistent:
            programs = min(rows, torch.cuda.get_device_properties(0).multi_processor_count * 4)
            args = [out, x, x.stride(0), out.stride(0), rows, cols]
            grid = (programs,)
        else:
            args = [out, x, x.stride(0), out.stride(0), cols]
            grid = (rows,)
        return dict(args=args, out=[out], ref=[ref], grid=grid, constexprs=dict(BLOCK=block), tol=(1e-6, 1e-4),
                    bytes=2 * 4 * rows * cols, jit=K.softmax_persistent if persistent else K.softmax)
    cases.append(("softmax", "softmax", "32768x1024", lambda: softmax(32768, 1024, 1024, False)))
    cases.append(("softmax_persistent", "softmax_persistent", f"{dim(4096, 256)}x4096", lambda: softmax(dim(4096, 256), 4096, 4096, True)))

    def norm(kind, rows, cols, block, dtype):
        x = torch.randn(rows, cols, device=dev, dtype=dtype); w = torch.randn(cols, device=dev, dtype=dtype)
        y = torch.empty_like(x); eps = 1e-6
        xf, wf = x.float(), w.float()
        if kind == "layernorm":
            b = torch.randn(cols, device=dev, dtype=dtype)
            mean = xf.mean(-1, keepdim=True); d = xf - mean
            ref = (d * torch.rsqrt((d * d).mean(-1, keepdim=True) + eps) * wf + b.float()).to(dtype)
            args = [x, w, b, y, x.stride(0), cols, eps]
            moved = 2 * rows * cols * x.element_size() + 2 * cols * x.element_size()
            jit = K.layernorm
        else:
            ref = (xf * torch.rsqrt((xf * xf).mean(-1, keepdim=True) + eps) * wf).to(dtype)
            args = [x, w, y, x.stride(0), cols, eps]
            moved = 2 * rows * cols * x.element_size() + cols * x.element_size()
            jit = K.rmsnorm_looped if kind == "rmsnorm_looped" else K.rmsnorm
        return dict(args=args, out=[y], ref=[ref], grid=(rows,), constexprs=dict(BLOCK=block), tol=(1e-2, 1e-2),
                    bytes=moved, jit=jit)
    cases.append(("rmsnorm_f16", "rmsnorm", "16384x4096", lambda: norm("rmsnorm", 16384, 4096, 4096, torch.float16)))
    cases.append(("rmsnorm_looped_bf16", "rmsnorm_looped", "16384x8192", lambda: norm("rmsnorm_looped", 16384, 8192, 1024, torch.bfloat16)))
    cases.append(("layernorm_f16", "layernorm", "16384x2048", lambda: norm("layernorm", 16384, 2048, 2048, torch.float16)))

    def matmul(size, kernel, blocks, group, stages=None, dtype=torch.float16):
        m = n = k = size
        a = torch.randn(m, k, device=dev, dtype=dtype)
        b = torch.randn(k, n, device=dev, dtype=dtype)
        c = torch.empty(m, n, device=dev, dtype=dtype)
        ref = (a.float() @ b.float()).to(dtype)
        bm, bn, bk = blocks
        # Unit strides are constexprs in the TTIR (Triton specialises 1s), so
        # the compiled kernels take the other arguments only.
        full = [a, b, c, m, n, k, a.stride(0), 1, b.stride(0), 1, c.stride(0), 1]
        compiled = [a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0)]
        constexprs = dict(BM=bm, BN=bn, BK=bk, **({"GROUP_M": group} if group else {}))
        grid = (cdiv(m, bm) * cdiv(n, bn),) if group else (cdiv(m, bm), cdiv(n, bn))
        return dict(args=compiled, jit_args=full, out=[c], ref=[ref], grid=grid, constexprs=constexprs,
                    tol=(0.25, 1e-2) if dtype == torch.float16 else (1.0, 2e-2), flops=2 * m * n * k, jit=getattr(K, kernel),
                    jit_opts=dict(num_stages=stages or (3 if group else 1)), torch=[cublas(a, b, c)],
                    moonshot="fp16" if dtype == torch.float16 else None)
    cases.append(("matmul_naive_f16", "matmul_naive", f"{dim(2048, 512)}^3", lambda: matmul(dim(2048, 512), "matmul_naive", (64, 64, 32), 0)))
    cases.append(("matmul_grouped_f16", "matmul_grouped", f"{dim(4096, 512)}^3", lambda: matmul(dim(4096, 512), "matmul_grouped", (128, 128, 64), 8)))
    cases.append(("matmul_bf16", "matmul_grouped", f"{dim(4096, 512)}^3",
                  lambda: matmul(dim(4096, 512), "matmul_grouped", (128, 128, 64), 8, dtype=torch.bfloat16)))
    # The reference configurations (../shared/reference/triton-3.6-h100.md): 128x256x64, 8 warps.
    cases.append(("matmul_ref_s4", "matmul_grouped", f"{dim(4096, 512)}^3", lambda: matmul(dim(4096, 512), "matmul_grouped", (128, 256, 64), 8, 4)))
    cases.append(("matmul_ref_s3", "matmul_grouped", f"{dim(8192, 512)}^3", lambda: matmul(dim(8192, 512), "matmul_grouped", (128, 256, 64), 8, 3)))

    # The ungrouped int8 and tf32 kernels (grid M/BM x N/BN, unit inner strides). Shapes that
    # are not multiples of the blocks exercise the masks (M, N, K stay multiples of 16, as the
    # divisibility hints of the compiled kernels promise).
    class IntPoisoned(torch.Tensor):
        """An integer output poisoned with INT32_MIN, which no case computes (-1 is a valid result)."""

        def fill_(self, value):
            return super().fill_(-(1 << 31))

    def plain_matmul(a, b, c, ref, blocks, tol, jit, library):
        (m, k), n = a.shape, b.shape[1]
        bm, bn, bk = blocks
        full = [a, b, c, m, n, k, a.stride(0), 1, b.stride(0), 1, c.stride(0), 1]
        compiled = [a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0)]
        return dict(args=compiled, jit_args=full, out=[c], ref=[ref], grid=(cdiv(m, bm), cdiv(n, bn)),
                    constexprs=dict(BM=bm, BN=bn, BK=bk), tol=tol, flops=2 * m * n * k, jit=jit,
                    jit_opts=dict(num_stages=3), torch=[library])

    def matmul_i8(size):
        a = torch.randint(-8, 9, (size, size), device=dev, dtype=torch.int8)
        b = torch.randint(-8, 9, (size, size), device=dev, dtype=torch.int8)
        c = torch.empty(size, size, device=dev, dtype=torch.int32).as_subclass(IntPoisoned)
        # Exact in float64: every |sum| <= 64 * K is far below 2^53.
        ref = (a.double() @ b.double()).to(torch.int32)
        int_mm = dict(key="torch", backend="cuBLAS int8 (_int_mm)", fn=lambda: torch._int_mm(a, b))
        return plain_matmul(a, b, c, ref, (128, 128, 64), (0, 0), K.matmul_i8, int_mm)
    cases.append(("matmul_i8", "matmul_i8", f"{dim(4096, 512)}^3", lambda: matmul_i8(dim(4096, 512))))
    cases.append(("matmul_i8", "matmul_i8", f"{dim(2000, 464)}^3 (masked)", lambda: matmul_i8(dim(2000, 464))))

    def matmul_tf32(size):
        a = torch.randn(size, size, device=dev)
        b = torch.randn(size, size, device=dev)
        c = torch.empty(size, size, device=dev)
        allowed = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = False  # the reference: a full fp32 matmul
        ref = a @ b
        torch.backends.cuda.matmul.allow_tf32 = allowed
        # tf32 keeps 10 mantissa bits: for randn inputs the error of a K-long dot has a standard
        # deviation of about 7.5e-4 * sqrt(K) (0.048 at K = 4096, simulated), against sums of
        # about sqrt(K); atol 0.5 is ten of those, while a misplaced fragment errs by ~sqrt(K).
        library = cublas(a, b, c, backend="cuBLAS tf32")
        fp32_call = library["fn"]

        def tf32_call():  # cuBLAS in tf32, as the kernel computes; the flag restored after each call
            saved = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = True
            try:
                return fp32_call()
            finally:
                torch.backends.cuda.matmul.allow_tf32 = saved
        library["fn"] = tf32_call
        return plain_matmul(a, b, c, ref, (128, 128, 32), (0.5, 1e-2), K.matmul_tf32, library)
    cases.append(("matmul_tf32", "matmul_tf32", f"{dim(4096, 512)}^3", lambda: matmul_tf32(dim(4096, 512))))
    cases.append(("matmul_tf32", "matmul_tf32", f"{dim(2000, 464)}^3 (masked)", lambda: matmul_tf32(dim(2000, 464))))

    def attention_inputs(z, h, n_ctx, d, causal):
        """q, k, v, o ([Z, H, N, D] fp16), the scale, the fp32 reference and the flops of a forward."""
        q, k, v = (torch.randn(z, h, n_ctx, d, device=dev, dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        scale = 1.0 / math.sqrt(d)
        ref = torch.empty_like(q)
        masked = torch.ones(n_ctx, n_ctx, device=dev, dtype=torch.bool).tril().logical_not()
        for b in range(z):  # one batch at a time: the fp32 scores of all heads would not fit
            s = (q[b].float() @ k[b].float().transpose(-1, -2)) * scale
            if causal:
                s = s.masked_fill(masked, float("-inf"))
            ref[b] = (torch.softmax(s, dim=-1) @ v[b].float()).half()
            del s
        flops = 4 * z * h * n_ctx * n_ctx * d // (2 if causal else 1)
        return q, k, v, o, scale, ref, flops

    def attention(z, h, n_ctx, d, causal, stages=3):
        q, k, v, o, scale, ref, flops = attention_inputs(z, h, n_ctx, d, causal)
        return dict(args=[q, k, v, o, scale, q.stride(0), q.stride(1), q.stride(2), h, n_ctx], out=[o], ref=[ref],
                    grid=(n_ctx // 128, z * h), constexprs=dict(HEAD_DIM=d, BLOCK_M=128, BLOCK_N=64, CAUSAL=causal),
                    tol=(1e-2, 1e-2), flops=flops, jit=K.attn_fwd, jit_opts=dict(num_stages=stages),
                    torch=sdpa_calls(q, k, v, causal, scale))
    cases.append(("attn_fwd_d64", "attn_fwd", f"Z4 H16 N{dim(4096, 512)} D64", lambda: attention(4, 16, dim(4096, 512), 64, False)))
    cases.append(("attn_fwd_causal_d128", "attn_fwd", f"Z4 H16 N{dim(4096, 512)} D128 causal", lambda: attention(4, 16, dim(4096, 512), 128, True)))
    # The reference shapes and configurations: B=4 H=32 S=4096, 8 warps.
    cases.append(("attn_ref_d64", "attn_fwd", f"B4 H32 S{dim(4096, 512)} D64", lambda: attention(4, 32, dim(4096, 512), 64, False, 4)))
    cases.append(("attn_ref_d64_causal", "attn_fwd", f"B4 H32 S{dim(4096, 512)} D64 causal", lambda: attention(4, 32, dim(4096, 512), 64, True, 3)))
    cases.append(("attn_ref_d128", "attn_fwd", f"B4 H32 S{dim(4096, 512)} D128", lambda: attention(4, 32, dim(4096, 512), 128, False, 4)))
    cases.append(("attn_ref_d128_causal", "attn_fwd", f"B4 H32 S{dim(4096, 512)} D128 causal", lambda: attention(4, 32, dim(4096, 512), 128, True, 3)))

    # Scans, argmax (a two-operand tt.reduce), atomics and a 3-D grid. The inputs of the atomic
    # kernels are multiples of 1/4, so that float sums are exact whatever order the atomics
    # land in, and the results compare exactly.
    class Accumulator(torch.Tensor):
        """An output the kernel adds into: the poisoning before each launch zeroes it instead."""

        def fill_(self, value):
            return super().fill_(0)

    def quarters(*shape):
        return torch.randint(0, 4, shape, device=dev).float() / 4

    def cumsum_rows(rows, cols):
        x = torch.randn(rows, cols, device=dev); y = torch.empty_like(x)
        ref = torch.cumsum(x.double(), dim=1).float()
        return dict(args=[x, y, x.stride(0), cols], out=[y], ref=[ref], grid=(rows,), constexprs=dict(BLOCK=1024),
                    tol=(1e-3, 1e-4), bytes=2 * 4 * rows * cols, jit=K.cumsum_rows)
    cases.append(("cumsum_rows", "cumsum_rows", "16384x1024", lambda: cumsum_rows(16384, 1024)))
    cases.append(("cumsum_rows", "cumsum_rows", "4096x1008 (masked)", lambda: cumsum_rows(4096, 1008)))

    def argmax_rows(rows, cols):
        # Few distinct values: many ties, which go to the first index as in torch.
        x = torch.randint(0, 64, (rows, cols), device=dev).float()
        out = torch.empty(rows, device=dev, dtype=torch.int32)
        ref = torch.argmax(x, dim=1).int()
        return dict(args=[x, out, x.stride(0), cols], out=[out], ref=[ref], grid=(rows,), constexprs=dict(BLOCK=2048),
                    tol=(0, 0), bytes=4 * rows * cols + 4 * rows, jit=K.argmax_rows)
    cases.append(("argmax_rows", "argmax_rows", "16384x2048", lambda: argmax_rows(16384, 2048)))
    cases.append(("argmax_rows", "argmax_rows", "4096x2000 (masked)", lambda: argmax_rows(4096, 2000)))

    def atomic_add_hist(n):
        x = quarters(n)
        bins = torch.randint(0, 1 << 20, (n,), device=dev, dtype=torch.int32)
        hist = torch.zeros(64, device=dev).as_subclass(Accumulator)
        ref = torch.zeros(64, device=dev, dtype=torch.float64).index_add_(0, (bins % 64).long(), x.double())
        return dict(args=[x, bins, hist, n], out=[hist], ref=[ref], grid=(cdiv(n, 1024),),
                    constexprs=dict(NBINS=64, BLOCK=1024), tol=(0, 0), bytes=2 * 4 * n, jit=K.atomic_add_hist)
    cases.append(("atomic_add_hist", "atomic_add_hist", "n=4194304", lambda: atomic_add_hist(1 << 22)))
    cases.append(("atomic_add_hist", "atomic_add_hist", "n=1000000 (masked)", lambda: atomic_add_hist(1000000)))

    def atomic_cas_counter(n):
        x = quarters(n)
        total = torch.zeros(1, device=dev).as_subclass(Accumulator)
        lock = torch.zeros(1, device=dev, dtype=torch.int32)
        count = torch.zeros(1, device=dev, dtype=torch.int32).as_subclass(Accumulator)
        programs = cdiv(n, 1024)
        ref = [x.double().sum().reshape(1), torch.tensor([programs], device=dev)]
        return dict(args=[x, total, lock, count, n], out=[total, count], ref=ref, grid=(programs,),
                    constexprs=dict(BLOCK=1024), tol=(0, 0), bytes=4 * n, jit=K.atomic_cas_counter)
    cases.append(("atomic_cas_counter", "atomic_cas_counter", "n=1048576", lambda: atomic_cas_counter(1 << 20)))
    cases.append(("atomic_cas_counter", "atomic_cas_counter", "n=100000 (masked)", lambda: atomic_cas_counter(100000)))

    def transpose_3d(batch, m, n):
        x = torch.randn(batch, m, n, device=dev, dtype=torch.float16)
        y = torch.empty(batch, n, m, device=dev, dtype=torch.float16)
        return dict(args=[x, y, m, n, x.stride(0), x.stride(1), y.stride(0), y.stride(1)], out=[y], ref=[x.transpose(1, 2)],
                    grid=(cdiv(m, 64), cdiv(n, 64), batch), constexprs=dict(BM=64, BN=64), tol=(0, 0),
                    bytes=2 * 2 * batch * m * n, jit=K.transpose_3d)
    cases.append(("transpose_3d", "transpose_3d", "16x2048x2048", lambda: transpose_3d(16, 2048, 2048)))
    cases.append(("transpose_3d", "transpose_3d", "3x1008x2000 (masked)", lambda: transpose_3d(3, 1008, 2000)))
    cases += fp8_cases(dev, dim)  # bench/fp8_cases.py

    # TMA (sm_90): host-side tensor descriptors (test/fixtures/tma/kernels.py). Each descriptor
    # argument is the CUtensorMap, then its shape (i32) and strides (i64), as upstream's TTIR
    # expands it; the JIT gets triton's TensorDescriptor.
    from triton.tools.tensor_descriptor import TensorDescriptor

    def desc_args(t):
        return [TmaDesc(t), *t.shape, *[I64(s) for s in t.stride()]]

    def tma_copy(m, n):
        x = torch.randn(m, n, device=dev, dtype=torch.float16)
        y = torch.empty(m, n, device=dev, dtype=torch.float16)
        jd = lambda t: TensorDescriptor(t, list(t.shape), list(t.stride()), [64, 64])
        return dict(args=desc_args(x) + desc_args(y), jit_args=[jd(x), jd(y)], out=[y], ref=[x + 1.0],
                    grid=(m // 64, n // 64), constexprs=dict(BM=64, BN=64), tol=(0, 0), bytes=2 * 2 * m * n,
                    jit=TK.tma_copy)
    cases.append(("tma_copy", "tma_copy", "8192x8192", lambda: tma_copy(8192, 8192)))

    def tma_matmul(size):
        m = n = k = size
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(n, k, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        ref = (a.float() @ b.float().T).to(torch.float16)
        jd = lambda t, block: TensorDescriptor(t, list(t.shape), list(t.stride()), block)
        return dict(args=desc_args(a) + desc_args(b) + desc_args(c) + [k],
                    jit_args=[jd(a, [128, 64]), jd(b, [128, 64]), jd(c, [128, 128]), k], out=[c], ref=[ref],
                    grid=(m // 128, n // 128), constexprs=dict(BM=128, BN=128, BK=64), tol=(0.25, 1e-2),
                    flops=2 * m * n * k, jit=TK.tma_matmul, jit_opts=dict(num_stages=3),
                    torch=[cublas(a, b.T, c)], moonshot="fp16")
    cases.append(("tma_matmul", "tma_matmul", f"{dim(4096, 512)}^3", lambda: tma_matmul(dim(4096, 512))))
    cases.append(("tma_matmul", "tma_matmul", f"{dim(8192, 1024)}^3", lambda: tma_matmul(dim(8192, 1024))))

    def device_desc_kernel(size, jit, grid, constexprs, jit_opts):
        """A matmul over device-side descriptors, (a, b, c, M, N, K) with B K-major: the kernel
        builds its tensormaps in global scratch (the JIT's comes from triton.set_allocator)."""
        triton.set_allocator(lambda nbytes, align, stream: torch.empty(nbytes, dtype=torch.int8, device=dev))
        m = n = k = size
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(n, k, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        ref = (a.float() @ b.float().T).to(torch.float16)
        return dict(args=[a, b, c, m, n, k], out=[c], ref=[ref], grid=grid(m, n), constexprs=constexprs,
                    tol=(0.25, 1e-2), flops=2 * m * n * k, jit=jit, jit_opts=jit_opts, torch=[cublas(a, b.T, c)],
                    moonshot="fp16")
    cases.append(("device_desc_matmul", "device_desc_matmul", f"{dim(4096, 512)}^3",
                  lambda: device_desc_kernel(dim(4096, 512), TK.device_desc_matmul, lambda m, n: (m // 128, n // 128),
                                             dict(BM=128, BN=128, BK=64), dict(num_stages=3))))

    def tma_store_epilogue(m, n):
        x = torch.randn(m, n, device=dev, dtype=torch.float32)
        y = torch.empty(m, n, device=dev, dtype=torch.float32)
        yd = TensorDescriptor(y, list(y.shape), list(y.stride()), [64, 64])
        return dict(args=[x] + desc_args(y) + [m, n], jit_args=[x, yd, m, n], out=[y], ref=[x * 2.0],
                    grid=(m // 64, n // 64), constexprs=dict(BM=64, BN=64), tol=(0, 0), bytes=2 * 4 * m * n,
                    jit=TK.tma_store_epilogue)
    cases.append(("tma_store_epilogue", "tma_store_epilogue", "8192x8192", lambda: tma_store_epilogue(8192, 8192)))

    # The Hopper kernels of the corpus (test/fixtures/corpus/hopper_cases.py, sm_90 only), with the
    # constexprs, warps and stages their corpus entries were compiled with. Persistent kernels run
    # NUM_SMS = 132 programs (a constexpr of theirs), whatever the GPU's count.
    persistent_programs = 132

    def persist_tma_matmul(size, fp8):
        m = n = k = size
        dtype = torch.float8_e4m3fn if fp8 else torch.float16
        a = torch.randn(m, k, device=dev).to(dtype)
        b = torch.randn(n, k, device=dev).to(dtype)  # K-major B, as the kernel's b_desc
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        ref = (a.float() @ b.float().T).to(torch.float16)
        bk = 128 if fp8 else 64
        jd = lambda t, block: TensorDescriptor(t, list(t.shape), list(t.stride()), block)
        return dict(args=desc_args(a) + desc_args(b) + desc_args(c) + [m, n, k],
                    jit_args=[jd(a, [128, bk]), jd(b, [128, bk]), jd(c, [128, 128]), m, n, k], out=[c], ref=[ref],
                    grid=(min(persistent_programs, (m // 128) * (n // 128)),),
                    constexprs=dict(BM=128, BN=128, BK=bk, GROUP_M=8, NUM_SMS=persistent_programs),
                    tol=(max(1.0, k / 1024), 2e-2) if fp8 else (0.25, 1e-2),  # fp8: see fp8_cases.matmul
                    flops=2 * m * n * k, jit=HC.persist_tma_matmul,
                    jit_opts=dict(num_stages=4),
                    torch=[scaled_mm_call(a, b.T) if fp8 else cublas(a, b.T, c)], moonshot="fp8" if fp8 else "fp16")
    for size in (dim(4096, 512), dim(8192, 1024)):
        cases.append(("persist_tma_matmul_f16", "persist_tma_matmul_f16", f"{size}^3",
                      lambda size=size: persist_tma_matmul(size, False)))
        cases.append(("persist_tma_matmul_fp8e4m3", "persist_tma_matmul_fp8e4m3", f"{size}^3",
                      lambda size=size: persist_tma_matmul(size, True)))

    persistent = lambda m, n: (min(persistent_programs, (m // 128) * (n // 128)),)
    for size in (dim(4096, 512), dim(8192, 1024)):
        cases.append(("persist_device_desc_matmul_f16", "persist_device_desc_matmul_f16", f"{size}^3",
                      lambda size=size: device_desc_kernel(
                          size, HC.persist_device_desc_matmul, persistent,
                          dict(BM=128, BN=128, BK=64, GROUP_M=8, NUM_SMS=persistent_programs), dict(num_stages=4))))
        # Warp-specialized: compiled with 4 warps (the bundles' num_warps counts the partitions' too).
        cases.append(("ws_device_desc_matmul_128x256", "ws_device_desc_matmul_128x256", f"{size}^3",
                      lambda size=size: device_desc_kernel(
                          size, HC.ws_device_desc_matmul, lambda m, n: ((m // 128) * (n // 256),),
                          dict(BM=128, BN=256, BK=64), dict(num_warps=4, num_stages=3))))
        cases.append(("ws_persistent_desc_matmul", "ws_persistent_desc_matmul", f"{size}^3",
                      lambda size=size: device_desc_kernel(
                          size, HC.ws_persistent_desc_matmul, persistent,
                          dict(BM=128, BN=128, BK=64, GROUP_M=8, NUM_SMS=persistent_programs, FLATTEN=False),
                          dict(num_warps=4, num_stages=3))))

    def attention_tma(z, h, n_ctx, d, causal, block_n=64):
        """attn_fwd_tma: Q, K, V, O as [Z * H * N, D] rows behind host-side descriptors."""
        q, k, v, o, scale, ref, flops = attention_inputs(z, h, n_ctx, d, causal)
        rows = lambda t: t.view(z * h * n_ctx, d)
        jd = lambda t, block: TensorDescriptor(rows(t), [z * h * n_ctx, d], [d, 1], block)
        return dict(args=desc_args(rows(q)) + desc_args(rows(k)) + desc_args(rows(v)) + desc_args(rows(o))
                    + [scale, n_ctx],
                    jit_args=[jd(q, [128, d]), jd(k, [block_n, d]), jd(v, [block_n, d]), jd(o, [128, d]), scale, n_ctx],
                    out=[o], ref=[ref], grid=(n_ctx // 128, z * h),
                    constexprs=dict(HEAD_DIM=d, BLOCK_M=128, BLOCK_N=block_n, CAUSAL=causal), tol=(1e-2, 1e-2),
                    flops=flops, jit=HC.attn_fwd_tma, jit_opts=dict(num_stages=3),
                    torch=sdpa_calls(q, k, v, causal, scale))
    cases.append(("attn_fwd_tma_d64", "attn_fwd_tma_d64", f"Z4 H16 N{dim(4096, 512)} D64", lambda: attention_tma(4, 16, dim(4096, 512), 64, False)))
    cases.append(("attn_fwd_tma_d64", "attn_fwd_tma_d64", f"B4 H32 S{dim(4096, 1024)} D64", lambda: attention_tma(4, 32, dim(4096, 1024), 64, False)))
    cases.append(("attn_fwd_tma_d128_causal", "attn_fwd_tma_d128_causal", f"Z4 H16 N{dim(4096, 512)} D128 causal",
                  lambda: attention_tma(4, 16, dim(4096, 512), 128, True)))
    cases.append(("attn_fwd_tma_d128_causal", "attn_fwd_tma_d128_causal", f"B4 H32 S{dim(4096, 1024)} D128 causal",
                  lambda: attention_tma(4, 32, dim(4096, 1024), 128, True)))

    # Upstream's tutorials without TMA, as the corpus compiled them (test/fixtures/corpus/language_cases.py:
    # the kernels, and CASES: constexprs, warps, stages, and which integer arguments are multiples of 16,
    # which the shapes below keep; unit strides are constexprs, so `args` leaves them out and `jit_args`
    # gives the JIT the full list). Shapes as the tutorials run or benchmark them; masked ones where the
    # kernel masks. warps and stages are given to the JIT as the corpus compiled each kernel.
    def tut_add(n, pdl=None):
        """tut01_add; with pdl True or False, tut11_add_pdl (USE_GDC), launched with or without launch_pdl."""
        x = torch.randn(n, device=dev); y = torch.randn(n, device=dev); out = torch.empty(n, device=dev)
        library_out = torch.empty_like(x)
        c = dict(args=[x, y, out, n], out=[out], ref=[x + y], grid=(cdiv(n, 1024),), constexprs=dict(BLOCK_SIZE=1024),
                 tol=(0, 0), bytes=3 * 4 * n, jit=LC.tut01_add, jit_opts=dict(num_warps=4, num_stages=3),
                 torch=[dict(key="torch", backend="torch add", fn=lambda: torch.add(x, y, out=library_out))])
        if pdl is not None:  # tutorial 11: griddepcontrol.wait before the loads, launch_dependents after them
            c.update(constexprs=dict(BLOCK_SIZE=1024, USE_GDC=True), jit=LC.tut11_add_pdl, launch_pdl=pdl,
                     jit_opts=dict(num_warps=4, num_stages=3, launch_pdl=pdl))
        return c
    cases.append(("tut01_add", "tut01_add", "n=67108864", lambda: tut_add(1 << 26)))
    cases.append(("tut01_add", "tut01_add", "n=98432", lambda: tut_add(98432)))  # the tutorial's size: masked

    def tut_softmax(rows, cols):
        # Rows padded to a multiple of 16 elements: the corpus kernel takes strides divisible by 16.
        pitch = cdiv(cols, 16) * 16
        x = torch.randn(rows, pitch, device=dev)[:, :cols]; out = torch.empty(rows, pitch, device=dev)[:, :cols]
        ref = torch.softmax(x.double(), dim=-1).float()
        # Programs striding over the rows (the tutorial sizes its grid by occupancy; 4 per SM here).
        programs = min(rows, 4 * int(torch.cuda.get_device_properties(0).multi_processor_count))
        return dict(args=[out, x, x.stride(0), out.stride(0), rows, cols], out=[out], ref=[ref], grid=(programs,),
                    constexprs=dict(BLOCK_SIZE=1024, num_stages=4), tol=(1e-6, 1e-4), bytes=2 * 4 * rows * cols,
                    jit=LC.tut02_softmax, jit_opts=dict(num_warps=8),
                    torch=[dict(key="torch", backend="torch softmax", fn=lambda: torch.softmax(x, dim=-1))])
    cases.append(("tut02_softmax", "tut02_softmax", "32768x1024", lambda: tut_softmax(32768, 1024)))
    cases.append(("tut02_softmax", "tut02_softmax", "16384x781 (masked)", lambda: tut_softmax(16384, 781)))

    def tut_matmul(size, blocks, warps, stages, activation="", persistent=False):
        """tut03_matmul (grouped tile order, one tile per program) or tut09_matmul_persistent (NUM_SMS = 132
        programs striding over the tiles); fp16 in and out, M, N, K multiples of 16 as the corpus assumed."""
        m = n = k = size
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        ref = a.float() @ b.float()
        library = cublas(a, b, c)
        if activation == "leaky_relu":
            ref = torch.nn.functional.leaky_relu(ref, 0.01)
            matmul_call = library["fn"]
            library.update(backend="cuBLAS + torch leaky_relu",
                           fn=lambda: torch.nn.functional.leaky_relu(matmul_call(), 0.01, inplace=True))
        bm, bn, bk = blocks
        tiles = cdiv(m, bm) * cdiv(n, bn)
        constexprs = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8)
        if persistent:
            constexprs["NUM_SMS"] = persistent_programs
        else:
            constexprs["ACTIVATION"] = activation
        return dict(args=[a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0)],
                    jit_args=[a, b, c, m, n, k, a.stride(0), 1, b.stride(0), 1, c.stride(0), 1], out=[c],
                    ref=[ref.to(torch.float16)], grid=(min(persistent_programs, tiles) if persistent else tiles,),
                    constexprs=constexprs, tol=(0.25, 1e-2), flops=2 * m * n * k,
                    jit=LC.tut09_matmul_persistent if persistent else LC.tut03_matmul,
                    jit_opts=dict(num_warps=warps, num_stages=stages), torch=[library])
    # The tutorial benchmarks square fp16 matmuls up to 4096; 2000 (a multiple of 16, of no block) masks.
    cases.append(("tut03_matmul_128x256x64_s3w8", "tut03_matmul_128x256x64_s3w8", f"{dim(4096, 512)}^3",
                  lambda: tut_matmul(dim(4096, 512), (128, 256, 64), 8, 3)))
    cases.append(("tut03_matmul_128x256x64_s3w8", "tut03_matmul_128x256x64_s3w8", f"{dim(2000, 464)}^3 (masked)",
                  lambda: tut_matmul(dim(2000, 464), (128, 256, 64), 8, 3)))
    cases.append(("tut03_matmul_64x256x32_s4w4", "tut03_matmul_64x256x32_s4w4", f"{dim(4096, 512)}^3",
                  lambda: tut_matmul(dim(4096, 512), (64, 256, 32), 4, 4)))
    cases.append(("tut03_matmul_64x256x32_s4w4", "tut03_matmul_64x256x32_s4w4", f"{dim(2000, 464)}^3 (masked)",
                  lambda: tut_matmul(dim(2000, 464), (64, 256, 32), 4, 4)))
    cases.append(("tut03_matmul_128x128x32_s4w4", "tut03_matmul_128x128x32_s4w4", f"{dim(4096, 512)}^3",
                  lambda: tut_matmul(dim(4096, 512), (128, 128, 32), 4, 4)))
    cases.append(("tut03_matmul_128x128x32_s4w4", "tut03_matmul_128x128x32_s4w4", f"{dim(2000, 464)}^3 (masked)",
                  lambda: tut_matmul(dim(2000, 464), (128, 128, 32), 4, 4)))
    cases.append(("tut03_matmul_64x32x32_s5w2", "tut03_matmul_64x32x32_s5w2", f"{dim(4096, 512)}^3",
                  lambda: tut_matmul(dim(4096, 512), (64, 32, 32), 2, 5)))
    cases.append(("tut03_matmul_64x32x32_s5w2", "tut03_matmul_64x32x32_s5w2", f"{dim(2000, 464)}^3 (masked)",
                  lambda: tut_matmul(dim(2000, 464), (64, 32, 32), 2, 5)))
    cases.append(("tut03_matmul_128x128x32_s4w4_leaky_relu", "tut03_matmul_128x128x32_s4w4_leaky_relu",
                  f"{dim(4096, 512)}^3", lambda: tut_matmul(dim(4096, 512), (128, 128, 32), 4, 4, "leaky_relu")))
    cases.append(("tut03_matmul_128x128x32_s4w4_leaky_relu", "tut03_matmul_128x128x32_s4w4_leaky_relu",
                  f"{dim(2000, 464)}^3 (masked)", lambda: tut_matmul(dim(2000, 464), (128, 128, 32), 4, 4, "leaky_relu")))
    # Tutorial 09 benchmarks M = N = 8192.
    cases.append(("tut09_persistent_128x128x64_s3w8", "tut09_persistent_128x128x64_s3w8", f"{dim(8192, 1024)}^3",
                  lambda: tut_matmul(dim(8192, 1024), (128, 128, 64), 8, 3, persistent=True)))
    cases.append(("tut09_persistent_128x128x64_s3w8", "tut09_persistent_128x128x64_s3w8", f"{dim(2000, 464)}^3 (masked)",
                  lambda: tut_matmul(dim(2000, 464), (128, 128, 64), 8, 3, persistent=True)))
    cases.append(("tut09_persistent_128x256x64_s3w8", "tut09_persistent_128x256x64_s3w8", f"{dim(8192, 1024)}^3",
                  lambda: tut_matmul(dim(8192, 1024), (128, 256, 64), 8, 3, persistent=True)))
    cases.append(("tut09_persistent_128x256x64_s3w8", "tut09_persistent_128x256x64_s3w8", f"{dim(2000, 464)}^3 (masked)",
                  lambda: tut_matmul(dim(2000, 464), (128, 256, 64), 8, 3, persistent=True)))

    def philox_rand(seed, n):
        """tl.rand(seed, offsets) of a 32-bit seed (0 <= seed < 2^31) at the int32 offsets 0..n-1, in torch:
        Philox 4x32, 10 rounds (triton/language/random.py: counter (offset, 0, 0, 0), key (seed, 0)),
        whose first word becomes a float in [0, 1) as uint_to_uniform_float does. int64 arithmetic:
        the wrapped 64-bit product of two 32-bit words still holds their high word in bits 32-63."""
        c0 = torch.arange(n, device=dev, dtype=torch.int64)
        c1, c2, c3 = c0 * 0, c0 * 0, c0 * 0
        c0, c1, c2, c3 = philox_rounds(c0, c1, c2, c3, seed, 0)
        # The word as int32 x, then x < 0 ? -x - 1 : x, which is the word with all bits flipped when bit 31 is set.
        return (c0 ^ ((c0 >> 31) * 0xFFFFFFFF)).float() * 4.6566127342e-10

    def tut_dropout(n, seeded):
        p = 0.5
        x = torch.randn(n, device=dev); out = torch.empty(n, device=dev)
        if seeded:
            # Deterministic given the seed: the kept elements are those whose tl.rand exceeds p.
            seed = 1234567
            keep = philox_rand(seed, n).gt(p)
            args, jit, moved = [x, out, n, p, seed], LC.tut04_seeded_dropout, 2 * 4 * n
        else:
            keep = torch.rand(n, device=dev).gt(p)  # the tutorial's mask, as the kernel's *i1 operand
            args, jit, moved = [x, keep, out, n, p], LC.tut04_dropout, 2 * 4 * n + n
        ref = torch.where(keep, x / (1 - p), torch.zeros_like(x))
        return dict(args=args, out=[out], ref=[ref], grid=(cdiv(n, 1024),), constexprs=dict(BLOCK_SIZE=1024),
                    tol=(1e-6, 1e-6), bytes=moved, jit=jit, jit_opts=dict(num_warps=4, num_stages=3))
    cases.append(("tut04_dropout", "tut04_dropout", "n=67108864", lambda: tut_dropout(1 << 26, False)))
    cases.append(("tut04_dropout", "tut04_dropout", "n=10000019 (masked)", lambda: tut_dropout(10000019, False)))
    cases.append(("tut04_seeded_dropout", "tut04_seeded_dropout", "n=67108864", lambda: tut_dropout(1 << 26, True)))
    cases.append(("tut04_seeded_dropout", "tut04_seeded_dropout", "n=10000019 (masked)",
                  lambda: tut_dropout(10000019, True)))

    def layer_norm_problem(m, n, eps=1e-5):
        """Tutorial 05's inputs (fp16 x = -2.3 + 0.5 randn, w and b uniform, dy = 0.1 randn), the forward's
        mean and 1/std per row (fp32), and torch's layer-norm forward and backward in fp32 (autograd)."""
        x = (-2.3 + 0.5 * torch.randn(m, n, device=dev)).half()
        w = torch.rand(n, device=dev).half(); b = torch.rand(n, device=dev).half()
        dy = (0.1 * torch.randn(m, n, device=dev)).half()
        xf = x.float().requires_grad_(True); wf = w.float().requires_grad_(True); bf = b.float().requires_grad_(True)
        y = torch.nn.functional.layer_norm(xf, (n,), wf, bf, eps)
        y.backward(dy.float())
        x32 = x.float()
        mean = x32.mean(dim=1)
        rstd = torch.rsqrt(x32.var(dim=1, unbiased=False) + eps)
        xhat = (x32 - mean[:, None]) * rstd[:, None]
        return dict(x=x, w=w, b=b, dy=dy, eps=eps, y=y.detach(), dx=xf.grad, dw=wf.grad, db=bf.grad, mean=mean,
                    rstd=rstd, xhat=xhat)

    def tut_ln_fwd(m, n):
        p = layer_norm_problem(m, n)
        x, w, b = p["x"], p["w"], p["b"]
        y = torch.empty_like(x)
        mean = torch.empty(m, device=dev); rstd = torch.empty(m, device=dev)
        return dict(args=[x, y, w, b, mean, rstd, x.stride(0), n, p["eps"]], out=[y, mean, rstd],
                    ref=[p["y"].half(), p["mean"], p["rstd"]], grid=(m,), constexprs=dict(BLOCK_SIZE=4096),
                    tol=(1e-2, 1e-2), bytes=2 * 2 * m * n + 2 * 2 * n + 2 * 4 * m, jit=LC.tut05_ln_fwd,
                    jit_opts=dict(num_warps=8, num_stages=3),
                    torch=[dict(key="torch", backend="torch layer_norm",
                                fn=lambda: torch.nn.functional.layer_norm(x, (n,), w, b, p["eps"]))])
    # The tutorial benchmarks M = 4096 rows; its BLOCK_SIZE here is 4096, so N = 10000 loops three times, masked.
    cases.append(("tut05_ln_fwd", "tut05_ln_fwd", "16384x4096", lambda: tut_ln_fwd(16384, 4096)))
    cases.append(("tut05_ln_fwd", "tut05_ln_fwd", "4096x10000 (masked)", lambda: tut_ln_fwd(4096, 10000)))

    ln_group = 64  # GROUP_SIZE_M of the corpus's tut05_ln_bwd_dx: rows r with r % 64 == s share partial row s

    def tut_ln_bwd_dx(m, n):
        """dx of each row, and the rows' dy * xhat and dy summed into GROUP_SIZE_M partial rows under a
        spin lock per partial row (Lock: GROUP_SIZE_M locks, then GROUP_SIZE_M 'written once' flags,
        zero before each launch). References: torch's dx (autograd), the partial rows' sums in fp32
        (the kernel adds in fp16: rows arrive in any order), and every lock released, every flag set."""
        p = layer_norm_problem(m, n)
        x, w, dy = p["x"], p["w"], p["dy"]
        dx = torch.empty_like(x)
        dw_part = torch.empty(ln_group, n, device=dev, dtype=torch.float16); db_part = torch.empty_like(dw_part)
        lock = torch.zeros(2 * ln_group, device=dev, dtype=torch.int32).as_subclass(Accumulator)
        lock_ref = torch.cat([torch.zeros(ln_group, device=dev), torch.ones(ln_group, device=dev)])
        dy32 = dy.float()
        dw_ref = (dy32 * p["xhat"]).view(m // ln_group, ln_group, n).sum(0)
        db_ref = dy32.view(m // ln_group, ln_group, n).sum(0)
        return dict(args=[dx, dy, dw_part, db_part, x, w, p["mean"], p["rstd"], lock, x.stride(0), n],
                    out=[dx, dw_part, db_part, lock], ref=[p["dx"], dw_ref, db_ref, lock_ref], grid=(m,),
                    constexprs=dict(GROUP_SIZE_M=ln_group, BLOCK_SIZE_N=4096), tol=(3e-2, 1e-2),
                    bytes=3 * 2 * m * n + 2 * 4 * m, jit=LC.tut05_ln_bwd_dx, jit_opts=dict(num_warps=8, num_stages=3))
    # One block of BLOCK_SIZE_N = 4096 columns per row: N <= 4096 (4000 masks); M a multiple of GROUP_SIZE_M.
    cases.append(("tut05_ln_bwd_dx", "tut05_ln_bwd_dx", "4096x4096", lambda: tut_ln_bwd_dx(4096, 4096)))
    cases.append(("tut05_ln_bwd_dx", "tut05_ln_bwd_dx", "4096x4000 (masked)", lambda: tut_ln_bwd_dx(4096, 4000)))

    def tut_ln_bwd_dwdb(rows, n, from_layer_norm):
        """Column sums of the partial rows (fp32, stored fp16): with from_layer_norm, the GROUP_SIZE_M
        partial rows tut05_ln_bwd_dx leaves for an M x N backward (rows = M), against torch's dw and db
        (autograd), as the tutorial checks; otherwise rows x n random partial rows, against their sums."""
        if from_layer_norm:
            p = layer_norm_problem(rows, n)
            dy32 = p["dy"].float()
            dw_part = (dy32 * p["xhat"]).view(rows // ln_group, ln_group, n).sum(0).half()
            db_part = dy32.view(rows // ln_group, ln_group, n).sum(0).half()
            ref, m = [p["dw"], p["db"]], ln_group
        else:
            dw_part = torch.randn(rows, n, device=dev, dtype=torch.float16); db_part = torch.randn_like(dw_part)
            ref, m = [dw_part.float().sum(0), db_part.float().sum(0)], rows
        dw = torch.empty(n, device=dev, dtype=torch.float16); db = torch.empty_like(dw)
        return dict(args=[dw_part, db_part, dw, db, m, n], out=[dw, db], ref=ref, grid=(cdiv(n, 128),),
                    constexprs=dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=128), tol=(3e-2, 1e-2),
                    bytes=2 * 2 * m * n + 2 * 2 * n, jit=LC.tut05_ln_bwd_dwdb, jit_opts=dict(num_warps=4, num_stages=3))
    cases.append(("tut05_ln_bwd_dwdb", "tut05_ln_bwd_dwdb", "64x4096 (partials of a 4096x4096 backward)",
                  lambda: tut_ln_bwd_dwdb(4096, 4096, True)))
    cases.append(("tut05_ln_bwd_dwdb", "tut05_ln_bwd_dwdb", f"{dim(4001, 501)}x16368 (masked)",
                  lambda: tut_ln_bwd_dwdb(dim(4001, 501), 16368, False)))

    def tut_asin(n):
        x = torch.rand(n, device=dev) * 2 - 1  # asin's domain (the tutorial's inputs are in [0, 1))
        y = torch.empty_like(x)
        return dict(args=[x, y, n], out=[y], ref=[torch.asin(x.double()).float()], grid=(cdiv(n, 1024),),
                    constexprs=dict(BLOCK_SIZE=1024), tol=(1e-6, 1e-5), bytes=2 * 4 * n, jit=LC.tut07_asin,
                    jit_opts=dict(num_warps=4, num_stages=3),
                    torch=[dict(key="torch", backend="torch asin", fn=lambda: torch.asin(x))])
    cases.append(("tut07_asin", "tut07_asin", "n=67108864", lambda: tut_asin(1 << 26)))
    cases.append(("tut07_asin", "tut07_asin", "n=98432", lambda: tut_asin(98432)))  # the tutorial's size: masked

    def tut_grouped_matmul(sizes):
        """A group of fp16 GEMMs C = A B (row-major, each M, N multiples of 128 and K of 32: the kernel does
        not mask), through device arrays of their pointers, sizes (M, N, K) and leading dimensions
        (lda, ldb, ldc); NUM_SM = 132 programs take the tiles in turn."""
        group = [(torch.randn(m, k, device=dev, dtype=torch.float16), torch.randn(k, n, device=dev, dtype=torch.float16),
                  torch.empty(m, n, device=dev, dtype=torch.float16)) for m, n, k in sizes]
        pointers = [torch.tensor([t[i].data_ptr() for t in group], device=dev, dtype=torch.int64) for i in range(3)]
        shapes = torch.tensor([d for s in sizes for d in s], device=dev, dtype=torch.int32)
        lds = torch.tensor([d for m, n, k in sizes for d in (k, n, n)], device=dev, dtype=torch.int32)
        outs = [c for _, _, c in group]
        refs = [(a.float() @ b.float()).half() for a, b, _ in group]

        library_outs = [torch.empty_like(c) for c in outs]

        def cublas_loop():  # the tutorial's torch baseline: one torch.matmul per problem
            return [torch.matmul(a, b, out=c) for (a, b, _), c in zip(group, library_outs)][0]
        return dict(args=[*pointers, shapes, lds, len(sizes)], out=outs, ref=refs, grid=(persistent_programs,),
                    constexprs=dict(NUM_SM=persistent_programs, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32),
                    tol=(0.25, 1e-2), flops=sum(2 * m * n * k for m, n, k in sizes), jit=LC.tut08_grouped_matmul,
                    jit_opts=dict(num_warps=4, num_stages=3),
                    torch=[dict(key="torch", backend="cuBLAS, one matmul per problem", fn=cublas_loop)])
    # The tutorial's benchmark (4 problems of N x N x N) and its test (sizes 1024, 512, 256, 128).
    cases.append(("tut08_grouped_matmul", "tut08_grouped_matmul", f"4x {dim(4096, 512)}^3",
                  lambda: tut_grouped_matmul([(dim(4096, 512),) * 3] * 4)))
    cases.append(("tut08_grouped_matmul", "tut08_grouped_matmul", "1024^3, 512^3, 256^3, 128^3",
                  lambda: tut_grouped_matmul([(s, s, s) for s in (1024, 512, 256, 128)])))

    # Tutorial 11 (sm_90 only in the corpus): programmatic dependent launch. The kernel waits on
    # griddepcontrol before its loads; launched with launch_pdl (cuLaunchKernelEx with programmatic stream
    # serialization, every launcher) as the tutorial does, and plainly (griddepcontrol then a no-op).
    cases.append(("tut11_add_pdl", "tut11_add_pdl", "n=67108864 (PDL launch)", lambda: tut_add(1 << 26, pdl=True)))
    cases.append(("tut11_add_pdl", "tut11_add_pdl", "n=98432", lambda: tut_add(98432, pdl=False)))

    # Big tiles (bench/large_tiles, 4 warps, up to 2,048 fp32 elements per thread; bundles from
    # bench/build.sh): M x N not a multiple of the tile, so the edge tiles' masks are live.
    def big_tile(kernel, bm, bn, m, n):
        grid = (cdiv(m, bm), cdiv(n, bn))
        constexprs = dict(BM=bm, BN=bn)
        if kernel == "fill_constant":
            y = torch.empty(m, n, device=dev)
            return dict(args=[y, m, n, 2.5], out=[y], ref=[torch.full((m, n), 2.5, device=dev)], grid=grid,
                        constexprs=constexprs, tol=(0, 0), bytes=4 * m * n, jit=LT.fill_constant)
        x = torch.randn(m, n, device=dev)
        if kernel == "masked_fill":
            x[::7, ::5] = float("nan")
            y = torch.empty_like(x)
            return dict(args=[x, y, m, n, 2.5], out=[y], ref=[torch.where(torch.isnan(x), 2.5, x)], grid=grid,
                        constexprs=constexprs, tol=(0, 0), bytes=2 * 4 * m * n, jit=LT.masked_fill)
        y = torch.randn(m, n, device=dev); z = torch.empty_like(x)
        return dict(args=[x, y, z, m, n, 1.5], out=[z], ref=[1.5 * x + y], grid=grid, constexprs=constexprs,
                    tol=(1e-6, 1e-6), bytes=3 * 4 * m * n, jit=LT.masked_axpy)
    size = dim(8176, 1008)
    for kernel, bm, bn in [("masked_fill", 512, 512), ("masked_fill", 256, 512), ("masked_fill", 256, 256),
                           ("masked_axpy", 512, 512), ("fill_constant", 512, 512)]:
        name = f"{kernel}_{bm}x{bn}"
        cases.append((name, name, f"{size}x{size}",
                      lambda kernel=kernel, bm=bm, bn=bn: big_tile(kernel, bm, bn, size, size)))
    return cases


def load_bundle(directory, kernel):
    meta_path = os.path.join(directory, kernel + ".json")
    if not os.path.exists(meta_path):
        return None
    with open(meta_path) as f:
        meta = json.load(f)
    return meta


def compare(outs, refs, tol):
    """(every output within tolerance of its reference and free of NaN, the largest difference)"""
    ok, err = True, 0.0
    atol, rtol = tol
    for o, r in zip(outs, refs):
        diff = (o.double() - r.double()).abs()
        err = max(err, diff.max().item())
        ok = ok and not torch.isnan(o.double()).any().item() and torch.allclose(o.double(), r.double(), atol=atol, rtol=rtol)
    return ok, err


# Below this many ms a launch from Python takes about as long as the kernel: do_bench then times
# the launches' jitter as much as the kernel (the same SASS timed 0.89-1.13 of itself in one run,
# session 9), so a case whose first timing is this short is timed, for every column, from a CUDA
# graph of the launches instead.
GRAPH_TIMING_BELOW_MS = 0.05


def first_timing(c, fn):
    """The case's first timing (do_bench median of `fn`, in ms), which decides for the whole case
    whether its columns are timed from CUDA graphs (c["_graph_timing"]); None once decided."""
    if "_graph_timing" in c:
        return None
    first = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
    c["_graph_timing"] = first < GRAPH_TIMING_BELOW_MS
    return first


def time_once(row, who, fn, c):
    """One median of `fn`, in ms: triton.testing.do_bench (warmup 25 ms, rep 100 ms), or, in a case
    whose first timing is under GRAPH_TIMING_BELOW_MS (the first timing decides for the whole case),
    triton.testing.do_bench_cudagraph (rep 100 ms), row["timing"] saying so. A column that cannot be
    captured in a graph falls back to do_bench, and the row says which."""
    first = first_timing(c, fn)
    if first is not None and not c["_graph_timing"]:
        return first
    uncapturable = c.setdefault("_uncapturable", set())
    if c["_graph_timing"] and who not in uncapturable:
        try:
            torch.cuda.synchronize()
            t = triton.testing.do_bench_cudagraph(fn, rep=100, return_mode="median")
            row.setdefault("timing", "cuda graph")
            return t
        except Exception as e:
            torch.cuda.synchronize()
            uncapturable.add(who)
            row["timing"] = f"cuda graph, except {who}: {type(e).__name__}"
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def record_time(row, who, ms, c):
    row[who + "_ms"] = ms
    if "flops" in c:
        row[who + "_tflops"] = c["flops"] / (ms * 1e-3) / 1e12
    else:
        row[who + "_gbs"] = c["bytes"] / (ms * 1e-3) / 1e9


def time_into(row, who, fn, c):
    """The time of one column (a library call): the mean of two medians (time_once);
    row[who_ms] and its rate."""
    record_time(row, who, sum(time_once(row, who, fn, c) for _ in range(2)) / 2, c)


def time_columns(row, columns, c):
    """The compilers' columns of one case ({who: fn}). Launches of the columns are interleaved one by
    one (round r runs the columns in the order rotated by r), each launch after an L2 flush and timed
    with its own events, as triton.testing.do_bench times one column; each column's time is the
    median of its launches. Long matmuls on an H200 change speed within a second (power and clocks):
    timed column after column, 100 ms each, the same SASS timed 1.80 ms in one column and 2.08 ms in
    another of the same case, in both orders (session 11). Interleaved launch by launch, every column
    sees the same conditions. Cases under GRAPH_TIMING_BELOW_MS keep CUDA-graph timing (time_once),
    in two passes, the second in the reverse order."""
    names = list(columns)
    first_timing(c, columns[names[0]])
    if c["_graph_timing"]:
        samples = {who: [] for who in names}
        for order in (names, names[::-1]):
            for who in order:
                samples[who].append(time_once(row, who, columns[who], c))
        for who in names:
            record_time(row, who, sum(samples[who]) / len(samples[who]), c)
        return
    for ms, who in zip(interleaved_medians([columns[who] for who in names]), names):
        record_time(row, who, ms, c)
    row["timing"] = "interleaved"


def sustained_columns(row, columns, ms):
    """SUSTAIN_MS=ms: each column launched back to back for `ms` ms (no L2 flush), one column after
    the other, while nvidia-smi samples the SM clock and the board power every 20 ms: the time per
    launch, median MHz and W of each column (`<who>_sustain_ms`, `_sm_mhz`, `_watts`). For a kernel
    whose ratio moves between machines: does one compiler's kernel run the GPU at a lower clock
    (power limit) than the other's?"""
    import subprocess
    for who, fn in columns.items():
        fn()
        torch.cuda.synchronize()
        probe = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits",
                                  "-i", str(torch.cuda.current_device()), "-lms", "20"],
                                 stdout=subprocess.PIPE, text=True)
        start, launches = time.perf_counter(), 0
        while (time.perf_counter() - start) * 1e3 < ms:
            for _ in range(8):
                fn()
            launches += 8
            torch.cuda.synchronize()
        elapsed = (time.perf_counter() - start) * 1e3
        probe.terminate()
        samples = [line.split(",") for line in probe.communicate()[0].splitlines() if "," in line]
        # The first samples may predate the launches (nvidia-smi starts slowly): the second half.
        samples = samples[len(samples) // 2:]
        row[who + "_sustain_ms"] = elapsed / launches
        if samples:
            row[who + "_sm_mhz"] = statistics.median(float(s[0]) for s in samples)
            row[who + "_watts"] = statistics.median(float(s[1]) for s in samples)


def interleaved_medians(fns, warmup_ms=25, rep_ms_per_column=200):
    """The median time (ms) of each of `fns`, their launches interleaved (see time_columns)."""
    from triton import runtime
    cache = runtime.driver.active.get_empty_cache_for_benchmark()
    for fn in fns:
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for fn in fns:
        for _ in range(3):
            runtime.driver.active.clear_cache(cache)
            fn()
    end.record()
    torch.cuda.synchronize()
    estimate_ms = max(start.elapsed_time(end) / (3 * len(fns)), 1e-3)
    for _ in range(max(1, int(warmup_ms / estimate_ms))):
        for fn in fns:
            fn()
    rounds = max(8, min(2000, int(rep_ms_per_column / estimate_ms)))
    events = [[] for _ in fns]
    for i in interleaved_schedule(len(fns), rounds):
        pair = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
        runtime.driver.active.clear_cache(cache)
        pair[0].record()
        fns[i]()
        pair[1].record()
        events[i].append(pair)
    torch.cuda.synchronize()
    return [statistics.median(a.elapsed_time(b) for a, b in column) for column in events]


def interleaved_schedule(columns, rounds):
    """The order of the launches: `rounds` rounds (rounded up to a multiple of `columns`), round r
    running every column once, starting from column r mod columns: every column takes every place
    in a round equally often, so that a drift over the rounds costs every column the same."""
    rounds = -(-rounds // columns) * columns
    return [(k + r) % columns for r in range(rounds) for k in range(columns)]


def run_library_call(row, call, c):
    """Checks and times one of torch's library calls of a case (cuBLAS, cuBLASLt, SDPA) into
    row[key_*]; if the call raises (no such kernel in this torch, or for this shape/type),
    row[key_error] says why and the table shows '-'."""
    key = call["key"]
    try:
        with call["context"]() if "context" in call else contextlib.nullcontext():
            backend = call["backend"]
            row[key + "_backend"] = backend() if callable(backend) else backend
            out = call["fn"]()
            torch.cuda.synchronize()
            row[key + "_ok"], row[key + "_err"] = compare([out], c["ref"][:1], c["tol"])
            time_into(row, key, call["fn"], c)
    except Exception as e:
        row[key + "_error"] = f"{type(e).__name__}: {e}"


def library_cell(r):
    """The table's torch column: torch's time, the backend, cuDNN's forced time for attention."""
    if not r.get("torch_ms"):
        return "-"
    text = f"{r['torch_ms']:.4f} ({r.get('torch_backend', '?')}{'' if r.get('torch_ok') else ', wrong'})"
    if r.get("torch_cudnn_ms"):
        text += f"; cuDNN {r['torch_cudnn_ms']:.4f}{'' if r.get('torch_cudnn_ok') else ' (wrong)'}"
    return text


def moonshot_summary(rows):
    """The moonshot, from this run's rows: Tritium's fastest correct fp16 matmul at 8192^3 against
    cuBLAS's (torch.matmul on the same inputs), and Tritium's fastest correct fp8 e4m3 matmul at
    8192^3 against 1.3x that fp16 figure. Both Tritium bundles count (from upstream's TTGIR and
    from TTIR). Returns (lines to print, a dict for moonshot.json)."""
    def fastest(tag, sources):
        best = None
        for r in rows:
            if r.get("moonshot") != tag or r["shape"] != "8192^3":
                continue
            for source, label in sources:
                if r.get(source + "_ok") and r.get(source + "_tflops"):
                    if best is None or r[source + "_tflops"] > best["tflops"]:
                        best = dict(kernel=r["kernel"], source=label, ms=r[source + "_ms"], tflops=r[source + "_tflops"])
        return best
    tritium = [("tritium", "from upstream's TTGIR"), ("tritium_from_ttir", "from TTIR")]
    fp16, fp8 = fastest("fp16", tritium), fastest("fp8", tritium)
    cublas, cublas_fp8 = fastest("fp16", [("torch", "cuBLAS")]), fastest("fp8", [("torch", "cuBLASLt")])
    figure = lambda b: f"{b['tflops']:.0f} TFLOP/s ({b['kernel']} {b['source']}, {b['ms']:.4f} ms)"
    lines = ["", "Moonshot (8192^3, this run):"]
    result = dict(fp16=fp16, fp8=fp8, cublas_fp16=cublas, cublas_fp8=cublas_fp8)
    if fp16 and cublas:
        result["fp16_met"] = fp16["tflops"] >= cublas["tflops"]
        lines.append(f"- fp16 Tritium >= cuBLAS: {'met' if result['fp16_met'] else 'not met'}: Tritium {figure(fp16)} "
                     f"vs cuBLAS {figure(cublas)}, {fp16['tflops'] / cublas['tflops']:.3f}x")
    else:
        lines.append(f"- fp16 Tritium >= cuBLAS: not measured (no correct {'Tritium' if not fp16 else 'cuBLAS'} "
                     "fp16 8192^3 timing in this run)")
    if fp8 and fp16:
        result["fp8_met"] = fp8["tflops"] >= 1.3 * fp16["tflops"]
        lines.append(f"- fp8 e4m3 >= 1.3x fp16: {'met' if result['fp8_met'] else 'not met'}: Tritium fp8 {figure(fp8)} "
                     f"vs 1.3 x {fp16['tflops']:.0f} = {1.3 * fp16['tflops']:.0f} TFLOP/s, {fp8['tflops'] / fp16['tflops']:.3f}x")
    else:
        lines.append(f"- fp8 e4m3 >= 1.3x fp16: not measured (no correct Tritium {'fp8' if not fp8 else 'fp16'} "
                     "8192^3 timing in this run)")
    if cublas_fp8:
        lines.append(f"- for reference, cuBLASLt fp8 (torch._scaled_mm, fast accumulation): {figure(cublas_fp8)}"
                     + (f", {cublas_fp8['tflops'] / cublas['tflops']:.3f}x cuBLAS fp16" if cublas else ""))
    return lines, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--filter", default=".")
    parser.add_argument("--target", default="cuda90")
    # --variant NAME (repeatable): one more column per case from out/bench/NAME/<target>/<case>.ptx
    # (an experiment's PTX, e.g. Tritium's edited), launched with its own json or else Tritium's,
    # checked and timed interleaved with the compilers' columns. A json with "extra_null_args": 2
    # launches the PTX with upstream's ABI (its two trailing scratch pointers), e.g. upstream's own
    # LLVM IR put through another llc.
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args()
    torch.cuda.init()
    torch.manual_seed(0)
    rows = []
    log = open(os.path.join(args.out, "harness.log"), "w")

    def say(text):
        print(text, flush=True)
        log.write(text + "\n")

    say(f"SASS of the PTX columns: {sass_source()}")

    bench_dir = os.path.join(ROOT, "out", "bench")
    for case, kernel, shape, make in case_list():
        if not re.search(args.filter, case + " " + shape):
            continue
        row = dict(kernel=case, shape=shape)
        try:
            c = make()
            meta = load_bundle(os.path.join(bench_dir, "tritium", args.target), case)
            upstream_meta = load_bundle(os.path.join(bench_dir, "upstream", args.target), case)
            launchers = {}
            if meta:
                launchers["tritium"] = PtxKernel.from_bundle(
                    os.path.join(bench_dir, "tritium", args.target, case + ".ptx"), meta)
            ttir_meta = load_bundle(os.path.join(bench_dir, "tritium-ttir", args.target), case)
            if ttir_meta:
                launchers["tritium_from_ttir"] = PtxKernel.from_bundle(
                    os.path.join(bench_dir, "tritium-ttir", args.target, case + ".ptx"), ttir_meta)
            for variant in args.variant:
                path = os.path.join(bench_dir, variant, args.target, case + ".ptx")
                if os.path.exists(path):
                    variant_meta = load_bundle(os.path.join(bench_dir, variant, args.target), case) or meta
                    launchers["variant_" + variant] = PtxKernel.from_bundle(
                        path, variant_meta, extra_null_args=variant_meta.get("extra_null_args", 0))
            if upstream_meta:
                upstream_descriptors = upstream_meta.get("tensordesc_meta")
                if not upstream_descriptors and meta and meta.get("tensordesc_meta"):
                    # Upstream compiling TTGIR text (bench/upstream_ptx.py) reports no tensordesc_meta;
                    # Tritium's equals upstream's on every TMA fixture that has both
                    # (test/fixtures/tma/upstream_meta.json), and a wrong box would fail the check.
                    upstream_descriptors = meta["tensordesc_meta"]
                    row["triton_ptx_tensordesc_meta"] = "tritium's"
                launchers["triton_ptx"] = PtxKernel.from_bundle(
                    os.path.join(bench_dir, "upstream", args.target, case + ".ptx"), upstream_meta,
                    extra_null_args=2, tensordesc_meta=upstream_descriptors)
            if c.get("launch_pdl"):  # the PTX launchers as upstream's JIT launches with launch_pdl=True
                for launcher in launchers.values():
                    launcher.launch_pdl = True
            num_warps = (meta or upstream_meta or {}).get("num_warps", 4)
            jit = c["jit"]
            jit_args = c.get("jit_args", c["args"])
            # jit_opts may set num_warps (warp-specialized kernels: the bundles count the partitions' warps).
            jit_opts = {"num_warps": num_warps, **c.get("jit_opts", {})}
            launchers["triton_jit"] = lambda grid, a: jit[grid](*jit_args, **c["constexprs"], **jit_opts)
            # LAUNCHERS=tritium,triton_jit runs only those (e.g. to find which one faults).
            only = os.environ.get("LAUNCHERS")
            if only:
                launchers = {k: v for k, v in launchers.items() if k in only.split(",")}
            for who, launch in launchers.items():
                for o in c["out"]:
                    o.fill_(float("nan")) if o.is_floating_point() else o.fill_(-1)
                launch(c["grid"], c["args"])
                torch.cuda.synchronize()
                row[who + "_ok"], row[who + "_err"] = compare(c["out"], c["ref"], c["tol"])
            if shape != "n=98432":
                columns = {who: (lambda launch=launch: launch(c["grid"], c["args"])) for who, launch in launchers.items()}
                time_columns(row, columns, c)
                if os.environ.get("SUSTAIN_MS"):
                    sustained_columns(row, columns, float(os.environ["SUSTAIN_MS"]))
            if c.get("moonshot"):
                row["moonshot"] = c["moonshot"]
            for call in c.get("torch", []):
                if not only or call["key"] in only.split(","):
                    run_library_call(row, call, c)
        except Exception as e:  # report and go on with the next case
            row["error"] = f"{type(e).__name__}: {e}"
        rows.append(row)
        say(json.dumps(row))

    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    say("\n| kernel | shape | Tritium ms (upstream TTGIR) | Triton ms (same TTGIR) | Triton JIT ms | ratio | Tritium GB/s or TFLOP/s | correct | Tritium ms (from TTIR) | correct | torch ms (library) | Tritium/torch |")
    say("|---|---|---:|---:|---:|---:|---:|:---:|---:|:---:|---:|---:|")
    for r in rows:
        t, u, j = r.get("tritium_ms"), r.get("triton_ptx_ms"), r.get("triton_jit_ms")
        fmt = lambda x: f"{x:.4f}" if x else "-"
        ratio = f"{t / u:.2f}" if t and u else "-"
        gbs = f"{r['tritium_gbs']:.0f} GB/s" if r.get("tritium_gbs") else (
            f"{r['tritium_tflops']:.0f} TFLOP/s" if r.get("tritium_tflops") else "-")
        ok = "yes" if r.get("tritium_ok") else ("no" if "tritium_ok" in r else r.get("error", "-"))
        ttir_ok = "yes" if r.get("tritium_from_ttir_ok") else ("no" if "tritium_from_ttir_ok" in r else "-")
        library = r.get("torch_ms")
        shape = r["shape"] + (" [graph]" if r.get("timing", "").startswith("cuda graph") else "")
        say(f"| {r['kernel']} | {shape} | {fmt(t)} | {fmt(u)} | {fmt(j)} | {ratio} | {gbs} | {ok} | "
            f"{fmt(r.get('tritium_from_ttir_ms'))} | {ttir_ok} | {library_cell(r)} | "
            f"{f'{t / library:.2f}' if t and library else '-'} |")
    say(f"[graph]: timed from CUDA graphs of the launches (cases under {GRAPH_TIMING_BELOW_MS} ms), every column.")
    lines, moonshot = moonshot_summary(rows)
    for line in lines:
        say(line)
    with open(os.path.join(args.out, "moonshot.json"), "w") as f:
        json.dump(moonshot, f, indent=1)


if __name__ == "__main__":
    main()

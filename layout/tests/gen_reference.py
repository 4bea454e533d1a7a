#!/usr/bin/env python3
"""Generates tests/fixtures/oracle.json from upstream Triton 3.6.0 (pip
`triton==3.6.0`, CPU-only is enough).  The Rust tests read the JSON; they never
run Python.

    python3 layout/tests/gen_reference.py            # rewrites the fixture
    python3 layout/tests/gen_reference.py --check    # only prints a summary

Layouts are built with the Gluon builder (`triton._C.libtriton.gluon_ir`).
The Python bindings of 3.6.0 cannot convert shared layouts to linear layouts
(`to_linear_layout` aborts on them) and expose neither the layout queries nor
the conversion helpers, so those C++ functions are called directly through
ctypes: their addresses are read from libtriton.so's symbol table with `nm`
(binutils), and arguments follow the x86-64 SysV C++ ABI (hidden return
pointer first, MLIR attributes/types as one pointer, ArrayRef as pointer +
length).  Every oracle call runs in a forked child, so an upstream assertion
failure only marks that case as "upstream rejects it" instead of killing the
generator.
"""

import ctypes
import json
import os
import subprocess
import sys

import triton
import triton._C.libtriton as lt
from triton._C.libtriton import gluon_ir, ir

assert triton.__version__.startswith("3.6"), triton.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "oracle.json")

# --------------------------------------------------------------------------
# ctypes access to libtriton's internal C++ functions
# --------------------------------------------------------------------------

SYMBOLS = {
    "toLinearLayout": "_ZN4mlir6triton3gpu14toLinearLayoutEN4llvm8ArrayRefIlEENS_9AttributeE",
    "toString": "_ZNK4mlir6triton12LinearLayout8toStringB5cxx11Ev",
    "minimalCvtLayout": "_ZN4mlir16minimalCvtLayoutENS_4TypeES0_",
    "cvtReordersRegisters": "_ZN4mlir20cvtReordersRegistersENS_16RankedTensorTypeES0_",
    "cvtNeedsWarpShuffle": "_ZN4mlir19cvtNeedsWarpShuffleENS_16RankedTensorTypeES0_",
    "cvtNeedsSharedMemory": "_ZN4mlir20cvtNeedsSharedMemoryENS_16RankedTensorTypeES0_",
    "getDefaultBlockedEncoding": "_ZN4mlir6triton3gpu25getDefaultBlockedEncodingEPNS_11MLIRContextEN4llvm8ArrayRefIlEEiii",
    "toLinearEncodingTy": "_ZN4mlir6triton3gpu16toLinearEncodingENS_16RankedTensorTypeE",
    "le_getOrder": "_ZNK4mlir6triton3gpu18LinearEncodingAttr8getOrderEv",
    "le_getThreadOrder": "_ZNK4mlir6triton3gpu18LinearEncodingAttr14getThreadOrderEv",
    "le_getWarpOrder": "_ZNK4mlir6triton3gpu18LinearEncodingAttr12getWarpOrderEv",
    "le_getSizePerThread": "_ZNK4mlir6triton3gpu18LinearEncodingAttr16getSizePerThreadEv",
    "le_getContigPerThread": "_ZNK4mlir6triton3gpu18LinearEncodingAttr18getContigPerThreadEv",
    "le_getThreadsPerWarp": "_ZNK4mlir6triton3gpu18LinearEncodingAttr17getThreadsPerWarpEv",
    "le_getWarpsPerCTA": "_ZNK4mlir6triton3gpu18LinearEncodingAttr14getWarpsPerCTAEv",
    "getElemsPerThread": "_ZN4mlir6triton3gpu17getElemsPerThreadENS_9AttributeEN4llvm8ArrayRefIlEE",
    "getTotalElemsPerThread": "_ZN4mlir6triton3gpu22getTotalElemsPerThreadENS_9AttributeEN4llvm8ArrayRefIlEE",
    "getShapePerCTA": "_ZN4mlir6triton3gpu14getShapePerCTAENS_9AttributeEN4llvm8ArrayRefIlEE",
    "getCTASplitNum": "_ZN4mlir6triton3gpu14getCTASplitNumENS_9AttributeE",
    "getCTAsPerCGA": "_ZN4mlir6triton3gpu13getCTAsPerCGAENS_9AttributeE",
    "getCTAOrder": "_ZN4mlir6triton3gpu11getCTAOrderENS_9AttributeE",
    "blocked_getSizePerThread": "_ZNK4mlir6triton3gpu19BlockedEncodingAttr16getSizePerThreadEv",
    "blocked_getThreadsPerWarp": "_ZNK4mlir6triton3gpu19BlockedEncodingAttr17getThreadsPerWarpEv",
    "blocked_getWarpsPerCTA": "_ZNK4mlir6triton3gpu19BlockedEncodingAttr14getWarpsPerCTAEv",
    "blocked_getOrder": "_ZNK4mlir6triton3gpu19BlockedEncodingAttr8getOrderEv",
    "PyInit_libtriton": "PyInit_libtriton",
}

LIB_PATH = lt.__file__
_nm = subprocess.run(["nm", LIB_PATH], check=True, capture_output=True, text=True).stdout
_addr = {}
for line in _nm.splitlines():
    parts = line.split()
    if len(parts) == 3:
        _addr.setdefault(parts[2], int(parts[0], 16))
_lib = ctypes.CDLL(LIB_PATH)
_base = ctypes.cast(_lib.PyInit_libtriton, ctypes.c_void_p).value - _addr["PyInit_libtriton"]

P = ctypes.c_void_p


def _fn(name, restype, *argtypes):
    return ctypes.CFUNCTYPE(restype, *argtypes)(_base + _addr[SYMBOLS[name]])


class ArrayRef(ctypes.Structure):
    _fields_ = [("data", P), ("size", ctypes.c_size_t)]


F = {
    # void f(LinearLayout *ret, const int64_t *shape, size_t rank, Attribute)
    "toLinearLayout": _fn("toLinearLayout", None, P, P, ctypes.c_size_t, P),
    "toString": _fn("toString", None, P, P),
    "minimalCvtLayout": _fn("minimalCvtLayout", None, P, P, P),
    "cvtReordersRegisters": _fn("cvtReordersRegisters", ctypes.c_bool, P, P),
    "cvtNeedsWarpShuffle": _fn("cvtNeedsWarpShuffle", ctypes.c_bool, P, P),
    "cvtNeedsSharedMemory": _fn("cvtNeedsSharedMemory", ctypes.c_bool, P, P),
    "getDefaultBlockedEncoding": _fn("getDefaultBlockedEncoding", P, P, P, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int),
    "toLinearEncodingTy": _fn("toLinearEncodingTy", P, P),
    "getElemsPerThread": _fn("getElemsPerThread", None, P, P, P, ctypes.c_size_t),
    "getTotalElemsPerThread": _fn("getTotalElemsPerThread", ctypes.c_uint, P, P, ctypes.c_size_t),
    "getShapePerCTA": _fn("getShapePerCTA", None, P, P, P, ctypes.c_size_t),
}
for name in ["le_getOrder", "le_getThreadOrder", "le_getWarpOrder", "le_getSizePerThread",
             "le_getContigPerThread", "le_getThreadsPerWarp", "le_getWarpsPerCTA"]:
    F[name] = _fn(name, None, P, P)  # SmallVector<unsigned> f(this)
for name in ["getCTASplitNum", "getCTAsPerCGA", "getCTAOrder"]:
    F[name] = _fn(name, None, P, P)  # SmallVector<unsigned> f(Attribute)
for name in ["blocked_getSizePerThread", "blocked_getThreadsPerWarp", "blocked_getWarpsPerCTA", "blocked_getOrder"]:
    F[name] = _fn(name, ArrayRef, P)  # ArrayRef<unsigned> f(this), returned in rax:rdx


def impl_of(pyobj):
    """The MLIR storage pointer held by a pybind11-wrapped Attribute/Type."""
    holder = ctypes.c_void_p.from_address(id(pyobj) + 16).value  # pybind11 value pointer
    return ctypes.c_void_p.from_address(holder).value


def ptr_of(pyobj):
    return ctypes.c_void_p.from_address(id(pyobj) + 16).value


def ll_to_string(buf):
    s = ctypes.create_string_buffer(64)
    F["toString"](s, buf)
    data = ctypes.c_void_p.from_buffer(s, 0).value
    size = ctypes.c_size_t.from_buffer(s, 8).value
    return ctypes.string_at(data, size).decode()


def small_vector(call, elem=ctypes.c_uint32):
    buf = ctypes.create_string_buffer(512)
    call(buf)
    data = ctypes.c_void_p.from_buffer(buf, 0).value
    size = ctypes.c_uint32.from_buffer(buf, 8).value
    return list((elem * size).from_address(data)) if size else []


def i64_array(shape):
    return (ctypes.c_int64 * max(1, len(shape)))(*shape)


def array_ref_list(ref):
    return list((ctypes.c_uint32 * ref.size).from_address(ref.data)) if ref.size else []


# --------------------------------------------------------------------------
# Building layouts from the JSON specs used by the fixture
# --------------------------------------------------------------------------

ctx = ir.context()
ir.load_dialects(ctx)
builder = gluon_ir.GluonOpBuilder(ctx)
f32 = builder.get_float_ty()


def build(spec):
    k = spec["kind"]
    if k == "blocked":
        return builder.get_blocked_layout(spec["spt"], spec["tpw"], spec["wpc"], spec["order"], spec["cga"])
    if k == "slice":
        return builder.get_slice_layout(spec["dim"], build(spec["parent"]))
    if k == "mma":
        return builder.get_mma_layout(spec["version"], spec["wpc"], spec["cga"], spec["instr"])
    if k == "dot":
        return builder.get_dot_operand_layout(spec["op"], build(spec["parent"]), spec["k_width"])
    if k == "swizzled":
        return builder.get_swizzled_shared_layout(spec["vec"], spec["per_phase"], spec["max_phase"], spec["order"], spec["cga"])
    if k == "nvmma":
        return builder.get_nvmma_shared_layout(spec["swizzle"], spec["bitwidth"], spec["transposed"], spec["fp4"], spec["cga"], spec["rank"])
    if k == "linear":
        return builder.get_distributed_linear_layout(spec["reg"], spec["lane"], spec["warp"], spec["block"], spec["shape"])
    raise ValueError(k)


def in_child(fn):
    """Runs fn() in a forked child; returns its JSON result or None if it died."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            payload = json.dumps(fn()).encode()
        except BaseException as e:  # noqa: BLE001 - report any failure as a rejection
            payload = json.dumps({"__exception__": repr(e)}).encode()
        with os.fdopen(w, "wb") as f:
            f.write(payload)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return None
    result = json.loads(data)
    if isinstance(result, dict) and "__exception__" in result:
        return None
    return result


def linear_layout_string(spec, shape):
    def run():
        buf = ctypes.create_string_buffer(8192)
        F["toLinearLayout"](buf, i64_array(shape), len(shape), impl_of(build(spec)))
        return ll_to_string(buf)
    return in_child(run)


def distributed_queries(spec, shape):
    def run():
        attr = build(spec)
        impl = impl_of(attr)
        ty = builder.get_distributed_ty(f32, shape, attr)
        enc = ctypes.c_void_p(F["toLinearEncodingTy"](impl_of(ty)))
        this = ctypes.byref(enc)
        q = {}
        for key, name in [("order", "le_getOrder"), ("thread_order", "le_getThreadOrder"),
                          ("warp_order", "le_getWarpOrder"), ("size_per_thread", "le_getSizePerThread"),
                          ("contig_per_thread", "le_getContigPerThread"),
                          ("threads_per_warp", "le_getThreadsPerWarp"), ("warps_per_cta", "le_getWarpsPerCTA")]:
            q[key] = small_vector(lambda b, name=name: F[name](b, this))
        arr = i64_array(shape)
        q["elems_per_thread"] = small_vector(lambda b: F["getElemsPerThread"](b, impl, arr, len(shape)))
        q["total_elems_per_thread"] = F["getTotalElemsPerThread"](impl, arr, len(shape))
        q.update(cta_queries_impl(impl, shape))
        return q
    return in_child(run)


def cta_queries_impl(impl, shape):
    q = {}
    for key, name in [("cta_split_num", "getCTASplitNum"), ("ctas_per_cga", "getCTAsPerCGA"), ("cta_order", "getCTAOrder")]:
        q[key] = small_vector(lambda b, name=name: F[name](b, impl))
    arr = i64_array(shape)
    q["shape_per_cta"] = small_vector(lambda b: F["getShapePerCTA"](b, impl, arr, len(shape)), ctypes.c_int64)
    return q


def shared_queries(spec, shape):
    return in_child(lambda: cta_queries_impl(impl_of(build(spec)), shape))


def conversion(src, dst, shape):
    def run():
        s_ty = builder.get_distributed_ty(f32, shape, build(src))
        d_ty = builder.get_distributed_ty(f32, shape, build(dst))
        s, d = impl_of(s_ty), impl_of(d_ty)
        buf = ctypes.create_string_buffer(8192)
        F["minimalCvtLayout"](buf, s, d)
        return {
            "minimal": ll_to_string(buf),
            "reorders_registers": bool(F["cvtReordersRegisters"](s, d)),
            "needs_warp_shuffle": bool(F["cvtNeedsWarpShuffle"](s, d)),
            "needs_shared_memory": bool(F["cvtNeedsSharedMemory"](s, d)),
        }
    return in_child(run)


def default_blocked(shape, num_warps, tpw, num_ctas):
    def run():
        attr = F["getDefaultBlockedEncoding"](ptr_of(ctx), i64_array(shape), len(shape), num_warps, tpw, num_ctas)
        holder = ctypes.c_void_p(attr)
        this = ctypes.byref(holder)
        out = {key: array_ref_list(F[name](this)) for key, name in [
            ("spt", "blocked_getSizePerThread"), ("tpw", "blocked_getThreadsPerWarp"),
            ("wpc", "blocked_getWarpsPerCTA"), ("order", "blocked_getOrder")]}
        for key, name in [("cta_split_num", "getCTASplitNum"), ("ctas_per_cga", "getCTAsPerCGA"), ("cta_order", "getCTAOrder")]:
            out[key] = small_vector(lambda b, name=name: F[name](b, attr))
        buf = ctypes.create_string_buffer(8192)
        F["toLinearLayout"](buf, i64_array(shape), len(shape), attr)
        out["linear"] = ll_to_string(buf)
        return out
    return in_child(run)


# --------------------------------------------------------------------------
# The cases
# --------------------------------------------------------------------------

def blocked(spt, tpw, wpc, order, cga=()):
    return {"kind": "blocked", "spt": list(spt), "tpw": list(tpw), "wpc": list(wpc), "order": list(order), "cga": [list(b) for b in cga]}


def mma(version, wpc, instr, cga=()):
    return {"kind": "mma", "version": list(version), "wpc": list(wpc), "instr": list(instr), "cga": [list(b) for b in cga]}


def dot(op, parent, k_width):
    return {"kind": "dot", "op": op, "parent": parent, "k_width": k_width}


def slice_(dim, parent):
    return {"kind": "slice", "dim": dim, "parent": parent}


def swizzled(vec, per_phase, max_phase, order, cga=()):
    return {"kind": "swizzled", "vec": vec, "per_phase": per_phase, "max_phase": max_phase, "order": list(order), "cga": [list(b) for b in cga]}


def nvmma(swizzle, bitwidth, transposed=False, fp4=False, rank=2, cga=()):
    return {"kind": "nvmma", "swizzle": swizzle, "bitwidth": bitwidth, "transposed": transposed, "fp4": fp4, "rank": rank, "cga": [list(b) for b in cga]}


def layout_cases():
    cases = []

    def add(spec, *shapes):
        for shape in shapes:
            cases.append((spec, list(shape)))

    # Blocked 1D.
    for spt in [1, 4, 8]:
        for wpc in [1, 4, 8]:
            add(blocked([spt], [32], [wpc], [0]), [1], [16], [128], [1024], [4096])
    add(blocked([2], [64], [4], [0]), [64], [512], [2048])
    add(blocked([1], [32], [4], [0], cga=[[1], [2]]), [128], [512], [2])
    add(blocked([1], [32], [4], [0], cga=[[1], [0]]), [256], [1024])
    # Blocked 2D.
    b2 = [
        blocked([1, 4], [4, 8], [2, 2], [1, 0]),
        blocked([1, 4], [4, 8], [2, 2], [0, 1]),
        blocked([4, 1], [8, 4], [1, 4], [0, 1]),
        blocked([2, 2], [8, 4], [4, 1], [1, 0]),
        blocked([1, 1], [32, 1], [4, 1], [0, 1]),
        blocked([1, 8], [2, 16], [8, 1], [1, 0]),
        blocked([1, 1], [1, 32], [1, 4], [1, 0]),
        blocked([1, 2], [4, 16], [2, 2], [1, 0]),
    ]
    for spec in b2:
        add(spec, [1, 1], [2, 2], [16, 16], [64, 64], [128, 32], [8, 256], [256, 8], [32, 128])
    # Blocked 2D with CTA layouts (CTAsPerCGA/CTASplitNum/CTAOrder given as bases).
    cga_2d = [
        gluon_ir.make_cga_layout([2, 2], [2, 2], [1, 0]),
        gluon_ir.make_cga_layout([2, 2], [2, 1], [1, 0]),
        gluon_ir.make_cga_layout([4, 1], [4, 1], [0, 1]),
        gluon_ir.make_cga_layout([1, 4], [1, 2], [1, 0]),
        [[0, 1], [1, 0], [0, 2]],
    ]
    for cga in cga_2d:
        add(blocked([1, 4], [4, 8], [2, 2], [1, 0], cga=cga), [64, 64], [128, 256], [8, 8], [2, 512])
    # Blocked 3D.
    b3 = [
        blocked([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0]),
        blocked([1, 2, 2], [2, 4, 4], [1, 2, 2], [0, 1, 2]),
        blocked([2, 1, 1], [4, 2, 4], [2, 1, 2], [1, 2, 0]),
        blocked([1, 1, 1], [1, 1, 32], [4, 1, 1], [2, 0, 1]),
    ]
    for spec in b3:
        add(spec, [2, 16, 64], [8, 8, 8], [1, 32, 32], [16, 4, 2], [32, 64, 16])
    add(blocked([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0], cga=gluon_ir.make_cga_layout([2, 1, 2], [2, 1, 1], [2, 1, 0])), [4, 32, 64], [2, 2, 2])

    # MMA v2 (Ampere 2.0 and Turing 2.1) and v3 (Hopper).
    mma2 = [mma([2, 0], w, [16, 8]) for w in ([1, 1], [2, 2], [4, 1], [1, 4], [2, 4], [8, 1])]
    mma2.append(mma([2, 1], [2, 2], [16, 8]))
    mma2.append(mma([2, 0], [2, 2], [16, 8], cga=[[1, 0]]))
    mma2.append(mma([2, 0], [4, 2], [16, 8], cga=[[0, 1], [1, 0]]))
    for spec in mma2:
        add(spec, [16, 8], [16, 16], [32, 32], [64, 64], [128, 128], [8, 8], [256, 32], [32, 256])
    mma2_3d = [mma([2, 0], [2, 2, 1], [1, 16, 8]), mma([2, 0], [1, 2, 2], [1, 16, 8])]
    for spec in mma2_3d:
        add(spec, [2, 32, 32], [4, 16, 64], [1, 64, 16])
    mma3 = [mma([3, 0], w, [16, n, k]) for w, n, k in (
        ([4, 1], 8, 16), ([4, 1], 64, 16), ([4, 1], 128, 16), ([4, 1], 256, 16),
        ([8, 1], 128, 16), ([4, 2], 64, 16), ([4, 2], 32, 32), ([4, 1], 16, 8))]
    mma3.append(mma([3, 0], [4, 1], [16, 128, 16], cga=[[1, 0]]))
    for spec in mma3:
        add(spec, [64, 64], [128, 128], [64, 256], [128, 16], [16, 16], [256, 512])

    # Dot operands of MMA v2 (A and B) and v3 (A), kWidth 1/2/4/8.
    for parent in [mma([2, 0], [2, 2], [16, 8]), mma([2, 0], [4, 1], [16, 8]), mma([2, 0], [1, 4], [16, 8]),
                   mma([2, 0], [2, 2], [16, 8], cga=[[1, 0], [0, 1]])]:
        for op in [0, 1]:
            for kw in [1, 2, 4, 8]:
                add(dot(op, parent, kw), [16, 16], [32, 64], [64, 32], [128, 128], [16, 256])
    for op in [0, 1]:
        for kw in [2, 4]:
            add(dot(op, mma([2, 0], [2, 2, 1], [1, 16, 8]), kw), [2, 32, 32], [4, 64, 16])
    for parent in [mma([3, 0], [4, 1], [16, 64, 16]), mma([3, 0], [8, 1], [16, 128, 16]), mma([3, 0], [4, 2], [16, 32, 16])]:
        for kw in [1, 2, 4, 8]:
            add(dot(0, parent, kw), [64, 64], [128, 32], [64, 256], [16, 16])
    # FMA dot operands (blocked parent, kWidth 0).
    for parent in [b2[0], b2[2], b2[3]]:
        for op in [0, 1]:
            add(dot(op, parent, 0), [32, 32], [64, 16], [16, 128])
    add(dot(0, b3[0], 0), [2, 16, 64])

    # Slices of each distributed kind.
    for parent in b2[:4]:
        for d in [0, 1]:
            add(slice_(d, parent), [1], [16], [64], [256])
    for parent in b3[:3]:
        for d in [0, 1, 2]:
            add(slice_(d, parent), [16, 64], [4, 4], [128, 2])
    for d in [0, 1]:
        add(slice_(d, mma2[1]), [16], [64], [256])
        add(slice_(d, mma3[1]), [64], [128])
        add(slice_(d, dot(0, mma2[1], 2)), [32], [128])
        add(slice_(d, dot(1, mma2[1], 4)), [32], [128])
        add(slice_(d, blocked([1, 4], [4, 8], [2, 2], [1, 0], cga=cga_2d[0])), [64], [256])
    add(slice_(0, slice_(1, b3[0])), [64], [8])
    add(slice_(2, mma2_3d[0]), [4, 32])

    # Distributed linear layouts at other shapes (broadcast / repeat).
    lin = {"kind": "linear", "reg": [[0, 1], [8, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
           "warp": [[16, 0], [0, 0]], "block": [], "shape": [32, 8]}
    add(lin, [32, 8], [64, 64], [16, 4], [8, 8])
    lin2 = {"kind": "linear", "reg": [[1, 0], [0, 8]], "lane": [[0, 1], [0, 2], [0, 4], [2, 0], [4, 0]],
            "warp": [[0, 16], [8, 0]], "block": [], "shape": [16, 32]}
    add(lin2, [16, 32], [32, 64], [4, 4], [64, 8])

    # Swizzled shared.
    for vec, pp, mp in [(1, 1, 1), (1, 1, 4), (2, 1, 4), (4, 2, 4), (8, 1, 8), (8, 2, 4), (8, 4, 2), (4, 1, 8), (2, 2, 2), (16, 1, 8)]:
        for order in [[1, 0], [0, 1]]:
            add(swizzled(vec, pp, mp, order), [16, 16], [32, 64], [64, 32], [128, 128], [8, 128], [4, 4], [1, 64])
    add(swizzled(1, 1, 1, [0]), [16], [1024])
    add(swizzled(4, 2, 4, [0]), [64])
    for order in [[2, 1, 0], [0, 1, 2], [1, 2, 0]]:
        add(swizzled(4, 1, 8, order), [2, 32, 32], [4, 16, 64])
    add(swizzled(8, 1, 8, [1, 0], cga=cga_2d[0]), [64, 64], [128, 256])
    add(swizzled(4, 2, 4, [1, 0], cga=cga_2d[1]), [64, 64], [32, 128])
    add(swizzled(2, 1, 4, [0, 1], cga=cga_2d[2]), [128, 32])

    # NVMMA shared.
    for swz in [0, 32, 64, 128]:
        for bw in [8, 16, 32]:
            for tr in [False, True]:
                add(nvmma(swz, bw, tr), [64, 64], [128, 64], [64, 128], [8, 128], [128, 8], [256, 256], [512, 64], [16, 16], [8, 512])
    for swz in [32, 64, 128]:
        add(nvmma(swz, 8, False, fp4=True), [64, 64], [128, 32], [16, 128])
        add(nvmma(swz, 8, True, fp4=True), [64, 64], [32, 128])
    for swz in [0, 64, 128]:
        for tr in [False, True]:
            add(nvmma(swz, 16, tr, rank=3), [2, 64, 64], [4, 8, 128], [2, 128, 16])
    add(nvmma(128, 16, False, cga=[[1, 0]]), [128, 64], [256, 128])
    add(nvmma(64, 16, True, cga=[[0, 1], [1, 0]]), [128, 128])
    add(nvmma(128, 16, False, rank=1), [64], [256])
    add(nvmma(0, 32, False, rank=1), [64])
    return cases


def conversion_cases():
    pools = {
        (64, 64): [
            blocked([1, 4], [4, 8], [4, 1], [1, 0]),
            blocked([1, 4], [4, 8], [1, 4], [1, 0]),
            blocked([4, 1], [8, 4], [1, 4], [0, 1]),
            blocked([1, 1], [32, 1], [4, 1], [0, 1]),
            blocked([1, 2], [4, 8], [4, 1], [1, 0]),
            blocked([2, 2], [4, 8], [4, 1], [1, 0]),
            blocked([1, 8], [8, 4], [4, 1], [1, 0]),
            blocked([1, 4], [8, 4], [4, 1], [1, 0]),
            mma([2, 0], [4, 1], [16, 8]),
            mma([2, 0], [2, 2], [16, 8]),
            dot(0, mma([2, 0], [4, 1], [16, 8]), 2),
            dot(1, mma([2, 0], [4, 1], [16, 8]), 2),
            dot(0, mma([2, 0], [4, 1], [16, 8]), 4),
            mma([3, 0], [4, 1], [16, 64, 16]),
            dot(0, mma([3, 0], [4, 1], [16, 64, 16]), 2),
            {"kind": "linear", "reg": [[0, 2], [0, 1], [8, 0], [16, 0], [32, 0]],
             "lane": [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], "warp": [[4, 0], [0, 32]], "block": [], "shape": [64, 64]},
            # The first blocked layout with its registers permuted (register-only conversion),
            # with one register bit swapped with a lane bit (one mixed transposition),
            # and with two such swaps.
            {"kind": "linear", "reg": [[0, 2], [0, 1], [0, 32], [32, 0], [16, 0]],
             "lane": [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], "warp": [[4, 0], [8, 0]], "block": [], "shape": [64, 64]},
            {"kind": "linear", "reg": [[0, 1], [0, 4], [0, 32], [16, 0], [32, 0]],
             "lane": [[0, 2], [0, 8], [0, 16], [1, 0], [2, 0]], "warp": [[4, 0], [8, 0]], "block": [], "shape": [64, 64]},
            {"kind": "linear", "reg": [[0, 4], [0, 8], [0, 32], [16, 0], [32, 0]],
             "lane": [[0, 1], [0, 2], [0, 16], [1, 0], [2, 0]], "warp": [[4, 0], [8, 0]], "block": [], "shape": [64, 64]},
            {"kind": "linear", "reg": [[0, 1], [1, 0], [0, 32], [16, 0], [32, 0]],
             "lane": [[0, 4], [0, 8], [0, 16], [0, 2], [2, 0]], "warp": [[4, 0], [8, 0]], "block": [], "shape": [64, 64]},
        ],
        (16, 16): [
            blocked([1, 1], [4, 8], [4, 1], [1, 0]),
            blocked([1, 1], [8, 4], [4, 1], [0, 1]),
            blocked([1, 2], [8, 4], [2, 2], [1, 0]),
            mma([2, 0], [4, 1], [16, 8]),
            dot(0, mma([2, 0], [4, 1], [16, 8]), 1),
            blocked([2, 1], [8, 4], [1, 4], [0, 1]),
        ],
        (128,): [
            blocked([1], [32], [4], [0]),
            blocked([4], [32], [4], [0]),
            blocked([1], [32], [1], [0]),  # 1 warp: same num_warps needed below, kept apart
            slice_(1, blocked([1, 4], [4, 8], [4, 1], [1, 0])),
            slice_(0, blocked([1, 4], [4, 8], [4, 1], [1, 0])),
            slice_(1, mma([2, 0], [4, 1], [16, 8])),
        ],
        (8, 32, 32): [
            blocked([1, 1, 4], [1, 4, 8], [4, 1, 1], [2, 1, 0]),
            blocked([1, 4, 1], [1, 8, 4], [4, 1, 1], [1, 2, 0]),
            blocked([1, 1, 1], [2, 4, 4], [1, 2, 2], [2, 1, 0]),
        ],
    }
    cases = []
    for shape, pool in pools.items():
        for src in pool:
            for dst in pool:
                if warps_of(src) == warps_of(dst):
                    cases.append((src, dst, list(shape)))
    return cases


def warps_of(spec):
    k = spec["kind"]
    if k in ("blocked", "mma"):
        n = 1
        for w in spec["wpc"]:
            n *= w
        return n
    if k in ("slice", "dot"):
        return warps_of(spec["parent"])
    if k == "linear":
        return 2 ** len(spec["warp"])
    return None


def default_blocked_cases():
    return [
        (shape, w, t, c)
        for shape in ([128], [1024], [16, 16], [64, 64], [128, 32], [2, 256], [4, 8, 16], [1, 1], [8, 2, 2, 64])
        for w in (1, 4, 8)
        for t in (32, 64)
        for c in (1, 2, 4)
    ]


def split_param_cases():
    return [
        ([2, 2], [2, 2], [1, 0]), ([2, 2], [2, 1], [1, 0]), ([4, 2], [2, 2], [0, 1]),
        ([1, 1], [1, 1], [1, 0]), ([8], [2], [0]), ([2, 1, 4], [1, 1, 4], [2, 1, 0]), ([4, 4], [1, 4], [0, 1]),
    ]


def main():
    check_only = "--check" in sys.argv
    fixture = {
        "generator": "layout/tests/gen_reference.py",
        "triton_version": triton.__version__,
        "layouts": [],
        "conversions": [],
        "default_blocked": [],
        "split_params": [],
    }
    for spec, shape in layout_cases():
        entry = {"layout": spec, "shape": shape, "linear": linear_layout_string(spec, shape)}
        if entry["linear"] is not None:
            if spec["kind"] in ("swizzled", "nvmma"):
                entry["queries"] = shared_queries(spec, shape)
            else:
                entry["queries"] = distributed_queries(spec, shape)
        fixture["layouts"].append(entry)
    for src, dst, shape in conversion_cases():
        fixture["conversions"].append({"src": src, "dst": dst, "shape": shape, "result": conversion(src, dst, shape)})
    for shape, w, t, c in default_blocked_cases():
        fixture["default_blocked"].append({"shape": shape, "num_warps": w, "threads_per_warp": t, "num_ctas": c,
                                           "result": default_blocked(shape, w, t, c)})
    for ctas, split, order in split_param_cases():
        fixture["split_params"].append({"ctas_per_cga": ctas, "cta_split_num": split, "cta_order": order,
                                        "bases": gluon_ir.make_cga_layout(ctas, split, order)})

    rejected = sum(1 for e in fixture["layouts"] if e["linear"] is None)
    failed_cvt = sum(1 for e in fixture["conversions"] if e["result"] is None)
    print(f"{len(fixture['layouts'])} layout cases ({rejected} rejected by upstream), "
          f"{len(fixture['conversions'])} conversions ({failed_cvt} rejected), "
          f"{len(fixture['default_blocked'])} default-blocked cases, {len(fixture['split_params'])} split-param cases")
    if not check_only:
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        # One case per line: compact, yet diffs stay readable.
        with open(OUT, "w") as f:
            f.write("{\n")
            items = list(fixture.items())
            for i, (key, value) in enumerate(items):
                sep = "," if i + 1 < len(items) else ""
                if isinstance(value, list):
                    f.write(f"{json.dumps(key)}: [\n")
                    f.write(",\n".join(json.dumps(v, separators=(",", ":")) for v in value))
                    f.write(f"\n]{sep}\n")
                else:
                    f.write(f"{json.dumps(key)}: {json.dumps(value)}{sep}\n")
            f.write("}\n")
        print("wrote", OUT)


if __name__ == "__main__":
    main()

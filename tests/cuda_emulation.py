"""Run generated CUDA on the CPU: ``tests/cuda_emu/cuda_runtime.h`` emulates blocks,
threads (fibers), ``__syncthreads`` and warp shuffles, so the CUDA templates' index
arithmetic, reductions, tiling and host-driven control flow can be checked against the
C backend on machines without a GPU (``tests/test_codegen_cuda_emulated.py``).

The CUDA source is the one ``render_module(..., target="cuda")`` produces; the launch
syntax ``k<<<grid, block, smem, stream>>>(args)`` is rewritten to a call of
``tp_emu_launch`` and the file compiled as C++ with the system compiler.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import cffi
import numpy as np

from transpile.codegen.plan import plan_program
from transpile.codegen.render import render_module
from transpile.passes import optimize
from transpile.resources import runtime_dir

EMU_DIR = Path(__file__).resolve().parent / "cuda_emu"
_LAUNCH = re.compile(r"([A-Za-z_]\w*(?:<\w+>)?)<<<(.*?)>>>\((.*)\);")


def _split_top(text: str) -> list:
    """``text`` split at the commas outside parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur.strip())
    return parts


def rewrite_launches(source: str) -> str:
    """Every ``k<<<g, b, smem, stream>>>(args);`` as ``tp_emu_launch(dim3(g), dim3(b),
    [&]() { k(args); });``."""
    def sub(m):
        grid, block = _split_top(m.group(2))[:2]
        return (f"tp_emu_launch(dim3({grid}), dim3({block}), [&]() "
                f"{{ {m.group(1)}({m.group(3)}); }});")
    return _LAUNCH.sub(sub, source)


def compiler() -> str | None:
    return shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")


class EmulatedProgram:
    """One entry point of an emulated library, called like ``Executable``: flat
    argument values in, NumPy results out."""

    def __init__(self, lib, ffi, program, consts):
        self._fn = getattr(lib, program.name)
        self._ffi = ffi
        self.workspace = int(getattr(lib, f"{program.name}_workspace_size")())
        self.program = program
        self.consts = [np.ascontiguousarray(np.asarray(c), b.aval.dtype).reshape(b.aval.shape)
                       for c, b in zip(consts, program.consts, strict=True)]

    def __call__(self, args) -> list:
        p, ffi = self.program, self._ffi
        # (ascontiguousarray alone would make a 0-d value 1-d)
        keep = [np.ascontiguousarray(np.asarray(a), b.aval.dtype).reshape(b.aval.shape)
                for a, b in zip(args, p.inputs, strict=True)]
        keep += self.consts
        # a GPU's fresh allocations hold what the last user left there: the outputs and
        # the workspace start as garbage (0xA5 bytes) so that reading one before writing
        # it shows here too
        outs = [np.frombuffer(bytes([0xA5]) * (b.aval.size * b.aval.dtype.itemsize),
                              b.aval.dtype).reshape(b.aval.shape).copy() for b in p.outputs]
        ws = np.full(self.workspace + 64, 0xA5, np.uint8)
        ws_ptr = ffi.from_buffer(ws)
        ws_ptr = ffi.cast("char *", ws_ptr) + (-int(ffi.cast("uintptr_t", ws_ptr)) % 64)
        ptrs = [ffi.from_buffer(a) for a in keep + outs]
        status = self._fn(*ptrs, ws_ptr if self.workspace else ffi.NULL, ffi.NULL)
        assert status == 0, f"{p.name} returned {status}"
        result = []
        for kind, what in p.out_sources:
            if kind == "buffer":
                result.append(outs[what])
            elif kind == "input":
                result.append(keep[what])
            elif kind == "const":
                result.append(self.consts[what])
            else:
                result.append(np.asarray(what.val, what.aval.dtype))
        return result


def build_emulated(named: list, folder: Path) -> list:
    """Render ``(name, ClosedJaxpr)`` pairs as one CUDA module, compile it for the
    emulator in ``folder`` and return an ``EmulatedProgram`` per pair."""
    items = []
    for name, closed in named:
        opt = optimize(closed)
        items.append((opt, plan_program(opt, f"jit_{name}", fuse_rows=False)))
    source, cdef = render_module([(p, str(opt)) for opt, p in items], target="cuda")
    include = folder / "include"
    include.mkdir(parents=True, exist_ok=True)
    shutil.copy(EMU_DIR / "cuda_runtime.h", include / "cuda_runtime.h")
    (include / "tp_cuda.h").write_text(rewrite_launches(
        (runtime_dir() / "tp_cuda.h").read_text()))
    src = folder / "module.cpp"
    src.write_text(rewrite_launches(source))
    lib_path = folder / "module.so"
    # -ffp-contract=off: nvcc's --fmad=false (the C++ default would fuse a * b + c)
    cmd = [compiler(), "-std=c++17", "-O1", "-ffp-contract=off", "-fPIC", "-shared", "-w",
           f"-I{include}",
           f"-I{runtime_dir()}", str(src), "-o", str(lib_path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"emulated build failed:\n{proc.stderr[-4000:]}")
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    lib = ffi.dlopen(str(lib_path))
    return [EmulatedProgram(lib, ffi, p, opt.consts) for opt, p in items]


def assert_same_result(got, want, name: str) -> None:
    """The CUDA backend's result against the C backend's: integers, booleans and keys
    bit for bit; floats within their rounding (a GPU sums in another order, and libm's
    pow/cbrt/fmod may differ by an ulp), NaNs and infinities in the same places."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, \
        f"{name}: {got.dtype}{got.shape} != {want.dtype}{want.shape}"
    if want.dtype.kind == "c":  # complex: each part as a float
        part = np.float32 if want.dtype == np.complex64 else np.float64
        got, want = got.reshape(-1).view(part), want.reshape(-1).view(part)
    if want.dtype.kind != "f":
        assert got.tobytes() == want.tobytes(), \
            f"{name}: {got.ravel()[:8]} != {want.ravel()[:8]}"
        return
    rtol = {2: 2e-3, 4: 2e-5, 8: 1e-12}[want.dtype.itemsize]
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), f"{name}: NaNs differ"
    inf = np.isinf(want)
    assert np.array_equal(got[inf], want[inf]), f"{name}: infinities differ"
    finite = ~nan & ~inf
    scale = max(1.0, float(np.max(np.abs(want[finite]), initial=0.0)))
    np.testing.assert_allclose(got[finite], want[finite], rtol=rtol, atol=rtol * scale,
                               err_msg=name)


__all__ = ["build_emulated", "rewrite_launches", "compiler", "assert_same_result"]

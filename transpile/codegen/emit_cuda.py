"""What the CUDA rendering adds to a C kernel plan: launch geometry and scratch.

The kernel plans (``plan.py``, ``kernels.py``) are the same for both targets: their
statements are C expressions, which CUDA compiles unchanged (the runtime headers are
``__device__`` code under nvcc, see ``runtime/transpile_macros.h``). A kernel whose
template has a CUDA version under ``templates/cuda/`` is *native*: ``kernel_view``
supplies its grid sizes (fixed by the shapes, never by the device, so results do not
depend on the GPU model) and its scratch bytes. Any other kernel runs its C template as
a ``__device__`` function on one thread (``templates/cuda/serial.j2``): correct, slow,
meant for kernels that are rare or small on a GPU.
"""
from __future__ import annotations

import numpy as np

from ..resources import templates_dir
from .cuda_launch import BLOCK, MAX_GRID, _grid
from .cuda_launch import LAUNCH as _NATIVE_EXTRA  # the other templates

__all__ = ["kernel_view", "check_supported", "native_templates", "BLOCK", "MAX_GRID"]

#: Blocks of a full reduction's first pass at most (its partials are combined by one).
REDUCE_GRID = 1024
#: Elements each thread of a full reduction takes at least.
REDUCE_PER_THREAD = 8
#: A row reduction gives each output a block of its own from this many elements.
BLOCK_PER_OUTPUT_MIN = 512
#: A grid's y and z dimensions are at most this.
MAX_GRID_YZ = 65535


def native_templates() -> frozenset:
    """The kernel templates with a CUDA version of their own."""
    return frozenset(p.name for p in (templates_dir() / "cuda").glob("kernel_*.j2"))


def _loop(k) -> dict:
    size = int(np.prod([extent for _, extent in k.fields.loops], dtype=np.int64))
    return dict(cuda=dict(size=size, grid=_grid(size)), scratch_exprs=[])


def _reduce(k) -> dict:
    f = k.fields
    if f.mode == "full":
        grid = _grid(f.total, REDUCE_PER_THREAD, REDUCE_GRID)
        return dict(cuda=dict(grid=grid),
                    scratch_exprs=[f"(int64_t){grid} * (int64_t)sizeof({f.acc_type})"])
    if f.mode == "cols":
        return dict(cuda=dict(grid=_grid(f.n_out)), scratch_exprs=[])
    per_block = f.red_size >= BLOCK_PER_OUTPUT_MIN and not f.ordered
    grid = max(1, min(f.n_out, MAX_GRID)) if per_block else _grid(f.n_out)
    return dict(cuda=dict(grid=grid, block_per_output=per_block), scratch_exprs=[])


def _dot(k) -> dict:
    f = k.fields
    double = f.acc_type in ("double", "uint64_t")
    # 128x128 tiles of 8x8 per thread for float32 (the register blocking that keeps the
    # FMA units busy); 64x64 tiles of 4x4 where each accumulator takes two registers.
    bm, bn, tm, tn, bk = (64, 64, 4, 4, 16) if double else (128, 128, 8, 8, 8)
    tiles_m = -(-max(f.M, 1) // bm)
    c = dict(bm=bm, bn=bn, tm=tm, tn=tn, bk=bk, tiles_m=tiles_m,
             grid_x=max(1, -(-f.N // bn)), grid_y=max(1, min(tiles_m, MAX_GRID_YZ)),
             grid_z=max(1, min(f.B, MAX_GRID_YZ)),
             fma=f.acc_type in ("float", "double"))
    for side in ("a", "b"):
        plan = getattr(f, side)["copy_plan"]
        if plan:
            c[f"copy_grid_{side}"] = _grid(plan["size"])
    scratch = [f"(int64_t){f.copies_bytes}"] if f.copies_bytes else []
    return dict(cuda=c, scratch_exprs=scratch)


_VIEWS = {"kernel_loop.j2": _loop, "kernel_loop_blocked.j2": _loop,
          "kernel_reduce.j2": _reduce, "kernel_dot.j2": _dot}


def kernel_view(k, view: dict) -> dict:
    """The CUDA fields of kernel plan ``k``: ``native`` (whether its template has a CUDA
    version), ``cuda`` (launch geometry for that template) and ``scratch_exprs`` (C
    expressions of the device scratch bytes it needs)."""
    rule = _VIEWS.get(k.template)
    if rule is not None and k.template in native_templates():
        return dict(native=True, **rule(k))
    extra = _NATIVE_EXTRA.get(k.template)
    if extra is not None and k.template in native_templates():
        return dict(native=True, **extra(k))
    # (the CPU matmul's packing workspace is not the device's)
    return dict(native=False, cuda={}, scratch_exprs=[
        s.c_expr() for s in k.fields.scratch if s.gemm is None])


def check_supported(program) -> None:
    """Raise ``NotImplementedError`` for what the CUDA backend cannot run yet."""
    if any(k.template == "kernel_rows.j2" for k in program.kernels):
        raise ValueError("a program planned for C (row-fused kernels) rendered for CUDA: "
                         "plan it with plan_program(..., fuse_rows=False)")
    if any(k.template == "kernel_fft.j2" for k in program.kernels):
        raise NotImplementedError("the CUDA backend has no FFT kernel yet; jit this "
                                  "function for the CPU backend (backend='cpu')")
    if any(str(getattr(k.fields, "fn", "")).endswith(("_c64", "_c128"))
           and str(k.fields.fn).startswith("tp_") for k in program.kernels):
        raise NotImplementedError("the CUDA backend has no complex linear-algebra kernels "
                                  "yet; jit this function for the CPU backend "
                                  "(backend='cpu')")
    c_only = {"kernel_eig.j2": "eig, schur, hessenberg or householder_product",
              "kernel_rng_bit_generator.j2": "rng_bit_generator"}  # (C kernels only)
    for what in sorted({c_only[k.template] for k in program.kernels if k.template in c_only}):
        raise NotImplementedError(f"the CUDA backend has no kernel for {what} yet; jit this "
                                  "function for the CPU backend (backend='cpu')")
    if program.host_callbacks:
        names = sorted({prim.name for prim, *_ in program.host_callbacks})
        raise NotImplementedError(
            f"the CUDA backend cannot run host callbacks yet ({', '.join(names)}); "
            "jit this function for the CPU backend (backend='cpu')")

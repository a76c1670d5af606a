"""Kernels of ``top_k``, ``cholesky`` and ``triangular_solve``: each a kernel of its own (never fused), with
its helpers in ``runtime/tp_linalg.h``.

``top_k`` walks the slices along its axis: each slice's values become unsigned keys in
the scratch space (ordered as ``top_k`` ranks values: ``tp_topk_key_*``), then the
positions of the ``k`` largest are picked (``tp_top_k_order``) and both outputs written.
``cholesky`` runs ``tp_cholesky_f32``/``_f64`` on each matrix of the batch, in parallel
over the batch when there is enough work. ``triangular_solve`` runs
``tp_triangular_solve_f32``/``_f64`` (forward or back substitution) on each pair of
matrices of the batch, the same way. ``lu`` runs ``tp_lu_f32``/``_f64`` (partial
pivoting) on each matrix of the batch and writes its three outputs; ``qr`` runs
``tp_qr_f32``/``_f64`` (Householder) with its work matrix in the scratch space, and
``eigh`` ``tp_eigh_f32``/``_f64`` (Householder + implicit QL) and ``svd`` ``tp_svd_f32``/``_f64``
(bidiagonalisation + implicit QR) the same way; complex matrices run the ``_c64``/``_c128`` helpers
of ``runtime/tp_linalg_complex.h`` (C only); ``tridiagonal_solve`` runs
``tp_tridiagonal_solve_f32``/``_f64`` (Thomas) on each system in turn.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..lax import (linalg, linalg_eigh, linalg_qr, linalg_svd, linalg_svd_real,
                   linalg_tridiagonal)
from ..lax import sorting as sort_mod
from . import eig_kernels
from .kernel_plans import (CholeskyPlan, EighPlan, LuPlan, QrPlan, Scratch, SvdPlan,
                           TopKPlan, TriangularSolvePlan, TridiagonalSolvePlan)

__all__ = ["RULES"]

#: Below this many multiply-adds (batch * n^3 / 3) a cholesky runs on one thread.
PARALLEL_MIN_FLOPS = 1 << 18


def _key_expr(dtype, value: str) -> str:
    dt = np.dtype(dtype)
    if dtypes.half_name(dt):
        return f"tp_topk_key_{dtypes.half_name(dt)}({value})"
    if dtypes.is_float(dt):
        return f"tp_topk_key_f{dt.itemsize * 8}({value})"
    if dt.kind == "i":
        return f"tp_topk_key_i64((int64_t){value})"
    return f"tp_topk_key_u64((uint64_t){value})"  # unsigned and bool


def _top_k(e, ins, outs) -> tuple:
    x = ins[0]
    axis, k = e.params["axis"], e.params["k"]
    shape = x.aval.shape
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    n = int(shape[axis])
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    if outer * inner * k == 0:  # nothing to write
        outer = 0
    fields = TopKPlan(outer=outer, n=n, n_alloc=max(n, 1), inner=inner, k=k, src=x.name,
                  out_values=outs[0].name, out_indices=outs[1].name,
                  key=_key_expr(x.aval.dtype, f"{x.name}[src + s * {inner}]"),
                  scratch=[Scratch(3 * max(n, 1) * 8)])
    return "kernel_top_k.j2", fields


def _sfx(dt) -> str:
    """The suffix of a ``tp_linalg.h`` helper for ``dt``: f32, f64, c64 or c128."""
    dt = np.dtype(dt)
    return f"{'c' if dt.kind == 'c' else 'f'}{dt.itemsize * 8}"


def _ctype(dt) -> str:
    """The C type of ``dt``'s elements in the linear-algebra helpers."""
    return {"f32": "float", "f64": "double", "c64": "tp_c64", "c128": "tp_c128"}[_sfx(dt)]


def _cholesky(e, ins, outs) -> tuple:
    x, o = ins[0], outs[0]
    dt = x.aval.dtype
    linalg._check_supported(dt)
    n = int(x.aval.shape[-1])
    batch = int(np.prod(x.aval.shape[:-2], dtype=np.int64)) if n else 0
    fields = CholeskyPlan(batch=batch, n=n, src=x.name, dst=o.name,
                  fn=f"tp_cholesky_{_sfx(dt)}",
                  parallel=batch > 1 and batch * n ** 3 // 3 >= PARALLEL_MIN_FLOPS)
    return "kernel_cholesky.j2", fields


def _triangular_solve(e, ins, outs) -> tuple:
    a, b, o = ins[0], ins[1], outs[0]
    dt = b.aval.dtype
    linalg._check_supported(dt, "triangular_solve")
    linalg.check_batch(a.aval.shape, b.aval.shape)
    m, n = (int(d) for d in b.aval.shape[-2:])
    size = int(a.aval.shape[-1])
    batch = int(np.prod(b.aval.shape[:-2], dtype=np.int64)) if m * n else 0
    p = e.params
    # the complex helper also takes conjugate_a
    names = ("left_side", "lower", "transpose_a") + (
        ("conjugate_a",) if dt.kind == "c" else ()) + ("unit_diagonal",)
    fields = TriangularSolvePlan(batch=batch, m=m, n=n, a=a.name, src=b.name, dst=o.name,
                  a_stride=size * size, fn=f"tp_triangular_solve_{_sfx(dt)}",
                  flags=", ".join(str(int(bool(p[k]))) for k in names),
                  parallel=batch > 1 and batch * size * m * n // 2 >= PARALLEL_MIN_FLOPS)
    return "kernel_triangular_solve.j2", fields


def _lu(e, ins, outs) -> tuple:
    x = ins[0]
    dt = x.aval.dtype
    linalg._check_supported(dt, "lu")
    m, n = (int(d) for d in x.aval.shape[-2:])
    batch = int(np.prod(x.aval.shape[:-2], dtype=np.int64)) if m * n else 0
    fields = LuPlan(batch=batch, m=m, n=n, k=min(m, n), src=x.name, dst=outs[0].name,
                  pivots=outs[1].name, permutation=outs[2].name,
                  fn=f"tp_lu_{_sfx(dt)}",
                  parallel=batch > 1 and batch * m * n * min(m, n) // 3 >= PARALLEL_MIN_FLOPS)
    return "kernel_lu.j2", fields


def _qr(e, ins, outs) -> tuple:
    x = ins[0]
    dt = x.aval.dtype
    linalg._check_supported(dt, "qr")
    m, n = (int(d) for d in x.aval.shape[-2:])
    k = min(m, n)
    full = bool(e.params["full_matrices"])
    qc = m if full else k
    pivoting = bool(e.params["pivoting"])
    batch = int(np.prod(x.aval.shape[:-2], dtype=np.int64)) if m * qc or (
        pivoting and n) else 0
    work = m * n + k + max(m, n)
    parallel = batch > 1 and batch * m * n * k >= PARALLEL_MIN_FLOPS
    fields = QrPlan(batch=batch, m=m, n=n, full=int(full), q_size=m * qc,
                  r_size=qc * n, work=work, ctype=_ctype(dt),
                  src=x.name, q=outs[0].name, r=outs[1].name, fn=f"tp_qr_{_sfx(dt)}",
                  perm=outs[2].name if pivoting else "",
                  parallel=parallel,
                  scratch=[Scratch(work * dt.itemsize * (batch if parallel else 1))])
    return "kernel_qr.j2", fields


def _eigh(e, ins, outs) -> tuple:
    x = ins[0]
    dt = x.aval.dtype
    linalg._check_supported(dt, "eigh")
    n = int(x.aval.shape[-1])
    batch = int(np.prod(x.aval.shape[:-2], dtype=np.int64)) if n else 0
    work = linalg_eigh.work_elements(n)
    parallel = batch > 1 and batch * n ** 3 >= PARALLEL_MIN_FLOPS
    fields = EighPlan(batch=batch, n=n, lower=int(bool(e.params["lower"])),
                  sort=int(bool(e.params["sort_eigenvalues"])), work=work,
                  ctype=_ctype(dt), src=x.name,
                  v=outs[0].name, w=outs[1].name, fn=f"tp_eigh_{_sfx(dt)}",
                  parallel=parallel,
                  scratch=[Scratch(work * dt.itemsize * (batch if parallel else 1))])
    return "kernel_eigh.j2", fields


def _svd(e, ins, outs) -> tuple:
    x = ins[0]
    dt = x.aval.dtype
    linalg._check_supported(dt, "svd")
    m, n = (int(d) for d in x.aval.shape[-2:])
    k = min(m, n)
    full = bool(e.params["full_matrices"])
    uv = bool(e.params["compute_uv"])
    batch = int(np.prod(x.aval.shape[:-2], dtype=np.int64))
    if m * n == 0 and not (uv and full and m + n):
        batch = 0  # nothing to compute (empty outputs, or a zero-size s only)
    if dt.kind == "c":  # real elements: the parts of the complex matrices, then d, e...
        work = linalg_svd.work_elements(m, n, full) * dt.itemsize // 2
    else:  # tp_svd.h's bidiagonalisation + QR
        work = linalg_svd_real.work_elements(m, n, full) * dt.itemsize
    parallel = batch > 1 and batch * m * n * k >= PARALLEL_MIN_FLOPS
    uc, vr = (m, n) if full else (k, k)
    fields = SvdPlan(batch=batch, m=m, n=n, k=k, full=int(full), u_size=m * uc,
                  vt_size=vr * n, work=work, src=x.name, s=outs[0].name,
                  u=outs[1].name if uv else "", vt=outs[2].name if uv else "",
                  fn=f"tp_svd_{_sfx(dt)}", parallel=parallel,
                  scratch=[Scratch(work * (batch if parallel else 1))])
    return "kernel_svd.j2", fields


def _tridiagonal(e, ins, outs) -> tuple:
    dl, d, du, b = ins
    dt = b.aval.dtype
    linalg._check_supported(dt, "tridiagonal_solve")
    m, k = (int(v) for v in b.aval.shape[-2:])
    batch = int(np.prod(b.aval.shape[:-2], dtype=np.int64)) if m * k else 0
    fields = TridiagonalSolvePlan(batch=batch, m=m, k=k,
                                  ctype=_ctype(dt),
                                  dl=dl.name, d=d.name, du=du.name, src=b.name,
                                  dst=outs[0].name, fn=f"tp_tridiagonal_solve_f{dt.itemsize * 8}",
                                  scratch=[Scratch(max(m, 1) * dt.itemsize)])
    return "kernel_tridiagonal_solve.j2", fields


#: primitive -> builder(eqn, input buffers, output buffers) -> (template, fields)
RULES = {sort_mod.top_k_p: _top_k, linalg.cholesky_p: _cholesky,
         linalg.triangular_solve_p: _triangular_solve, linalg.lu_p: _lu,
         linalg_qr.qr_p: _qr, linalg_eigh.eigh_p: _eigh, linalg_svd.svd_p: _svd,
         linalg_tridiagonal.tridiagonal_solve_p: _tridiagonal,
         **eig_kernels.RULES}  # the nonsymmetric eigenproblem (eig_kernels.py)

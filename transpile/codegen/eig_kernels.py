"""Kernels of the nonsymmetric eigenproblem: ``hessenberg``, ``householder_product``,
``schur`` and ``eig`` (``templates/c/kernel_eig.j2``, helpers in ``runtime/tp_eig.h``:
Householder reduction, Francis double-shift QR for real matrices, single-shift complex
QR for complex ones, back substitution; see there).

Each runs its ``tp_*_f32``/``_f64``/``_c64``/``_c128`` function on every matrix of the
batch, in parallel over the batch when there is enough work, with its work space in the
scratch area (one per matrix when parallel). The complex functions take one more work
argument (the reflector helper's row of sums).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lax import linalg_eig, linalg_schur
from .kernel_plans import KernelFields, Scratch

__all__ = ["EigPlan", "RULES"]

#: Below this many multiply-adds (batch * 10 n^3) a batch runs on one thread.
PARALLEL_MIN_FLOPS = 1 << 18


@dataclass(kw_only=True)
class EigPlan(KernelFields):
    """``kernel_eig.j2``: ``call`` runs on matrix ``b`` with ``work`` (``work`` elements
    of ``ctype`` per matrix when ``parallel``)."""
    batch: int
    call: str
    ctype: str
    work: int
    parallel: bool


def _plan(x, n: int, work: int, call: str, flops_per_matrix: int) -> EigPlan:
    dt = np.dtype(x.aval.dtype)
    batch = int(np.prod(x.aval.shape[:-2], dtype=np.int64)) if n else 0
    parallel = batch > 1 and batch * flops_per_matrix >= PARALLEL_MIN_FLOPS
    ctype = {"f": "float", "d": "double", "F": "tp_c64", "D": "tp_c128"}[dt.char]
    return EigPlan(batch=batch, call=call, ctype=ctype, work=work, parallel=parallel,
                   scratch=[Scratch(max(work, 1) * dt.itemsize * (batch if parallel else 1))])


def _sfx(x) -> str:
    dt = np.dtype(x.aval.dtype)
    return f"{dt.kind}{dt.itemsize * 8}"


def _cplx(x) -> bool:
    return np.dtype(x.aval.dtype).kind == "c"


def _hessenberg(e, ins, outs):
    x = ins[0]
    linalg_schur._check_supported(x.aval.dtype, "hessenberg")
    n = int(x.aval.shape[-1])
    h, taus = outs[0].name, outs[1].name
    call = (f"memcpy({h} + b * {n * n}, {x.name} + b * {n * n}, {n * n} * sizeof(*{h})); "
            f"tp_hessenberg_{_sfx(x)}({h} + b * {n * n}, {taus} + b * {max(n - 1, 0)}, {n}"
            f"{', work' if _cplx(x) else ''})")
    if n <= 1:
        call = f"memcpy({h} + b * {n * n}, {x.name} + b * {n * n}, {n * n} * sizeof(*{h}))"
    return "kernel_eig.j2", _plan(x, n, n if _cplx(x) else 0, call, 10 * n ** 3 // 3)


def _householder_product(e, ins, outs):
    a, taus = ins
    linalg_schur._check_supported(a.aval.dtype, "householder_product")
    m, n = (int(d) for d in a.aval.shape[-2:])
    k = int(taus.aval.shape[-1])
    call = (f"tp_householder_product_{_sfx(a)}({a.name} + b * {m * n}, {n}, "
            f"{taus.name} + b * {k}, {m}, {n}, {k}, {outs[0].name} + b * {m * n}, {n}"
            f"{', work' if _cplx(a) else ''})")
    return "kernel_eig.j2", _plan(a, m * n, n if _cplx(a) else 0, call, 2 * m * n * k)


def _schur(e, ins, outs):
    x = ins[0]
    if e.params["sort_eig_vals"]:
        raise NotImplementedError("The sort feature of LAPACK's gees routine is not "
                                  "implemented.")
    linalg_schur._check_supported(x.aval.dtype, "schur")
    n = int(x.aval.shape[-1])
    nn = n * n
    vectors = bool(e.params["compute_schur_vectors"])
    wn = 2 * n if _cplx(x) else n  # the Schur step's own work, then Z when not an output
    z = f"{outs[1].name} + b * {nn}" if vectors else f"work + {wn}"
    call = (f"tp_schur_{_sfx(x)}({x.name} + b * {nn}, {outs[0].name} + b * {nn}, {z}, "
            f"{n}, work)")
    return "kernel_eig.j2", _plan(x, n, wn + (0 if vectors else nn), call, 25 * n ** 3)


def _eig(e, ins, outs):
    x = ins[0]
    linalg_eig._check_supported(x.aval.dtype)
    n = int(x.aval.shape[-1])
    nn = n * n
    left, right = e.params["compute_left_eigenvectors"], e.params["compute_right_eigenvectors"]
    rest = [o.name for o in outs[1:]]
    vl = f"{rest.pop(0)} + b * {nn}" if left else "NULL"
    vr = f"{rest.pop(0)} + b * {nn}" if right else "NULL"
    call = (f"tp_eig_{_sfx(x)}({x.name} + b * {nn}, {outs[0].name} + b * {n}, {vl}, {vr}, "
            f"{n}, work)")
    work = 2 * nn + (2 * n if _cplx(x) else 5 * n)
    return "kernel_eig.j2", _plan(x, n, work, call, 30 * n ** 3)


#: primitive -> builder(eqn, input buffers, output buffers) -> (template, fields)
RULES = {linalg_schur.hessenberg_p: _hessenberg,
         linalg_schur.householder_product_p: _householder_product,
         linalg_schur.schur_p: _schur, linalg_eig.eig_p: _eig}

"""``tridiagonal_solve``: solve tridiagonal systems (JAX's
``lax.linalg.tridiagonal_solve`` and ``tridiagonal_solve_p``).

``tridiagonal_solve(dl, d, du, b)`` solves ``A x = b`` for each system of the batch,
where ``A`` has ``d`` on its diagonal, ``dl[1:]`` below it and ``du[:-1]`` above it
(``dl[0]`` and ``du[-1]`` are not read); ``b`` is ``(..., m, k)``. The kernel runs the
Thomas algorithm (elimination without pivoting, then back substitution), exact for the
diagonally dominant systems it is meant for; LAPACK's ``gtsv``, which JAX calls, pivots,
so a system that needs pivoting may come out less accurate here. The NumPy rule runs the
same operations, so eager and compiled results agree bit for bit.

Rules as JAX defines them: linear in ``b`` (the transpose solves with ``A^T``, whose
diagonals are ``du`` shifted down and ``dl`` shifted up); the tangent of the diagonals
is ``-A^-1 (dA x)``.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from ..interpreters.batching import bdim_at_front, not_mapped, primitive_batchers
from . import elementwise as ew
from . import slicing, structural
from .linalg_base import _ACCEPTED, _check_supported

__all__ = ["tridiagonal_solve", "tridiagonal_solve_p"]

tridiagonal_solve_p = core.new_primitive("tridiagonal_solve")


@tridiagonal_solve_p.def_abstract_eval
def _abstract(dl, d, du, b, *, perturb_singular):
    for i, x in enumerate((dl, d, du, b)):
        if x.ndim < (2 if i == 3 else 1):
            raise TypeError(f"Input {i} to tridiagonal_solve must have rank at least "
                            f"{2 if i == 3 else 1}, but got shape={x.shape}")
    for i, x in enumerate((dl, d, du, b)):
        if dtypes.kind(x.dtype) not in "fc":
            raise TypeError(f"tridiagonal_solve does not accept dtype {x.dtype.name} at "
                            f"position {i}. Accepted dtypes at position {i} are subtypes "
                            f"of {_ACCEPTED}.")
    if not dl.shape == d.shape == du.shape:
        raise TypeError("tridiagonal_solve requires that all diagonal arguments have the "
                        "same shape.")
    if tuple(dl.shape) != tuple(b.shape[:-1]):
        raise TypeError("tridiagonal_solve requires that the leading ndim-1 dimensions of "
                        "b equal the dimensions of the diagonal arguments.")
    return ShapedArray(b.shape, b.dtype, b.weak_type)


@tridiagonal_solve_p.def_impl
def _impl(dl, d, du, b, *, perturb_singular):
    dl, d, du, b = (np.asarray(v) for v in (dl, d, du, b))
    _check_supported(b.dtype, "tridiagonal_solve")
    m, k = b.shape[-2:]
    nb = int(np.prod(b.shape[:-2], dtype=np.int64))
    dl, d, du = (v.reshape((nb, m)) for v in (dl, d, du))
    x = b.reshape((nb, m, k)).copy()
    c = np.zeros((nb, m), b.dtype)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for i in range(m):
            if i == 0:
                denom = d[:, 0]
                x[:, 0] = x[:, 0] / denom[:, None]
            else:
                denom = d[:, i] - dl[:, i] * c[:, i - 1]
                x[:, i] = (x[:, i] - dl[:, i][:, None] * x[:, i - 1]) / denom[:, None]
            c[:, i] = du[:, i] / denom
        for i in range(m - 2, -1, -1):
            x[:, i] = x[:, i] - c[:, i][:, None] * x[:, i + 1]
    return x.reshape(b.shape)


def tridiagonal_solve(dl, d, du, b, *, perturb_singular: bool = False):
    """Solve the tridiagonal systems ``A x = b``.

    Parameters
    ----------
    dl, d, du : Array
        Shape ``(..., m)``: the sub-diagonal (``dl[..., 0]`` unused), diagonal and
        super-diagonal (``du[..., -1]`` unused).
    b : Array
        Shape ``(..., m, k)``.
    perturb_singular : bool
        Accepted for compatibility (no pivot is perturbed here).

    Returns
    -------
    Array
        ``x``, of ``b``'s shape.
    """
    return tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=bool(perturb_singular))


# ---------------------------------------------------------------------------------------
# JVP, transpose and batching

def _shift(v, up: bool):
    """``v`` along its last axis moved one place (zero filled): ``up`` drops the first."""
    aval = core.get_aval(v)
    nd = aval.ndim
    zero = np.zeros((), aval.dtype)
    cfg = [(0, 0, 0)] * (nd - 1)
    return slicing.pad(v, zero, cfg + ([(-1, 1, 0)] if up else [(1, -1, 0)]))


def _times_diagonals(dl, d, du, x):
    """``A x`` for the tridiagonal ``A`` of ``dl, d, du``."""
    nd = core.get_aval(x).ndim
    col = lambda v: structural.expand_dims(v, (nd - 1,))  # noqa: E731
    out = ew.mul(col(d), x)
    below = ew.mul(col(dl), _shift_rows(x, down=True))
    above = ew.mul(col(du), _shift_rows(x, down=False))
    return ew.add(ew.add(out, below), above)


def _shift_rows(x, down: bool):
    """Rows of ``x`` (axis -2) moved one place: ``down`` gives row i the row i - 1."""
    aval = core.get_aval(x)
    zero = np.zeros((), aval.dtype)
    cfg = [(0, 0, 0)] * (aval.ndim - 2)
    rows = (1, -1, 0) if down else (-1, 1, 0)
    return slicing.pad(x, zero, cfg + [rows, (0, 0, 0)])


def _jvp(primals, tangents, *, perturb_singular):
    dl, d, du, b = primals
    tdl, td, tdu, tb = tangents
    x = tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=perturb_singular)
    zeros = lambda t, p: (ew.mul(p, np.zeros((), core.get_aval(p).dtype))  # noqa: E731
                          if isinstance(t, Zero) else t)
    rhs = None
    if not all(isinstance(t, Zero) for t in (tdl, td, tdu)):
        rhs = ew.neg(_times_diagonals(zeros(tdl, dl), zeros(td, d), zeros(tdu, du), x))
    if not isinstance(tb, Zero):
        rhs = tb if rhs is None else ew.add(tb, rhs)
    if rhs is None:
        return x, Zero(ad.tangent_aval(core.get_aval(x)))
    return x, tridiagonal_solve_p.bind(dl, d, du, rhs, perturb_singular=perturb_singular)


def _transpose(cts, dl, d, du, b, *, perturb_singular):
    ct, = cts
    if any(is_undefined_primal(v) for v in (dl, d, du)) or not is_undefined_primal(b):
        raise NotImplementedError("tridiagonal_solve is linear only in its last operand")
    if isinstance(ct, Zero):
        return [None, None, None, None]
    # A^T has du shifted down as its sub-diagonal and dl shifted up as its super-diagonal
    ct_b = tridiagonal_solve_p.bind(_shift(du, up=False), d, _shift(dl, up=True), ct,
                                    perturb_singular=perturb_singular)
    return [None, None, None, ct_b]


ad.jvp_rules[tridiagonal_solve_p] = _jvp
ad.transpose_rules[tridiagonal_solve_p] = _transpose


def _batch(vals, dims, **params):
    size = next(core.get_aval(v).shape[bd] for v, bd in zip(vals, dims, strict=True)
                if bd is not not_mapped)
    vals = [bdim_at_front(v, bd, size) for v, bd in zip(vals, dims, strict=True)]
    return tridiagonal_solve_p.bind(*vals, **params), 0


primitive_batchers[tridiagonal_solve_p] = _batch

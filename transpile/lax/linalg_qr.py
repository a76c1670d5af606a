"""``qr``: the Householder QR decomposition (JAX's ``lax.linalg.qr`` and ``qr_p``).

``qr(x)`` gives ``q`` with orthonormal columns and upper-triangular (trapezoidal) ``r``
with ``q @ r == x``; ``full_matrices`` makes ``q`` square (``m x m``, ``r`` ``m x n``),
otherwise ``q`` is ``m x k`` and ``r`` ``k x n`` (``k = min(m, n)``). As LAPACK's
``geqrf``/``orgqr`` (what JAX 0.10.2 runs on CPU), the reflector of column ``j`` maps it
to ``beta e_j`` with ``beta = -sign(alpha) ||x||``, so diagonal entries of ``r`` may be
negative; a column already zero below the diagonal gets no reflection.

The NumPy rule runs the C kernel's steps (``runtime/tp_linalg.h``), one operation at a
time in the operand's dtype, so eager and compiled results agree bit for bit. Column
pivoting is not implemented.

JVP (JAX's rule): for square or tall reduced ``x``, with ``C = q^T dx r^-1`` and
``dO = tril(C, -1) - tril(C, -1)^T``, ``dq = q (dO - C) + dx r^-1`` and
``dr = (C - dO) r``; a wide ``x = [x1 x2]`` takes that of ``x1`` and
``dr2 = dq^T x2 + q^T dx2``. The complete tall case is not implemented.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.ad import Zero
from ..interpreters.batching import moveaxis, primitive_batchers
from . import elementwise as ew
from . import slicing
from .linalg_base import _ACCEPTED, _check_supported, _swap_last, tril, triangular_solve
from .linalg_ad import _matmul_pref

__all__ = ["qr", "qr_p"]

qr_p = core.new_primitive("qr", multiple_results=True)


@qr_p.def_abstract_eval
def _qr_abstract(x, *, pivoting, full_matrices, use_magma):
    if x.ndim < 2:
        raise TypeError(f"Input 0 to qr must have rank at least 2, but got "
                        f"shape={x.shape}")
    if dtypes.kind(x.dtype) not in "fc":
        raise TypeError(f"qr does not accept dtype {x.dtype.name} at position 0. "
                        f"Accepted dtypes at position 0 are subtypes of {_ACCEPTED}.")
    *batch, m, n = x.shape
    k = m if full_matrices else min(m, n)
    return [ShapedArray(tuple(batch) + (m, k), x.dtype, x.weak_type),
            ShapedArray(tuple(batch) + (k, n), x.dtype, x.weak_type)]


def _reflect(x, tau, y, j, c0, c1):
    """Reflector ``j`` (stored below the diagonal of column ``j`` of ``x``) applied to
    columns ``c0:c1`` of ``y``, rows ``j:``, batch first (the C helper's steps)."""
    m = x.shape[1]
    w = y[:, j, c0:c1].copy()
    for i in range(j + 1, m):
        w = w + x[:, i, j][:, None] * y[:, i, c0:c1]
    w = tau[:, None] * w
    y[:, j, c0:c1] = y[:, j, c0:c1] - w
    for i in range(j + 1, m):
        y[:, i, c0:c1] = y[:, i, c0:c1] - x[:, i, j][:, None] * w


@qr_p.def_impl
def _qr_impl(a, *, pivoting, full_matrices, use_magma):
    a = np.asarray(a)
    _check_supported(a.dtype, "qr")
    if pivoting:
        raise NotImplementedError("transpile does not implement qr with pivoting")
    *batch, m, n = a.shape
    k = min(m, n)
    qc = m if full_matrices else k
    nb = int(np.prod(batch, dtype=np.int64))
    x = a.reshape((nb, m, n)).copy()
    taus = np.zeros((nb, k), a.dtype)
    dt = a.dtype.type
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(k):
            alpha = x[:, j, j].copy()
            ss = np.zeros(nb, a.dtype)
            for i in range(j + 1, m):
                ss = ss + x[:, i, j] * x[:, i, j]
            go = ss != 0
            beta = np.sqrt(alpha * alpha + ss)
            beta = np.where(alpha >= 0, -beta, beta)
            tau = np.where(go, (beta - alpha) / beta, dt(0))
            scale = alpha - beta
            x[:, j + 1:, j] = np.where(go[:, None], x[:, j + 1:, j] / scale[:, None],
                                       x[:, j + 1:, j])
            x[:, j, j] = np.where(go, beta, alpha)
            taus[:, j] = tau
            _reflect(x, tau, x, j, j + 1, n)
        rr = m if full_matrices else k
        r = np.triu(x[:, :rr, :])
        q = np.zeros((nb, m, qc), a.dtype)
        q[:, np.arange(min(m, qc)), np.arange(min(m, qc))] = 1
        for j in range(k - 1, -1, -1):
            _reflect(x, taus[:, j], q, j, j, qc)
    return [q.reshape(tuple(batch) + (m, qc)), r.reshape(tuple(batch) + (rr, n))]


def qr(x, *, pivoting: bool = False, full_matrices: bool = True, use_magma=None):
    """QR decomposition of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., m, n)``: leading axes are batch axes.
    pivoting : bool
        Column pivoting (not implemented: must be False).
    full_matrices : bool
        Square ``q`` (``m x m``) and ``r`` of ``x``'s shape; otherwise ``q`` is
        ``m x k`` and ``r`` ``k x n``, ``k = min(m, n)``.
    use_magma : None
        Accepted for compatibility (a GPU option of JAX).

    Returns
    -------
    (Array, Array)
        ``q`` and ``r``.
    """
    dt = getattr(x, "dtype", None)
    if dt is not None and np.dtype(dt).kind == "c":
        _check_supported(dt, "qr")
    if pivoting:
        raise NotImplementedError("transpile does not implement qr with pivoting")
    q, r = qr_p.bind(x, pivoting=False, full_matrices=bool(full_matrices),
                     use_magma=use_magma)
    return q, r


# ---------------------------------------------------------------------------------------
# JVP and batching

def _thin_qr_jvp(q, r, dx):
    dx_rinv = triangular_solve(r, dx)  # right side: dx r^-1
    qt_dx_rinv = _matmul_pref(_swap_last(q), dx_rinv)
    low = tril(qt_dx_rinv, -1)
    do = ew.sub(low, _swap_last(low))  # skew-symmetric
    dq = ew.add(_matmul_pref(q, ew.sub(do, qt_dx_rinv)), dx_rinv)
    dr = _matmul_pref(ew.sub(qt_dx_rinv, do), r)
    return dq, dr


def _cols(x, start, stop):
    aval = core.get_aval(x)
    nd = aval.ndim
    return slicing.slice(x, (0,) * (nd - 1) + (start,), tuple(aval.shape[:-1]) + (stop,))


def _qr_jvp(primals, tangents, *, pivoting, full_matrices, use_magma):
    x, = primals
    dx, = tangents
    q, r = qr_p.bind(x, pivoting=pivoting, full_matrices=full_matrices,
                     use_magma=use_magma)
    if isinstance(dx, Zero):
        return [q, r], [Zero(ad.tangent_aval(core.get_aval(q))),
                        Zero(ad.tangent_aval(core.get_aval(r)))]
    *_, m, n = core.get_aval(x).shape
    if m < n:
        dq, dr1 = _thin_qr_jvp(q, _cols(r, 0, m), _cols(dx, 0, m))
        dr2 = ew.add(_matmul_pref(_swap_last(dq), _cols(x, m, n)),
                     _matmul_pref(_swap_last(q), _cols(dx, m, n)))
        return [q, r], [dq, slicing.concatenate((dr1, dr2), core.get_aval(dr1).ndim - 1)]
    if full_matrices and m != n:
        raise NotImplementedError("transpile does not implement the derivative of a "
                                  "complete QR decomposition of a tall matrix")
    dq, dr = _thin_qr_jvp(q, r, dx)
    return [q, r], [dq, dr]


ad.jvp_rules[qr_p] = _qr_jvp


def _qr_batch(vals, dims, **params):
    (x,), (bdim,) = vals, dims
    return qr_p.bind(moveaxis(x, bdim, 0), **params), (0, 0)


primitive_batchers[qr_p] = _qr_batch

"""``qr``: the Householder QR decomposition (JAX's ``lax.linalg.qr`` and ``qr_p``).

``qr(x)`` gives ``q`` with orthonormal columns and upper-triangular (trapezoidal) ``r``
with ``q @ r == x``; ``full_matrices`` makes ``q`` square (``m x m``, ``r`` ``m x n``),
otherwise ``q`` is ``m x k`` and ``r`` ``k x n`` (``k = min(m, n)``). As LAPACK's
``geqrf``/``orgqr`` (what JAX 0.10.2 runs on CPU), the reflector of column ``j`` maps it
to ``beta e_j`` with ``beta = -sign(alpha) ||x||``, so diagonal entries of ``r`` may be
negative; a column already zero below the diagonal gets no reflection. A complex ``x``
gets LAPACK's complex reflectors (``larfg``): ``r``'s diagonal is real, and a column
zero below the diagonal is still reflected when its diagonal entry is not real. A
column's norm whose sum of squares overflowed or lost digits to underflow is taken from
the column scaled by a power of two (for the reflector; for a real x, the pivot too), so
entries near 1e19/1e-19 (float32) or 1e154/1e-154 (float64) factor as at 1.

The NumPy rule runs the C kernel's steps (``runtime/tp_linalg.h``), one operation at a
time in the operand's dtype, so eager and compiled results agree bit for bit. With
``pivoting``, each step first swaps in the remaining column of largest norm (its rows
from the step down, sums of squares recomputed; the first on ties), as ``geqp3``
chooses, and a third output ``p`` (``int32``) gives ``x[..., :, p] == q @ r``; its JVP is
the unpivoted one of the permuted columns.

JVP (JAX's rule): for square or tall reduced ``x``, with ``C = q^T dx r^-1`` and
``dO = tril(C, -1) - tril(C, -1)^T``, ``dq = q (dO - C) + dx r^-1`` and
``dr = (C - dO) r``; a wide ``x = [x1 x2]`` takes that of ``x1`` and
``dr2 = dq^T x2 + q^T dx2``. The complete tall case is not implemented.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.ad import Zero
from ..interpreters.batching import moveaxis, primitive_batchers
from . import elementwise as ew
from . import slicing, structural
from ._indexing_common import GatherDimensionNumbers, GatherScatterMode
from .indexing import gather
from . import complex_ops
from .linalg_base import (_check_supported, _swap_last, abs2, check_operand, mul, tril,
                          triangular_solve)
from .linalg_ad import _eye, _matmul_pref

__all__ = ["qr", "qr_p"]

qr_p = core.new_primitive("qr", multiple_results=True)


@qr_p.def_abstract_eval
def _qr_abstract(x, *, pivoting, full_matrices, use_magma):
    if x.ndim < 2:
        raise TypeError(f"Input 0 to qr must have rank at least 2, but got "
                        f"shape={x.shape}")
    check_operand("qr", x, rank=None)
    *batch, m, n = x.shape
    k = m if full_matrices else min(m, n)
    outs = [ShapedArray(tuple(batch) + (m, k), x.dtype, x.weak_type),
            ShapedArray(tuple(batch) + (k, n), x.dtype, x.weak_type)]
    if pivoting:
        outs.append(ShapedArray(tuple(batch) + (n,), np.dtype(np.int32), False))
    return outs


def _pivot(x, perm, j):
    """Column pivoting at step ``j`` (``tp_qr_pivot``): the first column from ``j`` on
    whose rows ``j:`` have the largest sum of squares swaps with column ``j``."""
    nb, m, n = x.shape
    best = np.zeros(nb, x.real.dtype)
    p = np.full(nb, j)
    sums = []
    for c in range(j, n):
        s = np.zeros(nb, x.real.dtype)
        for i in range(j, m):
            s = s + abs2(x[:, i, c])
        sums.append(s)
        take = (s > best) | (c == j)
        best, p = np.where(take, s, best), np.where(take, c, p)
    if x.dtype.kind == "f":   # the real kernel's: by norm where a sum overflowed or underflowed
        fi = np.finfo(x.dtype)
        redo = np.zeros(nb, bool)
        for c, s in zip(range(j, n), sums, strict=True):
            redo |= np.where(s != 0, ~((s >= _QR_TINY[x.dtype.type]) & (s <= fi.max)),
                             (x[:, j:, c] != 0).any(axis=1))
        if redo.any():
            best = np.zeros(nb, x.dtype)
            for c, s in zip(range(j, n), sums, strict=True):
                nv = _scaled_norm(x[:, j:, c], s)
                take = (nv > best) | (c == j)
                best, p = np.where(take, nv, best), np.where(take & redo, c, p)
    rows = np.arange(nb)
    x[rows, :, j], x[rows, :, p] = x[rows, :, p].copy(), x[rows, :, j].copy()
    perm[rows, j], perm[rows, p] = perm[rows, p].copy(), perm[rows, j].copy()


def _reflect(x, tau, y, j, c0, c1):
    """Reflector ``j`` (stored below the diagonal of column ``j`` of ``x``) applied to
    columns ``c0:c1`` of ``y``, rows ``j:``, batch first (the C helper's steps):
    ``y -= tau v (v^H y)``."""
    m = x.shape[1]
    w = y[:, j, c0:c1].copy()
    for i in range(j + 1, m):
        w = w + mul(np.conj(x[:, i, j])[:, None], y[:, i, c0:c1])
    w = mul(tau[:, None], w)
    y[:, j, c0:c1] = y[:, j, c0:c1] - w
    for i in range(j + 1, m):
        y[:, i, c0:c1] = y[:, i, c0:c1] - mul(x[:, i, j][:, None], w)


#: tp_qr_norm's QR_TINY (sums of squares below it are recomputed scaled).
_QR_TINY = {np.float32: 2.0 ** -100, np.float64: 2.0 ** -900}


def _scaled_norm(col, nrm2):
    """``tp_qr_norm_*`` on the columns ``col`` (batch first): ``sqrt(nrm2)``, or, where
    ``nrm2`` overflowed or is small enough to have lost digits to underflow, the norm of
    the column scaled by the power of two that brings its largest part near 1."""
    rt = nrm2.dtype.type
    beta = np.sqrt(nrm2)
    redo = ~((nrm2 >= rt(_QR_TINY[rt])) & (nrm2 <= np.finfo(rt).max))
    amax = (np.maximum(np.abs(col.real), np.abs(col.imag)) if col.dtype.kind == "c"
            else np.abs(col)).max(axis=1, initial=rt(0))
    redo &= (amax > 0) & (amax <= np.finfo(rt).max)
    if not redo.any():
        return beta
    ex = np.frexp(amax)[1]
    sc = np.ldexp(rt(1), -ex)
    s2 = np.zeros_like(nrm2)
    for i in range(col.shape[1]):
        if col.dtype.kind != "c":   # tp_qr_norm_f*: one square per entry
            e = col[:, i] * sc
            s2 = s2 + e * e
            continue
        re, im = col[:, i].real * sc, col[:, i].imag * sc
        s2 = s2 + (re * re + im * im)
    return np.where(redo, np.sqrt(s2) * np.ldexp(rt(1), ex), beta)


@qr_p.def_impl
def _qr_impl(a, *, pivoting, full_matrices, use_magma):
    a = np.asarray(a)
    _check_supported(a.dtype, "qr")
    *batch, m, n = a.shape
    k = min(m, n)
    qc = m if full_matrices else k
    nb = int(np.prod(batch, dtype=np.int64))
    x = a.reshape((nb, m, n)).copy()
    taus = np.zeros((nb, k), a.dtype)
    perm = np.tile(np.arange(n, dtype=np.int32), (nb, 1))
    dt = a.dtype.type
    cplx = a.dtype.kind == "c"
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(k):
            if pivoting:
                _pivot(x, perm, j)
            alpha = x[:, j, j].copy()
            ss = np.zeros(nb, x.real.dtype)
            for i in range(j + 1, m):
                ss = ss + abs2(x[:, i, j])
            # a complex alpha with a nonzero imaginary part is still reflected, so that
            # r's diagonal is real (LAPACK's larfg)
            go = (ss != 0) | (alpha.imag != 0)
            go |= (x[:, j + 1:, j] != 0).any(axis=1)   # ss may have underflowed to 0
            beta = _scaled_norm(x[:, j:, j], abs2(alpha) + ss)
            beta = np.where(alpha.real >= 0, -beta, beta)
            if cplx:
                tau = np.empty(nb, a.dtype)
                tau.real, tau.imag = (beta - alpha.real) / beta, -alpha.imag / beta
                tau = np.where(go, tau, dt(0))
            else:
                tau = np.where(go, (beta - alpha) / beta, dt(0))
            scale = alpha - beta
            x[:, j + 1:, j] = np.where(go[:, None], x[:, j + 1:, j] / scale[:, None],
                                       x[:, j + 1:, j])
            x[:, j, j] = np.where(go, beta, alpha)
            taus[:, j] = tau
            # geqrf applies H^H to the rest of the matrix, orgqr H to build q
            _reflect(x, np.conj(tau), x, j, j + 1, n)
        rr = m if full_matrices else k
        r = np.triu(x[:, :rr, :])
        q = np.zeros((nb, m, qc), a.dtype)
        q[:, np.arange(min(m, qc)), np.arange(min(m, qc))] = 1
        for j in range(k - 1, -1, -1):
            _reflect(x, taus[:, j], q, j, j, qc)
    outs = [q.reshape(tuple(batch) + (m, qc)), r.reshape(tuple(batch) + (rr, n))]
    return outs + [perm.reshape(tuple(batch) + (n,))] if pivoting else outs


def qr(x, *, pivoting: bool = False, full_matrices: bool = True, use_magma=None):
    """QR decomposition of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., m, n)``: leading axes are batch axes.
    pivoting : bool
        Column pivoting (LAPACK ``geqp3``'s choice: at each step the remaining column
        of largest norm), giving a third output ``p`` (``int32``, ``(..., n)``) with
        ``x[..., :, p] == q @ r``.
    full_matrices : bool
        Square ``q`` (``m x m``) and ``r`` of ``x``'s shape; otherwise ``q`` is
        ``m x k`` and ``r`` ``k x n``, ``k = min(m, n)``.
    use_magma : None
        Accepted for compatibility (a GPU option of JAX).

    Returns
    -------
    tuple of Array
        ``q`` and ``r`` (and ``p`` when pivoting).
    """
    outs = qr_p.bind(x, pivoting=bool(pivoting), full_matrices=bool(full_matrices),
                     use_magma=use_magma)
    return tuple(outs)


# ---------------------------------------------------------------------------------------
# JVP and batching

def adjoint(x):
    """The conjugate transpose of each matrix of ``x`` (the transpose when real)."""
    xt = _swap_last(x)
    return complex_ops.conj(xt) if core.get_aval(x).dtype.kind == "c" else xt


def _thin_qr_jvp(q, r, dx):
    dx_rinv = triangular_solve(r, dx)  # right side: dx r^-1
    qt_dx_rinv = _matmul_pref(adjoint(q), dx_rinv)
    low = tril(qt_dx_rinv, -1)
    do = ew.sub(low, adjoint(low))  # skew-Hermitian
    aval = core.get_aval(qt_dx_rinv)
    if aval.dtype.kind == "c":
        # r's diagonal stays real: the imaginary part of the diagonal goes to do
        n = aval.shape[-1]
        eye = structural.expand_dims(_eye(aval.dtype, n), tuple(range(aval.ndim - 2)))
        im = ew.sub(qt_dx_rinv, ew.convert_element_type(complex_ops.real(qt_dx_rinv),
                                                        aval.dtype))
        do = ew.add(do, ew.mul(eye, im))
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
    outs = qr_p.bind(x, pivoting=pivoting, full_matrices=full_matrices,
                     use_magma=use_magma)
    q, r = outs[:2]
    if isinstance(dx, Zero):
        return outs, [Zero(ad.tangent_aval(core.get_aval(o))) for o in outs]
    if pivoting:  # x[:, p] == q r: the unpivoted rule on the permuted columns
        x, dx = _take_columns(x, outs[2]), _take_columns(dx, outs[2])
        dq, dr = _qr_tangents(x, dx, q, r, full_matrices)
        return outs, [dq, dr, Zero(ad.tangent_aval(core.get_aval(outs[2])))]
    return outs, list(_qr_tangents(x, dx, q, r, full_matrices))


def _take_columns(x, p):
    """``x[..., :, p]`` with ``p`` batched like ``x``'s leading axes."""
    aval = core.get_aval(x)
    *batch, m, n = aval.shape
    nb = len(batch)
    idx = structural.broadcast_in_dim(p, tuple(batch) + (m, n, 1), tuple(range(nb)) + (nb + 1,))
    dnums = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(nb + 1,),
                                   start_index_map=(nb + 1,),
                                   operand_batching_dims=tuple(range(nb + 1)),
                                   start_indices_batching_dims=tuple(range(nb + 1)))
    return gather(x, idx, dnums, (1,) * (nb + 2), mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _qr_tangents(x, dx, q, r, full_matrices):
    *_, m, n = core.get_aval(x).shape
    if m < n:
        dq, dr1 = _thin_qr_jvp(q, _cols(r, 0, m), _cols(dx, 0, m))
        dr2 = ew.add(_matmul_pref(adjoint(dq), _cols(x, m, n)),
                     _matmul_pref(adjoint(q), _cols(dx, m, n)))
        return dq, slicing.concatenate((dr1, dr2), core.get_aval(dr1).ndim - 1)
    if full_matrices and m != n:
        raise NotImplementedError("transpile does not implement the derivative of a "
                                  "complete QR decomposition of a tall matrix")
    return _thin_qr_jvp(q, r, dx)


ad.jvp_rules[qr_p] = _qr_jvp


def _qr_batch(vals, dims, **params):
    (x,), (bdim,) = vals, dims
    outs = qr_p.bind(moveaxis(x, bdim, 0), **params)
    return outs, [0] * len(outs)


primitive_batchers[qr_p] = _qr_batch

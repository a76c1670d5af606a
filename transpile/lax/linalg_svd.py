"""``svd``: singular value decomposition (JAX's ``lax.linalg.svd`` and ``svd_p``).

``svd_p`` gives ``s`` (descending, ``(..., k)`` with ``k = min(m, n)``) and, with
``compute_uv``, ``u`` (``m x m`` with ``full_matrices``, else ``m x k``) and ``vt``
(``n x n`` or ``k x n``) with ``u @ diag(s) @ vt == x``. Real matrices: Golub-Kahan
bidiagonalisation then implicit-shift QR (``runtime/tp_svd.h``; NumPy rule in
``linalg_svd_real``); complex ones: one-sided (Hestenes) Jacobi rotations
(``runtime/tp_linalg_complex.h`` says which, and how vectors of zero singular values and
the extra columns of full matrices are completed). The NumPy rules run the same
operations in the operand's dtype, so eager and compiled results agree bit for bit. As in LAPACK, the signs of singular vectors are not defined: they may differ from
JAX's. A complex matrix has real singular values (``float32``/``float64``) and complex
vectors (each defined up to a phase).

JVP: JAX's rule (reduced matrices only; full ones raise as in JAX).
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.ad import Zero
from ..interpreters.batching import moveaxis, primitive_batchers
from . import elementwise as ew
from . import complex_ops, structural
from .linalg_ad import _eye, _matmul
from .linalg_base import _check_supported, abs2, check_operand, div_real, mul
from .linalg_eigh import SWEEPS, diagonal, real_dtype
from .linalg_qr import adjoint
from .linalg_svd_real import golub_kahan

__all__ = ["svd", "svd_p"]

svd_p = core.new_primitive("svd", multiple_results=True)


@svd_p.def_abstract_eval
def _svd_abstract(x, *, full_matrices, compute_uv, subset_by_index, algorithm):
    if x.ndim < 2:
        raise TypeError(f"Input 0 to svd must have rank at least 2, but got "
                        f"shape={x.shape}")
    check_operand("svd", x, rank=None)
    *batch, m, n = x.shape
    batch = tuple(batch)
    k = min(m, n)
    s = ShapedArray(batch + (k,), real_dtype(x.dtype), x.weak_type)
    if not compute_uv:
        return [s]
    uc, vr = (m, n) if full_matrices else (k, k)
    return [s, ShapedArray(batch + (m, uc), x.dtype, x.weak_type),
            ShapedArray(batch + (vr, n), x.dtype, x.weak_type)]


def _dot(x, y):
    """``x^H y`` summed in index order (``x . y`` when real)."""
    acc = x.dtype.type(0)
    for a, b in zip(x, y, strict=True):
        acc = acc + np.conj(a) * b
    return acc


def _sq(x):
    """``|x|^2`` summed in index order, in the real dtype."""
    acc = x.real.dtype.type(0)
    for a in x:
        acc = acc + abs2(a)
    return acc


def _dots(rows, v):
    """``rows @ v`` with each sum in index order (the C helper's)."""
    acc = np.zeros(rows.shape[0], rows.dtype)
    for j in range(rows.shape[1]):
        acc = acc + rows[:, j] * v[j]
    return acc


def _hestenes(a: np.ndarray, full: bool, compute_uv: bool):
    """One matrix: the C kernel's steps (``tp_svd_*``)."""
    m, n = a.shape
    dt = a.real.dtype.type
    cplx = a.dtype.kind == "c"
    tall = m >= n
    r, length = (n, m) if tall else (m, n)
    slots = length if full else r
    x = (a.T if tall else a).copy()
    y = np.eye(r, dtype=a.dtype)
    eps, one, two = dt(np.finfo(dt).eps), dt(1), dt(2)
    for _ in range(SWEEPS):
        rotated = False
        for p in range(r):
            for q in range(p + 1, r):
                al, be = _sq(x[p]), _sq(x[q])
                g = _dot(x[p], x[q])
                mag = np.hypot(g.real, g.imag) if cplx else abs(g)
                if g == 0 or mag <= eps * np.sqrt(al * be):
                    continue
                rotated = True
                if cplx:
                    # a phase on row q makes g real (|g|), then the real rotation
                    ec = np.conj(div_real(np.array(g), mag))
                    x[q], y[q] = mul(x[q], ec), mul(y[q], ec)
                    g = mag
                zeta = (be - al) / (two * g)
                t = one / (abs(zeta) + np.sqrt(one + zeta * zeta))
                if zeta < 0:
                    t = -t
                c = one / np.sqrt(one + t * t)
                s = c * t
                for z in (x, y):
                    vp, vq = z[p].copy(), z[q].copy()
                    z[p] = c * vp - s * vq
                    z[q] = s * vp + c * vq
        if not rotated:
            break
    sn = np.array([np.sqrt(_sq(row)) for row in x], dt).reshape(r)
    order = sorted(range(r), key=lambda i: -sn[i]) if r else []
    sv = sn[order] if r else sn
    if not compute_uv:
        return sv, None, None
    basis = np.zeros((slots, length), a.dtype)
    filled = np.zeros(slots, bool)
    ys = y[order] if r else y
    for i in range(r):
        if sv[i] != 0:
            basis[i] = div_real(x[order[i]], sv[i])
            filled[i] = True
    for i in range(slots):
        if filled[i]:
            continue
        # the unit vector with the largest part outside the filled slots
        out = np.ones(length, dt)
        for p in range(slots):
            if filled[p]:
                out = out - abs2(basis[p])
        cand = int(np.argmax(out))
        b = np.zeros(length, a.dtype)
        b[cand] = 1
        for _ in range(2):
            for p in range(slots):
                if filled[p]:
                    b = b - mul(_dot(basis[p], b), basis[p])
        basis[i] = div_real(b, np.sqrt(_sq(b)))
        filled[i] = True
    # complex rows of y hold conj(v) (tall) or conj(u^T) (wide)
    ys = np.conj(ys)
    if tall:
        return sv, basis.T.copy(), ys.copy()
    return sv, ys.T.copy(), basis


@svd_p.def_impl
def _svd_impl(x, *, full_matrices, compute_uv, subset_by_index, algorithm):
    x = np.asarray(x)
    _check_supported(x.dtype, "svd")
    *batch, m, n = x.shape
    nb = int(np.prod(batch, dtype=np.int64))
    flat = x.reshape((nb, m, n))
    outs = _svd_abstract(core.ShapedArray(x.shape, x.dtype), full_matrices=full_matrices,
                         compute_uv=compute_uv, subset_by_index=None, algorithm=None)
    res = [np.zeros((nb,) + o.shape[len(batch):], o.dtype) for o in outs]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for b in range(nb):
            parts = (_hestenes if x.dtype.kind == "c" else golub_kahan)(
                flat[b], full_matrices, compute_uv)
            for out, part in zip(res, parts, strict=False):
                out[b] = part
    return [o.reshape(a.shape) for o, a in zip(res, outs, strict=True)]


def svd(x, *, full_matrices: bool = True, compute_uv: bool = True,
        subset_by_index=None, algorithm=None):
    """Singular value decomposition of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., m, n)``.
    full_matrices : bool
        Square ``u`` and ``vt``; otherwise ``m x k`` and ``k x n``.
    compute_uv : bool
        Also the singular vectors (otherwise only ``s``).
    subset_by_index, algorithm : None
        Only the defaults are implemented.

    Returns
    -------
    (Array, Array, Array) or Array
        ``(u, s, vt)``, or ``s`` alone; ``s`` descending.
    """
    if subset_by_index is not None or algorithm is not None:
        raise NotImplementedError("transpile implements svd's default algorithm and "
                                  "all singular values only")
    outs = svd_p.bind(x, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv),
                      subset_by_index=None, algorithm=None)
    if compute_uv:
        s, u, vt = outs
        return u, s, vt
    return outs[0]


# ---------------------------------------------------------------------------------------
# JVP and batching

def _bcast(v, shape, dims):
    return structural.broadcast_in_dim(v, shape, dims)


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv, subset_by_index, algorithm):
    a, = primals
    da, = tangents
    if compute_uv and full_matrices:
        raise NotImplementedError("Singular value decomposition JVP not implemented for "
                                  "full matrices")
    s, u, vt = svd_p.bind(a, full_matrices=False, compute_uv=True, subset_by_index=None,
                          algorithm=None)
    outs = [s, u, vt] if compute_uv else [s]
    if isinstance(da, Zero):
        return outs, [Zero(ad.tangent_aval(core.get_aval(o))) for o in outs]
    aval = core.get_aval(a)
    *batch, m, n = aval.shape
    k = min(m, n)
    nd = aval.ndim
    bd = tuple(range(nd - 2))
    cplx = aval.dtype.kind == "c"
    ut, v = adjoint(u), adjoint(vt)
    ds_mat = _matmul(_matmul(ut, da), v)
    ds = diagonal(complex_ops.real(ds_mat) if cplx else ds_mat)
    if not compute_uv:
        return outs, [ds]
    kk = tuple(batch) + (k, k)
    s_row = _bcast(s, kk, bd + (nd - 1,))  # s_row[..., i, j] = s[j]
    s_col = _bcast(s, kk, bd + (nd - 2,))  # s_col[..., i, j] = s[i]
    dt = real_dtype(aval.dtype)

    def full(x):  # a real factor in a's (complex) dtype
        return ew.convert_element_type(x, aval.dtype) if cplx else x
    one, zero = np.ones((), dt), np.zeros((), dt)
    s_diffs = ew.mul(ew.add(s_row, s_col), ew.sub(s_row, s_col))
    diffs_zero = ew.convert_element_type(ew.eq(s_diffs, zero), dt)
    f = full(ew.sub(ew.div(one, ew.add(s_diffs, diffs_zero)), diffs_zero))
    dss = ew.mul(full(s_row), ds_mat)
    sds = ew.mul(full(s_col), ds_mat)
    s_zero = ew.convert_element_type(ew.eq(s, zero), dt)
    s_inv = ew.sub(ew.div(one, ew.add(s, s_zero)), s_zero)
    s_inv_mat = ew.mul(_bcast(_eye(dt, k), kk, (nd - 2, nd - 1)),
                       _bcast(s_inv, kk, bd + (nd - 1,)))
    half = np.array(0.5, aval.dtype)
    duv_diag = ew.mul(ew.mul(half, ew.sub(ds_mat, adjoint(ds_mat))), full(s_inv_mat))
    du = _matmul(u, ew.add(ew.mul(f, ew.add(dss, adjoint(dss))), duv_diag))
    dv = _matmul(v, ew.mul(f, ew.add(sds, adjoint(sds))))
    if m > n:
        dav = _matmul(da, v)
        corr = ew.sub(dav, _matmul(u, _matmul(ut, dav)))
        du = ew.add(du, ew.div(corr, full(_bcast(s, core.get_aval(corr).shape,
                                                 bd + (nd - 1,)))))
    if n > m:
        dahu = _matmul(adjoint(da), u)
        corr = ew.sub(dahu, _matmul(v, _matmul(vt, dahu)))
        dv = ew.add(dv, ew.div(corr, full(_bcast(s, core.get_aval(corr).shape,
                                                 bd + (nd - 1,)))))
    return outs, [ds, du, adjoint(dv)]


ad.jvp_rules[svd_p] = _svd_jvp


def _svd_batch(vals, dims, **params):
    (x,), (bdim,) = vals, dims
    outs = svd_p.bind(moveaxis(x, bdim, 0), **params)
    return outs, tuple(0 for _ in outs)


primitive_batchers[svd_p] = _svd_batch

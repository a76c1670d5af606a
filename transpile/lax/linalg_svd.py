"""``svd``: singular value decomposition (JAX's ``lax.linalg.svd`` and ``svd_p``).

``svd_p`` gives ``s`` (descending, ``(..., k)`` with ``k = min(m, n)``) and, with
``compute_uv``, ``u`` (``m x m`` with ``full_matrices``, else ``m x k``) and ``vt``
(``n x n`` or ``k x n``) with ``u @ diag(s) @ vt == x``. Golub-Kahan bidiagonalisation
then implicit-shift QR (``runtime/tp_svd.h``; NumPy rule in ``linalg_svd_real``); complex
matrices reduce to a real bidiagonal with LAPACK's complex reflectors and share the real
QR (``runtime/tp_svd_complex.h``; NumPy rule here). The NumPy rules run the same
operations in the operand's dtype, so eager and compiled results agree bit for bit. As
in LAPACK, the signs of singular vectors are not defined: they may differ from JAX's. A
complex matrix has real singular values (``float32``/``float64``) and complex vectors
(each defined up to a phase).

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
from .linalg_base import _check_supported, abs2, check_operand, complex_nan, mul
from .linalg_eigh import _cplx, _first_then, diagonal, real_dtype
from .linalg_qr import adjoint
from .linalg_svd_real import accumulate_uv, bdsqr, golub_kahan

__all__ = ["svd", "svd_p", "work_elements"]

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


def work_elements(m: int, n: int, full: bool) -> int:
    """Scratch (real) elements ``tp_svd_c64``/``_c128`` lay out for one ``m x n`` matrix."""
    mm, nn = max(m, n), min(m, n)
    uc = mm if full else nn
    return 2 * (mm * nn + 2 * mm * uc + 2 * nn * nn + 2 * nn) + 3 * nn + 2 * mm


def _house(x):
    """larfg's reflector of the 1-D view ``x`` (``tp_svdc_house_*``), ``x`` changed in
    place into ``v`` (``v[0] = 1``): returns ``(tau, beta)``, ``(0, re x[0])`` (``x``
    untouched) when there is nothing to reflect."""
    rt = x.real.dtype.type
    ar, ai = x[0].real, x[0].imag
    ss = _first_then(rt(0), abs2(x[1:]))
    if ss == 0 and ai == 0:
        return x.dtype.type(0), ar
    beta = np.sqrt((ar * ar + ai * ai) + ss)
    if ar >= 0:
        beta = -beta
    tau = _cplx((beta - ar) / beta, -ai / beta, x.dtype)
    scale = _cplx(ar - beta, ai, x.dtype)
    x[0] = 1
    x[1:] = x[1:] / np.full(1, scale)
    return tau, beta


def _lapply(v, t, y):
    """``y = (I - t v v^H) y`` (``tp_svdc_lapply_*``): rows combined in order."""
    w = mul(np.array(t), _first_then(y[0], mul(np.conj(v[1:])[:, None], y[1:])))
    y -= mul(v[:, None], w[None, :])


def _rapply(v, t, y):
    """``y = y (I - t v v^H)`` (``tp_svdc_rapply_*``): each row's sum in order."""
    terms = mul(y[:, 1:], v[None, 1:])
    s = np.add.accumulate(np.concatenate([y[:, :1], terms], axis=1), axis=1)[:, -1]
    s = mul(np.array(t), s)
    y -= mul(s[:, None], np.conj(v)[None, :])


def _golub_kahan_complex(a: np.ndarray, full: bool, compute_uv: bool):
    """One complex matrix: the C kernel's steps (``tp_svd_c*``): gebrd's reflectors
    leave a real bidiagonal, ``U`` and ``V`` by backward accumulation, then the real
    implicit QR with its rotations on the parts of ``U^T``'s and ``V^T``'s rows."""
    m, n = a.shape
    rt = a.real.dtype.type
    tall = m >= n
    x = (a if tall else np.conj(a.T)).copy()
    mm, nn = x.shape
    uc = mm if full else nn
    if not (np.isfinite(x.real).all() and np.isfinite(x.imag).all()):
        nan = complex_nan(a.dtype)
        uv = (np.full((m, uc if tall else m), nan), np.full((n if tall else uc, n), nan))
        return (np.full(nn, np.nan, rt),) + (uv if compute_uv else (None, None))
    big = 50 if rt == np.float32 else 500
    amax = max(np.abs(x.real).max(), np.abs(x.imag).max()) if x.size else rt(0)
    unscale = rt(1)
    if amax > 0 and (amax > np.ldexp(rt(1), big) or amax < np.ldexp(rt(1), -big)):
        ex = int(np.frexp(amax)[1])
        x = _cplx(x.real * np.ldexp(rt(1), -ex), x.imag * np.ldexp(rt(1), -ex), a.dtype)
        unscale = np.ldexp(rt(1), ex)
    d, e = np.zeros(nn, rt), np.zeros(nn, rt)
    tl, tr = np.zeros(nn, a.dtype), np.zeros(nn, a.dtype)
    for k in range(nn):
        tl[k], d[k] = _house(x[k:, k])
        if tl[k] != 0:
            _lapply(x[k:, k], np.conj(tl[k]), x[k:, k + 1:])
        if k + 1 < nn:
            x[k, k + 1:] = np.conj(x[k, k + 1:])
            tr[k], e[k] = _house(x[k, k + 1:])
            if tr[k] != 0:
                _rapply(x[k, k + 1:], tr[k], x[k + 1:, k + 1:])
    ut = vtt = None
    if compute_uv:
        ut, vtt = accumulate_uv(x, tl, tr, mm, uc, nn, nn - 2, _lapply)
    bdsqr(d, e, None if ut is None else ut.view(rt), None if vtt is None else vtt.view(rt))
    order = sorted(range(nn), key=lambda i: -d[i])  # stable, descending
    sv = d[order] * unscale
    if not compute_uv:
        return sv, None, None
    rows = order + list(range(nn, uc))
    if tall:
        return sv, ut[rows].T.copy(), np.conj(vtt[order])
    return sv, vtt[order].T.copy(), np.conj(ut[rows])


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
            parts = (_golub_kahan_complex if x.dtype.kind == "c" else golub_kahan)(
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

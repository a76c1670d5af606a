"""The NumPy rule of ``svd`` for real matrices: the steps of ``runtime/tp_svd.h``
(Golub-Kahan bidiagonalisation by Householder reflections, then implicit-shift QR on the
bidiagonal), in the operand's dtype and in the same order, so that eager and compiled
results agree bit for bit. Sums in index order are ``np.add.accumulate``'s last entry
(it adds one term at a time, as the C loops do); scalars stay NumPy scalars of the
operand's dtype.
"""
from __future__ import annotations

import numpy as np

from .linalg_base import householder_reflector

__all__ = ["bdsqr", "golub_kahan", "work_elements"]

#: The C kernel's TP_SVD_ITERS (QR steps per singular value before accepting it).
ITERS = 75


def work_elements(m: int, n: int, full: bool) -> int:
    """Scratch elements ``tp_svd_f32``/``_f64`` lay out for one ``m x n`` matrix (the
    accumulation's panels last: ``TP_HACC_WORK`` of ``runtime/tp_panels.h``, two
    threads' ``mm`` rows of 256 bytes and 64 bytes of alignment)."""
    mm, nn = max(m, n), min(m, n)
    uc = mm if full else nn
    return mm * nn + mm * uc + nn * nn + 5 * nn + max(mm, uc) + 2 * mm * 64 + 16


#: SAFE_EXP of tp_svd.h's givens: below 2^SAFE_EXP squares do not overflow, above its
#: inverse a flushed square does not change the sum.
_SAFE = {np.float32: 50, np.float64: 450}


def _consts(dt):
    if dt == np.float32:
        return dt(np.finfo(dt).eps), dt(2.0 ** -120), 50
    return dt(np.finfo(dt).eps), dt(2.0 ** -966), 500


def _lapply(v, tau, y):
    """``y = (I - tau v v^T) y`` (``tp_svd_lapply_*``): rows combined in order."""
    w = np.add.accumulate(v[:, None] * y, axis=0)[-1]
    y -= np.outer(v, tau * w)


def _rapply(v, tau, y):
    """``y = y (I - tau v v^T)`` (``tp_svd_rapply_*``): each row's sum in order."""
    s = np.add.accumulate(y * v, axis=1)[:, -1]
    y -= np.outer(tau * s, v)


def _givens(f, g):
    dt = f.dtype.type
    mx = max(abs(f), abs(g))
    safe = _SAFE[dt]
    r = np.sqrt(f * f + g * g) if np.ldexp(dt(1), -safe) < mx < np.ldexp(dt(1), safe) \
        else np.hypot(f, g)
    if r == 0:
        one = r.dtype.type(1)
        return r, one, r.dtype.type(0)
    return r, f / r, g / r


def _rot(z, i, j, c, s):
    x, y = z[i].copy(), z[j]
    z[i] = c * x + s * y
    z[j] = c * y - s * x


def bdsqr(s, e, ut, vt):
    """``tp_svd_bdsqr_*``: QR sweeps on the bidiagonal ``(s, e)`` in place, rotating
    rows of ``ut`` and ``vt`` (unless ``ut`` is None; a complex svd passes real views
    of its rows' parts)."""
    dt = s.dtype.type
    eps, tiny, _ = _consts(s.dtype.type)
    zero, two = dt(0), dt(2)
    p, it = s.shape[0], 0
    while p > 0:
        k = p - 2
        while k >= 0:
            if abs(e[k]) <= tiny + eps * (abs(s[k]) + abs(s[k + 1])):
                e[k] = 0
                break
            k -= 1
        if k == p - 2:
            kase = 4
        else:
            ks = p - 1
            while ks > k:
                t = abs(e[ks]) + (abs(e[ks - 1]) if ks != k + 1 else zero)
                if abs(s[ks]) <= tiny + eps * t:
                    s[ks] = 0
                    break
                ks -= 1
            if ks == k:
                kase = 3
            elif ks == p - 1:
                kase = 1
            else:
                kase, k = 2, ks
        k += 1
        if kase == 1:  # deflate the negligible s[p-1]
            f = e[p - 2]
            e[p - 2] = 0
            for j in range(p - 2, k - 1, -1):
                s[j], cs, sn = _givens(s[j], f)
                if j != k:
                    f = -sn * e[j - 1]
                    e[j - 1] = cs * e[j - 1]
                if ut is not None:
                    _rot(vt, j, p - 1, cs, sn)
        elif kase == 2:  # split at the negligible s[k-1]
            f = e[k - 1]
            e[k - 1] = 0
            for j in range(k, p):
                s[j], cs, sn = _givens(s[j], f)
                f = -sn * e[j]
                e[j] = cs * e[j]
                if ut is not None:
                    _rot(ut, j, k - 1, cs, sn)
        elif kase == 3:  # one shifted QR step
            scale = max(abs(s[p - 1]), abs(s[p - 2]), abs(e[p - 2]), abs(s[k]), abs(e[k]))
            sp, spm1, epm1 = s[p - 1] / scale, s[p - 2] / scale, e[p - 2] / scale
            sk, ek = s[k] / scale, e[k] / scale
            b = ((spm1 + sp) * (spm1 - sp) + epm1 * epm1) / two
            c = (sp * epm1) * (sp * epm1)
            shift = zero
            if b != 0 or c != 0:
                shift = np.sqrt(b * b + c)
                if b < 0:
                    shift = -shift
                shift = c / (b + shift)
            f = (sk + sp) * (sk - sp) + shift
            g = sk * ek
            for j in range(k, p - 1):
                t, cs, sn = _givens(f, g)
                if j != k:
                    e[j - 1] = t
                f = cs * s[j] + sn * e[j]
                e[j] = cs * e[j] - sn * s[j]
                g = sn * s[j + 1]
                s[j + 1] = cs * s[j + 1]
                if ut is not None:
                    _rot(vt, j, j + 1, cs, sn)
                s[j], cs, sn = _givens(f, g)
                f = cs * e[j] + sn * s[j + 1]
                s[j + 1] = cs * s[j + 1] - sn * e[j]
                g = sn * e[j + 1]
                e[j + 1] = cs * e[j + 1]
                if ut is not None:
                    _rot(ut, j, j + 1, cs, sn)
            e[p - 2] = f
            it += 1
            if it >= ITERS:
                e[p - 2] = 0
        else:  # s[p-1] converged: make it non-negative
            if s[k] <= 0:
                s[k] = -s[k] if s[k] < 0 else zero
                if ut is not None:
                    vt[k] = -vt[k]
            it = 0
            p -= 1


def accumulate_uv(x, tl, tr, mm: int, uc: int, nn: int, last_right: int, lapply):
    """``(U^T, V^T)`` from the reflectors a bidiagonalisation left in ``x`` (left ones
    in its columns with ``tl``, right ones in its rows with ``tr``, the last right one
    at ``last_right``), applied backwards to identities by ``lapply`` (the real or the
    complex reflector), as the kernel accumulates them."""
    uu = np.eye(mm, uc, dtype=x.dtype)
    for k in range(nn - 1, -1, -1):
        if tl[k] != 0:
            lapply(x[k:, k], tl[k], uu[k:, k:])
    vv = np.eye(nn, dtype=x.dtype)
    for k in range(last_right, -1, -1):
        if tr[k] != 0:
            lapply(x[k, k + 1:], tr[k], vv[k + 1:, k + 1:])
    return uu.T.copy(), vv.T.copy()


def golub_kahan(a: np.ndarray, full: bool, compute_uv: bool):
    """One real matrix: ``(s, u, vt)`` (``u``, ``vt`` None without ``compute_uv``)."""
    m, n = a.shape
    dt = a.dtype.type
    tall = m >= n
    x = (a if tall else a.T).copy()
    mm, nn = x.shape
    uc = mm if full else nn
    uv_shapes = ((m, uc if tall else m), (n if tall else uc, n))
    if np.isnan(x).any() or np.isinf(x).any():
        nan = np.full(nn, np.nan, a.dtype)
        if not compute_uv:
            return nan, None, None
        return nan, np.full(uv_shapes[0], np.nan, a.dtype), np.full(uv_shapes[1], np.nan,
                                                                    a.dtype)
    _, _, big = _consts(dt)
    amax = np.abs(x).max() if x.size else dt(0)
    unscale = dt(1)
    if amax > 0 and (amax > np.ldexp(dt(1), big) or amax < np.ldexp(dt(1), -big)):
        ex = int(np.frexp(amax)[1])
        x = x * np.ldexp(dt(1), -ex)
        unscale = np.ldexp(dt(1), ex)
    d, e, tl, tr = (np.zeros(nn, a.dtype) for _ in range(4))
    for k in range(nn):
        tl[k], d[k] = householder_reflector(x[k:, k])
        if tl[k] != 0:
            _lapply(x[k:, k], tl[k], x[k:, k + 1:])
        if k + 2 < nn:
            tr[k], e[k] = householder_reflector(x[k, k + 1:])
            if tr[k] != 0:
                _rapply(x[k, k + 1:], tr[k], x[k + 1:, k + 1:])
        elif k + 1 < nn:
            e[k] = x[k, k + 1]
    ut = vtt = None
    if compute_uv:
        ut, vtt = accumulate_uv(x, tl, tr, mm, uc, nn, nn - 3, _lapply)
    bdsqr(d, e, ut, vtt)
    order = sorted(range(nn), key=lambda i: -d[i])  # stable, descending
    sv = d[order] * unscale
    if not compute_uv:
        return sv, None, None
    rows = order + list(range(nn, uc))
    if tall:
        return sv, ut[rows].T.copy(), vtt[order].copy()
    return sv, vtt[order].T.copy(), ut[rows].copy()

"""Polynomials as coefficient arrays, highest power first: vander, polyval, polyfit,
polyadd, polysub, polymul, polydiv, polyder, polyint, poly.

Formulas follow ``jax.numpy``. ``polymul`` and ``poly`` convolve coefficients with a
scatter-add of the outer product (the full convolution). ``roots`` is not provided:
JAX returns complex roots, and transpile has no complex dtypes.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import lax
from ._util import aval, check_arraylike, ensure_array, promote_dtypes, promote_dtypes_inexact
from .creation import arange, asarray, full, ones, zeros
from .histograms import concrete_value
from .linalg import inv, lstsq
from .linalg_ops import dot, outer
from .reductions import prod, sum as jsum
from .shape_ops import atleast_1d, concatenate, expand_dims
from .ufuncs import maximum, multiply, negative, sqrt, true_divide
from .ufuncs_compound import power

__all__ = ["vander", "polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv",
           "polyder", "polyint", "poly"]


def vander(x, N=None, increasing=False):
    """Vandermonde matrix: columns are powers of ``x`` (decreasing unless
    ``increasing``)."""
    check_arraylike("vander", x)
    x = asarray(x)
    if aval(x).ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    N = aval(x).shape[0] if N is None else operator.index(N)
    if N < 0:
        raise ValueError("N must be nonnegative")
    iota = lax.iota(aval(x).dtype, N)
    if not increasing:
        iota = lax.sub(np.array(N - 1, aval(x).dtype)[()], iota)
    return power(x[..., None], expand_dims(iota, (0,)))


def polyval(p, x, *, unroll=16):
    """Value of the polynomial ``p`` at ``x`` (Horner's scheme).

    Parameters
    ----------
    p : array_like
        Coefficients, highest power first (further dimensions broadcast with ``x``).
    x : array_like
    unroll : int
        Accepted for compatibility.

    Returns
    -------
    Array
    """
    check_arraylike("polyval", p, x)
    p_arr, x_arr = promote_dtypes(asarray(p), asarray(x))
    shape = np.broadcast_shapes(aval(p_arr).shape[1:], aval(x_arr).shape)
    y = lax.full(shape, 0, aval(x_arr).dtype)
    for i in range(aval(p_arr).shape[0]):
        y = y * x_arr + p_arr[i]
    return ensure_array(y)


def polyadd(a1, a2):
    """Sum of two polynomials."""
    check_arraylike("polyadd", a1, a2)
    a1, a2 = promote_dtypes(asarray(a1), asarray(a2))
    n1, n2 = aval(a1).shape[0], aval(a2).shape[0]
    if n2 <= n1:
        return a1.at[n1 - n2:].add(a2)
    return a2.at[n2 - n1:].add(a1)


def polysub(a1, a2):
    """Difference of two polynomials."""
    check_arraylike("polysub", a1, a2)
    a1, a2 = promote_dtypes(asarray(a1), asarray(a2))
    return polyadd(a1, negative(a2))


def _convolve_full(a, b):
    n, m = aval(a).shape[0], aval(b).shape[0]
    terms = multiply(a[:, None], b[None, :])
    idx = asarray(np.add.outer(np.arange(n), np.arange(m)).astype(np.int32))
    return zeros(n + m - 1, aval(terms).dtype).at[idx].add(terms)


def _trim_leading(a, tol=0.0):
    """``a`` without its leading entries of magnitude <= ``tol`` (concrete ``a`` only;
    the result's length depends on the values)."""
    value = concrete_value(a)
    if value is None:
        raise ValueError("trim_leading_zeros=True requires concrete coefficients")
    keep = np.flatnonzero(np.abs(value) > tol) if tol else np.flatnonzero(value)
    return a[int(keep[0]):] if len(keep) else a[:0]


def polymul(a1, a2, *, trim_leading_zeros=False):
    """Product of two polynomials."""
    check_arraylike("polymul", a1, a2)
    a1, a2 = promote_dtypes_inexact(asarray(a1), asarray(a2))
    if trim_leading_zeros and (aval(a1).shape[0] > 1 or aval(a2).shape[0] > 1):
        a1, a2 = _trim_leading(a1), _trim_leading(a2)
    if aval(a1).shape[0] == 0:
        a1 = asarray([0], dtype=aval(a2).dtype)
    if aval(a2).shape[0] == 0:
        a2 = asarray([0], dtype=aval(a1).dtype)
    return _convolve_full(a1, a2)


def polydiv(u, v, *, trim_leading_zeros=False):
    """Quotient and remainder of polynomial division ``u / v``."""
    check_arraylike("polydiv", u, v)
    u, v = promote_dtypes_inexact(asarray(u), asarray(v))
    m, n = aval(u).shape[0] - 1, aval(v).shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros(max(m - n + 1, 1), aval(u).dtype)
    for k in range(m - n + 1):
        d = scale * u[k]
        q = q.at[k].set(d)
        u = u.at[k:k + n + 1].add(-d * v)
    if trim_leading_zeros:
        u = _trim_leading(u, float(np.sqrt(np.finfo(aval(u).dtype).eps)))
    return q, u


def polyder(p, m=1):
    """The ``m``-th derivative of the polynomial ``p``."""
    check_arraylike("polyder", p)
    m = operator.index(m)
    p_arr, = promote_dtypes_inexact(asarray(p))
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    if m == 0:
        return p_arr
    dt = aval(p_arr).dtype
    n = aval(p_arr).shape[0]
    coeff = prod(arange(m, n, dtype=dt)[None] - arange(m, dtype=dt)[:, None], axis=0)
    return p_arr[:-m] * coeff[::-1]


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of ``p`` with integration constants ``k``."""
    m = operator.index(m)
    k = 0 if k is None else k
    check_arraylike("polyint", p, k)
    p_arr, k_arr = promote_dtypes_inexact(asarray(p), asarray(k))
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k_arr = atleast_1d(k_arr)
    if aval(k_arr).shape[0] == 1:
        k_arr = full((m,), k_arr[0])
    if aval(k_arr).shape != (m,):
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or m.")
    if m == 0:
        return p_arr
    dt = aval(p_arr).dtype
    grid = arange(aval(p_arr).shape[0] + m, dtype=dt)[None] - arange(m, dtype=dt)[:, None]
    coeff = prod(maximum(1, grid), axis=0)[::-1]
    return true_divide(concatenate((p_arr, k_arr)), coeff)


def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given (real) roots."""
    check_arraylike("poly", seq_of_zeros)
    z, = promote_dtypes_inexact(asarray(seq_of_zeros))
    z = atleast_1d(z)
    sh = aval(z).shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        raise NotImplementedError("jnp.poly of a matrix needs its (complex) eigenvalues; "
                                  "complex dtypes are not supported in transpile")
    if len(sh) != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    dt = aval(z).dtype
    if sh[0] == 0:
        return ones((), dt)
    a = ones((1,), dt)
    one = ones((1,), dt)
    for i in range(sh[0]):
        a = _convolve_full(a, concatenate([one, -z[i:i + 1]]))
    return a


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):  # noqa: A002
    """Least-squares fit of a degree-``deg`` polynomial to the points ``(x, y)``.

    Parameters
    ----------
    x : array_like
        1-D sample positions.
    y : array_like
        1-D, or 2-D with one fit per column.
    deg : int
    rcond : float, optional
        Relative cutoff of small singular values (default ``len(x) * eps``).
    full : bool
        Also return the residuals, rank, singular values and ``rcond``.
    w : array_like, optional
        Weights of the samples.
    cov : bool or "unscaled"
        Also return the coefficients' covariance matrix (scaled by the residual
        variance unless "unscaled").

    Returns
    -------
    Array, or a tuple when ``full``.
    """
    check_arraylike("polyfit", x, y)
    x_arr, y_arr = asarray(x), asarray(y)
    deg = operator.index(deg)
    order = deg + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if aval(x_arr).ndim != 1:
        raise TypeError("expected 1D vector for x")
    if aval(x_arr).shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if aval(y_arr).ndim < 1 or aval(y_arr).ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if aval(x_arr).shape[0] != aval(y_arr).shape[0]:
        raise TypeError("expected x and y to have same length")
    x_arr, = promote_dtypes_inexact(x_arr)
    if rcond is None:
        rcond = aval(x_arr).shape[0] * float(np.finfo(aval(x_arr).dtype).eps)
    rcond = float(rcond)
    lhs = vander(x_arr, order)
    rhs = y_arr
    if w is not None:
        check_arraylike("polyfit", w)
        w, = promote_dtypes_inexact(asarray(w))
        if aval(w).ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if aval(w).shape[0] != aval(y_arr).shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if aval(rhs).ndim == 2 else w)
    scale = sqrt(jsum(lhs * lhs, axis=0))
    lhs = lhs / scale[None, :]
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    if cov:
        base = inv(dot(lhs.T, lhs)) / outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if aval(x_arr).shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the "
                                 "covariance matrix")
            fac = (resids / (aval(x_arr).shape[0] - order))[0]
        return c, (base * fac if aval(y_arr).ndim == 1 else base[:, :, None] * fac)
    return c

"""Differences, derivatives and integrals of sampled data: diff, ediff1d, gradient,
unwrap, trapezoid, interp; and the products cross and kron.

All follow ``jax.numpy``'s formulas (``gradient`` uses second-order central
differences inside and first-order ones at the edges; ``interp`` finds the interval
with ``searchsorted`` and guards ``dx == 0``), so values match JAX's.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import lax
from ._staging import staged
from ._util import (aval, canonicalize_axis, check_arraylike, ensure_array,
                    promote_dtypes, promote_dtypes_inexact)
from .creation import asarray, zeros_like
from .reductions import cumsum, sum as jsum
from .shape_ops import broadcast_to, concatenate, expand_dims, moveaxis, ravel, reshape, stack
from .sorting import searchsorted
from .ufuncs import abs as jabs, multiply, not_equal, subtract
from .ufuncs_compound import clip, remainder, where

__all__ = ["diff", "ediff1d", "gradient", "unwrap", "trapezoid", "interp", "cross", "kron"]


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th discrete difference along ``axis``.

    Parameters
    ----------
    a : array_like
        At least 1-D.
    n : int
        Number of times to difference (0 returns ``a``).
    axis : int
    prepend, append : array_like, optional
        Values joined to ``a`` along ``axis`` first (scalars are broadcast).

    Returns
    -------
    Array
    """
    check_arraylike("diff", a)
    arr = asarray(a)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:
        return arr
    nd = aval(arr).ndim
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional; got "
                         f"{a}")
    axis = canonicalize_axis(axis, nd)
    for extra in (prepend, append):
        if extra is not None:
            check_arraylike("diff", extra)
    return staged("diff", _diff, (arr, prepend, append), n=n, axis=axis)


def _diff(arr, prepend, append, *, n, axis):
    parts = [arr] if prepend is None else [_edge_piece(prepend, arr, axis), arr]
    if append is not None:
        parts.append(_edge_piece(append, arr, axis))
    if len(parts) > 1:
        arr = concatenate(parts, axis)
    op = not_equal if aval(arr).dtype == np.bool_ else subtract
    for _ in range(n):
        length = aval(arr).shape[axis]
        arr = op(lax.slice_in_dim(arr, 1, length, axis=axis),
                 lax.slice_in_dim(arr, 0, length - 1, axis=axis))
    return arr


def _edge_piece(v, arr, axis):
    v = asarray(v)
    if aval(v).ndim == 0:
        shape = list(aval(arr).shape)
        shape[axis] = 1
        v = broadcast_to(v, tuple(shape))
    return v


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened array, with optional values
    before and after."""
    check_arraylike("ediff1d", ary)
    arr = ravel(ary)
    n = aval(arr).shape[0]
    result = subtract(lax.slice_in_dim(arr, 1, n), lax.slice_in_dim(arr, 0, max(n - 1, 0)))
    dt = aval(result).dtype
    parts = [result]
    if to_begin is not None:
        check_arraylike("ediff1d", to_begin)
        parts.insert(0, lax.convert_element_type(ravel(to_begin), dt))
    if to_end is not None:
        check_arraylike("ediff1d", to_end)
        parts.append(lax.convert_element_type(ravel(to_end), dt))
    return concatenate(parts) if len(parts) > 1 else result


def _gradient_along(a, h, axis):
    def sl(start, stop):
        lo, hi, _ = slice(start, stop).indices(aval(a).shape[axis])
        return lax.slice_in_dim(a, lo, hi, axis=axis)
    upper = sl(1, 2) - sl(0, 1)
    lower = sl(-1, None) - sl(-2, -1)
    if aval(h).ndim == 0:
        inner = (sl(2, None) - sl(0, -2)) * 0.5 / h
        lower = lower / h
        upper = upper / h
    elif aval(h).ndim == 1:
        if aval(h).shape[0] != aval(a).shape[axis]:
            raise ValueError("Spacing arrays must have the same length as the dimension "
                             "along which the gradient is calculated.")
        hs = [1] * aval(a).ndim
        hs[axis] = aval(h).shape[0]
        h = reshape(h, tuple(hs))
        m = aval(h).shape[axis]

        def sx(start, stop):
            return lax.slice_in_dim(h, start, stop, axis=axis)
        upper = upper / (sx(1, 2) - sx(0, 1))
        lower = lower / (sx(m - 1, m) - sx(m - 2, m - 1))
        dx1 = sx(1, m - 1) - sx(0, m - 2)
        dx2 = sx(2, m) - sx(1, m - 1)
        wa = -dx2 / (dx1 * (dx1 + dx2))
        wb = (dx2 - dx1) / (dx1 * dx2)
        wc = dx1 / (dx2 * (dx1 + dx2))
        inner = wa * sl(0, -2) + wb * sl(1, -1) + wc * sl(2, None)
    else:
        raise ValueError("Spacing arrays must be 1D arrays or scalars.")
    return concatenate((upper, inner, lower), axis=axis)


def gradient(f, *varargs, axis=None, edge_order=None):
    """Numerical gradient of sampled ``f`` along each (or the given) axis.

    Parameters
    ----------
    f : array_like
    *varargs : scalar or 1-D array_like
        Spacing: none (1), one for every axis, or one per axis; a 1-D array gives the
        sample coordinates along its axis.
    axis : int or sequence of int, optional
    edge_order : None
        Not supported (as in JAX).

    Returns
    -------
    Array, or a list of Arrays for several axes.
    """
    if edge_order is not None:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not "
                                  "supported.")
    check_arraylike("gradient", f, *varargs)
    a, = promote_dtypes_inexact(asarray(f))
    nd = aval(a).ndim
    if axis is None:
        axes = tuple(range(nd))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(canonicalize_axis(i, nd) for i in axis)
    else:
        axes = (canonicalize_axis(axis, nd),)
    if any(aval(a).shape[i] < 2 for i in axes):
        raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                         "least 2 elements are required.")
    if len(varargs) == 0:
        dx = [1.0] * len(axes)
    elif len(varargs) == 1:
        dx = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        dx = list(varargs)
    else:
        raise TypeError(f"Invalid number of spacing arguments {len(varargs)}")
    grads = [_gradient_along(a, ensure_array(h), ax) for ax, h in zip(axes, dx, strict=True)]
    return grads[0] if len(axes) == 1 else grads


def unwrap(p, discont=None, axis=-1, period=2 * math.pi):
    """Unwrap phases: jumps larger than ``discont`` become their ``period`` complement."""
    check_arraylike("unwrap", p)
    return staged("unwrap", _unwrap, (p, discont, period), axis=axis)


def _unwrap(p, discont, period, *, axis):
    p, = promote_dtypes_inexact(asarray(p))
    if discont is None:
        discont = period / 2
    interval = period / 2
    axis = canonicalize_axis(axis, aval(p).ndim)
    dd = diff(p, axis=axis)
    ddmod = remainder(dd + interval, period) - interval
    ddmod = where((ddmod == -interval) & (dd > 0), interval, ddmod)
    correct = where(jabs(dd) < discont, 0, ddmod - dd)
    n = aval(p).shape[axis]
    head = lax.slice_in_dim(p, 0, 1, axis=axis)
    tail = lax.slice_in_dim(p, 1, n, axis=axis) + cumsum(correct, axis=axis)
    return concatenate((head, tail), axis=axis)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of ``y`` by the trapezoidal rule along ``axis``."""
    if x is None:
        check_arraylike("trapezoid", y)
        y_arr, = promote_dtypes_inexact(asarray(y))
        d = dx
    else:
        check_arraylike("trapezoid", y, x)
        y_arr, x_arr = promote_dtypes_inexact(asarray(y), asarray(x))
        if aval(x_arr).ndim == 1:
            d = diff(x_arr)
        else:
            d = moveaxis(diff(x_arr, axis=axis), axis, -1)
    y_arr = moveaxis(y_arr, axis, -1)
    n = aval(y_arr).shape[-1]
    pair = lax.slice_in_dim(y_arr, 1, n, axis=aval(y_arr).ndim - 1) + \
        lax.slice_in_dim(y_arr, 0, max(n - 1, 0), axis=aval(y_arr).ndim - 1)
    return 0.5 * jsum(multiply(d, pair), axis=-1)


def _interp_edge(value, name):
    if isinstance(value, str):
        if value != "extrapolate":
            raise ValueError(f"{name} must be a scalar, None, or 'extrapolate'; got "
                             f"{value!r}")
        return None, True
    return value, False


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``.

    Parameters
    ----------
    x : array_like
    xp : array_like
        1-D, increasing (unless ``period`` is given).
    fp : array_like
        1-D, of ``xp``'s length.
    left, right : scalar or "extrapolate", optional
        Values below ``xp[0]`` / above ``xp[-1]`` (default: ``fp``'s end values);
        "extrapolate" continues the end segments.
    period : scalar, optional
        ``x`` and ``xp`` are angles of this period.

    Returns
    -------
    Array
    """
    check_arraylike("interp", x, xp, fp)
    left, extrap_left = _interp_edge(left, "left")
    right, extrap_right = _interp_edge(right, "right")
    x_arr, xp_arr, fp_arr = asarray(x), asarray(xp), asarray(fp)
    if aval(xp_arr).shape != aval(fp_arr).shape or aval(xp_arr).ndim != 1:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    x_arr, xp_arr, fp_arr = promote_dtypes_inexact(x_arr, xp_arr, fp_arr)
    if period is not None:
        if np.ndim(period) != 0:
            raise ValueError(f"period must be a scalar; got {period}")
        period = jabs(period)
        x_arr = remainder(x_arr, period)
        xp_arr = remainder(xp_arr, period)
        xp_arr, fp_arr = lax.sort_key_val(xp_arr, fp_arr)
        xp_arr = concatenate([xp_arr[-1:] - period, xp_arr, xp_arr[:1] + period])
        fp_arr = concatenate([fp_arr[-1:], fp_arr, fp_arr[:1]])
    n = aval(xp_arr).shape[0]
    i = clip(searchsorted(xp_arr, x_arr, side="right"), 1, n - 1)
    df = fp_arr[i] - fp_arr[i - 1]
    dx = xp_arr[i] - xp_arr[i - 1]
    delta = x_arr - xp_arr[i - 1]
    eps = np.spacing(np.finfo(aval(xp_arr).dtype).eps)
    # A zero-width interval takes its left value, which also keeps gradients finite.
    dx0 = jabs(dx) <= eps
    f = where(dx0, fp_arr[i - 1], fp_arr[i - 1] + (delta / where(dx0, 1, dx)) * df)
    if period is None:
        if not extrap_left:
            f = where(x_arr < xp_arr[0], fp_arr[0] if left is None else left, f)
        if not extrap_right:
            f = where(x_arr > xp_arr[-1], fp_arr[-1] if right is None else right, f)
    return f


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-vectors along the given axes (2-vectors give the
    scalar z component)."""
    check_arraylike("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    return staged("cross", _cross, (a, b), axisa=axisa, axisb=axisb, axisc=axisc)


def _cross(a, b, *, axisa, axisb, axisc):
    a = moveaxis(asarray(a), axisa, -1)
    b = moveaxis(asarray(b), axisb, -1)
    if aval(a).shape[-1] not in (2, 3) or aval(b).shape[-1] not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if aval(a).shape[-1] == 2 and aval(b).shape[-1] == 2:
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    a0, a1 = a[..., 0], a[..., 1]
    a2 = a[..., 2] if aval(a).shape[-1] == 3 else zeros_like(a0)
    b0, b1 = b[..., 0], b[..., 1]
    b2 = b[..., 2] if aval(b).shape[-1] == 3 else zeros_like(b0)
    c = stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    return moveaxis(c, 0, axisc)


def kron(a, b):
    """Kronecker product: blocks ``a[i, j] * b``."""
    check_arraylike("kron", a, b)
    return staged("kron", _kron, (a, b))


def _kron(a, b):
    a, b = promote_dtypes(asarray(a), asarray(b))
    na, nb = aval(a).ndim, aval(b).ndim
    if na < nb:
        a = expand_dims(a, tuple(range(nb - na)))
    elif nb < na:
        b = expand_dims(b, tuple(range(na - nb)))
    nd = aval(a).ndim
    a_r = expand_dims(a, tuple(range(1, 2 * nd, 2)))
    b_r = expand_dims(b, tuple(range(0, 2 * nd, 2)))
    out_shape = tuple(int(x) * int(y) for x, y in zip(aval(a).shape, aval(b).shape,
                                                      strict=True))
    return reshape(multiply(a_r, b_r), out_shape)

"""Order statistics and covariances: quantile, percentile, median (and their nan*
forms), ptp, cov, corrcoef.

Quantiles follow ``jax.numpy``'s algorithm, so values agree to the last bit: sort
along the axis, place ``q * (n - 1)`` between the indices ``floor`` and ``ceil``
(clamped to the array), read both values and combine them by ``method``. The nan*
forms count the non-NaN elements per slice (NaNs sort last) and use that count as
``n``; the plain forms make a slice holding a NaN all NaN.
"""
from __future__ import annotations

import math

import numpy as np

from .. import lax
from ._staging import hashable_axis, staged
from ._util import (aval, canonicalize_axis, check_arraylike, ensure_array,
                    promote_args_inexact, promote_dtypes_inexact)
from .creation import arange, array
from .index_funcs import take_along_axis
from .linalg_ops import dot
from .reductions import any as jany, average, cumsum, max as jmax, min as jmin, sum as jsum
from .shape_ops import atleast_2d, concatenate, moveaxis, reshape, squeeze
from .ufuncs import isnan, lax_const, sqrt, true_divide
from .ufuncs_compound import clip, where

__all__ = ["quantile", "percentile", "median", "nanquantile", "nanpercentile", "nanmedian",
           "ptp", "cov", "corrcoef"]

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


def _quantile(name, a, q, axis, method, keepdims, squash_nans, weights=None):
    if method not in _METHODS:
        raise ValueError("method can only be 'linear', 'lower', 'higher', 'midpoint', "
                         "'nearest' or 'inverted_cdf'")
    if weights is not None:
        if method != "inverted_cdf":
            raise NotImplementedError(f"{method} doesn't support weights. Only method "
                                      "'inverted_cdf' supports weights.")
        a, weights = promote_dtypes_inexact(ensure_array(a), ensure_array(weights))
        if aval(weights).shape != aval(a).shape:
            if axis is None:
                raise ValueError("Weights shape must match 'a' shape when axis is None.")
            ax_t = tuple(canonicalize_axis(ax, aval(a).ndim) for ax in (
                axis if isinstance(axis, (tuple, list)) else (axis,)))
            want = tuple(aval(a).shape[ax] for ax in ax_t)
            if aval(weights).shape != want:
                raise ValueError(f"Weights shape {aval(weights).shape} must match reduction "
                                 f"axes {want}")
            weights = lax.broadcast_in_dim(weights, aval(a).shape, ax_t)
    else:
        a, = promote_dtypes_inexact(ensure_array(a))
    a_dt = aval(a).dtype
    nd = aval(a).ndim
    if axis is None:
        axes = tuple(range(nd))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(canonicalize_axis(ax, nd) for ax in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {axis}")
    else:
        axes = (canonicalize_axis(axis, nd),)
    kept = [i for i in range(nd) if i not in axes]
    shape = aval(a).shape
    # The reduced axes go last, merged into one of length n.
    n = math.prod(shape[i] for i in axes)
    rest = tuple(shape[i] for i in kept)

    def to_rows(x):
        if kept + list(axes) != list(range(nd)):
            x = lax.transpose(x, tuple(kept) + axes)
        return reshape(x, rest + (n,))
    a = to_rows(a)
    if weights is not None:
        weights = to_rows(weights)
    q, = promote_dtypes_inexact(ensure_array(q))
    q_shape = aval(q).shape
    if len(q_shape) > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {q_shape}")
    q_dt = aval(q).dtype
    q1 = reshape(q, (-1,)) if q_shape else reshape(q, (1,))
    k = aval(q1).shape[0]
    nan_mask = isnan(a)
    if method == "inverted_cdf":
        out = _inverted_cdf(a, q1, weights, nan_mask, squash_nans, rest, k)
    else:
        out = _interpolated(a, q1, nan_mask, squash_nans, method, rest, k, n)
    # rest + (k,) -> (k,) + rest, then the reduced axes back as 1s for keepdims.
    out = moveaxis(out, -1, 0)
    if keepdims:
        out = reshape(out, (k,) + tuple(1 if i in axes else shape[i] for i in range(nd)))
    if not q_shape:
        out = squeeze(out, 0)
    return ensure_array(lax.convert_element_type(out, a_dt))


def _inverted_cdf(a, q1, weights, nan_mask, squash_nans, rest, k):
    """The first sorted value whose cumulative weight reaches ``q`` of the total."""
    q_dt = aval(q1).dtype
    last = len(rest)
    if squash_nans:
        a = where(nan_mask, lax_const(a, math.nan), a)
    else:
        a = where(jany(nan_mask, axis=-1, keepdims=True), lax.full_like(a, math.nan), a)
    if weights is None:
        a = lax.sort(a, dimension=last)
        weights = lax.full_like(a, 1.0)
    else:
        a, weights = lax.sort_key_val(a, weights, dimension=last)
    nan_data = isnan(a)
    zeros = lax.full_like(weights, 0)
    bad = lax.bitwise_or(lax.lt(weights, zeros), isnan(weights))
    clean = lax.select(lax.bitwise_or(bad, nan_data), zeros, weights)
    cum = cumsum(clean, axis=-1)
    total = cum[..., -1]
    target = lax.mul(lax.broadcast_in_dim(q1, rest + (k,), (last,)),
                     lax.broadcast_in_dim(total, rest + (k,), tuple(range(last))))
    n = aval(a).shape[-1]
    less = lax.lt(lax.broadcast_in_dim(cum, rest + (k, n), tuple(range(last)) + (last + 1,)),
                  lax.broadcast_in_dim(target, rest + (k, n), tuple(range(last + 1))))
    idx = jsum(lax.convert_element_type(less, np.int32), axis=-1)
    if squash_nans:
        counts = jsum(lax.bitwise_not(nan_data), axis=-1, dtype=q_dt)
    else:
        counts = lax.full(rest, n, q_dt)
    limit = lax.convert_element_type(lax.sub(counts, lax_const(counts, 1)), np.int32)
    idx = lax.max(lax_const(idx, 0), lax.min(idx, lax.broadcast_in_dim(
        limit, rest + (k,), tuple(range(last)))))
    out = take_along_axis(a, idx, axis=-1)
    if squash_nans:
        force = lax.bitwise_or(jany(bad, axis=-1), lax.eq(counts, lax_const(counts, 0)))
    else:
        force = lax.bitwise_or(jany(bad, axis=-1), jany(nan_data, axis=-1))
    force = lax.broadcast_in_dim(force, rest + (k,), tuple(range(last)))
    return where(force, lax.full_like(out, math.nan), out)


def _interpolated(a, q1, nan_mask, squash_nans, method, rest, k, n):
    q_dt = aval(q1).dtype
    if squash_nans:
        a = lax.sort(where(nan_mask, lax_const(a, math.nan), a), dimension=len(rest))
        counts = jsum(lax.bitwise_not(nan_mask), axis=-1, dtype=q_dt)
        counts = lax.broadcast_in_dim(counts, rest + (k,), tuple(range(len(rest))))
        pos = lax.mul(lax.broadcast_in_dim(q1, rest + (k,), (len(rest),)),
                      lax.sub(counts, lax_const(counts, 1)))
        top = lax.sub(counts, lax_const(counts, 1))
    else:
        a = where(jany(nan_mask, axis=-1, keepdims=True), lax_const(a, math.nan), a)
        a = lax.sort(a, dimension=len(rest))
        top = np.array(n - 1, q_dt)[()]
        pos = lax.broadcast_in_dim(lax.mul(q1, top), rest + (k,), (len(rest),))
    low, high = lax.floor(pos), lax.ceil(pos)
    high_w = lax.sub(pos, low)
    low_w = lax.sub(lax_const(high_w, 1), high_w)
    zero = lax_const(low, 0)
    low = lax.max(zero, lax.min(low, top))
    high = lax.max(zero, lax.min(high, top))
    low_v = take_along_axis(a, lax.convert_element_type(low, np.int32), axis=-1)
    high_v = take_along_axis(a, lax.convert_element_type(high, np.int32), axis=-1)
    if method == "linear":
        out = lax.add(lax.mul(lax.convert_element_type(low_v, q_dt), low_w),
                      lax.mul(lax.convert_element_type(high_v, q_dt), high_w))
    elif method == "lower":
        out = low_v
    elif method == "higher":
        out = high_v
    elif method == "nearest":
        out = lax.select(lax.le(high_w, lax_const(high_w, 0.5)), low_v, high_v)
    else:
        out = lax.mul(lax.add(low_v, high_v), lax_const(low_v, 0.5))
    return out


def _check_quantile_args(name, a, q, out, overwrite_input, weights):
    check_arraylike(name, a, q)
    if weights is not None:
        check_arraylike(name, weights)
    if overwrite_input or out is not None:
        raise ValueError(f"jax.numpy.{name} does not support overwrite_input=True or "
                         "out != None")


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    """The ``q``-th quantiles of ``a`` along ``axis``.

    Parameters
    ----------
    a : array_like
    q : array_like
        Scalar or 1-D, in [0, 1]; the result has ``q``'s shape in front.
    axis : int or tuple of int, optional
        The flattened array when None.
    out, overwrite_input : None, False
        Not supported (JAX's ``ValueError``).
    method : {"linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf"}
    keepdims : bool
    weights : array_like, optional
        Weights of ``a``'s elements (``inverted_cdf`` only): of ``a``'s shape, or of
        the reduced axes' shape.

    Returns
    -------
    Array
        NaN for slices containing NaN.
    """
    _check_quantile_args("quantile", a, q, out, overwrite_input, weights)
    return staged("quantile", _quantile_body, (a, q, weights), axis=hashable_axis(axis),
                  method=method, keepdims=bool(keepdims), squash_nans=False, scale=1)


def _quantile_body(a, q, weights, *, axis, method, keepdims, squash_nans, scale):
    if scale != 1:
        q, = promote_dtypes_inexact(ensure_array(q))
        q = true_divide(q, float(scale))
    return _quantile("quantile", a, q, axis, method, keepdims, squash_nans, weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    """Like :func:`quantile`, over the non-NaN elements of each slice."""
    _check_quantile_args("nanquantile", a, q, out, overwrite_input, weights)
    return staged("nanquantile", _quantile_body, (a, q, weights), axis=hashable_axis(axis),
                  method=method, keepdims=bool(keepdims), squash_nans=True, scale=1)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    """The ``q``-th percentiles (``q`` in [0, 100]); see :func:`quantile`."""
    _check_quantile_args("percentile", a, q, out, overwrite_input, weights)
    return staged("percentile", _quantile_body, (a, q, weights), axis=hashable_axis(axis),
                  method=method, keepdims=bool(keepdims), squash_nans=False, scale=100)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    """Like :func:`percentile`, over the non-NaN elements."""
    _check_quantile_args("nanpercentile", a, q, out, overwrite_input, weights)
    return staged("nanpercentile", _quantile_body, (a, q, weights),
                  axis=hashable_axis(axis), method=method, keepdims=bool(keepdims),
                  squash_nans=True, scale=100)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along ``axis`` (the mean of the two middle values for even lengths)."""
    check_arraylike("median", a)
    return quantile(a, 0.5, axis=axis, out=out, overwrite_input=overwrite_input,
                    keepdims=keepdims, method="midpoint")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median of the non-NaN elements along ``axis``."""
    check_arraylike("nanmedian", a)
    return nanquantile(a, 0.5, axis=axis, out=out, overwrite_input=overwrite_input,
                       keepdims=keepdims, method="midpoint")


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (maximum minus minimum) along ``axis``."""
    check_arraylike("ptp", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.ptp is not supported.")
    return staged("_ptp", _ptp, (a,), axis=hashable_axis(axis), keepdims=bool(keepdims))


def _ptp(a, *, axis, keepdims):
    return ensure_array(lax.sub(jmax(a, axis=axis, keepdims=keepdims),
                                jmin(a, axis=axis, keepdims=keepdims)))


def _check_weights(w, n, name, integer):
    w = ensure_array(w)
    if aval(w).ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if aval(w).shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if integer and aval(w).dtype.kind not in "iub":
        raise ValueError(f"{name} must be integer.")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None):
    """Covariance matrix of the variables in the rows (or columns) of ``m`` (and ``y``).

    Parameters
    ----------
    m : array_like
        1-D or 2-D: each row a variable, each column an observation (``rowvar``).
    y : array_like, optional
        More variables, stacked under ``m``'s.
    rowvar : bool
    bias : bool
        Normalise by ``N`` instead of ``N - 1``.
    ddof : int, optional
        Overrides ``bias``.
    fweights, aweights : array_like, optional
        Integer frequency weights and observation weights.

    Returns
    -------
    Array
    """
    if y is not None:
        m, y = promote_args_inexact("cov", m, y)
        if aval(y).ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    else:
        m, = promote_args_inexact("cov", m)
    if aval(m).ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = atleast_2d(m)
    if not rowvar and aval(x).shape[0] != 1:
        x = x.T
    if aval(x).shape[0] == 0:
        return reshape(array([]), (0, 0))
    if y is not None:
        y2 = atleast_2d(y)
        if not rowvar and aval(y2).shape[0] != 1:
            y2 = y2.T
        x = concatenate((x, y2), axis=0)
    if ddof is None:
        ddof = 1 if not bias else 0
    n_obs = aval(x).shape[1]
    w = None
    if fweights is not None:
        w = _check_weights(fweights, n_obs, "fweights", True)
    if aweights is not None:
        aw = _check_weights(aweights, n_obs, "aweights", False)
        w = aw if w is None else w * aw
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        f = n_obs - ddof
    elif ddof == 0:
        f = w_sum
    elif aweights is None:
        f = w_sum - ddof
    else:
        f = w_sum - ddof * jsum(w * aweights) / w_sum
    x = x - avg[:, None]
    x_t = x.T if w is None else (x * w[None, :]).T
    return squeeze(true_divide(dot(x, x_t), f))


def corrcoef(x, y=None, rowvar=True):
    """Pearson correlation coefficients: :func:`cov` scaled to unit diagonal, in [-1, 1]."""
    check_arraylike("corrcoef", x)
    c = cov(x, y, rowvar)
    if aval(c).ndim == 0:
        return true_divide(c, c)
    n = aval(c).shape[0]
    idx = arange(n)
    stddev = sqrt(c[idx, idx])
    c = c / stddev[:, None] / stddev[None, :]
    return clip(c, -1, 1)


"""Reductions that skip NaN: nansum, nanprod, nanmin, nanmax, nanargmin, nanargmax,
nanmean, nanvar, nanstd, nancumsum, nancumprod.

As in ``jax.numpy``, NaNs are replaced by the reduction's identity before the ordinary
reduction runs (so integer and boolean inputs go straight to it); ``nanmin``/``nanmax``
give NaN, and ``nanargmin``/``nanargmax`` -1, where every element is NaN.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes, lax
from ._staging import hashable_axis, staged
from ._util import aval, check_arraylike, ensure_array, to_inexact_dtype
from .reductions import _upcast_f16, all as jall, argmax, argmin, cumprod, cumsum
from .reductions import max as jmax, mean, min as jmin, prod, sum as jsum
from .ufuncs import isnan, lax_const
from .ufuncs_compound import where as _where

__all__ = ["nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmean",
           "nanvar", "nanstd", "nancumsum", "nancumprod"]


def _inexact(a) -> bool:
    return aval(a).dtype.kind in "fc"


def _nan_reduction(name, a, reduction, identity, nan_if_all_nan, axis, keepdims, where_,
                   **kwargs):
    check_arraylike(name, a)
    if where_ is not None:
        check_arraylike(name, where_)
    return staged(name, _nan_reduction_body, (ensure_array(a), where_), reduction=reduction,
                   identity=identity, nan_if_all_nan=nan_if_all_nan,
                   axis=hashable_axis(axis), keepdims=bool(keepdims),
                   kwargs=tuple(sorted(kwargs.items())))


def _nan_reduction_body(a, where_, *, reduction, identity, nan_if_all_nan, axis, keepdims,
                        kwargs):
    kwargs = dict(kwargs)
    if not _inexact(a):
        return reduction(a, axis=axis, keepdims=keepdims, where=where_, **kwargs)
    out = reduction(_where(isnan(a), lax_const(a, identity), a), axis=axis,
                    keepdims=keepdims, where=where_, **kwargs)
    if nan_if_all_nan:
        return _where(jall(isnan(a), axis=axis, keepdims=keepdims), lax_const(a, math.nan),
                     out)
    return out


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Minimum ignoring NaN (NaN where a slice is all NaN).

    Parameters
    ----------
    a : array_like
    axis : int or tuple of int, optional
    out : None
    keepdims : bool
    initial : scalar, optional
    where : array_like of bool, optional

    Returns
    -------
    Array
    """
    _no_out("nanmin", out)
    return _nan_reduction("nanmin", a, jmin, math.inf, True, axis, keepdims, where,
                          initial=initial)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Maximum ignoring NaN (see :func:`nanmin`)."""
    _no_out("nanmax", out)
    return _nan_reduction("nanmax", a, jmax, -math.inf, True, axis, keepdims, where,
                          initial=initial)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Sum treating NaN as zero (dtype rules of :func:`sum`)."""
    _no_out("nansum", out)
    return _nan_reduction("nansum", a, jsum, 0, False, axis, keepdims, where, dtype=dtype,
                          initial=initial)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product treating NaN as one (dtype rules of :func:`prod`)."""
    _no_out("nanprod", out)
    return _nan_reduction("nanprod", a, prod, 1, False, axis, keepdims, where, dtype=dtype,
                          initial=initial)


def _no_out(name, out):
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")


def _nan_arg(name, a, axis, out, keepdims, fill, reduction):
    check_arraylike(name, a)
    _no_out(name, out)
    return staged("_" + name, _nan_arg_body, (ensure_array(a),), axis=axis,
                   keepdims=keepdims, fill=fill, reduction=reduction)


def _nan_arg_body(a, *, axis, keepdims, fill, reduction):
    if not _inexact(a):
        return reduction(a, axis=axis, keepdims=keepdims)
    mask = isnan(a)
    res = reduction(_where(mask, lax_const(a, fill), a), axis=axis, keepdims=keepdims)
    return _where(jall(mask, axis=axis, keepdims=keepdims), np.int32(-1).astype(
        aval(res).dtype)[()], res)


def nanargmax(a, axis=None, out=None, keepdims=None):
    """Index of the maximum ignoring NaN (-1 where a slice is all NaN)."""
    return _nan_arg("nanargmax", a, axis, out, bool(keepdims), -math.inf, argmax)


def nanargmin(a, axis=None, out=None, keepdims=None):
    """Index of the minimum ignoring NaN (-1 where a slice is all NaN)."""
    return _nan_arg("nanargmin", a, axis, out, bool(keepdims), math.inf, argmin)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    """Mean of the non-NaN elements (NaN where there are none).

    Parameters
    ----------
    a : array_like
    axis : int or tuple of int, optional
    dtype : dtype, optional
    out : None
    keepdims : bool
    where : array_like of bool, optional

    Returns
    -------
    Array
    """
    check_arraylike("nanmean", a)
    _no_out("nanmean", out)
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="nanmean")
    return staged("nanmean", _nanmean_body, (ensure_array(a), where),
                  axis=hashable_axis(axis), dtype=dt, keepdims=bool(keepdims))


def _nanmean_body(a, where, *, axis, dtype, keepdims):
    if not _inexact(a):
        return mean(a, axis, dtype, None, keepdims, where=where)
    dt = to_inexact_dtype(aval(a).dtype) if dtype is None else dtype
    count = jsum(lax.bitwise_not(isnan(a)), axis=axis, dtype=dt, keepdims=keepdims,
                 where=where)
    total = nansum(a, axis, dtype=dt, keepdims=keepdims, where=where)
    return ensure_array(lax.div(total, count))


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None):
    """Variance of the non-NaN elements, normalised by ``count - ddof``."""
    check_arraylike("nanvar", a)
    _no_out("nanvar", out)
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="nanvar")
    return staged("nanvar", _nanvar_body, (ensure_array(a), where), axis=hashable_axis(axis),
                  dtype=dt, ddof=ddof, keepdims=bool(keepdims))


def _nanvar_body(a, where, *, axis, dtype, ddof, keepdims):
    a_dt = aval(a).dtype
    result_dt = to_inexact_dtype(a_dt) if dtype is None else dtype
    compute_dt = _upcast_f16(result_dt)
    a = lax._convert_element_type(a, compute_dt, False)
    a_mean = nanmean(a, axis, dtype=compute_dt, keepdims=True, where=where)
    nan = isnan(a)
    centered = lax.square(_where(nan, lax_const(a, 0), lax.sub(a, a_mean)))
    count = jsum(lax.bitwise_not(nan), axis=axis, keepdims=keepdims, where=where)
    count = lax.sub(count, lax_const(count, ddof))
    empty = lax.le(count, lax_const(count, 0))
    total = _where(empty, np.array(math.nan, compute_dt)[()],
                  jsum(centered, axis, keepdims=keepdims, where=where))
    divisor = _where(empty, lax_const(count, 1), count)
    out_ = lax.div(total, lax.convert_element_type(divisor, compute_dt))
    return ensure_array(lax.convert_element_type(out_, result_dt))


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None):
    """Standard deviation of the non-NaN elements: the square root of :func:`nanvar`."""
    check_arraylike("nanstd", a)
    _no_out("nanstd", out)
    return staged("nanstd", _nanstd_body, (ensure_array(a), where), axis=hashable_axis(axis),
                  dtype=dtype, ddof=ddof, keepdims=bool(keepdims))


def _nanstd_body(a, where, *, axis, dtype, ddof, keepdims):
    return lax.sqrt(nanvar(a, axis, dtype, None, ddof, keepdims, where))


def _nan_cumulative(name, a, axis, dtype, out, fill, cumulative):
    check_arraylike(name, a)
    _no_out(name, out)
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name=name)
    return staged(name, _nan_cumulative_body, (ensure_array(a),), axis=axis, dtype=dt,
                  fill=fill, cumulative=cumulative)


def _nan_cumulative_body(a, *, axis, dtype, fill, cumulative):
    if _inexact(a):
        a = _where(isnan(a), lax_const(a, fill), a)
    return cumulative(a, axis=axis, dtype=dtype)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum treating NaN as zero."""
    return _nan_cumulative("nancumsum", a, axis, dtype, out, 0, cumsum)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product treating NaN as one."""
    return _nan_cumulative("nancumprod", a, axis, dtype, out, 1, cumprod)

"""Reductions: sum/prod/max/min/any/all, mean/var/std, argmax/argmin, cumsum/cumprod.

Dtypes follow ``jax.numpy``: ``sum``/``prod`` widen booleans and narrow integers to the
default (u)int, ``mean``/``var`` give floats, float16 and bfloat16 accumulate in float32 unless
a dtype is requested. ``keepdims`` re-inserts the reduced axes with
``broadcast_in_dim``; ``var``/``std`` are the jitted ``_var``/``_std`` helpers.
"""
from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from .. import dtypes, lax
from ..jit import internal_jit as jit
from ._util import aval, canonicalize_axis, check_arraylike, ensure_array, promote_dtypes_inexact
from .shape_ops import broadcast_to, ravel
from .ufuncs import check_int_overflow, lax_const, multiply
from .ufuncs_compound import where as _jnp_where

__all__ = ["sum", "prod", "max", "min", "amax", "amin", "any", "all", "mean", "average",
           "var", "std", "argmax", "argmin", "cumsum", "cumprod", "cumulative_sum",
           "cumulative_prod", "count_nonzero"]


def _reduction_axes(axis, ndim: int) -> tuple:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        out = tuple(canonicalize_axis(a, ndim) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError(f"duplicate value in 'axis': {tuple(axis)}")
        return out
    if not isinstance(axis, (int, np.integer)):
        raise TypeError(f"'{type(axis).__name__}' object is not iterable")
    return (canonicalize_axis(axis, ndim),)


def _keepdims(out, in_shape: tuple, axes: tuple):
    """Re-insert the reduced axes as size-1 dimensions."""
    shape = tuple(1 if i in axes else d for i, d in enumerate(in_shape))
    kept = tuple(i for i in range(len(in_shape)) if i not in axes)
    return lax.broadcast_in_dim(out, shape, kept)


def _upcast_f16(dt: np.dtype) -> np.dtype:
    # JAX accumulates both 16-bit floats in float32 (and says so in the jaxpr)
    return np.dtype(np.float32) if dt in (np.float16, dtypes.bfloat16) else dt


def _promote_integer_dtype(dt: np.dtype) -> np.dtype:
    """sum/prod accumulate booleans and narrow integers in the default (u)int."""
    if dt == np.bool_:
        return dtypes.default_int_dtype()
    if dtypes.is_narrow_int(dt):  # JAX asks NumPy's iinfo, which refuses them
        raise ValueError(f"Invalid integer data type '{dt.kind}'.")
    if dt.kind == "i" and dt.itemsize < dtypes.default_int_dtype().itemsize:
        return dtypes.default_int_dtype()
    if dt.kind == "u" and dt.itemsize < dtypes.default_uint_dtype().itemsize:
        return dtypes.default_uint_dtype()
    return dt


def _identity_scalar(kind: str, dt: np.dtype):
    """The reduction's identity as a scalar of ``dt`` (what ``where=`` fills with)."""
    if kind in ("sum", "any"):
        value = 0
    elif kind in ("prod", "all"):
        value = 1
    elif dtypes.is_float(dt) or dtypes.is_complex(dt):
        value = -math.inf if kind == "max" else math.inf
    elif dt == np.bool_:
        value = kind == "min"
    else:
        info = dtypes.iinfo(dt)
        value = info.min if kind == "max" else info.max
    return np.array(value).astype(dt)[()]


_LAX_REDUCERS = {"sum": "reduce_sum", "prod": "reduce_prod", "max": "reduce_max",
                 "min": "reduce_min", "any": "reduce_or", "all": "reduce_and"}
_COMBINE = {"sum": lax.add, "prod": lax.mul, "max": lax.max, "min": lax.min,
            "any": lax.bitwise_or, "all": lax.bitwise_and}


def _reduce(kind: str, a, axis, dtype, out, keepdims, initial, where, promote_integers):
    check_arraylike(kind, a)
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{kind} is not supported.")
    a_aval = aval(a)
    axes = _reduction_axes(axis, a_aval.ndim)
    if kind in ("any", "all"):
        result_dt = np.dtype(np.bool_)
        compute_dt = result_dt
    elif dtype is not None:
        result_dt = dtypes.canonicalize_dtype(dtype, warn_name=kind)
        compute_dt = result_dt
    else:
        result_dt = a_aval.dtype
        if kind in ("sum", "prod") and promote_integers:
            result_dt = _promote_integer_dtype(result_dt)
        compute_dt = _upcast_f16(result_dt) if kind in ("sum", "prod") else result_dt
    if kind in ("sum", "prod") and a_aval.dtype == np.bool_:
        # Booleans are counted as the default integer first, whatever the result dtype.
        a = lax.convert_element_type(a, dtypes.default_int_dtype())
    x = lax._convert_element_type(a, compute_dt, False)
    if where is not None:
        if initial is None and kind in ("max", "min"):
            raise ValueError(f"reduction operation {kind} does not have an identity, so to "
                             "use a where mask one has to specify 'initial'")
        x = _jnp_where(where, x, _identity_scalar(kind, compute_dt))
    if initial is None and kind in ("max", "min") and builtins.any(
            a_aval.shape[i] == 0 for i in axes):
        raise ValueError(f"zero-size array to reduction operation {kind} which has no "
                         "identity")
    result = getattr(lax, _LAX_REDUCERS[kind])(x, axes)
    if initial is not None:
        init = np.array(initial).astype(compute_dt)[()]
        result = _COMBINE[kind](init, result)
    if keepdims:
        result = _keepdims(result, a_aval.shape, axes)
    return ensure_array(lax._convert_element_type(result, result_dt, False))


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,  # noqa: A001
        where=None, promote_integers=True):
    """Sum of elements over ``axis``.

    Parameters
    ----------
    a : array_like
    axis : int or tuple of int, optional
    dtype : dtype, optional
        Accumulation and result dtype. By default booleans and integers narrower than
        the default integer are summed as int32 (uint32 for unsigned).
    out : None
    keepdims : bool
    initial : scalar, optional
    where : array_like of bool, optional
    promote_integers : bool

    Returns
    -------
    Array
    """
    return _reduce("sum", a, axis, dtype, out, keepdims, initial, where, promote_integers)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None,
         promote_integers=True):
    """Product of elements over ``axis`` (dtype rules as :func:`sum`)."""
    return _reduce("prod", a, axis, dtype, out, keepdims, initial, where, promote_integers)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """Maximum over ``axis``.

    Parameters
    ----------
    a : array_like
    axis : int or tuple of int, optional
    out : None
    keepdims : bool
    initial : scalar, optional
        Also needed for empty reductions.
    where : array_like of bool, optional

    Returns
    -------
    Array
    """
    return _reduce("max", a, axis, None, out, keepdims, initial, where, False)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """Minimum over ``axis`` (see :func:`max`)."""
    return _reduce("min", a, axis, None, out, keepdims, initial, where, False)


amax, amin = max, min


def any(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    """Whether any element (along ``axis``) is non-zero."""
    return _reduce("any", a, axis, None, out, keepdims, None, where, False)


def all(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    """Whether all elements (along ``axis``) are non-zero."""
    return _reduce("all", a, axis, None, out, keepdims, None, where, False)


def count_nonzero(a, axis=None, keepdims=False):
    """Number of non-zero elements along ``axis``."""
    check_arraylike("count_nonzero", a)
    nz = lax.ne(a, lax_const(a, 0))
    return sum(nz, axis=axis, dtype=dtypes.default_int_dtype(), keepdims=keepdims)


# ---------------------------------------------------------------------------------------
# Means and moments

def _mean_dtypes(a_dtype: np.dtype, dtype):
    if dtype is not None:
        dt = dtypes.canonicalize_dtype(dtype, warn_name="mean")
        return dt, dt
    result = a_dtype if dtypes.is_float(a_dtype) or dtypes.is_complex(a_dtype) else \
        dtypes.default_float_dtype()
    return result, _upcast_f16(result)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """Arithmetic mean along ``axis`` (a float dtype for integer inputs).

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
    check_arraylike("mean", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.mean is not supported.")
    a_aval = aval(a)
    axes = _reduction_axes(axis, a_aval.ndim)
    result_dt, compute_dt = _mean_dtypes(a_aval.dtype, dtype)
    if a_aval.dtype == np.bool_:
        a = lax.convert_element_type(a, dtypes.default_int_dtype())
    if where is None:
        count = math.prod(a_aval.shape[i] for i in axes)
        normalizer = np.array(count, compute_dt)[()]
    else:
        normalizer = sum(_broadcast_mask(where, a_aval.shape), axis, dtype=compute_dt,
                         keepdims=keepdims)
    total = sum(a, axis, dtype=compute_dt, keepdims=keepdims, where=where)
    return ensure_array(lax._convert_element_type(lax.div(total, normalizer), result_dt,
                                                  False))


def _broadcast_mask(where, shape):
    return broadcast_to(where, shape)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """Weighted average along ``axis``; without weights it is :func:`mean`.

    Parameters
    ----------
    a : array_like
    axis : int or tuple of int, optional
    weights : array_like, optional
        Of ``a``'s shape, or 1-D along a single ``axis``.
    returned : bool
        Also return the sum of the weights (the element count without weights).
    keepdims : bool

    Returns
    -------
    Array, or (Array, Array) when ``returned``.
    """
    if weights is None:
        check_arraylike("average", a)
        avg = mean(a, axis=axis, keepdims=keepdims)
        if returned:
            count = math.prod(aval(a).shape[i] for i in _reduction_axes(axis, aval(a).ndim))
            return avg, lax.broadcast_in_dim(np.array(count, aval(avg).dtype)[()],
                                             aval(avg).shape, ())
        return avg
    check_arraylike("average", a, weights)
    a, weights = _promote_pair(a, weights)
    a_shape, w_shape = aval(a).shape, aval(weights).shape
    if a_shape != w_shape:
        if len(w_shape) != 1:
            raise ValueError("1D weights expected when shapes of a and weights differ.")
        if axis is None:
            raise ValueError("Axis must be specified when shapes of a and weights differ.")
        if isinstance(axis, (tuple, list)):
            raise ValueError("Single axis expected when shapes of a and weights differ")
        ax = canonicalize_axis(axis, len(a_shape))
        if w_shape[0] != a_shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        weights = lax.broadcast_in_dim(weights, tuple(
            w_shape[0] if i == ax else 1 for i in range(len(a_shape))), (ax,))
    wsum = sum(weights, axis=axis, keepdims=keepdims)
    avg = lax.div(*_promote_pair(sum(multiply(a, weights), axis=axis, keepdims=keepdims),
                                 wsum))
    if returned:
        if aval(avg).shape != aval(wsum).shape:
            wsum = broadcast_to(wsum, aval(avg).shape)
        return avg, wsum
    return avg


def _promote_pair(x, y):
    return promote_dtypes_inexact(x, y)


def _var_dtypes(a_dtype: np.dtype, dtype):
    if dtype is None and dtypes.is_complex(a_dtype):  # a real result, computed complex
        return dtypes.real_dtype(a_dtype), a_dtype
    if dtype is None:
        result = a_dtype if dtypes.is_float(a_dtype) else dtypes.default_float_dtype()
        return result, _upcast_f16(result)
    dt = dtypes.canonicalize_dtype(dtype, warn_name="var")
    return dt, _upcast_f16(dt)


def _var(a, correction, *, axis, dtype, keepdims):
    a_aval = aval(a)
    axes = _reduction_axes(axis, a_aval.ndim)
    result_dt, compute_dt = _var_dtypes(a_aval.dtype, dtype)
    a = lax._convert_element_type(a, compute_dt, False)
    a_mean = mean(a, axis, keepdims=True)
    centered = lax.sub(a, a_mean)
    if dtypes.is_complex(compute_dt):
        # |a - mean|^2 as JAX's real(c * conj(c)); the rest in the parts' dtype
        centered = lax.real(lax.mul(centered, lax.conj(centered)))
        compute_dt = dtypes.real_dtype(compute_dt)
    else:
        centered = lax.square(centered)
    count = math.prod(a_aval.shape[i] for i in axes)
    normalizer = lax.sub(np.array(count, compute_dt)[()],
                         lax.convert_element_type(correction, compute_dt))
    result = sum(centered, axis, keepdims=keepdims)
    result = lax._convert_element_type(lax.div(result, normalizer), result_dt, False)
    return _jnp_where(lax.gt(normalizer, np.array(0, compute_dt)[()]), result, math.nan)


_var_jit = jit(_var, static_argnames=("axis", "dtype", "keepdims"))


def _static_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None):
    """Variance along ``axis``: ``mean(|a - mean(a)|**2)`` scaled by ``N / (N - ddof)``.

    Parameters
    ----------
    a : array_like
    axis : int or tuple of int, optional
    dtype : dtype, optional
    out : None
    ddof : int
        Delta degrees of freedom (``correction`` is its Array-API name).
    keepdims : bool
    where : None
        Not supported yet.

    Returns
    -------
    Array
    """
    check_arraylike("var", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.var is not supported.")
    if where is not None:
        raise NotImplementedError("jnp.var with where= is not implemented")
    if correction is None:
        correction = ddof
    elif ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    check_int_overflow(("correction",), (correction,))
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="var")
    return _var_jit(a, correction, axis=_static_axis(axis), dtype=dt, keepdims=bool(keepdims))


def _std(a, correction, *, axis, dtype, keepdims):
    return lax.sqrt(_var_jit(a, correction, axis=axis, dtype=dtype, keepdims=keepdims))


_std_jit = jit(_std, static_argnames=("axis", "dtype", "keepdims"))


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None):
    """Standard deviation along ``axis``: the square root of :func:`var`."""
    check_arraylike("std", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.std is not supported.")
    if where is not None:
        raise NotImplementedError("jnp.std with where= is not implemented")
    if correction is None:
        correction = ddof
    elif ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="std")
    return _std_jit(a, correction, axis=_static_axis(axis), dtype=dt, keepdims=bool(keepdims))


# ---------------------------------------------------------------------------------------
# Arg reductions

def _arg_reduce(name: str, a, axis, out, keepdims):
    check_arraylike(name, a)
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
    a_aval = aval(a)
    if axis is None:
        x = ravel(a) if a_aval.ndim != 1 else a
        ax = 0
    else:
        try:
            axis = operator.index(axis)
        except TypeError:
            raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an "
                            "integer") from None
        x = a
        ax = canonicalize_axis(axis, a_aval.ndim)
    if aval(x).shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    result = getattr(lax, name)(x, ax, dtypes.default_int_dtype())
    if keepdims:
        if axis is None:
            result = lax.broadcast_in_dim(result, (1,) * a_aval.ndim, ())
        else:
            result = _keepdims(result, a_aval.shape, (ax,))
    return ensure_array(result)


def argmax(a, axis=None, out=None, keepdims=None):
    """Index of the maximum (the first one; NaN counts as maximal).

    Parameters
    ----------
    a : array_like
    axis : int, optional
        The flattened array is used when None.
    out : None
    keepdims : bool, optional

    Returns
    -------
    Array of int32
    """
    return _arg_reduce("argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, keepdims=None):
    """Index of the minimum (see :func:`argmax`)."""
    return _arg_reduce("argmin", a, axis, out, keepdims)


# ---------------------------------------------------------------------------------------
# Cumulative reductions

def _cumulative_body(kind: str, name: str | None = None):
    def body(a, *, axis, dtype):
        if axis is None:
            a = ravel(a)
            axis = 0
        ax = canonicalize_axis(axis, aval(a).ndim)
        dt = dtype or aval(a).dtype
        if dtype is None and dt == np.bool_:
            dt = dtypes.default_int_dtype()
        a = lax._convert_element_type(a, dt, False)
        return getattr(lax, kind)(a, ax, reverse=False)
    body.__name__ = name or kind
    return body


def _cumulative(kind: str, name: str | None = None):
    return jit(_cumulative_body(kind, name), static_argnames=("axis", "dtype"))


_cumsum_jit = _cumulative("cumsum")
_cumprod_jit = _cumulative("cumprod")
# JAX's names for the array-API functions' staged calls.
_cumulative_sum_jit = _cumulative("cumsum", "_cumsum_with_promotion")
_cumulative_prod = _cumulative_body("cumprod")  # not staged as a call in JAX


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along ``axis`` (the flattened array when None).

    Parameters
    ----------
    a : array_like
    axis : int, optional
    dtype : dtype, optional
        Booleans are summed as int32 by default.
    out : None

    Returns
    -------
    Array
    """
    check_arraylike("cumsum", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.cumsum is not supported.")
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="cumsum")
    return _cumsum_jit(a, axis=axis, dtype=dt)


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along ``axis`` (see :func:`cumsum`)."""
    check_arraylike("cumprod", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.cumprod is not supported.")
    dt = None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="cumprod")
    return _cumprod_jit(a, axis=axis, dtype=dt)


def _cumulative_api(kind: str, word: str, x, axis, dtype, include_initial: bool):
    """The array-API ``cumulative_<kind>``: ``axis`` required beyond 1-D, optionally led
    by the identity (``include_initial``)."""
    check_arraylike(f"cumulative_{kind}", x)
    nd = aval(x).ndim
    if nd == 0:
        raise ValueError(f"The input must be non-scalar to take a cumulative {word}, however "
                         "a scalar value or scalar array was given.")
    if axis is None:
        axis = 0
        if nd > 1:
            raise ValueError(f"The input array has rank {nd}, however axis was not set to an "
                             "explicit value. The axis argument is only optional for "
                             "one-dimensional arrays.")
    axis = canonicalize_axis(axis, nd)
    if dtype is not None:
        dtype = dtypes.canonicalize_dtype(dtype, warn_name=f"cumulative_{kind}")
    elif kind == "sum":
        # The sum promotes narrow integers (and booleans) to the default integer.
        dt = aval(x).dtype
        dtype = _promote_integer_dtype(dt) if dtypes.is_integer(dt) else None
    run = _cumulative_sum_jit if kind == "sum" else _cumulative_prod
    out = run(ensure_array(x), axis=axis, dtype=dtype)
    if include_initial:
        shape = list(aval(x).shape)
        shape[axis] = 1
        first = lax.full(tuple(shape), 0 if kind == "sum" else 1, aval(out).dtype)
        out = lax.concatenate([first, out], axis)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Array-API cumulative sum.

    Parameters
    ----------
    x : array_like
        At least 1-D.
    axis : int, optional
        Required for arrays of rank > 1.
    dtype : dtype, optional
        Narrow integers are summed in the default integer type by default.
    include_initial : bool
        Start with a 0 (the result is one longer along ``axis``).

    Returns
    -------
    Array
    """
    return _cumulative_api("sum", "sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Array-API cumulative product (see :func:`cumulative_sum`; the initial value is 1)."""
    return _cumulative_api("prod", "product", x, axis, dtype, include_initial)

"""Array creation: array/asarray, zeros/ones/full (and their ``_like`` forms), arange,
linspace, eye, and ``astype``.

Concrete inputs give concrete arrays: eagerly an ``Array``, under a jaxpr trace the
trace's constant (a literal when 0-d, a constvar otherwise), as JAX stages them.
Filled arrays are ``broadcast_in_dim`` of a scalar literal.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import core, dtypes, lax
from ..array import Array
from ..core import Tracer
from ..jit import internal_jit as jit
from ..memory import pool
from ._util import aval, check_arraylike, ensure_array, lift_constant
from .shape_ops import broadcast_to, expand_dims, reshape

__all__ = ["array", "asarray", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "arange", "linspace", "eye", "identity", "astype",
           "fill_scalar"]


def _canonical_shape(shape) -> tuple:
    if isinstance(shape, (list, tuple)):
        seq = tuple(shape)
    else:
        seq = (shape,)
    if not any(isinstance(d, Tracer) for d in seq) and all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in seq) and \
            any(d < 0 for d in seq):
        raise TypeError("broadcast_in_dim shape must have every element be nonnegative, got "
                        f"{tuple(int(d) for d in seq)}.")
    return core.canonicalize_shape(shape)


def _requested_dtype(dtype, name: str):
    return None if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name=name)


def fill_scalar(dtype, value, weak_type: bool = False):
    """``value`` as a scalar operand of ``dtype``: a Python scalar when weakly typed (so
    it stages as a weak literal), else a NumPy scalar."""
    dtype = np.dtype(dtype)
    if weak_type:
        return {"b": bool, "i": int, "u": int, "f": float,
                "c": complex}[dtypes.kind(dtype)](value)
    return np.array(value).astype(dtype)[()]


def _filled(shape: tuple, scalar):
    """``scalar`` broadcast to ``shape``; a bare 0-d operand needs no equation."""
    if not shape:
        return ensure_array(scalar)
    return lax.broadcast_in_dim(scalar, shape, ())


def zeros(shape, dtype=None, *, device=None):
    """An array of zeros (float32 by default).

    Parameters
    ----------
    shape : int or sequence of int
    dtype : dtype, optional

    Returns
    -------
    Array
    """
    shape = _canonical_shape(shape)
    dt = _requested_dtype(dtype, "zeros") or dtypes.default_float_dtype()
    return _filled(shape, fill_scalar(dt, 0))


def ones(shape, dtype=None, *, device=None):
    """An array of ones (float32 by default)."""
    shape = _canonical_shape(shape)
    dt = _requested_dtype(dtype, "ones") or dtypes.default_float_dtype()
    return _filled(shape, fill_scalar(dt, 1))


def empty(shape, dtype=None, *, device=None):
    """Like :func:`zeros` (arrays are always initialised)."""
    shape = _canonical_shape(shape)
    dt = _requested_dtype(dtype, "empty") or dtypes.default_float_dtype()
    return _filled(shape, fill_scalar(dt, 0))


def full(shape, fill_value, dtype=None, *, device=None):
    """An array of ``shape`` filled with ``fill_value``.

    Parameters
    ----------
    shape : int or sequence of int
    fill_value : array_like
        A scalar, or an array broadcast to ``shape``.
    dtype : dtype, optional
        Defaults to ``fill_value``'s dtype (weak for a Python scalar).

    Returns
    -------
    Array
    """
    shape = _canonical_shape(shape)
    check_arraylike("full", fill_value)
    dt = _requested_dtype(dtype, "full")
    fa = aval(fill_value)
    if isinstance(fill_value, (Tracer, Array)) or fa.ndim:
        value = fill_value if dt is None else lax._convert_element_type(fill_value, dt, False)
        return broadcast_to(value, shape)
    if dt is None:
        dt, weak = fa.dtype, fa.weak_type
    else:
        weak = False
    return _filled(shape, fill_scalar(dt, fill_value, weak))


def _like_dtype(a, dtype, name):
    a_aval = aval(a)
    if dtype is None:
        return a_aval.dtype, a_aval.weak_type
    return dtypes.canonicalize_dtype(dtype, warn_name=name), False


def full_like(a, fill_value, dtype=None, shape=None, *, device=None):
    """An array like ``a`` (its shape and dtype, unless given) filled with ``fill_value``."""
    check_arraylike("full_like", a, fill_value)
    dt, weak = _like_dtype(a, dtype, "full_like")
    shp = aval(a).shape if shape is None else _canonical_shape(shape)
    if isinstance(fill_value, (Tracer, Array)) or aval(fill_value).ndim:
        value = lax._convert_element_type(fill_value, dt, weak)
        return broadcast_to(value, shp)
    return _filled(shp, fill_scalar(dt, fill_value, weak))


def zeros_like(a, dtype=None, shape=None, *, device=None):
    """Zeros with the shape and dtype of ``a``."""
    check_arraylike("zeros_like", a)
    return full_like(a, 0, dtype, shape)


def ones_like(a, dtype=None, shape=None, *, device=None):
    """Ones with the shape and dtype of ``a``."""
    check_arraylike("ones_like", a)
    return full_like(a, 1, dtype, shape)


def empty_like(prototype, dtype=None, shape=None, *, device=None):
    """Like :func:`zeros_like`."""
    check_arraylike("empty_like", prototype)
    return full_like(prototype, 0, dtype, shape)


# ---------------------------------------------------------------------------------------
# array / asarray / astype

def _leaves(obj) -> list:
    if isinstance(obj, (list, tuple)):
        return [leaf for o in obj for leaf in _leaves(o)]
    return [obj]


def _stack_traced(obj, dtype):
    """Nested sequences holding tracers: convert each leaf, stack along new axes."""
    if isinstance(obj, (list, tuple)):
        parts = [expand_dims(_stack_traced(o, dtype), 0) for o in obj]
        shapes = {aval(p).shape[1:] for p in parts}
        if len(shapes) > 1:
            raise ValueError("setting an array element with a sequence. The requested array "
                             "has an inhomogeneous shape.")
        return lax.concatenate(parts, 0) if len(parts) > 1 else parts[0]
    return lax._convert_element_type(obj, dtype, False)


def _check_leaf(x) -> None:
    if x is None:
        raise ValueError("None is not a valid value for jnp.array")
    if isinstance(x, (str, bytes)) or (isinstance(x, (np.ndarray, np.generic))
                                       and dtypes.kind(x.dtype) not in "biufc"):
        arr = np.asarray(x)
        raise TypeError(f"Value {x!r} with dtype {arr.dtype} is not a valid JAX array type. "
                        "Only arrays of numeric types are supported by JAX.")


def array(object, dtype=None, copy=True, order="K", ndmin=0, *, device=None):  # noqa: A002
    """Create an array from an array, a scalar or nested sequences.

    Parameters
    ----------
    object : array_like
    dtype : dtype, optional
        By default the JAX promotion of the leaves; a bare Python scalar stays weakly
        typed.
    copy : bool
        A traced input is copied (``copy`` equation) when True.
    order : str
        Only 'K', 'A' and 'C' are meaningful; accepted for compatibility.
    ndmin : int
        Minimum number of dimensions (leading 1s are added).

    Returns
    -------
    Array
    """
    dt = _requested_dtype(dtype, "array")
    if hasattr(object, "__jax_array__") and not isinstance(object, (Tracer, Array)):
        object = object.__jax_array__()
    if isinstance(object, Tracer):
        out = object
        copy_p = getattr(lax, "copy_p", None)
        if copy and copy_p is not None:
            out = copy_p.bind(out)
        if dt is not None:
            out = lax._convert_element_type(out, dt, False)
    elif isinstance(object, Array) and not isinstance(object, (list, tuple)):
        out = object
        if dt is not None:
            out = lax._convert_element_type(out, dt, False)
        elif copy:
            out = Array._new(np.array(object._value), object.weak_type)
    else:
        leaves = _leaves(object)
        for leaf in leaves:
            _check_leaf(leaf)
        if any(isinstance(leaf, (Tracer, Array)) for leaf in leaves):
            target = dt or (dtypes.result_type(*leaves) if leaves
                            else dtypes.default_float_dtype())
            out = _stack_traced(object, target)
        else:
            weak = dt is None and type(object) in (int, float, complex)
            if dt is None:
                if isinstance(object, (list, tuple)):
                    dt = dtypes.result_type(*leaves) if leaves else \
                        dtypes.default_float_dtype()
                else:
                    dt = aval(object).dtype
            if type(object) is int and not weak and dt.kind in "iu":
                core.to_numpy(object, core.ShapedArray((), dt))  # the overflow check
            if weak:
                value = core.to_numpy(object)
            elif isinstance(object, (list, tuple)):
                value = np.asarray(object, dtype=dt)
            else:
                # a fresh 64-byte aligned copy: kernels stream aligned rows
                src = np.asarray(object)
                value = pool.empty_aligned(src.shape, dt)
                np.copyto(value, src, casting="unsafe")
            out = lift_constant(value, weak)
    nd = aval(out).ndim
    if ndmin > nd:
        out = expand_dims(out, tuple(range(ndmin - nd)))
    return ensure_array(out)


def asarray(a, dtype=None, order=None, *, copy=None, device=None):
    """Convert ``a`` to an array without copying arrays (see :func:`array`); an object
    with ``__jax_array__`` is converted by it."""
    if hasattr(a, "__jax_array__") and not isinstance(a, (Tracer, Array)):
        a = a.__jax_array__()
    if isinstance(a, (Tracer, Array)):
        if dtype is None:
            return a
        return ensure_array(lax._convert_element_type(
            a, dtypes.canonicalize_dtype(dtype, warn_name="asarray"), False))
    dt = _requested_dtype(dtype, "asarray")
    return array(a, dtype=dt, copy=bool(copy))


def astype(x, dtype, /, *, copy=False, device=None):
    """Cast ``x`` to ``dtype`` (the result is strongly typed).

    Parameters
    ----------
    x : array_like
    dtype : dtype

    Returns
    -------
    Array
    """
    check_arraylike("astype", x)
    dt = dtypes.canonicalize_dtype(dtype, warn_name="astype")
    return ensure_array(lax._convert_element_type(x, dt, False))


# ---------------------------------------------------------------------------------------
# Ranges

def _concrete_scalar(x, name: str):
    v = core.concrete_or_error(x, f"It arose in the jnp.arange argument '{name}'")
    return v.item() if isinstance(v, (np.ndarray, np.generic)) else \
        (v._value.item() if isinstance(v, Array) else v)


def arange(start, stop=None, step=None, dtype=None, *, device=None):
    """Evenly spaced values in ``[start, stop)``: ``start + step * iota``.

    Parameters
    ----------
    start, stop, step : scalars (concrete)
        With one argument it is ``stop``.
    dtype : dtype, optional
        By default the promotion of the arguments.

    Returns
    -------
    Array
    """
    dt = _requested_dtype(dtype, "arange")
    if stop is None and step is None:
        stop_v = _concrete_scalar(start, "stop")
        out_dt = dt or dtypes.canonicalize_dtype(dtypes.result_type(start))
        n = max(math.ceil(stop_v), 0)
        return lax.iota(out_dt, n)
    start_v = _concrete_scalar(start, "start")
    stop_v = _concrete_scalar(stop, "stop") if stop is not None else None
    step_v = _concrete_scalar(step, "step") if step is not None else None
    args = [a for a in (start, stop, step) if a is not None]
    out_dt = dt or dtypes.result_type(*args)
    if stop_v is None:
        start_v, stop_v = 0, start_v
    n = max(math.ceil((stop_v - start_v) / (1 if step_v is None else step_v)), 0)
    out = lax.iota(out_dt, n)
    if step_v is not None:
        out = lax.mul(fill_scalar(out_dt, step_v), out)
    return lax.add(fill_scalar(out_dt, start_v), out)


def _linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    comp_dt = dtypes.result_type(start, stop, 1.0)
    if dtype is not None and dtypes.is_float(np.dtype(dtype)):
        comp_dt = np.dtype(dtype)
    out_dt = comp_dt if dtype is None else np.dtype(dtype)
    start = lax._convert_element_type(start, comp_dt, False)
    stop = lax._convert_element_type(stop, comp_dt, False)
    bounds = tuple(np.broadcast_shapes(aval(start).shape, aval(stop).shape))
    b_start = broadcast_to(start, bounds)
    b_stop = broadcast_to(stop, bounds)
    axis = axis if axis >= 0 else len(bounds) + axis + 1
    out_shape = bounds[:axis] + (1,) + bounds[axis:]
    div = (num - 1) if endpoint else num
    delta = step = None
    if num > 1:
        delta = lax.sub(stop, start)
        step = lax.div(delta, fill_scalar(comp_dt, div))
        iota_shape = tuple(div if i == axis else 1 for i in range(len(out_shape)))
        frac = reshape(lax.iota(comp_dt, div), iota_shape)
        frac = lax.div(frac, fill_scalar(comp_dt, div))
        out = lax.add(lax.mul(reshape(b_start, out_shape),
                              lax.sub(fill_scalar(comp_dt, 1), frac)),
                      lax.mul(reshape(b_stop, out_shape), frac))
        if endpoint:
            out = lax.concatenate([out, expand_dims(b_stop, axis)], axis)
    elif num == 1:
        out = reshape(b_start, out_shape)
    else:
        zero_shape = out_shape[:axis] + (0,) + out_shape[axis + 1:]
        out = lax.broadcast_in_dim(fill_scalar(comp_dt, 0), zero_shape, ())
    if dtypes.is_integer(out_dt):
        out = lax.floor(out)
    out = lax._convert_element_type(out, out_dt, False)
    if retstep:
        if step is None:
            step = lax.div(lax.sub(stop, start), fill_scalar(comp_dt, div or np.nan))
        return out, step
    return out


_linspace_jit = jit(_linspace, static_argnames=("num", "endpoint", "retstep", "dtype",
                                                "axis"))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0,
             *, device=None):
    """``num`` evenly spaced samples from ``start`` to ``stop``.

    Parameters
    ----------
    start, stop : array_like
    num : int
    endpoint : bool
        Include ``stop`` as the last sample.
    retstep : bool
        Also return the spacing.
    dtype : dtype, optional
    axis : int
        Where the samples go when ``start``/``stop`` are arrays.

    Returns
    -------
    Array, or (Array, Array) with ``retstep``
    """
    check_arraylike("linspace", start, stop)
    num = core.concrete_or_error(num, "'num' argument of jnp.linspace")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dt = _requested_dtype(dtype, "linspace")
    return _linspace_jit(start, stop, num=num, endpoint=bool(endpoint),
                         retstep=bool(retstep), dtype=dt, axis=operator.index(axis))


def eye(N, M=None, k=0, dtype=None, *, device=None):
    """A 2-D array with ones on the ``k``-th diagonal.

    Parameters
    ----------
    N : int
    M : int, optional
        Columns (defaults to ``N``).
    k : int
        Diagonal offset.
    dtype : dtype, optional

    Returns
    -------
    Array
    """
    dt = _requested_dtype(dtype, "eye") or dtypes.default_float_dtype()
    n, m = core.canonicalize_shape((N, N if M is None else M))
    # an offset past every column (or row) leaves no diagonal; clamping keeps it in
    # the index dtype however large it is
    k = max(-n, min(m, operator.index(k)))
    int_dt = dtypes.default_int_dtype()
    rows = lax.broadcasted_iota(int_dt, (n, m), 0)
    cols = lax.broadcasted_iota(int_dt, (n, m), 1)
    out = lax.eq(lax.add(rows, np.array(k, int_dt)[()]), cols)
    return lax._convert_element_type(out, dt, False)


def identity(n, dtype=None):
    """The ``n`` x ``n`` identity matrix."""
    return eye(n, dtype=dtype)

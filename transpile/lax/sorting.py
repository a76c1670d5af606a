"""``sort`` (several operands sorted together by their first ``num_keys``), ``top_k``
and ``stop_gradient``.

Sorting follows XLA's total order for floats as JAX 0.10.2 shows it: NaNs (of either
sign) go last, ``-0.0`` and ``0.0`` compare equal, and equal keys keep their input
order. The NumPy rule is always stable, which is a valid result for
``is_stable=False`` too.

``top_k`` orders differently, as JAX 0.10.2 on CPU shows: floats by their total order
(``-NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN``, so a NaN with its sign bit clear
is the largest value and ``0.0`` beats ``-0.0``), largest first, equal values keeping
their input order (lower index first).

``stop_gradient`` is a primitive in JAX 0.10.2 (``b:f32[3] = stop_gradient a``); its
value is its operand, and the AD rule (a zero tangent) belongs to ``interpreters/ad``.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, dtypes, tree_util
from ..core import ShapedArray
from . import _float8

__all__ = ["sort", "sort_key_val", "top_k", "stop_gradient", "sort_p", "top_k_p",
           "stop_gradient_p"]

_AxisError = np.exceptions.AxisError  # a ValueError and an IndexError, as in JAX


# ---------------------------------------------------------------------------------------
# sort

sort_p = core.new_primitive("sort", multiple_results=True)
sort_p.cost = core.Cost.FREE


@sort_p.def_abstract_eval
def _sort_abstract(*operands, dimension, is_stable, num_keys):
    if not operands:
        raise TypeError("Sort requires at least one operand")
    if any(x.shape != operands[0].shape for x in operands):
        raise TypeError("Arguments to sort must have equal shapes, got: "
                        + " ".join(str(x.shape) for x in operands))
    ndim = operands[0].ndim
    if not 0 <= dimension < ndim:
        raise _AxisError(dimension, ndim)
    if not 1 <= num_keys <= len(operands):
        raise ValueError(f"num_keys={num_keys} must be between 1 and "
                         f"len(operand)={len(operands)}")
    return [ShapedArray(x.shape, x.dtype, x.weak_type) for x in operands]


def _sort_keys(x: np.ndarray) -> list:
    """``np.lexsort`` keys for one operand, least significant first."""
    if dtypes.is_complex(x.dtype):  # lexicographic: the real part, then the imaginary
        return _sort_keys(np.ascontiguousarray(x.imag)) + _sort_keys(
            np.ascontiguousarray(x.real))
    if not dtypes.is_float(x.dtype):
        return [x]
    nan = np.isnan(x)
    # Adding 0.0 turns -0.0 into 0.0 so the two tie; NaNs tie among themselves.
    return [np.where(nan, x.dtype.type(0), x + x.dtype.type(0)), nan]


@sort_p.def_impl
@_float8.sort_rule
def _sort_impl(*operands, dimension, is_stable, num_keys):
    moved = [np.moveaxis(x, dimension, -1) for x in operands]
    keys = []
    for x in reversed(moved[:num_keys]):  # lexsort's last key is the primary one
        keys.extend(_sort_keys(x))
    order = np.lexsort(keys, axis=-1)
    return [np.moveaxis(np.take_along_axis(x, order, axis=-1), -1, dimension)
            for x in moved]


def sort(operand, dimension: int = -1, is_stable: bool = True, num_keys: int = 1):
    """Sort along ``dimension``; several operands are permuted together.

    Parameters
    ----------
    operand : array_like or sequence of array_like
        One array, or arrays of equal shape; the first ``num_keys`` of them are the keys
        (compared lexicographically).
    dimension : int
        May be negative.
    is_stable : bool
        Whether equal keys must keep their order.
    num_keys : int

    Returns
    -------
    Array or tuple of Array
        A single array for a single array input, else a tuple.
    """
    single = not isinstance(operand, (tuple, list))
    operands = (operand,) if single else tuple(operand)
    if not operands:
        raise TypeError("Sort requires at least one operand")
    num_keys = operator.index(num_keys)
    if not 1 <= num_keys <= len(operands):
        raise ValueError(f"num_keys={num_keys} must be between 1 and "
                         f"len(operand)={len(operands)}")
    ndim = len(core.get_aval(operands[0]).shape)
    dimension = operator.index(dimension)
    if not -ndim <= dimension < ndim:
        raise _AxisError(dimension, ndim)
    dimension = dimension + ndim if dimension < 0 else dimension
    outs = sort_p.bind(*operands, dimension=dimension, is_stable=bool(is_stable),
                       num_keys=num_keys)
    return outs[0] if single else tuple(outs)


def sort_key_val(keys, values, dimension: int = -1, is_stable: bool = True):
    """Sort ``keys`` along ``dimension`` and permute ``values`` the same way.

    Parameters
    ----------
    keys, values : array_like
        Of equal shape.
    dimension : int
    is_stable : bool

    Returns
    -------
    (Array, Array)
        The sorted keys and the matching values.
    """
    k, v = sort((keys, values), dimension=dimension, is_stable=is_stable, num_keys=1)
    return k, v


# ---------------------------------------------------------------------------------------
# top_k

top_k_p = core.new_primitive("top_k", multiple_results=True)


def _check_top_k(shape, k, axis):
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    if shape[axis] < k:
        raise ValueError("k argument to top_k must be no larger than size along axis; "
                         f"got k={k} with shape={list(shape)} and axis={axis}")


@top_k_p.def_abstract_eval
def _top_k_abstract(operand, *, k, axis):
    shape = operand.shape
    if not 0 <= axis < len(shape):
        raise ValueError(f"axis argument out of range: axis={axis} for "
                         f"operand.shape={shape}")
    _check_top_k(shape, k, axis)
    out = shape[:axis] + (k,) + shape[axis + 1:]
    # JAX 0.10.2 gives both outputs the operand's weak type.
    return [ShapedArray(out, operand.dtype, operand.weak_type),
            ShapedArray(out, np.dtype(np.int32), operand.weak_type)]


def total_order_key(x: np.ndarray) -> np.ndarray:
    """Integers ordered as ``top_k`` orders ``x``: a float's bits as a signed integer,
    the magnitude bits flipped when negative (``-NaN`` lowest, ``NaN`` highest)."""
    if dtypes.is_float(x.dtype):
        bits = x.view(f"i{x.dtype.itemsize}").astype(np.int64)
        return np.where(bits < 0, -(bits & np.iinfo(f"i{x.dtype.itemsize}").max) - 1, bits)
    if x.dtype == np.bool_:
        return x.astype(np.int8)
    return x


@top_k_p.def_impl
@_float8.sort_rule
def _top_k_impl(operand, *, k, axis):
    x = np.moveaxis(np.asarray(operand), axis, -1)
    key = total_order_key(x)[..., ::-1]
    # A stable ascending sort of the reversed slice, read backwards: largest first,
    # ties in input order.
    order = (x.shape[-1] - 1 - np.argsort(key, axis=-1, kind="stable"))[..., ::-1][..., :k]
    values = np.take_along_axis(x, order, axis=-1)
    return [np.moveaxis(values, -1, axis),
            np.moveaxis(order.astype(np.int32), -1, axis)]


def top_k(operand, k: int, *, axis: int = -1):
    """The ``k`` largest entries along ``axis`` and their indices, largest first.

    Parameters
    ----------
    operand : array_like
    k : int
        Non-negative, at most the size of ``axis``.
    axis : int
        May be negative (the last axis by default).

    Returns
    -------
    (Array, Array)
        The values (``operand``'s dtype) and their ``int32`` indices along ``axis``;
        ``axis`` has size ``k`` in both. Floats follow the total order (see the module
        docstring); equal values keep their input order.
    """
    if isinstance(k, (float, np.floating)) or not _is_index(k):
        raise TypeError("Shapes must be 1D sequences of concrete values of integer type, "
                        f"got [{k!r}].")
    k = operator.index(k)
    axis = operator.index(axis)
    shape = core.get_aval(operand).shape
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    ndim = len(shape)
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    axis = axis + ndim if axis < 0 else axis
    _check_top_k(shape, k, axis)
    return top_k_p.bind(operand, k=k, axis=axis)


def _is_index(k) -> bool:
    try:
        operator.index(k)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------------------------------
# stop_gradient

stop_gradient_p = core.new_primitive("stop_gradient")
stop_gradient_p.cost = core.Cost.FREE


@stop_gradient_p.def_abstract_eval
def _stop_gradient_abstract(x):
    return x


@stop_gradient_p.def_impl
def _stop_gradient_impl(x):
    return x


def stop_gradient(x):
    """The value of ``x`` (a pytree of arrays), with zero derivative under ``grad``.

    Parameters
    ----------
    x : pytree of array_like

    Returns
    -------
    pytree of Array
        Same structure; every leaf passes through a ``stop_gradient`` equation.
    """
    return tree_util.tree_map(stop_gradient_p.bind, x)

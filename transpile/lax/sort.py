"""``sort`` (several operands sorted together by their first ``num_keys``) and
``stop_gradient``.

Sorting follows XLA's total order for floats as JAX 0.10.2 shows it: NaNs (of either
sign) go last, ``-0.0`` and ``0.0`` compare equal, and equal keys keep their input
order. The NumPy rule is always stable, which is a valid result for
``is_stable=False`` too.

``stop_gradient`` is a primitive in JAX 0.10.2 (``b:f32[3] = stop_gradient a``); its
value is its operand, and the AD rule (a zero tangent) belongs to ``interpreters/ad``.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, tree_util
from ..core import ShapedArray

__all__ = ["sort", "sort_key_val", "stop_gradient", "sort_p", "stop_gradient_p"]

_AxisError = np.exceptions.AxisError  # a ValueError and an IndexError, as in JAX


# ---------------------------------------------------------------------------------------
# sort

sort_p = core.new_primitive("sort", multiple_results=True)


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
    if x.dtype.kind != "f":
        return [x]
    nan = np.isnan(x)
    # Adding 0.0 turns -0.0 into 0.0 so the two tie; NaNs tie among themselves.
    return [np.where(nan, x.dtype.type(0), x + x.dtype.type(0)), nan]


@sort_p.def_impl
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
# stop_gradient

stop_gradient_p = core.new_primitive("stop_gradient")


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

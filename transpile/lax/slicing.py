"""Slicing and joining primitives: ``slice``, ``pad``, ``concatenate`` and ``iota``.

Split from ``structural.py`` (same conventions): each primitive is one block with its
abstract-eval rule, NumPy rule, printing rule and lax API function.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from .structural import _pyslice, squeeze, _int_tuple, _check_ints, _canonical_axis, _shape, _unchanged, _no_sharding

__all__ = ["slice", "slice_in_dim", "index_in_dim", "pad", "concatenate", "iota",
           "broadcasted_iota", "slice_p", "pad_p", "concatenate_p", "iota_p"]

# ---------------------------------------------------------------------------------------
# slice

slice_p = core.new_primitive("slice")
slice_p.cost = core.Cost.FREE


@slice_p.def_abstract_eval
def _slice_abstract(x, *, start_indices, limit_indices, strides):
    start, limit = start_indices, limit_indices
    if len(start) != x.ndim:
        raise TypeError("slice start_indices must have length equal to the number of "
                        f"dimensions of the operand, got indices {start} for operand shape "
                        f"{x.shape}.")
    if len(limit) != len(start):
        raise TypeError("slice limit_indices must have the same length as start_indices, "
                        f"got start_indices {start} and limit_indices {limit}.")
    if any(lim > n for lim, n in zip(limit, x.shape, strict=True)):
        raise TypeError("slice limit_indices must be less than or equal to operand shape, "
                        f"got limit_indices {limit} for operand shape {x.shape}.")
    _check_ints("slice", "start_indices", start)
    if any(lim < s for s, lim in zip(start, limit, strict=True)):
        raise TypeError("slice limit_indices must be greater than or equal to "
                        f"start_indices, got start_indices {start} and limit_indices "
                        f"{limit}.")
    if strides is None:
        strides = (1,) * x.ndim
    else:
        if len(strides) != x.ndim:
            raise TypeError("slice strides must have length equal to the number of "
                            f"dimensions of the operand, got strides {strides} for operand "
                            f"shape {x.shape}.")
        _check_ints("slice", "strides", strides)
        if any(st == 0 for st in strides):  # JAX 0.10.2 raises ZeroDivisionError here
            raise TypeError(f"slice strides must have every element be positive, got "
                            f"{strides}.")
    shape = tuple((lim - s + st - 1) // st
                  for s, lim, st in zip(start, limit, strides, strict=True))
    return ShapedArray(shape, x.dtype, x.weak_type)


@slice_p.def_impl
def _slice_impl(x, *, start_indices, limit_indices, strides):
    strides = strides or (1,) * x.ndim
    idx = tuple(_pyslice(s, lim, st)
                for s, lim, st in zip(start_indices, limit_indices, strides, strict=True))
    return x[idx]


def slice(operand, start_indices, limit_indices, strides=None):  # noqa: A001
    """The sub-array ``operand[start:limit:stride]`` along every axis.

    Parameters
    ----------
    operand : array_like
    start_indices, limit_indices : sequence of int
        One per axis; ``0 <= start <= limit <= size``.
    strides : sequence of int, optional
        Positive steps; None means all 1 (and prints as ``strides=None``).

    Returns
    -------
    Array
    """
    start = tuple(operator.index(i) for i in start_indices)
    limit = tuple(operator.index(i) for i in limit_indices)
    strides = None if strides is None else tuple(operator.index(i) for i in strides)
    return slice_p.bind(operand, start_indices=start, limit_indices=limit, strides=strides)


def slice_in_dim(operand, start_index, limit_index, stride: int = 1, axis: int = 0):
    """``slice`` along one axis; indices may be None or negative (counted from the end).

    Parameters
    ----------
    operand : array_like
    start_index, limit_index : int or None
    stride : int
    axis : int

    Returns
    -------
    Array
    """
    shape = _shape(operand)
    axis = _canonical_axis(axis, len(shape))
    size = shape[axis]
    start = 0 if start_index is None else operator.index(start_index)
    limit = size if limit_index is None else operator.index(limit_index)
    start = start + size if start < 0 else start
    limit = limit + size if limit < 0 else limit
    starts = [0] * len(shape)
    limits = list(shape)
    strides = [1] * len(shape)
    starts[axis], limits[axis], strides[axis] = start, limit, operator.index(stride)
    return slice(operand, starts, limits, strides)


def index_in_dim(operand, index: int, axis: int = 0, keepdims: bool = True):
    """Element ``index`` of ``operand`` along ``axis``, keeping that axis (size 1) or not.

    Parameters
    ----------
    operand : array_like
    index : int
        May be negative.
    axis : int
    keepdims : bool

    Returns
    -------
    Array
    """
    shape = _shape(operand)
    axis = _canonical_axis(axis, len(shape))
    index = operator.index(index)
    size = shape[axis]
    wrapped = index + size if index < 0 else index
    if not 0 <= wrapped < size:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
    out = slice_in_dim(operand, wrapped, wrapped + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


# ---------------------------------------------------------------------------------------
# pad

pad_p = core.new_primitive("pad")
pad_p.cost = core.Cost.FREE


@pad_p.def_abstract_eval
def _pad_abstract(x, padding_value, *, padding_config):
    if x.dtype != padding_value.dtype:
        raise TypeError("pad operand and padding_value must be same dtype: got "
                        f"{x.dtype.name} and {padding_value.dtype.name}.")
    if padding_value.shape:
        raise ValueError(f"padding_value must be a scalar; got np.shape(padding_value)="
                         f"{padding_value.shape}")
    if len(padding_config) != x.ndim:
        raise ValueError("length of padding_config must equal the number of axes of "
                         f"operand, got padding_config {padding_config} for operand shape "
                         f"{x.shape}")
    if any(interior < 0 for _, _, interior in padding_config):
        raise ValueError("interior padding in padding_config must be nonnegative, got "
                         f"padding_config {padding_config}")
    shape = tuple(lo + hi + n + max(n - 1, 0) * interior
                  for n, (lo, hi, interior) in zip(x.shape, padding_config, strict=True))
    if any(n < 0 for n in shape):
        raise ValueError(f"Dimension size after padding is not at least 0, got result shape "
                         f"{shape}, for padding_config {padding_config} and operand shape "
                         f"{x.shape}")
    return ShapedArray(shape, x.dtype, x.weak_type and padding_value.weak_type)


@pad_p.def_impl
def _pad_impl(x, padding_value, *, padding_config):
    # Pad with the positive amounts, placing elements `interior` apart, then crop the
    # negative amounts from the ends.
    full_shape = tuple(max(lo, 0) + n + max(n - 1, 0) * interior + max(hi, 0)
                       for n, (lo, hi, interior) in zip(x.shape, padding_config, strict=True))
    out = np.full(full_shape, padding_value, dtype=x.dtype)
    place = tuple(_pyslice(max(lo, 0), max(lo, 0) + (n - 1) * (interior + 1) + 1 if n
                           else max(lo, 0), interior + 1)
                  for n, (lo, _, interior) in zip(x.shape, padding_config, strict=True))
    out[place] = x
    crop = tuple(_pyslice(max(-lo, 0), size - max(-hi, 0))
                 for size, (lo, hi, _) in zip(full_shape, padding_config, strict=True))
    return out[crop]


def pad(operand, padding_value, padding_config):
    """Pad ``operand`` with ``padding_value``: (low, high, interior) amounts per axis.

    Negative low/high amounts remove elements from that end.

    Parameters
    ----------
    operand : array_like
    padding_value : scalar
        Of the operand's dtype (lax does not promote).
    padding_config : sequence of (int, int, int)

    Returns
    -------
    Array
    """
    config = tuple(tuple(operator.index(v) for v in c) for c in padding_config)
    return pad_p.bind(operand, padding_value, padding_config=config)


# ---------------------------------------------------------------------------------------
# concatenate

concatenate_p = core.new_primitive("concatenate")
concatenate_p.cost = core.Cost.FREE


@concatenate_p.def_abstract_eval
def _concatenate_abstract(*xs, dimension):
    if not xs:
        raise ValueError("concatenate requires a non-empty sequences of arrays")
    shapes = ", ".join(str(x.shape) for x in xs)
    if any(x.ndim != xs[0].ndim for x in xs):
        raise TypeError("Cannot concatenate arrays with different numbers of dimensions: "
                        f"got {shapes}.")
    if not 0 <= dimension < xs[0].ndim:
        raise TypeError(f"concatenate dimension out of bounds: dimension {dimension} for "
                        f"shapes {shapes}.")
    others = [x.shape[:dimension] + x.shape[dimension + 1:] for x in xs]
    if any(o != others[0] for o in others):
        raise TypeError("Cannot concatenate arrays with shapes that differ in dimensions "
                        "other than the one being concatenated: concatenating along "
                        f"dimension {dimension} for shapes {shapes}.")
    if any(x.dtype != xs[0].dtype for x in xs):
        raise TypeError("lax.concatenate requires arguments to have the same dtypes, got "
                        f"{', '.join(x.dtype.name for x in xs)}. (Tip: jnp.concatenate is "
                        "a similar function that does automatic type promotion on inputs).")
    shape = list(xs[0].shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(shape, xs[0].dtype, all(x.weak_type for x in xs))


@concatenate_p.def_impl
def _concatenate_impl(*xs, dimension):
    return np.concatenate(xs, axis=dimension)


def concatenate(operands, dimension: int):
    """Join ``operands`` (same dtype and rank) along axis ``dimension`` (non-negative).

    Parameters
    ----------
    operands : sequence of array_like
    dimension : int

    Returns
    -------
    Array
    """
    operands = list(operands)
    if len(operands) == 1:
        same = _unchanged(operands[0])
        if same is not None:
            return same
    return concatenate_p.bind(*operands, dimension=operator.index(dimension))


# ---------------------------------------------------------------------------------------
# iota

iota_p = core.new_primitive("iota")
iota_p.cost = core.Cost.FREE


@iota_p.def_abstract_eval
def _iota_abstract(*, dtype, shape, dimension, sharding):
    if dtypes.kind(np.dtype(dtype)) not in "iufc":
        raise TypeError(f"iota does not accept dtype {np.dtype(dtype).name}. Accepted "
                        "dtypes are subtypes of integer, floating, complexfloating.")
    _check_ints("iota", "shape", shape)
    if not 0 <= dimension < len(shape):
        raise ValueError("iota dimension must be between 0 and len(shape), got "
                         f"dimension={dimension} for shape={shape}")
    return ShapedArray(shape, dtype, False)


@iota_p.def_impl
def _iota_impl(*, dtype, shape, dimension, sharding):
    # Count in int64 and convert, so that narrow integer types wrap like XLA's iota.
    ramp = np.arange(shape[dimension], dtype=np.int64).astype(dtype)
    expanded = [1] * len(shape)
    expanded[dimension] = shape[dimension]
    return np.broadcast_to(ramp.reshape(expanded), shape).copy()


def broadcasted_iota(dtype, shape, dimension: int, *, out_sharding=None):
    """An array of ``shape`` whose values count 0, 1, ... along ``dimension``.

    Parameters
    ----------
    dtype : dtype-like
        An integer or floating dtype.
    shape : sequence of int
    dimension : int
        Non-negative.
    out_sharding : None
        Accepted for compatibility; only None is supported.

    Returns
    -------
    Array
    """
    _no_sharding(out_sharding)
    dtype = dtypes.canonicalize_dtype(dtype, warn_name="broadcasted_iota")
    return iota_p.bind(dtype=dtype, shape=_int_tuple(shape),
                       dimension=operator.index(dimension), sharding=None)


def iota(dtype, size: int):
    """``[0, 1, ..., size - 1]`` in ``dtype``.

    Parameters
    ----------
    dtype : dtype-like
    size : int

    Returns
    -------
    Array
    """
    return broadcasted_iota(dtype, (size,), 0)


core.index_in_dim = index_in_dim  # iterating over a tracer unstacks through it

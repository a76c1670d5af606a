"""Structural primitives: they move, copy or select elements but compute nothing.

``broadcast_in_dim``, ``reshape``, ``squeeze``, ``transpose``, ``rev``, ``slice``,
``pad``, ``concatenate`` and ``iota``, with the lax functions written on them
(``broadcast``, ``expand_dims``, ``slice_in_dim``, ``collapse``, ...). As in JAX 0.10.2,
``expand_dims`` and ``broadcast`` are ``broadcast_in_dim`` and ``collapse`` is
``reshape``; no primitive of their own.

The public functions return their operand unchanged, with no equation, when the
operation would be the identity and the operand is already an array or a tracer
(JAX does the same: ``reshape`` to the same shape leaves no trace in a jaxpr).
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from .. import core, dtypes
from ..array import Array
from ..core import ShapedArray, Tracer
from ..ir import pp_param_rules
from .elementwise import _convert_element_type

__all__ = ["broadcast_in_dim", "broadcast", "broadcast_to_rank", "reshape", "squeeze",
           "expand_dims", "transpose", "rev", "collapse", "full", "full_like",
           "broadcast_in_dim_p",
           "reshape_p", "squeeze_p", "transpose_p", "rev_p"]

_AxisError = np.exceptions.AxisError  # a ValueError and an IndexError, as in JAX
_pyslice = builtins.slice  # `slice` below is lax.slice


# ---------------------------------------------------------------------------------------
# Helpers

def _is_int(d) -> bool:
    return (isinstance(d, (int, np.integer)) and not isinstance(d, bool)) or (
        isinstance(d, np.ndarray) and d.ndim == 0 and d.dtype.kind in "iu")


def _int_tuple(seq) -> tuple:
    """Python ints from a sequence (or a single int) of integers; negatives are kept
    so that each primitive can reject them with its own message."""
    items = tuple(seq) if isinstance(seq, (tuple, list)) or np.ndim(seq) > 0 else (seq,)
    if all(_is_int(d) for d in items):
        return tuple(operator.index(d) for d in items)
    core.canonicalize_shape(seq)  # raises JAX's "Shapes must be 1D sequences ..." error
    raise TypeError(f"expected a sequence of integers, got {seq!r}")


def _check_ints(prim: str, what: str, values: tuple) -> None:
    if not all(_is_int(d) for d in values):
        raise TypeError(f"{prim} {what} must have every element be an integer type, got "
                        f"{tuple(type(d) for d in values)}.")
    if any(d < 0 for d in values):
        raise TypeError(f"{prim} {what} must have every element be nonnegative, got "
                        f"{values}.")


def _canonical_axis(axis, ndim: int) -> int:
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    return axis + ndim if axis < 0 else axis


def _shape(x) -> tuple:
    return core.get_aval(x).shape


def _unchanged(x, numpy_too: bool = False):
    """``x`` as the result of an identity operation, or None if it must be bound.

    As in JAX, only arrays and tracers skip the equation, and NumPy arrays too for the
    ``broadcast_in_dim`` family. Python scalars are bound, keeping their literal form.
    """
    if isinstance(x, (Array, Tracer)):
        return x
    if numpy_too and isinstance(x, np.ndarray):
        return Array._new(np.array(x, dtype=core.get_aval(x).dtype), False)  # a copy
    return None


def _prod(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


# ---------------------------------------------------------------------------------------
# broadcast_in_dim

broadcast_in_dim_p = core.new_primitive("broadcast_in_dim")
broadcast_in_dim_p.cost = core.Cost.FREE


@broadcast_in_dim_p.def_abstract_eval
def _broadcast_in_dim_abstract(x, *, shape, broadcast_dimensions, sharding):
    dims = broadcast_dimensions
    _check_ints("broadcast_in_dim", "shape", shape)
    _check_ints("broadcast_in_dim", "broadcast_dimensions", dims)
    if len(dims) != x.ndim:
        raise TypeError("broadcast_in_dim broadcast_dimensions must have length equal to "
                        f"operand ndim; got broadcast_dimensions {dims} for operand ndim "
                        f"{x.ndim}.")
    if any(d >= len(shape) for d in dims):
        raise TypeError("broadcast_in_dim broadcast_dimensions must be a subset of output "
                        f"dimensions, got {dims} for operand ndim {x.ndim} and shape "
                        f"{shape}.")
    if len(set(dims)) != len(dims):
        raise TypeError("broadcast_in_dim broadcast_dimensions must not contain duplicates, "
                        f"got broadcast_dimensions {dims}")
    if any(n != 1 and n != shape[d] for n, d in zip(x.shape, dims, strict=True)):
        raise TypeError(
            "broadcast_in_dim operand dimension sizes must either be 1, or be equal to "
            "their corresponding dimensions in the target broadcast shape; got operand of "
            f"shape {x.shape}, target broadcast shape {shape}, broadcast_dimensions {dims} ")
    return ShapedArray(shape, x.dtype, x.weak_type)


@broadcast_in_dim_p.def_impl
def _broadcast_in_dim_impl(x, *, shape, broadcast_dimensions, sharding):
    # Dimensions may come in any order: sort them (permuting the operand to match),
    # then give the operand the output's rank with 1s and let NumPy broadcast.
    order = sorted(range(len(broadcast_dimensions)), key=lambda i: broadcast_dimensions[i])
    x = np.transpose(x, order)
    expanded = [1] * len(shape)
    for i, d in enumerate(sorted(broadcast_dimensions)):
        expanded[d] = x.shape[i]
    return np.broadcast_to(x.reshape(expanded), shape).copy()


def _broadcast_in_dim_pp(params):
    dims = params["broadcast_dimensions"]
    return [("broadcast_dimensions", dims)] if dims else []


pp_param_rules[broadcast_in_dim_p] = _broadcast_in_dim_pp


def broadcast_in_dim(operand, shape, broadcast_dimensions, *, out_sharding=None):
    """Broadcast ``operand`` to ``shape``; its axis ``i`` becomes ``broadcast_dimensions[i]``.

    Parameters
    ----------
    operand : array_like
    shape : sequence of int
        The output shape.
    broadcast_dimensions : sequence of int
        For each operand axis, the output axis it maps to; its size must be 1 or equal.
    out_sharding : None
        Accepted for compatibility; only None is supported.

    Returns
    -------
    Array
    """
    _no_sharding(out_sharding)
    shape = tuple(shape) if isinstance(shape, (tuple, list)) or np.ndim(shape) else (shape,)
    if all(_is_int(d) for d in shape):
        shape = tuple(operator.index(d) for d in shape)
    dims = tuple(operator.index(d) for d in broadcast_dimensions)
    if _shape(operand) == shape and dims == tuple(range(len(shape))):
        same = _unchanged(operand, numpy_too=True)
        if same is not None:
            return same
    return broadcast_in_dim_p.bind(operand, shape=shape, broadcast_dimensions=dims,
                                   sharding=None)


def broadcast(operand, sizes, *, out_sharding=None):
    """Add leading axes of sizes ``sizes`` to ``operand``.

    Parameters
    ----------
    operand : array_like
    sizes : sequence of int

    Returns
    -------
    Array
        Of shape ``tuple(sizes) + operand.shape``.
    """
    sizes = _int_tuple(sizes)
    ndim = len(_shape(operand))
    return broadcast_in_dim(operand, sizes + _shape(operand),
                            tuple(range(len(sizes), len(sizes) + ndim)),
                            out_sharding=out_sharding)


def full(shape, fill_value, dtype=None, *, sharding=None):
    """An array of ``shape`` filled with the scalar ``fill_value``.

    Parameters
    ----------
    shape : tuple of int
    fill_value : scalar
    dtype : dtype, optional
        Default: ``fill_value``'s (weakly typed when it is a Python scalar).

    Returns
    -------
    Array
    """
    shape = core.canonicalize_shape(shape)
    if np.shape(fill_value):
        raise TypeError("full must be called with scalar fill_value, got fill_value.shape "
                        f"{np.shape(fill_value)}.")
    weak = dtype is None and dtypes.is_weakly_typed(fill_value)
    dt = dtypes.canonicalize_dtype(dtypes.dtype(fill_value) if dtype is None else dtype)
    return broadcast(_convert_element_type(fill_value, dt, weak), shape)


def full_like(x, fill_value, dtype=None, shape=None, sharding=None):
    """An array like ``x`` (its shape and dtype unless given) filled with ``fill_value``.

    Parameters
    ----------
    x : array_like
    fill_value : scalar
    dtype : dtype, optional
    shape : tuple of int, optional

    Returns
    -------
    Array
    """
    fill_shape = _shape(x) if shape is None else core.canonicalize_shape(shape)
    weak = dtype is None and dtypes.is_weakly_typed(x)
    dt = dtypes.canonicalize_dtype(dtypes.dtype(x) if dtype is None else dtype)
    return broadcast(_convert_element_type(fill_value, dt, weak), fill_shape)


def broadcast_to_rank(x, rank: int):
    """Add leading size-1 axes to ``x`` until it has ``rank`` axes (never removes any).

    Parameters
    ----------
    x : array_like
    rank : int

    Returns
    -------
    Array
    """
    ndim = len(_shape(x))
    if ndim >= rank:
        same = _unchanged(x, numpy_too=True)
        return same if same is not None else broadcast_in_dim(x, _shape(x), range(ndim))
    return broadcast(x, (1,) * (rank - ndim))


def _no_sharding(out_sharding) -> None:
    if out_sharding is not None:
        raise NotImplementedError("transpile does not support shardings; pass None")


# ---------------------------------------------------------------------------------------
# reshape

reshape_p = core.new_primitive("reshape")
reshape_p.cost = core.Cost.FREE


@reshape_p.def_abstract_eval
def _reshape_abstract(x, *, new_sizes, dimensions, sharding):
    if any(d < 0 for d in new_sizes):
        raise TypeError(f"reshape new_sizes must all be positive, got {new_sizes}.")
    if dimensions is not None and sorted(dimensions) != list(range(x.ndim)):
        raise TypeError("reshape dimensions must be a permutation of operand dimensions, "
                        f"got dimensions {dimensions} for shape {x.shape}.")
    # JAX 0.10.2 only notices a size mismatch when lowering; we refuse it here.
    if _prod(new_sizes) != x.size:
        raise TypeError(f"reshape total size must be unchanged, got new_sizes {new_sizes} "
                        f"(of total size {_prod(new_sizes)}) for shape {x.shape} (of total "
                        f"size {x.size}).")
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


@reshape_p.def_impl
def _reshape_impl(x, *, new_sizes, dimensions, sharding):
    if dimensions is not None:
        x = np.transpose(x, dimensions)
    return np.reshape(x, new_sizes)


def reshape(operand, new_sizes, dimensions=None, *, out_sharding=None):
    """Give ``operand`` the shape ``new_sizes`` (row-major order).

    Parameters
    ----------
    operand : array_like
    new_sizes : int or sequence of int
        The new shape; its size must equal the operand's.
    dimensions : sequence of int, optional
        A permutation applied to the operand (as ``transpose``) before reshaping.
    out_sharding : None
        Accepted for compatibility; only None is supported.

    Returns
    -------
    Array
    """
    _no_sharding(out_sharding)
    new_sizes = _int_tuple(new_sizes)
    ndim = len(_shape(operand))
    dims = None if dimensions is None else tuple(operator.index(d) for d in dimensions)
    if dims == tuple(range(ndim)):
        dims = None
    # As JAX: a reshape to the same shape is skipped, except for scalars.
    if dims is None and _shape(operand) == new_sizes and new_sizes:
        same = _unchanged(operand)
        if same is not None:
            return same
    return reshape_p.bind(operand, new_sizes=new_sizes, dimensions=dims, sharding=None)


def collapse(operand, start_dimension: int, stop_dimension: int | None = None):
    """Merge axes ``start_dimension:stop_dimension`` of ``operand`` into one.

    Parameters
    ----------
    operand : array_like
    start_dimension : int
    stop_dimension : int, optional
        Defaults to the operand's rank. As in JAX, an empty range inserts a size-1 axis.

    Returns
    -------
    Array
    """
    shape = _shape(operand)
    ndim = len(shape)
    start = _canonical_axis(start_dimension, ndim)
    stop = ndim if stop_dimension is None else operator.index(stop_dimension)
    if stop < 0:  # counts from the end like an axis; ndim itself is a valid stop
        stop = _canonical_axis(stop, ndim)
    if start > stop:
        raise ValueError(f"Invalid dimension range passed to collapse: {shape}[{start}:"
                         f"{stop}]")
    return reshape(operand, shape[:start] + (_prod(shape[start:stop]),) + shape[stop:])


# ---------------------------------------------------------------------------------------
# squeeze, expand_dims

squeeze_p = core.new_primitive("squeeze")
squeeze_p.cost = core.Cost.FREE


@squeeze_p.def_abstract_eval
def _squeeze_abstract(x, *, dimensions):
    for d in dimensions:
        if not 0 <= d < x.ndim:
            raise _AxisError(d, x.ndim)
    if len(set(dimensions)) != len(dimensions):
        raise ValueError(f"dimensions are not unique: {dimensions}")
    if any(x.shape[d] != 1 for d in dimensions):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to "
                         f"one, got shape={x.shape} and dimensions={dimensions}")
    shape = tuple(n for i, n in enumerate(x.shape) if i not in dimensions)
    return ShapedArray(shape, x.dtype, x.weak_type)


@squeeze_p.def_impl
def _squeeze_impl(x, *, dimensions):
    return np.squeeze(x, axis=dimensions) if dimensions else x


def squeeze(array, dimensions):
    """Remove the size-1 axes ``dimensions`` (negative values count from the end).

    Parameters
    ----------
    array : array_like
    dimensions : sequence of int

    Returns
    -------
    Array
    """
    ndim = len(_shape(array))
    dims = tuple(_canonical_axis(d, ndim) for d in dimensions)
    if not dims:
        same = _unchanged(array)
        if same is not None:
            return same
    return squeeze_p.bind(array, dimensions=dims)


def expand_dims(array, dimensions):
    """Insert size-1 axes at positions ``dimensions`` of the result.

    Written with ``broadcast_in_dim``, as in JAX.

    Parameters
    ----------
    array : array_like
    dimensions : sequence of int
        Positions in the output (negative values count from its end).

    Returns
    -------
    Array
    """
    shape = _shape(array)
    given = tuple(dimensions)
    ndim_out = len(shape) + len(given)
    dims = [_canonical_axis(d, ndim_out) for d in given]
    if len(set(dims)) != len(dims):
        raise ValueError(f"repeated axis in lax.expand_dims: {given}")
    if not dims:
        same = _unchanged(array, numpy_too=True)
        if same is not None:
            return same
    kept = [i for i in range(ndim_out) if i not in dims]
    out_shape = [1] * ndim_out
    for i, n in zip(kept, shape, strict=True):
        out_shape[i] = n
    return broadcast_in_dim(array, tuple(out_shape), tuple(kept))


# ---------------------------------------------------------------------------------------
# transpose, rev

transpose_p = core.new_primitive("transpose")
transpose_p.cost = core.Cost.FREE


@transpose_p.def_abstract_eval
def _transpose_abstract(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise TypeError("transpose permutation isn't a permutation of operand dimensions, "
                        f"got permutation {permutation} for operand shape {x.shape}.")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


@transpose_p.def_impl
def _transpose_impl(x, *, permutation):
    return np.transpose(x, permutation)


def transpose(operand, permutation):
    """Permute the axes of ``operand``: output axis ``i`` is input axis ``permutation[i]``.

    Parameters
    ----------
    operand : array_like
    permutation : sequence of int

    Returns
    -------
    Array
    """
    perm = tuple(operator.index(p) for p in permutation)
    if perm == tuple(range(len(_shape(operand)))):
        same = _unchanged(operand)
        if same is not None:
            return same
    return transpose_p.bind(operand, permutation=perm)


rev_p = core.new_primitive("rev")
rev_p.cost = core.Cost.FREE


@rev_p.def_abstract_eval
def _rev_abstract(x, *, dimensions):
    _check_ints("rev", "dimensions", dimensions)
    if any(d >= x.ndim for d in dimensions):
        raise TypeError("rev dimensions must all be less than operand ndim, got dimensions "
                        f"{dimensions} for operand ndim {x.ndim}.")
    if len(set(dimensions)) != len(dimensions):
        raise TypeError(f"rev dimensions must be unique, got {dimensions}.")
    return x


@rev_p.def_impl
def _rev_impl(x, *, dimensions):
    return np.flip(x, axis=dimensions) if dimensions else x


def rev(operand, dimensions):
    """Reverse ``operand`` along each axis in ``dimensions`` (non-negative).

    Parameters
    ----------
    operand : array_like
    dimensions : sequence of int

    Returns
    -------
    Array
    """
    return rev_p.bind(operand, dimensions=tuple(operator.index(d) for d in dimensions))

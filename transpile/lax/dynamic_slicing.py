"""``dynamic_slice`` and ``dynamic_update_slice``: slices at run-time start indices.

The primitives' semantics are stated in ``indexing.py`` (the module doc there is the
contract of all indexing primitives). Here are the primitives and the lax functions
written on them. As in JAX 0.10.2, the lax functions wrap negative start indices once
(``allow_negative_indices=True``): a concrete Python or NumPy integer is wrapped in
Python, a traced or ``Array`` index through ``lt``/``add``/``select_n`` equations
(with a ``convert_element_type`` to its strong type first when it is weakly typed).
``dynamic_index_in_dim`` and ``dynamic_update_index_in_dim`` appear in jaxprs as
``jit[name=...]`` equations, as JAX stages them.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core
from ..array import Array
from ..core import ShapedArray, Tracer
from . import call
from .elementwise import _convert_element_type, add, lt, select_n
from .slicing import index_in_dim
from .structural import _int_tuple, broadcast_in_dim, squeeze

__all__ = ["dynamic_slice", "dynamic_update_slice", "dynamic_index_in_dim",
           "dynamic_slice_in_dim", "dynamic_update_index_in_dim",
           "dynamic_update_slice_in_dim", "dynamic_slice_p", "dynamic_update_slice_p"]


def _check_start_avals(name: str, starts) -> None:
    dts = [s.dtype for s in starts]
    if any(d.kind not in "iu" for d in dts) or len(set(dts)) > 1:
        raise TypeError(f"index arguments to {name} must be integers of the same type, got: "
                        f"{', '.join(d.name for d in dts)}")
    if any(s.ndim for s in starts):
        shown = ", ".join(repr(s.strip_weak_type()) for s in starts)
        raise TypeError(f"start_indices arguments to {name} must be scalars,  got indices "
                        f"({shown})")


def _clamped_starts(starts, dims, sizes) -> tuple:
    """Start indices (NumPy scalars of any integer type) clamped into [0, dim - size]."""
    out = []
    for s, n, k in zip(starts, dims, sizes, strict=True):
        v = int(np.asarray(s))  # Python int: no overflow whatever the dtype
        out.append(min(max(v, 0), n - k))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# dynamic_slice

dynamic_slice_p = core.new_primitive("dynamic_slice")
dynamic_slice_p.cost = core.Cost.FREE


@dynamic_slice_p.def_abstract_eval
def _dynamic_slice_abstract(operand, *starts, slice_sizes):
    if len(starts) != operand.ndim:
        raise ValueError("Length of slice indices must match number of operand dimensions "
                         f"({len(starts)} vs {operand.shape})")
    _check_start_avals("dynamic_slice", starts)
    if len(slice_sizes) != operand.ndim:
        raise TypeError("dynamic_slice slice_sizes must have the same length as the operand "
                        f"rank, got slice_sizes {slice_sizes} for operand shape "
                        f"{operand.shape}.")
    if any(k > n for k, n in zip(slice_sizes, operand.shape, strict=True)):
        raise TypeError("slice slice_sizes must be less than or equal to operand shape, got "
                        f"slice_sizes {slice_sizes} for operand shape {operand.shape}.")
    if any(k < 0 for k in slice_sizes):
        raise TypeError("slice slice_sizes must be greater than or equal to zero, got "
                        f"slice_sizes of {slice_sizes}.")
    return ShapedArray(slice_sizes, operand.dtype, operand.weak_type)


@dynamic_slice_p.def_impl
def _dynamic_slice_impl(operand, *starts, slice_sizes):
    lo = _clamped_starts(starts, operand.shape, slice_sizes)
    return operand[tuple(slice(s, s + k) for s, k in zip(lo, slice_sizes, strict=True))].copy()


# ---------------------------------------------------------------------------------------
# dynamic_update_slice

dynamic_update_slice_p = core.new_primitive("dynamic_update_slice")
dynamic_update_slice_p.cost = core.Cost.FREE
dynamic_update_slice_p.updates_in_place = True  # its first operand is the array updated


@dynamic_update_slice_p.def_abstract_eval
def _dynamic_update_slice_abstract(operand, update, *starts):
    if len(starts) != operand.ndim:
        raise ValueError("Length of slice indices must match number of operand dimensions "
                         f"({len(starts)} vs {operand.shape})")
    if update.ndim != operand.ndim:
        raise TypeError("dynamic_update_slice update must have the same rank as operand, got "
                        f"update shape {update.shape} for operand shape {operand.shape}.")
    if any(u > n for u, n in zip(update.shape, operand.shape, strict=True)):
        raise TypeError("dynamic_update_slice update shape must be smaller than operand "
                        f"shape, got update shape {update.shape} for operand shape "
                        f"{operand.shape}.")
    if update.dtype != operand.dtype:
        raise TypeError("lax.dynamic_update_slice requires arguments to have the same "
                        f"dtypes, got {operand.dtype.name}, {update.dtype.name}.")
    _check_start_avals("dynamic_update_slice", starts)
    return ShapedArray(operand.shape, operand.dtype, False)


@dynamic_update_slice_p.def_impl
def _dynamic_update_slice_impl(operand, update, *starts):
    lo = _clamped_starts(starts, operand.shape, update.shape)
    out = operand.copy()
    out[tuple(slice(s, s + k) for s, k in zip(lo, update.shape, strict=True))] = update
    return out


# ---------------------------------------------------------------------------------------
# Start indices

def _is_staged(x) -> bool:
    """Whether an index is normalised with equations (a tracer or an Array)."""
    return isinstance(x, (Tracer, Array))


def _normalize_index(index, size: int, allow_negative: bool):
    """``index + size`` where ``index < 0`` (once), as JAX stages it."""
    if not allow_negative:
        if not _is_staged(index) and int(np.asarray(index)) < 0:
            raise ValueError(f"Index {int(np.asarray(index))} is out of bounds for dimension "
                             f"{size} if allow_negative_indices=False")
        return index
    if not _is_staged(index):
        if isinstance(index, (int, np.integer)) and not isinstance(index, bool) and index < 0:
            return type(index)(index + size)
        return index
    aval = core.get_aval(index)
    if aval.dtype.kind != "i" or aval.ndim:  # unsigned: never negative; others fail later
        return index
    zero = np.zeros((), aval.dtype)[()]
    is_negative = lt(index, zero)
    base = _convert_element_type(index, aval.dtype, False) if aval.weak_type else index
    wrapped = add(base, np.asarray(size, aval.dtype)[()])
    return select_n(is_negative, index, wrapped)


def _start_list(start_indices) -> list:
    """The start indices as a list of scalars (a 1-D array is split into its elements)."""
    if _is_staged(start_indices):
        n = core.get_aval(start_indices).shape[0]
        return [index_in_dim(start_indices, i, 0, keepdims=False) for i in range(n)]
    if isinstance(start_indices, np.ndarray):
        return list(start_indices)
    return list(start_indices)


def _prepare_starts(name: str, operand_shape: tuple, start_indices, allow_negative) -> list:
    starts = _start_list(start_indices)
    if len(starts) != len(operand_shape):
        raise ValueError("Length of slice indices must match number of operand dimensions "
                         f"({len(starts)} vs {operand_shape})")
    if isinstance(allow_negative, (bool, np.bool_)):
        allow = [bool(allow_negative)] * len(starts)
    else:
        allow = list(allow_negative)
        if len(allow) != len(starts):
            raise ValueError(f"safe_zip() argument 2 has length {len(allow)} but argument 0 "
                             f"has length {len(starts)}. All lengths: ({len(starts)}, "
                             f"{len(operand_shape)}, {len(allow)})")
    _check_start_avals(name, [core.get_aval(s).update(shape=()) for s in starts])
    return [_normalize_index(s, n, a)
            for s, n, a in zip(starts, operand_shape, allow, strict=True)]


def _operand_shape(operand) -> tuple:
    # As in JAX, the operand must already be an array (a list or float has no .ndim).
    _ = operand.ndim
    return core.get_aval(operand).shape


def dynamic_slice(operand, start_indices, slice_sizes, *, allow_negative_indices=True):
    """``operand[start:start + size]`` on every axis, with run-time ``start_indices``.

    Starts are clamped so that the slice fits in the operand.

    Parameters
    ----------
    operand : Array
    start_indices : sequence of scalar int, or 1-D integer array
        One per axis, all of one integer dtype (Python ints count as int32).
    slice_sizes : sequence of int
    allow_negative_indices : bool or sequence of bool
        Wrap negative starts once by adding the axis size.

    Returns
    -------
    Array
    """
    shape = _operand_shape(operand)
    starts = _prepare_starts("dynamic_slice", shape, start_indices, allow_negative_indices)
    sizes = _int_tuple(slice_sizes)
    if len(sizes) < len(shape):
        raise ValueError("safe_map() argument 2 is shorter than argument 1")
    return dynamic_slice_p.bind(operand, *starts, slice_sizes=sizes)


def dynamic_update_slice(operand, update, start_indices, *, allow_negative_indices=True):
    """``operand`` with ``update`` written at run-time ``start_indices``.

    Starts are clamped so that the update fits in the operand.

    Parameters
    ----------
    operand : Array
    update : array_like
        Same rank and dtype as ``operand``.
    start_indices : sequence of scalar int, or 1-D integer array
    allow_negative_indices : bool or sequence of bool

    Returns
    -------
    Array
    """
    shape = _operand_shape(operand)
    starts = _prepare_starts("dynamic_update_slice", shape, start_indices,
                             allow_negative_indices)
    return dynamic_update_slice_p.bind(operand, update, *starts)


def _axis(axis, ndim: int) -> int:
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise IndexError("list assignment index out of range")
    return axis % ndim if ndim else axis


def _zero_like_index(index):
    """A 0 start for the other axes, of the index's dtype (Python ints stay Python)."""
    if isinstance(index, (int, bool)) and not isinstance(index, np.generic):
        return 0
    return np.zeros((), core.get_aval(index).dtype)[()]


def dynamic_slice_in_dim(operand, start_index, slice_size: int, axis: int = 0, *,
                         allow_negative_indices: bool = True):
    """``dynamic_slice`` along one axis, whole on the others.

    Parameters
    ----------
    operand : Array
    start_index : scalar int
    slice_size : int
    axis : int
    allow_negative_indices : bool

    Returns
    -------
    Array
    """
    shape = _operand_shape(operand)
    axis, starts, allow = _in_dim(shape, start_index, axis, allow_negative_indices)
    sizes = list(shape)
    sizes[axis] = operator.index(slice_size)
    return dynamic_slice(operand, starts, sizes, allow_negative_indices=allow)


def dynamic_update_slice_in_dim(operand, update, start_index, axis: int, *,
                                allow_negative_indices: bool = True):
    """``dynamic_update_slice`` at ``start_index`` along ``axis``, 0 on the others.

    Parameters
    ----------
    operand : Array
    update : array_like
    start_index : scalar int
    axis : int
    allow_negative_indices : bool

    Returns
    -------
    Array
    """
    shape = _operand_shape(operand)
    _, starts, allow = _in_dim(shape, start_index, axis, allow_negative_indices)
    return dynamic_update_slice(operand, update, starts, allow_negative_indices=allow)


def _in_dim(shape, start_index, axis, allow_negative_indices):
    """``(axis, starts, allow)`` for an update or slice along one axis (0 elsewhere)."""
    axis = _axis(axis, len(shape))
    starts = [_zero_like_index(start_index)] * len(shape)
    starts[axis] = start_index
    allow = [True] * len(shape)
    allow[axis] = allow_negative_indices
    return axis, starts, allow


_JITTED: dict = {}


def _as_jit(fn, name: str, static: tuple):
    """``fn`` jitted once (so repeated calls share one staged jaxpr, as in JAX): a ``jit``
    equation under a trace; eagerly it runs on the NumPy evaluator."""
    hit = _JITTED.get(name)
    if hit is None:
        fn.__name__ = name
        # through the hook: ``transpile.jit`` sits above lax
        hit = _JITTED[name] = call.internal_jit(fn, static_argnames=static)
    return hit


def _dynamic_index(operand, index, axis, keepdims, allow_negative_indices):
    out = dynamic_slice_in_dim(operand, index, 1, axis,
                               allow_negative_indices=allow_negative_indices)
    return out if keepdims else squeeze(out, (axis,))


def dynamic_index_in_dim(operand, index, axis: int = 0, keepdims: bool = True, *,
                         allow_negative_indices: bool = True):
    """Element ``index`` (run-time) of ``operand`` along ``axis``.

    Parameters
    ----------
    operand : Array
    index : scalar int
    axis : int
    keepdims : bool
        Keep ``axis`` with size 1.
    allow_negative_indices : bool

    Returns
    -------
    Array
    """
    shape = _operand_shape(operand)
    axis = _axis(axis, len(shape))
    jitted = _as_jit(_dynamic_index, "dynamic_index_in_dim",
                     ("axis", "keepdims", "allow_negative_indices"))
    return jitted(operand, index, axis=axis, keepdims=bool(keepdims),
                  allow_negative_indices=allow_negative_indices)


def _dynamic_update_index(operand, update, index, axis, allow_negative_indices):
    u = core.get_aval(update)
    if u.ndim != core.get_aval(operand).ndim:
        shape = list(u.shape)
        shape.insert(axis, 1)
        dims = tuple(d for d in range(len(shape)) if d != axis)
        update = broadcast_in_dim(update, tuple(shape), dims)
    return dynamic_update_slice_in_dim(operand, update, index, axis,
                                       allow_negative_indices=allow_negative_indices)


def dynamic_update_index_in_dim(operand, update, index, axis: int, *,
                                allow_negative_indices: bool = True):
    """``operand`` with element ``index`` (run-time) along ``axis`` replaced by ``update``.

    Parameters
    ----------
    operand : Array
    update : array_like
        Shaped like the operand without ``axis`` (or with it, of size 1).
    index : scalar int
    axis : int
    allow_negative_indices : bool

    Returns
    -------
    Array
    """
    shape = _operand_shape(operand)
    axis = _axis(axis, len(shape))
    jitted = _as_jit(_dynamic_update_index, "dynamic_update_index_in_dim",
                     ("axis", "allow_negative_indices"))
    return jitted(operand, update, index, axis=axis,
                  allow_negative_indices=allow_negative_indices)


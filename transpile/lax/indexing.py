"""Indexing primitives: ``gather``, the ``scatter`` family, ``dynamic_slice`` and
``dynamic_update_slice``, with JAX's dimension-number model.

This docstring is the contract the NumPy rules below implement (they are the reference
the C kernels are tested against). All index arithmetic is done in int64 after clamping,
so any index value (int32 min/max, uint64 max) is memory-safe, and empty arrays or
zero-size windows are fine.

Modes (:class:`GatherScatterMode`)
    ``CLIP`` and ``PROMISE_IN_BOUNDS`` clamp each start index of a window into
    ``[0, operand_dim - window_size]`` for gathers; scatters clamp under ``CLIP`` only.
    ``FILL_OR_DROP``: a gather window with any start out of
    ``[0, operand_dim - window_size]`` gives ``fill_value`` for the whole window (None
    means NaN for floats, INT_MIN for signed, the maximum for unsigned, True for bool;
    other values are converted like ``convert_element_type``); a scatter drops every
    update window whose start is out of bounds (``PROMISE_IN_BOUNDS`` scatters drop too).
    ``ONE_HOT`` can be staged but not evaluated (``NotImplementedError``).

``gather_p`` -- operands ``(operand, indices)``
    Params ``dimension_numbers`` (:class:`GatherDimensionNumbers`), ``slice_sizes``,
    ``indices_are_sorted``, ``unique_indices``, ``mode``, ``fill_value``. The last
    dimension of ``indices`` is the index vector; the others are batch dimensions
    ``B``. For a batch position ``b``, the start of the window in the operand is 0 on
    every dimension except ``start_index_map[k]`` (which gets ``indices[b, k]``) and
    ``operand_batching_dims[j]`` (which gets ``b[start_indices_batching_dims[j]]``). The
    window has shape ``slice_sizes``; dropping its ``collapsed_slice_dims`` and
    ``operand_batching_dims`` (all of size 1) leaves the offset dimensions, which appear
    in the output at positions ``offset_dims``; the batch dimensions fill the other
    output positions in order. Output dtype and weak type are the operand's.

``scatter_p`` ("scatter"), ``scatter_add_p`` ("scatter-add"), ``scatter_sub_p``
("scatter-sub"), ``scatter_mul_p`` ("scatter-mul"), ``scatter_min_p`` ("scatter-min"),
``scatter_max_p`` ("scatter-max") -- operands ``(operand, indices, updates)``
    Params ``dimension_numbers`` (:class:`ScatterDimensionNumbers`),
    ``indices_are_sorted``, ``unique_indices``, ``mode``, ``update_jaxpr``,
    ``update_consts``. The dimensions of ``updates`` not in ``update_window_dims`` are
    the scatter dimensions and match the batch dimensions of ``indices`` (all but the
    last) in order. The window dimensions of ``updates`` map in order onto the operand
    dimensions that are neither ``inserted_window_dims`` nor ``operand_batching_dims``
    (those have window size 1). A window starts at ``indices[b, k]`` on operand dimension
    ``scatter_dims_to_operand_dims[k]``, at ``b[scatter_indices_batching_dims[j]]`` on
    ``operand_batching_dims[j]``, and 0 elsewhere. Each update element is combined into
    the output: ``scatter`` replaces (``update_jaxpr`` None), or, when ``update_jaxpr`` is
    given (``.at[].apply``), stores ``update_jaxpr(old, update)``; the others compute
    ``old + u``, ``old - u``, ``old * u``, ``min(old, u)``, ``max(old, u)`` with the
    elementwise primitives' arithmetic. Update elements apply one after the other in
    row-major order of (scatter index, window index), so duplicate indices accumulate
    and the last ``scatter`` wins. Output dtype and weak type are the operand's.

``dynamic_slice_p`` -- operands ``(operand, *start_indices)``
    One scalar integer start per dimension (all of one dtype); param ``slice_sizes``.
    Starts are clamped into ``[0, dim - size]``. Weak type is the operand's.

``dynamic_update_slice_p`` -- operands ``(operand, update, *start_indices)``
    ``update`` has the operand's rank and dtype; starts clamped into
    ``[0, dim - update_dim]``. The result is never weakly typed (as in JAX 0.10.2).
"""
from __future__ import annotations

import functools

import numpy as np

from .. import core
from ..core import ShapedArray
from ..interpreters.eval import eval_jaxpr_numpy
from ..interpreters.tracing import trace_to_jaxpr
from ..ir import Literal
from . import elementwise
from ._indexing_common import (GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers,
                               _bounds, _check_batching, _check_evaluable, _check_in_range,
                               _check_index_dtype, _check_index_map, _check_sorted_unique,
                               _gather_dnums, _index_array, _scatter_dnums, _window_coords,
                               _window_starts, default_fill_value)
from .dynamic_slicing import (dynamic_index_in_dim, dynamic_slice, dynamic_slice_in_dim,
                              dynamic_slice_p, dynamic_update_index_in_dim, dynamic_update_slice,
                              dynamic_update_slice_in_dim, dynamic_update_slice_p)
from .elementwise import add_p, convert_values, max_p, min_p, mul_p, sub_p
from .structural import _int_tuple, broadcast_in_dim

__all__ = ["GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode",
           "gather", "scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
           "scatter_max", "scatter_apply", "dynamic_slice", "dynamic_update_slice",
           "dynamic_index_in_dim", "dynamic_slice_in_dim", "dynamic_update_index_in_dim",
           "dynamic_update_slice_in_dim", "gather_p", "scatter_p", "scatter_add_p",
           "scatter_sub_p", "scatter_mul_p", "scatter_min_p", "scatter_max_p",
           "dynamic_slice_p", "dynamic_update_slice_p"]


# ---------------------------------------------------------------------------------------
# gather

gather_p = core.new_primitive("gather")
gather_p.cost = core.Cost.FREE


@gather_p.def_abstract_eval
def _gather_abstract(operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
                     unique_indices, mode, fill_value):
    dn = dimension_numbers
    _check_index_dtype(indices)
    if indices.ndim == 0:
        raise TypeError("Gather index leaf dimension must be within [0, rank(indices) + 1). "
                        "rank(indices) is 0 and gather index leaf dimension is -1.")
    out_rank = len(dn.offset_dims) + indices.ndim - 1
    _check_sorted_unique("gather", "offset_dims", dn.offset_dims)
    for i, d in enumerate(dn.offset_dims):
        if not 0 <= d < out_rank:
            raise TypeError(f"Offset dimension {i} in gather op is out of bounds; got {d}, "
                            f"but should have been in [0, {out_rank})")
    _check_sorted_unique("gather", "collapsed_slice_dims", dn.collapsed_slice_dims)
    _check_in_range("gather", "collapsed_slice_dims", dn.collapsed_slice_dims, operand.ndim)
    _check_batching("gather", dn, operand, indices, dn.collapsed_slice_dims,
                    dn.start_index_map, dn.start_indices_batching_dims)
    _check_index_map("gather", "start_index_map", dn.start_index_map, indices,
                     operand.ndim, ".")
    if len(slice_sizes) != operand.ndim:
        raise TypeError("Gather op must have one slice size for every input dimension; "
                        f"got: len(slice_sizes)={len(slice_sizes)}, input_shape.rank="
                        f"{operand.ndim}")
    for i, (s, n) in enumerate(zip(slice_sizes, operand.shape, strict=True)):
        if not 0 <= s <= n:
            raise TypeError(f"Slice size at index {i} in gather op is out of range, must be "
                            f"within [0, {n} + 1), got {s}.")
    for i, d in enumerate(dn.collapsed_slice_dims):
        if slice_sizes[d] != 1:
            raise TypeError("Gather op can only collapse slice dims with bound 1, but bound "
                            f"is {slice_sizes[d]} for index {d} at position {i}.")
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    offsets = [s for d, s in enumerate(slice_sizes) if d not in dropped]
    if len(offsets) != len(dn.offset_dims):
        raise TypeError("All components of the offset index in a gather op must either be a "
                        "offset dimension or explicitly collapsed/batching; got "
                        f"len(slice_sizes)={len(slice_sizes)}, output_slice_sizes="
                        f"{dn.offset_dims}, collapsed_slice_dims={dn.collapsed_slice_dims}, "
                        f"operand_batching_dims={dn.operand_batching_dims}.")
    for i, d in enumerate(dn.operand_batching_dims):
        if slice_sizes[d] != 1:
            raise TypeError("Gather op can only have operand batching dims with bound 0/1, "
                            f"but bound is {slice_sizes[d]} for index {d} at position {i}.")
    batch, off = iter(indices.shape[:-1]), iter(offsets)
    shape = tuple(next(off) if p in dn.offset_dims else next(batch) for p in range(out_rank))
    return ShapedArray(shape, operand.dtype, operand.weak_type)


@gather_p.def_impl
def _gather_impl(operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
                 unique_indices, mode, fill_value):
    dn = dimension_numbers
    _check_evaluable(mode)
    idx = _index_array(np.asarray(indices))
    starts = _window_starts(idx, operand.ndim, dn.start_index_map, dn.operand_batching_dims,
                            dn.start_indices_batching_dims)
    ok, starts = _bounds(starts, operand.shape, slice_sizes)
    windows = operand[_window_coords(starts, slice_sizes)]  # batch + slice_sizes
    if mode == GatherScatterMode.FILL_OR_DROP and not ok.all():
        fill = (default_fill_value(operand.dtype) if fill_value is None
                else convert_values(np.asarray(fill_value), operand.dtype))
        keep = ok.reshape(ok.shape + (1,) * len(slice_sizes))
        windows = np.where(keep, windows, fill)
    nb = idx.ndim - 1
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    kept = [s for d, s in enumerate(slice_sizes) if d not in dropped]
    windows = windows.reshape(idx.shape[:-1] + tuple(kept))
    # Output position p reads batch axis i (in order) or window axis nb + j.
    perm, b, w = [], iter(range(nb)), iter(range(nb, nb + len(kept)))
    for p in range(nb + len(kept)):
        perm.append(next(w) if p in dn.offset_dims else next(b))
    return np.transpose(windows, perm)


def gather(operand, start_indices, dimension_numbers, slice_sizes, *, unique_indices=False,
           indices_are_sorted=False, mode=None, fill_value=None):
    """Gather windows of ``operand`` at ``start_indices`` (XLA's gather).

    Parameters
    ----------
    operand : array_like
    start_indices : array_like
        Integer array whose last dimension is the index vector.
    dimension_numbers : GatherDimensionNumbers
    slice_sizes : sequence of int
        Window size on every operand dimension.
    unique_indices, indices_are_sorted : bool
        Promises recorded in the params (not checked).
    mode : str or GatherScatterMode, optional
        None means ``PROMISE_IN_BOUNDS`` (clamping), as in JAX.
    fill_value : scalar, optional
        Value of out-of-bounds windows in ``FILL_OR_DROP`` mode.

    Returns
    -------
    Array
    """
    _check_api_operand("gather", operand, 0)
    _check_api_operand("gather", start_indices, 1)
    parsed = (GatherScatterMode.PROMISE_IN_BOUNDS if mode is None
              else GatherScatterMode.from_any(mode))
    if parsed != GatherScatterMode.FILL_OR_DROP:
        fill_value = None
    elif fill_value is None:  # JAX records the default in the params
        fill_value = default_fill_value(core.get_aval(operand).dtype).item()
    return gather_p.bind(operand, start_indices,
                         dimension_numbers=_gather_dnums(dimension_numbers),
                         slice_sizes=_int_tuple(slice_sizes),
                         indices_are_sorted=indices_are_sorted,
                         unique_indices=unique_indices, mode=parsed, fill_value=fill_value)


def _check_api_operand(name: str, x, pos: int) -> None:
    if not core.is_valid_value(x) and not hasattr(x, "_value"):
        raise TypeError(f"Error interpreting argument to {name} as a JAX value. The "
                        f"problematic value is of type {type(x)} and was passed to {name} "
                        f"at position {pos}.")




# ---------------------------------------------------------------------------------------
# scatter family

def _scatter_abstract(operand, indices, updates, *, dimension_numbers, indices_are_sorted,
                      unique_indices, mode, update_jaxpr, update_consts):
    dn = dimension_numbers
    _check_index_dtype(indices)
    if operand.dtype != updates.dtype:
        raise TypeError("lax.scatter requires arguments to have the same dtypes, got "
                        f"{operand.dtype.name}, {updates.dtype.name}.")
    if indices.ndim == 0:
        raise TypeError("Scatter index leaf dimension must be within [0, rank(indices) + 1). "
                        "rank(indices) is 0 and scatter index leaf dimension is -1.")
    uwd = dn.update_window_dims
    want_rank = len(uwd) + indices.ndim - 1
    if updates.ndim != want_rank:
        raise TypeError(f"Updates tensor must be of rank {want_rank}; got {updates.ndim}.")
    _check_sorted_unique("scatter", "update_window_dims", uwd)
    _check_in_range("scatter", "update_window_dims", uwd, updates.ndim)
    inserted = dn.inserted_window_dims
    _check_sorted_unique("scatter", "inserted_window_dims", inserted)
    _check_in_range("scatter", "inserted_window_dims", inserted, operand.ndim)
    _check_batching("scatter", dn, operand, indices, inserted,
                    dn.scatter_dims_to_operand_dims, dn.scatter_indices_batching_dims)
    window_size = len(uwd) + len(inserted) + len(dn.operand_batching_dims)
    if window_size != operand.ndim:
        raise TypeError(f"Scatter op has window of size {window_size}; doesn't match operand "
                        f"of rank {operand.ndim}.")
    _check_index_map("scatter", "scatter_dims_to_operand_dims",
                     dn.scatter_dims_to_operand_dims, indices, operand.ndim, "")
    dropped = set(inserted) | set(dn.operand_batching_dims)
    window_op_dims = [d for d in range(operand.ndim) if d not in dropped]
    for u, d in zip(uwd, window_op_dims, strict=True):
        if updates.shape[u] > operand.shape[d]:
            raise TypeError("Bounds of the window dimensions of updates must not exceed the "
                            "bounds of the corresponding dimensions of operand. For dimension "
                            f"{u}, updates bound is {updates.shape[u]}, operand bound is "
                            f"{operand.shape[d]}.")
    scatter_dims = [d for d in range(updates.ndim) if d not in uwd]
    for i, (u, n) in enumerate(zip(scatter_dims, indices.shape[:-1], strict=True)):
        if updates.shape[u] != n:
            raise TypeError("Bounds of the scatter dimensions of updates must be the same as "
                            "the bounds of the corresponding dimensions of scatter indices. "
                            f"For scatter dimension {i}, updates bound is {updates.shape[u]}, "
                            f"indices bound is {n}.")
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _scatter_targets(operand, indices, updates, dn, mode):
    """Flat operand positions and values of the update elements that apply, in order."""
    idx = _index_array(np.asarray(indices))
    uwd = dn.update_window_dims
    scatter_dims = [d for d in range(updates.ndim) if d not in uwd]
    upd = np.transpose(updates, scatter_dims + list(uwd))  # batch + window
    dropped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    it = iter(updates.shape[u] for u in uwd)
    sizes = [1 if d in dropped else next(it) for d in range(operand.ndim)]
    starts = _window_starts(idx, operand.ndim, dn.scatter_dims_to_operand_dims,
                            dn.operand_batching_dims, dn.scatter_indices_batching_dims)
    ok, clamped = _bounds(starts, operand.shape, sizes)
    if mode == GatherScatterMode.CLIP:
        ok = np.ones_like(ok)
    coords = _window_coords(clamped, sizes)  # each batch + sizes
    flat = np.zeros(idx.shape[:-1] + tuple(sizes), np.int64)
    for c, n in zip(coords, operand.shape, strict=True):
        flat = flat * n + c
    # Window dims of updates are the non-dropped sizes, in order: same element count.
    flat = flat.reshape(-1)
    vals = upd.reshape(-1)
    keep = np.broadcast_to(ok.reshape(ok.shape + (1,) * len(sizes)),
                           idx.shape[:-1] + tuple(sizes)).reshape(-1)
    return flat[keep], vals[keep]


def _rounds(flat: np.ndarray):
    """Split update positions into rounds in which each target appears once, keeping
    the order of the updates of each target (round r holds its r-th update)."""
    if flat.size == 0:
        return []
    order = np.argsort(flat, kind="stable")
    sorted_flat = flat[order]
    first = np.r_[True, sorted_flat[1:] != sorted_flat[:-1]]
    pos = np.arange(flat.size)
    rank_sorted = pos - np.maximum.accumulate(np.where(first, pos, 0))
    rank = np.empty_like(rank_sorted)
    rank[order] = rank_sorted
    by_rank = np.argsort(rank, kind="stable")
    counts = np.bincount(rank)
    return np.split(by_rank, np.cumsum(counts)[:-1])


def _eval_update_jaxpr(jaxpr, consts, old: np.ndarray, upd: np.ndarray) -> np.ndarray:
    """``update_jaxpr(old, upd)`` elementwise over vectors (scalar jaxprs vectorise, as
    long as they are elementwise; others are run one element at a time)."""
    env = dict(zip(jaxpr.constvars, consts, strict=True))
    env.update(zip(jaxpr.invars, (old, upd), strict=True))
    try:
        with np.errstate(all="ignore"):
            for eqn in jaxpr.eqns:
                vals = [np.asarray(a.val, a.aval.dtype) if isinstance(a, Literal) else env[a]
                        for a in eqn.invars]
                res = eqn.primitive.impl(*vals, **eqn.params)
                res = res if eqn.primitive.multiple_results else [res]
                for v, r in zip(eqn.outvars, res, strict=True):
                    r = np.asarray(r)
                    if r.shape != old.shape:
                        raise ValueError("not elementwise")
                    env[v] = r.astype(v.aval.dtype, copy=False)
        out = jaxpr.outvars[0]
        return (np.full(old.shape, out.val, out.aval.dtype) if isinstance(out, Literal)
                else env[out])
    except (ValueError, TypeError, IndexError):
        return np.array([eval_jaxpr_numpy(jaxpr, consts, np.asarray(o), np.asarray(u))[0]
                         for o, u in zip(old, upd, strict=True)], old.dtype).reshape(old.shape)


def _make_scatter_impl(combine_p):
    def impl(operand, indices, updates, *, dimension_numbers, indices_are_sorted,
             unique_indices, mode, update_jaxpr, update_consts):
        _check_evaluable(mode)
        if operand.size == 0:  # nothing to write (and no valid position to clamp to)
            return operand.copy()
        flat, vals = _scatter_targets(operand, indices, updates, dimension_numbers, mode)
        out = operand.reshape(-1).copy()
        if combine_p is None and update_jaxpr is None:
            # Replace: the last update of each position wins.
            last = flat.size - 1 - np.unique(flat[::-1], return_index=True)[1]
            out[flat[last]] = vals[last]
            return out.reshape(operand.shape)
        for sel in _rounds(flat):
            where = flat[sel]
            if combine_p is None:
                new = _eval_update_jaxpr(update_jaxpr, list(update_consts), out[where],
                                         vals[sel])
            else:
                new = combine_p.impl(out[where], vals[sel])
            out[where] = np.asarray(new).astype(operand.dtype, copy=False)
        return out.reshape(operand.shape)
    return impl


def _scatter_primitive(name: str, combine_p):
    p = core.new_primitive(name)
    p.updates_in_place = True  # the operand is the array the updates land in
    if combine_p is None:
        p.cost = core.Cost.FREE  # plain scatter only moves data
    p.def_abstract_eval(_scatter_abstract)
    p.def_impl(_make_scatter_impl(combine_p))
    return p


scatter_p = _scatter_primitive("scatter", None)
scatter_add_p = _scatter_primitive("scatter-add", add_p)
scatter_sub_p = _scatter_primitive("scatter-sub", sub_p)
scatter_mul_p = _scatter_primitive("scatter-mul", mul_p)
scatter_min_p = _scatter_primitive("scatter-min", min_p)
scatter_max_p = _scatter_primitive("scatter-max", max_p)


def _trace_scalar_fn(fn, dtype, nargs: int):
    aval = ShapedArray((), dtype)
    closed = trace_to_jaxpr(lambda *a: [fn(*a)], [aval] * nargs)
    return closed.jaxpr, tuple(closed.consts)


@functools.lru_cache(maxsize=None)
def _combiner_jaxpr(lax_name: str, dtype):
    """``update_jaxpr`` of a combining scatter: one per (computation, dtype), shared by
    every scatter as in JAX (so a jaxpr using it twice hoists it as ``let jaxpr``)."""
    return _trace_scalar_fn(getattr(elementwise, lax_name), dtype, 2)


_apply_cache: dict = {}


def _apply_jaxpr(func, dtype):
    """``update_jaxpr`` of ``scatter_apply``: ``func`` of the old value, cached per
    (func, dtype) like JAX's."""
    try:
        hit = _apply_cache.get((func, dtype))
    except TypeError:  # an unhashable callable: no sharing
        return _trace_scalar_fn(lambda x, _: func(x), dtype, 2)
    if hit is None:
        hit = _apply_cache[(func, dtype)] = _trace_scalar_fn(lambda x, _: func(x), dtype, 2)
    return hit


def _scatter_bind(prim, operand, scatter_indices, updates, dimension_numbers,
                  indices_are_sorted, unique_indices, mode, jaxpr_and_consts):
    _check_api_operand("scatter", operand, 0)
    _check_api_operand("scatter", scatter_indices, 1)
    _check_api_operand("scatter", updates, 2)
    jaxpr, consts = jaxpr_and_consts if jaxpr_and_consts else (None, ())
    return prim.bind(operand, scatter_indices, updates,
                     dimension_numbers=_scatter_dnums(dimension_numbers),
                     indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                     mode=GatherScatterMode.from_any(mode), update_jaxpr=jaxpr,
                     update_consts=consts)


def _scatter_api(prim, lax_name: str | None, what: str):
    def fn(operand, scatter_indices, updates, dimension_numbers, *,
           indices_are_sorted=False, unique_indices=False, mode=None):
        dt = core.get_aval(operand).dtype
        jc = None if lax_name is None else _combiner_jaxpr(lax_name, dt)
        return _scatter_bind(prim, operand, scatter_indices, updates, dimension_numbers,
                             indices_are_sorted, unique_indices, mode, jc)
    fn.__name__ = prim.name.replace("-", "_")
    fn.__doc__ = f"""Scatter ``updates`` into ``operand`` at ``scatter_indices``: {what}.

    Parameters
    ----------
    operand : array_like
    scatter_indices : array_like
        Integer array whose last dimension is the index vector.
    updates : array_like
        Of the operand's dtype.
    dimension_numbers : ScatterDimensionNumbers
    indices_are_sorted, unique_indices : bool
        Promises recorded in the params (not checked).
    mode : str or GatherScatterMode, optional
        None means ``FILL_OR_DROP``: out-of-bounds update windows are dropped.

    Returns
    -------
    Array
    """
    return fn


scatter = _scatter_api(scatter_p, None, "each element is replaced (the last update wins)")
scatter_add = _scatter_api(scatter_add_p, "add", "updates are added")
scatter_sub = _scatter_api(scatter_sub_p, "sub", "updates are subtracted")
scatter_mul = _scatter_api(scatter_mul_p, "mul", "elements are multiplied by the updates")
scatter_min = _scatter_api(scatter_min_p, "min", "elements become the minimum")
scatter_max = _scatter_api(scatter_max_p, "max", "elements become the maximum")


def scatter_apply(operand, scatter_indices, func, dimension_numbers, *, update_shape=(),
                  indices_are_sorted=False, unique_indices=False, mode=None):
    """``operand`` with ``func`` applied at ``scatter_indices`` (once per index, so a
    repeated index applies it repeatedly).

    Parameters
    ----------
    operand : array_like
    scatter_indices : array_like
    func : callable
        Scalar to scalar, traced once per dtype.
    dimension_numbers : ScatterDimensionNumbers
    update_shape : sequence of int
        The shape the updates would have.
    indices_are_sorted, unique_indices : bool
    mode : str or GatherScatterMode, optional

    Returns
    -------
    Array
    """
    dt = core.get_aval(operand).dtype
    shape = _int_tuple(update_shape)
    zero = np.zeros((), dt)[()]
    unused = broadcast_in_dim(zero, shape, ()) if shape else zero
    return _scatter_bind(scatter_p, operand, scatter_indices, unused, dimension_numbers,
                         indices_are_sorted, unique_indices, mode, _apply_jaxpr(func, dt))

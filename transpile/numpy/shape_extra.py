"""More shape functions: rolling and rotating, inserting and deleting, resizing, splitting
helpers, ``block`` and the ``apply_*`` helpers.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import core, lax
from ..array import Array
from ..jit import internal_jit as jit
from ..vmapping import vmap
from . import creation, index_funcs, reductions, shape_ops, sorting, ufuncs, ufuncs_compound
from ._util import aval, canonicalize_axis, check_arraylike, ensure_array

__all__ = ["repeat", "roll", "rollaxis", "rot90", "append", "insert", "delete", "resize",
           "trim_zeros", "hsplit", "vsplit", "dsplit", "unstack", "block", "apply_along_axis",
           "apply_over_axes"]


def _index_tuple(x) -> tuple:
    """``x`` (an int or a sequence of ints) as a tuple; TypeError for anything traced."""
    if isinstance(x, (list, tuple)):
        return tuple(operator.index(v) for v in x)
    return (operator.index(x),)


# ---------------------------------------------------------------------------------------
# repeat

def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    """Repeat each element of ``a`` along ``axis``.

    Parameters
    ----------
    a : array_like
    repeats : int or 1-D integer array_like
        One count for all elements, or one per element along ``axis``; it must be
        concrete unless ``total_repeat_length`` is given.
    axis : int, optional
        The flattened array when None.
    total_repeat_length : int, optional
        The static output length along ``axis``: longer counts are cut, shorter ones
        are filled by repeating the last element.

    Returns
    -------
    Array
    """
    if isinstance(repeats, (int, np.integer)) and not isinstance(repeats, bool):
        check_arraylike("repeat", a)
    else:
        check_arraylike("repeat", a, repeats)
    arr = ensure_array(a)
    if axis is None:
        arr = shape_ops.ravel(arr)
        axis = 0
    axis = operator.index(core.concrete_or_error(axis, "'axis' argument of jnp.repeat()"))
    nd = aval(arr).ndim
    if total_repeat_length is None:
        repeats = core.concrete_or_error(
            repeats, "When jit-compiling jnp.repeat, the total number of repeats must be "
            "static. To fix this, either specify a static value for `repeats`, or pass a "
            "static value to `total_repeat_length`.")
        counts = np.asarray(repeats)
        if counts.ndim == 0 and nd != 0:
            return shape_ops.repeat_static(arr, operator.index(counts.item()), axis)
        counts = counts.ravel()
        if nd != 0:
            counts = np.broadcast_to(counts, (aval(arr).shape[axis],))
        total = int(np.sum(counts))
        counts = creation.asarray(counts)
    else:
        total = operator.index(total_repeat_length)
        counts = shape_ops.ravel(repeats)
        if nd != 0:
            counts = shape_ops.broadcast_to(counts, (aval(arr).shape[axis],))
    if nd == 0:
        if aval(counts).shape == (1,):
            return creation.full((total,), arr)
        raise ValueError("`repeat` with a scalar parameter `a` is only implemented for scalar "
                         "values of the parameter `repeats`.")
    axis = canonicalize_axis(axis, nd)
    if total == 0:
        shape = list(aval(arr).shape)
        shape[axis] = 0
        return creation.zeros(tuple(shape), aval(arr).dtype)
    if aval(arr).shape[axis] == 0:
        return arr
    # Mark where each element's run starts (a scatter-add of ones at the exclusive
    # cumulative counts); the running count of marks, less one, is the source index.
    starts = reductions.cumsum(roll(counts, 1).at[0].set(0))
    marks = creation.zeros((total,), dtype="int32").at[starts].add(1)
    return index_funcs.take(arr, ufuncs.subtract(reductions.cumsum(marks), 1), axis=axis)


# ---------------------------------------------------------------------------------------
# roll, rollaxis, rot90

def _roll_static(a, shift, axis):
    for ax, s in zip(*np.broadcast_arrays(axis, shift), strict=True):
        n = aval(a).shape[ax]
        if n == 0:
            continue
        cut = int(-s) % n
        a = lax.concatenate([lax.slice_in_dim(a, cut, n, axis=int(ax)),
                             lax.slice_in_dim(a, 0, cut, axis=int(ax))], int(ax))
    return a


def _roll_dynamic(a, shift, axis):
    shape = shape_ops.broadcast_shapes(aval(shift).shape, np.shape(axis))
    if len(shape) != 1:
        raise ValueError("'shift' and 'axis' arguments to roll must be scalars or 1D arrays")
    shifts = shape_ops.broadcast_to(shift, shape)
    for k, ax in enumerate(np.broadcast_to(axis, shape)):
        ax = int(ax)
        n = aval(a).shape[ax]
        size = np.array(n, np.int32)[()]
        s = ufuncs_compound.remainder(lax.convert_element_type(shifts[k], np.int32),
                                      lax.max(size, np.int32(1)))
        doubled = lax.concatenate([a, a], ax)
        a = lax.dynamic_slice_in_dim(doubled, lax.sub(size, s), n, axis=ax)
    return a


_roll_static_jit = jit(_roll_static, static_argnums=(1, 2))
_roll_dynamic_jit = jit(_roll_dynamic, static_argnums=(2,))


def roll(a, shift, axis=None):
    """Roll elements along ``axis`` (the flattened array when None).

    Parameters
    ----------
    a : array_like
    shift : int, sequence of int, or an integer array (possibly traced)
    axis : int or sequence of int, optional

    Returns
    -------
    Array
    """
    check_arraylike("roll", a)
    a = ensure_array(a)
    if axis is None:
        return shape_ops.reshape(roll(shape_ops.ravel(a), shift, 0), aval(a).shape)
    axes = tuple(canonicalize_axis(ax, aval(a).ndim) for ax in _index_tuple(axis))
    try:
        shifts = _index_tuple(shift)
    except TypeError:
        return _roll_dynamic_jit(a, creation.asarray(shift), axes)
    return _roll_static_jit(a, shifts, axes)


def _rollaxis(a, axis, start):
    return shape_ops.moveaxis(a, axis, start)


_rollaxis.__name__ = "rollaxis"
_rollaxis_jit = jit(_rollaxis, static_argnums=(1, 2))


def rollaxis(a, axis: int, start: int = 0):
    """Roll axis ``axis`` backwards until it lies before position ``start``.

    Parameters
    ----------
    a : array_like
    axis, start : int

    Returns
    -------
    Array
    """
    check_arraylike("rollaxis", a)
    start = operator.index(core.concrete_or_error(start, "'start' argument of jnp.rollaxis()"))
    nd = aval(a).ndim
    axis = canonicalize_axis(axis, nd)
    if not -nd <= start <= nd:
        raise ValueError(f"start={start} must satisfy {-nd}<=start<={nd}")
    if start < 0:
        start += nd
    if start > axis:
        start -= 1
    return _rollaxis_jit(a, axis, start)


def _rot90(m, k, axes):
    ax1, ax2 = axes
    if k == 0:
        return m
    if k == 2:
        return shape_ops.flip(shape_ops.flip(m, ax1), ax2)
    perm = list(range(aval(m).ndim))
    perm[ax1], perm[ax2] = perm[ax2], perm[ax1]
    if k == 1:
        return shape_ops.transpose(shape_ops.flip(m, ax2), perm)
    return shape_ops.flip(shape_ops.transpose(m, perm), ax2)


_rot90.__name__ = "rot90"  # JAX's staged name
_rot90_jit = jit(_rot90, static_argnums=(1, 2))


def rot90(m, k: int = 1, axes=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``axes`` (from the first axis
    towards the second).

    Parameters
    ----------
    m : array_like
        At least 2-D.
    k : int
    axes : (int, int)

    Returns
    -------
    Array
    """
    check_arraylike("rot90", m)
    shp = aval(m).shape
    if len(shp) < 2:
        raise ValueError("rot90 requires its first argument to have ndim at least two, but "
                         f"got first argument of shape {shp}, which has ndim {len(shp)}")
    ax1, ax2 = (canonicalize_axis(ax, len(shp)) for ax in axes)
    if ax1 == ax2:
        raise ValueError("Axes must be different")
    return _rot90_jit(m, operator.index(k) % 4, (ax1, ax2))


# ---------------------------------------------------------------------------------------
# append, insert, delete, resize, trim_zeros

def append(arr, values, axis=None):
    """``values`` joined after ``arr`` along ``axis`` (both flattened when None).

    Parameters
    ----------
    arr, values : array_like
    axis : int, optional

    Returns
    -------
    Array
    """
    return _append_jit(arr, values, axis)


def _append(arr, values, axis):
    if axis is None:
        return shape_ops.concatenate([shape_ops.ravel(arr), shape_ops.ravel(values)], 0)
    return shape_ops.concatenate([arr, values], axis=axis)


_append.__name__ = "append"
_append_jit = jit(_append, static_argnums=(2,))


def insert(arr, obj, values, axis=None):
    """``values`` inserted before the indices ``obj`` along ``axis``.

    Parameters
    ----------
    arr : array_like
    obj : int, slice or 1-D integer array (may be traced)
    values : array_like
    axis : int, optional
        The flattened array when None.

    Returns
    -------
    Array
    """
    check_arraylike("insert", arr, 0 if isinstance(obj, slice) else obj, values)
    a = ensure_array(arr)
    if axis is None:
        a = shape_ops.ravel(a)
        axis = 0
    axis = core.concrete_or_error(axis, "axis argument of jnp.insert()")
    nd = aval(a).ndim
    axis = canonicalize_axis(axis, nd)
    n_input = aval(a).shape[axis]
    if isinstance(obj, slice):
        idx = creation.arange(*obj.indices(n_input))
    else:
        idx = creation.asarray(obj)
    ia = aval(idx)
    if ia.ndim > 1:
        raise ValueError("jnp.insert(): obj must be a slice, a one-dimensional array, or a "
                         f"scalar; got {obj}")
    if ia.dtype.kind not in "iu":
        if math.prod(ia.shape) == 0 and not isinstance(obj, (Array, core.Tracer)):
            idx = idx.astype(int)
        else:
            raise ValueError(f"jnp.insert(): index array must be integer typed; got {obj}")
    vals = creation.array(values, ndmin=nd, dtype=aval(a).dtype, copy=False)
    if math.prod(aval(idx).shape) == 1:
        first = shape_ops.ravel(idx)[0]
        if aval(idx).ndim == 0:
            vals = shape_ops.moveaxis(vals, 0, axis)
        idx = creation.full(aval(vals).shape[axis], first)
    n_insert = shape_ops.broadcast_shapes(aval(idx).shape, (aval(vals).shape[axis],))[0]
    out_shape = list(aval(a).shape)
    out_shape[axis] += n_insert
    out = creation.zeros_like(a, shape=tuple(out_shape))
    idx = ufuncs_compound.where(ufuncs.less(idx, 0), ufuncs.add(idx, n_input), idx)
    idx = ufuncs_compound.clip(idx, 0, n_input)
    # Each inserted value lands at its index plus the number of values inserted before it.
    values_at = idx.at[sorting.argsort(idx)].add(
        creation.arange(n_insert, dtype=aval(idx).dtype))
    keep = creation.ones(n_input + n_insert, dtype=bool).at[values_at].set(False)
    arr_at = ufuncs_compound.where(keep, size=n_input)[0]
    lead = (slice(None),) * axis
    out = out.at[lead + (values_at,)].set(vals)
    return out.at[lead + (arr_at,)].set(a)


def delete(arr, obj, axis=None, *, assume_unique_indices: bool = False):
    """``arr`` without the entries ``obj`` along ``axis``.

    Parameters
    ----------
    arr : array_like
    obj : int, slice, or integer/boolean array (static unless ``assume_unique_indices``)
    axis : int, optional
        The flattened array when None.
    assume_unique_indices : bool
        Promise that integer ``obj`` has no duplicates, so that it may be traced.

    Returns
    -------
    Array
    """
    check_arraylike("delete", arr)
    a = ensure_array(arr)
    if axis is None:
        a = shape_ops.ravel(a)
        axis = 0
    axis = canonicalize_axis(axis, aval(a).ndim)
    n = aval(a).shape[axis]
    lead = (slice(None),) * axis
    try:
        k = operator.index(obj)
    except TypeError:
        pass
    else:
        k = canonicalize_axis(k, n)
        return shape_ops.concatenate([a[lead + (slice(0, k),)], a[lead + (slice(k + 1, None),)]],
                                     axis=axis)
    if isinstance(obj, slice):
        obj = creation.arange(n)[obj]
        assume_unique_indices = True
    check_arraylike("delete", a, obj)
    if aval(obj).dtype.kind in "iu" and assume_unique_indices:
        o = shape_ops.ravel(creation.asarray(obj))
        o = ufuncs_compound.clip(ufuncs_compound.where(ufuncs.less(o, 0), ufuncs.add(o, n), o),
                                 0, n)
        o = sorting.sort(o)
        dt = aval(o).dtype
        o = ufuncs.subtract(o, creation.arange(aval(o).shape[0], dtype=dt))
        i = creation.arange(n - aval(o).shape[0], dtype=dt)
        # Skip past every deleted index at or before each kept position.
        i = ufuncs.add(i, reductions.sum(ufuncs.greater_equal(i[None, :], o[:, None]), 0,
                                         dtype=dt))
        return a[lead + (i,)]
    o = core.concrete_or_error(obj, "'obj' array argument of jnp.delete()")
    o = np.asarray(o)
    if o.dtype.kind in "iu":
        mask = np.ones(n, dtype=bool)
        mask[o] = False
    elif o.dtype == bool:
        if o.shape != (n,):
            raise ValueError("np.delete(arr, obj): for boolean indices, obj must be "
                             "one-dimensional with length matching specified axis.")
        mask = ~o
    else:
        raise ValueError(f"np.delete(arr, obj): got obj.dtype={o.dtype}; must be integer "
                         "or bool.")
    return a[lead + (mask,)]


def resize(a, new_shape):
    """``a`` flattened, repeated as often as needed and reshaped to ``new_shape``.

    Parameters
    ----------
    a : array_like
    new_shape : int or sequence of int

    Returns
    -------
    Array
    """
    check_arraylike("resize", a)
    return _resize_jit(a, _index_tuple(new_shape))


def _resize(a, new_shape):
    if any(d < 0 for d in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    flat = shape_ops.ravel(a)
    new_size = math.prod(new_shape)
    size = aval(flat).shape[0]
    if size == 0 or new_size == 0:
        return creation.zeros_like(flat, shape=new_shape)
    flat = shape_ops.tile(flat, -(-new_size // size))[:new_size]
    return shape_ops.reshape(flat, new_shape)


_resize.__name__ = "resize"
_resize_jit = jit(_resize, static_argnums=(1,))


def trim_zeros(filt, trim: str = "fb", axis=None):
    """``filt`` without its leading (``'f'``) and/or trailing (``'b'``) all-zero slices.

    Parameters
    ----------
    filt : array_like
        Concrete (the output shape depends on its values).
    trim : str
    axis : int or sequence of int, optional
        The axes to trim (all by default).

    Returns
    -------
    Array
    """
    check_arraylike("trim_zeros", filt)
    filt = ensure_array(filt)
    core.concrete_or_error(filt, "Error arose in the `filt` argument of trim_zeros()")
    value = np.asarray(filt)
    nd = value.ndim
    axes = set(range(nd)) if axis is None else {canonicalize_axis(ax, nd)
                                                for ax in _index_tuple(axis)}
    trim = trim.lower()
    if not axes or ("f" not in trim and "b" not in trim):
        return filt
    slices = []
    for ax in range(nd):
        if ax not in axes:
            slices.append(slice(None))
            continue
        mask = value.any(axis=tuple(i for i in range(nd) if i != ax))
        if not mask.any():
            slices.append(slice(0, 0))
            continue
        start = int(mask.argmax()) if "f" in trim else None
        stop = value.shape[ax] - int(mask[::-1].argmax()) if "b" in trim else None
        slices.append(slice(start, stop))
    return filt[tuple(slices)]


# ---------------------------------------------------------------------------------------
# Splitting, unstacking, block

def _split_along(name: str, axis: int):
    def split(ary, indices_or_sections):
        check_arraylike(name, ary)
        nd = aval(ary).ndim
        ax = 0 if (axis == 1 and nd == 1) else axis
        if ax >= nd:
            raise IndexError("tuple index out of range")  # JAX reads ary.shape[axis]
        return shape_ops.split(ary, indices_or_sections, axis=ax)
    split.__name__ = name
    split.__doc__ = f"Split into sections along axis {axis} (see :func:`split`)."
    return split


hsplit = _split_along("hsplit", 1)
vsplit = _split_along("vsplit", 0)
dsplit = _split_along("dsplit", 2)


def unstack(x, /, *, axis: int = 0):
    """The slices of ``x`` along ``axis``, as a tuple.

    Parameters
    ----------
    x : array_like
    axis : int

    Returns
    -------
    tuple of Array
    """
    check_arraylike("unstack", x)
    x = ensure_array(x)
    axis = canonicalize_axis(axis, aval(x).ndim)
    return tuple(lax.squeeze(lax.index_in_dim(x, i, axis), (axis,))
                 for i in range(aval(x).shape[axis]))


def _block(xs):
    if isinstance(xs, tuple):
        raise ValueError(f"jax.numpy.block does not allow tuples, got {xs}")
    if isinstance(xs, list):
        if not xs:
            raise ValueError("jax.numpy.block does not allow empty list arguments")
        parts, depths = zip(*(_block(x) for x in xs), strict=True)
        if any(d != depths[0] for d in depths[1:]):
            raise ValueError("Mismatched list depths in jax.numpy.block")
        rank = max(depths[0], max(aval(p).ndim for p in parts))
        parts = [shape_ops.expand_dims(p, tuple(range(rank - aval(p).ndim)))
                 if aval(p).ndim < rank else p for p in parts]
        return shape_ops.concatenate(parts, axis=-depths[0]), depths[0] + 1
    return creation.asarray(xs), 1


def block(arrays):
    """Assemble an array from nested lists of blocks (the innermost lists join along the
    last axis).

    Parameters
    ----------
    arrays : array_like or nested list of array_like

    Returns
    -------
    Array
    """
    return _block_jit(arrays)


def _block_outer(arrays):
    return _block(arrays)[0]


_block_outer.__name__ = "block"
_block_jit = jit(_block_outer)


# ---------------------------------------------------------------------------------------
# apply_along_axis, apply_over_axes

def apply_along_axis(func1d, axis: int, arr, *args, **kwargs):
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis`` (through ``vmap``).

    Parameters
    ----------
    func1d : callable
        Takes a 1-D array (and ``*args``, ``**kwargs``).
    axis : int
    arr : array_like

    Returns
    -------
    Array
        The slices' results in place of ``axis``.
    """
    check_arraylike("apply_along_axis", arr)
    nd = aval(arr).ndim
    axis = canonicalize_axis(axis, nd)

    def func(row):
        return func1d(row, *args, **kwargs)
    for i in range(1, nd - axis):
        func = vmap(func, in_axes=i, out_axes=-1)
    for _ in range(axis):
        func = vmap(func, in_axes=0, out_axes=0)
    return func(ensure_array(arr))


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` applied for each axis in turn, keeping the rank.

    Parameters
    ----------
    func : callable
        Returns an array of the same rank or one less.
    a : array_like
    axes : sequence of int

    Returns
    -------
    Array
    """
    check_arraylike("apply_over_axes", a)
    out = ensure_array(a)
    for ax in axes:
        b = func(out, ax)
        if aval(b).ndim == aval(out).ndim:
            out = b
        elif aval(b).ndim == aval(out).ndim - 1:
            out = shape_ops.expand_dims(b, ax)
        else:
            raise ValueError("function is not returning an array of the correct shape")
    return out

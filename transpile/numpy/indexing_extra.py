"""Selecting and scattering by masks and index arrays: ``compress``, ``extract``,
``choose``, ``place``, ``put`` and ``put_along_axis``.

JAX arrays are immutable, so the NumPy in-place updaters (``place``, ``put``,
``put_along_axis``, like ``fill_diagonal``) require ``inplace=False`` and return a new
array.
"""
from __future__ import annotations

import math

import numpy as np

from .. import core
from . import creation, index_tricks, shape_ops, sorting, ufuncs_compound
from ._util import aval, canonicalize_axis, check_arraylike, ensure_array

__all__ = ["compress", "extract", "choose", "place", "put", "put_along_axis"]


def _tile_to_size(arr, size: int):
    """The 1-D ``arr`` repeated and cut to ``size`` elements."""
    n = aval(arr).shape[0]
    if n < size:
        arr = shape_ops.tile(arr, -(-size // n))
    return arr[:size] if aval(arr).shape[0] > size else arr


def compress(condition, a, axis=None, *, size=None, fill_value=0, out=None):
    """The slices of ``a`` along ``axis`` where the 1-D ``condition`` is true.

    Parameters
    ----------
    condition : array_like
        1-D; entries beyond ``a.shape[axis]`` must be false.
    a : array_like
    axis : int, optional
        The flattened array when None.
    size : int, optional
        A static result length (padded with ``fill_value``), needed under ``jit``.
    fill_value : array_like
    out : None

    Returns
    -------
    Array
    """
    check_arraylike("compress", condition, a, fill_value)
    cond = ensure_array(condition).astype(bool)
    arr = ensure_array(a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
    if aval(cond).ndim != 1:
        raise ValueError("condition must be a 1D array")
    if axis is None:
        axis = 0
        arr = shape_ops.ravel(arr)
    else:
        arr = shape_ops.moveaxis(arr, axis, 0)
    n = aval(arr).shape[0]
    cond, extra = cond[:n], cond[n:]
    arr = arr[:aval(cond).shape[0]]
    if size is None:
        extra = core.concrete_or_error(extra, "The error arose in jnp.compress")
        if np.any(np.asarray(extra)):
            raise ValueError("condition contains entries that are out of bounds")
        result = arr[cond]
    elif not 0 <= size <= aval(arr).shape[0]:
        raise ValueError("size must be positive and not greater than the size of the array "
                         f"axis; got size={size} for a.shape[axis]={aval(arr).shape[0]}")
    else:
        mask = shape_ops.expand_dims(cond, tuple(range(1, aval(arr).ndim)))
        arr = ufuncs_compound.where(mask, arr, creation.array(fill_value, dtype=aval(arr).dtype))
        # The selected slices first (in order), the filled ones after.
        result = arr[sorting.argsort(cond, stable=True, descending=True)][:size]
    return shape_ops.moveaxis(result, 0, axis)


def extract(condition, arr, *, size=None, fill_value=0):
    """The elements of ``arr`` where ``condition`` is true (both flattened).

    Parameters
    ----------
    condition, arr : array_like
    size : int, optional
    fill_value : array_like

    Returns
    -------
    Array
    """
    check_arraylike("extreact", condition, arr, fill_value)  # JAX's spelling
    return compress(shape_ops.ravel(condition), shape_ops.ravel(arr), size=size,
                    fill_value=fill_value)


def choose(a, choices, out=None, mode: str = "raise"):
    """Elementwise, ``choices[a]`` (all broadcast together).

    Parameters
    ----------
    a : integer array_like
    choices : sequence of array_like
    out : None
    mode : {'raise', 'wrap', 'clip'}
        ``'raise'`` needs a concrete ``a``.

    Returns
    -------
    Array
    """
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.choose is not supported.")
    check_arraylike("choose", a, *choices)
    a = ensure_array(a)
    choices = [ensure_array(c) for c in choices]
    if aval(a).dtype.kind not in "iu":
        raise ValueError("`a` array must be integer typed")
    n = len(choices)
    if mode == "raise":
        a = core.concrete_or_error(a, "The error occurred because jnp.choose was "
                                   "jit-compiled with mode='raise'. Use mode='wrap' or "
                                   "mode='clip' instead.")
        v = np.asarray(a)
        if np.any((v < 0) | (v >= n)):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = ufuncs_compound.remainder(a, n)
    elif mode == "clip":
        a = ufuncs_compound.clip(a, 0, n - 1)
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    a, *choices = shape_ops.broadcast_arrays(a, *choices)
    stacked = creation.array(choices)
    return stacked[(a,) + index_tricks.indices(aval(a).shape, sparse=True)]


def _immutable_error(name: str) -> ValueError:
    return ValueError(f"jax.numpy.{name} cannot modify arrays in-place, because JAX arrays "
                      "are immutable. Pass inplace=False to instead return an updated array.")


def place(arr, mask, vals, *, inplace: bool = True):
    """``arr`` with the entries where ``mask`` is true set to ``vals`` (cycled in order).

    Parameters
    ----------
    arr, mask, vals : array_like
    inplace : bool
        Must be False.

    Returns
    -------
    Array
    """
    check_arraylike("place", arr, mask, vals)
    data, mask, vals = ensure_array(arr), ensure_array(mask), shape_ops.ravel(vals)
    if inplace:
        raise _immutable_error("place")
    size = math.prod(aval(data).shape)
    if size != math.prod(aval(mask).shape):
        raise ValueError("place: arr and mask must be the same size")
    if not aval(vals).shape[0]:
        raise ValueError("Cannot place values from an empty array")
    if not size:
        return data
    idx = ufuncs_compound.where(shape_ops.ravel(mask), size=size, fill_value=size)[0]
    vals = _tile_to_size(vals, aval(idx).shape[0])
    return shape_ops.ravel(data).at[idx].set(vals, mode="drop").reshape(aval(data).shape)


def put(a, ind, v, mode=None, *, inplace: bool = True):
    """``a`` with the flat positions ``ind`` set to ``v`` (cycled).

    Parameters
    ----------
    a, ind, v : array_like
    mode : {None, 'clip', 'wrap'}
        None drops out-of-range indices.
    inplace : bool
        Must be False.

    Returns
    -------
    Array
    """
    if inplace:
        raise _immutable_error("put")
    check_arraylike("put", a, ind, v)
    arr = ensure_array(a)
    ind = shape_ops.ravel(ind)
    v = shape_ops.ravel(v)
    size = math.prod(aval(arr).shape)
    if not size or not aval(ind).shape[0] or not aval(v).shape[0]:
        return arr
    v = _tile_to_size(v, aval(ind).shape[0])
    if mode is None:
        scatter_mode = "drop"
    elif mode == "clip":
        ind = ufuncs_compound.clip(ind, 0, size - 1)
        scatter_mode = "promise_in_bounds"
    elif mode == "wrap":
        ind = ufuncs_compound.remainder(ind, size)
        scatter_mode = "promise_in_bounds"
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got mode={mode!r}")
    return arr.at[index_tricks.unravel_index(ind, aval(arr).shape)].set(v, mode=scatter_mode)


def put_along_axis(arr, indices, values, axis, inplace: bool = True, *, mode=None):
    """``arr`` with ``values`` written at ``indices`` along ``axis`` (the scatter
    counterpart of :func:`take_along_axis`).

    Parameters
    ----------
    arr : array_like
    indices : integer array_like
        Same rank as ``arr``.
    values : array_like
        Broadcastable to ``indices``.
    axis : int or None
        None works on the flattened array.
    inplace : bool
        Must be False.
    mode : str, optional
        The scatter mode of ``.at[].set``.

    Returns
    -------
    Array
    """
    if inplace:
        raise ValueError("jax.numpy.put_along_axis cannot modify arrays in-place, because JAX "
                         "arraysare immutable. Pass inplace=False to instead return an updated "
                         "array.")
    check_arraylike("put_along_axis", arr, indices, values)
    arr, indices, values = ensure_array(arr), ensure_array(indices), ensure_array(values)
    original_shape = aval(arr).shape
    flat = axis is None
    if flat:
        arr = shape_ops.ravel(arr)
        axis = 0
    if aval(arr).ndim != aval(indices).ndim:
        raise ValueError("put_along_axis arguments 'arr' and 'indices' must have same ndim. "
                         f"Got arr.ndim={aval(arr).ndim} and indices.ndim={aval(indices).ndim}.")
    try:
        values = shape_ops.broadcast_to(values, aval(indices).shape)
    except ValueError:
        raise ValueError("put_along_axis argument 'values' must be broadcastable to "
                         f"'indices'. Got values.shape={aval(values).shape} and "
                         f"indices.shape={aval(indices).shape}.") from None
    axis = canonicalize_axis(axis, aval(arr).ndim)
    idx = list(index_tricks.indices(aval(arr).shape, sparse=True))
    idx[axis] = indices
    out = arr.at[tuple(idx)].set(values, mode=mode)
    return out.reshape(original_shape) if flat else out


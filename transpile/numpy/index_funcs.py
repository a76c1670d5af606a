"""Index-valued and index-taking functions: ``take``, ``take_along_axis``, ``nonzero``,
``flatnonzero``, ``argwhere`` and ``unique``, staged as JAX 0.10.2 stages them.

``take`` and ``take_along_axis`` are jitted (``jit[name=_take]``,
``jit[name=take_along_axis]``) and read out-of-range indices as ``fill_value`` by
default (``mode='fill'``). The functions whose output size depends on the values
(``nonzero`` and friends, ``unique``) need a concrete input, or a static ``size``: then
they are computed with a cumulative sum and a ``scatter-add`` of counts, as JAX does, and
the missing entries are ``fill_value`` (0, or the smallest unique value, by default).
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import core, dtypes, lax
from ..errors import ConcretizationTypeError
from ..jit import internal_jit as jit
from . import ufuncs_compound
from ._util import aval, canonicalize_axis, check_arraylike, ensure_array, lift_constant
from .creation import arange
from .indexing import IndexUpdateRef
from .reductions import cumsum, sum as jsum
from .shape_ops import atleast_1d, atleast_2d, ravel
from .ufuncs import add, less, not_equal
from .ufuncs_compound import clip, floor_divide, remainder, where

__all__ = ["take", "take_along_axis", "flatnonzero", "argwhere"]

_INT = np.dtype(np.int32)


# ---------------------------------------------------------------------------------------
# take

def _take(a, indices, axis, mode, unique_indices, indices_are_sorted, fill_value):
    if axis is None:
        a = ravel(a)
        axis = 0
    shape = aval(a).shape
    axis = canonicalize_axis(axis, len(shape))
    idx_shape = aval(indices).shape
    if shape[axis] == 0 and math.prod(idx_shape):
        raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
    n = shape[axis]
    if mode is None or mode == "fill":
        gather_mode = lax.GatherScatterMode.FILL_OR_DROP
        # Negative indices wrap once; the gather fills what is still out of range.
        indices = where(less(indices, 0), add(indices, n), indices)
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    elif mode == "wrap":
        indices = remainder(indices, np.asarray(n, aval(indices).dtype)[()])
        gather_mode = lax.GatherScatterMode.PROMISE_IN_BOUNDS
    elif mode == "clip":
        gather_mode = lax.GatherScatterMode.CLIP
    else:
        raise ValueError(f"Invalid mode '{mode}' for np.take")
    nd = len(idx_shape)
    indices = lax.expand_dims(indices, (nd,))
    out_ndim = len(shape) - 1 + nd
    dnums = lax.GatherDimensionNumbers(
        offset_dims=tuple(range(axis)) + tuple(range(axis + nd, out_ndim)),
        collapsed_slice_dims=(axis,), start_index_map=(axis,))
    sizes = tuple(1 if d == axis else s for d, s in enumerate(shape))
    return lax.gather(a, indices, dnums, sizes, unique_indices=unique_indices,
                      indices_are_sorted=indices_are_sorted, mode=gather_mode,
                      fill_value=fill_value)


_take_jit = jit(_take, static_argnames=("axis", "mode", "unique_indices",
                                        "indices_are_sorted", "fill_value"))


def take(a, indices, axis=None, out=None, mode=None, unique_indices=False,
         indices_are_sorted=False, fill_value=None):
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array if None).

    Parameters
    ----------
    a : array_like
    indices : array_like
        Integer indices; negative ones count from the end.
    axis : int, optional
    out : None
        Not supported (NumPy's output argument).
    mode : {None, 'fill', 'clip', 'wrap'}
        Out-of-range indices give ``fill_value`` (None, 'fill'; NaN, INT_MIN, the
        unsigned maximum or True by default), are clamped ('clip') or wrap ('wrap').
    unique_indices, indices_are_sorted : bool
        Promises passed to ``gather``.
    fill_value : scalar, optional

    Returns
    -------
    Array
        ``a.shape[:axis] + indices.shape + a.shape[axis + 1:]``.
    """
    check_arraylike("take", a, indices)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.take is not supported.")
    if axis is not None:
        canonicalize_axis(axis, aval(a).ndim)
    return _take_jit(a, indices, axis=None if axis is None else operator.index(axis),
                     mode=mode, unique_indices=bool(unique_indices),
                     indices_are_sorted=bool(indices_are_sorted), fill_value=fill_value)


# ---------------------------------------------------------------------------------------
# take_along_axis

def _take_along_axis(arr, indices, axis, mode, fill_value, wrap_negative_indices):
    if axis is None:
        if aval(indices).ndim != 1:
            raise ValueError("take_along_axis indices must be 1D if axis=None, got shape "
                             f"{aval(indices).shape}")
        arr = ravel(arr)
        axis = 0
    a_shape, i_shape = aval(arr).shape, aval(indices).shape
    axis = canonicalize_axis(axis, len(a_shape))
    indices = lax._convert_element_type(indices, _INT, False)
    if wrap_negative_indices:
        is_negative = lax.lt(indices, np.int32(0))
        indices = lax.select_n(is_negative, indices,
                               lax.add(indices, np.int32(a_shape[axis])))
    kept_idx, squeezed_arr = [], []
    offset_dims, op_batch, idx_batch, sizes = [], [], [], []
    op_axis = None
    for d, (n, k) in enumerate(zip(a_shape, i_shape, strict=True)):
        if d == axis:
            op_axis = d - len(squeezed_arr)
            kept_idx.append(k)
            sizes.append(1)
        elif n == 1 and k != 1:
            squeezed_arr.append(d)  # the operand broadcasts: read it without this axis
            kept_idx.append(k)
        elif k == 1:
            offset_dims.append(d)  # the indices broadcast: a window of the whole axis
            sizes.append(n)
        else:
            op_batch.append(d - len(squeezed_arr))
            idx_batch.append(len(kept_idx))
            kept_idx.append(k)
            sizes.append(1)
    indices = lax.reshape(indices, tuple(kept_idx) + (1,))
    if squeezed_arr:
        arr = lax.squeeze(arr, tuple(squeezed_arr))
    dnums = lax.GatherDimensionNumbers(
        offset_dims=tuple(offset_dims), collapsed_slice_dims=(op_axis,),
        start_index_map=(op_axis,), operand_batching_dims=tuple(op_batch),
        start_indices_batching_dims=tuple(idx_batch))
    gather_mode = "fill" if mode is None else mode
    return lax.gather(arr, indices, dnums, tuple(sizes), mode=gather_mode,
                      fill_value=fill_value)


_take_along_axis.__name__ = "take_along_axis"
_take_along_axis_jit = jit(_take_along_axis, static_argnames=(
    "axis", "mode", "fill_value", "wrap_negative_indices"))


def take_along_axis(arr, indices, axis=-1, mode=None, fill_value=None, *,
                    wrap_negative_indices=None):
    """``arr`` read at ``indices`` along ``axis``, the other axes matching (or
    broadcasting between) ``arr`` and ``indices``, like NumPy's.

    Parameters
    ----------
    arr, indices : array_like
        Same number of dimensions; ``indices`` is integer.
    axis : int or None
        None reads the flattened ``arr`` with 1-D ``indices``.
    mode : str or GatherScatterMode, optional
        None (``'fill'``) gives ``fill_value`` out of range; ``'clip'`` clamps.
    fill_value : scalar, optional
    wrap_negative_indices : bool, optional
        Negative indices count from the end (the default).

    Returns
    -------
    Array
    """
    check_arraylike("take_along_axis", arr, indices)
    a, i = aval(arr), aval(indices)
    if i.dtype.kind not in "iu":
        raise TypeError(f"take_along_axis indices must be of integer type, got {i.dtype}")
    if axis is not None:
        if i.ndim != a.ndim:
            raise ValueError("indices and arr must have the same number of dimensions; "
                             f"{i.ndim} vs. {a.ndim}")
        ax = canonicalize_axis(axis, a.ndim)
        for d, (n, k) in enumerate(zip(a.shape, i.shape, strict=True)):
            if d != ax and n != k and n != 1 and k != 1:
                other = tuple(1 if e == ax else s for e, s in enumerate(a.shape))
                raise ValueError("Incompatible shapes for broadcasting: shapes="
                                 f"[{i.shape}, {other}]")
        axis = operator.index(axis)
    wrap = True if wrap_negative_indices is None else bool(wrap_negative_indices)
    return _take_along_axis_jit(arr, indices, axis=axis, mode=mode, fill_value=fill_value,
                                wrap_negative_indices=wrap)


# ---------------------------------------------------------------------------------------
# nonzero and friends

def _concrete_value(a):
    if isinstance(a, core.Tracer):
        v = a.to_concrete_value()
        return None if v is None else np.asarray(v)
    return np.asarray(a._value if hasattr(a, "_value") else a)


def _nonzero_error(a):
    count = lax.reduce_sum(lax.convert_element_type(lax.ne(a, lax_zero(a)), np.int32),
                           tuple(range(aval(a).ndim)))
    return ConcretizationTypeError(
        count, "The size argument of jnp.nonzero must be statically specified to use "
               "jnp.nonzero within JAX transformations.")


def lax_zero(a):
    return np.zeros((), aval(a).dtype)[()]


def _fill_values(fill_value, ndim: int) -> list:
    if isinstance(fill_value, (tuple, list)):
        if len(fill_value) != ndim:
            raise ValueError(f"fill_value must be a scalar or a tuple of length {ndim}; got "
                             f"{fill_value}")
        return list(fill_value)
    return [fill_value] * ndim


def nonzero(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements of ``a``: one int32 array per dimension.

    Parameters
    ----------
    a : array_like
        At least 1-D. Must be concrete unless ``size`` is given.
    size : int, optional
        Static length of the result: extra indices are dropped, missing ones are
        ``fill_value``.
    fill_value : int or tuple of int, optional
        Default 0; a tuple gives one value per dimension.

    Returns
    -------
    tuple of Array
    """
    check_arraylike("nonzero", a)
    a = ensure_array(a)
    shape = aval(a).shape
    if not shape:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "jnp.atleast_1d(scalar).nonzero() instead.")
    mask = a if aval(a).dtype == np.bool_ else not_equal(a, 0)
    if size is None:
        value = _concrete_value(mask)
        if value is None:
            raise _nonzero_error(a)
        return tuple(lift_constant(i.astype(dtypes.default_int_dtype()))
                     for i in np.nonzero(value))
    size = core.concrete_or_error(size, "The size argument of jnp.nonzero must be "
                                        "statically specified to use jnp.nonzero within "
                                        "JAX transformations.")
    size = operator.index(size)
    int_dt = dtypes.default_int_dtype()
    # bins[k] counts the positions holding the k-th nonzero: their cumulative sum is the
    # flat index of the (k+1)-th nonzero (the array size past the last one, which the
    # unravelling below turns into index 0).
    csum = cumsum(mask)
    counts = lax.broadcast_in_dim(np.zeros((), int_dt)[()], (size,), ())
    counts = IndexUpdateRef(counts, clip(csum, 0)).add(1)
    flat = cumsum(counts)
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    out = [floor_divide(flat, np.asarray(s, int_dt)[()]) % n
           for s, n in zip(strides, shape, strict=True)]
    if fill_value is not None:
        fills = _fill_values(fill_value, len(shape))
        missing = arange(size) >= jsum(mask)
        out = [where(missing, f, r) for f, r in zip(fills, out, strict=True)]
    return tuple(out)


def flatnonzero(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements of the flattened ``a``.

    Parameters
    ----------
    a : array_like
    size, fill_value : optional
        As for :func:`nonzero`.

    Returns
    -------
    Array
    """
    check_arraylike("flatnonzero", a)
    return nonzero(ravel(a), size=size, fill_value=fill_value)[0]


def argwhere(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements, one row per element.

    Parameters
    ----------
    a : array_like
    size, fill_value : optional
        As for :func:`nonzero`.

    Returns
    -------
    Array
        Shape ``(count, a.ndim)`` (``(size, a.ndim)`` with ``size``).
    """
    check_arraylike("argwhere", a)
    ndim = aval(a).ndim
    parts = nonzero(atleast_1d(a), size=size, fill_value=fill_value)
    rows = lax.concatenate([atleast_2d(p) for p in parts], 0)
    result = lax.transpose(rows, (1, 0))
    if ndim == 0:
        return lax.slice(result, (0, 0), (aval(result).shape[0], 0))
    return result


ufuncs_compound._nonzero = nonzero  # jnp.nonzero and one-argument jnp.where

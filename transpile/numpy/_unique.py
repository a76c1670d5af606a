"""``jnp.unique``: NumPy's answer for concrete input; with a static ``size``, JAX's
staged algorithm (sort, mark the first of each run, gather at the marks' positions).
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, dtypes, lax
from ..errors import ConcretizationTypeError
from ..jit import internal_jit as jit
from ._util import aval, check_arraylike, ensure_array, lift_constant
from .creation import arange
from .index_funcs import nonzero
from .indexing import IndexUpdateRef
from .reductions import sum as jsum
from .shape_ops import ravel
from .ufuncs_compound import where

__all__ = ["unique"]


def _lexsort(keys):
    """The permutation sorting the last key (one key: JAX's lexsort of a single row)."""
    n_keys, n = aval(keys).shape
    cols = [lax.index_in_dim(keys, i, 0, keepdims=False) for i in range(n_keys)][::-1]
    return lax.sort((*cols, lax.iota(np.int32, n)), dimension=0, is_stable=True,
                    num_keys=n_keys)[-1]


_lexsort.__name__ = "lexsort"
_lexsort_jit = jit(_lexsort)


def _unique_sorted_mask(ar, equal_nan):
    """(sorted ar, True at the first element of each run of equal values, permutation)."""
    n = aval(ar).shape[0]
    keys = lax.rev(lax.transpose(lax.reshape(ar, (n, 1)), (1, 0)), (0,))
    perm = _lexsort_jit(keys)
    aux = ensure_array(ar)[perm]
    mask = lax.broadcast_in_dim(True, (n,), ())
    later = aux[1:]
    earlier = aux[:-1]
    differs = lax.ne(later, earlier)
    if equal_nan and dtypes.is_float(aval(ar).dtype):
        both_nan = lax.bitwise_and(lax.ne(later, later), lax.ne(earlier, earlier))
        differs = lax.bitwise_and(differs, lax.bitwise_not(both_nan))
    differs = lax.reduce_or(differs, ())
    mask = IndexUpdateRef(mask, slice(1, None)).set(differs)
    return aux, mask, perm


_unique_sorted_mask_jit = jit(_unique_sorted_mask, static_argnames=("equal_nan",))


def _numpy_unique(value, return_index, return_inverse, return_counts, axis, equal_nan):
    out = np.unique(value, return_index=True, return_inverse=True, return_counts=True,
                    axis=axis, equal_nan=equal_nan)
    values, index, inverse, counts = out
    if axis is None:
        inverse = inverse.reshape(-1)
    int_dt = dtypes.default_int_dtype()
    parts = [values]
    if return_index:
        parts.append(index.astype(int_dt))
    if return_inverse:
        parts.append(inverse.astype(int_dt))
    if return_counts:
        parts.append(counts.astype(int_dt))
    return parts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, size=None, fill_value=None, sorted=True):  # noqa: A002
    """The sorted unique elements of ``ar`` (flattened unless ``axis`` is given).

    Parameters
    ----------
    ar : array_like
        Must be concrete unless ``size`` is given.
    return_index, return_inverse, return_counts : bool
        Also return the first positions, the inverse map and the counts (int32).
    axis : int, optional
        Unique slices along ``axis`` (concrete input only).
    equal_nan : bool
        NaNs count as equal (one NaN in the result).
    size : int, optional
        Static length of the result: extra values are dropped, missing ones are
        ``fill_value`` (default: the smallest value).
    fill_value : scalar, optional
    sorted : bool
        Only True is supported (as in JAX).

    Returns
    -------
    Array, or tuple of Array when an extra output is requested.
    """
    check_arraylike("unique", ar)
    ar = ensure_array(ar)
    extra = return_index or return_inverse or return_counts
    value = None
    if isinstance(ar, core.Tracer):
        v = ar.to_concrete_value()
        value = None if v is None else np.asarray(v)
    else:
        value = np.asarray(ar._value)
    if size is None:
        if value is None:
            raise ConcretizationTypeError(
                ar, "The error arose for the first argument of jnp.unique(). To make "
                    "jnp.unique() compatible with JIT and other transforms, you can specify "
                    "a concrete value for the size argument, which will determine the "
                    "output size.")
        parts = _numpy_unique(value, return_index, return_inverse, return_counts, axis,
                              equal_nan)
        outs = [lift_constant(p) for p in parts]
        return tuple(outs) if extra else outs[0]
    size = operator.index(size)
    if axis is not None or extra:
        if value is None:
            raise NotImplementedError("jnp.unique with a traced input supports only the "
                                      "values output along axis=None")
        parts = _numpy_unique(value, return_index, return_inverse, return_counts, axis,
                              equal_nan)
        parts[0] = _pad(parts[0], size, fill_value)
        if return_index:
            parts[1] = _pad(parts[1], size, None)
        if return_counts:
            parts[-1] = _pad(parts[-1], size, 0)
        return tuple(lift_constant(p) for p in parts)
    return _unique_with_size(ar, size, fill_value, equal_nan)


def _pad(values: np.ndarray, size: int, fill_value) -> np.ndarray:
    """``values`` cut or padded to ``size`` (with ``fill_value``, else its first entry)."""
    if len(values) >= size:
        return values[:size]
    fill = values[:1] if fill_value is None else np.asarray(fill_value, values.dtype)
    if fill.size == 0:
        fill = np.zeros((), values.dtype)
    pad = np.broadcast_to(fill.reshape(()) if fill.ndim else fill,
                          (size - len(values),) + values.shape[1:])
    return np.concatenate([values, pad.astype(values.dtype)])


def _unique_with_size(ar, size: int, fill_value, equal_nan: bool):
    if aval(ar).ndim != 1:
        ar = ravel(ar)
    aux, mask, _ = _unique_sorted_mask_jit(ar, equal_nan=bool(equal_nan))
    ind = nonzero(mask, size=size)[0]
    result = aux[ind]
    if fill_value is not None:
        valid = arange(size) < jsum(mask)
        result = where(valid, result, np.asarray(fill_value, aval(ar).dtype)[()])
    return result

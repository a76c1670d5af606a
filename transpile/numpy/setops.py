"""Set operations and partial sorts: isin, union1d, intersect1d, setdiff1d, setxor1d,
the Array-API ``unique_*`` functions, lexsort, partition, argpartition.

The set functions have data-dependent result sizes: with concrete input they return
NumPy's answer; a static ``size`` cuts or pads the result (``fill_value``, else the
smallest value, or 0 for ``setdiff1d``, as JAX pads). ``union1d`` and ``setdiff1d``
with ``size`` also run staged (through ``unique``); the others need concrete input.
"""
from __future__ import annotations

import operator
from collections import namedtuple

import numpy as np

from .. import core, dtypes, lax
from ..errors import ConcretizationTypeError
from ._unique import unique
from ._util import (aval, canonicalize_axis, check_arraylike, ensure_array, lift_constant,
                    promote_dtypes)
from .creation import arange, asarray, ones
from .index_funcs import nonzero
from .reductions import any as jany, sum as jsum
from .shape_ops import concatenate, ravel, reshape, swapaxes
from .ufuncs_compound import where

__all__ = ["isin", "union1d", "intersect1d", "setdiff1d", "setxor1d", "unique_all",
           "unique_counts", "unique_inverse", "unique_values", "lexsort", "partition",
           "argpartition"]

_UniqueAllResult = namedtuple("_UniqueAllResult",
                              ["values", "indices", "inverse_indices", "counts"])
_UniqueCountsResult = namedtuple("_UniqueCountsResult", ["values", "counts"])
_UniqueInverseResult = namedtuple("_UniqueInverseResult", ["values", "inverse_indices"])


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    """Whether each element of ``element`` occurs in ``test_elements``.

    Parameters
    ----------
    element, test_elements : array_like
    assume_unique : bool
        Accepted for compatibility.
    invert : bool
        Return the negation.
    method : str
        Accepted for compatibility: every element is compared with every test value.

    Returns
    -------
    Array of bool, of ``element``'s shape.
    """
    check_arraylike("isin", element, test_elements)
    element, tests = promote_dtypes(ensure_array(element), ravel(test_elements))
    shape = aval(element).shape
    n = aval(tests).shape[0]
    lhs = lax.broadcast_in_dim(element, shape + (n,), tuple(range(len(shape))))
    rhs = lax.broadcast_in_dim(tests, shape + (n,), (len(shape),))
    found = jany(lax.eq(lhs, rhs), axis=-1)
    return ensure_array(lax.bitwise_not(found)) if invert else found


def _concrete(name, *arrays):
    """NumPy values of ``arrays``; JAX's concretisation error for a tracer."""
    out = []
    for a in arrays:
        a = ensure_array(a)
        if isinstance(a, core.Tracer):
            v = a.to_concrete_value()
            if v is None:
                raise ConcretizationTypeError(
                    a, f"The error arose for the first argument of jnp.unique(). To make "
                       f"jnp.{name}() compatible with JIT and other transforms, you can "
                       "specify a concrete value for the size argument, which will "
                       "determine the output size.")
            out.append(np.asarray(v))
        else:
            out.append(np.asarray(a._value))
    return out


def _sized(values: np.ndarray, size, fill_value, default):
    if size is None:
        return values
    size = operator.index(size)
    if len(values) >= size:
        return values[:size]
    if fill_value is None:
        fill_value = default if default is not None else (values[0] if len(values) else 0)
    pad = np.full(size - len(values), fill_value).astype(values.dtype)
    return np.concatenate([values, pad])


def _promoted_values(name, ar1, ar2):
    check_arraylike(name, ar1, ar2)
    a1, a2 = promote_dtypes(ensure_array(ar1), ensure_array(ar2))
    v1, v2 = _concrete(name, a1, a2)
    return v1.ravel(), v2.ravel(), aval(a1).dtype


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """Sorted unique values found in either array (flattened)."""
    check_arraylike("union1d", ar1, ar2)
    joined = concatenate((ravel(ar1), ravel(ar2)))
    return unique(joined, size=size, fill_value=fill_value)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    """Sorted unique values found in both arrays; optionally the first indices of each
    in ``ar1`` and ``ar2`` (int32)."""
    v1, v2, dt = _promoted_values("intersect1d", ar1, ar2)
    values, i1, i2 = np.intersect1d(v1, v2, assume_unique=assume_unique,
                                    return_indices=True)
    values = _sized(values.astype(dt), size, fill_value, None)
    if not return_indices:
        return lift_constant(values)
    int_dt = dtypes.default_int_dtype()
    i1 = _sized(i1.astype(int_dt), size, len(v1), None)
    i2 = _sized(i2.astype(int_dt), size, len(v2), None)
    return lift_constant(values), lift_constant(i1), lift_constant(i2)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """Sorted unique values of ``ar1`` that are not in ``ar2`` (``ar1``'s dtype).

    With a static ``size`` it also runs staged (under ``jit``): the unique values of
    ``ar1`` are masked by :func:`isin` and the kept ones gathered to the front.
    """
    check_arraylike("setdiff1d", ar1, ar2)
    dt = aval(ensure_array(ar1)).dtype
    if size is not None:
        return _setdiff1d_sized(ravel(ar1), ar2, assume_unique, operator.index(size),
                                fill_value)
    v1, v2 = _concrete("setdiff1d", ar1, ar2)
    values = np.setdiff1d(v1.ravel(), v2.ravel(), assume_unique=assume_unique).astype(dt)
    return lift_constant(values)


def _setdiff1d_sized(arr1, ar2, assume_unique, size, fill_value):
    dt = aval(arr1).dtype
    fill = np.asarray(0 if fill_value is None else fill_value).astype(dt)[()]
    n = aval(arr1).shape[0]
    if n == 0:
        return ensure_array(lax.full((size,), fill, dt))
    if not assume_unique:
        arr1 = unique(arr1, size=n)
    mask = isin(arr1, ar2, invert=True)
    if not assume_unique:
        # unique() pads with its smallest value: those copies are no result.
        n_unique = n + 1 - jsum(arr1 == arr1[0])
        mask = where(arange(n) < n_unique, mask, False)
    picked = arr1[nonzero(mask, size=size)[0]]
    return where(arange(size) < jsum(mask), picked, fill)


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """Sorted unique values found in exactly one of the arrays."""
    v1, v2, dt = _promoted_values("setxor1d", ar1, ar2)
    values = np.setxor1d(v1, v2, assume_unique=assume_unique).astype(dt)
    return lift_constant(_sized(values, size, fill_value, None))


def unique_all(x, /, *, size=None, fill_value=None):
    """Unique values with first indices, inverse indices (of ``x``'s shape) and counts;
    NaNs are all distinct."""
    check_arraylike("unique_all", x)
    values, indices, inverse, counts = unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False,
        size=size, fill_value=fill_value)
    return _UniqueAllResult(values, indices, reshape(inverse, aval(x).shape), counts)


def unique_counts(x, /, *, size=None, fill_value=None):
    """Unique values and their counts (NaNs distinct)."""
    check_arraylike("unique_counts", x)
    values, counts = unique(x, return_counts=True, equal_nan=False, size=size,
                            fill_value=fill_value)
    return _UniqueCountsResult(values, counts)


def unique_inverse(x, /, *, size=None, fill_value=None):
    """Unique values and the inverse indices, of ``x``'s shape (NaNs distinct)."""
    check_arraylike("unique_inverse", x)
    values, inverse = unique(x, return_inverse=True, equal_nan=False, size=size,
                             fill_value=fill_value)
    return _UniqueInverseResult(values, reshape(inverse, aval(x).shape))


def unique_values(x, /, *, size=None, fill_value=None):
    """Unique values (NaNs distinct)."""
    check_arraylike("unique_values", x)
    return unique(x, equal_nan=False, size=size, fill_value=fill_value)


def lexsort(keys, axis=-1):
    """Indices sorting by several keys, the last key the primary one (int32).

    Parameters
    ----------
    keys : sequence of array_like, or a 2-D array (one key per row)
    axis : int

    Returns
    -------
    Array
    """
    key_tuple = tuple(keys)
    if len(key_tuple) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    check_arraylike("lexsort", *key_tuple)
    key_tuple = tuple(ensure_array(k) for k in key_tuple)
    shapes = {aval(k).shape for k in key_tuple}
    if len(shapes) > 1:
        raise ValueError("all keys need to be the same shape")
    shape = aval(key_tuple[0]).shape
    if not shape:
        return ensure_array(np.int32(0))
    ax = canonicalize_axis(axis, len(shape))
    iota = lax.broadcasted_iota(np.int32, shape, ax)
    return lax.sort((*key_tuple[::-1], iota), dimension=ax, num_keys=len(key_tuple),
                    is_stable=True)[-1]


def _neg_key(arr):
    # Unsigned values are shifted so that negation keeps their order.
    if aval(arr).dtype.kind == "u":
        return lax.neg(lax.add(arr, np.array(1, aval(arr).dtype)[()]))
    if aval(arr).dtype == np.bool_:
        return lax.neg(lax.convert_element_type(arr, np.int32))
    return lax.neg(arr)


def _partition_args(name, a, kth, axis):
    """``a`` with ``axis`` moved last, its rank, and the checked ``axis`` and ``kth``."""
    check_arraylike(name, a)
    arr = asarray(a)
    nd = aval(arr).ndim
    axis = canonicalize_axis(axis, nd)
    kth = canonicalize_axis(kth, aval(arr).shape[axis])
    return swapaxes(arr, axis, -1), nd, axis, kth


def partition(a, kth, axis=-1):
    """``a`` with its ``kth`` smallest element (along ``axis``) in place, the smaller
    ones before it and the larger ones after (JAX's order within each side)."""
    arr, nd, axis, kth = _partition_args("partition", a, kth, axis)
    dt = aval(arr).dtype
    bottom = lax.top_k(_neg_key(arr), kth + 1)[0]
    if dt.kind == "u":
        bottom = lax.sub(lax.neg(bottom), np.array(1, dt)[()])
    elif dt == np.bool_:
        bottom = lax.convert_element_type(lax.neg(bottom), np.bool_)
    else:
        bottom = lax.neg(bottom)
    top = lax.top_k(arr, aval(arr).shape[-1] - kth - 1)[0]
    out = lax.concatenate([bottom, top], nd - 1)
    return ensure_array(swapaxes(out, -1, axis))


def argpartition(a, kth, axis=-1):
    """Indices that would :func:`partition` ``a`` (int32)."""
    arr, nd, axis, kth = _partition_args("argpartition", a, kth, axis)
    shape = aval(arr).shape
    bottom_ind = lax.top_k(_neg_key(arr), kth + 1)[1]
    # The top indices come from a proxy with the bottom ones zeroed, so that equal
    # values split between the sides exactly once.
    lead = tuple(lax.broadcasted_iota(np.int32, aval(bottom_ind).shape, d)
                 for d in range(nd - 1))
    proxy = ones(shape).at[lead + (bottom_ind,)].set(0)
    top_ind = lax.top_k(proxy, shape[-1] - kth - 1)[1]
    out = lax.concatenate([bottom_ind, top_ind], nd - 1)
    return ensure_array(swapaxes(out, -1, axis))

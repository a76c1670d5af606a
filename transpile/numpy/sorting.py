"""Sorting: ``sort`` and ``argsort`` as the jitted helpers JAX uses.

``argsort`` sorts the keys together with an iota of indices (a two-operand ``sort``
with ``num_keys=1``) and keeps the second output. ``descending`` reverses the
operands before a stable sort and the result after it, so ties keep their order.
"""
from __future__ import annotations

from .. import dtypes, lax
from ..jit import internal_jit as jit
from ..lax.control_flow import scan
from ._util import aval, canonicalize_axis, check_arraylike, promote_dtypes
from .creation import asarray
from .shape_ops import ravel

__all__ = ["sort", "argsort", "searchsorted"]


def _sort(a, *, axis, stable, descending):
    if axis is None:
        a = ravel(a)
        axis = 0
    dim = canonicalize_axis(axis, aval(a).ndim)
    out = lax.sort(a, dimension=dim, is_stable=stable, num_keys=1)
    return lax.rev(out, (dim,)) if descending else out


_sort.__name__ = "sort"
_sort_jit = jit(_sort, static_argnames=("axis", "stable", "descending"))


def sort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    """A sorted copy of ``a`` along ``axis`` (the flattened array when None).

    Parameters
    ----------
    a : array_like
    axis : int or None
    kind : None
        Accepted for compatibility (the sort is always stable when ``stable``).
    order : None
        Not supported.
    stable : bool
    descending : bool

    Returns
    -------
    Array
    """
    check_arraylike("sort", a)
    if order is not None:
        raise ValueError("'order' argument to sort is not supported.")
    return _sort_jit(a, axis=axis, stable=bool(stable), descending=bool(descending))


def _argsort(a, *, axis, stable, descending):
    if axis is None:
        a = ravel(a)
        axis = 0
    shape = aval(a).shape
    dim = canonicalize_axis(axis, len(shape))
    iota = lax.broadcasted_iota(dtypes.default_int_dtype(), shape, dim)
    if descending:
        a = lax.rev(a, (dim,))
        iota = lax.rev(iota, (dim,))
    _, perm = lax.sort((a, iota), dimension=dim, is_stable=stable, num_keys=1)
    return lax.rev(perm, (dim,)) if descending else perm


_argsort.__name__ = "argsort"
_argsort_jit = jit(_argsort, static_argnames=("axis", "stable", "descending"))


def argsort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    """Indices that sort ``a`` along ``axis`` (int32).

    Parameters
    ----------
    a : array_like
    axis : int or None
    kind, order : None
    stable : bool
    descending : bool

    Returns
    -------
    Array
    """
    check_arraylike("argsort", a)
    if order is not None:
        raise ValueError("'order' argument to argsort is not supported.")
    return _argsort_jit(a, axis=axis, stable=bool(stable), descending=bool(descending))


# ---------------------------------------------------------------------------------------
# searchsorted

def _le_total(x, y):
    """``x <= y`` in the total order of ``sort`` (NaN after everything, -0.0 == 0.0)."""
    if not dtypes.is_float(dtypes.dtype(x)):
        return lax.le(x, y)
    return lax.select(lax.ne(y, y), lax.full_like(y, True, bool),
                      lax.select(lax.ne(x, x), lax.full_like(x, False, bool), lax.le(x, y)))


def _lt_total(x, y):
    """``x < y`` in the total order of ``sort``."""
    if not dtypes.is_float(dtypes.dtype(x)):
        return lax.lt(x, y)
    return lax.select(lax.ne(x, x), lax.full_like(x, False, bool),
                      lax.select(lax.ne(y, y), lax.full_like(y, True, bool), lax.lt(x, y)))


def _searchsorted(a, v, *, side, dtype):
    import numpy as np
    n = a.shape[0]
    if n == 0:
        return lax.full(v.shape, 0, dtype)
    comes_first = _le_total if side == "left" else _lt_total
    udt = np.dtype(np.uint64 if np.dtype(dtype).itemsize == 8 else np.uint32)

    def step(state, _):
        low, high = state
        mid = low + (high - low) // udt.type(2)
        go_left = comes_first(v, a[mid])
        return (lax.select(go_left, low, mid), lax.select(go_left, mid, high)), ()
    init = (lax.full(v.shape, 0, udt), lax.full(v.shape, n, udt))
    (_, high), _ = scan(step, init, (), length=int(np.ceil(np.log2(n + 1))))
    return high.astype(dtype)


_searchsorted_jit = jit(_searchsorted, static_argnames=("side", "dtype"))


def searchsorted(a, v, side="left", sorter=None, *, method="scan"):
    """Indices where the elements of ``v`` would be inserted into the sorted ``a``.

    Parameters
    ----------
    a : array_like
        1-D, sorted ascending (NaNs last), or put in order by ``sorter``.
    v : array_like
        The values to place.
    side : {"left", "right"}
        For values equal to entries of ``a``: the first or the last suitable index.
    sorter : array_like of int, optional
        Indices that sort ``a``.
    method : {"scan", "scan_unrolled", "compare_all", "sort"}
        Accepted for compatibility: every method runs the same binary search (a scan
        of ``ceil(log2(len(a) + 1))`` halving steps), so results are identical.

    Returns
    -------
    Array
        int32 indices of ``v``'s shape.
    """
    import numpy as np
    if sorter is None:
        check_arraylike("searchsorted", a, v)
    else:
        check_arraylike("searchsorted", a, v, sorter)
    if side not in ("left", "right"):
        raise ValueError(f"{side!r} is an invalid value for keyword 'side'. "
                         "Expected one of ['left', 'right'].")
    if method not in ("scan", "scan_unrolled", "compare_all", "sort"):
        raise ValueError(f"Unsupported method: {method}")
    a, v = asarray(a), asarray(v)
    if a.ndim != 1:
        raise ValueError("a should be 1-dimensional")
    a, v = promote_dtypes(a, v)
    if sorter is not None:
        a = a[sorter]
    dtype = np.dtype(np.int32 if a.shape[0] <= np.iinfo(np.int32).max else np.int64)
    return _searchsorted_jit(a, v, side=side, dtype=dtype)

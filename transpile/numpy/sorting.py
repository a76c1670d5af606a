"""Sorting: ``sort`` and ``argsort`` as the jitted helpers JAX uses.

``argsort`` sorts the keys together with an iota of indices (a two-operand ``sort``
with ``num_keys=1``) and keeps the second output. ``descending`` reverses the
operands before a stable sort and the result after it, so ties keep their order.
"""
from __future__ import annotations

from .. import dtypes, lax
from ..jit import internal_jit as jit
from ._util import aval, canonicalize_axis, check_arraylike
from .shape_ops import ravel

__all__ = ["sort", "argsort"]


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

"""Grids and index objects: ``meshgrid``, ``mgrid``, ``ogrid``, ``indices``, ``ix_``,
``r_``, ``c_``, ``s_``, ``index_exp``, ``ravel_multi_index`` and ``unravel_index``.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import core, dtypes, lax
from . import creation, shape_ops, ufuncs, ufuncs_compound
from ._util import aval, check_arraylike, ensure_array, promote_dtypes

__all__ = ["meshgrid", "mgrid", "ogrid", "indices", "ix_", "r_", "c_", "s_", "index_exp",
           "ravel_multi_index", "unravel_index"]

s_ = np.s_
index_exp = np.index_exp


def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: str = "xy"):
    """Coordinate grids from 1-D coordinate vectors.

    Parameters
    ----------
    *xi : array_like
        1-D arrays.
    copy : bool
        Must be True.
    sparse : bool
        Return broadcastable arrays (size 1 on the other axes) instead of full grids.
    indexing : {'xy', 'ij'}
        ``'xy'`` swaps the first two output axes (Cartesian), ``'ij'`` does not (matrix).

    Returns
    -------
    list of Array
    """
    check_arraylike("meshgrid", *xi)
    args = [ensure_array(x) for x in xi]
    if not copy:
        raise ValueError("jax.numpy.meshgrid only supports copy=True")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing}")
    if any(aval(a).ndim != 1 for a in args):
        raise ValueError("Arguments to jax.numpy.meshgrid must be 1D, got shapes "
                         f"{[aval(a).shape for a in args]}")
    swap = indexing == "xy" and len(args) >= 2
    if swap:
        args[0], args[1] = args[1], args[0]
    full = [1 if sparse else aval(a).shape[0] for a in args]
    out = []
    for i, a in enumerate(args):
        shape = full[:i] + [aval(a).shape[0]] + full[i + 1:] if sparse else full
        out.append(lax.broadcast_in_dim(a, tuple(shape), (i,)))
    if swap:
        out[0], out[1] = out[1], out[0]
    return out


def _grid_1d(s: slice, op_name: str):
    """``arange`` for a ``start:stop:step`` slice, ``linspace`` for an imaginary step."""
    start = core.concrete_or_error(s.start, f"slice start of jnp.{op_name}") or 0
    stop = core.concrete_or_error(s.stop, f"slice stop of jnp.{op_name}")
    step = core.concrete_or_error(s.step, f"slice step of jnp.{op_name}") or 1
    if np.iscomplex(step):
        return creation.linspace(start, stop, int(abs(step)))
    return creation.arange(start, stop, step)


class _Mgrid:
    """``mgrid[a:b:s, ...]``: dense grids of ``arange``/``linspace`` values (an imaginary
    step gives the number of points)."""

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _grid_1d(key, "mgrid")
        grids = promote_dtypes(*(_grid_1d(k, "mgrid") for k in key))
        out = meshgrid(*grids, indexing="ij", sparse=False)
        return shape_ops.stack(out, 0) if out else creation.arange(0)


class _Ogrid:
    """``ogrid[a:b:s, ...]``: like ``mgrid`` but sparse (a list of broadcastable arrays)."""

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _grid_1d(key, "ogrid")
        grids = promote_dtypes(*(_grid_1d(k, "ogrid") for k in key))
        return meshgrid(*grids, indexing="ij", sparse=True)


mgrid = _Mgrid()
ogrid = _Ogrid()


class _AxisConcat:
    """``r_``/``c_``: concatenation of arrays, scalars and slices (as ``arange``), with an
    optional leading directive string ``'axis,ndmin,trans1d'``, ``'r'`` or ``'c'``."""

    def __init__(self, axis: int, ndmin: int, trans1d: int, op_name: str):
        self.axis, self.ndmin, self.trans1d, self.op_name = axis, ndmin, trans1d, op_name

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        params = [self.axis, self.ndmin, self.trans1d, -1]
        directive = items[0]
        if isinstance(directive, str):
            items = items[1:]
            if directive == "r":
                params[-1] = 0
            elif directive == "c":
                params[-1] = 1
            else:
                vec = directive.split(",")
                vec = vec + params[len(vec):] if len(vec) < 4 else vec[:3] + [params[-1]]
                try:
                    params = [int(v) for v in vec]
                except ValueError:
                    raise ValueError(f"could not understand directive {directive!r}") from None
        axis, ndmin, trans1d, matrix = params
        parts = []
        for item in items:
            if isinstance(item, slice):
                obj, item_ndim = _grid_1d(item, self.op_name), 0
            elif isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            else:
                obj = creation.array(item, copy=False)
                item_ndim = aval(obj).ndim
            obj = creation.array(obj, copy=False, ndmin=ndmin)
            if trans1d != -1 and ndmin - item_ndim > 0:
                # The original axes move to position trans1d of the ndmin axes.
                order = tuple(range(ndmin))
                shift = ndmin - abs(ndmin + trans1d + 1) % ndmin
                obj = shape_ops.transpose(obj, order[shift:] + order[:shift])
            parts.append(obj)
        out = shape_ops.concatenate(tuple(parts), axis=axis)
        if matrix != -1 and aval(out).ndim == 1:
            out = shape_ops.expand_dims(out, matrix)
        return out

    def __len__(self) -> int:
        return 0


r_ = _AxisConcat(0, 1, -1, "r_")
c_ = _AxisConcat(-1, 2, 0, "c_")


def indices(dimensions, dtype=None, sparse: bool = False):
    """The index grid of an array of shape ``dimensions``.

    Parameters
    ----------
    dimensions : sequence of int
    dtype : dtype, optional
        The default integer dtype by default.
    sparse : bool
        Return a tuple of broadcastable arrays instead of one stacked array.

    Returns
    -------
    Array of shape ``(len(dimensions),) + dimensions``, or a tuple of Arrays
    """
    dt = dtypes.canonicalize_dtype(int if dtype is None else dtype, warn_name="indices")
    dims = tuple(operator.index(core.concrete_or_error(d, "dimensions argument of jnp.indices"))
                 for d in dimensions)
    nd = len(dims)
    out = []
    for i, d in enumerate(dims):
        shape = (1,) * i + (d,) + (1,) * (nd - i - 1)
        out.append(lax.broadcast_in_dim(lax.iota(dt, d), shape if sparse else dims, (i,)))
    if sparse:
        return tuple(out)
    return shape_ops.stack(out, 0) if out else creation.array([], dtype=dt)


def ix_(*args):
    """Open-mesh index arrays: the ``i``-th argument reshaped to lie along axis ``i``.

    Parameters
    ----------
    *args : array_like
        1-D integer arrays.

    Returns
    -------
    tuple of Array
    """
    check_arraylike("ix", *args)
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = ensure_array(a)
        shp = aval(a).shape
        if len(shp) != 1:
            raise ValueError(f"Arguments to jax.numpy.ix_ must be 1-dimensional, got shape {shp}")
        if aval(a).dtype == np.bool_:
            raise NotImplementedError("Boolean arguments to jax.numpy.ix_ are not implemented")
        shape = [1] * n
        shape[i] = shp[0]
        if shp[0] == 0:
            # An empty argument gives an empty integer index, as in NumPy.
            out.append(lax.full(tuple(shape), np.zeros((), dtypes.default_int_dtype())))
        else:
            out.append(lax.broadcast_in_dim(a, tuple(shape), (i,)))
    return tuple(out)


def ravel_multi_index(multi_index, dims, mode: str = "raise", order: str = "C", *,
                      dtype=None):
    """Flat indices of the coordinate arrays ``multi_index`` in an array of shape ``dims``.

    Parameters
    ----------
    multi_index : sequence of integer arrays
    dims : sequence of int
    mode : {'raise', 'wrap', 'clip', 'ignore'}
        What out-of-range coordinates do (``'raise'`` needs concrete indices).
    order : {'C', 'F'}
    dtype : integer dtype, optional

    Returns
    -------
    Array
    """
    if len(multi_index) != len(dims):
        raise AssertionError(f"len(multi_index)={len(multi_index)} != len(dims)={len(dims)}")
    dims = tuple(operator.index(core.concrete_or_error(
        d, "in `dims` argument of ravel_multi_index().")) for d in dims)
    check_arraylike("ravel_multi_index", *multi_index)
    idx = [ensure_array(i) for i in multi_index]
    if dtype is None:
        dt = dtypes.result_type(0, *idx)  # the Python int is weak, as `int` is in JAX
    else:
        dt = dtypes.canonicalize_dtype(dtype, warn_name="ravel_multi_index")
    if dt.kind not in "iu":
        raise ValueError(f"dtype={dt!r} is not an integer type.")
    if math.prod(dims) - 1 > np.iinfo(dt).max:
        raise ValueError(f"jnp.ravel_multi_index: dtype={dt!r} not large enough to hold "
                         f"flattened index for dims={dims}. Use the dtype argument to pass a "
                         "suitable dtype (e.g. dtype=np.min_scalar_type(prod(dims))).")
    for i in idx:
        if mode == "raise":
            core.concrete_or_error(i, "The error occurred because ravel_multi_index was "
                                   "jit-compiled with mode='raise'. Use mode='wrap' or "
                                   "mode='clip' instead.")
        if aval(i).dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
    if mode == "raise":
        if any(np.any((np.asarray(i) < 0) | (np.asarray(i) >= d))
               for i, d in zip(idx, dims, strict=True)):
            raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        idx = [ufuncs_compound.clip(i, 0, d - 1) for i, d in zip(idx, dims, strict=True)]
    elif mode == "wrap":
        idx = [ufuncs_compound.remainder(i, d) for i, d in zip(idx, dims, strict=True)]
    elif mode != "ignore":
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip', or "
                         "'ignore'.")
    if order == "F":
        strides = np.cumprod((1,) + dims[:-1])
    elif order == "C":
        strides = np.cumprod((1,) + dims[1:][::-1])[::-1]
    else:
        raise ValueError(f"invalid order={order!r}. Expected 'C' or 'F'")
    out = creation.array(0, dtype=dt)
    for i, s in zip(idx, strides, strict=True):
        out = ufuncs.add(out, ufuncs.multiply(i.astype(dt), int(s)))
    return out


def unravel_index(indices, shape):
    """The coordinate arrays of the flat ``indices`` in an array of ``shape``.

    Out-of-range indices are clipped to the array (NumPy raises instead).

    Parameters
    ----------
    indices : array_like of int
    shape : int or sequence of int

    Returns
    -------
    tuple of Array
    """
    check_arraylike("unravel_index", indices)
    rest = ensure_array(indices)
    try:
        shape = list(shape)
    except TypeError:
        shape = [shape]
    if any(np.ndim(s) != 0 for s in shape):
        raise ValueError("unravel_index: shape should be a scalar or 1D sequence.")
    coords = [0] * len(shape)
    for i in reversed(range(len(shape))):
        rest, coords[i] = ufuncs_compound.divmod(rest, shape[i])
    too_big = ufuncs.greater(rest, 0)
    if aval(rest).dtype.kind == "u":
        too_small = creation.asarray(False)
    else:
        too_small = ufuncs.less(rest, -1)
    return tuple(ufuncs_compound.where(too_big, s - 1, ufuncs_compound.where(too_small, 0, c))
                 for s, c in zip(shape, coords, strict=True))


"""Triangles and diagonals: ``tri``, ``tril``/``triu`` and their index helpers, ``diag``,
``diagflat``, ``diagonal``, ``diag_indices``, ``fill_diagonal``, ``trace`` and
``mask_indices``.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, dtypes, lax
from ..jit import internal_jit as jit
from . import creation, reductions, shape_ops, ufuncs_compound
from ._util import aval, canonicalize_axis, check_arraylike, convert, ensure_array

__all__ = ["tri", "tril", "triu", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "diag", "diagflat", "diagonal", "diag_indices",
           "diag_indices_from", "fill_diagonal", "trace", "mask_indices"]


def _user_dtype(dtype, name: str) -> np.dtype:
    return dtypes.canonicalize_dtype(dtype, warn_name=name)


def _tri_mask(n: int, m: int, k: int):
    """``row + k >= col`` over an ``n`` x ``m`` grid (lower triangle through diagonal k)."""
    # JAX's offset is a default-int array, which widens the iotas to int64 under x64.
    int_dt = dtypes.default_int_dtype()
    rows = lax.add(lax.broadcasted_iota(int_dt, (n, m), 0), np.array(k, int_dt)[()])
    return lax.ge(rows, lax.broadcasted_iota(int_dt, (n, m), 1))


def tri(N, M=None, k: int = 0, dtype=None):
    """Ones on and below diagonal ``k`` of an ``N`` x ``M`` array, zeros elsewhere.

    Parameters
    ----------
    N : int
    M : int, optional
        Defaults to ``N``.
    k : int
    dtype : dtype, optional
        float32 by default (as in JAX, whatever the x64 setting).

    Returns
    -------
    Array
    """
    dt = np.dtype(np.float32) if dtype is None else _user_dtype(dtype, "tri")
    n, m = core.canonicalize_shape((N, N if M is None else M))
    return lax.convert_element_type(_tri_mask(n, m, operator.index(k)), dt)


def _tril(m, k, upper: bool):
    shp = aval(m).shape
    mask = _tri_mask(shp[-2], shp[-1], k - 1 if upper else k)
    if len(shp) > 2:
        mask = lax.broadcast(mask, shp[:-2])
    zeros = creation.zeros_like(m)
    return lax.select(mask, zeros, m) if upper else lax.select(mask, m, zeros)


def _named_tril(name: str, upper: bool):
    def body(m, k):
        return _tril(m, k, upper)
    body.__name__ = name
    staged = jit(body, static_argnums=(1,))

    def fn(m, k: int = 0):
        check_arraylike(name, m)
        if aval(m).ndim < 2:
            raise ValueError(f"Argument to jax.numpy.{name} must be at least 2D")
        return staged(m, operator.index(k))
    fn.__name__ = name
    fn.__doc__ = f"""``m`` with the elements {'below' if upper else 'above'} diagonal ``k`` zeroed.

    Parameters
    ----------
    m : array_like
        At least 2-D; the last two axes are the matrices.
    k : int
        Diagonal offset (positive: above the main diagonal).

    Returns
    -------
    Array
    """
    return fn


tril = _named_tril("tril", upper=False)
triu = _named_tril("triu", upper=True)


def _triu_size(n: int, m: int, k: int) -> int:
    """How many entries of an ``n`` x ``m`` matrix lie on or above diagonal ``k``."""
    if k < 0:
        return n * m - _triu_size(m, n, 1 - k)
    if k >= m:
        return 0
    mk = min(n, m - k)
    return mk * (mk + 1) // 2 + mk * (m - k - mk)


def _concrete_dim(x, what: str) -> int:
    return operator.index(core.concrete_or_error(x, what))


def _tri_indices(name: str, upper: bool):
    def fn(n, k=0, m=None):
        n = _concrete_dim(n, "n argument of jnp.triu_indices")
        k = _concrete_dim(k, "k argument of jnp.triu_indices")
        m = n if m is None else _concrete_dim(m, "m argument of jnp.triu_indices")
        ones = creation.ones((n, m))
        if upper:
            i, j = ufuncs_compound.nonzero(triu(ones, k=k), size=_triu_size(n, m, k))
        else:
            i, j = ufuncs_compound.nonzero(tril(ones, k=k), size=_triu_size(m, n, -k))
        return i, j
    fn.__name__ = name
    fn.__doc__ = f"""The row and column indices of the {'upper' if upper else 'lower'} triangle
    (through diagonal ``k``) of an ``n`` x ``m`` matrix, in row-major order.

    Parameters
    ----------
    n : int
    k : int
    m : int, optional
        Defaults to ``n``.

    Returns
    -------
    tuple of two Arrays
    """
    return fn


tril_indices = _tri_indices("tril_indices", upper=False)
triu_indices = _tri_indices("triu_indices", upper=True)


def _tri_indices_from(name: str, indices):
    def fn(arr, k: int = 0):
        if hasattr(arr, "shape"):
            shp = tuple(arr.shape)
        else:
            check_arraylike(name, arr)
            shp = aval(arr).shape
        if len(shp) != 2:
            raise ValueError("Only 2-D inputs are accepted")
        return indices(shp[0], k=k, m=shp[1])
    fn.__name__ = name
    fn.__doc__ = f""":func:`{indices.__name__}` for the shape of the 2-D ``arr``.

    Parameters
    ----------
    arr : array_like or anything with a ``shape``
    k : int

    Returns
    -------
    tuple of two Arrays
    """
    return fn


tril_indices_from = _tri_indices_from("tril_indices_from", tril_indices)
triu_indices_from = _tri_indices_from("triu_indices_from", triu_indices)


# ---------------------------------------------------------------------------------------
# Diagonals

def _diagonal(a, offset, axis1, axis2):
    shp = aval(a).shape
    a = shape_ops.moveaxis(a, (axis1, axis2), (-2, -1))
    size = max(0, min(shp[axis1] + min(offset, 0), shp[axis2] - max(offset, 0)))
    i = creation.arange(size)
    # arange(0, n) would stage an extra add of 0 that JAX's does not.
    j = creation.arange(size) if offset == 0 else creation.arange(abs(offset), abs(offset) + size)
    return a[..., i, j] if offset >= 0 else a[..., j, i]


_diagonal.__name__ = "diagonal"
_diagonal_jit = jit(_diagonal, static_argnums=(1, 2, 3))


def diagonal(a, offset: int = 0, axis1: int = 0, axis2: int = 1):
    """Diagonal ``offset`` of the matrices spanned by ``axis1`` and ``axis2``.

    Parameters
    ----------
    a : array_like
        At least 2-D.
    offset : int
        Positive: above the main diagonal.
    axis1, axis2 : int

    Returns
    -------
    Array
        The other axes first, then the diagonal.
    """
    check_arraylike("diagonal", a)
    nd = aval(a).ndim
    if nd < 2:
        raise ValueError("diagonal requires an array of at least two dimensions.")
    offset = _concrete_dim(offset, "'offset' argument of jnp.diagonal()")
    return _diagonal_jit(a, offset, canonicalize_axis(axis1, nd), canonicalize_axis(axis2, nd))


def _diag(v, k):
    shp = aval(v).shape
    if len(shp) == 1:
        zero = lax.full_like(v, 0, shape=())
        n = shp[0] + abs(k)
        v = lax.pad(v, zero, ((max(0, -k), max(0, k), 0),))
        return ufuncs_compound.where(creation.eye(n, k=k, dtype=bool), v[:, None], zero)
    if len(shp) == 2:
        return diagonal(v, offset=k)
    raise ValueError("diag input must be 1d or 2d")


_diag_jit = jit(_diag, static_argnums=(1,))


def diag(v, k: int = 0):
    """The diagonal matrix of a 1-D ``v`` or the diagonal ``k`` of a 2-D ``v``.

    Parameters
    ----------
    v : array_like
        1-D or 2-D.
    k : int

    Returns
    -------
    Array
    """
    check_arraylike("diag", v)
    return _diag_jit(v, operator.index(k))


def diagflat(v, k: int = 0):
    """The 2-D array with the flattened ``v`` on diagonal ``k``.

    Parameters
    ----------
    v : array_like
    k : int

    Returns
    -------
    Array
    """
    check_arraylike("diagflat", v)
    flat = shape_ops.ravel(v)
    length = aval(flat).shape[0]
    n = length + abs(k)
    out = creation.zeros(n * n, dtype=aval(flat).dtype)
    i = creation.arange(n - abs(k))
    flat_index = i + k + i * n if k >= 0 else i + (i - k) * n
    return out.at[flat_index].set(flat).reshape(n, n)


def diag_indices(n, ndim: int = 2):
    """``ndim`` copies of ``arange(n)``: the indices of the main diagonal of an
    ``ndim``-dimensional cube of side ``n``.

    Parameters
    ----------
    n, ndim : int

    Returns
    -------
    tuple of Array
    """
    n = _concrete_dim(n, "'n' argument of jnp.diag_indices()")
    ndim = _concrete_dim(ndim, "'ndim' argument of jnp.diag_indices()")
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    dt = np.dtype(np.int64) if n > np.iinfo(np.int32).max else dtypes.default_int_dtype()
    return (lax.iota(dt, n),) * ndim


def diag_indices_from(arr):
    """:func:`diag_indices` for the cube ``arr``.

    Parameters
    ----------
    arr : array_like
        At least 2-D, all sides equal.

    Returns
    -------
    tuple of Array
    """
    check_arraylike("diag_indices_from", arr)
    shp = aval(arr).shape
    if len(shp) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shp)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shp[0], ndim=len(shp))


def fill_diagonal(a, val, wrap: bool = False, *, inplace: bool = True):
    """``a`` with its main diagonal set to ``val`` (repeated as needed).

    Parameters
    ----------
    a : array_like
        At least 2-D; beyond 2-D all sides must be equal.
    val : array_like
    wrap : bool
        Must be False.
    inplace : bool
        Must be False: arrays are immutable and a new one is returned.

    Returns
    -------
    Array
    """
    if inplace:
        raise NotImplementedError("JAX arrays are immutable, must use inplace=False")
    if wrap:
        raise NotImplementedError("wrap=True is not implemented, must use wrap=False")
    check_arraylike("fill_diagonal", a, val)
    a, val = ensure_array(a), ensure_array(val)
    shp = aval(a).shape
    if len(shp) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shp) > 2 and not all(d == shp[0] for d in shp[1:]):
        raise ValueError("All dimensions of input must be of equal length")
    n = min(shp)
    idx = diag_indices(n, len(shp))
    if aval(val).ndim:
        flat = shape_ops.ravel(val)
        size = aval(flat).shape[0]
        val = shape_ops.tile(flat, -(-n // size))[:n] if size else flat
    return a.at[idx].set(val)


def _trace(a, offset, axis1, axis2, dtype):
    shp = aval(a).shape
    a = shape_ops.moveaxis(a, (axis1, axis2), (-2, -1))
    grid = (shp[axis1], shp[axis2])
    int_dt = dtypes.default_int_dtype()
    rows = lax.broadcasted_iota(int_dt, grid, 0)
    cols = lax.broadcasted_iota(int_dt, grid, 1)
    if offset is not None:  # an operand (it may be traced), as in JAX
        mask = lax.eq(lax.add(rows, convert(offset, int_dt, False)), cols)
    else:  # the default 0, a constant of the staged function in JAX
        mask = lax.eq(lax.add(rows, np.array(0, int_dt)[()]), cols)
    a = ufuncs_compound.where(mask, a, creation.zeros_like(a))
    return reductions.sum(a, axis=(-2, -1), dtype=dtype)


_trace.__name__ = "trace"
_trace_jit = jit(_trace, static_argnums=(2, 3, 4))


def trace(a, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None, out=None):
    """The sum along diagonal ``offset`` of the matrices spanned by ``axis1``, ``axis2``.

    Parameters
    ----------
    a : array_like
    offset : int
    axis1, axis2 : int
    dtype : dtype, optional
    out : None

    Returns
    -------
    Array
    """
    check_arraylike("trace", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.trace is not supported.")
    nd = aval(a).ndim
    ax1, ax2 = canonicalize_axis(axis1, nd), canonicalize_axis(axis2, nd)
    if ax1 == ax2:
        raise ValueError(f"axis1 and axis2 can not be same. axis1={axis1} and axis2={axis2}")
    dt = None if dtype is None else _user_dtype(dtype, "trace")
    if type(offset) is int and offset == 0:
        # JAX stages its default offset as a constant and a passed one as an operand;
        # a plain 0 is taken for the default.
        return _trace_jit(a, None, ax1, ax2, dt)
    return _trace_jit(a, offset, ax1, ax2, dt)


def mask_indices(n: int, mask_func, k: int = 0, *, size=None):
    """The indices where ``mask_func(ones((n, n)), k)`` is non-zero.

    Parameters
    ----------
    n : int
    mask_func : callable
        Such as :func:`triu` or :func:`tril`.
    k : int
    size : int, optional
        A static result length (needed under ``jit``).

    Returns
    -------
    tuple of two Arrays
    """
    i, j = ufuncs_compound.nonzero(mask_func(creation.ones((n, n)), k), size=size)
    return i, j

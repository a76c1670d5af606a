"""``jnp.linalg`` functions composed from others: norms, pinv, lstsq, matrix_rank,
cond, matrix_power, multi_dot, tensorsolve, tensorinv, and the Array API names
(outer, cross, diagonal, trace, vecdot, matmul, matrix_transpose, tensordot).

Values, dtypes and shapes follow JAX 0.10.2; the equations inside differ in places (JAX
gives ``pinv`` a custom JVP and orders ``multi_dot`` by cost; here derivatives flow
through ``svd``'s and ``lu``'s rules and products run left to right).
"""
from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np

from .. import dtypes
from . import _util, creation, einsum_path, reductions, shape_ops, ufuncs, ufuncs_compound
from .linalg_lu import inv, solve
from .linalg_ops import matmul, tensordot
from .linalg_svd import svd as _svd
from .shape_ops import matrix_transpose

__all__ = ["norm", "vector_norm", "matrix_norm", "pinv", "lstsq", "matrix_rank", "cond",
           "matrix_power", "multi_dot", "tensorsolve", "tensorinv", "outer", "cross",
           "diagonal", "trace", "vecdot", "matmul", "matrix_transpose", "tensordot"]

def _svdvals(x):
    return _svd(x, compute_uv=False)


def _inexact(x):
    x, = _util.promote_dtypes_inexact(_util.ensure_array(x))
    return x


def _eps(x):
    return np.finfo(_util.aval(x).dtype).eps


def vector_norm(x, /, *, axis=None, keepdims: bool = False, ord=2):  # noqa: A002
    """The vector ``ord``-norm of ``x`` over ``axis`` (all axes when None).

    Parameters
    ----------
    x : array_like
    axis : None, int or tuple of int
    keepdims : bool
    ord : int or float
        ``inf``, ``-inf``, ``0`` (count of non-zeros), ``1``, ``2`` or any ``p``.

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.vector_norm", x)
    x = _inexact(x)
    if axis is None:
        out = vector_norm(shape_ops.ravel(x), axis=0, ord=ord)
        return shape_ops.reshape(out, (1,) * _util.aval(x).ndim) if keepdims else out
    if isinstance(ord, str):
        raise ValueError(f"Invalid order '{ord}' for vector norm.")
    mag = ufuncs.abs(x)
    if ord == np.inf:
        return reductions.max(mag, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return reductions.min(mag, axis=axis, keepdims=keepdims)
    real = _util.aval(mag).dtype  # a complex x's norms are real, as its magnitudes
    if ord == 0:
        nz = ufuncs.not_equal(x, 0).astype(real)
        return reductions.sum(nz, axis=axis, keepdims=keepdims)
    if ord == 1:
        return reductions.sum(mag, axis=axis, keepdims=keepdims)
    if ord == 2:
        return ufuncs.sqrt(reductions.sum(_abs2(x), axis=axis,
                                          keepdims=keepdims))
    p = np.array(ord, real)
    total = reductions.sum(ufuncs_compound.power(mag, p), axis=axis, keepdims=keepdims)
    return ufuncs_compound.power(total, ufuncs.reciprocal(p))


def matrix_norm(x, /, *, keepdims: bool = False, ord="fro"):  # noqa: A002
    """The matrix ``ord``-norm of each matrix (last two axes) of ``x``.

    Parameters
    ----------
    x : array_like
        At least 2-D.
    keepdims : bool
    ord : {"fro", "nuc", 1, -1, 2, -2, inf, -inf}

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.matrix_norm", x)
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def _abs2(x):
    """``|x|^2`` as JAX writes it, ``real(x * conj(x))`` (just ``x * x`` for reals)."""
    return ufuncs.real(ufuncs.multiply(x, ufuncs.conj(x)))


def norm(x, ord=None, axis=None, keepdims: bool = False):  # noqa: A002
    """A vector or matrix norm of ``x`` (NumPy's ``norm``).

    Parameters
    ----------
    x : array_like
    ord : None, int, float, "fro" or "nuc"
    axis : None, int or pair of int
        One axis: a vector norm; two: a matrix norm; None: the whole array (a vector
        norm, or the matrix norm of a 2-D array when ``ord`` is given).
    keepdims : bool

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.norm", x)
    x = _inexact(x)
    nd = _util.aval(x).ndim
    if axis is None:
        if ord is None:
            out = ufuncs.sqrt(reductions.sum(_abs2(x)))
            return shape_ops.reshape(out, (1,) * nd) if keepdims else out
        axis = tuple(range(nd))
    elif isinstance(axis, int) or not hasattr(axis, "__len__"):
        axis = (operator.index(axis),)
    axis = tuple(_util.canonicalize_axis(a, nd) for a in axis)
    if len(axis) == 1:
        return vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) != 2:
        raise ValueError("Invalid axis values for norm: must be one or two integers, got "
                         f"axis={axis}")
    r, c = axis
    if ord in (None, "fro", "f"):
        return ufuncs.sqrt(reductions.sum(_abs2(x), axis=axis,
                                          keepdims=keepdims))
    if ord in (1, -1, np.inf, -np.inf):
        along, over = (r, c) if ord in (1, -1) else (c, r)
        sums = reductions.sum(ufuncs.abs(x), axis=along, keepdims=True)
        pick = reductions.max if ord in (1, np.inf) else reductions.min
        out = pick(sums, axis=over, keepdims=True)
        return out if keepdims else shape_ops.squeeze(out, axis=axis)
    if ord in (2, -2, "nuc"):
        y = shape_ops.moveaxis(x, (r, c), (-2, -1))
        s = _svdvals(y)
        out = (reductions.sum(s, axis=-1) if ord == "nuc" else
               reductions.max(s, axis=-1) if ord == 2 else reductions.min(s, axis=-1))
        if keepdims:
            out = shape_ops.expand_dims(out, tuple(sorted(axis)))
        return out
    raise ValueError(f"Invalid order '{ord}' for matrix norm.")


def pinv(a, rtol=None, hermitian: bool = False, *, rcond=None):
    """The Moore-Penrose pseudo-inverse of each matrix of ``a`` (from its SVD).

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    rtol : float, optional
        Singular values below ``rtol * max(s)`` count as zero (default
        ``10 * max(m, n) * eps``).
    hermitian : bool
        Accepted; the general SVD is used.
    rcond : float, optional
        The old name of ``rtol``.

    Returns
    -------
    Array
        Shape ``(..., n, m)``.
    """
    _util.check_arraylike("jnp.linalg.pinv", a)
    a = _inexact(a)
    m, n = _util.aval(a).shape[-2:]
    rtol = rcond if rtol is None else rtol
    if rtol is None:
        rtol = 10 * max(m, n) * _eps(a)
    if m * n == 0:
        return shape_ops.swapaxes(a, -1, -2)
    u, s, vt = _svd(a, full_matrices=False)
    cutoff = ufuncs.multiply(rtol, reductions.max(s, axis=-1, keepdims=True))
    keep = ufuncs.greater(s, cutoff)
    s_inv = ufuncs_compound.where(keep, ufuncs.reciprocal(ufuncs_compound.where(keep, s, 1)),
                                  0).astype(_util.aval(s).dtype)
    return matmul(ufuncs.multiply(_adjoint(vt), shape_ops.expand_dims(s_inv, -2)),
                  _adjoint(u))


def _adjoint(x):
    """The conjugate transpose of each matrix (``conj`` adds nothing for reals)."""
    return ufuncs.conj(matrix_transpose(x))


def matrix_rank(M, rtol=None, *, tol=None):  # noqa: N803
    """The number of singular values of each matrix above ``rtol * max(s)``.

    Parameters
    ----------
    M : array_like
    rtol : float, optional
        Default ``max(m, n) * eps``.
    tol : float, optional
        An absolute threshold instead.

    Returns
    -------
    Array
        ``int32`` (the default integer).
    """
    _util.check_arraylike("jnp.linalg.matrix_rank", M)
    M = _inexact(M)  # noqa: N806
    it = dtypes.default_int_dtype()
    if _util.aval(M).ndim < 2:
        return reductions.any(ufuncs.not_equal(M, 0)).astype(it)
    s = _svdvals(M)
    if tol is None:
        m, n = _util.aval(M).shape[-2:]
        rtol = max(m, n) * _eps(M) if rtol is None else rtol
        tol = ufuncs.multiply(reductions.max(s, axis=-1, keepdims=True), rtol)
    return reductions.sum(ufuncs.greater(s, tol), axis=-1).astype(it)


def cond(x, p=None):
    """The condition number of each matrix of ``x`` in norm ``p``.

    Parameters
    ----------
    x : array_like
    p : None, 2, -2, 1, -1, inf, -inf, "fro" or "nuc"

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.cond", x)
    x = _inexact(x)
    if p in (None, 2, -2):
        s = _svdvals(x)
        hi, lo = s[..., 0], s[..., -1]
        return ufuncs.divide(hi, lo) if p != -2 else ufuncs.divide(lo, hi)
    r = ufuncs.multiply(norm(x, p, axis=(-2, -1)), norm(inv(x), p, axis=(-2, -1)))
    bad = reductions.any(ufuncs.isnan(x), axis=(-2, -1))
    return ufuncs_compound.where(ufuncs.isnan(r) & ~bad, np.inf, r).astype(
        _util.aval(r).dtype)


class LstsqResult(NamedTuple):
    x: object
    resid: object
    rank: object
    s: object


def lstsq(a, b, rcond=None, *, numpy_resid: bool = False):
    """The least-squares solution of ``a @ x == b`` (from the SVD of ``a``).

    Parameters
    ----------
    a : array_like
        Shape ``(m, n)``.
    b : array_like
        Shape ``(m,)`` or ``(m, k)``.
    rcond : float, optional
        Singular values below ``rcond * max(s)`` count as zero (default
        ``max(m, n) * eps``).
    numpy_resid : bool
        Residuals only for a full-rank, over-determined ``a`` (NumPy's rule).

    Returns
    -------
    (Array, Array, Array, Array)
        ``x``, squared residual norms, the rank (``int32``) and the singular values.
    """
    _util.check_arraylike("jnp.linalg.lstsq", a, b)
    a, b = _util.promote_dtypes_inexact(_util.ensure_array(a), _util.ensure_array(b))
    if _util.aval(a).ndim != 2:
        raise TypeError(f"{_util.aval(a).ndim}-dimensional array given. Array must be "
                        "two-dimensional")
    vector = _util.aval(b).ndim == 1
    if vector:
        b = shape_ops.expand_dims(b, -1)
    m, n = _util.aval(a).shape
    if rcond is None:
        rcond = _eps(a) * max(m, n)
    u, s, vt = _svd(a, full_matrices=False)
    keep = ufuncs.greater_equal(s, ufuncs.multiply(rcond, s[0])) if min(m, n) else s > 0
    safe = ufuncs_compound.where(keep, s, 1)
    s_inv = ufuncs_compound.where(keep, ufuncs.reciprocal(safe), 0).astype(
        _util.aval(s).dtype)
    x = matmul(_adjoint(vt),
               ufuncs.multiply(shape_ops.expand_dims(s_inv, -1), matmul(_adjoint(u), b)))
    rank = reductions.sum(keep).astype(dtypes.default_int_dtype())
    resid = vector_norm(ufuncs.subtract(b, matmul(a, x)), axis=0) ** 2
    if numpy_resid and not (m > n):
        resid = creation.zeros((0,), _util.aval(resid).dtype)
    if vector:
        x = shape_ops.squeeze(x, axis=-1)
    return LstsqResult(x, resid, rank, s)


def matrix_power(a, n: int):
    """``a`` raised to the integer power ``n`` (by repeated squaring; ``inv`` first
    for negative ``n``).

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, m)``.
    n : int

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.matrix_power", a)
    a = _util.ensure_array(a)
    shape = _util.aval(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise TypeError(f"{len(shape)}-dimensional array given. Array must be at least "
                        "two-dimensional")
    n = operator.index(n)
    if n == 0:
        eye = creation.eye(shape[-1], dtype=_util.aval(a).dtype)
        return shape_ops.broadcast_to(eye, shape)
    if n < 0:
        a, n = inv(a), -n
    result, power = None, a
    while n:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result


def multi_dot(arrays, *, precision=None):
    """``arrays[0] @ arrays[1] @ ...`` (a first or last 1-D array is a vector).

    Parameters
    ----------
    arrays : sequence of array_like
        At least two.
    precision : None

    Returns
    -------
    Array
    """
    arrays = list(arrays)
    if len(arrays) < 2:
        raise ValueError(f"multi_dot requires at least two arrays; got len(arrays)="
                         f"{len(arrays)}")
    out = arrays[0]
    for x in arrays[1:]:
        out = matmul(out, x, precision=precision)
    return out


def tensorsolve(a, b, axes=None):
    """Solve ``tensordot(a, x, x.ndim) == b`` for ``x``.

    Parameters
    ----------
    a : array_like
    b : array_like
    axes : tuple of int, optional
        Axes of ``a`` moved to the end first.

    Returns
    -------
    Array
        Shape ``a.shape[b.ndim:]``.
    """
    _util.check_arraylike("jnp.linalg.tensorsolve", a, b)
    a, b = _util.promote_dtypes_inexact(_util.ensure_array(a), _util.ensure_array(b))
    if axes is not None:
        a = shape_ops.moveaxis(a, axes, tuple(range(-len(axes), 0)))
    b_shape = _util.aval(b).shape
    out_shape = _util.aval(a).shape[len(b_shape):]
    rows = int(np.prod(b_shape, dtype=np.int64))
    a2 = shape_ops.reshape(a, (rows, -1))
    return shape_ops.reshape(solve(a2, shape_ops.ravel(b)), out_shape)


def tensorinv(a, ind: int = 2):
    """The inverse of ``a`` as an operator of ``tensordot(a, ., ind)``.

    Parameters
    ----------
    a : array_like
    ind : int
        How many leading axes are the operator's output.

    Returns
    -------
    Array
        Shape ``a.shape[ind:] + a.shape[:ind]``.
    """
    _util.check_arraylike("jnp.linalg.tensorinv", a)
    a = _util.ensure_array(a)
    shape = _util.aval(a).shape
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError(f"ind must be a positive integer; got ind={ind}")
    rows = int(np.prod(shape[:ind], dtype=np.int64))
    if rows != int(np.prod(shape[ind:], dtype=np.int64)):
        raise ValueError("tensorinv is only possible when the product of the first "
                         "`ind` dimensions equals that of the remaining dimensions. got "
                         f"arr.shape={shape} with ind={ind}.")
    out = inv(shape_ops.reshape(a, (rows, -1)))
    return shape_ops.reshape(out, shape[ind:] + shape[:ind])


def outer(x1, x2, /):
    """The outer product of two vectors.

    Parameters
    ----------
    x1, x2 : array_like
        One-dimensional.

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.outer", x1, x2)
    d1, d2 = _util.aval(x1).ndim, _util.aval(x2).ndim
    if d1 != 1 or d2 != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={d1} x2.ndim={d2}")
    return ufuncs.multiply(shape_ops.expand_dims(x1, 1), shape_ops.expand_dims(x2, 0))


def cross(x1, x2, /, *, axis: int = -1):
    """The cross product of 3-vectors along ``axis``.

    Parameters
    ----------
    x1, x2 : array_like
        Size 3 along ``axis``; other axes broadcast.
    axis : int

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.cross", x1, x2)
    x1, x2 = _util.promote_dtypes(_util.ensure_array(x1), _util.ensure_array(x2))
    if _util.aval(x1).shape[axis] != 3 or _util.aval(x2).shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they have x1.shape={_util.aval(x1).shape} and "
                         f"x2.shape={_util.aval(x2).shape}")
    a = shape_ops.moveaxis(x1, axis, -1)
    b = shape_ops.moveaxis(x2, axis, -1)
    parts = [ufuncs.subtract(ufuncs.multiply(a[..., i], b[..., j]),
                             ufuncs.multiply(a[..., j], b[..., i]))
             for i, j in ((1, 2), (2, 0), (0, 1))]
    return shape_ops.moveaxis(shape_ops.stack(parts, axis=-1), -1, axis)


def diagonal(x, /, *, offset: int = 0):
    """Diagonal ``offset`` of each matrix (last two axes) of ``x``.

    Parameters
    ----------
    x : array_like
        At least 2-D.
    offset : int
        Above the main diagonal when positive, below when negative.

    Returns
    -------
    Array
        Shape ``x.shape[:-2] + (d,)``.
    """
    _util.check_arraylike("jnp.linalg.diagonal", x)
    x = _util.ensure_array(x)
    rows, cols = _util.aval(x).shape[-2:]
    offset = operator.index(offset)
    y = x[..., :, offset:] if offset >= 0 else x[..., -offset:, :]
    r, c = _util.aval(y).shape[-2:]
    idx = np.arange(min(r, c))
    return y[..., idx, idx]


def trace(x, /, *, offset: int = 0, dtype=None):
    """The sum of diagonal ``offset`` of each matrix of ``x``.

    Parameters
    ----------
    x : array_like
    offset : int
    dtype : dtype, optional

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.trace", x)
    return reductions.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis: int = -1, precision=None, preferred_element_type=None):
    """The dot product of vectors along ``axis`` (other axes broadcast).

    Parameters
    ----------
    x1, x2 : array_like
    axis : int
    precision, preferred_element_type : optional

    Returns
    -------
    Array
    """
    _util.check_arraylike("jnp.linalg.vecdot", x1, x2)
    return einsum_path.vecdot(x1, x2, axis=axis, precision=precision,
                              preferred_element_type=preferred_element_type)

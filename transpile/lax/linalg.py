"""``transpile.lax.linalg``: linear-algebra primitives (JAX's ``jax.lax.linalg``).

``cholesky`` is the lower Cholesky factor of each matrix in the last two axes (leading
axes are batch axes). As on JAX 0.10.2's CPU backend (LAPACK ``potrf``), the primitive
reads only the lower triangle, leaves the upper triangle of its operand in place, and
fills the whole matrix with NaN when a pivot is not positive (``d <= 0``: the matrix is
not positive definite); a NaN pivot is not a failure, it just propagates. The
``cholesky`` function symmetrizes its input first (``(x + x^H) / 2``) unless told not
to, and zeroes the upper triangle afterwards, with the same equations as JAX.

The NumPy rule is the Cholesky–Crout recurrence the C kernel runs
(``runtime/tp_linalg.h``), one operation at a time in the operand's dtype, so that eager
and compiled results agree bit for bit.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from . import elementwise as ew
from . import slicing, structural

__all__ = ["cholesky", "cholesky_p"]


# ---------------------------------------------------------------------------------------
# cholesky

cholesky_p = core.new_primitive("cholesky")

_ACCEPTED = "floating, complexfloating"


@cholesky_p.def_abstract_eval
def _cholesky_abstract(x):
    if x.dtype.kind not in "fc":
        raise TypeError(f"cholesky does not accept dtype {x.dtype.name} at position 0. "
                        f"Accepted dtypes at position 0 are subtypes of {_ACCEPTED}.")
    if x.ndim < 2:
        raise TypeError(f"Input 0 to cholesky must have rank at least 2, but got "
                        f"shape={x.shape}")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to cholesky must be a square matrix. Got shape "
                         f"{x.shape}.")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _check_supported(dtype) -> None:
    dt = np.dtype(dtype)
    if dt.kind == "c":
        raise NotImplementedError("transpile does not support cholesky of complex "
                                  f"matrices ({dt.name})")
    if dt not in (np.float32, np.float64):
        # What JAX 0.10.2 raises on CPU when it runs a float16 cholesky.
        raise NotImplementedError((KeyError(dt.type), f"Unsupported dtype {dt.name}."))


@cholesky_p.def_impl
def _cholesky_impl(x):
    x = np.asarray(x)
    _check_supported(x.dtype)
    n = x.shape[-1]
    lo = x.reshape((int(np.prod(x.shape[:-2])), n, n)).copy()
    ok = np.ones(lo.shape[0], bool)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(n):
            # Left-looking: column j from the finished columns 0..j-1, one product and
            # one subtraction at a time (the C loop's order and rounding).
            d = lo[:, j, j].copy()
            for k in range(j):
                d = d - lo[:, j, k] * lo[:, j, k]
            ok &= ~(d <= 0)
            d = np.sqrt(d)
            lo[:, j, j] = d
            s = lo[:, j + 1:, j].copy()
            for k in range(j):
                s = s - lo[:, j + 1:, k] * lo[:, j, k][:, None]
            lo[:, j + 1:, j] = s / d[:, None]
    lo[~ok] = np.nan
    return lo.reshape(x.shape)


def _tril_mask(n: int, m: int):
    """``iota(0) + 0 >= iota(1)``: JAX's lower-triangle mask equations."""
    it = dtypes.default_int_dtype()
    rows = slicing.broadcasted_iota(it, (n, m), 0)
    rows = ew.add(rows, np.zeros((), it))
    cols = slicing.broadcasted_iota(it, (n, m), 1)
    return ew.ge(rows, cols)


def tril(m):
    """Zero the strict upper triangle of each matrix of ``m`` (JAX's equations)."""
    aval = core.get_aval(m)
    *batch, n, k = aval.shape
    mask = _tril_mask(n, k)
    if batch:
        mask = structural.broadcast(mask, tuple(batch))
    # Zeros like ``m``, weak type included (a weak literal is a Python float).
    weak = aval.weak_type and aval.dtype == dtypes.default_float_dtype()
    zero = structural.broadcast_in_dim(0.0 if weak else np.zeros((), aval.dtype),
                                       aval.shape, ())
    return ew.select(mask, m, zero)


def _swap_last(x):
    nd = len(core.get_aval(x).shape)
    perm = tuple(range(nd - 2)) + (nd - 1, nd - 2)
    return structural.transpose(x, perm)


def symmetrize(x):
    """``(x + x^H) / 2`` with NumPy-style promotion (as ``Array`` operators do)."""
    from ..numpy import ufuncs
    from ..numpy._util import ensure_array
    x = ensure_array(x)
    return ufuncs.true_divide(ufuncs.add(x, _swap_last(x)), 2)


def cholesky(x, *, symmetrize_input: bool = True):
    """The lower Cholesky factor of each (Hermitian positive-definite) matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``: leading axes are batch axes.
    symmetrize_input : bool
        Use ``(x + x^H) / 2`` instead of ``x`` (JAX's default); otherwise only the
        lower triangle of ``x`` is read.

    Returns
    -------
    Array
        ``L`` with ``L @ L^H == x`` and zeros above the diagonal; a matrix that is not
        positive definite gives NaN in and below its diagonal.
    """
    dt = getattr(x, "dtype", None)
    if dt is not None and np.dtype(dt).kind == "c":
        _check_supported(dt)
    if symmetrize_input:
        x = symmetrize(x)
    return tril(cholesky_p.bind(x))

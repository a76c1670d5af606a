"""The special matrices and the polar decomposition of ``transpile.scipy.linalg``
(``block_diag``, ``toeplitz``, ``hilbert``, ``polar``) and ``eigh_tridiagonal``."""
from __future__ import annotations

import numpy as np

from .. import dtypes, lax
from .. import numpy as jnp
from ..lax import linalg as lax_linalg
from ..numpy import _util
from .linalg_base import adjoint, inexact, named_jit, ndim

__all__ = ["block_diag", "eigh_tridiagonal", "hilbert", "polar", "toeplitz"]


def eigh_tridiagonal(d, e, *, eigvals_only: bool = False, select: str = "a",
                     select_range=None, tol=None, key=None):
    """Eigenvalues (and eigenvectors) of the symmetric tridiagonal matrix with diagonal
    ``d`` and off-diagonal ``e``.

    Parameters
    ----------
    d : array_like
        Shape ``(n,)``.
    e : array_like
        Shape ``(n - 1,)``, of ``d``'s dtype.
    eigvals_only : bool
    select : {"a", "i"}
        All eigenvalues, or those of indices ``select_range[0]..select_range[1]``.
    select_range : tuple of int, optional
    tol, key
        Accepted for JAX's signature (the dense solver needs neither).

    Returns
    -------
    Array or tuple
        Eigenvalues ascending; with eigenvectors in the columns of the second array.
    """
    del tol, key
    alpha, beta = _util.ensure_array(d), _util.ensure_array(e)
    a_dt, b_dt = _util.aval(alpha).dtype, _util.aval(beta).dtype
    if a_dt != b_dt:
        raise TypeError("diagonal and off-diagonal values must have same dtype, got "
                        f"{a_dt} and {b_dt}")
    if a_dt not in (np.float32, np.float64):
        raise TypeError("Only float32 and float64 inputs are supported as inputs to "
                        f"jax.scipy.linalg.eigh_tridiagonal, got {a_dt} and {b_dt}")
    n = _util.aval(alpha).shape[0]
    if n <= 1:
        return alpha if eigvals_only else (alpha, jnp.eye(n, dtype=a_dt))
    if select == "a":
        lo, hi = 0, n - 1
    elif select == "i":
        if select_range is None:
            raise ValueError("for select='i', select_range must be specified.")
        if select_range[0] > select_range[1]:
            raise ValueError("Got empty index range in select_range.")
        lo, hi = int(select_range[0]), int(select_range[1])
    elif select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    else:
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    i = lax.broadcasted_iota(np.int32, (n, n), 0)
    j = lax.broadcasted_iota(np.int32, (n, n), 1)
    zero = lax.full((n, n), 0, a_dt)
    e_pad = lax.pad(beta, a_dt.type(0), ((0, 1, 0),))
    dense = lax.select(lax.eq(i, j), lax.broadcast_in_dim(alpha, (n, n), (1,)), zero)
    dense = lax.select(lax.eq(j, i + 1), lax.broadcast_in_dim(e_pad, (n, n), (0,)), dense)
    dense = lax.select(lax.eq(i, j + 1), lax.broadcast_in_dim(e_pad, (n, n), (1,)), dense)
    v, w = lax_linalg.eigh(dense, lower=True)
    w = w[lo:hi + 1]
    return w if eigvals_only else (w, v[:, lo:hi + 1])


def _block_diag_impl(*arrs):
    if len(arrs) == 0:
        arrs = (jnp.zeros((1, 0)),)
    arrs = tuple(_util.promote_dtypes(*[_util.ensure_array(a) for a in arrs]))
    bad = [i for i, a in enumerate(arrs) if ndim(a) > 2]
    if bad:
        raise ValueError("Arguments to jax.scipy.linalg.block_diag must have at most 2 "
                         f"dimensions, got {arrs[bad[0]]} at argument {bad[0]}.")
    mats = [jnp.atleast_2d(a) for a in arrs]
    dtype = _util.aval(mats[0]).dtype
    total = sum(_util.aval(m).shape[1] for m in mats)
    padded, col = [], 0
    for m in mats:
        cols = _util.aval(m).shape[1]
        padded.append(lax.pad(m, dtype.type(0), ((0, 0, 0), (col, total - cols - col, 0))))
        col += cols
    return jnp.concatenate(padded, axis=0)


block_diag = named_jit(_block_diag_impl, "block_diag")
block_diag.__doc__ = """The block-diagonal matrix of ``arrs`` (each at most 2-D; scalars
and vectors are 1-row matrices), dtypes promoted.

Returns
-------
Array
"""


def toeplitz(c, r=None):
    """The Toeplitz matrix with first column ``c`` and first row ``r``.

    Parameters
    ----------
    c : array_like
        The first column (its leading axes are batch axes).
    r : array_like, optional
        The first row (its first element is ignored); ``c`` when omitted.

    Returns
    -------
    Array
        Shape ``(..., len(c), len(r))``.
    """
    if r is None:
        _util.check_arraylike("toeplitz", c)
        r = c
    else:
        _util.check_arraylike("toeplitz", c, r)
    c, r = jnp.atleast_1d(_util.ensure_array(c)), jnp.atleast_1d(_util.ensure_array(r))
    c, r = _util.promote_dtypes(c, r)
    nc, nr = _util.aval(c).shape[-1], _util.aval(r).shape[-1]
    batch = _util.broadcast_shapes(_util.aval(c).shape[:-1], _util.aval(r).shape[:-1])
    c = jnp.broadcast_to(c, tuple(batch) + (nc,))
    r = jnp.broadcast_to(r, tuple(batch) + (nr,))
    if nc == 0 or nr == 0:
        return jnp.zeros(tuple(batch) + (nc, nr), _util.aval(c).dtype)
    # entry (i, j) is elems[nc - 1 - i + j] of the first column reversed, then the row
    elems = jnp.concatenate((c[..., ::-1], r[..., 1:]), axis=-1)
    idx = nc - 1 - np.arange(nc)[:, None] + np.arange(nr)[None, :]
    return elems[..., idx]


def _hilbert_impl(n):
    a = lax.broadcasted_iota(dtypes.default_float_dtype(), (n, 1), 0)
    return 1 / (a + lax_linalg._swap_last(a) + 1)


hilbert = named_jit(_hilbert_impl, "hilbert", static_argnames=("n",))
hilbert.__doc__ = """The ``n x n`` Hilbert matrix ``1 / (i + j + 1)`` (default float).

Returns
-------
Array
"""


def _polar_impl(a, side):
    u, s, vh = lax_linalg.svd(a, full_matrices=False)
    unitary = jnp.matmul(u, vh)
    if side == "right":
        return unitary, jnp.matmul(adjoint(vh) * s[..., None, :], vh)
    return unitary, jnp.matmul(u * s[..., None, :], adjoint(u))


_polar = named_jit(_polar_impl, "polar", static_argnames=("side",))


def polar(a, side: str = "right", *, method: str = "qdwh", eps=None, max_iterations=None):
    """Polar decomposition ``a == u @ p`` (``side="right"``) or ``a == p @ u``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    side : {"right", "left"}
    method : {"qdwh", "svd"}
        Both computed from the SVD by transpile (the same factors to rounding).
    eps, max_iterations
        Ignored (QDWH's).

    Returns
    -------
    tuple
        ``u`` (orthonormal columns, ``a``'s shape) and ``p`` (symmetric positive
        semi-definite, ``(n, n)`` or ``(m, m)``).
    """
    del eps, max_iterations
    arr = _util.ensure_array(a)
    if ndim(arr) < 2:
        raise ValueError("The input `a` must be at least a 2-D array.")
    if side not in ("right", "left"):
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    if method not in ("qdwh", "svd"):
        raise ValueError(f"Unknown polar decomposition method {method}.")
    arr, = inexact(arr)
    return _polar(arr, side=side)

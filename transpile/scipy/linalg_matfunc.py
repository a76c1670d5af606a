"""Matrix functions through the Schur form: ``jax.scipy.linalg.sqrtm``, ``funm`` and
``rsf2csf``.

As in JAX 0.10.2, all of them work on the complex Schur form ``A = Z T Z^H`` (``T`` upper
triangular), so their results are complex (``complex64`` for ``float32`` and integer
input, ``complex128`` for ``float64``):

* ``sqrtm``: Björck and Hammarling's recurrence on ``T``: ``U = diag(sqrt(t_ii))``, then
  column by column, bottom to top, ``u_ij = (t_ij - s) / (u_ii + u_jj)`` with
  ``s = sum_{i<k<j} u_ik u_kj`` (zero where ``t_ij == s``: a singular ``T`` would
  otherwise give ``0 / 0``), and ``Z U Z^H``;
* ``funm``: Parlett's recurrence (Golub and Van Loan's algorithm 11.1.1) from
  ``F = diag(func(diag(T)))`` up the superdiagonals, then ``Z F Z^H``;
* ``rsf2csf``: a real Schur form made triangular by one complex rotation per 2 x 2 block
  (bottom to top), the block's first eigenvalue moved to its top.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import dtypes, lax
from .. import numpy as jnp
from ..numpy import linalg as jnp_linalg
from .linalg_base import named_jit
from .linalg_schur import schur

__all__ = ["sqrtm", "funm", "rsf2csf"]


def _sqrtm_upper(t):
    """The upper-triangular square root of the upper-triangular ``t``."""
    d = jnp.sqrt(jnp.diagonal(t))
    n = d.shape[0]

    def row(r, state):
        j, u = state
        i = j - 1 - r
        # only k strictly between i and j contribute
        k = jnp.arange(n)
        inside = (k > i) & (k < j)
        s = jnp.sum(jnp.where(inside, u[i, :] * u[:, j], 0))
        value = jnp.where(t[i, j] == s, 0, (t[i, j] - s) / (d[i] + d[j]))
        return j, u.at[i, j].set(value.astype(u.dtype))

    def column(j, u):
        return lax.fori_loop(0, j, row, (j, u))[1]

    return lax.fori_loop(0, n, column, jnp.diag(d))


def _sqrtm_impl(a):
    t, z = schur(a, output="complex")
    u = _sqrtm_upper(t)
    hi = lax.Precision.HIGHEST
    return jnp.matmul(jnp.matmul(z, u, precision=hi), jnp.conj(z.T), precision=hi)


_sqrtm = named_jit(_sqrtm_impl, "_sqrtm")


def sqrtm(A, blocksize: int = 1):
    """Square root of the square matrix ``A`` (complex Schur method).

    Parameters
    ----------
    A : array_like
        Shape ``(n, n)``.
    blocksize : int
        Only 1 (unblocked) is implemented, as in JAX.

    Returns
    -------
    Array
        Complex ``(n, n)`` ``X`` with ``X @ X == A`` (the principal root where one
        exists).
    """
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    return _sqrtm(A)


def _rotate_block(m: int, t, z):
    """Make ``t[m, m - 1]`` zero by a complex rotation of rows/columns ``m - 1, m``."""
    n = t.shape[0]
    block = lax.dynamic_slice(t, (m - 1, m - 1), (2, 2))
    mu = jnp_linalg.eigvals(block) - t[m, m]
    r = jnp_linalg.norm(jnp.stack([mu[0], t[m, m - 1]])).astype(t.dtype)
    c, s = mu[0] / r, t[m, m - 1] / r
    g = jnp.stack([jnp.stack([jnp.conj(c), s]), jnp.stack([-s, c])]).astype(t.dtype)
    gh = jnp.conj(g.T)
    rows = lax.dynamic_slice_in_dim(t, m - 1, 2, axis=0)
    right = jnp.arange(n) >= m - 1
    t = lax.dynamic_update_slice_in_dim(
        t, jnp.where(right, g @ jnp.where(right, rows, 0), rows), m - 1, axis=0)
    cols = lax.dynamic_slice_in_dim(t, m - 1, 2, axis=1)
    above = jnp.arange(n)[:, None] < m + 1
    t = lax.dynamic_update_slice_in_dim(
        t, jnp.where(above, jnp.where(above, cols, 0) @ gh, cols), m - 1, axis=1)
    zc = lax.dynamic_slice_in_dim(z, m - 1, 2, axis=1)
    return t, lax.dynamic_update_slice_in_dim(z, zc @ gh, m - 1, axis=1)


def _complex(dtype) -> np.dtype:
    dt = np.dtype(dtype)
    return dt if dt.kind == "c" else np.dtype(dtypes.COMPLEX_OF.get(dt, np.complex64))


def _rsf2csf_one(t, z):
    dt = np.result_type(_complex(t.dtype), _complex(z.dtype))
    t, z = t.astype(dt), z.astype(dt)
    n = t.shape[0]
    if n == 1:
        return t, z
    eps = float(np.finfo(dt).eps)

    def step(i, tz):
        t, z = tz
        m = n - i
        big = jnp.abs(t[m, m - 1]) > eps * (jnp.abs(t[m - 1, m - 1]) + jnp.abs(t[m, m]))
        t, z = lax.cond(big, lambda m, t, z: _rotate_block(m, t, z),
                        lambda m, t, z: (t, z), m, t, z)
        return t.at[m, m - 1].set(0), z

    return lax.fori_loop(1, n, step, (t, z))


def rsf2csf(T, Z, check_finite: bool = True):
    """Convert a real Schur form ``(T, Z)`` to the complex one (``T`` triangular).

    Parameters
    ----------
    T, Z : array_like
        Shape ``(..., n, n)``: a real Schur form and its Schur vectors.
    check_finite : bool
        Ignored.

    Returns
    -------
    (Array, Array)
        Complex ``T`` (upper triangular) and ``Z`` with ``Z T Z^H`` unchanged.
    """
    del check_finite
    t, z = jnp.asarray(T), jnp.asarray(Z)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise ValueError("Input 'T' must be square.")
    if z.ndim < 2 or z.shape[-1] != z.shape[-2]:
        raise ValueError("Input 'Z' must be square.")
    if t.shape[-1] != z.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {z.shape} vs. T: {t.shape}")
    return jnp.vectorize(_rsf2csf_one, signature="(n,n),(n,n)->(n,n),(n,n)")(t, z)


def _parlett(f, t):
    """Golub and Van Loan's algorithm 11.1.1: ``F`` from its diagonal and ``T``, and the
    smallest eigenvalue gap met (``minden``)."""
    n = t.shape[0]
    k = jnp.arange(n)

    def entry(i, state):
        p, f, minden = state
        j = i + p  # 1-based position (i, j) on superdiagonal p
        s = t[i - 1, j - 1] * (f[j - 1, j - 1] - f[i - 1, i - 1])
        inside = (k >= i) & (k < j - 1)
        s = s + (jnp.where(inside, t[i - 1], 0) @ jnp.where(inside, f[:, j - 1], 0)
                 - jnp.where(inside, f[i - 1], 0) @ jnp.where(inside, t[:, j - 1], 0))
        den = t[j - 1, j - 1] - t[i - 1, i - 1]
        s = jnp.where(den != 0, s / den, s)
        return p, f.at[i - 1, j - 1].set(s), jnp.minimum(minden, jnp.abs(den))

    def diagonal(p, state):
        _, f, minden = lax.fori_loop(1, n - p + 1, entry, (p, *state))
        return f, minden

    return lax.fori_loop(1, n, diagonal, (f, jnp.abs(t[0, 0])))


def funm(A, func: Callable, disp: bool = True):
    """Apply the scalar function ``func`` to the square matrix ``A`` (Schur-Parlett).

    Parameters
    ----------
    A : array_like
        Shape ``(n, n)``.
    func : callable
        Maps an array of eigenvalues to an array of the same shape.
    disp : bool
        Return only the result (default); otherwise also an error estimate.

    Returns
    -------
    Array or (Array, Array)
        Complex ``func(A)``, and with ``disp=False`` the estimated relative error.
    """
    a = jnp.asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected square array_like input")
    t, z = rsf2csf(*schur(a))
    f = jnp.diag(func(jnp.diagonal(t))).astype(t.dtype)
    f, minden = _parlett(f, t)
    f = z @ f @ jnp.conj(z.T)
    if disp:
        return f
    # JAX's choice: float64's eps unless the result is complex64
    tol = float(np.finfo(np.float32 if f.dtype == np.complex64 else np.float64).eps)
    minden = jnp.where(minden == 0.0, tol, minden)
    err = jnp.where(jnp.any(jnp.isinf(f)), np.inf, jnp.minimum(1, jnp.maximum(
        tol, (tol / minden) * jnp_linalg.norm(jnp.triu(t, 1), 1))))
    return f, err

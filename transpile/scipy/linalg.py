"""``transpile.scipy.linalg``: JAX 0.10.2's ``jax.scipy.linalg`` for real and complex
matrices.

Each function is written on ``lax.linalg`` and ``jnp.linalg`` as JAX writes it: a
``jit`` under JAX's name (``_cholesky``, ``_cho_solve``, ``lu_factor``, ``_solve``, ...)
with the same static arguments, integer and boolean operands promoted to the default
float dtype, SciPy's ``overwrite_*``/``check_finite`` arguments accepted and ignored.
``solve(..., assume_a="pos")`` factors with Cholesky outside differentiation and solves
in a symmetric ``custom_linear_solve``; the other ``assume_a`` are ``jnp.linalg.solve``.
``expm`` and ``expm_frechet`` are in ``linalg_expm.py``; ``block_diag``, ``toeplitz``,
``hilbert``, ``polar`` and ``eigh_tridiagonal`` in ``linalg_matrices.py``; ``hessenberg``
and ``schur`` in ``linalg_schur.py``.

Batch axes are mapped with ``vmap`` as ``jnp.vectorize`` maps them. Where transpile
differs: ``lu_solve`` turns pivots into a permutation with a ``fori_loop`` (JAX has a
primitive for it); ``eigh_tridiagonal`` solves the dense tridiagonal matrix with ``eigh`` (JAX bisects
with Sturm sequences and finds vectors by inverse iteration: eigenvalues agree to
rounding, eigenvector signs may differ); ``polar`` always uses the SVD (JAX's default
is QDWH iterations: the same factors to rounding).
"""
from __future__ import annotations

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..lax import linalg as lax_linalg
from ..lax.linear_solve import linear_solve_with
from ..numpy import _util
from ..numpy.linalg_lu import _matvec, _vecmat, lu_solve_jit, vectorized
from ..vmapping import vmap
from .linalg_base import (adjoint, broadcast_batch, check_core, inexact, named_jit, ndim,
                          triangular, vector_core)
from .linalg_expm import expm, expm_frechet
from .linalg_matrices import block_diag, eigh_tridiagonal, hilbert, polar, toeplitz
from .linalg_schur import hessenberg, schur
from .linalg_matfunc import funm, rsf2csf, sqrtm  # noqa: F401

__all__ = ["block_diag", "cho_factor", "cho_solve", "cholesky", "det", "eigh",
           "eigh_tridiagonal", "expm", "expm_frechet", "hilbert", "inv", "lu", "lu_factor",
           "lu_solve", "polar", "qr", "solve", "solve_triangular", "svd", "toeplitz",
           "hessenberg", "schur"] + ["funm", "rsf2csf", "sqrtm"]


# ---------------------------------------------------------------------------------------
# Cholesky

def _cholesky_impl(a, lower):
    a, = inexact(a)
    lo = lax_linalg.cholesky(a if lower else adjoint(a), symmetrize_input=False)
    return lo if lower else adjoint(lo)



_cholesky = named_jit(_cholesky_impl, "_cholesky", static_argnames=("lower",))


def cholesky(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """The Cholesky factor of each symmetric positive-definite matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``; only the triangle named by ``lower`` is read.
    lower : bool
        Return ``L`` with ``a == L @ L.T`` (else ``U`` with ``a == U.T @ U``).
    overwrite_a, check_finite : bool
        Ignored (SciPy's).

    Returns
    -------
    Array
        The factor; NaN where ``a`` is not positive definite.
    """
    del overwrite_a, check_finite
    return _cholesky(a, lower=bool(lower))


def cho_factor(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """``(cholesky(a, lower), lower)``: the factorisation :func:`cho_solve` takes.

    Parameters
    ----------
    a : array_like
    lower : bool
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    tuple
        The factor (zeros on its other side) and ``lower``.
    """
    del overwrite_a, check_finite
    return cholesky(a, lower=lower), lower


def _cho_solve_impl(c, b, lower):
    c, b = inexact(c, b)
    b = triangular(c, b, lower=lower, transpose_a=not lower, conjugate_a=not lower)
    return triangular(c, b, lower=lower, transpose_a=lower, conjugate_a=lower)


_cho_solve = named_jit(_cho_solve_impl, "_cho_solve", static_argnames=("lower",))


def cho_solve(c_and_lower, b, overwrite_b: bool = False, check_finite: bool = True):
    """Solve ``a @ x == b`` given ``cho_factor(a)``.

    Parameters
    ----------
    c_and_lower : tuple
        ``(c, lower)`` from :func:`cho_factor`.
    b : array_like
        Shape ``(..., n)`` or ``(..., n, k)``.
    overwrite_b, check_finite : bool
        Ignored.

    Returns
    -------
    Array
        ``x``, of ``b``'s shape (batch axes broadcast).
    """
    del overwrite_b, check_finite
    c, lower = c_and_lower
    return _cho_solve(c, b, lower=bool(lower))


# ---------------------------------------------------------------------------------------
# LU

def _lu_factor_impl(a, overwrite_a, check_finite):
    a, = inexact(a)
    lu_, pivots, _ = lax_linalg.lu(a)
    return lu_, pivots


_lu_factor = named_jit(_lu_factor_impl, "lu_factor",
                    static_argnames=("overwrite_a", "check_finite"))


def lu_factor(a, overwrite_a: bool = False, check_finite: bool = True):
    """LU factorisation with partial pivoting, packed as LAPACK's ``getrf`` leaves it.

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    tuple
        ``lu`` (unit lower factor below the diagonal, upper factor on and above) and
        ``piv`` (``int32``: row ``i`` was swapped with row ``piv[i]``).
    """
    return _lu_factor(a, overwrite_a=overwrite_a, check_finite=check_finite)


def _pivots_to_permutation(pivots, m: int):
    """The row order the swaps of ``pivots`` give (JAX's
    ``lax.linalg.lu_pivots_to_permutation``): row ``i`` swapped with row ``pivots[i]``,
    in order; leading axes are batch axes."""
    k = _util.aval(pivots).shape[-1]

    def one(piv):
        def swap(i, perm):
            j = piv[i]
            pi, pj = perm[i], perm[j]
            return perm.at[i].set(pj).at[j].set(pi)
        return lax.fori_loop(0, k, swap, jnp.arange(m, dtype=np.int32))
    fn = one
    for _ in range(ndim(pivots) - 1):
        fn = vmap(fn)
    return fn(lax.convert_element_type(pivots, np.int32))


def _lu_solve_impl(lu_and_piv, b, trans, overwrite_b, check_finite):
    lu_, pivots = lu_and_piv
    lu_, b = inexact(lu_, b)
    if trans not in (0, 1, 2):
        raise ValueError(f"'trans' value must be 0, 1, or 2, got {trans}")
    m = _util.aval(lu_).shape[-2]
    perm = _pivots_to_permutation(_util.ensure_array(pivots), m)
    core_b = vector_core(lu_, b)
    check_core(lu_, b, core_b)
    return vectorized(lambda f, p, r: lu_solve_jit(f, p, r, trans),
                      (lu_, perm, b), (2, 1, core_b))


_lu_solve = named_jit(_lu_solve_impl, "lu_solve",
                   static_argnames=("trans", "overwrite_b", "check_finite"))


def lu_solve(lu_and_piv, b, trans: int = 0, overwrite_b: bool = False,
             check_finite: bool = True):
    """Solve ``a @ x == b`` (``trans=0``) or ``a.T @ x == b`` (1 or 2) given
    ``lu_factor(a)``.

    Parameters
    ----------
    lu_and_piv : tuple
        ``(lu, piv)`` from :func:`lu_factor`.
    b : array_like
        Shape ``(..., n)`` or ``(..., n, k)``.
    trans : {0, 1, 2}
    overwrite_b, check_finite : bool
        Ignored.

    Returns
    -------
    Array
    """
    return _lu_solve(tuple(lu_and_piv), b, trans=trans, overwrite_b=overwrite_b,
                     check_finite=check_finite)


def _lu_impl(a, permute_l):
    a, = inexact(a)
    aval = _util.aval(a)
    if aval.ndim != 2:
        raise ValueError("too many values to unpack (expected 2)" if aval.ndim > 2 else
                         f"not enough values to unpack (expected 2, got {aval.ndim})")
    lu_, _, permutation = lax_linalg.lu(a)
    dtype = aval.dtype
    m, n = aval.shape
    rows = lax.broadcasted_iota(np.int32, (m, m), 0)
    # the permutation matrix is real, also for a complex a (JAX takes its real part)
    p = lax.convert_element_type(
        lax.eq(lax.broadcast_in_dim(permutation, (m, m), (1,)), rows), dtype)
    if np.dtype(dtype).kind == "c":
        p = lax.real(p)
    k = min(m, n)
    low = lax.slice(lax_linalg.tril(lu_, -1), (0, 0), (m, k))
    low = low + jnp.eye(m, k, dtype=dtype)
    up = lax.slice(lax_linalg.triu(lu_), (0, 0), (k, n))
    if permute_l:
        return jnp.matmul(p, low, precision=lax.Precision.HIGHEST), up
    return p, low, up


_lu = named_jit(_lu_impl, "_lu", static_argnums=(1,))


def lu(a, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """LU decomposition ``a == p @ l @ u`` of a matrix.

    Parameters
    ----------
    a : array_like
        Shape ``(m, n)``.
    permute_l : bool
        Return ``(p @ l, u)`` instead of ``(p, l, u)``.
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    tuple
        ``p`` (``(m, m)`` permutation matrix), ``l`` (``(m, k)`` unit lower triangular)
        and ``u`` (``(k, n)`` upper triangular), ``k = min(m, n)``.
    """
    del overwrite_a, check_finite
    return _lu(a, bool(permute_l))


# ---------------------------------------------------------------------------------------
# QR, SVD, eigh

def _qr_impl(a, mode, pivoting):
    if mode in ("full", "r"):
        full = True
    elif mode == "economic":
        full = False
    else:
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    a, = inexact(a)
    q, r, *p = lax_linalg.qr(a, full_matrices=full, pivoting=pivoting)
    return ((r,) if mode == "r" else (q, r)) + tuple(p)


_qr = named_jit(_qr_impl, "_qr", static_argnames=("mode", "pivoting"))


def qr(a, overwrite_a: bool = False, lwork=None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True):
    """QR decomposition of each matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    mode : {"full", "economic", "r"}
        ``Q`` square and ``R`` of ``a``'s shape; or ``k = min(m, n)`` columns of ``Q``
        and rows of ``R``; or ``(R,)`` alone (full).
    pivoting : bool
        Column pivoting: also return ``P`` (``int32``) with ``a[:, P] == Q @ R``.
    overwrite_a, lwork, check_finite
        Ignored.

    Returns
    -------
    tuple
        ``(Q, R)``, or ``(R,)`` for ``mode="r"``; ``P`` last when pivoting.
    """
    del overwrite_a, lwork, check_finite
    return _qr(a, mode=mode, pivoting=bool(pivoting))


def _svd_impl(a, full_matrices, compute_uv):
    a, = inexact(a)
    return lax_linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


_svd = named_jit(_svd_impl, "_svd", static_argnames=("full_matrices", "compute_uv"))


def svd(a, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd"):
    """Singular value decomposition ``a == u @ diag(s) @ vh``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    full_matrices : bool
        Square ``u`` and ``vh`` (else ``min(m, n)`` columns/rows).
    compute_uv : bool
        Return ``(u, s, vh)``; else ``s`` alone.
    overwrite_a, check_finite, lapack_driver
        Ignored.

    Returns
    -------
    tuple or Array
        Singular values descending.
    """
    del overwrite_a, check_finite, lapack_driver
    return _svd(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))


def _eigh_impl(a, b, lower, eigvals_only, eigvals, type):  # noqa: A002 (SciPy's name)
    if b is not None:
        raise NotImplementedError("Only the b=None case of eigh is implemented")
    if type != 1:
        raise NotImplementedError("Only the type=1 case of eigh is implemented.")
    if eigvals is not None:
        raise NotImplementedError("Only the eigvals=None case of eigh is implemented.")
    a, = inexact(a)
    v, w = lax_linalg.eigh(a, lower=lower)
    return w if eigvals_only else (w, v)


_eigh = named_jit(_eigh_impl, "_eigh",
               static_argnames=("lower", "eigvals_only", "eigvals", "type"))


def eigh(a, b=None, lower: bool = True, eigvals_only: bool = False,
         overwrite_a: bool = False, overwrite_b: bool = False, turbo: bool = True,
         eigvals=None, type: int = 1, check_finite: bool = True):  # noqa: A002
    """Eigenvalues (ascending) and eigenvectors of each symmetric matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``; symmetrized before it is diagonalised.
    b, eigvals, type
        Only SciPy's defaults (``None``, ``None``, 1) are implemented, as in JAX.
    lower : bool
    eigvals_only : bool
        Return the eigenvalues alone.
    overwrite_a, overwrite_b, turbo, check_finite
        Ignored.

    Returns
    -------
    Array or tuple
        ``w`` or ``(w, v)`` (eigenvectors in the columns of ``v``).
    """
    del overwrite_a, overwrite_b, turbo, check_finite
    return _eigh(a, b, lower=bool(lower), eigvals_only=bool(eigvals_only), eigvals=eigvals,
                 type=type)


# ---------------------------------------------------------------------------------------
# solves, det, inv

def _solve_impl(a, b, assume_a, lower):
    if assume_a != "pos":
        return jnp.linalg.solve(a, b)
    a, b = inexact(a, b)
    a_shape, b_shape = _util.aval(a).shape, _util.aval(b).shape
    vector = len(a_shape) == len(b_shape) + 1
    check_core(a, b, 1 if vector else 2, "m")
    a, b = broadcast_batch(a, b, 1 if vector else 2)
    factors = cho_factor(lax.stop_gradient(a), lower=lower)

    def custom_solve(rhs):
        return linear_solve_with(lambda x: _matvec(a, x), rhs,
                                 lambda _, x: cho_solve(factors, x), symmetric=True,
                                 vecmat=lambda y: _vecmat(a, y))
    if vector:
        return custom_solve(b)
    a_nd, b_nd = ndim(a), ndim(b)
    return vmap(custom_solve, b_nd - 1, max(a_nd, b_nd) - 1)(b)


_solve = named_jit(_solve_impl, "_solve", static_argnames=("assume_a", "lower"))


def solve(a, b, lower: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
          debug: bool = False, check_finite: bool = True, assume_a: str = "gen"):
    """Solve ``a @ x == b``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.
    b : array_like
        Shape ``(..., n)`` or ``(..., n, k)``.
    lower : bool
        With ``assume_a="pos"``: which triangle of ``a`` is read.
    assume_a : {"gen", "sym", "her", "pos"}
        ``"pos"``: ``a`` is symmetric positive definite (a Cholesky solve); otherwise
        an LU solve.
    overwrite_a, overwrite_b, debug, check_finite
        Ignored.

    Returns
    -------
    Array
    """
    del overwrite_a, overwrite_b, debug, check_finite
    valid = ["gen", "sym", "her", "pos"]
    if assume_a not in valid:
        raise ValueError(f"Expected assume_a to be one of {valid}; got {assume_a!r}")
    return _solve(a, b, assume_a=assume_a, lower=bool(lower))


def _solve_triangular_impl(a, b, trans, lower, unit_diagonal):
    if trans in (0, "N"):
        transpose_a = conjugate_a = False
    elif trans in (1, "T", 2, "C"):
        transpose_a, conjugate_a = True, trans in (2, "C")
    else:
        raise ValueError(f"Invalid 'trans' value {trans}")
    a, b = inexact(a, b)
    return triangular(a, b, lower=lower, transpose_a=transpose_a, conjugate_a=conjugate_a,
                      unit_diagonal=unit_diagonal)


_solve_triangular = named_jit(_solve_triangular_impl, "_solve_triangular",
                           static_argnames=("trans", "lower", "unit_diagonal"))


def solve_triangular(a, b, trans=0, lower: bool = False, unit_diagonal: bool = False,
                     overwrite_b: bool = False, debug=None, check_finite: bool = True):
    """Solve ``op(a) @ x == b`` for a triangular ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``; only the triangle named by ``lower`` is read (without
        the diagonal when ``unit_diagonal``).
    b : array_like
        Shape ``(..., n)`` or ``(..., n, k)``.
    trans : {0, 1, 2, "N", "T", "C"}
        ``op(a)`` is ``a``, ``a.T``, or ``a.T`` (conjugated, a no-op for real ``a``).
    lower, unit_diagonal : bool
    overwrite_b, debug, check_finite
        Ignored.

    Returns
    -------
    Array
    """
    del overwrite_b, debug, check_finite
    return _solve_triangular(a, b, trans=trans, lower=bool(lower),
                             unit_diagonal=bool(unit_diagonal))


def _scipy_alias(jnp_fn, name: str):
    """``jnp_fn`` under SciPy's signature (``overwrite_a``, ``check_finite`` ignored)."""
    def fn(a, overwrite_a: bool = False, check_finite: bool = True):
        del overwrite_a, check_finite
        return jnp_fn(a)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``jnp.linalg.{name}`` of ``a`` (shape ``(..., n, n)``); SciPy's "
                  "``overwrite_a`` and ``check_finite`` are accepted and ignored.")
    return fn


det = _scipy_alias(jnp.linalg.det, "det")
inv = _scipy_alias(jnp.linalg.inv, "inv")

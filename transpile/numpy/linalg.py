"""``transpile.numpy.linalg``: JAX's ``jax.numpy.linalg`` functions written on
``lax.linalg`` (``cholesky`` here; ``solve``, ``inv``, ``det`` and ``slogdet`` from
``linalg_lu.py``).

As in JAX 0.10.2, each function is a ``jit`` named after it (its jaxpr shows a
``jit[name=cholesky ...]`` equation), integer and boolean operands are promoted to the
default float dtype first, and ``upper=True`` transposes the lower factor.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import internal_jit as jit
from ..lax import linalg as lax_linalg
from . import _util
from .linalg_lu import SlogdetResult, det, inv, slogdet, solve

__all__ = ["cholesky", "solve", "inv", "det", "slogdet", "SlogdetResult", "qr", "QRResult",
           "eigh", "eigvalsh", "EighResult", "svd", "svdvals", "SVDResult"]


def _cholesky_jit():
    def cholesky(a, upper, symmetrize_input):
        a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
        lower = lax_linalg.cholesky(a, symmetrize_input=symmetrize_input)
        # conj() of a real matrix adds no equation.
        return lax_linalg._swap_last(lower) if upper else lower
    return jit(cholesky, static_argnames=("upper", "symmetrize_input"))


_cholesky = _cholesky_jit()


def cholesky(a, *, upper: bool = False, symmetrize_input: bool = True):
    """The Cholesky factor of each (Hermitian positive-definite) matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``; integers and booleans are promoted to the default float.
    upper : bool
        Return the upper factor ``U = L^H`` (``a == U^H @ U``) instead of the lower.
    symmetrize_input : bool
        Factor ``(a + a^H) / 2`` (the default); otherwise only the triangle the factor
        comes from is read.

    Returns
    -------
    Array
        The factor, zero on the other side of the diagonal; NaN in and below (above,
        for ``upper``) the diagonal of a matrix that is not positive definite.
    """
    _util.check_arraylike("jnp.linalg.cholesky", a)
    dt = getattr(a, "dtype", None)
    if dt is not None and np.dtype(dt).kind == "c":
        lax_linalg._check_supported(dt)
    return _cholesky(a, upper=bool(upper), symmetrize_input=bool(symmetrize_input))


class QRResult(NamedTuple):
    """``qr``'s result in the ``reduced`` and ``complete`` modes."""
    Q: object
    R: object


def _qr_jit():
    def qr(a, mode):
        a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
        q, r = lax_linalg.qr(a, full_matrices=mode == "complete")
        return r if mode == "r" else QRResult(q, r)
    return jit(qr, static_argnames=("mode",))


_qr = _qr_jit()


def qr(a, mode: str = "reduced"):
    """QR decomposition of each matrix of ``a`` (Householder reflections).

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    mode : {"reduced", "complete", "r"}
        ``Q`` of shape ``(..., m, k)`` and ``R`` ``(..., k, n)`` with ``k = min(m, n)``;
        or square ``Q`` and ``R`` of ``a``'s shape; or ``R`` alone (reduced).

    Returns
    -------
    QRResult or Array
    """
    _util.check_arraylike("jnp.linalg.qr", a)
    if mode == "raw":
        raise NotImplementedError("transpile does not implement qr(mode='raw')")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    return _qr(a, mode=mode)


class EighResult(NamedTuple):
    """``eigh``'s result: ascending eigenvalues and the eigenvectors (columns)."""
    eigenvalues: object
    eigenvectors: object


def _eigh_jit():
    def eigh(a, UPLO, symmetrize_input):  # noqa: N803 (JAX's argument name)
        a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
        v, w = lax_linalg.eigh(a, lower=UPLO in (None, "L"),
                               symmetrize_input=symmetrize_input)
        return EighResult(w, v)
    return jit(eigh, static_argnames=("UPLO", "symmetrize_input"))


_eigh = _eigh_jit()


def _check_uplo(UPLO) -> None:  # noqa: N803
    if UPLO not in (None, "L", "U"):
        raise ValueError(f"UPLO must be one of None, 'L', or 'U', got {UPLO}")


def eigh(a, UPLO=None, symmetrize_input: bool = True):  # noqa: N803
    """Eigenvalues and eigenvectors of each symmetric matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.
    UPLO : {None, "L", "U"}
        The triangle read when not symmetrizing (lower by default).
    symmetrize_input : bool
        Use ``(a + a^T) / 2`` (the default).

    Returns
    -------
    EighResult
        ``eigenvalues`` ascending (``(..., n)``) and ``eigenvectors`` (columns).
    """
    _util.check_arraylike("jnp.linalg.eigh", a)
    _check_uplo(UPLO)
    return _eigh(a, UPLO=UPLO, symmetrize_input=bool(symmetrize_input))


def _eigvalsh_jit():
    def eigvalsh(a, UPLO, symmetrize_input):  # noqa: N803
        return _eigh(a, UPLO=UPLO, symmetrize_input=symmetrize_input)[0]
    return jit(eigvalsh, static_argnames=("UPLO", "symmetrize_input"))


_eigvalsh = _eigvalsh_jit()


def eigvalsh(a, UPLO="L", *, symmetrize_input: bool = True):  # noqa: N803
    """The eigenvalues of each symmetric matrix of ``a``, ascending.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.
    UPLO : {"L", "U"}
    symmetrize_input : bool

    Returns
    -------
    Array
        Shape ``(..., n)``.
    """
    _util.check_arraylike("jnp.linalg.eigvalsh", a)
    _check_uplo(UPLO)
    return _eigvalsh(a, UPLO=UPLO, symmetrize_input=bool(symmetrize_input))


class SVDResult(NamedTuple):
    """``svd``'s result: ``U @ diag(S) @ Vh`` is the matrix."""
    U: object
    S: object
    Vh: object


def _svd_jit():
    def svd(a, full_matrices, compute_uv, hermitian):
        a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
        if not compute_uv:
            return lax_linalg.svd(a, full_matrices=True, compute_uv=False)
        return SVDResult(*lax_linalg.svd(a, full_matrices=full_matrices, compute_uv=True))
    return jit(svd, static_argnames=("full_matrices", "compute_uv", "hermitian"))


_svd = _svd_jit()


def svd(a, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False,
        subset_by_index=None):
    """Singular value decomposition of each matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., m, n)``.
    full_matrices : bool
        Square ``U`` and ``Vh``; otherwise ``(..., m, k)`` and ``(..., k, n)``.
    compute_uv : bool
        Return ``SVDResult(U, S, Vh)``; otherwise only ``S``.
    hermitian : bool
        Accepted; the general algorithm is used either way.
    subset_by_index : None
        Only ``None`` is implemented.

    Returns
    -------
    SVDResult or Array
        Singular values descending.
    """
    _util.check_arraylike("jnp.linalg.svd", a)
    if subset_by_index is not None:
        raise NotImplementedError("transpile does not implement svd's subset_by_index")
    return _svd(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv),
                hermitian=bool(hermitian))


def svdvals(x):
    """The singular values of each matrix of ``x``, descending.

    Parameters
    ----------
    x : array_like
        Shape ``(..., m, n)``.

    Returns
    -------
    Array
        Shape ``(..., min(m, n))``.
    """
    _util.check_arraylike("jnp.linalg.svdvals", x)
    return _svd(x, full_matrices=True, compute_uv=False, hermitian=False)

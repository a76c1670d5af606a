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

from .. import lax
from ..jit import internal_jit as jit
from ..lax import linalg as lax_linalg
from . import _util
from . import linalg_extra
from .linalg_extra import (cond, cross, diagonal, lstsq, matmul, matrix_norm, matrix_power,
                           matrix_rank, matrix_transpose, multi_dot, norm, outer, pinv,
                           tensordot, tensorinv, tensorsolve, trace, vecdot, vector_norm)
from .linalg_eig import EigResult, eig, eigvals  # noqa: F401
from .linalg_lu import SlogdetResult, det, inv, slogdet, solve
from .linalg_svd import SVDResult, svd, svdvals

# JAX's names; the result tuples (SlogdetResult, QRResult, EighResult, SVDResult) are
# attributes here but, as in JAX, not listed.
__all__ = ["cholesky", "solve", "inv", "det", "slogdet", "qr", "eigh", "eigvalsh", "svd",
           "svdvals", "eig", "eigvals", *linalg_extra.__all__]


def _cholesky_jit():
    def cholesky(a, upper, symmetrize_input):
        a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
        lower = lax_linalg.cholesky(a, symmetrize_input=symmetrize_input)
        if not upper:
            return lower
        # conj() of a real matrix adds no equation.
        upper_t = lax_linalg._swap_last(lower)
        return lax.conj(upper_t) if np.dtype(_util.aval(a).dtype).kind == "c" else upper_t
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

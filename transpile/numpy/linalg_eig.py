"""``jnp.linalg.eig`` and ``jnp.linalg.eigvals``: the nonsymmetric eigenproblem on
``lax.linalg.eig``.

As in JAX 0.10.2, integer and boolean operands are promoted to the default float dtype
first and the results are always complex (``complex64`` for 32-bit input,
``complex128`` for 64-bit input, unlike NumPy which returns real arrays when it can);
``eigvals`` is a ``jit`` named after it, ``eig`` binds the primitive directly.
"""
from __future__ import annotations

from typing import NamedTuple

from ..jit import internal_jit as jit
from ..lax import linalg as lax_linalg
from . import _util

__all__ = ["eig", "eigvals"]


class EigResult(NamedTuple):
    """``eig``'s result: the eigenvalues and the right eigenvectors (columns)."""
    eigenvalues: object
    eigenvectors: object


def eig(a) -> EigResult:
    """Eigenvalues and right eigenvectors of each square matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``; integers and booleans are promoted to the default float.

    Returns
    -------
    EigResult
        ``eigenvalues`` (``(..., n)``, in the order LAPACK's ``geev`` finds them) and
        ``eigenvectors`` (``(..., n, n)``, column ``i`` belongs to eigenvalue ``i``, unit
        2-norm with a real largest-magnitude component), both complex.
    """
    _util.check_arraylike("jnp.linalg.eig", a)
    a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
    w, v = lax_linalg.eig(a, compute_left_eigenvectors=False)
    return EigResult(w, v)


def _eigvals(a):
    a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
    return lax_linalg.eig(a, compute_left_eigenvectors=False,
                          compute_right_eigenvectors=False)[0]


_eigvals.__name__ = _eigvals.__qualname__ = "eigvals"
_eigvals_jit = jit(_eigvals)


def eigvals(a):
    """The eigenvalues of each square matrix of ``a`` (complex, unsorted).

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.

    Returns
    -------
    Array
        Shape ``(..., n)``, complex.
    """
    _util.check_arraylike("jnp.linalg.eigvals", a)
    return _eigvals_jit(a)

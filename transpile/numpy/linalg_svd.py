"""``jnp.linalg.svd`` and ``svdvals`` on ``lax.linalg.svd`` (a ``jit`` named ``svd``,
as in JAX 0.10.2; ``svdvals`` is the same function without vectors).
"""
from __future__ import annotations

from typing import NamedTuple

from ..jit import internal_jit as jit
from ..lax import linalg as lax_linalg
from . import _util

__all__ = ["svd", "svdvals", "SVDResult"]


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

"""The multivariate normal distribution N(mean, cov)."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_dtypes_inexact

__all__ = ["logpdf", "pdf"]


def logpdf(x, mean, cov, allow_singular=None):
    """log density; ``cov`` a scalar (isotropic) or one (n, n) matrix (through its
    Cholesky factor; a batch of matrices raises ``NotImplementedError``). ``allow_singular`` is not supported (JAX's
    ``NotImplementedError``)."""
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    x, mean, cov = promote_dtypes_inexact(x, mean, cov)
    if not mean.shape:
        return (-1 / 2 * jnp.square(x - mean) / cov
                - 1 / 2 * (jnp.log(2 * np.pi) + jnp.log(cov)))
    n = mean.shape[-1]
    if not np.shape(cov):
        y = x - mean
        return (-1 / 2 * jnp.einsum('...i,...i->...', y, y) / cov
                - n / 2 * (jnp.log(2 * np.pi) + jnp.log(cov)))
    if cov.ndim < 2 or cov.shape[-2:] != (n, n):
        raise ValueError("multivariate_normal.logpdf got incompatible shapes")
    if cov.ndim > 2:
        raise NotImplementedError("multivariate_normal.logpdf with a batch of covariances")
    chol = lax.linalg.cholesky(cov)
    d = x - mean
    # rows y with y L^T = d, i.e. y = L^-1 d for each vector d
    rows = jnp.reshape(d, (-1, n))
    y = lax.linalg.triangular_solve(chol, rows, left_side=False, lower=True, transpose_a=True)
    y = jnp.reshape(y, d.shape)
    return (-1 / 2 * jnp.einsum('...i,...i->...', y, y) - n / 2 * jnp.log(2 * np.pi)
            - jnp.log(jnp.sum(chol * jnp.eye(n, dtype=chol.dtype), -1)).sum(-1))


def pdf(x, mean, cov):
    """The density."""
    return lax.exp(logpdf(x, mean, cov))

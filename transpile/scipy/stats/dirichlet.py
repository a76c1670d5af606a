"""The Dirichlet distribution with concentrations ``alpha`` (along axis 0 of ``x``)."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_dtypes_inexact
from ..special import gammaln, xlogy
from ._common import const

__all__ = ["logpdf", "pdf"]


def _on_simplex(x):
    return jnp.all(x > 0, axis=0) & (abs(jnp.sum(x, axis=0) - 1) < 1E-6)


def logpdf(x, alpha):
    """sum (alpha - 1) log x - (sum lgamma(alpha) - lgamma(sum alpha)); -inf off the
    simplex. ``x`` may omit its last entry (then 1 - the others)."""
    x, alpha = promote_dtypes_inexact(x, alpha)
    if alpha.ndim != 1:
        raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={alpha.shape}")
    if x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
        raise ValueError("`x` must have either the same number of entries as `alpha` or one "
                         f"entry fewer; got x.shape={x.shape}, alpha.shape={alpha.shape}")
    one = const(x, 1)
    if x.shape[0] != alpha.shape[0]:
        x = jnp.concatenate([x, lax.sub(one, x.sum(0, keepdims=True))], axis=0)
    norm = jnp.sum(gammaln(alpha)) - gammaln(jnp.sum(alpha))
    if x.ndim > 1:
        alpha = lax.broadcast_in_dim(alpha, alpha.shape + (1,) * (x.ndim - 1), (0,))
    out = lax.sub(jnp.sum(xlogy(lax.sub(alpha, one), x), axis=0), norm)
    return jnp.where(_on_simplex(x), out, -np.inf)


def pdf(x, alpha):
    """The density."""
    return lax.exp(logpdf(x, alpha))

"""The exponential distribution on [loc, inf) with mean loc + scale."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]


def logpdf(x, loc=0, scale=1):
    """log density: -(x - loc) / scale - log(scale); -inf below ``loc``."""
    x, loc, scale = promote_args_inexact("expon.logpdf", x, loc, scale)
    out = lax.neg(lax.add(lax.div(lax.sub(x, loc), scale), lax.log(scale)))
    return jnp.where(lax.lt(x, loc), -np.inf, out)


def pdf(x, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """1 - exp(-(x - loc) / scale) (through expm1); 0 below ``loc``."""
    x, loc, scale = promote_args_inexact("expon.cdf", x, loc, scale)
    t = lax.div(lax.sub(loc, x), scale)
    return jnp.where(lax.lt(x, loc), jnp.zeros_like(t), lax.neg(lax.expm1(t)))


def logsf(x, loc=0, scale=1):
    """log P(X > x) = -(x - loc) / scale; 0 below ``loc``."""
    x, loc, scale = promote_args_inexact("expon.sf", x, loc, scale)
    t = lax.div(lax.sub(loc, x), scale)
    return jnp.where(lax.lt(x, loc), jnp.zeros_like(t), t)


def sf(x, loc=0, scale=1):
    """P(X > x)."""
    return lax.exp(logsf(x, loc, scale))


def logcdf(x, loc=0, scale=1):
    """log P(X <= x) = log1p(-sf)."""
    return lax.log1p(lax.neg(sf(x, loc, scale)))


def ppf(q, loc=0, scale=1):
    """loc - scale log1p(-q); NaN outside [0, 1]."""
    q, loc, scale = promote_args_inexact("expon.ppf", q, loc, scale)
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan,
                     lax.sub(loc, lax.mul(scale, lax.log1p(lax.neg(q)))))

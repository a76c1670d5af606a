"""The Cauchy distribution with location ``loc`` and scale ``scale``."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ._common import const

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]


def logpdf(x, loc=0, scale=1):
    """-log(pi scale) - log1p(z^2), z = (x - loc) / scale."""
    x, loc, scale = promote_args_inexact("cauchy.logpdf", x, loc, scale)
    z = lax.div(lax.sub(x, loc), scale)
    return lax.neg(lax.add(lax.log(lax.mul(const(x, np.pi), scale)),
                           lax.log1p(lax.mul(z, z))))


def pdf(x, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """1/2 + atan(z) / pi."""
    x, loc, scale = promote_args_inexact("cauchy.cdf", x, loc, scale)
    z = lax.div(lax.sub(x, loc), scale)
    return lax.add(const(x, 0.5), lax.mul(lax.div(const(x, 1.), const(x, np.pi)),
                                          jnp.arctan(z)))


def logcdf(x, loc=0, scale=1):
    """log of ``cdf``."""
    return lax.log(cdf(x, loc, scale))


def sf(x, loc=0, scale=1):
    """P(X > x), by symmetry."""
    x, loc, scale = promote_args_inexact("cauchy.sf", x, loc, scale)
    return cdf(-x, -loc, scale)


def logsf(x, loc=0, scale=1):
    """log P(X > x), by symmetry."""
    x, loc, scale = promote_args_inexact("cauchy.logsf", x, loc, scale)
    return logcdf(-x, -loc, scale)


def _tan_quantile(q, loc, scale, sign):
    t = lax.mul(const(q, np.pi), q)
    half = const(q, np.pi / 2)
    unscaled = lax.tan(lax.sub(t, half) if sign > 0 else lax.sub(half, t))
    return lax.add(lax.mul(unscaled, scale), loc)


def ppf(q, loc=0, scale=1):
    """loc + scale tan(pi q - pi/2)."""
    q, loc, scale = promote_args_inexact("cauchy.ppf", q, loc, scale)
    return _tan_quantile(q, loc, scale, 1)


def isf(q, loc=0, scale=1):
    """loc + scale tan(pi/2 - pi q)."""
    q, loc, scale = promote_args_inexact("cauchy.isf", q, loc, scale)
    return _tan_quantile(q, loc, scale, -1)

"""The gamma distribution with shape ``a``, location ``loc`` and scale ``scale``."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ..special import gammainc, gammaincc, gammaln, xlogy
from ._common import const

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def logpdf(x, a, loc=0, scale=1):
    """(a - 1) log y - y - lgamma(a) - log(scale), y = (x - loc) / scale; -inf below."""
    x, a, loc, scale = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
    inside = lax.ge(x, loc)
    one = const(x, 1)
    y = jnp.where(inside, lax.div(lax.sub(x, loc), scale), one)
    out = lax.sub(lax.sub(xlogy(lax.sub(a, one), y), y), lax.add(gammaln(a), lax.log(scale)))
    return jnp.where(inside, out, -np.inf)


def pdf(x, a, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, a, loc, scale))


def cdf(x, a, loc=0, scale=1):
    """P(a, y) with y clamped to [0, inf)."""
    x, a, loc, scale = promote_args_inexact("gamma.cdf", x, a, loc, scale)
    y = lax.clamp(const(x, 0), lax.div(lax.sub(x, loc), scale), const(x, np.inf))
    return gammainc(a, y)


def logcdf(x, a, loc=0, scale=1):
    """log of ``cdf``."""
    return lax.log(cdf(x, a, loc, scale))


def sf(x, a, loc=0, scale=1):
    """Q(a, y); 1 below ``loc``."""
    x, a, loc, scale = promote_args_inexact("gamma.sf", x, a, loc, scale)
    y = lax.div(lax.sub(x, loc), scale)
    return jnp.where(lax.lt(y, const(y, 0)), 1, gammaincc(a, y))


def logsf(x, a, loc=0, scale=1):
    """log of ``sf``."""
    return lax.log(sf(x, a, loc, scale))

"""The chi-squared distribution with ``df`` degrees of freedom (a gamma with shape df/2
and scale 2 scale)."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ..special import gammainc, gammaincc
from ._common import const

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def logpdf(x, df, loc=0, scale=1):
    """(df/2 - 1) log y - y/2 - lgamma(df/2) - df log(2)/2 - log(scale); -inf below."""
    x, df, loc, scale = promote_args_inexact("chi2.logpdf", x, df, loc, scale)
    one, two = const(x, 1), const(x, 2)
    y = lax.div(lax.sub(x, loc), scale)
    k = lax.div(df, two)
    kernel = lax.sub(lax.mul(lax.sub(k, one), lax.log(y)), lax.div(y, two))
    norm = lax.neg(lax.add(lax.lgamma(k), lax.div(lax.mul(lax.log(two), df), two)))
    return jnp.where(lax.lt(x, loc), -np.inf,
                     lax.add(lax.sub(norm, lax.log(scale)), kernel))


def pdf(x, df, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, df, loc, scale))


def _y(x, loc, scale):
    two = const(scale, 2)
    return lax.clamp(const(x, 0), lax.div(lax.sub(x, loc), lax.mul(scale, two)),
                     const(x, np.inf))


def cdf(x, df, loc=0, scale=1):
    """P(df/2, (x - loc) / (2 scale)), clamped below at 0."""
    x, df, loc, scale = promote_args_inexact("chi2.cdf", x, df, loc, scale)
    return gammainc(lax.div(df, const(scale, 2)), _y(x, loc, scale))


def logcdf(x, df, loc=0, scale=1):
    """log of ``cdf``."""
    return lax.log(cdf(x, df, loc, scale))


def sf(x, df, loc=0, scale=1):
    """Q(df/2, (x - loc) / (2 scale)), clamped below at 0."""
    x, df, loc, scale = promote_args_inexact("chi2.sf", x, df, loc, scale)
    return gammaincc(lax.div(df, const(scale, 2)), _y(x, loc, scale))


def logsf(x, df, loc=0, scale=1):
    """log of ``sf``."""
    return lax.log(sf(x, df, loc, scale))

"""The logistic distribution with location ``loc`` and scale ``scale``."""
from __future__ import annotations

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ..special import expit, logit
from ._common import const

__all__ = ["logpdf", "pdf", "cdf", "sf", "ppf", "isf"]


def logpdf(x, loc=0, scale=1):
    """-2 logaddexp(z/2, -z/2) - log(scale), z = (x - loc) / scale (no overflow)."""
    x, loc, scale = promote_args_inexact("logistic.logpdf", x, loc, scale)
    z = lax.div(lax.sub(x, loc), scale)
    two = const(z, 2)
    h = lax.div(z, two)
    return lax.sub(lax.mul(lax.neg(two), jnp.logaddexp(h, lax.neg(h))), lax.log(scale))


def pdf(x, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """expit((x - loc) / scale)."""
    x, loc, scale = promote_args_inexact("logistic.cdf", x, loc, scale)
    return expit(lax.div(lax.sub(x, loc), scale))


def sf(x, loc=0, scale=1):
    """expit(-(x - loc) / scale)."""
    x, loc, scale = promote_args_inexact("logistic.sf", x, loc, scale)
    return expit(lax.neg(lax.div(lax.sub(x, loc), scale)))


def ppf(x, loc=0, scale=1):
    """loc + scale logit(q)."""
    x, loc, scale = promote_args_inexact("logistic.ppf", x, loc, scale)
    return lax.add(lax.mul(logit(x), scale), loc)


def isf(x, loc=0, scale=1):
    """loc - scale logit(q)."""
    x, loc, scale = promote_args_inexact("logistic.isf", x, loc, scale)
    return lax.add(lax.mul(lax.neg(logit(x)), scale), loc)

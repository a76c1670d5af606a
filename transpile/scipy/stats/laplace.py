"""The Laplace distribution with location ``loc`` and scale ``scale``."""
from __future__ import annotations

from ... import lax
from ...numpy._util import promote_args_inexact
from ._common import const

__all__ = ["logpdf", "pdf", "cdf"]


def logpdf(x, loc=0, scale=1):
    """-|x - loc| / scale - log(2 scale)."""
    x, loc, scale = promote_args_inexact("laplace.logpdf", x, loc, scale)
    return lax.neg(lax.add(lax.div(lax.abs(lax.sub(x, loc)), scale),
                           lax.log(lax.mul(const(x, 2), scale))))


def pdf(x, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """exp(z) / 2 for z = (x - loc) / scale <= 0, 1 - exp(-z) / 2 above."""
    x, loc, scale = promote_args_inexact("laplace.cdf", x, loc, scale)
    z = lax.div(lax.sub(x, loc), scale)
    half = const(x, 0.5)
    return lax.select(lax.le(z, const(x, 0)), lax.mul(half, lax.exp(z)),
                      lax.sub(const(x, 1), lax.mul(half, lax.exp(lax.neg(z)))))

"""The beta distribution with shapes ``a``, ``b`` on [loc, loc + scale]."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ..special import betainc, betaln, xlog1py, xlogy
from ._common import const

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def logpdf(x, a, b, loc=0, scale=1):
    """(a-1) log y + (b-1) log(1-y) - betaln(a, b) - log(scale); -inf outside the
    interval, NaN for non-positive ``a``, ``b`` or ``scale``."""
    x, a, b, loc, scale = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
    one, zero = const(x, 1), const(a, 0)
    y = lax.div(lax.sub(x, loc), scale)
    kernel = lax.add(xlogy(lax.sub(a, one), y), xlog1py(lax.sub(b, one), lax.neg(y)))
    out = lax.sub(lax.add(lax.neg(betaln(a, b)), kernel), lax.log(scale))
    out = jnp.where(jnp.logical_or(lax.gt(x, lax.add(loc, scale)), lax.lt(x, loc)),
                    -np.inf, out)
    bad = jnp.logical_or(jnp.logical_or(lax.le(a, zero), lax.le(b, zero)),
                         lax.le(scale, zero))
    return jnp.where(bad, np.nan, out)


def pdf(x, a, b, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, a, b, loc, scale))


def _y(x, loc, scale):
    return lax.clamp(const(x, 0), lax.div(lax.sub(x, loc), scale), const(x, 1))


def cdf(x, a, b, loc=0, scale=1):
    """I_y(a, b), y clamped to [0, 1]."""
    x, a, b, loc, scale = promote_args_inexact("beta.cdf", x, a, b, loc, scale)
    return betainc(a, b, _y(x, loc, scale))


def logcdf(x, a, b, loc=0, scale=1):
    """log of ``cdf``."""
    return lax.log(cdf(x, a, b, loc, scale))


def sf(x, a, b, loc=0, scale=1):
    """I_{1-y}(b, a), y clamped to [0, 1]."""
    x, a, b, loc, scale = promote_args_inexact("beta.sf", x, a, b, loc, scale)
    return betainc(b, a, 1 - _y(x, loc, scale))


def logsf(x, a, b, loc=0, scale=1):
    """log of ``sf``."""
    return lax.log(sf(x, a, b, loc, scale))

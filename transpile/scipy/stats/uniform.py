"""The uniform distribution on [loc, loc + scale]."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import aval, promote_args_inexact

__all__ = ["logpdf", "pdf", "cdf", "ppf"]


def logpdf(x, loc=0, scale=1):
    """-log(scale) inside the interval, -inf outside."""
    x, loc, scale = promote_args_inexact("uniform.logpdf", x, loc, scale)
    outside = jnp.logical_or(lax.gt(x, lax.add(loc, scale)), lax.lt(x, loc))
    return jnp.where(outside, -np.inf, lax.neg(lax.log(scale)))


def pdf(x, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """0 below, (x - loc) / scale inside, 1 above the interval."""
    x, loc, scale = promote_args_inexact("uniform.cdf", x, loc, scale)
    dt = aval(x).dtype
    hi = lax.add(loc, scale)
    return jnp.select([lax.lt(x, loc), lax.gt(x, hi), lax.ge(x, loc) & lax.le(x, hi)],
                      [jnp.array(0, dt), jnp.array(1, dt), lax.div(lax.sub(x, loc), scale)])


def ppf(q, loc=0, scale=1):
    """loc + scale q; NaN outside [0, 1]."""
    q, loc, scale = promote_args_inexact("uniform.ppf", q, loc, scale)
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan,
                     lax.add(loc, lax.mul(scale, q)))

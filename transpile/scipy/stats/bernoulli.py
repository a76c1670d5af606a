"""The Bernoulli distribution with success probability ``p``."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ..special import xlog1py, xlogy
from ._common import const

__all__ = ["logpmf", "pmf", "cdf", "ppf"]


def logpmf(k, p, loc=0):
    """k log p + (1 - k) log(1 - p) at k - loc; -inf outside [0, 1]."""
    k, p, loc = promote_args_inexact("bernoulli.logpmf", k, p, loc)
    zero, one = const(k, 0), const(k, 1)
    x = lax.sub(k, loc)
    out = xlogy(x, p) + xlog1py(lax.sub(one, x), -p)
    return jnp.where(jnp.logical_or(lax.lt(x, zero), lax.gt(x, one)), -np.inf, out)


def pmf(k, p, loc=0):
    """The probability mass."""
    return jnp.exp(logpmf(k, p, loc))


def cdf(k, p):
    """0 below 0, 1 - p on [0, 1), 1 from 1 on; NaN for NaN or ``p`` outside [0, 1]."""
    k, p = promote_args_inexact("bernoulli.cdf", k, p)
    zero, one = const(k, 0), const(k, 1)
    bad = jnp.isnan(k) | jnp.isnan(p) | (p < zero) | (p > one)
    return jnp.select([bad, lax.lt(k, zero), jnp.logical_and(lax.ge(k, zero), lax.lt(k, one)),
                       lax.ge(k, one)], [jnp.nan, zero, one - p, one])


def ppf(q, p):
    """0 for q <= 1 - p, else 1; NaN for NaN or arguments outside [0, 1]."""
    q, p = promote_args_inexact("bernoulli.ppf", q, p)
    zero, one = const(q, 0), const(q, 1)
    bad = jnp.isnan(q) | jnp.isnan(p) | (p < zero) | (p > one) | (q < zero) | (q > one)
    return jnp.where(bad, jnp.nan, jnp.where(lax.le(q, one - p), zero, one))

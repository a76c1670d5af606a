"""The Poisson distribution with mean ``mu``, shifted by ``loc``."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...numpy._util import promote_args_inexact
from ..special import gammaincc, gammaln, xlogy
from ._common import const

__all__ = ["logpmf", "pmf", "cdf"]


def logpmf(k, mu, loc=0):
    """k log(mu) - lgamma(k + 1) - mu at k - loc; -inf below 0 and off the integers."""
    k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = lax.sub(k, loc)
    out = xlogy(x, mu) - gammaln(x + 1) - mu
    return jnp.where(jnp.logical_or(lax.lt(x, const(k, 0)), lax.ne(jnp.round(k), k)),
                     -np.inf, out)


def pmf(k, mu, loc=0):
    """The probability mass."""
    return jnp.exp(logpmf(k, mu, loc))


def cdf(k, mu, loc=0):
    """Q(floor(k - loc) + 1, mu); 0 below ``loc``."""
    k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
    zero = const(k, 0)
    x = lax.sub(k, loc)
    return jnp.where(lax.lt(x, zero), zero, gammaincc(jnp.floor(1 + x), mu))

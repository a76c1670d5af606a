"""Student's t distribution with ``df`` degrees of freedom."""
from __future__ import annotations

import numpy as np

from ... import lax
from ...numpy._util import promote_args_inexact
from ._common import const

__all__ = ["logpdf", "pdf"]


def logpdf(x, df, loc=0, scale=1):
    """lgamma((df+1)/2) - lgamma(df/2) - log(pi df scale^2)/2
    - (df+1)/2 log1p(z^2 / df), z = (x - loc) / scale."""
    x, df, loc, scale = promote_args_inexact("t.logpdf", x, df, loc, scale)
    two = const(x, 2)
    z = lax.div(lax.sub(x, loc), scale)
    half_df = lax.div(df, two)
    half_df1 = lax.add(half_df, const(x, 0.5))
    log_norm = lax.div(lax.log(lax.mul(lax.mul(lax.mul(scale, scale), const(x, np.pi)), df)),
                       two)
    norm = lax.sub(lax.add(lax.lgamma(half_df), log_norm), lax.lgamma(half_df1))
    return lax.neg(lax.add(norm, lax.mul(half_df1, lax.log1p(lax.div(lax.mul(z, z), df)))))


def pdf(x, df, loc=0, scale=1):
    """The density."""
    return lax.exp(logpdf(x, df, loc, scale))

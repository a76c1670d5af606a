"""``jax.scipy.stats``: distributions as modules of functions (``norm.logpdf``, ...),
each written on ``transpile.numpy``, ``lax`` and ``transpile.scipy.special`` with JAX
0.10.2's formulas, promotion (``promote_args_inexact``), out-of-support values and
weak types."""
from . import (bernoulli, beta, cauchy, chi2, dirichlet, expon, gamma, laplace,  # noqa: F401
               logistic, multivariate_normal, norm, poisson, t, uniform)

__all__ = ["bernoulli", "beta", "cauchy", "chi2", "dirichlet", "expon", "gamma", "laplace",
           "logistic", "multivariate_normal", "norm", "poisson", "t", "uniform"]

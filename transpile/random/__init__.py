"""``transpile.random``: JAX's ``jax.random``, bit-exact with JAX 0.10.2's default
threefry2x32 PRNG (partitionable mode).

Keys come from :func:`key` (typed, dtype ``key<fry>``) or :func:`PRNGKey` (raw
``uint32[2]``); every sampler accepts both. A key is a value: passing the same key twice
gives the same numbers again (JAX leaves avoiding that to the user). Derive independent
keys with :func:`split` or :func:`fold_in`.
"""
from .continuous import (bits, exponential, gumbel, laplace, logistic,  # noqa: F401
                         multivariate_normal, normal, truncated_normal, uniform)
from .continuous_extra import (cauchy, double_sided_maxwell, geometric,  # noqa: F401
                               key_dtype, lognormal, maxwell, orthogonal, pareto,
                               rademacher, rayleigh, triangular, wald, weibull_min)
from .counts import binomial, multinomial, poisson  # noqa: F401
from .discrete import bernoulli, categorical, choice, permutation, randint  # noqa: F401
from .gamma_family import (ball, beta, chisquare, dirichlet, f, gamma,  # noqa: F401
                           generalized_normal, loggamma, random_gamma_p, t)
from .keys import (PRNGKey, clone, fold_in, key, key_data, key_impl, split,  # noqa: F401
                   wrap_key_data)

__all__ = ["PRNGKey", "key", "key_data", "wrap_key_data", "key_impl", "split", "fold_in",
           "clone", "bits", "uniform", "normal", "truncated_normal", "exponential",
           "gumbel", "laplace", "logistic", "multivariate_normal", "randint", "bernoulli",
           "categorical", "choice", "permutation",
           "cauchy", "double_sided_maxwell", "geometric", "key_dtype", "lognormal",
           "maxwell", "orthogonal", "pareto", "rademacher", "rayleigh", "triangular",
           "wald", "weibull_min", "ball", "beta", "chisquare", "dirichlet", "f", "gamma",
           "generalized_normal", "loggamma", "random_gamma_p", "t", "binomial", "multinomial",
           "poisson"]

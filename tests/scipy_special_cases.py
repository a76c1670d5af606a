"""Inputs shared by ``tools/record_scipy_special.py`` (run under JAX) and the tests of
``lax.special`` and ``transpile.scipy.special``: grids with the edge cases (zeros,
negative values, poles, large values, infinities, NaN) of each function."""
from __future__ import annotations

import itertools

import numpy as np

INF, NAN = np.inf, np.nan

#: lax function -> operand grids (one list per operand; binary/ternary ones are crossed)
UNARY = {
    "lgamma": [-np.inf, -1e10, -3.5, -3.0, -2.5, -1.5, -1.0, -0.5, -1e-6, 0.0, 1e-30, 1e-6,
               0.1, 0.5, 0.9, 1.0, 1.4616, 1.5, 2.0, 2.5, 3.0, 7.5, 10.0, 33.3, 171.5, 1e5,
               1e20, np.inf, np.nan],
    "digamma": [-np.inf, -10.5, -3.0, -2.5, -1.5, -1.0, -0.5, -1e-6, 0.0, 1e-30, 1e-6, 0.1,
                0.5, 1.0, 1.4616321, 2.0, 2.5, 7.5, 9.9, 10.0, 33.3, 1e5, 1e20, np.inf,
                np.nan],
    "erfc": [-np.inf, -10.0, -3.0, -1.0, -0.5, 0.0, 1e-20, 0.3, 0.5, 0.8, 1.0, 2.0, 3.0,
             5.0, 9.0, 10.0, 26.0, 27.5, 30.0, np.inf, np.nan],
    "bessel_i0e": [-np.inf, -800.0, -31.0, -30.0, -5.0, -1.0, -1e-20, 0.0, 1e-20, 0.5, 1.0,
                   3.0, 7.9, 8.0, 15.0, 29.9, 30.1, 100.0, 1e4, 1e30, np.inf, np.nan],
    "bessel_i1e": [-np.inf, -800.0, -31.0, -30.0, -5.0, -1.0, -1e-20, 0.0, 1e-20, 0.5, 1.0,
                   3.0, 7.9, 8.0, 15.0, 29.9, 30.1, 100.0, 1e4, 1e30, np.inf, np.nan],
}
_A = [0.0, 1e-3, 0.5, 1.0, 2.5, 10.0, 150.0, -1.0, np.inf, np.nan]
_X = [0.0, 1e-3, 0.5, 1.0, 2.0, 9.0, 30.0, 160.0, -1.0, np.inf, np.nan]
BINARY = {
    "igamma": (_A, _X),
    "igammac": (_A, _X),
    "igamma_grad_a": ([1e-3, 0.5, 1.0, 2.5, 10.0, 150.0, 0.0, -1.0, np.nan],
                      [0.0, 1e-3, 0.5, 1.0, 2.0, 9.0, 30.0, 160.0, -1.0, np.nan]),
    "random_gamma_grad": ([1e-3, 0.5, 1.0, 2.5, 10.0, 150.0, 0.0, -1.0, np.nan],
                          [0.0, 1e-3, 0.5, 1.0, 2.0, 9.0, 30.0, 160.0, -1.0, np.nan]),
    "polygamma": ([0.0, 1.0, 2.0, 3.0, 5.0, 1.5, -1.0, np.nan],
                  [-2.5, -1.0, 0.0, 1e-3, 0.5, 1.0, 2.5, 10.0, 100.0, np.inf, np.nan]),
    "zeta": ([1.0, 1.5, 2.0, 3.0, 4.0, 10.0, 50.0, 0.5, -1.0, np.nan],
             [-2.5, -2.0, 0.0, 1e-3, 0.5, 1.0, 2.0, 10.0, 1e3, np.nan]),
}
TERNARY = {
    "betainc": ([0.0, 1e-3, 0.5, 1.0, 3.0, 40.0, -1.0, np.nan],
                [0.0, 0.5, 2.0, 7.0, 200.0, np.inf],
                [0.0, 1e-4, 0.1, 0.5, 0.9, 1.0, 1.5]),
}


def grid(name):
    """The operand columns of ``name``'s grid (crossed for several operands)."""
    if name in UNARY:
        return [np.array(UNARY[name])]
    cols = BINARY.get(name) or TERNARY[name]
    rows = list(itertools.product(*cols))
    return [np.array([r[i] for r in rows]) for i in range(len(cols))]


#: (lax function, float64 points) where JAX defines a derivative: each operand's
#: partial derivative is recorded (None: not differentiable in that operand)
GRAD_POINTS = {
    "lgamma": ([[-2.5], [0.3], [1.7], [12.0]], (0,)),
    "digamma": ([[-2.5], [0.3], [1.7], [12.0]], (0,)),
    "erfc": ([[-1.5], [0.2], [2.0]], (0,)),
    "bessel_i0e": ([[-2.0], [0.0], [0.7], [40.0]], (0,)),
    "bessel_i1e": ([[-2.0], [1e-20], [0.7], [40.0]], (0,)),
    "igamma": ([[0.5, 0.3], [2.5, 1.0], [3.0, 7.0], [20.0, 18.0]], (0, 1)),
    "igammac": ([[0.5, 0.3], [2.5, 1.0], [3.0, 7.0], [20.0, 18.0]], (0, 1)),
    "polygamma": ([[1.0, 0.5], [2.0, 3.0], [3.0, -1.5]], (1,)),
    "betainc": ([[0.5, 2.0, 0.3], [3.0, 4.0, 0.7], [10.0, 1.5, 0.9]], (2,)),
}

#: scipy.special calls: (name, args as Python values or (list, dtype) pairs, kwargs)
F32 = "float32"


def scipy_calls():
    x = ([-2.5, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5, 7.0, 40.0], F32)
    p = ([0.0, 1e-30, 1e-6, 0.02, 0.3, 0.5, 0.9, 0.999, 1.0], F32)
    pos = ([1e-3, 0.5, 1.0, 2.5, 8.0, 30.0, 1e3], F32)
    u = ([-0.5, 0.0, 0.25, 0.5, 1.0, 1.5], F32)
    return [
        ("gammaln", (x,), {}), ("gammaln", (2.5,), {}), ("gammaln", (3,), {}),
        ("gammasgn", (x,), {}), ("gamma", (x,), {}), ("gamma", (4.5,), {}),
        ("loggamma", (x,), {}), ("factorial", (x,), {}), ("factorial", (5,), {}),
        ("digamma", (x,), {}), ("polygamma", (2, x), {}),
        ("polygamma", (([0, 1, 2, 3, 1, 0, 2], "int32"), pos), {}),
        ("betaln", (pos, ([2.0, 0.5, 7.0, 8.0, 1e4, 3.0, 2e5], F32)), {}),
        ("betaln", (3.0, 200.0), {}), ("beta", (pos, 2.5), {}),
        ("beta", (([-2.5, -0.5, 0.5, 3.0], F32), 1.5), {}),
        ("betainc", (2.0, 3.0, u), {}), ("gammainc", (pos, 2.0), {}),
        ("gammaincc", (pos, 2.0), {}), ("gammainc", (1.5, 2), {}),
        ("multigammaln", (([2.5, 3.0, 10.0], F32), 3), {}), ("multigammaln", (4.0, 2), {}),
        ("poch", (pos, 2.5), {}), ("poch", (3.0, 0.0), {}),
        ("zeta", (([2.0, 3.0, 4.5], F32), ([1.0, 2.0, 0.5], F32)), {}),
        ("erf", (x,), {}), ("erfc", (x,), {}), ("erfinv", (u,), {}), ("erfc", (1.0,), {}),
        ("expit", (x,), {}), ("logit", (p,), {}), ("logit", (0.25,), {}),
        ("xlogy", (([0.0, 0.0, 1.0, 2.0, 3.0], F32), ([0.0, 2.0, 0.0, 3.0, NAN], F32)), {}),
        ("xlog1py", (([0.0, 0.0, 1.0, 2.0, 3.0], F32), ([-1.0, 2.0, -1.0, 3.0, NAN], F32)),
         {}),
        ("xlogy", (2, 3), {}), ("entr", (u,), {}),
        ("rel_entr", (u, ([0.5, 0.0, 0.5, 1.0, 0.0, 2.0], F32)), {}),
        ("kl_div", (u, ([0.5, 0.0, 0.5, 1.0, 0.0, 2.0], F32)), {}),
        ("i0", (x,), {}), ("i1", (x,), {}), ("i0e", (x,), {}), ("i1e", (x,), {}),
        ("ndtr", (x,), {}), ("log_ndtr", (([-40.0, -25.0, -12.0, -3.0, 0.0, 4.0, 9.0], F32),),
                             {}),
        ("log_ndtr", (([-12.0, -3.0, 0.5], F32),), {"series_order": 5}),
        ("ndtri", (p,), {}),
        ("logsumexp", (x,), {}), ("logsumexp", (x,), {"b": 0.5, "return_sign": True}),
        ("softmax", (x,), {}), ("log_softmax", (x,), {}),
        ("boxcox", (pos, 0.5), {}), ("boxcox", (pos, 0.0), {}),
        ("boxcox1p", (pos, -0.5), {}), ("boxcox1p", (pos, 0.0), {}),
        ("comb", (([5.0, 10.0, 3.0, -1.0, 4.0, 30.0], F32), ([2.0, 3.0, 5.0, 1.0, -1.0, 7.0], F32)),
         {}),
        ("comb", (([5.0, 10.0, 0.0], F32), ([2.0, 0.0, 3.0], F32)), {"repetition": True}),
        ("exp1", (([-1.0, 0.0, 1e-6, 0.3, 1.0, 1.01, 2.5, 30.0, 700.0, INF, NAN], F32),),
         {}),
        ("expi", (([-30.0, -1.5, -1e-6, 0.0, 1e-6, 0.3, 1.0, 12.0, 39.0, 41.0, 80.0, INF],
                   F32),), {}),
        ("exp1", (2.0,), {}), ("expi", (0.5,), {}),
        ("bernoulli", (2,), {}), ("bernoulli", (12,), {}), ("bernoulli", (21,), {}),
    ]


def make_arg(a, np_module, jnp_module):
    """A recorded argument description as an array (``(list, dtype)``) or Python value."""
    if isinstance(a, tuple):
        return jnp_module.asarray(np_module.array(a[0], a[1]))
    return a


def stats_calls():
    """(distribution, function, args, kwargs) of the jax.scipy.stats checks: every
    function of each distribution on a grid crossing its support's edges."""
    x = ([-3.0, -0.5, 0.0, 0.3, 1.0, 2.5, 40.0], F32)
    q = ([0.0, 1e-6, 0.1, 0.5, 0.9, 1.0, 1.5], F32)
    k = ([-1.0, 0.0, 1.0, 2.0, 2.5, 7.0], F32)
    u = ([-0.5, 0.0, 0.3, 0.5, 1.0, 1.2], F32)
    loc_scale = [((), {}), ((0.5, 2.0), {})]
    out = []
    for dist, fns, arg in (
            ("norm", ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"), x),
            ("norm", ("ppf", "isf"), q),
            ("expon", ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"), x),
            ("expon", ("ppf",), q),
            ("uniform", ("logpdf", "pdf", "cdf"), x), ("uniform", ("ppf",), q),
            ("laplace", ("logpdf", "pdf", "cdf"), x),
            ("logistic", ("logpdf", "pdf", "cdf", "sf"), x),
            ("logistic", ("ppf", "isf"), q),
            ("cauchy", ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"), x),
            ("cauchy", ("ppf", "isf"), q)):
        for fn in fns:
            for extra, kw in loc_scale:
                out.append((dist, fn, (arg, *extra), kw))
    for fn in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"):
        out.append(("gamma", fn, (x, 2.5), {}))
        out.append(("gamma", fn, (x, 0.7, -1.0, 2.0), {}))
        out.append(("chi2", fn, (x, 3.0), {}))
        out.append(("beta", fn, (u, 2.0, 3.0), {}))
        out.append(("beta", fn, (u, 0.5, 0.5, -0.2, 1.5), {}))
    for fn in ("logpdf", "pdf"):
        out.append(("t", fn, (x, 3.0), {}))
        out.append(("t", fn, (x, 1.5, 0.5, 2.0), {}))
    for fn in ("logpmf", "pmf", "cdf"):
        out.append(("poisson", fn, (k, 2.5), {}))
    out.append(("poisson", "logpmf", (k, 2.5, 1.0), {}))
    for fn in ("logpmf", "pmf"):
        out.append(("bernoulli", fn, (([-1.0, 0.0, 1.0, 2.0], F32), 0.3), {}))
    out.append(("bernoulli", "cdf", (u, 0.3), {}))
    out.append(("bernoulli", "ppf", (q, 0.3), {}))
    out.append(("norm", "logpdf", (1.5,), {}))           # weak scalars
    out.append(("gamma", "cdf", (1.5, 2), {}))
    mvn_x = ([[0.1, 0.2], [1.0, -1.0], [3.0, 0.5]], F32)
    out.append(("multivariate_normal", "logpdf",
                (mvn_x, ([0.5, -0.5], F32), ([[2.0, 0.5], [0.5, 1.0]], F32)), {}))
    out.append(("multivariate_normal", "pdf",
                (mvn_x, ([0.5, -0.5], F32), ([[2.0, 0.5], [0.5, 1.0]], F32)), {}))
    out.append(("multivariate_normal", "logpdf", (mvn_x, ([0.5, -0.5], F32), 1.5), {}))
    out.append(("multivariate_normal", "logpdf", (([0.3, 2.0], F32), 0.5, 2.0), {}))
    out.append(("dirichlet", "logpdf", (([0.2, 0.3, 0.5], F32), ([1.0, 2.0, 3.0], F32)), {}))
    out.append(("dirichlet", "pdf", (([[0.2, 0.6], [0.3, 0.3]], F32),
                                     ([1.5, 2.0, 3.0], F32)), {}))
    out.append(("dirichlet", "logpdf", (([0.2, 0.3, 0.6], F32), ([1.0, 2.0, 3.0], F32)), {}))
    return out

"""``transpile.scipy.stats`` against JAX 0.10.2's recorded answers
(``tests/data/scipy_special.json``, calls from ``scipy_special_cases.stats_calls``):
values (out-of-support points included), dtypes, weak types and shapes, eager and under
one ``jit``; a few densities and CDFs differentiated against finite differences."""
from __future__ import annotations

import functools

import numpy as np
import pytest

try:
    import jaxpr_cases
    import scipy_special_cases as cases
    from test_scipy_special import check_outs
except ImportError:  # collected as a package
    from tests import jaxpr_cases
    from tests import scipy_special_cases as cases
    from tests.test_scipy_special import check_outs

import transpile
import transpile as jax
import transpile.numpy as jnp
from transpile.scipy import stats

DATA = jaxpr_cases.load_data("scipy_special.json")["stats"]
CALLS = cases.stats_calls()
IDS = [f"{i}-{d}.{f}" for i, (d, f, _, _) in enumerate(CALLS)]

#: looser float32 bounds than test_scipy_special's default (2e-5), with reasons
RTOL = {
    # gamma/chi2/beta CDFs: JAX's float32 igamma/betainc (see test_lax_special.py)
    "gamma.cdf": 1e-4, "gamma.sf": 1e-4, "gamma.logcdf": 1e-4, "gamma.logsf": 1e-4,
    "chi2.cdf": 1e-4, "chi2.sf": 1e-4, "chi2.logcdf": 1e-4, "chi2.logsf": 1e-4,
    "beta.cdf": 1e-4, "beta.sf": 1e-4, "beta.logcdf": 1e-4, "beta.logsf": 1e-4,
    # ndtri: a different approximation (see test_scipy_special.py)
    "norm.ppf": 1e-4, "norm.isf": 1e-4,
    # beta's betaln for b >= 8 differs in method (test_scipy_special.py)
    "beta.logpdf": 1e-5, "beta.pdf": 1e-5,
}


def _fn(i):
    dist, fn, _, _ = CALLS[i]
    return getattr(getattr(stats, dist), fn)


def _args(i):
    return [cases.make_arg(a, np, jnp) for a in CALLS[i][2]]


@pytest.mark.parametrize("i", range(len(CALLS)), ids=IDS)
def test_eager(i):
    assert DATA[i]["name"] == f"{CALLS[i][0]}.{CALLS[i][1]}"
    check_outs(_fn(i)(*_args(i), **CALLS[i][3]), DATA[i], DATA[i]["name"], RTOL)


#: the calls checked under jit: the first of each function (their variants with loc and
#: scale run the same code; compiling them all took 20 s of gcc)
JIT_CALLS = sorted({f"{d}.{f}": i for i, (d, f, _, _) in reversed(list(enumerate(CALLS)))}
                   .values())


@functools.cache
def _jitted():
    """The ``JIT_CALLS`` in one compiled program: arrays are arguments, Python scalars
    closed-over constants."""
    arrays = [[a for a, d in zip(_args(i), CALLS[i][2], strict=True) if isinstance(d, tuple)]
              for i in JIT_CALLS]

    def run(all_arrays):
        outs = []
        for i, arrs in zip(JIT_CALLS, all_arrays, strict=True):
            it = iter(arrs)
            full = [next(it) if isinstance(d, tuple) else a
                    for a, d in zip(_args(i), CALLS[i][2], strict=True)]
            outs.append(_fn(i)(*full, **CALLS[i][3]))
        return outs
    return dict(zip(JIT_CALLS, jax.jit(run)(arrays), strict=True))


@pytest.mark.parametrize("i", JIT_CALLS, ids=[IDS[i] for i in JIT_CALLS])
def test_jit(i):
    check_outs(_jitted()[i], DATA[i], DATA[i]["name"], RTOL)


GRADS = [("norm", "logcdf", (-3.0,)), ("gamma", "logpdf", (1.5, 2.5)),
         ("gamma", "cdf", (1.5, 2.5)), ("beta", "cdf", (0.3, 2.0, 3.0)),
         ("t", "logpdf", (0.7, 3.0)), ("chi2", "sf", (2.0, 3.0)),
         ("logistic", "logpdf", (0.4,)), ("cauchy", "cdf", (0.4,))]


@pytest.mark.parametrize("dist, fn, point", GRADS, ids=[f"{d}.{f}" for d, f, _ in GRADS])
def test_grad_finite_differences(dist, fn, point):
    f = getattr(getattr(stats, dist), fn)
    with transpile.enable_x64(True):
        got = float(jax.grad(f)(*map(np.float64, point)))
        h = 1e-6 * max(1.0, abs(point[0]))
        rest = list(map(np.float64, point[1:]))
        fd = (float(f(np.float64(point[0] + h), *rest)) -
              float(f(np.float64(point[0] - h), *rest))) / (2 * h)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-9)


def test_errors():
    with pytest.raises(NotImplementedError, match="allow_singular"):
        stats.multivariate_normal.logpdf(np.zeros(2), np.zeros(2), np.eye(2),
                                         allow_singular=True)
    with pytest.raises(ValueError, match="incompatible shapes"):
        stats.multivariate_normal.logpdf(np.zeros(2), np.zeros(2), np.eye(3))
    with pytest.raises(ValueError, match="`alpha` must be one-dimensional"):
        stats.dirichlet.logpdf(np.full(2, 0.5), np.ones((2, 2)))
    with pytest.raises(ValueError, match="`x` must have either the same number"):
        stats.dirichlet.logpdf(np.full(4, 0.25), np.ones(2))

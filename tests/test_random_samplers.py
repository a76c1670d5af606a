"""The remaining ``jax.random`` samplers against JAX 0.10.2's recorded answers, and a
distribution check of each.

``tests/data/random_samplers.json`` (recorded by ``tools/record_random_samplers.py``
from the programs of ``random_sampler_cases.py``) holds JAX's eager and jitted outputs,
some jaxpr texts, and the errors JAX raised; they are replayed here as
``test_random_known_answers.py`` replays ``random.json`` (same comparison: shapes,
dtypes, weak types, values bit for bit unless the case allows ulps).

The distribution checks draw 10**4 samples per sampler and compare the sample mean
(within 5 standard errors) and variance (within 10%) with the distribution's own,
computed in float64 from closed forms.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

try:
    import jaxpr_cases
    import random_sampler_cases
    from test_random_known_answers import _call, _compare, _expect_error, _Mode
except ImportError:  # collected as a package
    from tests import jaxpr_cases, random_sampler_cases
    from tests.test_random_known_answers import _call, _compare, _expect_error, _Mode

import transpile as jax
import transpile.numpy as jnp
from transpile import lax, random

RECORDED = jaxpr_cases.load_data("random_samplers.json")["cases"]
PROGRAMS = random_sampler_cases.programs(jax, jnp, lax, np, random)
NAMES = list(RECORDED)
JIT_NAMES = [n for n in NAMES if "jit" in RECORDED[n] or "jit_error" in RECORDED[n]]
JAXPR_NAMES = [n for n in NAMES if "jaxpr" in RECORDED[n] or "jaxpr_error" in RECORDED[n]]


def _check(name: str, mode: str) -> None:
    rec, case = RECORDED[name], PROGRAMS[name]
    with _Mode(case):
        args = _call(case, case.args)
        fn = case.fn if mode == "eager" else jax.jit(case.fn)
        if f"{mode}_error" in rec:
            _expect_error(case, rec[f"{mode}_error"], lambda: fn(*args))
            return
        _compare(_call(case, lambda: fn(*args)), rec[mode], case, f"{name} ({mode})")


@pytest.mark.parametrize("name", NAMES)
def test_eager(name):
    _check(name, "eager")


@pytest.mark.parametrize("name", JIT_NAMES)
def test_jit(name):
    _check(name, "jit")


@pytest.mark.parametrize("name", JAXPR_NAMES)
def test_jaxpr(name):
    rec, case = RECORDED[name], PROGRAMS[name]
    with _Mode(case):
        args = case.args()
        text = str(jax.make_jaxpr(case.fn)(*args))
    assert text == rec["jaxpr"]


def test_recorded_data_matches_table():
    progs = random_sampler_cases.programs(None, None, None, np, None)
    assert list(progs) == NAMES, "re-run tools/record_random_samplers.py"
    for name, case in progs.items():
        rec = RECORDED[name]
        assert rec["x64"] == case.x64 and rec["tol_ulp"] == case.tol_ulp, name
        assert case.jaxpr == ("jaxpr" in rec or "jaxpr_error" in rec), name


def test_every_jax_sampler_is_provided():
    jax_names = {"ball", "beta", "binomial", "cauchy", "chisquare", "dirichlet",
                 "double_sided_maxwell", "f", "gamma", "generalized_normal", "geometric",
                 "key_dtype", "loggamma", "lognormal", "maxwell", "multinomial",
                 "orthogonal", "pareto", "poisson", "rademacher", "random_gamma_p",
                 "rayleigh", "t", "triangular", "wald", "weibull_min"}
    assert jax_names <= set(random.__all__)
    assert all(hasattr(random, n) for n in jax_names)


# ---------------------------------------------------------------------------------------
# Distribution checks: (sampler, mean, variance), 10**4 float32 draws each

N = 10_000
G = math.gamma


def _weibull(scale, k):
    m = scale * G(1 + 1 / k)
    return m, scale ** 2 * G(1 + 2 / k) - m * m


def _beta(a, b):
    return a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))


def _f(d1, d2):
    return d2 / (d2 - 2), 2 * d2 ** 2 * (d1 + d2 - 2) / (d1 * (d2 - 2) ** 2 * (d2 - 4))


MOMENTS = [
    ("pareto b=5", lambda k: random.pareto(k, 5.0, (N,)), 1.25, 5 / 48),
    ("rayleigh 1.5", lambda k: random.rayleigh(k, 1.5, (N,)),
     1.5 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 2.25),
    ("wald 1.5", lambda k: random.wald(k, 1.5, (N,)), 1.5, 1.5 ** 3),
    ("weibull_min", lambda k: random.weibull_min(k, 1.5, 2.0, (N,)), *_weibull(1.5, 2.0)),
    ("triangular", lambda k: random.triangular(k, 0., 0.3, 1., (N,)), 1.3 / 3,
     (1 + 0.09 - 0.3) / 18),
    ("lognormal 0.5", lambda k: random.lognormal(k, 0.5, (N,)), math.exp(0.125),
     (math.exp(0.25) - 1) * math.exp(0.25)),
    ("maxwell", lambda k: random.maxwell(k, (N,)), 2 * math.sqrt(2 / math.pi),
     (3 * math.pi - 8) / math.pi),
    ("double_sided_maxwell", lambda k: random.double_sided_maxwell(k, 0.5, 2.0, (N,)),
     0.5, 12.0),
    ("rademacher", lambda k: random.rademacher(k, (N,)), 0.0, 1.0),
    ("geometric 0.3", lambda k: random.geometric(k, 0.3, (N,)), 1 / 0.3, 0.7 / 0.09),
    ("gamma 0.5", lambda k: random.gamma(k, 0.5, (N,)), 0.5, 0.5),
    ("gamma 3", lambda k: random.gamma(k, 3.0, (N,)), 3.0, 3.0),
    ("exp(loggamma) 0.7", lambda k: jnp.exp(random.loggamma(k, 0.7, (N,))), 0.7, 0.7),
    ("beta 2 3", lambda k: random.beta(k, 2.0, 3.0, (N,)), *_beta(2.0, 3.0)),
    ("dirichlet[0] (1,2,3)", lambda k: random.dirichlet(k, jnp.array([1., 2., 3.]),
                                                        (N,))[:, 0], *_beta(1.0, 5.0)),
    ("chisquare 4", lambda k: random.chisquare(k, 4.0, (N,)), 4.0, 8.0),
    ("f 5 10", lambda k: random.f(k, 5.0, 10.0, (N,)), *_f(5.0, 10.0)),
    ("t 10", lambda k: random.t(k, 10.0, (N,)), 0.0, 1.25),
    ("generalized_normal 2", lambda k: random.generalized_normal(k, 2.0, (N,)), 0.0, 0.5),
    ("ball 3 squared radius", lambda k: jnp.sum(random.ball(k, 3, 2, (N,)) ** 2, -1),
     0.6, 3 / 7 - 0.36),  # E r^2 = d/(d+2), E r^4 = d/(d+4)
    ("binomial 30 0.4", lambda k: random.binomial(k, 30., 0.4, (N,)), 12.0, 7.2),
    ("binomial 200 0.3 (btrs)", lambda k: random.binomial(k, 200., 0.3, (N,)), 60.0, 42.0),
    ("multinomial[1] 20", lambda k: random.multinomial(
        k, 20., jnp.broadcast_to(jnp.array([0.2, 0.3, 0.5]), (N, 3)))[:, 1], 6.0, 4.2),
    ("poisson 3", lambda k: random.poisson(k, 3.0, (N,)), 3.0, 3.0),
    ("poisson 40", lambda k: random.poisson(k, 40.0, (N,)), 40.0, 40.0),
]


@pytest.mark.parametrize("name, draw, mean, var", MOMENTS, ids=[m[0] for m in MOMENTS])
def test_moments(name, draw, mean, var):
    x = np.asarray(draw(random.key(2024)), np.float64)
    assert x.shape == (N,)
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / N), (x.mean(), mean)
    assert abs(x.var() / var - 1) < 0.1, (x.var(), var)


def test_cauchy_quartiles():
    x = np.asarray(random.cauchy(random.key(3), (N,)))
    assert abs(np.mean(np.abs(x) < 1) - 0.5) < 5 * 0.005


def test_orthogonal_is_orthogonal():
    q = np.asarray(random.orthogonal(random.key(4), 5, (3,)), np.float64)
    assert q.shape == (3, 5, 5)
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(5), q.shape),
                               atol=1e-5)
    wide = np.asarray(random.orthogonal(random.key(5), 2, m=4), np.float64)
    np.testing.assert_allclose(wide @ wide.T, np.eye(2), atol=1e-5)


def test_random_gamma_p_batches_like_its_elements():
    """vmap of the primitive over keys gives, row by row, the unbatched draws."""
    keys = random.split(random.key(6), 3)
    a = jnp.array([0.3, 4.0])
    batched = np.asarray(jax.vmap(lambda k: random.gamma(k, a))(keys))
    rows = np.stack([np.asarray(random.gamma(keys[i], a)) for i in range(3)])
    assert np.array_equal(batched, rows)


@pytest.mark.parametrize("sampler,a", [("gamma", 2.5), ("gamma", 0.4), ("loggamma", 0.3),
                                       ("loggamma", 7.0)])
def test_gamma_draws_differentiate_in_a_as_the_implicit_derivative(sampler, a):
    # JAX's derivative of a gamma draw x in `a` is the implicit one, dx/da = -(dP/da) /
    # (dP/dx) with P(a, x) the regularized incomplete gamma function (not the pathwise
    # derivative of the rejection sampler): the reference takes dP/da by central
    # differences of igamma and dP/dx = x^(a-1) e^-x / Gamma(a), in float64.
    with jax.enable_x64():
        key = random.key(3)
        draw = lambda s: getattr(random, sampler)(key, s, (5,), dtype=jnp.float64)
        x = np.asarray(draw(a))
        if sampler == "loggamma":
            x = np.exp(x)
        eps = 1e-6
        dp_da = (np.asarray(lax.igamma(a + eps, x)) - np.asarray(lax.igamma(a - eps, x))) / (2 * eps)
        density = np.exp((a - 1) * np.log(x) - x - math.lgamma(a))
        dx_da = -dp_da / density
        want = np.sum(dx_da / x if sampler == "loggamma" else dx_da)
        total = lambda s: jnp.sum(draw(s))
        assert float(jax.grad(total)(a)) == pytest.approx(want, rel=1e-6)
        assert float(jax.jit(jax.grad(total))(a)) == pytest.approx(want, rel=1e-6)

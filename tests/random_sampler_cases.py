"""The remaining ``jax.random`` samplers (gamma family, counts, closed-form transforms),
run under both JAX 0.10.2 and transpile.

``programs(jax, jnp, lax, np, random)`` returns an ordered dict ``name -> Case`` (the
``Case`` of ``random_cases.py``: fn, args, x64, tol_ulp, jaxpr, jit, optional);
``tools/record_random_samplers.py`` records JAX's eager and jitted outputs (and jaxpr
text where ``jaxpr=True``), or its errors, into ``tests/data/random_samplers.json``, and
``tests/test_random_samplers.py`` replays them. Nothing here imports jax or transpile.

``tol_ulp`` is None (bit-exact) unless JAX itself gives other last bits for the same
program under another compilation (eager against jit: ``loggamma``, ``beta``,
``dirichlet``, ``f``, ``generalized_normal``), or the value goes through an XLA
reduction or factorisation transpile does not reproduce bit for bit (``maxwell``'s
norm, ``orthogonal``'s QR), or through float64 ``exp``/``pow`` (XLA's own polynomials).
Only one case per sampler also runs under ``jit`` (each jitted program is a C build).
"""
from __future__ import annotations

try:
    from random_cases import Case
except ImportError:  # collected as a package
    from tests.random_cases import Case

__all__ = ["programs"]

#: samplers whose last bits differ between JAX's own compilations of them
TOL_JAX = 4
#: norm (a float reduction) and QR (Householder) results
TOL_LINALG = 64
#: float64 exp/pow, which XLA computes with its own polynomials
TOL_F64 = 4


def programs(jax, jnp, lax, np, random) -> dict:
    """The known-answer programs, in recording order."""
    P = {}

    def add(name, fn, args=tuple, jit=False, **kw):
        # Each jitted program is a C build: only one case per sampler runs under jit
        # (eager calls compile the loops anyway).
        assert name not in P, name
        P[name] = Case(fn, args, jit=jit, **kw)

    def arr(values, dtype):
        return jnp.asarray(np.array(values, dtype=dtype))

    def raw(seed):
        return lambda: (random.PRNGKey(seed),)

    def typed(seed):
        return lambda: (random.key(seed),)

    def with_arr(seed, values, dtype=np.float32):
        return lambda: (random.PRNGKey(seed), arr(values, dtype))

    f64 = "float64"

    # ------------------------------------------------------------ closed-form samplers
    add("cauchy/(5,)", lambda k: random.cauchy(k, (5,)), raw(0), jaxpr=True, jit=True)
    add("cauchy/(3,2) f64", lambda k: random.cauchy(k, (3, 2), f64), typed(7), x64=True)
    add("pareto/2.0 (4,)", lambda k: random.pareto(k, 2.0, (4,)), raw(1), jaxpr=True, jit=True)
    add("pareto/array b", lambda k, b: random.pareto(k, b), with_arr(2, [0.5, 1., 3.]))
    add("pareto/f64", lambda k: random.pareto(k, 3.0, (4,), f64), raw(3), x64=True,
        tol_ulp=TOL_F64)
    add("rayleigh/1.5 (4,)", lambda k: random.rayleigh(k, 1.5, (4,)), raw(0), jaxpr=True, jit=True)
    add("rayleigh/array scale f64", lambda k, s: random.rayleigh(k, s),
        with_arr(4, [0.5, 2.0], np.float64), x64=True)
    add("wald/1.5 (4,)", lambda k: random.wald(k, 1.5, (4,)), raw(0), jit=True)
    add("wald/array mean", lambda k, m: random.wald(k, m), with_arr(5, [0.2, 1., 4.]))
    add("wald/f64", lambda k: random.wald(k, 2.0, (3,), f64), typed(6), x64=True)
    add("weibull_min/(4,)", lambda k: random.weibull_min(k, 1.5, 2.0, (4,)), raw(0), jit=True)
    add("weibull_min/f64", lambda k: random.weibull_min(k, 0.5, 0.7, (3,), f64), raw(8),
        x64=True)
    add("triangular/(5,)", lambda k: random.triangular(k, 0., 0.3, 1., (5,)), raw(0),
        jaxpr=True, jit=True)
    add("triangular/arrays", lambda k, m: random.triangular(k, -1., m, 2.),
        with_arr(9, [-0.5, 0., 1.5]))
    add("triangular/f64", lambda k: random.triangular(k, 0., 2., 3., (4,), f64), raw(10),
        x64=True)
    add("lognormal/(5,)", lambda k: random.lognormal(k, 0.5, (5,)), raw(0), jit=True)
    add("lognormal/default sigma f64", lambda k: random.lognormal(k, shape=(3,), dtype=f64),
        raw(11), x64=True)
    add("maxwell/(4,)", lambda k: random.maxwell(k, (4,)), raw(0), tol_ulp=TOL_LINALG, jit=True)
    add("maxwell/f64", lambda k: random.maxwell(k, (3,), f64), raw(12), x64=True,
        tol_ulp=TOL_LINALG)
    add("double_sided_maxwell/(3,)",
        lambda k: random.double_sided_maxwell(k, 0.5, 2.0, (3,)), raw(0), tol_ulp=TOL_LINALG, jit=True)
    add("double_sided_maxwell/array loc",
        lambda k, loc: random.double_sided_maxwell(k, loc, 1.0), with_arr(13, [0., 10.]),
        tol_ulp=TOL_LINALG)
    add("rademacher/(8,)", lambda k: random.rademacher(k, (8,)), raw(0), jaxpr=True, jit=True)
    add("rademacher/float32", lambda k: random.rademacher(k, (2, 3), jnp.float32), typed(1))
    add("rademacher/x64", lambda k: random.rademacher(k, (5,)), raw(2), x64=True)
    add("geometric/0.3 (6,)", lambda k: random.geometric(k, 0.3, (6,)), raw(0), jaxpr=True, jit=True)
    add("geometric/array p", lambda k, p: random.geometric(k, p),
        with_arr(14, [0.01, 0.5, 0.99]))
    add("geometric/x64 int16", lambda k: random.geometric(k, 0.2, (4,), jnp.int16), raw(15),
        x64=True)
    add("orthogonal/3", lambda k: random.orthogonal(k, 3), raw(0), tol_ulp=TOL_LINALG, jit=True)
    add("orthogonal/2x4 batch", lambda k: random.orthogonal(k, 2, (2,), m=4), raw(16),
        tol_ulp=TOL_LINALG)
    add("orthogonal/4x2 f64", lambda k: random.orthogonal(k, 4, (), f64, m=2), raw(17),
        x64=True, tol_ulp=TOL_LINALG)
    add("key_dtype/str", lambda: str(random.key_dtype()))

    # ----------------------------------------------------------------- gamma family
    add("gamma/array a", lambda k, a: random.gamma(k, a),
        with_arr(0, [0.3, 2.5, 0.01, 100.]), jaxpr=True, jit=True)
    add("gamma/0.5 (4,)", lambda k: random.gamma(k, 0.5, (4,)), typed(1))
    add("gamma/f64", lambda k, a: random.gamma(k, a, dtype=f64),
        with_arr(2, [0.2, 1.5, 30.], np.float64), x64=True, tol_ulp=TOL_F64)
    add("gamma/broadcast a (2,2)", lambda k, a: random.gamma(k, a, (2, 2)),
        with_arr(3, [0.7, 3.0]))
    add("loggamma/0.2 (4,)", lambda k: random.loggamma(k, 0.2, (4,)), raw(0),
        tol_ulp=TOL_JAX)
    add("loggamma/array f64", lambda k, a: random.loggamma(k, a, dtype=f64),
        with_arr(4, [1e-3, 0.5, 4.0], np.float64), x64=True, tol_ulp=TOL_JAX)
    add("beta/(4,)", lambda k: random.beta(k, 0.5, 2.0, (4,)), raw(0), tol_ulp=TOL_JAX, jit=True)
    add("beta/arrays", lambda k, a: random.beta(k, a, 3.0), with_arr(5, [0.1, 1., 10.]),
        tol_ulp=TOL_JAX)
    add("beta/f64", lambda k: random.beta(k, 2.0, 2.0, (3,), f64), raw(6), x64=True,
        tol_ulp=TOL_JAX)
    add("dirichlet/(3,)", lambda k, a: random.dirichlet(k, a),
        with_arr(0, [0.5, 1.0, 3.0]), tol_ulp=TOL_JAX)
    add("dirichlet/batch shape", lambda k, a: random.dirichlet(k, a, (2,)),
        with_arr(7, [[0.2, 2.0], [5.0, 1.0]]), tol_ulp=TOL_JAX)
    add("dirichlet/f64", lambda k, a: random.dirichlet(k, a, dtype=f64),
        with_arr(8, [1.0, 1.0, 1.0, 1.0], np.float64), x64=True, tol_ulp=TOL_JAX)
    add("chisquare/(4,)", lambda k: random.chisquare(k, 3.0, (4,)), raw(0), tol_ulp=TOL_JAX)
    add("chisquare/f64", lambda k, d: random.chisquare(k, d, dtype=f64),
        with_arr(9, [0.5, 8.0], np.float64), x64=True, tol_ulp=TOL_JAX)
    add("f/(4,)", lambda k: random.f(k, 3.0, 5.0, (4,)), raw(0), tol_ulp=TOL_JAX)
    add("f/f64", lambda k: random.f(k, 1.0, 10.0, (3,), f64), raw(10), x64=True,
        tol_ulp=TOL_JAX)
    add("t/(4,)", lambda k: random.t(k, 4.0, (4,)), raw(0), tol_ulp=TOL_JAX)
    add("t/array df f64", lambda k, d: random.t(k, d, dtype=f64),
        with_arr(11, [1.0, 30.0], np.float64), x64=True, tol_ulp=TOL_JAX)
    add("generalized_normal/1.5", lambda k: random.generalized_normal(k, 1.5, (4,)), raw(0),
        tol_ulp=TOL_JAX)
    add("generalized_normal/0.8 f64",
        lambda k: random.generalized_normal(k, 0.8, (3,), f64), raw(12), x64=True,
        tol_ulp=TOL_JAX)
    add("ball/d=3 p=2", lambda k: random.ball(k, 3, 2, (2,)), raw(0), tol_ulp=TOL_JAX)
    add("ball/d=2 p=1 f64", lambda k: random.ball(k, 2, 1, (3,), f64), raw(13), x64=True,
        tol_ulp=TOL_JAX)

    # ----------------------------------------------------------------------- counts
    add("binomial/arrays", lambda k, n, p: random.binomial(k, n, p),
        lambda: (random.PRNGKey(0), arr([3., 20., 100., 1000., 50.], np.float32),
                 arr([0.3, 0.5, 0.9, 0.2, 0.01], np.float32)))
    add("binomial/invalid", lambda k, n, p: random.binomial(k, n, p),
        lambda: (random.PRNGKey(2), arr([np.nan, -1., 5., np.inf, 7.5], np.float32),
                 arr([0.5, 0.5, np.nan, 0.3, 0.7], np.float32)))
    add("binomial/f64", lambda k: random.binomial(k, 500., 0.25, (3,), f64), raw(3),
        x64=True)
    add("multinomial/20", lambda k, p: random.multinomial(k, 20., p),
        with_arr(0, [0.2, 0.3, 0.5]), jit=True)
    add("multinomial/batched int32", lambda k, n, p: random.multinomial(
        k, n, p, dtype=jnp.int32),
        lambda: (random.PRNGKey(4), arr([5., 100.], np.float32),
                 arr([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], np.float32)))
    add("poisson/array lam", lambda k, lam: random.poisson(k, lam),
        with_arr(0, [0., 0.5, 3., 9.9, 10., 25., 100., 1e4]), jit=True)
    add("poisson/40 (16,)", lambda k: random.poisson(k, 40., (16,)), raw(5))
    add("poisson/2.5 (16,)", lambda k: random.poisson(k, 2.5, (16,)), typed(6))
    add("poisson/x64", lambda k: random.poisson(k, 12.0, (4,)), raw(7), x64=True)

    # complex draws recorded as their parts (the data format holds real numbers)
    def parts(z):
        return lax.real(z), lax.imag(z)
    add("normal/complex64", lambda k: parts(random.normal(k, (3, 2), jnp.complex64)),
        raw(8), jaxpr=True, jit=True)
    add("normal/complex128", lambda k: parts(random.normal(k, (4,), jnp.complex128)),
        typed(9), x64=True)

    # ------------------------------------------------------------ vmap over keys
    add("vmap/gamma", lambda k, a: jax.vmap(lambda kk: random.gamma(kk, a))(
        random.split(k, 3)), with_arr(0, [0.4, 2.0]), jit=True)
    add("vmap/gamma keys and a", lambda k, a: jax.vmap(random.gamma)(
        random.split(k, 2), a), with_arr(1, [0.4, 5.0]))
    add("vmap/cauchy", lambda k: jax.vmap(lambda kk: random.cauchy(kk, (2,)))(
        random.split(k, 3)), raw(2))
    add("vmap/poisson", lambda k: jax.vmap(lambda kk: random.poisson(kk, 4.0, (2,)))(
        random.split(k, 3)), raw(3))

    # ----------------------------------------------------------------------- errors
    add("error/gamma int dtype", lambda k: random.gamma(k, 1.0, (2,), jnp.int32), raw(0))
    add("error/loggamma int dtype", lambda k: random.loggamma(k, 1.0, (2,), jnp.int32),
        raw(0))
    add("error/cauchy int dtype", lambda k: random.cauchy(k, (2,), jnp.int32), raw(0))
    add("error/geometric float dtype",
        lambda k: random.geometric(k, 0.5, (2,), jnp.float32), raw(0))
    add("error/beta bad shape", lambda k: random.beta(k, jnp.ones(3), 1.0, (2,)), raw(0))
    add("error/dirichlet scalar alpha", lambda k: random.dirichlet(k, 1.0), raw(0))
    add("error/pareto float64 b for float32", lambda k, b: random.pareto(
        k, b, dtype=jnp.float32), with_arr(0, [1.0, 2.0], np.float64), x64=True)
    add("error/orthogonal float n", lambda k: random.orthogonal(k, 2.5), raw(0))
    add("error/poisson bad shape", lambda k: random.poisson(k, jnp.ones(3), (2,)), raw(0))
    return P

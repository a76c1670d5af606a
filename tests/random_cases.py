"""``jax.random`` programs run under both JAX 0.10.2 and transpile (see ``jaxpr_cases.py``).

``programs(jax, jnp, lax, np, random)`` returns an ordered dict ``name -> Case``;
``tools/record_random_data.py`` records, with JAX, each program's eager outputs, its
outputs under ``jit`` and (for a representative subset) its ``make_jaxpr`` text, or the
error each raises, into ``tests/data/random.json`` (large outputs in
``tests/data/random_large.npz``), and ``tests/test_random_known_answers.py`` replays
them against ``transpile.random``. Nothing here imports jax or transpile.

Case fields
-----------
fn : callable
    The program; called eagerly, under ``jit`` and (``jaxpr=True``) with ``make_jaxpr``.
args : callable
    ``args() -> tuple``: builds the arguments (keys included) with the library under
    test, inside the case's x64 mode.
x64 : bool
    ``jax_enable_x64`` while the arguments are built and the program runs.
tol_ulp : int or None
    None: outputs must be bit-exact. An int: float outputs that depend on XLA's
    ``log``/``log1p``/``erf_inv``/``tan`` approximations may differ by up to that many
    ulps, or by that many machine epsilons in absolute value (results near 0).
jaxpr : bool
    Whether ``make_jaxpr`` text is recorded and compared.
jit : bool
    Whether the program also runs under ``jit`` (False for ``repr``/``str`` programs,
    whose outputs are Python strings).
optional : str or None
    A dotted attribute of ``transpile`` (``"random.rademacher"``, ``"numpy.bfloat16"``)
    that the case needs. When it is missing, or the program raises
    ``NotImplementedError``, the test skips instead of failing (extras beyond the
    required surface: bfloat16, ``multivariate_normal`` methods other than
    ``'cholesky'``, a few cheap extra samplers).

Groups (name prefixes): ``key/``, ``split/``, ``fold_in/``, ``bits/``, ``uniform/``,
``normal/``, ``truncated_normal/``, ``bernoulli/``, ``categorical/``, ``randint/``,
``choice/``, ``permutation/``, ``gumbel/``, ``exponential/``, ``laplace/``,
``logistic/``, ``multivariate_normal/``, ``extra/``, ``error/``, ``repr/``.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

__all__ = ["Case", "programs", "normalise_error"]

try:
    from indexing_cases import normalise_error
except ImportError:  # collected as a package
    from tests.indexing_cases import normalise_error


class Case(NamedTuple):
    fn: Callable
    args: Callable = tuple
    x64: bool = False
    tol_ulp: Optional[int] = None
    jaxpr: bool = False
    jit: bool = True
    optional: Optional[str] = None


# ulp tolerances for samplers whose values go through XLA's transcendental
# approximations (JAX_BEHAVIOUR 8.4: normal differs by <= 3 ulp from a NumPy port,
# gumbel more, near 0). Integers, booleans and keys are always exact.
TOL_NORMAL = 4
TOL_TRUNC = 8
TOL_LOG = 8
TOL_MVN = 16


def programs(jax, jnp, lax, np, random) -> dict:
    """The known-answer programs, in recording order."""
    P = {}

    def add(name, fn, args=tuple, **kw):
        assert name not in P, name
        P[name] = Case(fn, args, **kw)

    def arr(values, dtype):
        """An array of exact values, built without any arithmetic of the library."""
        return jnp.asarray(np.array(values, dtype=dtype))

    def raw(seed):
        return lambda: (random.PRNGKey(seed),)

    def typed(seed):
        return lambda: (random.key(seed),)

    # ----------------------------------------------------------------------------- keys
    for seed in (0, 1234, -1, 2**32 + 5):
        for x64 in (False, True):
            add(f"key/PRNGKey({seed}){' x64' if x64 else ''}",
                lambda seed=seed: random.PRNGKey(seed), x64=x64)
            add(f"key/key({seed}){' x64' if x64 else ''}",
                lambda seed=seed: random.key(seed), x64=x64)
    add("key/PRNGKey(2**64) overflow", lambda: random.PRNGKey(2**64))
    add("key/PRNGKey traced", lambda s: random.PRNGKey(s), lambda: (1234,), jaxpr=True)
    add("key/PRNGKey traced x64", lambda s: random.PRNGKey(s), lambda: (1234,), x64=True,
        jaxpr=True)
    add("key/PRNGKey traced int32 -1", lambda s: random.PRNGKey(s),
        lambda: (arr(-1, np.int32),))
    add("key/key traced", lambda s: random.key(s), lambda: (42,))
    add("key/key_data", lambda k: random.key_data(k), typed(7), jaxpr=True)
    add("key/key_data raw", lambda k: random.key_data(k), raw(7))
    add("key/wrap_key_data", lambda d: random.wrap_key_data(d),
        lambda: (arr([1, 2], np.uint32),), jaxpr=True)
    add("key/wrap_key_data 2d", lambda d: random.wrap_key_data(d),
        lambda: (arr([[1, 2], [3, 4], [5, 6]], np.uint32),))
    add("key/key_data(wrap_key_data)", lambda d: random.key_data(random.wrap_key_data(d)),
        lambda: (arr([4294967295, 17], np.uint32),))
    add("key/clone typed", lambda k: random.clone(k), typed(3))
    add("key/clone raw", lambda k: random.clone(k), raw(3))
    add("key/typed vs raw normal", lambda k, r: (random.normal(k, (3,)), random.normal(r, (3,))),
        lambda: (random.key(5), random.PRNGKey(5)), tol_ulp=TOL_NORMAL)

    # ---------------------------------------------------------------------------- split
    add("split/raw", lambda k: random.split(k), raw(0), jaxpr=True)
    add("split/raw 1234", lambda k: random.split(k), raw(1234))
    add("split/raw 3", lambda k: random.split(k, 3), raw(0))
    add("split/raw 1", lambda k: random.split(k, 1), raw(1234))
    add("split/raw (2,3)", lambda k: random.split(k, (2, 3)), raw(1234))
    add("split/typed", lambda k: random.split(k), typed(0), jaxpr=True)
    add("split/typed (2,3)", lambda k: random.split(k, (2, 3)), typed(123))
    add("split/typed 5", lambda k: random.split(k, 5), typed(2**31 - 1))
    add("split/split of split raw", lambda k: random.split(random.split(k, 3)[1], 4), raw(42))
    add("split/split of split typed", lambda k: random.split(random.split(k)[0], (2, 2)),
        typed(42))
    add("split/unpack", lambda k: tuple(random.split(k)), typed(123))
    add("split/raw x64", lambda k: random.split(k, 3), raw(1234), x64=True)
    add("split/typed x64 seed -1", lambda k: random.split(k), typed(-1), x64=True)

    # -------------------------------------------------------------------------- fold_in
    for d in (0, 1, 42, 2**31, 2**32 - 1):
        add(f"fold_in/raw {d}", lambda k, d=d: random.fold_in(k, d), raw(1234))
    add("fold_in/typed 7", lambda k: random.fold_in(k, 7), typed(0))
    add("fold_in/traced uint32", lambda k, d: random.fold_in(k, d),
        lambda: (random.key(1), arr(3_000_000_000, np.uint32)), jaxpr=True)
    add("fold_in/traced int32", lambda k, d: random.fold_in(k, d),
        lambda: (random.PRNGKey(1), arr(-5, np.int32)))
    add("fold_in/chain", lambda k: random.fold_in(random.fold_in(k, 1), 2), raw(0))
    add("fold_in/split of fold_in", lambda k: random.split(random.fold_in(k, 9), 3), typed(0))
    add("fold_in/x64 uint64 data", lambda k, d: random.fold_in(k, d),
        lambda: (random.PRNGKey(1), arr(2**32 + 7, np.uint64)), x64=True)

    # ----------------------------------------------------------------------------- bits
    add("bits/()", lambda k: random.bits(k), raw(0))
    add("bits/(4,)", lambda k: random.bits(k, (4,)), raw(0), jaxpr=True)
    add("bits/(2,3)", lambda k: random.bits(k, (2, 3)), raw(0))
    add("bits/(7,) typed", lambda k: random.bits(k, (7,)), typed(1234))
    add("bits/uint8 (7,)", lambda k: random.bits(k, (7,), jnp.uint8), raw(0), jaxpr=True)
    add("bits/uint16 (2,3)", lambda k: random.bits(k, (2, 3), jnp.uint16), raw(0))
    add("bits/uint32 (64,64)", lambda k: random.bits(k, (64, 64), jnp.uint32), raw(99))
    add("bits/uint64 x64", lambda k: random.bits(k, (5,), jnp.uint64), raw(0), x64=True)
    add("bits/default x64", lambda k: random.bits(k, (3,)), raw(0), x64=True)

    # -------------------------------------------------------------------------- uniform
    add("uniform/()", lambda k: random.uniform(k), typed(0))
    add("uniform/(4,)", lambda k: random.uniform(k, (4,)), raw(0), jaxpr=True)
    add("uniform/(2,3) -2..5", lambda k: random.uniform(k, (2, 3), minval=-2.0, maxval=5.0),
        raw(1234), jaxpr=True)
    add("uniform/(1000,) -2..5", lambda k: random.uniform(k, (1000,), minval=-2.0, maxval=5.0),
        raw(7))
    add("uniform/array minval", lambda k, lo: random.uniform(k, (2, 3), minval=lo, maxval=10.0),
        lambda: (random.PRNGKey(0), arr([0.0, 1.0, 2.5], np.float32)))
    add("uniform/array min max shape",
        lambda k, lo, hi: random.uniform(k, (3,), minval=lo, maxval=hi),
        lambda: (random.PRNGKey(3), arr([-1.0, 0.0, 1.0], np.float32),
                 arr([1.0, 0.5, 4.0], np.float32)))
    add("uniform/float16 (5,)", lambda k: random.uniform(k, (5,), jnp.float16), raw(0))
    add("uniform/float16 -3..3", lambda k: random.uniform(k, (7,), jnp.float16, -3.0, 3.0),
        raw(0))
    add("uniform/bfloat16 (5,)", lambda k: random.uniform(k, (5,), jnp.bfloat16), raw(0),
        optional="numpy.bfloat16")
    add("uniform/float64 x64", lambda k: random.uniform(k, (4,), jnp.float64), raw(0),
        x64=True, jaxpr=True)
    add("uniform/default x64 -2..5", lambda k: random.uniform(k, (5,), minval=-2.0, maxval=5.0),
        raw(1234), x64=True)
    add("uniform/float32 under x64", lambda k: random.uniform(k, (4,), jnp.float32), raw(0),
        x64=True)

    # --------------------------------------------------------------------------- normal
    add("normal/()", lambda k: random.normal(k), raw(0), tol_ulp=TOL_NORMAL)
    add("normal/(5,) 1234", lambda k: random.normal(k, (5,)), raw(1234), tol_ulp=TOL_NORMAL,
        jaxpr=True)
    add("normal/(100,1000) 1234", lambda k: random.normal(k, (100, 1000)), raw(1234),
        tol_ulp=TOL_NORMAL)
    add("normal/(2,3) typed", lambda k: random.normal(k, (2, 3)), typed(0), tol_ulp=TOL_NORMAL)
    add("normal/(7,) float32", lambda k: random.normal(k, (7,), jnp.float32), raw(11),
        tol_ulp=TOL_NORMAL)
    add("normal/float16", lambda k: random.normal(k, (6,), jnp.float16), raw(0),
        tol_ulp=TOL_NORMAL)
    add("normal/bfloat16", lambda k: random.normal(k, (6,), jnp.bfloat16), raw(0),
        tol_ulp=TOL_NORMAL, optional="numpy.bfloat16")
    add("normal/float64 x64", lambda k: random.normal(k, (2, 3), jnp.float64), raw(1234),
        x64=True, tol_ulp=TOL_NORMAL)
    add("normal/default x64", lambda k: random.normal(k, (5,)), raw(1234), x64=True,
        tol_ulp=TOL_NORMAL)

    # ----------------------------------------------------------------- truncated_normal
    add("truncated_normal/-1..1 (5,)", lambda k: random.truncated_normal(k, -1.0, 1.0, (5,)),
        raw(0), tol_ulp=TOL_TRUNC, jaxpr=True)
    add("truncated_normal/0..2 (2,3)", lambda k: random.truncated_normal(k, 0.0, 2.0, (2, 3)),
        typed(1234), tol_ulp=TOL_TRUNC)
    add("truncated_normal/array lower", lambda k, lo: random.truncated_normal(k, lo, 2.0),
        lambda: (random.PRNGKey(5), arr([-3.0, -1.0, 0.5, 1.5], np.float32)),
        tol_ulp=TOL_TRUNC)
    add("truncated_normal/float64 x64",
        lambda k: random.truncated_normal(k, -2.0, 1.0, (4,), jnp.float64), raw(0), x64=True,
        tol_ulp=TOL_TRUNC)

    # ------------------------------------------------------------------------ bernoulli
    add("bernoulli/default (5,)", lambda k: random.bernoulli(k, 0.5, (5,)), raw(0), jaxpr=True)
    add("bernoulli/p=0.3 (2,3)", lambda k: random.bernoulli(k, 0.3, (2, 3)), raw(1234))
    add("bernoulli/()", lambda k: random.bernoulli(k), typed(0))
    add("bernoulli/array p", lambda k, p: random.bernoulli(k, p),
        lambda: (random.PRNGKey(0), arr([0.0, 0.25, 0.5, 0.75, 1.0], np.float32)))
    add("bernoulli/array p broadcast shape", lambda k, p: random.bernoulli(k, p, (2, 3)),
        lambda: (random.PRNGKey(2), arr([0.1, 0.5, 0.9], np.float32)))
    add("bernoulli/float64 p x64", lambda k, p: random.bernoulli(k, p, (4,)),
        lambda: (random.PRNGKey(0), arr(0.5, np.float64)), x64=True)

    # ---------------------------------------------------------------------- categorical
    logits9 = lambda: arr([-2.3025851] * 8 + [-1.609438], np.float32)  # ~log([.1]*8+[.2])
    add("categorical/1d", lambda k, l: random.categorical(k, l),
        lambda: (random.PRNGKey(0), logits9()), jaxpr=True)
    add("categorical/1d shape (10,)", lambda k, l: random.categorical(k, l, shape=(10,)),
        lambda: (random.split(random.key(123))[1], logits9()))
    add("categorical/arange shape (10,)", lambda k, l: random.categorical(k, l, shape=(10,)),
        lambda: (random.key(0), arr(np.arange(9), np.float32)))
    add("categorical/2d axis -1", lambda k, l: random.categorical(k, l),
        lambda: (random.PRNGKey(1), arr(np.arange(15).reshape(3, 5) * 0.25, np.float32)))
    add("categorical/2d axis 0", lambda k, l: random.categorical(k, l, axis=0),
        lambda: (random.PRNGKey(1), arr(np.arange(15).reshape(3, 5) * 0.25, np.float32)))
    add("categorical/2d shape (4,3)", lambda k, l: random.categorical(k, l, shape=(4, 3)),
        lambda: (random.PRNGKey(1), arr(np.arange(15).reshape(3, 5) * 0.25, np.float32)))
    add("categorical/-inf logits", lambda k, l: random.categorical(k, l, shape=(6,)),
        lambda: (random.PRNGKey(0), arr([0.0, -np.inf, 0.0, -np.inf], np.float32)))
    add("categorical/replace=False",
        lambda k, l: random.categorical(k, l, shape=(5,), replace=False),
        lambda: (random.PRNGKey(0), arr(np.arange(8) * 0.5, np.float32)), jaxpr=True)
    add("categorical/replace=False 2d",
        lambda k, l: random.categorical(k, l, shape=(2, 3), replace=False),
        lambda: (random.PRNGKey(8), arr(np.arange(15).reshape(3, 5) * 0.25, np.float32)))

    # -------------------------------------------------------------------------- randint
    add("randint/0..10 (5,)", lambda k: random.randint(k, (5,), 0, 10), raw(0), jaxpr=True)
    add("randint/0..100 1234", lambda k: random.randint(k, (5,), 0, 100), raw(1234))
    add("randint/-5..5 (2,3)", lambda k: random.randint(k, (2, 3), -5, 5), typed(7))
    add("randint/() 0..3", lambda k: random.randint(k, (), 0, 3), raw(1))
    add("randint/full int32", lambda k: random.randint(k, (8,), -2**31, 2**31 - 1), raw(0))
    add("randint/big span", lambda k: random.randint(k, (8,), -1_000_000_000, 2_000_000_000),
        raw(3))
    add("randint/maxval == minval", lambda k: random.randint(k, (4,), 5, 5), raw(0))
    add("randint/maxval < minval", lambda k: random.randint(k, (4,), 5, 3), raw(0))
    add("randint/int8", lambda k: random.randint(k, (9,), -100, 100, jnp.int8), raw(0))
    add("randint/int8 clipped range", lambda k: random.randint(k, (9,), -1000, 1000, jnp.int8),
        raw(0))
    add("randint/uint8 0..256", lambda k: random.randint(k, (9,), 0, 256, jnp.uint8), raw(0))
    add("randint/array bounds", lambda k, lo, hi: random.randint(k, (3,), lo, hi),
        lambda: (random.PRNGKey(2), arr([0, -10, 100], np.int32),
                 arr([5, 10, 1000], np.int32)))
    add("randint/(1000,) 0..7", lambda k: random.randint(k, (1000,), 0, 7), raw(5))
    add("randint/int64 x64", lambda k: random.randint(k, (6,), -2**40, 2**40, jnp.int64), raw(0),
        x64=True, jaxpr=True)
    add("randint/default x64", lambda k: random.randint(k, (6,), 0, 10), raw(0), x64=True)

    # --------------------------------------------------------------------------- choice
    add("choice/int ()", lambda k: random.choice(k, 5), raw(0), jaxpr=True)
    add("choice/int (3,)", lambda k: random.choice(k, 10, (3,)), raw(1234))
    add("choice/array (4,)", lambda k, a: random.choice(k, a, (4,)),
        lambda: (random.PRNGKey(0), arr([1.5, 2.5, 3.5, 4.5, 5.5], np.float32)))
    add("choice/no replace", lambda k: random.choice(k, 10, (5,), replace=False), raw(0),
        jaxpr=True)
    add("choice/no replace array (2,2)", lambda k, a: random.choice(k, a, (2, 2), replace=False),
        lambda: (random.key(3), arr(np.arange(6) * 10, np.int32)))
    add("choice/p", lambda k, p: random.choice(k, 4, (8,), p=p),
        lambda: (random.PRNGKey(0), arr([0.1, 0.2, 0.3, 0.4], np.float32)), jaxpr=True)
    add("choice/p no replace", lambda k, p: random.choice(k, 4, (3,), replace=False, p=p),
        lambda: (random.PRNGKey(0), arr([0.1, 0.2, 0.3, 0.4], np.float32)), jaxpr=True)
    add("choice/axis 1", lambda k, a: random.choice(k, a, (2,), axis=1),
        lambda: (random.PRNGKey(1), arr(np.arange(12).reshape(3, 4), np.float32)))
    add("choice/axis 1 no replace", lambda k, a: random.choice(k, a, (3,), replace=False, axis=1),
        lambda: (random.PRNGKey(1), arr(np.arange(12).reshape(3, 4), np.float32)))
    add("choice/all no replace", lambda k: random.choice(k, 6, (6,), replace=False), typed(9))

    # ---------------------------------------------------------------------- permutation
    add("permutation/int", lambda k: random.permutation(k, 10), raw(0), jaxpr=True)
    add("permutation/array", lambda k, x: random.permutation(k, x),
        lambda: (random.PRNGKey(1234), arr([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], np.float32)))
    add("permutation/2d axis 0", lambda k, x: random.permutation(k, x),
        lambda: (random.key(0), arr(np.arange(12).reshape(4, 3), np.int32)))
    add("permutation/2d axis 1", lambda k, x: random.permutation(k, x, axis=1),
        lambda: (random.key(0), arr(np.arange(12).reshape(3, 4), np.int32)))
    add("permutation/independent", lambda k, x: random.permutation(k, x, axis=1, independent=True),
        lambda: (random.PRNGKey(2), arr(np.arange(12).reshape(3, 4), np.int32)), jaxpr=True)
    add("permutation/int 100", lambda k: random.permutation(k, 100), raw(77))

    # ------------------------------------------------------- gumbel, exponential, ...
    add("gumbel/()", lambda k: random.gumbel(k), raw(0), tol_ulp=TOL_LOG)
    add("gumbel/(3,)", lambda k: random.gumbel(k, (3,)), raw(0), tol_ulp=TOL_LOG, jaxpr=True)
    add("gumbel/(50,20)", lambda k: random.gumbel(k, (50, 20)), raw(1), tol_ulp=TOL_LOG)
    add("gumbel/float64 x64", lambda k: random.gumbel(k, (2, 3), jnp.float64), raw(0),
        x64=True, tol_ulp=TOL_LOG)
    add("exponential/(5,)", lambda k: random.exponential(k, (5,)), raw(0), tol_ulp=TOL_LOG,
        jaxpr=True)
    add("exponential/(2,3) typed", lambda k: random.exponential(k, (2, 3)), typed(4),
        tol_ulp=TOL_LOG)
    add("exponential/float64 x64", lambda k: random.exponential(k, (4,), jnp.float64), raw(0),
        x64=True, tol_ulp=TOL_LOG)
    add("laplace/(5,)", lambda k: random.laplace(k, (5,)), raw(0), tol_ulp=TOL_LOG, jaxpr=True)
    add("laplace/(3,3)", lambda k: random.laplace(k, (3, 3)), raw(6), tol_ulp=TOL_LOG)
    add("laplace/float64 x64", lambda k: random.laplace(k, (4,), jnp.float64), raw(0),
        x64=True, tol_ulp=TOL_LOG)
    add("logistic/(5,)", lambda k: random.logistic(k, (5,)), raw(0), tol_ulp=TOL_LOG, jaxpr=True)
    add("logistic/(2,3)", lambda k: random.logistic(k, (2, 3)), typed(8), tol_ulp=TOL_LOG)
    add("logistic/float64 x64", lambda k: random.logistic(k, (4,), jnp.float64), raw(0),
        x64=True, tol_ulp=TOL_LOG)

    # -------------------------------------------------------------- multivariate_normal
    mean = lambda: arr([1.0, -1.0, 0.5], np.float32)
    cov = lambda: arr([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]], np.float32)
    add("multivariate_normal/3x3", lambda k, m, c: random.multivariate_normal(k, m, c),
        lambda: (random.PRNGKey(0), mean(), cov()), tol_ulp=TOL_MVN, jaxpr=True)
    add("multivariate_normal/3x3 shape (4,)",
        lambda k, m, c: random.multivariate_normal(k, m, c, (4,)),
        lambda: (random.PRNGKey(1234), mean(), cov()), tol_ulp=TOL_MVN)
    add("multivariate_normal/identity (2,5)",
        lambda k, m, c: random.multivariate_normal(k, m, c, (2, 5)),
        lambda: (random.key(1), arr([0.0, 0.0], np.float32), arr(np.eye(2), np.float32)),
        tol_ulp=TOL_MVN)
    add("multivariate_normal/eigh",
        lambda k, m, c: random.multivariate_normal(k, m, c, (3,), method="eigh"),
        lambda: (random.PRNGKey(0), mean(), cov()), tol_ulp=TOL_MVN,
        optional="random.multivariate_normal")
    add("multivariate_normal/svd",
        lambda k, m, c: random.multivariate_normal(k, m, c, (3,), method="svd"),
        lambda: (random.PRNGKey(0), mean(), cov()), tol_ulp=TOL_MVN,
        optional="random.multivariate_normal")

    # ------------------------------------------------------ optional extras (cheap ones)
    add("extra/rademacher", lambda k: random.rademacher(k, (8,)), raw(0),
        optional="random.rademacher")
    add("extra/cauchy", lambda k: random.cauchy(k, (5,)), raw(0), tol_ulp=TOL_LOG,
        optional="random.cauchy")
    add("extra/lognormal", lambda k: random.lognormal(k, 0.5, (5,)), raw(0), tol_ulp=TOL_LOG,
        optional="random.lognormal")

    # --------------------------------------------------------------------------- errors
    add("error/non-static shape under jit",
        lambda k, n: jax.jit(lambda k, n: random.normal(k, (n,)))(k, n),
        lambda: (random.PRNGKey(0), 3))
    add("error/shape from traced arg", lambda k, n: random.normal(k, (n,)),
        lambda: (random.PRNGKey(0), 3))
    add("error/raw key uint32[3]", lambda k: random.normal(k, (2,)),
        lambda: (arr([0, 0, 0], np.uint32),))
    add("error/raw key float32[2]", lambda k: random.normal(k, (2,)),
        lambda: (arr([0.0, 0.0], np.float32),))
    add("error/raw key int32[2]", lambda k: random.normal(k, (2,)),
        lambda: (arr([0, 0], np.int32),))
    add("error/split raw key uint32[3]", lambda k: random.split(k),
        lambda: (arr([0, 0, 0], np.uint32),))
    add("error/bernoulli int p", lambda k: random.bernoulli(k, 1, (3,)), raw(0))
    add("error/bernoulli int array p", lambda k, p: random.bernoulli(k, p),
        lambda: (random.PRNGKey(0), arr([0, 1], np.int32)))
    add("error/randint float dtype", lambda k: random.randint(k, (3,), 0, 10, jnp.float32), raw(0))
    add("error/uniform int dtype", lambda k: random.uniform(k, (3,), jnp.int32), raw(0))
    add("error/normal int dtype", lambda k: random.normal(k, (3,), jnp.int32), raw(0))
    add("error/bits float dtype", lambda k: random.bits(k, (3,), jnp.float32), raw(0))
    add("error/typed key + 1", lambda k: k + 1, typed(0))
    add("error/key(0) + 1", lambda: random.key(0) + 1)
    add("error/categorical bad axis", lambda k, l: random.categorical(k, l, axis=2),
        lambda: (random.PRNGKey(0), arr(np.zeros((3, 4)), np.float32)))
    add("error/categorical bad shape", lambda k, l: random.categorical(k, l, shape=(4,)),
        lambda: (random.PRNGKey(0), arr(np.zeros((3, 4)), np.float32)))
    add("error/fold_in -1", lambda k: random.fold_in(k, -1), raw(1234))
    add("error/randint maxval 2**40", lambda k: random.randint(k, (8,), 0, 2**40), raw(0))
    add("error/choice no replace too large",
        lambda k: random.choice(k, 5, (6,), replace=False), raw(0))
    add("error/choice empty", lambda k: random.choice(k, 0, (2,)), raw(0))
    add("error/permutation 0-d array", lambda k, x: random.permutation(k, x),
        lambda: (random.PRNGKey(0), arr(3.0, np.float32)))
    add("error/wrap_key_data bad shape", lambda d: random.wrap_key_data(d),
        lambda: (arr([1, 2, 3], np.uint32),))
    add("error/key_data of uint32[3]", lambda d: random.key_data(d),
        lambda: (arr([1, 2, 3], np.uint32),))

    # ---------------------------------------------------------------------------- reprs
    add("repr/repr key(0)", lambda: repr(random.key(0)), jit=False)
    add("repr/str key(0)", lambda: str(random.key(0)), jit=False)
    add("repr/repr split(key(0))", lambda: repr(random.split(random.key(0))), jit=False)
    add("repr/repr PRNGKey(0)", lambda: repr(random.PRNGKey(0)), jit=False)
    add("repr/repr PRNGKey(1234) split", lambda: repr(random.split(random.PRNGKey(1234))),
        jit=False)
    add("repr/str key(0).dtype", lambda: str(random.key(0).dtype), jit=False)
    add("repr/key shape ndim", lambda: repr((random.split(random.key(0), (2, 3)).shape,
                                             random.key(0).ndim)), jit=False)
    add("repr/str key_impl", lambda: str(random.key_impl(random.key(0))), jit=False)
    add("repr/key(0) == key(0)", lambda: random.key(0) == random.key(0))
    add("repr/key eq arrays", lambda a, b: a == b,
        lambda: (random.split(random.key(0), 3), random.split(random.key(0), 3)[::-1]))
    return P

"""``lax.linalg.triangular_solve`` against ``np.linalg.solve`` over its flags, dtypes and
batch shapes (eager, and compiled bit for bit against eager), and the derivatives of
``triangular_solve`` and ``cholesky``: recorded JAX 0.10.2 jaxprs and values
(``tests/data/linalg_ad.json``, from ``LINALG_AD`` of ``tests/linalg_cases.py``), central
finite differences in float64, and the transpose identity of the solve, which is linear
in its right-hand side. Nothing here imports jax.
"""
from __future__ import annotations

import itertools
import json
import pathlib

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.jit import make_jaxpr
from transpile.stages import compile_many

from linalg_cases import LINALG_AD
from linalg_checks import build, expected, same_bits, x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "linalg_ad.json").read_text())
ts = lax.linalg.triangular_solve
FLAGS = list(itertools.product([False, True], repeat=4))  # left, lower, transpose, unit
FLAG_IDS = ["".join(n for n, f in zip(("L", "lo", "T", "u"), fl) if f) or "none"
            for fl in FLAGS]


def _kw(flags):
    left, lower, tr, unit = flags
    return dict(left_side=left, lower=lower, transpose_a=tr, unit_diagonal=unit)


def _operands(flags, batch, m, n, dtype, seed):
    """A well-conditioned ``a`` (both triangles filled) and ``b`` of shape ``(m, n)``."""
    rng = np.random.default_rng(seed)
    size = m if flags[0] else n
    a = rng.standard_normal(batch + (size, size)) + 3 * np.eye(size)
    b = rng.standard_normal(batch + (m, n))
    return a.astype(dtype), b.astype(dtype)


def _reference(a, b, flags):
    """``x`` by ``np.linalg.solve`` in float64 on the explicit triangular matrix."""
    left, lower, tr, unit = flags
    t = np.tril(a) if lower else np.triu(a)
    t = t.astype(np.float64)
    size = t.shape[-1]
    if unit:
        t[..., np.arange(size), np.arange(size)] = 1
    if tr:
        t = np.swapaxes(t, -1, -2)
    b = b.astype(np.float64)
    if size == 0 or b.size == 0:
        return b.astype(a.dtype)
    if left:
        return np.linalg.solve(t, b).astype(a.dtype)
    sw = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
    return sw(np.linalg.solve(sw(t), sw(b))).astype(a.dtype)


SHAPES = [((), 4, 3), ((), 3, 5), ((2,), 5, 5), ((2, 3), 3, 1), ((), 1, 1), ((), 17, 9),
          ((2,), 0, 3), ((0,), 2, 2), ((3,), 2, 0)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("flags", FLAGS, ids=FLAG_IDS)
def test_values_against_numpy(flags, dtype):
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-11,
                                                                      atol=1e-11)
    with enable_x64(dtype == np.float64):
        for i, (batch, m, n) in enumerate(SHAPES):
            a, b = _operands(flags, batch, m, n, dtype, i)
            got = np.asarray(ts(a, b, **_kw(flags)))
            assert got.dtype == dtype and got.shape == b.shape
            np.testing.assert_allclose(got, _reference(a, b, flags), **tol)


def test_vectors_against_numpy():
    a, _ = _operands((True,) * 4, (2,), 4, 1, np.float32, 3)
    v = np.arange(8, dtype=np.float32).reshape(2, 4)
    for flags in FLAGS:
        got = np.asarray(ts(a, v, **_kw(flags)))
        b = v[..., :, None] if flags[0] else v[..., None, :]
        want = _reference(a, b, flags)
        np.testing.assert_allclose(got, want[..., 0] if flags[0] else want[..., 0, :],
                                   rtol=1e-5, atol=1e-5)


def test_compiled_matches_eager_bit_for_bit():
    with enable_x64(True):
        items = []
        for dtype in (np.float32, np.float64):
            for fi, flags in enumerate(FLAGS):
                for si, (batch, m, n) in enumerate(SHAPES):
                    a, b = _operands(flags, batch, m, n, dtype, 100 * fi + si)
                    kw = _kw(flags)
                    # the solve alone, and fed by a fused producer
                    for v, f in enumerate((lambda a, b, kw=kw: ts(a, b, **kw),
                                           lambda a, b, kw=kw: ts(a * 2, b - 1, **kw))):
                        name = f"ts_{np.dtype(dtype).name}_{fi}_{si}_{v}"
                        items.append((name, make_jaxpr(f)(a, b), (a, b)))
        exes = compile_many([(name, closed) for name, closed, _ in items])
        for (name, closed, args), exe in zip(items, exes, strict=True):
            (want,) = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *args)
            (got,) = exe(list(args))
            same_bits(got, want)


def test_zero_pivot_gives_infinities_in_both_paths():
    a = np.array([[0., 0], [1, 1]], np.float32)
    b = np.ones((2, 2), np.float32)
    f = lambda a, b: ts(a, b, left_side=True, lower=True)  # noqa: E731
    same_bits(transpile.jit(f)(a, b), f(a, b))
    assert np.isinf(np.asarray(f(a, b))).all()


def test_batch_size_mismatch_fails_when_run():
    a, b = np.ones((2, 3, 3), np.float32), np.ones((4, 3, 3), np.float32)
    assert make_jaxpr(ts)(a, b).jaxpr.outvars[0].aval.shape == (2, 3, 3)  # as JAX
    msg = "Batching dimension 0_0 corresponds to two sizes: 2 and 4"
    with pytest.raises(ValueError, match=msg):
        ts(a, b)
    with pytest.raises(ValueError, match=msg):
        transpile.jit(ts)(a, b)


def test_unsupported_dtypes():
    with pytest.raises(NotImplementedError, match="Unsupported dtype float16"):
        ts(np.eye(2, dtype=np.float16), np.ones((2, 2), np.float16))


def test_namespace():
    assert lax.linalg.triangular_solve_p.name == "triangular_solve"
    assert not hasattr(lax, "triangular_solve")  # lax.linalg only, as in JAX


# --- recorded from JAX 0.10.2 ---------------------------------------------------------

def test_ad_cases_were_recorded():
    assert set(DATA) == set(LINALG_AD)


@pytest.mark.parametrize("name", sorted(LINALG_AD))
def test_ad_jaxpr_text(name):
    fn, args, x64 = build(LINALG_AD, name)
    with x64_mode(x64):
        closed = make_jaxpr(fn)(*args)
    assert str(closed) == DATA[name]["jaxpr"]
    assert [v.aval.weak_type for v in closed.jaxpr.outvars] == DATA[name]["weak_types"]


@pytest.mark.parametrize("name", sorted(LINALG_AD))
def test_ad_values(name):
    fn, args, x64 = build(LINALG_AD, name)
    with x64_mode(x64):
        got = transpile.tree_util.tree_leaves(fn(*args))
    wants = DATA[name]["eager"]
    assert len(got) == len(wants)
    for g, w in zip(got, wants, strict=True):
        w = expected(w)
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        tol = 2e-5 if w.dtype == np.float32 else 1e-10
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(LINALG_AD))
def test_ad_compiled_matches_eager(name):
    fn, args, x64 = build(LINALG_AD, name)
    with x64_mode(x64):
        got = transpile.tree_util.tree_leaves(transpile.jit(fn)(*args))
        want = transpile.tree_util.tree_leaves(fn(*args))
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


# --- finite differences (float64) -----------------------------------------------------

def _spd(batch, n, seed):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal(batch + (n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


def _sym(batch, n, seed):
    t = np.random.default_rng(seed).standard_normal(batch + (n, n))
    return (t + np.swapaxes(t, -1, -2)) / 2


def _central(f, x, t, eps=1e-6):
    return (np.asarray(f(x + eps * t)) - np.asarray(f(x - eps * t))) / (2 * eps)


CHOL_SHAPES = [((), 1), ((), 3), ((), 6), ((2,), 4), ((2, 2), 3)]


@pytest.mark.parametrize("batch,n", CHOL_SHAPES)
def test_cholesky_jvp_vjp_finite_differences(batch, n):
    with enable_x64(True):
        x, t = _spd(batch, n, n), _sym(batch, n, n + 1)
        ct = np.random.default_rng(7).standard_normal(batch + (n, n))
        for f in (lax.linalg.cholesky, lambda a: jnp.linalg.cholesky(a, upper=True),
                  lambda a: lax.linalg.cholesky(a, symmetrize_input=False)):
            primal, tangent = transpile.jvp(f, (x,), (t,))
            np.testing.assert_allclose(np.asarray(primal), np.asarray(f(x)), rtol=0, atol=0)
            fd = _central(f, x, t)
            np.testing.assert_allclose(np.asarray(tangent), fd, rtol=1e-6, atol=1e-7)
            _, pullback = transpile.vjp(f, x)
            (x_bar,) = pullback(ct)
            # <ct, J t> = <J^T ct, t> for every symmetric perturbation t
            np.testing.assert_allclose(np.sum(np.asarray(x_bar) * t), np.sum(ct * fd),
                                       rtol=1e-6, atol=1e-7)


def test_cholesky_grad_compiled():
    with enable_x64(True):
        x = _spd((), 5, 0)
        g = lambda a: transpile.grad(lambda a: jnp.sum(jnp.linalg.cholesky(a) ** 3))(a)  # noqa: E731
        np.testing.assert_allclose(np.asarray(transpile.jit(g)(x)), np.asarray(g(x)),
                                   rtol=1e-12, atol=1e-12)
        t = _sym((), 5, 1)
        fd = _central(lambda a: jnp.sum(jnp.linalg.cholesky(a) ** 3), x, t)
        np.testing.assert_allclose(np.sum(np.asarray(g(x)) * t), fd, rtol=1e-6)


@pytest.mark.parametrize("flags", FLAGS, ids=FLAG_IDS)
@pytest.mark.parametrize("batch,m,n", [((), 3, 2), ((), 2, 4), ((2,), 3, 3)])
def test_triangular_solve_jvp_finite_differences(flags, batch, m, n):
    kw = _kw(flags)
    with enable_x64(True):
        a, b = _operands(flags, batch, m, n, np.float64, 5)
        da, db = _operands(flags, batch, m, n, np.float64, 6)
        f = lambda a, b: ts(a, b, **kw)  # noqa: E731
        _, tangent = transpile.jvp(f, (a, b), (da, db))
        eps = 1e-6
        fd = (np.asarray(f(a + eps * da, b + eps * db))
              - np.asarray(f(a - eps * da, b - eps * db))) / (2 * eps)
        np.testing.assert_allclose(np.asarray(tangent), fd, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("flags", FLAGS, ids=FLAG_IDS)
def test_triangular_solve_transpose_identity(flags):
    """<ct, solve(a, t)> == <solve^T(a, ct), t>: the pullback for b is the transposed
    solve, for both operands' cotangents."""
    kw = _kw(flags)
    with enable_x64(True):
        a, t = _operands(flags, (2,), 3, 4, np.float64, 8)
        ct = np.random.default_rng(9).standard_normal(t.shape)
        y, pullback = transpile.vjp(lambda b: ts(a, b, **kw), t)
        (t_bar,) = pullback(ct)
        np.testing.assert_allclose(np.sum(ct * np.asarray(y)),
                                   np.sum(np.asarray(t_bar) * t), rtol=1e-12)
        flipped = dict(kw, transpose_a=not kw["transpose_a"])
        np.testing.assert_allclose(np.asarray(t_bar), np.asarray(ts(a, ct, **flipped)),
                                   rtol=0, atol=0)
        # and the pullback for a agrees with a directional finite difference
        da, _ = _operands(flags, (2,), 3, 4, np.float64, 10)
        _, pull_a = transpile.vjp(lambda a: ts(a, t, **kw), a)
        (a_bar,) = pull_a(ct)
        fd = _central(lambda a: ts(a, t, **kw), a, da)
        np.testing.assert_allclose(np.sum(np.asarray(a_bar) * da), np.sum(ct * fd),
                                   rtol=1e-6, atol=1e-7)


def test_multivariate_normal_grad():
    with enable_x64(True):
        key = transpile.random.key(3)
        mean, cov = np.array([1., -1., .5]), _spd((), 3, 4)

        def f(m, c):
            return jnp.sum(jnp.sin(transpile.random.multivariate_normal(key, m, c, (5,))))
        gm, gc = transpile.grad(f, argnums=(0, 1))(mean, cov)
        tm, tc = np.array([.3, -.2, 1.]), _sym((), 3, 5)
        eps = 1e-6
        fd = (f(mean + eps * tm, cov + eps * tc) - f(mean - eps * tm, cov - eps * tc)) / (2 * eps)
        np.testing.assert_allclose(np.sum(np.asarray(gm) * tm) + np.sum(np.asarray(gc) * tc),
                                   float(fd), rtol=1e-6)
        _, jv = transpile.jvp(f, (mean, cov), (tm, tc))
        np.testing.assert_allclose(float(jv), float(fd), rtol=1e-6)

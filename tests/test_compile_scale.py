"""Compiling big programs: no recursion proportional to the program, generated code that
grows linearly with it, and fusion that never recomputes a value's past per use."""
import sys

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.backend import split
from transpile.codegen.plan import plan_program
from transpile.passes import optimize

X = np.random.RandomState(0).randn(16, 16).astype(np.float32)


def _sin_chain(n):
    def f(x):
        for _ in range(n):
            x = jnp.sin(x) * 1.01 + 1.0
        return x
    return f


def _reversal_chain(n):
    def f(x):
        for i in range(n):
            x = jnp.sin(x) * 1.01 + x[::-1] * 0.5 + i
        return x
    return f


def _row_mean_chain(n):
    def f(x):
        for _ in range(n):
            x = x - jnp.mean(x, -1, keepdims=True) * 0.5 + jnp.tanh(x)
        return x
    return f


def _source_size(f, x=X) -> int:
    return len(jax.jit(f).lower(x).as_text())


def test_ten_thousand_equations_compile_at_the_default_recursion_limit():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        def f(x):
            for _ in range(5000):  # two equations a step: rev, add
                x = x[::-1] + 1.0
            return x
        x = np.arange(64, dtype=np.float32).reshape(8, 8)
        assert len(jax.make_jaxpr(f)(x).jaxpr.eqns) == 10000
        got = np.asarray(jax.jit(f)(x))
    finally:
        sys.setrecursionlimit(limit)
    want = x.copy()
    for _ in range(5000):
        want = want[::-1] + np.float32(1.0)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("family, n", [(_sin_chain, 200), (_reversal_chain, 40),
                                       (_row_mean_chain, 40)])
def test_generated_code_grows_linearly(family, n):
    small, big = _source_size(family(n)), _source_size(family(2 * n))
    assert big / small < 2.3, (small, big)


def test_reversal_chain_matches_numpy():
    n = 12
    got = np.asarray(jax.jit(_reversal_chain(n))(X))
    want = X.astype(np.float64)
    for i in range(n):
        want = np.sin(want) * 1.01 + want[::-1] * 0.5 + i
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_row_mean_chain_matches_numpy():
    n = 20
    got = np.asarray(jax.jit(_row_mean_chain(n))(X))
    want = X.astype(np.float64)
    for _ in range(n):
        want = want - want.mean(-1, keepdims=True) * 0.5 + np.tanh(want)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def _kernels(f, x=X):
    return plan_program(optimize(jax.make_jaxpr(f)(x)), "f").kernels


def test_value_read_at_two_indices_is_stored_when_expensive():
    # sin(x) read at i and at 15 - i: computing it twice per element costs more than a
    # store and a load, so it gets a buffer of its own.
    assert len(_kernels(lambda x: jnp.sin(x) + jnp.sin(x)[::-1])) == 2


def test_cheap_value_read_at_two_indices_stays_fused():
    assert len(_kernels(lambda x: (x * 2.0) + (x * 2.0)[::-1])) == 1


def test_value_read_at_one_index_through_a_reversal_stays_fused():
    assert len(_kernels(lambda x: jnp.sin(x)[::-1] * 2.0)) == 1


def test_reversal_chain_kernels_grow_linearly():
    # Each step's value is read at two indices by the next: one kernel per step.
    assert len(_kernels(_reversal_chain(30))) <= 31


def test_split_build_gives_the_whole_build_bits(tmp_path, monkeypatch):
    # 40 steps: row-fused kernels take 4 steps each, and three parts need kernels to share
    f = _row_mean_chain(40)
    whole = np.asarray(jax.jit(f)(X))
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(split, "parts_for", lambda source: 3)
    codes = []
    real = split.compile_parts

    def recorded(*args):
        out = real(*args)
        codes.append(out[0])
        return out
    monkeypatch.setattr(split, "compile_parts", recorded)
    units = split.split_source(jax.jit(f).lower(X).as_text(), 3)
    assert units is not None and len(units) == 3
    assert all("static void" not in u for u in units)
    parts = np.asarray(jax.jit(_row_mean_chain(40))(X))  # a new function: compiled
    assert codes == [0]  # built in parts, not rebuilt whole
    assert parts.tobytes() == whole.tobytes()


def test_split_refuses_an_unexpected_shape():
    assert split.split_source("int f(void) { return 0; }\n", 3) is None


@pytest.mark.parametrize("chars,cores,parts", [(5_000, 2, 1), (30_000, 1, 1), (30_000, 2, 2),
                                               (30_000, 16, 2), (500_000, 4, 4),
                                               (5_000_000, 64, 8)])
def test_parts_follow_source_size_and_usable_cores(monkeypatch, chars, cores, parts):
    # A part must be worth its process and its second reading of the headers
    # (split.PART_CHARS), and no more parts than cores this process may run on.
    monkeypatch.setattr(split.os, "sched_getaffinity", lambda pid: set(range(cores)))
    assert split.parts_for("x" * chars) == parts

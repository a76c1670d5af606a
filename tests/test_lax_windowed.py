"""Windowed reductions, pooling and its derivatives, ``lax.reduce``,
``associative_scan`` and ``cumlogsumexp`` against JAX 0.10.2's recorded answers
(``tests/data/windowed.json``, ``tools/record_windowed.py``): values, dtypes, weak types
and jaxpr text, eagerly and under ``jit`` (the C pooling kernels); and pooling
against a direct NumPy loop in float64."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64
from transpile.lax import windowed as win
from windowed_cases import CASES, ERRORS, HELPERS
from windowed_checks import DATA, ENV, check_case, check_error


@pytest.mark.parametrize("name, src, inputs, want_jaxpr", CASES, ids=[c[0] for c in CASES])
def test_known_answers(name, src, inputs, want_jaxpr):
    check_case(name, src, inputs, want_jaxpr)


@pytest.mark.parametrize("name, src", HELPERS, ids=[h[0] for h in HELPERS])
def test_helpers(name, src):
    want = DATA["helpers"][name]
    if isinstance(want, dict):
        with pytest.raises(getattr(__builtins__, want["error"], None) or Exception) as e:
            eval(src, ENV)  # noqa: S307
        assert type(e.value).__name__ == want["error"]
        assert str(e.value) == want["message"]
    else:
        got = eval(src, ENV)  # noqa: S307
        assert [list(t) if isinstance(t, tuple) else t for t in got] == want


@pytest.mark.parametrize("name, src, inputs", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name, src, inputs):
    check_error(name, src, inputs)


def _pool_reference(x, window, strides, pads, op):
    """Max/sum pooling by a direct loop over output positions, in float64."""
    x = np.asarray(x, np.float64)
    fill = -np.inf if op == "max" else 0.0
    xp = np.pad(x, pads, constant_values=fill)
    out_shape = [(n - w) // s + 1 for n, w, s in zip(xp.shape, window, strides)]
    out = np.empty(out_shape)
    for o in itertools.product(*map(range, out_shape)):
        sl = tuple(slice(i * s, i * s + w) for i, s, w in zip(o, strides, window))
        out[o] = xp[sl].max() if op == "max" else xp[sl].sum()
    return out


@pytest.mark.parametrize("op", ["max", "sum"])
def test_pooling_against_loop(op):
    x = np.random.RandomState(3).randn(2, 7, 5, 3)
    window, strides, pads = (1, 3, 2, 1), (1, 2, 1, 1), ((0, 0), (1, 1), (0, 1), (0, 0))
    init, comp = (-np.inf, lax.max) if op == "max" else (0.0, lax.add)

    def f(x):
        return lax.reduce_window(x, init, comp, window, strides, pads)

    want = _pool_reference(x, window, strides, pads, op)
    with enable_x64(True):
        xx = jnp.asarray(x)
        np.testing.assert_allclose(np.asarray(f(xx)), want, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(jax.jit(f)(xx)), want, rtol=1e-12)


def test_parallel_pooling_kernels_match_numpy_rules():
    """Pooling big enough for the threaded kernels (one item per output, or per slab of
    batch and channels for the gradient) gives the NumPy rules' results, ties and all."""
    x = np.random.RandomState(5).randint(0, 4, (4, 30, 30, 8)).astype(np.float32)
    params = dict(window_dimensions=(1, 3, 3, 1), window_strides=(1, 2, 2, 1),
                  padding=((0, 0), (1, 1), (1, 1), (0, 0)))
    ones = (1, 1, 1, 1)
    g = np.random.RandomState(6).randn(4, 15, 15, 8).astype(np.float32)

    def f(x, g):
        pooled = lax.reduce_window(x, -jnp.inf, lax.max, params["window_dimensions"],
                                   params["window_strides"], params["padding"])
        back = win.select_and_scatter_add_p.bind(g, x, select_prim=lax.ge_p, **params)
        return pooled, back

    pooled, back = jax.jit(f)(x, g)
    want_pooled = win.reduce_window_max_p.impl(x, base_dilation=ones,
                                               window_dilation=ones, **params)
    want_back = win.select_and_scatter_add_p.impl(g, x, select_prim=lax.ge_p, **params)
    np.testing.assert_array_equal(np.asarray(pooled), want_pooled)
    np.testing.assert_allclose(np.asarray(back), want_back, rtol=1e-6, atol=1e-6)

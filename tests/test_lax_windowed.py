"""Windowed reductions, pooling and its derivatives, ``lax.reduce``,
``associative_scan`` and ``cumlogsumexp`` against JAX 0.10.2's recorded answers
(``tests/data/windowed.json``, ``tools/record_windowed.py``): values, dtypes, weak types
and jaxpr text, eagerly and under ``jit`` (the C pooling kernels); and pooling
against a direct NumPy loop in float64."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64
from transpile.example_libraries import stax
from windowed_cases import CASES, ERRORS, HELPERS, make_input

DATA = json.loads((Path(__file__).parent / "data" / "windowed.json").read_text())
ENV = {"jax": jax, "jnp": jnp, "lax": lax, "np": np, "stax": stax}
TOL = {"float16": 2e-3, "float32": 2e-5, "float64": 1e-12}


def _values(leaf) -> np.ndarray:
    vals = np.array(leaf["values"], dtype=object)
    return np.array([float(v) if isinstance(v, str) else v for v in vals.ravel()],
                    dtype=np.float64).reshape(leaf["shape"])


def _check(out, recorded, name):
    leaves = jax.tree_util.tree_leaves(out)
    assert len(leaves) == len(recorded), name
    for got, want in zip(leaves, recorded):
        assert list(got.shape) == want["shape"], name
        assert str(got.dtype) == want["dtype"], name
        assert bool(got.weak_type) == want["weak_type"], name
        tol = TOL.get(want["dtype"], 0)
        np.testing.assert_allclose(np.asarray(got, np.float64), _values(want),
                                   rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("name, src, inputs, want_jaxpr", CASES, ids=[c[0] for c in CASES])
def test_known_answers(name, src, inputs, want_jaxpr):
    fn = eval(src, ENV)  # noqa: S307 - sources from the case table
    args = [jnp.asarray(make_input(i)) for i in inputs]
    rec = DATA["cases"][name]
    _check(fn(*args), rec["value"], name)
    _check(jax.jit(fn)(*args), rec["value"], name + " (jit)")
    if want_jaxpr:
        assert str(jax.make_jaxpr(fn)(*args)) == rec["jaxpr"]


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
    want = DATA["errors"][name]
    fn = eval(src, ENV)  # noqa: S307
    with pytest.raises(Exception) as e:
        fn(*[jnp.asarray(make_input(i)) for i in inputs])
    assert type(e.value).__name__ == want["error"]
    assert str(e.value) == want["message"]


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

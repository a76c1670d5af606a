"""``lax.linalg.cholesky`` and ``jnp.linalg.cholesky``: jaxpr text, weak types, values
and errors recorded from JAX 0.10.2 (``tests/data/linalg.json``, written by
``tools/record_linalg_data.py`` from the cases of ``tests/linalg_cases.py``), values
against ``np.linalg.cholesky`` over dtypes and shapes, and the compiled kernel against
the eager (NumPy) rule, bit for bit.

JAX 0.10.2 on CPU: a matrix with a non-positive pivot comes back all NaN (zeros above
the diagonal, from the mask); a NaN pivot just propagates; the primitive itself leaves
the upper triangle of its operand in place. Nothing here imports jax.
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.jit import make_jaxpr
from transpile.stages import compile_many

from linalg_cases import LINALG
from linalg_checks import build, check_error, expected, same_bits, x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "linalg.json").read_text())


def _build(name):
    return build(LINALG, name)


_x64 = x64_mode


def _names(key, errors=False):
    return [n for n, rec in DATA.items()
            if key in rec and ("error" in rec[key] if errors else "error" not in rec[key])]




def close(got, want):
    """Equal NaN positions and signs of zeros' absence aside, values within rounding."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    tol = 1e-5 if got.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


# --- recorded from JAX 0.10.2 ---------------------------------------------------------

def test_cases_were_recorded():
    assert set(DATA) == set(LINALG)


@pytest.mark.parametrize("name", _names("jaxpr"))
def test_jaxpr_text(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        closed = make_jaxpr(fn)(*args)
    assert str(closed) == DATA[name]["jaxpr"]
    assert [v.aval.weak_type for v in closed.jaxpr.outvars] == DATA[name]["weak_types"]


@pytest.mark.parametrize("name", _names("trace", errors=True))
def test_trace_errors(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        check_error(lambda: make_jaxpr(fn)(*args), DATA[name]["trace"])


@pytest.mark.parametrize("name", _names("eager", errors=True))
def test_eager_errors(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        check_error(lambda: fn(*args), DATA[name]["eager"])


@pytest.mark.parametrize("name", _names("eager"))
def test_eager_values(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        got = fn(*args)
    (want,) = DATA[name]["eager"]
    close(got, expected(want))


@pytest.mark.parametrize("name", [n for n in _names("eager") if n in _names("jaxpr")])
def test_compiled_matches_eager(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        same_bits(transpile.jit(fn)(*args), fn(*args))


# --- against np.linalg.cholesky -------------------------------------------------------

def spd(batch, n, dtype, seed):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal(batch + (n, n))
    a = m @ np.swapaxes(m, -1, -2) + n * np.eye(n)
    return a.astype(dtype)


SHAPES = [((), 1), ((), 2), ((), 5), ((), 16), ((3,), 4), ((2, 3), 3), ((2,), 33),
          ((0,), 3), ((2,), 0)]
DTYPES = [np.float32, np.float64]
TABLE = [(np.dtype(dt).name, b, n, spd(b, n, dt, i))
         for dt in DTYPES for i, (b, n) in enumerate(SHAPES)]
IDS = [f"{t[0]}-{t[1]}-{t[2]}" for t in TABLE]


@pytest.mark.parametrize("dtype,batch,n,a", TABLE, ids=IDS)
def test_eager_against_numpy(dtype, batch, n, a):
    want = np.linalg.cholesky(a.astype(np.float64)).astype(a.dtype)
    tol = dict(rtol=2e-5, atol=2e-5) if a.dtype == np.float32 else dict(rtol=1e-12,
                                                                         atol=1e-12)
    with _x64(a.dtype == np.float64):
        lo = lax.linalg.cholesky(a)
        lo_raw = lax.linalg.cholesky(np.tril(a), symmetrize_input=False)
        up = jnp.linalg.cholesky(a, upper=True)
    assert np.asarray(lo).dtype == a.dtype
    np.testing.assert_allclose(np.asarray(lo), want, **tol)
    np.testing.assert_allclose(np.asarray(lo_raw), want, **tol)
    np.testing.assert_allclose(np.asarray(up), np.swapaxes(want, -1, -2), **tol)


def _variants(a):
    """Programs over ``a``: the primitive (upper triangle kept), both wrappers, a fused
    producer, and the same matrices made indefinite (NaN results)."""
    return [lambda x: lax.linalg.cholesky_p.bind(x),
            lambda x: lax.linalg.cholesky(x),
            lambda x: jnp.linalg.cholesky(x * 2, upper=True, symmetrize_input=False),
            lambda x: lax.linalg.cholesky(-x)]


def test_compiled_table_matches_eager():
    with enable_x64(True):
        items = []
        for t, (_, _, _, a) in enumerate(TABLE):
            for v, f in enumerate(_variants(a)):
                items.append((f"chol{t}_{v}", make_jaxpr(f)(a), a))
        exes = compile_many([(name, closed) for name, closed, _ in items])
        for (name, closed, a), exe in zip(items, exes, strict=True):
            (want,) = eval_jaxpr_numpy(closed.jaxpr, closed.consts, a)
            (got,) = exe([a])
            same_bits(got, want)


def test_partial_failure_in_a_batch():
    a = spd((4,), 6, np.float32, 11)
    a[2, 3, 3] = -50.0  # the fourth pivot of the third matrix is negative
    out = np.asarray(transpile.jit(lax.linalg.cholesky)(a))
    eager = np.asarray(lax.linalg.cholesky(a))
    same_bits(out, eager)
    assert np.isnan(out[2][np.tril_indices(6)]).all()
    assert (out[2][np.triu_indices(6, 1)] == 0).all()
    assert not np.isnan(out[[0, 1, 3]]).any()


def test_float16_is_refused_like_jax():
    msg = "(KeyError(<class 'numpy.float16'>), 'Unsupported dtype float16.')"
    f = lambda x: lax.linalg.cholesky(x)  # noqa: E731
    x = np.eye(2, dtype=np.float16)
    with pytest.raises(NotImplementedError, match=re.escape(msg)):
        f(x)
    with pytest.raises(NotImplementedError, match=re.escape(msg)):
        transpile.jit(f)(x)


def test_namespaces():
    assert lax.linalg.cholesky_p.name == "cholesky"
    assert not hasattr(lax, "cholesky")  # only lax.linalg.cholesky, as in JAX
    assert jnp.linalg.cholesky.__name__ == "cholesky"
    assert callable(jnp.linalg.cholesky) and "dot" in dir(jnp)  # linalg_ops untouched

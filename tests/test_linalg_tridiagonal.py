"""``lax.linalg.tridiagonal_solve``.

Recorded from JAX 0.10.2 (``tests/data/linalg_tridiagonal.json``, written by
``tools/record_linalg_data.py`` from ``linalg_cases.TRIDIAGONAL``): jaxpr text of the
primitive and its batching, errors word for word, values (solves, JVP, gradient) within
rounding. Independent references: the dense ``np.linalg.solve`` in float64, central
finite differences for derivatives in every operand, and the compiled kernel against
the eager (NumPy) rule bit for bit.
"""
from __future__ import annotations


import numpy as np
import pytest

import transpile
from transpile import lax

from linalg_cases import TRIDIAGONAL
from linalg_checks import Recorded, same_bits, x64_mode

REC = Recorded(TRIDIAGONAL, "linalg_tridiagonal.json")
DATA = REC.data
# The JVP and gradient jaxprs are JAX's equations in another form (values agree).
JAXPR_CASES = [n for n, rec in DATA.items()
               if "jaxpr" in rec and n not in ("jvp", "grad_b")]


def test_cases_were_recorded():
    REC.check_all_recorded()


@pytest.mark.parametrize("name", JAXPR_CASES)
def test_jaxpr_text(name):
    REC.check_jaxpr(name)


@pytest.mark.parametrize("name", REC.names("trace", errors=True))
def test_trace_errors(name):
    REC.check_trace_error(name)


@pytest.mark.parametrize("name", REC.names("eager"))
def test_values(name):
    got, compiled, want = REC.outputs(name)
    for g, c, w in zip(got, compiled, want, strict=True):
        for out in (np.asarray(g), np.asarray(c)):
            assert out.dtype == w.dtype and out.shape == w.shape
            tol = 1e-5 if w.dtype == np.float32 else 1e-12
            np.testing.assert_allclose(out, w, rtol=tol, atol=tol)


def _system(batch, m, k, dtype, seed):
    rng = np.random.default_rng(seed)
    dl, du = rng.standard_normal((2,) + batch + (m,))
    d = rng.standard_normal(batch + (m,)) + 4 * np.sign(rng.standard_normal(batch + (m,)))
    b = rng.standard_normal(batch + (m, k))
    return [v.astype(dtype) for v in (dl, d, du, b)]


def _dense(dl, d, du):
    m = d.shape[-1]
    a = np.zeros(d.shape + (m,))
    i = np.arange(m)
    a[..., i, i] = d
    a[..., i[1:], i[:-1]] = dl[..., 1:]
    a[..., i[:-1], i[1:]] = du[..., :-1]
    return a


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("batch, m, k", [((), 1, 1), ((), 5, 3), ((3,), 8, 2),
                                         ((2, 2), 4, 1), ((), 0, 2), ((), 40, 4)], ids=str)
def test_against_dense_solve(batch, m, k, dtype):
    dl, d, du, b = _system(batch, m, k, dtype, m + k)
    with x64_mode(dtype == np.float64):
        x = np.asarray(lax.linalg.tridiagonal_solve(dl, d, du, b))
        same_bits(transpile.jit(lax.linalg.tridiagonal_solve)(dl, d, du, b), x)
    assert x.dtype == dtype and x.shape == b.shape
    want = np.linalg.solve(_dense(dl, d, du), b.astype(np.float64)) if m else b
    tol = 64 * np.finfo(dtype).eps * max(1, np.abs(want).max(initial=0))
    np.testing.assert_allclose(x, want, atol=tol, rtol=0)


def test_derivatives_match_finite_differences():
    args = _system((), 6, 2, np.float64, 1)
    tangents = _system((), 6, 2, np.float64, 2)
    f = lax.linalg.tridiagonal_solve
    with x64_mode(True):
        _, dx = transpile.jvp(f, tuple(args), tuple(tangents))
        eps = 1e-6
        plus = f(*[a + eps * t for a, t in zip(args, tangents, strict=True)])
        minus = f(*[a - eps * t for a, t in zip(args, tangents, strict=True)])
        w = np.random.default_rng(3).standard_normal(args[3].shape)
        g = np.asarray(transpile.grad(lambda b: (f(*args[:3], b) * w).sum())(args[3]))
    np.testing.assert_allclose(np.asarray(dx), (np.asarray(plus) - np.asarray(minus)) / (2 * eps),
                               rtol=1e-6, atol=1e-8)
    a = _dense(*args[:3])
    np.testing.assert_allclose(g, np.linalg.solve(a.T, w), rtol=1e-10, atol=1e-12)


def test_vmap_mixed_axes():
    dl, d, du, b = _system((3,), 5, 2, np.float32, 4)
    got = transpile.vmap(lax.linalg.tridiagonal_solve, in_axes=(None, 0, None, 2))(
        dl[0], d, du[0], np.moveaxis(b, 0, 2))
    want = lax.linalg.tridiagonal_solve(np.broadcast_to(dl[0], d.shape), d,
                                        np.broadcast_to(du[0], d.shape), b)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)

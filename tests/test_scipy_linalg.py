"""``transpile.scipy.linalg`` against JAX 0.10.2 and against independent references.

Recorded (``scipy_cases.LINALG``, ``tools/record_scipy_linalg.py``): jaxpr text where
transpile writes JAX's equations, values and weak types (within rounding: LAPACK and
transpile's kernels round differently), errors word for word. Independent: residuals
(``a @ x - b``, ``L L^T - a``, ``P L U - a``, ``Q R - a``) within a few ulps times the
condition number, ``expm`` against the float64 eigendecomposition of a symmetric matrix
and the Taylor series of a nilpotent one, derivatives against central differences.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile
from transpile.config import enable_x64
from transpile.scipy import linalg as sl

import scipy_cases
from scipy_checks import Replay, replay_tests, central_differences

REC = Replay(scipy_cases.LINALG, "linalg")
# Also run compiled (one jit each): one case per function family.
COMPILED = {"st_upper_mat", "cho_solve_lower_mat", "lu", "lu_solve_trans", "expm_f32",
            "expm_large_f64", "solve_pos_lower_mat", "toeplitz_cr", "block_diag"}


(test_cases_were_recorded, test_jaxpr_text, test_values,
 test_errors) = replay_tests(REC, scipy_cases.LINALG_JAXPRS, COMPILED)


# ---------------------------------------------------------------------------------------
# residuals

RNG = np.random.default_rng(7)


def _spd(n: int, dtype):
    m = RNG.normal(size=(n, n))
    return (m @ m.T + n * np.eye(n)).astype(dtype)


def _general(n: int, dtype):
    return (RNG.normal(size=(n, n)) + 2 * np.eye(n)).astype(dtype)


def _bound(a, dtype, k: float = 20.0) -> float:
    """A few ulps times the condition number of ``a``."""
    return k * np.finfo(dtype).eps * np.linalg.cond(a.astype(np.float64))


def _ctx(dtype):
    return enable_x64(True) if dtype == np.float64 else enable_x64(False)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_solve_residuals(dtype):
    a, s = _general(5, dtype), _spd(5, dtype)
    b = RNG.normal(size=(5, 2)).astype(dtype)
    with _ctx(dtype):
        for m, x in ((a, sl.solve(a, b)), (s, sl.solve(s, b, assume_a="pos")),
                     (s, sl.cho_solve(sl.cho_factor(s), b)),
                     (a, sl.lu_solve(sl.lu_factor(a), b)),
                     (np.triu(a), sl.solve_triangular(np.triu(a), b))):
            x = np.asarray(x, np.float64)
            m64 = m.astype(np.float64)
            r = np.linalg.norm(m64 @ x - b) / (np.linalg.norm(m64) * np.linalg.norm(x))
            assert x.dtype == np.float64 and r < _bound(m, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_factorisation_residuals(dtype):
    a, s = _general(4, dtype), _spd(4, dtype)
    eps = 50 * np.finfo(dtype).eps
    with _ctx(dtype):
        up = np.asarray(sl.cholesky(s), np.float64)
        lo = np.asarray(sl.cholesky(s, lower=True), np.float64)
        p, l_, u = (np.asarray(t, np.float64) for t in sl.lu(a))
        pl, u2 = (np.asarray(t, np.float64) for t in sl.lu(a, permute_l=True))
        q, r = (np.asarray(t, np.float64) for t in sl.qr(a))
        w, v = (np.asarray(t, np.float64) for t in sl.eigh(s))
    scale = np.linalg.norm(a)
    assert np.allclose(up, np.triu(up)) and np.allclose(lo, np.tril(lo))
    assert np.linalg.norm(up.T @ up - s) < eps * np.linalg.norm(s)
    assert np.linalg.norm(lo @ lo.T - s) < eps * np.linalg.norm(s)
    assert np.linalg.norm(p @ l_ @ u - a) < eps * scale
    assert np.linalg.norm(pl @ u2 - a) < eps * scale
    assert np.linalg.norm(q @ r - a) < eps * scale
    assert np.linalg.norm(v @ np.diag(w) @ v.T - s) < eps * np.linalg.norm(s)


def test_eigh_tridiagonal_against_dense():
    d, e = RNG.normal(size=6), RNG.normal(size=5)
    dense = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    with enable_x64(True):
        w = sl.eigh_tridiagonal(d, e, eigvals_only=True)
        w2, v = sl.eigh_tridiagonal(d, e, select="i", select_range=(1, 3))
    np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(dense), atol=1e-12)
    np.testing.assert_allclose(np.asarray(w2), np.linalg.eigvalsh(dense)[1:4], atol=1e-12)
    np.testing.assert_allclose(dense @ np.asarray(v), np.asarray(v) * np.asarray(w2),
                               atol=1e-12)


def test_polar_and_special_matrices():
    a = _general(3, np.float64)
    with enable_x64(True):
        u, p = sl.polar(a)
        u2, p2 = sl.polar(a, side="left")
        toe = np.asarray(sl.toeplitz(np.array([1., 2., 3.]), np.array([1., 5., 6., 7.])))
        hil = np.asarray(sl.hilbert(4))
    u, p, u2, p2 = (np.asarray(t) for t in (u, p, u2, p2))
    np.testing.assert_allclose(u @ p, a, atol=1e-12)
    np.testing.assert_allclose(p2 @ u2, a, atol=1e-12)
    np.testing.assert_allclose(u.T @ u, np.eye(3), atol=1e-12)
    assert np.all(np.linalg.eigvalsh(p) > 0)
    want = np.array([[1, 5, 6, 7], [2, 1, 5, 6], [3, 2, 1, 5]], np.float64)
    np.testing.assert_array_equal(toe, want)
    np.testing.assert_allclose(hil, 1 / (np.arange(4)[:, None] + np.arange(4) + 1),
                               rtol=1e-15)


# ---------------------------------------------------------------------------------------
# expm

@pytest.mark.parametrize("scale", [0.01, 0.3, 1.0, 3.0, 20.0])
def test_expm_symmetric_against_eigendecomposition(scale):
    s = _spd(4, np.float64) / 4 * scale
    w, v = np.linalg.eigh(s)
    want = v @ np.diag(np.exp(w)) @ v.T
    with enable_x64(True):
        got = np.asarray(sl.expm(s))
    got32 = np.asarray(sl.expm(s.astype(np.float32)), np.float64)
    # normwise: the squarings amplify rounding by about the scale
    size = np.linalg.norm(want) * max(1.0, scale)
    assert np.linalg.norm(got - want) < 1e-11 * size
    assert np.linalg.norm(got32 - want) < 1e-5 * size


def test_expm_nilpotent_is_its_series():
    n = np.triu(RNG.normal(size=(4, 4)), 1)
    want = np.eye(4) + n + n @ n / 2 + n @ n @ n / 6
    with enable_x64(True):
        got = np.asarray(sl.expm(n))
        got_upper = np.asarray(sl.expm(n, upper_triangular=True))
    np.testing.assert_allclose(got, want, atol=1e-13)
    np.testing.assert_allclose(got_upper, want, atol=1e-13)


def test_expm_grad_and_frechet():
    a = _general(3, np.float64) / 3
    e = RNG.normal(size=(3, 3))
    w = RNG.normal(size=(3, 3))

    def f(x):
        return transpile.numpy.sum(sl.expm(x) * w)
    with enable_x64(True):
        g = np.asarray(transpile.grad(f)(a))
        fd = central_differences(lambda x: float(f(x)), a)
        value, frechet = sl.expm_frechet(a, e)
        fd_dir = (np.asarray(sl.expm(a + 1e-6 * e)) - np.asarray(sl.expm(a - 1e-6 * e))) / 2e-6
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(np.asarray(frechet), fd_dir, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(np.asarray(value), np.asarray(sl.expm(a)), rtol=1e-6)


def test_solve_pos_grad_and_vmap():
    s, b = _spd(3, np.float64), RNG.normal(size=3)

    def f(m, r):
        return transpile.numpy.sum(transpile.numpy.sin(sl.solve(m, r, assume_a="pos")))
    with enable_x64(True):
        ga, gb = (np.asarray(t) for t in transpile.grad(f, argnums=(0, 1))(s, b))
        fa = central_differences(lambda m: float(f(m, b)), s)
        fb = central_differences(lambda r: float(f(s, r)), b)
        batched = np.asarray(transpile.vmap(lambda r: sl.solve(s, r, assume_a="pos"))(
            np.stack([b, 2 * b])))
    # only the upper triangle is read (lower=False): the symmetric perturbation's sum
    np.testing.assert_allclose(ga + ga.T - np.diag(np.diag(ga)),
                               fa + fa.T - np.diag(np.diag(fa)), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gb, fb, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(batched, np.linalg.solve(s, np.stack([b, 2 * b]).T).T,
                               rtol=1e-12)

"""``lax.linalg.qr`` and ``jnp.linalg.qr``.

Recorded from JAX 0.10.2 (``tests/data/linalg_qr.json``, written by
``tools/record_linalg_data.py`` from ``linalg_cases.QR``): jaxpr text of the primitive,
of ``jnp.linalg.qr`` and of batching; errors word for word; values (Householder signs
as LAPACK's) within rounding. Independent references: ``‖Q R − A‖`` and
``‖Qᵀ Q − I‖`` residuals over dtypes and shapes, ``R`` upper triangular, central
finite differences for the JVP, and the compiled kernel against the eager (NumPy) rule
bit for bit.
"""
from __future__ import annotations


import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax

from linalg_cases import QR
from linalg_checks import Recorded, same_bits, x64_mode

REC = Recorded(QR, "linalg_qr.json")
DATA = REC.data
# The JVP jaxprs are JAX's equations in a different arrangement (values agree).
JAXPR_CASES = [n for n, rec in DATA.items() if "jaxpr" in rec and not n.startswith("jvp")]


def test_cases_were_recorded():
    REC.check_all_recorded()


@pytest.mark.parametrize("name", JAXPR_CASES)
def test_jaxpr_text(name):
    REC.check_jaxpr(name)


@pytest.mark.parametrize("name", REC.names("trace", errors=True))
def test_trace_errors(name):
    REC.check_trace_error(name)


@pytest.mark.parametrize("name", REC.names("eager", errors=True))
def test_eager_errors(name):
    REC.check_eager_error(name)


@pytest.mark.parametrize("name", REC.names("eager"))
def test_values(name):
    got, compiled, want = REC.outputs(name)
    for g, c, w in zip(got, compiled, want, strict=True):
        for out in (np.asarray(g), np.asarray(c)):
            assert out.dtype == w.dtype and out.shape == w.shape
            tol = 2e-5 if w.dtype == np.float32 else 1e-12
            np.testing.assert_allclose(out, w, rtol=tol, atol=tol * max(1, np.abs(w).max()))


SHAPES = [(1, 1), (3, 3), (6, 4), (4, 6), (2, 5, 3), (2, 3, 5), (0, 3), (3, 0), (2, 0, 2),
          (33, 20)]


@pytest.mark.parametrize("full", [True, False], ids=["full", "reduced"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_residuals(shape, dtype, full):
    a = np.random.default_rng(sum(shape) + full).standard_normal(shape).astype(dtype)
    f = lambda x: lax.linalg.qr(x, full_matrices=full)  # noqa: E731
    with x64_mode(dtype == np.float64):
        q, r = (np.asarray(v) for v in f(a))
        qc, rc = (np.asarray(v) for v in transpile.jit(f)(a))
    same_bits(qc, q)
    same_bits(rc, r)
    m, n = shape[-2:]
    k = m if full else min(m, n)
    assert q.dtype == r.dtype == dtype
    assert q.shape == shape[:-2] + (m, k) and r.shape == shape[:-2] + (k, n)
    eps = np.finfo(dtype).eps * max(m, n, 1)
    q64, r64 = q.astype(np.float64), r.astype(np.float64)
    scale = max(1.0, np.abs(a).max(initial=0))
    assert np.abs(q64 @ r64 - a).max(initial=0) <= 8 * eps * scale
    eye = np.eye(k)
    assert np.abs(np.swapaxes(q64, -1, -2) @ q64 - eye).max(initial=0) <= 8 * eps
    assert np.all(np.tril(r, -1) == 0)


@pytest.mark.parametrize("mode, shape", [("reduced", (5, 3)), ("reduced", (4, 4)),
                                         ("reduced", (3, 5)), ("complete", (4, 4)),
                                         ("complete", (3, 5))], ids=str)
def test_jvp_matches_finite_differences(mode, shape):
    rng = np.random.default_rng(5)
    a, t = rng.standard_normal(shape), rng.standard_normal(shape)
    f = lambda x: tuple(jnp.linalg.qr(x, mode=mode))  # noqa: E731
    with x64_mode(True):
        _, (dq, dr) = transpile.jvp(f, (a,), (t,))
        eps = 1e-6
        plus, minus = f(a + eps * t), f(a - eps * t)
    for d, p, mi in zip((dq, dr), plus, minus, strict=True):
        fd = (np.asarray(p) - np.asarray(mi)) / (2 * eps)
        np.testing.assert_allclose(np.asarray(d), fd, rtol=1e-6, atol=1e-6)


def test_grad_through_qr():
    a = np.random.default_rng(9).standard_normal((4, 3))
    f = lambda x: (jnp.linalg.qr(x)[1] ** 2).sum() + jnp.linalg.qr(x)[0][0, 1]  # noqa: E731
    with x64_mode(True):
        g = np.asarray(transpile.grad(f)(a))
        fd = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            d = np.zeros_like(a)
            d[idx] = 1e-6
            fd[idx] = (float(f(a + d)) - float(f(a - d))) / 2e-6
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)


def test_complete_tall_jvp_is_not_implemented():
    a = np.ones((3, 2), np.float32)
    with pytest.raises(NotImplementedError, match="complete QR"):
        transpile.jvp(lambda x: lax.linalg.qr(x)[0], (a,), (a,))


def test_raw_is_not_implemented():  # pivoting: test_linalg_eig.py
    a = np.eye(2, dtype=np.float32)
    with pytest.raises(NotImplementedError):
        jnp.linalg.qr(a, mode="raw")


def _scaled(kind, dtype, seed=5):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((5, 3))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((5, 3))
    if kind == "mixed":  # huge, tiny and unit entries in every row and column
        big = {np.float64: 1e154}.get(dtype, 1e19)
        return a * np.array([big, 1 / big, 1.0])[np.add.outer(np.arange(5), np.arange(3)) % 3]
    return a * kind


#: magnitudes whose sums of squares overflow, or underflow (to subnormals, which compiled
#: code flushes), in the dtype; "mixed" puts huge and tiny entries in one column
SCALED = {np.complex64: [1e19, 1e-19, 1e-25, "mixed"],
          np.complex128: [1e19, 1e-19, 1e160, 1e-160, "mixed"],
          np.float32: [1e19, 1e-19, 1e-25, 3e37, "mixed"],
          np.float64: [1e154, 1e-154, 1e-160, 1e300, "mixed"]}


@pytest.mark.parametrize("dtype", list(SCALED), ids=lambda d: np.dtype(d).name)
def test_qr_large_and_small_magnitudes(dtype):
    # Issue 20: R held inf (sum of squares overflowing) where JAX's is finite, and a
    # column whose squares underflowed to 0 was left unreflected. Eager and compiled:
    # the same bits, finite, residuals relative to |A|, orthogonal (unitary) Q, and
    # |diag R| as NumPy's float64/complex128 QR (the Householder norms, whatever signs).
    arrays = [_scaled(k, dtype).astype(dtype) for k in SCALED[dtype]]
    f = lambda *xs: tuple(jnp.linalg.qr(x, mode="complete") for x in xs)  # noqa: E731
    eps = np.finfo(np.dtype(dtype).char.lower()).eps * 5
    with x64_mode(np.dtype(dtype) in (np.float64, np.complex128)):
        results = [f(*arrays), transpile.jit(f)(*arrays)]
    if np.dtype(dtype).kind == "f":
        # the real kernel's steps, bit for bit (but "mixed": products of huge and tiny
        # entries land in Q as subnormals, which compiled code flushes and NumPy keeps)
        for kind, (qe, re_), (qj, rj) in zip(SCALED[dtype], *results, strict=True):
            if kind != "mixed":
                same_bits(qe, qj)
                same_bits(re_, rj)
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    for outs in results:
        for kind, a, (q, r) in zip(SCALED[dtype], arrays, outs, strict=True):
            q, r = np.asarray(q, wide), np.asarray(r, wide)
            a = a.astype(wide)
            big = np.abs(a).max()
            norm = big * np.linalg.norm(a / big)   # (unscaled, it overflows at 1e160)
            assert np.isfinite(q).all() and np.isfinite(r).all(), kind
            assert np.all(np.diagonal(r).imag == 0) and np.allclose(np.tril(r, -1), 0)
            assert np.abs(q @ r - a).max() <= 4 * eps * norm, kind
            assert np.abs(np.conj(q.T) @ q - np.eye(5)).max() <= 4 * eps, kind
            ref = np.abs(np.diagonal(np.linalg.qr(a)[1]))
            np.testing.assert_allclose(np.abs(np.diagonal(r)), ref, rtol=0,
                                       atol=4 * eps * norm, err_msg=str(kind))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_pivoted_qr_large_and_small_magnitudes(dtype):
    # The pivot is the column of largest norm even where sums of squares overflow (all
    # inf: the first column won) or underflow: |diag R| comes out non-increasing (as
    # geqp3's), A[:, p] == Q R, and eager and compiled agree bit for bit.
    rng = np.random.default_rng(2)
    base = rng.standard_normal((6, 5)) * np.array([1, 3, 2, 5, 4])
    scales = {np.float32: [1e19, 1e-19, 1e-25], np.float64: [1e154, 1e-154, 1e-160, 1e300]}
    arrays = [(base * k).astype(dtype) for k in scales[dtype]]
    f = lambda *xs: tuple(lax.linalg.qr(x, pivoting=True) for x in xs)  # noqa: E731
    eps = np.finfo(dtype).eps * 5
    with x64_mode(dtype == np.float64):
        results = [f(*arrays), transpile.jit(f)(*arrays)]
    for outs_e, outs_j in zip(*results, strict=True):
        for e, j in zip(outs_e, outs_j, strict=True):
            same_bits(e, j)
    for a, (q, r, p) in zip(arrays, results[0], strict=True):
        q, r, p = np.asarray(q, np.float64), np.asarray(r, np.float64), np.asarray(p)
        big = np.abs(a).max()
        d = np.abs(np.diagonal(r)) / big
        assert np.all(d[:-1] >= d[1:] * (1 - 10 * eps)), (p, d)
        assert np.abs(q @ r / big - a[:, p] / big).max() <= 4 * eps * np.linalg.norm(a / big)

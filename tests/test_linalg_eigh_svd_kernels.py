"""The ``eigh`` kernel (Householder tridiagonalisation, then implicit QL with shifts;
``runtime/tp_linalg.h``, complex: ``tp_linalg_complex.h``) on hard inputs: sizes 1 to 64, repeated eigenvalues, the zero
matrix, diagonal and ill-conditioned matrices, batches, either triangle, unsorted output.

Independent references: the residuals ``‖A V − V diag(w)‖`` and ``‖Vᵀ V − I‖`` (a few
ulp times ``n``), eigenvalues against ``np.linalg.eigvalsh`` in float64; the compiled
kernel must agree with the eager NumPy rule (the same steps) bit for bit.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile
from transpile import lax

from linalg_checks import same_bits, x64_mode


def _sym(n, seed=0, batch=()):
    m = np.random.default_rng(seed).standard_normal(batch + (n, n))
    return m + np.swapaxes(m, -1, -2)


def _clustered(n):
    # eigenvalues 1 (n - 2 times), 1 + 1e-9, and 3: an orthogonal similarity of a diagonal
    q, _ = np.linalg.qr(np.random.default_rng(7).standard_normal((n, n)))
    lam = np.ones(n)
    lam[-1], lam[-2] = 3.0, 1.0 + 1e-9
    return (q * lam) @ q.T


def _graded(n):
    # entries spanning many orders of magnitude (condition number ~1e12)
    s = np.logspace(0, -12, n)
    return _sym(n, 11) * np.sqrt(np.outer(s, s))


CASES = {
    "n1": lambda: np.array([[-2.5]]),
    "n2": lambda: _sym(2, 1),
    "n3": lambda: _sym(3, 2),
    "n17": lambda: _sym(17, 3),
    "n64": lambda: _sym(64, 4),
    "zero": lambda: np.zeros((5, 5)),
    "diagonal": lambda: np.diag([3.0, -1.0, 2.0, 2.0, 0.0, -1.0]),
    "identity": lambda: np.eye(4),
    "repeated": lambda: _clustered(9),
    "rank_one": lambda: np.outer(np.arange(1.0, 8.0), np.arange(1.0, 8.0)),
    "tridiagonal": lambda: np.diag(np.full(12, 2.0)) - np.diag(np.ones(11), 1)
    - np.diag(np.ones(11), -1),
    "ill_conditioned": lambda: _graded(10),
    "batched": lambda: _sym(6, 5, batch=(2, 3)),
}
OPTIONS = {"default": {}, "upper": {"lower": False, "symmetrize_input": False},
           "unsorted": {"sort_eigenvalues": False}}
PARAMS = [(c, o) for c in CASES for o in ("default",)] + [
    ("n17", "upper"), ("n17", "unsorted"), ("diagonal", "unsorted"), ("batched", "upper")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case,option", PARAMS, ids=lambda p: str(p))
def test_eigh_kernel(case, option, dtype):
    a = CASES[case]().astype(dtype)
    opts = OPTIONS[option]
    if opts.get("lower") is False:
        # only the upper triangle is read: garbage below it must not matter
        a = np.triu(a) + np.tril(np.full_like(a, 7.0), -1)
    f = lambda x: lax.linalg.eigh(x, **opts)  # noqa: E731
    with x64_mode(dtype == np.float64):
        v, w = (np.asarray(t) for t in f(a))
        vc, wc = (np.asarray(t) for t in transpile.jit(f)(a))
    same_bits(vc, v)
    same_bits(wc, w)
    n = a.shape[-1]
    assert v.dtype == w.dtype == dtype and v.shape == a.shape and w.shape == a.shape[:-1]
    sym = np.triu(a) + np.swapaxes(np.triu(a, 1), -1, -2) if option == "upper" else a
    a64, v64, w64 = sym.astype(np.float64), v.astype(np.float64), w.astype(np.float64)
    eps = np.finfo(dtype).eps * n
    norm = max(np.abs(a64).max(), np.finfo(dtype).tiny) * n
    assert np.abs(a64 @ v64 - v64 * w64[..., None, :]).max() <= 4 * eps * norm
    assert np.abs(np.swapaxes(v64, -1, -2) @ v64 - np.eye(n)).max() <= 4 * eps
    ref = np.linalg.eigvalsh(a64)
    if option == "unsorted":
        w64 = np.sort(w64, axis=-1)
    else:
        assert np.all(np.diff(w, axis=-1) >= 0)
    np.testing.assert_allclose(w64, ref, rtol=0, atol=4 * eps * norm)


def test_eigh_diagonal_input_is_exact():
    # no reflector and no rotation: the values and the unit vectors come back unchanged
    a = np.diag(np.array([3.0, -1.0, 2.0, 0.5], np.float32))
    v, w = (np.asarray(t) for t in transpile.jit(lax.linalg.eigh)(a))
    np.testing.assert_array_equal(w, [-1.0, 0.5, 2.0, 3.0])
    np.testing.assert_array_equal(np.abs(v), np.eye(4)[:, [1, 3, 2, 0]])


def _herm(n, seed, batch=()):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal(batch + (n, n)) + 1j * rng.standard_normal(batch + (n, n))
    return m + np.conj(np.swapaxes(m, -1, -2))


def _herm_clustered(n):
    # eigenvalues 2 (n - 1 times) and -1: a unitary similarity of a diagonal
    q, _ = np.linalg.qr(_herm(n, 12))
    lam = np.full(n, 2.0)
    lam[0] = -1.0
    return (q * lam) @ np.conj(q.T)


COMPLEX_CASES = {
    "n1": lambda: np.array([[1.5 + 0j]]),
    "n2": lambda: _herm(2, 1),
    "n3": lambda: _herm(3, 2),
    "n17": lambda: _herm(17, 3),
    "zero": lambda: np.zeros((4, 4), complex),
    "diagonal": lambda: np.diag([3.0, -1.0, 2.0, 2.0]).astype(complex),
    "real_tridiagonal": lambda: np.diag(np.full(6, 2.0)) - np.diag(np.ones(5), 1)
    - np.diag(np.ones(5), -1) + 0j,
    "repeated": lambda: _herm_clustered(7),
    "batched": lambda: _herm(5, 6, batch=(2, 2)),
}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
def test_eigh_kernel_complex(lower, dtype):
    # the complex kernel (Householder tridiagonalisation to a real tridiagonal, then
    # QL): every case in one compiled program, checked against the eager rule bit for
    # bit, the residuals and np.linalg.eigvalsh
    names = list(COMPLEX_CASES)
    arrays = [COMPLEX_CASES[c]().astype(dtype) for c in names]
    if not lower:  # only the upper triangle is read: garbage below it must not matter
        arrays = [np.triu(a) + np.tril(np.full_like(a, 7 - 3j), -1) for a in arrays]
    f = lambda *xs: tuple(lax.linalg.eigh(x, lower=lower, symmetrize_input=False)  # noqa: E731
                          for x in xs)
    with x64_mode(dtype == np.complex128):
        eager = [[np.asarray(t) for t in out] for out in f(*arrays)]
        comp = [[np.asarray(t) for t in out] for out in transpile.jit(f)(*arrays)]
    real = np.float32 if dtype == np.complex64 else np.float64
    for name, a, (v, w), (vc, wc) in zip(names, arrays, eager, comp, strict=True):
        same_bits(vc, v)
        same_bits(wc, w)
        assert v.dtype == dtype and w.dtype == real, name
        # the Hermitian matrix the kernel sees (its diagonal's real part)
        tri = np.tril(a, -1) if lower else np.triu(a, 1)
        herm = tri + np.conj(np.swapaxes(tri, -1, -2)) + np.real(
            np.diagonal(a, axis1=-2, axis2=-1))[..., None] * np.eye(a.shape[-1])
        n = a.shape[-1]
        a64, v64 = herm.astype(np.complex128), v.astype(np.complex128)
        eps = np.finfo(real).eps * n
        norm = max(np.abs(a64).max(), np.finfo(real).tiny) * n
        assert np.abs(a64 @ v64 - v64 * w[..., None, :]).max() <= 4 * eps * norm, name
        vh = np.conj(np.swapaxes(v64, -1, -2))
        assert np.abs(vh @ v64 - np.eye(n)).max() <= 4 * eps, name
        assert np.all(np.diff(w, axis=-1) >= 0), name
        np.testing.assert_allclose(w, np.linalg.eigvalsh(a64), rtol=0, atol=4 * eps * norm,
                                   err_msg=name)

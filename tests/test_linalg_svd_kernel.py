"""The ``svd`` kernels (Golub-Kahan bidiagonalisation, then implicit-shift QR;
``runtime/tp_svd.h``, and for complex matrices complex reflectors to a real bidiagonal,
``runtime/tp_linalg_complex.h``) on hard inputs: 1x1, 1xn, nx1, tall and wide, the zero matrix,
rank-deficient, repeated and graded singular values, huge and tiny scales, batches,
reduced and full vectors, values only.

Independent references: ``‖U diag(s) Vᴴ − A‖``, ``‖UᴴU − I‖`` and ``‖VᴴV − I‖`` (a few
ulp times the size), singular values against ``np.linalg.svd`` in float64/complex128.
The compiled kernel must agree with the eager NumPy rule (``lax/linalg_svd_real.py``,
``lax/linalg_svd.py``: the same steps) bit for bit, except where intermediate values leave the normal range: compiled
programs flush subnormals to zero (as XLA does) and NumPy does not, so those cases
compare within rounding.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile
from transpile import lax

from linalg_checks import same_bits, x64_mode


def _rand(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def _with_values(m, n, values, seed=7):
    # an orthogonal U diag(values) V^T
    rng = np.random.default_rng(seed)
    u, _ = np.linalg.qr(rng.standard_normal((m, m)))
    v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    s = np.zeros((m, n))
    s[np.arange(len(values)), np.arange(len(values))] = values
    return u @ s @ v.T


CASES = {
    "1x1": lambda: np.array([[-2.5]]),
    "1x5": lambda: _rand((1, 5), 1),
    "5x1": lambda: _rand((5, 1), 2),
    "2x2": lambda: _rand((2, 2), 3),
    "17x5": lambda: _rand((17, 5), 4),
    "5x17": lambda: _rand((5, 17), 5),
    "24x24": lambda: _rand((24, 24), 6),
    "zero": lambda: np.zeros((5, 4)),
    "diagonal": lambda: np.diag([3.0, -1.0, 2.0, 2.0, 0.0]),
    "rank_one": lambda: np.outer(np.arange(1.0, 8.0), np.arange(1.0, 6.0)),
    "rank_deficient": lambda: _with_values(9, 7, [4.0, 2.0, 1.0]),
    "repeated": lambda: _with_values(8, 8, [3.0, 3.0, 3.0, 1.0, 1.0, 1e-9, 0.0, 0.0]),
    "ill_conditioned": lambda: _with_values(10, 10, np.logspace(0, -12, 10)),
    "graded": lambda: _rand((9, 9), 2) * np.logspace(0, -18, 9),
    "huge": lambda: _rand((6, 4), 8) * 1e30,
    "tiny": lambda: _rand((4, 6), 9) * 1e-30,
    "batched": lambda: _rand((2, 3, 6, 4), 10),
}
#: cases whose intermediate values go subnormal in float32 (see the module docstring)
FLUSHED = {("graded", np.float32)}
OPTIONS = {"full": {}, "reduced": {"full_matrices": False},
           "values": {"compute_uv": False}}


def _leaves(out) -> list:
    return [np.asarray(t) for t in (out if isinstance(out, tuple) else (out,))]


PARAMS = [(c, "full") for c in CASES] + [
    ("17x5", "reduced"), ("5x17", "reduced"), ("batched", "reduced"), ("24x24", "values"),
    ("5x17", "values")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("option", list(OPTIONS))
def test_svd_kernel(option, dtype):
    # all cases of one option in one compiled program (one build instead of one each)
    opts = OPTIONS[option]
    cases = [c for c, o in PARAMS if o == option]
    arrays = [CASES[c]().astype(dtype) for c in cases]
    f = lambda *xs: tuple(lax.linalg.svd(x, **opts) for x in xs)  # noqa: E731
    with x64_mode(dtype == np.float64):
        eager = [_leaves(out) for out in f(*arrays)]
        comp = [_leaves(out) for out in transpile.jit(f)(*arrays)]
    for case, a, e, c in zip(cases, arrays, eager, comp, strict=True):
        _check(case, a, e, c, opts, dtype)


def _check(case, a, eager, comp, opts, dtype):
    *_, m, n = a.shape
    k = min(m, n)
    real = np.dtype(dtype).char.lower()  # float32/float64 for the complex dtypes too
    eps = np.finfo(real).eps * max(m, n)
    scale = max(np.abs(a.astype(np.complex128)).max(), np.finfo(np.float64).tiny)
    for got, want in zip(comp, eager, strict=True):
        if (case, dtype) in FLUSHED:
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=0,
                                       atol=8 * eps * (scale if got.ndim == a.ndim - 1 else 1))
        else:
            same_bits(got, want)
    s = comp[-1] if len(comp) == 1 else comp[1]
    assert s.dtype == real and s.shape == a.shape[:-2] + (k,)
    assert np.all(s >= 0) and np.all(np.diff(s, axis=-1) <= 0)
    ref = np.linalg.svd(a.astype(np.complex128 if np.iscomplexobj(a) else np.float64),
                        compute_uv=False)
    np.testing.assert_allclose(s, ref, rtol=0, atol=4 * eps * scale)
    if len(comp) == 1:
        return
    assert comp[0].dtype == comp[2].dtype == dtype
    u, _, vt = (t.astype(np.complex128) for t in comp)
    full = opts.get("full_matrices", True)
    assert u.shape == a.shape[:-2] + ((m, m) if full else (m, k))
    assert vt.shape == a.shape[:-2] + ((n, n) if full else (k, n))
    rec = (u[..., :, :k] * s[..., None, :].astype(np.float64)) @ vt[..., :k, :]
    assert np.abs(rec - a).max() <= 4 * eps * scale
    adj = lambda x: np.conj(np.swapaxes(x, -1, -2))  # noqa: E731
    assert np.abs(adj(u) @ u - np.eye(u.shape[-1])).max() <= 4 * eps
    assert np.abs(vt @ adj(vt) - np.eye(vt.shape[-2])).max() <= 4 * eps


def _crand(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _cwith_values(m, n, values, seed=7):
    # a unitary U diag(values) V^H
    u, _ = np.linalg.qr(_crand((m, m), seed))
    v, _ = np.linalg.qr(_crand((n, n), seed + 1))
    s = np.zeros((m, n))
    s[np.arange(len(values)), np.arange(len(values))] = values
    return u @ s @ np.conj(v.T)


COMPLEX_CASES = {
    "1x1": lambda: np.array([[-2.5 + 1j]]),
    "1x1_real": lambda: np.array([[-2.5 + 0j]]),
    "1x5": lambda: _crand((1, 5), 1),
    "5x1": lambda: _crand((5, 1), 2),
    "2x2": lambda: _crand((2, 2), 3),
    "17x5": lambda: _crand((17, 5), 4),
    "5x17": lambda: _crand((5, 17), 5),
    "24x24": lambda: _crand((24, 24), 6),
    "zero": lambda: np.zeros((5, 4), complex),
    "real_entries": lambda: _rand((6, 4), 11) + 0j,
    "phases": lambda: np.diag(np.exp(1j * np.arange(5.0)) * [3.0, 1.0, 2.0, 2.0, 0.0]),
    "rank_one": lambda: np.outer(np.arange(1.0, 8.0) * 1j, np.arange(1.0, 6.0) - 2j),
    "rank_deficient": lambda: _cwith_values(9, 7, [4.0, 2.0, 1.0]),
    "repeated": lambda: _cwith_values(8, 8, [3.0, 3.0, 3.0, 1.0, 1.0, 1e-9, 0.0, 0.0]),
    "huge": lambda: _crand((6, 4), 8) * 1e30,
    "tiny": lambda: _crand((4, 6), 9) * 1e-30,
    "batched": lambda: _crand((2, 3, 6, 4), 10),
}
COMPLEX_PARAMS = [(c, "full") for c in COMPLEX_CASES] + [
    ("17x5", "reduced"), ("5x17", "reduced"), ("batched", "reduced"), ("24x24", "values"),
    ("5x17", "values")]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("option", list(OPTIONS))
def test_svd_kernel_complex(option, dtype):
    opts = OPTIONS[option]
    cases = [c for c, o in COMPLEX_PARAMS if o == option]
    arrays = [COMPLEX_CASES[c]().astype(dtype) for c in cases]
    f = lambda *xs: tuple(lax.linalg.svd(x, **opts) for x in xs)  # noqa: E731
    with x64_mode(dtype == np.complex128):
        eager = [_leaves(out) for out in f(*arrays)]
        comp = [_leaves(out) for out in transpile.jit(f)(*arrays)]
    for case, a, e, c in zip(cases, arrays, eager, comp, strict=True):
        _check(case, a, e, c, opts, dtype)


def test_svd_complex_diagonal_phases_move_into_vt():
    # no reflector but the phase ones: |d| sorted, u's columns unit vectors
    a = np.diag(np.array([3j, -1.0, 2.0 - 0j, 0.5 + 0.5j], np.complex64))
    u, s, vt = (np.asarray(t) for t in transpile.jit(lax.linalg.svd)(a))
    np.testing.assert_allclose(s, [3.0, 2.0, 1.0, np.sqrt(0.5)], rtol=1e-6)
    np.testing.assert_allclose(np.abs(u), np.eye(4)[:, [0, 2, 1, 3]], atol=1e-6)
    np.testing.assert_allclose((u * s) @ vt, a, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_svd_non_finite_input_gives_nan(dtype):
    a = np.ones((3, 2), dtype)
    a[1, 0] = np.nan
    with x64_mode(dtype in (np.float64, np.complex128)):
        for u, s, vt in (lax.linalg.svd(a), transpile.jit(lax.linalg.svd)(a)):
            for t in (u, s, vt):
                assert np.isnan(np.asarray(t)).all()


def test_svd_diagonal_input_is_exact():
    # no reflector, no rotation: the magnitudes come back sorted, signs moved into vt
    a = np.diag(np.array([3.0, -1.0, 2.0, 0.5], np.float32))
    u, s, vt = (np.asarray(t) for t in transpile.jit(lax.linalg.svd)(a))
    np.testing.assert_array_equal(s, [3.0, 2.0, 1.0, 0.5])
    np.testing.assert_array_equal(u, np.eye(4)[:, [0, 2, 1, 3]])
    np.testing.assert_array_equal(vt, np.diag([1.0, -1.0, 1.0, 1.0])[[0, 2, 1, 3]])

"""``lax.linalg.eigh`` and ``jnp.linalg.eigh``/``eigvalsh``.

Recorded from JAX 0.10.2 (``tests/data/linalg_eigh.json``, written by
``tools/record_linalg_data.py`` from ``linalg_cases.EIGH``): jaxpr text, errors word
for word, eigenvalues within rounding and eigenvectors up to sign (LAPACK does not
define it; the recorded matrices have distinct eigenvalues). Independent references:
``‖A V − V diag(w)‖`` and ``‖Vᵀ V − I‖`` residuals, eigenvalues against
``np.linalg.eigvalsh`` (float64), central finite differences for the JVP, and the
compiled kernel against the eager (NumPy) rule bit for bit.
"""
from __future__ import annotations


import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax

from linalg_cases import EIGH
from linalg_checks import Recorded, same_bits, signed, x64_mode

REC = Recorded(EIGH, "linalg_eigh.json")
DATA = REC.data
# The JVP's jaxpr is JAX's equations in a different arrangement (values agree).
JAXPR_CASES = [n for n, rec in DATA.items() if "jaxpr" in rec and not n.startswith("jvp")]


def test_cases_were_recorded():
    REC.check_all_recorded()


@pytest.mark.parametrize("name", JAXPR_CASES)
def test_jaxpr_text(name):
    REC.check_jaxpr(name)


@pytest.mark.parametrize("name", REC.names("eager", errors=True))
def test_eager_errors(name):
    REC.check_eager_error(name)


@pytest.mark.parametrize("name", REC.names("eager"))
def test_values(name):
    got, compiled, want = REC.outputs(name)
    for g, c, w in zip(got, compiled, want, strict=True):
        if not name.startswith("jvp"):  # products (matmul kernels) round differently
            same_bits(c, g)
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        # vectors are conditioned by the eigenvalue gaps: a looser bound than values
        tol = 1e-4 if w.dtype == np.float32 else 1e-11
        if g.ndim >= 2 and g.shape[-1] == g.shape[-2]:
            g, w = signed(g), signed(w)  # eigenvectors: up to sign
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * max(1, np.abs(w).max()))


SHAPES = [(1, 1), (2, 2), (5, 5), (16, 16), (3, 4, 4), (0, 3, 3), (2, 0, 0), (40, 40)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_residuals(shape, dtype):
    m = np.random.default_rng(sum(shape)).standard_normal(shape)
    a = (m + np.swapaxes(m, -1, -2)).astype(dtype)
    with x64_mode(dtype == np.float64):
        v, w = (np.asarray(t) for t in lax.linalg.eigh(a))
        vc, wc = (np.asarray(t) for t in transpile.jit(lax.linalg.eigh)(a))
    same_bits(vc, v)
    same_bits(wc, w)
    assert v.dtype == w.dtype == dtype and v.shape == shape and w.shape == shape[:-1]
    n = shape[-1]
    eps = np.finfo(dtype).eps * max(n, 1)
    norm = max(1.0, np.abs(a).max(initial=0) * n)
    a64, v64, w64 = a.astype(np.float64), v.astype(np.float64), w.astype(np.float64)
    assert np.abs(a64 @ v64 - v64 * w64[..., None, :]).max(initial=0) <= 8 * eps * norm
    assert np.abs(np.swapaxes(v64, -1, -2) @ v64 - np.eye(n)).max(initial=0) <= 8 * eps
    assert np.all(np.diff(w, axis=-1) >= 0)
    if a.size:
        np.testing.assert_allclose(w64, np.linalg.eigvalsh(a64), atol=8 * eps * norm)


def test_repeated_and_diagonal():
    a = np.diag(np.array([2.0, 1.0, 2.0, -1.0], np.float32))
    v, w = lax.linalg.eigh(a)
    np.testing.assert_array_equal(np.asarray(w), [-1, 1, 2, 2])
    np.testing.assert_allclose(np.asarray(a) @ np.asarray(v), np.asarray(v) * np.asarray(w))
    v, w = lax.linalg.eigh(np.eye(3, dtype=np.float64))
    np.testing.assert_array_equal(np.asarray(v), np.eye(3))


def test_jvp_matches_finite_differences():
    rng = np.random.default_rng(3)
    m, t = rng.standard_normal((2, 5, 5))
    a, t = m + m.T, t + t.T
    f = lambda x: lax.linalg.eigh(x)  # noqa: E731
    with x64_mode(True):
        _, (dv, dw) = transpile.jvp(f, (a,), (t,))
        eps = 1e-6
        (vp, wp), (vm, wm) = f(a + eps * t), f(a - eps * t)
        v = np.asarray(f(a)[0])  # in float64, as dv (a float32 run may flip signs)
    np.testing.assert_allclose(np.asarray(dw), (np.asarray(wp) - np.asarray(wm)) / (2 * eps),
                               rtol=1e-6, atol=1e-7)
    fd_v = (signed(vp) - signed(vm)) / (2 * eps)
    sign = np.sign(np.take_along_axis(v, np.argmax(np.abs(v), 0)[None], 0))
    np.testing.assert_allclose(np.asarray(dv) * sign, fd_v, rtol=1e-5, atol=1e-6)


def test_grad_and_vmap():
    rng = np.random.default_rng(4)
    m = rng.standard_normal((3, 4, 4))
    a = m + np.swapaxes(m, -1, -2)
    with x64_mode(True):
        g = np.asarray(transpile.grad(lambda x: jnp.linalg.eigvalsh(x)[-1])(a[0]))
        v = np.asarray(jnp.linalg.eigh(a[0]).eigenvectors)[:, -1]
        batched = np.asarray(transpile.vmap(jnp.linalg.eigvalsh)(a))
    np.testing.assert_allclose(g, np.outer(v, v), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(batched, np.linalg.eigvalsh(a), rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------
# Special matrices at a small and a larger size, and a float64 size past one chunk of
# the kernel's accumulation of Q (TP_EIGH_CHUNK: 256 float64 columns): the same bits as
# the eager rule, and the residual bounds.

def _orthogonal(n, rng):
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return q


SPECIAL = {
    "random": lambda n, rng: (lambda m: m + m.T)(rng.standard_normal((n, n))),
    "zero": lambda n, rng: np.zeros((n, n)),
    "identity": lambda n, rng: np.eye(n),
    "diagonal": lambda n, rng: np.diag(rng.standard_normal(n)),
    "repeated": lambda n, rng: (lambda q: (q * np.repeat([-1.0, 2.0, 3.0], -(-n // 3))[:n])
                                @ q.T)(_orthogonal(n, rng)),
    "tridiagonal": lambda n, rng: (np.diag(rng.standard_normal(n))
                                   + np.diag(np.ones(n - 1), 1) + np.diag(np.ones(n - 1), -1)),
    "graded": lambda n, rng: (lambda m, g: g[:, None] * (m + m.T) * g[None, :])(
        rng.standard_normal((n, n)), np.logspace(0, -8, n)),
}


def _check_residuals(a, v, w):
    n = a.shape[-1]
    eps = np.finfo(a.dtype).eps * n
    norm = max(1.0, np.abs(a).max(initial=0) * n)
    a64, v64, w64 = a.astype(np.float64), v.astype(np.float64), w.astype(np.float64)
    assert np.abs(a64 @ v64 - v64 * w64[..., None, :]).max(initial=0) <= 8 * eps * norm
    assert np.abs(np.swapaxes(v64, -1, -2) @ v64 - np.eye(n)).max(initial=0) <= 8 * eps
    assert np.all(np.diff(w, axis=-1) >= 0)
    np.testing.assert_allclose(w64, np.linalg.eigvalsh(a64), atol=8 * eps * norm)


def test_two_accumulation_chunks():
    n = 264
    a = SPECIAL["random"](n, np.random.default_rng(n))
    with x64_mode(True):
        v, w = (np.asarray(t) for t in lax.linalg.eigh(a))
        vc, wc = (np.asarray(t) for t in transpile.jit(lax.linalg.eigh)(a))
    same_bits(vc, v)
    same_bits(wc, w)
    _check_residuals(a, v, w)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("n", [7, 136])
def test_special_matrices(n, dtype):
    rng = np.random.default_rng(n)
    with x64_mode(dtype == np.float64):
        f = transpile.jit(lambda x: lax.linalg.eigh(x, symmetrize_input=False))
        for name, make in SPECIAL.items():
            a = make(n, rng).astype(dtype)
            v, w = (np.asarray(t) for t in lax.linalg.eigh(a, symmetrize_input=False))
            vc, wc = (np.asarray(t) for t in f(a))
            same_bits(wc, w)
            # compiled kernels run with flush-to-zero (as XLA:CPU); the eager QL flushes
            # its results too: float32 "repeated"/"tridiagonal" at n = 136 rotate
            # subnormal products into vector entries (below 1e-30 once they differed)
            same_bits(vc, v)
            _check_residuals(a, v, w)
            if name in ("zero", "identity"):
                np.testing.assert_array_equal(v, np.eye(n, dtype=dtype))


def test_hypot_outside_the_squares_range():
    # float64 entries near 1e140 and 1e-140: the QL's hypot then takes libm's branch
    # (outside 2^-450 .. 2^450); still the same bits, and the scaled eigenvalues
    rng = np.random.default_rng(5)
    m = rng.standard_normal((6, 6))
    with x64_mode(True):
        f = transpile.jit(lambda x: lax.linalg.eigh(x, symmetrize_input=False))
        for scale in (1e140, 1e-140):
            a = (m + m.T) * scale
            v, w = (np.asarray(t) for t in lax.linalg.eigh(a, symmetrize_input=False))
            vc, wc = (np.asarray(t) for t in f(a))
            same_bits(vc, v)
            same_bits(wc, w)
            assert np.all(np.isfinite(w)) and np.all(np.isfinite(v))
            np.testing.assert_allclose(w / scale, np.linalg.eigvalsh(m + m.T), rtol=1e-12,
                                       atol=1e-12)


#: (dtype, scales of a matrix whose squares overflow or underflow unscaled)
EXTREME_SCALES = [(np.float32, (1e19, 1e-19, 1e-25, 1e37)),
                  (np.float64, (1e154, 1e300, 1e-154, 1e-160, 1e-300)),
                  (np.complex64, (1e19, 1e-25, 1e37)),
                  (np.complex128, (1e154, 1e-160, 1e300))]


@pytest.mark.parametrize("dtype, scales", EXTREME_SCALES,
                         ids=[np.dtype(d).name for d, _ in EXTREME_SCALES])
def test_extreme_scales(dtype, scales):
    # scaled by a power of two first where the largest entry is out of range (LAPACK's
    # syev does so; NaN or 10% errors before): eigenvalues against NumPy in double
    # precision, the residual, and the compiled kernel against the eager rule bit for bit
    rng = np.random.default_rng(11)
    a = rng.standard_normal((6, 6))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((6, 6))
    a = a + a.conj().T
    ref = np.linalg.eigvalsh(a)
    eps = np.finfo(np.empty(0, dtype).real.dtype).eps
    with x64_mode(np.dtype(dtype) in (np.float64, np.complex128)):
        for s in scales:
            x = (a * s).astype(dtype)
            v, w = lax.linalg.eigh(x)
            vj, wj = transpile.jit(lax.linalg.eigh)(x)
            w, v = np.asarray(w), np.asarray(v)
            assert np.all(np.isfinite(w)), s
            assert np.max(np.abs(w / s - ref)) <= 50 * eps * np.max(np.abs(ref)), s
            resid = np.abs(v @ np.diag(w) @ v.conj().T - x).max() / np.abs(x).max()
            assert resid <= 50 * eps, s
            same_bits(w, wj)
            same_bits(v, vj)

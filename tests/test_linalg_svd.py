"""``lax.linalg.svd`` and ``jnp.linalg.svd``/``svdvals``.

Recorded from JAX 0.10.2 (``tests/data/linalg_svd.json``, written by
``tools/record_linalg_data.py`` from ``linalg_cases.SVD``): jaxpr text, errors word for
word, singular values within rounding and singular vectors up to sign (LAPACK does not
define it; the recorded matrices have distinct singular values). Independent
references: ``‖U S Vᵀ − A‖`` and orthogonality residuals, singular values against
``np.linalg.svd`` (float64), central finite differences for the JVP, and the compiled
kernel against the eager (NumPy) rule bit for bit.
"""
from __future__ import annotations


import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax

from linalg_cases import SVD
from linalg_checks import Recorded, same_bits, signed, x64_mode

REC = Recorded(SVD, "linalg_svd.json")
DATA = REC.data
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
    for i, (g, c, w) in enumerate(zip(got, compiled, want, strict=True)):
        if not name.startswith("jvp"):  # products (matmul kernels) round differently
            same_bits(c, g)
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        tol = 1e-4 if w.dtype == np.float32 else 1e-11
        if len(want) == 3 and i == 0:  # U: columns up to sign
            g, w = signed(g), signed(w)
        elif len(want) == 3 and i == 2:  # Vh: rows up to sign
            g, w = (np.swapaxes(signed(np.swapaxes(v, -1, -2)), -1, -2) for v in (g, w))
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * max(1, np.abs(w).max()))


SHAPES = [(1, 1), (3, 3), (6, 4), (4, 6), (2, 5, 3), (2, 3, 5), (0, 3), (3, 0), (30, 20)]


@pytest.mark.parametrize("full", [True, False], ids=["full", "reduced"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_residuals(shape, dtype, full):
    a = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)
    f = lambda x: lax.linalg.svd(x, full_matrices=full)  # noqa: E731
    with x64_mode(dtype == np.float64):
        u, s, vt = (np.asarray(t) for t in f(a))
        for got, want in zip(transpile.jit(f)(a), (u, s, vt), strict=True):
            same_bits(got, want)
    m, n = shape[-2:]
    k = min(m, n)
    uc, vr = (m, n) if full else (k, k)
    assert u.shape == shape[:-2] + (m, uc) and vt.shape == shape[:-2] + (vr, n)
    assert s.shape == shape[:-2] + (k,) and u.dtype == s.dtype == vt.dtype == dtype
    eps = np.finfo(dtype).eps * max(m, n, 1)
    scale = max(1.0, np.abs(a).max(initial=0) * max(m, n, 1))
    u64, s64, v64 = u.astype(np.float64), s.astype(np.float64), vt.astype(np.float64)
    recon = (u64[..., :, :k] * s64[..., None, :]) @ v64[..., :k, :]
    assert np.abs(recon - a).max(initial=0) <= 8 * eps * scale
    assert np.abs(np.swapaxes(u64, -1, -2) @ u64 - np.eye(uc)).max(initial=0) <= 8 * eps
    assert np.abs(v64 @ np.swapaxes(v64, -1, -2) - np.eye(vr)).max(initial=0) <= 8 * eps
    assert np.all(np.diff(s, axis=-1) <= 0) and np.all(s >= 0)
    if a.size:
        np.testing.assert_allclose(s64, np.linalg.svd(a.astype(np.float64), compute_uv=False),
                                   atol=8 * eps * scale)


def test_rank_deficient_completes_the_bases():
    a = np.outer(np.arange(1.0, 5.0), [1.0, -2.0, 0.5]).astype(np.float32)
    u, s, vt = (np.asarray(t, np.float64) for t in lax.linalg.svd(a))
    assert s[1] == 0 or s[1] < 1e-5 * s[0]
    np.testing.assert_allclose(u.T @ u, np.eye(4), atol=1e-6)
    np.testing.assert_allclose(vt @ vt.T, np.eye(3), atol=1e-6)
    np.testing.assert_allclose((u[:, :3] * s) @ vt, a, atol=1e-5)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)], ids=str)
def test_jvp_matches_finite_differences(shape):
    rng = np.random.default_rng(8)
    a, t = rng.standard_normal(shape), rng.standard_normal(shape)
    f = lambda x: lax.linalg.svd(x, full_matrices=False)  # noqa: E731
    with x64_mode(True):
        _, (du, ds, dvt) = transpile.jvp(f, (a,), (t,))
        eps = 1e-6
        (up, sp, vp), (um, sm, vm) = f(a + eps * t), f(a - eps * t)
        u, _, vt = f(a)
    np.testing.assert_allclose(np.asarray(ds), (np.asarray(sp) - np.asarray(sm)) / (2 * eps),
                               rtol=1e-6, atol=1e-7)
    u, vt = np.asarray(u), np.asarray(vt)
    sign = np.sign(np.take_along_axis(u, np.argmax(np.abs(u), 0)[None], 0))
    np.testing.assert_allclose(np.asarray(du) * sign, (signed(up) - signed(um)) / (2 * eps),
                               rtol=1e-5, atol=1e-6)
    vs = np.swapaxes(vt, -1, -2)
    sign = np.sign(np.take_along_axis(vs, np.argmax(np.abs(vs), 0)[None], 0))
    fd = (signed(np.swapaxes(np.asarray(vp), -1, -2))
          - signed(np.swapaxes(np.asarray(vm), -1, -2))) / (2 * eps)
    np.testing.assert_allclose(np.swapaxes(np.asarray(dvt), -1, -2) * sign, fd,
                               rtol=1e-5, atol=1e-6)


def test_full_matrices_jvp_is_not_implemented():
    a = np.eye(3, dtype=np.float32)
    with pytest.raises(NotImplementedError, match="full matrices"):
        transpile.jvp(lambda x: lax.linalg.svd(x)[0], (a,), (a,))


def test_grad_of_nuclear_norm_and_vmap():
    rng = np.random.default_rng(12)
    a = rng.standard_normal((3, 5, 4))
    with x64_mode(True):
        g = np.asarray(transpile.grad(lambda x: jnp.linalg.svdvals(x).sum())(a[0]))
        batched = np.asarray(transpile.vmap(jnp.linalg.svdvals)(a))
    u, _, vt = np.linalg.svd(a[0], full_matrices=False)
    np.testing.assert_allclose(g, u @ vt, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(batched, np.linalg.svd(a, compute_uv=False), rtol=1e-12,
                               atol=1e-12)

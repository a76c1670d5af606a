"""``lax.linalg.lu`` and ``jnp.linalg.solve/inv/det/slogdet``.

Recorded from JAX 0.10.2 (``tests/data/linalg_lu.json``, written by
``tools/record_linalg_data.py`` from ``linalg_cases.LU``): the jaxpr text of ``lu``, its
JVP and its batching; errors word for word; values within rounding (LAPACK's ``getrf``
and transpile's kernel may round differently in the last bits). ``solve``'s and
``inv``'s jaxprs (a ``custom_linear_solve``) are compared as text, with their
gradients; ``det``'s and ``slogdet``'s are not (JAX reads the LU diagonal with a
platform-dependent ``cond``), though both have JAX's custom JVPs (the adjugate for
``det``: finite at a singular matrix).

Independent references: ``P A == L U`` residuals over dtypes and shapes (batched,
non-square, empty), ``np.linalg`` float64 answers, central finite differences for the
JVP, and the compiled kernel against the eager (NumPy) rule bit for bit.
"""
from __future__ import annotations


import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax

from linalg_cases import LU
from linalg_checks import Recorded, same_bits, x64_mode

REC = Recorded(LU, "linalg_lu.json")
DATA = REC.data
# Cases whose jaxpr is the lu primitive's own (and its rules'): compared as text.
JAXPR_CASES = ["lu_f32", "lu_f64", "lu_wide", "lu_tall", "lu_batch", "lu_zero", "lu_rank1",
               "lu_jvp", "lu_vmap", "det_2x2", "det_3x3_batch", "det_2x2_int",
               # solve through custom_linear_solve (lax/linear_solve.py)
               "solve_vec", "solve_mat", "solve_int", "solve_f64", "inv", "inv_batch",
               "grad_solve", "grad_inv", "solve_bcast"]


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
            if w.dtype.kind == "f":
                tol = 1e-5 if w.dtype == np.float32 else 1e-12
                np.testing.assert_allclose(out, w, rtol=tol * 10, atol=tol * 10)
            else:
                np.testing.assert_array_equal(out, w)


# --- residuals ------------------------------------------------------------------------

SHAPES = [(1, 1), (2, 2), (5, 5), (16, 16), (3, 5), (5, 3), (3, 4, 4), (2, 3, 7, 7),
          (0, 3, 3), (2, 0, 0), (40, 40)]
DTYPES = [np.float32, np.float64]


def _factors(lu_, m, n):
    k = min(m, n)
    lo = np.tril(lu_[..., :, :k], -1) + np.eye(m, k)
    up = np.triu(lu_[..., :k, :])
    return lo, up


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_lu_residual(shape, dtype):
    rng = np.random.default_rng(len(shape) * 31 + sum(shape))
    a = rng.standard_normal(shape).astype(dtype)
    with x64_mode(dtype == np.float64):
        eager = [np.asarray(o) for o in lax.linalg.lu(a)]
        compiled = [np.asarray(o) for o in transpile.jit(lax.linalg.lu)(a)]
    assert eager[0].dtype == dtype
    for e, c in zip(eager, compiled, strict=True):
        same_bits(c, e)
    lu_, piv, perm = eager
    m, n = shape[-2:]
    assert piv.dtype == perm.dtype == np.int32
    assert piv.shape == shape[:-2] + (min(m, n),) and perm.shape == shape[:-2] + (m,)
    lo, up = _factors(lu_.astype(np.float64), m, n)
    pa = np.take_along_axis(a.astype(np.float64), perm[..., None].astype(np.int64), -2)
    eps = np.finfo(dtype).eps
    scale = max(1.0, np.abs(a).max(initial=0)) * max(m, n, 1)
    assert np.abs(lo @ up - pa).max(initial=0) <= 8 * eps * scale
    assert np.abs(lo).max(initial=0) <= 1  # partial pivoting bounds the multipliers
    if m == 0:
        return
    # the pivots replayed as swaps give the permutation
    want = np.broadcast_to(np.arange(m), shape[:-2] + (m,)).copy().reshape(-1, m)
    for row, p in zip(want, piv.reshape(-1, min(m, n)), strict=True):
        for i, j in enumerate(p):
            row[[i, j]] = row[[j, i]]
    np.testing.assert_array_equal(perm.reshape(-1, m), want)


# The kernel takes steps j and j + 1 in one pass (step j + 1's pivot found from step j's
# column j + 1 first): zero pivots in either step, ties, NaN and odd sizes, bit for bit.
LU_SPECIAL = {
    "zero": lambda: np.zeros((6, 6)),
    "rank_one": lambda: np.outer(np.arange(1.0, 8.0), np.arange(1.0, 6.0)),
    "zero_second_pivot": lambda: np.array([[2.0, 1, 1, 3], [4, 2, 5, 1], [6, 3, 2, 2],
                                           [8, 4, 1, 7], [1, 0.5, 3, 3]]),
    "ties": lambda: np.tile([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], (3, 1)),
    "nan": lambda: np.where(np.eye(5, k=1) > 0, np.nan, np.arange(25.0).reshape(5, 5)),
    "odd_wide": lambda: np.random.default_rng(9).standard_normal((7, 10)),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(LU_SPECIAL))
def test_lu_special_matrices(name, dtype):
    a = LU_SPECIAL[name]().astype(dtype)
    with x64_mode(dtype == np.float64):
        eager = [np.asarray(o) for o in lax.linalg.lu(a)]
        compiled = [np.asarray(o) for o in transpile.jit(lax.linalg.lu)(a)]
    for e, c in zip(eager, compiled, strict=True):
        same_bits(c, e)
    m, n = a.shape
    lo, up = _factors(eager[0].astype(np.float64), m, n)
    if np.all(np.isfinite(a)):
        np.testing.assert_allclose(lo @ up, a[eager[2]].astype(np.float64),
                                   atol=1e-5 * max(1.0, np.abs(a).max()))


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 4, 4)], ids=str)
def test_lu_jvp_matches_finite_differences(shape):
    rng = np.random.default_rng(7)
    a, t = rng.standard_normal(shape), rng.standard_normal(shape)
    with x64_mode(True):
        f = lambda x: lax.linalg.lu(x)[0]  # noqa: E731
        _, d = transpile.jvp(f, (a,), (t,))
        eps = 1e-6
        fd = (np.asarray(f(a + eps * t)) - np.asarray(f(a - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(d), fd, rtol=1e-6, atol=1e-6)


def test_lu_vmap_any_axis():
    a = np.random.default_rng(3).standard_normal((4, 3, 5, 4)).astype(np.float32)
    for axis in range(4):
        got = transpile.vmap(lax.linalg.lu, in_axes=axis)(np.moveaxis(a, 0, axis))
        want = lax.linalg.lu(a)
        for g, w in zip(got, want, strict=True):
            same_bits(g, w)


def _well_conditioned(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    n = shape[-1]
    return (rng.standard_normal(shape) + n * np.eye(n) * 0.5).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("a_shape, b_shape", [((4, 4), (4,)), ((6, 6), (6, 3)),
                                              ((2, 5, 5), (5, 2)), ((5, 5), (3, 5, 1)),
                                              ((2, 1, 3, 3), (4, 3, 2)), ((0, 0), (0,))],
                         ids=str)
def test_solve_residual(a_shape, b_shape, dtype):
    a = _well_conditioned(a_shape, dtype, 1)
    b = np.random.default_rng(2).standard_normal(b_shape).astype(dtype)
    with x64_mode(dtype == np.float64):
        x = np.asarray(jnp.linalg.solve(a, b))
        xc = np.asarray(transpile.jit(jnp.linalg.solve)(a, b))
    want = np.linalg.solve(a.astype(np.float64), b.astype(np.float64)[..., None]
                           if len(b_shape) == 1 else b.astype(np.float64))
    want = want[..., 0] if len(b_shape) == 1 else want
    assert x.dtype == dtype and x.shape == want.shape
    cond = np.linalg.cond(a.astype(np.float64)).max(initial=1) if a.size else 1.0
    tol = 16 * np.finfo(dtype).eps * cond * max(1, np.abs(want).max(initial=0))
    np.testing.assert_allclose(x, want, atol=tol, rtol=0)
    np.testing.assert_allclose(xc, want, atol=tol, rtol=0)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (8, 8), (2, 4, 4)], ids=str)
def test_inv_det_slogdet(shape, dtype):
    a = _well_conditioned(shape, dtype, 5)
    a64 = a.astype(np.float64)
    eps = np.finfo(dtype).eps
    with x64_mode(dtype == np.float64):
        inv = np.asarray(jnp.linalg.inv(a))
        det = np.asarray(jnp.linalg.det(a))
        sign, logdet = (np.asarray(v) for v in jnp.linalg.slogdet(a))
    n = shape[-1]
    cond = np.linalg.cond(a64).max()
    assert inv.dtype == det.dtype == sign.dtype == logdet.dtype == dtype
    assert np.abs(a64 @ inv - np.eye(n)).max() <= 16 * eps * cond * n
    np.testing.assert_allclose(det, np.linalg.det(a64), rtol=16 * eps * n * cond)
    want_sign, want_log = np.linalg.slogdet(a64)
    np.testing.assert_array_equal(sign, want_sign)
    np.testing.assert_allclose(logdet, want_log, atol=16 * eps * n * cond)


def test_singular():
    z = np.zeros((3, 3), np.float32)
    sign, logdet = jnp.linalg.slogdet(z)
    assert float(sign) == 0 and float(logdet) == -np.inf
    assert float(jnp.linalg.det(z)) == 0
    assert not np.isfinite(np.asarray(jnp.linalg.solve(z, np.ones(3, np.float32)))).any()


@pytest.mark.parametrize("name, fn, ref", [
    ("det", lambda a: jnp.linalg.det(a), np.linalg.det),
    ("logdet", lambda a: jnp.linalg.slogdet(a)[1], lambda a: np.linalg.slogdet(a)[1]),
    ("solve", lambda a: (jnp.linalg.solve(a, np.arange(4.0)) ** 2).sum(),
     lambda a: (np.linalg.solve(a, np.arange(4.0)) ** 2).sum()),
    ("inv", lambda a: jnp.linalg.inv(a)[1, 2], lambda a: np.linalg.inv(a)[1, 2]),
])
def test_grads_match_finite_differences(name, fn, ref):
    a = _well_conditioned((4, 4), np.float64, 11)
    with x64_mode(True):
        g = np.asarray(transpile.grad(fn)(a))
    fd = np.zeros_like(a)
    eps = 1e-6
    for idx in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[idx] = eps
        fd[idx] = (ref(a + d) - ref(a - d)) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)


def test_vmap_of_solve():
    a = _well_conditioned((3, 4, 4), np.float32, 13)
    b = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float32)
    got = np.asarray(transpile.vmap(jnp.linalg.solve)(a, b))
    want = np.linalg.solve(a.astype(np.float64), b.astype(np.float64)[..., None])[..., 0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_det_grad_is_the_adjugate_at_a_singular_matrix():
    # JAX's custom JVP of det: finite (the adjugate's transpose) where A^-1 does not exist
    a = np.array([[1., 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 0, 2, 1]], np.float32)
    g = np.asarray(transpile.grad(jnp.linalg.det)(a))
    want = np.array([[2., -2, -2, 2], [-1, 1, 1, -1], [0, 0, 0, 0], [0, 0, 0, 0]])
    np.testing.assert_allclose(g, want, atol=1e-5)
    b = a + np.eye(4, dtype=np.float32)
    g = np.asarray(transpile.grad(jnp.linalg.det)(b))
    np.testing.assert_allclose(g, np.linalg.det(b.astype(np.float64))
                               * np.linalg.inv(b.astype(np.float64)).T, rtol=1e-4)


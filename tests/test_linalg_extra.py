"""The composed ``jnp.linalg`` functions (``numpy/linalg_extra.py``) against NumPy in
float64: norms of every order, pinv, lstsq, matrix_rank, cond, matrix_power,
multi_dot, tensorsolve, tensorinv and the Array API names; dtypes as JAX 0.10.2 gives
them (float32 for float32 and integer inputs, int32 ranks) and its error messages.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from linalg_checks import x64_mode

RNG = np.random.default_rng(20)
A = RNG.standard_normal((4, 5))
SQ = RNG.standard_normal((4, 4)) + 4 * np.eye(4)
V = RNG.standard_normal(5)
B3 = RNG.standard_normal((2, 3, 4))

CASES = [
    ("norm", lambda L, a: L.norm(a), (A,)),
    ("norm_vec", lambda L, a: L.norm(a), (V,)),
    *[(f"norm_vec_{o}", lambda L, a, o=o: L.norm(a, o), (V,))
      for o in (1, 2, 3, 0, np.inf, -np.inf, -1, 0.5)],
    *[(f"norm_mat_{o}", lambda L, a, o=o: L.norm(a, o), (A,))
      for o in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)],
    ("norm_axis", lambda L, a: L.norm(a, axis=1), (B3,)),
    ("norm_axes_keep", lambda L, a: L.norm(a, 2, axis=(0, 2), keepdims=True), (B3,)),
    ("norm_keep", lambda L, a: L.norm(a, keepdims=True), (B3,)),
    ("vector_norm", lambda L, a: L.vector_norm(a, ord=3, axis=-1), (B3,)),
    ("matrix_norm", lambda L, a: L.matrix_norm(a, ord="nuc"), (B3,)),
    ("pinv", lambda L, a: L.pinv(a), (A,)),
    ("pinv_batch", lambda L, a: L.pinv(a), (B3,)),
    ("lstsq_x", lambda L, a, b: L.lstsq(a, b)[0], (A.T, V)),
    ("lstsq_resid", lambda L, a, b: L.lstsq(a, b)[1], (A.T, V)),
    ("matrix_rank", lambda L, a: L.matrix_rank(a), (A,)),
    ("matrix_rank_def", lambda L, a: L.matrix_rank(a), (np.outer(V, V),)),
    ("cond", lambda L, a: L.cond(a), (SQ,)),
    ("cond_1", lambda L, a: L.cond(a, 1), (SQ,)),
    ("cond_fro", lambda L, a: L.cond(a, "fro"), (SQ,)),
    *[(f"matrix_power_{n}", lambda L, a, n=n: L.matrix_power(a, n), (SQ,))
      for n in (0, 1, 2, 5, -1, -3)],
    ("multi_dot", lambda L, a, b, c: L.multi_dot([a, b, c]), (V, A.T, A)),
    ("tensorinv", lambda L, a: L.tensorinv(a, 2), (SQ.reshape(2, 2, 2, 2),)),
    ("tensorsolve", lambda L, a, b: L.tensorsolve(a, b), (SQ.reshape(2, 2, 4), V[:4].reshape(2, 2))),
    ("outer", lambda L, a, b: L.outer(a, b), (V, V[:3])),
    ("cross", lambda L, a, b: L.cross(a, b), (B3[..., :3], B3[..., 1:])),
    ("diagonal", lambda L, a: L.diagonal(a), (B3,)),
    ("diagonal_off", lambda L, a: L.diagonal(a, offset=-1), (B3,)),
    ("trace", lambda L, a: L.trace(a, offset=1), (B3,)),
    ("vecdot", lambda L, a, b: L.vecdot(a, b), (B3, B3[0])),
    ("matmul", lambda L, a, b: L.matmul(a, b), (A, A.T)),
    ("matrix_transpose", lambda L, a: L.matrix_transpose(a), (B3,)),
    ("tensordot", lambda L, a, b: L.tensordot(a, b, axes=1), (A, A.T)),
]


def _numpy(name, fn, args):
    """NumPy's answer: ``np.linalg``'s function of the same name, or the plain NumPy
    equivalent for the Array API names (older NumPy lacks some), lstsq's residual as
    JAX defines it (always the squared residual norm)."""
    L = np.linalg
    extra = {"diagonal": lambda a, offset=0: np.diagonal(a, offset, -2, -1),
             "trace": lambda a, offset=0: np.trace(a, offset, axis1=-2, axis2=-1),
             "vecdot": lambda a, b: np.sum(a * b, axis=-1),
             "cross": lambda a, b: np.cross(a, b),
             "outer": np.outer, "matrix_transpose": lambda a: np.swapaxes(a, -1, -2),
             "tensordot": np.tensordot, "vector_norm": None, "matrix_norm": None}

    class NS:
        def __getattr__(self, attr):
            if attr in extra and extra[attr] is not None:
                return extra[attr]
            if attr == "vector_norm":
                return lambda a, ord=2, axis=None: np.linalg.norm(a, ord, axis)
            if attr == "matrix_norm":
                return lambda a, ord="fro": np.linalg.norm(a, ord, axis=(-2, -1))
            return getattr(L, attr)
    if name.startswith("lstsq"):
        x = np.linalg.lstsq(args[0], args[1], rcond=None)[0]
        return x if name == "lstsq_x" else np.sum((args[1] - args[0] @ x) ** 2)[None]
    return fn(NS(), *args)


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_against_numpy(name, fn, args):
    want = np.asarray(_numpy(name, fn, args))
    with x64_mode(True):
        got = np.asarray(fn(jnp.linalg, *args))
        compiled = np.asarray(transpile.jit(lambda *a: fn(jnp.linalg, *a))(*args))
    for out in (got, compiled):
        assert out.shape == want.shape, (out.shape, want.shape)
        if want.dtype.kind in "iu":
            np.testing.assert_array_equal(out, want)
        else:
            np.testing.assert_allclose(out, want, rtol=1e-9, atol=1e-9 * max(
                1, np.abs(want).max(initial=0)))


@pytest.mark.parametrize("fn, dtype", [
    (lambda a: jnp.linalg.norm(a), np.float32),
    (lambda a: jnp.linalg.norm(a.astype(np.int32)), np.float32),
    (lambda a: jnp.linalg.matrix_rank(a), np.int32),
    (lambda a: jnp.linalg.pinv(a), np.float32),
    (lambda a: jnp.linalg.cond(a), np.float32),
    (lambda a: jnp.linalg.trace(a), np.float32),
])
def test_dtypes(fn, dtype):
    assert np.asarray(fn(SQ.astype(np.float32))).dtype == dtype


@pytest.mark.parametrize("fn, exc, msg", [
    (lambda: jnp.linalg.norm(V, "fro"), ValueError, "Invalid order 'fro' for vector norm."),
    (lambda: jnp.linalg.outer(A, A), ValueError, "Input arrays must be one-dimensional, "
     "but they are x1.ndim=2 x2.ndim=2"),
    (lambda: jnp.linalg.tensorinv(np.eye(4).reshape(4, 2, 2)), ValueError,
     "tensorinv is only possible when the product of the first `ind` dimensions equals "
     "that of the remaining dimensions. got arr.shape=(4, 2, 2) with ind=2."),
])
def test_errors(fn, exc, msg):
    with pytest.raises(exc, match="^" + re.escape(msg) + "$"):
        fn()


def test_pinv_and_norm_grads():
    with x64_mode(True):
        g = np.asarray(transpile.grad(lambda a: jnp.linalg.norm(a, "nuc"))(A))
        p = np.asarray(transpile.grad(lambda a: jnp.linalg.pinv(a)[1, 2])(A))
    u, _, vt = np.linalg.svd(A, full_matrices=False)
    np.testing.assert_allclose(g, u @ vt, rtol=1e-8, atol=1e-10)
    fd = np.zeros_like(A)
    for idx in np.ndindex(A.shape):
        d = np.zeros_like(A)
        d[idx] = 1e-6
        fd[idx] = (np.linalg.pinv(A + d)[1, 2] - np.linalg.pinv(A - d)[1, 2]) / 2e-6
    np.testing.assert_allclose(p, fd, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("a, b", [
    (np.array([1 + 2j, 3 - 1j], np.complex64), np.array([2 - 1j, 1 + 1j], np.complex64)),
    (np.array([200, 100], np.uint8), np.array([200, 100], np.uint8)),
    (B3.astype(np.float32), B3[0].astype(np.float32)),
])
def test_linalg_vecdot_is_the_array_api_vecdot(a, b):
    """``jnp.linalg.vecdot`` is ``jnp.vecdot``, as in JAX: ``x1`` conjugated, the promoted
    dtype kept (uint8 products wrap), as NumPy's ``vecdot`` computes it."""
    got = jnp.linalg.vecdot(a, b)
    want = jnp.vecdot(a, b)
    assert got.dtype == want.dtype == np.result_type(a, b)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_allclose(np.asarray(got), np.vecdot(a, b), rtol=1e-6)


@pytest.mark.parametrize("order", [0.5, 1, 1.5, 2, 3, np.inf, -np.inf, 0, -1, -0.5])
def test_vector_norm_of_complex_is_real(order):
    """Every order of a complex64 vector's norm is float32 (its magnitudes' dtype), as
    JAX 0.10.2 gives it, and NumPy's value in float64."""
    z = (RNG.standard_normal(7) + 1j * RNG.standard_normal(7)).astype(np.complex64)
    got = jnp.linalg.vector_norm(z, ord=order)
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), np.linalg.norm(z.astype(np.complex128),
                                                               order), rtol=2e-6)

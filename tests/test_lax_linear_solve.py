"""``lax.custom_linear_solve`` and ``lax.custom_root`` (``lax/linear_solve.py``).

Recorded from JAX 0.10.2 (``scipy_cases.LINEAR_SOLVE``, ``tools/record_scipy_linalg.py``):
jaxpr text (the ``custom_linear_solve`` equation with its four jaxprs, under ``vmap``
too), values and weak types of solves, JVPs, gradients and ``vmap``, errors word for
word. Independent: gradients against central differences in float64 (the derivative
goes through the solver: a solver that is exact only at the solution still gives exact
derivatives), ``jnp.linalg.solve``'s compiled program (the inline pass splices the
solve in), and ``custom_root``'s derivative by the implicit function theorem.
"""
from __future__ import annotations

import numpy as np

import transpile
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64

import scipy_cases
from scipy_checks import Replay, replay_tests, central_differences

REC = Replay(scipy_cases.LINEAR_SOLVE, "linear_solve")
COMPILED = {"cls_vec", "cls_grad", "root_sqrt"}


(test_cases_were_recorded, test_jaxpr_text, test_values,
 test_errors) = replay_tests(REC, scipy_cases.LINEAR_SOLVE_JAXPRS, COMPILED)


RNG = np.random.default_rng(5)
A = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
B = RNG.normal(size=3)


def _jacobi_solve(a):
    """A solver that knows nothing but Jacobi sweeps: differentiating through it would
    be wrong before convergence; custom_linear_solve differentiates the system."""
    def solve(matvec, b):
        d = jnp.linalg.diagonal(a)
        return lax.fori_loop(0, 60, lambda i, x: x + (b - matvec(x)) / d, jnp.zeros_like(b))
    return solve


def _loss(a, b):
    diag_dominant = a + 6 * jnp.eye(3)
    x = lax.custom_linear_solve(lambda x: diag_dominant @ x, b,
                                _jacobi_solve(diag_dominant),
                                lambda vm, r: jnp.linalg.solve(diag_dominant.T, r))
    return jnp.sum(jnp.sin(x))


def test_grad_through_the_system_not_the_solver():
    with enable_x64(True):
        ga, gb = (np.asarray(g) for g in transpile.grad(_loss, argnums=(0, 1))(A, B))
        fa = central_differences(lambda a: float(_loss(a, B)), A)
        fb = central_differences(lambda b: float(_loss(A, b)), B)
    np.testing.assert_allclose(ga, fa, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gb, fb, rtol=1e-6, atol=1e-9)


def test_jvp_and_vmap_against_numpy():
    da, db = RNG.normal(size=(3, 3)), RNG.normal(size=3)

    def solve(a, b):
        return lax.custom_linear_solve(lambda x: a @ x, b, lambda mv, r: jnp.linalg.solve(a, r),
                                       lambda vm, r: jnp.linalg.solve(a.T, r))
    with enable_x64(True):
        x, dx = (np.asarray(t) for t in transpile.jvp(solve, (A, B), (da, db)))
        batched = np.asarray(transpile.vmap(solve, (None, 0))(A, np.stack([B, -B, 2 * B])))
    want = np.linalg.solve(A, B)
    np.testing.assert_allclose(x, want, rtol=1e-12)
    np.testing.assert_allclose(dx, np.linalg.solve(A, db - da @ want), rtol=1e-10)
    np.testing.assert_allclose(batched, np.stack([want, -want, 2 * want]), rtol=1e-12)


def test_compiled_solve_inlines_the_solver():
    f = transpile.jit(lambda a, b: jnp.linalg.solve(a, b))
    a, b = A.astype(np.float32), B.astype(np.float32)
    text = f.lower(a, b).as_text()
    assert "custom_linear_solve" not in text
    np.testing.assert_allclose(np.asarray(f(a, b)), np.linalg.solve(A, B), rtol=1e-5)


def test_custom_root_derivative_is_implicit():
    def cube_root(y):
        return lax.custom_root(lambda x: x ** 3 - y, jnp.ones_like(y),
                               lambda f, x0: lax.fori_loop(
                                   0, 40, lambda i, x: x - f(x) / (3 * x ** 2), x0),
                               lambda g, r: r / g(jnp.ones_like(r)))
    with enable_x64(True):
        y = np.float64(5.0)
        root = float(cube_root(y))
        slope = float(transpile.grad(cube_root)(y))
    assert abs(root - 5 ** (1 / 3)) < 1e-12
    assert abs(slope - 1 / (3 * 5 ** (2 / 3))) < 1e-12

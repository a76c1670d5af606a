"""``transpile.nn.initializers`` against JAX 0.10.2's values for the same key
(``tests/data/api.json``): bit-exact for the samplers, to a few ulps where a QR
(``orthogonal``) or ``sqrt``/``exp`` of the complex samplers is involved."""
from __future__ import annotations

import numpy as np
import pytest

try:
    import api_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import api_cases, jaxpr_cases

import transpile as jax

API = jaxpr_cases.load_data("api.json")
I = jax.nn.initializers  # noqa: E741


def _id(case):
    expr, shape, dtype = case
    return f"{expr} {shape} {dtype}"


def _tolerance(expr: str, dtype) -> float:
    if "orthogonal" in expr:
        return 2e-6  # Householder QR rounding differs from LAPACK's in the last bits
    if dtype and "complex" in dtype:
        return 1e-6
    return 0.0


@pytest.mark.filterwarnings("ignore:Explicitly requested dtype float64")
@pytest.mark.parametrize("case", api_cases.INIT_CASES, ids=_id)
def test_initializer_matches_jax(case):
    expr, shape, dtype = case
    if dtype and "complex" in dtype:
        pytest.skip("transpile has no complex dtypes (the complex samplers are written "
                    "but cannot run)")
    with jax.enable_x64(dtype in ("float64", "complex128")):
        fn = eval(expr, {"I": I})
        assert isinstance(fn, I.Initializer)
        args = (jax.random.PRNGKey(42), shape) + ((dtype,) if dtype else ())
        out = fn(*args)
        tol = _tolerance(expr, dtype)
        api_cases.assert_matches(out, API["initializers"][_id(case)], rtol=tol, atol=tol)


@pytest.mark.parametrize("case", api_cases.INIT_ERRORS, ids=lambda c: f"{c[0]} {c[1]}")
def test_initializer_errors_match_jax(case):
    expr, shape = case
    want = API["errors"][f"{expr} {shape}"]
    with pytest.raises(Exception) as info:
        eval(expr, {"I": I})(jax.random.PRNGKey(0), shape)
    assert type(info.value).__name__ == want["error"]
    assert str(info.value) == want["message"]


def test_statistics_and_orthogonality():
    key = jax.random.PRNGKey(7)
    w = np.asarray(I.he_normal()(key, (400, 300)))
    np.testing.assert_allclose(w.std(), np.sqrt(2 / 400), rtol=0.03)
    assert np.abs(w).max() <= 2 * np.sqrt(2 / 400) / 0.8796256610342398 + 1e-6
    u = np.asarray(I.glorot_uniform()(key, (200, 100)))
    limit = np.sqrt(3 * 1.0 / 150)
    assert u.min() >= -limit and u.max() < limit
    q = np.asarray(I.orthogonal()(key, (5, 3)), np.float64)
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-5)
    q = np.asarray(I.orthogonal(column_axis=0)(key, (3, 2, 4)), np.float64).reshape(3, 8)
    np.testing.assert_allclose(q @ q.T, np.eye(3), atol=1e-5)


def test_initializer_under_jit():
    init = I.variance_scaling(1.0, "fan_avg", "uniform")
    out = jax.jit(lambda k: init(k, (3, 4)))(jax.random.PRNGKey(42))
    api_cases.assert_matches(out, API["initializers"][
        "I.xavier_uniform() (3, 4) None"], rtol=1e-7)

"""``transpile.scipy.integrate.trapezoid`` against JAX 0.10.2 (``scipy_cases.INTEGRATE``,
recorded by ``tools/record_scipy_linalg.py``: jaxpr text, values, weak types, errors)
and against NumPy's ``trapezoid`` in float64."""
from __future__ import annotations

import numpy as np
import pytest

import transpile
from transpile.config import enable_x64
from transpile.scipy.integrate import trapezoid

import scipy_cases
from scipy_checks import Replay, replay_tests

REC = Replay(scipy_cases.INTEGRATE, "integrate")


(test_cases_were_recorded, test_jaxpr_text, test_values,
 test_errors) = replay_tests(REC, scipy_cases.INTEGRATE_JAXPRS, ("x", "x2d"))


RNG = np.random.default_rng(0)
NUMPY_CASES = [  # (y, x or None, dx, axis)
    (RNG.normal(size=9), None, 0.25, -1),
    (RNG.normal(size=(3, 5)), np.sort(RNG.uniform(size=5)), 1.0, 1),
    (RNG.normal(size=(4, 2)), np.sort(RNG.uniform(size=(4, 2)), axis=0), 1.0, 0),
]


@pytest.mark.parametrize("case", range(len(NUMPY_CASES)))
def test_against_numpy(case):
    y, x, dx, axis = NUMPY_CASES[case]
    want = np.trapezoid(y, x, dx=dx, axis=axis)
    with enable_x64(True):
        got = trapezoid(y, x, dx=dx, axis=axis)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, atol=1e-14)


def test_grad_is_the_weights():
    # d/dy of the rule: dx/2 at the ends, dx inside
    g = transpile.grad(lambda y: trapezoid(y, dx=2.0))(np.ones(5, np.float32))
    np.testing.assert_array_equal(np.asarray(g), [1., 2., 2., 2., 1.])

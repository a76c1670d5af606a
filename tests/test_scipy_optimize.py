"""``transpile.scipy.optimize.minimize`` (BFGS) against JAX 0.10.2.

Recorded (``scipy_cases.OPTIMIZE``, ``tools/record_scipy_linalg.py``): the whole
``OptimizeResults`` of jitted runs on a quadratic (float64 and float32) and on the
Rosenbrock function (float64): iterates within rounding, the iteration and evaluation
counts and the status exactly; errors word for word. Independent: the quadratic's
minimiser is ``A^-1 b``.
"""
from __future__ import annotations

import numpy as np

from transpile.config import enable_x64
from transpile.scipy.optimize import OptimizeResults, minimize

import scipy_cases
from scipy_checks import Replay, replay_tests

REC = Replay(scipy_cases.OPTIMIZE, "optimize")


(test_cases_were_recorded, test_jaxpr_text, test_values,
 test_errors) = replay_tests(REC, (), ())


def test_quadratic_minimiser_and_result_type():
    a = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]])
    b = np.array([1., -2., 3.])
    with enable_x64(True):
        res = minimize(lambda x: 0.5 * x @ a @ x - b @ x, np.zeros(3), method="BFGS",
                       options=dict(gtol=1e-10))
    assert isinstance(res, OptimizeResults)
    assert bool(res.success) and int(res.status) == 0
    np.testing.assert_allclose(np.asarray(res.x), np.linalg.solve(a, b), rtol=1e-9)
    np.testing.assert_allclose(np.asarray(res.jac), a @ np.asarray(res.x) - b, atol=1e-9)
    # the inverse-Hessian estimate stays symmetric positive definite (JAX 0.10.2 gives
    # [[1/2, -1/3, -1/6], [-1/3, 2/3, 0], [-1/6, 0, 5/6]] here, not inv(a): the last
    # step converged before the update could match the curvature everywhere)
    h = np.asarray(res.hess_inv)
    np.testing.assert_allclose(h, h.T, atol=1e-12)
    assert np.all(np.linalg.eigvalsh(h) > 0)
    np.testing.assert_allclose(h, [[1 / 2, -1 / 3, -1 / 6], [-1 / 3, 2 / 3, 0],
                                   [-1 / 6, 0, 5 / 6]], atol=1e-12)

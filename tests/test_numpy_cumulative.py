"""transpile.numpy.reductions against JAX 0.10.2: cumulative_sum and cumulative_prod
(include_initial, dtypes, errors).

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import pytest

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("cumulative"))
def test_recorded(name, kind):
    check("cumulative", name, kind)

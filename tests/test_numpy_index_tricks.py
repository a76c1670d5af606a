"""transpile.numpy.index_tricks against JAX 0.10.2: meshgrid, mgrid, ogrid, indices,
ix_, r_, c_, s_, index_exp, ravel_multi_index and unravel_index.

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import pytest

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("index_tricks"))
def test_recorded(name, kind):
    check("index_tricks", name, kind)

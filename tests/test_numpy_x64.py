"""transpile.numpy (the long tail, part A) in 64-bit mode against JAX 0.10.2: index
dtypes, promotions and values with ``jax_enable_x64`` on.

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import pytest

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("x64"))
def test_recorded(name, kind):
    check("x64", name, kind)

"""transpile.numpy.shape_extra against JAX 0.10.2: repeat, roll, rollaxis, rot90,
append, insert, delete, resize, trim_zeros, hsplit/vsplit/dsplit, unstack, block,
apply_along_axis and apply_over_axes.

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import pytest

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("shape_extra"))
def test_recorded(name, kind):
    check("shape_extra", name, kind)

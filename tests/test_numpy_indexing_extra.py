"""transpile.numpy.indexing_extra against JAX 0.10.2: compress, extract, choose, place,
put and put_along_axis.

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import pytest

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("indexing_extra"))
def test_recorded(name, kind):
    check("indexing_extra", name, kind)

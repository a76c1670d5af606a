"""``transpile.numpy.calculus`` against JAX 0.10.2 (cases ``calc/*`` of
``numpy_long_tail_b_cases.py``): values, dtypes, weak types and errors eagerly, and
values under ``jit``, ``grad`` and ``vmap`` where the case asks for them."""
from __future__ import annotations

from numpy_long_tail_b_checks import DATA, names, make_tests

test_eager, test_jit, test_grad, test_vmap = make_tests("calc")


def test_cases_were_recorded():
    assert names("calc") and all(n in DATA for n in names("calc"))

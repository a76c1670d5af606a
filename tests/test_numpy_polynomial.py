"""``transpile.numpy.polynomial`` against JAX 0.10.2 (cases ``poly/*`` of
``numpy_long_tail_b_cases.py``): values, dtypes, weak types and errors eagerly, and
values under ``jit``, ``grad`` and ``vmap`` where the case asks for them."""
from __future__ import annotations

from numpy_long_tail_b_checks import DATA, names, make_tests

test_eager, test_jit, test_grad, test_vmap = make_tests("poly")


def test_cases_were_recorded():
    assert names("poly") and all(n in DATA for n in names("poly"))

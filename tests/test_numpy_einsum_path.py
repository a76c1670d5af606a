"""``transpile.numpy.einsum_path`` against JAX 0.10.2 (cases ``einsum/*`` of
``numpy_long_tail_b_cases.py``): values, dtypes, weak types and errors eagerly, and
values under ``jit``, ``grad`` and ``vmap`` where the case asks for them."""
from __future__ import annotations

from numpy_long_tail_b_checks import DATA, names, make_tests

test_eager, test_jit, test_grad, test_vmap = make_tests("einsum")


def test_cases_were_recorded():
    assert names("einsum") and all(n in DATA for n in names("einsum"))

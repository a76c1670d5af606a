"""transpile.numpy.pad against JAX 0.10.2: jnp.pad: every mode, pad_width forms,
constant and end values, reflect types and a callable mode.

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import pytest

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("pad"))
def test_recorded(name, kind):
    check("pad", name, kind)

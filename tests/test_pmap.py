"""``pmap`` (``transpile/pmap.py``: a ``jit`` of a ``shard_map`` over a 1-D mesh) against
JAX 0.10.2's recorded values, jaxpr text and errors with 2 CPU devices."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
from transpile import lax

from shard_map_checks import check_case, device_count, names


@pytest.mark.parametrize("name", names("pmap_"))
def test_pmap_matches_jax(name):
    check_case(name)


def test_pmap_reuses_its_compiled_program():
    with device_count(2):
        f = jax.pmap(lambda v: v - lax.pmean(v, "i"), axis_name="i")
        a = f(np.arange(4.0, dtype=np.float32).reshape(2, 2))
        b = f(np.ones((2, 2), np.float32))
        np.testing.assert_array_equal(np.asarray(a), [[-1, -1], [1, 1]])
        np.testing.assert_array_equal(np.asarray(b), np.zeros((2, 2)))

"""``transpile.numpy.histograms`` against JAX 0.10.2 (cases ``hist/*`` of
``numpy_long_tail_b_cases.py``): values, dtypes, weak types and errors eagerly, and
values under ``jit``, ``grad`` and ``vmap`` where the case asks for them."""
from __future__ import annotations

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile.errors import ConcretizationTypeError

from numpy_long_tail_b_checks import DATA, names, make_tests

test_eager, test_jit, test_grad, test_vmap = make_tests("hist")


def test_cases_were_recorded():
    assert names("hist") and all(n in DATA for n in names("hist"))


def test_bincount_needs_static_length_under_jit():
    # JAX 0.10.2: ConcretizationTypeError naming the argument and the static `length`.
    x = np.array([0, 1, 1, 3], np.int32)
    with pytest.raises(ConcretizationTypeError,
                       match="The error occurred because of argument 'x' of jnp.bincount. "
                             "To avoid this error, pass a static `length` argument."):
        transpile.jit(jnp.bincount)(x)
    np.testing.assert_array_equal(transpile.jit(lambda v: jnp.bincount(v, length=5))(x),
                                  [1, 2, 0, 1, 0])

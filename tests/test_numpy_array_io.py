"""transpile.numpy.array_io against JAX 0.10.2: copy, isscalar, iterable, fromfunction,
frombuffer, fromiter, fromstring, array_str and the print options.

Eager, under ``jit``, ``grad`` and ``vmap`` and as jaxpr text where recorded (see
``numpy_long_tail_a_checks.py``).
"""
from __future__ import annotations

import io

import numpy as np
import pytest

import transpile.numpy as jnp

try:
    from numpy_long_tail_a_checks import check, params
except ImportError:  # collected as a package
    from tests.numpy_long_tail_a_checks import check, params


@pytest.mark.parametrize("name, kind", params("array_io"))
def test_recorded(name, kind):
    check("array_io", name, kind)


def test_save_load_round_trip(tmp_path):
    """save/load go through NumPy's .npy format; load returns an Array."""
    x = jnp.arange(6, dtype=jnp.int16).reshape(2, 3)
    buf = io.BytesIO()
    jnp.save(buf, x)
    buf.seek(0)
    back = jnp.load(buf)
    assert isinstance(back, jnp.ndarray) and back.dtype == np.int16
    np.testing.assert_array_equal(np.asarray(back), np.asarray(x))
    # An .npz archive comes back as NumPy's lazy mapping, as in JAX.
    path = tmp_path / "arrays.npz"
    jnp.savez(path, a=x, b=jnp.ones(2))
    with jnp.load(path) as archive:
        assert sorted(archive.files) == ["a", "b"]
        np.testing.assert_array_equal(archive["a"], np.asarray(x))


def test_save_load_round_trip_of_bfloat16():
    # .npy stores bfloat16 as two raw bytes (V2); load reads that back as bfloat16
    x = jnp.asarray([0.5, -1.25, 3.0e38, np.inf], jnp.float32).astype(jnp.bfloat16)
    buf = io.BytesIO()
    jnp.save(buf, x)
    buf.seek(0)
    back = jnp.load(buf)
    assert back.dtype == jnp.bfloat16
    assert np.asarray(back).tobytes() == np.asarray(x).tobytes()

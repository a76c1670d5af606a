"""The Array API conformance fixes of issue 20 (``transpile/numpy/einsum_path.py``'s
``vecdot``/``vecmat``, ``creation.py``'s ``eye`` with a far diagonal offset; the
namespace and inspection answers are in
``tests/test_array_interop.py``) against JAX 0.10.2, recorded by
``tools/record_array_api.py`` in ``tests/data/array_api.json``: dtype, weak type,
shape and values eagerly and under ``jit``/``grad``/``vmap``, error class and message
for bad input; and the values against NumPy in float64/complex128."""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp

import array_api_cases

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "array_api.json")
                  .read_text())["cases"]
CASES = array_api_cases.cases(jax)


def _close(got, want):
    if isinstance(want, dict):
        assert isinstance(got, dict), got
        for key in ("dtype", "shape", "weak_type"):
            assert got[key] == want[key], (key, got, want)
        np.testing.assert_allclose(np.asarray(got["values"], np.float64),
                                   np.asarray(want["values"], np.float64), rtol=1e-6)
    elif isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _close(g, w)
    else:
        assert got == want


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(DATA)


@pytest.mark.parametrize("name", sorted(DATA))
def test_matches_jax(name):
    got = array_api_cases.run(CASES[name])
    want = DATA[name]
    if "error" in want:
        assert got.get("error") == want["error"]
        return
    assert "error" not in got, got["error"]
    _close(got["result"], want["result"])


def _np_vecdot(a, b, axis=-1):
    a, b = np.moveaxis(np.asarray(a), axis, -1), np.moveaxis(np.asarray(b), axis, -1)
    return np.sum(np.conj(a).astype(np.complex128) * b, axis=-1)


@pytest.mark.parametrize("a,b,axis", [
    (np.array([1 + 2j, 3 - 1j], np.complex64), np.array([2 - 1j, 1j], np.complex64), -1),
    (np.arange(12, dtype=np.float32).reshape(3, 4) - 5, np.ones((3, 1), np.float32), 0),
    (np.arange(6, dtype=np.int16).reshape(2, 3), np.array([3, -1, 2], np.int16), -1),
])
def test_vecdot_matches_numpy(a, b, axis):
    want = _np_vecdot(a, b, axis)
    np.testing.assert_allclose(np.asarray(jnp.vecdot(a, b, axis=axis)), want, rtol=1e-6)
    assert jnp.vecdot(a, b, axis=axis).dtype == np.result_type(a, b)


def test_vecmat_conjugates_like_numpy():
    x = np.array([1 + 2j, 3 - 1j], np.complex64)
    m = np.array([[2 - 1j, 1j, 1], [1, 1 + 1j, -1j]], np.complex64)
    np.testing.assert_allclose(np.asarray(jnp.vecmat(x, m)), np.conj(x) @ m, rtol=1e-6)

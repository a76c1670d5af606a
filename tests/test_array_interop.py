"""Array interoperability (``transpile/array_interop.py``, ``transpile/numpy/array_api.py``
and ``__jax_array__`` in ``jnp.asarray``/``array`` and the operators): against JAX
0.10.2's behaviour recorded by ``tools/record_array_interop.py`` in
``tests/data/array_interop.json``, and DLPack's memory sharing against NumPy.
"""
import json
import pathlib
import sys

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp

import array_interop_cases

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "array_interop.json")
                  .read_text())["cases"]
CASES = array_interop_cases.cases(jax)


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(DATA)


@pytest.mark.parametrize("name", sorted(DATA))
def test_interop_matches_jax(name):
    got = array_interop_cases.run(CASES[name])
    want = DATA[name]
    if "error" in want:
        assert got.get("error") == want["error"]
        return
    assert "error" not in got, got["error"]
    assert got["result"] == want["result"]


X = jnp.arange(6.).reshape(2, 3)


class _Legacy:
    """A DLPack producer as seen by a consumer older than DLPack 1.0."""

    def __init__(self, x, **kw):
        self.x, self.kw = x, kw

    def __dlpack__(self, **_):
        return self.x.__dlpack__(**self.kw)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def test_dlpack_shares_memory_read_only():
    y = np.from_dlpack(X)
    assert np.shares_memory(y, np.asarray(X)) and not y.flags.writeable
    np.testing.assert_array_equal(y, np.arange(6.).reshape(2, 3))


def test_dlpack_legacy_consumer_gets_a_copy():
    y = np.from_dlpack(_Legacy(X))
    assert not np.shares_memory(y, np.asarray(X))
    np.testing.assert_array_equal(y, np.asarray(X))
    with pytest.raises(BufferError):
        np.from_dlpack(_Legacy(X, copy=False))
    with pytest.raises(BufferError):
        X.__dlpack__(dl_device=(2, 0))


def test_from_dlpack_copy_and_weak_type():
    src = np.arange(4, dtype=np.float32)
    # an Array is immutable, so one made from a writable producer owns its data
    for got in (jnp.from_dlpack(src), jnp.from_dlpack(src, copy=True)):
        assert not np.shares_memory(np.asarray(got), src)
        np.testing.assert_array_equal(np.asarray(got), src)
    w = jnp.asarray(2.0)
    assert w.weak_type and not jnp.from_dlpack(w).weak_type


def test_to_device_sharding_and_bad_device():
    cpu = jax.devices()[0]
    assert X.to_device(cpu) is X
    assert repr(X.sharding) == f"SingleDeviceSharding(device={cpu!r}, memory_kind=device)"
    assert X.sharding.device_set == {cpu}
    with pytest.raises(ValueError):
        X.to_device("cpu")


@pytest.mark.skipif(sys.version_info < (3, 12), reason="__buffer__ (PEP 688) needs 3.12")
def test_buffer_protocol():
    m = memoryview(X)
    assert m.readonly and m.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(m), np.asarray(X))


def test_namespace_functions_work_on_arrays():
    xp = X.__array_namespace__()
    np.testing.assert_allclose(np.asarray(xp.sum(xp.sin(X), axis=1)),
                               np.sin(np.arange(6.).reshape(2, 3)).sum(1), rtol=1e-6)

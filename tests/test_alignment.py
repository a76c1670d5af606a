"""Arrays that compiled kernels read start on a 64-byte boundary: ``transpile.numpy``
arrays made from host data and pooled results (the matmul's vector loops lose about a
quarter of their speed on rows straddling cache lines)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.memory import pool


def _address(x) -> int:
    return np.asarray(x).ctypes.data


@pytest.mark.parametrize("shape, dtype", [((256, 256), np.float32), ((3, 5), np.int8),
                                          ((1000,), np.int32), ((7,), np.float32)])
def test_arrays_from_host_data_are_aligned(shape, dtype):
    src = np.arange(int(np.prod(shape))).reshape(shape)[..., ::-1]  # strided source
    for _ in range(4):
        x = tnp.asarray(src, dtype=dtype)
        assert _address(x) % 64 == 0
        np.testing.assert_array_equal(np.asarray(x), src.astype(dtype))
        assert np.asarray(x).flags.c_contiguous


def test_fortran_order_source_gives_a_c_order_copy():
    src = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    x = tnp.array(src)
    assert np.asarray(x).flags.c_contiguous
    np.testing.assert_array_equal(np.asarray(x), src)


def test_empty_shapes():
    assert tnp.asarray(np.zeros((0, 5), np.float32)).shape == (0, 5)
    assert pool.empty_aligned((0,), np.float32).shape == (0,)


def test_pooled_results_are_aligned():
    n = pool.MIN_BYTES // 4 + 3
    f = tp.jit(lambda v: v * 2)
    v = tnp.asarray(np.ones(n, np.float32))
    for _ in range(4):
        out = f(v)
        assert _address(out) % 64 == 0
        np.testing.assert_array_equal(np.asarray(out), 2)
    arr, block = pool.empty((n,), np.float32)
    assert block is not None and arr.ctypes.data % 64 == 0

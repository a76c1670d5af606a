"""``transpile.experimental.multihost_utils`` in one process (each function's
one-process case, as JAX's); across processes ``test_shard_map_processes.py`` runs them
under mpirun."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
from transpile.experimental import multihost_utils as mu


@pytest.mark.parametrize("value", [np.arange(6.0, dtype=np.float32).reshape(2, 3),
                                   np.int32(7), np.array([True, False])])
def test_process_allgather_stacks_one_process(value):
    got = mu.process_allgather({"a": value})["a"]
    np.testing.assert_array_equal(got, np.asarray(value)[None])
    tiled = mu.process_allgather(value, tiled=True)
    want = np.asarray(value) if np.ndim(value) else np.asarray(value)[None]
    np.testing.assert_array_equal(tiled, want)


def test_broadcast_one_to_all_and_its_source():
    tree = {"w": np.ones((2, 2), np.float32), "n": np.int32(3)}
    out = mu.broadcast_one_to_all(tree)
    np.testing.assert_array_equal(out["w"], tree["w"])
    assert int(out["n"]) == 3
    with pytest.raises(ValueError, match="exactly one source"):
        mu.broadcast_one_to_all(tree, is_source=False)


def test_sync_and_assert_equal():
    mu.sync_global_devices("a point")
    mu.assert_equal([np.arange(3), np.float32(np.nan)], "differs")
    assert jax.experimental.multihost_utils is mu

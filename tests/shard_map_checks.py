"""Checks shared by ``test_lax_parallel.py``, ``test_shard_map.py`` and ``test_pmap.py``:
run a case of ``shard_map_cases.py`` with its device count and compare it with JAX
0.10.2's record (``tests/data/shard_map.json``, ``tools/record_shard_map.py``)."""
from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import numpy as np

import transpile as jax
from transpile import tree_util

from shard_map_cases import build

RECORD = json.loads((Path(__file__).parent / "data" / "shard_map.json").read_text())
CASES = build(jax, np)
# JAX raises its own ValueError subclass for an indivisible sharding
ERROR_TYPES = {"IndivisibleError": "ValueError"}
# the module (``transpile.devices`` is also the function)
devices = sys.modules["transpile.devices"]


def names(prefix: str) -> list:
    return sorted(n for n in RECORD if n.startswith(prefix))


@contextlib.contextmanager
def device_count(n: int):
    """Run with ``n`` CPU devices; the previous count afterwards."""
    before = len(devices.devices("cpu"))
    devices._reset_for_tests(n)
    try:
        yield
    finally:
        devices._reset_for_tests(before)


def compare_leaves(got, want, name, rtol=1e-6, atol=0.0) -> None:
    """The leaves of ``got`` against recorded ``want`` (shape, dtype, weak type, values)."""
    leaves = tree_util.tree_leaves(got)
    assert len(leaves) == len(want), name
    for g, w in zip(leaves, want):
        a = np.asarray(g)
        assert list(a.shape) == w["shape"], (name, a.shape, w["shape"])
        assert str(a.dtype) == w["dtype"], (name, a.dtype, w["dtype"])
        assert bool(getattr(g, "weak_type", False)) == w["weak_type"], name
        np.testing.assert_allclose(a, np.asarray(w["values"], dtype=a.dtype), rtol=rtol,
                                   atol=atol, err_msg=name)


def check_case(name: str, use_jit: bool = False) -> None:
    """The case's values (eager, or under ``jit``), jaxpr text and errors match JAX's."""
    want = RECORD[name]
    ndev, kind, thunk = CASES[name]
    with device_count(ndev):
        fn, args = thunk()
        run = jax.jit(fn) if use_jit else fn
        if "jaxpr" in want and not use_jit:
            assert str(jax.make_jaxpr(fn)(*args)) == want["jaxpr"], name
        if "error" in want:
            err = want["error"]
            try:
                run(*args)
            except Exception as e:  # noqa: BLE001 - compared with JAX's
                assert type(e).__name__ == ERROR_TYPES.get(err["error"], err["error"]), e
                assert str(e) == err["message"], name
            else:
                if kind == "error":
                    raise AssertionError(f"{name}: no error, JAX raises {err['error']}")
            return
        out = run(*args)
        compare_leaves(out, want["value"], name)
        if "sharding" in want:
            assert [repr(v.sharding) for v in tree_util.tree_leaves(out)] \
                == want["sharding"], name

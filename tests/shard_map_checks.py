"""Checks shared by ``test_lax_parallel.py``, ``test_shard_map.py`` and ``test_pmap.py``:
run a case of ``shard_map_cases.py`` with its device count and compare it with JAX
0.10.2's record (``tests/data/shard_map.json``, ``tools/record_shard_map.py``)."""
from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

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


class FourDeviceRecord:
    """The checks of a recorded ``build(jax, np)`` module run with four devices
    (``tools/jax_device_counts.record_built``): ``test_lax_parallel_groups.py`` and
    ``test_lax_parallel_multi_axis.py``. ``own_errors``: the cases JAX 0.10.2 fails in
    XLA's verifier, with our ValueError's message."""

    def __init__(self, data_file: str, cases: dict, own_errors: dict):
        self.record = json.loads((Path(__file__).parent / "data" / data_file).read_text())
        self.cases = cases
        self.own_errors = own_errors

    def names(self, kinds=("value", "jaxpr")) -> list:
        return sorted(n for n, e in self.record.items() if e["kind"] in kinds
                      and n in self.cases and "error" not in e)

    def error_names(self) -> list:
        return sorted(n for n, e in self.record.items()
                      if "error" in e and n not in self.own_errors)

    def check_value(self, name: str, under_jit: bool = False) -> None:
        """Values, dtypes and weak types (and jaxpr text where recorded) as JAX's."""
        fn, args = self.cases[name][1]()
        want = self.record[name]
        if want["kind"] == "jaxpr" and not under_jit:
            assert str(jax.make_jaxpr(fn)(*args)) == want["jaxpr"], name
        got = (jax.jit(fn) if under_jit else fn)(*args)
        compare_leaves(got, want["value"], name, rtol=1e-5, atol=1e-5)

    def check_error(self, name: str) -> None:
        """JAX's exception class and message."""
        fn, args = self.cases[name][1]()
        err = self.record[name]["error"]
        with pytest.raises(Exception) as info:
            fn(*args)
        assert type(info.value).__name__ == err["error"], info.value
        assert str(info.value) == err["message"]

    def check_own_error(self, name: str) -> None:
        """Where JAX stages the case and XLA's verifier rejects it: our ValueError."""
        assert self.record[name]["error"]["error"] in ("ValueError", "JaxRuntimeError")
        assert "verifier" in self.record[name]["error"]["message"]
        fn, args = self.cases[name][1]()
        with pytest.raises(ValueError) as info:
            fn(*args)
        assert str(info.value) == self.own_errors[name]

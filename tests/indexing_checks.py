"""Checks shared by the indexing tests: recorded JAX behaviour against ours.

``tests/data/indexing.json`` holds, per program of ``indexing_cases.py``, JAX's jaxpr
text (or error) and eager outputs (or error). Three checks per program:

* ``check_jaxpr``: ``make_jaxpr`` prints the same text (or raises the same error);
* ``check_eager``: eager outputs have the same shapes, dtypes, weak types and values;
* ``check_staged``: the staged jaxpr, run by the NumPy evaluator, gives JAX's eager
  values (so the traced path is checked without compiling C).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

try:
    import indexing_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import indexing_cases, jaxpr_cases

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.errors import BOOLEAN_INDEX_HINT
from transpile.interpreters.eval import eval_jaxpr_numpy

RECORDED = jaxpr_cases.load_data("indexing.json")["cases"]
PROGRAMS = indexing_cases.programs(jax, jnp, lax, np)

__all__ = ["names", "check_jaxpr", "check_eager", "check_staged", "RECORDED", "PROGRAMS"]


def names(group: str) -> list:
    return sorted(n for n in RECORDED if n.startswith(group + "/"))


def _quiet():
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("ignore")
    return ctx


def _expect_error(rec: dict, fn):
    with pytest.raises(Exception) as info:
        ctx = _quiet()
        try:
            fn()
        finally:
            ctx.__exit__(None, None, None)
    got = indexing_cases.normalise_error(info.value)
    # transpile's one documented addition to a JAX message: the remedies for a mask
    got["message"] = got["message"].replace("\n" + BOOLEAN_INDEX_HINT, "")
    assert got["error"] == rec["error"], got
    assert got["message"] == rec["message"]


def check_jaxpr(name: str) -> None:
    rec = RECORDED[name]
    fn, args = PROGRAMS[name]
    if "jaxpr_error" in rec:
        _expect_error(rec["jaxpr_error"], lambda: jax.make_jaxpr(fn)(*args))
        return
    ctx = _quiet()
    try:
        text = str(jax.make_jaxpr(fn)(*args))
    finally:
        ctx.__exit__(None, None, None)
    assert text == rec["jaxpr"]


def _values(v, dtype):
    return np.asarray(v, dtype=object if dtype == "bool" else None).astype(dtype) \
        if not isinstance(v, list) or v else np.zeros((0,), dtype)


def _compare(leaves: list, want: list, check_weak: bool = True) -> None:
    assert len(leaves) == len(want)
    for got, w in zip(leaves, want, strict=True):
        arr = np.asarray(got)
        assert list(arr.shape) == w["shape"]
        assert str(arr.dtype) == w["dtype"]
        if check_weak:
            assert bool(getattr(got, "weak_type", False)) == w["weak_type"]
        expected = np.array(w["values"], dtype=object)
        expected = np.where(expected == "nan", np.nan, expected) if expected.size else expected
        expected = expected.astype(w["dtype"]).reshape(w["shape"])
        np.testing.assert_array_equal(arr, expected)


def check_eager(name: str) -> None:
    rec = RECORDED[name]
    fn, args = PROGRAMS[name]
    if "eager_error" in rec:
        _expect_error(rec["eager_error"], lambda: fn(*args))
        return
    ctx = _quiet()
    try:
        out = fn(*args)
    finally:
        ctx.__exit__(None, None, None)
    _compare(jax.tree_util.tree_leaves(out), rec["eager"])


def _raises(name: str) -> bool:
    rec = RECORDED[name]
    return "jaxpr_error" in rec or "eager_error" in rec


def _staged(name: str):
    """The jaxpr of a recorded program and its flat NumPy arguments."""
    fn, args = PROGRAMS[name]
    ctx = _quiet()
    try:
        closed = jax.make_jaxpr(fn)(*args)
    finally:
        ctx.__exit__(None, None, None)
    return closed, [np.asarray(a) for a in jax.tree_util.tree_leaves(args)]


def check_staged(name: str) -> None:
    if _raises(name):
        pytest.skip("the program raises")
    closed, flat = _staged(name)
    outs = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *flat)
    _compare(outs, RECORDED[name]["eager"], check_weak=False)


def compile_recorded(group_names: list) -> dict:
    """Compile the jaxprs of the recorded programs that run (all in one library).

    Returns
    -------
    dict
        name -> (flat NumPy arguments, Executable).
    """
    from transpile.stages import compile_many
    items = []
    for name in group_names:
        if not _raises(name):
            items.append((name, *_staged(name)))
    exes = compile_many([(f"ix{i}", c) for i, (_, c, _) in enumerate(items)])
    return {n: (flat, exe) for (n, _, flat), exe in zip(items, exes, strict=True)}


def check_compiled(compiled: dict, name: str) -> None:
    """The compiled C of a recorded program gives JAX's recorded values."""
    if name not in compiled:
        pytest.skip("the program raises")
    flat, exe = compiled[name]
    _compare(exe(flat), RECORDED[name]["eager"], check_weak=False)

"""Jaxpr text, avals and outputs of the shared programs, against JAX 0.10.2's recording.

The programs live in ``tests/jaxpr_cases.py``; ``tools/record_jax_data.py`` recorded
what JAX printed and returned into ``tests/data/jaxpr_text.json``. Every case is its
own test, so one failure hides no other.
"""
from __future__ import annotations

import numpy as np
import pytest

try:
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases

try:
    import transpile as jax
    import transpile.numpy as jnp
    from transpile import lax
    _IMPORT_ERROR = None
except Exception as _e:  # the API is still being written; every test reports this
    jax = jnp = lax = None
    _IMPORT_ERROR = _e

RECORDED = jaxpr_cases.load_data("jaxpr_text.json")["cases"]
NAMES = sorted(RECORDED)


def _api():
    if _IMPORT_ERROR is not None:
        pytest.fail(f"cannot import transpile: {type(_IMPORT_ERROR).__name__}: {_IMPORT_ERROR}")
    return jax, jnp, lax, np


def _case(name):
    by_name = {c.name: c for c in jaxpr_cases.cases(*_api())}
    if name not in by_name:
        pytest.fail(f"case {name} is recorded but no longer in jaxpr_cases.py; re-record")
    return by_name[name]


def test_recorded_cases_match_table():
    """Every program in the table has a recording, and vice versa (data is not stale)."""
    class _Any:
        def __getattr__(self, name):
            return self
    names = [c.name for c in jaxpr_cases.cases(_Any(), _Any(), _Any(), np)]
    assert len(names) == len(set(names)), "duplicate case names"
    assert sorted(names) == NAMES
    assert len(NAMES) >= 50


@pytest.mark.parametrize("name", NAMES)
def test_jaxpr_text(name):
    rec = RECORDED[name]
    case = _case(name)
    fn, args = case.build()
    closed = jax.make_jaxpr(fn, static_argnums=case.static_argnums)(*args)
    assert str(closed) == rec["jaxpr"]


def _aval_dict(a):
    return {"shape": list(a.shape), "dtype": str(np.dtype(a.dtype)),
            "weak_type": bool(a.weak_type)}


@pytest.mark.parametrize("name", NAMES)
def test_jaxpr_avals(name):
    rec = RECORDED[name]
    case = _case(name)
    fn, args = case.build()
    closed = jax.make_jaxpr(fn, static_argnums=case.static_argnums)(*args)
    assert [_aval_dict(a) for a in closed.in_avals] == rec["in_avals"]
    assert [_aval_dict(a) for a in closed.out_avals] == rec["out_avals"]
    assert len(closed.consts) == rec["n_consts"]


# ---------------------------------------------------------------------------------------
# Outputs

def _check_leaf(i, ours, want):
    where = f"output leaf {i}"
    if want["kind"] != "Array":
        assert type(ours).__name__ == want["kind"], where
        assert ours == want["value"], where
        return
    assert isinstance(ours, jax.Array), f"{where}: {type(ours)} is not a jax.Array"
    assert list(ours.shape) == want["shape"], where
    assert str(ours.dtype) == want["dtype"], where
    assert bool(ours.weak_type) == want["weak_type"], f"{where}: weak_type"
    got = np.asarray(ours)
    if "values" in want:
        expected = np.asarray(want["values"], dtype=want["dtype"])
        if expected.dtype.kind == "f":
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=where)
        else:
            np.testing.assert_array_equal(got, expected, err_msg=where)
    elif "sum" in want:
        np.testing.assert_allclose(got.astype(np.float64).sum(), want["sum"], rtol=1e-5,
                                   atol=1e-6, err_msg=where)


def _check_outputs(run, want):
    if "error" in want:  # JAX raised too; expect the same exception class
        with pytest.raises(Exception) as info:
            run()
        assert type(info.value).__name__ == want["error"]
        return
    out = run()
    leaves, tree = jax.tree_util.tree_flatten(out)
    assert len(leaves) == len(want["leaves"]), f"{tree} vs {want['tree']}"
    for i, (ours, w) in enumerate(zip(leaves, want["leaves"], strict=True)):
        _check_leaf(i, ours, w)
    assert str(tree) == want["tree"]


@pytest.mark.parametrize("name", NAMES)
def test_eager_outputs(name):
    case = _case(name)
    fn, args = case.build()
    _check_outputs(lambda: fn(*args), RECORDED[name]["eager"])


@pytest.mark.parametrize("name", NAMES)
def test_jit_outputs(name):
    case = _case(name)
    fn, args = case.build()
    jitted = jax.jit(fn, static_argnums=case.static_argnums)
    _check_outputs(lambda: jitted(*args), RECORDED[name]["jit"])

"""Collectives over several named axes, with and without ``axis_index_groups``, and
``axis_index`` of a tuple of axes (``transpile/lax/parallel.py``; the rule that gathers
every member of the axes, ``parallel_multi_axis.py``) against JAX 0.10.2's recorded
values, dtypes, jaxpr text and errors with 4 CPU devices
(``tests/data/multi_axis.json``, ``tools/record_multi_axis.py``)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as jax

from multi_axis_cases import build
from shard_map_checks import compare_leaves
from sharding_fixtures import four_devices  # noqa: F401 - the fixture

RECORD = json.loads((Path(__file__).parent / "data" / "multi_axis.json").read_text())
CASES = build(jax, np)
# run again under an outer jit
UNDER_JIT = ["psum_ij_order", "all_gather_ji_order", "all_to_all_ji", "ppermute_ji_partial",
             "grad_psum_order", "axis_index_pv"]
# JAX 0.10.2 fails in XLA's verifier (after staging) on these; ours are ValueErrors
OWN_ERRORS = {
    "xla_partial_cover": "axis_index_groups must cover all indices exactly once: "
                         "((0, 1),) cover 2 of the 4 indices of the axes ('i', 'j')",
    "xla_gather_uneven": "all_gather requires axis_index_groups of equal sizes (as XLA's "
                         "replica groups), got ((3, 1, 2), (0,))",
}


def _names(kinds) -> list:
    return sorted(n for n, e in RECORD.items() if e["kind"] in kinds and n in CASES
                  and "error" not in e)


@pytest.mark.parametrize("name", _names({"value", "jaxpr"}))
def test_values_match_jax(name, four_devices):  # noqa: F811
    fn, args = CASES[name][1]()
    want = RECORD[name]
    if want["kind"] == "jaxpr":
        assert str(jax.make_jaxpr(fn)(*args)) == want["jaxpr"], name
    compare_leaves(fn(*args), want["value"], name, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", UNDER_JIT)
def test_values_under_jit_match_jax(name, four_devices):  # noqa: F811
    fn, args = CASES[name][1]()
    compare_leaves(jax.jit(fn)(*args), RECORD[name]["value"], name, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(n for n, e in RECORD.items()
                                        if "error" in e and n not in OWN_ERRORS))
def test_errors_match_jax(name, four_devices):  # noqa: F811
    fn, args = CASES[name][1]()
    err = RECORD[name]["error"]
    with pytest.raises(Exception) as info:
        fn(*args)
    assert type(info.value).__name__ == err["error"], info.value
    assert str(info.value) == err["message"]


@pytest.mark.parametrize("name", sorted(OWN_ERRORS))
def test_our_errors_where_jax_fails_in_xla(name, four_devices):  # noqa: F811
    assert RECORD[name]["error"]["error"] in ("ValueError", "JaxRuntimeError")
    assert "verifier" in RECORD[name]["error"]["message"]
    fn, args = CASES[name][1]()
    with pytest.raises(ValueError) as info:
        fn(*args)
    assert str(info.value) == OWN_ERRORS[name]

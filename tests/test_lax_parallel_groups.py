"""Collectives with ``axis_index_groups`` (``transpile/lax/parallel.py``, their grouped
batching rules in ``parallel_batching.py``, transposes in ``parallel_ad.py``) against
JAX 0.10.2's recorded values, dtypes, jaxpr text and errors with 4 CPU devices
(``tests/data/axis_index_groups.json``, ``tools/record_axis_index_groups.py``), and
their gradients against finite differences of a float64 NumPy model of the groups."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as jax

from axis_index_groups_cases import ORDER, build
from shard_map_checks import compare_leaves
from sharding_fixtures import four_devices  # noqa: F401 - the fixture

RECORD = json.loads((Path(__file__).parent / "data" / "axis_index_groups.json").read_text())
CASES = build(jax, np)
# run again under an outer jit (pmap is a jit already: the outer one inlines it)
UNDER_JIT = ["psum_order", "psum_uneven3", "all_gather_tiled", "all_to_all_2d",
             "grad_psum"]
# JAX 0.10.2 fails in XLA's verifier (after staging) on these; ours are ValueErrors
OWN_ERRORS = {
    "xla_partial_cover": "axis_index_groups must cover all indices exactly once: "
                         "((0, 1), (2,)) cover 3 of the 4 indices of the axis 'i'",
    "xla_empty": "axis_index_groups must cover all indices exactly once: () cover 0 of "
                 "the 4 indices of the axis 'i'",
    "xla_gather_uneven": "all_gather requires axis_index_groups of equal sizes (as XLA's "
                         "replica groups), got ((3, 1, 2), (0,))",
    "xla_scatter_uneven": "psum_scatter requires axis_index_groups of equal sizes (as "
                          "XLA's replica groups), got ((3, 1, 2), (0,))",
}


def _names(kinds) -> list:
    return sorted(n for n, e in RECORD.items() if e["kind"] in kinds and n in CASES
                  and "error" not in e)


def _compare(got, want, name) -> None:
    compare_leaves(got, want, name, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", _names({"value", "jaxpr"}))
def test_values_match_jax(name, four_devices):  # noqa: F811
    fn, args = CASES[name][1]()
    want = RECORD[name]
    if want["kind"] == "jaxpr":
        assert str(jax.make_jaxpr(fn)(*args)) == want["jaxpr"], name
    _compare(fn(*args), want["value"], name)


@pytest.mark.parametrize("name", UNDER_JIT)
def test_values_under_jit_match_jax(name, four_devices):  # noqa: F811
    fn, args = CASES[name][1]()
    _compare(jax.jit(fn)(*args), RECORD[name]["value"], name)


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
    # JAX stages these and XLA's verifier rejects them: a clear ValueError here instead
    assert RECORD[name]["error"]["error"] in ("ValueError", "JaxRuntimeError")
    assert "verifier" in RECORD[name]["error"]["message"]
    fn, args = CASES[name][1]()
    with pytest.raises(ValueError) as info:
        fn(*args)
    assert str(info.value) == OWN_ERRORS[name]


# ---------------------------------------------------------------------------------------
# gradients against finite differences of a NumPy model (float64)

def _group_of(groups, m):
    return next(g for g in groups if m in g)


def _np_psum(v, groups):
    return np.stack([sum(v[j] for j in _group_of(groups, m)) for m in range(len(v))])


def _np_all_gather(v, groups):
    return np.stack([np.stack([v[j] for j in _group_of(groups, m)])
                     for m in range(len(v))])


def _np_psum_scatter_tiled(v, groups):
    out = []
    for m in range(len(v)):
        g = _group_of(groups, m)
        block = v.shape[1] // len(g)
        out.append(sum(v[j] for j in g)[g.index(m) * block:(g.index(m) + 1) * block])
    return np.stack(out)


def _np_all_to_all(v, groups):
    return np.stack([np.stack([v[j][_group_of(groups, m).index(m)]
                               for j in _group_of(groups, m)]) for m in range(len(v))])


# case name -> (the grouped collective, as NumPy computes it; the loss's weights)
FD = {
    "grad_psum": (_np_psum, lambda x: x + 1),
    "grad_all_gather": (_np_all_gather, lambda x: np.arange(16.0).reshape(4, 2, 2)),
    "grad_psum_scatter": (_np_psum_scatter_tiled,
                          lambda x: np.arange(4.0).reshape(4, 1)),
    "grad_all_to_all": (_np_all_to_all, lambda x: x + 1),
}


@pytest.mark.parametrize("name", sorted(FD))
def test_grad_matches_finite_differences(name, four_devices):  # noqa: F811
    op, weights = FD[name]
    fn, (x,) = CASES[name][1]()
    x64 = np.asarray(x, np.float64)
    wts = weights(x64)

    def loss(v):
        return float((wts * np.sin(op(v * v, ORDER))).sum())
    eps = 1e-6
    fd = np.zeros_like(x64)
    for idx in np.ndindex(x64.shape):
        step = np.zeros_like(x64)
        step[idx] = eps
        fd[idx] = (loss(x64 + step) - loss(x64 - step)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(fn(x)), fd, rtol=2e-3, atol=2e-3)

"""Collectives with ``axis_index_groups`` (``transpile/lax/parallel.py``, their grouped
batching rules in ``parallel_batching.py``, transposes in ``parallel_ad.py``) against
JAX 0.10.2's recorded values, dtypes, jaxpr text and errors with 4 CPU devices
(``tests/data/axis_index_groups.json``, ``tools/record_axis_index_groups.py``), and
their gradients against finite differences of a float64 NumPy model of the groups."""
from __future__ import annotations


import numpy as np
import pytest

import transpile as jax

from axis_index_groups_cases import ORDER, build
from shard_map_checks import FourDeviceRecord
from sharding_fixtures import four_devices  # noqa: F401 - the fixture

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


REC = FourDeviceRecord("axis_index_groups.json", CASES, OWN_ERRORS)
RECORD = REC.record


@pytest.mark.parametrize("name", REC.names())
def test_values_match_jax(name, four_devices):  # noqa: F811
    REC.check_value(name)


@pytest.mark.parametrize("name", UNDER_JIT)
def test_values_under_jit_match_jax(name, four_devices):  # noqa: F811
    REC.check_value(name, under_jit=True)


@pytest.mark.parametrize("name", REC.error_names())
def test_errors_match_jax(name, four_devices):  # noqa: F811
    REC.check_error(name)


@pytest.mark.parametrize("name", sorted(OWN_ERRORS))
def test_our_errors_where_jax_fails_in_xla(name, four_devices):  # noqa: F811
    # JAX stages these and XLA's verifier rejects them: a clear ValueError here instead
    REC.check_own_error(name)


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

"""Collectives over several named axes, with and without ``axis_index_groups``, and
``axis_index`` of a tuple of axes (``transpile/lax/parallel.py``; the rule that gathers
every member of the axes, ``parallel_multi_axis.py``) against JAX 0.10.2's recorded
values, dtypes, jaxpr text and errors with 4 CPU devices
(``tests/data/multi_axis.json``, ``tools/record_multi_axis.py``)."""
from __future__ import annotations


import numpy as np
import pytest

import transpile as jax

from multi_axis_cases import build
from shard_map_checks import FourDeviceRecord
from sharding_fixtures import four_devices  # noqa: F401 - the fixture

CASES = build(jax, np)
# run again under an outer jit
UNDER_JIT = ["psum_ij_order", "all_gather_ji_order", "all_to_all_ji", "ppermute_ji_partial",
             "grad_psum_order", "axis_index_pv", "sm_vmap_all_to_all"]
# JAX 0.10.2 fails in XLA's verifier (after staging) on these; ours are ValueErrors
OWN_ERRORS = {
    "xla_partial_cover": "axis_index_groups must cover all indices exactly once: "
                         "((0, 1),) cover 2 of the 4 indices of the axes ('i', 'j')",
    "xla_gather_uneven": "all_gather requires axis_index_groups of equal sizes (as XLA's "
                         "replica groups), got ((3, 1, 2), (0,))",
}


REC = FourDeviceRecord("multi_axis.json", CASES, OWN_ERRORS)
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


# JAX 0.10.2's vmap rules fail (AssertionError) on these over two vmap axes; ours give
# what a shard_map over the same 2x2 grid of members gives (JAX's recorded values)
GRID = {
    "all_gather_ji": lambda v: jax.lax.all_gather(v, ("j", "i")),
    "ppermute_ji": lambda v: jax.lax.ppermute(v, ("j", "i"), [(0, 1), (1, 2), (2, 3),
                                                             (3, 0)]),
    "psum_scatter_ij": lambda v: jax.lax.psum_scatter(v, ("i", "j"), tiled=True),
}


@pytest.mark.parametrize("name", sorted(GRID))
def test_two_vmap_axes_match_the_shard_map(name, four_devices):  # noqa: F811
    want = RECORD[name]["value"][0]
    rec = np.asarray(want["values"], np.float32)
    args = CASES[name][1]()[1][0]
    cols = args.shape[1] // 2
    # member (i, j)'s block of the shard_map's operand, and of its output
    grid = np.stack([np.stack([args[i, cols * j:cols * (j + 1)] for j in range(2)])
                     for i in range(2)])
    got = np.asarray(jax.vmap(jax.vmap(GRID[name], axis_name="j"), axis_name="i")(grid))
    per = rec.shape[1] // 2
    for i in range(2):
        for j in range(2):
            block = rec[i, per * j:per * (j + 1)]
            np.testing.assert_array_equal(got[i, j], block.reshape(got[i, j].shape),
                                          err_msg=f"{name} member {(i, j)}")

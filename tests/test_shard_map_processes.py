"""``shard_map`` over a mesh that spans processes (``mpirun``; ``lax/shard_map_call.py``
batches over each process's own devices, the collectives call the process-level ones):
``tests/mpi_programs/shard_map_step.py``, a data-parallel training step with psum,
pmean, all_gather, axis_index and pmax, eager and under jit, prints the same bits
whichever way the same devices are laid out over processes, and JAX 0.10.2's values
(``tests/data/shard_map_processes.json``, ``tools/record_shard_map_processes.py``)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mpi_launch import bit_values, program_result

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = str(ROOT / "tests" / "mpi_programs" / "shard_map_step.py")
JAX = json.loads((ROOT / "tests" / "data" / "shard_map_processes.json").read_text())


@pytest.fixture(scope="module")
def alone():
    """One process with 2 and with 4 devices."""
    return {n: program_result(PROGRAM, n) for n in (2, 4)}


@pytest.mark.parametrize("processes,per_process", [(2, 1), (2, 2)])
def test_same_bits_whatever_the_layout(alone, processes, per_process):
    got = program_result(PROGRAM, per_process, processes)
    want = alone[processes * per_process]
    assert got == want, [k for k in want if got.get(k) != want[k]]


@pytest.mark.parametrize("n", [2, 4])
def test_values_match_jax(alone, n):
    got, want = alone[n], JAX[str(n)]
    assert sorted(got) == sorted(want)
    for key in want:
        if not isinstance(want[key], list):  # device count, gather and broadcast checks
            assert got[key] == want[key], key
            continue
        g = [got[key]] if key.endswith(tuple(f"loss{k}" for k in range(3))) else got[key]
        w = [want[key]] if key.endswith(tuple(f"loss{k}" for k in range(3))) else want[key]
        for a, b in zip(g, w, strict=True):
            np.testing.assert_allclose(bit_values(a), bit_values(b), rtol=2e-6, atol=1e-7,
                                       err_msg=key)

"""``pmap`` in a run of several processes (``mpirun``; ``transpile/pmap.py``): each
process passes its local devices' blocks and gets theirs back, the collectives span
every process's devices (grouped ones too: ``parallel_batching._all_members``), and
a ``shard_map`` over two mesh axes, one spanning the processes, has collectives over
both (``parallel_multi_axis``).
``tests/mpi_programs/pmap_step.py`` prints the same bits for 2 processes x 1 device and
2 x 2 as one process with 2 and 4 devices, and JAX 0.10.2's values in one process
(``tests/data/pmap_processes.json``, ``tools/record_pmap_processes.py``)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mpi_launch import bit_values, program_result

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = str(ROOT / "tests" / "mpi_programs" / "pmap_step.py")
JAX = json.loads((ROOT / "tests" / "data" / "pmap_processes.json").read_text())


@pytest.fixture(scope="module")
def alone():
    """One process with 2 and with 4 devices."""
    return {n: program_result(PROGRAM, n, drop=("PMAP_STEP_JAX",)) for n in (2, 4)}


@pytest.mark.parametrize("processes,per_process", [(2, 1), (2, 2)])
def test_same_bits_as_one_process(alone, processes, per_process):
    got = program_result(PROGRAM, per_process, processes, drop=("PMAP_STEP_JAX",))
    want = alone[processes * per_process]
    assert got == want, [k for k in want if got.get(k) != want[k]]


@pytest.mark.parametrize("n", [2, 4])
def test_values_match_jax(alone, n):
    got, want = alone[n], JAX[str(n)]
    assert sorted(got) == sorted(want)
    assert got["devices"] == want["devices"]
    assert got["wrong_size_refused"] and want["wrong_size_refused"]
    pairs = []
    for key in ("collectives", "two_axes_outer", "two_axes_inner"):
        pairs += list(zip(got[key], want[key], strict=True))
    pairs += [(got[k], want[k]) for k in ("loss0", "loss1", "params")]
    for k, (a, b) in enumerate(pairs):
        assert a[:2] == b[:2], k  # dtype and shape
        np.testing.assert_allclose(bit_values(a), bit_values(b), rtol=2e-6, atol=1e-6,
                                   err_msg=str(k))

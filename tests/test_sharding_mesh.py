"""``Mesh``, ``AbstractMesh``, ``make_mesh``, ``set_mesh`` and ``PartitionSpec``
against JAX 0.10.2 with 4 CPU devices (the ``mesh`` section of
``tests/data/sharding.json``, from the cases of ``tests/sharding_mesh_cases.py``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import transpile

import sharding_cases
import sharding_mesh_cases
from sharding_fixtures import four_devices  # noqa: F401 - a fixture

CASES = json.loads((Path(__file__).parent / "data" / "sharding.json").read_text())["mesh"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name, four_devices):  # noqa: F811 - the fixture
    thunk = sharding_mesh_cases.cases(transpile)[name]
    got = json.loads(json.dumps(sharding_cases.run(thunk)))
    assert got == CASES[name]

"""Record what JAX 0.10.2 does with the shardings and sharded arrays of
``tests/sharding_cases.py`` (and the meshes of ``tests/sharding_mesh_cases.py``), with
4 CPU devices.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_sharding.py

It writes ``tests/data/sharding.json``: ``{"_meta": {...}, "cases": {name:
{"result": value} or {"error": "Class: message"}}, "mesh": {...the same...}}``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402

jax.config.update("jax_num_cpu_devices", 4)

import jax.numpy  # noqa: E402,F401
import jax.sharding  # noqa: E402,F401

import sharding_cases  # noqa: E402
import sharding_mesh_cases  # noqa: E402


def main() -> None:
    data = {"_meta": {"jax": jax.__version__, "num_cpu_devices": 4},
            "cases": {n: sharding_cases.run(t)
                      for n, t in sharding_cases.cases(jax).items()},
            "mesh": {n: sharding_cases.run(t)
                     for n, t in sharding_mesh_cases.cases(jax).items()}}
    out = ROOT / "tests" / "data" / "sharding.json"
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(data['cases'])} + {len(data['mesh'])} cases)")


if __name__ == "__main__":
    main()

"""Record what JAX 0.10.2 does in the programs of ``tests/array_api_cases.py`` (the
behaviour behind the Array API conformance fixes of issue 20).

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_array_api.py

It writes ``tests/data/array_api.json``: ``{"_meta": {...}, "cases": {name:
{"result": value} or {"error": "Class: message"}}}``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import array_api_cases  # noqa: E402


def main() -> None:
    out = {name: array_api_cases.run(thunk)
           for name, thunk in array_api_cases.cases(jax).items()}
    data = {"_meta": {"jax": jax.__version__, "x64": False}, "cases": out}
    path = ROOT / "tests" / "data" / "array_api.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()

"""Record what JAX 0.10.2 gives for the idioms of its "Custom derivative rules"
tutorial (``tests/custom_derivative_cases.py``): each output leaf's kind, value, dtype
and weak type, the side effects in order (which user functions ran), or the error.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_custom_derivatives.py

It writes ``tests/data/custom_derivatives.json``: ``{"_meta": {...}, "cases": {name:
{"out": {"leaves": [...], "tree": str}, "log": [...]} or {"error": "Class: message"}}}``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import custom_derivative_cases  # noqa: E402


def main() -> None:
    out = {}
    for name, thunk in custom_derivative_cases.cases(jax).items():
        try:
            res, log = thunk()
            out[name] = {"out": custom_derivative_cases.encode(jax.tree_util, res),
                         "log": log}
        except Exception as e:  # noqa: BLE001 - recorded, not raised
            out[name] = {"error": f"{type(e).__name__}: {e}"}
    data = {"_meta": {"jax": jax.__version__, "x64": False}, "cases": out}
    path = ROOT / "tests" / "data" / "custom_derivatives.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()

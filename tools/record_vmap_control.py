"""Record JAX 0.10.2's ``make_jaxpr(vmap(f))`` text for the programs of
``tests/vmap_control_cases.py`` (and the values of its random cases).

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_vmap_control.py

It writes ``tests/data/vmap_control.json``: ``{"_meta": {...}, "cases": {name:
{"jaxpr": text, ["value": nested list, "dtype": name]} or {"jaxpr_error": "Class:
message"}}}``, with JAX's default (32-bit) types.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401
import jax.random  # noqa: E402,F401

import vmap_control_cases  # noqa: E402


def main() -> None:
    out = {}
    for name, (fn, args, in_axes) in vmap_control_cases.cases(jax, np).items():
        try:
            f = jax.vmap(fn, in_axes=in_axes)
            out[name] = {"jaxpr": str(jax.make_jaxpr(f)(*args))}
            if name in vmap_control_cases.RECORD_VALUES:
                v = np.asarray(f(*args))
                out[name].update(value=v.tolist(), dtype=v.dtype.name)
        except Exception as e:  # noqa: BLE001 - recorded, not raised
            out[name] = {"jaxpr_error": f"{type(e).__name__}: {e}"}
    data = {"_meta": {"jax": jax.__version__, "x64": False}, "cases": out}
    path = ROOT / "tests" / "data" / "vmap_control.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()

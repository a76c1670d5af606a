"""Record JAX 0.10.2's ``make_jaxpr(vmap(f))`` text for the programs of
``tests/vmap_structural_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_vmap_structural.py

It writes ``tests/data/vmap_structural.json``: ``{"_meta": {...}, "cases": {name:
{"jaxpr": text} or {"jaxpr_error": "Class: message"}}}``, with x64 enabled.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
from jax import lax  # noqa: E402

import vmap_structural_cases  # noqa: E402


def main() -> None:
    jax.config.update("jax_enable_x64", True)
    out = {}
    for name, (fn, args, in_axes, out_axes) in vmap_structural_cases.cases(lax, np).items():
        try:
            text = str(jax.make_jaxpr(jax.vmap(fn, in_axes=in_axes, out_axes=out_axes))(*args))
            out[name] = {"jaxpr": text}
        except Exception as e:  # noqa: BLE001 - recorded, not raised
            out[name] = {"jaxpr_error": f"{type(e).__name__}: {e}"}
    data = {"_meta": {"jax": jax.__version__, "x64": True}, "cases": out}
    path = ROOT / "tests" / "data" / "vmap_structural.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()

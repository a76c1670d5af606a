"""Record JAX 0.10.2's jaxprs for the differentiated elementwise programs of
``tests/ad_elementwise_cases.py`` into ``tests/data/ad_elementwise.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_ad_elementwise.py

Each entry is ``{"x64": bool, "jaxpr": text}`` or ``{"x64": bool, "error": [class,
message]}`` (the first line of the message) when JAX raises.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

import ad_elementwise_cases  # noqa: E402


def main() -> None:
    out = {"_meta": {"jax": jax.__version__}, "cases": {}}
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        cases = ad_elementwise_cases.programs(jax, jnp, lax, np)
        for name, case in cases.items():
            if case.x64 != x64:
                continue
            entry = {"x64": x64}
            try:
                entry["jaxpr"] = str(jax.make_jaxpr(case.fn)(*case.args()))
            except Exception as e:  # noqa: BLE001 - recorded as data
                entry["error"] = [type(e).__name__, str(e).splitlines()[0]]
            out["cases"][name] = entry
    jax.config.update("jax_enable_x64", False)
    order = list(ad_elementwise_cases.programs(jax, jnp, lax, np))
    out["cases"] = {k: out["cases"][k] for k in order}
    path = ROOT / "tests" / "data" / "ad_elementwise.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=False) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()

"""Record JAX 0.10.2 on the windowed-reduction cases of ``tests/windowed_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_windowed.py

The ``jax.image`` cases (``IMAGE_CASES``, ``IMAGE_ERRORS``) are recorded alongside.
It writes ``tests/data/windowed.json``: ``{"cases": {name: entry}, "helpers": {...},
"errors": {...}}``. A case entry has ``"value"``: one ``{shape, dtype, weak_type,
values}`` per output leaf (NaN and infinities as strings), and ``"jaxpr"`` (the text of
``make_jaxpr``) where the case asks for it. A helper's entry is its value (lists) or
``{"error", "message"}``; an error case's entry is ``{"error", "message"}``.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax.example_libraries import stax  # noqa: E402

import windowed_cases as wc  # noqa: E402

ENV = {"jax": jax, "jnp": jnp, "lax": lax, "np": np, "stax": stax}


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def _leaf(x) -> dict:
    a = np.asarray(x)
    vals = a.astype(np.float64) if a.dtype.kind == "f" else a
    return {"shape": list(a.shape), "dtype": str(a.dtype),
            "weak_type": bool(getattr(x, "weak_type", False)),
            "values": _plain(vals.tolist())}


def _error(e: Exception) -> dict:
    return {"error": type(e).__name__, "message": str(e)}


def main() -> None:
    out = {"cases": {}, "helpers": {}, "errors": {}}
    for name, src, inputs, want_jaxpr in wc.CASES + wc.IMAGE_CASES:
        fn = eval(src, ENV)  # noqa: S307 - sources from the case table
        args = [jnp.asarray(wc.make_input(i)) for i in inputs]
        entry = {"value": [_leaf(v) for v in jax.tree_util.tree_leaves(fn(*args))]}
        if want_jaxpr:
            entry["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
        out["cases"][name] = entry
    for name, src in wc.HELPERS:
        try:
            v = eval(src, ENV)  # noqa: S307
            out["helpers"][name] = json.loads(json.dumps([list(map(int, t)) if
                                                         isinstance(t, tuple) else int(t)
                                                         for t in v]))
        except Exception as e:  # noqa: BLE001 - recorded as the expected error
            out["helpers"][name] = _error(e)
    for name, src, inputs in wc.ERRORS + wc.IMAGE_ERRORS:
        fn = eval(src, ENV)  # noqa: S307
        try:
            fn(*[jnp.asarray(wc.make_input(i)) for i in inputs])
            out["errors"][name] = {"error": None, "message": "did not raise"}
        except Exception as e:  # noqa: BLE001
            out["errors"][name] = _error(e)
    path = ROOT / "tests" / "data" / "windowed.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

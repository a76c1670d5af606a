"""Record JAX 0.10.2 on the indexing programs of ``tests/indexing_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_indexing_data.py

It writes ``tests/data/indexing.json``: for every program, the text of
``jax.make_jaxpr(fn)(*args)`` (or the error it raises) and the eager outputs (per leaf:
shape, dtype, weak type and values, NaN as the string "nan"), or the eager error.
"""
from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

import indexing_cases  # noqa: E402


def _plain(v):
    """JSON-safe values: NaN and infinities as strings."""
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def leaves_info(out) -> list:
    leaves = jax.tree_util.tree_leaves(out)
    return [{"shape": list(np.shape(x)), "dtype": str(np.asarray(x).dtype),
             "weak_type": bool(getattr(x, "weak_type", False)),
             "values": _plain(np.asarray(x).tolist())} for x in leaves]


def record() -> dict:
    out = {}
    progs = indexing_cases.programs(jax, jnp, lax, np)
    for name, (fn, args) in progs.items():
        rec = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                rec["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
            except Exception as e:  # noqa: BLE001  (recorded: the test expects it too)
                rec["jaxpr_error"] = indexing_cases.normalise_error(e)
            try:
                rec["eager"] = leaves_info(fn(*args))
            except Exception as e:  # noqa: BLE001
                rec["eager_error"] = indexing_cases.normalise_error(e)
        out[name] = rec
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64, "run with x64 off (unset JAX_ENABLE_X64)"
    data = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                      "recorded_by": "tools/record_indexing_data.py"},
            "cases": record()}
    path = ROOT / "tests" / "data" / "indexing.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path.relative_to(ROOT)} ({len(data['cases'])} programs)")


if __name__ == "__main__":
    main()

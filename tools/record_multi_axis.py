"""Record JAX 0.10.2 on the collectives over several named axes of
``tests/multi_axis_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_multi_axis.py

It writes ``tests/data/multi_axis.json``: ``{name: entry}`` with ``kind`` and
``"value"`` (one ``{shape, dtype, weak_type, values}`` per output leaf), ``"jaxpr"``
(``str(jax.make_jaxpr(fn)(*args))``, for ``kind == "jaxpr"``) or ``"error"``
(``{"error": class name, "message": text}``).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import jax_device_counts   # tools/, beside this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "multi_axis.json"


def main() -> None:
    import jax
    jax.config.update("jax_num_cpu_devices", 4)
    import numpy as np
    sys.path.insert(0, str(ROOT / "tests"))
    from multi_axis_cases import build
    data = {}
    for name, (kind, thunk) in build(jax, np).items():
        entry = {"kind": kind}
        fn, args = thunk()
        try:
            if kind == "jaxpr":
                entry["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
            res = fn(*args)
            entry["value"] = [jax_device_counts.leaf(v) for v in jax.tree_util.tree_leaves(res)]
        except Exception as e:  # noqa: BLE001 - recorded
            # the first line: XLA's verifier errors go on with a stack of its own
            entry["error"] = {"error": type(e).__name__,
                              "message": str(e).split("\n")[0]}
        data[name] = entry
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(data)} cases)")


if __name__ == "__main__":
    main()

"""Record JAX 0.10.2 on the cases of ``tests/shard_map_ad_cases.py``: ``grad``, ``vjp``,
``linearize``, ``jvp`` and ``vmap`` of functions holding a ``shard_map``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_shard_map_ad.py

Each device count runs in a child process started with ``JAX_NUM_CPU_DEVICES`` set. It
writes ``tests/data/shard_map_ad.json``: ``{name: entry}`` with ``ndev``, ``"jaxpr"``
(``str(jax.make_jaxpr(fn)(*args))``), ``"value"`` (one ``{shape, dtype, weak_type,
values}`` per output leaf) and ``"sharding"`` (each result's ``str(sharding)``), or
``"error"`` (``{"error": class name, "message": text}``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import jax_device_counts   # tools/, beside this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "shard_map_ad.json"


def _child(ndev: int) -> dict:
    import jax
    import numpy as np
    sys.path.insert(0, str(ROOT / "tests"))
    from shard_map_ad_cases import build
    out = {}
    for name, (n, thunk) in build(jax, np).items():
        if n != ndev:
            continue
        entry = {"ndev": n}
        fn, args = thunk()
        try:
            if not name.startswith("jit_"):
                entry["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
            res = fn(*args)
            leaves = jax.tree_util.tree_leaves(res)
            entry["value"] = [jax_device_counts.leaf(v) for v in leaves]
            if hasattr(leaves[0], "sharding"):
                entry["sharding"] = [str(v.sharding) for v in leaves]
        except Exception as e:  # noqa: BLE001 - recorded
            entry["error"] = {"error": type(e).__name__, "message": str(e)}
        out[name] = entry
    return out


def main() -> None:
    jax_device_counts.record(__file__, OUT, _child)


if __name__ == "__main__":
    main()

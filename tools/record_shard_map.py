"""Record JAX 0.10.2 on the collectives, ``shard_map`` and ``pmap`` cases of
``tests/shard_map_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_shard_map.py

Each case runs in a child process started with ``JAX_NUM_CPU_DEVICES`` set to the
case's device count. It writes ``tests/data/shard_map.json``: ``{name: entry}`` with
``ndev``, ``kind`` and ``"value"`` (one ``{shape, dtype, weak_type, values}`` per output
leaf), ``"jaxpr"`` (``str(jax.make_jaxpr(fn)(*args))``, for ``kind == "jaxpr"``) or
``"error"`` (``{"error": class name, "message": text}``), and for ``shard_map``/``pmap``
cases ``"sharding"`` (each result's ``repr(sharding)``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import jax_device_counts   # tools/, beside this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "shard_map.json"


def _child(ndev: int) -> dict:
    import jax
    import numpy as np
    sys.path.insert(0, str(ROOT / "tests"))
    from shard_map_cases import build
    out = {}
    for name, (n, kind, thunk) in build(jax, np).items():
        if n != ndev:
            continue
        entry = {"ndev": n, "kind": kind}
        fn, args = thunk()
        if kind == "jaxpr":  # staged even where JAX's CPU backend cannot run it
            entry["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
        try:
            res = fn(*args)
            entry["value"] = [jax_device_counts.leaf(v) for v in jax.tree_util.tree_leaves(res)]
            # where the results live (not yet for grad and vmap of shard_map: their
            # results come from the batched expansion, not a transposed shard_map)
            if name.startswith(("sm_", "pmap_")) and not any(
                    w in name for w in ("grad", "vmap")):
                entry["sharding"] = [repr(v.sharding)
                                     for v in jax.tree_util.tree_leaves(res)]
        except Exception as e:  # noqa: BLE001 - recorded
            entry["error"] = {"error": type(e).__name__, "message": str(e)}
        out[name] = entry
    return out


def main() -> None:
    jax_device_counts.record(__file__, OUT, _child)


if __name__ == "__main__":
    main()

"""Shared by the recording scripts that run JAX with several CPU devices: each device
count in a child process of its own (JAX fixes the count at its first use), the cases
each child records merged into one JSON file; or the cases of a ``build(jax, np)``
module run with four devices (``record_built``)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def record(script: str, out: Path, child, counts=(2, 4)) -> None:
    """Run ``script --child N`` for each N of ``counts`` with ``JAX_NUM_CPU_DEVICES=N``
    and write the merged cases to ``out``; in a child (``--child N``), print
    ``child(N)`` as JSON instead."""
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(child(int(sys.argv[2]))))
        return
    data = {}
    for ndev in counts:
        env = dict(os.environ, JAX_NUM_CPU_DEVICES=str(ndev), JAX_PLATFORMS="cpu")
        res = subprocess.run([sys.executable, script, "--child", str(ndev)], env=env,
                             check=True, capture_output=True, text=True)
        data.update(json.loads(res.stdout.strip().splitlines()[-1]))
    out.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")
    print(f"wrote {out} ({len(data)} cases)")


def leaf(v) -> dict:
    """A recorded array: shape, dtype, weak type and values."""
    import numpy as np
    a = np.asarray(v)
    return {"shape": list(a.shape), "dtype": str(a.dtype),
            "weak_type": bool(getattr(getattr(v, "aval", None), "weak_type", False)),
            "values": a.tolist()}


def record_built(cases_module: str, out: Path, devices: int = 4) -> None:
    """Run every case of ``tests/<cases_module>.py``'s ``build(jax, np)`` (name ->
    ``(kind, thunk)``, the thunk giving ``(fn, args)``) with ``devices`` CPU devices, and
    write ``{name: entry}`` to ``out``: ``kind``, ``"value"`` (one ``leaf`` per output),
    ``"jaxpr"`` (for ``kind == "jaxpr"``) or ``"error"`` (class name and first line)."""
    import jax
    jax.config.update("jax_num_cpu_devices", devices)
    import importlib
    import numpy as np
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    build = importlib.import_module(cases_module).build
    data = {}
    for name, (kind, thunk) in build(jax, np).items():
        entry = {"kind": kind}
        fn, args = thunk()
        try:
            if kind == "jaxpr":
                entry["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
            res = fn(*args)
            entry["value"] = [leaf(v) for v in jax.tree_util.tree_leaves(res)]
        except Exception as e:  # noqa: BLE001 - recorded
            # the first line: XLA's verifier errors go on with a stack of its own
            entry["error"] = {"error": type(e).__name__,
                              "message": str(e).split("\n")[0]}
        data[name] = entry
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(data)} cases)")

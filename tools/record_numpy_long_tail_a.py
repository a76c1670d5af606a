"""Record JAX 0.10.2 on the programs of ``tests/numpy_long_tail_a_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_numpy_long_tail_a.py

It writes ``tests/data/numpy_long_tail_a.json``: ``{"_meta": {...}, topic: {name:
entry}}``. Each entry has ``"eager"`` and, as the case's flags ask, ``"jit"``,
``"grad"``, ``"vmap"`` (each a list of leaf records, see ``leaves`` in the cases module,
or ``{"error": class, "message": text}``) and ``"jaxpr"`` (the text of
``make_jaxpr``); every other program that runs and that JAX can stage, outside
``KNOWN_JAXPR_DIFFERENCES``, has ``"jaxpr_sha256"`` (of that text).
"""
from __future__ import annotations

import hashlib
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import numpy_long_tail_a_cases as cases  # noqa: E402
from indexing_cases import normalise_error  # noqa: E402


def _run(thunk):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cases.leaves(thunk(), np)
    except Exception as e:  # noqa: BLE001  (the error is the record)
        return normalise_error(e)


def record_case(fn, args, flags: str, check_sha: bool) -> dict:
    entry = {"eager": _run(lambda: fn(*args))}
    if "j" in flags:
        entry["jit"] = _run(lambda: jax.jit(fn)(*args))
    if "g" in flags:
        def loss(a0, *rest):
            return cases.weighted_sum(fn(a0, *rest), jnp, np)
        entry["grad"] = _run(lambda: jax.grad(loss)(*args))
    if "v" in flags:
        in_axes = (0,) + (None,) * (len(args) - 1)
        entry["vmap"] = _run(lambda: jax.vmap(fn, in_axes)(cases.batch_arg(args[0], np),
                                                           *args[1:]))
    if "p" in flags:
        entry["jaxpr"] = str(jax.make_jaxpr(fn)(*args))
    elif check_sha and isinstance(entry["eager"], list):
        try:
            text = str(jax.make_jaxpr(fn)(*args))
        except Exception:  # noqa: BLE001  (a value-dependent program: nothing to stage)
            return entry
        entry["jaxpr_sha256"] = hashlib.sha256(text.encode()).hexdigest()
    return entry


def main() -> None:
    out = {"_meta": {"jax": jax.__version__, "numpy": np.__version__}}
    for topic, progs in cases.programs(jnp, np).items():
        known = cases.KNOWN_JAXPR_DIFFERENCES.get(topic, set())
        jax.config.update("jax_enable_x64", topic in cases.X64_TOPICS)
        try:
            out[topic] = {name: record_case(fn, args, flags, name not in known)
                          for name, (fn, args, flags) in progs.items()}
        finally:
            jax.config.update("jax_enable_x64", False)
    path = ROOT / "tests" / "data" / "numpy_long_tail_a.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

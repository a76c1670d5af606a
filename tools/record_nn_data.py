"""Record JAX 0.10.2's ``jax.nn`` answers for the programs of ``tests/nn_cases.py`` into
``tests/data/nn.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_nn_data.py

Each entry: ``x64``, ``jaxpr`` (``make_jaxpr(f)``), ``grad_jaxpr``
(``make_jaxpr(grad(lambda x: sum(f(x))))``, differentiable cases only), and the output
``value`` (nested lists; inf/nan as strings), ``dtype``, ``shape`` and ``weak_type``.
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

import nn_cases  # noqa: E402


def _encode(a: np.ndarray):
    return [x if np.isfinite(x) else repr(float(x)) for x in a.astype(np.float64).ravel()]


def main() -> None:
    out = {"_meta": {"jax": jax.__version__}, "cases": {}}
    order = list(nn_cases.programs(jax, jnp, np))
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for name, case in nn_cases.programs(jax, jnp, np).items():
            if case.x64 != x64:
                continue
            y = case.fn(case.arg)
            entry = {"x64": x64, "jaxpr": str(jax.make_jaxpr(case.fn)(case.arg))}
            if case.diff:
                g = jax.grad(lambda x, f=case.fn: jnp.sum(f(x)))
                entry["grad_jaxpr"] = str(jax.make_jaxpr(g)(case.arg))
                entry["grad_value"] = _encode(np.asarray(g(case.arg)))
            entry.update(value=_encode(np.asarray(y)), dtype=str(y.dtype),
                         shape=list(y.shape), weak_type=bool(y.weak_type))
            out["cases"][name] = entry
    jax.config.update("jax_enable_x64", False)
    out["cases"] = {k: out["cases"][k] for k in order}
    path = ROOT / "tests" / "data" / "nn.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()

"""Record JAX 0.10.2 on the sampler programs of ``tests/random_sampler_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_random_samplers.py

It writes ``tests/data/random_samplers.json`` in the format of ``tests/data/random.json``
(see ``tools/record_random_data.py``, whose recorder it uses): per program, JAX's eager
outputs, its outputs under ``jax.jit`` and, where asked, its ``make_jaxpr`` text, or the
error each raised.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax, random  # noqa: E402

import random_sampler_cases  # noqa: E402
from record_random_data import Recorder, record_case  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64, "run with x64 off (unset JAX_ENABLE_X64)"
    rec = Recorder()
    cases = {}
    progs = random_sampler_cases.programs(jax, jnp, lax, np, random)
    for i, (name, case) in enumerate(progs.items()):
        cases[name] = record_case(rec, i, name, case)
    assert not rec.large, "keep sampler outputs small (<= 4096 elements)"
    differ = [n for n, c in cases.items() if c.get("eager_equals_jit") is False]
    data = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                      "recorded_by": "tools/record_random_samplers.py",
                      "eager_differs_from_jit": differ},
            "cases": cases}
    path = ROOT / "tests" / "data" / "random_samplers.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path.relative_to(ROOT)} ({len(cases)} programs, "
          f"{path.stat().st_size} bytes)")
    if differ:
        print("eager != jit in JAX:", ", ".join(differ))


if __name__ == "__main__":
    main()

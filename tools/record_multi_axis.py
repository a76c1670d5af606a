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

from pathlib import Path

import jax_device_counts   # tools/, beside this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "multi_axis.json"

if __name__ == "__main__":
    jax_device_counts.record_built("multi_axis_cases", OUT)

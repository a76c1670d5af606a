"""Record JAX 0.10.2 on the ``axis_index_groups`` cases of
``tests/axis_index_groups_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_axis_index_groups.py

It writes ``tests/data/axis_index_groups.json``: ``{name: entry}`` with ``kind`` and
``"value"`` (one ``{shape, dtype, weak_type, values}`` per output leaf), ``"jaxpr"``
(``str(jax.make_jaxpr(fn)(*args))``, for ``kind == "jaxpr"``) or ``"error"``
(``{"error": class name, "message": text}``).
"""
from __future__ import annotations

from pathlib import Path

import jax_device_counts   # tools/, beside this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "axis_index_groups.json"

if __name__ == "__main__":
    jax_device_counts.record_built("axis_index_groups_cases", OUT)

"""Record JAX 0.10.2's extrema of operands holding subnormals (eager and jit), as bits,
into tests/data/subnormal_extrema.json. Run with the scratch JAX interpreter:

    $JAX_PYTHON tools/record_subnormal_extrema.py
"""
from __future__ import annotations

from pathlib import Path

import jax_bits   # tools/, beside this script

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "subnormal_extrema.json"


def _cases(jax):
    from subnormal_extrema_cases import cases, operands
    for dname, x in operands().items():
        for name, fn in cases(jax.lax).items():
            yield f"{name}/{dname}", fn, x


if __name__ == "__main__":
    jax_bits.record_bits(OUT, _cases)

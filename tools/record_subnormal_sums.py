"""Record JAX 0.10.2's sums, products, means and cumulative sums/products of operands
holding subnormals (eager and jit), as bits, into tests/data/subnormal_sums.json. Run
with the scratch JAX interpreter:

    $JAX_PYTHON tools/record_subnormal_sums.py
"""
from __future__ import annotations

from pathlib import Path

import jax_bits   # tools/, beside this script

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "subnormal_sums.json"


def _cases(jax):
    import jax.numpy as jnp
    from subnormal_sum_cases import all_cases
    yield from all_cases(jax.lax, jnp)


if __name__ == "__main__":
    jax_bits.record_bits(OUT, _cases)

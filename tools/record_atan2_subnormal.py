"""Record JAX 0.10.2's float32 atan2 where an operand is subnormal (XLA:CPU: glibc's
atan2f under DAZ) into ``tests/data/atan2_subnormal.json``: every pair of a set of
operands with subnormals, zeros, one, infinities and NaN, as bits. Run with the JAX
scratch environment::

    <jax-venv>/bin/python tools/record_atan2_subnormal.py
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "atan2_subnormal.json"
#: float32 bits: subnormals of both signs and sizes, zeros, the smallest normal, one,
#: two, a large value, infinities and a NaN
OPERANDS = [0x00000001, 0x80000021, 0x00210000, 0x807FFFFF, 0x00000000, 0x80000000,
            0x00800000, 0x3F800000, 0xBF800000, 0x40000000, 0x4B000000, 0xCB000000,
            0x7F800000, 0xFF800000, 0x7FC00000]


def main() -> None:
    import jax
    import jax.numpy as jnp
    ops = np.array(OPERANDS, np.uint32).view(np.float32)
    y, x = np.meshgrid(ops, ops, indexing="ij")
    got = np.asarray(jax.jit(jnp.arctan2)(y.ravel(), x.ravel())).view(np.uint32)
    OUT.write_text(json.dumps({"operands": OPERANDS, "atan2": got.tolist()}) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

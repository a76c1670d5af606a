"""The kernel of ``rng_bit_generator`` (``templates/c/kernel_rng_bit_generator.j2``,
``runtime/tp_philox.h``): one serial call writing the new key and every element, the
layouts of ``lax/rng_bits.py``."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lax.rng_bits import RandomAlgorithm, check_key, half_split, rng_bit_generator_p
from .kernel_plans import KernelFields

__all__ = ["RngBitGeneratorPlan", "RULES"]


@dataclass(kw_only=True)
class RngBitGeneratorPlan(KernelFields):
    """``kernel_rng_bit_generator.j2``: buffer names and the layout's sizes."""
    key: str
    new_key: str
    out: str
    key64: int
    width: int
    threefry: int
    n: int
    outer: int
    length: int
    inner: int


def _rng_bit_generator(e, ins, outs) -> tuple:
    key = e.invars[0]
    check_key(key.aval)
    shape = tuple(e.params["shape"])
    outer, length, inner = half_split(shape)
    fields = RngBitGeneratorPlan(
        key=ins[0].name, new_key=outs[0].name, out=outs[1].name,
        key64=int(np.dtype(key.aval.dtype).itemsize == 8),
        width=np.dtype(e.params["dtype"]).itemsize,
        threefry=int(int(e.params["algorithm"]) == RandomAlgorithm.RNG_THREE_FRY),
        n=int(np.prod(shape, dtype=np.int64)), outer=outer, length=length, inner=inner)
    return "kernel_rng_bit_generator.j2", fields


#: primitive -> builder(eqn, input buffers, output buffers) -> (template, fields)
RULES = {rng_bit_generator_p: _rng_bit_generator}

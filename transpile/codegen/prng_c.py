"""C expressions of the PRNG key primitives (``lax/keys.py``).

A ``key<fry>`` element is one ``uint64_t`` (see ``runtime/tp_threefry.h``), so keys flow
through every structural kernel unchanged. ``random_seed``, ``random_fold_in`` and
``random_clone`` are elementwise; ``random_bits`` and ``random_split`` are sources
computed from the element's index like ``iota`` (``source_expr``, used by
``body.py``), so a whole sampler (bits, mantissa, transform) fuses into one loop;
``random_wrap``/``random_unwrap`` copy bytes (``kernels.py``).
"""
from __future__ import annotations

from ..lax import keys
from . import emit_c
from .index import _atomic
from .lowering import LOWERINGS, RANDOM_SOURCE, Lowering, register

__all__ = ["SOURCES", "source_expr"]


def _seed(args, in_avals, out_aval, **params):
    (s,), (a,) = args, in_avals
    wide = 1 if a.dtype.itemsize == 8 else 0
    signed = "int64_t" if a.dtype.kind == "i" else "uint64_t"
    return f"tp_random_seed((uint64_t)({signed}){_atomic(s)}, {wide})"


def _fold_in(args, in_avals, out_aval):
    k, m = args
    return f"tp_random_fold_in({k}, (uint32_t){_atomic(m)})"


def _clone(args, in_avals, out_aval):
    return args[0]


emit_c._def(keys.random_seed_p, _seed)
emit_c._def(keys.random_fold_in_p, _fold_in)
emit_c._def(keys.random_clone_p, _clone)

def source_expr(e, key_value: str, counter: str) -> str:
    """The C expression of element ``counter`` (a uint64 expression: the row-major index
    within the drawn shape) of ``random_bits``/``random_split`` under ``key_value``."""
    if e.primitive is keys.random_split_p:
        return f"tp_random_split({key_value}, {counter})"
    width = e.params["bit_width"]
    if width == 64:
        return f"tp_random_bits64({key_value}, {counter})"
    expr = f"tp_random_bits32({key_value}, {counter})"
    return expr if width == 32 else f"(uint{width}_t){expr}"


# Computed from the element's own index and the key it draws from.
register((keys.random_bits_p, keys.random_split_p), Lowering(RANDOM_SOURCE, emit=source_expr))
#: The random-source primitives (read from the lowering table, for ``body.py``).
SOURCES = frozenset(p for p, low in LOWERINGS.items() if low.kind == RANDOM_SOURCE)

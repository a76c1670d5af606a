"""C expressions of the bit-level primitives (``lax/bits.py``).

``clz`` and ``population_count`` use gcc's builtins on the operand's unsigned bits;
``mulhi`` multiplies in the double width (``__int128`` for 64-bit operands);
``reduce_precision`` calls ``runtime/tp_codegen.h``. float16 and bfloat16 are computed
in float32 (their compute type) with the same exponent clamp and mantissa rounding,
which agree with rounding in the narrow format except on its subnormals.
"""
from __future__ import annotations

import numpy as np

from ..lax import bits
from . import emit_c

__all__: list = []


def _nbits(dtype) -> int:
    return 8 * np.dtype(dtype).itemsize


def _unsigned(arg: str, dtype) -> str:
    return f"(uint{_nbits(dtype)}_t)({arg})"


def _clz(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    n, u = _nbits(dt), _unsigned(args[0], dt)
    if n == 64:
        count = f"__builtin_clzll({u})"
    else:  # in 32 bits, less the padding above the operand's width
        count = f"(__builtin_clz((uint32_t){u}) - {32 - n})"
    return f"({emit_c.ctype(dt)})({u} == 0 ? {n} : {count})"


def _population_count(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    fn = "__builtin_popcountll" if _nbits(dt) == 64 else "__builtin_popcount"
    return f"({emit_c.ctype(dt)}){fn}({_unsigned(args[0], dt)})"


def _mulhi(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    n = _nbits(dt)
    signed = dt.kind == "i"
    if n == 64:
        wide = "__int128" if signed else "unsigned __int128"
    else:
        wide = "int64_t" if signed else "uint64_t"
    a, b = args
    return f"({emit_c.ctype(dt)})((({wide})({a}) * ({wide})({b})) >> {n})"


def _reduce_precision(args, in_avals, out_aval, *, exponent_bits, mantissa_bits):
    dt = np.dtype(out_aval.dtype)
    if dt == np.float64:
        return f"tp_reduce_precision_f64({args[0]}, {exponent_bits}, {mantissa_bits})"
    # float32, or a narrower float computed in float32: clamp in that format's terms
    src_e, src_m = bits.float_format(dt)
    e = exponent_bits if exponent_bits < src_e else 8
    m = mantissa_bits if mantissa_bits < src_m else 23
    return f"tp_reduce_precision_f32({args[0]}, {e}, {m})"


emit_c._def(bits.clz_p, _clz)
emit_c._def(bits.population_count_p, _population_count)
emit_c._def(bits.mulhi_p, _mulhi)
emit_c._def(bits.reduce_precision_p, _reduce_precision)

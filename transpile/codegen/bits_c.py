"""C expressions of the bit-level primitives: and/or/xor/not and the shifts
(``lax/elementwise.py``), and those of ``lax/bits.py``.

``clz``, ``population_count`` and 64-bit ``mulhi`` call ``runtime/tp_codegen.h`` (gcc's
builtins and 128-bit products on the host, CUDA's intrinsics on the GPU); narrower
``mulhi`` multiplies in 64 bits; ``reduce_precision`` calls its helper there too. float16 and bfloat16 are computed
in float32 (their compute type) with the same exponent clamp and mantissa rounding,
which agree with rounding in the narrow format except on its subnormals.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..lax import bits
from ..lax import elementwise as ew
from . import emit_c
from .emit_c import BOOL, _bits, _def, _stype_signed, _utype, ctype

__all__: list = []


def _bitwise(op: str):
    def rule(args, in_avals, out_aval, **_):
        return f"({ctype(out_aval.dtype)})({args[0]} {op} {args[1]})"
    return rule


_def(ew.and_p, _bitwise("&"))
_def(ew.or_p, _bitwise("|"))
_def(ew.xor_p, _bitwise("^"))


def _not(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    return f"(uint8_t)!{args[0]}" if dt == BOOL else f"({ctype(dt)})~{args[0]}"


_def(ew.not_p, _not)


def _shift(kind: str):
    def rule(args, in_avals, out_aval, **_):
        dt = np.dtype(out_aval.dtype)
        t, u, s = ctype(dt), _utype(dt), _stype_signed(dt)
        a, b = args
        out_of_range = f"({u})({b}) >= {_bits(dt)}u"
        if kind == "left":
            return f"({out_of_range} ? ({t})0 : ({t})(({u})({a}) << ({u})({b})))"
        if kind == "logical":
            return f"({out_of_range} ? ({t})0 : ({t})(({u})({a}) >> ({u})({b})))"
        return (f"({out_of_range} ? ({t})(({s})({a}) < 0 ? -1 : 0) "
                f": ({t})(({s})({a}) >> ({u})({b})))")
    return rule


_def(ew.shift_left_p, _shift("left"))
_def(ew.shift_right_logical_p, _shift("logical"))
_def(ew.shift_right_arithmetic_p, _shift("arithmetic"))


def _nbits(dtype) -> int:
    return 8 * np.dtype(dtype).itemsize


def _unsigned(arg: str, dtype) -> str:
    return f"(uint{_nbits(dtype)}_t)({arg})"


def _clz(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    n = _nbits(dt)
    if n == 64:
        return f"({emit_c.ctype(dt)})tp_clz_u64({_unsigned(args[0], dt)})"
    # in 32 bits, less the padding above the operand's width
    return f"({emit_c.ctype(dt)})(tp_clz_u32((uint32_t){_unsigned(args[0], dt)}) - {32 - n})"


def _population_count(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    fn = "tp_popcount_u64" if _nbits(dt) == 64 else "tp_popcount_u32"
    return f"({emit_c.ctype(dt)}){fn}({_unsigned(args[0], dt)})"


def _mulhi(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    n = _nbits(dt)
    a, b = args
    if n == 64:
        fn = "tp_mulhi_i64" if dt.kind == "i" else "tp_mulhi_u64"
        return f"{fn}({a}, {b})"
    wide = "int64_t" if dt.kind == "i" else "uint64_t"  # the exact product fits
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


def _total_compare(op: str):
    def rule(args, in_avals, out_aval, **_):
        dt = np.dtype(in_avals[0].dtype)
        if dt.kind == "f" or dtypes.half_name(dt):
            # float16/bfloat16 are computed in float, which keeps their order
            fn = "tp_total_key_f64" if dt == np.float64 else "tp_total_key_f32"
            a, b = (f"{fn}({x})" for x in args)
        else:
            a, b = args
        return f"(uint8_t)({a} {op} {b})"
    return rule


emit_c._def(bits.eq_to_p, _total_compare("=="))
emit_c._def(bits.le_to_p, _total_compare("<="))
emit_c._def(bits.lt_to_p, _total_compare("<"))
emit_c._def(bits.clz_p, _clz)
emit_c._def(bits.population_count_p, _population_count)
emit_c._def(bits.mulhi_p, _mulhi)
emit_c._def(bits.reduce_precision_p, _reduce_precision)

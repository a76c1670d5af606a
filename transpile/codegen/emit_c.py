"""C expressions for primitives: the per-element part of generated kernels.

Input: a primitive, its operands as C expressions (local names, literals or buffer
reads) with their avals, and its params. Output: one C expression computing the result
element in the result's compute type (``dtypes.C_COMPUTE_TYPES``).

Emitters live in the lowering table (``lowering.LOWERINGS``, kind ``ELEMENTWISE``),
keyed by primitive and filled below per family. The semantics
are the NumPy rules of ``lax/elementwise.py`` (XLA:CPU's): generated kernels run with
flush-to-zero and denormals-are-zero set (``tp_ftz_begin`` in ``runtime/tp_ops.h``), so
plain C float arithmetic already flushes as XLA does; the few primitives that must see a
subnormal operand unflushed select it with bit-level operations, which DAZ leaves alone.
Signed integer arithmetic goes through the unsigned type so that overflow wraps without
undefined behaviour. The 16-bit floats are computed in float and rounded back after
every operation whose result may not be representable: float16 by its own rules here,
bfloat16 by the float32 rule (XLA:CPU computes every bfloat16 operation in float32),
except where JAX expands an operation into steps that each round.
"""
from __future__ import annotations

import math
import re
from typing import Callable

import numpy as np

from .. import dtypes
from ..lax import _bf16_chlo
from ..lax import elementwise as ew
from ..lax import fma as lax_fma
from ..lax import layout
from ..lax import sorting as sort_mod
from ..resources import runtime_dir
from . import emit_complex
from .lowering import ELEMENTWISE, LOWERINGS, Lowering, register

__all__ = ["emit", "literal", "ctype", "stype", "math_function", "clamp_start",
           "start_in_bounds", "bitcast_fuses"]

F16 = np.dtype(np.float16)
BF16 = dtypes.bfloat16
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)


def ctype(dtype) -> str:
    """The C type an element of ``dtype`` is computed in."""
    return dtypes.C_COMPUTE_TYPES[np.dtype(dtype)]


def stype(dtype) -> str:
    """The C type an element of ``dtype`` is stored in."""
    return dtypes.C_STORAGE_TYPES[np.dtype(dtype)]


def _sfx(dtype) -> str:
    return dtypes.C_SUFFIXES[np.dtype(dtype)]


def _bits(dtype) -> int:
    return np.dtype(dtype).itemsize * 8


def _utype(dtype) -> str:
    return f"uint{_bits(dtype)}_t"


def _stype_signed(dtype) -> str:
    return f"int{_bits(dtype)}_t"


# ---------------------------------------------------------------------------------------
# Literals

def _float_text(v: float, dtype) -> str:
    if math.isnan(v):
        return "NAN" if dtype != F64 else "((double)NAN)"
    if math.isinf(v):
        inf = "INFINITY" if dtype != F64 else "((double)INFINITY)"
        return inf if v > 0 else f"(-{inf})"
    if dtype == F64:
        text = np.format_float_scientific(np.float64(v), unique=True, trim="0")
    else:  # float16 values are exact in float
        text = np.format_float_scientific(np.float32(v), unique=True, trim="0")
    text = text.replace("e+", "e")
    mant, _, exp = text.partition("e")
    if "." not in mant:
        mant += ".0"
    elif mant.endswith("."):
        mant += "0"
    if exp in ("0", "00", "-0"):
        text = mant
    else:
        text = f"{mant}e{int(exp)}"
    if dtype == F64:
        return f"({text})" if text.startswith("-") else text
    return f"({text}f)" if text.startswith("-") else f"{text}f"


def literal(value, dtype) -> str:
    """``value`` as a C literal of ``dtype``'s compute type (exact, round-tripping)."""
    dtype = np.dtype(dtype)
    if dtypes.is_key(dtype):  # a key<fry>: its two words packed, word 0 low
        w = np.asarray(value, dtype)[()]
        return f"UINT64_C({int(w['k0']) | (int(w['k1']) << 32)})"
    if dtypes.is_narrow_int(dtype):  # its value as an int8_t/uint8_t
        return literal(int(np.asarray(value).astype(dtype).astype(np.int64)),
                       narrow_byte(dtype))
    v = np.asarray(value).astype(dtype)[()]
    if dtypes.is_complex(dtype):
        part = dtypes.real_dtype(dtype)
        return (f"tp_cmake_{_sfx(dtype)}({_float_text(float(v.real), part)}, "
                f"{_float_text(float(v.imag), part)})")
    if dtype == BOOL:
        return "1" if v else "0"
    if dtypes.is_float(dtype):
        return _float_text(float(v), dtype)
    v = int(v)
    if dtype.kind == "i":
        lo = -(1 << (_bits(dtype) - 1))
        if v == lo:  # -2147483648 is not a C literal: unary minus of an unrepresentable one
            return f"({ctype(dtype)})({v + 1} - 1)" if _bits(dtype) < 64 else \
                "(INT64_C(-9223372036854775807) - 1)"
        if _bits(dtype) == 64:
            return f"INT64_C({v})"
        return f"({ctype(dtype)}){v}" if v < 0 else str(v)
    if _bits(dtype) == 64:
        return f"UINT64_C({v})"
    return f"{v}u"


# ---------------------------------------------------------------------------------------
# Which math functions the runtime vectorises

def _runtime_functions() -> frozenset:
    names = set()
    for header in ("tp_math.h", "tp_ops.h"):
        path = runtime_dir() / header
        if path.exists():
            names.update(re.findall(r"\b(tp_\w+)\s*\(", path.read_text()))
    return frozenset(names)


_RUNTIME = _runtime_functions()


#: Functions whose results follow XLA:CPU's approximations in every float dtype, as the
#: NumPy rules in ``lax.elementwise`` do (``lax/_xla_math.py``). The float64 ones call
#: glibc's ``log`` as XLA does, so their loops stay scalar.
_XLA_FUNCTIONS = frozenset({"log", "log1p", "erf_inv"})
#: The same in float16 and float32 only: float64 keeps the runtime's own (or libm's)
#: version, as its NumPy rule calls the C library (XLA's float64 exp differs from both).
_XLA_F32_FUNCTIONS = frozenset({"exp", "tanh", "logistic"})


def math_function(name: str, dtype, arg: str) -> str:
    """``name(arg)`` in ``dtype``: the runtime's vectorisable version when it has one,
    else libm evaluated in double and rounded once (as the NumPy rule rounds)."""
    dtype = np.dtype(dtype)
    if name in _XLA_FUNCTIONS:
        # XLA:CPU's own approximations, bit for bit (runtime/tp_xla_math.h); float16
        # computes in float32 and rounds once (emit adds the rounding).
        return f"tp_xla_{name}_{'f64' if dtype == np.float64 else 'f32'}({arg})"
    if name in _XLA_F32_FUNCTIONS and dtype != np.float64:
        return f"tp_xla_{name}_f32({arg})"
    own64 = f"tp_{name}_f64"
    double_fn = own64 if own64 in _RUNTIME else name
    if dtype == F16:
        return f"tp_f64_to_f16_round({double_fn}((double)({arg})))"
    own = f"tp_{name}_{_sfx(dtype)}"
    if own in _RUNTIME:
        return f"{own}({arg})"
    if dtype == F32:
        # The conversions flush (DAZ on the way in, FTZ on the way out), as XLA does.
        return f"(float){double_fn}((double)({arg}))"
    # libm reads subnormal bits itself and may return a tiny argument unchanged.
    return f"tp_flush_f64({double_fn}(tp_flush_f64({arg})))"


# ---------------------------------------------------------------------------------------
# Emission with float16 rounding

#: Primitives whose float16 result is exactly one of the (float16) operand values or
#: otherwise representable, so no rounding step is needed.
_F16_EXACT = frozenset({
    ew.neg_p, ew.abs_p, ew.select_n_p, ew.clamp_p, ew.max_p, ew.min_p, ew.floor_p, ew.ceil_p,
    ew.round_p, ew.sign_p, sort_mod.stop_gradient_p, ew.convert_element_type_p,
    ew.nextafter_p, ew.rem_p, layout.bitcast_convert_type_p})


def emit(prim, args, in_avals, out_aval, params) -> str:
    """The C expression for one equation (see the module docstring)."""
    low = LOWERINGS.get(prim)
    rule = low.emit if low is not None and low.kind == ELEMENTWISE else None
    if rule is None:
        raise NotImplementedError(f"no C emitter for primitive {prim.name!r}")
    if any(dtypes.is_complex(a.dtype) for a in (out_aval, *in_avals)):
        # complex operands or result: runtime/tp_complex.h (C's operators where exact)
        rule = emit_complex.complex_rule(prim) or rule
        return rule(args, in_avals, out_aval, **params)
    steps = _bf16_chlo.steps_for(prim.name, out_aval.dtype)
    if steps is not None:  # an expansion whose steps each round (lax/_bf16_chlo.py)
        return steps(args[0], _CSteps(out_aval))
    if any(dtypes.half_name(a.dtype) == "bf16" for a in (out_aval, *in_avals)):
        return _emit_bf16(prim, rule, args, in_avals, out_aval, params)
    if any(dtypes.is_small_float(a.dtype) for a in (out_aval, *in_avals)) and \
            prim not in _SMALL_OWN:
        return _emit_small(prim, args, in_avals, out_aval, params)
    if any(dtypes.is_narrow_int(a.dtype) for a in (out_aval, *in_avals)) and \
            prim not in _SMALL_OWN:
        return _emit_narrow(prim, args, in_avals, out_aval, params)
    expr = rule(args, in_avals, out_aval, **params)
    if np.dtype(out_aval.dtype) == F16 and prim not in _F16_EXACT and \
            not expr.startswith("tp_f64_to_f16_round("):
        expr = f"tp_f16_round({expr})"
    return expr


def _emit_bf16(prim, rule, args, in_avals, out_aval, params) -> str:
    """A bfloat16 equation: the float32 rule, its result rounded (see the docstring)."""
    if prim in _BF16_OWN:
        return rule(args, in_avals, out_aval, **params)
    as32 = [a.update(dtype=F32) if np.dtype(a.dtype) == BF16 else a for a in in_avals]
    out32 = out_aval.update(dtype=F32) if np.dtype(out_aval.dtype) == BF16 else out_aval
    expr = rule(args, as32, out32, **params)
    if np.dtype(out_aval.dtype) == BF16 and prim not in _F16_EXACT:
        expr = f"tp_bf16_round({expr})"
    return expr


class _CSteps:
    """``lax/_bf16_chlo.py``'s operations as C expressions: each primitive's float32
    expression, rounded to the 16-bit float of ``aval``."""

    def __init__(self, aval):
        self.round = f"tp_{dtypes.half_name(aval.dtype)}_round"
        self.dtype = np.dtype(aval.dtype)
        self.aval = aval.update(dtype=F32, weak_type=False)

    def __getattr__(self, name):
        prim = getattr(ew, f"{name}_p")

        def step(*args):
            expr = emit(prim, list(args), [self.aval] * len(args), self.aval, {})
            if len(args) == 2:  # x86's NaN rule, which gcc may break by commuting
                expr = f"tp_first_nan_f32({args[0]}, {expr})"
            return f"{self.round}({expr})"
        return step

    @staticmethod
    def const(value):
        return literal(value, F32)

    @staticmethod
    def ge(a, b):
        return f"({a} >= {b})"

    @staticmethod
    def gt(a, b):
        return f"({a} > {b})"

    @staticmethod
    def eq(a, b):
        return f"({a} == {b})"

    @staticmethod
    def select(pred, on_true, on_false):
        # a bit blend: gcc may otherwise merge the arms where both are NaN, losing which
        return f"tpi_sel_f32({pred}, {on_true}, {on_false})"


#: Primitives whose small-float lowering is their own (conversions, bit casts).
_SMALL_OWN = frozenset({ew.convert_element_type_p, layout.bitcast_convert_type_p})


def _small_wide(dtype) -> np.dtype:
    """What XLA:CPU computes a small float in: float16, float32 for e8m0fnu."""
    return F32 if np.dtype(dtype) == dtypes.float8_e8m0fnu else F16


def _emit_small(prim, args, in_avals, out_aval, params) -> str:
    """A float8/float4 equation: the float16 (float32) rule, its result converted back
    to the small float (runtime/tp_float8.h), as XLA:CPU computes it."""
    wide = [a.update(dtype=_small_wide(a.dtype)) if dtypes.is_small_float(a.dtype) else a
            for a in in_avals]
    small_out = dtypes.is_small_float(out_aval.dtype)
    out = out_aval.update(dtype=_small_wide(out_aval.dtype)) if small_out else out_aval
    expr = emit(prim, args, wide, out, params)
    # max/min may make a NaN (float16's), which the float8 conversion gives its bits
    if small_out and (prim not in _F16_EXACT or prim in (ew.max_p, ew.min_p)):
        h = dtypes.half_name(out_aval.dtype)
        expr = f"tp_{h}_round_h({expr})" if _small_wide(out_aval.dtype) == F16 else \
            f"tp_{h}_round({expr})"
    return expr


def narrow_byte(dt) -> np.dtype:
    """int8 or uint8: what a narrow integer (int4, uint2...) is computed in."""
    return np.dtype(np.int8 if dtypes.is_signed(dt) else np.uint8)


def narrow_wrap(dt, expr: str) -> str:
    """``expr`` (an int8_t/uint8_t value) wrapped to the narrow integer ``dt``'s width."""
    return f"TP_WRAP_{'S' if dtypes.is_signed(dt) else 'U'}({expr}, {dtypes.bit_width(dt)})"


def load_expr(dt, expr: str) -> str:
    """A stored element of ``dt`` in its compute type: the 16-bit and small floats as
    float, the signed narrow integers sign-extended from their stored low bits."""
    h = dtypes.half_name(dt)
    if h:
        return f"tp_{h}_to_f32({expr})"
    return narrow_wrap(dt, expr) if dtypes.is_narrow_int(dt) and dtypes.is_signed(dt) \
        else expr


def store_expr(dt, expr: str) -> str:
    """A compute-type value of ``dt`` in its storage type (narrow integers: their low
    bits, as ``ml_dtypes`` stores them)."""
    h = dtypes.half_name(dt)
    if h:
        return f"tp_f32_to_{h}({expr})"
    if dtypes.is_narrow_int(dt):
        return f"({ctype(dt)})TP_WRAP_U({expr}, {dtypes.bit_width(dt)})"
    return expr


def _emit_narrow(prim, args, in_avals, out_aval, params) -> str:
    """A 2-/4-bit integer equation: the int8/uint8 rule, its result wrapped to the width.
    Where the byte's upper bits would show, the operand is given the narrow bits (see
    ``lax/_narrow_int.py``, whose NumPy rule this mirrors)."""
    dt = next(np.dtype(a.dtype) for a in (*in_avals, out_aval) if dtypes.is_narrow_int(a.dtype))
    bits, args = dtypes.bit_width(dt), list(args)
    byte = [a.update(dtype=narrow_byte(a.dtype)) if dtypes.is_narrow_int(a.dtype) else a
            for a in in_avals]
    out = out_aval.update(dtype=narrow_byte(dt)) if dtypes.is_narrow_int(out_aval.dtype) \
        else out_aval
    if prim is ew.shift_right_logical_p or (prim.name in ("clz", "population_count")
                                            and (bits == 2 or not dtypes.is_signed(dt))):
        byte[0] = byte[0].update(dtype=np.dtype(np.uint8))
        args[0] = f"TP_WRAP_U({args[0]}, {bits})"
    elif prim is ew.shift_right_arithmetic_p and not dtypes.is_signed(dt):
        args[0] = f"(uint8_t)TP_WRAP_S({args[0]}, {bits})"
    if prim.name == "clz":  # counted within the width
        byte[0] = byte[0].update(dtype=np.dtype(np.uint8))
        args[0] = f"TP_WRAP_U({args[0]}, {bits})"
        expr = f"({emit(prim, args, byte, byte[0], params)} - {8 - bits})"
    else:
        expr = emit(prim, args, byte, out, params)
    return narrow_wrap(dt, expr) if out is not out_aval else expr


def _def(prim_or_prims, fn: Callable, fuses: Callable | None = None) -> None:
    """Register ``fn(args, in_avals, out_aval, **params)`` as the elementwise lowering
    of each primitive given."""
    register(prim_or_prims, Lowering(ELEMENTWISE, emit=fn, fuses=fuses))


# ---------------------------------------------------------------------------------------
# Integer arithmetic that wraps

def _wrap_binary(op: str, a: str, b: str, dtype) -> str:
    t = ctype(dtype)
    if dtype.kind == "i" and _bits(dtype) >= 32:
        u = _utype(dtype)
        return f"({t})(({u})({a}) {op} ({u})({b}))"
    if dtype.kind in "iu" and _bits(dtype) < 32 or dtype == BOOL:
        # Promoted to int: the exact result fits, the cast back wraps.
        return f"({t})({a} {op} {b})"
    return f"({a} {op} {b})"


def _arith(op: str):
    def rule(args, in_avals, out_aval, **_):
        return _wrap_binary(op, args[0], args[1], np.dtype(out_aval.dtype))
    return rule


_def([ew.add_p, ew.add_any_p], _arith("+"))
_def(ew.sub_p, _arith("-"))
_def(ew.mul_p, _arith("*"))


def _fma(args, in_avals, out_aval, **_):
    # C99's fma rounds once, as the contracted multiply-add of XLA:CPU does; with
    # -march=native it is one vectorised instruction.
    fn = "fmaf" if np.dtype(out_aval.dtype) == np.float32 else "fma"
    return f"{fn}({', '.join(args)})"


_def(lax_fma.fma_p, _fma)


def _neg(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    if dtypes.is_float(dt):
        return f"(-{args[0]})"
    return _wrap_binary("-", literal(0, dt), args[0], dt)


_def(ew.neg_p, _neg)


def _div(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    if dtypes.is_float(dt):
        return f"({args[0]} / {args[1]})"
    return f"tp_div_{_sfx(dt)}({args[0]}, {args[1]})"


def _rem(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    if dtypes.is_float(dt):
        # XLA flushes the divisor only; a bit-level select keeps the dividend intact.
        f = "fmod" if dt == F64 else "fmodf"
        return f"{f}({args[0]}, tp_flush_{_sfx(dt)}({args[1]}))"
    return f"tp_rem_{_sfx(dt)}({args[0]}, {args[1]})"


_def(ew.div_p, _div)
_def(ew.rem_p, _rem)


def _minmax(which: str):
    def rule(args, in_avals, out_aval, **_):
        dt = np.dtype(out_aval.dtype)
        a, b = args
        if dtypes.is_float(dt):
            expr = f"tp_{which}_{_sfx(dt)}({a}, {b})"
            # float16's max/min give its positive quiet NaN (XLA's, unlike its reductions)
            return f"tp_quiet_nan_f32({expr})" if dt == F16 else expr
        if dt == BOOL:
            return f"({a} {'|' if which == 'max' else '&'} {b})"
        return f"({a} {'>' if which == 'max' else '<'} {b} ? {a} : {b})"
    return rule


_def(ew.max_p, _minmax("max"))
_def(ew.min_p, _minmax("min"))


def _clamp(args, in_avals, out_aval, **params):
    lo, x, hi = args
    mx = _minmax("max")([x, lo], in_avals, out_aval)
    return _minmax("min")([mx, hi], in_avals, out_aval)


_def(ew.clamp_p, _clamp)


def _compare(op: str):
    def rule(args, in_avals, out_aval, **_):
        return f"(uint8_t)({args[0]} {op} {args[1]})"
    return rule


for _p, _op in ((ew.eq_p, "=="), (ew.ne_p, "!="), (ew.lt_p, "<"), (ew.le_p, "<="),
                (ew.gt_p, ">"), (ew.ge_p, ">=")):
    _def(_p, _compare(_op))


def _abs(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    a = args[0]
    if dtypes.is_float(dt):
        return f"fabs({a})" if dt == F64 else f"fabsf({a})"
    return f"({a} < 0 ? {_neg([a], in_avals, out_aval)} : {a})"


_def(ew.abs_p, _abs)


def _sign(args, in_avals, out_aval, **_):
    return f"tp_sign_{_sfx(out_aval.dtype)}({args[0]})"


_def(ew.sign_p, _sign)


def _select_n(args, in_avals, out_aval, **_):
    which, cases = args[0], args[1:]
    if len(cases) == 1:
        return cases[0]
    if np.dtype(in_avals[0].dtype) == BOOL:
        # A blend, not ?: (gcc 12 sinks a float operand's work into a branch it will
        # not if-convert, leaving the loop scalar: runtime/tp_ops.h, tp_select_f32)
        sfx = "u8" if out_aval.dtype == BOOL else _sfx(out_aval.dtype)
        return f"tp_select_{sfx}({which}, {cases[1]}, {cases[0]})"
    expr = cases[0]  # out-of-range `which` clamps to the first or last case
    for i, c in enumerate(cases[1:], start=1):
        expr = f"({which} >= {i} ? {c} : {expr})"
    return expr


_def(ew.select_n_p, _select_n)


def _identity(args, in_avals, out_aval, **_):
    return args[0]


_def(sort_mod.stop_gradient_p, _identity)


# ---------------------------------------------------------------------------------------
# convert_element_type

def _convert_expr(a: str, src: np.dtype, dst: np.dtype) -> str:
    if src == dst:
        return a
    if dtypes.is_narrow_int(src):  # its int8_t/uint8_t value
        src = narrow_byte(src)
        if src == dst:
            return a
    if dtypes.is_narrow_int(dst):  # integers wrap; floats saturate at the narrow width
        if dtypes.is_float(src) or dtypes.is_complex(src):
            info = dtypes.iinfo(dst)
            v = _convert_expr(a, src, F64)
            return f"({ctype(dst)})TP_F_TO_NARROW({v}, {int(info.min)}, {int(info.max)})"
        return narrow_wrap(dst, f"({ctype(dst)})({a})")
    if dtypes.is_small_float(dst):  # from another small float through float16, as XLA
        h = dtypes.half_name(dst)
        if dtypes.is_small_float(src) and dst != dtypes.float8_e8m0fnu:
            return f"tp_{h}_round_h(tp_f16_round({a}))"
        # float64 and integers round to float first (twice, as the NumPy rule does)
        return f"tp_{h}_round_h({a})" if src == F16 else f"tp_{h}_round((float)({a}))"
    if dst == BOOL and src == BF16:  # XLA tests its bits: a subnormal is true under DAZ
        return f"(uint8_t)((tp_bits_of_f32({a}) & 0x7fffffffu) != 0)"
    if dtypes.is_small_float(src):  # exact in float (its NaN made canonical)
        if dst == BOOL and src == dtypes.float8_e8m0fnu:
            return "(uint8_t)1"  # no zero (2^-127 would read as one under DAZ)
        a = f"tp_{dtypes.half_name(src)}_round({a})"
        if src == dtypes.float4_e2m1fn and dst.kind in "iu":  # XLA saturates its +-6
            a = f"(({a}) * (fabsf({a}) == 6.0f ? INFINITY : 1.0f))"
        src = F32
        if src == dst:
            return a
    if dtypes.is_complex(dst):  # C converts real and complex values to complex
        return f"(({ctype(dst)})({a}))"
    if dtypes.is_complex(src):  # to a real type (bool too): XLA converts the real part
        a = f"{'crealf' if src == np.complex64 else 'creal'}({a})"
        src = dtypes.real_dtype(src)
        if src == dst:
            return a
    if dst == BOOL:
        return f"(uint8_t)({a} != 0)"
    if dtypes.is_float(src) and dst.kind in "iu":
        return f"tp_{_sfx(src if not dtypes.half_name(src) else F32)}_to_{_sfx(dst)}({a})"
    if dtypes.half_name(dst):
        h = dtypes.half_name(dst)
        if src == F64:
            return f"tp_f64_to_{h}_round({a})"
        return f"tp_{h}_round((float)({a}))"
    return f"({ctype(dst)})({a})"


def _convert(args, in_avals, out_aval, *, new_dtype, weak_type):
    return _convert_expr(args[0], np.dtype(in_avals[0].dtype), np.dtype(new_dtype))


_def(ew.convert_element_type_p, _convert)

# ---------------------------------------------------------------------------------------
# bitcast_convert_type between types of one width (other widths, and float16, whose
# compute type is float and would quieten a signalling NaN, get a copy kernel:
# ``bitcast_fuses``)

def bitcast_fuses(src, dst) -> bool:
    """Whether a bitcast from ``src`` to ``dst`` is an expression of a loop body."""
    src, dst = np.dtype(src), np.dtype(dst)
    return src == dst or (src.itemsize == dst.itemsize and F16 not in (src, dst)
                          and BF16 not in (src, dst))


def _bitcast(args, in_avals, out_aval, *, new_dtype):
    src, dst, a = np.dtype(in_avals[0].dtype), np.dtype(new_dtype), args[0]
    if src == dst:
        return a
    # Through the unsigned integer of the width: integer casts keep the bits (modulo
    # 2^n), floats go through the runtime's memcpy helpers.
    bits = f"tp_bits_of_{_sfx(src)}({a})" if dtypes.is_float(src) else f"({_utype(src)})({a})"
    if dtypes.is_float(dst):
        return f"tp_{_sfx(dst)}_of_bits({bits})"
    return bits if dst.kind == "u" else f"({ctype(dst)})({bits})"


# A bitcast between dtypes whose elements do not map one to one copies bytes instead
# (a kernel of its own: kernels.py).
_def(layout.bitcast_convert_type_p, _bitcast,
     fuses=lambda e: bitcast_fuses(e.invars[0].aval.dtype, e.outvars[0].aval.dtype))

#: bfloat16 lowerings that are not "the float32 rule, rounded": their own steps round.
_BF16_OWN = {ew.convert_element_type_p, layout.bitcast_convert_type_p, ew.nextafter_p,
             ew.logistic_p, ew.integer_pow_p}

# ---------------------------------------------------------------------------------------
# Dynamic start indices

def _start_fn(name: str, dtype) -> str:
    # Every integer type but uint64 converts to int64_t exactly.
    return f"tp_{name}_u64" if np.dtype(dtype) == np.uint64 else f"tp_{name}"


def clamp_start(value: str, dtype, hi: int) -> str:
    """``value`` (an integer of ``dtype``) clamped into ``[0, hi]`` as an ``int64_t``."""
    return f"{_start_fn('clamp_start', dtype)}({value}, {hi})"


def start_in_bounds(value: str, dtype, hi: int) -> str:
    """Whether ``value`` (an integer of ``dtype``) lies in ``[0, hi]``."""
    return f"{_start_fn('start_in_bounds', dtype)}({value}, {hi})"



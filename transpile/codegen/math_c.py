"""C expressions of the elementwise math primitives: integer and real powers, the
transcendental functions (through ``emit_c.math_function``: ``runtime/tp_math.h``,
XLA's own expansions, or the precompiled runtime object), sqrt/rsqrt/logistic,
rounding, atan2 and nextafter. Registered into ``emit_c``'s table on import
(``plan.py`` imports this module)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import dtypes
from ..lax import elementwise as ew
from .emit_c import (BF16, F16, F32, F64, _convert_expr, _def, _sfx, _wrap_binary, literal,
                     math_function)

__all__: list = []


# ---------------------------------------------------------------------------------------
# Powers

def _ipow_expr(a: str, n: int, mul: Callable[[str, str], str]) -> str:
    """``a ** n`` (n >= 1) by repeated squaring, in the order the NumPy rule multiplies."""
    acc, base = None, a
    while n:
        if n & 1:
            acc = base if acc is None else mul(acc, base)
        n >>= 1
        if n:
            base = mul(base, base)
    return acc


def _integer_pow(args, in_avals, out_aval, *, y):
    dt = np.dtype(out_aval.dtype)
    a = args[0]
    if y == 0:
        return literal(1, dt)
    if y == 1:
        return a
    if dtypes.is_float(dt):
        if dtypes.half_name(dt):  # each multiply rounds, as JAX's expansion does
            def mul(p, q):
                return f"tp_{dtypes.half_name(dt)}_round({p} * {q})"
        else:
            def mul(p, q):
                return f"({p} * {q})"
        p = _ipow_expr(a, abs(y), mul)
        return p if y > 0 else f"({literal(1, dt)} / {p})"
    return _ipow_expr(a, y, lambda p, q: _wrap_binary("*", p, q, dt))


def _square(args, in_avals, out_aval, **_):
    return _wrap_binary("*", args[0], args[0], np.dtype(out_aval.dtype))


_def(ew.integer_pow_p, _integer_pow)
_def(ew.square_p, _square)


def _pow(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    x, y = args
    if np.dtype(in_avals[1].dtype).kind != "f":
        y = _convert_expr(y, np.dtype(in_avals[1].dtype), dt)  # the rule converts first
    if dt == F16:
        return f"tp_f64_to_f16_round(pow((double)({x}), (double)({y})))"
    # Operands read unflushed, result flushed: tp_ops.h does what the rule does.
    return f"tp_pow_{_sfx(dt)}({x}, {y})"


_def(ew.pow_p, _pow)


# ---------------------------------------------------------------------------------------
# Unary float functions

def _float_fn(name: str, keep_tiny_dtypes=frozenset()):
    def rule(args, in_avals, out_aval, **_):
        dt = np.dtype(out_aval.dtype)
        expr = math_function(name, dt, args[0])
        if dt in keep_tiny_dtypes:
            # XLA returns a subnormal operand unchanged here; DAZ would read it as 0.
            expr = f"tp_keep_subnormal_{_sfx(dt)}({args[0]}, {expr})"
        return expr
    return rule


for _name in ("exp", "exp2", "expm1", "log", "log1p", "cbrt", "sin", "cos", "tan", "asin",
              "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erf_inv",
              "tanh"):
    _p = getattr(ew, f"{_name}_p")
    _def(_p, _float_fn(_name, _p.unflushed_dtypes))


def _sqrt(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    return f"sqrt({args[0]})" if dt == F64 else f"sqrtf({args[0]})"


def _rsqrt(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    if dt == F64:
        return f"(1.0 / sqrt({args[0]}))"
    # One rounding from double, as the NumPy rule evaluates it.
    return f"(float)(1.0 / sqrt((double)({args[0]})))"


_def(ew.sqrt_p, _sqrt)
_def(ew.rsqrt_p, _rsqrt)


def _logistic(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    one = literal(1, dt)
    if dt == F32:
        return math_function("logistic", dt, args[0])
    if dt == BF16:
        e = math_function("exp", F32, f"-{args[0]}")
    else:
        e = math_function("exp", dt, f"-{args[0]}")
    if dtypes.half_name(dt):   # each step rounded, as the rule (and XLA) rounds it
        r = f"tp_{dtypes.half_name(dt)}_round"
        return f"{r}({one} / {r}({one} + {r}({e})))"
    return f"({one} / ({one} + {e}))"


_def(ew.logistic_p, _logistic)


def _rounding(name32: str, name64: str):
    def rule(args, in_avals, out_aval, **_):
        return f"{name64 if np.dtype(out_aval.dtype) == F64 else name32}({args[0]})"
    return rule


_def(ew.floor_p, _rounding("floorf", "floor"))
_def(ew.ceil_p, _rounding("ceilf", "ceil"))


def _round(args, in_avals, out_aval, *, rounding_method):
    f64 = np.dtype(out_aval.dtype) == F64
    if rounding_method == ew.RoundingMethod.TO_NEAREST_EVEN:
        return f"{'rint' if f64 else 'rintf'}({args[0]})"
    return f"{'round' if f64 else 'roundf'}({args[0]})"


_def(ew.round_p, _round)


def _is_finite(args, in_avals, out_aval, **_):
    return f"(uint8_t)(isfinite({args[0]}) != 0)"


_def(ew.is_finite_p, _is_finite)


def _atan2(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    if dt == F64:
        return f"tp_flush_f64(atan2(tp_flush_f64({args[0]}), tp_flush_f64({args[1]})))"
    if dt == F16:
        return f"tp_f64_to_f16_round(atan2((double)({args[0]}), (double)({args[1]})))"
    return f"tp_atan2_f32({args[0]}, {args[1]})"  # float32; bfloat16 computes in it


_def(ew.atan2_p, _atan2)


def _nextafter(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    x, y = args
    if dtypes.half_name(dt):
        return f"tp_nextafter_{dtypes.half_name(dt)}({x}, {y})"
    f = "nextafter" if dt == F64 else "nextafterf"
    # `==` reads subnormals as zero (DAZ), as the rule compares; the step itself is
    # bit-level in libm and not flushed.
    return f"({x} == {y} ? {y} : {f}({x}, {y}))"


_def(ew.nextafter_p, _nextafter)

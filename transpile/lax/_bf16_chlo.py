"""16-bit float functions that XLA expands into steps, each step rounded: the inverse
trigonometric and hyperbolic functions, exp2, and float16's expm1 and log.

JAX lowers ``asin``, ``acos``, ``asinh``, ``acosh`` and ``atanh`` to CHLO operations,
which XLA legalises into a short sequence of basic operations *in the operand type*; for
bfloat16 XLA:CPU then computes each of those operations in float32 and rounds its result
back to bfloat16 (observed in the optimised HLO of JAX 0.10.2); float16 likewise. JAX
lowers exp2 as exp(x * log(2)); expm1 is XLA's elemental expansion. Computing the
function in float32 and rounding once therefore differs in the last bits (and in NaN
signs): the sequences below repeat XLA's steps, in its order.

Each sequence is written once, over an ``ops`` object, and serves both the NumPy rules
(``elementwise.py``: arrays) and the C emitters (``codegen/emit_c.py``: expressions).
Every arithmetic method of ``ops`` computes the float32 operation of that primitive and
rounds its result to the 16-bit float ``ops.dtype`` (float16 too: XLA:CPU computes it in
float32 the same way); ``const`` gives a float32 constant, ``ge``/``gt``/``eq`` compare
and ``select`` picks (neither rounds).
"""
from __future__ import annotations

import math

import numpy as np

from ..dtypes import bfloat16
from ._bfloat16 import round_trip

__all__ = ["STEPS", "steps_for", "NumpySteps"]

class NumpySteps:
    """The operations on float32 arrays: each primitive's float32 NumPy rule
    (``rule_of(name)``), its result rounded to the 16-bit float ``dtype`` and read back as
    float32."""

    def __init__(self, dtype, rule_of):
        self.dtype = np.dtype(dtype)
        self.rule_of = rule_of

    def __getattr__(self, name):
        rule, narrow = self.rule_of(name), self.dtype

        def step(*args):
            args = [np.asarray(a, np.float32) for a in args]
            out = rule(*args)
            if len(args) == 2:  # x86 returns the first NaN operand; NumPy's SIMD loops
                out = np.where(np.isnan(args[0]), args[0], out)  # may pick the second
            return round_trip(out) if narrow == bfloat16 else \
                out.astype(narrow).astype(np.float32)
        return step

    @staticmethod
    def const(value):
        return np.float32(value)

    @staticmethod
    def ge(a, b):
        return a >= b

    @staticmethod
    def gt(a, b):
        return a > b

    @staticmethod
    def eq(a, b):
        return a == b

    @staticmethod
    def select(pred, on_true, on_false):
        return np.where(pred, on_true, on_false)


#: The largest finite value of each 16-bit float (by dtype name).
_MAX = {"bfloat16": 3.3895313892515355e38, "float16": 65504.0}


def _const(ops, value: float):
    """A constant as XLA writes it into these expansions: rounded to the operand type."""
    return ops.const(float(np.asarray(value, np.float32).astype(ops.dtype)))


def _log_large(ax, ops):
    # log(x) + log(2): where the square (asinh) or the product (acosh) would overflow
    return ops.add(ops.log(ax), _const(ops, math.log(2)))


def _one_minus_square_root(x, ops):
    # sqrt((1 - x) * (1 + x)): shared by asin and acos
    one = ops.const(1.0)
    return ops.sqrt(ops.mul(ops.sub(one, x), ops.add(x, one)))


def asin(x, ops):
    """2 * atan2(x, 1 + sqrt((1 - x) * (1 + x)))."""
    t = ops.atan2(x, ops.add(_one_minus_square_root(x, ops), ops.const(1.0)))
    return ops.add(t, t)


def acos(x, ops):
    """atan2(sqrt((1 - x) * (1 + x)), x)."""
    return ops.atan2(_one_minus_square_root(x, ops), x)


def asinh(x, ops):
    """sign(x) * log1p(|x| + x^2 / (1 + sqrt(1 + x^2))); log(|x|) + log(2) when large."""
    ax = ops.abs(x)
    one = ops.const(1.0)
    sq = ops.mul(ax, ax)
    small = ops.log1p(ops.add(ax, ops.div(sq, ops.add(ops.sqrt(ops.add(sq, one)), one))))
    big = ops.select(ops.ge(ax, _const(ops, math.sqrt(_MAX[ops.dtype.name]))), _log_large(ax, ops), small)
    return ops.mul(ops.sign(x), big)


def acosh(x, ops):
    """log1p(sqrt(x - 1) * (sqrt(x + 1) + sqrt(x - 1))); log(x) + log(2) when large."""
    below = ops.sqrt(ops.add(x, ops.const(-1.0)))
    above = ops.sqrt(ops.add(x, ops.const(1.0)))
    small = ops.log1p(ops.mul(below, ops.add(above, below)))
    return ops.select(ops.ge(x, _const(ops, _MAX[ops.dtype.name] / 2)), _log_large(x, ops), small)


def atanh(x, ops):
    """(log1p(x) - log1p(-x)) / 2, NaN where |x| > 1."""
    half = ops.mul(ops.sub(ops.log1p(x), ops.log1p(ops.neg(x))), ops.const(0.5))
    return ops.select(ops.gt(ops.abs(x), ops.const(1.0)), ops.const(float("nan")), half)


def exp2(x, ops):
    """exp(x * log(2)), as JAX lowers exp2."""
    return ops.exp(ops.mul(x, _const(ops, math.log(2))))


def expm1(x, ops):
    """XLA's expm1: exp(x) - 1 where |x| > 1/2, else tanh(x/2) * (exp(x) + 1); x itself
    where x/2 is zero."""
    e = ops.exp(x)
    half = ops.mul(x, ops.const(0.5))
    near = ops.mul(ops.tanh(half), ops.add(e, ops.const(1.0)))
    far = ops.sub(e, ops.const(1.0))
    r = ops.select(ops.gt(ops.abs(x), ops.const(0.5)), far, near)
    return ops.select(ops.eq(half, ops.const(0.0)), x, r)


def log(x, ops):
    """float16's log: float32's, but a negative operand gives the negative quiet NaN and
    a NaN operand comes back (XLA's float16 log is not its float32 expansion there)."""
    nan = ops.neg(ops.const(float("nan")))
    inner = ops.select(ops.gt(ops.const(0.0), x), nan, ops.log(x))
    return ops.select(ops.eq(x, x), inner, x)


#: primitive name -> its 16-bit float step sequence
STEPS = {"asin": asin, "acos": acos, "asinh": asinh, "acosh": acosh, "atanh": atanh,
         "exp2": exp2, "expm1": expm1, "log": log}
#: The sequences that apply to one of the types only (XLA expands bfloat16's expm1 in
#: float32, rounding once; its log is float32's).
_ONLY = {"expm1": "float16", "log": "float16"}


def steps_for(name: str, dtype):
    """The step sequence of primitive ``name`` for operands of ``dtype``, or None."""
    dtype = np.dtype(dtype)
    if dtype.name not in ("bfloat16", "float16") or _ONLY.get(name, dtype.name) != dtype.name:
        return None
    return STEPS.get(name)

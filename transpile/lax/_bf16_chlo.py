"""The bfloat16 inverse trigonometric and hyperbolic functions, step by step.

JAX lowers ``asin``, ``acos``, ``asinh``, ``acosh`` and ``atanh`` to CHLO operations,
which XLA legalises into a short sequence of basic operations *in the operand type*; for
bfloat16 XLA:CPU then computes each of those operations in float32 and rounds its result
back to bfloat16 (observed in the optimised HLO of JAX 0.10.2). Computing the function in
float32 and rounding once therefore differs in the last bits (and in NaN signs): the
sequences below repeat XLA's steps, in its order.

Each sequence is written once, over an ``ops`` object, and serves both the NumPy rules
(``elementwise.py``: arrays) and the C emitters (``codegen/emit_c.py``: expressions).
Every arithmetic method of ``ops`` computes the float32 operation of that primitive and
rounds its result to bfloat16; ``const`` gives a float32 constant, ``ge``/``gt`` compare
and ``select`` picks (neither rounds).
"""
from __future__ import annotations

__all__ = ["STEPS"]

#: log(2) as XLA writes it into these expansions: rounded to bfloat16.
LOG2_BF16 = 0.69140625
#: Beyond these, asinh/acosh take log(x) + log(2) (the square would overflow): the
#: square root of bfloat16's largest value, and half of it, as float32 constants.
ASINH_LARGE = 1.83746865e+19
ACOSH_LARGE = 1.69476569e+38


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


def _log_large(ax, ops):
    return ops.add(ops.log(ax), ops.const(LOG2_BF16))


def asinh(x, ops):
    """sign(x) * log1p(|x| + x^2 / (1 + sqrt(1 + x^2))); log(|x|) + log(2) when large."""
    ax = ops.abs(x)
    one = ops.const(1.0)
    sq = ops.mul(ax, ax)
    small = ops.log1p(ops.add(ax, ops.div(sq, ops.add(ops.sqrt(ops.add(sq, one)), one))))
    big = ops.select(ops.ge(ax, ops.const(ASINH_LARGE)), _log_large(ax, ops), small)
    return ops.mul(ops.sign(x), big)


def acosh(x, ops):
    """log1p(sqrt(x - 1) * (sqrt(x + 1) + sqrt(x - 1))); log(x) + log(2) when large."""
    below = ops.sqrt(ops.add(x, ops.const(-1.0)))
    above = ops.sqrt(ops.add(x, ops.const(1.0)))
    small = ops.log1p(ops.mul(below, ops.add(above, below)))
    return ops.select(ops.ge(x, ops.const(ACOSH_LARGE)), _log_large(x, ops), small)


def atanh(x, ops):
    """(log1p(x) - log1p(-x)) / 2, NaN where |x| > 1."""
    half = ops.mul(ops.sub(ops.log1p(x), ops.log1p(ops.neg(x))), ops.const(0.5))
    return ops.select(ops.gt(ops.abs(x), ops.const(1.0)), ops.const(float("nan")), half)


#: primitive name -> its bfloat16 step sequence
STEPS = {"asin": asin, "acos": acos, "asinh": asinh, "acosh": acosh, "atanh": atanh}

"""The 2- and 4-bit integers (int4, uint4, int2, uint2) in the NumPy rules.

``ml_dtypes`` stores them one per byte, the value's low bits with the upper bits zero,
but its own arithmetic does not wrap (``<<`` overflows) and its float casts wrap where
XLA saturates, so the rules never compute in them: :func:`via_byte` widens each operand
to int8 (sign-extended) or uint8, runs the byte rule and wraps the result back to the
width, as XLA:CPU does (observed on JAX 0.10.2, ``tests/data/int4.json``). Two shifts
and two bit counts see the narrow bits rather than the byte's (see :func:`via_byte`);
``runtime/tp_ops.h``'s ``TP_WRAP`` does the same under jit.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import dtypes

__all__ = ["is_narrow", "widen", "narrow", "convert", "via_byte", "REFUSED"]

#: Primitives JAX refuses on the narrow integers (its TypeError wording is in
#: ``elementwise._check_accepts``).
REFUSED = frozenset({"abs"})


def is_narrow(x) -> bool:
    """Whether ``x`` (an array or dtype) is one of the 2-/4-bit integers."""
    return dtypes.is_narrow_int(getattr(x, "dtype", x))


def _byte(dt) -> np.dtype:
    return np.dtype(np.int8 if dtypes.is_signed(dt) else np.uint8)


def widen(x: np.ndarray) -> np.ndarray:
    """Narrow-integer values as int8 (signed) or uint8 values, exactly."""
    x = np.asarray(x)
    # same itemsize: the view needs no contiguity (np.ascontiguousarray would make 0-d 1-d)
    return narrow_values(x.view(np.uint8), x.dtype, _byte(x.dtype))


def narrow_values(v: np.ndarray, dt, out=None) -> np.ndarray:
    """Integer values ``v`` wrapped to the width of ``dt``, as ``out`` (default: int64)."""
    bits = dtypes.bit_width(dt)
    v = np.asarray(v).astype(np.int64) & ((1 << bits) - 1)
    if dtypes.is_signed(dt):
        v = np.where(v >> (bits - 1) != 0, v - (1 << bits), v)
    return v.astype(out or np.int64)


def narrow(v: np.ndarray, dt) -> np.ndarray:
    """Integer values wrapped to the narrow dtype ``dt`` (:func:`dtypes.to_narrow`)."""
    return dtypes.to_narrow(v, dt)


def convert(x: np.ndarray, dt) -> np.ndarray:
    """``x`` converted to the narrow integer ``dt`` as XLA does: integers wrap, floats
    truncate toward zero and saturate at the type's limits, NaN becomes 0."""
    x = np.asarray(x)
    if is_narrow(x.dtype):
        x = widen(x)
    if dtypes.is_complex(x.dtype):
        x = x.real
    if dtypes.is_float(x.dtype):
        info = dtypes.iinfo(dt)
        f = np.asarray(x, np.float64)
        with np.errstate(invalid="ignore"):
            v = np.where(np.isnan(f), 0, np.clip(np.trunc(f), int(info.min), int(info.max)))
        return narrow(v.astype(np.int64), dt)
    return narrow(x, dt)


def _clz_narrow(x, bits):
    u = x.astype(np.int64) & ((1 << bits) - 1)
    length = np.zeros(u.shape, np.int64)
    for b in range(bits):
        length = np.where(u >> b != 0, b + 1, length)
    return bits - length


def via_byte(name: str, impl):
    """``impl`` (a byte-width NumPy rule) made to take narrow-integer operands: each is
    widened to int8/uint8, the result wrapped back to the width.

    Where the byte's upper bits would show, XLA:CPU sees the narrow ones: a logical right
    shift moves in zeros above the width, an arithmetic one copies the width's top bit
    (unsigned types too), ``clz`` counts within the width; ``population_count`` of int4
    counts the sign-extended byte's bits, of int2 the two bits (as recorded)."""
    @functools.wraps(impl)
    def rule(*args, **params):
        nar = [is_narrow(a) for a in args]
        if not any(nar):
            return impl(*args, **params)
        dt = next(np.asarray(a).dtype for a, s in zip(args, nar) if s)
        bits = dtypes.bit_width(dt)
        wide = [widen(a) if s else a for a, s in zip(args, nar)]
        if name == "shift_right_logical":
            wide[0] = (wide[0].astype(np.int64) & ((1 << bits) - 1)).astype(wide[0].dtype)
        elif name == "shift_right_arithmetic" and not dtypes.is_signed(dt):
            wide[0] = narrow_values(wide[0], dtypes.int4 if bits == 4 else dtypes.int2,
                                    np.uint8)
        if name == "clz":
            out = _clz_narrow(wide[0], bits)
        elif name == "population_count" and bits == 2:
            out = impl((wide[0].astype(np.int64) & 3).astype(np.uint8))
        else:
            with np.errstate(all="ignore"):
                out = impl(*wide, **params)
        out = np.asarray(out)
        return out if out.dtype == np.bool_ else narrow(out, dt)
    return rule

"""The 8-bit (and 4-bit) floats in the NumPy rules: XLA:CPU's conversions and arithmetic.

XLA:CPU has no float8 arithmetic: it converts each float8 operand to float16 (float32
for ``float8_e8m0fnu``, whose range float16 lacks), runs the float16 operation and
converts the result back, per operation (observed on JAX 0.10.2's compiled HLO and in
``tests/data/float8.json``). :func:`via_wider` wraps a primitive's NumPy rule that way.

The conversions are bit-level, driven by each format's parameters
(``dtypes.SMALL_FLOATS``), and mirror ``runtime/tp_float8.h`` bit for bit: decoding is
exact (NaN becomes float32's quiet NaN 0x7fc00000 of the NaN's sign, positive for the
formats without a negative zero); encoding rounds to nearest even on the float32 bits
(``float8_e8m0fnu``: ties away from zero) and maps overflow to the format's infinity,
NaN or (``float4_e2m1fn``) largest value, as XLA and ``ml_dtypes`` do. XLA's float16 ->
``float8_e5m2`` conversion turns every NaN into 0x7f, and float NaN -> ``float4_e2m1fn``
gives 0x8: :func:`from_float32` takes both. XLA converts ``float4_e2m1fn``'s +-6 to
integers as +-infinity (saturated); ``elementwise.convert_values`` repeats that.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import dtypes

__all__ = ["to_float32", "from_float32", "via_wider", "is_small", "convert", "reduce_rounded"]

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_U32 = np.uint32


def is_small(x) -> bool:
    """Whether ``x`` (an array or dtype) is one of the small floats."""
    return dtypes.is_small_float(getattr(x, "dtype", x))


def _params(dt):
    _, e, m, bias, rule = dtypes.SMALL_FLOATS[np.dtype(dt)]
    return e, m, bias, rule


@functools.lru_cache(maxsize=None)
def _decode_table(dt) -> np.ndarray:
    """The float32 value of each of the 256 bit patterns of ``dt`` (its table)."""
    e, m, bias, rule = _params(dt)
    b = np.arange(256, dtype=np.int64)
    width = e + m + (0 if rule == "e8m0" else 1)
    b = b & ((1 << width) - 1)
    sign = np.ones(256) if rule == "e8m0" else np.where(b >> (e + m) & 1, -1.0, 1.0)
    exp = (b >> m) & ((1 << e) - 1)
    man = b & ((1 << m) - 1)
    if rule == "e8m0":  # every pattern a power of two, even the zero exponent
        val = np.ldexp(1.0, exp - bias)
    else:
        val = np.where(exp == 0, np.ldexp(man.astype(float), 1 - bias - m),
                       np.ldexp(1.0 + man / (1 << m), exp - bias))
    top = (1 << e) - 1
    nan = {"ieee": (exp == top) & (man != 0), "fn": (exp == top) & (man == (1 << m) - 1),
           "fnuz": b == (1 << (e + m)), "e8m0": b == 0xFF,
           "finite": np.zeros(256, bool)}[rule]
    inf = (exp == top) & (man == 0) if rule == "ieee" else np.zeros(256, bool)
    out = (sign * val).astype(np.float32)
    out[inf] = (sign * np.inf)[inf] if rule != "e8m0" else np.inf
    bits = out.view(_U32)
    qnan = np.where(sign < 0, _U32(0xFFC00000), _U32(0x7FC00000)).astype(_U32)
    if rule == "fnuz":
        qnan = np.full(256, 0x7FC00000, _U32)
    bits[nan] = qnan[nan]
    return bits.view(np.float32)


def to_float32(x: np.ndarray) -> np.ndarray:
    """Small-float values as float32, exactly."""
    x = np.asarray(x)
    return _decode_table(x.dtype)[x.view(np.uint8)]


def from_float32(x: np.ndarray, dt, *, from_half: bool = False) -> np.ndarray:
    """float32 values rounded to the small float ``dt`` (nearest even on the bits).

    ``from_half`` applies XLA's float16 source rule (NaN -> 0x7f for float8_e5m2)."""
    dt = np.dtype(dt)
    e, m, bias, rule = _params(dt)
    u = np.asarray(x, np.float32).view(_U32).astype(np.int64)
    neg = (u >> 31) == 1
    a = u & 0x7FFFFFFF
    fexp = a >> 23
    # normal in the target (or any for e8m0, whose zero exponent is a value): round the
    # float32 bits to m mantissa bits, then rebias the exponent field
    shift = 23 - m
    # float8_e8m0fnu rounds ties away from zero (a tie between two powers of two)
    even = 1 if rule == "e8m0" else (a >> shift) & 1
    normal = (a + (1 << (shift - 1)) - 1 + even) >> shift
    normal = normal - ((127 - bias) << m)
    # subnormal in the target: round the significand to units of 2**(1 - bias - m)
    sig = np.where(fexp > 0, (a & 0x7FFFFF) | 0x800000, a & 0x7FFFFF)
    s = np.clip((1 - bias - m) - (np.maximum(fexp, 1) - 127 - 23), 1, 40)
    sub = np.where(s >= 26, 0, (sig + (1 << (s - 1)) - 1 + ((sig >> s) & 1)) >> s)
    is_normal = fexp - 127 >= 1 - bias if rule != "e8m0" else np.ones(a.shape, bool)
    mag = np.where(is_normal, normal, sub)
    if rule == "e8m0":  # a float32 subnormal: 2**-127 (0) itself or below, else 2**-126
        mag = np.where(fexp == 0, (a > 0x400000).astype(np.int64), mag)
    top = (1 << e) - 1
    max_bits = {"ieee": (top << m) - 1, "fn": (top << m) | ((1 << m) - 2),
                "fnuz": (1 << (e + m)) - 1, "e8m0": 0xFE,
                "finite": (1 << (e + m)) - 1}[rule]
    sign_bit = 1 << (e + m)
    over = {"ieee": top << m, "fn": (top << m) | ((1 << m) - 1), "fnuz": None,
            "e8m0": 0xFF, "finite": max_bits}[rule]
    nan_mag = (top << m) | (1 << (m - 1)) if rule == "ieee" else over
    is_nan = a > 0x7F800000
    overflow = (mag > max_bits) | (a == 0x7F800000)
    if rule == "e8m0":  # unsigned: zero and negatives have no value
        out = np.where(is_nan | neg | (a == 0), 0xFF, np.where(overflow, over, mag))
    elif rule == "fnuz":  # overflow and NaN are 0x80; no negative zero
        out = np.where(is_nan | overflow, sign_bit,
                       np.where(neg & (mag != 0), mag | sign_bit, mag))
    else:
        mag = np.where(overflow, over, mag) | np.where(neg, sign_bit, 0)
        if rule == "finite":
            nan = sign_bit
        elif from_half and dt == dtypes.float8_e5m2:
            nan = 0x7F
        else:
            nan = np.where(neg, nan_mag | sign_bit, nan_mag)
        out = np.where(is_nan, nan, mag)
    return out.astype(np.uint8).view(dt)


def convert(x: np.ndarray, new_dtype) -> np.ndarray:
    """XLA's conversion of ``x`` to the small float ``new_dtype``: from float32, from
    float16 (its NaN rule) and from another small float through float16, as XLA does
    (small floats leave through :func:`to_float32`, exactly)."""
    new_dtype = np.dtype(new_dtype)
    if is_small(x.dtype):
        x = to_float32(x)
        if new_dtype != dtypes.float8_e8m0fnu:
            with np.errstate(all="ignore"):
                x = x.astype(_F16)
    if x.dtype == dtypes.bfloat16:
        x = np.asarray(x).astype(np.float32)  # exact
    with np.errstate(all="ignore"):
        return from_float32(np.asarray(x).astype(np.float32), new_dtype,
                            from_half=x.dtype == _F16)


def _wide(dt) -> np.dtype:
    return _F32 if np.dtype(dt) == dtypes.float8_e8m0fnu else _F16


def via_wider(impl):
    """``impl`` (a NumPy rule) made to compute small-float operands in float16 (float32
    for float8_e8m0fnu) and convert its results back, as XLA:CPU does."""
    @functools.wraps(impl)
    def rule(*args, **params):
        small = [np.asarray(a).dtype for a in args if is_small(a)]
        if not small:
            return impl(*args, **params)
        dt = small[0]
        wide = _wide(dt)
        with np.errstate(all="ignore"):
            out = impl(*[to_float32(a).astype(wide) if is_small(a) else a for a in args],
                       **params)
        if isinstance(out, (tuple, list)):
            return type(out)(_back(o, wide, dt) for o in out)
        return _back(out, wide, dt)
    return rule


def _back(out, wide, dt):
    out = np.asarray(out)
    if out.dtype != wide:
        return out
    return from_float32(out.astype(np.float32), dt, from_half=wide == _F16)


def reduce_rounded(x: np.ndarray, axes: tuple, op: str) -> np.ndarray:
    """``sum``/``prod`` of small floats over ``axes`` as XLA:CPU reduces them: in order,
    each step computed in float16 (float32) and rounded to the small float."""
    dt = x.dtype
    wide = _wide(dt)
    keep = [a for a in range(x.ndim) if a not in axes]
    rows = np.transpose(to_float32(x), keep + list(axes))
    rows = rows.reshape(rows.shape[:len(keep)] + (-1,)).astype(wide)
    acc = np.full(rows.shape[:-1], 0 if op == "sum" else 1, wide)
    step = np.add if op == "sum" else np.multiply
    with np.errstate(all="ignore"):
        for i in range(rows.shape[-1]):
            acc = _round_trip(step(acc, rows[..., i]), dt, wide)
    return from_float32(acc.astype(np.float32), dt, from_half=wide == _F16)


def _round_trip(v, dt, wide):
    return to_float32(from_float32(v.astype(np.float32), dt, from_half=wide == _F16)).astype(wide)

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
from . import _bfloat16

__all__ = ["to_float32", "from_float32", "via_wider", "is_small", "convert", "reduce_rounded",
           "scan", "dot_via_float32", "TREE_WINDOW", "extremum", "sort_rule", "nan_identity",
           "nan_first"]

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


def via_wider(impl, prepare=None, positional=False):
    """``impl`` (a NumPy rule) made to compute small-float operands in float16 (float32
    for float8_e8m0fnu) and convert its results back, as XLA:CPU does. ``prepare(v,
    dt)`` adjusts each widened operand first (:func:`extremum`, :func:`sort_rule`);
    ``positional``: result i is converted back where operand i was a small float (sort's
    operands and results pair up; other operands may be of the wider type already)."""
    @functools.wraps(impl)
    def rule(*args, **params):
        small = [is_small(a) for a in args]
        if not any(small):
            return impl(*args, **params)
        dt = next(np.asarray(a).dtype for a, s in zip(args, small) if s)
        wide = _wide(dt)
        with np.errstate(all="ignore"):
            args = [to_float32(a).astype(wide) if s else a for a, s in zip(args, small)]
            if prepare is not None:
                args = [prepare(a, dt) if s else a for a, s in zip(args, small)]
            out = impl(*args, **params)
        if positional:  # results past the operands (top_k's indices) stay as they are
            small += [False] * (len(out) - len(small))
            return type(out)(_back(o, wide, dt) if s else o for o, s in zip(out, small))
        if isinstance(out, (tuple, list)):
            return type(out)(_back(o, wide, dt) for o in out)
        return _back(out, wide, dt)
    return rule


def nan_identity(dt) -> bool:
    """Whether the identities of sum (0) and max/min (-inf/inf) are NaN in ``dt``:
    float8_e8m0fnu has neither zero nor infinity, and JAX converts them to it (NaN), so
    its sum, cumsum, max, min, cummax, cummin are NaN and argmax, argmin 0 (the
    initial value wins)."""
    return np.dtype(dt) == dtypes.float8_e8m0fnu


def _all_nan(v, dt):
    return np.full_like(v, np.nan) if nan_identity(dt) else v


def extremum(impl):
    """:func:`via_wider` for max, min and their arg/cumulative forms (exact in the wider
    type), with :func:`nan_identity`'s rule."""
    return via_wider(impl, _all_nan)


def nan_first(dt) -> bool:
    """Whether JAX's sort orders NaN first in ``dt``: the formats without infinities and
    negative zero (``fnuz``), whose NaN bits read as the most negative integer."""
    return dtypes.SMALL_FLOATS[np.dtype(dt)][4] == "fnuz"


def _nan_to_lowest(v, dt):
    return np.where(np.isnan(v), v.dtype.type(-np.inf), v) if nan_first(dt) else v


def sort_rule(impl):
    """:func:`via_wider` for sort and top_k: ``fnuz`` NaNs sort first (as -inf, which such a
    format lacks: converting it back gives NaN again)."""
    return via_wider(impl, _nan_to_lowest, positional=True)


def _back(out, wide, dt):
    out = np.asarray(out)
    if out.dtype != wide:
        return out
    return from_float32(out.astype(np.float32), dt, from_half=wide == _F16)


#: XLA's TreeReductionRewriter (CPU) splits a reduced dimension longer than this into
#: windows of this length before the reduction proper.
TREE_WINDOW = 32


def reduce_rounded(x: np.ndarray, axes: tuple, op: str) -> np.ndarray:
    """``sum``/``prod`` of small floats over ``axes`` as XLA:CPU reduces them, each step
    computed in float16 (float32) and rounded to the small float.

    Where a reduced dimension is longer than :data:`TREE_WINDOW`, XLA first reduces
    windows of ``min(size, 32)`` along every reduced dimension (each padded with the
    initial value, half of the padding before, the rest after), then reduces the
    windows' results the same way; elements of a window (and of a plain reduction) are
    folded in row-major order from the initial value. ``runtime/tp_scan16.h``'s
    ``tp_tree_*`` is the same algorithm."""
    dt = x.dtype
    wide = _wide(dt)
    keep = [a for a in range(x.ndim) if a not in axes]
    axes = sorted(axes)
    vals = np.transpose(to_float32(x), keep + axes).astype(wide)
    if op == "sum":
        vals = _all_nan(vals, dt)  # float8_e8m0fnu: the initial 0 is NaN
    init = wide.type(0 if op == "sum" else 1)
    step = np.add if op == "sum" else np.multiply
    with np.errstate(all="ignore"):
        acc = _tree(vals, len(keep), init, step, dt, wide)
    return from_float32(acc.astype(np.float32), dt, from_half=wide == _F16)


def _fold(rows, init, step, dt, wide):
    """Fold the last axis of ``rows`` in order from ``init``, rounding every step."""
    acc = np.full(rows.shape[:-1], init, wide)
    for i in range(rows.shape[-1]):
        acc = _round_trip(step(acc, rows[..., i]), dt, wide)
    return acc


def _tree(vals, nkeep, init, step, dt, wide):
    red = vals.shape[nkeep:]
    lead = vals.shape[:nkeep]
    if all(s <= TREE_WINDOW for s in red):
        return _fold(vals.reshape(lead + (-1,)), init, step, dt, wide)
    pads, split, order = [(0, 0)] * nkeep, list(lead), []
    for d, s in enumerate(red):
        w = min(s, TREE_WINDOW)
        m = -(-s // w)
        lo = (m * w - s) // 2
        pads.append((lo, m * w - s - lo))
        split += [m, w]
        order.append(nkeep + 2 * d)
    padded = np.pad(vals, pads, constant_values=init).reshape(split)
    # the windows' elements last, row-major: (lead..., m..., w...)
    perm = list(range(nkeep)) + order + [o + 1 for o in order]
    blocks = np.transpose(padded, perm)
    nblk = blocks.shape[:nkeep + len(red)]
    sums = _fold(blocks.reshape(nblk + (-1,)), init, step, dt, wide)
    return _tree(sums, nkeep, init, step, dt, wide)


def scan(x: np.ndarray, axis: int, op: str, reverse: bool) -> np.ndarray:
    """Small-float ``cumsum``/``cumprod`` as XLA:CPU computes them: bfloat16's blocked
    scan (``_bfloat16.scan``), every step in float16 (float32) rounded to ``x``'s
    format."""
    dt, wide = x.dtype, _wide(x.dtype)
    if op == "sum" and nan_identity(dt):  # float8_e8m0fnu: the initial 0 is NaN
        x = np.full_like(x, np.nan)

    def rounder(v):
        return to_float32(from_float32(np.asarray(v, np.float32).astype(wide)
                                       .astype(np.float32), dt, from_half=wide == _F16))

    return _bfloat16.scan(x, axis, op, reverse, decode=to_float32, rounder=rounder,
                          encode=lambda v: from_float32(v, dt, from_half=wide == _F16))


def dot_via_float32(impl):
    """``impl`` (dot_general's NumPy rule) on small-float operands as XLA:CPU computes
    it: operands converted to float32, the float32 product, a small-float result
    converted back through float16 (directly for float8_e8m0fnu)."""
    @functools.wraps(impl)
    def rule(lhs, rhs, *, preferred_element_type, **params):
        small = [a.dtype for a in (lhs, rhs) if is_small(a)]
        if not small:
            return impl(lhs, rhs, preferred_element_type=preferred_element_type, **params)
        out_dt = np.dtype(preferred_element_type or small[0])
        wide = [to_float32(a) if is_small(a) else a for a in (lhs, rhs)]
        out = impl(*wide, preferred_element_type=_F32 if is_small(out_dt)
                   else preferred_element_type, **params)
        if not is_small(out_dt):
            return out
        with np.errstate(all="ignore"):
            return convert(np.asarray(out, _F32) if out_dt == dtypes.float8_e8m0fnu
                           else np.asarray(out, _F32).astype(_F16), out_dt)
    return rule


def _round_trip(v, dt, wide):
    return to_float32(from_float32(v.astype(np.float32), dt, from_half=wide == _F16)).astype(wide)

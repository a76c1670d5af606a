"""bfloat16 in the NumPy rules: computed in float32 and rounded back, as XLA:CPU does.

XLA:CPU has no bfloat16 arithmetic: it converts every bfloat16 operand to float32,
runs the float32 operation (with float32's flushing and approximations) and rounds the
result to bfloat16 after every operation, also inside fusions (observed on JAX 0.10.2:
``tests/data/bfloat16.json``). :func:`via_float32` wraps a primitive's NumPy rule that
way, so that every float rule has one float32 implementation serving both dtypes.

The conversions are XLA's bit-level ones: bfloat16 -> float32 appends 16 zero bits
(subnormals kept), float32 -> bfloat16 rounds to nearest even and turns every NaN into
the quiet NaN 0x7fc0 of the same sign, without flushing subnormals. ml_dtypes' own
``astype`` keeps NaN payloads, so the rules here do not use it for rounding.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import dtypes

__all__ = ["to_float32", "from_float32", "via_float32", "native", "round_trip",
           "nextafter", "scan"]

_BF16 = dtypes.bfloat16
_F32 = np.dtype(np.float32)


def to_float32(x: np.ndarray) -> np.ndarray:
    """bfloat16 values as float32, exactly (their bits shifted up)."""
    u = np.asarray(x).view(np.uint16).astype(np.uint32) << np.uint32(16)
    return u.view(np.float32)


def from_float32(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16: nearest even, NaN -> signed quiet NaN."""
    u = np.asarray(x, np.float32).view(np.uint32)
    rounded = (u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    quiet = ((u >> np.uint32(16)) & np.uint32(0x8000)) | np.uint32(0x7FC0)
    return np.where(nan, quiet, rounded).astype(np.uint16).view(_BF16)


def round_trip(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 and back: one step of an expansion that XLA
    evaluates in bfloat16 (each operation rounded)."""
    return to_float32(from_float32(x))


def nextafter(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """bfloat16/float16 ``nextafter`` as XLA expands it: bit stepping on the 16-bit
    patterns (not flushed), ``x == y`` compared in float32 (where DAZ reads bfloat16's
    subnormals as zero), a NaN operand giving the positive quiet NaN."""
    dt = np.asarray(x).dtype
    u = np.asarray(x).view(np.uint16).astype(np.int32)
    v = np.asarray(y).view(np.uint16).astype(np.int32)
    xf, yf = _widen(x), _widen(y)
    sign_x, sign_y, mag_x, mag_y = u & 0x8000, v & 0x8000, u & 0x7FFF, v & 0x7FFF
    step = np.where((mag_x > mag_y) | (sign_x != sign_y), u - 1, u + 1)
    out = np.where(mag_x == 0, np.where(mag_y == 0, v, sign_y | 1), step)
    out = np.where(xf == yf, v, out)
    with np.errstate(invalid="ignore"):
        nan = np.isnan(xf) | np.isnan(yf)
    out = np.where(nan, 0x7FC0 if dt == _BF16 else 0x7E00, out)
    return out.astype(np.uint16).view(dt)


def _widen(x: np.ndarray) -> np.ndarray:
    """16-bit floats as float32 as XLA:CPU compares them (bfloat16 subnormals flushed)."""
    x = np.asarray(x)
    if x.dtype != _BF16:
        return x.astype(np.float32)
    f = to_float32(x)
    return np.where(np.abs(f) < np.finfo(np.float32).tiny, np.float32(0), f)


def native(impl):
    """Mark ``impl`` as handling bfloat16 operands itself (:func:`via_float32` passes
    them through): for expansions XLA evaluates step by step in bfloat16."""
    impl.bfloat16_native = True
    return impl


def via_float32(impl):
    """``impl`` (a NumPy rule) made to compute bfloat16 operands in float32 and round its
    float32 results back to bfloat16; other operands are passed through untouched."""
    if getattr(impl, "bfloat16_native", False):
        return impl

    @functools.wraps(impl)
    def rule(*args, **params):
        if not any(getattr(a, "dtype", None) == _BF16 for a in args):
            return impl(*args, **params)
        out = impl(*[to_float32(a) if a.dtype == _BF16 else a for a in args], **params)
        if isinstance(out, (tuple, list)):
            return type(out)(_round(o) for o in out)
        return _round(out)
    return rule


def _round(out):
    out = np.asarray(out)
    return from_float32(out) if out.dtype == _F32 else out


#: XLA's ReduceWindowRewriter splits scans longer than this into blocks of this length.
SCAN_BLOCK = 16


def scan(x: np.ndarray, axis: int, op: str, reverse: bool, *, decode=None, encode=None,
         rounder=None) -> np.ndarray:
    """bfloat16 ``cumsum``/``cumprod`` along ``axis`` as XLA:CPU computes them: blocks
    of 16 scanned, their totals scanned the same way, each block combined with the
    blocks before (after) it, every step rounded to bfloat16 (``runtime/tp_scan16.h``
    is the same algorithm). ``decode``/``encode``/``rounder`` replace this module's
    conversions and step rounding for the other narrow floats (``_float8.scan``)."""
    decode, encode = decode or to_float32, encode or from_float32
    rt = rounder or round_trip
    lines = decode(np.moveaxis(np.asarray(x), axis, -1))
    step = np.add if op == "sum" else np.multiply
    init = np.float32(0 if op == "sum" else 1)
    with np.errstate(all="ignore"):
        out = _blocked(lines, step, init, reverse, rt)
    return np.moveaxis(encode(out), -1, axis)


def _direct(x, step, init, reverse, round_trip):
    """Each output folded over its whole window in index order (lines of <= 16)."""
    n = x.shape[-1]
    if not reverse:
        out, acc = np.empty_like(x), np.full(x.shape[:-1], init, np.float32)
        for j in range(n):
            out[..., j] = acc = round_trip(step(acc, x[..., j]))
        return out
    pad = np.concatenate([x, np.full(x.shape, init, np.float32)], -1)
    acc = np.full(x.shape, init, np.float32)
    for t in range(n):  # output j takes x[j + t]; past the end, the initial value
        acc = round_trip(step(acc, pad[..., t:t + n]))
    return acc


def _blocked(x, step, init, reverse, round_trip):
    n = x.shape[-1]
    if n <= SCAN_BLOCK:
        return _direct(x, step, init, reverse, round_trip)
    m = -(-n // SCAN_BLOCK)
    fill = np.full(x.shape[:-1] + (m * SCAN_BLOCK - n,), init, np.float32)
    blocks = _direct(np.concatenate([x, fill], -1).reshape(x.shape[:-1] + (m, SCAN_BLOCK)),
                     step, init, reverse, round_trip)
    totals = _blocked(blocks[..., 0 if reverse else -1], step, init, reverse, round_trip)
    edge = np.full(x.shape[:-1] + (1,), init, np.float32)
    before = np.concatenate([totals[..., 1:], edge] if reverse else [edge, totals[..., :-1]],
                            -1)
    out = round_trip(step(blocks, before[..., None]))
    return out.reshape(x.shape[:-1] + (m * SCAN_BLOCK,))[..., :n]

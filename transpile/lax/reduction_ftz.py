"""Sums and products (whole, or cumulative) of float32/float64 values near the subnormal
range, as XLA:CPU and our compiled kernels compute them.

Both run with DAZ/FTZ: every float addition or multiplication reads subnormal operands as
zeros of their sign and flushes a subnormal result to a zero of its sign. NumPy does
neither, so the NumPy rules of ``reduce_sum``/``reduce_prod``/``cumsum``/``cumprod`` take
the slow, flushing road here only when :func:`flushes` finds a value that can meet the
subnormal range; otherwise NumPy's result is already the flushed one.

The slow road follows the compiled kernels: float32 whole sums and products accumulate
in double (operands flushed first, the result flushed when it is stored), everything
else folds in index order in its own precision with every partial result flushed (the
kernel's cumulative loop, and the order XLA folds a short row in); bfloat16 goes through
float32.
"""
from __future__ import annotations

import numpy as np

from ._xla_math import daz

__all__ = ["flushes", "reduce_flushed", "cumulative_flushed", "fold"]

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def _bound(dt) -> float:
    """The magnitude from which no operand is subnormal and every partial sum is a
    multiple of the smallest normal (so never subnormal): ``tiny * 2**nmant``. A value of
    at least ``2**(e + nmant)`` is a multiple of ``2**e``, and sums of multiples of
    ``2**e`` stay multiples of it, rounded or not."""
    fi = np.finfo(dt)
    return dt.type(float(fi.tiny) * 2.0 ** fi.nmant)


#: dtype -> (:func:`_bound`, the smallest normal)
_LIMITS = {dt: (_bound(dt), np.finfo(dt).tiny) for dt in (_F32, _F64)}
#: dtype -> ``scan(x, bound)``: whether a C-contiguous ``x`` holds a nonzero ``|x|`` below
#: ``bound``, in one pass without temporaries. Filled by eager dispatch's prebuilt library
#: (``eager_kernels``) once it is loaded: NumPy's ``abs`` and compare cost as much as the
#: sum they guard.
SCANS: dict = {}


def flushes(x: np.ndarray, op: str = "sum", out=None) -> bool:
    """Whether a ``op`` ("sum" or "prod") over ``x`` (float32 or float64: other dtypes
    never flush) may meet a subnormal operand or partial result: some nonzero ``|x|``
    below :func:`_bound`, or (products) a nonzero result ``out`` below the smallest
    normal."""
    limits = _LIMITS.get(x.dtype)
    if limits is None or x.size == 0:
        return False
    scan = SCANS.get(x.dtype)
    if scan is not None and x.flags.c_contiguous:
        if scan(x, limits[0]):
            return True
    else:
        mag = np.abs(x)
        small = mag < limits[0]
        if small.any() and mag[small].any():   # zeros are common and harmless: not them
            return True
    if op == "prod" and out is not None:
        m = np.abs(out)
        return bool(((m < limits[1]) & (m != 0)).any())
    return False


def fold(lines: np.ndarray, op: str) -> np.ndarray:
    """Every partial result of folding each row of ``lines`` (2-D, float32 or float64,
    operands already flushed) in index order from the identity, each one flushed when
    subnormal: the kernels' cumulative loop under FTZ.

    NumPy's ``accumulate`` folds in index order, so it gives the flushed fold up to the
    first partial result that is subnormal; that one is flushed and the rest of its row
    folded again from there (rarely more than once or twice a row)."""
    ufunc = np.add if op == "sum" else np.multiply
    dt = lines.dtype
    lines = lines.copy()
    if op == "sum":
        lines[:, 0] += dt.type(0)     # the accumulator starts at +0.0: -0.0 + 0.0 == 0.0
    out = ufunc.accumulate(lines, axis=1)
    cols = np.arange(lines.shape[1])
    start = np.zeros(lines.shape[0], np.intp)
    tiny = np.finfo(dt).tiny
    while True:
        sub = (np.abs(out) < tiny) & (out != 0) & (cols >= start[:, None])
        rows = np.flatnonzero(sub.any(axis=1))
        if rows.size == 0:
            return out
        j = np.argmax(sub[rows], axis=1)
        seg = lines[rows]
        # the prefix becomes the identity (-0.0 for sums: -0.0 + z == z for either zero),
        # position j the flushed partial result: the fold restarts from it
        seg[cols < j[:, None]] = dt.type(-0.0) if op == "sum" else dt.type(1)
        seg[np.arange(rows.size), j] = np.copysign(dt.type(0), out[rows, j])
        out[rows] = np.where(cols < j[:, None], out[rows], ufunc.accumulate(seg, axis=1))
        start[rows] = j + 1


def _lines(x: np.ndarray, axes) -> tuple:
    """``x`` with the ``axes`` last, as rows of the reduced elements in index order."""
    keep = [a for a in range(x.ndim) if a not in axes]
    shape = tuple(x.shape[a] for a in keep)
    red = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    return np.transpose(x, keep + list(axes)).reshape(-1, red), shape


def reduce_flushed(x: np.ndarray, axes, op: str, dtype) -> np.ndarray:
    """``reduce_sum``/``reduce_prod`` of ``x`` (float32 or float64; float32 also for
    bfloat16 operands) over ``axes``, as the compiled kernel computes it, in ``dtype``."""
    with np.errstate(all="ignore"):
        x = daz(x)
        if np.dtype(dtype) == _F32:
            # float32: a double accumulator; only the stored result is flushed
            fn = np.sum if op == "sum" else np.prod
            out = fn(x.astype(_F64), axis=tuple(axes)).astype(_F32)
            return daz(out + _F32.type(0) if op == "sum" else out)
        lines, shape = _lines(x, tuple(axes))
        if lines.shape[1] == 0:
            return np.full(shape, 0 if op == "sum" else 1, dtype)
        return fold(lines, op)[:, -1].reshape(shape).astype(dtype)


def cumulative_flushed(x: np.ndarray, axis: int, op: str) -> np.ndarray:
    """``cumsum``/``cumprod`` of ``x`` (float32 or float64) along ``axis`` in index order
    (a reverse one is given ``x`` flipped), flushed as the kernel's loop."""
    lines = np.moveaxis(x, axis, -1)
    shape = lines.shape
    with np.errstate(all="ignore"):
        out = fold(daz(lines.reshape(-1, shape[-1])), op)
    return np.moveaxis(out.reshape(shape), -1, axis)

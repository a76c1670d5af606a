"""``fma``: fused multiply-add, ``x * y + z`` rounded once.

Not part of JAX's lax API: nothing traces it. The compile pipeline creates it
(``passes/contract.py``) where XLA:CPU contracts a float multiply whose only use is an
add or subtract into one fused multiply-add, so compiled results carry the same bits as
JAX's jitted ones (with a plain multiply then add, about a quarter of float32
``x * y + z`` results differ from JAX's in the last bit).

The NumPy rule is exact: in float32 the product is exact in float64 and the one case
where rounding the float64 sum to float32 could round twice (a sum exactly halfway
between two float32s that is itself inexact) is corrected with the sum's exact error;
float64 uses Dekker's exact product and error-free sums.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..core import ShapedArray
from ._base import broadcasting_shape, check_same_dtypes
from .elementwise import _flush

__all__ = ["fma_p", "fma_f32", "fma_f64"]

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)

fma_p = core.new_primitive("fma")


@fma_p.def_abstract_eval
def _fma_abstract(x, y, z):
    dt = check_same_dtypes("fma", (x, y, z))
    if dt not in (_F32, _F64):
        raise TypeError(f"fma does not accept dtype {dt.name}: only float32 and float64")
    shape = broadcasting_shape("fma", x.shape, y.shape, z.shape)
    return ShapedArray(shape, dt, x.weak_type and y.weak_type and z.weak_type)


def _two_sum(a, b):
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fma_f32(x, y, z) -> np.ndarray:
    """Correctly rounded float32 ``x * y + z``."""
    p = np.asarray(x, _F64) * np.asarray(y, _F64)  # exact: 24 + 24 bits
    c = np.asarray(z, _F64)
    s, e = _two_sum(p, c)
    # s rounds to float32 once, correctly, unless it lies exactly halfway between two
    # float32s while the true sum does not: then step s toward the true sum first.
    bits = np.atleast_1d(s).view(np.uint64)
    tie = ((bits & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)) & (np.atleast_1d(e) != 0)
    if tie.any():
        s = np.where(tie.reshape(np.shape(s)), np.nextafter(s, np.where(e > 0, np.inf, -np.inf)),
                     s)
    return np.asarray(s).astype(_F32)


def _split(a):
    # Veltkamp: a = hi + lo with hi holding the top 26 bits (exact, barring overflow).
    c = a * 134217729.0  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma_f64(x, y, z) -> np.ndarray:
    """float64 ``x * y + z`` from error-free transformations (exact product and sums).

    The result is the correctly rounded fused value except when the float64 product
    overflows or its error term underflows, far outside the range of sampled values."""
    x, y, z = (np.asarray(a, _F64) for a in (x, y, z))
    p, pe = _two_prod(x, y)
    s, se = _two_sum(p, z)
    out = s + (pe + se)
    # Infinities and NaNs: the plain expression has the fused value's special cases.
    plain = x * y + z
    return np.where(np.isfinite(plain) & np.isfinite(p), out, plain)


@fma_p.def_impl
def _fma_impl(x, y, z):
    x, y, z = (_flush(a) for a in (x, y, z))  # XLA:CPU reads subnormals as zero
    dt = np.asarray(x).dtype
    with np.errstate(all="ignore"):  # infinities and NaNs are results here, not errors
        out = fma_f32(x, y, z) if dt == _F32 else fma_f64(x, y, z)
    return _flush(out)

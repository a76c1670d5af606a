"""Elementwise odds and ends of ``jax.numpy``: sinc, heaviside, modf, frexp, ldexp,
gcd/lcm, bit counting and packing, logaddexp2, spacing, fabs, i0, nan_to_num, the
closeness tests and the real/complex predicates.

Each is a composition of lax operations (and of the ``jnp`` functions below this
module), so jit, grad and vmap come from the primitives' own rules.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes, lax
from ..custom_derivatives import custom_jvp
from ..jit import internal_jit as jit
from ._staging import staged
from ._util import (aval, check_arraylike, ensure_array, promote_args, promote_args_inexact,
                    promote_args_numeric, promote_dtypes_inexact)
from .creation import asarray
from .reductions import all as jall
from .reductions import any as jany
from .shape_ops import broadcast_arrays, ravel, reshape
from .ufuncs import (bitwise_and, const_like, imag, isnan, lax_const, left_shift,
                     right_shift)
from .ufuncs_compound import copysign, isinf, where

__all__ = ["sinc", "heaviside", "modf", "frexp", "ldexp", "gcd", "lcm", "bitwise_count",
           "packbits", "unpackbits", "logaddexp2", "spacing", "fabs", "i0", "nan_to_num",
           "isclose", "allclose", "array_equal", "array_equiv", "isrealobj", "isreal",
           "iscomplexobj"]


def _dtype(x) -> np.dtype:
    return aval(x).dtype


def fabs(x, /):
    """Absolute value as a float (integers are converted first)."""
    check_arraylike("fabs", x)
    x, = promote_dtypes_inexact(x)
    return ensure_array(lax.abs(x))


def _sinc_at_zero(x):
    # The limit at 0 (1) with derivative 0, the Maclaurin series' first terms.
    return lax.add(lax.mul(x, lax_const(x, 0)), lax_const(x, 1))


def _sinc(x):
    eq_zero = lax.eq(x, const_like(x, 0))
    pi_x = lax.mul(lax_const(x, math.pi), x)
    safe = where(eq_zero, lax_const(x, 1), pi_x)
    return where(eq_zero, _sinc_at_zero(pi_x), lax.div(lax.sin(safe), safe))


_sinc.__name__ = "sinc"
_sinc_jit = jit(_sinc)


def sinc(x, /):
    """Normalised sinc, ``sin(pi x) / (pi x)`` with the value 1 at 0."""
    check_arraylike("sinc", x)
    x, = promote_dtypes_inexact(x)
    return _sinc_jit(x)


def heaviside(x1, x2, /):
    """Heaviside step: 0 below zero, ``x2`` at zero, 1 above (NaN for NaN)."""
    check_arraylike("heaviside", x1, x2)
    return staged("heaviside", _heaviside, (x1, x2))


def _heaviside(x1, x2):
    x1, x2 = promote_args_inexact("heaviside", x1, x2)
    zero, one = lax_const(x1, 0), lax_const(x1, 1)
    lt, gt = lax.lt(x1, zero), lax.gt(x1, zero)
    at_zero = where(isnan(x1), x1, x2)  # NaN stays NaN
    return where(lt, zero, where(gt, one, at_zero))


def modf(x, /, out=None):
    """Fractional and integral parts, both with the sign of ``x``."""
    check_arraylike("modf", x)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.modf is not supported.")
    return staged("modf", _modf, (x,))


def _modf(x):
    x, = promote_dtypes_inexact(x)
    whole = where(lax.ge(x, lax_const(x, 0)), lax.floor(x), lax.ceil(x))
    return ensure_array(lax.sub(x, whole)), ensure_array(whole)


def _int_dtype_of(dt: np.dtype) -> np.dtype:
    return np.dtype(f"int{dt.itemsize * 8}")


def frexp(x, /):
    """Mantissa in [0.5, 1) and int32 exponent with ``x == m * 2**e``."""
    check_arraylike("frexp", x)
    return staged("frexp", _frexp, (x,))


def _frexp(x):
    x, = promote_dtypes_inexact(x)
    dt = _dtype(x)
    info = np.finfo(dt)
    idt = _int_dtype_of(dt)
    nmant, mask, bias = info.nmant, (1 << info.nexp) - 1, 1 - info.minexp
    # Subnormals are scaled into the normal range first, and the exponent corrected.
    tiny = lax.lt(lax.abs(x), const_like(x, info.tiny))
    scaled = where(tiny, lax.mul(x, const_like(x, 1 << nmant)), x)
    bits = lax.bitcast_convert_type(scaled, idt)
    e = where(tiny, np.array(-nmant, idt)[()], np.array(0, idt)[()])
    field = lax.bitwise_and(lax.shift_right_arithmetic(bits, np.array(nmant, idt)[()]),
                            np.array(mask, idt)[()])
    e = lax.add(e, lax.add(lax.sub(field, np.array(bias, idt)[()]), np.array(1, idt)[()]))
    bits = lax.bitwise_and(bits, np.array(~(mask << nmant), idt)[()])
    bits = lax.bitwise_or(bits, np.array((bias - 1) << nmant, idt)[()])
    m = lax.bitcast_convert_type(bits, dt)
    special = lax.bitwise_or(lax.bitwise_or(isinf(x), isnan(x)),
                             lax.eq(x, const_like(x, 0)))
    e = where(special, np.array(0, idt)[()], e)
    return ensure_array(where(special, x, m)), ensure_array(
        lax.convert_element_type(e, np.int32))


def ldexp(x1, x2, /):
    """``x1 * 2**x2`` for float ``x1`` and integer ``x2``."""
    check_arraylike("ldexp", x1, x2)
    d1, d2 = _dtype(x1), _dtype(x2)
    if d2.kind in "fc" or d1.kind == "c":
        raise ValueError(f"ldexp not supported for input types {(d1, d2)}")
    x1, = promote_args_inexact("ldexp", x1)
    dt = _dtype(x1)
    m, e = frexp(x1)
    # Adding to frexp's exponent keeps a small x1 with a large x2 from overflowing.
    e = lax.add(lax.convert_element_type(e, dt), lax.convert_element_type(x2, dt))
    e_pos = lax.gt(e, const_like(e, 0))
    m = where(e_pos, lax.mul(m, const_like(m, 2)), m)
    e = where(e_pos, lax.sub(e, const_like(e, 1)), e)
    out = lax.mul(m, lax.exp2(e))
    return where(lax.bitwise_or(isinf(x1), lax.eq(x1, const_like(x1, 0))), x1, out)


def _gcd_body(xs):
    a, b = xs
    nz = lax.ne(b, const_like(b, 0))
    safe_b = where(nz, b, const_like(b, 1))
    a, b = where(nz, b, a), where(nz, lax.rem(a, safe_b), const_like(b, 0))
    swap = lax.lt(a, b)
    return where(swap, b, a), where(swap, a, b)


def _gcd(x1, x2):
    x1, x2 = broadcast_arrays(x1, x2)
    out, _ = lax.while_loop(lambda xs: jany(lax.ne(xs[1], const_like(xs[1], 0))),
                            _gcd_body, (lax.abs(x1), lax.abs(x2)))
    return out


_gcd.__name__ = "gcd"
_gcd_jit = jit(_gcd)


def _check_int(name, x):
    if _dtype(x).kind not in "iu":
        raise ValueError(f"Arguments to jax.numpy.{name} must be integers.")


def gcd(x1, x2, /):
    """Greatest common divisor of ``|x1|`` and ``|x2|`` (integers)."""
    x1, x2 = promote_args_numeric("gcd", x1, x2)
    _check_int("gcd", x1)
    return _gcd_jit(x1, x2)


def lcm(x1, x2, /):
    """Least common multiple of ``|x1|`` and ``|x2|`` (integers)."""
    x1, x2 = promote_args_numeric("lcm", x1, x2)
    _check_int("lcm", x1)
    x1, x2 = lax.abs(x1), lax.abs(x2)
    d = _gcd_jit(x1, x2)
    zero = lax.eq(d, const_like(d, 0))
    safe_d = where(zero, const_like(d, 1), d)
    return where(zero, const_like(d, 0), lax.mul(x1, lax.div(x2, safe_d)))


def _popcount(x):
    """Set bits of the unsigned ``x`` (the classic SWAR sum, widened per step)."""
    dt = _dtype(x)
    bits = dt.itemsize * 8
    c = lambda v: np.array(v & ((1 << bits) - 1), dt)[()]  # noqa: E731
    x = lax.sub(x, lax.bitwise_and(lax.shift_right_logical(x, c(1)), c(0x5555555555555555)))
    x = lax.add(lax.bitwise_and(x, c(0x3333333333333333)),
                lax.bitwise_and(lax.shift_right_logical(x, c(2)), c(0x3333333333333333)))
    x = lax.bitwise_and(lax.add(x, lax.shift_right_logical(x, c(4))), c(0x0F0F0F0F0F0F0F0F))
    total = x
    for shift in range(8, bits, 8):
        total = lax.add(total, lax.shift_right_logical(x, c(shift)))
    return lax.bitwise_and(total, c(0xFF))


def bitwise_count(x, /):
    """Number of 1 bits in ``|x|`` (uint8)."""
    check_arraylike("bitwise_count", x)
    dt = _dtype(x)
    if dt.kind not in "biu":
        raise TypeError(f"bitwise_count requires integer or boolean input, got {dt}")
    if dt.kind == "b":
        return ensure_array(lax.convert_element_type(x, np.uint8))
    if dt.kind == "i":
        x = lax.bitcast_convert_type(lax.abs(x), np.dtype(f"uint{dt.itemsize * 8}"))
    return ensure_array(lax.convert_element_type(_popcount(x), np.uint8))


def packbits(a, axis=None, bitorder="big"):
    """Pack the truth values of ``a`` into uint8 bytes along ``axis``."""
    check_arraylike("packbits", a)
    if _dtype(a).kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    a = lax.convert_element_type(lax.ne(a, lax_const(a, 0)), np.uint8)
    if axis is None:
        a, axis = ravel(a), 0
    a = _moveaxis_last(a, axis)
    n = aval(a).shape[-1]
    pad = -n % 8
    if pad:
        a = lax.pad(a, np.uint8(0), [(0, 0, 0)] * (aval(a).ndim - 1) + [(0, pad, 0)])
    a = reshape(a, aval(a).shape[:-1] + ((n + pad) // 8, 8))
    shifts = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        shifts = shifts[::-1].copy()
    packed = lax.reduce_sum(left_shift(a, asarray(shifts)), (aval(a).ndim - 1,))
    return ensure_array(_moveaxis_back(lax.convert_element_type(packed, np.uint8), axis))


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """Unpack the bits of the uint8 array ``a`` along ``axis``."""
    check_arraylike("unpackbits", a)
    if _dtype(a) != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        shifts = shifts[::-1].copy()
    if axis is None:
        a, axis = ravel(a), 0
    a = _moveaxis_last(a, axis)
    nd = aval(a).ndim
    wide = lax.broadcast_in_dim(a, aval(a).shape + (8,), tuple(range(nd)))
    bits = bitwise_and(right_shift(wide, asarray(shifts)), np.uint8(1))
    bits = reshape(bits, aval(a).shape[:-1] + (aval(a).shape[-1] * 8,))
    if count is not None:
        bits = bits[..., :count]
    return ensure_array(_moveaxis_back(bits, axis))


def _moveaxis_last(a, axis):
    nd = aval(a).ndim
    axis = axis % nd
    perm = tuple(i for i in range(nd) if i != axis) + (axis,)
    return lax.transpose(a, perm) if axis != nd - 1 else a


def _moveaxis_back(a, axis):
    nd = aval(a).ndim
    axis = axis % nd
    if axis == nd - 1:
        return a
    perm = list(range(nd - 1))
    perm.insert(axis, nd - 1)
    return lax.transpose(a, tuple(perm))


def _logaddexp2(x1, x2):
    amax = lax.max(x1, x2)
    delta = lax.sub(x1, x2)
    ln2 = lax_const(x1, math.log(2))
    finite = lax.add(amax, lax.div(lax.log1p(lax.exp2(lax.neg(lax.abs(delta)))), ln2))
    return where(lax.ne(delta, delta), lax.add(x1, x2), finite)


def _logaddexp2_jvp(primals, tangents):
    x1, x2 = primals
    t1, t2 = tangents
    out = _logaddexp2_custom(x1, x2)
    inf = const_like(x1, np.inf)

    def weight(x):
        # +inf is read as 0 so that logaddexp2(inf, inf) has finite derivatives.
        return lax.exp2(lax.sub(where(lax.eq(x, inf), const_like(x, 0), x),
                                where(lax.eq(out, inf), const_like(out, 0), out)))
    return out, lax.add(lax.mul(t1, weight(x1)), lax.mul(t2, weight(x2)))


_logaddexp2_custom = custom_jvp(_logaddexp2)
_logaddexp2_custom.defjvp(_logaddexp2_jvp)


def logaddexp2(x1, x2, /):
    """``log2(2**x1 + 2**x2)`` computed without overflow."""
    x1, x2 = promote_args_inexact("logaddexp2", x1, x2)
    return ensure_array(_logaddexp2_custom(x1, x2))


def spacing(x, /):
    """Distance from ``x`` to the next float away from zero."""
    check_arraylike("spacing", x)
    x, = promote_dtypes_inexact(x)
    dt = _dtype(x)
    step = lax.sub(lax.nextafter(x, copysign(np.array(np.inf, dt)[()], x)), x)
    # Where subnormals flush to zero the step is 0; the smallest subnormal stands in.
    smallest = copysign(np.array(np.finfo(dt).smallest_subnormal, dt)[()], x)
    return where(lax.eq(step, const_like(step, 0)), smallest, step)


# Cephes' Chebyshev coefficients of exp(-|x|) I0(x) on [0, 8] and of
# exp(-|x|) sqrt(x) I0(x) in 8/x on (8, inf).
_I0E_A = [-4.41534164647933937950e-18, 3.33079451882223809783e-17,
          -2.43127984654795469359e-16, 1.71539128555513303061e-15,
          -1.16853328779934516808e-14, 7.67618549860493561688e-14,
          -4.85644678311192946090e-13, 2.95505266312963983461e-12,
          -1.72682629144155570723e-11, 9.67580903537323691224e-11,
          -5.18979560163526290666e-10, 2.65982372468238665035e-9,
          -1.30002500998624804212e-8, 6.04699502254191894932e-8,
          -2.67079385394061173391e-7, 1.11738753912010371815e-6,
          -4.41673835845875056359e-6, 1.64484480707288970893e-5,
          -5.75419501008210370398e-5, 1.88502885095841655729e-4,
          -5.76375574538582365885e-4, 1.63947561694133579842e-3,
          -4.32430999505057594430e-3, 1.05464603945949983183e-2,
          -2.37374148058994688156e-2, 4.93052842396707084878e-2,
          -9.49010970480476444210e-2, 1.71620901522208775349e-1,
          -3.04682672343198398683e-1, 6.76795274409476084995e-1]
_I0E_B = [-7.23318048787475395456e-18, -4.83050448594418207126e-18,
          4.46562142029675999901e-17, 3.46122286769746109310e-17,
          -2.82762398051658348494e-16, -3.42548561967721913462e-16,
          1.77256013305652638360e-15, 3.81168066935262242075e-15,
          -9.55484669882830764870e-15, -4.15056934728722208663e-14,
          1.54008621752140982691e-14, 3.85277838274214270114e-13,
          7.18012445138366623367e-13, -1.79417853150680611778e-12,
          -1.32158118404477131188e-11, -3.14991652796324136454e-11,
          1.18891471078464383424e-11, 4.94060238822496958910e-10,
          3.39623202570838634515e-9, 2.26666899049817806459e-8,
          2.04891858946906374183e-7, 2.89137052083475648297e-6,
          6.88975834691682398426e-5, 3.36911647825569408990e-3,
          8.04490411014108831608e-1]


def _chbevl(x, coeffs):
    b0 = lax.full_like(x, coeffs[0])
    b1 = lax.full_like(x, 0)
    b2 = b1
    for c in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = lax.add(lax.sub(lax.mul(x, b1), b2), lax_const(x, c))
    return lax.mul(lax_const(x, 0.5), lax.sub(b0, b2))


def _i0(x):
    ax = lax.abs(x)
    small = lax.le(ax, lax_const(ax, 8.0))
    near = _chbevl(lax.sub(lax.mul(ax, lax_const(ax, 0.5)), lax_const(ax, 2.0)), _I0E_A)
    safe = where(small, lax_const(ax, 8.0), ax)
    far = lax.div(_chbevl(lax.sub(lax.div(lax_const(ax, 32.0), safe), lax_const(ax, 2.0)),
                          _I0E_B), lax.sqrt(safe))
    return lax.mul(lax.exp(ax), where(small, near, far))


_i0.__name__ = "i0"
_i0_jit = jit(_i0)


def i0(x):
    """Modified Bessel function of the first kind, order 0."""
    check_arraylike("i0", x)
    x, = promote_dtypes_inexact(x)
    return _i0_jit(x)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to ``nan`` and infinities to ``posinf``/``neginf`` (the dtype's extremes)."""
    del copy
    check_arraylike("nan_to_num", x)
    x = ensure_array(x)
    dt = _dtype(x)
    if dt.kind != "f":
        return x
    info = np.finfo(dt)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = where(isnan(x), np.asarray(nan).astype(dt)[()], x)
    out = where(lax.eq(out, const_like(x, np.inf)), np.asarray(posinf).astype(dt)[()], out)
    return where(lax.eq(out, const_like(x, -np.inf)), np.asarray(neginf).astype(dt)[()], out)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|``, infinities equal only to themselves."""
    check_arraylike("isclose", a, b)
    return staged("isclose", _isclose, (a, b, rtol, atol), equal_nan=bool(equal_nan))


def _isclose(a, b, rtol, atol, *, equal_nan):
    a, b = promote_args_inexact("isclose", a, b)
    dt = dtypes.real_dtype(_dtype(a))  # complex operands: tolerances of their parts
    rtol_c = lax.convert_element_type(rtol, dt)
    atol_c = lax.convert_element_type(atol, dt)
    out = lax.le(lax.abs(lax.sub(a, b)),
                 lax.add(atol_c, lax.mul(rtol_c, lax.abs(b))))
    # Infinities: close only to an infinity of the same sign.
    a_inf, b_inf = isinf(a), isinf(b)
    any_inf = lax.bitwise_or(a_inf, b_inf)
    both_inf = lax.bitwise_and(a_inf, b_inf)
    out = lax.bitwise_and(out, lax.bitwise_not(any_inf))
    same_sign = lax.eq(a, b) if dtypes.is_complex(_dtype(a)) else \
        lax.eq(lax.lt(a, const_like(a, 0)), lax.lt(b, const_like(b, 0)))
    out = lax.bitwise_or(out, lax.bitwise_and(both_inf, same_sign))
    a_nan, b_nan = isnan(a), isnan(b)
    any_nan = lax.bitwise_or(a_nan, b_nan)
    if equal_nan:
        return ensure_array(where(any_nan, lax.bitwise_and(a_nan, b_nan), out))
    return ensure_array(where(any_nan, False, out))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element pair is :func:`isclose`."""
    return jall(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """True when ``a1`` and ``a2`` have the same shape and elements."""
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:  # noqa: BLE001 - anything NumPy cannot read is simply unequal
        return ensure_array(np.bool_(False))
    if aval(a1).shape != aval(a2).shape:
        return ensure_array(np.bool_(False))
    eq = lax.eq(*promote_args("array_equal", a1, a2))
    if equal_nan:
        eq = lax.bitwise_or(eq, lax.bitwise_and(isnan(a1), isnan(a2)))
    return jall(eq)


def array_equiv(a1, a2):
    """True when ``a1`` and ``a2`` broadcast together and are equal everywhere."""
    a1, a2 = asarray(a1), asarray(a2)
    try:
        a1, a2 = broadcast_arrays(a1, a2)
    except ValueError:
        return ensure_array(np.bool_(False))
    return jall(lax.eq(*promote_args("array_equiv", a1, a2)))


def iscomplexobj(x) -> bool:
    """Whether ``x`` has a complex dtype (a Python bool)."""
    if x is None:
        return False
    try:
        dt = dtypes.dtype(x)
    except (TypeError, ValueError):
        dt = np.asarray(x).dtype
    return dt.kind == "c"


def isrealobj(x) -> bool:
    """Whether ``x`` does not have a complex dtype."""
    return not iscomplexobj(x)


def isreal(x):
    """Elementwise: the imaginary part is zero (always, for real dtypes)."""
    check_arraylike("isreal", x)
    i = imag(x)
    return ensure_array(lax.eq(i, lax_const(i, 0)))

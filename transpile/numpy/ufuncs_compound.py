"""Elementwise functions built from several lax operations, most of them jitted.

JAX implements these as jitted helpers, so a jaxpr shows them as nested
``jit[name=...]`` equations (``_where``, ``floor_divide``, ``remainder``, ``round``,
...). They are jitted here too, with the same names and static arguments, so the
nesting, the operands passed to each ``jit`` (Python scalars included) and the
equations inside match.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes, lax
from ..custom_derivatives import custom_jvp
from ..jit import internal_jit as jit
from ._util import (aval, broadcast_shapes, check_arraylike, ensure_array,
                    promote_args_inexact, promote_args_numeric, promote_dtypes,
                    promote_dtypes_inexact, promote_dtypes_numeric, promote_shapes)
from .creation import full_like
from .shape_ops import broadcast_to
from .ufuncs import (add, check_int_overflow, const_like, equal, full_like_bool, greater,
                     lax_const,
                     isnan, less, logical_or, maximum, minimum, multiply, not_equal, sqrt,
                     square, subtract)

#: ``index_funcs.nonzero``, which sets it: that module sits above this one (it needs
#: ``reductions`` and ``indexing``, both written on this module's functions).
_nonzero = None

__all__ = ["where", "nonzero", "clip", "round", "around", "rint", "trunc",
           "floor_divide", "remainder", "mod", "fmod", "divmod", "power", "pow", "fmax",
           "fmin", "hypot", "logaddexp", "isinf", "isposinf", "isneginf", "signbit",
           "arccosh", "acosh", "copysign"]


def _dtype(x) -> np.dtype:
    return aval(x).dtype


# ---------------------------------------------------------------------------------------
# where, nonzero

def _where(condition, x, y):
    if _dtype(condition) != np.bool_:
        condition = lax.ne(condition, lax_const(condition, 0))
    x, y = promote_dtypes(x, y)
    shape = broadcast_shapes(aval(condition).shape, aval(x).shape, aval(y).shape)
    # A scalar predicate is fine for select_n; array predicates are broadcast.
    if aval(condition).shape:
        condition = broadcast_to(condition, shape)
    x = broadcast_to(x, shape)
    y = broadcast_to(y, shape)
    return lax.select_n(condition, y, x)


_where_jit = jit(_where)


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y``.

    With only ``condition``, returns ``nonzero(condition)``, which needs a concrete
    condition (or a static ``size``).

    Parameters
    ----------
    condition : array_like
    x, y : array_like, optional
    size, fill_value : optional
        Only for the one-argument form; see :func:`nonzero`.

    Returns
    -------
    Array, or tuple of Array for the one-argument form.
    """
    if x is None and y is None:
        check_arraylike("where", condition)
        return nonzero(condition, size=size, fill_value=fill_value)
    check_arraylike("where", condition, x, y)
    return _where_jit(condition, x, y)


def nonzero(a, *, size=None, fill_value=None):
    """Indices of the non-zero elements, one int32 array per dimension.

    See :func:`transpile.numpy.index_funcs.nonzero` (``size`` makes it traceable).
    """
    return _nonzero(a, size=size, fill_value=fill_value)


# ---------------------------------------------------------------------------------------
# clip and rounding

def _clip(arr, min=None, max=None):  # noqa: A002
    if min is not None:
        arr = maximum(min, arr)
    if max is not None:
        arr = minimum(max, arr)
    return ensure_array(arr)


_clip.__name__ = "clip"
_clip_jit = jit(_clip)


def clip(arr=None, /, min=None, max=None):  # noqa: A002
    """Limit the values of ``arr`` to ``[min, max]``.

    Parameters
    ----------
    arr : array_like
    min, max : array_like, optional
        Bounds; ``None`` leaves that side unbounded.

    Returns
    -------
    Array
    """
    check_arraylike("clip", arr)
    check_int_overflow(("min", "max"), (min, max))
    if any(b is not None and dtypes.is_complex(aval(b).dtype) for b in (arr, min, max)):
        raise ValueError(
            "Clip received a complex value either through the input or the min/max "
            "keywords. Complex values have no ordering and cannot be clipped. Please "
            "convert to a real value or array by taking the real or imaginary components "
            "via jax.numpy.real/imag respectively.")
    return _clip_jit(arr, min, max)


def _round(a, decimals=0):
    dt = _dtype(a)
    if dt == np.bool_:
        raise ValueError("data type <class 'numpy.bool'> not inexact")
    if dtypes.is_integer(dt):
        if decimals < 0:
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return ensure_array(a)
    if dtypes.is_complex(dt):  # the parts round separately
        return lax.complex(_round(lax.real(a), decimals), _round(lax.imag(a), decimals))
    if decimals == 0:
        return lax.round(a, lax.RoundingMethod.TO_NEAREST_EVEN)
    # float16 loses too much in the scaling: round in float32.
    x = lax.convert_element_type(a, np.float32) if dt == np.float16 else a
    factor = lax_const(x, 10.0 ** decimals)
    out = lax.div(lax.round(lax.mul(x, factor), lax.RoundingMethod.TO_NEAREST_EVEN), factor)
    return lax.convert_element_type(out, dt) if dt == np.float16 else out


_round.__name__ = "round"
_round_jit = jit(_round, static_argnames=("decimals",))


def round(a, decimals=0, out=None):  # noqa: A001
    """Round to ``decimals`` decimal places, halves to even.

    Parameters
    ----------
    a : array_like
    decimals : int, default 0
    out : None
        Not supported (arrays are immutable).

    Returns
    -------
    Array
    """
    check_arraylike("round", a)
    if out is not None:
        raise ValueError("The 'out' argument to jnp.round is not supported.")
    return _round_jit(a, decimals=int(decimals))


def _around(a, decimals=0):
    return round(a, decimals=decimals)


_around.__name__ = "around"
_around_jit = jit(_around, static_argnames=("decimals",))


def around(a, decimals=0, out=None):
    """Alias of :func:`round`."""
    check_arraylike("around", a)
    if out is not None:
        raise ValueError("The 'out' argument to jnp.around is not supported.")
    return _around_jit(a, decimals=int(decimals))


def _rint(x):
    dt = _dtype(x)
    if dt.kind in "biu":
        return lax.convert_element_type(x, dtypes.default_float_dtype())
    return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)


_rint.__name__ = "rint"
_rint_jit = jit(_rint)


def rint(x, /):
    """Round to the nearest integer (halves to even); integers become floats."""
    check_arraylike("rint", x)
    return _rint_jit(x)


def _trunc(x):
    if _dtype(x).kind in "biu":
        return ensure_array(x)
    return where(lax.lt(x, lax_const(x, 0)), lax.ceil(x), lax.floor(x))


_trunc.__name__ = "trunc"
_trunc_jit = jit(_trunc)


def trunc(x, /):
    """Round toward zero."""
    check_arraylike("trunc", x)
    return _trunc_jit(x)



# ---------------------------------------------------------------------------------------
# Integer-style division

def _float_divmod(x1, x2):
    # The corrections go through jnp operators so that weak operands stay weak.
    mod = lax.rem(x1, x2)
    div = lax.div(where(equal(x2, 0), x1, lax.sub(x1, mod)), x2)
    ind = lax.bitwise_and(not_equal(mod, 0), not_equal(lax.sign(x2), lax.sign(mod)))
    mod = lax.select(ind, add(mod, x2), mod)
    div = lax.select(ind, subtract(div, 1.0), div)
    return lax.round(div), mod


def _floor_divide(x, y):
    x, y = promote_args_numeric("floor_divide", x, y)
    dt = _dtype(x)
    if dtypes.is_complex(dt):
        raise TypeError("floor_divide does not support complex-valued inputs")
    if dtypes.is_signed(dt):
        quotient = lax.div(x, y)
        fix_down = lax.bitwise_and(not_equal(lax.sign(x), lax.sign(y)),
                                   not_equal(lax.rem(x, y), 0))
        return where(fix_down, subtract(quotient, 1), quotient)
    if dtypes.is_unsigned(dt):
        return lax.div(x, y)
    return _float_divmod(x, y)[0]


_floor_divide.__name__ = "floor_divide"
_floor_divide_jit = jit(_floor_divide)


def floor_divide(x, y, /):
    """``x // y``: the floor of the quotient."""
    check_arraylike("floor_divide", x, y)
    check_int_overflow("xy", (x, y))
    return _floor_divide_jit(x, y)


def _remainder(x, y):
    x, y = promote_args_numeric("remainder", x, y)
    if dtypes.is_integer(_dtype(x)):
        # A zero divisor would trap; the result there is unspecified anyway.
        y = where(lax.eq(y, const_like(y, 0)), full_like(y, 1), y)
    trunc_mod = lax.rem(x, y)
    zero = const_like(trunc_mod, 0)
    nonzero_mod = lax.ne(trunc_mod, zero)
    sign_differs = lax.ne(lax.lt(trunc_mod, zero), lax.lt(y, const_like(y, 0)))
    fix = lax.bitwise_and(sign_differs, nonzero_mod)
    return lax.select(fix, lax.add(trunc_mod, y), trunc_mod)


_remainder.__name__ = "remainder"
_remainder_jit = jit(_remainder)


def remainder(x, y, /):
    """``x % y`` with the sign of ``y`` (Python's modulo)."""
    check_arraylike("remainder", x, y)
    check_int_overflow("xy", (x, y))
    return _remainder_jit(x, y)


mod = remainder


def _fmod(x1, x2):
    if dtypes.is_integer(dtypes.result_type(x1, x2)):
        x2 = where(equal(x2, 0), full_like(x2, 1), x2)
    x1, x2 = promote_args_numeric("fmod", x1, x2)
    return lax.rem(x1, x2)


_fmod.__name__ = "fmod"
_fmod_jit = jit(_fmod)


def fmod(x1, x2, /):
    """Remainder with the sign of the dividend (C's ``fmod``)."""
    check_arraylike("fmod", x1, x2)
    check_int_overflow(("x1", "x2"), (x1, x2))
    return _fmod_jit(x1, x2)


def _divmod(x, y):
    x, y = promote_args_numeric("divmod", x, y)
    if dtypes.is_integer(_dtype(x)):
        return floor_divide(x, y), remainder(x, y)
    return _float_divmod(x, y)


_divmod.__name__ = "divmod"
_divmod_jit = jit(_divmod)


def divmod(x, y, /):  # noqa: A001
    """``(x // y, x % y)``."""
    check_arraylike("divmod", x, y)
    check_int_overflow("xy", (x, y))
    return _divmod_jit(x, y)


# ---------------------------------------------------------------------------------------
# power

def _is_static_int(x) -> bool:
    return (type(x) is int or isinstance(x, np.integer)
            or (isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu"))


def _integer_pow(x, n: int):
    if _dtype(x).kind == "b":
        x = lax.convert_element_type(x, dtypes.default_int_dtype())
    if n < 0 and dtypes.is_integer(_dtype(x)):
        raise TypeError("Integers cannot be raised to negative powers, got "
                        f"integer_pow({aval(x).str_short(False)}, {n})")
    return lax.integer_pow(x, n)


def _pow_int_int(x, y):
    # Square-and-multiply over the bits of the exponent; six rounds cover every
    # exponent that does not overflow a 64-bit result.
    zero, one = const_like(y, 0), const_like(y, 1)
    acc = where(lax.bitwise_and(lax.eq(x, zero), lax.ne(y, zero)), zero, one)
    for _ in range(6):
        acc = where(lax.bitwise_and(y, one), lax.mul(acc, x), acc)
        x = lax.mul(x, x)
        y = lax.shift_right_logical(y, one)
    return acc


def power(x1, x2, /):
    """``x1 ** x2``: ``integer_pow`` for a static integer exponent, else ``pow``.

    Parameters
    ----------
    x1, x2 : array_like

    Returns
    -------
    Array
    """
    check_arraylike("power", x1, x2)
    check_int_overflow(("x1", "x2"), (x1, x2))
    if _is_static_int(x2):
        return _integer_pow(x1, int(x2))
    # Ranks first, then dtypes: an integer exponent must keep its own dtype.
    x1, x2_int = promote_shapes("power", x1, x2)
    x1, x2 = promote_dtypes_numeric(x1, x2_int)
    if dtypes.is_integer(_dtype(x1)):
        return _pow_int_int(x1, x2)
    if dtypes.is_integer(_dtype(x2_int)):
        # lax.pow takes an integer exponent as it is; the promoted copy goes unused,
        # as in JAX.
        return lax.pow(x1, x2_int)
    return lax.pow(x1, x2)


pow = power  # noqa: A001


# ---------------------------------------------------------------------------------------
# NaN-aware extrema, hypot, logaddexp

def _fmax(x1, x2):
    return where(logical_or(greater(x1, x2), isnan(x2)), x1, x2)


def _fmin(x1, x2):
    return where(logical_or(less(x1, x2), isnan(x2)), x1, x2)


_fmax.__name__, _fmin.__name__ = "fmax", "fmin"
_fmax_jit, _fmin_jit = jit(_fmax), jit(_fmin)


def fmax(x1, x2):
    """Maximum that ignores NaN (returns the other operand)."""
    check_arraylike("fmax", x1, x2)
    return _fmax_jit(x1, x2)


def fmin(x1, x2):
    """Minimum that ignores NaN (returns the other operand)."""
    check_arraylike("fmin", x1, x2)
    return _fmin_jit(x1, x2)


def _hypot(x1, x2):
    x1, x2 = promote_args_inexact("hypot", x1, x2)
    x1, x2 = lax.abs(x1), lax.abs(x2)
    any_inf = lax.bitwise_or(lax.eq(x1, const_like(x1, np.inf)),
                             lax.eq(x2, const_like(x2, np.inf)))
    big, small = maximum(x1, x2), minimum(x1, x2)
    big_is_zero = equal(big, 0)
    safe_big = where(equal(big, 0), full_like(big, 1), big)
    scaled = multiply(big, sqrt(1 + square(lax.div(small, safe_big))))
    out = where(big_is_zero, big, scaled)
    return where(any_inf, lax_const(out, np.inf), out)


_hypot.__name__ = "hypot"
_hypot_jit = jit(_hypot)


def hypot(x1, x2, /):
    """``sqrt(x1**2 + x2**2)`` without overflow in the squares."""
    check_arraylike("hypot", x1, x2)
    return _hypot_jit(x1, x2)


def _logaddexp(x1, x2):
    amax = lax.max(x1, x2)
    delta = lax.sub(x1, x2)
    is_nan = lax.ne(delta, delta)
    nan_case = lax.add(x1, x2)
    finite_case = lax.add(amax, lax.log1p(lax.exp(lax.neg(lax.abs(delta)))))
    return lax.select(is_nan, nan_case, finite_case)


_logaddexp.__name__ = "logaddexp"


def _replace_posinf(x):
    return lax.select(lax.eq(x, const_like(x, np.inf)), lax.full_like(x, 0), x)


def _logaddexp_jvp(primals, tangents):
    """d out = t1 * exp(x1 - out) + t2 * exp(x2 - out), with +inf read as 0 so that
    ``logaddexp(inf, inf)`` has finite derivatives (JAX's rule)."""
    x1, x2 = primals
    t1, t2 = tangents
    out = _logaddexp_custom(x1, x2)
    dx1 = lax.mul(t1, lax.exp(lax.sub(_replace_posinf(x1), _replace_posinf(out))))
    dx2 = lax.mul(t2, lax.exp(lax.sub(_replace_posinf(x2), _replace_posinf(out))))
    return out, lax.add(dx1, dx2)


def _make_logaddexp():
    f = custom_jvp(_logaddexp)
    f.defjvp(_logaddexp_jvp)
    return f


_logaddexp_custom = None


def logaddexp(x1, x2, /):
    """``log(exp(x1) + exp(x2))`` computed stably: a ``custom_jvp`` (as in JAX) whose
    derivative is ``exp(x - out)`` per argument (0.5 each where they are equal)."""
    global _logaddexp_custom
    x1, x2 = promote_args_inexact("logaddexp", x1, x2)
    if _logaddexp_custom is None:
        _logaddexp_custom = _make_logaddexp()
    return _logaddexp_custom(x1, x2)


# ---------------------------------------------------------------------------------------
# Float classification

def _isinf(x):
    if dtypes.is_float(_dtype(x)):
        return lax.eq(lax.abs(x), const_like(x, np.inf))
    if dtypes.is_complex(_dtype(x)):  # either part infinite
        re, im = lax.real(x), lax.imag(x)
        return lax.bitwise_or(lax.eq(lax.abs(re), const_like(re, np.inf)),
                              lax.eq(lax.abs(im), const_like(im, np.inf)))
    return full_like_bool(x, False)


_isinf.__name__ = "isinf"
_isinf_jit = jit(_isinf)


def isinf(x, /):
    """Test for positive or negative infinity."""
    check_arraylike("isinf", x)
    return _isinf_jit(x)


def isposinf(x, /):
    """Test for positive infinity."""
    check_arraylike("isposinf", x)
    if not dtypes.is_float(_dtype(x)):
        return full_like_bool(x, False)
    return lax.eq(x, const_like(x, np.inf))


def isneginf(x, /):
    """Test for negative infinity."""
    check_arraylike("isneginf", x)
    if not dtypes.is_float(_dtype(x)):
        return full_like_bool(x, False)
    return lax.eq(x, const_like(x, -np.inf))


def _signbit(x):
    dt = _dtype(x)
    if dt.kind == "b":
        return full_like_bool(x, False)
    if dtypes.is_integer(dt):
        return lax.lt(x, const_like(x, 0))
    bits = dt.itemsize * 8
    int_dt = np.dtype(f"int{bits}")
    bitcast = getattr(lax, "bitcast_convert_type", None)
    if bitcast is None:
        # Without a bitcast, the sign of -0.0 is read from 1/x (NaN signs are lost).
        neg_zero = lax.bitwise_and(lax.eq(x, const_like(x, 0)),
                                   lax.lt(lax.div(const_like(x, 1), x), const_like(x, 0)))
        return lax.bitwise_or(lax.lt(x, const_like(x, 0)), neg_zero)
    shifted = lax.shift_right_arithmetic(bitcast(x, int_dt), np.array(bits - 1, int_dt)[()])
    return lax.convert_element_type(shifted, np.bool_)


_signbit.__name__ = "signbit"
_signbit_jit = jit(_signbit)


def signbit(x, /):
    """True where the sign bit is set (negative numbers and -0.0)."""
    check_arraylike("signbit", x)
    return _signbit_jit(x)


def _copysign(x1, x2):
    x1, x2 = promote_args_inexact("copysign", x1, x2)
    return where(signbit(x2), lax.neg(lax.abs(x1)), lax.abs(x1))


_copysign.__name__ = "copysign"
_copysign_jit = jit(_copysign)


def copysign(x1, x2, /):
    """The magnitude of ``x1`` with the sign of ``x2``."""
    check_arraylike("copysign", x1, x2)
    return _copysign_jit(x1, x2)


def _arccosh(x):
    x, = promote_dtypes_inexact(x)
    return lax.acosh(x)


_arccosh.__name__ = "arccosh"
_arccosh_jit = jit(_arccosh)


def arccosh(x, /):
    """Inverse hyperbolic cosine."""
    check_arraylike("arccosh", x)
    return _arccosh_jit(x)


acosh = arccosh

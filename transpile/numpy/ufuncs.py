"""Elementwise functions that are one lax operation after promotion.

Each function checks its operands, promotes them as ``jax.numpy`` does (to the common
dtype, to a float dtype for transcendental functions) and binds one primitive, so the
jaxpr shows exactly the ``convert_element_type``/``broadcast_in_dim`` equations JAX
emits before the operation. Identity cases (``floor`` of an integer, ``abs`` of an
unsigned integer) emit nothing.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes, lax
from ..array import Array
from ._util import (aval, check_arraylike, ensure_array, promote_args,
                    promote_args_inexact, promote_args_numeric, promote_dtypes_inexact,
                    promote_dtypes_numeric)
from .creation import zeros_like

__all__ = [
    "add", "subtract", "multiply", "divide", "true_divide", "negative", "positive", "abs",
    "absolute", "sign", "floor", "ceil", "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "arcsinh", "arctanh", "asin", "acos", "atan", "asinh", "atanh",
    "sinh", "cosh", "tanh", "arctan2", "atan2", "maximum", "minimum", "equal", "not_equal",
    "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
    "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "invert", "bitwise_invert", "left_shift", "right_shift",
    "bitwise_left_shift", "bitwise_right_shift", "isnan", "isfinite", "nextafter",
    "deg2rad", "rad2deg", "radians", "degrees", "conj", "conjugate", "real", "imag",
    "float_power", "check_int_overflow", "const_like", "lax_const",
]


def check_int_overflow(names, args) -> None:
    """Raise JAX's ``OverflowError`` for a Python int that does not fit the default int.

    JAX parses ufunc arguments as arguments of a jitted computation, so the message
    names the parameter (``x`` or ``y``).
    """
    info = np.iinfo(dtypes.default_int_dtype())
    for name, a in zip(names, args, strict=True):
        if type(a) is int and not info.min <= a <= info.max:
            raise OverflowError(
                "An overflow was encountered while parsing an argument to a jitted "
                f"computation, whose argument path is {name}. Got <class 'int'> with "
                f"value {a}")


def _unary(name: str, body, doc: str):
    def fn(x, /):
        if type(x) is not Array:  # an Array needs neither check
            check_arraylike(name, x)
            check_int_overflow("x", (x,))
        return body(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{doc}, elementwise.\n\nParameters\n----------\nx : array_like\n\n"
                  "Returns\n-------\nArray\n")
    return fn


def _binary(name: str, body, doc: str):
    def fn(x, y, /):
        if type(x) is Array and type(y) is Array and dtypes.kind(x._value.dtype) in "biufc" \
                and dtypes.kind(y._value.dtype) in "biufc":
            return body(x, y)  # arrays of numbers: nothing below can fail
        check_arraylike(name, x, y)
        check_int_overflow("xy", (x, y))
        kinds = [dtypes.is_key(dtypes.dtype(a)) for a in (x, y)]
        if any(kinds) and not all(kinds):  # keys combine only with keys
            raise TypeError(f"{name} does not accept dtypes "
                            f"{', '.join(dtypes.dtype_name(dtypes.dtype(a)) for a in (x, y))}.")
        return body(x, y)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{doc}, elementwise with broadcasting.\n\nParameters\n----------\n"
                  "x, y : array_like\n\nReturns\n-------\nArray\n")
    return fn


def _dtype(x) -> np.dtype:
    return aval(x).dtype


def _inexact_unop(lax_fn):
    def body(x):
        x, = promote_dtypes_inexact(x)
        return lax_fn(x)
    return body


def _float_only_unop(lax_fn):
    """Identity for integers and booleans (floor, ceil): nothing to round."""
    def body(x):
        if _dtype(x).kind in "biu":
            return ensure_array(x)
        return lax_fn(x)
    return body


def const_like(x, value):
    """``value`` as a strongly typed NumPy scalar of ``x``'s dtype (a literal in a jaxpr)."""
    return np.array(value).astype(_dtype(x))[()]


def lax_const(x, value):
    """Like :func:`const_like`, but a weakly typed 0-d ``x`` (a Python scalar, traced or
    not) gets a Python scalar, so that results computed with it stay weak."""
    a = aval(x)
    if a.weak_type and a.ndim == 0 and dtypes.kind(a.dtype) in "iuf":
        return (float if dtypes.is_float(a.dtype) else int)(value)
    return const_like(x, value)


# ---------------------------------------------------------------------------------------
# Unary

def _abs(x):
    dt = _dtype(x)
    if dt.kind in "bu":
        return ensure_array(x)
    return lax.abs(x)


def _square(x):
    x, = promote_dtypes_numeric(x)
    return lax.square(x)


def _reciprocal(x):
    x, = promote_dtypes_inexact(x)
    return lax.integer_pow(x, -1)


def _log2(x):
    x, = promote_dtypes_inexact(x)
    return lax.div(lax.log(x), lax.log(const_like(x, 2)))


def _log10(x):
    x, = promote_dtypes_inexact(x)
    return lax.mul(lax.log(x), const_like(x, 1 / math.log(10)))


def _scale(factor):
    def body(x):
        x, = promote_dtypes_inexact(x)
        return lax.mul(x, lax_const(x, factor))
    return body


def _isnan(x):
    # x != x is True exactly for NaN, and False for every integer.
    return lax.ne(x, x)


def _isfinite(x):
    if dtypes.is_float(_dtype(x)):
        return lax.is_finite(x)
    if dtypes.is_complex(_dtype(x)):  # both parts finite
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return full_like_bool(x, True)


def full_like_bool(x, value: bool):
    """A boolean array of ``x``'s shape filled with ``value`` (no equation for 0-d)."""
    shape = aval(x).shape
    return lax.broadcast_in_dim(np.bool_(value), shape, ()) if shape else \
        ensure_array(np.bool_(value))


def _logical_not(x):
    if _dtype(x) != np.bool_:
        x = lax.ne(x, lax_const(x, 0))
    return lax.bitwise_not(x)


def _imag(x):
    if dtypes.is_complex(_dtype(x)):
        return lax.imag(x)
    return zeros_like(x)


def _real(x):
    return lax.real(x) if dtypes.is_complex(_dtype(x)) else ensure_array(x)


def _conj(x):
    return lax.conj(x) if dtypes.is_complex(_dtype(x)) else ensure_array(x)


negative = _unary("negative", lax.neg, "Numerical negative")
positive = _unary("positive", ensure_array, "Numerical positive (the input itself)")
abs = _unary("abs", _abs, "Absolute value")  # noqa: A001
absolute = _unary("absolute", _abs, "Absolute value")
sign = _unary("sign", lax.sign, "Sign (-1, 0 or 1)")
floor = _unary("floor", _float_only_unop(lax.floor), "Floor")
ceil = _unary("ceil", _float_only_unop(lax.ceil), "Ceiling")
exp = _unary("exp", _inexact_unop(lax.exp), "Exponential")
exp2 = _unary("exp2", _inexact_unop(lax.exp2), "Base-2 exponential")
expm1 = _unary("expm1", _inexact_unop(lax.expm1), "exp(x) - 1")
log = _unary("log", _inexact_unop(lax.log), "Natural logarithm")
log2 = _unary("log2", _log2, "Base-2 logarithm")
log10 = _unary("log10", _log10, "Base-10 logarithm")
log1p = _unary("log1p", _inexact_unop(lax.log1p), "log(1 + x)")
sqrt = _unary("sqrt", _inexact_unop(lax.sqrt), "Square root")
cbrt = _unary("cbrt", _inexact_unop(lax.cbrt), "Cube root")
square = _unary("square", _square, "x * x")
reciprocal = _unary("reciprocal", _reciprocal, "1 / x")
sin = _unary("sin", _inexact_unop(lax.sin), "Sine")
cos = _unary("cos", _inexact_unop(lax.cos), "Cosine")
tan = _unary("tan", _inexact_unop(lax.tan), "Tangent")
arcsin = _unary("arcsin", _inexact_unop(lax.asin), "Inverse sine")
arccos = _unary("arccos", _inexact_unop(lax.acos), "Inverse cosine")
arctan = _unary("arctan", _inexact_unop(lax.atan), "Inverse tangent")
sinh = _unary("sinh", _inexact_unop(lax.sinh), "Hyperbolic sine")
cosh = _unary("cosh", _inexact_unop(lax.cosh), "Hyperbolic cosine")
tanh = _unary("tanh", _inexact_unop(lax.tanh), "Hyperbolic tangent")
arcsinh = _unary("arcsinh", _inexact_unop(lax.asinh), "Inverse hyperbolic sine")
arctanh = _unary("arctanh", _inexact_unop(lax.atanh), "Inverse hyperbolic tangent")
asin, acos, atan, asinh, atanh = arcsin, arccos, arctan, arcsinh, arctanh
isnan = _unary("isnan", _isnan, "Test for NaN")
isfinite = _unary("isfinite", _isfinite, "Test for finite values")
deg2rad = _unary("deg2rad", _scale(math.pi / 180), "Degrees to radians")
rad2deg = _unary("rad2deg", _scale(180 / math.pi), "Radians to degrees")
radians, degrees = deg2rad, rad2deg
logical_not = _unary("logical_not", _logical_not, "Logical not")
bitwise_not = _unary("bitwise_not", lax.bitwise_not, "Bitwise (logical for bool) not")
invert = bitwise_invert = bitwise_not
conj = _unary("conj", _conj, "Complex conjugate (the input, for real dtypes)")
conjugate = conj
real = _unary("real", _real, "Real part (the input, for real dtypes)")
imag = _unary("imag", _imag, "Imaginary part (zeros, for real dtypes)")


# ---------------------------------------------------------------------------------------
# Binary

def _promoted(lax_fn, promote=promote_args, bool_fn=None, fun_name=""):
    def body(x, y):
        x, y = promote(fun_name, x, y)
        if bool_fn is not None and _dtype(x) == np.bool_:
            return bool_fn(x, y)
        return lax_fn(x, y)
    return body


def _ordered(lax_fn, fun_name):
    """An order comparison; complex operands compare lexicographically, (real, imag)."""
    def body(x, y):
        x, y = promote_args(fun_name, x, y)
        if dtypes.is_complex(_dtype(x)):
            same = lax.eq(lax.real(x), lax.real(y))
            by_imag = lax_fn(lax.imag(x), lax.imag(y))
            return lax.select(same, by_imag, lax_fn(lax.real(x), lax.real(y)))
        return lax_fn(x, y)
    return body


def _logical(lax_fn, fun_name):
    def body(x, y):
        x, y = promote_args(fun_name, x, y)
        if _dtype(x) != np.bool_:
            x = lax.ne(x, lax_const(x, 0))
            y = lax.ne(y, lax_const(y, 0))
        return lax_fn(x, y)
    return body


def _right_shift(x, y):
    x, y = promote_args_numeric("right_shift", x, y)
    if dtypes.is_unsigned(_dtype(x)):
        return lax.shift_right_logical(x, y)
    return lax.shift_right_arithmetic(x, y)


def _float_power(x, y):
    x, y = promote_args_inexact("float_power", x, y)
    return lax.pow(x, y)


add = _binary("add", _promoted(lax.add, bool_fn=lax.bitwise_or, fun_name="add"),
              "Addition (logical or for booleans)")
subtract = _binary("subtract", _promoted(lax.sub, fun_name="subtract"), "Subtraction")
multiply = _binary("multiply", _promoted(lax.mul, bool_fn=lax.bitwise_and,
                                         fun_name="multiply"),
                   "Multiplication (logical and for booleans)")
true_divide = _binary("true_divide", _promoted(lax.div, promote_args_inexact,
                                               fun_name="true_divide"),
                      "True division (integers are divided as floats)")
divide = true_divide
maximum = _binary("maximum", _promoted(lax.max, fun_name="maximum"),
                  "Maximum (NaN-propagating)")
minimum = _binary("minimum", _promoted(lax.min, fun_name="minimum"),
                  "Minimum (NaN-propagating)")
arctan2 = _binary("arctan2", _promoted(lax.atan2, promote_args_inexact, fun_name="arctan2"),
                  "Two-argument inverse tangent of x / y")
atan2 = arctan2
nextafter = _binary("nextafter", _promoted(lax.nextafter, promote_args_inexact,
                                           fun_name="nextafter"),
                    "Next representable float after x toward y")
equal = _binary("equal", _promoted(lax.eq, fun_name="equal"), "x == y")
not_equal = _binary("not_equal", _promoted(lax.ne, fun_name="not_equal"), "x != y")
less = _binary("less", _ordered(lax.lt, "less"), "x < y")
less_equal = _binary("less_equal", _ordered(lax.le, "less_equal"), "x <= y")
greater = _binary("greater", _ordered(lax.gt, "greater"), "x > y")
greater_equal = _binary("greater_equal", _ordered(lax.ge, "greater_equal"),
                        "x >= y")
logical_and = _binary("logical_and", _logical(lax.bitwise_and, "logical_and"), "Logical and")
logical_or = _binary("logical_or", _logical(lax.bitwise_or, "logical_or"), "Logical or")
logical_xor = _binary("logical_xor", _logical(lax.bitwise_xor, "logical_xor"), "Logical xor")
bitwise_and = _binary("bitwise_and", _promoted(lax.bitwise_and, fun_name="bitwise_and"),
                      "Bitwise and")
bitwise_or = _binary("bitwise_or", _promoted(lax.bitwise_or, fun_name="bitwise_or"),
                     "Bitwise or")
bitwise_xor = _binary("bitwise_xor", _promoted(lax.bitwise_xor, fun_name="bitwise_xor"),
                      "Bitwise xor")
left_shift = _binary("left_shift", _promoted(lax.shift_left, promote_args_numeric,
                                             fun_name="left_shift"), "Left shift")
right_shift = _binary("right_shift", _right_shift,
                      "Right shift (arithmetic for signed, logical for unsigned)")
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift
float_power = _binary("float_power", _float_power, "Power computed in floating point")

"""Elementwise primitives: unary math, binary arithmetic and logic, comparisons,
``select_n``, ``clamp`` and ``convert_element_type``.

Binary operands must share a dtype and have equal ranks (size-1 dimensions broadcast)
or rank 0, as JAX 0.10.2's lax ops do. NumPy rules follow XLA semantics where they
differ from NumPy's: integer division truncates and never traps, shifts past the bit
width give 0 (or the sign), ``round`` rounds half away from zero by default.
"""
from __future__ import annotations

import math

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters.tracing import const_fold_rules
from ..ir import Literal, pp_param_rules
__all__ = ['abs', 'acos', 'acosh', 'add', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor', 'cbrt', 'ceil', 'clamp', 'convert_element_type', 'convert_values', 'cos', 'cosh', 'div', 'eq', 'erf', 'erf_inv', 'exp', 'exp2', 'expm1', 'floor', 'ge', 'gt', 'integer_pow', 'is_finite', 'le', 'log', 'log1p', 'logistic', 'lt', 'max', 'min', 'mul', 'ne', 'neg', 'nextafter', 'pow', 'rem', 'round', 'rsqrt', 'select', 'select_n', 'shift_left', 'shift_right_arithmetic', 'shift_right_logical', 'sign', 'sin', 'sinh', 'sqrt', 'square', 'sub', 'tan', 'tanh', 'RoundingMethod', 'neg_p', 'sign_p', 'floor_p', 'ceil_p', 'round_p', 'is_finite_p', 'exp_p', 'exp2_p', 'expm1_p', 'log_p', 'log1p_p', 'sqrt_p', 'rsqrt_p', 'cbrt_p', 'sin_p', 'cos_p', 'tan_p', 'asin_p', 'acos_p', 'atan_p', 'sinh_p', 'cosh_p', 'tanh_p', 'asinh_p', 'acosh_p', 'atanh_p', 'logistic_p', 'erf_p', 'erf_inv_p', 'abs_p', 'not_p', 'integer_pow_p', 'add_p', 'sub_p', 'mul_p', 'div_p', 'rem_p', 'pow_p', 'max_p', 'min_p', 'atan2_p', 'nextafter_p', 'and_p', 'or_p', 'xor_p', 'shift_left_p', 'shift_right_logical_p', 'shift_right_arithmetic_p', 'eq_p', 'ne_p', 'lt_p', 'le_p', 'gt_p', 'ge_p', 'add_any_p', 'select_n_p', 'clamp_p', 'convert_element_type_p', '_convert_element_type', 'convert_values']

from ._base import (ANY, BOOL, FLOAT, INTEGRAL, NUMERIC, broadcasting_shape, check_dtype,
                    check_same_dtypes)

# ---------------------------------------------------------------------------------------
# Builders


def _unop(name: str, kinds: str, np_fn, out_dtype=None):
    p = core.new_primitive(name)

    def abstract(x, **params):
        check_dtype(name, x.dtype, kinds)
        dt = x.dtype if out_dtype is None else np.dtype(out_dtype)
        return ShapedArray(x.shape, dt, x.weak_type and out_dtype is None)

    p.def_abstract_eval(abstract)
    p.def_impl(np_fn)
    return p


def _binop(name: str, kinds: str, np_fn, out_dtype=None):
    p = core.new_primitive(name)

    def abstract(x, y, **params):
        dt = check_same_dtypes(name, (x, y))
        check_dtype(name, dt, kinds)
        shape = broadcasting_shape(name, x.shape, y.shape)
        weak = x.weak_type and y.weak_type and out_dtype is None
        return ShapedArray(shape, dt if out_dtype is None else out_dtype, weak)

    p.def_abstract_eval(abstract)
    p.def_impl(np_fn)
    return p


def _float_fn(fn):
    """Evaluate a float function in at least float32 precision, as XLA does for f16."""
    def impl(x, *rest):
        if x.dtype == np.float16:
            return fn(x.astype(np.float32), *[r.astype(np.float32) for r in rest]) \
                .astype(np.float16)
        return fn(x, *rest)
    return impl


# ---------------------------------------------------------------------------------------
# Unary

def _round_impl(x, rounding_method=0):
    if int(rounding_method) == 0:  # away from zero
        return np.where(np.abs(x - np.trunc(x)) == 0.5, x + np.copysign(0.5, x), np.round(x)) \
            .astype(x.dtype)
    return np.round(x)


def _sign_impl(x):
    if x.dtype.kind == "u":
        return (x != 0).astype(x.dtype)
    return np.sign(x)


_erf_scalar = np.vectorize(math.erf, otypes=[np.float64])


def _erf_impl(x):
    return _erf_scalar(x.astype(np.float64)).astype(x.dtype)


def _erf_inv_f64(y):
    y = np.asarray(y, np.float64)
    out = np.full(y.shape, np.nan)
    a = np.abs(y)
    inside = a < 1
    # Giles' single-precision approximation as a start, then Newton steps on erf.
    w = -np.log1p(-y[inside] * y[inside])
    small = w < 5
    t = np.where(small, w - 2.5, np.sqrt(np.maximum(w, 5)) - 3)
    ps = [(2.81022636e-08, -0.000200214257), (3.43273939e-07, 0.000100950558),
          (-3.5233877e-06, 0.00134934322), (-4.39150654e-06, -0.00367342844),
          (0.00021858087, 0.00573950773), (-0.00125372503, -0.0076224613),
          (-0.00417768164, 0.00943887047), (0.246640727, 1.00167406),
          (1.50140941, 2.83297682)]
    p = np.where(small, ps[0][0], ps[0][1])
    for lo, hi in ps[1:]:
        p = np.where(small, lo, hi) + p * t
    r = p * y[inside]
    for _ in range(3):
        err = _erf_scalar(r) - y[inside]
        r = r - err / (2 / math.sqrt(math.pi) * np.exp(-r * r))
    out[inside] = r
    out[a == 1] = np.copysign(np.inf, y[a == 1])
    return out


def _erf_inv_impl(x):
    return _erf_inv_f64(x).astype(x.dtype)


def _logistic_impl(x):
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype)


def _not_impl(x):
    return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)


neg_p = _unop("neg", NUMERIC, np.negative)
sign_p = _unop("sign", NUMERIC, _sign_impl)
floor_p = _unop("floor", FLOAT, np.floor)
ceil_p = _unop("ceil", FLOAT, np.ceil)
round_p = _unop("round", FLOAT, _round_impl)
is_finite_p = _unop("is_finite", FLOAT, np.isfinite, out_dtype=np.bool_)
exp_p = _unop("exp", FLOAT, _float_fn(np.exp))
exp2_p = _unop("exp2", FLOAT, _float_fn(np.exp2))
expm1_p = _unop("expm1", FLOAT, _float_fn(np.expm1))
log_p = _unop("log", FLOAT, _float_fn(np.log))
log1p_p = _unop("log1p", FLOAT, _float_fn(np.log1p))
sqrt_p = _unop("sqrt", FLOAT, _float_fn(np.sqrt))
rsqrt_p = _unop("rsqrt", FLOAT, _float_fn(lambda x: (1 / np.sqrt(x)).astype(x.dtype)))
cbrt_p = _unop("cbrt", FLOAT, _float_fn(np.cbrt))
sin_p = _unop("sin", FLOAT, _float_fn(np.sin))
cos_p = _unop("cos", FLOAT, _float_fn(np.cos))
tan_p = _unop("tan", FLOAT, _float_fn(np.tan))
asin_p = _unop("asin", FLOAT, _float_fn(np.arcsin))
acos_p = _unop("acos", FLOAT, _float_fn(np.arccos))
atan_p = _unop("atan", FLOAT, _float_fn(np.arctan))
sinh_p = _unop("sinh", FLOAT, _float_fn(np.sinh))
cosh_p = _unop("cosh", FLOAT, _float_fn(np.cosh))
tanh_p = _unop("tanh", FLOAT, _float_fn(np.tanh))
asinh_p = _unop("asinh", FLOAT, _float_fn(np.arcsinh))
acosh_p = _unop("acosh", FLOAT, _float_fn(np.arccosh))
atanh_p = _unop("atanh", FLOAT, _float_fn(np.arctanh))
logistic_p = _unop("logistic", FLOAT, _float_fn(_logistic_impl))
erf_p = _unop("erf", FLOAT, _erf_impl)
erf_inv_p = _unop("erf_inv", FLOAT, _erf_inv_impl)
abs_p = _unop("abs", NUMERIC, np.abs)
not_p = _unop("not", BOOL + INTEGRAL, _not_impl)


def _integer_pow_impl(x, y):
    if x.dtype.kind in "iu":
        if y < 0:
            raise ValueError("integer_pow with a negative exponent needs a float base")
        acc = np.ones_like(x)
        base = x.copy()
        n = y
        while n:
            if n & 1:
                acc = acc * base
            base = base * base
            n >>= 1
        return acc
    return np.power(x, x.dtype.type(y)) if y >= 0 else (1 / np.power(x, -y)).astype(x.dtype)


integer_pow_p = _unop("integer_pow", NUMERIC, _integer_pow_impl)


# ---------------------------------------------------------------------------------------
# Binary

def _int_div(x, y):
    if x.dtype.kind == "f":
        return np.divide(x, y)
    ok = y != 0
    safe_y = np.where(ok, y, 1)
    if x.dtype.kind == "i":
        # C semantics: truncate toward zero; INT_MIN / -1 wraps to INT_MIN.
        q = np.abs(x).astype(np.uint64) // np.abs(safe_y).astype(np.uint64)
        neg = (x < 0) != (safe_y < 0)
        q = np.where(neg, -(q.astype(np.int64)), q.astype(np.int64)).astype(x.dtype)
        return np.where(ok, q, np.array(-1, x.dtype))
    return np.where(ok, x // safe_y, np.array(np.iinfo(x.dtype).max, x.dtype))


def _int_rem(x, y):
    if x.dtype.kind == "f":
        return np.fmod(x, y)
    ok = y != 0
    safe_y = np.where(ok, y, 1)
    if x.dtype.kind == "i":
        r = np.fmod(x.astype(np.int64), safe_y.astype(np.int64)).astype(x.dtype)
    else:
        r = x % safe_y
    return np.where(ok, r, x)


def _shift_mask(x, y):
    bits = x.dtype.itemsize * 8
    yu = y.astype(np.uint64) if y.dtype.kind == "u" else y.astype(np.int64)
    return (yu < 0) | (yu >= bits), np.where((yu < 0) | (yu >= bits), 0, yu).astype(x.dtype)


def _shift_left(x, y):
    bad, s = _shift_mask(x, y)
    return np.where(bad, np.zeros_like(x), np.left_shift(x, s))


def _shift_right_logical(x, y):
    bad, s = _shift_mask(x, y)
    udt = np.dtype(f"u{x.dtype.itemsize}")
    r = np.right_shift(x.view(udt) if x.ndim else x.astype(udt), s.astype(udt)).astype(udt)
    return np.where(bad, np.zeros_like(x), r.astype(x.dtype))


def _shift_right_arithmetic(x, y):
    bad, s = _shift_mask(x, y)
    sdt = np.dtype(f"i{x.dtype.itemsize}")
    xs = x.astype(sdt)
    fill = np.where(xs < 0, np.array(-1, sdt), np.array(0, sdt))
    return np.where(bad, fill, np.right_shift(xs, s.astype(sdt))).astype(x.dtype)


def _pow_impl(x, y):
    return np.power(x, y)


def _logical_or_bitwise(np_logical, np_bitwise):
    def impl(x, y):
        return np_logical(x, y) if x.dtype == np.bool_ else np_bitwise(x, y)
    return impl


add_p = _binop("add", NUMERIC, np.add)
sub_p = _binop("sub", NUMERIC, np.subtract)
mul_p = _binop("mul", NUMERIC + BOOL, _logical_or_bitwise(np.logical_and, np.multiply))
div_p = _binop("div", NUMERIC, _int_div)
rem_p = _binop("rem", NUMERIC, _int_rem)
pow_p = _binop("pow", FLOAT, _float_fn(_pow_impl))
max_p = _binop("max", ANY, np.maximum)
min_p = _binop("min", ANY, np.minimum)
atan2_p = _binop("atan2", FLOAT, _float_fn(np.arctan2))
nextafter_p = _binop("nextafter", FLOAT, np.nextafter)
and_p = _binop("and", BOOL + INTEGRAL, _logical_or_bitwise(np.logical_and, np.bitwise_and))
or_p = _binop("or", BOOL + INTEGRAL, _logical_or_bitwise(np.logical_or, np.bitwise_or))
xor_p = _binop("xor", BOOL + INTEGRAL, _logical_or_bitwise(np.logical_xor, np.bitwise_xor))
shift_left_p = _binop("shift_left", INTEGRAL, _shift_left)
shift_right_logical_p = _binop("shift_right_logical", INTEGRAL, _shift_right_logical)
shift_right_arithmetic_p = _binop("shift_right_arithmetic", INTEGRAL, _shift_right_arithmetic)
eq_p = _binop("eq", ANY, np.equal, out_dtype=np.bool_)
ne_p = _binop("ne", ANY, np.not_equal, out_dtype=np.bool_)
lt_p = _binop("lt", ANY, np.less, out_dtype=np.bool_)
le_p = _binop("le", ANY, np.less_equal, out_dtype=np.bool_)
gt_p = _binop("gt", ANY, np.greater, out_dtype=np.bool_)
ge_p = _binop("ge", ANY, np.greater_equal, out_dtype=np.bool_)
add_any_p = _binop("add_any", NUMERIC, np.add)


# ---------------------------------------------------------------------------------------
# select_n, clamp

select_n_p = core.new_primitive("select_n")


@select_n_p.def_abstract_eval
def _select_n_abstract(which, *cases):
    if not cases:
        raise TypeError("select_n must have at least one case")
    if any(c.shape != cases[0].shape for c in cases):
        raise TypeError("select cases must have the same shapes, got "
                        f"[{', '.join(str(c.shape) for c in cases)}].")
    check_same_dtypes("select_n", cases)
    if which.shape and which.shape != cases[0].shape:
        raise TypeError("select `which` must be scalar or have the same shape as cases, got "
                        f"`which` shape {which.shape} but case shape {cases[0].shape}.")
    if which.dtype != np.bool_ and which.dtype != np.int32:
        raise TypeError(f"which must be a boolean or int32 type, got {which.dtype}")
    if which.dtype == np.bool_ and len(cases) > 2:
        raise TypeError("select with a boolean `which` cannot have more than two cases")
    return ShapedArray(cases[0].shape, cases[0].dtype, all(c.weak_type for c in cases))


@select_n_p.def_impl
def _select_n_impl(which, *cases):
    if which.dtype == np.bool_:
        which = which.astype(np.int32)
    if len(cases) == 1:
        return cases[0]
    return np.choose(np.clip(which, 0, len(cases) - 1), cases) if which.ndim else \
        cases[int(np.clip(which, 0, len(cases) - 1))]


clamp_p = core.new_primitive("clamp")


@clamp_p.def_abstract_eval
def _clamp_abstract(lo, x, hi):
    check_same_dtypes("clamp", (lo, x, hi))
    check_dtype("clamp", x.dtype, NUMERIC)
    for name, b in (("min", lo), ("max", hi)):
        if b.shape and b.shape != x.shape:
            raise TypeError(f"clamp requires {name}.shape == operand.shape or {name}.shape "
                            f"== (), got {b.shape}.")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


@clamp_p.def_impl
def _clamp_impl(lo, x, hi):
    return np.minimum(np.maximum(x, lo), hi)


# ---------------------------------------------------------------------------------------
# convert_element_type

convert_element_type_p = core.new_primitive("convert_element_type")


@convert_element_type_p.def_abstract_eval
def _convert_abstract(x, *, new_dtype, weak_type):
    return ShapedArray(x.shape, new_dtype, weak_type)


def convert_values(x: np.ndarray, new_dtype) -> np.ndarray:
    """NumPy conversion with XLA's float->int semantics (saturating, NaN -> 0)."""
    new_dtype = np.dtype(new_dtype)
    if x.dtype.kind == "f" and new_dtype.kind in "iu":
        info = np.iinfo(new_dtype)
        with np.errstate(invalid="ignore"):
            t = np.trunc(x.astype(np.float64))
            t = np.where(np.isnan(t), 0, np.clip(t, info.min, info.max))
        return t.astype(new_dtype)
    if new_dtype == np.bool_:
        return x != 0
    with np.errstate(all="ignore"):
        return x.astype(new_dtype)


@convert_element_type_p.def_impl
def _convert_impl(x, *, new_dtype, weak_type):
    return convert_values(x, new_dtype)


def _convert_fold(lit, *, new_dtype, weak_type):
    val = convert_values(np.asarray(lit.val), new_dtype)[()]
    return Literal(val, ShapedArray((), new_dtype, weak_type))


const_fold_rules[convert_element_type_p] = _convert_fold
pp_param_rules[convert_element_type_p] = lambda p: [("new_dtype", p["new_dtype"]),
                                                    ("weak_type", p["weak_type"])]


# ---------------------------------------------------------------------------------------
# The lax API (JAX's names)

def _unary_api(p, doc):
    def f(x):
        return p.bind(x)
    f.__name__ = p.name
    f.__doc__ = f"Elementwise {doc}.\n\nParameters\n----------\nx : array_like\n\n" \
                f"Returns\n-------\nArray\n"
    return f


def _binary_api(p, doc):
    def f(x, y):
        return p.bind(x, y)
    f.__name__ = p.name
    f.__doc__ = f"Elementwise {doc}; operands must share a dtype.\n\nParameters\n" \
                f"----------\nx, y : array_like\n\nReturns\n-------\nArray\n"
    return f


neg = _unary_api(neg_p, "negation")
sign = _unary_api(sign_p, "sign (-1, 0 or 1)")
floor = _unary_api(floor_p, "floor")
ceil = _unary_api(ceil_p, "ceiling")
is_finite = _unary_api(is_finite_p, "test for finite values")
exp = _unary_api(exp_p, "exponential")
exp2 = _unary_api(exp2_p, "base-2 exponential")
expm1 = _unary_api(expm1_p, "exp(x) - 1")
log = _unary_api(log_p, "natural logarithm")
log1p = _unary_api(log1p_p, "log(1 + x)")
sqrt = _unary_api(sqrt_p, "square root")
rsqrt = _unary_api(rsqrt_p, "reciprocal square root")
cbrt = _unary_api(cbrt_p, "cube root")
sin = _unary_api(sin_p, "sine")
cos = _unary_api(cos_p, "cosine")
tan = _unary_api(tan_p, "tangent")
asin = _unary_api(asin_p, "arcsine")
acos = _unary_api(acos_p, "arccosine")
atan = _unary_api(atan_p, "arctangent")
sinh = _unary_api(sinh_p, "hyperbolic sine")
cosh = _unary_api(cosh_p, "hyperbolic cosine")
tanh = _unary_api(tanh_p, "hyperbolic tangent")
asinh = _unary_api(asinh_p, "inverse hyperbolic sine")
acosh = _unary_api(acosh_p, "inverse hyperbolic cosine")
atanh = _unary_api(atanh_p, "inverse hyperbolic tangent")
logistic = _unary_api(logistic_p, "logistic sigmoid 1 / (1 + exp(-x))")
erf = _unary_api(erf_p, "error function")
erf_inv = _unary_api(erf_inv_p, "inverse error function")
abs = _unary_api(abs_p, "absolute value")  # noqa: A001
bitwise_not = _unary_api(not_p, "bitwise (or logical, for bool) not")

add = _binary_api(add_p, "addition")
sub = _binary_api(sub_p, "subtraction")
mul = _binary_api(mul_p, "multiplication")
div = _binary_api(div_p, "division (integers truncate toward zero)")
rem = _binary_api(rem_p, "remainder with the sign of the dividend")
pow = _binary_api(pow_p, "power")  # noqa: A001
max = _binary_api(max_p, "maximum (NaN-propagating)")  # noqa: A001
min = _binary_api(min_p, "minimum (NaN-propagating)")  # noqa: A001
atan2 = _binary_api(atan2_p, "two-argument arctangent")
nextafter = _binary_api(nextafter_p, "next representable value after x toward y")
bitwise_and = _binary_api(and_p, "bitwise and")
bitwise_or = _binary_api(or_p, "bitwise or")
bitwise_xor = _binary_api(xor_p, "bitwise xor")
shift_left = _binary_api(shift_left_p, "left shift")
shift_right_logical = _binary_api(shift_right_logical_p, "logical right shift")
shift_right_arithmetic = _binary_api(shift_right_arithmetic_p, "arithmetic right shift")
eq = _binary_api(eq_p, "equality")
ne = _binary_api(ne_p, "inequality")
lt = _binary_api(lt_p, "less-than")
le = _binary_api(le_p, "less-or-equal")
gt = _binary_api(gt_p, "greater-than")
ge = _binary_api(ge_p, "greater-or-equal")


class RoundingMethod:
    """``lax.round`` rounding modes."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method=RoundingMethod.AWAY_FROM_ZERO):  # noqa: A001
    """Elementwise rounding; ``rounding_method`` 0 rounds half away from zero, 1 to even."""
    return round_p.bind(x, rounding_method=int(rounding_method))


def integer_pow(x, y: int):
    """``x ** y`` for a static Python integer ``y``."""
    return integer_pow_p.bind(x, y=int(y))


def square(x):
    """``x * x``."""
    return integer_pow(x, 2)


def select_n(which, *cases):
    """Pick ``cases[which]`` elementwise; a bool ``which`` means (false, true)."""
    return select_n_p.bind(which, *cases)


def select(pred, on_true, on_false):
    """``on_true`` where ``pred`` else ``on_false``."""
    return select_n_p.bind(pred, on_false, on_true)


def clamp(min, x, max):  # noqa: A002
    """``x`` clipped to ``[min, max]``."""
    return clamp_p.bind(min, x, max)


def convert_element_type(operand, new_dtype):
    """Cast ``operand`` to ``new_dtype`` (the result is strongly typed)."""
    return _convert_element_type(operand, new_dtype, False)


def _convert_element_type(operand, new_dtype, weak_type: bool = False):
    new_dtype = dtypes.canonicalize_dtype(new_dtype)
    aval = core.get_aval(operand)
    if aval.dtype == new_dtype and aval.weak_type == weak_type and not isinstance(
            operand, (bool, int, float)):
        return operand
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=bool(weak_type))

"""Elementwise primitives: unary math, binary arithmetic and logic, comparisons,
``select_n``, ``clamp`` and ``convert_element_type``.

Abstract-eval rules follow JAX 0.10.2: binary operands have equal ranks (size-1 dimensions
broadcast) or rank 0; each position accepts the dtype categories JAX names in its errors;
operands share a dtype (``pow`` may take an integer exponent); a result is weakly typed
when every operand is, whatever its dtype.

NumPy rules follow XLA on CPU where it differs from NumPy:

* Float32/float64 run with flush-to-zero and denormals-are-zero: arithmetic, comparisons
  and most functions read a subnormal operand as zero and write a subnormal result as
  zero. Sign manipulation (``neg``, ``abs``), ``select_n``, ``nextafter``, ``is_finite``,
  and functions that return tiny arguments unchanged (``sin``, ``tan``, ``atan``,
  ``expm1``, float32 ``tanh``) do not flush; ``rem`` flushes its divisor only, ``pow``
  its result only. Float16 is computed in float32, where its subnormals are normal.
* ``log``, ``log1p``, ``erf_inv`` (float32 and float64) and float32/float16 ``exp``,
  ``tanh`` and ``logistic`` repeat XLA:CPU's own expansions bit for bit
  (``_xla_math.py``, ``_xla_exp.py``; float16 through float32). Other transcendental
  functions are evaluated in float64 and rounded once to the operand dtype: within
  XLA's own error (a few ulp) of what it computes, except ``exp2``, which XLA evaluates
  as ``exp(x * log(2))`` and loses up to 62 ulp (float32).
  ``logistic`` is ``1 / (1 + exp(-x))`` with each step rounded to the operand dtype, as
  XLA expands it (float16 gives 0 below x = -11.1). ``integer_pow`` multiplies by
  repeated squaring in the operand dtype, as XLA does.
* Integer ``div`` truncates; ``x / 0`` is -1 (signed) or all ones (unsigned);
  ``INT_MIN / -1`` is ``INT_MIN``. ``rem`` has the dividend's sign; ``x % 0`` is ``x``;
  ``INT_MIN % -1`` is 0. Integer arithmetic wraps.
* Shifts by a negative amount or by at least the bit width give 0 (arithmetic right
  shift: the sign fill). ``shift_right_arithmetic`` reads unsigned operands as signed.
* ``max``/``min`` propagate NaN and order -0.0 below +0.0; which NaN, bit for bit, as
  XLA:CPU gives it (``nan_result``).
* bfloat16/float16 functions that XLA expands into steps (asin ... atanh, exp2, float16
  expm1 and log) round every step (``_bf16_chlo.py``).
* ``convert_element_type`` from float to integer truncates and saturates, NaN gives 0;
  to bool it is ``x != 0`` (NaN is True).
* ``select_n`` clamps an out-of-range ``which`` into ``[0, len(cases) - 1]``.
* ``pow`` with an integer exponent converts it to the base's dtype first.
"""
from __future__ import annotations

import enum
import math
import operator

import numpy as np

from .. import core, dtypes
from ..array import Array
from ..core import ShapedArray
from ..interpreters.tracing import const_fold_rules
from ..ir import Literal, pp_param_rules
from . import _bf16_chlo
from . import _bfloat16 as bf16
from . import _float8, _narrow_int
from ._bfloat16 import from_float32, to_float32, via_float32
from ._base import broadcasting_shape, check_same_dtypes, set_cost
from ._complex_math import complex_rule
from ._xla_exp import xla_exp_f32, xla_logistic_f32, xla_tanh_f32
from ._xla_math import (libm_f64, xla_atan2_subnormal_f32, xla_erf_inv_f32,
                        xla_erf_inv_f64, xla_log1p_f32, xla_log1p_f64, xla_log_f32,
                        xla_log_f64)

__all__ = [
    # the lax API
    'abs', 'acos', 'acosh', 'add', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bitwise_and',
    'bitwise_not', 'bitwise_or', 'bitwise_xor', 'cbrt', 'ceil', 'clamp',
    'convert_element_type', 'cos', 'cosh', 'div', 'eq', 'erf', 'erf_inv', 'exp', 'exp2',
    'expm1', 'floor', 'ge', 'gt', 'integer_pow', 'is_finite', 'le', 'log', 'log1p',
    'logistic', 'lt', 'max', 'min', 'mul', 'ne', 'neg', 'nextafter', 'pow', 'rem', 'round',
    'rsqrt', 'select', 'select_n', 'shift_left', 'shift_right_arithmetic',
    'shift_right_logical', 'sign', 'sin', 'sinh', 'sqrt', 'square', 'sub', 'tan', 'tanh',
    'RoundingMethod',
    # primitives
    'neg_p', 'sign_p', 'floor_p', 'ceil_p', 'round_p', 'is_finite_p', 'exp_p', 'exp2_p',
    'expm1_p', 'log_p', 'log1p_p', 'sqrt_p', 'rsqrt_p', 'cbrt_p', 'sin_p', 'cos_p', 'tan_p',
    'asin_p', 'acos_p', 'atan_p', 'sinh_p', 'cosh_p', 'tanh_p', 'asinh_p', 'acosh_p',
    'atanh_p', 'logistic_p', 'erf_p', 'erf_inv_p', 'abs_p', 'not_p', 'integer_pow_p',
    'square_p', 'add_p', 'sub_p', 'mul_p', 'div_p', 'rem_p', 'pow_p', 'max_p', 'min_p',
    'atan2_p', 'nextafter_p', 'and_p', 'or_p', 'xor_p', 'shift_left_p',
    'shift_right_logical_p', 'shift_right_arithmetic_p', 'eq_p', 'ne_p', 'lt_p', 'le_p',
    'gt_p', 'ge_p', 'add_any_p', 'select_n_p', 'clamp_p', 'convert_element_type_p',
    # helpers other modules use
    '_convert_element_type', 'convert_values']

# ---------------------------------------------------------------------------------------
# Dtype categories, named as JAX's error messages name them

_CATEGORY_KINDS = {"bool": "b", "integer": "iu", "signedinteger": "i",
                   "floating": "f", "complexfloating": "c"}
FLOATING = ("floating", "complexfloating")
REAL_FLOATING = ("floating",)
NUMBER = ("integer", "floating", "complexfloating")
SIGNED_NUMBER = ("floating", "complexfloating", "signedinteger")
INTEGER = ("integer",)
INT_OR_BOOL = ("integer", "bool")
REAL_NUMBER = ("integer", "floating")
ANY = ("bool", "integer", "floating", "complexfloating")
ORDERED = ("integer", "floating", "bool")


def _accepts(accepted, dtype) -> bool:
    return any(dtypes.kind(np.dtype(dtype)) in _CATEGORY_KINDS[c] for c in accepted)


def _check_accepts(name: str, dtype, accepted, position: int | None = None) -> None:
    """Raise JAX's ``TypeError`` when ``dtype`` is in none of the ``accepted`` categories."""
    if dtypes.is_key(dtype):
        if name in ("eq", "ne"):  # keys compare for equality, and nothing else
            return
    elif dtypes.is_narrow_int(dtype) and name in _narrow_int.REFUSED:
        raise TypeError(f"{name} does not accept dtype {dtypes.dtype_name(dtype)}. Support "
                        "for narrow-width integers is platform-dependent and limited to a "
                        "few specific operations, e.g. basic arithmetic and type casting.")
    elif _accepts(accepted, dtype):
        return
    at = "" if position is None else f" at position {position}"
    raise TypeError(f"{name} does not accept dtype {dtypes.dtype_name(dtype)}{at}. Accepted "
                    f"dtypes{at} are subtypes of {', '.join(accepted)}.")


# ---------------------------------------------------------------------------------------
# How XLA:CPU evaluates floats

_F32_F64 = (np.dtype(np.float32), np.dtype(np.float64))


_TINY = {dt: np.finfo(dt).tiny for dt in _F32_F64}
_F64 = np.dtype(np.float64)


def _flush(x):
    """Subnormal float32/float64 values become zeros of the same sign."""
    if type(x) is not np.ndarray:
        x = np.asarray(x)
    tiny = _TINY.get(x.dtype)
    if tiny is None:
        return x
    sub = np.abs(x) < tiny
    # count_nonzero is the cheapest test on small arrays; zeros (common, and their own
    # flushed value) are set aside before paying for the copy.
    if not np.count_nonzero(sub):
        return x
    sub &= x != 0
    if not np.count_nonzero(sub):
        return x
    return np.where(sub, np.copysign(np.zeros((), x.dtype), x), x)


def _xla(fn, *, daz=_F32_F64, ftz=_F32_F64, wide=False):
    """Wrap a NumPy rule so that float operands are treated as XLA:CPU treats them.

    Parameters
    ----------
    fn : callable
        The rule on NumPy arrays; integer and bool operands go to it untouched.
    daz, ftz : tuple of dtypes
        The dtypes whose subnormal operands read as zero (daz) and whose subnormal
        results are written as zero (ftz).
    wide : bool
        Compute float16/float32 operands in float64 and round the result once.
    """
    def impl(*args, **params):
        dt = args[0].dtype
        if not dtypes.is_float(dt):
            return fn(*args, **params)
        args = [_flush(a) if a.dtype in daz else a for a in args]
        if wide and dt is not _F64 and float_ufunc and len(args) == 1 and not params \
                and args[0].size >= _BUFFERED_MIN:
            # The same float64 evaluation rounded once, through the ufunc's buffered
            # casts: no float64 copies of a large operand or result.
            out = fn(args[0], dtype=np.float64, out=np.empty(args[0].shape, dt),
                     casting="unsafe")
        elif wide and dt is not _F64 and dt != _F64:
            out = np.asarray(fn(*[a.astype(np.float64) if dtypes.is_float(a.dtype) else a
                                  for a in args], **params))
            if dtypes.is_float(out.dtype):
                out = out.astype(dt)
        else:
            out = np.asarray(fn(*args, **params))
        return _flush(out) if out.dtype in ftz else out
    float_ufunc = isinstance(fn, np.ufunc) and fn.nin == 1 and fn.nout == 1
    impl.__name__ = getattr(fn, "__name__", "impl")
    # read by _unop/_binop into Primitive.unflushed_dtypes (codegen keeps these too)
    impl.unflushed_dtypes = frozenset(d for d in _F32_F64 if d not in daz and d not in ftz)
    return impl


_BUFFERED_MIN = 1 << 12
_NO_FLUSH = dict(daz=(), ftz=())

# ---------------------------------------------------------------------------------------
# Builders


def _unop(name: str, accepted, impl, out_dtype=None):
    """A unary primitive: the operand's shape, its dtype (or ``out_dtype``, a dtype or a
    function of the operand's dtype) and weak type; complex operands go to the rule of
    ``_complex_math.py`` when it has one for ``name``."""
    p = core.new_primitive(name)

    def abstract(x, **params):
        _check_accepts(name, x.dtype, accepted)
        dt = x.dtype if out_dtype is None else (
            out_dtype(x.dtype) if callable(out_dtype) and not isinstance(out_dtype, type)
            else out_dtype)
        return ShapedArray(x.shape, dt, x.weak_type)

    p.def_abstract_eval(abstract)
    p.def_impl(_layered(name, impl))
    p.unflushed_dtypes = getattr(impl, "unflushed_dtypes", frozenset())
    return p


#: Operand dtypes that every layer of ``_layered`` passes through untouched.
_PLAIN = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float32, np.float64))


def _layered(name: str, impl):
    """``impl`` with the layers for complex, bfloat16, float8 and narrow-integer
    operands around it; operands of the common dtypes go straight to ``impl`` (the
    layers' dtype tests cost more than a small eager operation's arithmetic)."""
    full = complex_rule(name, via_float32(_float8.via_wider(_narrow_int.via_byte(name, impl))))

    def rule(*args, **params):
        for a in args:
            if type(a) is not np.ndarray or a.dtype not in _PLAIN:
                return full(*args, **params)
        return impl(*args, **params)
    rule.__name__ = getattr(full, "__name__", name)
    for attr in ("bfloat16_native", "unflushed_dtypes"):
        if hasattr(full, attr):
            setattr(rule, attr, getattr(full, attr))
    return rule


def _binop(name: str, accepted, impl, out_dtype=None, jnp_name=None, dtype_rule=None):
    """A binary primitive: broadcast shape, shared dtype (or ``out_dtype``), weak if both are.

    ``jnp_name`` is the promoting ``jnp`` function JAX's dtype-mismatch error suggests;
    ``dtype_rule(x, y)`` replaces the dtype checks where operands may differ.
    """
    p = core.new_primitive(name)

    def abstract(x, y, **params):
        shape = broadcasting_shape(name, x.shape, y.shape)
        if dtype_rule is not None:
            dt = dtype_rule(x, y)
        else:
            for i, a in enumerate((x, y)):
                _check_accepts(name, a.dtype, accepted, i)
            dt = check_same_dtypes(name, (x, y), jnp_name)
        return ShapedArray(shape, dt if out_dtype is None else out_dtype,
                           x.weak_type and y.weak_type)

    p.def_abstract_eval(abstract)
    p.def_impl(_layered(name, impl))
    p.unflushed_dtypes = getattr(impl, "unflushed_dtypes", frozenset())
    return p


# ---------------------------------------------------------------------------------------
# Unary

def _sign_impl(x):
    if x.dtype.kind == "u":
        return (x != 0).astype(x.dtype)
    if dtypes.is_float(x.dtype):
        return np.where(x == 0, x, np.sign(x))  # keeps -0.0; NaN stays NaN
    return np.sign(x)


def _round_impl(x, *, rounding_method):
    if rounding_method == RoundingMethod.TO_NEAREST_EVEN:
        return np.round(x)
    t = np.trunc(x)
    half = np.abs(x - t) == 0.5  # exact: x - trunc(x) is representable
    return np.where(half, t + np.copysign(np.ones((), x.dtype), x), np.round(x))


_erf_f64 = np.vectorize(math.erf, otypes=[np.float64])
_erfc_f64 = np.vectorize(math.erfc, otypes=[np.float64])


def _erf_inv_f64(y):
    """Inverse error function in float64: Giles' single-precision approximation, then
    Newton steps on erf (on erfc above 0.5, where ``1 - |y|`` is exact)."""
    y = np.asarray(y, np.float64)
    a = np.abs(y)
    out = np.where(a == 1, np.inf, np.nan)  # |y| > 1 and NaN give NaN
    inside = a < 1
    a_in = a[inside]
    w = -np.log1p(-a_in * a_in)
    small = w < 5
    t = np.where(small, w - 2.5, np.sqrt(np.maximum(w, 5)) - 3)
    coeffs = [(2.81022636e-08, -0.000200214257), (3.43273939e-07, 0.000100950558),
              (-3.5233877e-06, 0.00134934322), (-4.39150654e-06, -0.00367342844),
              (0.00021858087, 0.00573950773), (-0.00125372503, -0.0076224613),
              (-0.00417768164, 0.00943887047), (0.246640727, 1.00167406),
              (1.50140941, 2.83297682)]
    p = np.where(small, coeffs[0][0], coeffs[0][1])
    for lo, hi in coeffs[1:]:
        p = np.where(small, lo, hi) + p * t
    r = p * a_in
    for _ in range(3):
        resid = np.where(a_in <= 0.5, _erf_f64(r) - a_in, (1 - a_in) - _erfc_f64(r))
        r = r - resid / (2 / math.sqrt(math.pi) * np.exp(-r * r))
    out[inside] = r
    return np.copysign(out, y)


def _logistic_impl(x):
    # XLA expands logistic to 1 / (1 + exp(-x)), each step in the operand dtype; float32
    # flushes the quotient as FTZ does (_xla_exp.py).
    if x.dtype == np.float32:
        return xla_logistic_f32(x)
    if x.dtype == dtypes.bfloat16:
        one = np.float32(1)
        e = bf16.round_trip(xla_exp_f32(-to_float32(x)))
        return from_float32(one / bf16.round_trip(one + e))
    one = x.dtype.type(1)
    e = _exp_impl(-x)
    return one / (one + e)


def _rsqrt(x):
    return 1 / np.sqrt(x)


def _transcendental(np_fn, **flush):
    # float64 operands get the C library's bits (NumPy's own vectorised float64 math
    # differs on some machines); float16/float32 are computed in float64 and rounded
    # once, where NumPy's float64 is close enough to round the same way.
    narrow, wide64 = _xla(np_fn, wide=True, **flush), _xla(libm_f64(np_fn), **flush)

    def impl(*args, **params):
        return (wide64 if args[0].dtype == np.float64 else narrow)(*args, **params)
    impl.__name__ = np_fn.__name__
    impl.unflushed_dtypes = narrow.unflushed_dtypes
    return impl


_atan2_flushed = _transcendental(np.arctan2)


def _atan2_impl(y, x):
    # float32 (and bfloat16, computed in it): glibc's atan2f under DAZ, which reads a
    # subnormal operand's bits before flushing it (_xla_math, runtime/tp_ops.h)
    out = _atan2_flushed(y, x)
    if y.dtype == np.float32:
        out = xla_atan2_subnormal_f32(y, x, out)
    return out


_atan2_impl.unflushed_dtypes = _atan2_flushed.unflushed_dtypes


def _step_rule(name: str):
    """The NumPy rule of primitive ``name`` (for ``_bf16_chlo.NumpySteps``)."""
    return globals()[f"{name}_p"].impl


def _in_steps(name: str, impl):
    """``impl``, except for the 16-bit floats where XLA expands ``name`` into steps
    (``_bf16_chlo.py``): every step computed in float32 and rounded."""
    @bf16.native
    def rule(x):
        steps = _bf16_chlo.steps_for(name, x.dtype)
        if steps is None:
            return impl(x) if x.dtype != dtypes.bfloat16 else from_float32(impl(to_float32(x)))
        with np.errstate(all="ignore"):
            out = steps(to_float32(x) if x.dtype == dtypes.bfloat16 else
                        x.astype(np.float32),
                        _bf16_chlo.NumpySteps(x.dtype, _step_rule))
        return from_float32(out) if x.dtype == dtypes.bfloat16 else out.astype(np.float16)
    rule.__name__ = name
    rule.unflushed_dtypes = getattr(impl, "unflushed_dtypes", frozenset())
    return rule


neg_p = _unop("neg", NUMBER, np.negative)
sign_p = _unop("sign", NUMBER, _xla(_sign_impl))
floor_p = _unop("floor", REAL_FLOATING, _xla(np.floor))
ceil_p = _unop("ceil", REAL_FLOATING, _xla(np.ceil))
round_p = _unop("round", REAL_FLOATING, _xla(_round_impl))
is_finite_p = _unop("is_finite", REAL_FLOATING, np.isfinite, out_dtype=np.bool_)
# 16-bit floats: JAX lowers exp2 as exp(x * log(2)), each step rounded (_bf16_chlo.py)
exp2_p = _unop("exp2", FLOATING, _in_steps("exp2", _transcendental(np.exp2)))
expm1_p = _unop("expm1", FLOATING, _in_steps("expm1", _transcendental(np.expm1, **_NO_FLUSH)))


def _via_xla(twin32, twin64):
    """XLA:CPU's own approximation of a function, bit for bit (``_xla_math.py``), as JAX
    computes it: float32 and float64 directly, float16 in float32 rounded once."""
    def impl(x, **params):
        if x.dtype == np.float64:
            return twin64(x)
        if x.dtype == np.float16:
            return twin32(x.astype(np.float32)).astype(np.float16)
        return twin32(x)
    impl.__name__ = twin32.__name__[:-4]
    return impl


# float64 exp is the C library's (XLA's differs: not matched yet); float32 and float16
# are XLA's own expansion
_exp_impl = _via_xla(xla_exp_f32, _xla(libm_f64(np.exp)))
exp_p = _unop("exp", FLOATING, _exp_impl)
log_p = _unop("log", FLOATING, _in_steps("log", _via_xla(xla_log_f32, xla_log_f64)))
log1p_p = _unop("log1p", FLOATING, _via_xla(xla_log1p_f32, xla_log1p_f64))
sqrt_p = _unop("sqrt", FLOATING, _transcendental(np.sqrt))
rsqrt_p = _unop("rsqrt", FLOATING, _transcendental(_rsqrt))
_cbrt_base = _transcendental(np.cbrt)
#: float32 cbrt of any subnormal on XLA:CPU: the C library's cbrtf, run under DAZ, scales
#: the operand up (reading it as zero) and bit-twiddles that zero into this value.
_CBRT_SUBNORMAL = np.array(0xA6214518, np.uint32).view(np.float32)[()]


def _cbrt_impl(x):
    out = _cbrt_base(x)
    if x.dtype == np.float32:
        out = np.where((np.abs(x) < _TINY[x.dtype]) & (x != 0), _CBRT_SUBNORMAL, out)
    return out


_cbrt_impl.unflushed_dtypes = _cbrt_base.unflushed_dtypes
cbrt_p = _unop("cbrt", REAL_FLOATING, _cbrt_impl)
sin_p = _unop("sin", FLOATING, _transcendental(np.sin, **_NO_FLUSH))
cos_p = _unop("cos", FLOATING, _transcendental(np.cos))
tan_p = _unop("tan", FLOATING, _transcendental(np.tan, **_NO_FLUSH))
asin_p = _unop("asin", FLOATING, _in_steps("asin", _transcendental(np.arcsin)))
acos_p = _unop("acos", FLOATING, _in_steps("acos", _transcendental(np.arccos)))
atan_p = _unop("atan", FLOATING, _transcendental(np.arctan, **_NO_FLUSH))
sinh_p = _unop("sinh", FLOATING, _transcendental(np.sinh))
cosh_p = _unop("cosh", FLOATING, _transcendental(np.cosh))
_tanh_impl = _via_xla(xla_tanh_f32, _xla(libm_f64(np.tanh), daz=_F32_F64[1:], ftz=_F32_F64[1:]))
_tanh_impl.unflushed_dtypes = frozenset(_F32_F64[:1])   # XLA returns a tiny x itself
tanh_p = _unop("tanh", FLOATING, _tanh_impl)
asinh_p = _unop("asinh", FLOATING, _in_steps("asinh", _transcendental(np.arcsinh)))
acosh_p = _unop("acosh", FLOATING, _in_steps("acosh", _transcendental(np.arccosh)))
atanh_p = _unop("atanh", FLOATING, _in_steps("atanh", _transcendental(np.arctanh)))
logistic_p = _unop("logistic", FLOATING, bf16.native(_xla(_logistic_impl)))
erf_p = _unop("erf", REAL_FLOATING, _transcendental(_erf_f64))
erf_inv_p = _unop("erf_inv", REAL_FLOATING, _via_xla(xla_erf_inv_f32, xla_erf_inv_f64))
abs_p = _unop("abs", SIGNED_NUMBER, np.abs, out_dtype=dtypes.real_dtype)
not_p = _unop("not", INT_OR_BOOL, np.invert)  # logical not for bool
set_cost(core.Cost.TRANSCENDENTAL, exp_p, exp2_p, expm1_p, log_p, log1p_p, cbrt_p, sin_p,
         cos_p, tan_p, asin_p, acos_p, atan_p, sinh_p, cosh_p, tanh_p, asinh_p, acosh_p,
         atanh_p, logistic_p, erf_p, erf_inv_p)
set_cost(core.Cost.DIVIDE, sqrt_p, rsqrt_p)


def _power_by_squaring(x, n: int):
    """``x ** n`` (n >= 1) by repeated squaring, each product rounded (and flushed)."""
    acc, base = None, x
    while n:
        if n & 1:
            acc = base if acc is None else _flush(acc * base)
        n >>= 1
        if n:
            base = _flush(base * base)
    return acc


def _integer_pow_impl(x, *, y):
    if y == 0:
        return np.ones_like(x)
    if y == 1:
        return x  # the operand itself: not flushed
    return _integer_pow_flushed(x, y=y)


def _integer_pow_any(x, *, y):
    p = _power_by_squaring(x, operator.abs(y))
    return p if y > 0 else x.dtype.type(1) / p


_integer_pow_flushed = _xla(_integer_pow_any)
integer_pow_p = core.new_primitive("integer_pow")
integer_pow_p.def_impl(complex_rule("integer_pow", _integer_pow_impl))


@integer_pow_p.def_abstract_eval
def _integer_pow_abstract(x, *, y):
    _check_accepts("integer_pow", x.dtype, NUMBER)
    if dtypes.is_integer(x.dtype) and y < 0:
        raise TypeError("Integers cannot be raised to negative powers, got "
                        f"integer_pow({x.str_long()}, {y})")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


square_p = _unop("square", NUMBER, _xla(lambda x: x * x))

# ---------------------------------------------------------------------------------------
# Binary


def _div_impl(x, y):
    if dtypes.is_float(x.dtype):
        return np.divide(x, y)
    zero = y == 0
    if x.dtype.kind == "u":
        return np.where(zero, np.array(np.iinfo(x.dtype).max, x.dtype),
                        x // np.where(zero, 1, y).astype(x.dtype))
    imin = np.array(np.iinfo(x.dtype).min, x.dtype)
    overflow = (x == imin) & (y == -1)
    safe = np.where(zero | overflow, 1, y).astype(x.dtype)
    q = x // safe  # floors: step back toward zero when inexact with differing signs
    q = q + ((np.remainder(x, safe) != 0) & ((x < 0) != (safe < 0))).astype(x.dtype)
    return np.where(zero, np.array(-1, x.dtype), np.where(overflow, imin, q))


def _rem_impl(x, y):
    if dtypes.is_float(x.dtype):
        return np.fmod(x, _flush(y))  # XLA flushes the divisor only; exact, never rounds
    zero = y == 0
    if x.dtype.kind == "u":
        return np.where(zero, x, x % np.where(zero, 1, y).astype(x.dtype))
    overflow = (x == np.iinfo(x.dtype).min) & (y == -1)
    safe = np.where(zero | overflow, 1, y).astype(x.dtype)
    return np.where(zero, x, np.where(overflow, np.zeros((), x.dtype), np.fmod(x, safe)))


def _pow_dtype_rule(x, y):
    _check_accepts("pow", x.dtype, FLOATING, 0)
    _check_accepts("pow", y.dtype, NUMBER, 1)
    if (dtypes.is_float(y.dtype) or dtypes.is_complex(y.dtype)) and y.dtype != x.dtype:
        raise TypeError(
            "the first argument to pow must have an inexact dtype (float or complex), and "
            "the second argument must have an inexact or integer dtype, and two inexact "
            f"dtypes must match, but got {x.dtype.name} and {y.dtype.name} respectively.")
    return x.dtype


def _pow_impl(x, y):
    # An integer exponent is converted to the base's dtype first (so 2**31 - 1 is even).
    return _pow_float(x, y if y.dtype == x.dtype else convert_values(y, x.dtype))


_pow_float = _transcendental(np.power, daz=())


def _max_impl(x, y):
    r = np.maximum(x, y)
    if dtypes.is_float(x.dtype):  # max(-0.0, +0.0) is +0.0
        r = np.where((x == 0) & (y == 0), np.where(np.signbit(x), y, x), r)
        r = nan_result(x, y, r, np.bitwise_and)
    return r


def _min_impl(x, y):
    r = np.minimum(x, y)
    if dtypes.is_float(x.dtype):  # min(-0.0, +0.0) is -0.0
        r = np.where((x == 0) & (y == 0), np.where(np.signbit(x), x, y), r)
        r = nan_result(x, y, r, np.bitwise_or)
    return r


def nan_result(x, y, r, sign_rule):
    """``r`` (max or min of ``x`` and ``y``) with XLA:CPU's NaN: a NaN ``x`` as it is (bits
    kept, signalling too); for a NaN ``y`` only, ``y`` with the sign bit that
    ``sign_rule`` (``bitwise_and`` for max, ``bitwise_or`` for min) makes of both sign
    bits; for float16, any NaN is the positive quiet NaN (observed on JAX 0.10.2:
    ``tests/data/nan_signs.json``)."""
    nan_x, nan_y = np.isnan(x), np.isnan(y)
    if not (nan_x.any() or nan_y.any()):
        return r
    if x.dtype == np.float16:
        return np.where(nan_x | nan_y, np.float16(np.nan), r)
    u = np.dtype(f"u{x.dtype.itemsize}")
    sign = u.type(1 << (8 * x.dtype.itemsize - 1))
    xb, yb = np.broadcast_to(x, r.shape).view(u), np.broadcast_to(y, r.shape).view(u)
    y_signed = (yb & ~sign) | (sign_rule(xb, yb) & sign)
    out = np.where(nan_x, xb, np.where(nan_y, y_signed, r.view(u)))
    return out.view(x.dtype)


@bf16.native
def _nextafter_impl(x, y):
    if x.dtype in (dtypes.bfloat16, np.float16):
        return bf16.nextafter(x, y)
    # Bit stepping, not flushed; but x == y compares with subnormals read as zero.
    return np.where(_flush(x) == _flush(y), y, np.nextafter(x, y))


def _shift_amount(x, y):
    """``y`` as an int64/uint64 shift count and where it is outside ``[0, bits)``."""
    bits = x.dtype.itemsize * 8
    wide = y.astype(np.uint64 if y.dtype.kind == "u" else np.int64)
    out = (wide < 0) | (wide >= bits)
    return np.where(out, 0, wide).astype(x.dtype), out


def _shift_left_impl(x, y):
    s, out = _shift_amount(x, y)
    return np.where(out, np.zeros((), x.dtype), np.left_shift(x, s))


def _shift_right_logical_impl(x, y):
    s, out = _shift_amount(x, y)
    u = np.dtype(f"u{x.dtype.itemsize}")
    shifted = np.right_shift(x.astype(u), s.astype(u)).astype(x.dtype)
    return np.where(out, np.zeros((), x.dtype), shifted)


def _shift_right_arithmetic_impl(x, y):
    s, out = _shift_amount(x, y)
    i = np.dtype(f"i{x.dtype.itemsize}")
    xs = x.astype(i)
    fill = np.where(xs < 0, np.array(-1, i), np.array(0, i))
    return np.where(out, fill, np.right_shift(xs, s.astype(i))).astype(x.dtype)


add_p = _binop("add", NUMBER, _xla(np.add), jnp_name="add")
sub_p = _binop("sub", NUMBER, _xla(np.subtract), jnp_name="subtract")
mul_p = _binop("mul", NUMBER, _xla(np.multiply), jnp_name="multiply")
div_p = _binop("div", NUMBER, _xla(_div_impl), jnp_name="divide")
rem_p = _binop("rem", REAL_NUMBER, _xla(_rem_impl, **_NO_FLUSH))
pow_p = _binop("pow", FLOATING, _pow_impl, dtype_rule=_pow_dtype_rule)
max_p = _binop("max", ANY, _xla(_max_impl), jnp_name="maximum")
min_p = _binop("min", ANY, _xla(_min_impl), jnp_name="minimum")
atan2_p = _binop("atan2", FLOATING, _atan2_impl, jnp_name="arctan2")
nextafter_p = _binop("nextafter", REAL_FLOATING, _nextafter_impl, jnp_name="nextafter")
and_p = _binop("and", INT_OR_BOOL, np.bitwise_and)
or_p = _binop("or", INT_OR_BOOL, np.bitwise_or)
xor_p = _binop("xor", INT_OR_BOOL, np.bitwise_xor)
shift_left_p = _binop("shift_left", INTEGER, _shift_left_impl, jnp_name="left_shift")
shift_right_logical_p = _binop("shift_right_logical", INTEGER, _shift_right_logical_impl,
                               jnp_name="right_shift")
shift_right_arithmetic_p = _binop("shift_right_arithmetic", INTEGER,
                                  _shift_right_arithmetic_impl, jnp_name="right_shift")
set_cost(core.Cost.TRANSCENDENTAL, pow_p, atan2_p)
set_cost(core.Cost.DIVIDE, div_p, rem_p)
def _keys_as_words(fn):
    """``fn`` on typed keys compares their storage as one 64-bit word each."""
    def impl(x, y, **params):
        if dtypes.is_key(x.dtype):
            x, y = (np.asarray(a).view(np.uint64) for a in (x, y))
        return fn(x, y, **params)
    return impl


eq_p = _binop("eq", ANY, _keys_as_words(_xla(np.equal)), out_dtype=np.bool_,
              jnp_name="equal")
ne_p = _binop("ne", ANY, _keys_as_words(_xla(np.not_equal)), out_dtype=np.bool_,
              jnp_name="not_equal")
lt_p = _binop("lt", ORDERED, _xla(np.less), out_dtype=np.bool_)
le_p = _binop("le", ORDERED, _xla(np.less_equal), out_dtype=np.bool_)
gt_p = _binop("gt", ORDERED, _xla(np.greater), out_dtype=np.bool_)
ge_p = _binop("ge", ORDERED, _xla(np.greater_equal), out_dtype=np.bool_)
add_any_p = _binop("add_any", NUMBER, _xla(np.add))


# ---------------------------------------------------------------------------------------
# select_n, clamp

select_n_p = core.new_primitive("select_n")
select_n_p.cost = core.Cost.FREE


@select_n_p.def_abstract_eval
def _select_n_abstract(which, *cases):
    if not cases:
        raise ValueError("select_n() must have at least one case")
    if any(c.shape != cases[0].shape for c in cases):
        raise TypeError("select cases must have the same shapes, got "
                        f"[{', '.join(str(c.shape) for c in cases)}].")
    if which.shape and which.shape != cases[0].shape:
        raise TypeError("select `which` must be scalar or have the same shape as cases, got "
                        f"`which` shape {which.shape} but case shape {cases[0].shape}.")
    check_same_dtypes("select", cases, "where")
    if which.dtype.kind not in "biu":
        raise TypeError(f"select `which` must be boolean or integer type, got "
                        f"{which.dtype.name}.")
    if which.dtype == np.bool_ and len(cases) > 2:
        raise TypeError("select with boolean `which` cannot have > 2 cases.")
    return ShapedArray(cases[0].shape, cases[0].dtype, all(c.weak_type for c in cases))


@select_n_p.def_impl
def _select_n_impl(which, *cases):
    out = cases[0]  # which <= 0 picks the first case, which >= n - 1 the last
    for i, case in enumerate(cases[1:], start=1):
        out = np.where(which >= i, case, out)
    return out


clamp_p = core.new_primitive("clamp")


@clamp_p.def_abstract_eval
def _clamp_abstract(lo, x, hi):
    for name, b in (("min", lo), ("max", hi)):
        if b.shape and b.shape != x.shape:
            raise TypeError(f"clamp requires {name}.shape == operand.shape or {name}.shape "
                            f"== (), got {name}.shape={b.shape}, operand.shape={x.shape}.")
    check_same_dtypes("clamp", (lo, x, hi))
    return ShapedArray(x.shape, x.dtype, lo.weak_type and x.weak_type and hi.weak_type)


clamp_p.def_impl(_xla(lambda lo, x, hi: _min_impl(_max_impl(x, lo), hi)))


# ---------------------------------------------------------------------------------------
# convert_element_type

convert_element_type_p = core.new_primitive("convert_element_type")
convert_element_type_p.cost = core.Cost.FREE


@convert_element_type_p.def_abstract_eval
def _convert_abstract(x, *, new_dtype, weak_type):
    return ShapedArray(x.shape, new_dtype, weak_type)


def _float_to_int(x, new_dtype: np.dtype):
    """Truncate toward zero, saturate at the integer range, NaN -> 0."""
    info = np.iinfo(new_dtype)
    t = np.trunc(x.astype(np.float64))
    high = t >= float(info.max)  # float(max) rounds up for 64-bit: compare, then cast
    low = t <= float(info.min)
    safe = np.where(high | low | np.isnan(t), 0, t).astype(new_dtype)
    return np.where(high, np.array(info.max, new_dtype),
                    np.where(low, np.array(info.min, new_dtype), safe))


def convert_values(x: np.ndarray, new_dtype) -> np.ndarray:
    """NumPy conversion with XLA:CPU's semantics (see the module docstring)."""
    new_dtype = np.dtype(new_dtype)
    if x.dtype == new_dtype:
        return x  # a no-op in XLA: subnormals survive
    if dtypes.is_complex(x.dtype) and not dtypes.is_complex(new_dtype):
        x = x.real.copy()  # XLA converts the real part (to bool too)
        if x.dtype == new_dtype:
            return x
    if _narrow_int.is_narrow(new_dtype):
        return _narrow_int.convert(x, new_dtype)
    if _narrow_int.is_narrow(x.dtype):  # exact in int8/uint8; XLA converts from there
        x = _narrow_int.widen(x)
    if _float8.is_small(new_dtype):
        return _float8.convert(x, new_dtype)
    if _float8.is_small(x.dtype):  # exact in float32; XLA converts from there
        small, x = x.dtype, _float8.to_float32(x)
        if new_dtype == np.float32:
            return x
        if new_dtype == np.bool_:  # not flushed: e8m0fnu's 2**-127 is true
            return x != 0
        if small == dtypes.float4_e2m1fn and new_dtype.kind in "iu":
            x = x * np.where(np.abs(x) == 6, np.float32(np.inf), np.float32(1))  # XLA's
    if x.dtype == dtypes.bfloat16:  # exact in float32; XLA converts from there
        x = to_float32(x)
        if new_dtype in (np.float32, np.bool_):  # bool: not flushed (LLVM tests the bits)
            return x if new_dtype == np.float32 else x != 0
    elif new_dtype == dtypes.bfloat16:  # through float32, not flushed (XLA's bit rounding)
        with np.errstate(all="ignore"):
            return from_float32(x.astype(np.float32))
    x = _flush(x)
    if new_dtype == np.bool_:
        return x != 0
    if dtypes.is_float(x.dtype) and new_dtype.kind in "iu":
        return _float_to_int(x, new_dtype)
    with np.errstate(all="ignore"):
        out = x.astype(new_dtype)
    return _flush(out) if dtypes.is_float(x.dtype) else out


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
square = _unary_api(square_p, "square x * x")

add = _binary_api(add_p, "addition")
sub = _binary_api(sub_p, "subtraction")
mul = _binary_api(mul_p, "multiplication")
div = _binary_api(div_p, "division (integers truncate toward zero)")
rem = _binary_api(rem_p, "remainder with the sign of the dividend")
max = _binary_api(max_p, "maximum (NaN-propagating)")  # noqa: A001
min = _binary_api(min_p, "minimum (NaN-propagating)")  # noqa: A001
atan2 = _binary_api(atan2_p, "two-argument arctangent")
nextafter = _binary_api(nextafter_p, "next representable value after x toward y")
bitwise_and = _binary_api(and_p, "bitwise (or logical, for bool) and")
bitwise_or = _binary_api(or_p, "bitwise (or logical, for bool) or")
bitwise_xor = _binary_api(xor_p, "bitwise (or logical, for bool) xor")
shift_left = _binary_api(shift_left_p, "left shift")
shift_right_logical = _binary_api(shift_right_logical_p, "logical right shift")
shift_right_arithmetic = _binary_api(shift_right_arithmetic_p, "arithmetic right shift")
eq = _binary_api(eq_p, "equality")
ne = _binary_api(ne_p, "inequality")
lt = _binary_api(lt_p, "less-than")
le = _binary_api(le_p, "less-or-equal")
gt = _binary_api(gt_p, "greater-than")
ge = _binary_api(ge_p, "greater-or-equal")


def pow(x, y):  # noqa: A001
    """Elementwise power ``x ** y``; ``x`` is float, ``y`` float of the same dtype or integer.

    Parameters
    ----------
    x, y : array_like

    Returns
    -------
    Array
    """
    return pow_p.bind(x, y)


class RoundingMethod(enum.IntEnum):
    """``lax.round`` rounding modes."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method=RoundingMethod.AWAY_FROM_ZERO):  # noqa: A001
    """Elementwise rounding; ``rounding_method`` 0 rounds half away from zero, 1 to even.

    Raises ``ValueError`` for a value that is not a ``RoundingMethod``.
    """
    return round_p.bind(x, rounding_method=int(RoundingMethod(rounding_method)))


def integer_pow(x, y: int):
    """``x ** y`` for a static Python integer ``y`` (negative only for floats)."""
    return integer_pow_p.bind(x, y=operator.index(y))


def select_n(which, *cases):
    """Pick ``cases[which]`` elementwise; a bool ``which`` means (false, true)."""
    return select_n_p.bind(which, *cases)


def select(pred, on_true, on_false):
    """``on_true`` where ``pred`` else ``on_false``."""
    return select_n_p.bind(pred, on_false, on_true)


def clamp(min, x, max):  # noqa: A002
    """``x`` clipped to ``[min, max]``: ``min(max(x, min), max)``."""
    return clamp_p.bind(min, x, max)


def convert_element_type(operand, new_dtype):
    """Cast ``operand`` to ``new_dtype``: a strongly typed Array (or tracer), even when
    ``operand`` is a NumPy value of that dtype already."""
    out = _convert_element_type(operand, new_dtype, False)
    if isinstance(out, (core.Tracer, Array)):
        return out
    return convert_element_type_p.bind(out, new_dtype=dtypes.canonicalize_dtype(new_dtype),
                                       weak_type=False)


def _convert_element_type(operand, new_dtype, weak_type: bool = False):
    """Cast for internal promotion: values already of the type are returned as they are."""
    new_dtype = dtypes.canonicalize_dtype(new_dtype)
    aval = core.get_aval(operand)
    if aval.dtype == new_dtype and aval.weak_type == weak_type and not isinstance(
            operand, (bool, int, float, complex)):
        return operand
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=bool(weak_type))

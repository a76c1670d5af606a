"""C expressions for primitives on complex64/complex128 (``runtime/tp_complex.h``).

``emit_c.emit`` sends an equation here when one of its operands or its result is
complex. Values are C99 complex numbers (``tp_c64``/``tp_c128``); ``+``, ``-``, ``==``,
``!=``, conversions from real and integer types and the selection of ``select_n`` are C's
own operators (exact, as XLA's). Everything else calls the runtime's helpers, which
compute what the NumPy rules of ``lax/_complex_math.py`` compute: the textbook product,
NumPy's scaled division, complex64 functions in complex128 rounded once, XLA's
expansions of ``atan``/``atan2``/``pow``, lexicographic ``max``/``min``.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..lax import complex_ops
from ..lax import elementwise as ew
from .lowering import ELEMENTWISE, Lowering, register

__all__ = ["COMPLEX_RULES", "complex_rule"]


def _sfx(dt) -> str:
    return dtypes.C_SUFFIXES[np.dtype(dt)]


def _ct(dt) -> str:
    return dtypes.C_COMPUTE_TYPES[np.dtype(dt)]


def _dt(out_aval, in_avals):
    """The complex dtype an equation computes in (its result's, or its operand's)."""
    for a in (out_aval, *in_avals):
        if dtypes.is_complex(a.dtype):
            return np.dtype(a.dtype)
    raise AssertionError("no complex operand")


def _cast(a: str, src, dst) -> str:
    """``a`` (of ``src``'s compute type) as a ``dst`` complex."""
    return a if np.dtype(src) == np.dtype(dst) else f"(({_ct(dst)})({a}))"


def _helper(name: str):
    def rule(args, in_avals, out_aval, **_):
        dt = _dt(out_aval, in_avals)
        return f"tp_c{name}_{_sfx(dt)}({', '.join(args)})"
    return rule


#: C99 functions (glibc's), complex64 evaluated in complex128 and rounded once.
_C99 = {"exp": "cexp", "log": "clog", "sqrt": "csqrt", "sin": "csin", "cos": "ccos",
        "tan": "ctan", "sinh": "csinh", "cosh": "ccosh", "tanh": "ctanh", "asin": "casin",
        "acos": "cacos", "asinh": "casinh", "acosh": "cacosh", "atanh": "catanh"}


def _c99(fn: str):
    def rule(args, in_avals, out_aval, **_):
        if np.dtype(out_aval.dtype) == np.complex128:
            return f"{fn}({args[0]})"
        return f"((tp_c64){fn}((tp_c128)({args[0]})))"
    return rule


def _neg(args, in_avals, out_aval, **_):
    return f"(-{args[0]})"


def _integer_pow(args, in_avals, out_aval, *, y):
    dt = np.dtype(out_aval.dtype)
    sfx = _sfx(dt)
    if y == 0:
        return f"tp_cmake_{sfx}(1, 0)"
    acc, base, n = None, args[0], abs(y)
    while n:  # the order of the NumPy rule's repeated squaring
        if n & 1:
            acc = base if acc is None else f"tp_cmul_{sfx}({acc}, {base})"
        n >>= 1
        if n:
            base = f"tp_cmul_{sfx}({base}, {base})"
    return acc if y > 0 else f"tp_cdiv_{sfx}(tp_cmake_{sfx}(1, 0), {acc})"


def _square(args, in_avals, out_aval, **_):
    return f"tp_cmul_{_sfx(out_aval.dtype)}({args[0]}, {args[0]})"


def _pow(args, in_avals, out_aval, **_):
    dt = np.dtype(out_aval.dtype)
    y = _cast(args[1], in_avals[1].dtype, dt)  # an integer exponent is converted first
    return f"tp_cpow_{_sfx(dt)}({args[0]}, {y})"


def _abs(args, in_avals, out_aval, **_):
    return f"tp_cabs_{_sfx(in_avals[0].dtype)}({args[0]})"


def _real(args, in_avals, out_aval, **_):
    return f"{'crealf' if in_avals[0].dtype == np.complex64 else 'creal'}({args[0]})"


def _imag(args, in_avals, out_aval, **_):
    return f"{'cimagf' if in_avals[0].dtype == np.complex64 else 'cimag'}({args[0]})"


def _conj(args, in_avals, out_aval, *, input_dtype):
    src = np.dtype(in_avals[0].dtype)
    if not dtypes.is_complex(src):
        return f"(({_ct(out_aval.dtype)})({args[0]}))"
    return f"{'conjf' if src == np.complex64 else 'conj'}({args[0]})"


def _complex(args, in_avals, out_aval, **_):
    return f"tp_cmake_{_sfx(out_aval.dtype)}({args[0]}, {args[1]})"


COMPLEX_RULES = {
    ew.neg_p: _neg, ew.mul_p: _helper("mul"), ew.div_p: _helper("div"),
    ew.integer_pow_p: _integer_pow, ew.square_p: _square, ew.pow_p: _pow, ew.abs_p: _abs,
    ew.sign_p: _helper("sign"), ew.max_p: _helper("max"), ew.min_p: _helper("min"),
    ew.atan_p: _helper("atan"), ew.atan2_p: _helper("atan2"),
    ew.expm1_p: _helper("expm1"), ew.log1p_p: _helper("log1p"),
    ew.rsqrt_p: _helper("rsqrt"), ew.logistic_p: _helper("logistic"),
    ew.exp2_p: _helper("exp2"),
    **{getattr(ew, f"{n}_p"): _c99(f) for n, f in _C99.items()},
}


def complex_rule(prim):
    """The complex emitter of ``prim``, or None where C's operators do (add, eq...)."""
    return COMPLEX_RULES.get(prim)


for _p, _fn in ((complex_ops.real_p, _real), (complex_ops.imag_p, _imag),
                (complex_ops.conj_p, _conj), (complex_ops.complex_p, _complex)):
    register(_p, Lowering(ELEMENTWISE, emit=_fn))

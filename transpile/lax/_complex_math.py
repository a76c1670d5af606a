"""NumPy rules of the elementwise primitives on complex operands.

XLA:CPU evaluates complex functions from real ones (its own expansions); NumPy's complex
functions (the C library's, on Linux) agree with it to a few ulp on ordinary values. The
generated C (``runtime/tp_complex.h``) computes what these rules compute:

* complex64 functions are computed in complex128 and rounded once;
* ``mul``/``div`` stay in the operands' precision (NumPy's scaled division);
* ``sign`` is ``x * (1 / |x|)``, 0 for 0; ``abs`` is ``hypot`` in float64, rounded;
* ``max``/``min`` order complex numbers lexicographically (real part, then imaginary),
  NaN propagating, as XLA does;
* ``logistic`` is ``1 / (1 + exp(-x))``, ``exp2`` is ``exp(x * log(2))``, ``rsqrt`` is
  ``1 / sqrt(x)``, ``pow`` is XLA's ``|x|^c e^(-d arg x) (cos q + i sin q)`` with
  ``q = c arg x + d ln|x|`` (and ``x^0 = 1``).
"""
from __future__ import annotations

import numpy as np

__all__ = ["complex_rule", "lexicographic_max", "lexicographic_min", "complex_pow"]

_C128 = np.dtype(np.complex128)


def _wide(fn):
    """``fn`` computed in complex128 and rounded to the operands' complex dtype."""
    def rule(*args, **params):
        dt = args[0].dtype
        with np.errstate(all="ignore"):
            out = np.asarray(fn(*[a.astype(_C128) if a.dtype.kind == "c" else a
                                  for a in args], **params))
        return out.astype(dt) if out.dtype == _C128 else out.astype(_real_of(dt))
    return rule


def _real_of(dt):
    return np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64)


def _make(re, im):
    out = np.empty(np.broadcast_shapes(np.shape(re), np.shape(im)), _C128)
    out.real, out.imag = re, im
    return out


def _sign(x):
    a = np.hypot(x.real, x.imag)
    scl = 1 / np.where(a == 0, 1, a)
    return np.where(a == 0, 0, _make(x.real * scl, x.imag * scl))


def complex_pow(x, y):
    """XLA's complex power in complex128 (see the module docstring)."""
    a, b, c, d = x.real, x.imag, y.real, y.imag
    aa_bb = a * a + b * b
    arg = np.arctan2(b, a)
    coeff = np.power(aa_bb, 0.5 * c) * np.exp(-d * arg)
    q = c * arg + 0.5 * d * np.log(aa_bb)
    return np.where((c == 0) & (d == 0), 1, _make(coeff * np.cos(q), coeff * np.sin(q)))


def _cmul(a, b):
    """The textbook complex product (XLA's, and ``tp_cmul``'s in the generated C)."""
    return _make(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real)


_I = np.complex128(1j)


def _atan(z):
    """``(i / 2) (log(1 - iz) - log(1 + iz))``, XLA's expansion (a pole gives NaN - inf i,
    where the C library's ``catan`` gives -0 - inf i)."""
    iz = _cmul(_I, z)
    return _cmul(np.complex128(0.5j), np.log(1 - iz) - np.log(1 + iz))


def _atan2(x, y):
    """Complex ``atan2(x, y) = -i log((y + ix) / sqrt(y^2 + x^2))``, XLA's expansion."""
    num = y + _cmul(_I, x)
    return _cmul(np.complex128(-1j), np.log(num / np.sqrt(_cmul(y, y) + _cmul(x, x))))


def _key_less(x, y):
    """``x < y`` in the lexicographic order of (real, imag)."""
    return (x.real < y.real) | ((x.real == y.real) & (x.imag < y.imag))


def _nan(x):
    return np.isnan(x.real) | np.isnan(x.imag)


def lexicographic_max(x, y):
    """Elementwise maximum of complex arrays in (real, imag) order; NaN propagates."""
    x, y = np.broadcast_arrays(x, y)
    out = np.where(_key_less(x, y), y, x)
    return np.where(_nan(x), x, np.where(_nan(y), y, out))


def lexicographic_min(x, y):
    """Elementwise minimum of complex arrays in (real, imag) order; NaN propagates."""
    x, y = np.broadcast_arrays(x, y)
    out = np.where(_key_less(y, x), y, x)
    return np.where(_nan(x), x, np.where(_nan(y), y, out))


def _integer_pow(x, *, y):
    """Repeated squaring with the textbook product, then one division for y < 0."""
    if y == 0:
        return np.ones_like(x)
    acc, base, n = None, x, abs(y)
    with np.errstate(all="ignore"):
        while n:
            if n & 1:
                acc = base if acc is None else acc * base
            n >>= 1
            if n:
                base = base * base
        return acc if y > 0 else x.dtype.type(1) / acc


def _quiet(fn):
    def rule(*args, **params):
        with np.errstate(all="ignore"):
            return fn(*args, **params)
    return rule


_RULES = {
    "sign": _wide(_sign), "max": lexicographic_max, "min": lexicographic_min,
    "logistic": _wide(lambda x: 1 / (1 + np.exp(-x))),
    "exp2": _wide(lambda x: np.exp(x * np.log(2))), "rsqrt": _wide(lambda x: 1 / np.sqrt(x)),
    "abs": _wide(np.abs), "pow": _wide(complex_pow), "div": _quiet(np.divide),
    "integer_pow": _integer_pow, "atan": _wide(_atan), "atan2": _wide(_atan2),
    **{n: _wide(f) for n, f in (
        ("exp", np.exp), ("expm1", np.expm1), ("log", np.log), ("log1p", np.log1p),
        ("sqrt", np.sqrt), ("sin", np.sin), ("cos", np.cos), ("tan", np.tan),
        ("asin", np.arcsin), ("acos", np.arccos), ("sinh", np.sinh),
        ("cosh", np.cosh), ("tanh", np.tanh), ("asinh", np.arcsinh),
        ("acosh", np.arccosh), ("atanh", np.arctanh))},
}


def complex_rule(name: str, rule):
    """``rule`` (a primitive's NumPy rule), sending complex operands to this module's rule
    for ``name`` where it has one."""
    crule = _RULES.get(name)
    if crule is None:
        return rule

    def impl(*args, **params):
        if args[0].dtype.kind == "c":
            return crule(*args, **params)
        return rule(*args, **params)
    impl.__name__ = getattr(rule, "__name__", name)
    for attr in ("bfloat16_native", "unflushed_dtypes"):
        if hasattr(rule, attr):
            setattr(impl, attr, getattr(rule, attr))
    return impl

"""NumPy twins of ``runtime/tp_xla_math.h``: float32 ``log``, ``log1p`` and ``erf_inv``
with the bits that JAX 0.10.2 produces on CPU (XLA:CPU's vectorised kernels), and the
float64 ones (``xla_log_f64`` etc., under ``jax_enable_x64``; see the float64 section).

Input: float32 arrays (anything ``np.asarray(..., np.float32)`` accepts). Output: float32
arrays of the same shape, bit-identical to the C functions ``tp_xla_log_f32`` etc.,
which are bit-identical to ``jax.jit(jnp.log)`` and friends on float32 (NaN payloads
included).

XLA:CPU does not call libm for these. It expands them into straight-line float32 code
(the classic Cephes ``logf`` scheme for log, a rational function for small log1p
arguments, Giles' single-precision polynomials for erf_inv) and LLVM fuses some
multiply-adds into FMAs. To get the same bits every float32 operation is reproduced in
order, with single rounding where XLA's machine code has a fused multiply-add
(``_fma`` below). XLA:CPU runs with FTZ/DAZ set; so do our kernels, and these twins
flush subnormal operands and results the same way (see the notes in each function on
why the intermediates cannot produce subnormals that matter).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
from fractions import Fraction

import numpy as np

__all__ = ["daz", "xla_log_f32", "xla_log1p_f32", "xla_erf_inv_f32", "xla_log_f64", "xla_log1p_f64",
           "xla_erf_inv_f64", "libm_f64", "libm_twin", "xla_atan2_subnormal_f32"]

_F32 = np.float32
_U32 = np.uint32


def _c(bits: int) -> np.float32:
    """The float32 whose bit pattern is ``bits``."""
    return np.array(bits, _U32).view(_F32)[()]


def _fma(a, b, c):
    """fmaf(a, b, c) on float32 arrays, rounded once.

    The product of two float32s is exact in float64 (48 significant bits, exponent well
    inside float64's range), so s = p + c in float64 has a single rounding; rounding s
    again to float32 can only differ from rounding the exact sum once when s lies
    exactly halfway between two float32s (its low 29 bits are 1 followed by zeros) and
    the float64 addition was inexact. Those rare elements are redone: the addition's
    error is exact by TwoSum, and nudging s one float64 ulp towards it (round to odd)
    makes the float32 rounding correct.
    """
    a64 = np.asarray(a, _F32).astype(np.float64)
    b64 = np.asarray(b, _F32).astype(np.float64)
    c64 = np.asarray(c, _F32).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        p = a64 * b64
        s = np.add(p, c64)
        tie = np.nonzero((s.view(np.int64) & 0x1FFFFFFF) == 0x10000000)
        if tie[0].size:
            pt = np.broadcast_to(p, s.shape)[tie]
            ct = np.broadcast_to(c64, s.shape)[tie]
            st = s[tie]
            bb = st - pt
            err = (pt - (st - bb)) + (ct - bb)
            step = np.where(err == 0, 0, np.where((err > 0) == (st > 0), 1, -1))
            s[tie] = (st.view(np.int64) + step).view(np.float64)
        return s.astype(_F32)


def _flush(x: np.ndarray) -> np.ndarray:
    """Subnormals become zeros of their sign (DAZ on operands, FTZ on results)."""
    u = x.view(_U32)
    return np.where((u & _U32(0x7FFFFFFF)) < _U32(0x00800000), u & _U32(0x80000000),
                    u).astype(_U32).view(_F32)


def _bits(x):
    return np.asarray(x, _F32).view(_U32)


def _float(u):
    return np.asarray(u, _U32).view(_F32)


# Cephes logf: log(1 + f) = f - f^2/2 + f^3 P(f) for f in [sqrt(1/2) - 1, sqrt(2) - 1],
# P of degree 8 evaluated as three interleaved pieces; ln 2 in two parts.
_LOG_P = [_c(v) for v in (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A,   # f^6 group
                           0xBDFE5D4F, 0x3E11E9BF, 0xBE2AAE50,   # f^3 group
                           0x3E4CCEAC, 0xBE7FFFFC, 0x3EAAAAAA)]  # f^0 group
_LN2_HI = _c(0x3F318000)   # 0.693359375, exact times any exponent
_LN2_LO = _c(0xB95E8083)   # -2.12194440e-4
_MIN_NORM = _c(0x00800000)
_SQRT_HALF = _c(0x3F3504F3)
_NAN_ALL = _U32(0xFFFFFFFF)   # what XLA's log returns for x < 0 or NaN


def _log_core(u: np.ndarray) -> np.ndarray:
    """XLA:CPU's float32 log of a DAZ-flushed float32 array, as result bits (uint32)."""
    one = _F32(1)
    with np.errstate(invalid="ignore"):
        bad = ~(u > 0)                      # u <= 0 or NaN: all-ones NaN
        zero = u == 0
        inf = u == np.inf
        v = np.where(u > _MIN_NORM, u, _MIN_NORM).astype(_F32)
    vb = _bits(v)
    e = ((vb >> _U32(23)).astype(np.int32) - 127).astype(_F32) + one
    m = _float((vb & _U32(0x807FFFFF)) | _U32(0x3F000000))
    small = m < _SQRT_HALF
    e = e - np.where(small, one, _F32(0))
    x = (m - one) + np.where(small, m, _F32(0))
    x2 = x * x
    x3 = x2 * x
    p0, p1, p2, p3, p4, p5, p6, p7, p8 = _LOG_P
    a = _fma(_fma(x, p0, p1), x, p2)
    b = _fma(_fma(x, p3, p4), x, p5)
    c = _fma(_fma(x, p6, p7), x, p8)
    y = _fma(_fma(a, x3, b), x3, c)
    t = x - x2 * _F32(0.5)                     # an fma in XLA; the product is exact
    r = _fma(y, x3, e * _LN2_LO)
    r = e * _LN2_HI + (t + r)                  # likewise: e * ln2_hi is exact
    rb = np.where(bad, _NAN_ALL, _bits(r))
    out = np.where(zero, _U32(0xFF800000), np.where(inf, _U32(0x7F800000), rb))
    return out.astype(_U32)


_CHUNK = 1 << 16


def _elementwise(core):
    """The public function of ``core`` (1-D float32 -> 1-D float32): any shape, scalars
    included, a new array out, floating-point warnings silenced (NaN and inf are
    results here, not errors)."""
    def fn(x) -> np.ndarray:
        x = np.asarray(x, _F32)
        flat = x.reshape(-1)
        with np.errstate(all="ignore"):
            if flat.size <= _CHUNK:
                return core(_flush(flat)).reshape(x.shape)
            # in cache-sized pieces: the many passes over temporaries stay in cache
            out = np.empty(flat.shape, _F32)
            for i in range(0, flat.size, _CHUNK):
                out[i:i + _CHUNK] = core(_flush(flat[i:i + _CHUNK]))
            return out.reshape(x.shape)
    fn.__name__, fn.__qualname__, fn.__doc__ = core.__name__, core.__name__, core.__doc__
    return fn


@_elementwise
def xla_log_f32(x):
    """jnp.log on float32 as XLA:CPU computes it (bit-exact).

    No intermediate is subnormal: the reduced argument is 0 or at least 2^-24 in
    magnitude, so its cube is at least 2^-72."""
    return _log_core(x).view(_F32)


# log1p(x) for |x| < sqrt(2) - 1: x - x^2/2 + x^3 N(x)/D(x), degree-6 numerator and
# (monic) degree-7 denominator, both Horner with fused steps.
_L1P_N = [_c(v) for v in (0x3EFF40C5, 0x40D284FA, 0x41EF4B9C, 0x4273CC76, 0x426473AD,
                          0x41A05101)]
_L1P_N0 = _F32(4.527e-05)
_L1P_D = [_c(v) for v in (0x417101AD, 0x42A6185B, 0x435DC32D, 0x439A8CA3, 0x43586D8A,
                          0x42707982)]
_L1P_SMALL = _c(0x3ED413CD)   # 0.41421357


def _log1p_small(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        z = x * _F32(0)                      # NaN for inf, as XLA's x * 0 + c
        q = z + _F32(1)
        n = z + _L1P_N0
    for cd, cn in zip(_L1P_D, _L1P_N, strict=True):
        q = _fma(q, x, cd)
        n = _fma(n, x, cn)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        ratio = n / q
        x2 = x * x
        x3r = (x * x2) * ratio
    return x + _fma(x2, _F32(-0.5), x3r)


@_elementwise
def xla_log1p_f32(x):
    """jnp.log1p on float32 as XLA:CPU computes it (bit-exact).

    Subnormals: only for |x| < 2^-42 can x^2 or x^3 be subnormal, and there the result
    is x whether or not they are flushed (the correction is far below half an ulp)."""
    u = x + _F32(1)
    big = _log_core(_flush(u))
    small = _log1p_small(x).view(_U32)
    out = np.where(np.abs(x) < _L1P_SMALL, small, big).astype(_U32).view(_F32)
    return _flush(out)


# erf_inv(x) = x p(t): w = -log1p(-x^2); w < 5: t = w - 2.5, else t = sqrt(w) - 3.
_EI_CENTRAL = [np.float32(v) for v in (2.81022636e-08, 3.43273939e-07, -3.5233877e-06,
                                       -4.39150654e-06, 0.00021858087, -0.00125372503,
                                       -0.00417768164, 0.246640727, 1.50140941)]
_EI_TAIL = [np.float32(v) for v in (-0.000200214257, 0.000100950558, 0.00134934322,
                                    -0.00367342844, 0.00573950773, -0.0076224613,
                                    0.00943887047, 1.00167406, 2.83297682)]


@_elementwise
def xla_erf_inv_f32(x):
    """lax.erf_inv on float32 as XLA:CPU computes it (bit-exact).

    x * -x can be subnormal (|x| < 2^-63); flushed or not, log1p of it only feeds
    -2.5 - l, which rounds to -2.5 either way, and the w < 5 test. The final product is
    flushed as the hardware flushes it."""
    nx2 = _flush(x * -x)
    lp = xla_log1p_f32(nx2)
    with np.errstate(invalid="ignore"):
        central = lp > _F32(-5)
        t = np.where(central, _F32(-2.5) - lp, np.sqrt(-lp) + _F32(-3)).astype(_F32)
    p = np.where(central, _EI_CENTRAL[0], _EI_TAIL[0]).astype(_F32)
    for cc, ct in zip(_EI_CENTRAL[1:], _EI_TAIL[1:], strict=True):
        p = _fma(p, t, np.where(central, cc, ct).astype(_F32))
    p = np.where(np.abs(x) == 1, _F32(np.inf), p).astype(_F32)
    y = x * p
    # FTZ flushes a product whose exact value is below 2^-126 even when it rounds up to
    # 2^-126 (x86 detects tininess before rounding); the float64 product is exact
    edge = np.nonzero(np.abs(y) == _MIN_NORM)[0]
    if edge.size:
        exact = x[edge].astype(np.float64) * p[edge].astype(np.float64)
        y[edge] = np.where(np.abs(exact) < float(_MIN_NORM), y[edge] * _F32(0), y[edge])
    y = _flush(y)
    # a NaN x comes back quieted (the machine code's x * p returns its first operand's
    # NaN; NumPy's multiply may take p's)
    nan = np.isnan(x)
    if nan.any():
        y[nan] = _float(_bits(x[nan]) | _U32(0x00400000))
    return y


# ---------------------------------------------------------------------------------------
# float64: tp_xla_log_f64, tp_xla_log1p_f64, tp_xla_erf_inv_f64. XLA:CPU calls the C
# library's log for float64 log (and for log1p's log(1 + x)); the rest is expanded with
# fused multiply-adds in every Horner step, reproduced here by _fma64.

_F64 = np.float64
_U64 = np.uint64
_MAG64 = _U64(0x7FFFFFFFFFFFFFFF)
_SIGN64 = _U64(0x8000000000000000)
_QNAN64 = np.array(0x7FF8000000000000, _U64).view(_F64)[()]   # log of a negative
_MIN_NORM64 = 2.0 ** -1022


def _flush64(x: np.ndarray) -> np.ndarray:
    u = np.asarray(x, _F64).view(_U64)
    return np.where((u & _MAG64) < _U64(0x0010000000000000), u & _SIGN64,
                    u).astype(_U64).view(_F64)


def daz(x: np.ndarray) -> np.ndarray:
    """``x`` with its subnormal values read as zeros of their sign, as XLA:CPU's
    kernels read float32 and float64 operands (other dtypes are returned as they are)."""
    if x.dtype == _F32:
        return _flush(x)
    if x.dtype == _F64:
        return _flush64(x)
    return x


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = a * 134217729.0   # 2^27 + 1: Veltkamp's split into two 26-bit halves
    hi = c - (c - a)
    return hi, a - hi


def _fma_exact(a: float, b: float, c: float) -> float:
    """a * b + c rounded once, in rational arithmetic (float() of a Fraction rounds
    correctly, subnormals included)."""
    ex = Fraction(a) * Fraction(b) + Fraction(c)
    if ex == 0:   # the sign IEEE gives an exact zero sum (round to nearest)
        return -0.0 if (np.signbit(a) != np.signbit(b)) and np.signbit(c) else 0.0
    try:
        return float(ex)
    except OverflowError:
        return float("inf") if ex > 0 else float("-inf")


def _fma64(a, b, c) -> np.ndarray:
    """fma(a, b, c) on float64 arrays, rounded once (bit-exact).

    Error-free transformations give a * b + c = s + t + te exactly (s = fl(p + c),
    t = fl(pe + se) with p + pe = a * b and s + se = p + c); out = fl(s + t) is the
    correctly rounded result when te = 0, and otherwise unless s + t lies within |te| of
    a rounding boundary. Those rare elements, and the ones where the transformations
    are not exact (huge operands, products near underflow), are redone exactly."""
    a, b, c = np.broadcast_arrays(np.asarray(a, _F64), np.asarray(b, _F64),
                                  np.asarray(c, _F64))
    with np.errstate(all="ignore"):
        p = a * b
        ah, al = _split(a)
        bh, bl = _split(b)
        pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s, se = _two_sum(p, c)
        t, te = _two_sum(pe, se)
        out, r = _two_sum(s, t)
        out = np.where((pe == 0) & (se == 0), s, out)   # exact: s, signed zeros included
        aout = np.abs(out)
        half = np.spacing(aout) * 0.5
        redo = (te != 0) & ((np.abs(r) + np.abs(te) >= half * (1 - 2.0 ** -30))
                            | ((out.view(_U64) & _U64(0xFFFFFFFFFFFFF)) == 0))
        redo |= ((np.maximum(np.abs(a), np.abs(b)) > 2.0 ** 995) | (np.abs(p) > 2.0 ** 1000)
                 | ((p != 0) & (np.abs(p) < 2.0 ** -960)) | ((aout < 2.0 ** -960) & (out != 0))
                 | ~np.isfinite(out))
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        out = np.where(finite, out, a * b + c)   # NaN or inf, as the fused operation
        redo &= finite
    idx = np.nonzero(redo)
    if idx[0].size:
        out = np.array(out)
        for i in zip(*idx):
            out[i] = _fma_exact(float(a[i]), float(b[i]), float(c[i]))
    return out


# NumPy's name -> the C library's, and a domain to probe each one on.
_LIBM = {"exp": ("exp", (-700, 700)), "exp2": ("exp2", (-1000, 1000)),
         "expm1": ("expm1", (-40, 40)), "log": ("log", (0.5, 2)),
         "cbrt": ("cbrt", (-1e6, 1e6)), "sin": ("sin", (-100, 100)),
         "cos": ("cos", (-100, 100)), "tan": ("tan", (-100, 100)),
         "arcsin": ("asin", (-1, 1)), "arccos": ("acos", (-1, 1)), "arctan": ("atan", (-50, 50)),
         "sinh": ("sinh", (-700, 700)), "cosh": ("cosh", (-700, 700)),
         "tanh": ("tanh", (-20, 20)), "arcsinh": ("asinh", (-1e6, 1e6)),
         "arccosh": ("acosh", (1, 1e6)), "arctanh": ("atanh", (-1, 1)),
         "arctan2": ("atan2", (-50, 50)), "power": ("pow", (0.01, 20))}


def _libm_scalar(name: str, arity: int):
    lib = ctypes.util.find_library("m")
    if lib is None:
        return None
    fn = getattr(ctypes.CDLL(lib), name)
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double] * arity
    return fn


@functools.lru_cache(maxsize=None)
def libm_twin(np_fn):
    """The C library's version of float64 ufunc ``np_fn`` (what XLA:CPU and our kernels
    call): ``np_fn`` itself where a probe shows it returns the same bits, else the C
    function element by element through ctypes. NumPy builds for AVX-512 machines
    carry vectorised float64 exp, cbrt, sinh, tanh, pow... of their own, which differ
    from glibc's in the last bit of up to half the results."""
    if np_fn.__name__ not in _LIBM:   # sqrt and the like: correctly rounded everywhere
        return np_fn
    c_name, (lo, hi) = _LIBM[np_fn.__name__]
    fn = _libm_scalar(c_name, np_fn.nin)
    if fn is None:
        return np_fn
    rng = np.random.default_rng(0)
    # the whole domain, and near 1 where most of the rounding decisions lie
    args = [np.concatenate([rng.uniform(lo, hi, 2000),
                            np.clip(rng.uniform(-2, 2, 2000), lo, hi)])
            for _ in range(np_fn.nin)]
    if np_fn is np.log:   # every binade
        args[0] = np.concatenate([args[0], np.exp(rng.uniform(-745, 709, 2000)),
                                  1 + rng.uniform(-2.0 ** -20, 2.0 ** -20, 500)])
    if np_fn is np.power:   # exponents of either sign
        args[1] = rng.uniform(-8, 8, args[0].size)
    want = np.array([fn(*map(float, a)) for a in zip(*args, strict=True)])
    with np.errstate(all="ignore"):
        if np.array_equal(np_fn(*args).view(_U64), want.view(_U64)):
            return np_fn
    return np.frompyfunc(fn, np_fn.nin, 1)


def libm_f64(np_fn):
    """A NumPy rule computing ``np_fn`` on float64 operands with the C library's bits
    (the twin is chosen on first use, not at import)."""
    def impl(*args):
        args = np.broadcast_arrays(*[np.asarray(a, _F64) for a in args])
        with np.errstate(all="ignore"):
            return np.asarray(libm_twin(np_fn)(*args), _F64)
    impl.__name__ = np_fn.__name__
    return impl


def _log64_core(u: np.ndarray) -> np.ndarray:
    """XLA's float64 log of a flushed array: libm's log; a negative operand gives the
    positive quiet NaN (glibc's is negative)."""
    with np.errstate(all="ignore"):
        y = np.asarray(libm_twin(np.log)(u), _F64)
    return np.where(u < 0, _QNAN64, y)


def _elementwise64(core):
    """As _elementwise, for float64 (core gets the flushed 1-D operand)."""
    def fn(x) -> np.ndarray:
        x = np.asarray(x, _F64)
        flat = x.reshape(-1)
        out = np.empty(flat.shape, _F64)
        with np.errstate(all="ignore"):
            for i in range(0, max(flat.size, 1), _CHUNK):
                out[i:i + _CHUNK] = core(_flush64(flat[i:i + _CHUNK]))
        return out.reshape(x.shape)
    fn.__name__, fn.__qualname__, fn.__doc__ = core.__name__, core.__name__, core.__doc__
    return fn


@_elementwise64
def xla_log_f64(x):
    """jnp.log on float64 as XLA:CPU computes it (bit-exact): the C library's log of the
    flushed operand (subnormals give -inf), +NaN for negative operands."""
    return _log64_core(x)


# log1p(x) for |x| < sqrt(2) - 1: x - x^2/2 + x^3 N(x)/D(x), the float32 coefficients
# in double, Horner with fused steps
_L1P_N0_64 = float.fromhex("0x1.7bc0962b395cap-15")
_L1P_N64 = [float.fromhex(h) for h in (
    "0x1.fe818a0fe1a83p-2", "0x1.a509f46f4fa53p+2", "0x1.de9738b8cb9c9p+4",
    "0x1.e798eb86c3351p+5", "0x1.c8e7597479a10p+5", "0x1.40a202d99830ap+4")]
_L1P_D64 = [float.fromhex(h) for h in (
    "0x1.e20359e903e37p+3", "0x1.4c30b52213498p+6", "0x1.bb86590fcfb56p+7",
    "0x1.351945dc908a5p+8", "0x1.b0db13e48e066p+7", "0x1.e0f304466448ep+5")]
_L1P_SMALL64 = float.fromhex("0x1.a827999fcef32p-2")   # sqrt(2) - 1


def _log1p64(x: np.ndarray) -> np.ndarray:
    out = x.copy()   # |x| < 2^-55: the correction is below an eighth of an ulp of x
    ax = np.abs(x)
    big = np.nonzero(~(ax < _L1P_SMALL64))
    out[big] = _log64_core(x[big] + 1.0)   # 1 + x is never subnormal
    small = np.nonzero((ax < _L1P_SMALL64) & (ax >= 2.0 ** -55))
    xs = x[small]
    q = np.ones_like(xs)   # x * 0 + 1, x finite here
    n = np.full_like(xs, _L1P_N0_64)
    for cq, cn in zip(_L1P_D64, _L1P_N64, strict=True):
        q = _fma64(q, xs, cq)
        n = _fma64(n, xs, cn)
    x2 = xs * xs   # at least 2^-110: no subnormal intermediates
    out[small] = xs + _fma64(x2, -0.5, (xs * x2) * (n / q))
    return out


@_elementwise64
def xla_log1p_f64(x):
    """jnp.log1p on float64 as XLA:CPU computes it (bit-exact)."""
    return _log1p64(x)


# erf_inv(x) = x p(t), w = -log1p(-x^2): w < 6.25: t = w - 3.125; w < 16:
# t = sqrt(w) - 3.25; else t = sqrt(w) - 5 (Giles' double precision polynomials)
_EI64 = [[float.fromhex(h) for h in cs.split()] for cs in ("""
    -0x1.135d2e746e627p-68 -0x1.8ddf93324d327p-63 0x1.7b83eef0b7c9fp-60
    0x1.9ba72cd589b91p-57 -0x1.33689090a6b96p-53 0x1.82e11898132e0p-56
    0x1.de4acfd9e26bap-48 -0x1.6d33eed66c487p-45 -0x1.6f2167040d8e2p-44
    0x1.72a22c2d77e20p-39 -0x1.c8859c4e5c0afp-37 -0x1.dc583d118a561p-35
    0x1.20f47ccf46b3cp-30 -0x1.1a9e38dc84d60p-28 -0x1.f36cd6d3d46a9p-26
    0x1.c6b4f5d03b787p-22 -0x1.6e8a5434ae8a2p-20 -0x1.d1d1f7b8736f6p-17
    0x1.879c2a212f024p-13 -0x1.845769484fca8p-11 -0x1.8b6c33114f909p-8
    0x1.ebd80d9b13e28p-3 0x1.a755e7c99ae86p+0""", """
    0x1.3040f87dbd932p-29 0x1.85cbe52878635p-24 -0x1.2777453dd3955p-22
    0x1.395abcd554c6cp-26 0x1.936388a3790adp-20 -0x1.0d5db812b5083p-18
    0x1.8860cd5d652f6p-19 0x1.a29a0cacdfb23p-17 -0x1.8cef1f80281f2p-15
    0x1.1e684d0b9188ap-14 0x1.932cd54c8a222p-16 -0x1.7448a89ef8aa3p-12
    0x1.f3cc55ad40c25p-11 -0x1.ba924132f38b1p-10 0x1.468eeca533cf8p-9
    -0x1.ebadabb891bbdp-9 0x1.5ffcfe5b76afcp-8 0x1.0158a6d641d39p+0
    0x1.8abcc380d5a48p+1""", """
    -0x1.dcec3a7785389p-36 -0x1.18feec0e38727p-32 0x1.9e6bf2dda45e3p-30
    -0x1.0468fb24e2f5fp-28 0x1.05ac6a8fba182p-27 -0x1.0102e495fb9c0p-26
    0x1.f4c20e1334af8p-26 -0x1.22d220fdf9c3ep-24 0x1.ebc8bb824cb54p-23
    -0x1.0a8d40ea372ccp-20 0x1.2fbd29d093d2bp-18 -0x1.4a3497e1e0facp-16
    0x1.3ebf4eb00938fp-14 -0x1.c2f36a8fc5d53p-13 -0x1.22ea5df04047cp-13
    0x1.02a30d1fba0dcp+0 0x1.3664ddd1ad7fbp+2""")]


@_elementwise64
def xla_erf_inv_f64(x):
    """lax.erf_inv on float64 as XLA:CPU computes it (bit-exact).

    x * -x can be subnormal (|x| < 2^-511); flushed or not, log1p of it is below 2^-55
    and -3.125 - l rounds to -3.125. The product is flushed as the hardware flushes it."""
    with np.errstate(all="ignore"):
        lp = _log1p64(_flush64(x * -x))
        p = np.empty_like(x)
        branches = (lp > -6.25, (lp <= -6.25) & (lp > -16), ~(lp > -16))   # NaN: last
        for k, (sel, shift) in enumerate(zip(branches, (3.125, 3.25, 5.0), strict=True)):
            idx = np.nonzero(sel)
            lk = lp[idx]
            t = -3.125 - lk if k == 0 else np.sqrt(-lk) - shift
            cs = _EI64[k]
            pk = np.full_like(t, cs[0])
            for c in cs[1:]:
                pk = _fma64(pk, t, c)
            p[idx] = pk
        p = np.where(np.abs(x) == 1, np.inf, p)
        y = x * p
    # FTZ flushes a product below 2^-1022 even when it rounds up to 2^-1022 (x86 detects
    # tininess before rounding)
    for i in np.nonzero(np.abs(y) == _MIN_NORM64)[0]:
        if abs(Fraction(float(x[i])) * Fraction(float(p[i]))) < Fraction(_MIN_NORM64):
            y[i] = 0.0 * y[i]
    y = _flush64(y)
    nan = np.isnan(x)
    y[nan] = x[nan] + x[nan]   # a NaN operand comes back quieted
    return y


# ---------------------------------------------------------------------------------------
# atan2 for float32: glibc's atan2f under DAZ (runtime/tp_ops.h, tp_atan2_f32)

_PI = _c(0x40490FDB)
_PI_LO = _c(0xB3BBBD2E)     # -8.7422776573e-08
_PI_2 = _c(0x3FC90FDB)


def xla_atan2_subnormal_f32(y: np.ndarray, x: np.ndarray, flushed: np.ndarray) -> np.ndarray:
    """``flushed`` (atan2 of the flushed operands, correctly rounded) with the pairs
    where a subnormal operand takes glibc's atan2f, which tests the operands' bits and
    computes with them flushed, its own way: atan2(s, 1) = s, atan2(s, 0) = +-pi/2,
    atan2(s, x) = +-0 or +-pi, atan2(y, s) = +-pi/2 or +-pi -+ pi/2, atan2(s, t) = NaN."""
    y, x = np.broadcast_arrays(np.asarray(y, _F32), np.asarray(x, _F32))
    hy, hx = _bits(y), _bits(x)
    iy, ix = hy & _U32(0x7FFFFFFF), hx & _U32(0x7FFFFFFF)
    ysub = (iy != 0) & (iy < _U32(0x00800000))
    xsub = (ix != 0) & (ix < _U32(0x00800000))
    special = (xsub | ysub) & (iy != 0) & (iy < _U32(0x7F800000)) & (ix < _U32(0x7F800000))
    if not special.any():
        return flushed
    with np.errstate(all="ignore"):
        z = np.where(xsub & ysub, _float(np.full(y.shape, 0x7FC00000, _U32)),
                     np.where(ysub, _F32(0.0), _PI_2)).astype(_F32)
        m = ((hy >> _U32(31)) & _U32(1)) | ((hx >> _U32(30)) & _U32(2))
        out = np.select([m == 0, m == 1, m == 2],
                        [z, -z, _PI - (z - _PI_LO)], (z - _PI_LO) - _PI).astype(_F32)
    out = np.where(ix == 0, np.where(hy >> _U32(31) != 0, -_PI_2, _PI_2), out)
    out = np.where(hx == _U32(0x3F800000), y, out).astype(_F32)
    return np.where(special, out, np.asarray(flushed, _F32)).astype(_F32)

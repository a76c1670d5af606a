"""``jax.scipy.special``: special functions, as JAX 0.10.2 defines them for real dtypes.

Each function promotes its arguments to an inexact dtype as ``jax.numpy`` does (weak
Python scalars stay weak) and is written on the ``lax`` special-function primitives
(``lax/special.py``) and ``jax.numpy``, in JAX's order, so results, dtypes and weak
types are JAX's. Complex-only functions (``wofz``, ``sph_harm_y``) are not provided.
The distribution helpers ``ndtr``, ``ndtri``, ``log_ndtr`` are in ``_normal.py``.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..core import concrete_or_error
from ..custom_derivatives import custom_jvp
from ..jit import jit
from ..autodiff import jvp
from ..lax._special_math import ZETA_TERMS
# logsumexp, softmax and log_softmax are jax.nn's (JAX's scipy.special has them too)
from ..nn import log_softmax, logsumexp, softmax
from ..numpy._util import aval, promote_args_inexact
from ._normal import log_ndtr, ndtr, ndtri
from . import special_extra as _extra, special_hyper as _hyper
from .special_extra import dawsn, erfcx, expn, fresnel, owens_t, sici, spence  # noqa: F401
from .special_hyper import bessel_jn, hyp1f1, hyp2f1  # noqa: F401

__all__ = ["betainc", "betaln", "beta", "digamma", "entr", "erf", "erfc", "erfinv",
           "expit", "factorial", "gamma", "gammainc", "gammaincc", "gammaln", "gammasgn",
           "i0", "i0e", "i1", "i1e", "kl_div", "log_ndtr", "log_softmax", "loggamma",
           "logit", "logsumexp", "multigammaln", "ndtr", "ndtri", "poch", "polygamma",
           "rel_entr", "softmax", "xlog1py", "xlogy", "zeta", "boxcox", "boxcox1p", "comb",
           "bernoulli", "exp1", "expi"] + _extra.__all__ + _hyper.__all__


def _c(x, v):
    """``v`` as a constant of ``x``'s dtype: a Python scalar for a weakly typed scalar
    ``x`` (so the result stays weak), else a NumPy array (it does not promote)."""
    a = aval(x)
    if a.weak_type and not a.shape and a.dtype.kind == "f":
        return float(v)
    return np.array(v, a.dtype)


def _is_complex(x) -> bool:
    return aval(x).dtype.kind == "c"


# ---------------------------------------------------------------------------------------
# Gamma family

def gammaln(x):
    """log |Gamma(x)|.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array
        Of ``x``'s inexact dtype; +inf at the poles.
    """
    x, = promote_args_inexact("gammaln", x)
    return lax.lgamma(x)


@jit
def gammasgn(x):
    """The sign of Gamma(x): +1 or -1, NaN at the negative integers and NaN."""
    x, = promote_args_inexact("gammasgn", x)
    if _is_complex(x):
        raise ValueError("gammasgn does not support complex-valued inputs.")
    typ = aval(x).dtype.type
    floor_x = lax.floor(x)
    neg = x < 0
    return jnp.select([(neg & (x == floor_x)) | jnp.isnan(x),
                       (neg & (floor_x % 2 != 0)) | ((x == 0) & jnp.signbit(x))],
                      [typ(np.nan), typ(-1.0)], typ(1.0))


def loggamma(x):
    """log Gamma(x) for real ``x``: NaN where ``x <= 0``."""
    x, = promote_args_inexact("loggamma", x)
    if _is_complex(x):
        raise NotImplementedError("loggamma of complex values is not supported")
    return jnp.where(x > 0, lax.lgamma(x), jnp.nan)


def gamma(x):
    """Gamma(x) = gammasgn(x) exp(lgamma(x))."""
    x, = promote_args_inexact("gamma", x)
    if _is_complex(x):
        raise NotImplementedError("gamma of complex values is not supported")
    return gammasgn(x) * lax.exp(lax.lgamma(x))


def factorial(n, exact: bool = False):
    """n! = Gamma(n + 1) for ``n >= 0``, 0 for negative ``n``; ``exact`` is not supported
    (JAX's ``NotImplementedError``)."""
    if exact:
        raise NotImplementedError("factorial with exact=True")
    n, = promote_args_inexact("factorial", n)
    return jnp.where(n < 0, 0, lax.exp(lax.lgamma(n + 1)))


def digamma(x):
    """psi(x), the derivative of log Gamma."""
    x, = promote_args_inexact("digamma", x)
    return lax.digamma(x)


def polygamma(n, x):
    """The ``n``-th derivative of digamma; ``n`` must have an integer dtype."""
    n_dt = aval(n).dtype if hasattr(n, "dtype") or not isinstance(n, (int, float)) \
        else np.dtype(type(n))
    if n_dt.kind not in "iu":
        raise ValueError("Argument `n` to polygamma must be of integer type. Got dtype "
                         f"{jnp.result_type(n)}.")
    n, x = promote_args_inexact("polygamma", n, x)
    if _is_complex(x):
        raise ValueError("polygamma does not support complex-valued inputs.")
    return lax.polygamma(n, x)


def _stirling_tail(x):
    """log Gamma(x) - ((x - 1/2) log x - x + log(2 pi)/2) for x >= 8 (Stirling)."""
    t = 1 / (x * x)
    s = 1 / 1188
    for c in (-1 / 1680, 1 / 1260, -1 / 360, 1 / 12):
        s = s * t + c
    return s / x


def betaln(a, b):
    """log |B(a, b)|; for ``max(a, b) >= 8`` lgamma(b) - lgamma(a + b) is taken from
    Stirling's series, which keeps its accuracy when both are large."""
    a, b = promote_args_inexact("betaln", a, b)
    a, b = jnp.minimum(a, b), jnp.maximum(a, b)
    small_b = lax.lgamma(a) + (lax.lgamma(b) - lax.lgamma(a + b))
    b8 = jnp.maximum(b, 8.0)
    ab = a + b8
    diff = (_stirling_tail(b8) - _stirling_tail(ab) - (ab - 0.5) * jnp.log1p(a / b8)
            - a * (jnp.log(b8) - 1.0))
    return jnp.where(b < 8, small_b, lax.lgamma(a) + diff)


def beta(a, b):
    """B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b)."""
    a, b = promote_args_inexact("beta", a, b)
    if _is_complex(a):
        raise ValueError("beta does not support complex-valued inputs.")
    sign = gammasgn(a) * gammasgn(b) * gammasgn(a + b)
    return sign * lax.exp(betaln(a, b))


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    a, b, x = promote_args_inexact("betainc", a, b, x)
    if _is_complex(x):
        raise ValueError("betainc does not support complex-valued inputs.")
    return lax.betainc(a, b, x)


def gammainc(a, x):
    """The regularized lower incomplete gamma function P(a, x)."""
    a, x = promote_args_inexact("gammainc", a, x)
    return lax.igamma(a, x)


def gammaincc(a, x):
    """The regularized upper incomplete gamma function Q(a, x)."""
    a, x = promote_args_inexact("gammaincc", a, x)
    return lax.igammac(a, x)


def comb(N, k, *, repetition: bool = False):  # noqa: N803  (SciPy's name)
    """The binomial coefficient N choose k through lgamma (0 outside 0 <= k <= N);
    with ``repetition``, combinations with repetition C(N + k - 1, k)."""
    N, k = promote_args_inexact("comb", N, k)
    if repetition:
        return jnp.where((k == 0) & (N >= 0), 1.0, comb(N + k - 1, k, repetition=False))
    ok = (k <= N) & (N >= 0) & (k >= 0)
    n_ok, k_ok = jnp.where(ok, N, 0.0), jnp.where(ok, k, 0.0)
    out = lax.exp(gammaln(n_ok + 1) - gammaln(k_ok + 1) - gammaln(n_ok + 1 - k_ok))
    return jnp.where(ok, out, 0.0)


def bernoulli(n):
    """The Bernoulli numbers B_0 .. B_n (``n`` a concrete non-negative int), B_1 = -1/2.

    The even ones from B_m = (-1)^(m/2+1) 2 m! zeta(m) / (2 pi)^m, the ratio m!/(2 pi)^m
    built as a running product and zeta(m) summed to 50 terms (2^-50 < 1e-15).
    """
    n = operator.index(concrete_or_error(n, "Argument n of bernoulli"))
    if n < 0:
        raise ValueError("n must be a non-negative integer.")
    first = jnp.array([1, -1 / 2, 1 / 6])
    if n < 3:
        return first[:n + 1]
    out = jnp.zeros(n + 1).at[:3].set(first)
    m = jnp.arange(4, n + 1, 2, dtype=out.dtype)
    ratio = (1. / np.pi ** 2) * jnp.cumprod(-(m - 1) * m / 4 / np.pi ** 2)
    k = jnp.arange(2, 50, dtype=out.dtype)
    zeta_tail = jnp.sum(k[:, None] ** -m[None, :], axis=0)
    return out.at[4::2].set(ratio * (1 + zeta_tail))


def multigammaln(a, d):
    """The log of the multivariate gamma function of dimension ``d`` (a concrete int)."""
    d = operator.index(concrete_or_error(d, "d argument of multigammaln"))
    a, d_ = promote_args_inexact("multigammaln", a, d)
    constant = lax.mul(lax.mul(lax.mul(_c(a, 0.25), d_), lax.sub(d_, _c(a, 1))),
                       lax.log(_c(a, np.pi)))
    b = lax.div(jnp.arange(d, dtype=aval(d_).dtype), _c(a, 2))
    res = jnp.sum(gammaln(jnp.expand_dims(a, axis=-1) -
                          jnp.expand_dims(b, axis=tuple(range(aval(a).ndim)))), axis=-1)
    return res + constant


@custom_jvp
def poch(z, m):
    """The Pochhammer symbol (z)_m = Gamma(z + m) / Gamma(z); 1 where ``m == 0``."""
    z, m = promote_args_inexact("poch", z, m)
    if _is_complex(z):
        raise ValueError("jnp.poch does not support complex-valued inputs.")
    return jnp.where(m == 0., jnp.array(1, dtype=aval(z).dtype), gamma(z + m) / gamma(z))


poch.defjvps(lambda g, ans, z, m: (digamma(z + m) - digamma(z)) * poch(z, m) * g,
             lambda g, ans, z, m: digamma(z + m) * poch(z, m) * g)


@custom_jvp
def zeta(x, q=None):
    """The Hurwitz zeta function sum over k >= 0 of (q + k)^-x (``q`` is required)."""
    if q is None:
        raise NotImplementedError("Riemann zeta function not implemented; pass q != None "
                                  "to compute the Hurwitz Zeta function.")
    x, q = promote_args_inexact("zeta", x, q)
    return lax.zeta(x, q)


def _zeta_series(x, q):
    """zeta(x, q) by Euler-Maclaurin written with jnp operations, so that it can be
    differentiated in both arguments (the primitive has no derivative rule)."""
    s, a = promote_args_inexact("zeta", x, q)
    dt = aval(a).dtype
    n = 8 if dt == np.float32 else 12
    s_, a_ = jnp.expand_dims(s, -1), jnp.expand_dims(a, -1)
    k = jnp.expand_dims(np.arange(n, dtype=dt), tuple(range(aval(a).ndim)))
    head = jnp.sum((a_ + k) ** -s_, -1)
    an = a + _c(a, n)
    integral = lax.div(an ** (_c(s, 1) - s), s - _c(s, 1))
    t0 = an ** -s
    m = jnp.expand_dims(np.arange(2 * n, dtype=dt), tuple(range(aval(s).ndim)))
    ratios = jnp.cumprod((s_ + m) / jnp.expand_dims(an, -1), -1)[..., ::2]
    ratios = jnp.clip(ratios, max=np.finfo(dt).max)
    coefs = np.array(ZETA_TERMS[:n], dt)
    return head + integral + t0 * (_c(s, 0.5) + jnp.sum(ratios * coefs, -1))


@zeta.defjvp
def _zeta_jvp(primals, tangents):
    return jvp(_zeta_series, primals, tangents)


# ---------------------------------------------------------------------------------------
# Error function, logistic

def erf(x):
    """The error function."""
    x, = promote_args_inexact("erf", x)
    return lax.erf(x)


def erfc(x):
    """The complementary error function 1 - erf(x)."""
    x, = promote_args_inexact("erfc", x)
    return lax.erfc(x)


def erfinv(x):
    """The inverse error function."""
    x, = promote_args_inexact("erfinv", x)
    return lax.erf_inv(x)


@custom_jvp
def logit(x):
    """log(x / (1 - x)), the inverse of ``expit``."""
    x, = promote_args_inexact("logit", x)
    return lax.log(lax.div(x, lax.sub(_c(x, 1), x)))


logit.defjvps(lambda g, ans, x: lax.div(g, lax.mul(x, lax.sub(_c(x, 1), x))))


def expit(x):
    """The logistic sigmoid 1 / (1 + exp(-x))."""
    x, = promote_args_inexact("expit", x)
    return lax.logistic(x)


# ---------------------------------------------------------------------------------------
# x log y, entropies

@custom_jvp
def xlogy(x, y):
    """x log(y), 0 where ``x == 0`` (unless ``y`` is NaN)."""
    x, y = promote_args_inexact("xlogy", x, y)
    x_ok = x != 0.
    return jnp.where(x_ok | jnp.isnan(y), lax.mul(x, lax.log(y)), jnp.zeros_like(x))


@xlogy.defjvp
def _xlogy_jvp(primals, tangents):
    (x, y), (x_dot, y_dot) = primals, tangents
    result = xlogy(x, y)
    return result, (x_dot * lax.log(y) + y_dot * x / y).astype(aval(result).dtype)


@custom_jvp
def xlog1py(x, y):
    """x log(1 + y), 0 where ``x == 0`` (unless ``y`` is NaN)."""
    x, y = promote_args_inexact("xlog1py", x, y)
    x_ok = x != 0.
    return jnp.where(x_ok | jnp.isnan(y), lax.mul(x, lax.log1p(y)), jnp.zeros_like(x))


@xlog1py.defjvp
def _xlog1py_jvp(primals, tangents):
    (x, y), (x_dot, y_dot) = primals, tangents
    result = xlog1py(x, y)
    return result, (x_dot * lax.log1p(y) + y_dot * x / (1 + y)).astype(aval(result).dtype)


@custom_jvp
def _xlogx(x):
    return xlogy(x, x)


@_xlogx.defjvp
def _xlogx_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    return _xlogx(x), x_dot * (lax.log(x) + 1)


def entr(x):
    """-x log(x) for ``x >= 0`` (0 at 0), -inf for ``x < 0``."""
    x, = promote_args_inexact("entr", x)
    if _is_complex(x):
        raise ValueError("entr does not support complex-valued inputs.")
    return lax.select(lax.lt(x, _c(x, 0)), lax.full_like(x, -np.inf), lax.neg(_xlogx(x)))


def rel_entr(p, q):
    """p log(p / q) for ``p > 0, q > 0``; 0 where ``p == 0, q >= 0``; +inf otherwise."""
    p, q = promote_args_inexact("rel_entr", p, q)
    if _is_complex(p):
        raise ValueError("rel_entr does not support complex-valued inputs.")
    zero = _c(p, 0.0)
    both_gt_zero_mask = lax.bitwise_and(lax.gt(p, zero), lax.gt(q, zero))
    one_zero_mask = lax.bitwise_and(lax.eq(p, zero), lax.ge(q, zero))
    safe_p = jnp.where(both_gt_zero_mask, p, 1)
    safe_q = jnp.where(both_gt_zero_mask, q, 1)
    log_val = lax.sub(_xlogx(safe_p), xlogy(safe_p, safe_q))
    result = jnp.where(both_gt_zero_mask, log_val, jnp.where(one_zero_mask, zero, jnp.inf))
    return result


def kl_div(p, q):
    """rel_entr(p, q) - p + q."""
    p, q = promote_args_inexact("kl_div", p, q)
    if _is_complex(p):
        raise ValueError("kl_div does not support complex-valued inputs.")
    return rel_entr(p, q) - p + q


# ---------------------------------------------------------------------------------------
# Exponential integrals

_EULER = 0.57721566490153286061


def _e1_series(x):
    """E1(x) = -gamma - log x + sum_k (-1)^(k+1) x^k / (k k!), for 0 < x <= 1."""
    def body(k, carry):
        term, total = carry
        term = term * -x / k
        return term, total - term / k
    _, total = lax.fori_loop(1, 26, body, (jnp.ones_like(x), jnp.zeros_like(x)))
    return -_c(x, _EULER) - jnp.log(x) + total


def _e1_fraction(x):
    """E1(x) = e^-x / (x + 1 - 1/(x + 3 - 4/(x + 5 - ...))) by Lentz's method, x > 1."""
    tiny = _c(x, np.finfo(aval(x).dtype).tiny * 1e10)
    b = x + 1
    d = 1 / b

    def body(i, carry):
        b, c, d, h = carry
        an = -(i * i)
        b = b + 2
        d = 1 / (an * d + b)
        c = b + an / c
        return b, c, d, h * (c * d)
    _, _, _, h = lax.fori_loop(1, 80, body, (b, 1 / tiny + 0 * x, d, d))
    return h * jnp.exp(-x)


@custom_jvp
def exp1(x):
    """The exponential integral E1(x) = integral from x to inf of e^-t / t dt, x >= 0
    (inf at 0; NaN below 0 and at +inf, as JAX)."""
    x, = promote_args_inexact("exp1", x)
    if _is_complex(x):
        raise ValueError("exp1 does not support complex-valued inputs.")
    small = x <= 1
    safe_s = jnp.where(small & (x > 0), x, _c(x, 0.5))
    safe_l = jnp.where(small, _c(x, 2), jnp.minimum(x, _c(x, 1e30)))
    out = jnp.where(small, _e1_series(safe_s), _e1_fraction(safe_l))
    out = jnp.where(x == 0, np.inf, out)
    # NaN at +inf too, and never weakly typed, as JAX's (its expn is a vectorized jit)
    out = jnp.where((x < 0) | jnp.isnan(x) | (x == np.inf), np.nan, out)
    return lax.convert_element_type(out, aval(out).dtype)


exp1.defjvps(lambda g, ans, x: -jnp.exp(-x) / x * g)


def _ei_series(x):
    """Ei(x) = gamma + log x + sum_k x^k / (k k!), 0 < x <= 40 (positive terms)."""
    def body(k, carry):
        term, total = carry
        term = term * x / k
        return term, total + term / k
    _, total = lax.fori_loop(1, 121, body, (jnp.ones_like(x), jnp.zeros_like(x)))
    return _c(x, _EULER) + jnp.log(x) + total


def _ei_asymptotic(x):
    """Ei(x) ~ e^x / x sum_k k! / x^k, x > 40."""
    def body(k, carry):
        term, total = carry
        term = term * k / x
        return term, total + term
    _, total = lax.fori_loop(1, 31, body, (jnp.ones_like(x), jnp.ones_like(x)))
    return jnp.exp(x) / x * total


@custom_jvp
def expi(x):
    """The exponential integral Ei(x) (principal value), -E1(-x) for x < 0; NaN at 0
    (as JAX)."""
    x, = promote_args_inexact("expi", x)
    if _is_complex(x):
        raise ValueError("expi does not support complex-valued inputs.")
    mid = (x > 0) & (x <= 40)
    pos = jnp.where(mid, _ei_series(jnp.where(mid, x, _c(x, 1))),
                    _ei_asymptotic(jnp.where(x > 40, x, _c(x, 50))))
    out = jnp.where(x < 0, -exp1(-x), pos)
    # NaN at 0 and never weakly typed, as JAX's
    out = jnp.where(jnp.isnan(x) | (x == 0), np.nan, out)
    return lax.convert_element_type(out, aval(out).dtype)


expi.defjvps(lambda g, ans, x: jnp.exp(x) / x * g)


# ---------------------------------------------------------------------------------------
# Bessel functions

def i0e(x):
    """exp(-|x|) I0(x)."""
    x, = promote_args_inexact("i0e", x)
    return lax.bessel_i0e(x)


def i1e(x):
    """exp(-|x|) I1(x)."""
    x, = promote_args_inexact("i1e", x)
    return lax.bessel_i1e(x)


def i0(x):
    """The modified Bessel function of order 0, I0(x) = exp(|x|) i0e(x)."""
    x, = promote_args_inexact("i0", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i0e(x))


def i1(x):
    """The modified Bessel function of order 1, I1(x) = exp(|x|) i1e(x)."""
    x, = promote_args_inexact("i1", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i1e(x))


# ---------------------------------------------------------------------------------------
# Box-Cox transforms

def boxcox(x, lmbda):
    """(x^lmbda - 1) / lmbda, log(x) at ``lmbda == 0``."""
    x, lmbda = promote_args_inexact("boxcox", x, lmbda)
    zero = lmbda == 0
    safe = jnp.where(zero, jnp.ones_like(lmbda), lmbda)
    log_x = jnp.log(x)
    return jnp.where(zero, log_x, jnp.expm1(safe * log_x) / safe)


def boxcox1p(x, lmbda):
    """boxcox(1 + x, lmbda), accurate for small ``x``."""
    x, lmbda = promote_args_inexact("boxcox1p", x, lmbda)
    zero = lmbda == 0
    safe = jnp.where(zero, jnp.ones_like(lmbda), lmbda)
    log1p_x = jnp.log1p(x)
    return jnp.where(zero, log1p_x, jnp.expm1(safe * log1p_x) / safe)


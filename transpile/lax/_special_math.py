"""Float64 NumPy evaluation of the special functions of ``lax/special.py``.

Every function takes and returns float64 arrays (the primitives round the result to the
operand dtype once). ``runtime/tp_special.h`` repeats each algorithm in C, step for
step, so the compiled and the eager results agree to a few float64 ulp (float32 results
round to the same value all but always). The algorithms are the textbook ones:

* ``lgamma``: Lanczos' approximation (g = 7, nine terms), the reflection formula below
  1/2 with ``sin(pi x)`` taken on ``x - round(x)``.
* ``digamma``: reflection below 1/2, the recurrence up to 10, then the asymptotic series.
* ``zeta`` (Hurwitz): ten terms summed, then the Euler-Maclaurin tail with twelve
  Bernoulli terms; the domain rules (poles, NaN) are JAX's.
* ``igamma``/``igammac`` and the derivative in ``a``: the power series of ``P`` for
  ``x < max(1, a)``, the continued fraction of ``Q`` beyond; derivatives carried along
  the same recurrences (forward mode), as JAX's expansion does.
* ``betainc``: the continued fraction of DLMF 8.17.22 by Lentz's method, on the side of
  ``x`` where it converges quickly (the symmetry 8.17.4 otherwise).
* ``i0e``/``i1e``: the power series up to |x| = 30, Hankel's asymptotic series beyond.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["lgamma", "digamma", "zeta", "polygamma", "igamma", "igammac", "igamma_grad_a",
           "random_gamma_grad", "betainc", "i0e", "i1e", "LANCZOS", "LANCZOS_G",
           "ZETA_TERMS", "BESSEL_SERIES_MAX"]

_EPS = np.finfo(np.float64).eps
_LOG_MAX = math.log(np.finfo(np.float64).max)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)

#: Lanczos' coefficients for g = 7, nine terms (relative error about 1e-15).
LANCZOS_G = 7.0
LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028,
           771.32342877765313, -176.61502916214059, 12.507343278686905,
           -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7)

#: B_{2k} / (2k)! for k = 1..12: the Euler-Maclaurin tail of zeta.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330, 854513 / 138, -236364091 / 2730)
ZETA_TERMS = tuple(b / math.factorial(2 * k + 2) for k, b in enumerate(_BERNOULLI))
#: B_{2k} / (2k) for k = 1..7: digamma's asymptotic series.
_DIGAMMA_TERMS = tuple(b / (2 * k + 2) for k, b in enumerate(_BERNOULLI[:7]))
#: below this |x| the Bessel functions are summed as power series
BESSEL_SERIES_MAX = 30.0


def _f64(x):
    return np.asarray(x, np.float64)


def _sinpi_abs(x):
    """|sin(pi x)|, exact at the integers: the argument is reduced to [-1/2, 1/2]."""
    return np.abs(np.sin(math.pi * (x - np.round(x))))


def _tanpi(x):
    """tan(pi x) on the reduced argument (exactly zero at the integers)."""
    return np.tan(math.pi * (x - np.round(x)))


def _lgamma_pos(x):
    """log Gamma(x) for x >= 1/2 (Lanczos)."""
    z = x - 1
    s = np.full_like(z, LANCZOS[0])
    for i in range(1, len(LANCZOS)):
        s = s + LANCZOS[i] / (z + i)
    t = z + (LANCZOS_G + 0.5)
    return _HALF_LOG_2PI + (z + 0.5) * np.log(t) - t + np.log(s)


def lgamma(x):
    """log |Gamma(x)|: +inf at the poles and at either infinity."""
    x = _f64(x)
    with np.errstate(all="ignore"):
        small = x < 0.5
        pos = _lgamma_pos(np.where(small, 1 - x, x))
        refl = math.log(math.pi) - np.log(_sinpi_abs(x)) - pos
        out = np.where(small, refl, pos)
        out = np.where((x == 1) | (x == 2), 0.0, out)
        out = np.where(np.isinf(x) | ((x <= 0) & (x == np.floor(x))), np.inf, out)
    return np.where(np.isnan(x), x, out)


def _digamma_pos(x):
    """psi(x) for x >= 1/2: recurrence up to 10, then the asymptotic series."""
    acc = np.zeros_like(x)
    for _ in range(10):
        m = x < 10
        acc = acc - np.where(m, 1 / x, 0.0)
        x = np.where(m, x + 1, x)
    w = 1 / (x * x)
    tail = np.zeros_like(x)
    for c in reversed(_DIGAMMA_TERMS):
        tail = (tail + c) * w
    return acc + np.log(x) - 0.5 / x - tail


def digamma(x):
    """psi(x): NaN at the poles and at -inf."""
    x = _f64(x)
    with np.errstate(all="ignore"):
        small = x < 0.5
        pos = _digamma_pos(np.where(small, 1 - x, x))
        out = np.where(small, pos - math.pi / _tanpi(x), pos)
        out = np.where((x <= 0) & (x == np.floor(x)), np.nan, out)
        out = np.where(x == np.inf, np.inf, out)
    return np.where(np.isnan(x), x, out)


def zeta(s, q):
    """Hurwitz zeta(s, q) = sum over k >= 0 of (q + k)^-s."""
    s, q = np.broadcast_arrays(_f64(s), _f64(q))
    with np.errstate(all="ignore"):
        head = np.zeros_like(s)
        a = q
        for _ in range(10):
            head = head + np.power(a, -s)
            a = a + 1
        p = np.power(a, -s)             # (q + 10)^-s
        w = 1 / (a * a)
        # sum_k B_2k/(2k)! s (s+1) ... (s+2k-2) a^(1-2k): Horner from the last term
        tail = np.zeros_like(s)
        for k in range(len(ZETA_TERMS) - 1, -1, -1):
            tail = ZETA_TERMS[k] + (s + (2 * k + 1)) * (s + (2 * k + 2)) * w * tail
        tail = tail * s / a
        out = head + p * a / (s - 1) + p * (0.5 + tail)
        out = np.where(np.abs(p) < np.abs(head) * _EPS, head, out)
        out = np.where(s < 1, np.nan, out)
        q_le0 = q <= 0
        s_int = s == np.floor(s)
        out = np.where(q_le0 & ~s_int, np.nan, out)
        even = s_int & (np.fmod(s, 2) == 0)
        out = np.where(q_le0 & (q == np.floor(q)), np.where(even, np.inf, np.nan), out)
        out = np.where(np.isnan(s) | np.isnan(q), np.nan, out)
    return np.where(s == 1, np.inf, out)    # even with q NaN, as JAX


def polygamma(n, x):
    """psi^(n)(x) for integer n >= 0 (NaN for any other n)."""
    n, x = np.broadcast_arrays(_f64(n), _f64(x))
    with np.errstate(all="ignore"):
        sign = np.where(np.fmod(n, 2) == 0, -1.0, 1.0)     # (-1)^(n+1)
        nz = sign * np.exp(lgamma(n + 1)) * zeta(n + 1, x)
        out = np.where(n == 0, digamma(x), nz)
    return np.where((n != np.floor(n)) | (n < 0) | np.isnan(n), np.nan, out)


# ---------------------------------------------------------------------------------------
# Incomplete gamma: P(a, x), Q(a, x), dP/da and the derivative of a Gamma(a) sample

_VALUE, _DERIVATIVE, _SAMPLE = 0, 1, 2
_MAX_TERMS = 2000


def _series(a, x, enabled, mode):
    """sum_n x^n / (a+1)...(a+n) and its derivative in a, where ``enabled``."""
    r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)
    dc, dans = np.zeros_like(a), np.zeros_like(a)
    live = enabled.copy()
    for _ in range(_MAX_TERMS):
        if not live.any():
            break
        r1 = r + 1
        dc1 = dc * (x / r1) - (c * x) / (r1 * r1)
        c1 = c * (x / r1)
        r, c = np.where(live, r1, r), np.where(live, c1, c)
        dc, ans, dans = np.where(live, dc1, dc), np.where(live, ans + c1, ans), \
            np.where(live, dans + dc1, dans)
        test = c / ans if mode == _VALUE else np.abs(dc / dans)
        live = live & (test > _EPS)
    return ans, dans


def _continued_fraction(a, x, enabled, mode):
    """Q(a, x) exp(-ax) as a continued fraction, and its derivative in a."""
    y = 1 - a
    z = x + y + 1
    pkm2, qkm2, pkm1, qkm1 = np.ones_like(x), x, x + 1, z * x
    ans = pkm1 / qkm1
    dpkm2, dqkm2, dpkm1, dqkm1 = (np.zeros_like(x), np.zeros_like(x), np.zeros_like(x), -x)
    dans = (dpkm1 - ans * dqkm1) / qkm1
    live = enabled.copy()
    for c in range(1, _MAX_TERMS + 1):
        if not live.any():
            break
        y1, z1 = y + 1, z + 2
        yc = y1 * c
        pk = pkm1 * z1 - pkm2 * yc
        qk = qkm1 * z1 - qkm2 * yc
        nz = qk != 0
        r = pk / np.where(nz, qk, 1)
        t = np.where(nz, np.abs((ans - r) / r), 1.0)
        ans1 = np.where(nz, r, ans)
        dpk = dpkm1 * z1 - pkm1 - dpkm2 * yc + pkm2 * c
        dqk = dqkm1 * z1 - qkm1 - dqkm2 * yc + qkm2 * c
        dans1 = np.where(nz, (dpk - ans1 * dqk) / np.where(nz, qk, 1), dans)
        dt = np.where(nz, np.abs(dans1 - dans), 1.0)
        scale = np.where(np.abs(pk) > 1 / _EPS, _EPS, 1.0)
        new = (pkm1 * scale, pk * scale, qkm1 * scale, qk * scale,
               dpkm1 * scale, dpk * scale, dqkm1 * scale, dqk * scale)
        old = (pkm2, pkm1, qkm2, qkm1, dpkm2, dpkm1, dqkm2, dqkm1)
        pkm2, pkm1, qkm2, qkm1, dpkm2, dpkm1, dqkm2, dqkm1 = (
            np.where(live, n, o) for n, o in zip(new, old, strict=True))
        y, z = np.where(live, y1, y), np.where(live, z1, z)
        ans, dans = np.where(live, ans1, ans), np.where(live, dans1, dans)
        live = live & ((t if mode == _VALUE else dt) > _EPS)
    return ans, dans


def _igamma_parts(a, x):
    a, x = np.broadcast_arrays(_f64(a), _f64(x))
    a, x = a.copy(), x.copy()
    with np.errstate(all="ignore"):
        log_ax = a * np.log(x) - x - lgamma(a)
    return a, x, log_ax, log_ax < -_LOG_MAX


def igamma(a, x):
    """The regularized lower incomplete gamma function P(a, x)."""
    a, x, log_ax, underflow = _igamma_parts(a, x)
    with np.errstate(all="ignore"):
        nan = np.isnan(a) | np.isnan(x)
        domain = (x < 0) | (a < 0) | ((a == 0) & (x == 0)) | nan
        cf = (x >= 1) & (x > a)
        enabled = ~((x == 0) | domain | underflow | (x == np.inf))
        ax = np.exp(log_ax)
        s, _ = _series(a, x, enabled & ~cf, _VALUE)
        f, _ = _continued_fraction(a, x, enabled & cf, _VALUE)
        out = np.where(cf, 1 - f * ax, s * ax / a)
        out = np.where(x == 0, 0.0, out)
        out = np.where(x == np.inf, 1.0, out)
    return np.where(domain, np.nan, out)


def igammac(a, x):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    a, x, log_ax, underflow = _igamma_parts(a, x)
    with np.errstate(all="ignore"):
        nan = np.isnan(a) | np.isnan(x)
        domain = (x < 0) | (a < 0) | ((a == 0) & (x == 0)) | nan
        series = (x < 1) | (x < a)
        enabled = ~(domain | underflow | (x == np.inf) | (a == 0))
        ax = np.exp(log_ax)
        s, _ = _series(a, x, enabled & series, _VALUE)
        f, _ = _continued_fraction(a, x, enabled & ~series, _VALUE)
        out = np.where(series, 1 - s * ax / a, f * ax)
        out = np.where((x == np.inf) | (a == 0), 0.0, out)
    return np.where(domain, np.nan, out)


def _igamma_derivative(a, x, mode):
    a, x, log_ax, underflow = _igamma_parts(a, x)
    with np.errstate(all="ignore"):
        nan = np.isnan(a) | np.isnan(x)
        domain = (x < 0) | (a <= 0)
        cf = (x > 1) & (x > a)
        enabled = ~((x == 0) | domain | underflow | nan)
        ax = np.exp(log_ax)
        s, ds = _series(a, x, enabled & ~cf, mode)
        f, df = _continued_fraction(a, x, enabled & cf, mode)
        dlog_s = np.log(x) - digamma(a + 1)
        dlog_f = np.log(x) - digamma(a)
        if mode == _DERIVATIVE:
            out = np.where(cf, -(ax * (f * dlog_f + df)), ax * (s * dlog_s + ds) / a)
        else:
            out = np.where(cf, (df + f * dlog_f) * x, -(ds + s * dlog_s) * x / a)
        out = np.where(x == 0, 0.0, out)
    return np.where(domain | nan, np.nan, out)


def igamma_grad_a(a, x):
    """dP(a, x)/da."""
    return _igamma_derivative(a, x, _DERIVATIVE)


def random_gamma_grad(a, x):
    """d x / d a for a sample ``x`` of Gamma(a, 1) held at a fixed quantile:
    -(dP/da) / (dP/dx), written without the prefactor exp(-x) x^a / Gamma(a)."""
    return _igamma_derivative(a, x, _SAMPLE)


# ---------------------------------------------------------------------------------------
# Regularized incomplete beta

def betainc(a, b, x):
    """I_x(a, b) by the continued fraction of DLMF 8.17.22 (Lentz's method)."""
    a, b, x = (v.copy() for v in np.broadcast_arrays(_f64(a), _f64(b), _f64(x)))
    with np.errstate(all="ignore"):
        a_zero = (a == 0) | (b == np.inf)
        b_zero = (b == 0) | (a == np.inf)
        nan = np.isnan(a) | np.isnan(b) | np.isnan(x)
        is_zero = (b_zero & (x != 1)) | (a_zero & (x == 0))
        is_one = (a_zero & (x != 0)) | (b_zero & (x == 1))
        is_nan = (a < 0) | (b < 0) | (x < 0) | (x > 1) | (a_zero & b_zero) | nan
        fast = x < (a + 1) / (a + b + 2)
        a, b, x = np.where(fast, a, b), np.where(fast, b, a), np.where(fast, x, 1 - x)
        tiny = _EPS / 2
        # Lentz: h = b0 + a1/(b1 + a2/(b2 + ...)), b0 = 0, b_n = 1, a_1 = 1
        h = np.full_like(x, tiny)
        c, d = h.copy(), np.zeros_like(x)
        live = np.ones(x.shape, bool)
        for n in range(1, 601):
            m = (n - 1) // 2
            if n == 1:
                num = np.ones_like(x)
            elif n % 2 == 0:
                num = -(a + b) * x / (a + 1) if m == 0 else \
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            else:
                num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            c1 = 1 + num / c
            c1 = np.where(np.abs(c1) < tiny, tiny, c1)
            d1 = 1 + num * d
            d1 = 1 / np.where(np.abs(d1) < tiny, tiny, d1)
            delta = c1 * d1
            c, d, h = np.where(live, c1, c), np.where(live, d1, d), \
                np.where(live, h * delta, h)
            live = live & (np.abs(delta - 1) >= tiny)
            if not live.any():
                break
        lb_small = lgamma(b) - lgamma(a + b)
        factor = np.where(a < 2 * np.finfo(np.float64).tiny,
                          np.exp(np.log1p(-x) * b - lb_small),
                          np.exp(np.log(x) * a + np.log1p(-x) * b - (lgamma(a) + lb_small)) / a)
        out = h * factor
        out = np.where(fast, out, 1 - out)
        out = np.where(is_zero, 0.0, out)
        out = np.where(is_one, 1.0, out)
    return np.where(is_nan, np.nan, out)


# ---------------------------------------------------------------------------------------
# Exponentially scaled modified Bessel functions of order 0 and 1

def _bessel_e(x, order):
    """exp(-|x|) I_order(|x|) for order 0 or 1."""
    ax = np.abs(_f64(x))
    with np.errstate(all="ignore"):
        # power series: (x/2)^order sum_k (x^2/4)^k / (k! (k+order)!)
        xs = np.minimum(ax, BESSEL_SERIES_MAX)
        q = xs * xs / 4
        term = np.ones_like(xs)
        total = np.ones_like(xs)
        for k in range(1, 64):
            term = term * q / (k * (k + order))
            total = total + term
        series = total * np.exp(-xs) * (xs / 2 if order else 1.0)
        # Hankel: (2 pi x)^-1/2 sum_k (-1)^k prod_{j<=k} (4 order^2 - (2j-1)^2) / (k! (8x)^k)
        xl = np.maximum(ax, BESSEL_SERIES_MAX)
        term = np.ones_like(xl)
        total = np.ones_like(xl)
        mu = 4.0 * order * order
        for k in range(1, 26):
            term = term * -(mu - (2 * k - 1) ** 2) / (k * 8 * xl)
            total = total + term
        asym = total / np.sqrt(2 * math.pi * xl)
        out = np.where(ax <= BESSEL_SERIES_MAX, series, asym)
        out = np.where(ax == np.inf, 0.0, out)
    return np.where(np.isnan(ax), ax, out)


def i0e(x):
    """exp(-|x|) I0(x)."""
    return _bessel_e(x, 0)


def i1e(x):
    """exp(-|x|) I1(x) (odd in x)."""
    x = _f64(x)
    return np.copysign(_bessel_e(x, 1), x)

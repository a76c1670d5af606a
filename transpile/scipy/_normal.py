"""The standard normal distribution's ``ndtr`` (its CDF), ``log_ndtr`` and ``ndtri``
(its quantile function), as ``jax.scipy.special`` has them: float32 and float64 only
(JAX's ``TypeError`` for other dtypes).

``ndtri`` starts from Abramowitz and Stegun's rational approximation 26.2.23 (absolute
error below 4.5e-4) on the smaller tail probability and refines it with Newton steps on
``log_ndtr``, which keeps full relative accuracy far into the tails.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..custom_derivatives import custom_jvp
from ..numpy._util import aval

__all__ = ["ndtr", "log_ndtr", "ndtri"]

#: below/above these (float32, float64) log_ndtr uses its asymptotic series / -ndtr(-x)
_LOWER = {np.dtype(np.float32): -10.0, np.dtype(np.float64): -20.0}
_UPPER = {np.dtype(np.float32): 5.0, np.dtype(np.float64): 8.0}


def _float_dtype(x) -> np.dtype:
    dt = aval(x).dtype
    if dt not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={dt} is not supported, see docstring for supported types.")
    return dt


def _c(dt, v):
    return np.array(v, dt)


def _ndtr(x):
    dt = aval(x).dtype
    half_sqrt_2 = _c(dt, 0.5 * math.sqrt(2.0))
    w = x * half_sqrt_2
    z = lax.abs(w)
    y = lax.select(lax.lt(z, half_sqrt_2), _c(dt, 1.0) + lax.erf(w),
                   lax.select(lax.gt(w, _c(dt, 0.0)), _c(dt, 2.0) - lax.erfc(z),
                              lax.erfc(z)))
    return _c(dt, 0.5) * y


def ndtr(x):
    """The standard normal CDF: the area under the density from -inf to ``x``.

    Parameters
    ----------
    x : array_like
        float32 or float64.

    Returns
    -------
    Array
    """
    x = jnp.asarray(x)
    _float_dtype(x)
    return _ndtr(x)


def _double_factorial(n: int) -> int:
    return math.prod(range(n, 0, -2))


def _log_ndtr_lower(x, series_order: int):
    """log ndtr(x) for x far below 0: -x^2/2 - log(-x) - log(2 pi)/2 + log(series)."""
    dt = aval(x).dtype
    x_2 = lax.square(x)
    log_scale = -_c(dt, 0.5) * x_2 - lax.log(-x) - _c(dt, 0.5 * np.log(2. * np.pi))
    # 1 + sum_n (-1)^n (2n-1)!! / x^(2n)
    even, odd = jnp.zeros_like(x), jnp.zeros_like(x)
    x_2n = x_2
    for n in range(1, series_order + 1):
        y = _c(dt, _double_factorial(2 * n - 1)) / x_2n
        if n % 2:
            odd = odd + y
        else:
            even = even + y
        x_2n = x_2n * x_2
    series = _c(dt, 1.0) + even - odd if series_order > 0 else _c(dt, 1)
    return log_scale + lax.log(series)


def log_ndtr(x, series_order: int = 3):
    """log of the standard normal CDF, accurate in both tails.

    Parameters
    ----------
    x : array_like
        float32 or float64.
    series_order : int
        Terms of the asymptotic series used below -10 (float32) / -20 (float64), 0..30.

    Returns
    -------
    Array
    """
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    return _log_ndtr_of_order(series_order)(x)


@functools.lru_cache(maxsize=None)
def _log_ndtr_of_order(series_order: int):
    """log_ndtr for one series order, a custom_jvp of ``x`` alone (JAX's log_ndtr is a
    custom_jvp with ``series_order`` as a non-differentiable argument)."""
    @custom_jvp
    def fn(x):
        x = jnp.asarray(x)
        dt = aval(x).dtype
        if dt not in (np.float32, np.float64):
            raise TypeError(f"x.dtype={dt} is not supported.")
        lower, upper = _c(dt, _LOWER[dt]), _c(dt, _UPPER[dt])
        above = lax.gt(x, upper)
        # one ndtr call for both ends; log(1 - t) ~ -t for the upper tail
        res = _ndtr(jnp.where(above, -x, lax.max(x, lower)))
        return jnp.where(above, -res,
                         jnp.where(lax.gt(x, lower), lax.log(res),
                                   _log_ndtr_lower(lax.min(x, lower), series_order)))

    @fn.defjvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        ans = fn(x)
        return ans, lax.mul(t, lax.exp(lax.sub(_norm_logpdf(x), ans)))
    return fn


def _norm_logpdf(x):
    dt = aval(x).dtype
    return -_c(dt, 0.5) * lax.square(x) - _c(dt, 0.5 * math.log(2 * math.pi))


def ndtri(p):
    """The standard normal quantile function, the inverse of ``ndtr``.

    Parameters
    ----------
    p : array_like
        Probabilities, float32 or float64; -inf at 0, inf at 1, NaN outside [0, 1].

    Returns
    -------
    Array
    """
    dt = _float_dtype(p)
    p = jnp.asarray(p)
    q = jnp.minimum(p, _c(dt, 1) - p)           # the smaller tail, exact for p > 1/2
    safe_q = jnp.where((q > 0) & (q <= 0.5), q, _c(dt, 0.25))
    log_q = lax.log(safe_q)
    t = lax.sqrt(_c(dt, -2) * log_q)
    num = _c(dt, 2.515517) + t * (_c(dt, 0.802853) + t * _c(dt, 0.010328))
    den = _c(dt, 1) + t * (_c(dt, 1.432788) + t * (_c(dt, 0.189269) + t * _c(dt, 0.001308)))
    x = num / den - t
    for _ in range(3):
        lx = log_ndtr(x)
        x = x - (lx - log_q) * lax.exp(lx - _norm_logpdf(x))
    x = jnp.where(p > 0.5, -x, x)
    x = jnp.where(p == 0, _c(dt, -np.inf), jnp.where(p == 1, _c(dt, np.inf), x))
    return jnp.where((p < 0) | (p > 1) | jnp.isnan(p), _c(dt, np.nan), x)

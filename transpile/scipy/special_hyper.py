"""``jax.scipy.special``'s hypergeometric and Bessel additions: ``hyp1f1``, ``hyp2f1``
and ``bessel_jn`` (re-exported by ``special.py``; conventions as ``special_extra.py``).
"""
from __future__ import annotations

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..numpy._util import aval
from .special_extra import _k, _loop, _real, _strong

__all__ = ["hyp1f1", "hyp2f1", "bessel_jn"]


def _hyp1f1_series(a, b, x):
    def body(k, carry):
        term, total = carry
        term = term * (a + k) / (b + k) * x / (k + 1)
        return term, total + term
    _, total = _loop(500, body, (jnp.ones_like(x), jnp.ones_like(x)))
    return total


def hyp1f1(a, b, x):
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)``.

    Parameters
    ----------
    a, b, x : array_like
        Real values (broadcast together).

    Returns
    -------
    Array
        The power series for ``x >= 0``, and ``e**x 1F1(b - a; b; -x)`` (Kummer's
        transformation, positive terms when ``b > a``) for ``x < 0``.
    """
    a, b, x = _real("hyp1f1", a, b, x)
    a, b, x = jnp.broadcast_arrays(a, b, x)
    neg = x < 0
    out = _hyp1f1_series(jnp.where(neg, b - a, a), b, jnp.abs(x))
    out = jnp.where(neg, jnp.exp(x) * out, out)
    out = jnp.where(a == 0, 1, out)
    return _strong(out)


def _hyp2f1_series(a, b, c, z):
    def body(k, carry):
        term, total = carry
        term = term * (a + k) * (b + k) / ((c + k) * (k + 1)) * z
        return term, total + term
    _, total = _loop(1000, body, (jnp.ones_like(z), jnp.ones_like(z)))
    return total


def _log_abs_gamma_sign(x):
    """(log|Gamma(x)|, sign Gamma(x)) for non-integer or positive x."""
    odd = (jnp.floor(x) % 2) != 0
    return lax.lgamma(x), jnp.where((x < 0) & odd, -1, 1).astype(aval(x).dtype)


def hyp2f1(a, b, c, x):
    """The Gauss hypergeometric function ``2F1(a, b; c; x)`` for real arguments,
    ``x <= 1``.

    Parameters
    ----------
    a, b, c, x : array_like
        Real values (broadcast together).

    Returns
    -------
    Array
        1 where ``x``, ``a`` or ``b`` is 0 (``c`` nonzero); inf where ``c`` is 0 or a
        negative integer, and for ``x > 1`` (as JAX) unless ``a`` or ``b`` equals ``c``
        (then ``(1 - x)**-b`` or ``(1 - x)**-a``, as JAX and SciPy); Gauss's value at ``x = 1`` (inf
        unless ``c - a - b > 0``). Elsewhere the power series: after Pfaff's
        transformation for ``x < 0`` (to ``x / (x - 1)`` in [0, 1)), after Euler's for
        ``c - a - b <= -1`` (terms that converge faster).
    """
    a, b, c, x = _real("hyp2f1", a, b, c, x)
    a, b, c, x = jnp.broadcast_arrays(a, b, c, x)
    neg = x < 0
    z = jnp.where(neg, x / (x - 1), jnp.where(x < 1, x, 0))
    b2 = jnp.where(neg, c - b, b)            # Pfaff: 2F1(a, c - b; c; z) (1 - x)^-a
    pre = jnp.where(neg, (1 - jnp.where(neg, x, 0)) ** -a, 1)
    d = c - a - b2
    euler = d <= -1                          # Euler: (1 - z)^d 2F1(c - a, c - b; c; z)
    a3, b3 = jnp.where(euler, c - a, a), jnp.where(euler, c - b2, b2)
    series = _hyp2f1_series(a3, b3, c, z) * jnp.where(euler, (1 - z) ** d, 1)
    out = pre * series
    # x = 1: Gamma(c) Gamma(c - a - b) / (Gamma(c - a) Gamma(c - b))
    g = [_log_abs_gamma_sign(v) for v in (c, c - a - b, c - a, c - b)]
    gauss = jnp.exp(g[0][0] + g[1][0] - g[2][0] - g[3][0]) * g[0][1] * g[1][1] * g[2][1] * \
        g[3][1]
    out = jnp.where(x == 1, jnp.where(c - a - b > 0, gauss, np.inf), out)
    # x > 1: inf, except where 2F1 reduces to a power of (1 - x) (a or b equal to c)
    s1 = 1 - x
    out = jnp.where(x > 1, jnp.where(a == c, s1 ** -b, jnp.where(b == c, s1 ** -a, np.inf)),
                    out)
    out = jnp.where((c == 0) | ((c < 0) & (c == jnp.round(c))), np.inf, out)
    out = jnp.where((x == 0) | (((a == 0) | (b == 0)) & (c != 0)), 1, out)
    return _strong(out)


def bessel_jn(z, *, v: int, n_iter: int = 50):
    """Bessel functions of the first kind ``J_0(z) .. J_v(z)``, by Miller's backward
    recurrence started at order ``n_iter`` and normalised by
    ``J_0 + 2 (J_2 + J_4 + ...) = 1``.

    Parameters
    ----------
    z : array_like
        Real arguments.
    v : int
        The highest order.
    n_iter : int, default 50
        The starting order of the recurrence (accurate while ``|z|`` is well below it).

    Returns
    -------
    Array
        Shape ``(v + 1,) + z.shape``.
    """
    z, = _real("bessel_jn", z)
    v, n_iter = int(v), int(n_iter)
    if v < 0:
        raise ValueError(f"bessel_jn: order v must be non-negative, got {v}")
    m = max(n_iter, v + 2)
    m += m % 2
    zs = jnp.where(z == 0, _k(z, 1), z)
    big = _k(z, 1e100 if aval(z).dtype == np.float64 else 1e15)
    tiny = _k(z, 1e-30 if aval(z).dtype == np.float64 else 1e-15)
    orders = jnp.arange(v + 1)

    def body(i, carry):
        j_next, j_cur, outs, norm = carry     # J_(k+1), J_k (unnormalised)
        k = m - i
        j_prev = 2 * k / zs * j_cur - j_next  # J_(k-1)
        outs = jnp.where((orders == k - 1).reshape((-1,) + (1,) * z.ndim), j_prev, outs)
        norm = norm + jnp.where(((k - 1) % 2 == 0) & (k - 1 > 0), 2 * j_prev, 0)
        norm = jnp.where(k - 1 == 0, norm + j_prev, norm)
        scale = jnp.where(jnp.abs(j_prev) > big, 1 / big, _k(z, 1))
        return j_cur * scale, j_prev * scale, outs * scale, norm * scale
    init = (jnp.zeros_like(zs), tiny + 0 * zs, jnp.zeros((v + 1,) + z.shape, aval(z).dtype),
            jnp.zeros_like(zs))
    _, _, outs, norm = _loop(m, body, init)
    out = outs / norm
    at_zero = jnp.where(orders == 0, 1, 0).astype(aval(z).dtype).reshape(
        (-1,) + (1,) * z.ndim)
    return _strong(jnp.where(z == 0, at_zero, out))

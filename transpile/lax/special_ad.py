"""Differentiation rules of the special-function primitives (``lax/special.py``), in
the form JAX 0.10.2 writes them (the same primitives in the same order).

``zeta``, ``igamma_grad_a`` and ``random_gamma_grad`` have no rule, as in JAX; the
derivatives of ``polygamma`` in its order and of ``betainc`` in ``a``/``b`` raise JAX's
``ValueError``.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..interpreters.ad import defjvp, defjvp2
from . import elementwise as ew
from . import special as sp
from .elementwise_ad import _const, _full_like, _ones, add, exp, mul, neg, select, square, sub

__all__: list = []


def _log(x):
    return ew.log_p.bind(x)


defjvp(sp.lgamma_p, lambda g, x: mul(g, sp.digamma(x)))
defjvp(sp.digamma_p, lambda g, x: mul(g, sp.polygamma(_const(x, 1), x)))
defjvp(sp.erfc_p, lambda g, x: mul(_const(x, -2 / math.sqrt(math.pi)),
                                   mul(g, exp(neg(square(x))))))


def _polygamma_grad_m(g, m, x):
    raise ValueError("polygamma gradient with respect to m is not supported")


defjvp(sp.polygamma_p, _polygamma_grad_m,
       lambda g, m, x: mul(g, sp.polygamma(add(m, _const(m, 1)), x)))


def _igamma_grad_x(g, a, x):
    # the density x^(a-1) e^-x / Gamma(a), through logs
    return mul(g, exp(sub(add(neg(x), mul(sub(a, _ones(a)), _log(x))), sp.lgamma(a))))


def _igamma_grad_a(g, a, x):
    return mul(g, sp.igamma_grad_a(a, x))


defjvp(sp.igamma_p, _igamma_grad_a, _igamma_grad_x)
defjvp(sp.igammac_p, lambda g, a, x: neg(_igamma_grad_a(g, a, x)),
       lambda g, a, x: neg(_igamma_grad_x(g, a, x)))

defjvp2(sp.bessel_i0e_p, lambda g, y, x: mul(g, sub(sp.bessel_i1e(x),
                                                    mul(ew.sign_p.bind(x), y))))


def _bessel_i1e_jvp(g, y, x):
    # i1e'(x) = i0e(x) - i1e(x) (sign(x) + 1/x), with its limit 1/2 near 0
    eps = np.finfo(dtypes.dtype(x)).eps
    not_tiny = ew.gt_p.bind(ew.abs_p.bind(x), _const(x, eps))
    safe_x = select(not_tiny, x, _full_like(x, eps))
    dy_dx = sub(sp.bessel_i0e(safe_x),
                mul(y, add(ew.sign_p.bind(safe_x), ew.integer_pow_p.bind(safe_x, y=-1))))
    return mul(g, select(not_tiny, dy_dx, _full_like(x, 0.5)))


defjvp2(sp.bessel_i1e_p, _bessel_i1e_jvp)


def _betainc_grad_ab(g, a, b, x):
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _betainc_grad_x(g, a, b, x):
    lbeta = sub(add(sp.lgamma(a), sp.lgamma(b)), sp.lgamma(add(a, b)))
    partial_x = exp(sub(add(mul(sub(b, _const(b, 1)), ew.log1p_p.bind(neg(x))),
                            mul(sub(a, _const(a, 1)), _log(x))), lbeta))
    return mul(partial_x, g)


defjvp(sp.regularized_incomplete_beta_p, _betainc_grad_ab, _betainc_grad_ab,
       _betainc_grad_x)
